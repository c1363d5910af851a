#include "report/html/diff_page.hpp"

#include "report/diff_json.hpp"
#include "report/html/html_page.hpp"

namespace parperf::report::html {

std::string diff_page(const analysis::RunComparison& comparison) {
  nlohmann::ordered_json data = diff_json(comparison);
  data["page"] = "diff";  // which view the script draws
  return html_page(data, "parperf diff");
}

}  // namespace parperf::report::html
