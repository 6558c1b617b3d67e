"""simpvi from Python: the TS type ``simpvi`` (Simpson, Lobatto and Galerkin variational integrators) for petsc4py.

Import petsc4py first (``petsc4py.init(sys.argv)`` for command-line options), then this module, which loads libsimpvi
(``$SIMPVI_LIBRARY``, else the installed library, else the source tree's ``build/src/libsimpvi.so``) and registers
the type. Every function takes petsc4py objects and mirrors a C function of simpvi.h (``setType`` is
``TSSimpVISetType()``, ``kinsolSetStrategy`` is ``SNESKINSOLSetStrategy()``, ...); ``counterparts`` maps each public
C function to its Python name (``Ensemble.solve`` for a method of the class ``Ensemble``), or to None for the few
PETSc itself calls (package set-up and tear-down, the type's constructor). A C error raises ``PETSc.Error``.

``Ensemble`` is the parameter study SimpVIEnsemble: many small systems, each a member function's parameters and
initial state, integrated with a simpvi TS's scheme on any number of processes, their mechanics one numpy function
over all points of all members of a batch (``help(simpvi.Ensemble)``, docs/ensemble.md).

Callbacks receive petsc4py objects, like petsc4py's own: ``lagrangian(ts, t, x, v, Lx, Lv, *args, **kargs)`` returns
L and fills the gradients Lx, Lv (setPointwiseLagrangian()'s function receives numpy arrays instead). Positions and
velocities are the first half of each process's entries of U = (q, p) unless the TS names its splits "position" and
"momentum". An exception raised in a callback becomes a PETSc error naming it (and is chained to the
``PETSc.Error`` raised by this module's functions).

    import sys, petsc4py; petsc4py.init(sys.argv)
    from petsc4py import PETSc
    import simpvi

    ts = PETSc.TS().create()
    ts.setType(simpvi.TSSIMPVI)
    simpvi.setType(ts, simpvi.Type.LOBATTO)
    simpvi.setLagrangian(ts, lagrangian)
    simpvi.setLagrangianHessian(ts, Lxx, None, Lvv, hessian)
"""
import collections
import ctypes

import numpy as np
from petsc4py import PETSc

from . import _callbacks as _cb
from . import _library as _C
from ._ensemble import Ensemble, EnsembleReason, MemberInfo
from ._rigidbody import RigidBodies, getRigidBodies, setRigidBodies, setRigidBodyTorque, so3Dexp, so3DexpDerivative, so3Exp, so3Log

__all__ = ['TSSIMPVI', 'SNESKINSOL', 'Type', 'Quadrature', 'NonlinearSolverType', 'KINSOLStrategy', 'Tableau',
           'initialize', 'register', 'registerScheme', 'setType', 'getType', 'setDegree', 'getDegree', 'getOrder', 'getTableau',
           'setNonlinearSolverType', 'getNonlinearSolverType', 'setLagrangian', 'setLagrangianHessian',
           'setPointwiseLagrangian', 'setConstraints', 'getConstraintMultipliers', 'setEqualityConstraintsRoutine',
           'setJacobianEqualityRoutine', 'setHessianEqualityRoutine', 'setMass', 'setPotential', 'setForce', 'setParameterJacobian', 'setPhaseSpaceIS',
           'getPhaseSpaceIS', 'setUpPhaseSpace', 'computeEnergy', 'monitorEnergy', 'kinsolSetStrategy', 'kinsolSetMAA',
           'kinsolSetTolerances', 'kinsolGetTolerances', 'kinsolSetScaleFunction', 'kinsolGetReturnFlag', 'counterparts',
           'library', 'Ensemble', 'EnsembleReason', 'MemberInfo', 'RigidBodies', 'setRigidBodies', 'setRigidBodyTorque', 'getRigidBodies',
           'setRigidBodyInertias', 'setRigidBodyPotentialRoutine', 'setRigidBodyHessianRoutine', 'so3Exp', 'so3Log', 'so3Dexp',
           'so3DexpDerivative']

TSSIMPVI = 'simpvi'
SNESKINSOL = 'kinsol'  # the SNES type, registered when libsimpvi was built with SUNDIALS KINSOL
library = _C.path  # the libsimpvi loaded


class Type:
  """The schemes of TSSimpVISetType() (TSSimpVIType)."""
  MIDPOINT = 'midpoint'
  TRAPEZOID = 'trapezoid'
  SIMPSON = 'simpson'
  LOBATTO = 'lobatto'
  GAUSS = 'gauss'


class Quadrature:
  """TSSimpVIQuadrature, for register()."""
  LOBATTO = 0
  GAUSS = 1


class NonlinearSolverType:
  """TSSimpVINonlinearSolverType (deprecated: ts.getSNES().setType('kinsol'))."""
  SNES = 0
  KINSOL = 1


class KINSOLStrategy:
  """SNESKINSOLStrategy, for kinsolSetStrategy()."""
  NEWTON = 0
  LINESEARCH = 1
  PICARD = 2
  FP = 3


Tableau = collections.namedtuple('Tableau', 'degree nq c tau w B D')
Tableau.__doc__ = """TSSimpVIGetTableau(): degree s, nq quadrature points, nodes c (s+1,), quadrature points tau (nq,) and
weights w (nq,) on [0, 1], B[k, i] = phi_i(tau_k) and D[k, i] = phi_i'(tau_k) (nq, s+1)"""

_NLS_NAMES = {'snes': NonlinearSolverType.SNES, 'kinsol': NonlinearSolverType.KINSOL}


# Every public function of simpvi.h and its Python counterpart here, or why there is none (python/tests/reach.py
# reads simpvi.h and fails on a function missing from this table)
counterparts = {
  'SimpVIInitializePackage': 'initialize',
  'SimpVIFinalizePackage': None,  # called by PetscFinalize(); from Python it would unregister the type under petsc4py
  'PetscDLLibraryRegister_simpvi': None,  # PETSc's entry point for -dll_append; loading the module registers instead
  'TSCreate_SimpVI': None,  # the type's constructor, reached by ts.setType(simpvi.TSSIMPVI)
  'TSSimpVIRegisterFamily': None,  # a C constructor that allocates with PetscMalloc1(): register it from C
  'TSSimpVIRegisterScheme': 'registerScheme',
  'TSSimpVIRegister': 'register',
  'TSSimpVIRegisterAll': None,  # done by initialize() on import
  'TSSimpVIRegisterDestroy': None,  # called by PetscFinalize()
  'TSSimpVISetType': 'setType',
  'TSSimpVIGetType': 'getType',
  'TSSimpVISetDegree': 'setDegree',
  'TSSimpVIGetDegree': 'getDegree',
  'TSSimpVIGetOrder': 'getOrder',
  'TSSimpVIGetTableau': 'getTableau',
  # the step's equations on plain C arrays, for C programs taking steps outside a TS (an ensemble's inner loop): from
  # Python a loop over them would cost more than the arithmetic; getTableau() gives numpy the same coefficients
  'TSSimpVICreateKernel': None,
  'SimpVIKernelDestroy': None,
  'SimpVIKernelGetSizes': None,
  'SimpVIKernelSetStepSize': None,
  'SimpVIKernelTimes': None,
  'SimpVIKernelPoints': None,
  'SimpVIKernelResidual': None,
  'SimpVIKernelMomentum': None,
  'SimpVIKernelJacobian': None,
  'TSSimpVISetNonlinearSolverType': 'setNonlinearSolverType',
  'TSSimpVIGetNonlinearSolverType': 'getNonlinearSolverType',
  'TSSimpVISetLagrangian': 'setLagrangian',
  'TSSimpVISetLagrangianHessian': 'setLagrangianHessian',
  'TSSimpVISetPotential': 'setPotential',
  'TSSimpVISetMass': 'setMass',
  'TSSimpVISetForce': 'setForce',
  'TSSimpVISetParameterJacobian': 'setParameterJacobian',
  'TSSimpVISetPointwiseLagrangian': 'setPointwiseLagrangian',
  'TSSimpVISetConstraints': 'setConstraints',
  'TSSimpVIGetConstraintMultipliers': 'getConstraintMultipliers',
  'TSSimpVISetEqualityConstraintsRoutine': 'setEqualityConstraintsRoutine',
  'TSSimpVISetJacobianEqualityRoutine': 'setJacobianEqualityRoutine',
  'TSSimpVISetHessianEqualityRoutine': 'setHessianEqualityRoutine',
  'TSSimpVIGetPhaseSpaceIS': 'getPhaseSpaceIS',
  'TSSimpVISetUpPhaseSpace': 'setUpPhaseSpace',
  'TSSimpVIComputeEnergy': 'computeEnergy',
  'TSSimpVIMonitorEnergy': 'monitorEnergy',
  'SNESKINSOLSetStrategy': 'kinsolSetStrategy',
  'SNESKINSOLSetMAA': 'kinsolSetMAA',
  'SNESKINSOLSetTolerances': 'kinsolSetTolerances',
  'SNESKINSOLGetTolerances': 'kinsolGetTolerances',
  'SNESKINSOLSetScaleFunction': 'kinsolSetScaleFunction',
  'SNESKINSOLGetReturnFlag': 'kinsolGetReturnFlag',
  'SNESSimpVIDenseSetLinear': None,  # TSSIMPVI sets it for TS_LINEAR; from Python: the option -snes_simpvidense_linear
  'SNESSimpVIDenseGetLinear': None,  # from Python: the option -snes_simpvidense_linear in the options database
  # the parameter study SimpVIEnsemble (docs/ensemble.md): methods of simpvi.Ensemble
  'SimpVIEnsembleCreate': 'Ensemble.create',
  'SimpVIEnsembleDestroy': 'Ensemble.destroy',
  'SimpVIEnsembleSetTS': 'Ensemble.setTS',
  'SimpVIEnsembleSetSize': 'Ensemble.setSize',
  'SimpVIEnsembleGetSize': 'Ensemble.getSize',
  'SimpVIEnsembleSetMemberFunction': 'Ensemble.setMemberFunction',
  'SimpVIEnsembleSetPointwiseLagrangian': 'Ensemble.setPointwiseLagrangian',
  'SimpVIEnsembleSetStopFunction': 'Ensemble.setStopFunction',
  'SimpVIEnsembleSetBatchStopFunction': 'Ensemble.setBatchStopFunction',
  'SimpVIEnsembleSetOutputFunction': 'Ensemble.setOutputFunction',
  'SimpVIEnsembleSetBatchSize': 'Ensemble.setBatchSize',
  'SimpVIEnsembleSetChunkSize': 'Ensemble.setChunkSize',
  'SimpVIEnsembleSetFromOptions': 'Ensemble.setFromOptions',
  'SimpVIEnsembleSetUp': 'Ensemble.setUp',
  'SimpVIEnsembleSolve': 'Ensemble.solve',
  'SimpVIEnsembleGetResults': 'Ensemble.getResults',
  'SimpVIEnsembleGetMemberInfo': 'Ensemble.getMemberInfo',
  'SimpVIEnsembleView': 'Ensemble.view',
  # rigid bodies on SO(3) (docs/mathematics.md, section 8): methods of simpvi.RigidBodies, and the maps of so(3)
  'TSSimpVICreateRigidBodies': 'RigidBodies.create',
  'SimpVIRigidBodiesDestroy': 'RigidBodies.destroy',
  'TSSimpVISetRigidBodies': 'setRigidBodies',
  'TSSimpVIGetRigidBodies': 'getRigidBodies',
  'TSSimpVISetRigidBodyInertias': 'setRigidBodyInertias',
  'TSSimpVISetRigidBodyPotentialRoutine': 'setRigidBodyPotentialRoutine',
  'TSSimpVISetRigidBodyHessianRoutine': 'setRigidBodyHessianRoutine',
  'SimpVIRigidBodiesCreateState': 'RigidBodies.createState',
  'SimpVIRigidBodiesSetStep': 'RigidBodies.setStep',
  'SimpVIRigidBodiesStep': 'RigidBodies.step',
  'SimpVIRigidBodiesGetSNES': 'RigidBodies.getSNES',
  'SimpVIRigidBodiesComputeEnergy': 'RigidBodies.computeEnergy',
  'SimpVIRigidBodiesView': 'RigidBodies.view',
  'TSSimpVISetRigidBodyTorque': 'setRigidBodyTorque',
  'SimpVIRigidBodiesSetTorque': 'RigidBodies.setTorque',
  'SimpVIRigidBodiesSetTime': 'RigidBodies.setTime',
  'SimpVISO3Exp': 'so3Exp',
  'SimpVISO3Log': 'so3Log',
  'SimpVISO3Dexp': 'so3Dexp',
  'SimpVISO3DexpDerivative': 'so3DexpDerivative',
}


def _check(ierr):
  """Raise PETSc.Error for a nonzero PetscErrorCode, chained to the Python exception of a callback behind it."""
  exc, _cb.pending.exception = _cb.pending.exception, None
  if ierr:
    raise PETSc.Error(ierr) from exc


def _call(fn, *args):
  _cb.pending.exception = None  # an exception left by an earlier error (e.g. inside ts.solve()) is not this one's cause
  _check(fn(*args))


def _h(obj):
  """The C handle of a petsc4py object, None (NULL) for None."""
  return None if obj is None else obj.handle


def initialize():
  """SimpVIInitializePackage(): registers the TS type simpvi (done on import; calling again does nothing)."""
  _call(_C.SimpVIInitializePackage)


def register(name, quadrature, degree, degreefixed=False):
  """TSSimpVIRegister(): a new scheme name for a quadrature family (Quadrature.LOBATTO or GAUSS) and degree."""
  _call(_C.TSSimpVIRegister, name.encode(), int(quadrature), int(degree), bool(degreefixed))


def registerScheme(name, family, degree, degreefixed=False):
  """TSSimpVIRegisterScheme(): a new scheme name for a family ('lobatto', 'gauss' or one registered in C) and degree."""
  _call(_C.TSSimpVIRegisterScheme, name.encode(), family.encode(), int(degree), bool(degreefixed))


def setType(ts, scheme):
  """TSSimpVISetType(): 'midpoint', 'trapezoid', 'simpson', 'lobatto', 'gauss' or a registered name."""
  _call(_C.TSSimpVISetType, ts.handle, str(scheme).encode())


def getType(ts):
  """TSSimpVIGetType(): the scheme's name."""
  out = ctypes.c_char_p()
  _call(_C.TSSimpVIGetType, ts.handle, ctypes.byref(out))
  return out.value.decode()


def setDegree(ts, degree):
  """TSSimpVISetDegree(): the degree s of lobatto or gauss (order 2s)."""
  _call(_C.TSSimpVISetDegree, ts.handle, int(degree))


def getDegree(ts):
  """TSSimpVIGetDegree()."""
  out = _C.PetscInt()
  _call(_C.TSSimpVIGetDegree, ts.handle, ctypes.byref(out))
  return out.value


def getOrder(ts):
  """TSSimpVIGetOrder(): the order of accuracy of the scheme."""
  out = _C.PetscInt()
  _call(_C.TSSimpVIGetOrder, ts.handle, ctypes.byref(out))
  return out.value


def getTableau(ts):
  """TSSimpVIGetTableau(): the current scheme's table (a Tableau of numpy copies), what a program needs to take the
  same steps outside a TS: x_k = sum_i B[k, i] Q_i, v_k = (1/h) sum_i D[k, i] Q_i at the quadrature points."""
  degree, nq = _C.PetscInt(), _C.PetscInt()
  arrays = [_C.RealArray() for _ in range(5)]
  _call(_C.TSSimpVIGetTableau, ts.handle, ctypes.byref(degree), ctypes.byref(nq), *(ctypes.byref(a) for a in arrays))
  s, q = degree.value, nq.value
  c, tau, w, B, D = (np.ctypeslib.as_array(a, (size,)).copy() for a, size in zip(arrays, (s + 1, q, q, q * (s + 1), q * (s + 1))))
  return Tableau(s, q, c, tau, w, B.reshape(q, s + 1), D.reshape(q, s + 1))


def setNonlinearSolverType(ts, nls):
  """TSSimpVISetNonlinearSolverType(): NonlinearSolverType.SNES or KINSOL, or the names 'snes' and 'kinsol'.

  Deprecated: the step is solved by the TS's SNES; ts.getSNES().setType('kinsol') (or -snes_type kinsol) chooses
  SUNDIALS KINSOL. Kept for one release, it sets that type."""
  _call(_C.TSSimpVISetNonlinearSolverType, ts.handle, _NLS_NAMES[nls.lower()] if isinstance(nls, str) else int(nls))


def getNonlinearSolverType(ts):
  """TSSimpVIGetNonlinearSolverType(): 'kinsol' if the TS's SNES is of type kinsol, else 'snes' (deprecated)."""
  out = ctypes.c_int()
  _call(_C.TSSimpVIGetNonlinearSolverType, ts.handle, ctypes.byref(out))
  return {v: k for k, v in _NLS_NAMES.items()}[out.value]


def setLagrangian(ts, lagrangian, args=None, kargs=None):
  """TSSimpVISetLagrangian(): L(t, x, v) and its gradient. The TS state is U = (q, p).

  ``L = lagrangian(ts, t, x, v, Lx, Lv, *args, **kargs)`` returns L and fills Lx = dL/dx and Lv = dL/dv."""
  fn = _cb.store(ts, _cb.lagrangian, '__simpvi_lagrangian__', lagrangian, args, kargs)
  _call(_C.TSSimpVISetLagrangian, ts.handle, fn, None)


def setLagrangianHessian(ts, Lxx, Lvx, Lvv, hessian, args=None, kargs=None):
  """TSSimpVISetLagrangianHessian(): matrices for d2L/dx2, d2L/dv dx (None if it vanishes) and d2L/dv2.

  ``hessian(ts, t, x, v, Lxx, Lvx, Lvv, *args, **kargs)`` fills and assembles them (Lvx is None when not given);
  Lvx(i, j) = d2L/dv_i dx_j."""
  fn = _cb.store(ts, _cb.lagrangian_hessian, '__simpvi_lagrangian_hessian__', hessian, args, kargs)
  _call(_C.TSSimpVISetLagrangianHessian, ts.handle, _h(Lxx), _h(Lvx), _h(Lvv), fn, None)


def setPointwiseLagrangian(ts, fn, args=None, kargs=None):
  """TSSimpVISetPointwiseLagrangian(): the mechanics of a small system (one process) on numpy arrays, many points per
  call; the small dense path of the step then calls it once per Newton iteration with every quadrature point.

  ``fn(ts, t, x, v, L, P, G, Px, Pv, Gx, Gv, *args, **kargs)`` receives t of shape (npoints,), the positions x and
  velocities v of shape (npoints, n), and fills in place (``L[:] = ...``, ``P[:, 0] = ...``) the outputs that are not
  None: L (npoints,), P = dL/dv and G = dL/dx + f (npoints, n) with f a generalized force if any, and Px = dP/dx,
  Pv = dP/dv, Gx = dG/dx, Gv = dG/dv (npoints, n, n), Px[k, i, j] = dP_i/dx_j at point k. Any output may be None
  (the step asks for P and G alone while it keeps its Jacobian, computeEnergy() for L alone); Px, Pv, Gx and Gv are
  None together. All are views of simpvi's C arrays, not copies (t, x and v read-only); the return value is ignored."""
  fn = _cb.store(ts, _cb.pointwise, '__simpvi_pointwise__', fn, args, kargs)
  _call(_C.TSSimpVISetPointwiseLagrangian, ts.handle, fn, None)


def setConstraints(ts, m, fn, args=None, kargs=None):
  """TSSimpVISetConstraints(): m holonomic constraints g(q) = 0, enforced at the nodes of every step with multipliers
  there (for now with setPointwiseLagrangian(), one process).

  ``fn(ts, q, lam, g, G, H, *args, **kargs)`` receives q of shape (n,) and fills in place the outputs that are not None:
  g = g(q) (m,), G = dg/dq (m, n) and H = sum_r lam[r] d2 g_r/dq2 (n, n), lam (m,) given with H only (None otherwise).
  Views of simpvi's C arrays (q and lam read-only); m = 0 removes the constraints."""
  fn = _cb.store(ts, _cb.constraint, '__simpvi_constraints__', fn if m else None, args, kargs)
  _call(_C.TSSimpVISetConstraints, ts.handle, int(m), fn, None)


def getConstraintMultipliers(ts):
  """TSSimpVIGetConstraintMultipliers(): the multipliers of the last step at its s + 1 nodes, a numpy copy of shape
  (s + 1, m)."""
  nnodes, m, lam = _C.PetscInt(), _C.PetscInt(), _C.RealArray()
  _call(_C.TSSimpVIGetConstraintMultipliers, ts.handle, ctypes.byref(nnodes), ctypes.byref(m), ctypes.byref(lam))
  if not nnodes.value * m.value:
    return np.zeros((nnodes.value, m.value))
  return np.ctypeslib.as_array(lam, (nnodes.value * m.value,)).copy().reshape(nnodes.value, m.value)


def setEqualityConstraintsRoutine(ts, g, fn, args=None, kargs=None):
  """TSSimpVISetEqualityConstraintsRoutine(): holonomic constraints g(q) = 0 on Vecs, for the doors on Vecs (mechanical,
  Lagrangian, ...) and any number of processes, as TAO's setEqualityConstraints() takes them; with
  setJacobianEqualityRoutine() and setHessianEqualityRoutine().

  g is a Vec of the multipliers' layout (its size the number of constraints); ``fn(ts, q, g, *args, **kargs)`` fills it
  at q. g and fn None remove the constraints."""
  f = _cb.store(ts, _cb.equality, '__simpvi_equality__', fn, args, kargs)
  _call(_C.TSSimpVISetEqualityConstraintsRoutine, ts.handle, _h(g), f, None)


def setJacobianEqualityRoutine(ts, G, fn, args=None, kargs=None):
  """TSSimpVISetJacobianEqualityRoutine(): ``fn(ts, q, G, *args, **kargs)`` fills and assembles G = dg/dq (m x n, rows
  laid out as g, columns as the positions)."""
  f = _cb.store(ts, _cb.jacobian_equality, '__simpvi_jacobian_equality__', fn, args, kargs)
  _call(_C.TSSimpVISetJacobianEqualityRoutine, ts.handle, _h(G), f, None)


def setHessianEqualityRoutine(ts, H, fn, args=None, kargs=None):
  """TSSimpVISetHessianEqualityRoutine(): ``fn(ts, q, lam, H, *args, **kargs)`` fills and assembles
  H = sum_r lam[r] d2 g_r/dq2 (n x n), lam a Vec laid out as g."""
  f = _cb.store(ts, _cb.hessian_equality, '__simpvi_hessian_equality__', fn, args, kargs)
  _call(_C.TSSimpVISetHessianEqualityRoutine, ts.handle, _h(H), f, None)


def setRigidBodyInertias(ts, J):
  """TSSimpVISetRigidBodyInertias(): rigid bodies on SO(3) in the Vec/Mat form, for any number of processes: this
  process's bodies by their inertia tensors J (nlocal, 3, 3) (nlocal may be 0). The state (ts.setSolution()) has on
  each process its bodies' rotation matrices (9 entries each, row-major), then their body angular momenta (3 each)."""
  J = np.ascontiguousarray(J, dtype=np.dtype(_C.PetscReal)).reshape(-1, 3, 3)
  _call(_C.TSSimpVISetRigidBodyInertias, ts.handle, J.shape[0], J.ctypes.data)


def setRigidBodyPotentialRoutine(ts, g, fn, args=None, kargs=None):
  """TSSimpVISetRigidBodyPotentialRoutine(): ``V = fn(ts, R, g, *args, **kargs)`` returns the potential of all bodies
  (the same on every process) and fills g, the left-trivialised gradient (3 entries per body of this process), at
  the attitudes R (9 entries per body of this process); g a Vec for it or None. With setRigidBodyHessianRoutine()."""
  f = _cb.store(ts, _cb.rigid_potential, '__simpvi_rigid_potential__', fn, args, kargs)
  _call(_C.TSSimpVISetRigidBodyPotentialRoutine, ts.handle, _h(g), f, None)


def setRigidBodyHessianRoutine(ts, H, fn, args=None, kargs=None):
  """TSSimpVISetRigidBodyHessianRoutine(): ``fn(ts, R, H, *args, **kargs)`` fills and assembles H (3N x 3N, 3 rows
  per body of this process), the second derivative of V(R_1 exp(hat(e_1)), ..) at e = 0."""
  f = _cb.store(ts, _cb.rigid_hessian, '__simpvi_rigid_hessian__', fn, args, kargs)
  _call(_C.TSSimpVISetRigidBodyHessianRoutine, ts.handle, _h(H), f, None)


def setPotential(ts, H, potential, hessian, args=None, kargs=None):
  """TSSimpVISetPotential(): the mechanical door's L = 1/2 v'M(x)v - V(t, x).

  ``V = potential(ts, t, x, gradV, *args, **kargs)`` returns V and fills its gradient;
  ``hessian(ts, t, x, H, *args, **kargs)`` fills and assembles H = d2V/dx2."""
  fn = _cb.store(ts, _cb.potential, '__simpvi_potential__', potential, args, kargs)
  fh = _cb.store(ts, _cb.potential_hessian, '__simpvi_potential_hessian__', hessian, args, kargs)
  _call(_C.TSSimpVISetPotential, ts.handle, _h(H), fn, fh, None)


def setMass(ts, M, Mx=None, Mxx=None, mass=None, args=None, kargs=None):
  """TSSimpVISetMass(): the mass matrix M, assembled by the caller when constant (mass None).

  For a configuration-dependent mass, ``mass(ts, x, v, M, Mx, g, Mxx, *args, **kargs)`` fills M = M(x),
  Mx(i, j) = d(M(x) v)_i/dx_j, g_j = 1/2 v'(dM/dx_j)v and Mxx(j, k) = 1/2 v'(d2M/dx_j dx_k)v."""
  fn = _cb.store(ts, _cb.mass, '__simpvi_mass__', mass, args, kargs)
  _call(_C.TSSimpVISetMass, ts.handle, _h(M), _h(Mx), _h(Mxx), fn, None)


def setForce(ts, Fx, Fv, force, jacobian=None, args=None, kargs=None):
  """TSSimpVISetForce(): a force f(t, x, v) beyond the Lagrangian (discrete Lagrange-d'Alembert).

  ``force(ts, t, x, v, f, *args, **kargs)`` fills f; ``jacobian(ts, t, x, v, Fx, Fv, *args, **kargs)`` fills and
  assembles Fx = df/dx and Fv = df/dv (None when not given)."""
  fn = _cb.store(ts, _cb.force, '__simpvi_force__', force, args, kargs)
  fj = _cb.store(ts, _cb.force_jacobian, '__simpvi_force_jacobian__', jacobian, args, kargs)
  _call(_C.TSSimpVISetForce, ts.handle, _h(Fx), _h(Fv), fn, fj, None)


def setParameterJacobian(ts, Ptheta, Gtheta, jacobian, args=None, kargs=None):
  """TSSimpVISetParameterJacobian(): the derivatives of P = dL/dv and G = dL/dx + f in the parameters theta, for the
  parameter gradients (mu of ts.setCostGradients()) of ts.adjointSolve() and the parameter columns of forward
  sensitivities.

  Ptheta and Gtheta are matrices (positions x parameters), either None if that quantity does not depend on theta;
  ``jacobian(ts, t, x, v, Ptheta, Gtheta, *args, **kargs)`` fills and assembles them (None when not given). Under
  another TS type (theta, cn, beuler, rk), setUpPhaseSpace() gives that type's adjoint dF/dtheta of the phase-space
  form built from these."""
  fn = _cb.store(ts, _cb.parameter_jacobian, '__simpvi_parameter_jacobian__', jacobian, args, kargs)
  _call(_C.TSSimpVISetParameterJacobian, ts.handle, _h(Ptheta), _h(Gtheta), fn, None)


def setPhaseSpaceIS(ts, isq, isp):
  """TSRHSSplitSetIS(ts, "position", isq) and (ts, "momentum", isp): which entries of U = (q, p) are positions and
  which momenta (required on more than one process; on one the default is U's two halves)."""
  _call(_C.TSRHSSplitSetIS, ts.handle, b'position', isq.handle)
  _call(_C.TSRHSSplitSetIS, ts.handle, b'momentum', isp.handle)


def getPhaseSpaceIS(ts):
  """TSSimpVIGetPhaseSpaceIS(): the index sets (isq, isp) of the positions and momenta in U."""
  isq, isp = _C.handle(), _C.handle()
  _call(_C.TSSimpVIGetPhaseSpaceIS, ts.handle, ctypes.byref(isq), ctypes.byref(isp))
  return _cb.wrap('IS', isq.value), _cb.wrap('IS', isp.value)


def setUpPhaseSpace(ts):
  """TSSimpVISetUpPhaseSpace(): after ts.setFromOptions(), gives the Lagrangian or mechanical problem to PETSc's own
  TS types (rk, theta, bdf, basicsymplectic, ...) in phase space; nothing to do for simpvi."""
  _call(_C.TSSimpVISetUpPhaseSpace, ts.handle)


def computeEnergy(ts, t, U):
  """TSSimpVIComputeEnergy(): H = p.v - L(t, q, v) of the state U = (q, p)."""
  out = _C.PetscReal()
  _call(_C.TSSimpVIComputeEnergy, ts.handle, float(t), U.handle, ctypes.byref(out))
  return out.value


def monitorEnergy(ts):
  """Adds TSSimpVIMonitorEnergy() to the monitors of a TS of type simpvi (as -ts_simpvi_monitor_energy does)."""
  if ts.getType() != TSSIMPVI:  # the C monitor reads the simpvi type's data
    raise ValueError('simpvi.monitorEnergy() needs a TS of type %s, not %s' % (TSSIMPVI, ts.getType()))
  _call(_C.TSMonitorSet, ts.handle, _C.TSSimpVIMonitorEnergy, None, None)


def _kinsol(name):
  fn = getattr(_C, name)
  if fn is None:
    raise NotImplementedError('simpvi: %s was built without SUNDIALS KINSOL, so it has no %s()' % (library, name))
  return fn


def kinsolSetStrategy(snes, strategy):
  """SNESKINSOLSetStrategy(): KINSOLStrategy.NEWTON, LINESEARCH, PICARD or FP, or their names ('fp', ...)."""
  if isinstance(strategy, str):
    strategy = getattr(KINSOLStrategy, strategy.upper())
  _call(_kinsol('SNESKINSOLSetStrategy'), snes.handle, int(strategy))


def kinsolSetMAA(snes, maa):
  """SNESKINSOLSetMAA(): the depth of Anderson acceleration of the picard and fp strategies."""
  _call(_kinsol('SNESKINSOLSetMAA'), snes.handle, int(maa))


def kinsolSetTolerances(snes, fnormtol=PETSc.DEFAULT, scsteptol=PETSc.DEFAULT):
  """SNESKINSOLSetTolerances(): KINSOL's function and scaled-step tolerances (PETSc.DEFAULT: from the SNES's)."""
  _call(_kinsol('SNESKINSOLSetTolerances'), snes.handle, float(fnormtol), float(scsteptol))


def kinsolGetTolerances(snes):
  """SNESKINSOLGetTolerances(): (fnormtol, scsteptol), PETSc.DEFAULT for one taken from the SNES's tolerances."""
  f, s = _C.PetscReal(), _C.PetscReal()
  _call(_kinsol('SNESKINSOLGetTolerances'), snes.handle, ctypes.byref(f), ctypes.byref(s))
  return f.value, s.value


def kinsolSetScaleFunction(snes, scale, args=None, kargs=None):
  """SNESKINSOLSetScaleFunction(): ``fs, us = scale(snes, x, F, fs, us, *args, **kargs)`` receives the default
  residual and increment scales and returns the ones to use (None: the defaults)."""
  fn = _cb.store(snes, _cb.kinsol_scale, '__simpvi_kinsol_scale__', scale, args, kargs)
  _call(_kinsol('SNESKINSOLSetScaleFunction'), snes.handle, fn, None)


def kinsolGetReturnFlag(snes):
  """SNESKINSOLGetReturnFlag(): (KINSOL's return flag of the last solve, its description)."""
  flag, desc = ctypes.c_int(), ctypes.c_char_p()
  _call(_kinsol('SNESKINSOLGetReturnFlag'), snes.handle, ctypes.byref(flag), ctypes.byref(desc))
  return flag.value, desc.value.decode() if desc.value else None


initialize()
