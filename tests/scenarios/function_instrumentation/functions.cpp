// Instrumented through `parperf c++ --instrument=functions --filter std.filter`: the standard
// library's functions that the program instantiates (std::vector's, std::sort's) are excluded by
// the filter; the program's own functions, in a namespace, remain. Before its work, main has
// check_all() reject a negative side by an exception thrown two calls deep: clang calls no exit hook
// while unwinding, and total_area(), called after the catch, must still be main's child.
#include <algorithm>
#include <cstdio>
#include <vector>

namespace shapes {

struct NegativeSide {};

__attribute__((noinline)) void check(double side) {
  if (side < 0) throw NegativeSide{};
}

__attribute__((noinline)) void check_all(const std::vector<double>& sides) {
  for (double side : sides) check(side);
}

__attribute__((noinline)) double area(double width, double height) { return width * height; }

__attribute__((noinline)) double total_area(const std::vector<double>& sides) {
  double total = 0;
  for (std::size_t i = 0; i + 1 < sides.size(); ++i) total += area(sides[i], sides[i + 1]);
  return total;
}

}  // namespace shapes

int main() {
  try {
    shapes::check_all({3.0, -1.0, 2.0});
  } catch (const shapes::NegativeSide&) {
    std::puts("rejected a negative side");
  }
  std::vector<double> sides;
  for (int i = 0; i < 500; ++i) sides.push_back((i * 7919) % 101);
  std::sort(sides.begin(), sides.end());
  std::printf("total %g\n", shapes::total_area(sides));
  return 0;
}
