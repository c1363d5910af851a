#include "report/interval_kind.hpp"

#include "parperf/parperf.h"

namespace parperf::report {
namespace {

// One row per interval kind: how the text protocol says it, and its JSON key.
struct KindNames {
  std::uint32_t kind;
  std::string_view text;
  std::string_view key;
};

constexpr KindNames kKinds[] = {
    {PARPERF_KIND_PROGRAM, "program", "program"},
    {PARPERF_KIND_USER, "user", "user"},
    {PARPERF_KIND_PARALLEL_LOOP, "parallel loop", "parallel_loop"},
    {PARPERF_KIND_SEQUENTIAL_LOOP, "sequential loop", "sequential_loop"},
};

const KindNames* names_of(std::uint32_t kind) {
  for (const KindNames& names : kKinds)
    if (names.kind == kind) return &names;
  return nullptr;
}

}  // namespace

std::string_view kind_text(std::uint32_t kind) {
  const KindNames* names = names_of(kind);
  return names ? names->text : "unknown";
}

std::string_view kind_key(std::uint32_t kind) {
  const KindNames* names = names_of(kind);
  return names ? names->key : "unknown";
}

}  // namespace parperf::report
