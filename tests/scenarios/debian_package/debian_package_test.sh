#!/usr/bin/env bash
# The Debian package (packaging/debian_package.cmake): built with CPack into a temporary directory,
# its Depends checked against what its binaries load, unpacked into a scratch root (dpkg -x: the
# machine's own /usr is not touched), and a program built against the unpacked headers and library
# measured by the unpacked `parperf run`.
# Usage: debian_package_test.sh BUILD_DIR SOURCE_DIR LIBDIR LIBOMP (LIBOMP: the libomp parperf run
#        preloads, empty when none was found)
set -euo pipefail
# shellcheck source=../../support/script_test.sh
source "$(dirname "$0")/../../support/script_test.sh"
script_test_begin "Debian package"
build=$1 source=$2 libdir=$3 libomp=$4

quiet cpack -G DEB -B "$work/package" --config "$build/CPackConfig.cmake"
deb=$(find "$work/package" -maxdepth 1 -name 'parperf_*.deb')
[ -n "$deb" ] || fail "cpack wrote no parperf_*.deb into $work/package"
depends=$(dpkg-deb -f "$deb" Depends)
root=$work/root
dpkg-deb -x "$deb" "$root"

# Every library a packaged binary needs (its NEEDED entries; theirs are their packages' business)
# comes from a package that Depends names, or from this one.
declared=" $(sed -E 's/ \([^)]*\)//g; s/,/ /g' <<<"$depends") "
while IFS= read -r -d '' file; do
  head -c4 "$file" | grep -q ELF || continue
  resolved=$(LD_LIBRARY_PATH=$root/usr/$libdir ldd "$file")
  for needed in $(readelf -d "$file" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p'); do
    # "libz.so.1 => /lib/.../libz.so.1 (0x...)", or for the dynamic loader "/lib64/ld-linux-x86-64.so.2 (0x...)"
    loaded=$(awk -v name="$needed" '$1 == name && $2 == "=>" {print $3} $1 ~ "/" name "$" {print $1}' <<<"$resolved")
    [[ $loaded == /* ]] || fail "${file#"$root"} needs $needed, which is not found: $resolved"
    [[ $loaded == "$root"/* ]] && continue
    owner=$(dpkg-query -S "$(realpath "$loaded")" 2>/dev/null | head -1 | cut -d: -f1) ||
      owner=$(dpkg-query -S "$loaded" 2>/dev/null | head -1 | cut -d: -f1) || true
    [ -n "$owner" ] || continue  # not from a package: nothing to declare
    [[ $declared == *" $owner "* ]] || fail "${file#"$root"} loads $loaded of package $owner, which Depends lacks: $depends"
  done
done < <(find "$root/usr/bin" "$root/usr/$libdir" -type f -print0)
if [ -n "$libomp" ]; then
  owner=$(dpkg-query -S "$libomp" | head -1 | cut -d: -f1)
  [[ $declared == *" $owner "* ]] ||
    fail "parperf run preloads $libomp (package $owner) into OpenMP programs, but Depends lacks it: $depends"
fi

# A program built against the unpacked package, measured by its parperf.
api=$source/tests/scenarios/api_languages
quiet cc -O1 -I"$root/usr/include" -o "$work/api_c" "$api/api_c.c" -L"$root/usr/$libdir" -Wl,-rpath,"$root/usr/$libdir" -lparperf
quiet "$root/usr/bin/parperf" run -q -o "$work/run" -- "$work/api_c"
"$root/usr/bin/parperf" report "$work/run" >"$work/report.txt" 2>&1 || { cat "$work/report.txt" >&2; fail "parperf report failed"; }
for interval in 'user "compute"' 'parallel loop "rows"'; do
  grep -qF "$interval" "$work/report.txt" ||
    fail "the report of a program measured by the packaged parperf has no interval $interval: $(cat "$work/report.txt")"
done
echo "Debian package: $(basename "$deb") declares what it loads and measures a program from a scratch root"
