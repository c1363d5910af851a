cmake_minimum_required(VERSION 3.25)
# Fails when a parperf library that loads into the measured program takes memory from the program's
# allocator (malloc and friends, operator new, C++ thread_local destructors, which allocate per
# thread), loads libstdc++ into it (whose load-time set-up allocates a 72 KB pool from the program's
# heap, in a C or Fortran program only for us), or carries a RUNPATH into the tree it was built in. Memory taken from the program's malloc
# while it runs changes how glibc serves the program itself (src/runtime/private_memory.hpp); a
# RUNPATH into a build tree makes the installed library load whatever lies there later.
# Usage: cmake -DLIBRARY=<path to the library> -DBUILD_TREE=<top build directory> -P check_private_memory.cmake
execute_process(COMMAND nm -D --undefined-only ${LIBRARY} OUTPUT_VARIABLE undefined RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIBRARY}")
endif()
get_filename_component(name ${LIBRARY} NAME)
string(REPLACE "\n" ";" lines "${undefined}")
set(forbidden malloc calloc realloc reallocarray free aligned_alloc posix_memalign memalign valloc pvalloc
    mallopt malloc_trim strdup strndup _Znwm _Znam _ZnwmRKSt9nothrow_t _ZnamRKSt9nothrow_t _ZdlPv _ZdaPv
    _ZdlPvm _ZnwmSt11align_val_t __cxa_thread_atexit __cxa_thread_atexit_impl getline asprintf vasprintf)
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^ *U +" "" symbol "${line}")
  string(REGEX REPLACE "@.*$" "" symbol "${symbol}")
  if(symbol IN_LIST forbidden)
    message(FATAL_ERROR "${name} uses '${symbol}', which takes memory from the measured program's allocator: "
                        "use allocate_private (src/runtime/private_memory.hpp)")
  endif()
endforeach()

execute_process(COMMAND readelf -d ${LIBRARY} OUTPUT_VARIABLE dynamic)
# Sanitizer builds link the sanitizer's runtime, which brings libstdc++ along: only plain builds count.
if(dynamic MATCHES "NEEDED\\)[^[]*\\[libstdc\\+\\+" AND NOT dynamic MATCHES "lib[at]san|clang_rt\\.[at]san")
  message(FATAL_ERROR "${name} needs libstdc++: it would load it into every measured program (use "
                      "plain_mutex.hpp instead of std::mutex, no exceptions or library containers)")
endif()
if(dynamic MATCHES "R(UN)?PATH\\)[^[]*\\[([^]]*)\\]")
  set(runpath "${CMAKE_MATCH_2}")
  string(REPLACE ":" ";" entries "${runpath}")
  foreach(entry IN LISTS entries)
    string(FIND "${entry}" "${BUILD_TREE}" inside)
    if(inside EQUAL 0)
      message(FATAL_ERROR "${name} has the RUNPATH entry '${entry}' inside the build tree: use $ORIGIN")
    endif()
  endforeach()
endif()
message(STATUS "${name} takes no memory from the program's allocator and has no RUNPATH into the build tree")
