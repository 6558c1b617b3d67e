#!/usr/bin/python3 -B
"""The outside program fput_dmda_chain.c (an FPUT-beta chain on a 1-D DMDA written for TSALPHA2, unchanged) under
`-ts_type simpvi` with simpvi's default options, on 1 and 2 ranks, in each matrix style asked for:
stencil (the program's default, MatSetValuesStencil()) and global (-global_indices, MatSetValues()).

  fput_chain.py --exe fput_dmda_chain --mpiexec mpiexec --style stencil [global] [-- -N 400 ...]

Checks, each printed as "...: yes/no":
  - every run exits 0, reports type simpvi and the program's number of steps;
  - its maximal relative energy error (the program's maxdrift) is bounded (below --bound) and at most
    1/--factor of alpha2's on the same chain at the same step (alpha2 runs here too, on 1 rank);
  - the final state (-out: U and V in natural ordering) of every run, 2 ranks or the other style, equals the
    first style's 1-rank state to --tol (relative to the state's size).
Exit 0 when all hold.
"""
import argparse
import os
import re
import sys
import tempfile

from petscrun import RunError, read_vecs, run, yes

LINE = re.compile(r'^type (\S+) N (\d+) steps (\d+) t \S+ H0 \S+ H \S+ maxdrift (\S+) ', re.M)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  parser.add_argument('--exe', required=True)
  parser.add_argument('--mpiexec', default='mpiexec')
  parser.add_argument('--style', nargs='+', choices=['stencil', 'global'], required=True)
  parser.add_argument('--ranks', type=int, nargs='+', default=[1, 2])
  parser.add_argument('--tol', type=float, default=1e-10, help='agreement of the final states')
  parser.add_argument('--bound', type=float, default=1e-6, help='largest relative energy error allowed')
  parser.add_argument('--factor', type=float, default=100, help='simpvi\'s energy error at most alpha2\'s / factor')
  parser.add_argument('extra', nargs='*', help='more program options, after --')
  args = parser.parse_args()
  steps = 200  # the program's default
  if '-steps' in args.extra:
    steps = int(args.extra[args.extra.index('-steps') + 1])
  style_opts = {'stencil': [], 'global': ['-global_indices']}

  ok = True
  with tempfile.TemporaryDirectory(prefix='fput-') as tmp:
    def chain(ts_type, style, ranks, out=None):
      cmd = [args.exe, '-ts_type', ts_type] + style_opts[style] + args.extra + (['-out', out] if out else [])
      text, _ = run(cmd, ranks=ranks, mpiexec=args.mpiexec)
      m = LINE.search(text)
      if not m:
        raise RunError(f'no result line from {" ".join(cmd)}:\n{text[-2000:]}')
      return m.group(1), int(m.group(3)), float(m.group(4))

    try:
      _, _, ref_drift = chain('alpha2', args.style[0], 1)
      print(f'alpha2 ({args.style[0]}, 1 rank) ran: yes')
    except RunError as e:
      print(f'alpha2 ({args.style[0]}, 1 rank) ran: no\n{e}')
      print('FAIL')
      return 1

    reference = None
    for style in args.style:
      for ranks in args.ranks:
        what = f'simpvi {style} on {ranks} rank{"s" if ranks > 1 else ""}'
        out = os.path.join(tmp, f'{style}-{ranks}.bin')
        try:
          ts_type, nsteps, drift = chain('simpvi', style, ranks, out)
        except RunError as e:
          print(f'{what} ran: no\n{e}')
          ok = False
          continue
        good = ts_type == 'simpvi' and nsteps == steps
        print(f'{what} ran as simpvi for {steps} steps: {yes(good)}')
        bounded = drift < args.bound
        below = drift * args.factor <= ref_drift
        print(f'{what} energy error below {args.bound:g}: {yes(bounded)} ({drift:.3g})')
        print(f'{what} energy error below alpha2\'s / {args.factor:g}: {yes(below)} ({drift:.3g} vs {ref_drift:.3g})')
        ok = ok and good and bounded and below
        state = read_vecs(out)
        if reference is None:
          reference, refwhat = state, what
          continue
        scale = max(1.0, max(abs(x) for vec in reference for x in vec))
        diff = max(abs(a - b) for va, vb in zip(reference, state) for a, b in zip(va, vb)) if len(state) == len(reference) else float('inf')
        agree = diff <= args.tol * scale
        print(f'{what} final state equals {refwhat}\'s to {args.tol:g}: {yes(agree)} ({diff:.3g})')
        ok = ok and agree
  print('PASS' if ok else 'FAIL')
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())
