#!/usr/bin/python3 -B
"""PETSc's own ts/tutorials/ex44.c, built unchanged and never linked with simpvi (a bouncing ball on each MPI process,
TSSetI2Function(), an event at u = 0 whose post-event function changes U and V on the process whose ball hit the
ground only), run under `-dll_append libsimpvi.so -ts_type simpvi` on --np processes with a checkpoint at every step
until right after the first bounce of the last process's ball, then restarted from that checkpoint: every ball must
go on bouncing at the exact times. The checkpoint must hold the bounced state on every process.

The run without a restart (every hit at its exact time, with and without drag, on 1 and 2 processes, the stop after
10 bounces, -ts_view) is tests/conformance/ex44_bounce.py's (conformance-ex44-simpson, -lobatto).

ex44 prints "Processor [r]: Ball hit the ground at t = %5.2f seconds" at every bounce of the ball of process r.
Without drag (ex44's default -Cd 0) the bounce times are exact: the ball of process r starts at u = 5 r with
u' = 20 under g = 9.8; the first flight ends at the root of 5 r + 20 t - g t^2 / 2 = 0, every later one lasts
2 v / g, v the speed after the last bounce (Cr = 0.9 times the speed before).

  ex44_bounce.py --exe ex44 --lib libsimpvi.so [--np 2] [--mpiexec mpiexec] [--scheme lobatto] [--tmpdir dir]
                 [--wrap 'valgrind -q --error-exitcode=3'] [-- extra options]

Under --wrap valgrind the restarted run's first step is checked for reads of uninitialized memory: TSSolve() computes
the events' start values only at step 0, and a restart begins at a later step (once, the first step compared them with
whatever the memory held: a spurious bounce in the AddressSanitizer build, whose fresh memory is not zero).

Exit 0 when every check printed "yes"; 1 otherwise.
"""
import argparse
import math
import os
import re
import subprocess
import sys

# not anchored at a line's start: another rank's output may cut into rank 0's (mpiexec passes it on in chunks)
HIT = re.compile(r'Processor \[(\d+)\]: Ball hit the ground at t =\s*(\S+) seconds\s*$', re.M)
G, CR, V0 = 9.8, 0.9, 20.0  # ex44's gravity, restitution (-Cr) and initial velocity
TOL = 1e-2 + 0.005          # the agreement asked for, plus the rounding of %5.2f


def exact_hits(rank, tmax):
  """The exact bounce times of the ball of process rank up to tmax (no drag), at most 100: the flights shrink
  geometrically, so the bounces accumulate at a finite time (near 41 s for process 0)."""
  u0 = 5.0 * rank
  t = (V0 + math.sqrt(V0 * V0 + 2 * G * u0)) / G
  v = math.sqrt(V0 * V0 + 2 * G * u0)  # the speed at the ground
  hits = []
  while t <= tmax and len(hits) < 100:
    hits.append(t)
    v *= CR
    t += 2 * v / G
  return hits


def restart_check(args):
  """A checkpoint at every step (-ts_simpvi_checkpoint_every 1) of a run that stops with the step right after the first
  bounce of the last process's ball (its post-event function changed U there only), then the run restarted from it
  (-ts_simpvi_restart): every ball must go on bouncing at the exact times. The file's "state stored" flag once was
  process 0's alone: the bounced ball then restarted from the momentum before its bounce and never came back."""
  last = args.np - 1
  tbounce = exact_hits(last, 1e3)[0]  # its first bounce
  cp = os.path.join(args.tmpdir, f'ex44_np{args.np}.cp')
  launcher = [args.mpiexec, '-n', str(args.np)] + (['--oversubscribe'] if 'mpiexec' in os.path.basename(args.mpiexec) and args.np > 2 else [])
  base = launcher + [args.exe, '-dll_append', args.lib, '-ts_type', 'simpvi'] + (['-ts_simpvi_type', args.scheme] if args.scheme else []) + args.extra
  first = subprocess.run(base + ['-ts_simpvi_checkpoint', cp, '-ts_simpvi_checkpoint_every', '1', '-ts_max_time', repr(tbounce + 0.01)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=args.timeout)
  wrapped = launcher + args.wrap.split() + base[len(launcher):]
  second = subprocess.run(wrapped + ['-ts_simpvi_restart', cp], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=args.timeout)
  ran = first.returncode == 0 and second.returncode == 0 and os.path.exists(cp)
  print(f'the run to t = {tbounce + 0.01:.4f} checkpointed at every step, then restarted from its last checkpoint: {yes(ran)}')
  if not ran:
    print('\n'.join(line for line in (first.stdout + second.stdout).splitlines() if 'Configure options' not in line)[-3000:])
    return False
  hits = {}
  for rank, t in HIT.findall(second.stdout):
    hits.setdefault(int(rank), []).append(float(t))
  tmax = max((t for ts in hits.values() for t in ts), default=0)
  ok = True
  for rank in range(args.np):
    # the bounces after the restart, away from the run's end (a bounce within 0.05 of it may or may not be printed)
    s = [t for t in hits.get(rank, []) if t <= tmax - 0.05]
    e = [t for t in exact_hits(rank, tmax - 0.05) if t > tbounce + TOL]
    good = len(s) == len(e) and len(s) > 0 and all(abs(x - y) <= TOL for x, y in zip(s, e))
    print(f'  process {rank}: after the restart its ball bounces at the exact times to 1e-2 ({len(s)} bounces): {yes(good)}')
    if not good:
      print(f'  simpvi {hits.get(rank, [])}\n  exact  {[round(x, 4) for x in e]}')
    ok = ok and good
  return ok


def yes(flag):
  return 'yes' if flag else 'no'


def main():
  parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  parser.add_argument('--exe', required=True, help='ex44 built from PETSc\'s installed ts/tutorials/ex44.c')
  parser.add_argument('--lib', required=True, help='libsimpvi.so, given to -dll_append')
  parser.add_argument('--np', type=int, default=2, help='MPI processes (one ball each)')
  parser.add_argument('--mpiexec', default='mpiexec')
  parser.add_argument('--scheme', default=None, help='-ts_simpvi_type (default: simpvi\'s)')
  parser.add_argument('--timeout', type=float, default=100, help='seconds per run')
  parser.add_argument('--tmpdir', default='.', help='where the checkpoint is written')
  parser.add_argument('--wrap', default='', help='a command the restarted run goes under (e.g. valgrind and its options)')
  parser.add_argument('extra', nargs='*', help='more ex44 options, after --')
  args = parser.parse_args()
  args.exe, args.lib = os.path.abspath(args.exe), os.path.abspath(args.lib)

  print(f'ex44 on {args.np} process(es) under simpvi{" " + args.scheme if args.scheme else ""}: checkpoint right after a bounce, restart')
  try:
    ok = restart_check(args)
  except subprocess.TimeoutExpired:
    print(f'the runs ended: no (timed out after {args.timeout:g} s)')
    ok = False
  print('PASS' if ok else 'FAIL')
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())
