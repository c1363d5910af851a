// Two independent parts of the trace analysis at once: `side` on a thread of its own while `main`
// runs on the caller's. Each part writes only its own results and reads only what neither changes,
// so the results are the same as the two run in turn, which is what happens with one thread, or
// when no thread can be started (a process at its limit of threads still gets its report).
//
// When both fail, `main`'s error is the one rethrown: `main` is given the part that would have run
// first, so a damaged file is reported as the serial analysis reports it.
#pragma once

#include <exception>
#include <system_error>
#include <thread>
#include <utility>

namespace parperf::analysis {

template <class Main, class Side>
void run_side_by_side(unsigned threads, Main&& main, Side&& side) {
  if (threads < 2) {
    main();
    side();
    return;
  }
  std::exception_ptr side_error;
  std::thread thread;
  try {
    thread = std::thread([&] {
      try {
        side();
      } catch (...) {
        side_error = std::current_exception();
      }
    });
  } catch (const std::system_error&) {  // no thread to be had: in turn
    main();
    side();
    return;
  }
  std::exception_ptr main_error;
  try {
    main();
  } catch (...) {
    main_error = std::current_exception();
  }
  thread.join();  // the side's results (or its error) are complete and visible after this
  if (main_error) std::rethrow_exception(main_error);
  if (side_error) std::rethrow_exception(side_error);
}

}  // namespace parperf::analysis
