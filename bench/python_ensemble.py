#!/usr/bin/python3
"""The per-member cost of a parameter study in Python (simpvi.Ensemble, numpy mechanics over every point of a batch)
against the same study in C (SimpVIEnsemble), side by side in one run, and their ratio.

  PYTHONPATH=python /usr/bin/python3 bench/python_ensemble.py [--members M] [--batches 16,256] [--repeats R]
                    [--scheme simpson] [--c-exe build/tutorials/ex6] [--profile]

The study is the pendulum's period against its amplitude: tutorials/ex6.c in C, python/tutorials/period.py in Python
(the same members, mechanics, stop at the far turning point and output function; the same steps), its stop function
vectorised over a batch (setBatchStopFunction(), as period.py) or called per member (setStopFunction()). Costs are CPU time
(so that other jobs on the machine count less than in wall time), best of R runs:
  Python: time.process_time() around ens.solve(), in this process, over the members;
  C:      tutorials/ex6 as a child process, its CPU time (getrusage) with M members less that with 3 (start-up,
          options, MPI), over M - 3.
--profile: cProfile of one Python solve at the first batch size (where the time goes: C, the mechanics, the stop).
"""
import argparse
import cProfile
import io
import os
import pstats
import resource
import subprocess
import sys
import time

import petsc4py

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
parser.add_argument('--members', type=int, default=1536, help='members of the study')
parser.add_argument('--batches', default='16,256', help='batch sizes (-ensemble_batch), comma-separated')
parser.add_argument('--repeats', type=int, default=3, help='runs of each (the least CPU time is kept)')
parser.add_argument('--scheme', default='simpson', help='-ts_simpvi_type')
parser.add_argument('--c-exe', default=os.path.join(here, '..', 'build', 'tutorials', 'ex6'), help='tutorials/ex6 built')
parser.add_argument('--profile', action='store_true', help='profile one Python solve')
opts, rest = parser.parse_known_args()
petsc4py.init([sys.argv[0], '-ts_simpvi_type', opts.scheme] + rest)  # the rest: PETSc options
from petsc4py import PETSc  # noqa: E402

sys.path.insert(0, os.path.join(here, '..', 'python', 'tutorials'))
import period  # noqa: E402 (python/tutorials/period.py: the study)


def member_stop(ens, i, param, step, t, q, p):
  """period.stop() for one member at a time (setStopFunction(): one Python call per member and step)."""
  return p[0] >= 0


def python_solve(batch, per_member=False, profile=None):
  """CPU seconds of one solve of the Python study, its steps and Newton iterations, whether its checks pass."""
  ens, ts = period.make_study(PETSc.COMM_SELF, opts.members)
  if per_member:
    ens.setBatchStopFunction(None)
    ens.setStopFunction(member_stop)
  ens.setBatchSize(batch)
  ens.setUp()
  start = time.process_time()
  if profile:
    profile.runcall(ens.solve)
  else:
    ens.solve()
  cpu = time.process_time() - start
  info = ens.getMemberInfo()
  ok = (info.reason == 3).all() and (ens.getResults()[:, 1] > 0).all()
  ens.destroy()
  ts.destroy()
  return cpu, int(info.steps.sum()), int(info.its.sum()), ok


def c_cpu(members, batch):
  """CPU seconds (user + system) of a run of tutorials/ex6 as a child process of its own (MPI singleton)."""
  env = {k: v for k, v in os.environ.items() if not k.startswith(('OMPI_', 'PMIX_', 'ORTE_', 'OPAL_', 'PMI_')) or k.startswith('OMPI_ALLOW_RUN_AS_ROOT')}
  before = resource.getrusage(resource.RUSAGE_CHILDREN)
  text = subprocess.run([opts.c_exe, '-members', str(members), '-ensemble_batch', str(batch), '-ts_simpvi_type', opts.scheme] + rest,
                        capture_output=True, text=True, check=True, env=env).stdout
  after = resource.getrusage(resource.RUSAGE_CHILDREN)
  if members > 3 and '1e-5 of 4 K(sin(theta0/2))/omega: yes' not in text:
    sys.exit('bench/python_ensemble.py: tutorials/ex6 failed its checks:\n' + text)
  return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
  batches = [int(b) for b in opts.batches.split(',')]
  M = opts.members
  print('The pendulum period study (tutorials/ex6.c, python/tutorials/period.py): %s, %d members, one process;' % (opts.scheme, M))
  print('CPU time of the solve per member, best of %d runs (C: its run less a 3-member run, over %d members)' % (opts.repeats, M - 3))
  print('Python: the batch stop function (one numpy call per batch step, as period.py) or the stop function per member')
  print('%6s %12s %12s %14s %8s %14s %8s %10s %10s %10s' % ('batch', 'steps/member', 'C ms/member', 'Py ms/member', 'ratio', 'Py per-member', 'ratio',
                                                          'C us/step', 'Py us/step', 'per-member'))
  for batch in batches:
    py = min(python_solve(batch) for _ in range(opts.repeats))
    pm = min(python_solve(batch, per_member=True) for _ in range(opts.repeats))
    cfull = min(c_cpu(M, batch) for _ in range(opts.repeats))
    cbase = min(c_cpu(3, batch) for _ in range(opts.repeats))
    cmember = max(cfull - cbase, 1e-9) / (M - 3)
    pmember, pmmember = py[0] / M, pm[0] / M
    steps = py[1] / M
    print('%6d %12.1f %12.4f %14.4f %8.2f %14.4f %8.2f %10.3f %10.3f %10.3f%s' % (
      batch, steps, 1e3 * cmember, 1e3 * pmember, pmember / cmember, 1e3 * pmmember, pmmember / cmember, 1e6 * cmember / steps,
      1e6 * pmember / steps, 1e6 * pmmember / steps, '' if py[3] and pm[3] and py[1:3] == pm[1:3] else '  (a Python study FAILED its checks)'))
    sys.stdout.flush()
  if opts.profile:
    prof = cProfile.Profile()
    cpu = python_solve(batches[0], profile=prof)[0]
    s = io.StringIO()
    pstats.Stats(prof, stream=s).sort_stats('tottime').print_stats(8)
    print('\nProfile of one Python solve, batch %d (%.3f s of CPU, profiled):' % (batches[0], cpu))
    print('\n'.join(line for line in s.getvalue().splitlines() if line.strip() and not line.startswith(('   Ordered', 'Random'))))


if __name__ == '__main__':
  main()
