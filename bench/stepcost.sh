#!/usr/bin/env bash
# Issue 13's "Done when" lines of the lean step and small systems, each printed by bench/stepcost (side by side,
# interleaved rounds, medians): bash bench/stepcost.sh [bindir, default build/bench] [rounds, default 5]
set -euo pipefail
bin=${1:-build/bench}/stepcost
r=${2:-5}
echo "== Pendulum, energy <= 1e-9 over 1000 s: simpvi's best against rk4 (>= 3x) and irk 3-stage Gauss (>= 2x)"
$bin -problem pendulum -mode target -T 1000 -tol 1e-9 -Nmin 250 -methods lobatto:5,lobatto:6,lobatto:7,rk4,irk -rounds "$r"
echo "== Double pendulum, the same target: against rk4 (>= 5x) and theta 1/2 (>= 20x)"
$bin -problem double -mode target -T 1000 -tol 1e-9 -methods lobatto:6,lobatto:5,rk4,theta -rounds "$r"
echo "== Per step on the one-DOF pendulum, h = 0.1: Simpson <= 0.5 theta 1/2, rk4 beside it"
$bin -problem pendulum -steps 4000 -h 0.1 -methods simpson,theta,rk4 -rounds "$r"
echo "== 10^4-mass linear chain through the I2 door, h = 0.1: a Simpson step <= 2 alpha2 steps (default; -ts_simpvi_lag_jacobian)"
$bin -problem chain -n 10000 -steps 30 -h 0.1 -methods simpson,alpha2 -rounds "$r"
$bin -problem chain -n 10000 -steps 30 -h 0.1 -methods simpson,alpha2 -rounds "$r" -ts_simpvi_lag_jacobian
