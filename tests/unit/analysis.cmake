# Unit tests of src/analysis: characteristics, interval merge, processors and run loading.
parperf_add_unit_test(analysis_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/analysis_characteristics_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_interval_tree_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_processors_test.cpp
  LINK parperf_analysis)

# Loading reads real files, written with the runtime's own writer (format.cmake's sample profiles).
parperf_add_unit_test(analysis_run_loader_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/analysis_run_loader_test.cpp
  LINK parperf_analysis parperf_format_test_profiles)
