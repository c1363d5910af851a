# `parperf run` picks the OpenMP runtime from how the program is linked: the test reads programs and
# libraries built here, one per way of linking (cli_openmp_runtime_fixture.c).
find_package(OpenMP REQUIRED COMPONENTS C)
set(_fixture ${CMAKE_CURRENT_SOURCE_DIR}/cli_openmp_runtime_fixture.c)
function(_parperf_openmp_fixture target define)
  add_executable(${target} ${_fixture})
  target_compile_definitions(${target} PRIVATE ${define})
  target_link_libraries(${target} PRIVATE parperf_warnings ${ARGN})
endfunction()
add_library(cli_openmp_fixture_library SHARED ${_fixture})
target_compile_definitions(cli_openmp_fixture_library PRIVATE FIXTURE_OPENMP_LIBRARY)
target_link_libraries(cli_openmp_fixture_library PRIVATE OpenMP::OpenMP_C parperf_warnings)
_parperf_openmp_fixture(cli_openmp_fixture_plain FIXTURE_PLAIN)
_parperf_openmp_fixture(cli_openmp_fixture_gomp FIXTURE_OPENMP OpenMP::OpenMP_C)
# The library found through an absolute RUNPATH (CMake's build tree), through $ORIGIN, and only
# through LD_LIBRARY_PATH.
_parperf_openmp_fixture(cli_openmp_fixture_uses_library FIXTURE_USES_LIBRARY cli_openmp_fixture_library)
_parperf_openmp_fixture(cli_openmp_fixture_uses_library_origin FIXTURE_USES_LIBRARY cli_openmp_fixture_library)
set_target_properties(cli_openmp_fixture_uses_library_origin PROPERTIES BUILD_RPATH_USE_ORIGIN ON)
_parperf_openmp_fixture(cli_openmp_fixture_uses_library_no_rpath FIXTURE_USES_LIBRARY cli_openmp_fixture_library)
set_target_properties(cli_openmp_fixture_uses_library_no_rpath PROPERTIES SKIP_BUILD_RPATH ON)
set(_fixtures cli_openmp_fixture_library cli_openmp_fixture_plain cli_openmp_fixture_gomp
  cli_openmp_fixture_uses_library cli_openmp_fixture_uses_library_origin cli_openmp_fixture_uses_library_no_rpath)
if(PARPERF_LIBOMP)
  _parperf_openmp_fixture(cli_openmp_fixture_libomp FIXTURE_LIBOMP_API ${PARPERF_LIBOMP})
  list(APPEND _fixtures cli_openmp_fixture_libomp)
endif()

parperf_add_unit_test(cli_openmp_runtime_test
  SOURCES cli_openmp_runtime_test.cpp ${PROJECT_SOURCE_DIR}/tests/support/temp_dir.cpp
  LINK parperf_cli_lib)
foreach(fixture IN LISTS _fixtures)
  string(TOUPPER "${fixture}" macro)
  target_compile_definitions(cli_openmp_runtime_test PRIVATE ${macro}="$<TARGET_FILE:${fixture}>")
  add_dependencies(cli_openmp_runtime_test ${fixture})
endforeach()
target_compile_definitions(cli_openmp_runtime_test PRIVATE
  PARPERF_FIXTURE_LIBRARY_NAME="$<TARGET_FILE_NAME:cli_openmp_fixture_library>"
  PARPERF_LIBOMP_FOUND=$<BOOL:${PARPERF_LIBOMP}>
  PARPERF_FIXTURE_OPENMP_IS_LIBGOMP=$<C_COMPILER_ID:GNU>)

# `parperf` must not load the picture libraries (librsvg, cairo, pango, X11, ...) that every command,
# `parperf run` included, would pay for: they are in the module libparperf-png.so, loaded when a PNG
# is drawn (src/report/locality/png_module_abi.h). check_cli_executable.cmake reads the NEEDED entries.
add_test(NAME cli_executable_loads_no_picture_library
         COMMAND ${CMAKE_COMMAND} -DEXECUTABLE=$<TARGET_FILE:parperf_cli> -DMODULE=$<TARGET_FILE:parperf-png>
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/check_cli_executable.cmake)
set_tests_properties(cli_executable_loads_no_picture_library PROPERTIES LABELS unit)

# --local-dir: the per-run folder's name and what is moved from it (trace_recording.cpp).
parperf_add_unit_test(cli_local_traces_test
  SOURCES cli_local_traces_test.cpp ${PROJECT_SOURCE_DIR}/tests/support/temp_dir.cpp
  LINK parperf_cli_lib)

# parperf predict on a sweep: what it leaves out is said (predict_command.cpp).
parperf_add_unit_test(cli_predict_sweep_test
  SOURCES cli_predict_sweep_test.cpp ${PROJECT_SOURCE_DIR}/tests/support/temp_dir.cpp
  LINK parperf_cli_lib parperf_format_test_profiles)

# Which command a mistyped one meant; which files of a run directory belong to a run.
parperf_add_unit_test(cli_usage_hints_test SOURCES cli_usage_hints_test.cpp LINK parperf_cli_lib)

parperf_add_unit_test(cli_trace_analysis_memory_test SOURCES cli_trace_analysis_memory_test.cpp
  LINK parperf_cli_lib parperf_analysis)

# The man pages and the bash completion written at build time (target parperf_manual_pages) against
# the command's own --help.
add_test(NAME cli_manual_pages
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/check_manual_pages.sh $<TARGET_FILE:parperf_cli> ${PARPERF_MANUAL_DIR})
set_tests_properties(cli_manual_pages PROPERTIES LABELS unit)

# The Spack recipe (packaging/spack/package.py) names this version and only CMake variables the build
# declares.
add_test(NAME spack_recipe
  COMMAND Python3::Interpreter -B ${CMAKE_CURRENT_SOURCE_DIR}/check_spack_recipe.py ${PROJECT_SOURCE_DIR})
set_tests_properties(spack_recipe PROPERTIES LABELS unit)

# The pipe of `parperf locality`: emptied into memory while the analysis is busy, up to a bound
# (pipe_stream.hpp); two threads share its queue, so it runs under TSan too, built from its one source
# file rather than the whole command library.
parperf_add_unit_test(cli_pipe_stream_test
  SOURCES cli_pipe_stream_test.cpp ${PROJECT_SOURCE_DIR}/src/cli/pipe_stream.cpp
  LINK Threads::Threads
  LABELS tsan)

# Damaged event traces that still read, through report, whatif and export run in the process
# (trace_damage_test.cpp): never a crash, a hang or a refusal without a reason.
parperf_add_unit_test(trace_damage_test
  SOURCES trace_damage_test.cpp trace_file_damage.cpp ${PROJECT_SOURCE_DIR}/tests/support/temp_dir.cpp
  LINK parperf_cli_lib parperf_analysis parperf_format parperf_format_test_profiles nlohmann_json::nlohmann_json)
