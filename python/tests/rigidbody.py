#!/usr/bin/python3
"""simpvi.RigidBodies: the heavy top of the Lagrange-top seed's Table 3 on SO(3), its potential a Python function.
Checks: the step's Jacobian (with the Python Hessian) against central differences of its residual through the SNES;
over 2000 Simpson steps the vertical spatial and the axial body momenta kept to 1e-13 relative and R'R = I to 1e-13,
the energy error small; the same top by ts.solve() after setRigidBodies() against the object's loop; a constant
torque in space by setRigidBodyTorque() (R p = L0 + t tau_s); so3Exp/so3Log/so3Dexp/so3DexpDerivative against their identities; an exception raised in the
potential as a PETSc error caused by it.
"""
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402
import numpy as np  # noqa: E402
import simpvi  # noqa: E402

out = PETSc.Sys.Print
MGL = 0.1 * 9.81 * 0.15
I1, I3 = 2.33e-3, 1.25e-4


def verdict(ok):
  return 'yes' if ok else 'no'


def top(R, g, H):
  """V = m g l e3' R e3; z = R' e3: g = m g l e3 x z, H = m g l [(z e3' + e3 z')/2 - (z.e3) I]."""
  z = R[0, 2, :]
  if g is not None:
    g[0] = MGL * np.cross([0.0, 0.0, 1.0], z)
  if H is not None:
    e3 = np.array([0.0, 0.0, 1.0])
    H[:] = MGL * ((np.outer(z, e3) + np.outer(e3, z)) / 2 - z[2] * np.eye(3))
  return MGL * z[2]


def initial(rb):
  th = np.pi / 3
  p = np.array([0.0, I1 * 9.2 * np.sin(th), I3 * (9.2 * np.cos(th) + 252)])
  return rb.createState(simpvi.so3Exp([th, 0.0, 0.0]), p)


def check_jacobian(ts):
  rb = simpvi.RigidBodies().create(ts, np.diag([I1, I1, I3]), top)
  U = initial(rb)
  rb.setStep(0.004, U)
  snes = rb.getSNES()
  Z = snes.getSolution().copy()
  Z.setArray(Z.getArray() + 0.05 * np.sin(np.arange(Z.getSize()) + 1.0))
  A = snes.getJacobian()[0]
  snes.computeJacobian(Z, A)
  J = A.getDenseArray().copy()
  F1, F2, eps = Z.duplicate(), Z.duplicate(), 1e-6
  Jfd = np.empty_like(J)
  for c in range(Z.getSize()):
    z = Z.getArray()
    z[c] += eps
    snes.computeFunction(Z, F1)
    z[c] -= 2 * eps
    snes.computeFunction(Z, F2)
    z[c] += eps
    Jfd[:, c] = (F1.getArray() - F2.getArray()) / (2 * eps)
  out('step Jacobian = central differences of the residual (to 1e-7 relative): %s' % verdict(np.linalg.norm(J - Jfd) <= 1e-7 * np.linalg.norm(J)))
  rb.destroy()


def check_run(ts, steps=2000, T=0.25):
  rb = simpvi.RigidBodies().create(ts, np.diag([I1, I1, I3]), top)
  U = initial(rb)
  R0, p0 = rb.getState(U)
  mu0, a0, E0 = (R0[0] @ p0[0])[2], p0[0, 2], rb.computeEnergy(U)
  dmom = dorth = dE = 0.0
  for _ in range(steps):
    rb.step(T / steps, U)
    R, p = rb.getState(U)
    dmom = max(dmom, abs((R[0] @ p[0])[2] - mu0) / abs(mu0), abs(p[0, 2] - a0) / abs(a0))
    dorth = max(dorth, np.abs(R[0].T @ R[0] - np.eye(3)).max())
    dE = max(dE, abs(rb.computeEnergy(U) - E0) / abs(E0))
  out('heavy top, %d steps: momenta kept (to 1e-13 relative): %s' % (steps, verdict(dmom <= 1e-13)))
  out("heavy top: ||R'R - I|| <= 1e-13: %s" % verdict(dorth <= 1e-13))
  out('heavy top: energy error below 1e-8 relative: %s' % verdict(dE <= 1e-8))
  rb.destroy()


def check_so3():
  xi, a, b = np.array([0.3, -1.1, 0.9]), np.array([0.2, 0.5, -0.7]), np.array([1.0, -0.3, 0.4])
  E = simpvi.so3Exp(xi)
  T, Tinv = simpvi.so3Dexp(xi)
  phi, grad, hess = simpvi.so3DexpDerivative(xi, a, b)
  out('so3: log(exp(xi)) = xi: %s' % verdict(np.abs(simpvi.so3Log(E) - xi).max() <= 1e-14))
  out("so3: exp(xi) T(xi) = T(xi)', T Tinv = I: %s" % verdict(np.abs(E @ T - T.T).max() <= 1e-14 and np.abs(T @ Tinv - np.eye(3)).max() <= 1e-14))
  eps = 1e-6
  fd = np.array([(a @ simpvi.so3Dexp(xi + eps * e)[0] @ b - a @ simpvi.so3Dexp(xi - eps * e)[0] @ b) / (2 * eps) for e in np.eye(3)])
  out("so3: a' T b and its gradient: %s" % verdict(abs(phi - a @ T @ b) <= 1e-14 and np.abs(fd - grad).max() <= 1e-8 and np.abs(hess - hess.T).max() <= 1e-14))


def check_error(ts):
  def broken(R, g, H):
    raise ArithmeticError('no potential here')
  rb = simpvi.RigidBodies().create(ts, np.diag([I1, I1, I3]), broken)
  U = initial(rb)
  try:
    rb.step(0.001, U)
    out('an exception in the potential raises: no')
  except PETSc.Error as e:
    out('an exception in the potential raises PETSc.Error caused by it: %s' % verdict(isinstance(e.__cause__, ArithmeticError)))
  rb.destroy()


def check_ts(ts, steps=50, T=0.0125):
  """setRigidBodies(): ts.solve() to -ts_max_steps equal (bit for bit) to the object's own loop of the same steps."""
  rb = simpvi.RigidBodies().create(ts, np.diag([I1, I1, I3]), top)
  W = initial(rb)
  for _ in range(steps):
    rb.step(T / steps, W)
  rb.destroy()
  tsr = PETSc.TS().create(comm=PETSc.COMM_SELF)
  tsr.setType(simpvi.TSSIMPVI)
  bodies = simpvi.setRigidBodies(tsr, np.diag([I1, I1, I3]), top)
  U = initial(bodies)
  tsr.setSolution(U)
  tsr.setTimeStep(T / steps)
  tsr.setMaxSteps(steps)
  tsr.setMaxTime(1e6)
  tsr.setFromOptions()
  tsr.solve(U)
  same = np.array_equal(U.getArray(), W.getArray())
  out('ts.solve() of setRigidBodies(), %d steps: the object\'s own loop bit for bit: %s' % (tsr.getStepNumber(), verdict(same)))
  out('simpvi.computeEnergy() = getRigidBodies().computeEnergy(): %s' % verdict(simpvi.computeEnergy(tsr, T, U) == simpvi.getRigidBodies(tsr).computeEnergy(U)))
  # the object setRigidBodies() returned reaches the TS's step object too (it crashed on a NULL handle before)
  out("= computeEnergy() of setRigidBodies()' object: %s" % verdict(simpvi.computeEnergy(tsr, T, U) == bodies.computeEnergy(U)))
  tsr.destroy()


def check_torque():
  """setRigidBodyTorque(): a free asymmetric body under a torque tau_s fixed in space (tau = R' tau_s, tauR = hat(tau)):
  R p = L0 + t tau_s at the end of a ts.solve() to round-off."""
  taus = np.array([0.3, -0.5, 0.2])

  def torque(t, R, Omega, tau, tauR, tauO, tauth):
    tau[0] = R[0].T @ taus
    if tauR is not None:
      x = tau[0]
      tauR[:, :] = [[0, -x[2], x[1]], [x[2], 0, -x[0]], [-x[1], x[0], 0]]

  ts = PETSc.TS().create(comm=PETSc.COMM_SELF)
  ts.setType(simpvi.TSSIMPVI)
  bodies = simpvi.setRigidBodies(ts, np.array([[1.0, 0.1, 0], [0.1, 2.0, -0.2], [0, -0.2, 3.5]]))
  simpvi.setRigidBodyTorque(ts, torque)
  R0, p0 = simpvi.so3Exp([0.3, -0.2, 0.9]), np.array([0.7, -2.4, 3.15])
  U = bodies.createState(R0[None], p0[None])
  ts.setSolution(U)
  ts.setTimeStep(0.01)
  ts.setMaxSteps(500)
  ts.setMaxTime(100)
  ts.setExactFinalTime(PETSc.TS.ExactFinalTime.MATCHSTEP)
  ts.setFromOptions()
  ts.solve(U)
  R, p = bodies.getState(U)
  L, L1 = R[0] @ p[0], R0 @ p0 + ts.getTime() * taus
  out('setRigidBodyTorque(): a constant torque in space, %d steps: R p = L0 + t tau_s to 1e-13: %s' % (ts.getStepNumber(), verdict(np.linalg.norm(L - L1) <= 1e-13 * np.linalg.norm(L1))))
  ts.destroy()


def main():
  ts = PETSc.TS().create(comm=PETSc.COMM_SELF)
  ts.setType(simpvi.TSSIMPVI)
  ts.setFromOptions()
  check_jacobian(ts)
  check_run(ts)
  check_so3()
  check_error(ts)
  check_ts(ts)
  check_torque()
  ts.destroy()


if __name__ == '__main__':
  main()

"""
/*TEST

  build:
    requires: petsc4py

  test:

TEST*/
"""
