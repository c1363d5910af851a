// A process's sites and user events by their ids, each site described once (a describer that
// symbolizes reads debug information): what both readable traces (the profile's and the event
// trace's) look names up in.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "format/profile.hpp"
#include "report/site_text.hpp"

namespace parperf::report {

class ProcessSites {
 public:
  ProcessSites(const format::Profile& profile, SiteDescriber describe);

  // The site's description; "<unknown site N>" for an id the profile does not define.
  const SiteText& text(std::uint32_t site);
  // The site's SiteKind (user for an unknown id).
  std::uint32_t kind(std::uint32_t site) const;
  // The user event's name; "<unknown event N>" for an id the profile does not define.
  std::string event_name(std::uint32_t event) const;

  // Every word a filter may name a site's kind by: as the listing says it, the row's words, the name
  // collectors give such sites, another name users know, the key.
  static std::array<std::string_view, 5> kind_words(const SiteText& text, std::uint32_t kind);

 private:
  SiteDescriber describe_;
  std::unordered_map<std::uint32_t, const format::Site*> sites_;
  std::unordered_map<std::uint32_t, const format::Event*> events_;
  std::unordered_map<std::uint32_t, SiteText> texts_;
};

// The words a filter names user events by.
inline constexpr std::string_view kUserEventWords = "user event";
inline constexpr std::string_view kUserEventKey = "user_event";

}  // namespace parperf::report
