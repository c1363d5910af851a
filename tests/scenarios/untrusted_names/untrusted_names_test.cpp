// Scenario: interval and event names that would act on the reader of parperf's output
// (untrusted_names.c), measured with `--sample --trace`. Every output keeps them harmless:
//   - the text outputs (`report`, `report --functions`, `report --folded`) write control
//     characters as escapes ("\x1b", "\n"), so nothing reaches the terminal raw and no line is forged;
//   - the JSON outputs (`report --json`, `diff --json`) and the Perfetto file replace bytes that are
//     not UTF-8 by U+FFFD instead of failing or writing a file that readers refuse;
//   - the CSV export starts a cell that a spreadsheet would run as a formula (=, +, -, @) with '.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/artifacts.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

// "bad\xff\xfe utf8" with its two invalid bytes replaced.
const std::string kReplacedName = "bad\xEF\xBF\xBD\xEF\xBF\xBD utf8";

class UntrustedNames : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const ProcessResult result =
        run_process({parperf_command().string(), "run", "-q", "--sample=500", "--trace", "-o", run().string(),
                     "--", PARPERF_PROGRAM_UNTRUSTED_NAMES_PROGRAM});
    ASSERT_EQ(result.exit_code, 0) << describe(result);
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::filesystem::path run() { return *dir_ / "run"; }
  static ProcessResult parperf(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), parperf_command().string());
    return run_process(arguments);
  }
  static TempDir* dir_;
};
TempDir* UntrustedNames::dir_ = nullptr;

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

// The first control character of `text` other than the line ends, as "\xHH", or "".
std::string raw_control(const std::string& text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n') || byte == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      return hex;
    }
  }
  return "";
}

TEST_F(UntrustedNames, TheTextReportsWriteControlCharactersAsEscapes) {
  for (const std::vector<std::string>& command : {std::vector<std::string>{"report", run().string()},
                                                  {"report", "--functions", run().string()},
                                                  {"report", "--folded", run().string()}}) {
    const ProcessResult result = parperf(command);
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    EXPECT_EQ(raw_control(result.out), "") << "a raw control character reaches the terminal from `parperf "
                                           << command[0] << " " << command[1] << "`:\n"
                                           << result.out;
    for (const std::string& line : lines_of(result.out))
      EXPECT_NE(line.rfind("lines", 0), 0u) << "the name \"two\\nlines\" forged a line in `parperf "
                                            << command[0] << " " << command[1] << "`:\n"
                                            << result.out;
  }
}

TEST_F(UntrustedNames, FunctionsAndFoldedStacksNameEachIntervalEscaped) {
  const ProcessResult functions = parperf({"report", "--functions", run().string()});
  ASSERT_EQ(functions.exit_code, 0) << describe(functions);
  for (const char* escaped : {"\\x1b]0;owned\\x07\\x1b[2Jcleared", "over\\x0dwritten", "two\\nlines"})
    EXPECT_NE(functions.out.find(escaped), std::string::npos)
        << "the interval " << escaped << " is not in --functions with its controls escaped:\n"
        << functions.out;
  const ProcessResult folded = parperf({"report", "--folded", run().string()});
  ASSERT_EQ(folded.exit_code, 0) << describe(folded);
  const std::regex stack_line(R"(^[^;]+(;[^;]+)* [0-9]+$)");
  for (const std::string& line : lines_of(folded.out))
    EXPECT_TRUE(std::regex_match(line, stack_line))
        << "not a folded stack (\"frame;frame samples\"): " << line << "\n"
        << folded.out;
  // The analysis already writes a newline in a frame as a space and a ';' as ':' (a frame must stay
  // one frame of one line); the rest of the controls are escaped.
  EXPECT_NE(folded.out.find(";\\x1b]0:owned\\x07\\x1b[2Jcleared;"), std::string::npos)
      << "the interval with ESC and BEL is not in --folded with its controls escaped:\n"
      << folded.out;
}

TEST_F(UntrustedNames, JsonOutputsReplaceBytesThatAreNotUtf8) {
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"report", "--json", run().string()},
        {"diff", "--json", run().string(), run().string()}}) {
    const ProcessResult result = parperf(command);
    ASSERT_EQ(result.exit_code, 0) << "`parperf " << command[0]
                                   << " --json` failed on a name that is not UTF-8: " << describe(result);
    const auto json = nlohmann::json::parse(result.out, nullptr, false);
    EXPECT_FALSE(json.is_discarded()) << "not JSON:\n" << result.out;
    EXPECT_NE(result.out.find(kReplacedName), std::string::npos)
        << "the name with its invalid bytes as U+FFFD is missing from `parperf " << command[0] << " --json`";
  }
}

TEST_F(UntrustedNames, ThePerfettoFileHoldsOnlyUtf8Names) {
  const auto file = *dir_ / "trace.perfetto";
  const ProcessResult result = parperf({"export", run().string(), "--perfetto", file.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const std::string bytes = read_bytes(file);
  EXPECT_EQ(bytes.find("bad\xff\xfe"), std::string::npos)
      << "the invalid name is written raw: Perfetto refuses it";
  EXPECT_NE(bytes.find(kReplacedName), std::string::npos)
      << "the name is missing, with U+FFFD for its bad bytes";
}

// The fields of an RFC 4180 file, quotes undone.
std::vector<std::string> csv_fields(const std::string& text) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted && c == '"' && i + 1 < text.size() && text[i + 1] == '"')
      fields.back() += '"', ++i;
    else if (c == '"')
      quoted = !quoted;
    else if (!quoted && (c == ',' || c == '\n'))
      fields.emplace_back();
    else if (quoted || c != '\r')
      fields.back() += c;
  }
  return fields;
}

TEST_F(UntrustedNames, NoCsvCellIsAFormula) {
  const auto file = *dir_ / "events.csv";
  const ProcessResult result = parperf({"export", run().string(), "--csv", file.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  int defused = 0;
  for (const std::string& field : csv_fields(read_bytes(file))) {
    if (field.empty()) continue;
    EXPECT_EQ(std::string("=+-@").find(field.front()), std::string::npos)
        << "a spreadsheet runs the cell " << field << " as a formula";
    defused +=
        field == "'=HYPERLINK(\"http://example.com\")" || field == "'-2+3" || field.rfind("'@SUM(", 0) == 0;
  }
  // Each of the five intervals is entered and left once; the event named "-2+3" with its text
  // "@SUM(i)" happens once in each.
  EXPECT_EQ(defused, 2 + 5 * 2) << "the formula-like names and texts should be there, each after a '";
}

}  // namespace
}  // namespace parperf::test
