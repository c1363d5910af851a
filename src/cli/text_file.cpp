#include "cli/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <fmt/core.h>

namespace parperf::cli {

void write_text_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) throw std::runtime_error(fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
}

}  // namespace parperf::cli
