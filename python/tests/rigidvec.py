#!/usr/bin/python3
"""Rigid bodies in the Vec/Mat form from Python (simpvi.setRigidBodyInertias(), setRigidBodyPotentialRoutine(),
setRigidBodyHessianRoutine()), on any number of processes: n heavy tops of different tilts and spins (each process
its block), the potential and its Hessian Python functions on Vecs and a parallel Mat. The tops do not interact, so
each process's bodies must move as the array form (setRigidBodies()) moves them on that process alone.
Checks: the Vec/Mat form against the array form (to round-off), each top's vertical spatial momentum kept to 1e-13,
the energy error small, an exception raised in the potential as a PETSc error caused by it.
Options: -n <6>
"""
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402
import numpy as np  # noqa: E402
import simpvi  # noqa: E402

out = PETSc.Sys.Print
MGL = 0.1 * 9.81 * 0.15
J1 = np.diag([2.33e-3, 2.33e-3, 1.25e-4])


def verdict(ok):
  return 'yes' if ok else 'no'


def top_terms(R):
  """For attitudes R (k, 3, 3): V, the gradients (k, 3) and the 3 x 3 Hessian blocks (k, 3, 3) of k heavy tops."""
  e3 = np.array([0.0, 0.0, 1.0])
  z = R[:, 2, :]
  g = MGL * np.cross(e3, z)
  H = np.array([MGL * ((np.outer(zb, e3) + np.outer(e3, zb)) / 2 - zb[2] * np.eye(3)) for zb in z])
  return MGL * z[:, 2].sum(), g, H


def array_potential(R, g, H):
  V, gg, HH = top_terms(R)
  if g is not None:
    g[:] = gg
  if H is not None:
    H[:] = 0
    for b in range(len(R)):
      H[3 * b:3 * b + 3, 3 * b:3 * b + 3] = HH[b]
  return V


def vec_potential(ts, R, g, fail=False):
  if fail:
    raise ValueError('no potential today')
  V, gg, _ = top_terms(R.getArray(readonly=True).reshape(-1, 3, 3))
  g.setArray(gg.ravel())
  return _reduce(R.getComm(), V, 'sum')


def vec_hessian(ts, R, H):
  _, _, HH = top_terms(R.getArray(readonly=True).reshape(-1, 3, 3))
  lo = H.getOwnershipRange()[0] // 3
  H.zeroEntries()
  for b in range(len(HH)):
    rows = np.arange(3 * (lo + b), 3 * (lo + b) + 3, dtype=PETSc.IntType)
    H.setValues(rows, rows, HH[b])
  H.assemble()


def start(b):
  """Top b: tilted by 0.3 + 0.1 b about x, spinning about its axis, precessing."""
  th = 0.3 + 0.1 * b
  p = np.array([0.0, J1[0, 0] * 9.2 * np.sin(th), J1[2, 2] * (9.2 * np.cos(th) + 252 - 10 * b)])
  return simpvi.so3Exp([th, 0.0, 0.0]), p


def state(comm, bodies):
  nl = len(bodies)
  U = PETSc.Vec().createMPI((12 * nl, PETSc.DECIDE), comm=comm)
  u = U.getArray()
  for j, b in enumerate(bodies):
    R, p = start(b)
    u[9 * j:9 * j + 9], u[9 * nl + 3 * j:9 * nl + 3 * j + 3] = R.ravel(), p
  return U


def make_ts(comm, dt, steps):
  ts = PETSc.TS().create(comm=comm)
  ts.setType(simpvi.TSSIMPVI)
  ts.setTimeStep(dt)
  ts.setMaxSteps(steps)
  ts.setMaxTime(1e9)
  return ts


def vertical(U, nl):
  u = U.getArray(readonly=True)
  return np.array([(u[9 * j:9 * j + 9].reshape(3, 3) @ u[9 * nl + 3 * j:9 * nl + 3 * j + 3])[2] for j in range(nl)])


def main():
  opts = PETSc.Options()
  n = opts.getInt('n', 6)
  comm = PETSc.COMM_WORLD
  nl = PETSc.Vec().createMPI(n, comm=comm)
  lo, hi = nl.getOwnershipRange()
  nl.destroy()
  bodies, k = list(range(lo, hi)), hi - lo
  dt, steps = 1e-3, 400

  # the Vec/Mat form on all processes
  U = state(comm, bodies)
  H = PETSc.Mat().createAIJ(((3 * k, 3 * n), (3 * k, 3 * n)), nnz=(3, 0), comm=comm)
  ts = make_ts(comm, dt, steps)
  simpvi.setRigidBodyInertias(ts, [J1] * k)
  simpvi.setRigidBodyPotentialRoutine(ts, None, vec_potential)
  simpvi.setRigidBodyHessianRoutine(ts, H, vec_hessian)
  ts.setSolution(U)
  ts.setFromOptions()
  m0 = vertical(U, k)
  E0 = simpvi.computeEnergy(ts, 0.0, U)
  ts.solve(U)
  E1 = simpvi.computeEnergy(ts, ts.getTime(), U)
  dm = np.max(np.abs(vertical(U, k) - m0) / np.abs(m0)) if k else 0.0

  # the array form on this process's bodies alone
  Ua = state(PETSc.COMM_SELF, bodies)
  tsa = make_ts(PETSc.COMM_SELF, dt, steps)
  simpvi.setRigidBodies(tsa, [J1] * k, array_potential)
  tsa.setSolution(Ua)
  tsa.solve(Ua)
  diff = np.max(np.abs(U.getArray(readonly=True) - Ua.getArray(readonly=True))) if k else 0.0

  diff, dm = _reduce(comm, diff, 'max'), _reduce(comm, dm, 'max')
  out('%d heavy tops on %d process(es), %d steps' % (n, comm.getSize(), steps))
  out('Vec/Mat form (Python routines) against the array form on each process, to 1e-13: %s' % verdict(diff < 1e-13))
  out('vertical spatial momentum of every top kept to 1e-13 relative: %s' % verdict(dm < 1e-13))
  out('relative energy error below 1e-6: %s' % verdict(abs(E1 - E0) < 1e-6 * abs(E0)))
  if diff >= 1e-13 or dm >= 1e-13:
    out('  difference %g, momentum drift %g' % (diff, dm))

  # an exception in the potential: a PETSc error caused by it
  ts2 = make_ts(comm, dt, 2)
  simpvi.setRigidBodyInertias(ts2, [J1] * k)
  simpvi.setRigidBodyPotentialRoutine(ts2, None, vec_potential, kargs={'fail': True})
  simpvi.setRigidBodyHessianRoutine(ts2, H, vec_hessian)
  U2 = state(comm, bodies)
  ts2.setSolution(U2)
  try:
    simpvi.computeEnergy(ts2, 0.0, U2)  # simpvi's own call chains the callback's exception (ts.solve() is petsc4py's)
    ok = False
  except PETSc.Error as err:
    ok = isinstance(err.__cause__, ValueError)
  out('an exception in the potential routine: a PETSc error caused by it: %s' % verdict(ok))
  for obj in (ts, tsa, ts2, U, Ua, U2, H):
    obj.destroy()


def _reduce(comm, x, op):
  """The sum or the largest of x over the processes (without mpi4py): through a Vec of one entry per process."""
  w = PETSc.Vec().createMPI((1, PETSc.DECIDE), comm=comm)
  w.set(x)
  r = w.sum() if op == 'sum' else w.max()[1]
  w.destroy()
  return r


if __name__ == '__main__':
  main()

"""
/*TEST

  build:
    requires: petsc4py

  test:
    suffix: 1

  test:
    suffix: ranks
    nsize: 2
    output_file: output/rigidvec_1.out
    filter: sed -e "s/on 2 process/on 1 process/"

TEST*/
"""
