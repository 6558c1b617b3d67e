#!/usr/bin/python3 -B
"""PETSc's own ts/tutorials/ex44.c (a bouncing ball for TSALPHA2: TSSetI2Function(), an event at u = 0 whose
PostEvent sets u = 0 and v = -Cr v through TS2GetSolution(), a stop after 10 bounces), built unchanged and never
linked with simpvi, run with `-dll_append libsimpvi.so -ts_type simpvi -ts_simpvi_type <scheme>`.

Each rank throws its own ball (u0 = 5 * rank, v0 = 20) under u'' = -9.8 - Cd/2 v|v|. The hit times have a closed
form (a parabola for Cd = 0; tan/tanh arcs with drag), so every printed "Ball hit the ground at t = %5.2f" must be
the exact time to its printed precision: rank 0 hits 10 times and says "Ball bounced 10 times", the other rank's
hits are the exact ones up to rank 0's last. On 1 rank, the time of the -ts_monitor step that ends at each hit
(PETSc's event location cuts a step there; %g, 6 digits) must be the exact one to --tol-monitor. Those times are
off by 6e-5 with Cd = 0 (alpha2 and simpvi alike) and by 2.3e-4 with drag (the same for both schemes, at half the
step and on the SNES path: event location rather than the integrator); alpha2 with drag, by 2e-3. Runs Cd = 0 and
--drag on each number of ranks given; alpha2 (the type ex44 was written for) runs the Cd = 0 case too, as a check
of this script (not with --no-reference).

  ex44_bounce.py --exe ex44 --lib libsimpvi.so --mpiexec mpiexec --scheme simpson [--ranks 1 2] [--drag 0.05] [--no-reference]
"""
import argparse
import math
import re
import sys

from petscrun import RunError, run, yes

MONITOR = re.compile(r'^\s*\d+ TS dt \S+ time (\S+)\s*$')
# not anchored at a line's start: on 2 ranks mpiexec passes each rank's output on in chunks, and rank 0's fully
# buffered -ts_monitor lines are cut at 4 KiB, so another rank's line may land in the middle of one of them
HIT = re.compile(r'Processor \[(\d+)\]: Ball hit the ground at t =\s*(\S+) seconds')
BOUNCED = re.compile(r'Processor \[0\]: Ball bounced (\d+) times')
G, CR, MAXBOUNCES = 9.8, 0.9, 10


def exact_hits(u0, v0, cd, until):
  """Exact hit times of ex44's ball from (u0, v0 > 0), up to `until`."""
  k, t, hits = 0.5 * cd, 0.0, []
  while len(hits) < 100:
    if k == 0:
      vi = math.sqrt(v0 * v0 + 2 * G * u0)
      s = (v0 + vi) / G
    else:  # up: v' = -g - k v^2 to the top; down: v' = -g + k v^2 from the top to u = 0
      a, b = math.sqrt(G / k), math.sqrt(G * k)
      up = math.atan(v0 / a) / b
      top = u0 + math.log(1 + k * v0 * v0 / G) / (2 * k)
      down = math.acosh(math.exp(k * top)) / b
      s, vi = up + down, a * math.tanh(b * down)
    if t + s > until:
      break
    t += s
    hits.append(t)
    u0, v0 = 0.0, CR * vi
  return hits


def monitor_hits(text):
  """On 1 rank: the time of the last -ts_monitor step before each hit line."""
  times, last = [], None
  for line in text.splitlines():
    m = MONITOR.match(line)
    if m:
      last = float(m.group(1))
    elif HIT.match(line) and last is not None:
      times.append(last)
  return times


def check(text, ranks, cd, tol, tol_monitor):
  """(ok, message): the printed hits of every rank against the exact ones."""
  hits = {}
  for rank, t in HIT.findall(text):
    hits.setdefault(int(rank), []).append(float(t))
  bounced = BOUNCED.findall(text)
  mine = hits.get(0, [])
  if len(mine) != MAXBOUNCES or not bounced or int(bounced[0]) != MAXBOUNCES:
    return False, f'rank 0 hit {len(mine)} times and said bounced {bounced or "nothing"}, not {MAXBOUNCES}'
  last = exact_hits(0.0, 20.0, cd, math.inf)[MAXBOUNCES - 1]
  worst = 0.0
  for rank in range(ranks):
    want = exact_hits(5.0 * rank, 20.0, cd, last + tol)
    got = hits.get(rank, [])
    if rank > 0 and abs(want[-1] - last) < tol:  # a hit of this ball at rank 0's last: either way is right
      want = want[:len(got)] if len(got) in (len(want), len(want) - 1) else want
    if len(got) != len(want):
      return False, f'rank {rank} hit {len(got)} times ({got}), the exact ball {len(want)} times ({[round(w, 4) for w in want]})'
    worst = max([worst] + [abs(a - b) for a, b in zip(got, want)])
  msg = f'largest difference {worst:.4f} (allowed {tol:g})'
  if ranks > 1:
    return worst <= tol, msg
  times = monitor_hits(text)
  want = exact_hits(0.0, 20.0, cd, math.inf)[:MAXBOUNCES]
  if len(times) != len(want):
    return False, msg + f'; {len(times)} -ts_monitor steps end at a hit, not {len(want)}'
  worst_monitor = max(abs(a - b) for a, b in zip(times, want))
  msg += f'; at the -ts_monitor steps {worst_monitor:.2g} (allowed {tol_monitor:g})'
  return worst <= tol and worst_monitor <= tol_monitor, msg


def main():
  parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  parser.add_argument('--exe', required=True)
  parser.add_argument('--lib', required=True)
  parser.add_argument('--mpiexec', default='mpiexec')
  parser.add_argument('--scheme', required=True)
  parser.add_argument('--ranks', type=int, nargs='+', default=[1, 2])
  parser.add_argument('--drag', type=float, default=0.05, help='the Cd of the second case')
  parser.add_argument('--tol', type=float, default=0.006, help='printed %%5.2f: half a unit in its last place and a little')
  parser.add_argument('--tol-monitor', type=float, default=1e-3, help='the hit times from -ts_monitor (1 rank)')
  parser.add_argument('--no-reference', action='store_true', help='leave out the alpha2 runs (another test runs them)')
  parser.add_argument('--snes-type', help='the step\'s SNES type (-snes_type), for the simpvi runs')
  args = parser.parse_args()

  simpvi = ['-dll_append', args.lib, '-ts_type', 'simpvi', '-ts_simpvi_type', args.scheme, '-ts_view']
  if args.snes_type:
    simpvi += ['-snes_type', args.snes_type]
  cases = [] if args.no_reference else [('alpha2', [], 1, 0.0), ('alpha2', [], max(args.ranks), 0.0)]
  cases += [(f'simpvi {args.scheme}', simpvi, r, cd) for r in args.ranks for cd in (0.0, args.drag)]
  ok = True
  for what, opts, ranks, cd in cases:
    label = f'{what}{" " + args.snes_type if args.snes_type and opts else ""} Cd = {cd:g} on {ranks} rank{"s" if ranks > 1 else ""}'
    try:
      text, _ = run([args.exe, '-ts_max_time', '50', '-Cd', repr(cd), '-ts_monitor'] + opts, ranks=ranks, mpiexec=args.mpiexec)
    except RunError as e:
      print(f'{label} ran: no\n{e}')
      ok = False
      continue
    good, msg = check(text, ranks, cd, args.tol, args.tol_monitor)
    if opts:  # the program really ran under simpvi
      viewed = re.search(r'^\s*type: simpvi\s*$', text, re.M) is not None
      good = good and viewed
      msg += f'; -ts_view shows type simpvi: {yes(viewed)}'
    print(f'{label}: every hit at the exact time: {yes(good)} ({msg})')
    ok = ok and good
  print('PASS' if ok else 'FAIL')
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())
