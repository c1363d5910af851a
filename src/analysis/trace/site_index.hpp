// A rank's profile sites by id, for the passes that look up every trace event's site
// (match_communication, build_activity_graph): a hash lookup an event was the largest single cost
// of both. The collectors number their sites densely from 1, so a table indexed by id answers with
// one load; ids too sparse for a table (more than 4 slots a site) fall back to a hash map.
// `slot` is the site's place in the profile's list, for per-site facts a pass works out once.
// When two sites share an id, the later one is found, as assigning into a map would keep it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

#include "format/profile.hpp"

namespace parperf::analysis {

class SiteIndex {
 public:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

  explicit SiteIndex(const format::Profile* profile) {
    if (!profile) return;
    sites_ = &profile->sites;
    std::uint64_t largest = 0;
    for (const format::Site& s : *sites_) largest = std::max<std::uint64_t>(largest, s.id);
    dense_ = largest < 4 * sites_->size() + 64;
    if (dense_) table_.assign(sites_->empty() ? 0 : largest + 1, kNone);
    for (std::uint32_t i = 0; i < sites_->size(); ++i) {
      const std::uint32_t id = (*sites_)[i].id;
      if (dense_)
        table_[id] = i;
      else
        sparse_[id] = i;
    }
  }

  // The site's place in the profile's sites, or kNone.
  std::uint32_t slot(std::uint32_t id) const {
    if (dense_) return id < table_.size() ? table_[id] : kNone;
    const auto it = sparse_.find(id);
    return it == sparse_.end() ? kNone : it->second;
  }
  const format::Site* find(std::uint32_t id) const {
    const std::uint32_t s = slot(id);
    return s == kNone ? nullptr : &(*sites_)[s];
  }
  std::size_t size() const { return sites_ ? sites_->size() : 0; }

 private:
  const std::vector<format::Site>* sites_ = nullptr;
  bool dense_ = true;
  std::vector<std::uint32_t> table_;
  std::unordered_map<std::uint32_t, std::uint32_t> sparse_;
};

}  // namespace parperf::analysis
