#!/usr/bin/env bash
# Check (default) or apply (--fix) the house layout of .clang-format to every C source and header in git.
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(command -v clang-format-14 || command -v clang-format) || { echo "ci/format.sh: clang-format not found: apt-get install clang-format" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.c' '*.h')
if [ "${1:-}" = --fix ]; then
  "$cf" -i "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! "$cf" "$f" | diff -q "$f" - > /dev/null; then
    echo "ci/format.sh: $f is not formatted (bash ci/format.sh --fix):" >&2
    "$cf" "$f" | diff "$f" - | head -10 >&2 || true
    bad=1
  fi
done
[ $bad -eq 0 ] && echo "ci/format.sh: ${#files[@]} files formatted"
exit $bad
