# libparperf-mpi.so, the MPI collector: what it exports (check_mpi_library.cmake). The wrappers'
# signatures are checked when they compile (mpi.h declares every MPI_ function they define), the
# table they come from when they are generated (src/runtime/mpi/generate_wrappers.py).
add_test(NAME mpi_library_hygiene
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:parperf-mpi> -P ${CMAKE_CURRENT_SOURCE_DIR}/check_mpi_library.cmake)
set_tests_properties(mpi_library_hygiene PROPERTIES LABELS "unit")
add_test(NAME mpi_library_private_memory
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:parperf-mpi> -DBUILD_TREE=${PROJECT_BINARY_DIR}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/check_private_memory.cmake)
set_tests_properties(mpi_library_private_memory PROPERTIES LABELS "unit")

# The collector's state without MPI (its calls, communicator samples, clock exchanges and `mpi`
# section), in a process with the real runtime like the runtime tests (runtime.cmake).
parperf_add_runtime_test(mpi_state_test SOURCES mpi_state_test.cpp ENV "PARPERF_TEST_CLOCK_SKEW=0:5000000:0")
target_link_libraries(mpi_state_test PRIVATE parperf_mpi_state)

# libparperf-shmem.so, the OpenSHMEM collector, when it is built: the same checks.
if(TARGET parperf-shmem)
  add_test(NAME shmem_library_hygiene
           COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:parperf-shmem> -P ${CMAKE_CURRENT_SOURCE_DIR}/check_shmem_library.cmake)
  set_tests_properties(shmem_library_hygiene PROPERTIES LABELS "unit")
  add_test(NAME shmem_library_private_memory
           COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:parperf-shmem> -DBUILD_TREE=${PROJECT_BINARY_DIR}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/check_private_memory.cmake)
  set_tests_properties(shmem_library_private_memory PROPERTIES LABELS "unit")
endif()

# The OpenSHMEM collector's state without OpenSHMEM (its traffic matrix and `shmem` section).
if(TARGET parperf_shmem_state)
  parperf_add_runtime_test(shmem_state_test SOURCES shmem_state_test.cpp)
  target_link_libraries(shmem_state_test PRIVATE parperf_shmem_state)
endif()

# The OpenSHMEM wrapper generator on headers of its own (no OpenSHMEM needed).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME shmem_generator_test
           COMMAND Python3::Interpreter -B ${CMAKE_CURRENT_SOURCE_DIR}/shmem_generator_test.py ${PROJECT_SOURCE_DIR})
  set_tests_properties(shmem_generator_test PROPERTIES LABELS "unit")
endif()
