# Unit tests of the locality engine (src/analysis/locality): known-answer streams, the exact reuse
# distances against a naive LRU stack, SHARDS sampling against the exact engine, attribution, and
# the engine's data structures against naive ones.
parperf_add_unit_test(locality_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/burst_uncertainty_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/locality_spatial_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/locality_temporal_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/locality_reuse_distance_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/locality_sampling_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/locality_attribution_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/locality_presampled_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/locality_time_marks_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/locality_stride_window_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/locality_word_table_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/locality_footprint_set_test.cpp
  LINK parperf_locality)
