# MPI test programs and benchmarks, built the way users build theirs: with Open MPI's compiler
# wrappers (mpicc, mpifort) and nothing of parperf linked in. Used by tests/scenarios/mpi_programs,
# tests/support (mpirun) and bench/mpi.
#
# parperf_add_mpi_program(<target> SOURCE <file> LANGUAGE C|Fortran [OPENMP]
#                         [INCLUDE_DIRECTORIES <dirs>...] [FLAGS <flags>...] [LIBRARIES <-lname>...])
#   Builds <file> with mpicc (C: -std=gnu11 -O2 -g and the project's warnings) or mpifort (Fortran:
#   -O2 -g -Wall) into ${PROJECT_BINARY_DIR}/bin/<target>, as a custom command wrapped in a custom
#   target <target> (the wrappers are not the project's compilers). OPENMP adds -fopenmp: with gcc
#   that is GNU libgomp, which `parperf run` replaces with LLVM's libomp. FLAGS go last before the source,
#   LIBRARIES after it (the linker looks for a symbol only in the libraries after its user). Like
#   parperf_add_openmp_program (cmake/openmp_programs.cmake) the target has the property
#   PARPERF_PROGRAM_PATH, the program's path, which parperf_add_scenario_test(... PROGRAMS <target>)
#   passes on to the test; elsewhere use $<TARGET_PROPERTY:<target>,PARPERF_PROGRAM_PATH>.
#   No sanitizer flags: the programs measure the runtime, not themselves.
#
# Cache variables: PARPERF_MPICC, PARPERF_MPIFORT, PARPERF_MPIRUN (the launcher the tests use).
include_guard(GLOBAL)

find_program(PARPERF_MPICC mpicc REQUIRED DOC "Open MPI's C compiler wrapper, for the MPI test programs")
find_program(PARPERF_MPIFORT mpifort REQUIRED DOC "Open MPI's Fortran compiler wrapper, for the MPI test programs")
find_program(PARPERF_MPIRUN mpirun REQUIRED DOC "Open MPI's launcher, for the MPI scenario tests")

function(parperf_add_mpi_program target)
  cmake_parse_arguments(ARG "OPENMP" "SOURCE;LANGUAGE" "INCLUDE_DIRECTORIES;FLAGS;LIBRARIES" ${ARGN})
  if(NOT ARG_SOURCE OR NOT ARG_LANGUAGE)
    message(FATAL_ERROR "parperf_add_mpi_program(${target}): SOURCE and LANGUAGE are required")
  endif()
  get_filename_component(source "${ARG_SOURCE}" ABSOLUTE)
  set(output "${PROJECT_BINARY_DIR}/bin/${target}")
  file(RELATIVE_PATH shown "${PROJECT_BINARY_DIR}" "${output}")

  if(ARG_LANGUAGE STREQUAL "C")
    set(compiler "${PARPERF_MPICC}")
    # The project's warnings (cmake/warnings.cmake), which a custom command does not get from
    # parperf_warnings.
    set(flags -std=gnu11 -O2 -g -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
      -Wcast-align -Wformat=2)
    set(depfile "${output}.d")
    set(dependency_flags -MD -MF "${depfile}")
  elseif(ARG_LANGUAGE STREQUAL "Fortran")
    set(compiler "${PARPERF_MPIFORT}")
    # -J: any module file the compiler writes goes beside the program, not into the source tree.
    set(flags -O2 -g -Wall -J "${CMAKE_CURRENT_BINARY_DIR}")
    set(depfile "")
    set(dependency_flags)
  else()
    message(FATAL_ERROR "parperf_add_mpi_program(${target}): LANGUAGE is C or Fortran, not '${ARG_LANGUAGE}'")
  endif()
  if(PARPERF_WERROR)
    list(APPEND flags -Werror)
  endif()
  if(ARG_OPENMP)
    list(APPEND flags -fopenmp)
  endif()
  foreach(directory IN LISTS ARG_INCLUDE_DIRECTORIES)
    list(APPEND flags "-I${directory}")
  endforeach()
  list(APPEND flags ${ARG_FLAGS})

  if(depfile)
    add_custom_command(OUTPUT "${output}"
      COMMAND "${compiler}" ${flags} ${dependency_flags} "${source}" ${ARG_LIBRARIES} -o "${output}"
      DEPENDS "${source}"
      DEPFILE "${depfile}"
      COMMENT "Building ${ARG_LANGUAGE} MPI executable ${shown} with ${compiler}"
      VERBATIM COMMAND_EXPAND_LISTS)
  else()
    add_custom_command(OUTPUT "${output}"
      COMMAND "${compiler}" ${flags} "${source}" ${ARG_LIBRARIES} -o "${output}"
      DEPENDS "${source}"
      COMMENT "Building ${ARG_LANGUAGE} MPI executable ${shown} with ${compiler}"
      VERBATIM COMMAND_EXPAND_LISTS)
  endif()
  add_custom_target(${target} ALL DEPENDS "${output}")
  set_target_properties(${target} PROPERTIES PARPERF_PROGRAM_PATH "${output}")
endfunction()
