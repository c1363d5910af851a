#include "analysis/locality_findings.hpp"

namespace parperf::analysis {

std::vector<Finding> locality_findings(const format::LocalityResult& result) {
  std::vector<Finding> findings;
  const double all = static_cast<double>(result.report.program.histograms.word_accesses);
  if (all <= 0) return findings;
  for (std::uint32_t id : format::functions_by_accesses(result.report)) {
    const format::LocalityScores& scores = result.report.functions.at(id);
    const double accesses = static_cast<double>(scores.histograms.word_accesses);
    const double share = accesses / all;
    if (share < kLocalityAccessShare || scores.spatial >= kPoorSpatialLocality) continue;
    Finding finding;
    finding.kind = FindingKind::poor_spatial_locality;
    finding.remedy = Remedy::unit_stride_access;
    finding.share = share;
    FunctionPlace place;
    if (auto named = result.functions.find(id); named != result.functions.end())
      place = {named->second.name, named->second.file, named->second.line};
    finding.function = place;
    const std::vector<std::uint64_t>& strides = scores.histograms.strides;
    const double far = strides.empty() ? 0.0 : static_cast<double>(strides.back());
    finding.evidence = {{"spatial_locality", scores.spatial},
                        {"temporal_locality", scores.temporal},
                        {"access_share", share},
                        {"far_share", accesses > 0 ? far / accesses : 0.0}};
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace parperf::analysis
