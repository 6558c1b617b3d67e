#!/usr/bin/env bash
# FVCA 2023 Table 1 and the Lobatto slides pp. 27 and 35 (tutorials/ex1.c and ex2.c compare with the printed values)
set -euo pipefail
b=$SIMPVI_BUILD/tutorials
echo "## Nonlinear pendulum, FVCA 2023 Table 1 (Newmark = midpoint, Simpson)"
echo '```'
"$b/ex2" -paper fvca2023
echo '```'
echo "## Lobatto slides p. 35: nonlinear pendulum, Lobatto (order 6)"
echo '```'
"$b/ex2" -schemes lobatto -paper lobatto2025 -paper_tolerance 0.1
echo '```'
echo "## Lobatto slides p. 27: harmonic oscillator, one period, absolute energy error"
echo '```'
"$b/ex1" -ts_simpvi_type lobatto -paper
echo '```'
