# Unit tests of the renderers of locality results (src/report/locality): JSON written and read back,
# the text report and the SVG pictures, on reports of the real locality engine.
parperf_add_unit_test(locality_report_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/locality_report_test.cpp LINK parperf_locality_report)
# The PNG copies of the pictures, rasterised with librsvg (src/report/locality/svg_to_png.hpp) in the
# module libparperf-png.so, which write_png loads from <bin>/../lib like the parperf command does.
# G_SLICE=always-malloc: glib 2.74 keeps GObjects and GErrors in its own slab allocator, where
# LeakSanitizer (the ASan build) cannot see one that write_png forgets to free.
# libpng decodes the PNGs to check their pixels (pkg-config's module of src/report/locality).
pkg_check_modules(LIBPNG REQUIRED IMPORTED_TARGET libpng)
parperf_add_unit_test(locality_png_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/locality_png_test.cpp
  LINK parperf_locality_report PkgConfig::LIBPNG ENVIRONMENT G_SLICE=always-malloc)
add_dependencies(locality_png_test parperf-png)
# The comparison of an MPI job's ranks (src/report/locality/locality_ranks.hpp).
parperf_add_unit_test(locality_ranks_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/locality_ranks_test.cpp
  LINK parperf_locality_report)
