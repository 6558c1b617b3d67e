#!/usr/bin/python3
"""Every public C function of simpvi.h reachable from Python: the header's PETSC_EXTERN functions read from the
source tree, each found in simpvi.counterparts with a Python function or method (Ensemble.solve) of that name (or None, with its reason in the
module: PETSc calls it). Then simpvi.getTableau() against the Gauss-Lobatto and Gauss-Legendre tables (nodes,
weights integrating polynomials exactly to their degree, the Lagrange basis B and its derivative D), and with
-kinsol the SNESKINSOL functions on a SNES of type kinsol.
"""
import os
import re
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402
import numpy as np  # noqa: E402
import simpvi  # noqa: E402

out = PETSc.Sys.Print


def verdict(ok):
  return 'yes' if ok else 'no'


def header_functions():
  """The public functions of include/simpvi.h: PETSC_EXTERN <type> <name>(."""
  here = os.path.dirname(os.path.realpath(__file__))
  with open(os.path.join(here, '..', '..', 'include', 'simpvi.h')) as f:
    return re.findall(r'^PETSC_EXTERN\s+\w+\s+(\w+)\s*\(', f.read(), re.M)


def attribute(name):
  """simpvi's attribute of that name, dotted for a class's method (Ensemble.solve); None if there is none."""
  obj = simpvi
  for part in name.split('.'):
    obj = getattr(obj, part, None)
  return obj


def check_reach():
  names = header_functions()
  missing = [n for n in names if n not in simpvi.counterparts]
  absent = [n for n in names if simpvi.counterparts.get(n) and not callable(attribute(simpvi.counterparts[n]))]
  stale = [n for n in simpvi.counterparts if n not in names]
  out('simpvi.h: %d public functions, %d with a Python counterpart' % (len(names), sum(1 for n in names if simpvi.counterparts.get(n))))
  out('every public function in simpvi.counterparts: %s%s' % (verdict(not missing), '' if not missing else ' (missing: %s)' % ', '.join(missing)))
  out('every counterpart a function of the module: %s%s' % (verdict(not absent), '' if not absent else ' (absent: %s)' % ', '.join(absent)))
  out('no counterpart of a function simpvi.h lacks: %s%s' % (verdict(not stale), '' if not stale else ' (stale: %s)' % ', '.join(stale)))
  here = os.path.dirname(os.path.realpath(__file__))
  with open(os.path.join(here, '..', '..', 'docs', 'python.md')) as f:
    table = f.read()
  undocumented = [n for n in names if '`%s()`' % n not in table]
  out("every public function in docs/python.md's table: %s%s" % (verdict(not undocumented), '' if not undocumented else ' (missing: %s)' % ', '.join(undocumented)))


def lagrange(nodes, x):
  """B[k, i] = phi_i(x_k) and D[k, i] = phi_i'(x_k) of the Lagrange basis of nodes."""
  B, D = np.zeros((len(x), len(nodes))), np.zeros((len(x), len(nodes)))
  for i in range(len(nodes)):
    others = np.delete(nodes, i)
    phi = np.poly1d(others, r=True) / np.prod(nodes[i] - others)
    B[:, i], D[:, i] = phi(x), phi.deriv()(x)
  return B, D


def check_tableau(scheme, degree, nq, exactness):
  ts = PETSc.TS().create(PETSc.COMM_SELF)
  ts.setType(simpvi.TSSIMPVI)
  simpvi.setType(ts, scheme)
  simpvi.setDegree(ts, degree)
  tab = simpvi.getTableau(ts)
  ts.destroy()
  s = degree
  ok = tab.degree == s and tab.nq == nq and tab.c.shape == (s + 1,) and tab.tau.shape == tab.w.shape == (nq,) and tab.B.shape == tab.D.shape == (nq, s + 1)
  # the nodes are Gauss-Lobatto: 0, 1 and the roots of P_s' on [0, 1]
  lobatto = np.sort(np.concatenate(([0.0, 1.0], (np.polynomial.legendre.Legendre.basis(s).deriv().roots() + 1) / 2)))
  ok = ok and np.allclose(tab.c, lobatto, rtol=0, atol=1e-14)
  # the weights integrate x^m exactly up to the quadrature's degree
  ok = ok and all(abs(np.dot(tab.w, tab.tau**m) - 1 / (m + 1)) < 1e-14 for m in range(exactness + 1))
  B, D = lagrange(tab.c, tab.tau)
  ok = ok and np.allclose(tab.B, B, rtol=0, atol=1e-12) and np.allclose(tab.D, D, rtol=0, atol=1e-11)
  out('getTableau() of %s degree %d: %d nodes, %d points, nodes, weights, B and D as computed here: %s' % (scheme, degree, s + 1, nq, verdict(ok)))


def check_kinsol():
  snes = PETSc.SNES().create(PETSc.COMM_SELF)
  snes.setType(simpvi.SNESKINSOL)
  simpvi.kinsolSetStrategy(snes, 'fp')
  simpvi.kinsolSetMAA(snes, 3)
  simpvi.kinsolSetTolerances(snes, 1e-9, 1e-11)
  tol = simpvi.kinsolGetTolerances(snes)
  scales = []

  def scale(snes, x, F, fs, us):
    scales.append((fs, us))
    return 2 * fs, us

  simpvi.kinsolSetScaleFunction(snes, scale)

  def residual(snes, x, F):  # x^2 = 2 componentwise
    F.array = x.array_r**2 - 2

  def jacobian(snes, x, J, P):
    P.setDiagonal(2 * x)
    P.assemble()

  x = PETSc.Vec().createSeq(3)
  x.set(1.0)
  J = PETSc.Mat().createAIJ((3, 3), nnz=1, comm=PETSc.COMM_SELF)
  J.setUp()
  snes.setFunction(residual, x.duplicate())
  snes.setJacobian(jacobian, J)
  simpvi.kinsolSetStrategy(snes, simpvi.KINSOLStrategy.LINESEARCH)
  snes.solve(None, x)
  flag, desc = simpvi.kinsolGetReturnFlag(snes)
  ok = tol == (1e-9, 1e-11) and scales and np.allclose(x.array, np.sqrt(2), rtol=1e-8) and flag >= 0 and desc
  out('SNESKINSOL from Python: strategy, depth, tolerances, scale function (called %s), return flag: %s' % (verdict(bool(scales)), verdict(ok)))
  for o in (snes, x, J):
    o.destroy()


check_reach()
check_tableau(simpvi.Type.LOBATTO, 3, 4, 5)
check_tableau(simpvi.Type.SIMPSON, 2, 3, 3)
check_tableau(simpvi.Type.GAUSS, 2, 2, 3)
if PETSc.Options().getBool('kinsol', False):
  check_kinsol()

"""
/*TEST

  build:
    requires: petsc4py

  test:

  test:
    suffix: kinsol
    requires: kinsol
    args: -kinsol

TEST*/
"""
