#!/usr/bin/python3
"""A damped, driven chain of masses on a 1-D DMDA, written with petsc4py for TSALPHA2 as a user writes it:
ts.setI2Function()/setI2Jacobian(), the ghosts by globalToLocal(), the Jacobian filled entry by entry with
Mat.setValueStencil() into the DM's matrix. m a_i + c v_i - k (u_{i+1} - 2 u_i + u_{i-1}) = f0 cos(Omega t) phi_i,
fixed ends, from u = phi at rest, phi_i = sin(mode pi (i+1)/(n+1)): the exact solution is the damped, driven
oscillation of that mode. It never imports simpvi: `-dll_append libsimpvi.so -ts_type simpvi` switches it.

Options: -n 16 -mode 3 -c 0.1 -f0 0.5 -Omega 1.3 -T 4 -dt 0.4 -refine L (L solves, halving the step),
-order p (observed order at least p - 0.3), -error_tol e, -write file / -compare file (final state, PETSc binary).
"""
import math
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402

opts = PETSc.Options()
n, mode = opts.getInt('n', 16), opts.getInt('mode', 3)
m, k, c = 1.0, 1.0, opts.getReal('c', 0.1)
f0, Omega = opts.getReal('f0', 0.5), opts.getReal('Omega', 1.3)
T, dt, refine = opts.getReal('T', 4.0), opts.getReal('dt', 0.4), opts.getInt('refine', 1)


def phi(i):
  return math.sin(mode * math.pi * (i + 1) / (n + 1))


def exact_amplitude(t):
  """a'' + (c/m) a' + w^2 a = (f0/m) cos(Omega t), a(0) = 1, a'(0) = 0"""
  s = math.sin(mode * math.pi / (2 * (n + 1)))
  w2, g, F = 4 * k / m * s * s, c / m, f0 / m
  dre, dim = w2 - Omega * Omega, g * Omega
  d2 = dre * dre + dim * dim
  p0, pd0 = F * dre / d2, F * dim * Omega / d2
  wd = math.sqrt(w2 - g * g / 4)
  A0 = 1 - p0
  B0 = (-pd0 + g / 2 * A0) / wd
  part = F * (dre * math.cos(Omega * t) + dim * math.sin(Omega * t)) / d2
  return part + math.exp(-g * t / 2) * (A0 * math.cos(wd * t) + B0 * math.sin(wd * t))


class Chain:

  def __init__(self, da):
    self.da = da
    self.local = da.createLocalVec()

  def function(self, ts, t, u, v, a, f):
    self.da.globalToLocal(u, self.local)
    ul, vv, aa, ff = self.da.getVecArray(self.local), self.da.getVecArray(v), self.da.getVecArray(a), self.da.getVecArray(f)
    (xs, xe), = self.da.getRanges()
    force = f0 * math.cos(Omega * t)
    for i in range(xs, xe):
      left = ul[i - 1] if i > 0 else 0.0
      right = ul[i + 1] if i < n - 1 else 0.0
      ff[i] = m * aa[i] + c * vv[i] - k * (left - 2 * ul[i] + right) - force * phi(i)

  def jacobian(self, ts, t, u, v, a, shiftv, shifta, J, P):
    (xs, xe), = self.da.getRanges()
    row, col = PETSc.Mat.Stencil(), PETSc.Mat.Stencil()
    for i in range(xs, xe):
      row.index = (i,)
      for j, value in ((i - 1, -k), (i, 2 * k + shiftv * c + shifta * m), (i + 1, -k)):
        if 0 <= j < n:
          col.index = (j,)
          P.setValueStencil(row, col, value, addv=PETSc.InsertMode.INSERT_VALUES)
    P.assemble()
    if J != P:
      J.assemble()


def solve(da, step, u):
  chain = Chain(da)
  (xs, xe), = da.getRanges()
  uu = da.getVecArray(u)
  for i in range(xs, xe):
    uu[i] = phi(i)
  v = u.duplicate()
  v.set(0)
  J = da.createMatrix()
  ts = PETSc.TS().create(comm=da.comm)
  ts.setDM(da)
  ts.setType(PETSc.TS.Type.ALPHA2)
  ts.setI2Function(chain.function, da.createGlobalVec())
  ts.setI2Jacobian(chain.jacobian, J, J)
  ts.setSolution2(u, v)
  ts.setTimeStep(step)
  ts.setMaxTime(T)
  ts.setExactFinalTime(PETSc.TS.ExactFinalTime.MATCHSTEP)
  ts.setFromOptions()
  ts.solve(u)
  ts.destroy()
  J.destroy()


da = PETSc.DMDA().create(dim=1, sizes=(n,), dof=1, stencil_width=1, comm=PETSc.COMM_WORLD)
da.setFromOptions()
da.setUp()
u, exact = da.createGlobalVec(), da.createGlobalVec()
(xs, xe), = da.getRanges()
ee = da.getVecArray(exact)
for i in range(xs, xe):
  ee[i] = exact_amplitude(T) * phi(i)
errors = []
for level in range(refine):
  solve(da, dt / 2**level, u)
  errors.append((u - exact).norm(PETSc.NormType.INFINITY))
PETSc.Sys.Print('Errors against the exact solution: %s' % ' '.join('%.2e' % e for e in errors), comm=da.comm) if opts.getBool('show', False) else None
tol, order = opts.getReal('error_tol', 0.0), opts.getReal('order', 0.0)
if tol > 0:
  PETSc.Sys.Print('At the finest step, error against the exact solution below %g: %s' % (tol, 'yes' if errors[-1] <= tol else 'no'))
if order > 0 and refine > 1:
  observed = math.log2(errors[-2] / errors[-1])
  PETSc.Sys.Print('Observed order of the error against the exact solution at least %g: %s' % (order - 0.3, 'yes' if observed >= order - 0.3 else 'no'))
name = opts.getString('write', '')
if name:
  viewer = PETSc.Viewer().createBinary(name, mode='w', comm=da.comm)
  u.view(viewer)
  viewer.destroy()
name = opts.getString('compare', '')
if name:
  viewer = PETSc.Viewer().createBinary(name, mode='r', comm=da.comm)
  ref = da.createGlobalVec()
  ref.load(viewer)
  viewer.destroy()
  ctol = opts.getReal('compare_tol', 1e-10)
  diff = (ref - u).norm(PETSc.NormType.INFINITY)
  PETSc.Sys.Print("diff %g" % diff) if opts.getBool("show", False) else None
  PETSc.Sys.Print('Final state agrees with %s to %g: %s' % (name, ctol, 'yes' if diff <= ctol * max(1.0, ref.norm(PETSc.NormType.INFINITY)) else 'no'))

"""
/*TEST

  build:
    requires: petsc4py

  # the program and its exact solution under the type it was written for
  test:
    suffix: alpha2
    args: -dt 0.02 -refine 2 -order 2 -error_tol 1e-4

  # under simpvi, 1 process, then 2 against its final state
  test:
    suffix: simpson
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -order 4 -error_tol 1e-6
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -compare final.bin
      output_file: output/petsc4py_chain1d_simpson_2.out
  test:
    suffix: lobatto
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -ts_simpvi_type lobatto -dt 0.8 -refine 3 -order 6 -error_tol 1e-8

TEST*/
"""
