#include "cli/usage_hints.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace parperf::cli {
namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

bool is_option(const std::string& argument) {
  return argument.size() > 1 && argument[0] == '-' && argument != "--";
}

}  // namespace

std::optional<std::string> closest_name(const std::string& typed, const std::vector<std::string>& names) {
  std::optional<std::string> best;
  std::size_t best_distance = std::max<std::size_t>(2, typed.size() / 3) + 1;
  for (const std::string& name : names) {
    const std::size_t distance = name.starts_with(typed) && !typed.empty() ? 1 : edit_distance(typed, name);
    if (distance < best_distance) best = name, best_distance = distance;
  }
  return best;
}

std::optional<std::string> unknown_command_message(const CLI::App& app, int argc, const char* const* argv) {
  if (argc < 2 || argv[1][0] == '-') return std::nullopt;
  const std::string typed = argv[1];
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (command->check_name(typed)) return std::nullopt;
    names.push_back(command->get_name());
  }
  const auto meant = closest_name(typed, names);
  return fmt::format(
      "unknown command '{}'{}", typed,
      meant ? fmt::format("; did you mean '{}'?", *meant) : std::string("; see parperf --help"));
}

std::optional<std::string> unknown_option_message(const CLI::App& app) {
  for (const CLI::App* command : app.get_subcommands()) {
    for (const std::string& argument : command->remaining())
      if (is_option(argument))
        return fmt::format("unknown option '{}' for 'parperf {}' (see parperf {} --help)", argument,
                           command->get_name(), command->get_name());
  }
  for (const std::string& argument : app.remaining())
    if (is_option(argument)) return fmt::format("unknown option '{}' (see parperf --help)", argument);
  return std::nullopt;
}

}  // namespace parperf::cli
