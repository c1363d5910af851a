# Tests of memory trace files (src/format/memory_trace_*) and of the importers of other tools'
# memory traces (src/import).
parperf_add_unit_test(memory_trace_format_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/memory_trace_format_test.cpp
  LINK parperf_format)
parperf_add_unit_test(locality_import_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/locality_import_test.cpp
  LINK parperf_import)

# libparperf-mem.so, the memory-access collector: what it exports (check_memory_library.cmake).
add_test(NAME memory_library_hygiene
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:parperf-mem> -P ${CMAKE_CURRENT_SOURCE_DIR}/check_memory_library.cmake)
set_tests_properties(memory_library_hygiene PROPERTIES LABELS "unit")
add_test(NAME memory_library_private_memory
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:parperf-mem> -DBUILD_TREE=${PROJECT_BINARY_DIR}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/check_private_memory.cmake)
set_tests_properties(memory_library_private_memory PROPERTIES LABELS "unit")

# The collector driven by threads calling its hooks; one ctest test (its cases fork children), also
# run under ThreadSanitizer.
add_executable(memory_collector_test ${CMAKE_CURRENT_LIST_DIR}/memory_collector_test.cpp)
target_link_libraries(memory_collector_test PRIVATE parperf_format parperf_warnings GTest::gtest GTest::gtest_main
                                                    Threads::Threads ${CMAKE_DL_LIBS})
target_include_directories(memory_collector_test PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
target_compile_definitions(memory_collector_test PRIVATE PARPERF_MEMORY_COLLECTOR="$<TARGET_FILE:parperf-mem>")
add_dependencies(memory_collector_test parperf-mem)
add_test(NAME memory_collector_test COMMAND memory_collector_test)
set_tests_properties(memory_collector_test PROPERTIES LABELS "unit;tsan")
parperf_tsan_test_needs(memory_collector_test)
