#!/usr/bin/env bash
# The man pages and the bash completion that the build writes from the command's definition
# (src/cli/manual_pages.hpp), checked against what the command itself says in --help:
#   - every subcommand that `parperf --help` (and `parperf filter --help`) lists has a page,
#   - every page renders with `man -l` without a warning, and names every option its --help names,
#   - the completion offers the subcommands, a subcommand's options, and file names after them.
# Usage: check_manual_pages.sh PARPERF MANUAL_DIR (the build's manual/: man1/*.1, completion/parperf)
set -euo pipefail
parperf=$1 manual=$2
fail() {
  echo "manual pages: $*" >&2
  exit 1
}
# The words listed under "Subcommands:" in COMMAND's --help.
subcommands_of() {
  "$parperf" "$@" --help | awk '/^Subcommands:/ {on = 1; next} on && NF {print $1}'
}
# The long options a --help lists ("  -o,--output DIR   ..." -> --output).
options_of() {
  "$parperf" "$@" --help | awk '/^Options:/ {on = 1; next} /^[A-Z]/ {on = 0} on' |
    grep -oE '^ +(-[a-zA-Z],)?--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+'
}

commands=("")
for sub in $(subcommands_of); do
  commands+=("$sub")
  for nested in $(subcommands_of "$sub"); do commands+=("$sub $nested"); done
done
[ ${#commands[@]} -gt 10 ] || fail "parperf --help lists only ${#commands[@]} commands: is its output still parsed right?"
for command in "${commands[@]}"; do
  read -ra words <<<"$command"
  page=$manual/man1/parperf${command:+-${command// /-}}.1
  [ -f "$page" ] || fail "'parperf $command' has no man page $page"
  warnings=$(MANWIDTH=200 man --warnings=w -l "$page" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "man -l $page warns: $warnings"
  rendered=$(MANWIDTH=200 man -l "$page" 2>/dev/null)
  for option in $(options_of "${words[@]}"); do
    grep -qF -- "$option" <<<"$rendered" ||
      fail "the man page of 'parperf $command' does not name $option, which 'parperf $command --help' lists"
  done
done
pages=$(find "$manual/man1" -name '*.1' | wc -l)
[ "$pages" -eq ${#commands[@]} ] || fail "$pages man pages for ${#commands[@]} commands: a page of a command that is gone?"

# complete WORDS...: the completion's candidates for the last word of `parperf WORDS...`.
# shellcheck source=/dev/null
source "$manual/completion/parperf"
complete_words() {
  COMP_WORDS=(parperf "$@")
  COMP_CWORD=$#
  COMPREPLY=()
  _parperf
  echo "${COMPREPLY[*]}"
}
offered=$(complete_words "")
top=$(subcommands_of | tr '\n' ' ')
[ "$offered" = "${top% }" ] || fail "completion of 'parperf ' offers '$offered', expected the subcommands '${top% }'"
[[ " $(complete_words run --tr) " == *" --trace-buffer "* ]] ||
  fail "completion of 'parperf run --tr' offers '$(complete_words run --tr)', not --trace-buffer"
[ "$(complete_words filter "")" = suggest ] || fail "completion of 'parperf filter ' does not offer 'suggest'"
[ -z "$(complete_words run ./program "")" ] ||
  fail "completion after 'parperf run ./program' offers '$(complete_words run ./program "")': the program's arguments are file names"
echo "manual pages: ${#commands[@]} pages render and name their options; the completion offers them"
