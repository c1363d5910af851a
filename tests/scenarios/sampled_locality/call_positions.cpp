// The sampled mode's exactness across calls (sampled_locality_test.cpp): instrumented functions that
// call each other between their own accesses, so that the countdown crosses every kind of frame
// boundary: plain calls, tail calls, recursion, a callback from uninstrumented code (qsort), a C++
// exception thrown through a frame without a handler and caught, setjmp/longjmp over a frame, on
// two threads.
//   call_positions ROUNDS   prints "cells 0x...", the array that all but the exception objects'
//                           accesses touch; the main thread works on cells [0, 2^12), the other
//                           on [2^12, 2^13)
// Everything is deterministic, so the exact build and the sampled build make the same accesses in
// the same order on each thread.
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

constexpr long kRegion = 1 << 12;
long* cells;

[[gnu::noinline]] long leaf(long i) { return cells[i] + cells[i + 1]; }

// A call that must be a tail call, and one the optimiser makes one: the callee's count is the
// caller's at the return.
[[gnu::noinline]] long forwards(long i) {
  cells[i] += 1;
  [[clang::musttail]] return leaf(i + 1);
}

[[gnu::noinline]] long ends_in_a_call(long i) {
  cells[i] += 2;
  return forwards(i + 1);
}

[[gnu::noinline]] long recurse(long i, int depth) {
  long value = cells[i];
  if (depth > 0) value += recurse(i + 1, depth - 1);  // not a tail call: the store comes after
  cells[i] = value + 1;
  return value;
}

struct Overflow {
  long at;
};

[[gnu::noinline]] void check(long i) {
  if (++cells[i] % 3 == 0) throw Overflow{i};
}

// No destructor, no handler: a throw from check() passes through this frame without a landing pad.
[[gnu::noinline]] long passes_through(long i) {
  const long value = cells[i];
  check(i + 1);
  return value + cells[i + 2];
}

[[gnu::noinline]] long catches(long i) {
  try {
    return passes_through(i);
  } catch (const Overflow& overflow) {
    return cells[overflow.at + 2];
  }
}

[[gnu::noinline]] void jumps(std::jmp_buf& back, long i) {
  cells[i] += 7;
  if (cells[i + 1]++ % 2 == 0) std::longjmp(back, 1);
  cells[i + 2] = cells[i];
}

[[gnu::noinline]] long with_setjmp(long i) {
  std::jmp_buf back;
  if (setjmp(back) == 0) {
    cells[i] += 1;
    jumps(back, i + 1);
  }
  return cells[i + 3];
}

int compare(const void* a, const void* b) {
  const long x = *static_cast<const long*>(a), y = *static_cast<const long*>(b);
  return (x > y) - (x < y);
}

void work(long first, long rounds) {
  long sum = 0;
  for (long r = 0; r < rounds; ++r) {
    const long i = first + (r % 128) * 24;
    sum += cells[i];
    sum += leaf(i + 1);
    cells[i + 2] = sum;
    sum += recurse(i + 3, 4);
    sum += catches(i + 8);
    sum += with_setjmp(i + 12);
    std::qsort(&cells[i + 16], 8, sizeof(long), compare);
    cells[i + 16] ^= sum;
    sum += ends_in_a_call(i + 20);
  }
  cells[first] = sum;
}

}  // namespace

int main(int argc, char** argv) {
  const long rounds = argc > 1 ? std::atol(argv[1]) : 1000;
  cells = static_cast<long*>(std::calloc(2 * kRegion, sizeof(long)));
  if (cells == nullptr) return 1;
  std::printf("cells %p\n", static_cast<void*>(cells));
  std::fflush(stdout);
  std::thread other(work, kRegion, rounds);
  work(0, rounds);
  other.join();
  std::free(cells);
  return 0;
}
