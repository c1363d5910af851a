# Runtime tests load the real libparperf.so into the test process. The runtime is process-wide
# state, so each executable is one ctest test (its gtest cases run in order, in one process) with
# its own output directory and PARPERF_* settings.
function(parperf_add_runtime_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;ENV" ${ARGN})
  add_executable(${name} ${ARG_SOURCES} runtime_profile_reader.cpp ${PROJECT_SOURCE_DIR}/tests/support/machine_load.cpp)
  target_link_libraries(${name} PRIVATE parperf parperf_format parperf_warnings GTest::gtest GTest::gtest_main
                                        Threads::Threads)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES
    LABELS "unit;tsan"
    ENVIRONMENT "PARPERF_DIR=${CMAKE_CURRENT_BINARY_DIR}/${name}.out;PARPERF_QUIET=1;${ARG_ENV}")
  parperf_tsan_test_needs(${name})
endfunction()

parperf_add_runtime_test(runtime_aggregation_test SOURCES runtime_aggregation_test.cpp)
parperf_add_runtime_test(runtime_control_test SOURCES runtime_control_test.cpp)
# Every short sequence of begins, ends and recording switches, checked against the report's invariants.
parperf_add_runtime_test(runtime_pause_sequences_test SOURCES runtime_pause_sequences_test.cpp)
target_link_libraries(runtime_pause_sequences_test PRIVATE parperf_analysis)
# Sites outside static storage (a contract breach) are copied: the profile writer never reads them.
parperf_add_runtime_test(runtime_site_storage_test SOURCES runtime_site_storage_test.cpp)
parperf_add_runtime_test(runtime_limits_test SOURCES runtime_limits_test.cpp
  ENV "PARPERF_MAX_DEPTH=4" "PARPERF_EXCLUDE=hidden*" "PARPERF_MAX_THREADS=3" "PARPERF_MAX_NODES=64")
parperf_add_runtime_test(runtime_threads_test SOURCES runtime_threads_test.cpp)
# The event trace: recorded under load (also under TSan), read back by a second test afterwards.
parperf_add_runtime_test(runtime_trace_test SOURCES runtime_trace_test.cpp
  ENV "PARPERF_TRACE=1" "PARPERF_TRACE_BUFFER=4096")
set_tests_properties(runtime_trace_test PROPERTIES FIXTURES_SETUP runtime_trace)
add_executable(runtime_trace_check runtime_trace_check.cpp)
target_link_libraries(runtime_trace_check PRIVATE parperf_format parperf_warnings GTest::gtest GTest::gtest_main)
target_include_directories(runtime_trace_check PRIVATE ${PROJECT_SOURCE_DIR}/src)
add_test(NAME runtime_trace_check COMMAND runtime_trace_check)
parperf_tsan_test_needs(runtime_trace_check)
set_tests_properties(runtime_trace_check PROPERTIES LABELS "unit;tsan" FIXTURES_REQUIRED runtime_trace
  ENVIRONMENT "PARPERF_TRACE_FILE=${CMAKE_CURRENT_BINARY_DIR}/runtime_trace_test.out/trace.0.ppt")
# A traced program killed in the middle of writing a block (a preloaded shim kills it there). Not
# under sanitizers: their runtimes must come first among the loaded libraries, before the shim.
add_executable(runtime_killed_trace_program runtime_killed_trace_program.c)
target_link_libraries(runtime_killed_trace_program PRIVATE parperf Threads::Threads)
add_library(runtime_killed_trace_shim SHARED runtime_killed_trace_shim.c)
target_link_libraries(runtime_killed_trace_shim PRIVATE ${CMAKE_DL_LIBS})
# parperf_add_program_report_test(<name> DEFINITIONS <defs...> DEPENDS <targets...> ENV <vars...>): a
# test that runs programs of its own under the runtime (they link it) and reports their runs with
# `parperf report` (PARPERF_COMMAND), in <name>.out (PARPERF_DIR). Not under sanitizers: their
# runtimes must come first among the loaded libraries, and they change the costs measured.
function(parperf_add_program_report_test name)
  cmake_parse_arguments(ARG "" "" "DEFINITIONS;DEPENDS;ENV" ${ARGN})
  add_executable(${name} ${name}.cpp)
  target_link_libraries(${name} PRIVATE parperf_format parperf_warnings GTest::gtest GTest::gtest_main)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_definitions(${name} PRIVATE ${ARG_DEFINITIONS} PARPERF_COMMAND="$<TARGET_FILE:parperf_cli>")
  add_dependencies(${name} ${ARG_DEPENDS} parperf_cli)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT
    "PARPERF_DIR=${CMAKE_CURRENT_BINARY_DIR}/${name}.out;PARPERF_QUIET=1;${ARG_ENV}")
  if(PARPERF_SANITIZE)
    set_tests_properties(${name} PROPERTIES DISABLED TRUE)
  else()
    set_tests_properties(${name} PROPERTIES LABELS "unit")
  endif()
endfunction()
parperf_add_program_report_test(runtime_killed_trace_test
  DEFINITIONS KILLED_TRACE_PROGRAM="$<TARGET_FILE:runtime_killed_trace_program>"
              KILLED_TRACE_SHIM="$<TARGET_FILE:runtime_killed_trace_shim>"
  DEPENDS runtime_killed_trace_program runtime_killed_trace_shim
  ENV PARPERF_TRACE=1)
parperf_add_runtime_test(runtime_directory_test SOURCES runtime_directory_test.cpp
  ENV "PARPERF_DIR=relative-run-%p")

add_test(NAME runtime_library_hygiene
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:parperf> -DDOC=${PROJECT_SOURCE_DIR}/docs/runtime.md
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/check_runtime_library.cmake)
set_tests_properties(runtime_library_hygiene PROPERTIES LABELS "unit")
add_test(NAME runtime_library_private_memory
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:parperf> -DBUILD_TREE=${PROJECT_BINARY_DIR}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/check_private_memory.cmake)
set_tests_properties(runtime_library_private_memory PROPERTIES LABELS "unit")

# Call-path sampling: the handler under many threads, flushes and a small table (also under TSan
# and ASan), and the table itself, compiled into its test (the library hides it).
# Sampling without a signal a sample (perf_sample_buffer.hpp).
parperf_add_runtime_test(runtime_buffered_sampling_test SOURCES runtime_buffered_sampling_test.cpp
  ENV "PARPERF_SAMPLE_HZ=1000" "PARPERF_SAMPLE_SOURCE=perf-buffer")
parperf_add_runtime_test(runtime_sampling_test SOURCES runtime_sampling_test.cpp
  ENV "PARPERF_SAMPLE_HZ=5000" "PARPERF_SAMPLE_NODES=64")
# The same with the event trace on: the handler also pushes each sample into its thread's ring while
# the trace writer drains the rings and the threads append their events (TSan: no race among them).
parperf_add_runtime_test(runtime_traced_sampling_test SOURCES runtime_sampling_test.cpp
  ENV "PARPERF_SAMPLE_HZ=5000" "PARPERF_SAMPLE_NODES=64" "PARPERF_TRACE=1" "PARPERF_TRACE_BUFFER=4096")
# A dlopen storm while sampling at 5 kHz: two threads load, call and unload a small library in a loop
# (also under TSan and ASan); a deadlock ends at the timeout.
add_library(runtime_dlopen_storm_module MODULE runtime_dlopen_storm_module.c)
parperf_add_runtime_test(runtime_dlopen_storm_test SOURCES runtime_dlopen_storm_test.cpp ENV "PARPERF_SAMPLE_HZ=5000"
  "TSAN_OPTIONS=suppressions=${CMAKE_CURRENT_LIST_DIR}/dlopen_storm.tsan-suppressions")
target_link_libraries(runtime_dlopen_storm_test PRIVATE ${CMAKE_DL_LIBS})
target_compile_definitions(runtime_dlopen_storm_test PRIVATE
  STORM_MODULE="$<TARGET_FILE:runtime_dlopen_storm_module>")
add_dependencies(runtime_dlopen_storm_test runtime_dlopen_storm_module)
set_tests_properties(runtime_dlopen_storm_test PROPERTIES TIMEOUT 120)
# A program with its own handler for the sampler's signal, installed after the runtime started and
# (loaded late) before. Not under sanitizers, whose runtimes intercept sigaction before parperf can.
parperf_add_runtime_test(runtime_program_signal_test SOURCES runtime_program_signal_test.cpp
  ENV "PARPERF_SAMPLE_HZ=1000")
add_executable(runtime_program_signal_late_test runtime_program_signal_test.cpp)
target_link_libraries(runtime_program_signal_late_test PRIVATE parperf_format parperf_warnings GTest::gtest
                                                               GTest::gtest_main ${CMAKE_DL_LIBS})
target_include_directories(runtime_program_signal_late_test PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
target_compile_definitions(runtime_program_signal_late_test PRIVATE PARPERF_LOAD_LATE
                           PARPERF_LIBRARY="$<TARGET_FILE:parperf>")
add_dependencies(runtime_program_signal_late_test parperf)
add_test(NAME runtime_program_signal_late_test COMMAND runtime_program_signal_late_test)
set_tests_properties(runtime_program_signal_late_test PROPERTIES ENVIRONMENT
  "PARPERF_DIR=${CMAKE_CURRENT_BINARY_DIR}/runtime_program_signal_late_test.out;PARPERF_QUIET=1;PARPERF_SAMPLE_HZ=1000")
# A program that uses SIGTRAP itself while the sampler's perf-event clocks signal by traps.
parperf_add_runtime_test(runtime_program_trap_test SOURCES runtime_program_trap_test.cpp ENV "PARPERF_SAMPLE_HZ=1000"
  "PARPERF_SAMPLE_SOURCE=perf-trap")
if(PARPERF_SANITIZE)
  set_tests_properties(runtime_program_signal_test runtime_program_signal_late_test runtime_program_trap_test
                       PROPERTIES DISABLED TRUE)
else()
  set_tests_properties(runtime_program_signal_test runtime_program_signal_late_test runtime_program_trap_test
                       PROPERTIES LABELS "unit")
endif()
# The ring that carries a traced thread's samples to the trace writer, compiled into its test.
parperf_add_unit_test(runtime_sample_ring_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/runtime_sample_ring_test.cpp
          ${PROJECT_SOURCE_DIR}/src/runtime/sample_ring.cpp ${PROJECT_SOURCE_DIR}/src/runtime/private_memory.cpp
  LABELS tsan)
parperf_add_unit_test(runtime_call_path_table_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/runtime_call_path_table_test.cpp
          ${PROJECT_SOURCE_DIR}/src/runtime/call_path_table.cpp ${PROJECT_SOURCE_DIR}/src/runtime/private_memory.cpp
  LABELS tsan)
# The sampler's perf-event CPU clock, compiled in (its functions are the runtime's own, not exported).
add_executable(runtime_perf_event_clock_test runtime_perf_event_clock_test.cpp
               ${PROJECT_SOURCE_DIR}/src/runtime/perf_event_clock.cpp)
target_link_libraries(runtime_perf_event_clock_test PRIVATE parperf_warnings GTest::gtest GTest::gtest_main)
target_include_directories(runtime_perf_event_clock_test PRIVATE ${PROJECT_SOURCE_DIR}/src)
gtest_discover_tests(runtime_perf_event_clock_test PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)
# The stack walk by call-frame tables and its memo, compiled in: their chains of calls are built at -O2
# without frame pointers whatever the build type, so only the tables can walk them.
add_executable(runtime_cfi_unwind_test runtime_cfi_unwind_test.cpp runtime_walk_memo_test.cpp
               ${PROJECT_SOURCE_DIR}/src/runtime/cfi_unwind.cpp ${PROJECT_SOURCE_DIR}/src/runtime/stack_walk.cpp
               ${PROJECT_SOURCE_DIR}/src/runtime/walk_memo.cpp ${PROJECT_SOURCE_DIR}/src/runtime/call_path_table.cpp
               ${PROJECT_SOURCE_DIR}/src/runtime/code_modules.cpp ${PROJECT_SOURCE_DIR}/src/runtime/private_memory.cpp)
set_source_files_properties(runtime_cfi_unwind_test.cpp runtime_walk_memo_test.cpp PROPERTIES COMPILE_OPTIONS
                            "-O2;-fomit-frame-pointer")
target_link_libraries(runtime_cfi_unwind_test PRIVATE parperf_warnings GTest::gtest GTest::gtest_main)
target_include_directories(runtime_cfi_unwind_test PRIVATE ${PROJECT_SOURCE_DIR}/src)
gtest_discover_tests(runtime_cfi_unwind_test PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)
# Profiles flushed while a probe-bound young thread runs are all reported (its probes' estimate may
# exceed its lifetime).
add_executable(runtime_flush_young_thread_program runtime_flush_young_thread_program.c)
target_link_libraries(runtime_flush_young_thread_program PRIVATE parperf Threads::Threads)
parperf_add_program_report_test(runtime_flush_young_thread_test
  DEFINITIONS YOUNG_THREAD_PROGRAM="$<TARGET_FILE:runtime_flush_young_thread_program>"
  DEPENDS runtime_flush_young_thread_program)
