#include "cli/text_file.hpp"

#include "format/new_file.hpp"

namespace parperf::cli {

void write_text_file(const std::filesystem::path& path, const std::string& content) {
  format::write_new_file(path, content);  // never through a link planted at `path`
}

}  // namespace parperf::cli
