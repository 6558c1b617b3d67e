"""simpvi.RigidBodies: rigid bodies on SO(3) by the Lie-group Galerkin step (TSSimpVICreateRigidBodies(),
docs/mathematics.md section 8), and the maps of so(3) it uses.

The state is a Vec U = (R_1, .., R_k, p_1, .., p_k): k rotation matrices (body to space) of 9 entries, row-major,
then k body angular momenta of 3 entries. The potential is one Python function of the k attitudes:
``V = potential(R, g, H)`` with R a (k, 3, 3) numpy view, returning V and filling, when they are not None, g (k, 3),
the left-trivialised gradient (g_b . eta = d/de V(.., R_b exp(e hat(eta)), ..)), and H (3k, 3k), the symmetric second
derivative of V(R_1 exp(hat(e_1)), ..) in the e_b at 0.

Torques (TSSimpVISetRigidBodyTorque()) are one Python function ``torque(t, R, Omega, tau, tauR, tauO, tauth)``: R
(k, 3, 3) and Omega (k, 3) read-only views, filling tau (k, 3), the body-frame torques, and when they are not None
tauR (3k, 3k) = d tau/d zeta (along R_c exp(hat(zeta_c))), tauO (3k, 3k) = d tau/d Omega and tauth (3k, nparams) =
d tau/d theta (all zero on entry but tau)."""
import ctypes
import weakref

import numpy as np
from petsc4py import PETSc

from . import _callbacks as _cb
from . import _library as _C
from ._ensemble import _call

_real = np.dtype(_C.PetscReal)


def _view(addr, shape, writeable):
  if not addr:
    return None
  a = np.frombuffer((_C.PetscReal * int(np.prod(shape))).from_address(addr), dtype=_real).reshape(shape)
  a.flags.writeable = writeable
  return a


class RigidBodies:
  """SimpVIRigidBodies: k rigid bodies with inertia tensors J (k, 3, 3) moved by a potential, stepped by the scheme
  of a TS of type simpvi."""

  def __init__(self):
    self.handle = _C.handle()
    self.borrowed = False  # a TS's own (setRigidBodies(), getRigidBodies()): the TS makes and destroys it
    self._ts = None  # then a weak reference to that TS, whose step object is fetched at each use (see _live())
    self.nbodies = 0
    self._fn = None
    self._cfn = _C.RigidBodyPotentialFn()  # NULL: free bodies
    self._tfn, self._ctfn, self.nparams = None, _C.RigidBodyTorqueFn(), 0

  def _potential(self, nb, R, V, g, H, ctx):
    try:
      value = self._fn(_view(R, (nb, 3, 3), False), _view(g, (nb, 3), True), _view(H, (3 * nb, 3 * nb), True))
      _C.PetscReal.from_address(V).value = float(value)
      return 0
    except BaseException as exc:  # noqa: B036 -- C must see an error code, not an exception
      return _cb._fail('rigid-body potential', self._fn, exc)

  def _torque(self, nb, t, R, Om, tau, tauR, tauO, tauth, ctx):
    try:
      n = 3 * nb
      self._tfn(t, _view(R, (nb, 3, 3), False), _view(Om, (nb, 3), False), _view(tau, (nb, 3), True), _view(tauR, (n, n), True), _view(tauO, (n, n), True),
                _view(tauth, (n, self.nparams), True) if self.nparams else None)
      return 0
    except BaseException as exc:  # noqa: B036 -- C must see an error code, not an exception
      return _cb._fail('rigid-body torque', self._tfn, exc)

  def _settorque(self, torque, nparams):
    self._tfn, self.nparams = torque, int(nparams) if torque is not None else 0
    self._ctfn = _C.RigidBodyTorqueFn(self._torque) if torque is not None else _C.RigidBodyTorqueFn()

  def setTorque(self, torque, nparams=0):
    """SimpVIRigidBodiesSetTorque(): body-frame torques (the module's note) depending on nparams parameters."""
    self._settorque(torque, nparams)
    _call(_C.SimpVIRigidBodiesSetTorque, self._live(), self.nparams, self._ctfn, None)

  def setTime(self, t):
    """SimpVIRigidBodiesSetTime(): the time of the next step's start, for the torques."""
    _call(_C.SimpVIRigidBodiesSetTime, self._live(), t)

  def create(self, ts, J, potential=None):
    """TSSimpVICreateRigidBodies(): the step of ts's scheme for len(J) bodies; potential as in the module's note
    (None: free bodies)."""
    J = np.ascontiguousarray(J, dtype=_real).reshape(-1, 3, 3)
    self.destroy()
    self.nbodies, self._fn = J.shape[0], potential
    self._cfn = _C.RigidBodyPotentialFn(self._potential) if potential is not None else _C.RigidBodyPotentialFn()
    _call(_C.TSSimpVICreateRigidBodies, ts.handle, self.nbodies, J.ctypes.data, self._cfn, None, ctypes.byref(self.handle))
    return self

  def _live(self):
    """The C handle. A TS's own step object is fetched from the TS at each use (TSSimpVIGetRigidBodies() sets the TS up
    and makes it; a TSReset() or a new scheme makes another), so setRigidBodies()' object works once the TS does."""
    if self.borrowed:
      ts = self._ts() if self._ts is not None else None
      if ts is None:
        raise ValueError('simpvi: the TS of these rigid bodies no longer exists')
      _call(_C.TSSimpVIGetRigidBodies, ts.handle, ctypes.byref(self.handle))
    elif not self.handle:
      raise ValueError('simpvi: these rigid bodies have no step object: call create(ts, J, potential) first')
    return self.handle

  def destroy(self):
    """SimpVIRigidBodiesDestroy()."""
    if self.handle and not self.borrowed:
      _call(_C.SimpVIRigidBodiesDestroy, ctypes.byref(self.handle))
    return self

  def __del__(self):
    if getattr(self, 'handle', None) and PETSc.Sys.isInitialized() and not PETSc.Sys.isFinalized():
      self.destroy()

  def createState(self, R=None, p=None):
    """SimpVIRigidBodiesCreateState(): the state Vec (sequential, 12 k entries), set from R (k, 3, 3) and p (k, 3)
    when they are given. Made here with the layout the C function gives it."""
    U = PETSc.Vec().createSeq(12 * self.nbodies, comm=PETSc.COMM_SELF)
    if R is not None:
      self.setState(U, R, p)
    return U

  def setState(self, U, R, p):
    """U = (R, p): k rotation matrices and k body momenta."""
    a = U.getArray()
    a[:9 * self.nbodies] = np.asarray(R, dtype=_real).reshape(-1)
    a[9 * self.nbodies:] = np.asarray(p, dtype=_real).reshape(-1)

  def getState(self, U):
    """(R, p), numpy copies: (k, 3, 3) and (k, 3)."""
    a = U.getArray(readonly=True)
    return a[:9 * self.nbodies].reshape(-1, 3, 3).copy(), a[9 * self.nbodies:].reshape(-1, 3).copy()

  def setStep(self, h, U):
    """SimpVIRigidBodiesSetStep(): the start and size of the next step, its predictor in the SNES's solution."""
    _call(_C.SimpVIRigidBodiesSetStep, self._live(), h, U.handle)

  def step(self, h, U):
    """SimpVIRigidBodiesStep(): one step of size h, U in place."""
    _call(_C.SimpVIRigidBodiesStep, self._live(), h, U.handle)

  def getSNES(self):
    """SimpVIRigidBodiesGetSNES(): the SNES of the steps (unknowns: s blocks of 3k, xi at the nodes)."""
    snes = _C.handle()
    _call(_C.SimpVIRigidBodiesGetSNES, self._live(), ctypes.byref(snes))
    return _cb.wrap('SNES', snes.value)

  def computeEnergy(self, U):
    """SimpVIRigidBodiesComputeEnergy(): sum_b 1/2 p_b' J_b^-1 p_b + V(R)."""
    E = _C.PetscReal()
    _call(_C.SimpVIRigidBodiesComputeEnergy, self._live(), U.handle, ctypes.byref(E))
    return E.value

  def view(self, viewer=None):
    """SimpVIRigidBodiesView(): the group, the map, the state's layout and the scheme."""
    viewer = viewer if viewer is not None else PETSc.Viewer.STDOUT(PETSc.COMM_SELF)
    _call(_C.SimpVIRigidBodiesView, self._live(), viewer.handle)


def setRigidBodies(ts, J, potential=None):
  """TSSimpVISetRigidBodies(): len(J) rigid bodies with inertia tensors J (k, 3, 3) and a potential (as in the module's
  note; None: free bodies) as the TS's problem: a TS of type simpvi then steps them with ts.solve(), its state
  (ts.setSolution()) U = (R_1, .., R_k, p_1, .., p_k) of 12 k entries on one process. Returns the RigidBodies whose
  getState()/setState()/createState() read and write that layout (computeEnergy() after getRigidBodies())."""
  J = np.ascontiguousarray(J, dtype=_real).reshape(-1, 3, 3)
  rb = RigidBodies()
  rb.borrowed, rb.nbodies, rb._fn, rb._ts = True, J.shape[0], potential, weakref.ref(ts)
  rb._cfn = _C.RigidBodyPotentialFn(rb._potential) if potential is not None else _C.RigidBodyPotentialFn()
  ts.setAttr('__simpvi_rigidbodies__', rb)  # the C function lives as long as the TS
  _call(_C.TSSimpVISetRigidBodies, ts.handle, rb.nbodies, J.ctypes.data, rb._cfn, None)
  return rb


def setRigidBodyTorque(ts, torque, nparams=0):
  """TSSimpVISetRigidBodyTorque(): body-frame torques (the module's note) on the bodies of setRigidBodies(), depending
  on nparams parameters theta, whose gradients the adjoint gives in mu (ts.setCostGradients())."""
  rb = ts.getAttr('__simpvi_rigidbodies__')
  if rb is None:
    raise PETSc.Error(73)  # PETSC_ERR_ARG_WRONGSTATE: setRigidBodies() first (the torques' function lives with the bodies)
  rb._settorque(torque, nparams)
  _call(_C.TSSimpVISetRigidBodyTorque, ts.handle, rb.nparams, rb._ctfn, None)


def getRigidBodies(ts):
  """TSSimpVIGetRigidBodies(): the RigidBodies given by setRigidBodies(), their step set up (the TS's, owned by it)."""
  rb = ts.getAttr('__simpvi_rigidbodies__')
  if rb is None:
    raise PETSc.Error(73)  # PETSC_ERR_ARG_WRONGSTATE: no setRigidBodies() on this TS
  rb._ts = weakref.ref(ts)
  rb._live()
  return rb


def _vec3(x):
  return np.ascontiguousarray(x, dtype=_real).reshape(3)


def so3Exp(xi):
  """SimpVISO3Exp(): the rotation exp(hat(xi)), (3, 3)."""
  xi, E = _vec3(xi), np.empty((3, 3), _real)
  _call(_C.SimpVISO3Exp, xi.ctypes.data, E.ctypes.data)
  return E


def so3Log(E):
  """SimpVISO3Log(): xi with |xi| <= pi and exp(hat(xi)) = E."""
  E, xi = np.ascontiguousarray(E, dtype=_real).reshape(3, 3), np.empty(3, _real)
  _call(_C.SimpVISO3Log, E.ctypes.data, xi.ctypes.data)
  return xi


def so3Dexp(xi):
  """SimpVISO3Dexp(): (T, Tinv), T(xi) = dexp_{-xi} (Omega = T(xi) xi') and its inverse."""
  xi, T, Tinv = _vec3(xi), np.empty((3, 3), _real), np.empty((3, 3), _real)
  _call(_C.SimpVISO3Dexp, xi.ctypes.data, T.ctypes.data, Tinv.ctypes.data)
  return T, Tinv


def so3DexpDerivative(xi, a, b):
  """SimpVISO3DexpDerivative(): (phi, grad, hess) of phi(xi) = a' T(xi) b."""
  xi, a, b = _vec3(xi), _vec3(a), _vec3(b)
  phi, grad, hess = _C.PetscReal(), np.empty(3, _real), np.empty((3, 3), _real)
  _call(_C.SimpVISO3DexpDerivative, xi.ctypes.data, a.ctypes.data, b.ctypes.data, ctypes.addressof(phi), grad.ctypes.data, hess.ctypes.data)
  return phi.value, grad, hess
