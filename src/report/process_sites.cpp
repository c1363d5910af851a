#include "report/process_sites.hpp"

#include <fmt/format.h>

#include "format/site_kinds.hpp"

namespace parperf::report {

ProcessSites::ProcessSites(const format::Profile& profile, SiteDescriber describe)
    : describe_(std::move(describe)) {
  for (const format::Site& site : profile.sites) sites_.emplace(site.id, &site);
  for (const format::Event& event : profile.events) events_.emplace(event.id, &event);
}

std::array<std::string_view, 5> ProcessSites::kind_words(const SiteText& text, std::uint32_t kind) {
  const format::SiteKindInfo* row = format::site_kind_info(kind);
  if (!row) return {text.kind_name};
  return {text.kind_name, row->listing_words, row->site_name, row->alias, row->key};
}

std::uint32_t ProcessSites::kind(std::uint32_t id) const {
  auto it = sites_.find(id);
  return it != sites_.end() ? it->second->kind : static_cast<std::uint32_t>(format::SiteKind::user);
}

std::string ProcessSites::event_name(std::uint32_t event) const {
  auto it = events_.find(event);
  return it != events_.end() ? it->second->name : fmt::format("<unknown event {}>", event);
}

const SiteText& ProcessSites::text(std::uint32_t id) {
  auto cached = texts_.find(id);
  if (cached != texts_.end()) return cached->second;
  SiteText text;
  auto it = sites_.find(id);
  if (it == sites_.end()) {
    text.kind_name = "unknown site";
    text.name = fmt::format("<unknown site {}>", id);
  } else {
    const format::Site& site = *it->second;
    auto construct = sites_.find(site.parent);
    text = describe_(
        site, site.parent != format::kNoParent && construct != sites_.end() ? construct->second : nullptr);
  }
  return texts_.emplace(id, std::move(text)).first->second;
}

}  // namespace parperf::report
