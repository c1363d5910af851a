# OpenMP test programs built with a chosen compiler, so each can run on LLVM's libomp (clang) and on
# GNU libgomp (gcc, gfortran). Used by tests/scenarios/openmp_programs and the benchmarks.
#
# parperf_add_openmp_program(<target> SOURCE <file> COMPILER clang|gcc|gfortran
#                            [DEFINES <NAME[=value]>...] [INCLUDE_DIRECTORIES <dirs>...])
#   Builds <file> with -fopenmp -g -O2 into ${PROJECT_BINARY_DIR}/bin/<target>. gcc and gfortran
#   builds are ordinary executables of the project's compilers; the clang build is a custom command
#   running clang-16 (the project's C compiler is gcc), wrapped in a custom target <target>. Either way
#   the target has the property PARPERF_PROGRAM_PATH, the program's path (a generator expression for
#   gcc and gfortran), which parperf_add_scenario_test(... PROGRAMS <target>) passes on to the test;
#   elsewhere use $<TARGET_PROPERTY:<target>,PARPERF_PROGRAM_PATH>.
include_guard(GLOBAL)

function(parperf_add_openmp_program target)
  cmake_parse_arguments(ARG "" "SOURCE;COMPILER" "DEFINES;INCLUDE_DIRECTORIES" ${ARGN})
  if(NOT ARG_SOURCE OR NOT ARG_COMPILER)
    message(FATAL_ERROR "parperf_add_openmp_program(${target}): SOURCE and COMPILER are required")
  endif()
  get_filename_component(source "${ARG_SOURCE}" ABSOLUTE)
  set(output "${PROJECT_BINARY_DIR}/bin/${target}")

  if(ARG_COMPILER STREQUAL "gcc" OR ARG_COMPILER STREQUAL "gfortran")
    if(ARG_COMPILER STREQUAL "gcc")
      if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
        message(FATAL_ERROR "parperf_add_openmp_program(${target}): COMPILER gcc needs gcc as the C compiler")
      endif()
      find_package(OpenMP REQUIRED COMPONENTS C)  # its targets belong to the calling directory
      set(openmp OpenMP::OpenMP_C)
    else()
      if(NOT CMAKE_Fortran_COMPILER_LOADED)
        message(FATAL_ERROR "parperf_add_openmp_program(${target}): call enable_language(Fortran) first")
      endif()
      find_package(OpenMP REQUIRED COMPONENTS Fortran)
      set(openmp OpenMP::OpenMP_Fortran)
    endif()
    add_executable(${target} "${source}")
    target_link_libraries(${target} PRIVATE ${openmp})
    target_compile_definitions(${target} PRIVATE ${ARG_DEFINES})
    target_include_directories(${target} PRIVATE ${ARG_INCLUDE_DIRECTORIES})
    # After the build type's flags, so -O2 wins over Release's -O3.
    target_compile_options(${target} PRIVATE -g -O2)
    if(ARG_COMPILER STREQUAL "gcc")
      target_link_libraries(${target} PRIVATE parperf_warnings)
    else()
      set_target_properties(${target} PROPERTIES LINKER_LANGUAGE Fortran
        Fortran_MODULE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/${target}.modules)
      target_compile_options(${target} PRIVATE -Wall $<$<BOOL:${PARPERF_WERROR}>:-Werror>)
    endif()
    set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/bin"
      PARPERF_PROGRAM_PATH "$<TARGET_FILE:${target}>")

  elseif(ARG_COMPILER STREQUAL "clang")
    find_program(PARPERF_CLANG16 clang-16 REQUIRED)
    # The project's warnings (cmake/warnings.cmake), which a custom command does not get from
    # parperf_warnings; no sanitizer flags, the programs measure the runtime, not themselves.
    set(flags -fopenmp -g -O2 -std=gnu11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
      -Wcast-align -Wformat=2)
    if(PARPERF_WERROR)
      list(APPEND flags -Werror)
    endif()
    foreach(define IN LISTS ARG_DEFINES)
      list(APPEND flags "-D${define}")
    endforeach()
    foreach(directory IN LISTS ARG_INCLUDE_DIRECTORIES)
      list(APPEND flags "-I${directory}")
    endforeach()
    file(RELATIVE_PATH shown "${PROJECT_BINARY_DIR}" "${output}")
    add_custom_command(OUTPUT "${output}"
      COMMAND "${PARPERF_CLANG16}" ${flags} -MD -MF "${output}.d" "${source}" -o "${output}"
      DEPENDS "${source}"
      DEPFILE "${output}.d"
      COMMENT "Building C executable ${shown} with clang-16 (libomp)"
      VERBATIM COMMAND_EXPAND_LISTS)
    add_custom_target(${target} ALL DEPENDS "${output}")
    set_target_properties(${target} PROPERTIES PARPERF_PROGRAM_PATH "${output}")

  else()
    message(FATAL_ERROR "parperf_add_openmp_program(${target}): COMPILER is clang, gcc or gfortran, not "
                        "'${ARG_COMPILER}'")
  endif()
endfunction()
