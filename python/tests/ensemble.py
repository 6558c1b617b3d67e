#!/usr/bin/python3
"""simpvi.Ensemble (SimpVIEnsemble from Python): the pendulum study of tests/ensemble_object.c, its mechanics one numpy
function over all points of all members of a batch. Checks: every member's final (q, p), steps, time, reason and
Newton iterations those of a lone petsc4py TS simpvi run of it by Newton (-ts_simpvi_lag_jacobian false) through
simpvi.setPointwiseLagrangian(), bit for bit (each process checks every size-th member); the study on all processes
identical to the same study on one (COMM_SELF), bit for bit; a second solve with batches of 3 the same; the C
ensemble's results (tests/ensemble_object -view_csv, C mechanics) the same steps, reasons and times, q and p to 1e-12
(libm's sin against numpy's: the last Newton iteration at -snes_rtol 1e-14 may come one earlier or later); a member given a NaN reported failed at its first step while the others
run to their end; -stop: each member stopped when its angle turns negative (against a lone run whose post-step ends
it), and the batch stop function (numpy over the members of a batch) giving the same study; the mechanics' arrays (shapes, every live member's points in one call); an output function; an exception in a
callback raised as a PETSc.Error naming it.

Options: -members <24> -dt <0.05> -nan_member <-1> -stop (and the TS's: -ts_simpvi_type, -ts_max_time, ...)
"""
import os
import re
import subprocess
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402
import numpy as np  # noqa: E402
import simpvi  # noqa: E402

out = PETSc.Sys.Print
opts = PETSc.Options()
NMEMBERS = opts.getInt('members', 24)
DT = opts.getReal('dt', 0.05)
NAN_MEMBER = opts.getInt('nan_member', -1)
STOP = opts.getBool('stop', False)
REASONS = {PETSc.TS.ConvergedReason.CONVERGED_TIME: simpvi.EnsembleReason.CONVERGED_TIME,
           PETSc.TS.ConvergedReason.CONVERGED_ITS: simpvi.EnsembleReason.CONVERGED_ITS,
           PETSc.TS.ConvergedReason.CONVERGED_USER: simpvi.EnsembleReason.CONVERGED_USER}


def verdict(ok):
  return 'yes' if ok else 'no'


def pendulum(w2, x, v, P, G, Px, Pv, Gx, Gv):
  """L = 1/2 v^2 + w2 cos q at every point, w2 one per point (the ensemble) or one number (a lone run)."""
  q = x[:, 0]
  if P is not None:
    P[:, 0] = v[:, 0]
    G[:, 0] = -w2 * np.sin(q)
  if Px is not None:
    Px[:, 0, 0], Pv[:, 0, 0], Gx[:, 0, 0], Gv[:, 0, 0] = 0, 1, -w2 * np.cos(q), 0


def mechanics(ens, member, param, t, x, v, L, P, G, Px, Pv, Gx, Gv, calls=None):
  """The ensemble's: every point with its member's parameter."""
  if calls is not None:
    calls.append((len(set(member.tolist())), member.shape, param.shape, t.shape, x.shape, L is None, P.shape, Px.shape, x.flags.writeable))
  pendulum(param[:, 0], x, v, P, G, Px, Pv, Gx, Gv)


def member_state(i):
  """tests/ensemble_object.c's pendulums: w2 = 1 + i % 4 / 4, released at rest from 0.2 + 2.8 i / members."""
  q0 = np.nan if i == NAN_MEMBER else 0.2 + 2.8 * (i / NMEMBERS)
  return 1 + 0.25 * (i % 4), q0


def member(ens, i, param, q, p):
  param[0], q[0] = member_state(i)
  p[0] = 0


def stop(ens, i, param, step, t, q, p):
  return q[0] < 0


def batch_stop(ens, member, param, step, t, q, p, out, calls):
  """stop() vectorised over the members of a batch whose step just ended."""
  calls.append((member.shape, param.shape, step.shape, t.shape, q.shape, p.shape, out.shape, q.flags.writeable, out.flags.writeable))
  out[:] = q[:, 0] < 0


def make_ts(comm):
  ts = PETSc.TS().create(comm)
  ts.setType(simpvi.TSSIMPVI)
  ts.setTimeStep(DT)
  ts.setMaxTime(10)
  ts.setExactFinalTime(PETSc.TS.ExactFinalTime.MATCHSTEP)
  ts.setFromOptions()
  return ts


def study(comm, batch=None, output=None, fn=mechanics, kargs=None, stopcalls=None):
  """The solved study on comm: (ensemble, its TS); with stopcalls (a list), the batch stop function instead of stop()."""
  ts = make_ts(comm)
  ens = simpvi.Ensemble().create(comm)
  ens.setTS(ts)
  ens.setSize(NMEMBERS)
  ens.setMemberFunction(1, 1, member)
  ens.setPointwiseLagrangian(fn, kargs=kargs)
  if STOP and stopcalls is not None:
    ens.setBatchStopFunction(batch_stop, args=(stopcalls,))
  elif STOP:
    ens.setStopFunction(stop)
  if output:
    ens.setOutputFunction(3, output, names=['q', 'p', 'id'])
  ens.setFromOptions()
  if batch:
    ens.setBatchSize(batch)
  ens.solve()
  return ens, ts


def alone(i):
  """Member i alone by Newton: its final (q, p), steps, Newton iterations, time and reason (an EnsembleReason)."""
  w2, q0 = member_state(i)
  opts['ts_simpvi_lag_jacobian'] = 'false'
  ts = make_ts(PETSc.COMM_SELF)
  del opts['ts_simpvi_lag_jacobian']
  simpvi.setPointwiseLagrangian(ts, lambda ts, t, x, v, L, P, G, Px, Pv, Gx, Gv: pendulum(w2, x, v, P, G, Px, Pv, Gx, Gv))
  if STOP:
    def post_step(ts):
      if ts.getSolution().array_r[0] < 0:
        ts.setConvergedReason(PETSc.TS.ConvergedReason.CONVERGED_USER)
    ts.setPostStep(post_step)
  U = PETSc.Vec().createSeq(2, comm=PETSc.COMM_SELF)
  U.array = [q0, 0]
  ts.solve(U)
  res = (U.array.copy(), ts.getStepNumber(), ts.getSNESIterations(), ts.getTime(), REASONS.get(ts.getConvergedReason(), -1))
  U.destroy()
  ts.destroy()
  return res


def all_processes(value, op):
  """value reduced over COMM_WORLD (op 'sum' or 'max'), through a Vec of one entry per process."""
  r = PETSc.Vec().createMPI((1, PETSc.DECIDE), comm=PETSc.COMM_WORLD)
  r.set(value)
  total = r.sum() if op == 'sum' else r.max()[1]
  r.destroy()
  return total


def c_ensemble(ts):
  """tests/ensemble_object's CSV for the same study and scheme (C mechanics), run as a process of its own: rows."""
  exe = os.path.join(os.environ.get('SIMPVI_TESTS_BIN', ''), 'ensemble_object')
  env = {k: v for k, v in os.environ.items() if not k.startswith(('OMPI_', 'PMIX_', 'ORTE_', 'OPAL_', 'PMI_')) or k.startswith('OMPI_ALLOW_RUN_AS_ROOT')}
  args = [exe, '-view_csv', '-members', str(NMEMBERS), '-dt', repr(DT), '-nan_member', str(NAN_MEMBER), '-ts_simpvi_type', simpvi.getType(ts),
          '-ts_simpvi_degree', str(simpvi.getDegree(ts))] + (['-stop'] if STOP else [])
  text = subprocess.run(args, capture_output=True, text=True, check=True, env=env).stdout
  rows = [line.split(',') for line in text.splitlines() if re.match(r'\d+,', line)]
  return [(getattr(simpvi.EnsembleReason, r[1]), int(r[2]), int(r[3]), float(r[4]), float(r[5]), float(r[6])) for r in rows]


def main():
  rank, size = PETSc.COMM_WORLD.getRank(), PETSc.COMM_WORLD.getSize()
  calls = []
  ens, ts = study(PETSc.COMM_WORLD, kargs={'calls': calls})
  res, info = ens.getResults(), ens.getMemberInfo()
  out('%d pendulums, scheme %s, %d values each' % (NMEMBERS, simpvi.getType(ts), res.shape[1]))

  # the mechanics' arrays: (npoints,) member ids and times, (npoints, 1) parameters, x, v, P, (npoints, 1, 1) blocks
  nq = simpvi.getTableau(ts).nq
  ok = all(c[5] and not c[8] and c[1] == c[3] == (c[0] * nq,) and c[2] == c[4] == c[6] == (c[0] * nq, 1) and c[7] == (c[0] * nq, 1, 1) for c in calls)
  out('mechanics: arrays of every point of the live members of a batch, read-only inputs, no L asked: %s' % verdict(ok and bool(calls)))
  out('mechanics: the points of several members in one call: %s' % verdict(all_processes(max(c[0] for c in calls), 'max') > 1))

  # every size-th member alone on this process
  mismatches = 0
  for i in range(rank, NMEMBERS, size):
    if info.reason[i] < 0:
      continue
    U, steps, its, t, reason = alone(i)
    same = (U == res[i]).all() and (steps, its, t, reason) == (info.steps[i], info.its[i], info.t[i], info.reason[i])
    if not same:
      print('  member %d: lone run %s, %d steps, %d its, t %.17g; ensemble %s, %d, %d, %.17g' % (
        i, reason, steps, its, t, info.reason[i], info.steps[i], info.its[i], info.t[i]), flush=True)
    mismatches += not same
  mismatches = all_processes(mismatches, 'sum')
  out('members agree with lone petsc4py TS simpvi runs by Newton (q, p, steps, time, reason, Newton iterations; bit for bit): %s' % verdict(mismatches == 0))

  # the same study on this process alone, and again with batches of 3
  lone, lts = study(PETSc.COMM_SELF)
  same = np.array_equal(res, lone.getResults(), equal_nan=True) and all(np.array_equal(a, b, equal_nan=True) for a, b in zip(info, lone.getMemberInfo()))
  out('the study on every process the same as on one process (results and member info, bit for bit): %s' % verdict(all_processes(not same, 'sum') == 0))
  lone.setBatchSize(3)
  lone.solve()
  out('a second solve with batches of 3 gives the same results: %s' % verdict(np.array_equal(res, lone.getResults(), equal_nan=True)))
  lone.destroy()
  lts.destroy()

  # the C ensemble (C mechanics, libm): same steps, reasons, iterations, times; q, p to 1e-12
  ok = True
  if rank == 0:
    rows = c_ensemble(ts)
    ok = len(rows) == NMEMBERS
    for i, r in enumerate(rows[:NMEMBERS]):
      ok = ok and r[:2] + r[3:4] == (info.reason[i], info.steps[i], info.t[i]) and abs(r[2] - info.its[i]) <= 2 and (
        np.abs(np.array(r[4:]) - res[i]).max() < 1e-12 or (info.reason[i] < 0 and np.isnan(r[4]) and np.isnan(res[i, 0])))
  out('members agree with the C ensemble of tests/ensemble_object (steps, time, reason; q, p to 1e-12; Newton iterations to 2): %s' % verdict(ok))

  if STOP:
    out('every member that did not fail stopped by the stop function: %s' % verdict((info.reason[info.reason >= 0] == simpvi.EnsembleReason.CONVERGED_USER).all()))
    stopcalls = []
    bens, bts = study(PETSc.COMM_WORLD, stopcalls=stopcalls)
    same = np.array_equal(res, bens.getResults(), equal_nan=True) and all(np.array_equal(a, b, equal_nan=True) for a, b in zip(info, bens.getMemberInfo()))
    out('the batch stop function (numpy over a batch) gives the same study as the stop function (bit for bit): %s' % verdict(same))
    ok = all(c[0] == c[2] == c[3] == c[6] and c[1] == c[4] == c[5] == (c[0][0], 1) and not c[7] and c[8] for c in stopcalls)
    out('the batch stop function: arrays of the members of a batch, read-only but its verdicts: %s' % verdict(ok and bool(stopcalls)))
    out('the batch stop function: several members in one call: %s' % verdict(all_processes(max(c[0][0] for c in stopcalls), 'max') > 1))
    bens.destroy()
    bts.destroy()
  if NAN_MEMBER >= 0:
    k = NAN_MEMBER
    out('member %d (a NaN) reported failed at its first step: %s' % (k, verdict(info.reason[k] == simpvi.EnsembleReason.DIVERGED_NONLINEAR_SOLVE and info.steps[k] == 0)))
  others = np.delete(info.reason, NAN_MEMBER) if NAN_MEMBER >= 0 else info.reason
  out('every other member ran to its end: %s' % verdict((others > 0).all()))

  # an output function: q, p and the member id
  def output(ens, i, param, reason, step, t, q, p, values):
    values[:] = q[0], p[0], i

  outens, outts = study(PETSc.COMM_WORLD, output=output)
  values = outens.getResults()
  out('an output function gives each member\'s values: %s' % verdict(values.shape == (NMEMBERS, 3) and np.array_equal(values[:, :2], res, equal_nan=True)
                                                                    and (values[:, 2] == np.arange(NMEMBERS)).all()))
  outens.destroy()
  outts.destroy()
  ens.view()
  ens.destroy()
  ts.destroy()

  # an exception in the mechanics: a PETSc.Error naming it (one process: the study stops where it was)
  def broken(ens, member, param, t, x, v, L, P, G, Px, Pv, Gx, Gv):
    raise ArithmeticError('no pendulum beyond 100%% of t = %g' % t[0])

  try:
    study(PETSc.COMM_SELF, fn=broken)
    out('an exception in the mechanics stops solve(): no')
  except PETSc.Error as e:
    out('an exception in the mechanics stops solve() with a PETSc.Error naming it: %s' % verdict(
      'ArithmeticError: no pendulum beyond 100% of t = 0' in str(e) and 'broken' in str(e) and isinstance(e.__cause__, ArithmeticError)))


if __name__ == '__main__':
  main()

"""
/*TEST

  build:
    requires: petsc4py

  # Simpson, matchstep to t = 10: lone runs, one process against all, the C ensemble, batches of 5
  test:
    suffix: simpson
    nsize: {{1 2}}
    args: -ts_simpvi_type simpson -ensemble_batch 5
    output_file: output/ensemble_simpson.out
    filter: grep -v -e "busy" -e "MPI process"

  # a NaN member among them, Lobatto of degree 3; each member stopped when its angle turns negative
  test:
    suffix: stop
    nsize: {{1 2}}
    args: -ts_simpvi_type lobatto -stop -nan_member 5 -ensemble_batch 4
    output_file: output/ensemble_stop.out
    filter: grep -v -e "busy" -e "MPI process"

TEST*/
"""
