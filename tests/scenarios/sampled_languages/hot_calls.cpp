// A C++ program built -O2 without frame pointers (g++ and clang++-16), for the unwinding of sampled
// call paths through what C++ adds: a virtual call, a template, a std::function, and the work in libm.
//
// The main thread spends 300 ms of its CPU time in spin::heavy (reached through a virtual call) and
// 100 ms in spin::light (through a std::function called from a template): heavy has 75 % of the two's
// samples, and every sample's path reaches main.
#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>
#include <memory>
#include <vector>

namespace spin {

volatile double sink;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

__attribute__((noinline)) void heavy(double seconds) {
  const double end = cpu_seconds() + seconds;
  while (cpu_seconds() < end)
    for (int i = 0; i < 20000; ++i) sink = sink + std::cos(static_cast<double>(i) * 1e-4);
}

__attribute__((noinline)) void light(double seconds) {
  const double end = cpu_seconds() + seconds;
  while (cpu_seconds() < end)
    for (int i = 0; i < 20000; ++i) sink = sink + std::sin(static_cast<double>(i) * 1e-4);
}

struct Load {
  virtual ~Load() = default;
  virtual void run() const = 0;
};

struct HeavyLoad : Load {
  explicit HeavyLoad(double s) : seconds(s) {}
  __attribute__((noinline)) void run() const override {
    heavy(seconds);
    sink = sink + 1;  // keeps the call a call, not a jump
  }
  double seconds;
};

template <typename Work>
__attribute__((noinline)) void twice_half(const Work& work, double seconds) {
  work(seconds / 2);
  work(seconds / 2);
  sink = sink + 1;
}

}  // namespace spin

int main(int argc, char**) {
  // The argument count decides the object, so the compiler cannot turn the virtual call into a direct one.
  std::vector<std::unique_ptr<spin::Load>> loads;
  loads.push_back(std::make_unique<spin::HeavyLoad>(argc > 0 ? 0.300 : 0.0));
  for (const auto& load : loads) load->run();
  const std::function<void(double)> light = spin::light;
  spin::twice_half(light, 0.100);
  std::printf("done\n");
  return 0;
}
