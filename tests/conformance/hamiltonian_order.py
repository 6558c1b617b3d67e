#!/usr/bin/python3 -B
"""PETSc's own ts/tutorials/hamiltonian/ex1.c (a spring x'' = -omega^2 x, omega = 64, for TSBASICSYMPLECTIC:
TSRHSSplitSetIS() and TSRHSSplitSetRHSFunction() for "position" (x' = v) and "momentum" (v' = -omega^2 x)),
built unchanged and never linked with simpvi, run with `-dll_append libsimpvi.so` and the type options given
after `--` (e.g. -ts_type simpvi -ts_simpvi_type lobatto) at each number of steps N to its final time T = 0.1.
The final state comes from PETSc's -ts_view_solution (binary), the error against the exact solution
x = 0.2 cos(omega t), v = -0.2 omega sin(omega t) in the norm sqrt(dx^2 + (dv/omega)^2); log2 of successive error
ratios are the observed orders.

  hamiltonian_order.py --exe ex1 --lib libsimpvi.so --order 6 --steps 20 40 80 -- -ts_type simpvi -ts_simpvi_type lobatto

Exit 0 when the program does not link libsimpvi, every run ended at T after N steps with the type asked for
(-ts_view; for simpvi, with the separable Hamiltonian (RHS split) door) and every observed order is within --tol of
--order.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

from petscrun import RunError, orders, read_vecs, run, yes

OMEGA, FINAL = 64.0, 0.1
EXACT = re.compile(r'^The exact solution at time (\S+) is', re.M)
STEP = re.compile(r'^\s*(\d+) TS dt \S+ time (\S+)\s*$', re.M)


def links_simpvi(exe):
  """Whether exe names libsimpvi among its NEEDED libraries (None without readelf)."""
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
  parser.add_argument('extra', nargs='+', help='the type options, after --')
  args = parser.parse_args()
  ts_type = args.extra[args.extra.index('-ts_type') + 1] if '-ts_type' in args.extra else None

  ok, errors = True, []
  print(f'hamiltonian/ex1 {" ".join(args.extra)}: expected order {args.order:g} +- {args.tol:g}')
  if links_simpvi(args.exe):  # the point is a program that has never heard of simpvi
    print(f'{args.exe} does not link libsimpvi: no')
    ok = False
  with tempfile.TemporaryDirectory(prefix='ham-') as tmp:
    for i, n in enumerate(args.steps):
      out = os.path.join(tmp, f'u{n}.bin')
      cmd = [args.exe, '-dll_append', args.lib, '-ts_dt', repr(FINAL / n), '-ts_max_steps', str(10 * n), '-ts_monitor',
             '-ts_view_solution', f'binary:{out}'] + (['-ts_view'] if i == 0 else []) + args.extra
      try:
        text, _ = run(cmd)
      except RunError as e:
        print(f'{n} steps ran: no\n{e}')
        print('FAIL')
        return 1
      steps = STEP.findall(text)
      landed = bool(steps) and int(steps[-1][0]) == n and abs(float(steps[-1][1]) - FINAL) <= 1e-6 * FINAL
      if i == 0:
        viewed = ts_type is None or re.search(rf'^\s*type: {re.escape(ts_type)}\s*$', text, re.M) is not None
        if ts_type == 'simpvi':
          viewed = viewed and 'separable Hamiltonian (RHS split) door' in text
        print(f'-ts_view shows type {ts_type}{" and the split door" if ts_type == "simpvi" else ""}: {yes(viewed)}')
        ok = ok and viewed
      if not landed:
        print(f'{n} steps to T = {FINAL:g}: no ({steps[-1] if steps else "no -ts_monitor lines"})')
        ok = False
      (u,) = read_vecs(out)[:1]
      x, v = u[0], u[1]
      xe, ve = 0.2 * math.cos(OMEGA * FINAL), -0.2 * OMEGA * math.sin(OMEGA * FINAL)
      errors.append(math.hypot(x - xe, (v - ve) / OMEGA))
  observed = orders(errors)
  print(f'{"steps":>8} {"error":>12} {"order":>8}')
  for i, (n, e) in enumerate(zip(args.steps, errors)):
    print(f'{n:8d} {e:12.4g} {"" if i == 0 else f"{observed[i - 1]:8.3f}":>8}')
  good = all(abs(o - args.order) <= args.tol for o in observed)  # False for nan
  print(f'observed orders {", ".join(f"{o:.3f}" for o in observed)} within {args.tol:g} of {args.order:g}: {yes(good)}')
  ok = ok and good
  print('PASS' if ok else 'FAIL')
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())
