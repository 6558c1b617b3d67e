#!/usr/bin/env bash
# Issue 24: the four-bar linkage (tutorials/ex7.c) by TSSIMPVI with constraints against PETSc's DAE route, each run of
# bench/fourbar printing both side by side (one process, one run each): bash bench/fourbar.sh [bindir, default
# build/bench] [markdown file]. With a markdown file (docs/fourbar.md), the output is also written there with the
# commands that made it.
set -euo pipefail
bin=${1:-build/bench}/fourbar
doc=${2:-}

run() {
  echo "== 10^6 steps of simpvi simpson (h = 0.01, T = 10^4) against the index-1 DAE route by BDF4 at h = 0.001 (10^7 steps,"
  echo "   comparable accuracy at t = 10), then against the GGL (stabilised index-2) route the same way"
  $bin -steps 1000000 -dae_h 0.001 -dae_ts_type bdf -dae_ts_bdf_order 4
  $bin -steps 1000000 -dae_h 0.001 -dae_ts_type bdf -dae_ts_bdf_order 4 -formulation ggl
  echo "== The DAE route at simpvi's step h = 0.01 (T = 1000): BDF4, both formulations"
  $bin -steps 100000 -dae_ts_type bdf -dae_ts_bdf_order 4
  $bin -steps 100000 -dae_ts_type bdf -dae_ts_bdf_order 4 -formulation ggl
  echo "== TSARKIMEX 4 (ARK4(3)6L[2]SA, fully implicit) at h = 0.001 over T = 100, both formulations"
  $bin -steps 10000 -dae_h 0.001
  $bin -steps 10000 -dae_h 0.001 -formulation ggl
}

if [ -z "$doc" ]; then
  run
  exit
fi
out=$(run)
echo "$out"
{
  echo "# The four-bar linkage: TSSIMPVI with constraints against PETSc's DAE route"
  echo
  echo "Written by the command below (bench/fourbar.c; each block one process running both, times of TSSolve() on the"
  echo "shared 2-core machine, load $(cut -d' ' -f1-3 /proc/loadavg) at the end). Do not edit by hand: re-run the command."
  echo "Columns: wall time, position error at t = 10 against lobatto at h/16, max |g(q)| and |G(q) v| and the largest relative"
  echo "energy error in the first and second halves of the run. See docs/mathematics.md section 9."
  echo
  echo '```'
  echo "\$ bash bench/fourbar.sh ${1:-build/bench} $doc"
  echo "$out"
  echo '```'
} >"$doc"
