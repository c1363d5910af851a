#include "cli/preload.hpp"

#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <system_error>

#include <fmt/core.h>

#include "format/installed_layout.hpp"

namespace parperf::cli {
namespace {

std::filesystem::path this_executable() {
  std::error_code error;
  auto path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error)
    throw std::runtime_error(fmt::format("cannot locate the parperf executable: {}", error.message()));
  return path;
}

bool starts_with_name(std::string_view entry, std::string_view name) {
  return entry.size() > name.size() && entry.starts_with(name) && entry[name.size()] == '=';
}

}  // namespace

std::filesystem::path find_runtime_library() {
  std::filesystem::path library;
  const char* override_path = std::getenv("PARPERF_LIBRARY");
  if (override_path != nullptr && *override_path != '\0') {
    library = std::filesystem::absolute(override_path);
  } else {
    library = format::library_beside(this_executable(), "libparperf.so");
  }
  if (access(library.c_str(), R_OK) != 0) {
    throw std::runtime_error(
        fmt::format("runtime library {} not found (set PARPERF_LIBRARY to its location)", library.string()));
  }
  // The dynamic loader splits LD_PRELOAD at spaces and colons, so such a path cannot be preloaded.
  if (library.string().find_first_of(" :") != std::string::npos) {
    throw std::runtime_error(
        fmt::format("cannot preload {}: its path contains a space or ':'", library.string()));
  }
  return library;
}

std::vector<std::string> child_environment(const char* const* parent,
                                           const std::vector<std::filesystem::path>& libraries,
                                           const std::vector<std::pair<std::string, std::string>>& settings) {
  const auto replaced = [&settings](std::string_view entry) {
    if (starts_with_name(entry, kPidVariable)) return true;
    for (const auto& setting : settings) {
      if (starts_with_name(entry, setting.first)) return true;
    }
    return false;
  };
  std::vector<std::string> environment;
  std::string preload;
  for (const auto& library : libraries) {
    if (!preload.empty()) preload += ':';
    preload += library.string();
  }
  for (const char* const* entry = parent; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view text = *entry;
    if (starts_with_name(text, "LD_PRELOAD")) {
      auto existing = text.substr(sizeof "LD_PRELOAD");
      if (!existing.empty()) {
        if (!preload.empty()) preload += ':';
        preload += existing;
      }
    } else if (!replaced(text)) {
      environment.emplace_back(text);
    }
  }
  environment.push_back("LD_PRELOAD=" + preload);
  for (const auto& [name, value] : settings) environment.push_back(name + "=" + value);
  return environment;
}

}  // namespace parperf::cli
