#!/usr/bin/python3 -B
"""The outside program domain_error.c (plain PETSc: a pendulum through TSSetI2Function() whose states after
t = 0.5 are outside the domain, TSSetFunctionDomainError(), TSSetErrorIfStepFails(ts, PETSC_FALSE)) must end as
under the type it was written for, alpha2: at t = 0.5 with DIVERGED_STEP_REJECTED, having asked the domain
function. Run under alpha2 (the program's default), with `-dll_append libsimpvi.so -ts_type simpvi` and with
each scheme given.

  domain_error.py --exe domain_error --lib libsimpvi.so [--schemes simpson lobatto]
"""
import argparse
import re
import sys

from petscrun import RunError, run, yes

RESULT = re.compile(r'^solve rc (-?\d+) final time (\S+) reason (\S+) domain calls (\d+)\s*$', re.M)


def main():
  parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  parser.add_argument('--exe', required=True)
  parser.add_argument('--lib', required=True)
  parser.add_argument('--schemes', nargs='+', default=['simpson', 'lobatto'])
  args = parser.parse_args()

  ok = True
  simpvi = ['-dll_append', args.lib, '-ts_type', 'simpvi', '-ts_view']
  runs = [('alpha2', []), ('simpvi (default options)', simpvi)] + [(f'simpvi {s}', simpvi + ['-ts_simpvi_type', s]) for s in args.schemes]
  for what, opts in runs:
    try:
      text, _ = run([args.exe] + opts)
    except RunError as e:
      print(f'{what} ran: no\n{e}')
      ok = False
      continue
    m = RESULT.search(text)
    if not m:
      print(f'{what} printed its result: no\n{text[-2000:]}')
      ok = False
      continue
    rc, tf, reason, calls = int(m.group(1)), float(m.group(2)), m.group(3), int(m.group(4))
    viewed = not opts or re.search(r'^\s*type: simpvi\s*$', text, re.M) is not None
    good = rc == 0 and abs(tf - 0.5) < 1e-9 and reason == 'DIVERGED_STEP_REJECTED' and calls > 0 and viewed
    print(f'{what} ends at t = 0.5 with DIVERGED_STEP_REJECTED, having called the domain function: {yes(good)} '
          f'(rc {rc}, t {tf:g}, {reason}, {calls} calls{"" if viewed else ", -ts_view does not show simpvi"})')
    ok = ok and good
  print('PASS' if ok else 'FAIL')
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())
