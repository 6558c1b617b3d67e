#!/usr/bin/env bash
# Soak benchmark of long runs (issue 14), one command:
#
#   bash bench/soak.sh [--bindir build] [--quick]
#
# 1. Brouwer's law at 10^6 steps: tests/brouwer (32 pendulums, Lobatto, 1000 steps per period) over 1 024 000 steps,
#    compensated summation on and off: the fitted exponent of the energy error's growth (1/2: sqrt(N); 1: N).
# 2. 10^7 steps of the pendulum (bench/soak.c), a checkpoint every 10^6 steps: energy error and resident memory at 20
#    samples; the memory must stay flat.
# 3. 10^5 steps of the 10^5-unknown sine-Gordon kink on 2 processes (bench/soak.c -problem sinegordon), the same.
# --quick: the same three on small sizes (a smoke test, CTest's bench-soak-quick, under a minute).
# Each part ends with "...: yes" or "...: no"; the script exits 1 if any says no. On a 2-core machine part 3 takes
# about 0.4 s per step (half a day); SOAK_SG_STEPS overrides its number of steps.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bindir="$here/../build"
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bindir) bindir=$(cd "$2" && pwd); shift 2 ;;
    --quick) quick=1; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "soak.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
soak="$bindir/bench/soak"
brouwer="$bindir/tests/brouwer"
for exe in "$soak" "$brouwer"; do
  [ -x "$exe" ] || { echo "soak.sh: $exe not built (cmake --build build)" >&2; exit 1; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
mpiexec=${MPIEXEC:-mpiexec}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $quick = 1 ]; then
  windows=3 pend=10000 every=2500 sgn=1000 sgsteps=${SOAK_SG_STEPS:-40}
else
  windows=10 pend=10000000 every=1000000 sgn=100000 sgsteps=${SOAK_SG_STEPS:-100000}
fi
status=0
out="$work/out"

echo "== 1. Brouwer's law: $((1000 << windows)) steps of 32 pendulums (Lobatto)"
for c in 1 0; do
  "$brouwer" -windows $windows -ts_simpvi_compensated_summation $c | tee "$out" || status=1
  grep -q ": no" "$out" && status=1
done

echo "== 2. pendulum, $pend steps, a checkpoint every $every"
"$soak" -problem pendulum -steps $pend -samples 20 -ts_simpvi_checkpoint "$work/pendulum.cp" -ts_simpvi_checkpoint_every $every | tee "$out" || status=1
grep -q ": no" "$out" && status=1

echo "== 3. sine-Gordon, $sgn unknowns on 2 processes, $sgsteps steps"
$mpiexec -n 2 "$soak" -problem sinegordon -n $sgn -steps $sgsteps -samples 20 | tee "$out" || status=1
grep -q ": no" "$out" && status=1

echo "soak: $([ $status = 0 ] && echo yes || echo no)"
exit $status
