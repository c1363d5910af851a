// One CSV field (RFC 4180), shared by every CSV that parperf writes: the event export
// (export/csv_writer.hpp) and the report's tables (report/csv_tables.hpp).
#pragma once

#include <string>
#include <string_view>

namespace parperf::format {

// Appends `field` to `row` as RFC 4180 wants it, with a ' before it when a spreadsheet would take it
// as a formula (it begins with =, +, -, @, a tab or a carriage return): names and texts come from
// the measured program, and a cell such as =HYPERLINK(...) would act when the file is opened. The '
// is the spreadsheets' own mark of a text cell; a script reading the file can drop it.
void append_csv_field(std::string& row, std::string_view field);

}  // namespace parperf::format
