#!/usr/bin/python3
"""simpvi.setConstraints() and simpvi.getConstraintMultipliers(): the planar pendulum in Cartesian coordinates (a unit
mass on a rod of length 1, g(q) = (|q|^2 - 1)/2) through setPointwiseLagrangian(), as tests/constraints.c runs it
in C. Checks: the positions on the constraint and the momentum on the hidden constraint q.p = 0 at round-off after 200
steps; the multipliers' shape (s + 1 nodes, one constraint) and the end node's equal to the rod's tension |v|^2 - g y;
the angle form's end position to 1e-10.

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


def run(constrained, u0, steps=200, h=0.01):
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
  ts.setFromOptions()
  ts.solve(U)
  lam = simpvi.getConstraintMultipliers(ts) if constrained else None
  u = U.getArray().copy()
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

"""
/*TEST

  build:
    requires: petsc4py

  test:

TEST*/
"""
