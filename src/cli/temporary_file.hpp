// Scratch files in $TMPDIR (else /tmp): a shared directory, where a name known in advance (one made
// of the pid) could be a symbolic link another user planted, and writing to it would overwrite
// whatever it points to.
#pragma once

#include <filesystem>
#include <string>

namespace parperf::cli {

// A new file under `pattern` (which holds "XXXXXX", made unique by mkstemps; what follows it, such
// as ".txt", is kept), readable by its owner alone, holding `text`. A relative pattern is taken in
// $TMPDIR; an absolute one names its own directory. Throws std::runtime_error.
std::filesystem::path create_temporary_file(const std::string& pattern, const std::string& text = "");

}  // namespace parperf::cli
