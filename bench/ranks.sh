#!/usr/bin/env bash
# Issue 22's 2-rank line, measured in one run: the conformance suite's outside program fput_dmda_chain.c (an FPUT-beta
# chain of 10^5 unequal masses on a 1-D DMDA, written for TSALPHA2; never edited) with -N 100000 -steps 20 -dt 0.05
# under -ts_type simpvi (default options) and -ts_type alpha2, on 1 and 2 ranks. Time per step as the program prints
# it (TSSolve()'s wall time over the steps: the first step's set-up included), in interleaved rounds, best and median.
# Prints the two ratios the issue asks for: the 2-rank speed-up of simpvi (>= 1.6, as alpha2's) and a simpvi step
# over an alpha2 step (<= 2), on 1 and on 2 ranks, with Newton and linear iterations per step and the load average.
#   bash bench/ranks.sh [program, default build/tests/conformance/conformance-fput_dmda_chain] [rounds, default 5] [markdown file]
# With a markdown file (docs/ranks.md), the output is also written there with the command that made it.
# The machine must be quiet: 2 ranks on 2 cores shared with other jobs wait for each other at every message.
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${1:-build/tests/conformance/conformance-fput_dmda_chain}
rounds=${2:-5}
doc=${3:-}
[ -x "$exe" ] || { echo "ranks.sh: $exe not built (cmake --build build --target conformance-fput_dmda_chain)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
args="-N 100000 -steps 20 -dt 0.05"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one run: appends "time_per_step newton linear" to $tmp/<type>.<np>
one() { # type np
  local out
  out=$(mpiexec -n "$2" "$exe" $args -ts_type "$1" -ts_view 2>&1)
  echo "$out" | awk '/^type / {for (i = 1; i < NF; i++) if ($i == "per" && $(i + 1) == "step") t = $(i + 2)}
    /total number of nonlinear solver iterations=/ && !nl {split($0, a, "="); nl = a[2]}
    /total number of linear solver iterations=/ && !li {split($0, a, "="); li = a[2]}
    END {if (t == "") exit 1; print t, nl, li}' >> "$tmp/$1.$2" || { echo "ranks.sh: no result from $1 on $2 rank(s):" >&2; echo "$out" | tail -20 >&2; exit 1; }
}
stat() { # file: best median newton/step linear/step (20 steps)
  sort -g "$1" | awk '{t[NR] = $1; nl = $2; li = $3} END {m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2; print t[1], m, nl / 20, li / 20}'
}

run() {
  echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); $rounds interleaved rounds; $exe $args"
  for _ in $(seq "$rounds"); do
    for np in 1 2; do
      for type in simpvi alpha2; do one "$type" "$np"; done
    done
  done
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| TS | ranks | ms/step best | ms/step median | Newton/step | linear its/step |"
  echo "|---|---:|---:|---:|---:|---:|"
  for type in simpvi alpha2; do
    for np in 1 2; do
      stat "$tmp/$type.$np" | awk -v ty="$type" -v np="$np" '{printf "| %s | %d | %.1f | %.1f | %.2f | %.2f |\n", ty, np, 1e3 * $1, 1e3 * $2, $3, $4}'
    done
  done
  echo
  paste <(stat "$tmp/simpvi.1") <(stat "$tmp/simpvi.2") <(stat "$tmp/alpha2.1") <(stat "$tmp/alpha2.2") | awk '{
    printf "2-rank speed-up, simpvi: %.2f best, %.2f median (issue 22: >= 1.6); alpha2: %.2f best, %.2f median\n", $1 / $5, $2 / $6, $9 / $13, $10 / $14
    printf "simpvi step / alpha2 step: 1 rank %.2f best, %.2f median; 2 ranks %.2f best, %.2f median (issue 22: <= 2)\n", $1 / $9, $2 / $10, $5 / $13, $6 / $14 }'
}

if [ -z "$doc" ]; then
  run
  exit
fi
out=$(run)
echo "$out"
{
  echo "# Two ranks: the 10^5-mass FPUT chain of an outside program, simpvi against alpha2"
  echo
  echo "Written by the command below on $(date -u +%Y-%m-%dT%H:%MZ) (bench/ranks.sh: the conformance program"
  echo "fput_dmda_chain.c, unchanged, under \`-ts_type simpvi\` and \`-ts_type alpha2\` with default options; 2 cores). Do not edit by hand."
  echo
  echo '```'
  echo "\$ bash bench/ranks.sh $exe $rounds $doc"
  echo "$out"
  echo '```'
} >"$doc"
