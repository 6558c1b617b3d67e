#!/usr/bin/env bash
# MPI-parallel parameter studies with examples/sweep.c (issue 4), in one command:
#   1. the double pendulum's time-to-first-flip map, 256 x 256 initial angles, on 2 ranks -> CSV, docs/img/flip-map.png;
#      the grid's tasks are the members of one SimpVIEnsemble (simpvi.h), dealt out to the ranks on request; its wall
#      time and the ranks' busy shares (the ensemble's view) are printed
#   2. the same command on 1 rank must give a byte-identical CSV (cmp); with SWEEP_OLD_CSV=<file> also compared (cmp
#      and row by row) with an older map of the same grid
#   2b. side by side on a 64 x 64 map: one TS per task (-flip_ensemble 0) against the ensemble, the times and the rows
#      compared
#   3. a step-size check of the map (32 x 32, T = 100, dt and dt/2)
#   4. the convergence sweep (midpoint, simpson, lobatto x 25..400 steps per period) on 2 and 1 ranks (cmp)
#   5. docs/sweeps.md summarising all of it, with the commands and timings.
# Usage: bash examples/sweep.sh [build dir, default build]
# Environment: SWEEP_NP (ranks, 2), SWEEP_GRID (256), SWEEP_CHECK_GRID (the 1-rank identity check, default the full
# grid), SWEEP_TS_GRID (64, the side-by-side grid), SWEEP_TMAX (1000, in sqrt(l/g)), SWEEP_DT (0.1, in sqrt(l/g)),
# SWEEP_REUSE=1 (keep the runs whose CSV, log and time are already in <build dir>/sweeps/: only redraws the picture and
# rewrites the page), SWEEP_OLD_CSV (an older map's CSV, same options and grid, to compare with).
# CSV files, logs and wall times go to <build dir>/sweeps/.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
EXE=$B/examples/sweep
OUT=$B/sweeps
NP=${SWEEP_NP:-2}
GRID=${SWEEP_GRID:-256}
CHECKGRID=${SWEEP_CHECK_GRID:-$GRID}
TSGRID=${SWEEP_TS_GRID:-64}
TMAX=${SWEEP_TMAX:-1000}
DT=${SWEEP_DT:-0.1}
PY=${SWEEP_PYTHON:-/usr/bin/python3} # Debian's Python, with numpy and matplotlib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$OUT" docs/img
[ -x "$EXE" ] || { echo "no $EXE: build first (cmake --build $B)" >&2; exit 1; }

FLIP="-study flip -flip_tmax $TMAX -flip_dt $DT -ts_simpvi_type simpson"
CONV="-study convergence -schemes midpoint,simpson,lobatto -meshes 25,50,100,200,400"

# run <log> <ranks> <args...>: the program's stdout to <log>.txt, its progress (stderr) to <log>.err and the terminal,
# the wall time in seconds to <log>.time and stdout, the machine's load average (1 minute) at the start to <log>.load
run() {
  local log=$1 np=$2 t0 t1
  shift 2
  if [ "${SWEEP_REUSE:-0}" = 1 ] && [ -s "$OUT/$log.txt" ] && [ -s "$OUT/$log.time" ]; then
    echo "+ (reused $OUT/$log.*) mpiexec -n $np $EXE $*" >&2
  else
    echo "+ mpiexec -n $np $EXE $*" >&2
    cut -d' ' -f1 /proc/loadavg > "$OUT/$log.load"
    t0=$(date +%s.%N)
    mpiexec -n "$np" "$EXE" "$@" > "$OUT/$log.txt" 2> >(tee "$OUT/$log.err" >&2)
    t1=$(date +%s.%N)
    "$PY" -c "print('%.0f' % ($t1 - $t0))" > "$OUT/$log.time"
  fi
  cat "$OUT/$log.time"
}

# 1. the map; the ensemble's view (stderr) gives the ranks' busy shares
t_map=$(run flip-$GRID-np$NP "$NP" $FLIP -grid "$GRID" -sweep_csv "$OUT/flip-$GRID-np$NP.csv")
cat "$OUT/flip-$GRID-np$NP.txt"
busy=$(sed -n 's/.*Processes: [0-9]*, busy \([0-9.]*\) % .*least busy \([0-9.]*\) %.*/\1 % on average, least busy \2 %/p' "$OUT/flip-$GRID-np$NP.err")
least=$(sed -n 's/.*least busy \([0-9.]*\) %.*/\1/p' "$OUT/flip-$GRID-np$NP.err")
busy="$busy (every rank at least 95 % busy: $("$PY" -c "print('yes' if ${least:-0} >= 95 else 'no')"))"
echo "flip map $GRID x $GRID on $NP ranks: wall time $t_map s (load average $(cat "$OUT/flip-$GRID-np$NP.load" 2> /dev/null || echo unknown) at the start); ranks busy ${busy:-unknown}"

# 2. the same command with 1 rank: identical CSV
if [ "$CHECKGRID" = "$GRID" ]; then
  t_chk=$t_map
else
  t_chk=$(run flip-$CHECKGRID-np$NP "$NP" $FLIP -grid "$CHECKGRID" -sweep_csv "$OUT/flip-$CHECKGRID-np$NP.csv")
fi
t_ser=$(run flip-$CHECKGRID-np1 1 $FLIP -grid "$CHECKGRID" -sweep_csv "$OUT/flip-$CHECKGRID-np1.csv")
if cmp "$OUT/flip-$CHECKGRID-np$NP.csv" "$OUT/flip-$CHECKGRID-np1.csv"; then flipsame="identical (cmp: no difference)"; else flipsame="DIFFERENT"; fi
echo "flip map $CHECKGRID x $CHECKGRID, $NP ranks vs 1 rank: $flipsame"

# 2'. against an older map of the same grid and options (SWEEP_OLD_CSV)
if [ -n "${SWEEP_OLD_CSV:-}" ]; then
  if cmp -s "$SWEEP_OLD_CSV" "$OUT/flip-$GRID-np$NP.csv"; then oldsame="identical (cmp: no difference)"; else oldsame="not identical"; fi
  oldcompare=$("$PY" - "$SWEEP_OLD_CSV" "$OUT/flip-$GRID-np$NP.csv" << 'EOF'
import csv, sys
a, b = ([r for r in csv.DictReader(open(f))] for f in sys.argv[1:3])
assert len(a) == len(b), 'not the same grid'
run = [(x, y) for x, y in zip(a, b) if x['status'] != '2']
row = lambda r: tuple(r[c] for c in ('status', 'which', 'steps', 't_flip', 'energy_err'))
same = sum(row(x) == row(y) for x, y in run)
step = sum((x['status'], x['which'], x['steps']) == (y['status'], y['which'], y['steps']) for x, y in run)
its = sum(x['newton_its'] == y['newton_its'] for x, y in run)
print('%d of %d integrated pixels have the same row but for the Newton iterations (status, first angle, flip step, flip '
      'time, energy error; %.1f %%), %d more the same flip step, %d another; the same Newton iterations in %d'
      % (same, len(run), 100.0 * same / len(run), step - same, len(run) - step, its))
EOF
  )
  echo "flip map $GRID x $GRID against $SWEEP_OLD_CSV: $oldsame; $oldcompare"
fi

# 2b. side by side: one TS per task (the work queue) and the ensemble, on the same smaller map
t_tsq=$(run flip-$TSGRID-np$NP-ts "$NP" $FLIP -grid "$TSGRID" -sweep_csv "$OUT/flip-$TSGRID-np$NP-ts.csv" -flip_ensemble 0)
t_ens=$(run flip-$TSGRID-np$NP "$NP" $FLIP -grid "$TSGRID" -sweep_csv "$OUT/flip-$TSGRID-np$NP.csv")
tscompare=$("$PY" - "$OUT/flip-$TSGRID-np$NP-ts.csv" "$OUT/flip-$TSGRID-np$NP.csv" << 'EOF'
import csv, sys
a, b = ([r for r in csv.DictReader(open(f))] for f in sys.argv[1:3])
run = [(x, y) for x, y in zip(a, b) if x['status'] != '2']
row = lambda r: tuple(r[c] for c in ('status', 'which', 'steps', 't_flip', 'energy_err'))
key = lambda r: (r['status'], r['which'], r['steps'])
same = sum(row(x) == row(y) for x, y in run)
step = sum(key(x) == key(y) for x, y in run)
its = sum(x['newton_its'] == y['newton_its'] for x, y in run)
print('%d of %d integrated pixels have the same row (status, first angle, flip step, flip time, energy error; %.1f %%), '
      '%d more the same flip step, %d another; the same total of Newton iterations in %d pixels'
      % (same, len(run), 100.0 * same / len(run), step - same, len(run) - step, its))
EOF
)
cpu_tsq=$(sed -n 's/.*cpu \([0-9.]*\) s over all ranks.*/\1/p' "$OUT/flip-$TSGRID-np$NP-ts.err")
cpu_ens=$(sed -n 's/.*cpu \([0-9.]*\) s over all ranks.*/\1/p' "$OUT/flip-$TSGRID-np$NP.err")
cpuratio=$("$PY" -c "print('%.0f' % ($cpu_tsq / $cpu_ens))")
echo "side by side $TSGRID x $TSGRID: one TS per task $t_tsq s (cpu $cpu_tsq s), ensemble $t_ens s (cpu $cpu_ens s); $tscompare"

# 3. step-size check: the decade of the flip time with dt and dt/2, T = 100
DT2=$("$PY" -c "print($DT / 2)")
t_dt=$(run flip-dt1 "$NP" -study flip -flip_tmax 100 -flip_dt "$DT" -grid 32 -sweep_csv "$OUT/flip-dt1.csv" -sweep_progress 0)
t_dt2=$(run flip-dt2 "$NP" -study flip -flip_tmax 100 -flip_dt "$DT2" -grid 32 -sweep_csv "$OUT/flip-dt2.csv" -sweep_progress 0)
dtcheck=$("$PY" - "$OUT/flip-dt1.csv" "$OUT/flip-dt2.csv" << 'EOF'
import csv, math, sys
a, b = ([r for r in csv.DictReader(open(f))] for f in sys.argv[1:3])
def decade(r):
    t = float(r['t_flip'])
    return -1 if t < 0 else int(math.floor(math.log10(t)))
run = [(x, y) for x, y in zip(a, b) if x['status'] != '2']
same = sum(decade(x) == decade(y) for x, y in run)
short = [abs(float(x['t_flip']) - float(y['t_flip'])) for x, y in run if 0 < float(y['t_flip']) < 10 and float(x['t_flip']) > 0]
print('%d of %d integrated pixels keep their decade of flip time (%.1f %%); flips before 10 sqrt(l/g): max |t(dt) - t(dt/2)| = %.1e sqrt(l/g) over %d pixels'
      % (same, len(run), 100.0 * same / len(run), max(short), len(short)))
EOF
)
echo "step-size check: $dtcheck"

# 4. the convergence sweep, 2 ranks and 1 rank
t_conv=$(run convergence-np$NP "$NP" $CONV -sweep_csv "$OUT/convergence-np$NP.csv")
run convergence-np1 1 $CONV -sweep_csv "$OUT/convergence-np1.csv" -sweep_progress 0 > /dev/null
if cmp "$OUT/convergence-np$NP.csv" "$OUT/convergence-np1.csv"; then convsame="identical (cmp: no difference)"; else convsame="DIFFERENT"; fi
cat "$OUT/convergence-np$NP.txt"

# the picture
"$PY" - "$OUT/flip-$GRID-np$NP.csv" docs/img/flip-map.png "$TMAX" << 'EOF'
import sys
import numpy as np
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
from matplotlib.colors import LogNorm, ListedColormap

d = np.genfromtxt(sys.argv[1], delimiter=',', names=True, dtype=None, encoding=None)
n = int(d['i'].max()) + 1
tmax = float(sys.argv[3])
t = np.full((n, n), np.nan)
st = np.zeros((n, n), dtype=int)
t[d['j'], d['i']] = np.where(d['status'] == 1, d['t_flip'], np.nan)
st[d['j'], d['i']] = d['status']
fig, ax = plt.subplots(figsize=(7.6, 6.4), dpi=150)
ext = [-np.pi, np.pi, -np.pi, np.pi]
bg = np.where(st == 2, 0, np.where(st == 0, 1, np.nan))  # forbidden: grey, no flip before tmax: white
ax.imshow(bg, origin='lower', extent=ext, cmap=ListedColormap(['0.8', 'white']), vmin=0, vmax=1, interpolation='nearest')
vmin = 10.0 ** np.floor(np.log10(np.nanmin(t))) if np.any(np.isfinite(t)) else 0.1
im = ax.imshow(t, origin='lower', extent=ext, cmap='turbo', norm=LogNorm(vmin=vmin, vmax=tmax), interpolation='nearest')
g = np.linspace(-np.pi, np.pi, 801)
G1, G2 = np.meshgrid(g, g)
ax.contour(G1, G2, 2 * np.cos(G1) + np.cos(G2), levels=[1], colors='k', linewidths=0.6)
cb = fig.colorbar(im, ax=ax)
cb.set_label(r'time to first flip / $\sqrt{l/g}$')
ax.set_xlabel(r'$\theta_1(0)$')
ax.set_ylabel(r'$\theta_2(0)$')
ticks = [-np.pi, -np.pi / 2, 0, np.pi / 2, np.pi]
labels = [r'$-\pi$', r'$-\pi/2$', '0', r'$\pi/2$', r'$\pi$']
ax.set_xticks(ticks, labels)
ax.set_yticks(ticks, labels)
ax.set_title('Double pendulum (m1 = m2, l1 = l2), released at rest: time to first flip\n'
             'white: no flip before %g $\\sqrt{l/g}$; grey: energy forbids a flip (2 cos $\\theta_1$ + cos $\\theta_2$ > 1)' % tmax, fontsize=9)
fig.tight_layout()
fig.savefig(sys.argv[2])
print('wrote', sys.argv[2])
EOF

# 5. docs/sweeps.md
convtable=$("$PY" - "$OUT/convergence-np$NP.csv" << 'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print('| scheme | order | steps per period | max error p | max error q | max rel. error H | Newton its |')
print('|---|---|---|---|---|---|---|')
for r in rows:
    print('| %s | %s | %s | %.3e | %.3e | %.3e | %s |' % (r['scheme'], r['order'], r['steps_per_period'], float(r['err_p']), float(r['err_q']), float(r['err_H_rel']), r['newton_its']))
EOF
)
balance() { grep -E "^sweep: (group|wall|[0-9]+ runs)|SimpVIEnsemble Object|^  (Members|Steps|Processes)|^    \[[0-9]+\] .* members" "$OUT/$1.err" | sed 's/^/    /'; }
load() { cat "$OUT/$1.load" 2> /dev/null || echo unknown; }
{
  echo "# Parameter studies on MPI ranks: the flip map and the convergence sweep"
  echo
  echo "Generated by \`$( [ -n "${SWEEP_OLD_CSV:-}" ] && echo "SWEEP_OLD_CSV=$SWEEP_OLD_CSV ")bash examples/sweep.sh\` (this page, \`img/flip-map.png\` and the CSV files in \`build/sweeps/\`); do not edit."
  echo "The program is \`examples/sweep.c\`. The flip map is a study of many small systems: the grid's tasks are the members"
  echo "of **one \`SimpVIEnsemble\`** (the library's parameter-study object, [ensemble.md](ensemble.md); the program needs only"
  echo "\`simpvi.h\`), whose processes take members from a shared counter as their batches empty, and every process gets all"
  echo "results in member order, so rank 0 writes a CSV file that does not depend on the number of ranks. The convergence"
  echo "sweep (and the flip map with \`-flip_ensemble 0\`) runs one \`TSSIMPVI\` per task instead: \`PETSC_COMM_WORLD\` is split"
  echo "into run communicators of \`-sweep_ranks_per_run\` ranks (default 1) and rank 0 hands out the tasks as a work queue (it"
  echo "answers the other ranks' requests by MPI messages between its own time steps, so it computes too);"
  echo "\`-sweep_schedule static\` replaces the queue by a cyclic split. Progress lines go to stderr every 10 %."
  echo
  echo "## The flip map as a SimpVIEnsemble"
  echo
  echo "The study gives the ensemble four functions on plain arrays (\`examples/sweep.c\`, \`FlipStudyRun()\`): a member"
  echo "function (member k is the k-th integrated task, at rest at its grid point), the double pendulum's pointwise mechanics"
  echo "(P = M v, G = g − ∇V and their derivatives at all quadrature points of a batch), a stop function (after each step: the"
  echo "energy error, and the first flip ends the member's run) and an output function (the flip's angle and time, the energy"
  echo "error); the scheme and steps are those of a \`TSSIMPVI\` set from the options (\`-ts_simpvi_type\`, \`-snes_rtol\`, ...)."
  echo "Energetically forbidden pixels are not members. \`-ensemble_batch\`, \`-ensemble_chunk\` and \`-ensemble_view\` are the"
  echo "ensemble's options."
  echo
  echo "Each member takes the steps a lone \`TSSIMPVI\` run of its task by Newton (\`-ts_simpvi_lag_jacobian false\`) through"
  echo "\`TSSimpVISetPointwiseLagrangian()\` with the same mechanics takes, bit for bit, whatever the batch, the chunks and the"
  echo "number of ranks. The tests check it: \`examples-sweep_flip\` (1, 2, 3 ranks; \`examples-sweep_flip_batch\` with batches"
  echo "of 5 and chunks of 2, \`examples-sweep_flip_schemes\` with Lobatto and Gauss of degree 3, \`examples-sweep_flip_failures\`"
  echo "with members whose Newton fails) rerun every task alone so and compare every number of its row with \`==\`"
  echo "(\`-sweep_check_serial\`); against a run of each task alone through the mass door (\`TSSimpVISetMass()\`, other"
  echo "code for the same mechanics) the members agree to 1e-12 after 20 steps (\`-flip_check_ts 20\`), and the pointwise"
  echo "mechanics' step Jacobian matches finite differences (\`-flip_check_jacobian\`). \`examples-sweep_csv\` compares the CSV"
  echo "files of 1 rank, 2 ranks and 2 ranks with batches of 7 with \`cmp\`."
  echo
  echo "## The command"
  echo
  echo '```'
  echo "mpiexec -n $NP $EXE $FLIP -grid $GRID -sweep_csv $OUT/flip-$GRID-np$NP.csv"
  echo '```'
  echo
  echo "## Time to first flip of the double pendulum"
  echo
  echo "![flip map](img/flip-map.png)"
  echo
  echo "Two equal pendulums (m1 = m2 = 1 kg, l1 = l2 = l = 1 m, g = 9.81 m/s²) are released at rest from (θ1, θ2) at the"
  echo "centres of a $GRID × $GRID grid of [−π, π]². Their Lagrangian has the configuration-dependent mass"
  echo "M(θ) = l² [[2, cos(θ1 − θ2)], [cos(θ1 − θ2), 1]]: the ensemble's members get P = M v, G = ½ vᵀ(∂M/∂θ)v − ∇V and"
  echo "their derivatives pointwise, one TS per task (\`-flip_ensemble 0\`) gives M to \`TSSimpVISetMass()\` with its derivatives"
  echo "Mx, Mxx (both step Jacobians match finite differences: the test \`examples-sweep_flip\` checks them in-program and"
  echo "\`examples-sweep_flip_snes_test_jacobian\` the mass door's with \`-snes_test_jacobian\`). A flip is an angle passing ±π,"
  echo "detected after each step; its time is interpolated linearly between the two steps. Colour: flip time in units of"
  echo "√(l/g), log scale."
  echo
  echo "Choices:"
  echo
  echo "- **Scheme and step**: Simpson (order 4) with h = $DT √(l/g). The step-size check below (h against h/2) shows that"
  echo "  the map is converged except in the chaotic pixels, where no finite step gives the true long flip time anyway."
  echo "- **T_max = $TMAX √(l/g)** (the classic pictures go to 10⁴ √(l/g)); pixels still unflipped at T_max are white."
  echo "- **Energy**: the variational scheme keeps the energy error bounded, without drift; with this step it stays below"
  echo "  about 1e-2 m g l (on an energy range of 6 m g l), the tolerance \`-flip_energy_tol 2e-2\` of the verdict below; a"
  echo "  wrong mass derivative would show errors of order one."
  echo "- **Energy-forbidden pixels are not integrated**: released at rest, θ2 can reach π only if 2 cos θ1 + cos θ2 ≤ 1"
  echo "  and θ1 only if it is ≤ −1, so beyond the black curve no flip can ever happen (grey, status 2 in the CSV;"
  echo "  \`-flip_skip_forbidden 0\` integrates them too, at 10⁴ steps each). This is a third of the grid and would otherwise"
  echo "  cost more than everything else together. Every integrated run stops at its flip."
  echo
  echo "What the program printed:"
  echo
  echo '```'
  cat "$OUT/flip-$GRID-np$NP.txt"
  echo '```'
  echo
  echo "**Wall time $t_map s on $NP ranks**; ranks busy ${busy:-unknown}. $(getconf _NPROCESSORS_ONLN) cores; the machine's load"
  echo "average was $(load flip-$GRID-np$NP) at the start: on a shared machine the CPU times are the better measure. The ensemble's"
  echo "view and the processes' CPU time (stderr; a process is busy from the start of the solve until its last member ends,"
  echo "against the slowest):"
  echo
  balance "flip-$GRID-np$NP"
  echo
  echo "**Same CSV on 1 rank**: the $CHECKGRID × $CHECKGRID map with the same options, on $NP ranks (${t_chk} s) and on 1 rank (${t_ser} s):"
  echo "$flipsame."
  echo
  cpu1=$(sed -n 's/.*cpu \([0-9.]*\) s over all ranks.*/\1/p' "$OUT/flip-$CHECKGRID-np1.err")
  if [ -n "$cpu1" ]; then
    echo "The 1-rank run used $cpu1 s of CPU time for the $CHECKGRID × $CHECKGRID map: on $NP dedicated cores the ensemble"
    echo "needs about $("$PY" -c "print('%.0f' % ($cpu1 / $NP))") s."
    echo
  fi
  if [ -n "${SWEEP_OLD_CSV:-}" ]; then
    echo "**Against the map before the library's ensemble** (the same command with \`examples/ensemble.h\`, a header that"
    echo "wrote the step again on a batched \`SNES\`, removed since; its CSV \`$(basename "$SWEEP_OLD_CSV")\`): $oldsame. $oldcompare."
    echo "Both are Newton's iteration to the same tolerances, with other linear algebra and another count of iterations, so"
    echo "round-off differs; the rows that differ are chaotic pixels, where it grows until the flip moves."
    echo
  fi
  echo "**Against the old map** (examples/ensemble.h's, before the library's ensemble): [sweeps-oldmap.md](sweeps-oldmap.md),"
  echo "written by \`bash examples/sweep_oldmap.sh\`, compares the two maps pixel by pixel and each with itself after a change"
  echo "of g by one unit in the last place: the pixels where they differ are those that round-off moves."
  echo
  echo "**One TS per task against the ensemble**, side by side on the $TSGRID × $TSGRID map with the same options on $NP ranks:"
  echo "one \`TSSIMPVI\` per task (mass door, default options: simplified Newton) through the work queue (\`-flip_ensemble 0\`)"
  echo "took $t_tsq s (CPU $cpu_tsq s over all ranks, load average $(load flip-$TSGRID-np$NP-ts) at its start), the ensemble"
  echo "$t_ens s (CPU $cpu_ens s, load average $(load flip-$TSGRID-np$NP)): **$cpuratio× less CPU time**. The rows: $tscompare."
  echo "The rows that differ are chaotic pixels, where round-off (other mechanics code, simplified Newton's iterates) grows"
  echo "until the flip moves."
  echo
  echo "**Step-size check** (32 × 32, T_max = 100 √(l/g), h = $DT and $DT2 √(l/g)): $dtcheck."
  echo
  echo "CSV columns: \`task,i,j,theta1,theta2,status,which,steps,t_flip,energy_err,newton_its\` with status 1 = flipped"
  echo "(\`which\` angle first, at \`t_flip\` √(l/g) after \`steps\` steps), 0 = no flip before T_max (t_flip −1), 2 ="
  echo "energetically forbidden (not integrated), −1 = a step's Newton solve failed; \`energy_err\` = max |H − H0| / (m g l)."
  echo
  echo "## Convergence sweep (the seeds' pendulum tables)"
  echo
  echo '```'
  echo "mpiexec -n $NP $EXE $CONV -sweep_csv $OUT/convergence-np$NP.csv"
  echo '```'
  echo
  echo "Nonlinear pendulum, ω = 2π, θ0 = π/2, one period T = 4K(sin²(π/4))/ω = 1.180341 s, errors are maxima over all steps"
  echo "against the exact solution by Jacobi elliptic functions (GSL), energy error relative to H0; as in FVCA 2023 Table 1"
  echo "(midpoint = Newmark) and the Lobatto slides p. 35. $NP ranks, $t_conv s; the CSV on 1 rank is $convsame."
  echo
  echo "$convtable"
  echo
  echo "Orders fitted by least squares over the meshes whose error is above 1e-12 (below that, round-off; Lobatto reaches it"
  echo "at 200 steps):"
  echo
  echo '```'
  grep -E "fitted|observed" "$OUT/convergence-np$NP.txt"
  echo '```'
  echo
  echo "## Several ranks per run"
  echo
  echo "\`-sweep_ranks_per_run k\` gives every run a communicator of k ranks (the positions are split over them, user matrices"
  echo "are parallel dense, the step system is solved by SuperLU_DIST). It is meant for large systems; for these 1- and"
  echo "2-degree-of-freedom problems it only adds communication. The tests \`examples-sweep_convergence_ranks_per_run\` and"
  echo "\`examples-sweep_flip_ranks_per_run\` run both studies with k = 2 (the flip study used to hang in the first step"
  echo "Jacobian's assembly of a run, before the library created the step DM's DMSNES eagerly)."
} > docs/sweeps.md.tmp
mv docs/sweeps.md.tmp docs/sweeps.md
echo "wrote docs/sweeps.md and docs/img/flip-map.png; CSV files in $OUT/"
[ "$flipsame" != DIFFERENT ] && [ "$convsame" != DIFFERENT ]
