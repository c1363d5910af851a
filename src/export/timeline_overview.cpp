#include "export/timeline_overview.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

namespace parperf::exports {

std::uint32_t TimelineOverview::track_of(const TimelineItem& item) {
  const auto [it, inserted] =
      tracks_.try_emplace({item.rank, item.thread, item.lane}, static_cast<std::uint32_t>(tracks_.size()));
  if (inserted) open_.emplace_back();
  return it->second;
}

std::uint32_t TimelineOverview::name_index(std::string_view name) {
  const auto [it, inserted] =
      name_indices_.try_emplace(std::string(name), static_cast<std::uint32_t>(names_.size()));
  if (inserted) names_.emplace_back(name);
  return it->second;
}

void TimelineOverview::item(const TimelineItem& item) {
  if (item.kind != ItemKind::slice_begin && item.kind != ItemKind::slice_end) return;
  begin_ = std::min(begin_, item.timestamp);
  end_ = std::max(end_, item.timestamp);
  std::vector<Open>& open = open_[track_of(item)];
  if (item.kind == ItemKind::slice_begin) {
    open.push_back({item.timestamp, name_index(item.name), static_cast<std::uint8_t>(item.category)});
    return;
  }
  if (open.empty()) return;  // slices nest on a track (timeline_slices.hpp): an end closes the last begin
  const Open o = open.back();
  open.pop_back();
  slices_.push_back({track_of(item), static_cast<std::uint32_t>(open.size()), o.start,
                     item.timestamp - o.start, o.name, o.category});
}

void TimelineOverview::finish() {
  const std::size_t total = slices_.size();
  if (slices_.size() > max_slices_) {
    std::nth_element(slices_.begin(), slices_.begin() + static_cast<std::ptrdiff_t>(max_slices_),
                     slices_.end(), [](const Slice& a, const Slice& b) { return a.duration > b.duration; });
    slices_.resize(max_slices_);
  }
  std::sort(slices_.begin(), slices_.end(), [](const Slice& a, const Slice& b) { return a.start < b.start; });
  // Tracks were numbered as they appeared in time; the page lists them by rank, thread and lane.
  std::vector<std::uint32_t> ordered(tracks_.size());
  std::uint32_t position = 0;
  for (const auto& [key, index] : tracks_) ordered[index] = position++;
  using json = nlohmann::ordered_json;
  json track = json::array(), depth = json::array(), start = json::array(), duration = json::array(),
       name = json::array(), category = json::array();
  std::uint32_t max_depth = 0;
  const std::uint64_t origin = begin_ == UINT64_MAX ? 0 : begin_;
  for (const Slice& s : slices_) {
    track.push_back(ordered[s.track]);
    depth.push_back(s.depth);
    start.push_back(s.start - origin);
    duration.push_back(s.duration);
    name.push_back(s.name);
    category.push_back(s.category);
    max_depth = std::max(max_depth, s.depth);
  }
  std::vector<std::string> labels(tracks_.size());
  std::int64_t ranks = 0;
  for (const auto& [key, index] : tracks_) ranks = std::max(ranks, std::get<0>(key) + 1);
  for (const auto& [key, index] : tracks_) {
    const auto& [rank, thread, lane] = key;
    std::string label =
        ranks > 1 ? fmt::format("rank {} thread {}", rank, thread) : fmt::format("thread {}", thread);
    if (lane > 0) label += " events";
    labels[ordered[index]] = std::move(label);
  }
  json categories = json::array();
  for (auto c :
       {ItemCategory::interval, ItemCategory::operation, ItemCategory::user_event, ItemCategory::iteration,
        ItemCategory::recording, ItemCategory::tracer, ItemCategory::message})
    categories.push_back(std::string(category_name(c)));
  json_ = {{"begin", 0},
           {"end", end_ >= origin ? end_ - origin : 0},
           {"tracks", labels},
           {"names", names_},
           {"categories", std::move(categories)},
           {"max_depth", max_depth},
           {"slices",
            {{"track", std::move(track)},
             {"depth", std::move(depth)},
             {"start", std::move(start)},
             {"duration", std::move(duration)},
             {"name", std::move(name)},
             {"category", std::move(category)}}},
           {"total_slices", total},
           {"truncated", total > slices_.size()}};
}

}  // namespace parperf::exports
