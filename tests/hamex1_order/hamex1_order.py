#!/usr/bin/python3 -B
"""PETSc's own ts/tutorials/hamiltonian/ex1.c, built unchanged and never linked with simpvi, run with
`-dll_append libsimpvi.so` and the type options after `--`: the observed order of the final error must be the scheme's.

ex1 is the spring x' = v, v' = -omega^2 x (omega = 64) on [0, 0.1], given to TSBASICSYMPLECTIC as the RHS split
"position" (x' = f(v)) and "momentum" (v' = g(x)). The program runs at each number of steps N with dt = 0.1/N
(its exact final time is matchstep); its final state comes from PETSc's -ts_view_solution in the ascii_matlab format
(16 digits; the program's own lines print 6), and the error against x = 0.2 cos(omega t), v = -0.2 omega sin(omega t)
is measured in sqrt(dx^2 + (dv/omega)^2). log2 of successive error ratios are the observed orders.

  hamex1_order.py --exe hamex1 --lib libsimpvi.so --order 6 --steps 20 40 80 -- -ts_type simpvi -ts_simpvi_type lobatto

Exit 0 when every run took N steps to T, -ts_view shows the type asked for (and for simpvi the split door), hamex1
does not link libsimpvi, and every observed order is within --tol of --order; 1 otherwise.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys

OMEGA, FINAL = 64.0, 0.1
STEP = re.compile(r'^\s*(\d+) TS dt \S+ time (\S+)\s*$', re.M)
MATLAB = re.compile(r'^Vec_\w+ = \[\s*\n(\S+)\s*\n(\S+)\s*\n\];', re.M)


def links_simpvi(exe):
  readelf = shutil.which('readelf')
  if not readelf:
    return None
  out = subprocess.run([readelf, '-d', exe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
  return any('NEEDED' in line and 'simpvi' in line for line in out.splitlines())


def main():
  parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  parser.add_argument('--exe', required=True)
  parser.add_argument('--lib', required=True)
  parser.add_argument('--order', type=float, required=True)
  parser.add_argument('--steps', type=int, nargs='+', required=True, help='numbers of steps, each twice the last')
  parser.add_argument('--tol', type=float, default=0.3, help='allowed |observed - expected order|')
  parser.add_argument('--timeout', type=float, default=60, help='seconds per run')
  parser.add_argument('extra', nargs='+', help='the type options, after --')
  args = parser.parse_args()
  args.exe, args.lib = os.path.abspath(args.exe), os.path.abspath(args.lib)
  ts_type = args.extra[args.extra.index('-ts_type') + 1] if '-ts_type' in args.extra else None

  ok, errors = True, []
  print(f'hamiltonian/ex1 {" ".join(args.extra)}: expected order {args.order:g} +- {args.tol:g}')
  if links_simpvi(args.exe):
    print(f'FAIL: {args.exe} links libsimpvi: the point is a program that has never heard of simpvi')
    ok = False
  for i, n in enumerate(args.steps):
    cmd = [args.exe, '-dll_append', args.lib, '-ts_dt', repr(FINAL / n), '-ts_max_steps', str(10 * n), '-ts_monitor',
           '-ts_view_solution', 'ascii::ascii_matlab'] + (['-ts_view'] if i == 0 else []) + args.extra
    try:
      proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
      print(f'FAIL: timed out: {" ".join(cmd)}')
      return 1
    text = proc.stdout
    if proc.returncode != 0:
      print(f'FAIL: exit {proc.returncode}: {" ".join(cmd)}')
      print('\n'.join(line for line in text.splitlines() if 'Configure options' not in line and ' TS dt ' not in line)[:3000])
      return 1
    if i == 0:
      viewed = ts_type is None or re.search(rf'^\s*type: {re.escape(ts_type)}\s*$', text, re.M) is not None
      if ts_type == 'simpvi':
        viewed = viewed and 'separable Hamiltonian (RHS split) door' in text
      print(f'-ts_view shows type {ts_type}{" and the split door" if ts_type == "simpvi" else ""}: {"yes" if viewed else "no"}')
      ok = ok and viewed
    steps = STEP.findall(text)
    landed = bool(steps) and int(steps[-1][0]) == n and abs(float(steps[-1][1]) - FINAL) <= 1e-6 * FINAL
    if not landed:
      print(f'FAIL: the run with dt = T/{n} ended at {steps[-1] if steps else "no -ts_monitor lines"}, not {n} steps at T')
      ok = False
    vec = MATLAB.findall(text)
    if not vec:
      print(f'FAIL: no -ts_view_solution vector in the output of {" ".join(cmd)}')
      return 1
    x, v = float(vec[-1][0]), float(vec[-1][1])
    xe, ve = 0.2 * math.cos(OMEGA * FINAL), -0.2 * OMEGA * math.sin(OMEGA * FINAL)
    errors.append(math.hypot(x - xe, (v - ve) / OMEGA))
  orders = [math.log2(a / b) if a > 0 and b > 0 else float('nan') for a, b in zip(errors, errors[1:])]
  print(f'{"steps":>8} {"error":>12} {"order":>8}')
  for i, (n, e) in enumerate(zip(args.steps, errors)):
    print(f'{n:8d} {e:12.4g} {"" if i == 0 else f"{orders[i - 1]:8.3f}":>8}')
  good = all(abs(o - args.order) <= args.tol for o in orders)  # False for nan
  print(f'observed orders {", ".join(f"{o:.3f}" for o in orders)} within {args.tol:g} of {args.order:g}: {"yes" if good else "no"}')
  ok = ok and good
  print('PASS' if ok else 'FAIL')
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())
