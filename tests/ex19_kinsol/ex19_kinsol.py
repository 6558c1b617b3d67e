#!/usr/bin/python3 -B
"""PETSc's own snes/tutorials/ex19.c, built unchanged and never linked with simpvi, run with
`-dll_append libsimpvi.so -snes_type kinsol`: SUNDIALS KINSOL through the ordinary SNES interface.

ex19 is the driven cavity (velocity, vorticity, temperature on a DMDA; Jacobian by finite differences with coloring).
The reference is ex19 with -snes_type newtonls. Each KINSOL strategy (newton, linesearch, picard and fp with Anderson
depth 5) then solves the same problem, with the same SNES tolerances (-snes_rtol 1e-12), on --nsize processes.
-snes_view_solution binary:<file> writes each solution; they are read here (PETSc's binary format) and compared.

  ex19_kinsol.py --exe ex19 --lib libsimpvi.so [--mpiexec mpiexec --nsize 2 --tol 1e-9 --workdir .]

Exit 0 when every run converged (-snes_converged_reason), -snes_view names kinsol and the strategy, -snes_monitor
printed one line per iteration (0 .. the iteration count ex19 prints), every KINSOL solution equals the newtonls one to
--tol relative to max|x|, and ex19 does not link libsimpvi; 1 otherwise.
"""
import argparse
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ex43_order'))
from ex43_order import links_simpvi  # noqa: E402

STRATEGIES = (('newton', []), ('linesearch', []), ('picard', ['-snes_kinsol_maa', '5']), ('fp', ['-snes_kinsol_maa', '5']))
CONVERGED = re.compile(r'^Nonlinear solve converged due to (\S+) iterations (\d+)\s*$', re.M)
ITERATIONS = re.compile(r'^Number of SNES iterations = (\d+)\s*$', re.M)
MONITOR = re.compile(r'^\s*(\d+) SNES Function norm \S+\s*$', re.M)
VEC_FILE_CLASSID = 1211214


def read_vec(path):
  """A Vec written by PETSc's binary viewer: classid, length, then big-endian doubles."""
  with open(path, 'rb') as f:
    data = f.read()
  classid, n = struct.unpack('>ii', data[:8])
  if classid != VEC_FILE_CLASSID:
    raise RuntimeError(f'{path}: not a PETSc Vec (class id {classid})')
  return struct.unpack('>%dd' % n, data[8:8 + 8 * n])


def run_ex19(args, name, options):
  sol = os.path.join(args.workdir, f'ex19_{name}.bin')
  for stale in (sol, sol + '.info'):
    if os.path.exists(stale):
      os.remove(stale)
  cmd = [args.mpiexec, '-n', str(args.nsize)] + (['--oversubscribe'] if args.nsize > 1 else []) + [
      args.exe, '-dll_append', args.lib, '-da_refine', '1', '-snes_rtol', '1e-12', '-snes_monitor',
      '-snes_converged_reason', '-snes_view', '-snes_view_solution', 'binary:' + sol] + options
  env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1', LC_ALL='C')
  proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=args.timeout, env=env)
  if proc.returncode != 0:
    lines = [line for line in proc.stdout.splitlines() if 'Configure options' not in line]
    raise RuntimeError(f'ex19 failed (exit {proc.returncode}):\n  {" ".join(cmd)}\n' + '\n'.join(lines[:40]))
  return proc.stdout, read_vec(sol)


def main():
  parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument('--exe', required=True)
  parser.add_argument('--lib', required=True)
  parser.add_argument('--mpiexec', default='mpiexec')
  parser.add_argument('--nsize', type=int, default=2)
  parser.add_argument('--tol', type=float, default=1e-9)
  parser.add_argument('--workdir', default='.')
  parser.add_argument('--timeout', type=float, default=60)
  args = parser.parse_args()

  ok = True
  linked = links_simpvi(args.exe)
  print(f'ex19 links libsimpvi: {"unknown (no readelf)" if linked is None else ("yes" if linked else "no")}')
  ok &= linked is not True

  out, ref = run_ex19(args, 'newtonls', ['-snes_type', 'newtonls'])
  conv = CONVERGED.search(out)
  print(f'newtonls: {conv.group(1) if conv else "did not converge"} in {conv.group(2) if conv else "?"} iterations')
  ok &= conv is not None
  scale = max(abs(v) for v in ref)
  for strategy, extra in STRATEGIES:
    out, sol = run_ex19(args, strategy, ['-snes_type', 'kinsol', '-snes_kinsol_strategy', strategy] + extra)
    conv, its = CONVERGED.search(out), ITERATIONS.search(out)
    monitored = [int(m) for m in MONITOR.findall(out)]
    viewed = 'type: kinsol' in out and f'strategy {strategy}' in out
    diff = max(abs(a - b) for a, b in zip(sol, ref)) if len(sol) == len(ref) else float('inf')
    agree = diff <= args.tol * scale
    counted = conv is not None and its is not None and int(its.group(1)) == int(conv.group(2)) and monitored == list(range(int(conv.group(2)) + 1))
    print(f'kinsol {strategy}: {conv.group(1) if conv else "did not converge"} in {its.group(1) if its else "?"} iterations; '
          f'-snes_view names it: {"yes" if viewed else "no"}; one monitor line per iteration: {"yes" if counted else "no"}; '
          f'solution equals newtonls to {args.tol:g} relative: {"yes" if agree else "no"} (difference {diff / scale:.1e})')
    ok &= conv is not None and viewed and counted and agree
  print('ex19 with -snes_type kinsol: ' + ('all checks passed' if ok else 'FAILED'))
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())
