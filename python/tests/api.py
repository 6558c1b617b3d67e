#!/usr/bin/python3
"""The Python module simpvi beyond the tutorial: scheme setters and getters, a registered scheme, the nonlinear solver
type, a configuration-dependent mass (mechanical door with Mx, g, Mxx) against the same Lagrangian, a damping force
under simpvi and, through simpvi.setUpPhaseSpace(), under PETSc's RK4, the energy monitor, the phase-space index sets,
and errors both ways (C errors as PETSc.Error, Python exceptions in callbacks as PETSc errors).

The system: n uncoupled particles (spread over the processes) of mass m(x) = 1 + x^2/2 in the potential V = x^2/2.
Options: -n <2>, -nls <snes> (the nonlinear solver of the mass test: snes or kinsol)
"""
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402
import numpy as np  # noqa: E402
import simpvi  # noqa: E402

out = PETSc.Sys.Print


def verdict(ok):
  return 'yes' if ok else 'no'


class Particles:
  def __init__(self, n):
    q = PETSc.Vec().createMPI(n)
    self.n, (self.start, end) = n, q.getOwnershipRange()
    self.nlocal = end - self.start
    q.destroy()
    self.reduce = PETSc.Vec().createMPI((1, PETSc.DECIDE))  # sums over the processes

  def sum(self, local):
    self.reduce.set(local)
    return self.reduce.sum()

  def matrix(self):
    A = PETSc.Mat().createAIJ(((self.nlocal, self.n), (self.nlocal, self.n)), nnz=1)
    A.setUp()
    return A

  def diagonal(self, A, values):
    for i, value in enumerate(values):
      A.setValue(self.start + i, self.start + i, value)
    A.assemble()

  def state(self):
    """U = (q, p) with q_i = 1 + i/n and p = 0 (the local entries of each process: its positions, then its momenta)."""
    U = PETSc.Vec().createMPI((2 * self.nlocal, 2 * self.n))
    U.array = np.concatenate([1 + np.arange(self.start, self.start + self.nlocal) / self.n, np.zeros(self.nlocal)])
    return U


# m(x) = 1 + x^2/2, m' = x, m'' = 1; V = x^2/2
def mass_of(x):
  return 1 + x * x / 2


def lagrangian(ts, t, x, v, Lx, Lv, particles):
  q, w = x.array_r, v.array_r
  Lx.array = 0.5 * q * w * w - q
  Lv.array = mass_of(q) * w
  return particles.sum((0.5 * mass_of(q) * w * w - 0.5 * q * q).sum())


def lagrangian_hessian(ts, t, x, v, Lxx, Lvx, Lvv, particles):
  q, w = x.array_r, v.array_r
  particles.diagonal(Lxx, 0.5 * w * w - 1)
  particles.diagonal(Lvx, q * w)
  particles.diagonal(Lvv, mass_of(q))


def mass(ts, x, v, M, Mx, g, Mxx, particles):
  q, w = x.array_r, v.array_r
  particles.diagonal(M, mass_of(q))
  particles.diagonal(Mx, q * w)  # d(M(x) v)_i / dx_i = m'(x_i) v_i
  g.array = 0.5 * q * w * w  # 1/2 v' dM/dx_j v
  particles.diagonal(Mxx, 0.5 * w * w)  # 1/2 v' d2M/dx_j^2 v


def potential(ts, t, x, gradV, particles):
  q = x.array_r
  gradV.array = q
  return particles.sum(0.5 * q @ q)


def potential_hessian(ts, t, x, H, particles):
  particles.diagonal(H, np.ones(particles.nlocal))


def damping(ts, t, x, v, f, c, particles):
  f.array = -c * v.array_r


def damping_jacobian(ts, t, x, v, Fx, Fv, c, particles):
  assert Fx is None
  particles.diagonal(Fv, -c * np.ones(particles.nlocal))


def new_ts(particles, door, keep, scheme='simpson'):
  """A simpvi TS of the particles through the given door; its matrices are appended to keep."""
  ts = PETSc.TS().create()
  ts.setType(simpvi.TSSIMPVI)
  simpvi.setType(ts, scheme)
  A = [particles.matrix() for _ in range(3)]
  keep += A
  if door == 'lagrangian':
    simpvi.setLagrangian(ts, lagrangian, args=(particles,))
    simpvi.setLagrangianHessian(ts, A[0], A[1], A[2], lagrangian_hessian, args=(particles,))
  else:
    simpvi.setMass(ts, A[0], A[1], A[2], mass, args=(particles,))
    H = particles.matrix()
    keep.append(H)
    simpvi.setPotential(ts, H, potential, potential_hessian, args=(particles,))
  start = 2 * particles.start  # U = [q_local | p_local] on each process (Particles.state()), named for simpvi
  simpvi.setPhaseSpaceIS(ts, PETSc.IS().createStride(particles.nlocal, start, 1, comm=ts.comm),
                         PETSc.IS().createStride(particles.nlocal, start + particles.nlocal, 1, comm=ts.comm))
  return ts


def solve(ts, U, dt, steps):
  ts.setTimeStep(dt)
  ts.setMaxSteps(steps)
  ts.setMaxTime(dt * steps)
  ts.setExactFinalTime(PETSc.TS.ExactFinalTime.MATCHSTEP)
  ts.setFromOptions()
  simpvi.setUpPhaseSpace(ts)
  ts.solve(U)


def destroy(*objs):
  for obj in objs:
    obj.destroy()


def test_schemes():
  ts = PETSc.TS().create()
  ts.setType(simpvi.TSSIMPVI)
  for scheme, degree in (('simpson', None), ('lobatto', 4), ('gauss', 3), ('lobatto5', None), ('gauss4', None)):
    simpvi.setType(ts, scheme)
    if degree:
      simpvi.setDegree(ts, degree)
    out('%s: type %s, degree %d, order %d' % (scheme, simpvi.getType(ts), simpvi.getDegree(ts), simpvi.getOrder(ts)))
  simpvi.setNonlinearSolverType(ts, 'snes')
  out('nonlinear solver %s' % simpvi.getNonlinearSolverType(ts))
  for what, call in (('unknown scheme', lambda: simpvi.setType(ts, 'nosuch')),
                     ('degree 0', lambda: simpvi.setDegree(ts, 0))):
    try:
      call()
      out('%s raises PETSc.Error: no' % what)
    except PETSc.Error as e:
      out('%s raises PETSc.Error: %s' % (what, verdict(e.ierr != 0)))
  ts.destroy()


def test_mass(particles, nls):
  """The configuration-dependent mass through both doors: the same steps to round-off (and KINSOL with -nls kinsol)."""
  keep, finals, newton = [], [], []
  for door in ('lagrangian', 'mechanical'):
    ts = new_ts(particles, door, keep)
    simpvi.setNonlinearSolverType(ts, nls)
    U = particles.state()
    solve(ts, U, 0.05, 40)
    newton.append(ts.getSNESIterations())
    if door == 'mechanical':
      out('nonlinear solver of the mass test: %s' % simpvi.getNonlinearSolverType(ts))
      isq, isp = simpvi.getPhaseSpaceIS(ts)
      lo, hi = U.getOwnershipRange()
      half = (hi - lo) // 2
      split = list(isq.indices) == list(range(lo, lo + half)) and list(isp.indices) == list(range(lo + half, hi))
      out('phase-space index sets: positions first on each process: %s' % verdict(particles.sum(0.0 if split else 1.0) == 0))
      destroy(isq, isp)
    finals.append(U)
    ts.destroy()
  d = finals[0].copy()
  d.axpy(-1, finals[1])
  out('configuration-dependent mass: Lagrangian and mechanical doors agree to 1e-10: %s' % verdict(d.norm(PETSc.NormType.INFINITY) < 1e-10))
  # the derivatives of the mass (Mx, g, Mxx) only shape Newton's Jacobian: a wrong one would cost iterations
  out('and take the same number of Newton iterations: %s' % verdict(newton[0] == newton[1]))
  destroy(d, *finals, *keep)


def test_force(particles):
  """Damping f = -c v under simpvi (Lobatto) and PETSc's RK4 on the phase-space form: the same motion, energy lost."""
  keep, finals, energies = [], [], []
  c = 0.5
  for tstype in ('simpvi', 'rk'):
    ts = new_ts(particles, 'lagrangian', keep, 'lobatto')
    Fv = particles.matrix()
    keep.append(Fv)
    simpvi.setForce(ts, None, Fv, damping, damping_jacobian, args=(c, particles))
    if tstype == 'rk':
      ts.setType(PETSc.TS.Type.RK)
      ts.setRKType('4')
    U = particles.state()
    ts.setSolution(U)
    H0 = simpvi.computeEnergy(ts, 0, U) if tstype == 'simpvi' else None
    solve(ts, U, 0.05 if tstype == 'simpvi' else 0.005, 40 if tstype == 'simpvi' else 400)
    energies.append(simpvi.computeEnergy(ts, 2.0, U))
    if H0 is not None:
      energies.insert(0, H0)
    finals.append(U)
    ts.destroy()
  d = finals[0].copy()
  d.axpy(-1, finals[1])
  out('damped motion: simpvi (lobatto) and RK4 on the phase-space form agree to 1e-8: %s' % verdict(d.norm(PETSc.NormType.INFINITY) < 1e-8))
  H0, Hvi, Hrk = energies
  out('damping dissipates energy (H(2)/H(0) < 0.75): %s; both measure it alike (to 1e-8): %s'
      % (verdict(Hvi < 0.75 * H0), verdict(abs(Hvi - Hrk) < 1e-8 * H0)))
  destroy(d, *finals, *keep)


def test_monitor(particles):
  keep = []
  ts = new_ts(particles, 'mechanical', keep)
  simpvi.monitorEnergy(ts)
  U = particles.state()
  solve(ts, U, 0.1, 2)
  destroy(U, ts, *keep)


def test_errors(particles):
  """Python exceptions in callbacks, reaching petsc4py's ts.solve() and simpvi's own calls."""
  keep = []

  def bad_lagrangian(ts, t, x, v, Lx, Lv):
    raise ValueError('no Lagrangian at 100% here')

  ts = new_ts(particles, 'lagrangian', keep)
  simpvi.setLagrangian(ts, bad_lagrangian)
  U = particles.state()
  try:
    solve(ts, U, 0.1, 2)
    out('exception in a callback stops ts.solve(): no')
  except PETSc.Error as e:
    text = str(e)
    out('exception in a callback stops ts.solve() with a PETSc.Error naming it: %s'
        % verdict('ValueError: no Lagrangian at 100% here' in text and 'bad_lagrangian' in text))
  try:
    simpvi.computeEnergy(ts, 0, U)
    out('simpvi.computeEnergy() raises: no')
  except PETSc.Error as e:
    out('simpvi.computeEnergy() raises PETSc.Error caused by the ValueError: %s' % verdict(isinstance(e.__cause__, ValueError)))
  simpvi.setLagrangian(ts, lambda ts, t, x, v, Lx, Lv: None)  # forgets to return L
  try:
    simpvi.computeEnergy(ts, 0, U)
    out('a Lagrangian returning None is refused: no')
  except PETSc.Error as e:
    out('a Lagrangian returning None is refused: %s' % verdict(isinstance(e.__cause__, TypeError)))
  destroy(U, ts, *keep)


def main():
  opts = PETSc.Options()
  particles = Particles(opts.getInt('n', 2))
  simpvi.register('lobatto5', simpvi.Quadrature.LOBATTO, 5, True)
  simpvi.registerScheme('gauss4', 'gauss', 4, True)
  test_schemes()
  test_mass(particles, opts.getString('nls', 'snes'))
  test_force(particles)
  test_monitor(particles)
  test_errors(particles)
  particles.reduce.destroy()


if __name__ == '__main__':
  main()

"""
/*TEST

  build:
    requires: petsc4py

  test:

  test:
    suffix: 2
    nsize: 2
    output_file: output/api_1.out

  test:
    suffix: kinsol
    requires: kinsol
    nsize: 2
    args: -nls kinsol

TEST*/
"""
