// Scenario: programs built with `parperf cc` and scored by `parperf locality` (online: the scores
// are computed from the pipe while the program runs). The expectations come from how the programs
// walk memory (matmul.c, threads.c), with tolerances that fail when a score is wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "support/artifacts.hpp"
#include "support/mpi_run.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

const std::filesystem::path kSources = PARPERF_LOCALITY_SOURCES;

// The MPI include directories or libraries (CMake's list, joined by '|'), as separate arguments.
std::vector<std::string> cmake_list(std::string_view list, std::string_view prefix = {}) {
  std::vector<std::string> items;
  while (!list.empty()) {
    const auto end = list.find('|');
    const auto item = list.substr(0, end);
    if (!item.empty()) items.push_back(std::string(prefix) + std::string(item));
    if (end == std::string_view::npos) break;
    list.remove_prefix(end + 1);
  }
  return items;
}

ProcessResult parperf(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {parperf_command().string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  ProcessOptions options;
  options.timeout_seconds = 180;
  return run_process(argv, options);
}

// Builds `source` with `parperf cc` (optimised, scalar: one load per element).
std::filesystem::path build(const TempDir& tmp, const std::string& source,
                            std::vector<std::string> extra = {}) {
  const auto program = tmp / std::filesystem::path(source).stem();
  std::vector<std::string> arguments = {
      "cc", "-O1",           "-fno-vectorize", "-fno-slp-vectorize", (kSources / source).string(),
      "-o", program.string()};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  const auto compiled = parperf(arguments);
  EXPECT_EQ(compiled.exit_code, 0) << describe(compiled);
  return program;
}

const nlohmann::json* function_named(const nlohmann::json& result, const std::string& name) {
  for (const auto& function : result["functions"])
    if (function.value("function", "") == name) return &function;
  ADD_FAILURE() << "no function " << name << " in " << result["functions"].dump(1).substr(0, 2000);
  return nullptr;
}

// The functions of matmul.c in a result.
struct MatmulFunctions {
  explicit MatmulFunctions(const nlohmann::json& result)
      : naive(function_named(result, "multiply_naive")),
        transposed(function_named(result, "multiply_transposed")),
        blocked(function_named(result, "multiply_blocked")),
        sweep(function_named(result, "sweep")),
        strided(function_named(result, "sweep_stride4")) {}
  bool found() const { return naive && transposed && blocked && sweep && strided; }
  const nlohmann::json *naive, *transposed, *blocked, *sweep, *strided;
};

class LocalityPrograms : public ::testing::Test {
 protected:
  TempDir tmp;
};

TEST_F(LocalityPrograms, MatrixProductsOrderAsExpected) {
  const auto program = build(tmp, "matmul.c");
  const auto directory = tmp / "run";
  const auto run =
      parperf({"locality", "-q", "--json", "--png", "-o", directory.string(), "--", program.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.out.find("checksum"), std::string::npos) << "the program's own output";
  const auto result = read_json_file(directory / "locality.json");
  ASSERT_TRUE(result.is_object());
  EXPECT_EQ(result["source"], "parperf-mem");

  const MatmulFunctions f(result);
  ASSERT_TRUE(f.found());
  const auto *naive = f.naive, *transposed = f.transposed, *blocked = f.blocked, *sweep = f.sweep,
             *strided = f.strided;
  for (const auto* function : {naive, transposed, blocked, sweep, strided})
    EXPECT_NE(function->value("file", "").find("matmul.c"), std::string::npos) << function->dump();

  // 96^3 products: one load of a and one of b each, in every product function.
  constexpr double kProducts = 96.0 * 96 * 96;
  EXPECT_NEAR(number(*naive, "load_words"), 2 * kProducts, 0.05 * kProducts);
  EXPECT_NEAR(number(*transposed, "load_words"), 2 * kProducts, 0.05 * kProducts);
  EXPECT_GE(number(*naive, "stores"), 96.0 * 96);

  // Spatial: the naive order walks b down its columns (a stride of 96 words) for half its loads.
  EXPECT_GT(number(*transposed, "spatial_locality"), number(*naive, "spatial_locality") + 0.2);
  EXPECT_GT(number(*transposed, "spatial_locality"), 0.8);
  // Temporal: tiles of 16 keep b's rows recent; the naive order re-walks all of b for every i.
  EXPECT_GT(number(*blocked, "temporal_locality"), number(*naive, "temporal_locality") + 0.05);

  // Known answers: unit stride scores 1, stride 4 scores 1/4.
  EXPECT_NEAR(number(*sweep, "spatial_locality"), 1.0, 0.01);
  EXPECT_NEAR(number(*strided, "spatial_locality"), 0.25, 0.01);
  EXPECT_NEAR(number(*sweep, "load_words"), 65536, 16);
  EXPECT_NEAR(number(*sweep, "footprint_words"), 65536, 16);
  // The whole program's counts are at least the sum of the functions' above.
  EXPECT_GE(number(result["program"], "loads"), 2 * 3 * kProducts);

  for (const char* picture : {"locality-scatter.svg", "locality-reuse.svg", "locality-square.svg"}) {
    std::ifstream in(directory / picture);
    std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(svg.starts_with("<svg") || svg.starts_with("<?xml")) << picture;
    EXPECT_NE(svg.find("</svg>"), std::string::npos) << picture;
  }
  // Their PNG copies (tests/unit/locality_png_test.cpp checks their size and that they are drawn).
  for (const char* picture : {"locality-scatter.png", "locality-reuse.png", "locality-square.png"}) {
    std::ifstream in(directory / picture, std::ios::binary);
    std::string signature(8, '\0');
    EXPECT_TRUE(in.read(signature.data(), 8)) << picture << " is missing or short";
    EXPECT_EQ(signature, std::string_view("\x89PNG\r\n\x1a\n", 8)) << picture;
  }
  // `parperf report` shows the stored result, naming the functions.
  const auto report = parperf({"report", directory.string()});
  EXPECT_EQ(report.exit_code, 0) << describe(report);
  EXPECT_NE(report.out.find("multiply_naive"), std::string::npos) << report.out;
}

TEST_F(LocalityPrograms, SavedTraceGivesTheSameScores) {
  const auto program = build(tmp, "matmul.c");
  const auto directory = tmp / "run";
  const auto run =
      parperf({"locality", "-q", "--save-trace", "-o", directory.string(), "--", program.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  ASSERT_TRUE(std::filesystem::exists(directory / "memory.ppm"));
  const auto again = parperf({"locality", "--json", (directory / "memory.ppm").string()});
  ASSERT_EQ(again.exit_code, 0) << describe(again);
  const auto online = read_json_file(directory / "locality.json");
  const auto offline = nlohmann::json::parse(again.out);
  EXPECT_EQ(online["program"]["loads"], offline["program"]["loads"]);
  EXPECT_EQ(online["program"]["spatial_locality"], offline["program"]["spatial_locality"]);
  EXPECT_EQ(online["program"]["temporal_locality"], offline["program"]["temporal_locality"]);
}

// --sample-rate: the collector keeps the accesses to 1 in 10 blocks of 512 bytes; the scores, scaled
// counts and orders stay those of the exact run within sampling error.
TEST_F(LocalityPrograms, SampledRunKeepsScoresAndOrders) {
  const auto program = build(tmp, "matmul.c");
  const auto directory = tmp / "run";
  const auto run =
      parperf({"locality", "-q", "--sample-rate", "0.1", "-o", directory.string(), "--", program.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto result = read_json_file(directory / "locality.json");
  EXPECT_NEAR(number(result["options"], "effective_sample_rate"), 0.1, 0.001);
  const MatmulFunctions f(result);
  ASSERT_TRUE(f.found());
  const auto *naive = f.naive, *transposed = f.transposed, *blocked = f.blocked, *sweep = f.sweep,
             *strided = f.strided;
  constexpr double kProducts = 96.0 * 96 * 96;
  EXPECT_NEAR(number(*naive, "load_words"), 2 * kProducts, 0.25 * 2 * kProducts);
  EXPECT_NEAR(number(*sweep, "load_words"), 65536, 0.25 * 65536);
  // Only the first access into each sampled block loses its neighbour: 1 in 64 for a sweep.
  EXPECT_NEAR(number(*sweep, "spatial_locality"), 1.0, 0.03);
  EXPECT_NEAR(number(*strided, "spatial_locality"), 0.25, 0.03);
  // Skipped accesses age the window: the naive order's column walk stays far apart.
  EXPECT_NEAR(number(*naive, "spatial_locality"), 0.49, 0.08);
  EXPECT_GT(number(*transposed, "spatial_locality"), number(*naive, "spatial_locality") + 0.2);
  EXPECT_GT(number(*blocked, "temporal_locality"), number(*naive, "temporal_locality") + 0.05);
}

TEST_F(LocalityPrograms, OnlyTheChosenFunctionIsInstrumented) {
  // `--only` is parperf's option: it comes before clang's arguments.
  const auto only = tmp / "only";
  // The source right after the function name: it is clang's, not a second function.
  const auto compiled = parperf({"cc", "--only", "sweep", (kSources / "matmul.c").string(), "-O1",
                                 "-fno-vectorize", "-o", only.string()});
  ASSERT_EQ(compiled.exit_code, 0) << describe(compiled);
  const auto directory = tmp / "run";
  const auto run = parperf({"locality", "-q", "--json", "-o", directory.string(), "--", only.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto result = read_json_file(directory / "locality.json");
  ASSERT_EQ(result["functions"].size(), 1u) << result["functions"].dump(1);
  EXPECT_EQ(result["functions"][0]["function"], "sweep");
  EXPECT_NEAR(number(result["program"], "load_words"), 65536, 16);
}

TEST_F(LocalityPrograms, ThreadsAreScoredApartAndCombined) {
  const auto program = build(tmp, "threads.c");
  const auto directory = tmp / "run";
  const auto run = parperf({"locality", "-q", "-o", directory.string(), "--", program.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto result = read_json_file(directory / "locality.json");
  ASSERT_EQ(result["threads"].size(), 3u) << result["threads"].dump(1);
  double stores = 0;
  for (const auto& thread : result["threads"]) {
    EXPECT_GT(number(thread, "spatial_locality"), 0.95) << thread.dump();
    stores += number(thread, "store_words");
  }
  EXPECT_NEAR(stores, 100000, 100);
  const auto* fill = function_named(result, "fill");
  ASSERT_TRUE(fill);
  EXPECT_NEAR(number(*fill, "store_words"), 100000, 10);
  EXPECT_NEAR(number(*fill, "footprint_words"), 100000, 10);
  EXPECT_NEAR(number(result["program"], "spatial_locality"), 1.0, 0.05);
}

TEST_F(LocalityPrograms, CrashedProgramIsScoredUpToTheCrash) {
  const auto program = build(tmp, "threads.c");
  const auto directory = tmp / "run";
  const auto run = parperf({"locality", "-q", "-o", directory.string(), "--", program.string(), "crash"});
  EXPECT_EQ(run.exit_code, 128 + 11) << describe(run);
  const auto result = read_json_file(directory / "locality.json");
  ASSERT_TRUE(result.is_object());
  EXPECT_NEAR(number(result["program"], "store_words"), 100000, 100) << "the stores before the crash";
}

TEST_F(LocalityPrograms, ProgramNotBuiltForItGetsAClearMessage) {
  const auto run = parperf({"locality", "-q", "-o", (tmp / "run").string(), "--", "/bin/true"});
  EXPECT_EQ(run.exit_code, 125) << describe(run);
  EXPECT_NE(run.err.find("parperf cc"), std::string::npos) << run.err;
}

TEST_F(LocalityPrograms, UnwritableDirectoryStillRunsTheProgram) {
  const auto program = build(tmp, "threads.c");
  const auto run =
      parperf({"locality", "-q", "-o", "/proc/parperf-cannot-exist/run", "--", program.string()});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.out.find("sum "), std::string::npos) << "the program ran";
  EXPECT_NE(run.err.find("/proc/parperf-cannot-exist/run"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("fill"), std::string::npos) << "the scores are printed";
}

// `mpirun -np 2 parperf locality -- ./mpi_ranks`: each rank's parperf scores its own rank, the
// results land side by side in the job's one directory, and `parperf report` compares the ranks.
TEST_F(LocalityPrograms, MpiRanksAreScoredApartAndCompared) {
  std::vector<std::string> mpi = cmake_list(PARPERF_MPI_INCLUDE_DIRS, "-I");
  for (auto& library : cmake_list(PARPERF_MPI_LIBRARIES)) mpi.push_back(library);
  const auto program = build(tmp, "mpi_ranks.c", mpi);
  ProcessOptions options;
  options.working_directory = tmp.path();  // no -o: the ranks must agree on the default name
  options.timeout_seconds = 120;
  const auto run = mpi_run(2, {parperf_command().string(), "locality", "--", program.string()}, options);
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.out.find("total"), std::string::npos) << "the program's own output";
  std::size_t reports = 0;
  for (auto at = run.out.find("parperf locality report"); at != std::string::npos;
       at = run.out.find("parperf locality report", at + 1))
    ++reports;
  EXPECT_EQ(reports, 1u) << "rank 0 alone prints its scores:\n" << run.out;

  std::vector<std::filesystem::path> directories;
  for (const auto& entry : std::filesystem::directory_iterator(tmp.path()))
    if (entry.is_directory() && entry.path().filename().string().starts_with("parperf-mpi_ranks-"))
      directories.push_back(entry.path());
  ASSERT_EQ(directories.size(), 1u) << "one directory for the job";
  const auto& directory = directories.front();
  EXPECT_FALSE(std::filesystem::exists(directory / "locality.json")) << "results are per rank";
  for (int rank = 0; rank < 2; ++rank) {
    const auto result =
        read_json_file(directory / ("locality-rank-" + std::to_string(rank)) / "locality.json");
    ASSERT_TRUE(result.is_object()) << "rank " << rank;
    const auto* sweep = function_named(result, "sweep");
    ASSERT_NE(sweep, nullptr);
    EXPECT_NEAR((*sweep)["spatial_locality"].get<double>(), rank == 0 ? 1.0 : 0.25, 0.01) << "rank " << rank;
    EXPECT_EQ((*sweep)["loads"].get<std::uint64_t>(), 4u << 16) << "rank " << rank;
    EXPECT_TRUE(std::filesystem::exists(directory / ("locality-rank-" + std::to_string(rank)) /
                                        "locality-square.svg"));
  }

  const auto json_report = parperf({"report", "--json", directory.string()});
  ASSERT_EQ(json_report.exit_code, 0) << describe(json_report);
  const auto by_rank = nlohmann::json::parse(json_report.out).at("locality_by_rank");
  ASSERT_EQ(by_rank["ranks"].size(), 2u);
  EXPECT_EQ(by_rank["spatial_locality"]["min_rank"], 1);
  EXPECT_EQ(by_rank["spatial_locality"]["max_rank"], 0);
  // Rank 1's word accesses are half the fill of a (4N stores at stride 1, SL 1) and half its sweeps
  // (4 x N loads at stride 4, SL 1/4): (1 + 0.25) / 2 = 0.625.
  EXPECT_NEAR(by_rank["ranks"][1]["spatial_locality"].get<double>(), 0.625, 0.01);
  EXPECT_EQ(by_rank["results"].size(), 2u);

  const auto text_report = parperf({"report", directory.string()});
  ASSERT_EQ(text_report.exit_code, 0) << describe(text_report);
  EXPECT_NE(text_report.out.find("memory locality by MPI rank (2 ranks"), std::string::npos)
      << text_report.out;
  EXPECT_NE(
      text_report.out.find("rank 1 walks memory with the longest strides (SL 0.625), mostly in sweep (SL "
                           "0.250)"),
      std::string::npos)
      << text_report.out;
}

}  // namespace
}  // namespace parperf::test
