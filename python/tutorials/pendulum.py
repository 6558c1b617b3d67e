#!/usr/bin/python3
"""Nonlinear pendulums q'' + omega^2 sin q = 0 integrated by simpvi from Python, through the Lagrangian door and the
mechanical door, with petsc4py callbacks; the errors against the exact solution (Jacobi elliptic functions) over one
period, and the observed orders of Simpson (4) and Lobatto (6), as tutorials/ex2.c prints them in C.

The n pendulums are independent and spread over the MPI processes, each starting at rest from its own angle (the
first from pi/2, as in tutorials/ex2.c); U = (q, p) holds on each process its pendulums' angles, then their momenta.

  PYTHONPATH=python /usr/bin/python3 python/tutorials/pendulum.py          # after bash ci/build.sh
  PYTHONPATH=python mpiexec -n 2 /usr/bin/python3 python/tutorials/pendulum.py -n 4

Options: -n <2> pendulums, -omega <2 pi>, -schemes <simpson,lobatto>, -meshes <50,100,200> steps per period,
-doors <lagrangian,mechanical>, and any TS/SNES option (-ts_view, -snes_monitor, ...).
"""
import math
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402 (after petsc4py.init, which reads the options)
import numpy as np  # noqa: E402
import simpvi  # noqa: E402


def complete_K(k):
  """K(k) = pi / (2 AGM(1, sqrt(1 - k^2))), the complete elliptic integral of the first kind of modulus k."""
  a, b = 1.0, math.sqrt(1 - k * k)
  while abs(a - b) > 1e-15 * a:
    a, b = (a + b) / 2, math.sqrt(a * b)
  return math.pi / (2 * a)


def sn_cn(u, k):
  """Jacobi's sn(u, k) and cn(u, k) by the arithmetic-geometric mean (Abramowitz and Stegun 16.4)."""
  a, b, c = [1.0], math.sqrt(1 - k * k), [k]
  while abs(c[-1]) > 1e-16:
    a, b, c = a + [(a[-1] + b) / 2], math.sqrt(a[-1] * b), c + [(a[-1] - b) / 2]
  phi = 2 ** (len(a) - 1) * a[-1] * u
  for n in range(len(a) - 1, 0, -1):
    phi = (phi + math.asin(c[n] / a[n] * math.sin(phi))) / 2
  return math.sin(phi), math.cos(phi)


class Pendulums:
  """n pendulums of mass 1 and small-oscillation frequency omega; this process owns pendulums start .. start+nlocal-1."""

  def __init__(self, n, omega):
    self.n, self.omega = n, omega
    q = PETSc.Vec().createMPI(n)  # the positions' layout: PETSc's default split of n
    self.start, end = q.getOwnershipRange()
    self.nlocal = end - self.start
    q.destroy()
    self.reduce = PETSc.Vec().createMPI((1, PETSc.DECIDE))  # one entry per process, for sums and maxima over them
    self.theta0 = np.array([math.pi / 2 * (1 - i / (2 * n)) for i in range(self.start, end)])  # pi/2 down to pi/4
    self.k = np.sin(self.theta0 / 2)
    self.K = np.array([complete_K(k) for k in self.k])
    self.period = 4 * complete_K(math.sin(math.pi / 4)) / omega  # of the first pendulum

  def exact(self, t):
    """sin(q/2) = k sn(K - omega t, k), p = -2 omega k cn(K - omega t, k) (FVCA 2023, annex) for the local pendulums."""
    sc = np.array([sn_cn(K - self.omega * t, k) for K, k in zip(self.K, self.k)]).reshape(-1, 2)
    return 2 * np.arcsin(self.k * sc[:, 0]), -2 * self.omega * self.k * sc[:, 1]

  def sum(self, local):
    """The sum over the processes (a PETSc vector does the reduction: no mpi4py needed)."""
    self.reduce.set(local)
    return self.reduce.sum()

  def max(self, local):
    self.reduce.set(local.max() if local.size else 0.0)
    return self.reduce.max()[1]

  def potential(self, q):
    return self.omega ** 2 * (1 - np.cos(q))

  def diagonal(self):
    """An AIJ matrix with the positions' layout and one entry per row, as every matrix of these uncoupled pendulums."""
    A = PETSc.Mat().createAIJ(((self.nlocal, self.n), (self.nlocal, self.n)), nnz=1)
    A.setUp()
    return A


def set_diagonal(A, start, values):
  for i, value in enumerate(values):
    A.setValue(start + i, start + i, value)
  A.assemble()


# The Lagrangian door: L = 1/2 v^2 - omega^2 (1 - cos x), summed over the pendulums
def lagrangian(ts, t, x, v, Lx, Lv, pen):
  q, w = x.array_r, v.array_r
  Lx.array = -pen.omega ** 2 * np.sin(q)
  Lv.array = w
  return pen.sum(0.5 * w @ w - pen.potential(q).sum())  # L of the whole system, on every process


def lagrangian_hessian(ts, t, x, v, Lxx, Lvx, Lvv, pen):
  set_diagonal(Lxx, pen.start, -pen.omega ** 2 * np.cos(x.array_r))
  set_diagonal(Lvv, pen.start, np.ones(pen.nlocal))


# The mechanical door: the constant mass M = I and the potential V = omega^2 (1 - cos x)
def potential(ts, t, x, gradV, pen):
  q = x.array_r
  gradV.array = pen.omega ** 2 * np.sin(q)
  return pen.sum(pen.potential(q).sum())


def potential_hessian(ts, t, x, H, pen):
  set_diagonal(H, pen.start, pen.omega ** 2 * np.cos(x.array_r))


class Errors:
  """The largest errors over all steps and pendulums of q, p and the relative energy, by a TS monitor."""

  def __init__(self, pen, dt):
    self.pen, self.dt = pen, dt
    self.eq = self.ep = self.eH = 0.0
    self.energy_consistent = True

  def __call__(self, ts, step, t, U):
    pen, n = self.pen, self.pen.nlocal
    qe, pe = pen.exact(step * self.dt)  # the scheme's t_j = j h, free of the round-off of the TS time
    u = U.array_r
    q, p = u[:n], u[n:]
    H0 = pen.sum(pen.potential(pen.theta0).sum())
    H = simpvi.computeEnergy(ts, t, U)  # collective: every process calls the monitor
    mine = pen.sum(0.5 * p @ p + pen.potential(q).sum())
    self.energy_consistent &= abs(H - mine) <= 1e-12 * H0
    self.eq = max(self.eq, pen.max(np.abs(q - qe)))
    self.ep = max(self.ep, pen.max(np.abs(p - pe)))
    self.eH = max(self.eH, abs(H - H0) / H0)


def run(pen, door, scheme, nsteps):
  """One period of the first pendulum in nsteps steps; returns the Errors and the final state."""
  ts = PETSc.TS().create()
  ts.setType(simpvi.TSSIMPVI)
  simpvi.setType(ts, scheme)
  matrices = [pen.diagonal(), pen.diagonal()]
  if door == 'lagrangian':
    simpvi.setLagrangian(ts, lagrangian, args=(pen,))
    simpvi.setLagrangianHessian(ts, matrices[0], None, matrices[1], lagrangian_hessian, args=(pen,))
  else:
    M, H = matrices
    set_diagonal(M, pen.start, np.ones(pen.nlocal))
    simpvi.setMass(ts, M)
    simpvi.setPotential(ts, H, potential, potential_hessian, args=(pen,))
  U = PETSc.Vec().createMPI((2 * pen.nlocal, 2 * pen.n))
  U.array = np.concatenate([pen.theta0, np.zeros(pen.nlocal)])
  start = U.getOwnershipRange()[0]  # each process's positions, then its momenta: named for simpvi
  simpvi.setPhaseSpaceIS(ts, PETSc.IS().createStride(pen.nlocal, start, 1, comm=ts.comm),
                         PETSc.IS().createStride(pen.nlocal, start + pen.nlocal, 1, comm=ts.comm))
  dt = pen.period / nsteps
  errors = Errors(pen, dt)
  ts.setMonitor(errors)
  ts.setTimeStep(dt)
  ts.setMaxSteps(nsteps)
  ts.setMaxTime(pen.period)
  ts.setExactFinalTime(PETSc.TS.ExactFinalTime.MATCHSTEP)
  ts.setFromOptions()
  ts.solve(U)
  order = simpvi.getOrder(ts)
  for obj in matrices + [ts]:
    obj.destroy()
  return errors, order, U


def main():
  opts = PETSc.Options()
  pen = Pendulums(opts.getInt('n', 2), opts.getReal('omega', 2 * math.pi))
  schemes = opts.getString('schemes', 'simpson,lobatto').split(',')
  meshes = [int(m) for m in opts.getString('meshes', '50,100,200').split(',')]
  doors = opts.getString('doors', 'lagrangian,mechanical').split(',')
  out = PETSc.Sys.Print
  out('%d nonlinear pendulums, theta0 from pi/2 down, one period %.6f s of the first; maxima over all steps' % (pen.n, pen.period))
  finals = {}
  for door in doors:
    out('%s door%s' % (door, ' ' * (26 - len(door))) + ''.join(' %10d' % m for m in meshes) + '  order')
    for scheme in schemes:
      rows = {'momentum': [], 'state': [], 'relative energy': []}
      consistent = True
      for nsteps in meshes:
        errors, order, U = run(pen, door, scheme, nsteps)
        rows['momentum'].append(errors.ep)
        rows['state'].append(errors.eq)
        rows['relative energy'].append(errors.eH)
        consistent &= errors.energy_consistent
        finals.setdefault((scheme, nsteps), []).append(U)
      observed = {}
      for name, e in rows.items():
        observed[name] = math.log2(e[-2] / e[-1]) if len(e) > 1 else 0.0
        out('  %-8s %-16s' % (scheme, name) + ''.join(' %10.3e' % x for x in e) + '  %4.1f' % observed[name])
      ok = all(abs(observed[name] - order) < 0.3 for name in ('momentum', 'state'))
      out('%s: order %d observed in p and q: %s' % (scheme, order, 'yes' if ok else 'no'))
      out('%s: simpvi.computeEnergy() is p.p/2 + V to 1e-12: %s' % (scheme, 'yes' if consistent else 'no'))
  if len(doors) > 1:  # the doors describe the same pendulums: the same steps to round-off
    diff = 0.0
    for states in finals.values():
      d = states[0].copy()
      d.axpy(-1, states[1])
      diff = max(diff, d.norm(PETSc.NormType.INFINITY))
      d.destroy()
    out('%s and %s doors agree to 1e-11: %s' % (doors[0], doors[1], 'yes' if diff < 1e-11 else 'no'))
  for states in finals.values():
    for U in states:
      U.destroy()
  pen.reduce.destroy()


if __name__ == '__main__':
  main()

"""
/*TEST

  build:
    requires: petsc4py

  test:
    suffix: orders

  test:
    suffix: orders_2
    nsize: 2
    output_file: output/pendulum_orders.out

TEST*/
"""
