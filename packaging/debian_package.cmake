# The Debian package (`cpack -G DEB` in the build directory, or the target `package`): everything
# packaging/CMakeLists.txt installs, under /usr. Depends comes from dpkg-shlibdeps over the package's
# libraries and executables (libdw, libzstd, Open MPI, librsvg, libgfortran, ...), plus what parperf
# runs or loads without linking it: LLVM's libomp, which `parperf run` preloads into OpenMP programs
# (PARPERF_LIBOMP, src/cli/CMakeLists.txt). Recommended: the launchers (mpirun, oshrun) of
# `parperf run --np` and the compilers of `parperf cc|c++|fortran`.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME parperf)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "profiler for parallel programs (OpenMP, MPI, OpenSHMEM)")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "parperf measures where OpenMP, MPI and OpenSHMEM programs lose their time: productive work, "
  "insufficient parallelism, communication, idle time and load imbalance per interval, with event "
  "traces, wait states, the POP efficiency factors and memory locality scores.")
set(CPACK_PACKAGE_CONTACT "parperf developers <parperf@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # parperf_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps finds the package's own libraries (libparperf.so.0, which the collectors need) here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/lib)
if(PARPERF_LIBOMP)
  execute_process(COMMAND dpkg-query -S ${PARPERF_LIBOMP} OUTPUT_VARIABLE _parperf_libomp_owner
                  RESULT_VARIABLE _parperf_dpkg_status ERROR_QUIET)
  if(_parperf_dpkg_status EQUAL 0 AND _parperf_libomp_owner MATCHES "^([^:,]+)")
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "${CMAKE_MATCH_1}")
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openmpi-bin, clang-16, gfortran")
include(CPack)
