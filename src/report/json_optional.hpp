// An optional figure in the JSON reports: its value, or null when it is absent.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

namespace parperf::report {

template <class T>
nlohmann::ordered_json optional_value(const std::optional<T>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

}  // namespace parperf::report
