# Unit tests of src/analysis: characteristics, interval merge, processors, run loading, and the MPI
# analysis (clock correction, collective matching, attribution) on hand-built profiles.
parperf_add_unit_test(analysis_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/analysis_characteristics_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_interval_tree_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_processors_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_clock_correction_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_collective_matching_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_mpi_attribution_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_findings_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_interval_findings_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_loop_balance_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_timeline_merge_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_operations_trace_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_activity_graph_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_task_links_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_graph_nodes_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_path_functions_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_probe_compensation_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_sampled_cause_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_sample_share_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_user_call_path_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_shmem_links_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_window_locks_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_window_epochs_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/analysis_plt_stubs_test.cpp
  LINK parperf_analysis)

# The values a profile must have (parts within their whole), on hand-built profiles.
parperf_add_unit_test(analysis_profile_invariants_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/analysis_profile_invariants_test.cpp
  LINK parperf_analysis parperf_format_test_profiles)

# Loading reads real files, written with the runtime's own writer (format.cmake's sample profiles).
parperf_add_unit_test(analysis_run_loader_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/analysis_run_loader_test.cpp
  LINK parperf_analysis parperf_format_test_profiles)

# The scaling models (parperf predict) against synthetic data from known laws.
parperf_add_unit_test(analysis_scaling_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/analysis_scaling_test.cpp
  LINK parperf_analysis)

# Two analysed runs compared (parperf diff): matching by interval path, new and vanished intervals,
# the order by impact, on hand-built analyses.
parperf_add_unit_test(analysis_run_comparison_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/analysis_run_comparison_test.cpp
  LINK parperf_analysis)

# The analysis's heap setting is process-wide: a test program of its own.
parperf_add_unit_test(analysis_heap_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/analysis_heap_test.cpp
  LINK parperf_analysis)

# The trace analysis on two threads against one (side_by_side.hpp): labelled tsan, its parts read the
# same traces and graph at once.
parperf_add_unit_test(analysis_threads_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/analysis_threads_test.cpp
  LINK parperf_analysis parperf_report Threads::Threads
  LABELS tsan)

# The activity graph analysed by parts, as the processes of `report --np K` do, against the whole
# graph's analysis: labelled tsan, the parts run on threads and exchange times.
parperf_add_unit_test(analysis_graph_parts_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/analysis_graph_parts_test.cpp
  LINK parperf_analysis Threads::Threads
  LABELS tsan)

# The whole trace analysis made by parts, against one process's: every figure the reports render
# and every what-if replay. Labelled tsan: the parts run on threads.
parperf_add_unit_test(analysis_trace_analysis_parts_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/analysis_trace_analysis_parts_test.cpp
  LINK parperf_analysis parperf_report Threads::Threads
  LABELS tsan)
