#!/usr/bin/python3
"""simpvi.setConstraints() and simpvi.getConstraintMultipliers(): the planar pendulum in Cartesian coordinates (a unit
mass on a rod of length 1, g(q) = (|q|^2 - 1)/2) through setPointwiseLagrangian(), as tests/constraints.c runs it
in C. Checks: the positions on the constraint and the momentum on the hidden constraint q.p = 0 at round-off after 200
steps; the multipliers' shape (s + 1 nodes, one constraint) and the end node's equal to the rod's tension |v|^2 - g y;
the angle form's end position to 1e-10; the same pendulum through the mechanical door with the constraint on Vecs
(setEqualityConstraintsRoutine(), setJacobianEqualityRoutine(), setHessianEqualityRoutine()) to 1e-10; ts.adjointSolve() with the constraints: dC/dU0 of
C = sum_j a_j sin(q_j) + 1/2 b_j p_j^2 at the end against central differences (relative 1e-7).

One process: the pointwise door is for small systems.
"""
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402
import numpy as np  # noqa: E402
import simpvi  # noqa: E402

out = PETSc.Sys.Print
GRAVITY = 1.0


def verdict(ok):
  return 'yes' if ok else 'no'


def cartesian(ts, t, x, v, L, P, G, Px, Pv, Gx, Gv):
  """L = 1/2 |v|^2 - g y"""
  if L is not None:
    L[:] = 0.5 * (v * v).sum(axis=1) - GRAVITY * x[:, 1]
  if P is not None:
    P[:] = v
  if G is not None:
    G[:, 0], G[:, 1] = 0, -GRAVITY
  if Px is not None:
    Px[:], Gx[:], Gv[:] = 0, 0, 0
    Pv[:] = np.eye(2)


def rod(ts, q, lam, g, G, H):
  if g is not None:
    g[0] = 0.5 * (q @ q - 1)
  if G is not None:
    G[0, :] = q
  if H is not None:
    H[:] = lam[0] * np.eye(2)


def angle(ts, t, x, v, L, P, G, Px, Pv, Gx, Gv):
  """L = 1/2 th'^2 + g cos th"""
  if L is not None:
    L[:] = 0.5 * v[:, 0] ** 2 + GRAVITY * np.cos(x[:, 0])
  if P is not None:
    P[:] = v
  if G is not None:
    G[:, 0] = -GRAVITY * np.sin(x[:, 0])
  if Px is not None:
    Px[:], Gv[:] = 0, 0
    Pv[:] = 1
    Gx[:, 0, 0] = -GRAVITY * np.cos(x[:, 0])


def potential(ts, t, x, gradV):
  """V = g y, for the mechanical door"""
  gradV.array = [0, GRAVITY]
  return GRAVITY * x.array_r[1]


def potential_hessian(ts, t, x, H):
  pass  # H = 0, as assembled


def rod_g(ts, q, g):
  g.array = [0.5 * (q.array_r @ q.array_r - 1)]


def rod_G(ts, q, G):
  G.setValues([0], [0, 1], q.array_r)
  G.assemble()


def rod_H(ts, q, lam, H):
  H.zeroEntries()
  H.setValues([0, 1], [0, 1], lam.array_r[0] * np.eye(2))
  H.assemble()


def run_vec(u0, steps=200, h=0.01):
  """The Cartesian pendulum through the mechanical door, the constraint on Vecs and Mats"""
  ts = PETSc.TS().create(comm=PETSc.COMM_SELF)
  ts.setType(simpvi.TSSIMPVI)
  simpvi.setType(ts, simpvi.Type.LOBATTO)
  M, K, G, H = (PETSc.Mat().createAIJ(size, nnz=nnz, comm=PETSc.COMM_SELF) for size, nnz in (((2, 2), 1), ((2, 2), 1), ((1, 2), 2), ((2, 2), 2)))
  for A in (M, K, G, H):
    A.setUp()
  M.setDiagonal(PETSc.Vec().createWithArray(np.ones(2), comm=PETSc.COMM_SELF))
  K.setDiagonal(PETSc.Vec().createWithArray(np.zeros(2), comm=PETSc.COMM_SELF))
  G.setValues([0], [0, 1], [0, 0])  # the patterns of G and H, zeros
  H.setValues([0, 1], [0, 1], np.zeros((2, 2)))
  G.assemble()
  H.assemble()
  g = PETSc.Vec().createSeq(1, comm=PETSc.COMM_SELF)
  simpvi.setMass(ts, M)
  simpvi.setPotential(ts, K, potential, potential_hessian)
  simpvi.setEqualityConstraintsRoutine(ts, g, rod_g)
  simpvi.setJacobianEqualityRoutine(ts, G, rod_G)
  simpvi.setHessianEqualityRoutine(ts, H, rod_H)
  U = PETSc.Vec().createSeq(len(u0), comm=PETSc.COMM_SELF)
  U.setArray(u0)
  ts.setSolution(U)
  ts.setTimeStep(h)
  ts.setMaxSteps(steps)
  ts.setMaxTime(1e10)
  ts.setExactFinalTime(PETSc.TS.ExactFinalTime.MATCHSTEP)
  ts.setFromOptions()
  ts.solve(U)
  u = U.getArray().copy()
  for obj in (ts, U, g, M, K, G, H):
    obj.destroy()
  return u


def cost(u):
  """C(U) and dC/dU"""
  a, b = np.array([0.3, 0.4]), np.array([0.5, 0.7])
  return (a * np.sin(u[:2])).sum() + 0.5 * (b * u[2:] ** 2).sum(), np.concatenate([a * np.cos(u[:2]), b * u[2:]])


def run(constrained, u0, steps=200, h=0.01, adjoint=False):
  ts = PETSc.TS().create(comm=PETSc.COMM_SELF)
  ts.setType(simpvi.TSSIMPVI)
  simpvi.setType(ts, simpvi.Type.LOBATTO)
  simpvi.setPointwiseLagrangian(ts, cartesian if constrained else angle)
  if constrained:
    simpvi.setConstraints(ts, 1, rod)
  U = PETSc.Vec().createSeq(len(u0), comm=PETSc.COMM_SELF)
  U.setArray(u0)
  ts.setSolution(U)
  ts.setTimeStep(h)
  ts.setMaxSteps(steps)
  ts.setMaxTime(1e10)
  ts.setExactFinalTime(PETSc.TS.ExactFinalTime.MATCHSTEP)
  if adjoint:
    ts.setSaveTrajectory()
    grad = U.duplicate()
    ts.setCostGradients([grad])
  ts.setFromOptions()
  ts.solve(U)
  lam = simpvi.getConstraintMultipliers(ts) if constrained else None
  u = U.getArray().copy()
  if adjoint:  # lam: dC/dU0 in place of the multipliers
    grad.setArray(cost(u)[1])
    ts.adjointSolve()
    lam = grad.getArray().copy()
    grad.destroy()
  ts.destroy()
  U.destroy()
  return u, lam


th, om = 1.0, 0.3
q0 = np.array([np.sin(th), -np.cos(th)])
v0 = om * np.array([np.cos(th), np.sin(th)])
u, lam = run(True, np.concatenate([q0, v0]))
q, p = u[:2], u[2:]
out('Cartesian pendulum, 200 steps: |g(q)| <= 1e-12: %s, |G(q) v| <= 1e-11: %s' % (verdict(abs(0.5 * (q @ q - 1)) <= 1e-12), verdict(abs(q @ p) <= 1e-11)))
tension = p @ p - GRAVITY * q[1]
out('multipliers: shape %s, the end node\'s the rod\'s tension to 1e-4: %s' % (lam.shape, verdict(abs(lam[-1, 0] - tension) <= 1e-4 * tension)))
ua, _ = run(False, np.array([th, om]))
out('the angle form\'s end position to 1e-10: %s' % verdict(np.abs(q - np.array([np.sin(ua[0]), -np.cos(ua[0])])).max() <= 1e-10))
uv = run_vec(np.concatenate([q0, v0]))
out('the mechanical door with the constraint on Vecs and Mats: the pointwise run\'s end state to 1e-10: %s' % verdict(np.abs(uv - u).max() <= 1e-10))
u0 = np.concatenate([q0, v0])
_, grad = run(True, u0, steps=10, h=0.05, adjoint=True)
eps, worst = 1e-5, 0.0
for j in range(4):
  d = np.eye(4)[j]
  fd = (cost(run(True, u0 + eps * d, steps=10, h=0.05)[0])[0] - cost(run(True, u0 - eps * d, steps=10, h=0.05)[0])[0]) / (2 * eps)
  worst = max(worst, abs(grad @ d - fd) / np.linalg.norm(grad))
out('ts.adjointSolve() with the constraint: dC/dU0 against central differences in 4 directions, relative error < 1e-7: %s' % verdict(worst < 1e-7))

"""
/*TEST

  build:
    requires: petsc4py

  test:

TEST*/
"""
