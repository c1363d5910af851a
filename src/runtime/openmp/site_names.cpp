#include "runtime/openmp/site_names.hpp"

#include "format/site_kinds.hpp"

namespace parperf::runtime::openmp {

const char* site_name(format::SiteKind kind) noexcept {
  // The table's names are string literals, so their views are NUL-terminated.
  const format::SiteKindInfo* info = format::site_kind_info(kind);
  return info && !info->site_name.empty() ? info->site_name.data() : "operation";
}

}  // namespace parperf::runtime::openmp
