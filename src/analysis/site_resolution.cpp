#include "analysis/site_resolution.hpp"

#include <set>

#include <fmt/format.h>

#include "analysis/symbolizer.hpp"

namespace parperf::analysis {

void resolve_code_sites(RunData& run) {
  Symbolizer symbolizer;
  std::set<std::string> reported;
  for (format::Profile& profile : run.profiles) {
    for (format::Site& site : profile.sites) {
      if (site.module.empty() || site.address == 0) continue;
      const SourceLocation where = symbolizer.locate_return_address(site.module, site.address);
      if (const std::string& problem = symbolizer.problem(site.module);
          !problem.empty() && reported.insert(site.module).second)
        run.warnings.push_back(fmt::format("source locations unavailable: {}", problem));
      site.function = where.function;
      if (where.line > 0) {
        site.file = where.file;
        site.line = where.line;
      } else {
        // Without line information the address itself keeps distinct constructs apart.
        site.file = site.module;
        if (site.function.empty()) site.function = fmt::format("0x{:x}", site.address);
      }
      if (site.end_address != 0 && where.line > 0) {
        const SourceLocation end = symbolizer.locate_return_address(site.module, site.end_address);
        if (end.file == where.file && end.line >= where.line) site.end_line = end.line;
      }
    }
  }
}

}  // namespace parperf::analysis
