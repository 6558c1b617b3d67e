#!/usr/bin/python3 -B
"""PETSc's own ts/tutorials/ex43.c, built unchanged and never linked with simpvi, run with
`-dll_append libsimpvi.so -ts_type simpvi`: the observed order of the final error must be the scheme's.

ex43 is a single-DOF oscillator u'' + 2 xi omega u' + omega^2 u = 0 (u(0) = 1, v(0) = 0, omega = 1), given as
an IFunction on (U, A) without damping and through TSSetI2Function() with -damping xi. It sets its exact
solution, so -ts_monitor_error prints "2-norm of error %g" after each step; -ts_monitor gives the step count
and time. The program runs at each number of steps N to the same final time T with dt = T/N and
-ts_exact_final_time matchstep; the last error of each run gives the observed orders log2(e_N / e_2N).

The default T = 5 pi/2 is deliberate: at a whole period (T = 2 pi) the phase error of a variational
integrator hits u = cos(t) where it is flat, so the error in u is the square of the phase error and the
observed order doubles (8 for simpson: 2.27e-10, 8.83e-13 at N = 20, 40). At T = 5 pi/2 the error is
first order in the phase error.

  ex43_order.py --exe ex43 --lib libsimpvi.so --scheme simpson --order 4 [--steps 20 40 80]
                [--final-time T] [--tol 0.3] [-- extra ex43 options, e.g. -damping 0.1]

Exit 0 when ex43 ran every time, -ts_view names simpvi and the scheme, every run took N steps to T,
ex43 does not link libsimpvi, and every observed order is within --tol of --order; 1 otherwise.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys

ERROR = re.compile(r'^2-norm of error (\S+)\s*$', re.M)
STEP = re.compile(r'^\s*(\d+) TS dt (\S+) time (\S+)\s*$', re.M)


def run_ex43(args, nsteps, view):
  dt = args.final_time / nsteps
  cmd = [args.exe, '-dll_append', args.lib, '-ts_type', 'simpvi', '-ts_simpvi_type', args.scheme,
         '-ts_dt', repr(dt), '-ts_max_time', repr(args.final_time), '-ts_exact_final_time', 'matchstep',
         '-ts_max_steps', '100000', '-ts_monitor', '-ts_monitor_error'] + (['-ts_view'] if view else []) + args.extra
  proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=args.timeout)
  if proc.returncode != 0:
    lines = [line for line in proc.stdout.splitlines() if 'Configure options' not in line and ' TS dt ' not in line and 'norm of error' not in line]
    tail = '\n'.join(lines[:40])
    raise RuntimeError(f'ex43 failed (exit {proc.returncode}):\n  {" ".join(cmd)}\n{tail}')
  errors = ERROR.findall(proc.stdout)
  steps = STEP.findall(proc.stdout)
  if not errors or not steps:
    raise RuntimeError(f'no "2-norm of error" or step lines from:\n  {" ".join(cmd)}\n{proc.stdout[-2000:]}')
  return float(errors[-1]), int(steps[-1][0]), float(steps[-1][2]), proc.stdout


def links_simpvi(exe):
  """True if the executable has libsimpvi among its NEEDED entries (None if readelf is missing)."""
  readelf = shutil.which('readelf')
  if not readelf:
    return None
  out = subprocess.run([readelf, '-d', exe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
  return any('NEEDED' in line and 'simpvi' in line for line in out.splitlines())


def main():
  parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  parser.add_argument('--exe', required=True, help='ex43 built from PETSc\'s installed ts/tutorials/ex43.c')
  parser.add_argument('--lib', required=True, help='libsimpvi.so, given to -dll_append')
  parser.add_argument('--scheme', default='simpson', help='-ts_simpvi_type')
  parser.add_argument('--order', type=float, required=True, help='expected order')
  parser.add_argument('--steps', type=int, nargs='+', default=[20, 40, 80], help='numbers of steps, each twice the last')
  parser.add_argument('--final-time', type=float, default=2.5 * math.pi)
  parser.add_argument('--tol', type=float, default=0.3, help='allowed |observed - expected order|')
  parser.add_argument('--timeout', type=float, default=60, help='seconds per run')
  parser.add_argument('extra', nargs='*', help='more ex43 options, after --')
  args = parser.parse_args()
  args.exe, args.lib = os.path.abspath(args.exe), os.path.abspath(args.lib)
  if len(args.steps) < 2 or any(b != 2 * a for a, b in zip(args.steps, args.steps[1:])):
    parser.error('--steps needs at least two numbers, each twice the one before')

  ok = True
  print(f'ex43 {"".join(a + " " for a in args.extra)}with -dll_append {args.lib} -ts_type simpvi -ts_simpvi_type {args.scheme}, '
        f'T = {args.final_time:.6f}, expected order {args.order:g} +- {args.tol:g}')
  linked = links_simpvi(args.exe)
  if linked:
    print(f'FAIL: {args.exe} links libsimpvi: the point is a program that has never heard of simpvi')
    ok = False

  errors = []
  try:
    for i, n in enumerate(args.steps):
      err, steps, t, out = run_ex43(args, n, view=(i == 0))
      if i == 0:
        viewed = re.search(r'^\s*type: simpvi\s*$', out, re.M) is not None and args.scheme in out
        print(f'-ts_view shows type simpvi and scheme {args.scheme}: {"yes" if viewed else "no"}')
        if not viewed:
          print(''.join(line + '\n' for line in out.splitlines() if 'TS dt' not in line and 'error' not in line)[:3000])
          ok = False
      landed = steps == n and abs(t - args.final_time) <= 1e-5 * args.final_time
      if not landed:
        print(f'FAIL: the run with dt = T/{n} ended after {steps} steps at t = {t:g}, not {n} steps at T')
        ok = False
      errors.append(err)
  except (RuntimeError, subprocess.TimeoutExpired) as e:
    print(f'FAIL: {e}')
    return 1

  print(f'{"steps":>8} {"dt":>12} {"error":>12} {"order":>8}')
  orders = []
  for i, (n, err) in enumerate(zip(args.steps, errors)):
    order = math.log2(errors[i - 1] / err) if i and err > 0 and errors[i - 1] > 0 else (float('nan') if i else None)
    if i:
      orders.append(order)
    print(f'{n:8d} {args.final_time / n:12.6g} {err:12.6g} {"" if order is None else f"{order:8.3f}":>8}')
  good = all(abs(o - args.order) <= args.tol for o in orders)  # False for nan
  print(f'observed orders {", ".join(f"{o:.3f}" for o in orders)} within {args.tol:g} of {args.order:g}: {"yes" if good else "no"}')
  ok = ok and good
  print('PASS' if ok else 'FAIL')
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())
