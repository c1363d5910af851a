# Tests of memory trace files (src/format/memory_trace_*) and of the importers of other tools'
# memory traces (src/analysis/locality/import).
parperf_add_unit_test(memory_trace_format_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/memory_trace_format_test.cpp
  LINK parperf_format)
parperf_add_unit_test(locality_import_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/locality_import_test.cpp
  LINK parperf_locality_import)

# libparperf-mem.so, the memory-access collector: what it exports (check_memory_library.cmake).
add_test(NAME memory_library_hygiene
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:parperf-mem> -P ${CMAKE_CURRENT_SOURCE_DIR}/check_memory_library.cmake)
set_tests_properties(memory_library_hygiene PROPERTIES LABELS "unit")
