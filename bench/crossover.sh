#!/usr/bin/env bash
# The step's default linear solver against a direct and a Krylov solve, side by side (issue 22 item 4): the FPU chain
# (examples/ex6.c as bench/chain, Simpson, h = 0.5, default options otherwise: simplified Newton keeps the Jacobian and
# its factors) of 50 to 10^5 masses on 1 and 2 processes; for each size and process count the time per step of
#   default  (the library's choice: on one process LU, ordered by RCM for these banded step matrices at any size; in
#            parallel the exact interface LU: each rank's band by an LU ordered by RCM, the ranks' few coupling
#            unknowns by a capacitance system; BiCGStab/bjacobi ILU(0) for matrices not nearly banded),
#   direct   (-ksp_type preonly -pc_type lu, PETSc's default ordering; SuperLU_DIST in parallel, where the PETSc at
#            hand has it),
#   krylov   (-ksp_type bcgs -pc_type bjacobi -ksp_rtol 1e-12),
# in interleaved rounds (medians), and default / min(direct, krylov): issue 22 asks <= 1.2 on 2 processes.
#   bash bench/crossover.sh [bindir, default build/bench] [rounds, default 3] [markdown file, e.g. docs/crossover.md]
set -euo pipefail
cd "$(dirname "$0")/.."
bindir=${1:-build/bench}
rounds=${2:-3}
doc=${3:-}
chain=$bindir/chain
[ -x "$chain" ] || { echo "crossover.sh: $chain not built (cmake --build build --target bench-chain)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} # SuperLU_DIST's threads on an oversubscribed machine
sizes=${CROSSOVER_SIZES:-"50 500 5000 50000 100000"}
ranks=${CROSSOVER_RANKS:-"1 2"}
# The chain's energy (outside the timings) inverts the mass matrix: CG/Jacobi
common="-modes 0 -dt 0.5 -serial 0 -ts_type simpvi -ts_simpvi_type simpson -ts_simpvi_velocity_ksp_type cg -ts_simpvi_velocity_pc_type jacobi -ts_simpvi_velocity_ksp_rtol 1e-14"
petscconf=$(pkg-config --variable=includedir PETSc)/petscconf.h
have_plu=$(grep -cE "define PETSC_HAVE_SUPERLU_DIST 1" "$petscconf" || true)

# time per later step of one run: steps so that the small chains run about as long as the large ones
step_time() { # np n solver-options...
  local np=$1 n=$2 steps
  shift 2
  steps=$((n >= 50000 ? 12 : n >= 5000 ? 40 : 400))
  mpiexec -n "$np" "$chain" -bench -n "$n" $common -final_time "$(awk "BEGIN{print 0.5*$steps}")" "$@" 2>&1 |
    tr ' ' '\n' | sed -n 's/^later_time_per_step=//p'
}
median() { sort -g | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

run() {
  echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); $rounds interleaved rounds, medians."
  echo
  echo "| processes | masses | step rows | default [ms/step] | direct [ms/step] | krylov [ms/step] | default / best |"
  echo "|---:|---:|---:|---:|---:|---:|---:|"
  for np in $ranks; do
    for n in $sizes; do
      local d="" l="" k="" lu="-ts_simpvi_direct_limit 1000000000 -ksp_type preonly -pc_type lu"
      [ "$np" -gt 1 ] && lu="$lu -pc_factor_mat_solver_type superlu_dist"
      for _ in $(seq "$rounds"); do
        d="$d $(step_time "$np" "$n")"
        if [ "$np" = 1 ] || [ "$have_plu" != 0 ]; then l="$l $(step_time "$np" "$n" $lu)"; fi
        k="$k $(step_time "$np" "$n" -ksp_type bcgs -pc_type bjacobi -ksp_rtol 1e-12)"
      done
      d=$(echo $d | tr ' ' '\n' | median)
      k=$(echo $k | tr ' ' '\n' | median)
      if [ -n "$l" ]; then l=$(echo $l | tr ' ' '\n' | median); fi
      awk -v np="$np" -v n="$n" -v d="$d" -v l="$l" -v k="$k" 'BEGIN{
        best = (l != "" && l < k) ? l : k
        printf "| %d | %d | %d | %.3g | %s | %.3g | %.2f |\n", np, n, 2*n, 1e3*d, (l == "" ? "no parallel LU" : sprintf("%.3g", 1e3*l)), 1e3*k, d/best }'
    done
  done
  echo
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
}

if [ -n "$doc" ]; then
  {
    echo "# The step's default linear solver: where direct and Krylov cross over"
    echo
    echo "Written by \`bash bench/crossover.sh ${bindir} ${rounds} ${doc}\` on $(date -u +%Y-%m-%dT%H:%MZ); do not edit by hand."
    echo "Machine: $(getconf _NPROCESSORS_ONLN) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo); PETSc $(pkg-config --modversion PETSc 2> /dev/null || echo '?')."
    echo
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    echo
    run
  } | tee "$doc"
else
  run
fi
