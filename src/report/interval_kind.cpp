#include "report/interval_kind.hpp"

#include "format/site_kinds.hpp"

namespace parperf::report {

std::string_view kind_text(std::uint32_t kind) {
  const format::SiteKindInfo* info = format::site_kind_info(kind);
  return info ? info->words : "unknown";
}

std::string_view kind_key(std::uint32_t kind) {
  const format::SiteKindInfo* info = format::site_kind_info(kind);
  return info ? info->key : "unknown";
}

}  // namespace parperf::report
