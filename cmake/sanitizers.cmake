# PARPERF_SANITIZE=address,undefined or thread: instrument every target of the build with it.
#
# With Clang (scripts/test.sh builds both sanitizer suites with clang-16: a cold Debug build in half
# of gcc's time), the sanitizer runtime is linked as a shared library, as gcc links libasan: the
# runtime's own shared libraries (libparperf.so, ...) are linked with --no-undefined and are loaded
# into programs that are not instrumented, so they must name the runtime they need rather than
# expect the executable to carry a static copy. The runtime's folder goes into every binary's RUNPATH.
if(PARPERF_SANITIZE)
  set(_parperf_san_flags -fsanitize=${PARPERF_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_compile_options(${_parperf_san_flags})
    add_link_options(-fsanitize=${PARPERF_SANITIZE})
  else()
    # C and C++ only: gfortran's instrumentation would bring gcc's runtime beside Clang's (the one
    # Fortran target, the annotation API's binding, has no code of its own to check).
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-runtime-dir OUTPUT_VARIABLE _parperf_san_runtime_dir
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT IS_DIRECTORY "${_parperf_san_runtime_dir}")
      message(FATAL_ERROR "PARPERF_SANITIZE: ${CMAKE_CXX_COMPILER} names no sanitizer runtime folder "
                          "(-print-runtime-dir: '${_parperf_san_runtime_dir}'); install libclang-rt-16-dev")
    endif()
    add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${_parperf_san_flags}>")
    add_link_options("$<$<LINK_LANGUAGE:C,CXX>:-fsanitize=${PARPERF_SANITIZE};-shared-libsan>"
                     "$<$<LINK_LANGUAGE:C,CXX>:-Wl,-rpath,${_parperf_san_runtime_dir}>")
  endif()
endif()
