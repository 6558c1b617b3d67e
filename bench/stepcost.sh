#!/usr/bin/env bash
# Issues 13's and 22's "Done when" lines of the step's cost, each printed by bench/stepcost (side by side, interleaved
# rounds, medians): bash bench/stepcost.sh [bindir, default build/bench] [rounds, default 5] [markdown file]
# With a markdown file (docs/stepcost.md), the output is also written there with the command that made it.
# The pendulum's and the double pendulum's tables end with the speed-of-light column of their simpvi rows (issue 22):
# each run's time per step beside that of its own arithmetic redone in plain C (bench/speedoflight.h), and the ratio;
# then the model table: the user's functions' calls per step and their time alone. rk4/arith. and rk4/model are the
# ceilings of the Done-when ratios: rk4 / simpvi if a step cost only its arithmetic, or only the user's functions.
set -euo pipefail
bin=${1:-build/bench}/stepcost
r=${2:-5}
doc=${3:-}

run() {
  echo "== Pendulum, energy <= 1e-9 over 1000 s, default options: simpvi against rk4 and irk 3-stage Gauss (issue 22: >= 5x"
  echo "   rk4, >= 3x irk through the mechanical door; >= 15x rk4 through the pointwise door, @pw; the Lagrangian door, @lag,"
  echo "   measured beside them); then each simpvi row's step beside its arithmetic in plain C (speed of light: step/arith.)"
  $bin -problem pendulum -mode target -T 1000 -tol 1e-9 -Nmin 250 -methods lobatto:5@pw,lobatto:6@pw,lobatto:5,lobatto:6,lobatto:5@lag,rk4,irk -rounds "$r"
  echo "== The same with -ts_simpvi_lag_jacobian false (Newton with a new Jacobian at every iteration, the default before"
  echo "   issue 22) and with PETSc's -snes_lag_jacobian 100 (one Jacobian per step)"
  $bin -problem pendulum -mode target -T 1000 -tol 1e-9 -Nmin 250 -methods lobatto:5@pw,lobatto:5,rk4 -rounds "$r" -ts_simpvi_lag_jacobian false
  $bin -problem pendulum -mode target -T 1000 -tol 1e-9 -Nmin 250 -methods lobatto:5@pw,lobatto:5,rk4 -rounds "$r" -snes_lag_jacobian 100
  echo "== The pendulum through the I2 door (TSSetI2Function()/TSSetI2Jacobian()), the same target, against alpha2 and"
  echo "   against rk4 and irk as above (issue 22: >= 5x rk4, >= 3x irk through the I2 door)"
  $bin -problem pendulum_i2 -mode target -T 1000 -tol 1e-9 -Nmin 250 -methods lobatto:5,lobatto:6,lobatto:4,simpson,alpha2,rk4,irk -rounds "$r"
  echo "== Double pendulum, the same target, default options, against rk4 (issue 22: >= 10x through the pointwise door,"
  echo "   >= 5x through the mechanical door; the Lagrangian door, @lag, measured beside them); rk4 allowed up to 2e6 steps;"
  echo "   then the speed of light (issue 22: a Lobatto 6 step within 3x its arithmetic, step/arith. of lobatto:6 and"
  echo "   lobatto:6@pw)"
  $bin -problem double -mode target -T 1000 -tol 1e-9 -Nmax 2000000 -methods lobatto:5@pw,lobatto:6@pw,lobatto:6,lobatto:6@lag,rk4 -rounds "$r"
  echo "== The same with -ts_simpvi_lag_jacobian false"
  $bin -problem double -mode target -T 1000 -tol 1e-9 -Nmax 2000000 -methods lobatto:5@pw,lobatto:6@pw,lobatto:6,rk4 -rounds "$r" -ts_simpvi_lag_jacobian false
  echo "== Double pendulum against theta 1/2 (issue 22: >= 50x): theta has not met the target at 400000 steps, its time there a"
  echo "   lower bound"
  $bin -problem double -mode target -T 1000 -tol 1e-9 -methods lobatto:5@pw,theta -rounds "$r"
  echo "== Issue 20: the pendulum as a basicsymplectic program (TSRHSSplitSetRHSFunction(), simpvi's split door), energy"
  echo "   <= 1e-8 over 100 s: simpvi's schemes against basicsymplectic 4 (-ts_basicsymplectic_type 4)"
  $bin -problem pendulum_split -mode target -T 100 -tol 1e-8 -Nmin 25 -methods bsi4,simpson,lobatto,lobatto:5 -rounds "$r"
  echo "== Per step on the one-DOF pendulum, h = 0.1: Simpson <= 0.5 theta 1/2, rk4 beside it"
  $bin -problem pendulum -steps 4000 -h 0.1 -methods simpson,simpson@pw,theta,rk4 -rounds "$r"
  echo "== 10^4-mass linear chain through the I2 door, h = 0.1, 300 steps: a Simpson step <= 2 alpha2 steps, judged on this"
  echo "   first table: the chain declared TS_LINEAR (TSSetProblemType(), -linear) for both methods, default options otherwise"
  $bin -problem chain -n 10000 -steps 300 -h 0.1 -methods simpson,alpha2 -rounds "$r" -linear
  echo "== The same chain declared TS_NONLINEAR for both (a Newton solve per step; issue 22: a Simpson step <= 1.5 alpha2"
  echo "   steps): default options, then -ts_simpvi_lag_jacobian false"
  $bin -problem chain -n 10000 -steps 300 -h 0.1 -methods simpson,alpha2 -rounds "$r"
  $bin -problem chain -n 10000 -steps 300 -h 0.1 -methods simpson,alpha2 -rounds "$r" -ts_simpvi_lag_jacobian false
  echo "== A nonlinear chain: 10^4 unequal masses on FPUT-beta springs (beta = 1, examples/models/fputchain.h, a pulse in"
  echo "   the middle) through the I2 door, TS_NONLINEAR, energy <= 1e-7 over 20 s (issue 22: at equal energy error simpvi"
  echo "   >= 3x faster than alpha2); grid from h = 4 (-Nmin 5): the high orders meet it at h > 1"
  $bin -problem fput -n 10000 -mode target -T 20 -tol 1e-7 -Nmin 5 -methods simpson,lobatto:3,lobatto:4,alpha2 -rounds "$r"
}

if [ -z "$doc" ]; then
  run
  exit
fi
out=$(run)
echo "$out"
# the PETSc the bench was built against: its -version line, and the library's path for a development version
# (filters that read all their input: an early exit would fail the pipe under pipefail)
petsc=$("$bin" -version 2>&1 | sed -n '1s/ *$//p')
case $petsc in
*Development*) petsc="$petsc, $(ldd "$bin" | awk '/libpetsc/ && !n++ {print $3}')" ;;
esac
{
  echo "# Per-step costs: issues 13's and 22's Done-when ratios"
  echo
  echo "Written by the command below (bench/stepcost.c: the same program and options for TSSIMPVI and PETSc's \`rk 4\`"
  echo "(hand-written right-hand side), \`theta 0.5\`, \`irk\` and \`alpha2\`; medians of interleaved rounds on the shared"
  echo "2-core machine, load $(cut -d' ' -f1-3 /proc/loadavg) at the end), against $petsc. Do not edit by hand:"
  echo "re-run the command."
  echo
  echo '```'
  echo "\$ bash bench/stepcost.sh ${1:-build/bench} $r $doc"
  echo "$out"
  echo '```'
} >"$doc"
