// write_png through libparperf-png.so, loaded once, on first use (png_module_abi.h says why).
#include <dlfcn.h>

#include <fmt/format.h>

#include <array>
#include <string>
#include <string_view>
#include <system_error>

#include "format/installed_layout.hpp"
#include "report/locality/png_module_abi.h"
#include "report/locality/svg_to_png.hpp"

namespace parperf::report {
namespace {

struct LoadedModule {
  parperf_png_write_function write = nullptr;
  std::string problem;  // why `write` is null
};

LoadedModule load_module() {
  std::filesystem::path path;
  try {
    path = png_module_path();
  } catch (const std::exception& e) {
    return {nullptr, e.what()};
  }
  // Never closed: glib and fontconfig keep state that must not be unloaded under them.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (handle == nullptr) {
    std::string_view why = dlerror();  // "<path>: cannot open shared object file: ..."
    if (const std::string prefix = path.string() + ": "; why.starts_with(prefix))
      why.remove_prefix(prefix.size());
    return {nullptr, fmt::format("cannot load the PNG module {}: {}", path.string(), why)};
  }
  auto* write = reinterpret_cast<parperf_png_write_function>(dlsym(handle, PARPERF_PNG_WRITE_SYMBOL));
  if (write == nullptr)
    return {nullptr, fmt::format("cannot load the PNG module {}: it has no {} (a foreign or damaged file)",
                                 path.string(), PARPERF_PNG_WRITE_SYMBOL)};
  return {write, {}};
}

}  // namespace

std::filesystem::path png_module_path() {
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw PngModuleUnavailable(fmt::format("cannot locate this executable: {}", error.message()));
  return format::library_beside(executable, PARPERF_PNG_MODULE_FILE);
}

void write_png(std::string_view svg, const std::filesystem::path& png) {
  static const LoadedModule module = load_module();  // thread-safe, once
  if (module.write == nullptr) throw PngModuleUnavailable(module.problem);
  std::array<char, 1024> error{};
  if (module.write(svg.data(), svg.size(), png.c_str(), error.data(), error.size()) != 0)
    throw std::runtime_error(error.data());
}

}  // namespace parperf::report
