# Fails when a library that is linked into the measured program (it was not asked for: any other
# symbol could clash with the program's) exports anything but the functions of the interface it
# stands for, when one of them is missing, or when it initialises globals dynamically (code run in
# someone else's process before main, unasked). Used for the GASP tool (the five gasp_* functions of
# include/parperf/gasp.h) and the function-instrumentation hooks (__cyg_profile_func_enter/exit).
# Usage: cmake -DLIBRARY=<path> -DEXPECTED=<symbol>,<symbol>... -DINTERFACE=<its name, for messages>
#              -P check_library_exports.cmake
cmake_policy(SET CMP0057 NEW)  # if(... IN_LIST ...)
string(REPLACE "," ";" EXPECTED "${EXPECTED}")  # commas: a list would not survive add_test
get_filename_component(library_name ${LIBRARY} NAME)
execute_process(COMMAND nm -D --defined-only ${LIBRARY} OUTPUT_VARIABLE symbols RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIBRARY}")
endif()
set(found "")
string(REPLACE "\n" ";" lines "${symbols}")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^[0-9a-f ]* ([A-Za-z]) (.+)$")
    continue()
  endif()
  set(name "${CMAKE_MATCH_2}")
  if(name IN_LIST EXPECTED)
    list(APPEND found "${name}")
  elseif(NOT name MATCHES "^(_init|_fini|__bss_start|_edata|_end|__tsan.*|__asan.*|__ubsan.*)$")
    message(FATAL_ERROR "${library_name} exports '${name}', which is no function of ${INTERFACE}")
  endif()
endforeach()
foreach(name IN LISTS EXPECTED)
  if(NOT name IN_LIST found)
    message(FATAL_ERROR "${library_name} does not export ${name}")
  endif()
endforeach()
execute_process(COMMAND nm ${LIBRARY} OUTPUT_VARIABLE all_symbols RESULT_VARIABLE status)
if(status EQUAL 0 AND all_symbols MATCHES "_GLOBAL__sub_I_([A-Za-z0-9_.]+)")
  message(FATAL_ERROR "${library_name} initialises globals dynamically in ${CMAKE_MATCH_1}")
endif()
message(STATUS "${library_name} exports ${INTERFACE} and nothing else")
