# Sourced by the scenario tests written in bash (installed_tree, debian_package, module_files,
# report_tables): a temporary directory removed on exit, and failures in the user's terms.
#   script_test_begin LABEL   sets $work (a new temporary directory) and the label of the messages
#   fail MESSAGE...           prints "LABEL: MESSAGE" on stderr and ends the test with status 1
#   quiet COMMAND...          runs COMMAND, showing its output only when it fails (then fails)
script_test_begin() {
  test_label=$1
  work=$(mktemp -d "${TMPDIR:-/tmp}/parperf-test-XXXXXX")
  trap 'rm -rf "$work"' EXIT
}
fail() {
  echo "$test_label: $*" >&2
  exit 1
}
quiet() {
  "$@" >"$work/quiet.log" 2>&1 || {
    cat "$work/quiet.log" >&2
    fail "failed: $*"
  }
}
