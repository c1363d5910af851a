# Tests of the function instrumentation (docs/instrumentation.md): the filter's rules and what gcc
# is told of them, the scores and the suggested filter, and the hooks library's hygiene. Whole
# programs built through the wrapper: tests/scenarios/function_instrumentation.
parperf_add_unit_test(function_filter_test
  SOURCES function_filter_test.cpp ${PROJECT_SOURCE_DIR}/tests/support/temp_dir.cpp
  LINK parperf_cli_lib)
parperf_add_unit_test(function_scores_test
  SOURCES function_scores_test.cpp
  LINK parperf_analysis parperf_report)

add_test(NAME functions_library_hygiene
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:parperf-functions>
                 "-DEXPECTED=__cyg_profile_func_enter,__cyg_profile_func_exit"
                 "-DINTERFACE=the hooks of -finstrument-functions" -P ${CMAKE_CURRENT_SOURCE_DIR}/check_library_exports.cmake)
set_tests_properties(functions_library_hygiene PROPERTIES LABELS "unit")
add_test(NAME functions_library_private_memory
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:parperf-functions> -DBUILD_TREE=${PROJECT_BINARY_DIR}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/check_private_memory.cmake)
set_tests_properties(functions_library_private_memory PROPERTIES LABELS "unit")

# The hooks under instrumented code, in a process with the real runtime (as runtime.cmake's tests).
parperf_add_runtime_test(functions_hooks_test SOURCES functions_hooks_test.cpp functions_hooks_program.c
  ENV "PARPERF_MAX_DEPTH=6")
set_source_files_properties(functions_hooks_program.c PROPERTIES
  COMPILE_OPTIONS "-O1;-finstrument-functions;-fno-omit-frame-pointer")
target_link_libraries(functions_hooks_test PRIVATE parperf-functions)
set_target_properties(functions_hooks_test PROPERTIES ENABLE_EXPORTS ON)
