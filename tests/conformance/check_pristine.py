#!/usr/bin/python3 -B
"""The outside programs in tests/conformance/outside must be byte-for-byte the originals (docs/conformance.md):
a program of the conformance suite is never edited to make simpvi pass.

  check_pristine.py --copy tests/conformance/outside --original /work/shared/conformance

Exit 0 when every file of the original directory is in the copy with the same bytes and the copy has no other
program; 1 otherwise; 77 (skipped) when the original directory is not on this machine (a fresh clone elsewhere).
"""
import argparse
import os
import sys


def main():
  parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  parser.add_argument('--copy', required=True)
  parser.add_argument('--original', required=True)
  args = parser.parse_args()
  if not os.path.isdir(args.original):
    print(f'{args.original} is not on this machine: nothing to compare (skipped)')
    return 77
  ok = True
  originals = sorted(f for f in os.listdir(args.original) if os.path.isfile(os.path.join(args.original, f)))
  for name in originals:
    with open(os.path.join(args.original, name), 'rb') as f:
      want = f.read()
    path = os.path.join(args.copy, name)
    have = open(path, 'rb').read() if os.path.isfile(path) else None
    same = have == want
    print(f'{name} identical to the original: {"yes" if same else "no" if have is not None else "no (missing)"}')
    ok = ok and same
  # a program in the copy but not in the original would be an edit by another name
  extra = sorted(f for f in os.listdir(args.copy) if f.endswith('.c') and f not in originals)
  for name in extra:
    print(f'{name} is not among the originals: no')
    ok = False
  print('PASS' if ok else 'FAIL')
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())
