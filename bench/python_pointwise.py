#!/usr/bin/python3
"""The cost per call of the Python wrapper of simpvi.setPointwiseLagrangian(), old against new, in one run.

  PYTHONPATH=python /usr/bin/python3 bench/python_pointwise.py [--calls N] [--repeats R] [--steps S]

The wrapper is the C function simpvi hands to the step (simpvi._callbacks.pointwise): it wraps the TS, finds the
user's function and gives it numpy views of the ten C arrays. The old one (issue 20's measurement, kept here as it
was) made the ten views with np.ctypeslib.as_array on every call; the new one makes them once per set of buffers.

1. Per call, with the arrays of a Lobatto-3 step of the double pendulum (4 points, 2 positions, every output): the
   C function pointer called through ctypes (C to Python and back, as the step calls it) with a no-op user function,
   minus the same call of a bare callback that returns at once: the wrapper's own cost. Also the user's vectorised
   numpy function alone, for scale. Best of R repeats of N calls each.
2. Whole runs: TSSolve() of the double pendulum (lobatto, S steps of 0.01) with each wrapper and the numpy function;
   the calls counted, the time per call of the whole run, and the run's time over the time spent in the user's numpy
   function during it (the Python step against the user's own numpy time per step).
Needs a PETSc that petsc4py was built on and libsimpvi built on it (SIMPVI_LIBRARY, or build/src/libsimpvi.so).
"""
import argparse
import ctypes
import os
import sys
import time

import petsc4py

parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
parser.add_argument('--calls', type=int, default=20000, help='calls per repeat of the per-call timing')
parser.add_argument('--repeats', type=int, default=5, help='repeats (the best is kept)')
parser.add_argument('--steps', type=int, default=2000, help='steps of the whole runs')
opts, rest = parser.parse_known_args()
petsc4py.init([sys.argv[0]] + rest)  # the rest: PETSc options
from petsc4py import PETSc  # noqa: E402
import numpy as np  # noqa: E402
import simpvi  # noqa: E402
from simpvi import _callbacks as cb  # noqa: E402
from simpvi import _library as C  # noqa: E402



# ---------------------------------------------------------------- the old wrapper, as it was before issue 20
def old_view(ptr, shape, writeable):
  if not ptr:
    return None
  a = np.ctypeslib.as_array(ptr, shape)
  a.flags.writeable = writeable
  return a


def old_pointwise(ts, npoints, n, t, x, v, L, P, G, Px, Pv, Gx, Gv, ctx):
  fn = None
  try:
    tsobj = cb.wrap('TS', ts)
    fn, fargs, kargs = tsobj.getAttr('__simpvi_pointwise__')
    point, block = (npoints, n), (npoints, n, n)
    fn(tsobj, old_view(t, (npoints,), False), old_view(x, point, False), old_view(v, point, False), old_view(L, (npoints,), True),
       old_view(P, point, True), old_view(G, point, True), old_view(Px, block, True), old_view(Pv, block, True),
       old_view(Gx, block, True), old_view(Gv, block, True), *fargs, **kargs)
    return 0
  except BaseException as exc:  # noqa: B036
    return cb._fail('pointwise Lagrangian', fn, exc)


OldPointwiseFn = ctypes.CFUNCTYPE(C.PetscErrorCode, C.handle, C.PetscInt, C.PetscInt, *[C.RealArray] * 10, ctypes.c_void_p)
old = OldPointwiseFn(old_pointwise)
bare = C.PointwiseFn(lambda *a: 0)  # the ctypes call alone, C to Python and back


# ---------------------------------------------------------------- the user's functions
def double_pendulum(ts, t, x, v, L, P, G, Px, Pv, Gx, Gv):
  """m = l = 1, g = 9.81 (python/tests/pointwise.py's, vectorised over the points)."""
  a, b, k, g1, g2 = 2.0, 1.0, 1.0, 2 * 9.81, 9.81
  q1, q2, v1, v2 = x[:, 0], x[:, 1], v[:, 0], v[:, 1]
  s, c = np.sin(q1 - q2), np.cos(q1 - q2)
  if L is not None:
    L[:] = 0.5 * a * v1 * v1 + 0.5 * b * v2 * v2 + k * v1 * v2 * c + g1 * np.cos(q1) + g2 * np.cos(q2)
  if P is not None:
    P[:, 0] = a * v1 + k * c * v2
    P[:, 1] = b * v2 + k * c * v1
  if G is not None:
    G[:, 0] = -k * v1 * v2 * s - g1 * np.sin(q1)
    G[:, 1] = k * v1 * v2 * s - g2 * np.sin(q2)
  if Px is not None:
    Px[:, 0, 0], Px[:, 0, 1], Px[:, 1, 0], Px[:, 1, 1] = -k * v2 * s, k * v2 * s, -k * v1 * s, k * v1 * s
    Pv[:, 0, 0], Pv[:, 0, 1], Pv[:, 1, 0], Pv[:, 1, 1] = a, k * c, k * c, b
    kvvc = k * v1 * v2 * c
    Gx[:, 0, 0], Gx[:, 0, 1], Gx[:, 1, 0], Gx[:, 1, 1] = -kvvc - g1 * np.cos(q1), kvvc, kvvc, -kvvc - g2 * np.cos(q2)
    Gv[:] = Px.transpose(0, 2, 1)


def noop(ts, t, x, v, L, P, G, Px, Pv, Gx, Gv):
  pass


def best(fn, calls, repeats):
  """The smallest time per call over repeats runs of calls calls of fn()."""
  times = []
  for _ in range(repeats):
    start = time.perf_counter()
    for _ in range(calls):
      fn()
    times.append((time.perf_counter() - start) / calls)
  return min(times)


def per_call():
  npoints, n = 4, 2
  arrays = [np.zeros(npoints)] + [np.full((npoints, n), 0.3) for _ in range(2)] + [np.zeros(npoints)] + [np.zeros((npoints, n)) for _ in range(2)] + [np.zeros((npoints, n, n)) for _ in range(4)]
  addrs = [a.ctypes.data for a in arrays]
  ptrs = [a.ctypes.data_as(C.RealArray) for a in arrays]
  ts = PETSc.TS().create(PETSc.COMM_SELF)
  ts.setType(simpvi.TSSIMPVI)
  h = ts.handle
  results = {}
  simpvi.setPointwiseLagrangian(ts, noop)
  t_bare = best(lambda: bare(h, npoints, n, *addrs, None), opts.calls, opts.repeats)
  t_old = best(lambda: old(h, npoints, n, *ptrs, None), opts.calls, opts.repeats)
  t_new = best(lambda: cb.pointwise(h, npoints, n, *addrs, None), opts.calls, opts.repeats)
  views = [arrays[0]] + arrays[1:]
  t_user = best(lambda: double_pendulum(ts, *views), opts.calls, opts.repeats)
  simpvi.setPointwiseLagrangian(ts, double_pendulum)
  t_old_user = best(lambda: old(h, npoints, n, *ptrs, None), opts.calls // 4, opts.repeats)
  t_new_user = best(lambda: cb.pointwise(h, npoints, n, *addrs, None), opts.calls // 4, opts.repeats)
  ts.destroy()
  results.update(bare=t_bare, old=t_old - t_bare, new=t_new - t_bare, user=t_user, old_user=t_old_user - t_bare, new_user=t_new_user - t_bare)
  return results


def whole_run(wrapper):
  """TSSolve() of the double pendulum with the given C function installed as the pointwise callback."""
  calls, user = [0], [0.0]

  def counted(*a):
    calls[0] += 1
    start = time.perf_counter()
    double_pendulum(*a)
    user[0] += time.perf_counter() - start

  ts = PETSc.TS().create(PETSc.COMM_SELF)
  ts.setType(simpvi.TSSIMPVI)
  simpvi.setType(ts, simpvi.Type.LOBATTO)
  simpvi.setPointwiseLagrangian(ts, counted)  # stores counted on the TS; then the wrapper under test is installed
  simpvi._call(C.TSSimpVISetPointwiseLagrangian, ts.handle, ctypes.cast(wrapper, C.PointwiseFn), None)
  U = PETSc.Vec().createSeq(4)
  U.array = [1.0, 0.5, 0.0, 0.0]
  ts.setSolution(U)
  ts.setTimeStep(0.01)
  ts.setMaxSteps(opts.steps)
  ts.setMaxTime(1e10)
  ts.setExactFinalTime(PETSc.TS.ExactFinalTime.MATCHSTEP)
  ts.setFromOptions()
  start = time.perf_counter()
  ts.solve(U)
  elapsed = time.perf_counter() - start
  final = U.array.copy()
  ts.destroy()
  U.destroy()
  return elapsed, calls[0], final, user[0]


load = os.getloadavg()[0]
r = per_call()
us = 1e6
print('Python wrapper of setPointwiseLagrangian(): cost per call (best of %d x %d calls; 4 points, 2 positions, every output; load average %.1f at the start)' % (opts.repeats, opts.calls, load))
print('')
print('| | old (ten np.ctypeslib.as_array per call) | new (views once per buffer) | new / old |')
print('|---|---|---|---|')
print('| wrapper alone (no-op user function, minus the bare ctypes call of %.2f us) | %.1f us | %.1f us | %.3f |' % (r['bare'] * us, r['old'] * us, r['new'] * us, r['new'] / r['old']))
print('| wrapper and the double pendulum in numpy (user function alone: %.1f us) | %.1f us | %.1f us | %.3f |' % (r['user'] * us, r['old_user'] * us, r['new_user'] * us, r['new_user'] / r['old_user']))
t_old, n_old, u_old, f_old = whole_run(old)
t_new, n_new, u_new, f_new = whole_run(cb.pointwise)
print('| TSSolve(), double pendulum, lobatto, %d steps: calls, time per call | %d, %.1f us | %d, %.1f us | %.3f |' % (opts.steps, n_old, t_old / n_old * us, n_new, t_new / n_new * us, (t_new / n_new) / (t_old / n_old)))
print('| the same run: its time over the user\'s numpy function\'s time in it (issue 22: at most 2) | %.2f | %.2f | |' % (t_old / f_old, t_new / f_new))
print('')
print('The same final state from both wrappers: %s' % ('yes' if np.array_equal(u_old, u_new) else 'no (difference %.1e)' % np.max(np.abs(u_old - u_new))))
print('The new wrapper\'s own cost per call below a tenth of the old one\'s: %s' % ('yes' if r['new'] < 0.1 * r['old'] else 'no'))
