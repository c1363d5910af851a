#include "format/csv_field.hpp"

namespace parperf::format {
namespace {

bool opens_a_formula(std::string_view field) {
  return !field.empty() && std::string_view("=+-@\t\r").find(field.front()) != std::string_view::npos;
}

}  // namespace

void append_csv_field(std::string& row, std::string_view field) {
  // A spreadsheet would run the cell as a formula; the quote makes it text (and shows in the cell).
  const std::string_view guard = opens_a_formula(field) ? "'" : "";
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    row.append(guard);
    row.append(field);
    return;
  }
  row += '"';
  row.append(guard);
  for (char c : field) {
    if (c == '"') row += '"';
    row += c;
  }
  row += '"';
}

}  // namespace parperf::format
