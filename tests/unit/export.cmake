# The timeline exports (src/export): a run directory built by hand, exported to every format and
# read back: Perfetto with a test-only protobuf reader and protoc, Chrome JSON with nlohmann-json,
# OTF2 with otf2-print, CSV with an RFC 4180 reader.
find_program(PARPERF_PROTOC protoc REQUIRED)
find_program(PARPERF_OTF2_PRINT otf2-print REQUIRED)
find_program(PARPERF_SCRIPT script REQUIRED)  # util-linux: runs a command on a pseudo-terminal
parperf_add_unit_test(export_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/export_test_run.cpp
    ${CMAKE_CURRENT_LIST_DIR}/export_slices_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/export_flows_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/export_perfetto_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/export_chrome_json_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/export_otf2_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/export_otf2_rma_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/export_csv_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/export_command_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/export_timeline_overview_test.cpp
  LINK parperf_export parperf_format_test_profiles nlohmann_json::nlohmann_json)
target_compile_definitions(export_test PRIVATE PARPERF_PROTOC="${PARPERF_PROTOC}"
                                               PARPERF_OTF2_PRINT="${PARPERF_OTF2_PRINT}"
                                               PARPERF_SCRIPT="${PARPERF_SCRIPT}"
                                               PARPERF_COMMAND="$<TARGET_FILE:parperf_cli>")
add_dependencies(export_test parperf_cli)
