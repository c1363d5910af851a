#include "analysis/user_call_path.hpp"

#include <algorithm>
#include <filesystem>

namespace parperf::analysis {

SampledModule sampled_module_kind(std::string_view module_path) {
  const std::string name = std::filesystem::path(module_path).filename().string();
  if (name.starts_with("libparperf-mpi") || name.starts_with("libparperf-shmem"))
    return SampledModule::api_wrappers;
  if (name.starts_with("libparperf")) return SampledModule::parperf_runtime;
  return SampledModule::program;
}

std::vector<std::uint32_t> user_call_path(const format::CallPaths& paths,
                                          const format::CallPathThread& thread, std::uint32_t leaf,
                                          bool internals) {
  std::vector<std::uint32_t> nodes;  // leaf first, then reversed
  for (std::uint32_t n = leaf; n != format::kNoParent && n < thread.nodes.size();
       n = thread.nodes[n].parent) {
    nodes.push_back(n);
    if (thread.nodes[n].parent != format::kNoParent && thread.nodes[n].parent >= n) break;  // damaged
  }
  std::reverse(nodes.begin(), nodes.end());
  const auto kind = [&](std::uint32_t n) {
    const std::uint32_t module = thread.nodes[n].module;
    return module < paths.modules.size() ? sampled_module_kind(paths.modules[module].path)
                                         : SampledModule::program;
  };
  if (!internals) {
    const auto wrapper = std::find_if(
        nodes.begin(), nodes.end(), [&](std::uint32_t n) { return kind(n) == SampledModule::api_wrappers; });
    if (wrapper != nodes.end()) nodes.erase(wrapper + 1, nodes.end());
  }
  // parperf's runtime frames: dropped between the program's, the first of a run at the leaf end kept.
  std::vector<std::uint32_t> kept;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (kind(nodes[i]) != SampledModule::parperf_runtime) {
      kept.push_back(nodes[i]);
      continue;
    }
    const bool program_below =
        std::any_of(nodes.begin() + static_cast<std::ptrdiff_t>(i) + 1, nodes.end(),
                    [&](std::uint32_t n) { return kind(n) != SampledModule::parperf_runtime; });
    const bool first_of_run = i == 0 || kind(nodes[i - 1]) != SampledModule::parperf_runtime;
    if (!program_below && first_of_run) kept.push_back(nodes[i]);
  }
  return kept;
}

}  // namespace parperf::analysis
