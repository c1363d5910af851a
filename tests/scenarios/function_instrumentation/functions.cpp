// Instrumented through `parperf c++ --instrument=functions --filter std.filter`: the standard
// library's functions that the program instantiates (std::vector's, std::sort's) are excluded by
// the filter; the program's own functions, in a namespace, remain.
#include <algorithm>
#include <cstdio>
#include <vector>

namespace shapes {

__attribute__((noinline)) double area(double width, double height) { return width * height; }

__attribute__((noinline)) double total_area(const std::vector<double>& sides) {
  double total = 0;
  for (std::size_t i = 0; i + 1 < sides.size(); ++i) total += area(sides[i], sides[i + 1]);
  return total;
}

}  // namespace shapes

int main() {
  std::vector<double> sides;
  for (int i = 0; i < 500; ++i) sides.push_back((i * 7919) % 101);
  std::sort(sides.begin(), sides.end());
  std::printf("total %g\n", shapes::total_area(sides));
  return 0;
}
