// `parperf locality`: the Apex-Map spatial and temporal locality of a program's memory accesses
// (docs/locality.md). Three inputs:
//   parperf locality [options] -- ./app args   runs a program built with `parperf cc`, whose
//                                              collector streams its accesses through a pipe
//                                              scored as they come (no trace file, unless --save-trace)
//   parperf locality [options] trace.ppm      a saved trace (without `--`, the input is never run)
//   parperf locality --lackey LOG | --text FILE   another tool's trace, imported first
// The result goes to stdout (text, or --json) and to the run directory: locality.json, which
// `parperf report DIR` shows, and the pictures (SVG, and PNG copies with --png: rasterising them took
// most of a run's fixed cost, 0.2-0.3 s of librsvg, cairo and zlib, for pictures many runs never open).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "analysis/locality/locality_trace_analysis.hpp"
#include "cli/child_process.hpp"
#include "cli/commands.hpp"
#include "cli/mpi_launch.hpp"
#include "cli/output_directory.hpp"
#include "cli/pipe_stream.hpp"
#include "cli/preload.hpp"
#include "cli/temporary_file.hpp"
#include "format/locality_file.hpp"
#include "format/memory_trace.hpp"
#include "format/new_file.hpp"
#include "format/regular_file.hpp"
#include "format/run_directory.hpp"
#include "import/lackey_import.hpp"
#include "import/text_import.hpp"
#include "report/locality/locality_json.hpp"
#include "report/locality/locality_svg.hpp"
#include "report/locality/locality_text.hpp"
#include "report/locality/svg_to_png.hpp"

namespace parperf::cli {
namespace {

constexpr int kParperfFailed = 125;
constexpr int kCannotRun = 127;

struct LocalityCommandOptions {
  std::vector<std::string> inputs;  // a trace file, or the program and its arguments
  std::string output;
  std::string lackey;
  std::string text;
  std::string executable;
  bool json = false;
  bool save_trace = false;
  bool png = false;  // also draw PNG copies of the SVG pictures
  bool quiet = false;
  bool print = true;           // false for the ranks of an MPI job other than 0: they only write their files
  bool program_given = false;  // the inputs came after `--`: a program and its arguments
  std::size_t max_functions = 20;
  locality::LocalityOptions engine;
  // A program built with `parperf cc --sampled`: its bursts' length and mean gap (0: the collector's
  // defaults), passed as PARPERF_MEM_BURST and PARPERF_MEM_GAP.
  std::uint64_t burst = 0;
  std::uint64_t gap = 0;
};

// Without `--`, the one input names a saved trace: a file that is not one is an error, never a
// program to run (a damaged trace with its exec bit set was once run, a script fed to /bin/sh).
void check_memory_trace(const std::filesystem::path& path) {
  struct stat status {};
  if (stat(path.c_str(), &status) != 0)
    throw std::runtime_error(fmt::format("cannot read {}: {}", path.string(), std::strerror(errno)));
  const std::string run_hint =
      fmt::format("; to measure a program, put it after --: parperf locality [options] -- {}", path.string());
  if (!S_ISREG(status.st_mode))
    throw std::runtime_error(fmt::format("{} is not a parperf memory trace ({}{})", path.string(),
                                         format::file_type_text(status.st_mode), run_hint));
  std::array<char, format::kMemoryTraceMagic.size()> magic{};
  if (!format::RegularFile(path).read_at(0, magic.data(), magic.size()) ||
      std::memcmp(magic.data(), format::kMemoryTraceMagic.data(), magic.size()) != 0)
    throw std::runtime_error(
        fmt::format("{} is not a parperf memory trace (it does not begin with the "
                    "trace's magic bytes{})",
                    path.string(), run_hint));
}

// --lackey / --text: a regular file, or a pipe or FIFO (`--lackey /dev/stdin`, `--log-file=>(...)`)
// read as the stream it is; the import never holds more than a line. Directories and devices
// (/dev/zero never ends) are refused.
void check_import_input(const std::string& input) {
  struct stat status {};
  if (stat(input.c_str(), &status) != 0)
    throw std::runtime_error(fmt::format("cannot read {}: {}", input, std::strerror(errno)));
  if (!S_ISREG(status.st_mode) && !S_ISFIFO(status.st_mode))
    throw std::runtime_error(fmt::format("cannot import {}: not a file or a pipe ({})", input,
                                         format::file_type_text(status.st_mode)));
}

// The run directory, or nothing when it cannot be made: the scores are still printed. -o DIR and
// the directory of an MPI job's ranks are claimed (made, or found to be this user's); the default
// one is made afresh (output_directory.hpp). A directory of another user's is an error.
std::optional<std::filesystem::path> make_directory(const std::filesystem::path& directory, bool fresh) {
  const std::filesystem::path made = fresh ? make_fresh_directory(directory) : directory;
  if (!fresh) claim_directory(directory);
  std::error_code error;
  std::filesystem::create_directories(made, error);
  if (error) {
    fmt::print(stderr, "parperf: cannot create the run directory {}: {}; the results are only printed\n",
               made.string(), error.message());
    return std::nullopt;
  }
  return made;
}

// -o DIR, else the default directory for `input` (the job's under an MPI launcher).
std::optional<std::filesystem::path> make_output_directory(const LocalityCommandOptions& options,
                                                           const std::string& input, const MpiJob& job = {}) {
  if (!options.output.empty()) return make_directory(options.output, false);
  const auto name = std::filesystem::path(input).filename().string();
  // The ranks of one job start in different seconds: they agree on the job id instead.
  if (job.is_rank && !job.job_id.empty()) return make_directory(job_directory_name(name, job.job_id), false);
  char directory[512];
  format::default_run_directory_name(directory, sizeof directory, name.c_str(), std::time(nullptr));
  return make_directory(directory, true);
}

// `name`.svg and `name`.png, a PNG copy of the same drawing for viewers that take no SVG, both created
// afresh in the run directory (new_file.hpp). A failure throws std::runtime_error "cannot write <path>:
// <cause>": the result is already printed, the command reports the file. When the PNG module cannot be loaded
// the SVGs are still written, and one warning says why the PNGs are not (`draw_png` turns false).
void write_picture(const std::filesystem::path& directory, const std::string& name, const std::string& svg,
                   bool& draw_png) {
  format::write_new_file(directory / (name + ".svg"), svg);  // never through a link planted there
  if (!draw_png) return;
  const std::filesystem::path png = directory / (name + ".png");
  // write_png opens its path by name: it gets a new file of a name no one can guess, renamed over
  // `png` afterwards (a rename replaces a link planted there, never what the link names). The pattern
  // is absolute so that the file is made beside `png`, not in $TMPDIR (a relative run directory, the
  // default, would otherwise be looked for under /tmp).
  const std::filesystem::path drawn =
      create_temporary_file(std::filesystem::absolute(png).string() + ".XXXXXX");
  try {
    report::write_png(svg, drawn);
    std::filesystem::permissions(drawn,
                                 std::filesystem::perms::group_read | std::filesystem::perms::others_read,
                                 std::filesystem::perm_options::add);
    std::filesystem::rename(drawn, png);
  } catch (const report::PngModuleUnavailable& e) {
    std::filesystem::remove(drawn);
    fmt::print(stderr, "parperf: warning: no PNG copies of the pictures (the SVGs are written): {}\n",
               e.what());
    draw_png = false;
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(drawn, ignored);
    throw;
  }
}

void write_results(const format::LocalityResult& result, const std::filesystem::path& directory, bool png) {
  format::write_locality_file(directory / format::kLocalityFileName, result);
  bool draw_png = png;
  write_picture(directory, "locality-scatter", report::scatter_svg(result), draw_png);
  write_picture(directory, "locality-reuse", report::reuse_histogram_svg(result), draw_png);
  write_picture(directory, "locality-square", report::locality_square_svg(result), draw_png);
}

void print_result(const LocalityCommandOptions& options, const format::LocalityResult& result) {
  if (options.json) {
    fmt::print("{}", report::locality_json_text(result));
  } else {
    fmt::print("{}", report::locality_text(result, options.max_functions));
  }
  std::fflush(stdout);
}

void finish(const LocalityCommandOptions& options, const format::LocalityResult& result,
            const std::optional<std::filesystem::path>& directory) {
  for (const auto& warning : result.warnings) fmt::print(stderr, "parperf: warning: {}\n", warning);
  if (options.print) print_result(options, result);
  if (!directory) return;
  write_results(result, *directory, options.png);
  if (!options.quiet && options.print)
    fmt::print(stderr,
               "parperf: locality written to {} (locality.json, {} pictures) \u2014 see: parperf report {}\n",
               directory->string(), options.png ? "SVG/PNG" : "SVG", directory->string());
}

format::LocalityResult analyse_file(const LocalityCommandOptions& options,
                                    const std::filesystem::path& trace) {
  format::RegularFileStream file(trace);
  locality::LocalityTraceAnalysis analysis(options.engine);
  analysis.read(file.stream(), trace.string());
  return analysis.finish();
}

// --lackey / --text: converted into a `.ppm` in the run directory (kept with --save-trace).
int import_and_analyse(const LocalityCommandOptions& options) {
  const bool lackey = !options.lackey.empty();
  const std::string input = lackey ? options.lackey : options.text;
  check_import_input(input);
  std::ifstream in(input);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}: {}", input, std::strerror(errno)));
  const auto directory = make_output_directory(options, input);
  const std::filesystem::path trace =
      directory ? *directory / "memory.ppm" : create_temporary_file("parperf-import-XXXXXX.ppm");
  trace_import::ImportOptions import;
  import.input_name = input;
  import.executable = options.executable;
  {
    format::MemoryTraceWriter writer(trace);
    if (lackey) {
      trace_import::import_lackey(in, writer, import);
    } else {
      trace_import::import_text(in, writer, import);
    }
    writer.finish();
  }
  auto result = analyse_file(options, trace);
  if (!options.save_trace) std::filesystem::remove(trace);
  finish(options, result, directory);
  return 0;
}

// Under an MPI launcher (`mpirun -np N parperf locality -- ./app`) every rank has its own parperf,
// which shares nothing with the others but the run directory: each writes its results into
// DIR/locality-rank-R/ (`parperf report DIR` compares them), and rank 0 alone prints its scores.
std::optional<std::filesystem::path> make_run_directory(const LocalityCommandOptions& options,
                                                        const MpiJob& job) {
  auto directory = make_output_directory(options, options.inputs.front(), job);
  if (!directory || !job.is_rank || job.size < 2) return directory;
  return make_directory(*directory / format::rank_directory_name(job.rank), false);
}

// Runs the program with its collector writing to a pipe, and scores the stream on a second thread
// while the program runs; the stream's own thread empties the pipe into memory meanwhile (up to
// 256 MiB), so that the program does not wait for the analysis of each burst (pipe_stream.hpp).
int run_and_analyse(const LocalityCommandOptions& options) {
  const auto& program = options.inputs.front();
  const MpiJob job = mpi_job_of_this_process();
  const bool silent_rank = job.is_rank && job.size > 1 && job.rank != 0;
  const auto directory = make_run_directory(options, job);
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0)
    throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  fcntl(pipe_ends[1], F_SETFD, 0);             // the program inherits the write end
  fcntl(pipe_ends[1], F_SETPIPE_SZ, 1 << 20);  // fewer context switches; best effort
  std::FILE* copy = nullptr;
  std::filesystem::path saved;
  if (options.save_trace && directory) {
    saved = *directory / "memory.ppm";
    try {
      copy = fdopen(format::create_new_file(saved), "wb");  // never through a link planted there
      if (copy == nullptr)
        throw std::runtime_error(fmt::format("cannot write {}: {}", saved.string(), std::strerror(errno)));
    } catch (const std::runtime_error& e) {
      fmt::print(stderr, "parperf: {}; the trace is not saved\n", e.what());
    }
  }

  // The collector samples (PARPERF_MEM_SAMPLE): the other accesses never leave the program, and
  // the trace's sampling section tells the engine how to scale.
  locality::LocalityOptions engine = options.engine;
  engine.sample_rate = 1.0;
  locality::LocalityTraceAnalysis analysis(engine);
  std::exception_ptr analysis_error;
  PipeStreamBuffer stream_buffer(pipe_ends[0], copy);
  std::thread reader([&] {
    std::istream in(&stream_buffer);
    try {
      analysis.read(in, fmt::format("the memory trace of {}", program));
    } catch (...) {
      analysis_error = std::current_exception();
    }
    stream_buffer.drain();  // never leave the program blocked on a full pipe
  });

  std::vector<std::string> environment;
  for (char** entry = environ; *entry; ++entry) {
    if (!std::string_view(*entry).starts_with("PARPERF_MEM_")) environment.emplace_back(*entry);
  }
  environment.push_back(fmt::format("PARPERF_MEM_TRACE_FD={}", pipe_ends[1]));
  environment.emplace_back("PARPERF_QUIET=1");
  if (options.engine.sample_rate < 1)
    environment.push_back(fmt::format("PARPERF_MEM_SAMPLE={}", options.engine.sample_rate));
  if (options.burst > 0) environment.push_back(fmt::format("PARPERF_MEM_BURST={}", options.burst));
  if (options.gap > 0) environment.push_back(fmt::format("PARPERF_MEM_GAP={}", options.gap));
  if (directory)
    environment.push_back(fmt::format("PARPERF_DIR={}", std::filesystem::absolute(*directory).string()));
  ChildResult child;
  try {
    child = run_child(options.inputs, environment, kPidVariable);
  } catch (...) {
    close(pipe_ends[1]);
    reader.join();
    close(pipe_ends[0]);
    throw;
  }
  close(pipe_ends[1]);  // the program's copy closed when it ended: the reader sees the end
  reader.join();
  close(pipe_ends[0]);
  if (copy != nullptr) std::fclose(copy);

  if (child.exec_error != 0) {
    fmt::print(stderr, "parperf: cannot run {}: {}\n", program, std::strerror(child.exec_error));
    return kCannotRun;
  }
  if (child.signal) fmt::print(stderr, "parperf: the program was terminated by signal {}\n", *child.signal);
  if (stream_buffer.bytes_read() == 0) {
    fmt::print(stderr,
               "parperf: {} recorded no memory access: build it with 'parperf cc' / 'parperf c++' "
               "(clang's -fsanitize-coverage=func,trace-loads,trace-stores, linked with libparperf-mem)\n",
               program);
    return kParperfFailed;
  }
  if (analysis_error) std::rethrow_exception(analysis_error);
  if (stream_buffer.copy_failed())
    fmt::print(stderr, "parperf: warning: cannot write {}: the saved trace is incomplete\n", saved.string());
  if (silent_rank) {
    LocalityCommandOptions rank_options = options;
    rank_options.print = false;
    finish(rank_options, analysis.finish(), directory);
  } else {
    finish(options, analysis.finish(), directory);
    if (job.is_rank && job.size > 1 && directory && !options.quiet)
      fmt::print(
          stderr,
          "parperf: rank 0 of {} shown; every rank's locality is in {} \u2014 see: parperf report {}\n",
          job.size, directory->parent_path().string(), directory->parent_path().string());
  }
  if (child.signal) return 128 + *child.signal;
  return child.exit_code.value_or(kParperfFailed);
}

int locality_main(LocalityCommandOptions& options) {
  if (!options.lackey.empty() || !options.text.empty()) {
    if (!options.lackey.empty() && !options.text.empty())
      throw std::runtime_error("give either --lackey or --text, not both");
    return import_and_analyse(options);
  }
  if (options.inputs.empty())
    throw std::runtime_error(
        "name a program to run (parperf locality -- ./app), a .ppm trace, --lackey or --text");
  if (!options.program_given) {  // no `--`: a saved trace
    if (options.inputs.size() > 1)
      throw std::runtime_error(fmt::format(
          "give one memory trace, or the program to measure after --: parperf locality [options] -- {}",
          options.inputs.front()));
    check_memory_trace(options.inputs.front());
    std::optional<std::filesystem::path> directory;
    if (!options.output.empty()) directory = make_directory(options.output, false);
    finish(options, analyse_file(options, options.inputs.front()), directory);
    return 0;
  }
  return run_and_analyse(options);
}

}  // namespace

void add_locality_command(CLI::App& app) {
  auto options = std::make_shared<LocalityCommandOptions>();
  auto* command = app.add_subcommand(
      "locality", "Spatial and temporal locality of memory accesses (Apex-Map scores, reuse distances)");
  command
      ->add_option(
          "-o,--output", options->output,
          "Run directory for locality.json and the pictures (default: parperf-<program>-<date>-<time>; "
          "for a .ppm input, none unless given)")
      ->type_name("DIR");
  command->add_flag("--json", options->json, "Print the result as JSON instead of text");
  command->add_flag("--save-trace", options->save_trace,
                    "Keep the access stream in the run directory as memory.ppm");
  command->add_flag("--png", options->png,
                    "Also draw PNG copies of the SVG pictures (about 0.2 s more: off by default)");
  command->add_flag("-q,--quiet", options->quiet, "Print only the result, warnings and errors");
  command->add_option("--lackey", options->lackey, "Import a valgrind --tool=lackey --trace-mem=yes log")
      ->type_name("LOG");
  command->add_option("--text", options->text, "Import a text memory trace (docs/locality.md)")
      ->type_name("FILE");
  command
      ->add_option("--executable", options->executable,
                   "The traced program of --lackey/--text, to name functions of a non-PIE executable")
      ->type_name("PROGRAM");
  command
      ->add_option("--sample-rate", options->engine.sample_rate,
                   "SHARDS sampling rate in (0, 1] for long runs (default 1: exact). A program run here "
                   "samples 512-byte blocks as it runs; a trace is sampled by word when read")
      ->check(CLI::Range(1e-6, 1.0))
      ->type_name("R");
  command
      ->add_option("--burst", options->burst,
                   "For a program built with 'parperf cc --sampled': accesses per burst (default 4194304; "
                   "the first half of each is warm-up)")
      ->check(CLI::Range(2ull, 1ull << 30))
      ->type_name("N");
  command
      ->add_option("--gap", options->gap,
                   "For a program built with 'parperf cc --sampled': mean accesses between bursts "
                   "(default 99 bursts' length: 1 % of the accesses recorded)")
      ->check(CLI::Range(2ull, 1ull << 30))
      ->type_name("N");
  command->add_option("--word-bytes", options->engine.word_bytes, "Bytes per word (default 8)")
      ->type_name("B");
  command->add_option("--window", options->engine.window, "Spatial window W in accesses (default 32)")
      ->type_name("W");
  command->add_option("--max-stride", options->engine.max_stride, "Largest stride i_max counted (default 32)")
      ->type_name("I");
  command->add_option("--log2-n", options->engine.log2_n, "log2 N of the temporal score (default 20)")
      ->type_name("L");
  command
      ->add_option("--functions", options->max_functions, "Functions listed in the text output (default 20)")
      ->type_name("N");
  command->add_option("input", options->inputs,
                      "A .ppm memory trace, or after --, a program and its arguments");
  command->positionals_at_end();
  command->footer(
      "Programs must be built with 'parperf cc' / 'parperf c++' (docs/locality.md). Exit status: the\n"
      "program's; 128+N when signal N ended it; 127 when it could not be started; 125 when parperf failed.");
  command->callback([options, command] {
    // CLI11 keeps the `--` that ended the options among the subcommand's remaining arguments.
    const auto remaining = command->remaining();
    options->program_given = std::find(remaining.begin(), remaining.end(), "--") != remaining.end();
    int status = 0;
    try {
      status = locality_main(*options);
    } catch (const std::exception& e) {
      fmt::print(stderr, "parperf: {}\n", e.what());
      status = kParperfFailed;
    }
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

}  // namespace parperf::cli
