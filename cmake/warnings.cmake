# Project-wide warning flags; PARPERF_WERROR (on in CI) turns them into errors.
add_library(parperf_warnings INTERFACE)
target_compile_options(parperf_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:C,CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    -Wcast-align -Wformat=2>
  $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>
  $<$<AND:$<BOOL:${PARPERF_WERROR}>,$<COMPILE_LANGUAGE:C,CXX>>:-Werror>)
