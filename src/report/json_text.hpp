// A JSON document as the text a command prints. Names in it come from the measured program (and a
// damaged file) and need not be valid UTF-8: nlohmann-json's default dump throws on them
// (type_error.316) and would fail the whole command, so every printed JSON goes through here and
// invalid bytes become U+FFFD instead.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace parperf::report {

// `json`, indented by two spaces.
inline std::string json_text(const nlohmann::ordered_json& json) {
  return json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace parperf::report
