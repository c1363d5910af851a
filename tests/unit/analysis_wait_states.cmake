# The trace analyses on hand-built traced runs: matching messages and collectives across ranks,
# the clock check, wait states (analysis/trace/messages, clock_check, wait_states), sites by id; the
# chunks the matched messages are held in; the rank bitmaps and node order of the activity graph; the
# sort of nearly ordered points.
parperf_add_unit_test(analysis_wait_states_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/analysis_messages_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_chunked_vector_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_rank_bitmap_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_node_order_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_nearly_sorted_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_wait_states_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_site_index_test.cpp
  LINK parperf_analysis)

# Their part of `parperf report`: the text section and the JSON key.
parperf_add_unit_test(report_wait_states_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/report_wait_states_test.cpp
  LINK parperf_report)
