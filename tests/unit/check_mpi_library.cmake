# Fails when the MPI collector exports anything but MPI functions — the C wrappers (MPI_Send) and
# the Fortran entry points of Open MPI's bindings (mpi_send_, mpi_send__, mpi_send, MPI_SEND,
# mpi_send_f08_) — when it defines a profiling entry point (PMPI_Send, pmpi_send_: those are the
# MPI library's, which the wrappers call), when it needs a symbol of the Fortran bindings at load
# time (it must load into C programs, which do not load them: the wrappers look them up with
# dlsym), or when it initialises globals dynamically (code that runs in someone else's process
# before main, unasked).
# Usage: cmake -DLIBRARY=<path to libparperf-mpi.so> -P check_mpi_library.cmake
execute_process(COMMAND nm -D ${LIBRARY} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIBRARY}")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
set(c_count 0)
set(fortran_count 0)
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^[0-9a-f ]* ([A-Za-z]) (.+)$")
    continue()
  endif()
  set(type "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  if(type STREQUAL "U")
    if(name MATCHES "^p?mpi_")
      message(FATAL_ERROR "libparperf-mpi.so needs '${name}' of the Fortran bindings when it is loaded: "
                          "C programs do not load them (look it up with dlsym instead)")
    endif()
    continue()
  endif()
  if(type STREQUAL "w" OR type STREQUAL "v")
    continue()  # weak references (Open MPI's Fortran MPI_IN_PLACE spellings)
  endif()
  if(name MATCHES "^MPI_[A-Z][a-z0-9_]*$")
    math(EXPR c_count "${c_count} + 1")
  elseif(name MATCHES "^mpi_[a-z0-9_]+$" OR name MATCHES "^MPI_[A-Z0-9_]+$")
    math(EXPR fortran_count "${fortran_count} + 1")
  elseif(NOT name MATCHES "^(_init|_fini|__bss_start|_edata|_end|__tsan.*|__asan.*|__ubsan.*)$")
    message(FATAL_ERROR "libparperf-mpi.so exports '${name}', which is no MPI function")
  endif()
endforeach()
if(c_count LESS 100)
  message(FATAL_ERROR "libparperf-mpi.so exports only ${c_count} C MPI functions: the wrappers are missing")
endif()
# Fortran wrappers exist for Open MPI only (mpi_fortran_wrappers.cpp).
execute_process(COMMAND nm -D --undefined-only ${LIBRARY} OUTPUT_VARIABLE undefined)
if(undefined MATCHES "ompi_mpi_comm_world" AND fortran_count LESS 500)  # Open MPI's MPI_COMM_WORLD
  message(FATAL_ERROR "libparperf-mpi.so, built against Open MPI, exports only ${fortran_count} Fortran "
                      "entry points: the Fortran wrappers are missing")
endif()
message(STATUS "libparperf-mpi.so exports ${c_count} C and ${fortran_count} Fortran MPI functions and nothing else")

execute_process(COMMAND nm ${LIBRARY} OUTPUT_VARIABLE all_symbols RESULT_VARIABLE status)
if(status EQUAL 0 AND all_symbols MATCHES "_GLOBAL__sub_I_([A-Za-z0-9_.]+)")
  message(FATAL_ERROR "libparperf-mpi.so initialises globals dynamically in ${CMAKE_MATCH_1}: "
                      "make them constant-initialised (constexpr constructors, constinit)")
endif()
