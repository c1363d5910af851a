# Fails when the runtime library's exports differ from the list in docs/runtime.md ("Symbols",
# between the `exported symbols` markers) — the runtime lives inside other people's programs and
# must not clash with their symbols, and every symbol it exports must be documented with its
# reason — or when it initialises globals dynamically (code that runs in someone else's process
# before main, unasked; the one explicit start-up routine is lifecycle.cpp's).
# Usage: cmake -DLIBRARY=<path to libparperf.so> -DDOC=<docs/runtime.md> -P check_runtime_library.cmake
cmake_minimum_required(VERSION 3.25)
file(READ ${DOC} doc)
string(REGEX MATCH "<!-- exported symbols: begin -->(.*)<!-- exported symbols: end -->" table "${doc}")
if(NOT table)
  message(FATAL_ERROR "${DOC} has no list of exported symbols between the `exported symbols` markers")
endif()
# The symbols are the backquoted names of each row's first column.
set(documented "")
string(REPLACE "\n" ";" rows "${CMAKE_MATCH_1}")
foreach(row IN LISTS rows)
  if(NOT row MATCHES "^\\| *`")
    continue()
  endif()
  string(REGEX REPLACE "^\\|([^|]*)\\|.*$" "\\1" first_column "${row}")
  string(REGEX MATCHALL "`[A-Za-z_][A-Za-z0-9_]*`" names "${first_column}")
  foreach(name IN LISTS names)
    string(REPLACE "`" "" name "${name}")
    list(APPEND documented "${name}")
  endforeach()
endforeach()

execute_process(COMMAND nm -D --defined-only ${LIBRARY} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIBRARY}")
endif()
set(exported "")
string(REPLACE "\n" ";" lines "${symbols}")
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  string(REGEX REPLACE "^.* " "" name "${line}")
  if(name MATCHES "^(_init|_fini|__bss_start|_edata|_end|__tsan.*|__asan.*|__ubsan.*)$")
    continue()
  endif()
  list(APPEND exported "${name}")
  if(NOT name IN_LIST documented)
    message(FATAL_ERROR "libparperf.so exports '${name}', which docs/runtime.md does not list (Symbols): "
                        "hide it, or document why it must be exported")
  endif()
endforeach()
# Sanitizer builds leave out the interpositions (the sanitizers intercept these functions themselves,
# thread_start_hook.cpp, exit_hook.cpp, uninterrupted_calls.cpp and sample_signal.hpp say why).
execute_process(COMMAND readelf -d ${LIBRARY} OUTPUT_VARIABLE dynamic)
set(absent_when_sanitized pthread_create _exit _Exit sleep usleep nanosleep clock_nanosleep pause sigsuspend poll ppoll
    select pselect epoll_wait epoll_pwait sigtimedwait sigwaitinfo semop semtimedop msgrcv msgsnd sigaction signal dlclose)
foreach(name IN LISTS documented)
  if(dynamic MATCHES "lib[at]san|clang_rt\\.[at]san" AND name IN_LIST absent_when_sanitized)
    continue()
  endif()
  if(NOT name IN_LIST exported)
    message(FATAL_ERROR "docs/runtime.md lists '${name}' as exported, but libparperf.so does not export it")
  endif()
endforeach()
list(LENGTH exported count)
message(STATUS "libparperf.so exports the ${count} symbols docs/runtime.md lists, and nothing else")

execute_process(COMMAND nm ${LIBRARY} OUTPUT_VARIABLE all_symbols RESULT_VARIABLE status)
if(status EQUAL 0 AND all_symbols MATCHES "_GLOBAL__sub_I_([A-Za-z0-9_.]+)")
  message(FATAL_ERROR "libparperf.so initialises globals dynamically in ${CMAKE_MATCH_1}: "
                      "make them constant-initialised (constexpr constructors, constinit)")
endif()
