// Independent parts of the trace analysis at once: two (run_side_by_side: `side` on a thread of its
// own while `main` runs on the caller's), or a list shared out between two threads (run_parts). Each part
// writes only its own results and reads only what neither changes, so the results are the same as the two run
// in turn, which is what happens with one thread, or when no thread can be started (a process at its limit of
// threads still gets its report).
//
// When both fail, `main`'s error is the one rethrown: `main` is given the part that would have run
// first, so a damaged file is reported as the serial analysis reports it.
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

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

// Independent parts (as above) shared out between the caller's thread and, with `threads` >= 2, one
// more: each takes the next part not yet taken, in the parts' order, so that neither waits while the
// other has parts left, whatever their lengths (a run's shape decides which part is long). A part may
// wait for an earlier one to reach a point (a latch): it is taken only after every earlier part was.
// With one thread, or none to be had, the parts run in turn. When parts fail, the first one's error is
// rethrown (the one the parts in turn report); a part not yet taken once one failed is left out.
inline void run_parts(unsigned threads, const std::vector<std::function<void()>>& parts) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::vector<std::exception_ptr> errors(parts.size());
  const auto work = [&] {
    for (std::size_t i; !failed.load() && (i = next.fetch_add(1)) < parts.size();) {
      try {
        parts[i]();
      } catch (...) {
        errors[i] = std::current_exception();
        failed = true;
      }
    }
  };
  std::thread helper;
  if (threads >= 2 && parts.size() >= 2) {
    try {
      helper = std::thread(work);
    } catch (const std::system_error&) {  // no thread to be had: in turn, on this one
    }
  }
  work();
  if (helper.joinable()) helper.join();  // every part's results (or error) are visible after this
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace parperf::analysis
