// The timeline the HTML report draws (report/html): the slices of a traced run (intervals,
// operations, user events) on one track per thread, in rank, thread and lane order, as compact
// columns. A page must stay small, so
// a long trace keeps its longest slices, the ones visible when the whole run is on screen, and says
// how many it left out; `parperf export --perfetto` has them all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "export/timeline_slices.hpp"

namespace parperf::exports {

class TimelineOverview : public TimelineWriter {
 public:
  explicit TimelineOverview(std::size_t max_slices = 20'000) : max_slices_(max_slices) {}
  void item(const TimelineItem& item) override;
  void finish() override;

  // {"begin", "end" (ns), "tracks": [label], "names": [name], "categories": [name], "max_depth",
  //  "slices": {"track", "depth", "start", "duration", "name", "category"}, "total_slices", "truncated"}.
  // Valid after finish().
  const nlohmann::ordered_json& json() const { return json_; }

 private:
  struct Slice {
    std::uint32_t track;
    std::uint32_t depth;
    std::uint64_t start;
    std::uint64_t duration;
    std::uint32_t name;
    std::uint8_t category;
  };
  struct Open {
    std::uint64_t start;
    std::uint32_t name;
    std::uint8_t category;
  };
  std::uint32_t track_of(const TimelineItem& item);
  std::uint32_t name_index(std::string_view name);

  std::size_t max_slices_;
  std::map<std::tuple<std::int64_t, std::uint32_t, std::uint32_t>, std::uint32_t>
      tracks_;                           // rank, thread, lane
  std::vector<std::vector<Open>> open_;  // per track: its slices begun, not yet ended
  std::unordered_map<std::string, std::uint32_t> name_indices_;
  std::vector<std::string> names_;
  std::vector<Slice> slices_;
  std::uint64_t begin_ = UINT64_MAX, end_ = 0;
  nlohmann::ordered_json json_;
};

}  // namespace parperf::exports
