#include "cli/openmp_runtime.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <system_error>

#include <fmt/core.h>

#include "format/regular_file.hpp"
#include "format/run_directory.hpp"

#ifndef PARPERF_LIBOMP_PATH
#define PARPERF_LIBOMP_PATH ""  // the build found no libomp
#endif

namespace parperf::cli {
namespace {

// Where the dynamic loader looks after the paths the program names (ld.so.cache holds these on
// Debian and its derivatives; other distributions use the lib64 ones).
constexpr const char* kDefaultLibraryDirectories[] = {"/lib/x86_64-linux-gnu",
                                                      "/usr/lib/x86_64-linux-gnu",
                                                      "/usr/local/lib/x86_64-linux-gnu",
                                                      "/lib64",
                                                      "/usr/lib64",
                                                      "/lib",
                                                      "/usr/lib",
                                                      "/usr/local/lib"};

// glibc's execvp when PATH is unset (confstr(_CS_PATH)).
constexpr const char* kDefaultPath = "/bin:/usr/bin";

// Real ELF files have a few dozen of each; anything far larger is a damaged or hostile file.
constexpr std::size_t kMaxProgramHeaders = 4096;
constexpr std::size_t kMaxDynamicEntries = 65536;
constexpr std::uint64_t kMaxStringTable = 64 * 1024 * 1024;

bool is_native_elf64(const Elf64_Ehdr& header) {
  constexpr unsigned char native_data =
      std::endian::native == std::endian::little ? ELFDATA2LSB : ELFDATA2MSB;
  return std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 && header.e_ident[EI_CLASS] == ELFCLASS64 &&
         header.e_ident[EI_DATA] == native_data;
}

// The file offset of the virtual address `address`, through the PT_LOAD segment that maps it.
std::optional<std::uint64_t> file_offset(const std::vector<Elf64_Phdr>& segments, std::uint64_t address) {
  for (const auto& segment : segments) {
    if (segment.p_type == PT_LOAD && address >= segment.p_vaddr &&
        address - segment.p_vaddr < segment.p_filesz) {
      return segment.p_offset + (address - segment.p_vaddr);
    }
  }
  return std::nullopt;
}

std::vector<std::string> split_path_list(std::string_view list) {
  std::vector<std::string> parts;
  while (!list.empty()) {
    const auto colon = list.find(':');
    const auto part = list.substr(0, colon);
    if (!part.empty()) parts.emplace_back(part);
    if (colon == std::string_view::npos) break;
    list.remove_prefix(colon + 1);
  }
  return parts;
}

std::string replace_origin(std::string directory, const std::string& origin) {
  for (const std::string_view token : {"${ORIGIN}", "$ORIGIN"}) {
    for (auto at = directory.find(token); at != std::string::npos;
         at = directory.find(token, at + origin.size())) {
      directory.replace(at, token.size(), origin);
    }
  }
  return directory;
}

std::string_view base_name(std::string_view library) {
  const auto slash = library.rfind('/');
  return slash == std::string_view::npos ? library : library.substr(slash + 1);
}

OpenMpLinkage runtime_of(std::string_view library) {
  const auto name = base_name(library);
  if (name.starts_with("libgomp.so")) return OpenMpLinkage::kLibgomp;
  if (name.starts_with("libomp.so") || name.starts_with("libiomp5.so")) return OpenMpLinkage::kLibomp;
  return OpenMpLinkage::kNone;
}

// libgomp anywhere wins: preloading libomp is then the way to measure the program.
OpenMpLinkage combine(OpenMpLinkage found, OpenMpLinkage more) {
  if (found == OpenMpLinkage::kLibgomp || more == OpenMpLinkage::kLibgomp) return OpenMpLinkage::kLibgomp;
  if (found == OpenMpLinkage::kLibomp || more == OpenMpLinkage::kLibomp) return OpenMpLinkage::kLibomp;
  return OpenMpLinkage::kNone;
}

// The file the dynamic loader would load for the program's DT_NEEDED entry `name`, in the loader's
// order: DT_RPATH (only without DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH, the default directories.
// The first ELF64 file found is taken, as the loader skips files of another class.
std::optional<std::filesystem::path> find_library(const std::string& name, const DynamicSection& program,
                                                  const std::string& origin, const char* ld_library_path) {
  if (name.find('/') != std::string::npos) return std::filesystem::path(name);
  std::vector<std::string> directories;
  if (program.runpath.empty()) {
    for (const auto& directory : program.rpath) directories.push_back(replace_origin(directory, origin));
  }
  if (ld_library_path != nullptr) {
    for (auto& directory : split_path_list(ld_library_path)) directories.push_back(std::move(directory));
  }
  for (const auto& directory : program.runpath) directories.push_back(replace_origin(directory, origin));
  for (const char* directory : kDefaultLibraryDirectories) directories.emplace_back(directory);

  for (const auto& directory : directories) {
    const auto candidate = std::filesystem::path(directory) / name;
    if (access(candidate.c_str(), R_OK) == 0 && read_dynamic_section(candidate)) return candidate;
  }
  return std::nullopt;
}

// Why `libomp` cannot be preloaded, or empty when it can.
std::string libomp_problem(const std::filesystem::path& libomp) {
  if (libomp.empty()) return "no libomp was found when parperf was built";
  if (access(libomp.c_str(), R_OK) != 0) return fmt::format("{} not found", libomp.string());
  // The dynamic loader splits LD_PRELOAD at spaces and colons.
  if (libomp.string().find_first_of(" :") != std::string::npos) {
    return fmt::format("cannot preload {}: its path contains a space or ':'", libomp.string());
  }
  return {};
}

}  // namespace

std::string linkage_name(OpenMpLinkage linkage) {
  switch (linkage) {
    case OpenMpLinkage::kNone:
      return "none";
    case OpenMpLinkage::kLibgomp:
      return "libgomp";
    case OpenMpLinkage::kLibomp:
      return "libomp";
    case OpenMpLinkage::kUnknown:
      break;
  }
  return "unknown";
}

std::optional<std::filesystem::path> resolve_program(const std::string& name, const char* path) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) return std::filesystem::path(name);
  // An empty PATH entry is the current directory, as for execvp.
  std::string_view list = path != nullptr ? path : kDefaultPath;
  while (true) {
    const auto colon = list.find(':');
    const auto directory = list.substr(0, colon);
    const auto candidate = std::filesystem::path(directory.empty() ? "." : std::string(directory)) / name;
    struct stat status {};
    if (stat(candidate.c_str(), &status) == 0 && S_ISREG(status.st_mode) &&
        access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    if (colon == std::string_view::npos) return std::nullopt;
    list.remove_prefix(colon + 1);
  }
}

std::optional<DynamicSection> read_dynamic_section(const std::filesystem::path& file) {
  std::optional<format::RegularFile> opened;
  try {
    opened.emplace(file);  // never a FIFO, which would block: such a program cannot be read
  } catch (const format::FormatError&) {
    return std::nullopt;
  }
  const format::RegularFile& elf = *opened;
  Elf64_Ehdr header{};
  if (!elf.read_at(0, &header, sizeof header) || !is_native_elf64(header)) return std::nullopt;
  if (header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum > kMaxProgramHeaders) return std::nullopt;

  std::vector<Elf64_Phdr> segments(header.e_phnum);
  if (!elf.read_at(header.e_phoff, segments.data(), segments.size() * sizeof(Elf64_Phdr)))
    return std::nullopt;
  const Elf64_Phdr* dynamic = nullptr;
  for (const auto& segment : segments) {
    if (segment.p_type == PT_DYNAMIC) dynamic = &segment;
  }
  DynamicSection section;
  if (dynamic == nullptr) return section;  // statically linked: needs nothing

  const std::uint64_t count = dynamic->p_filesz / sizeof(Elf64_Dyn);
  if (count > kMaxDynamicEntries) return std::nullopt;
  std::vector<Elf64_Dyn> entries(count);
  if (!elf.read_at(dynamic->p_offset, entries.data(), count * sizeof(Elf64_Dyn))) return std::nullopt;

  std::uint64_t string_table = 0;
  std::uint64_t string_table_size = 0;
  std::vector<std::uint64_t> needed;
  std::optional<std::uint64_t> rpath;
  std::optional<std::uint64_t> runpath;
  for (const auto& entry : entries) {
    if (entry.d_tag == DT_NULL) break;
    switch (entry.d_tag) {
      case DT_STRTAB:
        string_table = entry.d_un.d_ptr;
        break;
      case DT_STRSZ:
        string_table_size = entry.d_un.d_val;
        break;
      case DT_NEEDED:
        needed.push_back(entry.d_un.d_val);
        break;
      case DT_RPATH:
        rpath = entry.d_un.d_val;
        break;
      case DT_RUNPATH:
        runpath = entry.d_un.d_val;
        break;
      default:
        break;
    }
  }
  if (needed.empty() && !rpath && !runpath) return section;
  const auto strings_at = file_offset(segments, string_table);
  if (!strings_at || string_table_size == 0 || string_table_size > kMaxStringTable) return std::nullopt;
  std::string strings(string_table_size, '\0');
  if (!elf.read_at(*strings_at, strings.data(), strings.size())) return std::nullopt;

  // A string runs to its NUL; one without a NUL before the table ends is cut there.
  const auto string_at = [&strings](std::uint64_t offset) -> std::optional<std::string> {
    if (offset >= strings.size()) return std::nullopt;
    const auto end = strings.find('\0', offset);
    return strings.substr(offset, end == std::string::npos ? std::string::npos : end - offset);
  };
  for (const auto offset : needed) {
    if (auto name = string_at(offset)) section.needed.push_back(std::move(*name));
  }
  if (rpath) {
    if (const auto text = string_at(*rpath)) section.rpath = split_path_list(*text);
  }
  if (runpath) {
    if (const auto text = string_at(*runpath)) section.runpath = split_path_list(*text);
  }
  return section;
}

OpenMpDetection detect_openmp_runtime(const std::string& program, const SearchEnvironment& environment) {
  OpenMpDetection detection;
  const auto file = resolve_program(program, environment.path);
  if (!file) {
    detection.reason = "not found in PATH";
    return detection;
  }
  detection.program = *file;
  const auto section = read_dynamic_section(*file);
  if (!section) {
    detection.reason = "not an ELF executable of this machine (a script?)";
    return detection;
  }

  OpenMpLinkage found = OpenMpLinkage::kNone;
  for (const auto& name : section->needed) found = combine(found, runtime_of(name));
  if (found == OpenMpLinkage::kLibgomp) {
    detection.linkage = found;
    return detection;
  }

  // One level down: a library of the program's that itself uses OpenMP.
  std::error_code error;
  auto real = std::filesystem::canonical(*file, error);
  if (error) real = std::filesystem::absolute(*file, error);
  const std::string origin = real.parent_path().string();
  for (const auto& name : section->needed) {
    if (runtime_of(name) != OpenMpLinkage::kNone) continue;
    const auto library = find_library(name, *section, origin, environment.ld_library_path);
    if (!library) continue;
    const auto library_section = read_dynamic_section(*library);
    if (!library_section) continue;
    for (const auto& dependency : library_section->needed) {
      const auto runtime = runtime_of(dependency);
      if (runtime == OpenMpLinkage::kNone || combine(found, runtime) == found) continue;
      found = runtime;
      detection.needed_by = name;
    }
    if (found == OpenMpLinkage::kLibgomp) break;
  }
  detection.linkage = found;
  return detection;
}

std::filesystem::path configured_libomp() {
  const char* override_path = std::getenv("PARPERF_LIBOMP");
  if (override_path != nullptr && *override_path != '\0') return std::filesystem::absolute(override_path);
  return PARPERF_LIBOMP_PATH;
}

OpenMpPlan plan_openmp_runtime(OpenMpRuntimeMode mode, const OpenMpDetection& detection,
                               const std::filesystem::path& libomp) {
  OpenMpPlan plan;
  const bool needs_libgomp = detection.linkage == OpenMpLinkage::kLibgomp;
  if (mode == OpenMpRuntimeMode::kNative || (mode == OpenMpRuntimeMode::kAuto && !needs_libgomp)) {
    plan.description = linkage_name(detection.linkage);
    return plan;
  }
  if (const auto problem = libomp_problem(libomp); !problem.empty()) {
    plan.description = linkage_name(detection.linkage) + " (libomp not found)";
    plan.warning = fmt::format("cannot use LLVM's libomp: {} (set PARPERF_LIBOMP to its path){}", problem,
                               needs_libgomp ? "; the program runs on libgomp and its OpenMP constructs are "
                                               "not measured"
                                             : "");
    return plan;
  }
  plan.preload = libomp;
  plan.description = needs_libgomp ? format::kOpenmpRuntimeSubstituted : "libomp (preloaded)";
  return plan;
}

}  // namespace parperf::cli
