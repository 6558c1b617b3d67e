#!/usr/bin/python3
"""simpvi.setPointwiseLagrangian(): the double pendulum of tutorials/ex5.c written vectorised with numpy, every point of
a call at once, against the same mechanics through simpvi.setLagrangian() and setLagrangianHessian() (petsc4py Vecs and
Mats). Checks: the same final state to 1e-12 and the same Newton iterations under Simpson, Lobatto and Gauss; the
small dense path alone (the SNES type simpvidense) and the SNES path (-ts_simpvi_small_limit 0) agreeing; the
arrays' shapes, all the points of a step in one call, outputs None when simpvi does not want them (computeEnergy():
L alone; -snes_lag_jacobian: P and G alone) and the inputs read-only; an exception raised in the function as a
PETSc error naming it, on both paths and through simpvi.computeEnergy().

One process: the pointwise door is for small systems.
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


class DoublePendulum:
  """Masses m1, m2 on rods l1, l2, angles q from the downward vertical (tutorials/ex5.c):
  L = 1/2 a v1^2 + 1/2 b v2^2 + k v1 v2 cos(q1 - q2) + g1 cos q1 + g2 cos q2."""

  def __init__(self, m1=1.0, m2=1.0, l1=1.0, l2=1.0, g=9.81):
    self.a, self.b, self.k = (m1 + m2) * l1 * l1, m2 * l2 * l2, m2 * l1 * l2
    self.g1, self.g2 = (m1 + m2) * g * l1, m2 * g * l2


def mechanics(ts, t, x, v, L, P, G, Px, Pv, Gx, Gv, dp, calls=None):
  """The pointwise function: x, v of shape (npoints, 2); fills the outputs simpvi passes (not None) in place."""
  if calls is not None:
    calls.append((t.shape, x.shape, v.shape, tuple(None if o is None else o.shape for o in (L, P, G, Px, Pv, Gx, Gv))))
  q1, q2, v1, v2 = x[:, 0], x[:, 1], v[:, 0], v[:, 1]
  s, c = np.sin(q1 - q2), np.cos(q1 - q2)
  if L is not None:
    L[:] = 0.5 * dp.a * v1 * v1 + 0.5 * dp.b * v2 * v2 + dp.k * v1 * v2 * c + dp.g1 * np.cos(q1) + dp.g2 * np.cos(q2)
  if P is not None:
    P[:, 0] = dp.a * v1 + dp.k * c * v2
    P[:, 1] = dp.b * v2 + dp.k * c * v1
  if G is not None:
    G[:, 0] = -dp.k * v1 * v2 * s - dp.g1 * np.sin(q1)
    G[:, 1] = dp.k * v1 * v2 * s - dp.g2 * np.sin(q2)
  if Px is not None:  # [k, i, j] = d_i / d_j at point k
    Px[:, 0, 0], Px[:, 0, 1], Px[:, 1, 0], Px[:, 1, 1] = -dp.k * v2 * s, dp.k * v2 * s, -dp.k * v1 * s, dp.k * v1 * s
    Pv[:, 0, 0], Pv[:, 0, 1], Pv[:, 1, 0], Pv[:, 1, 1] = dp.a, dp.k * c, dp.k * c, dp.b
    kvvc = dp.k * v1 * v2 * c
    Gx[:, 0, 0], Gx[:, 0, 1], Gx[:, 1, 0], Gx[:, 1, 1] = -kvvc - dp.g1 * np.cos(q1), kvvc, kvvc, -kvvc - dp.g2 * np.cos(q2)
    Gv[:] = Px.transpose(0, 2, 1)


def at_one_point(x, v, dp):
  """mechanics() on arrays of its own at the point (x, v): L, P, G, Px, Pv, Gx, Gv."""
  res = [np.zeros(1), np.zeros((1, 2)), np.zeros((1, 2))] + [np.zeros((1, 2, 2)) for _ in range(4)]
  mechanics(None, np.zeros(1), np.asarray(x, dtype=float).reshape(1, 2), np.asarray(v, dtype=float).reshape(1, 2), *res, dp)
  return [r[0] for r in res]


# the same mechanics through the Vec door: L_x = G, L_v = P, L_xx = Gx, L_vx = Px, L_vv = Pv
def lagrangian(ts, t, x, v, Lx, Lv, dp):
  L, P, G = at_one_point(x.array_r, v.array_r, dp)[:3]
  Lx.array, Lv.array = G, P
  return L


def lagrangian_hessian(ts, t, x, v, Lxx, Lvx, Lvv, dp):
  _, _, _, Px, Pv, Gx, _ = at_one_point(x.array_r, v.array_r, dp)
  for A, D in ((Lxx, Gx), (Lvx, Px), (Lvv, Pv)):
    A.setValues([0, 1], [0, 1], D)
    A.assemble()


def check_derivatives(dp):
  """The derivative blocks against central differences of P and G: the mechanics both doors share is right."""
  x, v, e, err, scale = np.array([0.3, -1.1]), np.array([0.7, 1.9]), 1e-6, 0.0, 0.0
  _, _, _, Px, Pv, Gx, Gv = at_one_point(x, v, dp)
  for j in range(4):
    d = np.zeros(4)
    d[j] = e
    _, Pp, Gp = at_one_point(x + d[:2], v + d[2:], dp)[:3]
    _, Pm, Gm = at_one_point(x - d[:2], v - d[2:], dp)[:3]
    dP, dG = (Px, Gx) if j < 2 else (Pv, Gv)
    err = max(err, np.abs(dP[:, j % 2] - (Pp - Pm) / (2 * e)).max(), np.abs(dG[:, j % 2] - (Gp - Gm) / (2 * e)).max())
    scale = max(scale, np.abs(dP).max(), np.abs(dG).max())
  out('derivative blocks of the vectorised double pendulum against central differences to 1e-7: %s' % verdict(err < 1e-7 * scale))


def new_ts(dp, door, scheme, calls=None, fn=mechanics, keep=None):
  """A simpvi TS of the double pendulum from q = (pi/4, pi/3) at rest; door 'pointwise' or 'lagrangian'."""
  ts = PETSc.TS().create(comm=PETSc.COMM_SELF)
  ts.setType(simpvi.TSSIMPVI)
  simpvi.setType(ts, scheme)
  if door == 'pointwise':
    simpvi.setPointwiseLagrangian(ts, fn, args=(dp,), kargs={'calls': calls} if calls is not None else None)
  else:
    A = [PETSc.Mat().createDense((2, 2), comm=PETSc.COMM_SELF) for _ in range(3)]
    for M in A:
      M.setUp()
    keep += A
    simpvi.setLagrangian(ts, lagrangian, args=(dp,))
    simpvi.setLagrangianHessian(ts, A[0], A[1], A[2], lagrangian_hessian, args=(dp,))
  U = PETSc.Vec().createSeq(4, comm=PETSc.COMM_SELF)
  U.array = [np.pi / 4, np.pi / 3, 0, 0]
  ts.setSolution(U)
  return ts, U


def solve(ts, U, h, steps, options=()):
  """steps of h, with the options (name, value) set for this TS only; the SNES's function count afterwards."""
  opts = PETSc.Options()
  for name, value in options:
    opts.setValue(name, value)
  ts.setTimeStep(h)
  ts.setMaxSteps(steps)
  ts.setMaxTime(h * steps)
  ts.setExactFinalTime(PETSc.TS.ExactFinalTime.MATCHSTEP)
  ts.setFromOptions()
  for name, _ in options:
    opts.delValue(name)
  ts.solve(U)
  return ts.getSNES().getType()  # simpvidense: the dense path (issue 21: a SNES type, its evaluations counted)


def difference(U, V):
  return np.abs(U.array_r - V.array_r).max() / np.abs(V.array_r).max()


def run(dp, door, scheme, h=0.05, steps=20, options=(), calls=None):
  keep = []
  ts, U = new_ts(dp, door, scheme, calls, keep=keep)
  snestype = solve(ts, U, h, steps, options)
  its = ts.getSNESIterations()
  for obj in [ts] + keep:
    obj.destroy()
  return U, its, snestype


def test_doors(dp):
  """(1) the same final state as setLagrangian()'s to 1e-12, (2) the dense path alone, and the SNES path agrees."""
  for scheme in ('simpson', 'lobatto', 'gauss'):
    calls = []
    pw, pwits, pwfuncs = run(dp, 'pointwise', scheme, calls=calls)
    vec, vecits, _ = run(dp, 'lagrangian', scheme)
    snes, _, snesfuncs = run(dp, 'pointwise', scheme, options=[('ts_simpvi_small_limit', 0)])
    out('%-8s: same final state as setLagrangian() to 1e-12: %s, Newton iterations the same: %s; dense path alone: %s, '
        'P and G at all the points of a step per call: %s; the SNES path used the SNES: %s, same final state to 1e-12: %s'
        % (scheme, verdict(difference(pw, vec) < 1e-12), verdict(pwits == vecits), verdict(pwfuncs == 'simpvidense'),
           verdict(all(c[0][0] > 1 for c in calls if c[3][1] is not None)), verdict(snesfuncs == 'newtonls'),
           verdict(difference(snes, pw) < 1e-12)))
    for U in (pw, vec, snes):
      U.destroy()


NAMES = ('L', 'P', 'G', 'Px', 'Pv', 'Gx', 'Gv')


def wanted(call):
  """The outputs a recorded call was given, as a string ('P G'), or None if an array's shape is not its npoints'."""
  tshape, xshape, vshape, outs = call
  npoints = tshape[0]
  full = [(npoints,)] + [(npoints, 2)] * 2 + [(npoints, 2, 2)] * 4
  if len(tshape) != 1 or xshape != (npoints, 2) or vshape != (npoints, 2):
    return None
  if any(o is not None and o != f for o, f in zip(outs, full)):
    return None
  return ' '.join(name for name, o in zip(NAMES, outs) if o is not None)


def test_outputs(dp):
  """(4) the outputs simpvi passes, the others None: L alone for the energy, P and G alone while a lagged Jacobian is
  kept, all four derivative blocks or none."""
  keep, calls = [], []
  ts, U = new_ts(dp, 'pointwise', 'simpson', calls)
  vts, V = new_ts(dp, 'lagrangian', 'simpson', keep=keep)
  H = simpvi.computeEnergy(ts, 0, U)
  energy = [wanted(c) for c in calls if c[3][0] is not None]
  out('computeEnergy() asks for L alone (at one point): %s; the energy is setLagrangian()\'s to 1e-14: %s'
      % (verdict(energy == ['L'] and calls[-1][0] == (1,)), verdict(abs(H - simpvi.computeEnergy(vts, 0, V)) < 1e-14 * abs(H))))
  del calls[:]
  solve(ts, U, 0.05, 20, [('snes_lag_jacobian', 100)])
  kinds = {wanted(c) for c in calls}
  lagged, _, _ = run(dp, 'pointwise', 'simpson')
  out('-snes_lag_jacobian 100: every array of its call\'s npoints: %s, L never asked: %s, the derivative blocks all or '
      'none: %s, calls for P and G alone: %s, with all the points of a step: %s; same final state as without the lag to '
      '1e-10: %s'
      % (verdict(None not in kinds), verdict(not any('L' in k.split() for k in kinds if k)),
         verdict(kinds <= {'P G', 'P G Px Pv Gx Gv', 'Px Pv Gx Gv'}), verdict('P G' in kinds),
         verdict(all(c[0][0] > 1 for c in calls if wanted(c) == 'P G')), verdict(difference(U, lagged) < 1e-10)))
  for obj in [ts, U, vts, V, lagged] + keep:
    obj.destroy()


def test_readonly(dp):
  """t, x and v are simpvi's own arrays: writing them fails; the outputs are writable."""
  found = {}

  def probe(ts, t, x, v, L, P, G, Px, Pv, Gx, Gv, dp):
    for name, a in (('t', t), ('x', x), ('v', v)):
      try:
        a[0] = 0
        found[name] = False
      except ValueError:
        found.setdefault(name, True)
    mechanics(ts, t, x, v, L, P, G, Px, Pv, Gx, Gv, dp)

  ts, U = new_ts(dp, 'pointwise', 'simpson', fn=probe)
  solve(ts, U, 0.05, 2)
  simpvi.computeEnergy(ts, 0, U)
  out('t, x and v are read-only: %s' % verdict(found == {'t': True, 'x': True, 'v': True}))
  ts.destroy()
  U.destroy()


def test_errors(dp):
  """(3) an exception raised in the function: a PETSc error naming it, on the dense and the SNES path."""
  def broken_pendulum(ts, t, x, v, L, P, G, Px, Pv, Gx, Gv, dp):
    if t.max() > 0.1:
      raise ArithmeticError('no pendulum beyond 100% of t = 0.1')
    mechanics(ts, t, x, v, L, P, G, Px, Pv, Gx, Gv, dp)

  for path, options in (('dense', []), ('SNES', [('ts_simpvi_small_limit', 0)])):
    ts, U = new_ts(dp, 'pointwise', 'lobatto', fn=broken_pendulum)
    try:
      solve(ts, U, 0.05, 20, options)
      out('%s path: an exception in the function stops ts.solve(): no' % path)
    except PETSc.Error as e:
      text = str(e)
      out('%s path: an exception in the function stops ts.solve() with a PETSc.Error naming it: %s'
          % (path, verdict('ArithmeticError: no pendulum beyond 100% of t = 0.1' in text and 'broken_pendulum' in text)))
    try:
      simpvi.computeEnergy(ts, 1.0, U)
      out('simpvi.computeEnergy() raises: no')
    except PETSc.Error as e:
      out('simpvi.computeEnergy() raises PETSc.Error caused by the ArithmeticError: %s' % verdict(isinstance(e.__cause__, ArithmeticError)))
    ts.destroy()
    U.destroy()


def main():
  dp = DoublePendulum()
  check_derivatives(dp)
  test_doors(dp)
  test_outputs(dp)
  test_readonly(dp)
  test_errors(dp)


if __name__ == '__main__':
  main()

"""
/*TEST

  build:
    requires: petsc4py

  test:

TEST*/
"""
