// The long-form CSV tables of `parperf report --csv` (report/csv_tables.hpp) from hand-built JSON
// reports whose rows are known.
#include <gtest/gtest.h>

#include <string>

#include "report/csv_tables.hpp"

namespace parperf::report {
namespace {

using json = nlohmann::ordered_json;

std::string table(const json& report, const std::string& file) {
  for (const CsvTable& t : csv_tables(report))
    if (t.file == file) return t.text;
  ADD_FAILURE() << "no table " << file;
  return {};
}

TEST(ReportCsvTables, IntervalsAreOneRowPerIntervalProcessorAndFigureWithPaths) {
  const json child = {
      {"kind", "user"},
      {"name", "solve, fast"},
      {"file", "a.c"},
      {"line", 7},
      {"value", 3},
      {"level", 1},
      {"execution_time", 0.5},
      {"per_processor", json::array({{{"processor", 1}, {"rank", 1}, {"execution_time", 0.25}}})},
      {"children", json::array()}};
  const json root = {{"kind", "program"},
                     {"name", "program"},
                     {"file", nullptr},
                     {"line", 0},
                     {"value", 0},
                     {"level", 0},
                     {"efficiency", 0.75},
                     {"diagnosis", "text is no figure"},
                     {"children", json::array({child})}};
  EXPECT_EQ(table(json{{"intervals", json::array({root})}}, "intervals.csv"),
            "interval,kind,name,file,line,interval_value,level,processor,figure,value\r\n"
            "program,program,program,,0,0,0,all,efficiency,0.75\r\n"
            "\"program/solve, fast\",user,\"solve, fast\",a.c,7,3,1,all,execution_time,0.5\r\n"
            "\"program/solve, fast\",user,\"solve, fast\",a.c,7,3,1,1,execution_time,0.25\r\n");
}

TEST(ReportCsvTables, NegativeNumbersStayNumbersWhileFormulaTextIsGuarded) {
  const json finding = {{"rule", "r"},
                        {"share", -0.5},
                        {"estimated_gain", 1},
                        {"interval", nullptr},
                        {"location", {{"file", "=cmd"}, {"line", 2}}},
                        {"text", "a \"quoted\" word"}};
  EXPECT_EQ(table(json{{"findings", json::array({finding})}}, "findings.csv"),
            "finding,rule,share,estimated_gain,interval,file,line,text\r\n"
            "1,r,-0.5,1,,'=cmd,2,\"a \"\"quoted\"\" word\"\r\n");
}

TEST(ReportCsvTables, PopFactorsWithoutATraceHaveEmptyValuesAndPhasesTheirNumber) {
  const json pop = {{"parallel_efficiency", 0.9},
                    {"serialisation_efficiency", nullptr},
                    {"source", "trace"},
                    {"mpi", {{"load_balance", 0.8}}},
                    {"phases", json::array({{{"phase", 2}, {"ranks", 4}, {"load_balance", 0.6}}})}};
  EXPECT_EQ(table(json{{"pop", pop}}, "pop.csv"),
            "source,phase,part,factor,value\r\n"
            "trace,,overall,parallel_efficiency,0.9\r\n"
            "trace,,overall,serialisation_efficiency,\r\n"
            "trace,,mpi,load_balance,0.8\r\n"
            "trace,2,overall,load_balance,0.6\r\n");
}

}  // namespace
}  // namespace parperf::report
