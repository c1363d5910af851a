#include "report/locality/locality_json.hpp"

#include "format/locality_file.hpp"

namespace parperf::report {

// The JSON a user reads is the stored form itself: a saved result and a printed one never differ.
nlohmann::ordered_json locality_json(const format::LocalityResult& result) {
  return format::locality_file_json(result);
}

std::string locality_json_text(const format::LocalityResult& result) {
  return format::locality_file_text(result);
}

}  // namespace parperf::report
