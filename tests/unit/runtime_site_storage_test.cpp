// A parperf_site must be static (parperf.h); one on a stack or in memory the program frees is a
// contract breach that must not crash the program at exit: the runtime copies such a site at
// registration, names it once in a warning, and the profile holds the copy's name and file:line.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstring>
#include <new>
#include <string>

#include "parperf/parperf.h"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

parperf_site g_inner = PARPERF_SITE_INIT("storage_inner", PARPERF_KIND_USER);

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

// The site and its name live in this call's frame: both are gone, and overwritten, once it returns.
__attribute__((noinline)) void interval_with_site_on_stack() {
  char name[] = "stack_site";
  parperf_site site = PARPERF_SITE_INIT(name, PARPERF_KIND_USER);
  parperf_interval_begin(&site, 0);
  parperf_interval_begin(&g_inner, 0);
  parperf_interval_end(&g_inner);
  parperf_interval_end(&site);
}

__attribute__((noinline)) void overwrite_the_stack() {
  volatile char junk[8192];
  for (auto& c : junk) c = static_cast<char>(0xff);
}

TEST(RuntimeSiteStorage, ASiteOnTheStackIsCopiedAndNamedOnce) {
  ::testing::internal::CaptureStderr();
  interval_with_site_on_stack();
  overwrite_the_stack();
  interval_with_site_on_stack();
  overwrite_the_stack();
  const std::string messages = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(occurrences(messages, "not in static storage"), 1u) << "warned once: " << messages;
  EXPECT_NE(messages.find("'stack_site' (" __FILE__ ":"), std::string::npos)
      << "the warning names the site and its file:line: " << messages;
  EXPECT_EQ(messages.find("without a matching begin"), std::string::npos)
      << "the end of a copied site closes its begin: " << messages;

  const auto profile = flush_and_read();
  const auto* outer = find_node(profile, main_thread(profile), {"stack_site"});
  ASSERT_NE(outer, nullptr) << "the profile lost the interval of the site on the stack (or its name)";
  EXPECT_EQ(outer->count, 2u)
      << "both calls enter the same interval: one copy for the site's name, file and line";
  const auto* inner = find_node(profile, main_thread(profile), {"stack_site", "storage_inner"});
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->count, 2u);
}

// Memory the program maps and unmaps: writing the profile after the unmap must not touch it.
TEST(RuntimeSiteStorage, ASiteInFreedMemoryDoesNotCrashTheProfileWriter) {
  const std::size_t size = 4096;
  void* page = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  char* name = static_cast<char*>(page) + sizeof(parperf_site);
  std::strcpy(name, "mapped_site");
  auto* site = new (page) parperf_site(PARPERF_SITE_INIT(name, PARPERF_KIND_USER));
  ::testing::internal::CaptureStderr();
  parperf_interval_begin(site, 7);
  parperf_interval_end(site);
  const std::string messages = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(messages.find("'mapped_site'"), std::string::npos) << messages;
  ASSERT_EQ(munmap(page, size), 0);

  const auto profile = flush_and_read();  // crashed here (SIGSEGV) when the writer read the site
  const auto* node = find_node(profile, main_thread(profile), {"mapped_site"}, {7});
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->count, 1u);
}

TEST(RuntimeSiteStorage, AStaticSiteIsNotWarnedAbout) {
  static parperf_site in_data = PARPERF_SITE_INIT("storage_static", PARPERF_KIND_USER);
  ::testing::internal::CaptureStderr();
  parperf_interval_begin(&in_data, 0);
  parperf_interval_end(&in_data);
  const std::string messages = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(messages.find("static storage"), std::string::npos) << messages;
}

}  // namespace
}  // namespace parperf::testing
