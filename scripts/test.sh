#!/usr/bin/env bash
# Installs what is missing, checks the formatting, then builds and tests three ways, stopping at the
# first failure:
#   build       Release: the whole suite (unit and scenario tests)
#   build-asan  Debug with AddressSanitizer and UndefinedBehaviorSanitizer, built with clang-16: the unit tests
#   build-tsan  Debug with ThreadSanitizer, built with clang-16: the multi-threaded runtime tests (label tsan), building
#               only what they need
# Usage: scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

# configure_and_build DIR [TARGET] -- CMAKE_OPTIONS...
configure_and_build() {
  local dir=$1 target=all
  shift
  if [ "$1" != "--" ]; then target=$1; shift; fi
  shift
  step "$dir: configure and build $target"
  cmake -S . -B "$dir" -G Ninja -DPARPERF_WERROR=ON "$@"
  cmake --build "$dir" --target "$target"
}

run_tests() {
  local dir=$1
  shift
  step "$dir: ctest $*"
  # --no-tests=error: a label that selects nothing is a broken suite, not a pass.
  ctest --test-dir "$dir" --output-on-failure --no-tests=error -j2 "$@"
}

step "dependencies"
scripts/install-deps.sh
scripts/install-browser.sh  # chromium and playwright-core for the HTML report's browser test

step "formatting (clang-format --dry-run --Werror)"
sources=()
for dir in src include tests bench examples; do [ -d "$dir" ] && sources+=("$dir"); done
find "${sources[@]}" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cpp' -o -name '*.hpp' \) \
  -print0 | xargs -0 -r clang-format --dry-run --Werror

configure_and_build build -- -DCMAKE_BUILD_TYPE=Release
run_tests build

# The sanitizer builds keep line tables only (-g1): their reports need file:line, not variables, and
# full debug information adds a tenth or more to a cold build's compile time.
debug_flags=(-DCMAKE_C_FLAGS_DEBUG=-g1 -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_Fortran_FLAGS_DEBUG=-g1)

# The sanitizer builds with Clang: a cold Debug build in half of gcc's time (AddressSanitizer and
# UndefinedBehaviorSanitizer 6.5 against 14 minutes on the 2-core machine, ThreadSanitizer's tests 2.2
# against 3.5), and Clang's -fsanitize=undefined checks more than gcc's (float-cast-overflow: a value
# cast to an integer it does not fit). The Release suite is gcc's.
configure_and_build build-asan -- "${debug_flags[@]}" -DCMAKE_BUILD_TYPE=Debug -DPARPERF_SANITIZE=address,undefined -DPARPERF_BUILD_BENCH=OFF \
  -DPARPERF_BUILD_SCENARIOS=OFF -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16
run_tests build-asan -L unit

configure_and_build build-tsan parperf_tsan_tests -- "${debug_flags[@]}" -DCMAKE_BUILD_TYPE=Debug -DPARPERF_SANITIZE=thread -DPARPERF_BUILD_BENCH=OFF \
  -DPARPERF_BUILD_SCENARIOS=OFF -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16
run_tests build-tsan -L tsan

step "all tests passed"
