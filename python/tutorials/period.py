#!/usr/bin/python3
"""A parameter study with simpvi.Ensemble: the period of the nonlinear pendulum against its amplitude, the Python form
of tutorials/ex6.c. Each member is a pendulum (its own amplitude theta0 and frequency omega) released at rest; it stops
at the far turning point (its momentum turns positive), half a period. The periods are checked (to 1e-5) against
T = 4 K(sin(theta0/2)) / omega, and plotted against theta0 when matplotlib is there.

  PYTHONPATH=python /usr/bin/python3 python/tutorials/period.py                 # after bash ci/build.sh
  PYTHONPATH=python mpiexec -n 2 /usr/bin/python3 python/tutorials/period.py -members 96 -ensemble_view

Options: -members <32>, -plot <period.png> (none: no plot), and -ts_simpvi_type, -ts_dt, -ensemble_batch,
-ensemble_view, ... The mechanics are one numpy function over every point of every member of a batch, the stop
function one over the members of a batch: the larger the batch (-ensemble_batch 256), the more members share the
cost of a Python call (bench/python_ensemble.py).
"""
import math
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402 (after petsc4py.init, which reads the options)
import numpy as np  # noqa: E402
import simpvi  # noqa: E402


def member(ens, i, param, q, p, nmembers):
  """Member i: omega^2 = g/l for three lengths, amplitudes from 0.1 to 3 (as tutorials/ex6.c)."""
  param[0] = 1 + i % 3
  param[1] = 0.1 + 2.9 * (i // 3) / (nmembers // 3)
  q[0], p[0] = param[1], 0


def mechanics(ens, member, param, t, x, v, L, P, G, Px, Pv, Gx, Gv):
  """L = 1/2 v^2 + omega^2 cos q at every point of every member of the batch, each with its member's omega^2."""
  w2, q = param[:, 0], x[:, 0]
  if L is not None:
    L[:] = 0.5 * v[:, 0] ** 2 + w2 * np.cos(q)
  if P is not None:
    P[:, 0] = v[:, 0]
    G[:, 0] = -w2 * np.sin(q)
  if Px is not None:
    Px[:], Pv[:], Gv[:] = 0, 1, 0
    Gx[:, 0, 0] = -w2 * np.cos(q)


def stop(ens, member, param, step, t, q, p, out):
  """The far turning point: the momentum, negative on the way there, turns positive (every member of the batch whose
  step just ended at once)."""
  out[:] = p[:, 0] >= 0


def complete_K(k):
  """K(k) = pi / (2 AGM(1, sqrt(1 - k^2)))."""
  a, b = 1.0, math.sqrt(1 - k * k)
  for _ in range(40):
    if a - b <= 1e-15 * a:
      break
    a, b = (a + b) / 2, math.sqrt(a * b)
  return math.pi / (2 * a)


def output(ens, i, param, reason, step, t, q, p, out):
  """theta0, the period (twice the time of the turning point, one Newton step back from the last step:
  p' = -omega^2 sin q) and the exact period."""
  w2 = param[0]
  out[0] = param[1]
  out[1] = 2 * (t - p[0] / (-w2 * math.sin(q[0]))) if reason == simpvi.EnsembleReason.CONVERGED_USER else -1
  out[2] = 4 * complete_K(math.sin(param[1] / 2)) / math.sqrt(w2)


def make_study(comm, nmembers):
  """The study: a TS of type simpvi for the scheme and steps (as for one pendulum), the ensemble of pendulums."""
  ts = PETSc.TS().create(comm)
  ts.setType(simpvi.TSSIMPVI)
  ts.setTimeStep(0.01)
  ts.setMaxTime(100)
  ts.setExactFinalTime(PETSc.TS.ExactFinalTime.STEPOVER)
  ts.setFromOptions()
  ens = simpvi.Ensemble().create(comm)
  ens.setTS(ts)
  ens.setSize(nmembers)
  ens.setMemberFunction(1, 2, member, args=(nmembers,))
  ens.setPointwiseLagrangian(mechanics)
  ens.setBatchStopFunction(stop)
  ens.setOutputFunction(3, output, names=['theta0', 'period', 'exact'])
  ens.setFromOptions()
  return ens, ts


def plot(path, res, nmembers):
  """The period against theta0 for each length (omega^2 = 1, 2, 3), and the exact curves."""
  try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
  except ImportError:
    print('period.py: no matplotlib, no plot', file=sys.stderr)
    return
  fig, ax = plt.subplots(figsize=(6, 4))
  for length in range(3):
    sel = np.arange(nmembers) % 3 == length
    line, = ax.plot(res[sel, 0], res[sel, 2], '-', lw=0.8)
    ax.plot(res[sel, 0], res[sel, 1], 'o', ms=4, color=line.get_color(), label='omega^2 = %d' % (length + 1))
  ax.set_xlabel('amplitude theta0')
  ax.set_ylabel('period')
  ax.set_title('points: simpvi.Ensemble; lines: 4 K(sin(theta0/2)) / omega', fontsize=10)
  ax.legend()
  fig.savefig(path, dpi=120, bbox_inches='tight')
  print('period.py: plot written to %s' % path, file=sys.stderr)


def main():
  opts = PETSc.Options()
  nmembers = opts.getInt('members', 32)
  ens, ts = make_study(PETSc.COMM_WORLD, nmembers)
  ens.solve()
  res = ens.getResults()  # every process has every member's (theta0, period, exact), in member order
  err = np.where(res[:, 1] > 0, np.abs(res[:, 1] - res[:, 2]) / res[:, 2], np.inf).max()
  longest = (res[:, 1] * np.sqrt(1 + np.arange(nmembers) % 3) / (2 * np.pi)).max()  # in small-swing periods
  PETSc.Sys.Print('%d pendulums: every period within 1e-5 of 4 K(sin(theta0/2))/omega: %s' % (nmembers, 'yes' if err < 1e-5 else 'no'))
  PETSc.Sys.Print('the largest amplitude swings more than twice as slowly as a small one: %s' % ('yes' if longest > 2 else 'no'))
  path = opts.getString('plot', 'period.png')
  if path != 'none' and PETSc.COMM_WORLD.getRank() == 0:
    plot(path, res, nmembers)
  ens.destroy()
  ts.destroy()


if __name__ == '__main__':
  main()

"""
/*TEST

  build:
    requires: petsc4py

  test:
    suffix: simpson
    nsize: {{1 2}}
    args: -ts_simpvi_type simpson
    output_file: output/period_simpson.out

  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto -ensemble_batch 7 -ensemble_view -plot none
    filter: grep -v -e "busy" -e "MPI process"

TEST*/
"""
