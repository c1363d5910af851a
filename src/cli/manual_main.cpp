// parperf-manual: writes the man pages of `parperf` and its subcommands and its bash completion into
// a directory, from the command's own definition (manual_pages.hpp). Run by the build
// (src/cli/CMakeLists.txt); not installed.
// Usage: parperf-manual DIRECTORY   (writes DIRECTORY/man1/*.1 and DIRECTORY/completion/parperf)
#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include <exception>
#include <filesystem>
#include <fstream>

#include "cli/application.hpp"
#include "cli/manual_pages.hpp"

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: parperf-manual DIRECTORY\n");
    return 2;
  }
  try {
    const std::filesystem::path directory = argv[1];
    const auto application = parperf::cli::make_application();
    std::filesystem::remove_all(directory / "man1");  // no page of a subcommand that is gone
    std::filesystem::create_directories(directory / "man1");
    std::filesystem::create_directories(directory / "completion");
    for (const auto& page : parperf::cli::manual_pages(*application, PARPERF_VERSION_STRING))
      write_file(directory / "man1" / page.file, page.text);
    write_file(directory / "completion" / "parperf", parperf::cli::bash_completion(*application));
  } catch (const std::exception& e) {
    fmt::print(stderr, "parperf-manual: {}\n", e.what());
    return 1;
  }
  return 0;
}
