# Fails when the `parperf` executable links a picture library itself (its NEEDED entries, which the
# dynamic loader loads at every start), or when the PNG module does not export its entry point.
# Usage: cmake -DEXECUTABLE=<bin/parperf> -DMODULE=<lib/libparperf-png.so> -P check_cli_executable.cmake
execute_process(COMMAND readelf -d ${EXECUTABLE} OUTPUT_VARIABLE dynamic RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "readelf failed on ${EXECUTABLE}")
endif()
string(REGEX MATCHALL "Shared library: \\[[^]]+\\]" needed "${dynamic}")
foreach(entry IN LISTS needed)
  string(REGEX REPLACE "Shared library: \\[([^]]+)\\]" "\\1" library "${entry}")
  if(library MATCHES "(rsvg|cairo|pango|gdk|gobject|glib|gio|X11|xcb|fontconfig|freetype|harfbuzz|png)")
    message(FATAL_ERROR "${EXECUTABLE} links ${library}: every command would load the picture libraries; "
                        "they belong in the PNG module (libparperf-png.so)")
  endif()
endforeach()
list(LENGTH needed count)

execute_process(COMMAND nm -D --defined-only ${MODULE} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT symbols MATCHES " parperf_png_write\n")
  message(FATAL_ERROR "${MODULE} does not export parperf_png_write, which parperf loads it for")
endif()
message(STATUS "${EXECUTABLE} needs ${count} libraries, none for pictures; ${MODULE} draws them")
