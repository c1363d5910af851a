// Sorting what is already nearly in order. A thread's points come almost in time order (an
// operation's end or arrival lands after the next event's start now and then: 1 % of the points of
// an 8-rank halo exchange, 12 places out on average), where a general sort takes n log n whatever the
// order. Each item is moved back past the later ones before it, as an insertion sort does: the order
// std::stable_sort gives, in time linear in the items and their displacement. Items far out of order
// are left, once a budget of moves is spent, to std::stable_sort, which then finishes the same
// order: the moves made keep equal items in their first order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace parperf::analysis {

// std::stable_sort(items, less), for `less` a strict weak order.
template <class T, class Less>
void stable_sort_nearly_sorted(std::vector<T>& items, Less less) {
  std::size_t budget = 8 * items.size() + 1024;  // moves before the general sort is the cheaper
  for (std::size_t i = 1; i < items.size() && budget > 0; ++i) {
    if (!less(items[i], items[i - 1])) continue;
    T moving = std::move(items[i]);
    std::size_t at = i;
    for (; at > 0 && budget > 0 && less(moving, items[at - 1]); --at, --budget)
      items[at] = std::move(items[at - 1]);
    items[at] = std::move(moving);
  }
  if (budget == 0) std::stable_sort(items.begin(), items.end(), less);
}

}  // namespace parperf::analysis
