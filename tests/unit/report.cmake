# Unit tests of src/report: selection options, the report model, the diagnosis, the renderers and the
# report of MPI runs.
parperf_add_unit_test(report_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/report_builder_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_diagnosis_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_findings_text_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_json_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_csv_tables_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_selection_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_text_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_overview_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_mutation_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_mpi_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_traffic_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_sampled_functions_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_path_functions_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_dependency_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/report_location_label_test.cpp
  LINK parperf_report parperf_format_test_profiles)

# `parperf diff` as text and JSON, from hand-built comparisons.
parperf_add_unit_test(report_diff_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/report_diff_test.cpp
  LINK parperf_report)
# The HTML report's data, escaping and page (src/report/html); the drawing is tested in a browser
# (tests/browser).
parperf_add_unit_test(report_html_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/report_html_test.cpp LINK parperf_html_report)
