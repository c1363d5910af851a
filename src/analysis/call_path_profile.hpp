// Where the sampled threads spent their samples (the profile's `call_paths` section, `parperf run
// --sample`): per interval, the functions and call paths by samples, self and inclusive, and each
// processor's top function, so that an imbalance found in the interval figures can be traced to a
// function. A pure function of the loaded run and its merged interval tree; it never changes the
// interval figures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/interval_tree.hpp"
#include "analysis/processors.hpp"
#include "analysis/run_data.hpp"
#include "analysis/sample_share.hpp"

namespace parperf::analysis {

// A function as the samples name it: the innermost (inlined) function at the address.
struct SampledFunction {
  std::string function;  // demangled; "0x<address> (<module>)" when nothing names it
  // The line with most self samples; without self samples, the call most samples went through.
  std::string file;  // empty if unknown
  std::int64_t line = 0;
  std::uint64_t self = 0;       // samples whose last frame is in the function
  std::uint64_t inclusive = 0;  // samples with the function anywhere on their path (once per sample)
  // Their shares of the interval's samples, with 95 % intervals (sample_share.hpp).
  ShareInterval self_share{}, inclusive_share{};
};

struct SampledPath {
  std::vector<std::string> frames;  // function names, outermost first
  std::uint64_t samples = 0;
};

struct ProcessorTopFunction {
  std::int64_t processor = 0;  // numbered as processors.hpp numbers them
  std::string function;        // its function with most self samples in the interval
  std::uint64_t self = 0;
  std::uint64_t samples = 0;  // the processor's samples in the interval
};

// One processor's samples in an interval with every function it has self samples in: what the
// late and the waiting processors are compared by (sampled_cause.hpp).
struct ProcessorSamples {
  std::int64_t processor = 0;
  std::uint64_t samples = 0;
  std::map<std::string, std::uint64_t> self;  // function -> self samples
};

// The samples taken while threads were in one interval (innermost: not its children's).
struct IntervalSamples {
  std::size_t interval = 0;  // index in the tree
  IntervalIdentity identity;
  std::vector<std::string> path;  // the interval names from the program down to this one
  std::uint64_t samples = 0;
  // Whether its samples rank its functions: the first function's self share is told apart from the
  // second's (their 95 % intervals do not overlap). False when too few samples fell in it.
  bool ranked = true;
  std::vector<SampledFunction> functions;           // most self samples first, then most inclusive
  std::vector<SampledPath> paths;                   // most samples first
  std::vector<ProcessorTopFunction> processors;     // by processor
  std::vector<ProcessorSamples> processor_samples;  // by processor
};

struct FoldedStack {
  std::vector<std::string> frames;  // the interval path (program first), then the functions
  std::uint64_t samples = 0;
};

struct SampleProfile {
  bool sampled = false;     // some profile has a call_paths section
  bool wall_clock = false;  // the timers counted elapsed time, not CPU time
  std::uint64_t period_ns = 0;
  // What sent the samples: "perf_event" (the kernel's high-resolution CPU clock), "timer" (POSIX
  // timers: for CPU time they fire at the scheduler tick), or "both" (some threads each).
  std::string source = "timer";
  // Samples per second of the sampled threads' CPU time (the operating system's, as the intervals
  // measure it): the requested rate when every period was sampled; 0 for wall-clock sampling or
  // when no CPU time was measured.
  double effective_hz = 0;
  std::uint64_t samples = 0;  // taken, over all threads
  std::uint64_t dropped = 0;  // not recorded: a thread's table was full
  // Recorded samples whose stack walk stopped before their thread's first frame: their paths begin at
  // kUnwindingStoppedFrame (sampled_frames.hpp), their callers unknown.
  std::uint64_t not_unwound = 0;
  // Taken while a thread was inside its programming model's start-up or shut-down (MPI_Init,
  // shmem_finalize...): counted apart, in no interval and not in `samples`. Zero from profiles before
  // format 3.5, whose call paths held them.
  std::uint64_t start_up = 0;
  std::uint64_t shut_down = 0;
  // Threads the programming model's libraries started for themselves (progress threads), over the
  // processes: not the program's, never sampled. Zero from profiles before format 3.8.
  std::uint64_t model_threads = 0;
  std::vector<IntervalSamples> intervals;  // intervals with samples, in tree order
  std::vector<FoldedStack> folded;         // every distinct stack, in a stable order
  std::vector<std::string> warnings;       // modules that could not be symbolized
};

// `top`: how many functions and paths to keep per interval (0: all). `internals`: keep the measured
// libraries' own functions below the program's calls into them (user_call_path.hpp).
SampleProfile analyse_samples(const RunData& run, const IntervalTree& tree, Unit unit, std::size_t top,
                              bool internals = false);

}  // namespace parperf::analysis
