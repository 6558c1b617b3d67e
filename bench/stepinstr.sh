#!/usr/bin/env bash
# Instructions per step of bench/stepcost's problems and methods, counted by valgrind's callgrind (not timed: the
# count does not depend on the machine's load, so two builds can be compared on a shared machine). Each case runs
# 200 and 400 steps of h = 0.1; the difference over the 200 extra steps (taken twice: stepcost's warm-up and its
# round) is the cost of one step, set-up excluded.
#   bash bench/stepinstr.sh [bindir, default build/bench] [problem:method ...]
# Compare two builds: bash bench/stepinstr.sh old/bench; bash bench/stepinstr.sh build/bench
set -euo pipefail
bin=${1:-build/bench}/stepcost
shift || true
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  cases=(pendulum:simpson@pw pendulum:lobatto:5@pw pendulum:simpson double:lobatto:5@pw double:lobatto:6 pendulum_i2:simpson)
fi
command -v valgrind > /dev/null || { echo "bench/stepinstr.sh: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() { # problem method steps -> total instructions of the run
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bin" -problem "$1" -methods "$2" -steps "$3" -h 0.1 -rounds 1 -light false -model false > /dev/null 2>&1
  callgrind_annotate "$tmp/out" 2> /dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}

printf '%-16s %-16s %12s\n' problem method "instr./step"
for c in "${cases[@]}"; do
  problem=${c%%:*}
  method=${c#*:}
  a=$(count "$problem" "$method" 200)
  b=$(count "$problem" "$method" 400)
  printf '%-16s %-16s %12d\n' "$problem" "$method" $(((b - a) / 400))
done
