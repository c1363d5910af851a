# PARPERF_SANITIZE=address,undefined or thread: instrument every target of the build with it.
if(PARPERF_SANITIZE)
  set(_parperf_san_flags -fsanitize=${PARPERF_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_compile_options(${_parperf_san_flags})
  add_link_options(-fsanitize=${PARPERF_SANITIZE})
endif()
