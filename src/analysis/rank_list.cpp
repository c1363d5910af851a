#include "analysis/rank_list.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace parperf::analysis {

std::string rank_list(std::vector<std::int64_t> ranks, std::size_t max_items) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::string text;
  std::size_t items = 0, i = 0;
  while (i < ranks.size()) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (items == max_items) return text + fmt::format(" and {} more", ranks.size() - i);
    if (!text.empty()) text += ", ";
    text += j == i ? fmt::format("{}", ranks[i]) : fmt::format("{}-{}", ranks[i], ranks[j]);
    ++items;
    i = j + 1;
  }
  return text;
}

}  // namespace parperf::analysis
