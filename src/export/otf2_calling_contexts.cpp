#include "export/otf2_calling_contexts.hpp"

#include <algorithm>

namespace parperf::exports {

std::uint32_t Otf2CallingContexts::node(OTF2_CallingContextRef parent, bool function, std::uint32_t id,
                                        std::uint32_t location, std::int64_t value) {
  const auto [it, added] = node_ids_.try_emplace(std::make_tuple(parent, function, id, location, value),
                                                 static_cast<OTF2_CallingContextRef>(nodes_.size()));
  if (added) {
    const std::uint32_t depth = parent == OTF2_UNDEFINED_CALLING_CONTEXT ? 1 : nodes_[parent].depth + 1;
    nodes_.push_back(Node{parent, depth, function, id, location, value});
  }
  return it->second;
}

OTF2_CallingContextRef Otf2CallingContexts::context(const analysis::TraceSamples& samples, std::size_t stack,
                                                    const IntervalRegion& interval_region) {
  if (const auto it = leaves_.find(stack); it != leaves_.end()) return it->second;
  const analysis::SampleStack& s = samples.stacks[stack];
  OTF2_CallingContextRef at = OTF2_UNDEFINED_CALLING_CONTEXT;
  for (const analysis::SampleInterval& interval : s.intervals)
    at = node(at, false, interval_region(interval.site), OTF2_UNDEFINED_SOURCE_CODE_LOCATION, interval.value);
  for (const analysis::SampleStackFrame& f : s.frames) {
    const auto [function, added] = function_ids_.try_emplace(std::make_pair(f.function, f.module),
                                                             static_cast<std::uint32_t>(functions_.size()));
    if (added) functions_.push_back(Function{f.function, f.module, f.file});
    std::uint32_t location = OTF2_UNDEFINED_SOURCE_CODE_LOCATION;
    if (!f.file.empty()) {
      const auto line = static_cast<std::uint32_t>(std::max<std::int64_t>(0, f.line));
      const auto [it, new_location] = location_ids_.try_emplace(
          std::make_pair(f.file, line), static_cast<std::uint32_t>(locations_.size()));
      if (new_location) locations_.emplace_back(f.file, line);
      location = it->second;
    }
    at = node(at, true, function->second, location, 0);
  }
  leaves_.emplace(stack, at);
  return at;
}

std::uint32_t Otf2CallingContexts::unwind_distance(OTF2_CallingContextRef before,
                                                   OTF2_CallingContextRef now) const {
  if (now == OTF2_UNDEFINED_CALLING_CONTEXT) return 0;
  auto depth = [&](OTF2_CallingContextRef c) {
    return c == OTF2_UNDEFINED_CALLING_CONTEXT ? 0 : nodes_[c].depth;
  };
  // The deepest node both paths hold: walk the deeper one up to the other's depth, then both.
  OTF2_CallingContextRef a = before, b = now;
  while (depth(a) > depth(b)) a = nodes_[a].parent;
  while (depth(b) > depth(a)) b = nodes_[b].parent;
  while (a != b) a = nodes_[a].parent, b = nodes_[b].parent;
  return depth(now) - depth(a) + 1;
}

OTF2_InterruptGeneratorRef Otf2CallingContexts::generator(format::SampleClock clock,
                                                          std::uint64_t period_ns) {
  const auto key = std::make_pair(clock, period_ns);
  const auto it = std::find(generators_.begin(), generators_.end(), key);
  if (it != generators_.end()) return static_cast<OTF2_InterruptGeneratorRef>(it - generators_.begin());
  generators_.push_back(key);
  return static_cast<OTF2_InterruptGeneratorRef>(generators_.size() - 1);
}

void Otf2CallingContexts::prepare(const FunctionRegion& function_region, const StringRef& string) {
  function_regions_.clear();
  for (const Function& f : functions_) function_regions_.push_back(function_region(f));
  location_files_.clear();
  for (const auto& [file, line] : locations_) location_files_.push_back(string(file));
  generator_names_.clear();
  for (const auto& [clock, period] : generators_)
    generator_names_.push_back(
        string(clock == format::SampleClock::wall ? "parperf wall-clock timer" : "parperf CPU-time timer"));
  if (std::any_of(nodes_.begin(), nodes_.end(), [](const Node& n) { return n.value != 0; }))
    value_name_ = string("value");
}

OTF2_ErrorCode Otf2CallingContexts::write(OTF2_GlobalDefWriter* defs) const {
  for (std::size_t i = 0; i < locations_.size(); ++i)
    if (const OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteSourceCodeLocation(
            defs, static_cast<OTF2_SourceCodeLocationRef>(i), location_files_[i], locations_[i].second);
        e != OTF2_SUCCESS)
      return e;
  // Parents are defined before their children: a node is made after its parent.
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    const OTF2_RegionRef region = n.function ? function_regions_[n.id] : n.id;
    if (const OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteCallingContext(
            defs, static_cast<OTF2_CallingContextRef>(i), region, n.location, n.parent);
        e != OTF2_SUCCESS)
      return e;
    if (n.value == 0) continue;
    OTF2_AttributeValue value;
    value.int64 = n.value;
    if (const OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteCallingContextProperty(
            defs, static_cast<OTF2_CallingContextRef>(i), value_name_, OTF2_TYPE_INT64, value);
        e != OTF2_SUCCESS)
      return e;
  }
  // The period in seconds: period_ns × 10^-9.
  for (std::size_t i = 0; i < generators_.size(); ++i)
    if (const OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteInterruptGenerator(
            defs, static_cast<OTF2_InterruptGeneratorRef>(i), generator_names_[i],
            OTF2_INTERRUPT_GENERATOR_MODE_TIME, OTF2_BASE_DECIMAL, -9, generators_[i].second);
        e != OTF2_SUCCESS)
      return e;
  return OTF2_SUCCESS;
}

}  // namespace parperf::exports
