#!/usr/bin/env bash
# Installs what the browser tests of the HTML report need, only when missing: Debian's chromium and
# npm's playwright-core (tests/browser/package-lock.json pins it) under tests/browser/node_modules.
# Never fails the caller: without a browser the browser tests skip and say why.
# Usage: scripts/install-browser.sh
set -uo pipefail
cd "$(dirname "$0")/.."

sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v npm >/dev/null || missing+=(nodejs npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "parperf: installing ${missing[*]} for the browser tests" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq &&
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    echo "parperf: could not install ${missing[*]}: the browser tests will skip" >&2
fi

if command -v npm >/dev/null && [ ! -d tests/browser/node_modules/playwright-core ]; then
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error) ||
    echo "parperf: could not install playwright-core from the npm registry: the browser tests will skip" >&2
fi
exit 0
