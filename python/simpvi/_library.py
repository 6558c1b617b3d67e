"""Finds libsimpvi, loads it with ctypes next to petsc4py's PETSc, and declares the C functions simpvi calls."""
import ctypes
import os

from petsc4py import PETSc

# PETSc's scalar types as petsc4py was built with them (simpvi's API passes PetscInt and PetscReal by value)
PetscInt = {4: ctypes.c_int32, 8: ctypes.c_int64}[PETSc.IntType(0).itemsize]
PetscReal = {4: ctypes.c_float, 8: ctypes.c_double}[PETSc.RealType(0).itemsize]
PetscErrorCode = ctypes.c_int
handle = ctypes.c_void_p  # TS, Vec, Mat, IS: pointers to PETSc objects


def candidates():
  """Where libsimpvi may be, in the order tried: $SIMPVI_LIBRARY, the install next to this module, the build tree."""
  here = os.path.dirname(os.path.abspath(__file__))
  if os.environ.get('SIMPVI_LIBRARY'):
    return [os.environ['SIMPVI_LIBRARY']]  # set explicitly: nothing else is tried
  paths = []
  try:
    from . import _install  # written by `cmake --install`: the library's path relative to this directory
    paths.append(os.path.normpath(os.path.join(here, _install.LIBRARY)))
  except ImportError:
    pass
  paths.append(os.path.normpath(os.path.join(here, '..', '..', 'build', 'src', 'libsimpvi.so')))  # source tree, ci/build.sh's build/
  return paths


def load():
  tried = candidates()
  path = next((p for p in tried if os.path.isfile(p)), None)
  if path is None:
    raise ImportError('simpvi: libsimpvi.so not found (tried %s); set SIMPVI_LIBRARY to its path' % ', '.join(tried))
  lib = ctypes.CDLL(path)
  # PETSc is initialised by now (petsc4py was imported above). If libsimpvi links another PETSc than petsc4py,
  # the PETSc this lookup finds first, libsimpvi's, has never been initialised.
  if not ctypes.c_int.in_dll(lib, 'PetscInitializeCalled').value:
    raise ImportError('simpvi: %s was built against another PETSc than petsc4py\'s (%s)' % (path, PETSc.__file__))
  return lib, path


lib, path = load()


def declare(name, restype, *argtypes):
  fn = getattr(lib, name)
  fn.restype, fn.argtypes = restype, list(argtypes)
  return fn


# the callbacks' C types, as in simpvi.h; each ends with the unused void *ctx
LagrangianFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscReal, handle, handle, ctypes.POINTER(PetscReal), handle, handle, ctypes.c_void_p)
LagrangianHessianFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscReal, handle, handle, handle, handle, handle, ctypes.c_void_p)
PotentialFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscReal, handle, ctypes.POINTER(PetscReal), handle, ctypes.c_void_p)
PotentialHessianFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscReal, handle, handle, ctypes.c_void_p)
MassFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, handle, handle, handle, handle, handle, handle, ctypes.c_void_p)
ForceFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscReal, handle, handle, handle, ctypes.c_void_p)
ForceJacobianFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscReal, handle, handle, handle, handle, ctypes.c_void_p)
ParameterJacobianFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscReal, handle, handle, handle, handle, ctypes.c_void_p)
EqualityConstraintsFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, handle, handle, ctypes.c_void_p)
JacobianEqualityFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, handle, handle, ctypes.c_void_p)
HessianEqualityFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, handle, handle, handle, ctypes.c_void_p)
RealArray = ctypes.POINTER(PetscReal)
# const PetscReal t[] and the like, received as plain addresses (an int, None for NULL): cheaper for ctypes than
# pointer objects, and the key under which the callback keeps its numpy views
PointwiseFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscInt, PetscInt, *[ctypes.c_void_p] * 10, ctypes.c_void_p)
# TSSimpVIConstraintFn: (ts, n, m, q, lambda, g, G, H, ctx), the arrays as plain addresses
ConstraintFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscInt, PetscInt, *[ctypes.c_void_p] * 5, ctypes.c_void_p)
# SimpVIEnsemble's callbacks, arrays again as plain addresses (ens, ..., ctx)
EnsembleMemberFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscInt, PetscInt, ctypes.c_void_p, PetscInt, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
EnsemblePointwiseFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscInt, PetscInt, ctypes.c_void_p, PetscInt, *[ctypes.c_void_p] * 11, ctypes.c_void_p)
EnsembleStopFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscInt, PetscInt, ctypes.c_void_p, PetscInt, PetscReal, PetscInt, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
EnsembleBatchStopFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscInt, ctypes.c_void_p, PetscInt, *[ctypes.c_void_p] * 3, PetscInt, *[ctypes.c_void_p] * 4)
EnsembleOutputFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, PetscInt, PetscInt, ctypes.c_void_p, ctypes.c_int, PetscInt, PetscReal, PetscInt, ctypes.c_void_p, ctypes.c_void_p, PetscInt, ctypes.c_void_p, ctypes.c_void_p)
KINSOLScaleFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, handle, handle, ctypes.POINTER(PetscReal), ctypes.POINTER(PetscReal), ctypes.c_void_p)
# SimpVIRigidBodyPotentialFn (nbodies, R, V, g, H, ctx), arrays as plain addresses
RigidBodyPotentialFn = ctypes.CFUNCTYPE(PetscErrorCode, PetscInt, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
# TSSimpVIRigidBodyPotentialFn (ts, R, V, g, ctx) and TSSimpVIRigidBodyHessianFn (ts, R, H, ctx): the Vec/Mat form
RigidBodyPotentialVecFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, handle, ctypes.POINTER(PetscReal), handle, ctypes.c_void_p)
RigidBodyHessianVecFn = ctypes.CFUNCTYPE(PetscErrorCode, handle, handle, handle, ctypes.c_void_p)
# SimpVIRigidBodyTorqueFn (nbodies, t, R, Omega, tau, tauR, tauO, tauth, ctx)
RigidBodyTorqueFn = ctypes.CFUNCTYPE(PetscErrorCode, PetscInt, PetscReal, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)


def declare_optional(name, restype, *argtypes):
  """declare() for a function libsimpvi has only in some builds (SNESKINSOL's, with SUNDIALS KINSOL); None without."""
  return declare(name, restype, *argtypes) if hasattr(lib, name) else None


E = PetscErrorCode
SimpVIInitializePackage = declare('SimpVIInitializePackage', E)
TSSimpVIRegister = declare('TSSimpVIRegister', E, ctypes.c_char_p, ctypes.c_int, PetscInt, ctypes.c_int)
TSSimpVIRegisterScheme = declare('TSSimpVIRegisterScheme', E, ctypes.c_char_p, ctypes.c_char_p, PetscInt, ctypes.c_int)
TSSimpVISetType = declare('TSSimpVISetType', E, handle, ctypes.c_char_p)
TSSimpVIGetType = declare('TSSimpVIGetType', E, handle, ctypes.POINTER(ctypes.c_char_p))
TSSimpVISetDegree = declare('TSSimpVISetDegree', E, handle, PetscInt)
TSSimpVIGetDegree = declare('TSSimpVIGetDegree', E, handle, ctypes.POINTER(PetscInt))
TSSimpVIGetOrder = declare('TSSimpVIGetOrder', E, handle, ctypes.POINTER(PetscInt))
TSSimpVISetNonlinearSolverType = declare('TSSimpVISetNonlinearSolverType', E, handle, ctypes.c_int)
TSSimpVIGetNonlinearSolverType = declare('TSSimpVIGetNonlinearSolverType', E, handle, ctypes.POINTER(ctypes.c_int))
TSSimpVISetLagrangian = declare('TSSimpVISetLagrangian', E, handle, LagrangianFn, ctypes.c_void_p)
TSSimpVISetLagrangianHessian = declare('TSSimpVISetLagrangianHessian', E, handle, handle, handle, handle, LagrangianHessianFn, ctypes.c_void_p)
TSSimpVISetPotential = declare('TSSimpVISetPotential', E, handle, handle, PotentialFn, PotentialHessianFn, ctypes.c_void_p)
TSSimpVISetMass = declare('TSSimpVISetMass', E, handle, handle, handle, handle, MassFn, ctypes.c_void_p)
TSSimpVISetForce = declare('TSSimpVISetForce', E, handle, handle, handle, ForceFn, ForceJacobianFn, ctypes.c_void_p)
TSSimpVISetParameterJacobian = declare('TSSimpVISetParameterJacobian', E, handle, handle, handle, ParameterJacobianFn, ctypes.c_void_p)
TSSimpVIGetTableau = declare('TSSimpVIGetTableau', E, handle, ctypes.POINTER(PetscInt), ctypes.POINTER(PetscInt), *[ctypes.POINTER(RealArray)] * 5)
TSSimpVISetPointwiseLagrangian = declare('TSSimpVISetPointwiseLagrangian', E, handle, PointwiseFn, ctypes.c_void_p)
TSSimpVISetEqualityConstraintsRoutine = declare('TSSimpVISetEqualityConstraintsRoutine', E, handle, handle, EqualityConstraintsFn, ctypes.c_void_p)
TSSimpVISetJacobianEqualityRoutine = declare('TSSimpVISetJacobianEqualityRoutine', E, handle, handle, JacobianEqualityFn, ctypes.c_void_p)
TSSimpVISetHessianEqualityRoutine = declare('TSSimpVISetHessianEqualityRoutine', E, handle, handle, HessianEqualityFn, ctypes.c_void_p)
TSSimpVISetConstraints = declare('TSSimpVISetConstraints', E, handle, PetscInt, ConstraintFn, ctypes.c_void_p)
TSSimpVIGetConstraintMultipliers = declare('TSSimpVIGetConstraintMultipliers', E, handle, ctypes.POINTER(PetscInt), ctypes.POINTER(PetscInt), ctypes.POINTER(RealArray))
TSSimpVIGetPhaseSpaceIS = declare('TSSimpVIGetPhaseSpaceIS', E, handle, ctypes.POINTER(handle), ctypes.POINTER(handle))
TSSimpVISetUpPhaseSpace = declare('TSSimpVISetUpPhaseSpace', E, handle)
TSSimpVIComputeEnergy = declare('TSSimpVIComputeEnergy', E, handle, PetscReal, handle, ctypes.POINTER(PetscReal))
MPIComm = ctypes.c_void_p  # MPI_Comm, as petsc4py's PyPetscComm_Get() gives it
SimpVIEnsembleCreate = declare('SimpVIEnsembleCreate', E, MPIComm, ctypes.POINTER(handle))
SimpVIEnsembleDestroy = declare('SimpVIEnsembleDestroy', E, ctypes.POINTER(handle))
SimpVIEnsembleSetTS = declare('SimpVIEnsembleSetTS', E, handle, handle)
SimpVIEnsembleSetSize = declare('SimpVIEnsembleSetSize', E, handle, PetscInt)
SimpVIEnsembleGetSize = declare('SimpVIEnsembleGetSize', E, handle, ctypes.POINTER(PetscInt))
SimpVIEnsembleSetMemberFunction = declare('SimpVIEnsembleSetMemberFunction', E, handle, PetscInt, PetscInt, EnsembleMemberFn, ctypes.c_void_p)
SimpVIEnsembleSetPointwiseLagrangian = declare('SimpVIEnsembleSetPointwiseLagrangian', E, handle, EnsemblePointwiseFn, ctypes.c_void_p)
SimpVIEnsembleSetStopFunction = declare('SimpVIEnsembleSetStopFunction', E, handle, EnsembleStopFn, ctypes.c_void_p)
SimpVIEnsembleSetBatchStopFunction = declare('SimpVIEnsembleSetBatchStopFunction', E, handle, EnsembleBatchStopFn, ctypes.c_void_p)
SimpVIEnsembleSetOutputFunction = declare('SimpVIEnsembleSetOutputFunction', E, handle, PetscInt, ctypes.POINTER(ctypes.c_char_p), EnsembleOutputFn, ctypes.c_void_p)
SimpVIEnsembleSetBatchSize = declare('SimpVIEnsembleSetBatchSize', E, handle, PetscInt)
SimpVIEnsembleSetChunkSize = declare('SimpVIEnsembleSetChunkSize', E, handle, PetscInt)
SimpVIEnsembleSetFromOptions = declare('SimpVIEnsembleSetFromOptions', E, handle)
SimpVIEnsembleSetUp = declare('SimpVIEnsembleSetUp', E, handle)
SimpVIEnsembleSolve = declare('SimpVIEnsembleSolve', E, handle)
SimpVIEnsembleGetResults = declare('SimpVIEnsembleGetResults', E, handle, ctypes.POINTER(PetscInt), ctypes.POINTER(ctypes.c_void_p))
SimpVIEnsembleGetMemberInfo = declare('SimpVIEnsembleGetMemberInfo', E, handle, *[ctypes.POINTER(ctypes.c_void_p)] * 4)
SimpVIEnsembleView = declare('SimpVIEnsembleView', E, handle, handle)
TSSimpVICreateRigidBodies = declare('TSSimpVICreateRigidBodies', E, handle, PetscInt, ctypes.c_void_p, RigidBodyPotentialFn, ctypes.c_void_p, ctypes.POINTER(handle))
SimpVIRigidBodiesDestroy = declare('SimpVIRigidBodiesDestroy', E, ctypes.POINTER(handle))
TSSimpVISetRigidBodies = declare('TSSimpVISetRigidBodies', E, handle, PetscInt, ctypes.c_void_p, RigidBodyPotentialFn, ctypes.c_void_p)
TSSimpVISetRigidBodyInertias = declare('TSSimpVISetRigidBodyInertias', E, handle, PetscInt, ctypes.c_void_p)
TSSimpVISetRigidBodyPotentialRoutine = declare('TSSimpVISetRigidBodyPotentialRoutine', E, handle, handle, RigidBodyPotentialVecFn, ctypes.c_void_p)
TSSimpVISetRigidBodyHessianRoutine = declare('TSSimpVISetRigidBodyHessianRoutine', E, handle, handle, RigidBodyHessianVecFn, ctypes.c_void_p)
TSSimpVIGetRigidBodies = declare('TSSimpVIGetRigidBodies', E, handle, ctypes.POINTER(handle))
SimpVIRigidBodiesSetStep = declare('SimpVIRigidBodiesSetStep', E, handle, PetscReal, handle)
SimpVIRigidBodiesStep = declare('SimpVIRigidBodiesStep', E, handle, PetscReal, handle)
SimpVIRigidBodiesGetSNES = declare('SimpVIRigidBodiesGetSNES', E, handle, ctypes.POINTER(handle))
SimpVIRigidBodiesComputeEnergy = declare('SimpVIRigidBodiesComputeEnergy', E, handle, handle, ctypes.POINTER(PetscReal))
SimpVIRigidBodiesView = declare('SimpVIRigidBodiesView', E, handle, handle)
TSSimpVISetRigidBodyTorque = declare('TSSimpVISetRigidBodyTorque', E, handle, PetscInt, RigidBodyTorqueFn, ctypes.c_void_p)
SimpVIRigidBodiesSetTorque = declare('SimpVIRigidBodiesSetTorque', E, handle, PetscInt, RigidBodyTorqueFn, ctypes.c_void_p)
SimpVIRigidBodiesSetTime = declare('SimpVIRigidBodiesSetTime', E, handle, PetscReal)
SimpVISO3Exp = declare('SimpVISO3Exp', E, ctypes.c_void_p, ctypes.c_void_p)
SimpVISO3Log = declare('SimpVISO3Log', E, ctypes.c_void_p, ctypes.c_void_p)
SimpVISO3Dexp = declare('SimpVISO3Dexp', E, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
SimpVISO3DexpDerivative = declare('SimpVISO3DexpDerivative', E, *[ctypes.c_void_p] * 6)
SNESKINSOLSetStrategy = declare_optional('SNESKINSOLSetStrategy', E, handle, ctypes.c_int)
SNESKINSOLSetMAA = declare_optional('SNESKINSOLSetMAA', E, handle, PetscInt)
SNESKINSOLSetTolerances = declare_optional('SNESKINSOLSetTolerances', E, handle, PetscReal, PetscReal)
SNESKINSOLGetTolerances = declare_optional('SNESKINSOLGetTolerances', E, handle, ctypes.POINTER(PetscReal), ctypes.POINTER(PetscReal))
SNESKINSOLSetScaleFunction = declare_optional('SNESKINSOLSetScaleFunction', E, handle, KINSOLScaleFn, ctypes.c_void_p)
SNESKINSOLGetReturnFlag = declare_optional('SNESKINSOLGetReturnFlag', E, handle, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_char_p))
TSSimpVIMonitorEnergy = ctypes.cast(lib.TSSimpVIMonitorEnergy, ctypes.c_void_p)  # only its address, for TSMonitorSet()
# from PETSc itself (found through libsimpvi's dependencies): the monitor, and errors raised by Python callbacks
TSMonitorSet = declare('TSMonitorSet', E, handle, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
TSRHSSplitSetIS = declare('TSRHSSplitSetIS', E, handle, ctypes.c_char_p, handle)  # not in petsc4py 3.18
PetscError = declare('PetscError', E, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, E, ctypes.c_int, ctypes.c_char_p)
