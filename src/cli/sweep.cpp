#include "cli/sweep.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "cli/output_directory.hpp"
#include "format/run_directory.hpp"

namespace parperf::cli {
namespace {

// The largest count a sweep may ask for: beyond it a typo ("1,2,40000") would start a job that
// cannot run rather than be refused.
constexpr int kMaxSweepCount = 1 << 16;

// An environment variable set for the runs of a sweep and restored afterwards: parperf's own
// environment is what the measured program inherits (child_process.hpp).
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedVariable() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::filesystem::path sweep_directory(const RunOptions& options) {
  if (!options.output.empty()) {
    claim_directory(options.output);
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(options.output, error)) {
      const std::string name = entry.path().filename().string();
      if (name.size() > 1 && name[0] == 'p' && name.find("-r") != std::string::npos)
        throw std::runtime_error(fmt::format(
            "{} already holds the runs of a sweep ({}): name a new directory", options.output, name));
    }
    return options.output;
  }
  const auto program = std::filesystem::path(options.command.front()).filename().string();
  char name[512];
  format::default_run_directory_name(name, sizeof name, (program + "-sweep").c_str(), std::time(nullptr));
  return make_fresh_directory(name);
}

std::string unit_words(int count, bool ranks) {
  if (ranks) return fmt::format("{} rank{}", count, count == 1 ? "" : "s");
  return fmt::format("{} thread{}", count, count == 1 ? "" : "s");
}

}  // namespace

std::vector<int> parse_sweep_counts(const std::string& text) {
  std::vector<int> counts;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    std::size_t used = 0;
    int count = 0;
    try {
      count = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || count < 1 || count > kMaxSweepCount)
      throw std::invalid_argument(fmt::format(
          "--sweep {}: '{}' is not a processor count (a list of counts from 1 to {}, such as 1,2,4,8)", text,
          item, kMaxSweepCount));
    if (!counts.empty() && count <= counts.back())
      throw std::invalid_argument(
          fmt::format("--sweep {}: the counts must rise ({} follows {})", text, count, counts.back()));
    counts.push_back(count);
    at = comma + 1;
  }
  return counts;
}

std::map<std::string, std::string> parse_parameters(const std::vector<std::string>& items) {
  std::map<std::string, std::string> parameters;
  for (const std::string& item : items) {
    const auto equals = item.find('=');
    if (equals == std::string::npos || equals == 0)
      throw std::invalid_argument(fmt::format("--param {}: not NAME=VALUE", item));
    parameters[item.substr(0, equals)] = item.substr(equals + 1);
  }
  return parameters;
}

void add_sweep_options(CLI::App& run, SweepOptions& options) {
  run.add_option_function<std::string>(
         "--sweep", [&options](const std::string& text) { options.counts = parse_sweep_counts(text); },
         "Run the program at each of these thread counts (MPI ranks with --np), into one sweep directory, "
         "then predict its scaling (parperf predict)")
      ->type_name("N,N,...");
  run.add_option("--repeat", options.repeat, "With --sweep: runs at each count (default 1)")
      ->type_name("R")
      ->check(CLI::Range(1, 100));
  run.add_option("--max-procs", options.predict.max_processors,
                 "With --sweep: predict up to this many processors (default 64)")
      ->type_name("N")
      ->check(CLI::Range(1, 1 << 24));
}

int run_sweep(const RunOptions& options, const SweepOptions& sweep) {
  const std::filesystem::path directory = sweep_directory(options);
  const bool ranks = options.processes != 0;  // --np, with or without a count
  const int total = static_cast<int>(sweep.counts.size()) * sweep.repeat;
  int done = 0;
  for (int repetition = 1; repetition <= sweep.repeat; ++repetition) {
    for (const int count : sweep.counts) {
      RunOptions one = options;
      one.output = (directory / fmt::format("p{}-r{}", count, repetition)).string();
      one.quiet = true;  // one progress line per run instead of each run's own
      if (ranks) one.processes = count;
      one.sweep = format::SweepPoint{
          .processors = count, .unit = ranks ? "ranks" : "threads", .repetition = repetition};
      std::optional<ScopedVariable> threads;  // a hybrid program's ranks keep their own thread count
      if (!ranks) threads.emplace("OMP_NUM_THREADS", std::to_string(count));
      const ScopedVariable processors("PARPERF_SWEEP_PROCESSORS", std::to_string(count));
      ++done;
      // A whole line before the run: the program's own output may follow it.
      fmt::print(stderr, "parperf: sweep run {} of {}: {}, repetition {}\n", done, total,
                 unit_words(count, ranks), repetition);
      std::fflush(stderr);
      const int status = run_program(one);
      if (status != 0) {
        fmt::print(stderr, "parperf: the sweep stops: the program ended with status {} at {} ({})\n", status,
                   unit_words(count, ranks), one.output);
        return status;
      }
    }
  }
  if (!options.quiet)
    fmt::print(stderr, "parperf: sweep written to {} \u2014 see: parperf predict {}\n", directory.string(),
               directory.string());
  PredictOptions predict = sweep.predict;
  predict.directories = {directory.string()};
  print_prediction(predict);
  return 0;
}

}  // namespace parperf::cli
