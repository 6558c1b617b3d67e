#!/usr/bin/python3
"""Parameter gradients from Python (simpvi.setParameterJacobian()) against C and against central differences.

The problem of tests/adjoint.c -problem pendulum: L = 1/2 v^2 + g cos q (mass 1), U0 = (0.9, 0.2), 40 steps of 0.05,
the terminal cost C = sin q + 1/2 p^2, the parameter g (dG/dg = -sin q). Its gradient (dC/dU0, dC/dg) by ts.adjointSolve()
  - under simpson through the mechanical door (simpvi.setMass(), setPotential()), against central differences of the
    cost and against the C test's own numbers (tests/adjoint -verbose, run here: the same problem through C callbacks);
  - through the pointwise door (simpvi.setPointwiseLagrangian(): the same numbers as the mechanical door);
  - under PETSc's theta 0.5 on the phase-space form (simpvi.setUpPhaseSpace(), whose dF/dg comes from the same
    parameter Jacobian), against central differences of theta's map and the C test's -check phasespace, and through
    the pointwise door there too; under rk 4 likewise.
One process (the C test's pendulum is serial).
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
U0, H, STEPS, G = np.array([0.9, 0.2]), 0.05, 40, 9.81


def verdict(ok):
  return 'yes' if ok else 'no'


def potential(ts, t, x, gradV, g):
  gradV.array = g * np.sin(x.array_r)
  return -g * np.cos(x.array_r[0])


def potential_hessian(ts, t, x, Hm, g):
  Hm.setValue(0, 0, g * np.cos(x.array_r[0]))
  Hm.assemble()


def pointwise(ts, t, x, v, L, P, G_, Px, Pv, Gx, Gv, g):
  if L is not None:
    L[:] = 0.5 * v[:, 0]**2 + g * np.cos(x[:, 0])
  if P is not None:
    P[:] = v
  if G_ is not None:
    G_[:, 0] = -g * np.sin(x[:, 0])
  if Px is not None:
    Px[:], Pv[:], Gv[:] = 0, 1, 0
    Gx[:, 0, 0] = -g * np.cos(x[:, 0])


def parameter_jacobian(ts, t, x, v, Ptheta, Gtheta):
  Gtheta.setValue(0, 0, -np.sin(x.array_r[0]))  # dG/dg, G = -g sin q
  Gtheta.assemble()


def dense(rows, cols):
  A = PETSc.Mat().createDense((rows, cols), comm=PETSc.COMM_SELF)
  A.setUp()
  return A


def run(door, tstype, g, u0, gradient):
  """C(U0, g); with gradient also (dC/dU0, dC/dg) by ts.adjointSolve()."""
  ts = PETSc.TS().create(PETSc.COMM_SELF)
  ts.setType(tstype)
  mats = [dense(1, 1) for _ in range(3)]
  if door == 'mechanical':
    mats[0].setValue(0, 0, 1.0)
    mats[0].assemble()
    simpvi.setMass(ts, mats[0])
    simpvi.setPotential(ts, mats[1], potential, potential_hessian, args=(g,))
  else:
    simpvi.setPointwiseLagrangian(ts, pointwise, args=(g,))
  simpvi.setParameterJacobian(ts, None, mats[2], parameter_jacobian)
  U = PETSc.Vec().createSeq(2)
  U.array = u0
  ts.setSolution(U)
  ts.setTimeStep(H)
  ts.setMaxSteps(STEPS)
  ts.setMaxTime(1e10)
  ts.setExactFinalTime(PETSc.TS.ExactFinalTime.MATCHSTEP)
  if tstype == simpvi.TSSIMPVI:
    simpvi.setType(ts, simpvi.Type.SIMPSON)
  elif tstype == PETSc.TS.Type.RK:
    ts.setRKType('4')
  else:  # converged to round-off, as tests/adjoint.c -check phasespace sets it
    ts.getSNES().setTolerances(rtol=1e-15, atol=1e-15)
    ts.getSNES().getKSP().setTolerances(rtol=1e-15, atol=1e-50)
  if gradient:
    ts.setSaveTrajectory()
    lam, mu = U.duplicate(), mats[2].createVecRight()
    ts.setCostGradients([lam], [mu])
  ts.setFromOptions()
  simpvi.setUpPhaseSpace(ts)  # nothing for simpvi; theta: the phase-space form and its dF/dg
  ts.solve(U)
  q, p = U.array_r
  C = np.sin(q) + 0.5 * p * p
  result = C
  if gradient:
    lam.array = [np.cos(q), p]
    mu.set(0)
    ts.adjointSolve()
    result = (C, lam.array.copy(), mu.array[0])
    lam.destroy()
    mu.destroy()
  ts.destroy()
  for o in mats + [U]:
    o.destroy()
  return result


def central(door, tstype, eps=1e-5):
  """(dC/dU0, dC/dg) by central differences of the cost."""
  dU = np.array([(run(door, tstype, G, U0 + eps * e, False) - run(door, tstype, G, U0 - eps * e, False)) / (2 * eps) for e in np.eye(2)])
  dg = (run(door, tstype, G * (1 + eps), U0, False) - run(door, tstype, G * (1 - eps), U0, False)) / (2 * eps * G)
  return dU, dg


def c_gradient(*args):
  """(dC/dU0, dC/dg) as the C test tests/adjoint -verbose prints them (12 digits)."""
  exe = os.path.join(os.environ.get('SIMPVI_TESTS_BIN', ''), 'adjoint')
  # a process of its own (MPI singleton), not one more rank of the mpiexec that runs this script
  env = {k: v for k, v in os.environ.items() if not k.startswith(('OMPI_', 'PMIX_', 'ORTE_', 'OPAL_', 'PMI_')) or k.startswith('OMPI_ALLOW_RUN_AS_ROOT')}
  text = subprocess.run([exe, '-problem', 'pendulum', '-verbose'] + list(args), capture_output=True, text=True, check=True, env=env).stdout
  dU = [float(x) for x in re.findall(r'direction \d+: adjoint (\S+),', text)]
  dg = float(re.search(r'dC/dg: adjoint (\S+),', text).group(1))
  return np.array(dU), dg


def rel(a, b):
  return np.max(np.abs(np.asarray(a) - np.asarray(b))) / np.max(np.abs(b))


def check(name, tstype, door, c_args):
  _, lam, mu = run(door, tstype, G, U0, True)
  fd_lam, fd_mu = central(door, tstype)
  c_lam, c_mu = c_gradient(*c_args)
  if PETSc.Options().getBool('verbose', False):
    out('  %s: lambda %s mu %.12e; central differences %s %.12e; C %s %.12e' % (name, lam, mu, fd_lam, fd_mu, c_lam, c_mu))
    out('  relative errors against central differences %.1e (lambda), %.1e (mu); against C %.1e, %.1e' % (rel(lam, fd_lam), abs(mu - fd_mu) / abs(fd_mu), rel(lam, c_lam), abs(mu - c_mu) / abs(c_mu)))
  out('%s: dC/dU0 and dC/dg from Python against central differences to 1e-7: %s, %s; equal to the C test\'s to 1e-10: %s, %s'
      % (name, verdict(rel(lam, fd_lam) < 1e-7), verdict(abs(mu - fd_mu) < 1e-7 * abs(fd_mu)), verdict(rel(lam, c_lam) < 1e-10), verdict(abs(mu - c_mu) < 1e-10 * abs(c_mu))))
  return lam, mu


lam_m, mu_m = check('simpson, mechanical door', simpvi.TSSIMPVI, 'mechanical', ['-ts_simpvi_type', 'simpson'])
lam_p, mu_p = check('simpson, pointwise door', simpvi.TSSIMPVI, 'pointwise', ['-ts_simpvi_type', 'simpson'])
out('pointwise door: the mechanical door\'s gradient to 1e-12: %s' % verdict(rel(lam_p, lam_m) < 1e-12 and abs(mu_p - mu_m) < 1e-12 * abs(mu_m)))
lam_t, mu_t = check('theta 0.5 on the phase-space form', PETSc.TS.Type.THETA, 'mechanical', ['-check', 'phasespace'])
_, lam_tp, mu_tp = run('pointwise', PETSc.TS.Type.THETA, G, U0, True)
out('theta 0.5, pointwise door: the mechanical door\'s gradient to 1e-12: %s' % verdict(rel(lam_tp, lam_t) < 1e-12 and abs(mu_tp - mu_t) < 1e-12 * abs(mu_t)))
check('rk 4 on the phase-space form', PETSc.TS.Type.RK, 'mechanical', ['-check', 'phasespace', '-ts_type', 'rk', '-ts_rk_type', '4'])

"""
/*TEST

  build:
    requires: petsc4py

  test:

TEST*/
"""
