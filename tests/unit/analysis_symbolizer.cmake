# The symbolizer is tested on a real program (analysis_symbolizer_fixture.cpp) built the ways users
# build theirs: clang and gcc, -O0 and -O2 -fopenmp, PIE and not, stripped and with a separate debug
# file. These are not the project's compiler, so they are invoked directly. Each build runs once when
# it is built (OMPT and the runtime's load bias only exist at run time) and writes the module-relative
# addresses of its marked sites to <build>.sites.
find_program(PARPERF_CLANGXX_16 clang++-16 REQUIRED)
find_program(PARPERF_GXX g++ REQUIRED)
set(PARPERF_LIBOMP_DIR /usr/lib/llvm-16/lib CACHE PATH "Where clang-16's libomp.so is")

set(_symbolizer_source ${CMAKE_CURRENT_LIST_DIR}/analysis_symbolizer_fixture.cpp)
set(_symbolizer_dir ${CMAKE_CURRENT_BINARY_DIR}/symbolizer_fixtures)
set(_symbolizer_outputs)

# parperf_symbolizer_fixture(<build> <compiler> <flags...>)
function(parperf_symbolizer_fixture build compiler)
  set(program ${_symbolizer_dir}/${build})
  add_custom_command(OUTPUT ${program} ${program}.sites
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_symbolizer_dir}
    COMMAND ${compiler} ${ARGN} ${_symbolizer_source} -o ${program}
    COMMAND ${CMAKE_COMMAND} -E env OMP_NUM_THREADS=2 ${program} ${program}.sites
    DEPENDS ${_symbolizer_source}
    COMMENT "Building and running symbolizer fixture ${build}"
    VERBATIM)
  set(_symbolizer_outputs ${_symbolizer_outputs} ${program} ${program}.sites PARENT_SCOPE)
endfunction()

parperf_symbolizer_fixture(clang-O0 ${PARPERF_CLANGXX_16} -g -O0 -fPIE -pie)
parperf_symbolizer_fixture(clang-O0-nopie ${PARPERF_CLANGXX_16} -g -O0 -fno-pie -no-pie)
parperf_symbolizer_fixture(clang-O2-openmp ${PARPERF_CLANGXX_16} -g -O2 -fopenmp -fPIE -pie
  -Wl,-rpath,${PARPERF_LIBOMP_DIR})
parperf_symbolizer_fixture(gcc-O2-openmp ${PARPERF_GXX} -g -O2 -fopenmp -fno-pie -no-pie)

# Copies without debug information: symbol table only, nothing at all, and debug information in a
# separate file found through .gnu_debuglink. Stripping keeps the addresses, so the .sites stay valid.
set(_dir ${_symbolizer_dir})
add_custom_command(OUTPUT ${_dir}/clang-O2-openmp-symtab
  COMMAND ${CMAKE_STRIP} --strip-debug ${_dir}/clang-O2-openmp -o ${_dir}/clang-O2-openmp-symtab
  DEPENDS ${_dir}/clang-O2-openmp VERBATIM)
add_custom_command(OUTPUT ${_dir}/gcc-O2-openmp-symtab
  COMMAND ${CMAKE_STRIP} --strip-debug ${_dir}/gcc-O2-openmp -o ${_dir}/gcc-O2-openmp-symtab
  DEPENDS ${_dir}/gcc-O2-openmp VERBATIM)
add_custom_command(OUTPUT ${_dir}/clang-O0-stripped
  COMMAND ${CMAKE_STRIP} --strip-all ${_dir}/clang-O0 -o ${_dir}/clang-O0-stripped
  DEPENDS ${_dir}/clang-O0 VERBATIM)
add_custom_command(OUTPUT ${_dir}/gcc-O2-openmp-debuglink ${_dir}/gcc-O2-openmp-debuglink.debug
  COMMAND ${CMAKE_OBJCOPY} --only-keep-debug ${_dir}/gcc-O2-openmp ${_dir}/gcc-O2-openmp-debuglink.debug
  COMMAND ${CMAKE_OBJCOPY} --strip-debug --add-gnu-debuglink=${_dir}/gcc-O2-openmp-debuglink.debug
          ${_dir}/gcc-O2-openmp ${_dir}/gcc-O2-openmp-debuglink
  DEPENDS ${_dir}/gcc-O2-openmp VERBATIM)
add_custom_target(analysis_symbolizer_fixtures DEPENDS ${_symbolizer_outputs}
  ${_dir}/clang-O2-openmp-symtab ${_dir}/gcc-O2-openmp-symtab ${_dir}/clang-O0-stripped
  ${_dir}/gcc-O2-openmp-debuglink)

parperf_add_unit_test(analysis_symbolizer_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/analysis_symbolizer_test.cpp
  LINK parperf_analysis)
add_dependencies(analysis_symbolizer_test analysis_symbolizer_fixtures)
target_compile_definitions(analysis_symbolizer_test PRIVATE
  PARPERF_SYMBOLIZER_FIXTURE_DIR="${_symbolizer_dir}"
  PARPERF_SYMBOLIZER_FIXTURE_SOURCE="${_symbolizer_source}")
