// The bundled example: heat diffusing along a rod, computed by two threads, annotated with the
// parperf C API. `scripts/demo.sh` runs it under `parperf run` and prints its report.
//
// The rod is cut into two subdomains with one ghost cell at each end. The main thread computes the
// initial temperatures alone (`initialize`), then it and one helper thread run the time steps
// (`time_steps`, one marked iteration per step): each updates its own cells (`compute`), then hands
// its boundary temperature to the other and waits for the other's (`exchange`, with a `halo` user
// event around the hand-over). The cut is deliberately uneven: thread 0 owns 60 % of the cells and
// thread 1 40 %, so thread 1 does 2/3 of thread 0's work and then waits for it in every exchange.
// That is what the report shows: idle time and load imbalance in `compute`, mirrored in `exchange`,
// where thread 1 spends the longer time.
//
// The result is deterministic: the arithmetic of every cell is the same whatever the timing.
#include <parperf/parperf.h>

#include <barrier>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kCells = 1 << 18;
constexpr std::size_t kCellsOfThread0 = kCells * 3 / 5;  // the uneven cut
constexpr int kSteps = 5000;
constexpr double kDiffusion = 0.25;  // alpha * dt / dx^2; stable below 0.5
constexpr int kFourierTerms = 24;

// One thread's part of the rod, double-buffered: step s reads buffers[s % 2] and writes
// buffers[(s + 1) % 2]. Cells 1..n are the thread's own; cells 0 and n+1 are ghost cells holding the
// neighbour's boundary temperature (or the fixed temperature at an end of the rod).
struct Subdomain {
  std::size_t first = 0;  // index in the rod of the first own cell
  std::vector<double> buffers[2];
  std::size_t size() const { return buffers[0].size() - 2; }
};

struct Rod {
  Subdomain parts[2];
  std::barrier<> step_done{2};
  unsigned halo_event = 0;
};

// The initial temperature: a warm band over the middle half of the rod, as a truncated Fourier sine
// series evaluated cell by cell (the expensive part of the set-up, done on one thread).
void initialize(Rod& rod) {
  static parperf_site site = PARPERF_SITE_INIT("initialize", PARPERF_KIND_USER);
  parperf_interval_begin(&site, 0);
  const double pi = std::acos(-1.0);
  const std::size_t sizes[2] = {kCellsOfThread0, kCells - kCellsOfThread0};
  std::size_t first = 0;
  for (int t = 0; t < 2; ++t) {
    Subdomain& part = rod.parts[t];
    part.first = first;
    std::vector<double>& u = part.buffers[0];
    u.assign(sizes[t] + 2, 0.0);
    for (std::size_t i = 1; i <= sizes[t]; ++i) {
      const double x = (static_cast<double>(first + i) - 0.5) / static_cast<double>(kCells);
      double sum = 0;
      for (int k = 1; k <= kFourierTerms; ++k) {
        sum += 2 / (k * pi) * (std::cos(k * pi / 4) - std::cos(3 * k * pi / 4)) * std::sin(k * pi * x);
      }
      u[i] = sum;
    }
    first += sizes[t];
  }
  rod.parts[0].buffers[0].front() = 1.0;  // the left end of the rod is held hot, the right end cold
  rod.parts[1].buffers[0].back() = 0.0;
  for (Subdomain& part : rod.parts) part.buffers[1] = part.buffers[0];
  parperf_interval_end(&site);
}

void compute(Subdomain& part, int step) {
  static parperf_site site = PARPERF_SITE_INIT("compute", PARPERF_KIND_PARALLEL_LOOP);
  parperf_interval_begin(&site, 0);
  const double* u = part.buffers[step % 2].data();
  double* v = part.buffers[(step + 1) % 2].data();
  for (std::size_t i = 1; i <= part.size(); ++i) v[i] = u[i] + kDiffusion * (u[i - 1] - 2 * u[i] + u[i + 1]);
  parperf_interval_end(&site);
}

// Puts this thread's new boundary temperature into the neighbour's ghost cell, then waits until the
// neighbour has done the same: the next step reads both ghost cells. Writing into the neighbour's
// buffer while it still computes is safe: it writes only its own cells.
void exchange(Rod& rod, int thread, int step) {
  static parperf_site site = PARPERF_SITE_INIT("exchange", PARPERF_KIND_USER);
  parperf_interval_begin(&site, 0);
  parperf_event_start(rod.halo_event, step);
  std::vector<double>& left = rod.parts[0].buffers[(step + 1) % 2];
  std::vector<double>& right = rod.parts[1].buffers[(step + 1) % 2];
  if (thread == 0) {
    right.front() = left[left.size() - 2];
  } else {
    left.back() = right[1];
  }
  parperf_event_end(rod.halo_event, step);
  rod.step_done.arrive_and_wait();
  parperf_interval_end(&site);
}

void time_steps(Rod& rod, int thread) {
  static parperf_site site = PARPERF_SITE_INIT("time_steps", PARPERF_KIND_SEQUENTIAL_LOOP);
  parperf_interval_begin(&site, 0);
  for (int step = 0; step < kSteps; ++step) {
    parperf_loop_iteration();
    compute(rod.parts[thread], step);
    exchange(rod, thread, step);
  }
  parperf_interval_end(&site);
}

}  // namespace

int main() {
  Rod rod;
  rod.halo_event = parperf_event_create("halo", "step %d");
  initialize(rod);
  std::thread helper(time_steps, std::ref(rod), 1);
  time_steps(rod, 0);
  helper.join();

  double heat = 0;
  for (const Subdomain& part : rod.parts) {
    const std::vector<double>& u = part.buffers[kSteps % 2];
    for (std::size_t i = 1; i <= part.size(); ++i) heat += u[i];
  }
  const auto temperature_at = [&rod](std::size_t cell) {
    const Subdomain& part = rod.parts[cell < kCellsOfThread0 ? 0 : 1];
    return part.buffers[kSteps % 2][cell - part.first + 1];
  };
  std::printf("heat stencil: %zu cells, %d steps on 2 threads (%zu + %zu cells)\n", kCells, kSteps,
              rod.parts[0].size(), rod.parts[1].size());
  std::printf("mean temperature %.9f, at 1/4: %.9f, at 1/2: %.9f, at 3/4: %.9f\n",
              heat / static_cast<double>(kCells), temperature_at(kCells / 4), temperature_at(kCells / 2),
              temperature_at(kCells * 3 / 4));
  return 0;
}
