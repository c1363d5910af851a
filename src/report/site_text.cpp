#include "report/site_text.hpp"

#include <fmt/format.h>

#include "format/site_kinds.hpp"

namespace parperf::report {
namespace {

constexpr auto kImplicitBarrier = static_cast<std::uint32_t>(format::SiteKind::omp_implicit_barrier);
constexpr auto kJoinBarrier = static_cast<std::uint32_t>(format::SiteKind::omp_join_barrier);

}  // namespace

std::string_view site_kind_words(std::uint32_t kind) {
  const format::SiteKindInfo* row = format::site_kind_info(kind);
  return row ? row->listing_words : "unknown kind";
}

SiteText describe_site(const format::Site& site, const format::Site* construct) {
  SiteText text;
  const format::SiteKindInfo* row = format::site_kind_info(site.kind);
  text.kind_name = row ? std::string(row->listing_words) : fmt::format("site of kind {}", site.kind);
  // A barrier that ends a construct is named after it; a join barrier always ends a parallel region.
  if (site.kind == kImplicitBarrier || site.kind == kJoinBarrier) {
    if (construct)
      text.kind_name = fmt::format("implicit barrier of {}", site_kind_words(construct->kind));
    else if (site.kind == kJoinBarrier)
      text.kind_name = "implicit barrier of parallel region";
  }
  // The collectors name an operation site after its kind: saying it twice adds nothing.
  const bool repeats_kind = row && (site.name == row->listing_words || site.name == row->site_name ||
                                    site.name == row->alias || site.name == text.kind_name);
  if (!(format::is_operation_kind(site.kind) && repeats_kind)) text.name = site.name;
  text.file = site.file;
  text.line1 = site.line;
  if (text.file.empty() && !site.module.empty()) {
    const std::size_t slash = site.module.rfind('/');
    const std::string module = slash == std::string::npos ? site.module : site.module.substr(slash + 1);
    text.file = fmt::format("{}+0x{:x}", module, site.address);
  }
  return text;
}

}  // namespace parperf::report
