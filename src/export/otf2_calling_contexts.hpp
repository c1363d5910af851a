// The call stacks of the trace's samples as OTF2's calling-context tree (OTF2_GlobalDefWriter.h):
// each distinct stack a path of CallingContext definitions, its outermost node the program interval.
// A stack starts with the intervals the thread was in (their regions: the Enter/Leave records'
// regions, one per site; an interval's value, when not 0, a CallingContextProperty "value"), then
// the functions, outermost first, each named by the function (the region of a site with its name,
// an annotated function or an MPI call, else a region of role function and paradigm sampling), its
// file and line the context's SourceCodeLocation when known. Contexts with the same parent,
// region, source code location and value are one node: a run's samples cost one context id each.
//
// The sampling timers are InterruptGenerators of mode time, one per (clock, period) of the profiles.
#pragma once

#include <otf2/otf2.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analysis/trace/trace_samples.hpp"
#include "format/records.hpp"

namespace parperf::exports {

class Otf2CallingContexts {
 public:
  // A function of the sampled stacks, as its region is made.
  struct Function {
    std::string name;
    std::string module;
    std::string file;  // of its first frame seen; empty when unknown
  };
  using IntervalRegion = std::function<OTF2_RegionRef(std::uint32_t site)>;
  using FunctionRegion = std::function<OTF2_RegionRef(const Function&)>;
  using StringRef = std::function<OTF2_StringRef(std::string_view)>;

  // The leaf context of `samples`' stack `stack`, its nodes defined on first use; the intervals'
  // regions from `interval_region` (the sites of the rank whose thread took the samples).
  OTF2_CallingContextRef context(const analysis::TraceSamples& samples, std::size_t stack,
                                 const IntervalRegion& interval_region);
  // The unwind distance of a sample in context `now` after one in `before` (undefined for the first
  // sample of a location): the nodes of `now` below the deepest one both share, which were entered
  // since, plus that node, which made progress. Frames both stacks hold are taken as not left
  // between the two samples: a sampler cannot see a return and a call again.
  std::uint32_t unwind_distance(OTF2_CallingContextRef before, OTF2_CallingContextRef now) const;
  // The generator of the samples of a profile sampled with `clock` every `period_ns`.
  OTF2_InterruptGeneratorRef generator(format::SampleClock clock, std::uint64_t period_ns);

  bool empty() const { return nodes_.empty() && generators_.empty(); }
  // Before the archive writes its strings and regions: makes each function's region and registers
  // the strings the definitions below name.
  void prepare(const FunctionRegion& function_region, const StringRef& string);
  // The SourceCodeLocation, CallingContext, CallingContextProperty and InterruptGenerator
  // definitions; the first error, else OTF2_SUCCESS.
  OTF2_ErrorCode write(OTF2_GlobalDefWriter* defs) const;

 private:
  struct Node {
    OTF2_CallingContextRef parent;
    std::uint32_t depth;     // 1 for a root
    bool function;           // else an interval
    std::uint32_t id;        // the interval's region, or the function's index in functions_
    std::uint32_t location;  // in locations_, or OTF2_UNDEFINED_SOURCE_CODE_LOCATION
    std::int64_t value;      // an interval's
  };
  std::uint32_t node(OTF2_CallingContextRef parent, bool function, std::uint32_t id, std::uint32_t location,
                     std::int64_t value);

  std::vector<Node> nodes_;  // by ref
  std::map<std::tuple<OTF2_CallingContextRef, bool, std::uint32_t, std::uint32_t, std::int64_t>,
           OTF2_CallingContextRef>
      node_ids_;
  std::unordered_map<std::size_t, OTF2_CallingContextRef> leaves_;  // by the stack's index
  std::vector<Function> functions_;
  std::map<std::pair<std::string, std::string>, std::uint32_t> function_ids_;  // (name, module)
  std::vector<std::pair<std::string, std::uint32_t>> locations_;               // (file, line)
  std::map<std::pair<std::string, std::uint32_t>, std::uint32_t> location_ids_;
  std::vector<std::pair<format::SampleClock, std::uint64_t>> generators_;
  // Filled by prepare().
  std::vector<OTF2_RegionRef> function_regions_;
  std::vector<OTF2_StringRef> location_files_, generator_names_;
  OTF2_StringRef value_name_ = OTF2_UNDEFINED_STRING;
};

}  // namespace parperf::exports
