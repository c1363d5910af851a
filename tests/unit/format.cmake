# Tests of the profile file format (src/format): the round trip of every field, the documented
# layout, byte-order conversion, and the reader on truncated, corrupted, mutated and foreign input.

# The sample-profile writer, shared with other modules' tests (they link this target and include
# "unit/format_test_profiles.hpp").
add_library(parperf_format_test_profiles STATIC ${CMAKE_CURRENT_LIST_DIR}/format_test_profiles.cpp)
target_include_directories(parperf_format_test_profiles PUBLIC ${PROJECT_SOURCE_DIR}/tests)
target_link_libraries(parperf_format_test_profiles PUBLIC parperf_format PRIVATE parperf_warnings)

parperf_add_unit_test(format_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/format_round_trip_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format_layout_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format_corruption_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format_damage_sweep_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format_mutation_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format_file_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format_run_info_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format_trace_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format_trace_samples_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format_section_length_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format_new_file_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/format_iteration_buckets_test.cpp
  LINK parperf_format_test_profiles parperf_format)

# docs/format.md's and docs/locality.md's byte tables against the field lists.
parperf_add_unit_test(format_docs_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/format_docs_test.cpp
  LINK parperf_format)
target_compile_definitions(format_docs_test PRIVATE PARPERF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
