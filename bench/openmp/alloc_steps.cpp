// An allocation-heavy OpenMP kernel for bench/openmp/overhead.sh, shaped like a shock-hydrodynamics
// proxy application: every time step allocates its temporaries in the serial part (3 arrays of one
// double per element, 3 of eight doubles per element: a few hundred KB and a few MB each with the
// default 91 125 elements), fills them in one `parallel for`, folds them into the persistent state in
// a second one, and frees them again before the next step, on 2 threads. From the third step on, a
// third loop (artificial viscosity, once the shock has formed) runs while the temporaries are live:
// a construct first met in the middle of the run, when a tool that allocates through the program's
// malloc puts its blocks on top of the temporaries.
//
// With glibc's default, dynamic malloc thresholds the step's temporaries (about 20 MB) exceed twice
// the largest one, so free() trims the heap at the end of every step and the next step faults its
// pages in again: thousands of minor page faults a step, a large part of the run. Anything that moves
// glibc's thresholds (a tool's large malloc/free, mallopt, GLIBC_TUNABLES) makes those faults vanish
// and the program much faster: the figure a profiler must not change. The program counts them.
//
// Usage: parperf-bench-omp-alloc-steps [elements=91125] [steps=100]
// Prints the elements, the steps, a checksum (the same whatever runs it), the seconds the steps took
// and the minor page faults of the process during them.
#include <omp.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>

namespace {

constexpr int kCorners = 8;

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// One time step: the temporaries live from its start to its end only, as in the proxy application.
// new[] without initialisation, so the parallel loop is the first to touch their pages.
void step(long n, long index, double* energy, double* volume) {
  double* sig[3];
  double* corner_force[3];
  for (auto*& s : sig) s = new double[static_cast<std::size_t>(n)];
  for (auto*& f : corner_force) f = new double[static_cast<std::size_t>(n * kCorners)];

#pragma omp parallel for num_threads(2) schedule(static)
  for (long e = 0; e < n; ++e) {
    const double pressure = 0.4 * energy[e] / volume[e];
    for (int d = 0; d < 3; ++d) sig[d][e] = -pressure * (1.0 + 0.01 * d);
    for (int c = 0; c < kCorners; ++c)
      for (int d = 0; d < 3; ++d) corner_force[d][e * kCorners + c] = sig[d][e] * (0.125 + 1e-3 * c);
  }

#pragma omp parallel for num_threads(2) schedule(static)
  for (long e = 0; e < n; ++e) {
    double work = 0.0;
    for (int c = 0; c < kCorners; ++c)
      for (int d = 0; d < 3; ++d) work += corner_force[d][e * kCorners + c];
    energy[e] -= 1e-4 * work * volume[e];
    volume[e] *= 1.0 + 1e-7 * (sig[0][e] - sig[2][e]);
  }

  if (index >= 2) {
#pragma omp parallel for num_threads(2) schedule(static)
    for (long e = 0; e < n; ++e) energy[e] += 1e-6 * (sig[1][e] - sig[0][e]) * volume[e];
  }

  for (auto* s : sig) delete[] s;
  for (auto* f : corner_force) delete[] f;
}

}  // namespace

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : 91125;
  const long steps = argc > 2 ? std::atol(argv[2]) : 100;
  if (n < 1 || steps < 1) {
    std::fprintf(stderr, "usage: %s [elements >= 1] [steps >= 1]\n", argv[0]);
    return 2;
  }
  auto* energy = new double[static_cast<std::size_t>(n)];
  auto* volume = new double[static_cast<std::size_t>(n)];
  for (long e = 0; e < n; ++e) {
    energy[e] = 1.0 + 1e-6 * static_cast<double>(e % 1000);
    volume[e] = 1.0;
  }

  const long faults_before = minor_faults();
  const double start = omp_get_wtime();
  for (long s = 0; s < steps; ++s) step(n, s, energy, volume);
  const double seconds = omp_get_wtime() - start;
  const long faults = minor_faults() - faults_before;

  double checksum = 0.0;
  for (long e = 0; e < n; ++e) checksum += energy[e] + volume[e];
  std::printf("elements: %ld\nsteps: %ld\nchecksum: %.9f\nseconds: %.9f\nminor faults: %ld\n", n, steps,
              checksum, seconds, faults);
  delete[] energy;
  delete[] volume;
  return 0;
}
