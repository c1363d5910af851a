// The names of procedure linkage table stubs (src/analysis/plt_stubs.*), read from this test's own
// executable: a PIE program gcc links calls __cxa_finalize (from crtbeginS.o, which also takes its
// address) through a stub in .plt.got, and every other library function through .plt or .plt.sec.
#include <fcntl.h>
#include <gelf.h>
#include <gtest/gtest.h>
#include <libelf.h>
#include <unistd.h>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "analysis/plt_stubs.hpp"

namespace parperf::analysis {
namespace {

class PltStubs : public testing::Test {
 protected:
  void SetUp() override {
    elf_version(EV_CURRENT);
    fd_ = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd_, 0);
    elf_ = elf_begin(fd_, ELF_C_READ, nullptr);
    ASSERT_NE(elf_, nullptr);
  }
  void TearDown() override {
    if (elf_) elf_end(elf_);
    if (fd_ >= 0) close(fd_);
  }
  // The section named `wanted` of this executable (sh_size 0: none).
  GElf_Shdr section(std::string_view wanted) const {
    std::size_t names = 0;
    elf_getshdrstrndx(elf_, &names);
    for (Elf_Scn* scn = elf_nextscn(elf_, nullptr); scn; scn = elf_nextscn(elf_, scn)) {
      GElf_Shdr header;
      const char* name = gelf_getshdr(scn, &header) ? elf_strptr(elf_, names, header.sh_name) : nullptr;
      if (name && wanted == name) return header;
    }
    return GElf_Shdr{};
  }
  int fd_ = -1;
  Elf* elf_ = nullptr;
};

TEST_F(PltStubs, StubsInPltGotAreNamedLikeThoseInPlt) {
  const GElf_Shdr plt_got = section(".plt.got");
  if (plt_got.sh_size == 0)
    GTEST_SKIP() << "this executable has no .plt.got (not a PIE program linked by GNU ld)";
  const std::uint64_t size = plt_got.sh_entsize ? plt_got.sh_entsize : 8;
  std::set<std::string> names;
  for (std::uint64_t stub = plt_got.sh_addr; stub < plt_got.sh_addr + plt_got.sh_size; stub += size) {
    // Any instruction of the stub: a sample lands anywhere in it.
    const std::string name = plt_stub_name(elf_, stub + size - 1);
    EXPECT_TRUE(name.size() > 4 && name.ends_with("@plt"))
        << "the .plt.got stub at 0x" << std::hex << stub << " is named \"" << name
        << "\", not <function>@plt";
    EXPECT_EQ(plt_stub_name(elf_, stub), name) << "the stub's first and last byte name the same function";
    names.insert(name);
  }
  EXPECT_TRUE(names.count("__cxa_finalize@plt"))
      << "crtbeginS.o's call of __cxa_finalize goes through .plt.got";
}

TEST_F(PltStubs, StubsInPltStillNamedAndOtherCodeNot) {
  GElf_Shdr stubs = section(".plt.sec");
  std::uint64_t first = stubs.sh_addr;
  if (stubs.sh_size == 0) {
    stubs = section(".plt");
    first = stubs.sh_addr + 16;  // after the lazy-binding stub
  }
  ASSERT_GT(stubs.sh_size, 32u) << "this executable calls library functions through a .plt";
  EXPECT_TRUE(plt_stub_name(elf_, first).ends_with("@plt"));
  EXPECT_EQ(plt_stub_name(elf_, section(".text").sh_addr), "") << "code outside the stubs has no stub name";
}

}  // namespace
}  // namespace parperf::analysis
