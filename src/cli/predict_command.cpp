// `parperf predict RUN_DIR...`: how the program will scale, from runs at different processor counts.
// Each argument is a run directory or a directory of runs (a sweep, `parperf run --sweep`); every
// run is loaded and analysed as `parperf report` does, reduced to its sample (processor count,
// parameters, per interval its time and losses: analysis/scaling/run_sample.hpp), and the samples
// are modelled (analysis/scaling/scaling_study.hpp) and rendered (report/prediction_*.hpp).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "analysis/analysis.hpp"
#include "analysis/run_loader.hpp"
#include "analysis/scaling/run_sample.hpp"
#include "analysis/scaling/scaling_study.hpp"
#include "cli/command_errors.hpp"
#include "cli/commands.hpp"
#include "cli/predict_options.hpp"
#include "cli/text_file.hpp"
#include "format/profile_files.hpp"
#include "report/json_text.hpp"
#include "report/locality/svg_to_png.hpp"
#include "report/prediction_json.hpp"
#include "report/prediction_svg.hpp"
#include "report/prediction_text.hpp"

namespace parperf::cli {
namespace {

bool holds_profiles(const std::filesystem::path& directory) {
  return !format::find_profiles(directory).empty();
}

// The run directories an argument names: itself, or the runs inside it (a sweep), in name order. A
// sweep's directory whose profiles are all left out (FIFOs, directories, dangling links) is named in
// `left_out` with why.
std::vector<std::filesystem::path> runs_of(const std::filesystem::path& argument,
                                           std::vector<std::string>& left_out) {
  std::error_code error;
  if (!std::filesystem::is_directory(argument, error))
    throw std::runtime_error(fmt::format("{}: not a directory", argument.string()));
  if (holds_profiles(argument)) return {argument};
  std::vector<std::filesystem::path> runs;
  for (const auto& entry : std::filesystem::directory_iterator(argument, error)) {
    if (!entry.is_directory(error)) continue;
    if (holds_profiles(entry.path())) {
      runs.push_back(entry.path());
      continue;
    }
    for (const format::LeftOutFile& file : format::profiles_left_out(entry.path()))
      left_out.push_back(
          fmt::format("{}: left out of the sweep: {} is {}", entry.path().string(), file.name, file.why));
  }
  if (runs.empty())
    throw std::runtime_error(
        fmt::format("{} holds no run: neither profiles (profile.<rank>.ppf) nor run directories with them{}",
                    argument.string(), left_out.empty() ? std::string() : " (" + left_out.front() + ")"));
  std::sort(runs.begin(), runs.end());
  std::sort(left_out.begin(), left_out.end());
  return runs;
}

analysis::scaling::RunSample sample_of(const std::filesystem::path& directory) {
  try {
    const analysis::RunData run = analysis::load_run(directory);
    return analysis::scaling::sample_run(run, analysis::analyze(run));
  } catch (const std::exception& e) {
    const std::string what = e.what();
    // The loader's messages name the file already; others get the run's name.
    if (what.find(directory.string()) != std::string::npos) throw;
    throw std::runtime_error(fmt::format("{}: {}", directory.string(), what));
  }
}

}  // namespace

analysis::scaling::ScalingStudy predict_scaling(const PredictOptions& options) {
  std::vector<analysis::scaling::RunSample> samples;
  std::vector<std::string> left_out;
  for (const std::string& argument : options.directories)
    for (const auto& run : runs_of(argument, left_out)) samples.push_back(sample_of(run));
  analysis::scaling::StudyOptions study_options;
  study_options.fit.max_processors = options.max_processors;
  study_options.fit.efficiency_threshold = options.efficiency_threshold;
  study_options.fit.extrapolation_limit = options.extrapolation_limit;
  study_options.top_intervals = static_cast<std::size_t>(options.intervals);
  analysis::scaling::ScalingStudy study = analysis::scaling::study_scaling(samples, study_options);
  study.warnings.insert(study.warnings.begin(), left_out.begin(), left_out.end());
  return study;
}

void print_prediction(const PredictOptions& options) {
  const analysis::scaling::ScalingStudy study = predict_scaling(options);
  if (!options.svg.empty() || !options.png.empty()) {
    const std::string svg = report::prediction_svg(study);
    if (!options.svg.empty()) write_text_file(options.svg, svg);
    if (!options.png.empty()) report::write_png(svg, options.png);
  }
  if (options.json)
    fmt::print("{}\n", report::json_text(report::prediction_json(study)));
  else
    fmt::print("{}", report::prediction_text(study));
}

void add_predict_command(CLI::App& app) {
  auto options = std::make_shared<PredictOptions>();
  auto* predict = app.add_subcommand(
      "predict",
      "Predict how a program scales from runs at different processor counts (parperf run --sweep)");
  predict->add_option("directories", options->directories, "Run directories, or sweep directories of runs")
      ->required()
      ->type_name("RUN_DIR...");
  predict
      ->add_option("--max-procs", options->max_processors, "Predict up to this many processors (default 64)")
      ->type_name("N")
      ->check(CLI::Range(1, 1 << 24));
  predict
      ->add_option("--threshold", options->efficiency_threshold,
                   "The parallel efficiency below which more processors are a waste (default 0.5)")
      ->type_name("E")
      ->check(CLI::Range(0.01, 1.0));
  predict
      ->add_option("--limit", options->extrapolation_limit,
                   "Trust predictions up to this factor beyond the largest measured count (default 4)")
      ->type_name("F")
      ->check(CLI::Range(1.0, 1e6));
  predict
      ->add_option("--top", options->intervals, "Intervals listed by how fast their cost grows (default 5)")
      ->type_name("N")
      ->check(CLI::Range(0, 10000));
  predict->add_flag("--json", options->json, "The prediction as JSON");
  predict->add_option("--svg", options->svg, "Also draw the speedup plot as SVG")->type_name("FILE");
  predict->add_option("--png", options->png, "Also draw the speedup plot as PNG")->type_name("FILE");
  predict->callback([options] { report_errors_of([&] { print_prediction(*options); }); });
}

}  // namespace parperf::cli
