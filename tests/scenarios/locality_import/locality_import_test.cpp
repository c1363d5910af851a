// Scenario: valgrind's lackey traces a program that fills and sums an array of 1000 ints; the log,
// imported into a memory trace and read back, holds at least 1000 stores and 1000 loads on the
// array, every element among them, made by code the importer placed in the (non-PIE) executable.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "format/memory_trace_reader.hpp"
#include "format/memory_trace_writer.hpp"
#include "import/lackey_import.hpp"
#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/unblocked_fifo.hpp"

namespace parperf::test {
namespace {

constexpr std::uint64_t kElements = 1000;

// Counts the accesses to [begin, begin + 4 * kElements), and which elements they touch.
struct ArrayAccesses : format::MemoryTraceVisitor {
  explicit ArrayAccesses(std::uint64_t array) : begin(array) {}
  void process(const format::MemoryTraceProcess& p) override { pid = p.pid; }
  void accesses(std::span<const format::MemoryAccessRecord> batch) override {
    for (const auto& a : batch) {
      ++total;
      if (a.address < begin || a.address >= begin + 4 * kElements) continue;
      const bool store = (a.flags & format::kAccessStore) != 0;
      ++(store ? stores : loads);
      (store ? stored : loaded).insert((a.address - begin) / 4);
      if (a.module != trace_import::kExecutableModule) ++outside_executable;
    }
  }
  std::uint64_t begin;
  std::int64_t pid = 0;
  std::uint64_t total = 0, loads = 0, stores = 0, outside_executable = 0;
  std::set<std::uint64_t> loaded, stored;
};

// Runs sum_array under valgrind's lackey, its log to `log`.
ProcessResult run_lackey(const std::filesystem::path& log) {
  ProcessOptions options;
  options.timeout_seconds = 120;
  return run_process({"valgrind", "--tool=lackey", "--trace-mem=yes", "--log-file=" + log.string(),
                      PARPERF_PROGRAM_LOCALITY_IMPORT_SUM_ARRAY},
                     options);
}

bool have_valgrind() { return run_process({"valgrind", "--version"}).exit_code == 0; }

TEST(LocalityImport, LackeyTraceOfAnArraySum) {
  if (!have_valgrind()) GTEST_SKIP() << "valgrind is not installed (scripts/install-deps.sh installs it)";
  TempDir tmp;
  const auto log = tmp / "sum_array.lackey";
  const std::string program = PARPERF_PROGRAM_LOCALITY_IMPORT_SUM_ARRAY;
  const auto run = run_lackey(log);
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  std::istringstream printed(run.out);
  std::uint64_t array = 0;
  long sum = 0;
  ASSERT_TRUE(printed >> std::hex >> array >> std::dec >> sum) << run.out;
  ASSERT_EQ(sum, 499500);

  const auto trace = tmp / "sum_array.ppm";
  trace_import::ImportStats stats;
  {
    format::MemoryTraceWriter writer(trace);
    std::ifstream in(log);
    trace_import::ImportOptions import_options;
    import_options.input_name = log.string();
    import_options.executable = program;
    stats = trace_import::import_lackey(in, writer, import_options);
    writer.finish();
  }
  EXPECT_GT(stats.skipped_lines, 0u) << "valgrind's ==pid== lines";

  ArrayAccesses seen(array);
  format::read_memory_trace(trace, seen);
  EXPECT_EQ(seen.total, stats.accesses);
  EXPECT_GT(seen.pid, 0) << "from the ==pid== lines";
  EXPECT_GE(seen.loads, kElements);
  EXPECT_GE(seen.stores, kElements);
  EXPECT_EQ(seen.loaded.size(), kElements) << "every element is read";
  EXPECT_EQ(seen.stored.size(), kElements) << "every element is written";
  EXPECT_EQ(seen.outside_executable, 0u) << "the loops are in the non-PIE executable: module-relative pcs";
}

// The same through the command: `parperf locality --lackey LOG --executable PROGRAM`. The array is
// 1000 ints = 500 words; main fills it then sums it, one int at a time.
TEST(LocalityImport, LocalityCommandScoresALackeyLog) {
  if (!have_valgrind()) GTEST_SKIP() << "valgrind is not installed (scripts/install-deps.sh installs it)";
  TempDir tmp;
  const auto log = tmp / "sum_array.lackey";
  const std::string program = PARPERF_PROGRAM_LOCALITY_IMPORT_SUM_ARRAY;
  ASSERT_EQ(run_lackey(log).exit_code, 0);
  ProcessOptions options;
  options.timeout_seconds = 120;
  const auto directory = tmp / "run";
  const auto scored =
      run_process({parperf_command().string(), "locality", "-q", "--json", "--save-trace", "-o",
                   directory.string(), "--lackey", log.string(), "--executable", program},
                  options);
  ASSERT_EQ(scored.exit_code, 0) << describe(scored);
  const auto result = nlohmann::json::parse(scored.out);
  EXPECT_EQ(result["source"], "lackey");
  const nlohmann::json* main_function = nullptr;
  for (const auto& function : result["functions"])
    if (function["function"] == "main") main_function = &function;
  ASSERT_NE(main_function, nullptr) << result["functions"].dump(1);
  EXPECT_NE((*main_function)["file"].get<std::string>().find("sum_array.c"), std::string::npos);
  EXPECT_GE(number(*main_function, "stores"), 1000);
  EXPECT_GE(number(*main_function, "loads"), 1000);
  EXPECT_TRUE(std::filesystem::exists(directory / "locality.json"));
  EXPECT_TRUE(std::filesystem::exists(directory / "memory.ppm")) << "--save-trace keeps the import";
}

// `--text`: a unit-stride sweep then a stride-4 sweep, by two functions' code addresses unknown
// to any module: the program's figures are exact by construction.
TEST(LocalityImport, LocalityCommandScoresATextTrace) {
  TempDir tmp;
  const auto text = tmp / "trace.txt";
  {
    std::ofstream out(text);
    out << "# parperf-memory-trace v1\n";
    for (int i = 0; i < 1000; ++i) out << "L 0x" << std::hex << 0x10000 + 8 * i << std::dec << " 8\n";
    out << "T 1\n";
    for (int i = 0; i < 1000; ++i) out << "S " << 0x100000 + 32 * i << " 8\n";
  }
  const auto scored = run_process({parperf_command().string(), "locality", "-q", "--json", "-o",
                                   (tmp / "run").string(), "--text", text.string()});
  ASSERT_EQ(scored.exit_code, 0) << describe(scored);
  const auto result = nlohmann::json::parse(scored.out);
  EXPECT_EQ(result["source"], "text");
  EXPECT_EQ(number(result["program"], "loads"), 1000);
  EXPECT_EQ(number(result["program"], "stores"), 1000);
  ASSERT_EQ(result["threads"].size(), 2u);
  EXPECT_NEAR(number(result["threads"][0], "spatial_locality"), 0.999, 0.001);  // the first has no neighbour
  EXPECT_NEAR(number(result["threads"][1], "spatial_locality"), 0.25, 0.001);
  EXPECT_NEAR(number(result["program"], "spatial_locality"), 0.6244, 0.0005);
}

// The case: `parperf locality -o DIR` followed links planted in DIR for locality.json, the
// pictures and memory.ppm, and overwrote the files they named (a root-owned one). Every file it
// writes is created afresh: the links are replaced, what they name stays as it was.
TEST(LocalityImport, PlantedLinksInTheOutputDirectoryAreReplacedNotFollowed) {
  TempDir tmp;
  const auto text = tmp / "trace.txt";
  {
    std::ofstream out(text);
    for (int i = 0; i < 1000; ++i) out << "L " << 8 * i << " 8\n";
  }
  const auto run = tmp / "run";
  std::filesystem::create_directories(run);
  const auto victim = tmp / "victim";
  std::ofstream(victim) << "another user's file";
  const std::vector<std::string> names = {
      "locality.json",      "memory.ppm",         "locality-scatter.svg", "locality-scatter.png",
      "locality-reuse.svg", "locality-reuse.png", "locality-square.svg",  "locality-square.png"};
  for (const std::string& name : names) std::filesystem::create_symlink(victim, run / name);
  const auto result = run_process({parperf_command().string(), "locality", "-q", "--save-trace", "--png",
                                   "-o", run.string(), "--text", text.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  std::ifstream in(victim);
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(kept == "another user's file")
      << "the victim was written through a planted link (" << kept.size() << " bytes now)";
  for (const std::string& name : names) {
    if (name.ends_with(".png") && !result.err.empty()) continue;  // no PNG module: the warning says so
    EXPECT_FALSE(std::filesystem::is_symlink(run / name)) << name << " is still the planted link";
    EXPECT_TRUE(std::filesystem::is_regular_file(run / name)) << name;
  }
}

// Bad input never crashes and never silently lies: the error names the file and what is wrong.
TEST(LocalityImport, BadInputGetsAClearError) {
  TempDir tmp;
  const auto text = tmp / "bad.txt";
  std::ofstream(text) << "L 0x1000 8\nX 12 8\n";
  const auto bad_text = run_process({parperf_command().string(), "locality", "-q", "--text", text.string()});
  EXPECT_EQ(bad_text.exit_code, 125);
  EXPECT_NE(bad_text.err.find(text.string() + ":2"), std::string::npos) << bad_text.err;

  // A trace cut in the middle of its first section: nothing was scored, so it is an error.
  const auto good = tmp / "good.txt";
  {
    std::ofstream out(good);
    for (int i = 0; i < 100000; ++i) out << "L " << 8 * i << " 8\n";
  }
  const auto saved = tmp / "saved";
  ASSERT_EQ(run_process({parperf_command().string(), "locality", "-q", "--save-trace", "-o", saved.string(),
                         "--text", good.string()})
                .exit_code,
            0);
  const auto trace = saved / "memory.ppm";
  std::filesystem::resize_file(trace, 1000);
  const auto truncated = run_process({parperf_command().string(), "locality", "--json", trace.string()});
  EXPECT_EQ(truncated.exit_code, 125);
  EXPECT_NE(truncated.err.find(trace.string()), std::string::npos) << truncated.err;
  EXPECT_NE(truncated.err.find("truncated"), std::string::npos) << truncated.err;

  // A file that is no trace is never run as a program (programs go after `--`), even when it is
  // executable: it is named as no trace.
  const auto foreign = tmp / "notes.ppm";
  const auto ran = tmp / "ran";
  std::ofstream(foreign) << "#!/bin/sh\ntouch '" << ran.string() << "'\n";
  std::filesystem::permissions(foreign, std::filesystem::perms::owner_all);
  const auto not_trace = run_process({parperf_command().string(), "locality", "-q", foreign.string()});
  EXPECT_EQ(not_trace.exit_code, 125) << describe(not_trace);
  EXPECT_NE(not_trace.err.find(foreign.string() + " is not a parperf memory trace ("), std::string::npos)
      << not_trace.err;
  EXPECT_FALSE(std::filesystem::exists(ran)) << "parperf locality FILE ran FILE as a program";
  const auto two = run_process({parperf_command().string(), "locality", "-q", foreign.string(), "x"});
  EXPECT_EQ(two.exit_code, 125) << describe(two);
  EXPECT_FALSE(std::filesystem::exists(ran)) << "parperf locality FILE ARG ran FILE as a program";
}

// Special files: a FIFO or a device is no trace (a FIFO would block the reader, /dev/zero never
// end); --text and --lackey read a pipe as a stream but refuse a device or a directory.
TEST(LocalityImport, SpecialFilesAreNoTraces) {
  TempDir tmp;
  const UnblockedFifo fifo(tmp / "trace.ppm");
  const auto from_fifo = run_process({parperf_command().string(), "locality", fifo.path().string()});
  EXPECT_EQ(from_fifo.exit_code, 125) << describe(from_fifo);
  EXPECT_NE(from_fifo.err.find(fifo.path().string() + " is not a parperf memory trace (a FIFO"),
            std::string::npos)
      << from_fifo.err;
  const auto device = run_process({parperf_command().string(), "locality", "-q", "--text", "/dev/zero"});
  EXPECT_EQ(device.exit_code, 125) << describe(device);
  EXPECT_NE(device.err.find("/dev/zero: not a file or a pipe (a character device)"), std::string::npos)
      << device.err;
  const auto from_pipe = run_process(
      {"/bin/sh", "-c",
       "printf 'L 0x1000 8\\nL 0x1008 8\\n' | \"$0\" locality -q --json -o \"$1\" --text /dev/stdin",
       parperf_command().string(), (tmp / "piped").string()});
  ASSERT_EQ(from_pipe.exit_code, 0) << describe(from_pipe);
  EXPECT_EQ(nlohmann::json::parse(from_pipe.out)["program"]["loads"], 2);
}

// The pictures are SVG; their PNG copies are drawn only with --png: rasterising them was most of a
// locality run's fixed cost (issue 29), paid on every run for pictures few runs open.
TEST(LocalityImport, PngCopiesAreDrawnOnlyWithThePngOption) {
  TempDir tmp;
  const auto text = tmp / "trace.txt";
  std::ofstream(text) << "L 0x1000 8\nL 0x1008 8\nS 0x1010 8\n";
  const std::vector<std::string> pictures = {"locality-scatter", "locality-reuse", "locality-square"};
  const auto plain = run_process({parperf_command().string(), "locality", "-q", "-o",
                                  (tmp / "plain").string(), "--text", text.string()});
  ASSERT_EQ(plain.exit_code, 0) << describe(plain);
  for (const std::string& picture : pictures) {
    EXPECT_TRUE(std::filesystem::exists(tmp / "plain" / (picture + ".svg"))) << picture << ".svg is missing";
    EXPECT_FALSE(std::filesystem::exists(tmp / "plain" / (picture + ".png")))
        << picture << ".png was drawn though --png was not given";
  }
  const auto png = run_process({parperf_command().string(), "locality", "-q", "--png", "-o",
                                (tmp / "png").string(), "--text", text.string()});
  ASSERT_EQ(png.exit_code, 0) << describe(png);
  ASSERT_TRUE(png.err.empty()) << "the PNG module is missing: " << png.err;
  for (const std::string& picture : pictures)
    EXPECT_TRUE(std::filesystem::exists(tmp / "png" / (picture + ".png"))) << picture << ".png was not drawn";
}

// The PNG copies come from a module loaded only when they are drawn (libparperf-png.so in the libdir
// beside bin/parperf). Without it the scores and the SVGs are still written, and a warning names the file.
TEST(LocalityImport, WithoutThePngModuleTheSvgPicturesAreStillWritten) {
  TempDir tmp;
  std::filesystem::create_directories(tmp / "bin");
  const auto parperf = tmp / "bin" / "parperf";
  std::filesystem::copy_file(parperf_command(), parperf);
  const auto text = tmp / "stream.txt";
  std::ofstream(text) << "L 0x1000 8\nL 0x1008 8\nS 0x1010 8\n";
  const auto run = run_process(
      {parperf.string(), "locality", "-q", "--png", "-o", (tmp / "run").string(), "--text", text.string()});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  // The module is looked for in the install libdir (lib/<multiarch>) and in the build tree's lib.
  EXPECT_NE(run.err.find("warning: no PNG copies of the pictures (the SVGs are written): cannot load the "
                         "PNG module " +
                         (tmp / "lib").string() + "/"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("libparperf-png.so: "), std::string::npos) << run.err;
  for (const char* picture : {"locality-scatter", "locality-reuse", "locality-square"}) {
    EXPECT_TRUE(std::filesystem::exists(tmp / "run" / (std::string(picture) + ".svg"))) << picture;
    EXPECT_FALSE(std::filesystem::exists(tmp / "run" / (std::string(picture) + ".png"))) << picture;
  }
  EXPECT_TRUE(std::filesystem::exists(tmp / "run" / "locality.json"));
}

}  // namespace
}  // namespace parperf::test
