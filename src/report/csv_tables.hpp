// `parperf report --csv DIR`: the report as long-form ("tidy") CSV tables, one observation a row, that
// pandas (read_csv) and R (read.csv) read as they are. The figure names are the keys of the JSON
// report (docs/report.md), so the two never disagree; the tables are rendered from that JSON.
//   intervals.csv   interval,kind,name,file,line,interval_value,level,processor,figure,value
//                   one row per interval x processor x figure; processor "all" is the interval's
//                   characteristic over its processors, a number is that processor's figure
//   src_points.csv  src_point,name,kind,file,line,function,interval,figure,value
//                   one row per SRC point x figure (src_point: 1 = the one that loses most)
//   findings.csv    finding,rule,share,estimated_gain,interval,file,line,text   (worst first)
//   pop.csv         source,phase,part,factor,value   (part: overall, mpi, openmp; phase empty for
//                   the whole run; a factor that needs the event trace has an empty value)
// The interval column is the path of names from the program ("program/solve/step"). Times are
// seconds. Fields are RFC 4180 (format/csv_field.hpp), lines end with CRLF.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace parperf::report {

struct CsvTable {
  std::string file;  // "intervals.csv"
  std::string text;  // header and rows
};

// `report` is the JSON report (render_json, with "pop" as `parperf report --json` adds it).
std::vector<CsvTable> csv_tables(const nlohmann::ordered_json& report);

}  // namespace parperf::report
