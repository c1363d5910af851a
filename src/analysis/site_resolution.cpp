#include "analysis/site_resolution.hpp"

#include <set>

#include <fmt/format.h>

#include "analysis/symbolizer.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis {

SiteTable resolve_code_sites(const RunData& run) {
  SiteTable table;
  Symbolizer symbolizer;
  std::set<std::string> reported;
  for (const format::Profile& profile : run.profiles) {
    for (const format::Site& site : profile.sites) {
      if (site.module.empty() || site.address == 0) continue;
      // An instrumented function's site is its entry address itself, not a return address.
      const bool function_entry = site.kind == static_cast<std::uint32_t>(format::SiteKind::function);
      const SourceLocation where = function_entry
                                       ? symbolizer.locate(site.module, site.address)
                                       : symbolizer.locate_return_address(site.module, site.address);
      if (const std::string& problem = symbolizer.problem(site.module);
          !problem.empty() && reported.insert(site.module).second)
        table.warnings.push_back(fmt::format("source locations unavailable: {}", problem));
      SiteLocation resolved{site.file, site.line, 0, where.function, {}};
      if (where.line > 0) {
        resolved.file = where.file;
        resolved.line = where.line;
      } else {
        // Without line information the address itself keeps distinct constructs apart.
        resolved.file = site.module;
        if (resolved.function.empty()) resolved.function = fmt::format("0x{:x}", site.address);
      }
      if (site.end_address != 0 && where.line > 0) {
        const SourceLocation end = symbolizer.locate_return_address(site.module, site.end_address);
        if (end.file == where.file && end.line >= where.line) resolved.end_line = end.line;
      }
      if (function_entry) {  // the function is the site: its name, and no "in <function>" beside it
        resolved.name = std::move(resolved.function);
        resolved.function.clear();
      }
      table.add(profile.process.rank, site.id, std::move(resolved));
    }
  }
  return table;
}

}  // namespace parperf::analysis
