#!/usr/bin/env bash
# Strong and weak scaling of TSSIMPVI (Simpson) against PETSc's implicit midpoint rule (-ts_type theta
# -ts_theta_theta 0.5, given the same mechanics by TSSimpVISetUpPhaseSpace()) on the FPU chain (examples/ex6.c) and
# the sine-Gordon kink (examples/ex7.c), on 1, 2 and 4 ranks (4 oversubscribed on a 2-core machine), then the
# 10^6-unknown kink on 2 ranks: a refinement sweep for Simpson and Lobatto and the peak memory per unknown with the
# default direct solver and with a Krylov solver. Writes a Markdown report (default docs/scaling.md).
#
#   bash bench/scaling.sh [--bindir build/bench] [--out docs/scaling.md] [--quick] [--ranks "1 2 4"] [--records FILE]
#
# --quick runs every case on small sizes (a smoke test of the script, a few minutes). --records FILE runs nothing and
# rewrites the report from the records of an earlier report (its "Raw records" block) or of a file of such lines.
# TIMEOUT (seconds, default 900) bounds each run; REPS (default 7, 2 with --quick) is the number of rounds of the
# repeated 1- to 2-rank weak-scaling measurement. Each program prints one "BENCH key=value ..." record per run (see
# the -bench option of examples/ex6.c and ex7.c); the raw records are kept at the end of the report. Timings are wall-clock times of TSSolve(); memory is the peak resident set size (Linux
# VmHWM) summed over ranks, per spatial unknown, gross and net of the processes' size right after PetscInitialize().
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bindir="$root/build/bench"
out="$root/docs/scaling.md"
quick=0
ranks="1 2 4"
records=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bindir) bindir=$(cd "$2" && pwd); shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    --ranks) ranks="$2"; shift 2 ;;
    --records) records=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "scaling.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
chain="$bindir/chain"
kink="$bindir/kink"
if [ -z "$records" ]; then
  for exe in "$chain" "$kink"; do
    [ -x "$exe" ] || { echo "scaling.sh: $exe not built (cmake --build build --target bench-chain bench-kink)" >&2; exit 1; }
  done
fi
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
MPIEXEC=${MPIEXEC:-mpiexec}
# SuperLU_DIST (the parallel LU compared here) runs OpenMP threads: one per rank, or oversubscribed ranks spin for minutes
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
TIMEOUT=${TIMEOUT:-900} # seconds per run; a run that takes longer is reported as such
raw=$(mktemp)
log=$(mktemp)
trap 'rm -f "$raw" "$log"' EXIT

if [ -n "$records" ]; then
  grep -E '^(#meta|[a-z]+/[^|]*)\|' "$records" > "$raw"
  quick=$(grep -m1 '^#meta|quick|' "$raw" | cut -d'|' -f3)
fi

# Sizes: per-rank size of the weak runs, total size of the strong runs, steps
if [ "$quick" = 1 ]; then
  chain_strong=8000; chain_weak=4000; kink_strong=7999; kink_weak=4000; steps=4
  big_n0=2499; big_levels=3; big_T=0.5; reps=${REPS:-2}
else
  chain_strong=200000; chain_weak=100000; kink_strong=199999; kink_weak=100000; steps=12
  big_n0=124999; big_levels=4; big_T=1; reps=${REPS:-7}
fi
dx=0.05 # grid spacing of the kink's scaling runs: L = dx (n + 1) / 2, steps of cfl 0.5
bigL=$(awk "BEGIN{print 0.4*($big_n0+1)/2}")     # the big kink: dx = 0.4 on the coarsest level
nbig=$(((big_n0 + 1) * (1 << (big_levels - 1)) - 1)) # unknowns of its finest level

# The step solvers compared, given alike to both TS types: the library's default above -ts_simpvi_direct_limit rows
# and in parallel
# (BiCGStab, block Jacobi/ILU(0), rtol 1e-12) and a direct solve (forced for simpvi by raising the limit; SuperLU_DIST
# in parallel, added by run()); the memory table also has GMRES
solver_krylov="-ksp_type bcgs -pc_type bjacobi -ksp_rtol 1e-12"
solver_direct="-ts_simpvi_direct_limit 1000000000 -ksp_type preonly -pc_type lu"
solver_gmres="-ksp_type gmres -pc_type bjacobi -ksp_rtol 1e-12"
# The chain's energy (before and after the run, outside the timings) inverts the mass matrix: CG/Jacobi rather than the
# library's default direct solver, whose MUMPS analysis (PORD ordering) of a diagonal matrix takes minutes at 10^5 rows
velocity="-ts_simpvi_velocity_ksp_type cg -ts_simpvi_velocity_pc_type jacobi -ts_simpvi_velocity_ksp_rtol 1e-14"
ts_simpson="-ts_type simpvi -ts_simpvi_type simpson"
ts_theta="-ts_type theta -ts_theta_theta 0.5 -snes_rtol 1e-14" # simpvi's Newton tolerance (its stol test stops both)

# run LABEL RANKS EXE ARGS...: one mpiexec, its BENCH records appended to $raw as "LABEL|RANKS|record"
run() {
  local label=$1 np=$2 exe=$3
  shift 3
  local t0=$SECONDS
  case " $* " in *" -pc_type lu "*) [ "$np" -gt 1 ] && set -- "$@" -pc_factor_mat_solver_type superlu_dist ;; esac
  echo "scaling.sh: [$label] $np rank(s): $(basename "$exe") $*" >&2
  timeout "$TIMEOUT" "$MPIEXEC" --oversubscribe -n "$np" "$exe" -bench "$@" > "$log" 2>&1
  local status=$?
  grep '^BENCH ' "$log" | awk -v p="$label|$np|" '{print p $0}' >> "$raw"
  if [ $status = 124 ]; then
    echo "$label|$np|FAILED: stopped after $TIMEOUT s" >> "$raw"
  elif [ $status != 0 ]; then
    echo "$label|$np|FAILED: $(grep -m1 -E 'ERROR: [A-Z]|signal' "$log" | sed 's/|/ /g')" >> "$raw"
    tail -5 "$log" >&2
  fi
  echo "scaling.sh:   $((SECONDS - t0)) s" >&2
}

# pair LABEL EXE ARGS...: two 1-rank runs at the same time, both records appended as "LABEL|1|record"
pair() {
  local label=$1 exe=$2 t0=$SECONDS
  shift 2
  echo "scaling.sh: [$label] two 1-rank runs at once: $(basename "$exe") $*" >&2
  # two mpiexec would each bind their rank to the first core
  timeout "$TIMEOUT" "$MPIEXEC" --bind-to none -n 1 "$exe" -bench "$@" > "$log.a" 2>&1 &
  timeout "$TIMEOUT" "$MPIEXEC" --bind-to none -n 1 "$exe" -bench "$@" > "$log.b" 2>&1
  wait
  cat "$log.a" "$log.b" | grep '^BENCH ' | awk -v p="$label|1|" '{print p $0}' >> "$raw"
  rm -f "$log.a" "$log.b"
  echo "scaling.sh:   $((SECONDS - t0)) s" >&2
}

if [ -z "$records" ]; then
  load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
  start=$SECONDS

  # 1. strong scaling: a fixed problem on 1, 2, 4 ranks
  for np in $ranks; do
    for ts in simpson theta; do
      tsopt=ts_$ts
      for solver in direct krylov; do
        solopt=solver_$solver
        run "strong/chain/$ts/$solver" "$np" "$chain" -n $chain_strong -modes 0 -dt 0.5 -final_time $(awk "BEGIN{print 0.5*$steps}") -serial 0 $velocity ${!tsopt} ${!solopt}
        L=$(awk "BEGIN{print $dx*($kink_strong+1)/2}")
        run "strong/kink/$ts/$solver" "$np" "$kink" -n $kink_strong -L "$L" -levels 1 -T $(awk "BEGIN{print 0.5*$dx*$steps}") ${!tsopt} ${!solopt}
      done
    done
  done

  # 2. weak scaling: a fixed size per rank
  for np in $ranks; do
    for ts in simpson theta; do
      tsopt=ts_$ts
      for solver in direct krylov; do
        solopt=solver_$solver
        run "weak/chain/$ts/$solver" "$np" "$chain" -n $((chain_weak * np)) -modes 0 -dt 0.5 -final_time $(awk "BEGIN{print 0.5*$steps}") -serial 0 $velocity ${!tsopt} ${!solopt}
        n=$((kink_weak * np - 1))
        L=$(awk "BEGIN{print $dx*($n+1)/2}")
        run "weak/kink/$ts/$solver" "$np" "$kink" -n $n -L "$L" -levels 1 -T $(awk "BEGIN{print 0.5*$dx*$steps}") ${!tsopt} ${!solopt}
      done
    done
  done

  # 2b. weak scaling from 1 to 2 ranks, repeated: $reps rounds of a 1-rank run, a 2-rank run of twice the problem and
  #     two 1-rank runs at once (no MPI between them: they share only the cores and the memory system, so their time
  #     against one alone is the best a 2-rank run can reach), interleaved so that the host's slow and fast spells hit
  #     all three alike; the report takes the best and the median of each
  for rep in $(seq "$reps"); do
    for ts in simpson theta; do
      tsopt=ts_$ts
      for np in 1 2; do
        run "rep/chain/$ts" "$np" "$chain" -n $((chain_weak * np)) -modes 0 -dt 0.5 -final_time $(awk "BEGIN{print 0.5*$steps}") -serial 0 $velocity ${!tsopt} $solver_krylov
      done
      pair "reppair/chain/$ts" "$chain" -n $chain_weak -modes 0 -dt 0.5 -final_time $(awk "BEGIN{print 0.5*$steps}") -serial 0 $velocity ${!tsopt} $solver_krylov
      for np in 1 2; do
        n=$((kink_weak * np - 1))
        run "rep/kink/$ts" "$np" "$kink" -n $n -L $(awk "BEGIN{print $dx*($n+1)/2}") -levels 1 -T $(awk "BEGIN{print 0.5*$dx*$steps}") ${!tsopt} $solver_krylov
      done
      pair "reppair/kink/$ts" "$kink" -n $((kink_weak - 1)) -L $(awk "BEGIN{print $dx*$kink_weak/2}") -levels 1 -T $(awk "BEGIN{print 0.5*$dx*$steps}") ${!tsopt} $solver_krylov
    done
  done

  # 3. the 10^6-unknown kink on 2 ranks: refinement sweep dx = 0.4 ... 0.05 (h = dx/2) on [-L, L], L = 25000, to T = 1,
  #    Simpson and Lobatto (degree 3, order 6 in time; 4th-order differences in space); then the peak memory of the finest
  #    level alone with the default (Krylov) solver, GMRES and, on a fifth of the grid, the direct solver
  run "sweep/simpson/krylov" 2 "$kink" -n $big_n0 -L "$bigL" -levels $big_levels -T $big_T -cfl 0.5 $ts_simpson $solver_krylov
  run "sweep/lobatto/krylov" 2 "$kink" -n $big_n0 -L "$bigL" -levels $big_levels -T $big_T -cfl 0.5 -ts_type simpvi -ts_simpvi_type lobatto $solver_krylov
  for solver in krylov gmres; do
    solopt=solver_$solver
    run "memory/simpson/$solver" 2 "$kink" -n $nbig -L "$bigL" -levels 1 -T $(awk "BEGIN{print 0.4*$dx*3}") -cfl 0.5 $ts_simpson ${!solopt}
  done
  # SuperLU_DIST needs about 14 KB per unknown here: measured on a fifth of the grid (same dx) rather than at 10^6
  nfifth=$(((nbig + 1) / 5 - 1))
  run "memory/simpson/direct" 2 "$kink" -n $nfifth -L $(awk "BEGIN{print $bigL/5}") -levels 1 -T $(awk "BEGIN{print 0.4*$dx*3}") -cfl 0.5 $ts_simpson $solver_direct
  run "memory/lobatto/krylov" 2 "$kink" -n $nbig -L "$bigL" -levels 1 -T $(awk "BEGIN{print 0.4*$dx*3}") -cfl 0.5 -ts_type simpvi -ts_simpvi_type lobatto $solver_krylov
  run "memory/theta/krylov" 2 "$kink" -n $nbig -L "$bigL" -levels 1 -T $(awk "BEGIN{print 0.4*$dx*3}") -cfl 0.5 $ts_theta $solver_krylov

  load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
  elapsed=$((SECONDS - start))

  {
    echo "#meta|load_start|$load_start"
    echo "#meta|load_end|$load_end"
    echo "#meta|elapsed|$elapsed"
    echo "#meta|quick|$quick"
    echo "#meta|reps|$reps"
    echo "#meta|date|$(date -u +%Y-%m-%dT%H:%MZ)"
  } >> "$raw"
fi
meta() { grep -m1 "^#meta|$1|" "$raw" | cut -d'|' -f3-; }
load_start=$(meta load_start)
load_end=$(meta load_end)
elapsed=$(meta elapsed)
quick=$(meta quick)
reps=$(meta reps)

# ---------------------------------------------------------------- report
# the value of key=value in a BENCH record, for the awk programs below
awk_get='function get(rec, key) { if (match(rec, " " key "=[^ ]*")) return substr(rec, RSTART + length(key) + 2, RLENGTH - length(key) - 2); return "" }'
mkdir -p "$(dirname "$out")"
{
  cat <<EOF
# Scaling of TSSIMPVI against PETSc's implicit midpoint rule

Written by \`bench/scaling.sh\`$([ "$quick" = 1 ] && echo ' --quick (small sizes: a smoke test, not a measurement)') on $(meta date); do not edit by hand.
Machine: $(getconf _NPROCESSORS_ONLN) cores ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); PETSc $(pkg-config --modversion PETSc 2>/dev/null), Open MPI $(mpirun --version 2>/dev/null | head -1 | awk '{print $NF}').
4 ranks are oversubscribed (2 per core). Load average (1, 5, 15 min) at the start: $load_start, at the end: $load_end
(other jobs shared the machine when the load exceeds the ranks in use: times are then upper bounds). Total: $elapsed s.

Programs: \`bench/chain\` = examples/ex6.c (FPU-beta chain, masses 1 and 2, beta = 1, a short wave of amplitude 1 and
wavelength 64 masses, h = 0.5) and \`bench/kink\` = examples/ex7.c (1-D sine-Gordon kink, v = 0.5, 4th-order
differences with dx = 0.05, h = dx/2, exact time-dependent Dirichlet data). Both TS types solve the same mechanics:
\`theta\` gets the phase-space form from \`TSSimpVISetUpPhaseSpace()\`; both use Newton with simpvi's tolerance
(\`-snes_rtol 1e-14\` is given to theta; both then stop on the size of the update) and the same linear solver per row:

* **krylov**: \`$solver_krylov\` (ILU(0) blocks), the library's default for step systems of more than 10^5 rows and, in parallel, for any not nearly banded on each rank
  and in parallel at every size (bench/crossover.sh);
* **direct**: \`-ksp_type preonly -pc_type lu\` (SuperLU_DIST in parallel, OMP_NUM_THREADS=$OMP_NUM_THREADS), the library's
  default below 10^5 rows on one process, forced here with \`-ts_simpvi_direct_limit\` (and \`-pc_type lu\` in parallel);
* the memory table also has **gmres**: \`$solver_gmres\`.

Columns: the first step's wall-clock time (it includes the Jacobian's preallocation and, for the direct solver, the
symbolic factorization) and the time per later step (the steady state, used for the ratios); Newton and Krylov iterations per step (with a direct solver a
Krylov iteration is one solve); peak memory per spatial unknown (sum over ranks of each process's peak RSS, divided by
the number of positions; "net" subtracts the size of the processes right after PetscInitialize); for the kink the
max-norm error at the final time. The ratio column is simpson / theta for the same ranks and solver.
Weak-scaling efficiency is t(1 rank) / t(p ranks) for p times the problem.

EOF
  awk -F'|' -v ranks="$ranks" "$awk_get"'
    {
      split($1, lab, "/")
      if (lab[1] != "strong" && lab[1] != "weak") next
      key = $1 SUBSEP $2
      rec[key] = $3
      seen[lab[1] SUBSEP lab[2]] = 1
    }
    END {
      nr = split(ranks, R, " ")
      split("strong weak", modes, " "); split("chain kink", probs, " "); split("krylov direct", solvers, " ")
      for (mi = 1; mi <= 2; mi++) for (pi = 1; pi <= 2; pi++) {
        mode = modes[mi]; prob = probs[pi]
        if (!((mode SUBSEP prob) in seen)) continue
        printf "## %s scaling, %s\n\n", (mode == "strong" ? "Strong" : "Weak"), (prob == "chain" ? "FPU chain" : "sine-Gordon kink")
        hdr = "| ranks | unknowns | TS | solver | first step [s] | time/step [s] | Newton/step | Krylov/step | bytes/unknown (net) |"
        sep = "|---:|---:|---|---|---:|---:|---:|---:|---:|"
        if (prob == "kink") { hdr = hdr " error |"; sep = sep "---:|" }
        hdr = hdr (mode == "strong" ? " speed-up |" : " efficiency |") " simpson/theta |"
        sep = sep "---:|---:|"
        print hdr; print sep
        for (si = 1; si <= 2; si++) for (ri = 1; ri <= nr; ri++) for (ti = 1; ti <= 2; ti++) {
          ts = (ti == 1 ? "simpson" : "theta"); sv = solvers[si]; np = R[ri]
          k = mode "/" prob "/" ts "/" sv SUBSEP np
          if (!(k in rec)) continue
          r = rec[k]
          if (r ~ /^FAILED/) { printf "| %s | | %s | %s | %s |\n", np, ts, sv, r; continue }
          t = get(r, "later_time_per_step")
          k1 = mode "/" prob "/" ts "/" sv SUBSEP R[1]
          t1 = (k1 in rec && rec[k1] !~ /^FAILED/) ? get(rec[k1], "later_time_per_step") : ""
          kt = mode "/" prob "/theta/" sv SUBSEP np
          tt = (kt in rec && rec[kt] !~ /^FAILED/) ? get(rec[kt], "later_time_per_step") : ""
          line = sprintf("| %s | %s | %s | %s | %.3g | %.3g | %.2f | %.2f | %.0f (%.0f) |", np, get(r, "n"), ts, sv, get(r, "first_step_time"), t, get(r, "newton_per_step"), get(r, "krylov_per_step"), get(r, "bytes_per_unknown"), get(r, "net_bytes_per_unknown"))
          if (prob == "kink") line = line sprintf(" %.2e |", get(r, "error"))
          line = line (t1 != "" && t > 0 ? sprintf(" %.2f |", t1 / t) : " |")
          line = line (ts == "simpson" && tt != "" && tt > 0 ? sprintf(" %.2f |", t / tt) : " |")
          print line
        }
        print ""
      }
    }' "$raw"

  echo "## Weak scaling from 1 to 2 ranks, repeated"
  echo
  echo "The weak-scaling runs above are single samples, and this host's speed wanders (the same serial run varies by 20-50 %"
  echo "within minutes). Here, $reps rounds of: the 1-rank run, the 2-rank run of twice the problem, and the 1-rank run started twice"
  echo "at once as independent processes (no MPI between them, only the shared cores, caches and memory system: t(alone) /"
  echo "t(two at once) is the best any 2-rank run of twice the problem can reach on this machine). The rounds are interleaved,"
  echo "so slow spells of the host hit all three alike. Time per later step, best and median over the rounds (two samples per"
  echo "round for the runs at once); efficiency = t(1 rank) / t(2 ranks), machine limit = t(1 rank) / t(two at once), from the best"
  echo "times and, in brackets, from the medians. Solver: krylov."
  echo
  echo "| problem | TS | 1 rank [s] best (median) | 2 ranks [s] best (median) | two at once [s] best (median) | weak efficiency best (median) | machine limit best (median) | Newton/step 1, 2 ranks | Krylov/step 1, 2 ranks |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
  awk -F'|' "$awk_get"'
    function stats(list, out,   n, a, i, j, x) { n = split(list, a, " "); for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > x + 0; j--) a[j + 1] = a[j]; a[j + 1] = x }
      out["min"] = a[1]; out["med"] = (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2); out["n"] = n }
    { split($1, lab, "/") }
    (lab[1] == "rep" || lab[1] == "reppair") && $3 !~ /^FAILED/ {
      k = lab[2] "/" lab[3]; c = (lab[1] == "reppair" ? "pair" : $2)
      t[k, c] = t[k, c] " " get($3, "later_time_per_step"); keys[k] = 1
      if (c != "pair") { newton[k, c] = get($3, "newton_per_step"); krylov[k, c] = get($3, "krylov_per_step") }
    }
    END {
      for (k in keys) {
        split(k, kk, "/")
        stats(t[k, 1], a); stats(t[k, 2], b); stats(t[k, "pair"], p)
        printf "| %s | %s | %.3g (%.3g) | %.3g (%.3g) | %.3g (%.3g) | %.2f (%.2f) | %.2f (%.2f) | %.2f, %.2f | %.2f, %.2f |\n", kk[1], kk[2], a["min"], a["med"], b["min"], b["med"], p["min"], p["med"], a["min"] / b["min"], a["med"] / b["med"], a["min"] / p["min"], a["med"] / p["med"], newton[k, 1], newton[k, 2], krylov[k, 1], krylov[k, 2]
      }
    }' "$raw" | sort
  echo
  echo "## The 10^6-unknown kink on 2 ranks"
  echo
  echo "Refinement sweep on [-L, L], L = $bigL, h = dx/2, to T = $big_T, error in max norm against the exact kink; the"
  echo "finest level has $nbig unknowns. Space is 4th order, Simpson is 4th order in time and Lobatto (degree 3) 6th order,"
  echo "so with h proportional to dx both converge at order 4."
  echo
  echo "| scheme | unknowns | dx | steps | error | observed order | first step [s] | time/step [s] | Newton/step | Krylov/step | bytes/unknown (net) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk -F'|' "$awk_get"'
    $1 ~ /^sweep\// {
      split($1, lab, "/"); r = $3
      if (r ~ /^FAILED/) { printf "| %s | %s |\n", lab[2], r; next }
      o = get(r, "order")
      printf "| %s | %s | %.3g | %s | %.3e | %s | %.3g | %.3g | %.2f | %.2f | %.0f (%.0f) |\n", lab[2], get(r, "n"), get(r, "dx"), get(r, "steps"), get(r, "error"), (o + 0 > 0 ? sprintf("%.2f", o) : ""), get(r, "first_step_time"), get(r, "later_time_per_step"), get(r, "newton_per_step"), get(r, "krylov_per_step"), get(r, "bytes_per_unknown"), get(r, "net_bytes_per_unknown")
    }' "$raw"
  echo
  echo "Peak memory of the finest level alone ($nbig unknowns, 2 ranks, 3 steps), per unknown, by phase: set-up"
  echo "(user data and the TS before the first step), the first step (Jacobian preallocation, first factorization) and the"
  echo "later steps; the target is 1.5 KiB = 1536 bytes per unknown for Simpson."
  echo
  echo "| scheme | solver | unknowns | peak bytes/unknown | net | set-up | first step | later steps | first step [s] | time/step [s] | Krylov/step |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk -F'|' "$awk_get"'
    $1 ~ /^memory\// {
      split($1, lab, "/"); r = $3
      if (r ~ /^FAILED/) { printf "| %s | %s | %s |\n", lab[2], lab[3], r; next }
      printf "| %s | %s | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.3g | %.3g | %.2f |\n", lab[2], (lab[3] == "direct" ? "direct (superlu_dist)" : lab[3]), get(r, "n"), get(r, "bytes_per_unknown"), get(r, "net_bytes_per_unknown"), get(r, "setup_bytes_per_unknown"), get(r, "first_step_bytes_per_unknown"), get(r, "later_steps_bytes_per_unknown"), get(r, "first_step_time"), get(r, "later_time_per_step"), get(r, "krylov_per_step")
    }' "$raw"
  echo
  if [ -f "$here/scaling-notes.md" ]; then
    cat "$here/scaling-notes.md"
    echo
  fi
  echo "## Raw records"
  echo
  echo '```'
  cat "$raw"
  echo '```'
} > "$out"
echo "scaling.sh: wrote $out ($elapsed s)" >&2
