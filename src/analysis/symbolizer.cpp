// Symbolization with elfutils' libdwfl/libdw, offline: each module is reported at base 0 in a Dwfl of
// its own, so module-relative addresses are addresses in that Dwfl, and libdwfl's standard
// find_debuginfo finds separate debug files (.gnu_debuglink, build-id under /usr/lib/debug).
//
// The compilation unit of an address: libdw finds it through .debug_aranges, which clang (16) does not
// emit by default; elfutils 0.188 then finds no unit at all. So when the fast path fails we look the
// address up in the address ranges of every unit (DW_AT_low_pc/high_pc or DW_AT_ranges, DWARF 5
// rnglists included), collected once per module.
#include "analysis/symbolizer.hpp"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/plt_stubs.hpp"
#include "format/regular_file.hpp"

namespace parperf::analysis {
namespace {

// libdwfl's default search path: beside the module, its .debug/, /usr/lib/debug. With DEBUGINFOD_URLS
// set, dwfl_standard_find_debuginfo also asks those servers for debug files that are missing.
char* debuginfo_path = nullptr;
const Dwfl_Callbacks offline_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &debuginfo_path,
};

// gcc names the code it outlines or clones after the source function's (mangled) name plus a
// suffix: main._omp_fn.0, _Z1fi.constprop.0.isra.0, f.cold. Mangled names contain no dots.
std::string strip_compiler_suffixes(std::string_view name) {
  static constexpr std::array<std::string_view, 8> suffixes = {
      "._omp_fn.", "._omp_cpyfn.", ".part.", ".constprop.", ".isra.", ".cold", ".lto_priv.", ".localalias"};
  std::size_t cut = name.size();
  for (std::string_view suffix : suffixes) {
    std::size_t at = name.find(suffix);
    if (at != std::string_view::npos && at > 0) cut = std::min(cut, at);
  }
  return std::string(name.substr(0, cut));
}

// gfortran names a module procedure __<module>_MOD_<procedure>: shown as <module>::<procedure>, as
// a C++ name would be (libdw finds no DWARF scope for it: the procedure's DIE is inside the
// module's).
std::string fortran_module_procedure(const std::string& name) {
  const std::size_t mod = name.find("_MOD_");
  if (!name.starts_with("__") || mod == std::string::npos || mod <= 2 || mod + 5 >= name.size()) return name;
  return name.substr(2, mod - 2) + "::" + name.substr(mod + 5);
}

std::string demangle(const std::string& name) {
  if (!name.starts_with("_Z")) return fortran_module_procedure(name);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> plain(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && plain ? std::string(plain.get()) : name;
}

std::string source_function_name(std::string_view raw) { return demangle(strip_compiler_suffixes(raw)); }

// clang's names for code outlined from OpenMP constructs: .omp_outlined., .omp_outlined._debug__,
// .omp_outlined..1, .omp_task_entry., __omp_offloading_<ids>_<function>_l<line>.
bool is_outlined(std::string_view name) {
  return name.starts_with(".omp") || name.starts_with("__omp_offloading_");
}

const char* die_string(Dwarf_Die* die, unsigned int name) {
  Dwarf_Attribute attr;
  return dwarf_formstring(dwarf_attr_integrate(die, name, &attr));
}

// The demangled linkage name (qualified, with parameters, as profilers show C++ functions) when
// there is a C++ one, else DW_AT_name: other languages' linkage names are the compiler's spelling
// of the source name (gfortran's `work_`, `__numbers_MOD_accumulate` for `work`, `accumulate`).
std::string die_function_name(Dwarf_Die* die) {
  const char* linkage = die_string(die, DW_AT_linkage_name);
  if (linkage == nullptr) linkage = die_string(die, DW_AT_MIPS_linkage_name);
  const char* name = die_string(die, DW_AT_name);
  if (linkage != nullptr && (name == nullptr || std::string_view(linkage).starts_with("_Z")))
    return source_function_name(linkage);
  return name != nullptr ? source_function_name(name) : std::string();
}

// The innermost function instance at `pc`: an inlined callee, so that the name matches the line,
// which the line table gives in the callee.
bool innermost_function(Dwarf_Die* cu, Dwarf_Addr pc, Dwarf_Die* function) {
  Dwarf_Die* scopes = nullptr;
  int count = dwarf_getscopes(cu, pc, &scopes);
  bool found = false;
  for (int i = 0; i < count && !found; ++i) {
    int tag = dwarf_tag(&scopes[i]);
    if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
      *function = scopes[i];
      found = true;
    }
  }
  std::free(scopes);
  return found;
}

// A function written in the source (not a declaration, not compiler-made) declared in `file` at or
// before `line`; the last one so far stays in `best`.
void consider_source_function(Dwarf_Die* die, const std::string& file, int line, Dwarf_Die* best,
                              int* best_line) {
  bool flag = false;
  Dwarf_Attribute attr;
  if (dwarf_formflag(dwarf_attr_integrate(die, DW_AT_declaration, &attr), &flag) == 0 && flag) return;
  if (dwarf_hasattr_integrate(die, DW_AT_artificial)) return;
  const char* name = die_string(die, DW_AT_name);
  if (name == nullptr || is_outlined(name)) return;
  int decl_line = 0;
  const char* decl_file = dwarf_decl_file(die);
  if (decl_file == nullptr || file != decl_file || dwarf_decl_line(die, &decl_line) != 0) return;
  if (decl_line <= line && decl_line > *best_line) {
    *best = *die;
    *best_line = decl_line;
  }
}

void search_source_functions(Dwarf_Die* parent, const std::string& file, int line, Dwarf_Die* best,
                             int* best_line) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return;
  do {
    int tag = dwarf_tag(&child);
    if (tag == DW_TAG_subprogram) consider_source_function(&child, file, line, best, best_line);
    // gcc nests definitions in their namespace; clang puts them at unit level.
    if (tag == DW_TAG_namespace) search_source_functions(&child, file, line, best, best_line);
  } while (dwarf_siblingof(&child, &child) == 0);
}

// clang records no link from an outlined function to the function its construct is in, but declares
// the outlined function at the construct (DW_AT_decl_file/line). A construct lies inside the function
// written around it, which is the one declared last before it in that file. The guess names the
// wrong function only when a function is declared inside that function before the construct (a lambda
// or a local class's member).
std::string enclosing_source_function(Dwarf_Die* cu, Dwarf_Die* outlined, const SourceLocation& at) {
  std::string file = at.file;
  int line = static_cast<int>(at.line);
  if (const char* decl_file = dwarf_decl_file(outlined); decl_file != nullptr) {
    int decl_line = 0;
    if (dwarf_decl_line(outlined, &decl_line) == 0) {
      file = decl_file;
      line = decl_line;
    }
  }
  if (file.empty() || line <= 0) return {};
  Dwarf_Die best;
  int best_line = 0;
  search_source_functions(cu, file, line, &best, &best_line);
  return best_line > 0 ? die_function_name(&best) : std::string();
}

std::string absolute_source_path(Dwarf_Die* cu, const char* file) {
  std::filesystem::path path(file);
  if (path.is_relative()) {
    Dwarf_Attribute attr;
    if (const char* dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr)); dir != nullptr) {
      path = std::filesystem::path(dir) / path;
    }
  }
  return path.lexically_normal().string();
}

// The functions the inlined instance `innermost` was inlined into, innermost first, with the lines
// of the inlined calls (each inlined instance's DW_AT_call_file and DW_AT_call_line).
std::vector<InlinedCaller> inlined_callers(Dwarf_Die* cu, Dwarf_Die* innermost) {
  std::vector<InlinedCaller> callers;
  Dwarf_Files* files = nullptr;
  std::size_t file_count = 0;
  if (dwarf_getsrcfiles(cu, &files, &file_count) != 0) files = nullptr;
  // dwarf_getscopes continues an inlined instance with its abstract definition; the concrete
  // scopes around an instance (what it was inlined into) come from dwarf_getscopes_die.
  Dwarf_Die inlined = *innermost;
  for (int depth = 0; depth < 64 && dwarf_tag(&inlined) == DW_TAG_inlined_subroutine; ++depth) {
    Dwarf_Die* scopes = nullptr;
    const int count = dwarf_getscopes_die(&inlined, &scopes);
    int caller = -1;
    for (int i = 1; i < count && caller < 0; ++i)
      if (const int tag = dwarf_tag(&scopes[i]); tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
        caller = i;
    if (caller < 0) {
      std::free(scopes);
      break;
    }
    InlinedCaller call{die_function_name(&scopes[caller]), "", 0};
    Dwarf_Attribute attribute;
    Dwarf_Word value = 0;
    if (dwarf_formudata(dwarf_attr(&inlined, DW_AT_call_line, &attribute), &value) == 0)
      call.line = static_cast<std::int64_t>(value);
    if (files && dwarf_formudata(dwarf_attr(&inlined, DW_AT_call_file, &attribute), &value) == 0 &&
        value < file_count)
      if (const char* file = dwarf_filesrc(files, value, nullptr, nullptr); file && *file)
        call.file = absolute_source_path(cu, file);
    callers.push_back(std::move(call));
    inlined = scopes[caller];
    std::free(scopes);
  }
  return callers;
}

// Line and function from the unit's DWARF; `pc` in the DWARF's own addresses.
void locate_in_unit(Dwarf_Die* cu, Dwarf_Addr pc, SourceLocation& location) {
  if (Dwarf_Line* line = dwarf_getsrc_die(cu, pc); line != nullptr) {
    int number = 0;
    if (dwarf_lineno(line, &number) == 0) location.line = number;
    if (const char* file = dwarf_linesrc(line, nullptr, nullptr); file != nullptr && *file != '\0') {
      location.file = absolute_source_path(cu, file);
    }
  }
  Dwarf_Die function;
  if (!innermost_function(cu, pc, &function)) return;
  const char* name = die_string(&function, DW_AT_name);
  if (name != nullptr && is_outlined(name)) {
    location.function = enclosing_source_function(cu, &function, location);
    if (location.function.empty()) location.function = name;  // better than nothing in a report
  } else {
    location.function = die_function_name(&function);
    if (dwarf_tag(&function) == DW_TAG_inlined_subroutine)
      location.inlined_into = inlined_callers(cu, &function);
  }
}

// Why the file at `path` cannot be a module, or "" when it may be one.
std::string file_problem(const std::string& path) {
  // O_NONBLOCK: a profile can name any path as a module, and opening a FIFO would block the report.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    int error = errno;
    return error == ENOENT ? "no such file" : std::generic_category().message(error);
  }
  struct stat status {};
  if (fstat(fd, &status) == 0 && !S_ISREG(status.st_mode)) {
    ::close(fd);
    return "not a regular file (" + std::string(format::file_type_text(status.st_mode)) + ")";
  }
  std::array<char, SELFMAG> magic{};
  ssize_t got = ::read(fd, magic.data(), magic.size());
  int error = errno;
  ::close(fd);
  if (got < 0) return std::generic_category().message(error);
  if (got < SELFMAG || std::memcmp(magic.data(), ELFMAG, SELFMAG) != 0) return "not an ELF file";
  return {};
}

struct DwflDeleter {
  void operator()(Dwfl* dwfl) const { dwfl_end(dwfl); }
};

struct UnitRange {
  Dwarf_Addr low;
  Dwarf_Addr high;  // exclusive
  Dwarf_Die* unit;  // owned by libdwfl, valid while the Dwfl is
};

// One opened module: its Dwfl, what could not be read, and the answers so far.
struct Module {
  std::unique_ptr<Dwfl, DwflDeleter> dwfl;
  Dwfl_Module* module = nullptr;
  bool has_dwarf = false;
  GElf_Addr bias = 0;  // module-relative address + bias = Dwfl address (0 at base 0, but be exact)
  std::string problem;
  std::vector<UnitRange> unit_ranges;
  bool unit_ranges_built = false;
  std::unordered_map<std::uint64_t, SourceLocation> cache;

  explicit Module(const std::string& path) {
    if (std::string why = file_problem(path); !why.empty()) {
      problem = path + ": " + why;
      return;
    }
    dwfl.reset(dwfl_begin(&offline_callbacks));
    if (!dwfl) {
      problem = path + ": " + dwfl_errmsg(-1);
      return;
    }
    dwfl_report_begin(dwfl.get());
    // Base 0 with add_p_vaddr: a shared object or PIE keeps its file addresses (bias 0), as an
    // executable does.
    module = dwfl_report_elf(dwfl.get(), path.c_str(), path.c_str(), -1, 0, true);
    dwfl_report_end(dwfl.get(), nullptr, nullptr);
    if (module == nullptr || dwfl_module_getelf(module, &bias) == nullptr) {
      problem = path + ": cannot read it as an ELF file (" + dwfl_errmsg(-1) + ")";
      module = nullptr;
      return;
    }
    Dwarf_Addr dwarf_bias = 0;
    has_dwarf = dwfl_module_getdwarf(module, &dwarf_bias) != nullptr;
    if (!has_dwarf) problem = path + ": no debug information (compile with -g)";
  }

  // The unit containing Dwfl address `address`, with the bias of its DWARF addresses.
  Dwarf_Die* unit_at(Dwarf_Addr address, Dwarf_Addr* unit_bias) {
    if (Dwarf_Die* unit = dwfl_module_addrdie(module, address, unit_bias); unit != nullptr) return unit;
    if (!unit_ranges_built) build_unit_ranges();
    Dwarf_Addr dwarf_bias = 0;
    if (dwfl_module_getdwarf(module, &dwarf_bias) == nullptr) return nullptr;
    // Linear: the ranges may overlap (discarded code left at 0), and each address is looked up once.
    for (const UnitRange& range : unit_ranges) {
      if (address - dwarf_bias >= range.low && address - dwarf_bias < range.high) {
        *unit_bias = dwarf_bias;
        return range.unit;
      }
    }
    return nullptr;
  }

  void build_unit_ranges() {
    unit_ranges_built = true;
    Dwarf_Addr unit_bias = 0;
    for (Dwarf_Die* unit = dwfl_module_nextcu(module, nullptr, &unit_bias); unit != nullptr;
         unit = dwfl_module_nextcu(module, unit, &unit_bias)) {
      Dwarf_Addr base = 0, low = 0, high = 0;
      for (ptrdiff_t offset = dwarf_ranges(unit, 0, &base, &low, &high); offset > 0;
           offset = dwarf_ranges(unit, offset, &base, &low, &high)) {
        if (low < high) unit_ranges.push_back({low, high, unit});
      }
    }
  }

  // The function from the symbol table (also .dynsym, and the minidebuginfo of stripped binaries).
  std::string symbol_function(Dwarf_Addr address) {
    GElf_Off offset = 0;
    GElf_Sym symbol;
    const char* name = dwfl_module_addrinfo(module, address, &offset, &symbol, nullptr, nullptr, nullptr);
    if (name == nullptr) return {};
    int type = GELF_ST_TYPE(symbol.st_info);
    if (type != STT_FUNC && type != STT_GNU_IFUNC) return {};
    if (symbol.st_size > 0 && offset >= symbol.st_size) return {};  // past its end: not in it
    return source_function_name(name);
  }

  SourceLocation resolve(std::uint64_t relative) {
    SourceLocation location;
    if (module == nullptr) return location;
    Dwarf_Addr address = relative + bias;
    if (dwfl_addrmodule(dwfl.get(), address) != module) return location;  // outside its segments
    if (has_dwarf) {
      Dwarf_Addr unit_bias = 0;
      if (Dwarf_Die* unit = unit_at(address, &unit_bias); unit != nullptr) {
        locate_in_unit(unit, address - unit_bias, location);
      }
    }
    if (location.function.empty()) location.function = symbol_function(address);
    if (location.function.empty()) {
      GElf_Addr elf_bias = 0;
      location.function = plt_stub_name(dwfl_module_getelf(module, &elf_bias), address - elf_bias);
    }
    return location;
  }
};

}  // namespace

struct Symbolizer::Impl {
  std::unordered_map<std::string, std::unique_ptr<Module>> modules;

  Module& module(const std::string& path) {
    auto [it, added] = modules.try_emplace(path);
    if (added) it->second = std::make_unique<Module>(path);
    return *it->second;
  }
};

Symbolizer::Symbolizer() : impl_(std::make_unique<Impl>()) {}
Symbolizer::~Symbolizer() = default;
Symbolizer::Symbolizer(Symbolizer&&) noexcept = default;
Symbolizer& Symbolizer::operator=(Symbolizer&&) noexcept = default;

SourceLocation Symbolizer::locate(const std::string& module_path, std::uint64_t address) {
  try {
    if (!impl_) impl_ = std::make_unique<Impl>();  // a moved-from symbolizer stays usable
    Module& module = impl_->module(module_path);
    if (auto it = module.cache.find(address); it != module.cache.end()) return it->second;
    SourceLocation location = module.resolve(address);
    module.cache.emplace(address, location);
    return location;
  } catch (...) {  // out of memory: report the address as unknown rather than end the analysis
    return {};
  }
}

SourceLocation Symbolizer::locate_return_address(const std::string& module_path, std::uint64_t address) {
  return locate(module_path, address > 0 ? address - 1 : address);
}

const std::string& Symbolizer::problem(const std::string& module_path) const {
  static const std::string none;
  if (!impl_) return none;
  auto it = impl_->modules.find(module_path);
  return it != impl_->modules.end() ? it->second->problem : none;
}

}  // namespace parperf::analysis
