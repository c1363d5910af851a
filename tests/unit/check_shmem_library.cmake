# Fails when the OpenSHMEM collector exports anything but the OpenSHMEM functions it wraps (shmem_*,
# shmemx_*, the old shmalloc/shfree/shrealloc/shmemalign/start_pes), when it defines a profiling
# entry point (pshmem_*: those are the library's, which the wrappers call), when it exports too few
# wrappers (the generator skipped them), or when it initialises globals dynamically.
# Usage: cmake -DLIBRARY=<path to libparperf-shmem.so> -P check_shmem_library.cmake
execute_process(COMMAND nm -D --defined-only ${LIBRARY} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIBRARY}")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
set(count 0)
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^[0-9a-f ]* ([A-Za-z]) (.+)$")
    continue()
  endif()
  set(name "${CMAKE_MATCH_2}")
  if(name MATCHES "^(shmemx?_[a-z0-9_]+|shmalloc|shfree|shrealloc|shmemalign|start_pes)$")
    math(EXPR count "${count} + 1")
  elseif(name MATCHES "^p")
    message(FATAL_ERROR "libparperf-shmem.so defines '${name}', the OpenSHMEM library's profiling entry point")
  elseif(NOT name MATCHES "^(_init|_fini|__bss_start|_edata|_end)$")
    message(FATAL_ERROR "libparperf-shmem.so exports '${name}', which is no OpenSHMEM function")
  endif()
endforeach()
if(count LESS 800)
  message(FATAL_ERROR "libparperf-shmem.so exports only ${count} OpenSHMEM functions: wrappers are missing")
endif()
message(STATUS "libparperf-shmem.so exports ${count} OpenSHMEM functions and nothing else")

execute_process(COMMAND nm ${LIBRARY} OUTPUT_VARIABLE all_symbols RESULT_VARIABLE status)
if(status EQUAL 0 AND all_symbols MATCHES "_GLOBAL__sub_I_([A-Za-z0-9_.]+)")
  message(FATAL_ERROR "libparperf-shmem.so initialises globals dynamically in ${CMAKE_MATCH_1}: "
                      "make them constant-initialised (constexpr constructors, constinit)")
endif()
