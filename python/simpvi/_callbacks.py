"""The C side of Python callbacks: C handles wrapped as petsc4py objects, one C trampoline per callback kind, and a
Python exception turned into a PETSc error.

The Python functions live in the TS's own attribute dictionary (petsc4py's TS.setAttr()), which PETSc releases when
the TS is destroyed; so the C trampolines need no context pointer and nothing outlives the TS. The trampolines are
module-level ctypes objects, alive as long as the module."""
import ctypes
import os
import traceback

import numpy as np
from petsc4py import PETSc

from . import _library as C

# petsc4py's C API (its __pyx_capi__ capsules): PyObject *PyPetscVec_New(Vec) etc. wrap a C handle in a new
# petsc4py object holding its own reference (PetscObjectReference), released when Python collects the object.
_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype, _capsule_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype, _capsule_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]


def _capi(name, restype, *argtypes):
  capsule = PETSc.__pyx_capi__[name]
  return ctypes.PYFUNCTYPE(restype, *argtypes)(_capsule_pointer(capsule, _capsule_name(capsule)))


_new = {kind: _capi('PyPetsc%s_New' % kind, ctypes.py_object, ctypes.c_void_p) for kind in ('TS', 'Vec', 'Mat', 'IS', 'SNES')}
comm_handle = _capi('PyPetscComm_Get', ctypes.c_void_p, ctypes.py_object)  # the MPI_Comm of a petsc4py Comm
_comm_self = comm_handle(PETSc.COMM_SELF)  # for PetscError()


def wrap(kind, ptr):
  """The petsc4py object (kind 'TS', 'Vec', 'Mat', 'IS' or 'SNES') of a C handle; None for NULL."""
  return _new[kind](ptr) if ptr else None


class _Pending:
  """The last exception a callback raised, so that simpvi's own calls can chain it to the PETSc.Error they raise."""
  exception = None


pending = _Pending()


def _fail(what, fn, exc):
  """Report exc, raised by the Python callback fn, as an initial PETSc error and return its code."""
  pending.exception = exc
  frames = traceback.extract_tb(exc.__traceback__)
  where = frames[-1] if frames else None
  name = getattr(fn, '__qualname__', repr(fn))
  text = 'Python %s callback %s() raised %s' % (what, name, ''.join(traceback.format_exception_only(type(exc), exc)).strip())
  line, file = (where.lineno, os.path.basename(where.filename)) if where else (0, '<python>')
  # PetscError() calls MPI_Abort() for a function whose name starts with "main" (main.<locals>.f, a callback defined
  # in a function main()): the name it gets must not
  func = name if not name.startswith('main') else 'python ' + name
  # the message is a format: keep any % of the exception's text literal
  return C.PetscError(_comm_self, line, func.encode(), file.encode(), 76, 0, text.replace('%', '%%').encode())  # PETSC_ERR_LIB, PETSC_ERROR_INITIAL


def _trampoline(prototype, key, what, kinds):
  """A C function of type prototype calling the Python function stored on the TS under key.

  kinds names the C arguments after the TS, without the final ctx: 'real' (passed as a float), 'Vec' or 'Mat'
  (wrapped), 'out' (a PetscReal * that receives the Python function's return value)."""
  def call(ts, *cargs):
    fn = None
    try:
      tsobj = wrap('TS', ts)
      fn, args, kargs = tsobj.getAttr(key)
      pyargs, out = [tsobj], None
      for kind, value in zip(kinds, cargs):
        if kind == 'real':
          pyargs.append(value)
        elif kind == 'out':
          out = value
        else:
          pyargs.append(wrap(kind, value))
      result = fn(*pyargs, *args, **kargs)
      if out:
        out[0] = float(result)  # e.g. a Lagrangian that forgot to return L fails here, with a TypeError
      return 0
    except BaseException as exc:  # noqa: B036 -- whatever it is, C must see an error code, not an exception
      return _fail(what, fn, exc)
  return prototype(call)


# one per callback of simpvi.h, stored on the TS under these keys
lagrangian = _trampoline(C.LagrangianFn, '__simpvi_lagrangian__', 'Lagrangian', ('real', 'Vec', 'Vec', 'out', 'Vec', 'Vec'))
lagrangian_hessian = _trampoline(C.LagrangianHessianFn, '__simpvi_lagrangian_hessian__', 'Lagrangian Hessian', ('real', 'Vec', 'Vec', 'Mat', 'Mat', 'Mat'))
potential = _trampoline(C.PotentialFn, '__simpvi_potential__', 'potential', ('real', 'Vec', 'out', 'Vec'))
potential_hessian = _trampoline(C.PotentialHessianFn, '__simpvi_potential_hessian__', 'potential Hessian', ('real', 'Vec', 'Mat'))
mass = _trampoline(C.MassFn, '__simpvi_mass__', 'mass', ('Vec', 'Vec', 'Mat', 'Mat', 'Vec', 'Mat'))
force = _trampoline(C.ForceFn, '__simpvi_force__', 'force', ('real', 'Vec', 'Vec', 'Vec'))
force_jacobian = _trampoline(C.ForceJacobianFn, '__simpvi_force_jacobian__', 'force Jacobian', ('real', 'Vec', 'Vec', 'Mat', 'Mat'))
parameter_jacobian = _trampoline(C.ParameterJacobianFn, '__simpvi_parameter_jacobian__', 'parameter Jacobian', ('real', 'Vec', 'Vec', 'Mat', 'Mat'))
equality = _trampoline(C.EqualityConstraintsFn, '__simpvi_equality__', 'equality constraints', ('Vec', 'Vec'))
jacobian_equality = _trampoline(C.JacobianEqualityFn, '__simpvi_jacobian_equality__', "equality constraints' Jacobian", ('Vec', 'Mat'))
hessian_equality = _trampoline(C.HessianEqualityFn, '__simpvi_hessian_equality__', "equality constraints' Hessian", ('Vec', 'Vec', 'Mat'))
rigid_potential = _trampoline(C.RigidBodyPotentialVecFn, '__simpvi_rigid_potential__', "rigid bodies' potential", ('Vec', 'out', 'Vec'))
rigid_hessian = _trampoline(C.RigidBodyHessianVecFn, '__simpvi_rigid_hessian__', "rigid bodies' Hessian", ('Vec', 'Mat'))


def _kinsol_scale(snes, x, F, fs, us, ctx):
  """SNESKINSOLScaleFn: ``fs, us = scale(snes, x, F, fs, us, *args, **kargs)`` with the defaults in, the scales out."""
  fn = None
  try:
    snesobj = wrap('SNES', snes)
    fn, args, kargs = snesobj.getAttr('__simpvi_kinsol_scale__')
    fs[0], us[0] = (float(r) for r in fn(snesobj, wrap('Vec', x), wrap('Vec', F), fs[0], us[0], *args, **kargs))
    return 0
  except BaseException as exc:  # noqa: B036 -- as in _trampoline()
    return _fail('KINSOL scale', fn, exc)


kinsol_scale = C.KINSOLScaleFn(_kinsol_scale)


_real = np.dtype(C.PetscReal)
_views = {}  # (npoints, n, the ten addresses) -> the ten numpy views of one call's arrays
_VIEWS_KEPT = 64  # distinct argument sets kept (a step calls with the same few buffers every Newton iteration)


def _view(addr, shape, writeable):
  """The C array at addr as a numpy array of that shape sharing its memory (no copy); None for NULL."""
  if not addr:
    return None
  size = int(np.prod(shape))
  a = np.frombuffer((C.PetscReal * size).from_address(addr), dtype=_real).reshape(shape)
  a.flags.writeable = writeable  # t, x, v are the solver's own (const) arrays
  return a


def _views_of(npoints, n, addrs):
  """The views of a call's ten arrays, made once per set of buffers: a view is only an address, a shape and a dtype,
  so the one made for the same address and shape is the same array (np.ctypeslib.as_array for each of the ten, on
  each call, cost 80-160 us: more than the user's numpy function; bench/python_pointwise.py)."""
  key = (npoints, n) + addrs
  views = _views.get(key)
  if views is None:
    if len(_views) >= _VIEWS_KEPT:
      _views.clear()
    point, block = (npoints, n), (npoints, n, n)
    shapes = ((npoints,), point, point, (npoints,), point, point, block, block, block, block)
    views = tuple(_view(a, shp, i >= 3) for i, (a, shp) in enumerate(zip(addrs, shapes)))
    _views[key] = views
  return views


def _pointwise(ts, npoints, n, t, x, v, L, P, G, Px, Pv, Gx, Gv, ctx):
  """TSSimpVIPointwiseFn: the arrays as numpy views, t (npoints,), x, v, P, G (npoints, n), Px.. (npoints, n, n)."""
  fn = None
  try:
    tsobj = wrap('TS', ts)
    fn, args, kargs = tsobj.getAttr('__simpvi_pointwise__')
    fn(tsobj, *_views_of(npoints, n, (t, x, v, L, P, G, Px, Pv, Gx, Gv)), *args, **kargs)
    return 0
  except BaseException as exc:  # noqa: B036 -- as in _trampoline()
    return _fail('pointwise Lagrangian', fn, exc)


pointwise = C.PointwiseFn(_pointwise)


def _constraint(ts, n, m, q, lam, g, G, H, ctx):
  """TSSimpVIConstraintFn: q (n,), lambda (m,), g (m,), G (m, n), H (n, n) as numpy views (None for NULL)."""
  fn = None
  try:
    tsobj = wrap('TS', ts)
    fn, args, kargs = tsobj.getAttr('__simpvi_constraints__')
    fn(tsobj, _view(q, (n,), False), _view(lam, (m,), False), _view(g, (m,), True), _view(G, (m, n), True), _view(H, (n, n), True), *args, **kargs)
    return 0
  except BaseException as exc:  # noqa: B036 -- as in _trampoline()
    return _fail('constraints', fn, exc)


constraint = C.ConstraintFn(_constraint)


def store(ts, trampoline, key, fn, args, kargs):
  """Keeps (fn, args, kargs) on the TS (or SNES) under key; returns the C function pointer to hand to simpvi (NULL for None)."""
  if fn is None:
    ts.setAttr(key, None)
    return type(trampoline)()  # a NULL function pointer of the same C type
  if not callable(fn):
    raise TypeError('simpvi: %r is not callable' % (fn,))
  ts.setAttr(key, (fn, tuple(args or ()), dict(kargs or {})))
  return trampoline
