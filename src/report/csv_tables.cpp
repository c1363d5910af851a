#include "report/csv_tables.hpp"

#include <string_view>

#include "format/csv_field.hpp"

namespace parperf::report {
namespace {

using json = nlohmann::ordered_json;

// Cells of one row: text goes through append_csv_field, numbers are written as JSON writes them
// (shortest round-trip form; a negative number must not be taken for a formula).
class Row {
 public:
  Row& text(std::string_view field) {
    separate();
    format::append_csv_field(row_, field);
    return *this;
  }
  Row& cell(const json& value) {
    if (value.is_string()) return text(value.get<std::string>());
    separate();
    if (value.is_number() || value.is_boolean()) row_ += value.dump();
    return *this;
  }
  void end(std::string& table) {
    table += row_;
    table += "\r\n";
    row_.clear();
    first_ = true;
  }

 private:
  void separate() {
    if (!first_) row_ += ',';
    first_ = false;
  }
  std::string row_;
  bool first_ = true;
};

const json& field(const json& object, const char* key) {
  static const json none;
  if (!object.is_object()) return none;
  const auto found = object.find(key);
  return found == object.end() ? none : *found;
}

// The identity fields of an interval (the columns before processor), not figures.
bool is_identity(std::string_view key) {
  for (std::string_view identity : {"kind", "name", "file", "line", "end_line", "function", "value", "level",
                                    "open", "processor", "rank", "thread"})
    if (key == identity) return true;
  return false;
}

void interval_rows(const json& interval, const std::string& parent, std::string& table) {
  const std::string name =
      field(interval, "name").is_string() ? field(interval, "name").get<std::string>() : "";
  const std::string path = parent.empty() ? name : parent + "/" + name;
  const auto begin = [&](Row& row) -> Row& {
    return row.text(path)
        .cell(field(interval, "kind"))
        .text(name)
        .cell(field(interval, "file"))
        .cell(field(interval, "line"))
        .cell(field(interval, "value"))
        .cell(field(interval, "level"));
  };
  Row row;
  for (const auto& [key, value] : interval.items()) {
    if (is_identity(key) || !value.is_number()) continue;
    begin(row).text("all").text(key).cell(value).end(table);
  }
  for (const json& processor : field(interval, "per_processor")) {
    for (const auto& [key, value] : processor.items()) {
      if (is_identity(key) || !value.is_number()) continue;
      begin(row).cell(field(processor, "processor")).text(key).cell(value).end(table);
    }
  }
  for (const json& child : field(interval, "children")) interval_rows(child, path, table);
}

std::string src_point_table(const json& points) {
  std::string table = "src_point,name,kind,file,line,function,interval,figure,value\r\n";
  Row row;
  int index = 0;
  for (const json& point : points) {
    ++index;
    for (const auto& [key, value] : point.items()) {
      if (key == "line" || !value.is_number()) continue;
      row.cell(index)
          .cell(field(point, "name"))
          .cell(field(point, "kind"))
          .cell(field(point, "file"))
          .cell(field(point, "line"))
          .cell(field(point, "function"))
          .cell(field(field(point, "interval"), "name"))
          .text(key)
          .cell(value)
          .end(table);
    }
  }
  return table;
}

std::string finding_table(const json& findings) {
  std::string table = "finding,rule,share,estimated_gain,interval,file,line,text\r\n";
  Row row;
  int index = 0;
  for (const json& finding : findings) {
    const json& location = field(finding, "location");
    row.cell(++index)
        .cell(field(finding, "rule"))
        .cell(field(finding, "share"))
        .cell(field(finding, "estimated_gain"))
        .cell(field(field(finding, "interval"), "name"))
        .cell(field(location, "file"))
        .cell(field(location, "line"))
        .cell(field(finding, "text"))
        .end(table);
  }
  return table;
}

// The factors of one part (overall, mpi, openmp) of the run or of one phase.
void factor_rows(const json& factors, const json& source, const json& phase, std::string_view part,
                 std::string& table) {
  Row row;
  for (const auto& [key, value] : factors.items()) {
    if (!value.is_number() && !value.is_null()) continue;
    if (key == "phase" || key == "ranks") continue;
    row.cell(source).cell(phase).text(part).text(key).cell(value).end(table);
  }
  for (const char* nested : {"mpi", "openmp"})
    if (field(factors, nested).is_object()) factor_rows(field(factors, nested), source, phase, nested, table);
}

std::string pop_table(const json& pop) {
  std::string table = "source,phase,part,factor,value\r\n";
  if (!pop.is_object()) return table;
  const json& source = field(pop, "source");
  factor_rows(pop, source, json(), "overall", table);
  for (const json& phase : field(pop, "phases"))
    factor_rows(phase, source, field(phase, "phase"), "overall", table);
  return table;
}

}  // namespace

std::vector<CsvTable> csv_tables(const json& report) {
  std::string intervals = "interval,kind,name,file,line,interval_value,level,processor,figure,value\r\n";
  for (const json& root : field(report, "intervals")) interval_rows(root, "", intervals);
  return {{"intervals.csv", std::move(intervals)},
          {"src_points.csv", src_point_table(field(report, "src_points"))},
          {"findings.csv", finding_table(field(report, "findings"))},
          {"pop.csv", pop_table(field(report, "pop"))}};
}

}  // namespace parperf::report
