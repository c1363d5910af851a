# Unit tests of the renderers of locality results (src/report/locality): JSON written and read back,
# the text report and the SVG pictures, on reports of the real locality engine.
parperf_add_unit_test(locality_report_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/locality_report_test.cpp LINK parperf_locality_report)
