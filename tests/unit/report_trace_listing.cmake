# The readable trace of `parperf trace` (src/report/trace_listing.*), from hand-built profiles.
parperf_add_unit_test(report_trace_listing_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/report_trace_listing_test.cpp
  LINK parperf_report parperf_test_support)
