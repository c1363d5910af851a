# Fails when the runtime library exports anything but the C API, its three hooks
# (pthread_create, _exit, _Exit) and the OMPT entry point (ompt_start_tool) — the runtime lives inside other people's programs and must not
# clash with their symbols — or when it initialises globals dynamically (code that runs in someone
# else's process before main, unasked; the one explicit start-up routine is lifecycle.cpp's).
# Usage: cmake -DLIBRARY=<path to libparperf.so> -P check_runtime_library.cmake
execute_process(COMMAND nm -D --defined-only ${LIBRARY} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIBRARY}")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
set(api_count 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  string(REGEX REPLACE "^.* " "" name "${line}")
  if(name MATCHES "^parperf_")
    math(EXPR api_count "${api_count} + 1")
  elseif(name MATCHES "^(pthread_create|_exit|_Exit)$")
    # Deliberate interpositions: threads register when they start (thread_start_hook.cpp), and
    # _exit/_Exit write the profile (exit_hook.cpp).
  elseif(name STREQUAL "ompt_start_tool")
    # The OpenMP runtime looks the tool up by this name (openmp/ompt_tool.cpp).
  elseif(NOT name MATCHES "^(_init|_fini|__bss_start|_edata|_end|__tsan.*|__asan.*|__ubsan.*)$")
    message(FATAL_ERROR "libparperf.so exports '${name}', which is not part of the C API")
  endif()
endforeach()
if(api_count LESS 10)
  message(FATAL_ERROR "libparperf.so exports only ${api_count} parperf_ symbols: the C API is missing")
endif()
message(STATUS "libparperf.so exports ${api_count} API symbols and nothing else")

execute_process(COMMAND nm ${LIBRARY} OUTPUT_VARIABLE all_symbols RESULT_VARIABLE status)
if(status EQUAL 0 AND all_symbols MATCHES "_GLOBAL__sub_I_([A-Za-z0-9_.]+)")
  message(FATAL_ERROR "libparperf.so initialises globals dynamically in ${CMAKE_MATCH_1}: "
                      "make them constant-initialised (constexpr constructors, constinit)")
endif()
