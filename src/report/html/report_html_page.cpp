#include "report/html/report_html_page.hpp"

#include "report/html/dependency_sections.hpp"
#include "report/html/html_page.hpp"
#include "report/locality/locality_ranks.hpp"
#include "report/locality/locality_svg.hpp"
#include "report/locality/locality_text.hpp"
#include "report/prediction_svg.hpp"
#include "report/prediction_text.hpp"
#include "report/wait_states_report.hpp"

namespace parperf::report::html {
namespace {

PageSection locality_section(const format::StoredLocality& stored,
                             const std::optional<locality::RankComparison>& ranks) {
  PageSection section;
  if (stored.single) {
    section.text = locality_text(*stored.single);
    section.pictures = {{"Spatial against temporal locality per function", scatter_svg(*stored.single)},
                        {"Reuse distances", reuse_histogram_svg(*stored.single)},
                        {"Locality of the busiest functions", locality_square_svg(*stored.single)}};
  }
  if (!stored.ranks.empty() && ranks) {
    if (!section.text.empty()) section.text += "\n";
    section.text += locality_ranks_text(stored.ranks, *ranks, "");
  }
  return section;
}

PageExtras extras_of(const HtmlPageInputs& in) {
  PageExtras extras;
  // A directory of `parperf locality` results only has no profile, hence no factors to show.
  if (!in.report.intervals.empty() || in.trace)
    extras.pop = pop_section(in.profile_pop, in.trace ? &in.trace->pop : nullptr);
  if (in.trace) {
    extras.critical_path = critical_path_section(*in.trace);
    extras.delay_costs = delay_costs_section(*in.trace);
    extras.wait_states = PageSection{wait_states_text(*in.trace), {}};
  }
  extras.timeline = in.timeline;
  if (in.locality && !in.locality->empty())
    extras.locality = locality_section(*in.locality, in.locality_ranks);
  if (in.prediction)
    extras.prediction = PageSection{prediction_text(*in.prediction),
                                    {{"Speedup, measured and predicted", prediction_svg(*in.prediction)}}};
  return extras;
}

}  // namespace

nlohmann::ordered_json report_html_data(const HtmlPageInputs& inputs, const PageLimits& limits) {
  return report_page_data(inputs.report, extras_of(inputs), limits);
}

std::string report_html_page(const HtmlPageInputs& inputs, const PageLimits& limits) {
  return html_page(report_html_data(inputs, limits), "parperf report");
}

}  // namespace parperf::report::html
