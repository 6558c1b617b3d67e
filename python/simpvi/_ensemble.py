"""simpvi.Ensemble: the parameter study SimpVIEnsemble (docs/ensemble.md) from Python.

The C object calls four Python functions: the member function (once per member), the mechanics (once per Newton
iteration of a batch, with every quadrature point of every member still iterating), the stop function (after each
step of each member) and the output function (once per member). Their C arrays reach Python as numpy views of
simpvi's own buffers, made once per buffer and kept by the ensemble (a batch's buffers live as long as the study's
set-up), so a call costs the ctypes call, one dictionary look-up and the user's numpy."""
import collections
import ctypes

import numpy as np
from petsc4py import PETSc

from . import _callbacks as _cb
from . import _library as _C

_real, _int = np.dtype(_C.PetscReal), np.dtype(_C.PetscInt)
_VIEWS_KEPT = 4096  # distinct buffer sets kept per kind; a batch has at most its size of them (its live members)


class EnsembleReason:
  """SimpVIEnsembleMemberReason: how the run of a member ended (names: EnsembleReason.names[reason])."""
  DIVERGED_NONLINEAR_SOLVE = -1
  ITERATING = 0
  CONVERGED_TIME = 1
  CONVERGED_ITS = 2
  CONVERGED_USER = 3
  names = {-1: 'DIVERGED_NONLINEAR_SOLVE', 0: 'ITERATING', 1: 'CONVERGED_TIME', 2: 'CONVERGED_ITS', 3: 'CONVERGED_USER'}


MemberInfo = collections.namedtuple('MemberInfo', 'reason steps its t')
MemberInfo.__doc__ = """SimpVIEnsembleGetMemberInfo(), numpy copies in member order: how each member ended (EnsembleReason),
its steps, its Newton iterations and its final time"""


def _view(addr, dtype, shape, writeable):
  """The C array at addr as a numpy array sharing its memory; None for NULL."""
  if not addr:
    return None
  size = int(np.prod(shape))
  a = np.frombuffer((ctypes.c_char * (size * dtype.itemsize)).from_address(addr), dtype=dtype).reshape(shape) if size else np.empty(shape, dtype)
  a.flags.writeable = writeable
  return a


def _cached(cache, key, make):
  """cache[key], made by make() the first time (the cache is emptied when it grows past _VIEWS_KEPT)."""
  views = cache.get(key)
  if views is None:
    if len(cache) >= _VIEWS_KEPT:
      cache.clear()
    views = cache[key] = make()
  return views


def _call(fn, *args):
  _cb.pending.exception = None
  ierr = fn(*args)
  exc, _cb.pending.exception = _cb.pending.exception, None
  if ierr:
    raise PETSc.Error(ierr) from exc


class Ensemble:
  """A parameter study (SimpVIEnsemble): many small mechanical systems ("members"), each given by its parameters and
  initial state, integrated with the scheme of a TS of type simpvi on the processes of a communicator, members dealt
  out on request. Each member takes the steps of a lone run of it through simpvi.setPointwiseLagrangian() by Newton
  (-ts_simpvi_lag_jacobian false), bit for bit, whatever the batch size and the number of processes.

      ens = simpvi.Ensemble().create(PETSc.COMM_WORLD)
      ens.setTS(ts)                        # a TS of type simpvi with its scheme, steps and final time
      ens.setSize(nmembers)
      ens.setMemberFunction(n, nparam, member)     # member(ens, i, param, q, p): fills them in place
      ens.setPointwiseLagrangian(mechanics)        # numpy over all points of all members of a batch
      ens.setBatchStopFunction(stop)               # optional: stop(ens, member, param, step, t, q, p, out): out[:] = ...
      ens.setOutputFunction(3, output, names)      # optional: output(ens, i, param, reason, step, t, q, p, out)
      ens.setFromOptions()                         # -ensemble_batch, -ensemble_chunk, -ensemble_view
      ens.solve()
      results = ens.getResults()                   # (members, values), the same on every process
      info = ens.getMemberInfo()                   # reason, steps, its, t per member
      ens.destroy()

  Callbacks receive this Ensemble first and numpy views of simpvi's arrays, valid during the call only; an exception
  raised in one becomes a PETSc error naming it, chained to the PETSc.Error that solve() raises."""

  def __init__(self):
    self.handle = None  # the C SimpVIEnsemble
    self.comm = None
    self._cfuncs = {}  # kind -> the ctypes function handed to C (kept alive here), a closure over the user's function
    self._views = {'member': {}, 'pointwise': {}, 'state': {}, 'output': {}, 'batchstop': {}}

  def create(self, comm=None):
    """SimpVIEnsembleCreate(): on comm (a petsc4py communicator, default PETSc.COMM_WORLD, or one PETSc.Comm() takes, such
    as an mpi4py communicator). Returns self."""
    self.destroy()
    self.comm = PETSc.COMM_WORLD if comm is None else comm if isinstance(comm, PETSc.Comm) else PETSc.Comm(comm)
    h = _C.handle()
    _call(_C.SimpVIEnsembleCreate, _cb.comm_handle(self.comm), ctypes.byref(h))
    self.handle = h.value
    return self

  def destroy(self):
    """SimpVIEnsembleDestroy() (collective); the callbacks are released. Returns self."""
    if self.handle and not PETSc.Sys.isFinalized():
      h = _C.handle(self.handle)
      _call(_C.SimpVIEnsembleDestroy, ctypes.byref(h))
    self.handle = None
    self._cfuncs.clear()
    for cache in self._views.values():
      cache.clear()
    return self

  def __del__(self):
    try:
      self.destroy()
    except Exception:  # noqa: BLE001 -- at interpreter exit PETSc or the module may be gone; nothing to report to
      pass

  def _h(self):
    if not self.handle:
      raise ValueError('simpvi.Ensemble: create() it first')
    return self.handle

  def setTS(self, ts):
    """SimpVIEnsembleSetTS(): the TS of type simpvi whose steps the members take, configured (scheme, time step, final
    time or most steps, exact final time stepover or matchstep, its SNES's tolerances); it needs no mechanics and no
    solution. The ensemble reads it at setUp() (or solve())."""
    _call(_C.SimpVIEnsembleSetTS, self._h(), ts.handle)

  def setSize(self, nmembers):
    """SimpVIEnsembleSetSize(): members 0 to nmembers - 1."""
    _call(_C.SimpVIEnsembleSetSize, self._h(), int(nmembers))

  def getSize(self):
    """SimpVIEnsembleGetSize(): the number of members."""
    out = _C.PetscInt()
    _call(_C.SimpVIEnsembleGetSize, self._h(), ctypes.byref(out))
    return out.value

  def _store(self, kind, prototype, maker, fn, args, kargs):
    """Keeps the C function of kind calling fn (made by maker); returns it (NULL for fn None)."""
    if fn is None:
      self._cfuncs.pop(kind, None)
      return prototype()
    if not callable(fn):
      raise TypeError('simpvi: %r is not callable' % (fn,))
    self._cfuncs[kind] = prototype(maker(fn, tuple(args or ()), dict(kargs or {})))
    return self._cfuncs[kind]

  def setMemberFunction(self, n, nparam, member, args=None, kargs=None):
    """SimpVIEnsembleSetMemberFunction(): members have n positions and nparam parameters;
    ``member(ens, i, param, q, p, *args, **kargs)`` fills in place member i's parameters param (nparam,), initial
    positions q (n,) and momenta p (n,). Called once per member, on the process that runs it. A member given a NaN
    fails at its first step and is reported so (EnsembleReason.DIVERGED_NONLINEAR_SOLVE); the others run on."""
    for cache in self._views.values():  # n and nparam are the views' shapes
      cache.clear()
    fn = self._store('member', _C.EnsembleMemberFn, self._member_fn, member, args, kargs)
    _call(_C.SimpVIEnsembleSetMemberFunction, self._h(), int(n), int(nparam), fn, None)

  def setPointwiseLagrangian(self, mechanics, args=None, kargs=None):
    """SimpVIEnsembleSetPointwiseLagrangian(): the members' mechanics on numpy arrays, vectorised over every
    quadrature point of every member of a batch still iterating, one call per Newton iteration.

    ``mechanics(ens, member, param, t, x, v, L, P, G, Px, Pv, Gx, Gv, *args, **kargs)`` receives each point's member
    id (npoints,), its member's parameters (npoints, nparam), t (npoints,), x and v (npoints, n), and fills in place
    the outputs that are not None: L (npoints,) (the ensemble never asks for it), P = dL/dv and G = dL/dx + f
    (npoints, n), Px = dP/dx, Pv, Gx, Gv (npoints, n, n), Px[k, i, j] = dP_i/dx_j at point k: the arrays of
    simpvi.setPointwiseLagrangian() with the member and its parameters. Each point's values must depend on that point
    alone (a member's result does not depend on which members share its batch)."""
    fn = self._store('pointwise', _C.EnsemblePointwiseFn, self._pointwise_fn, mechanics, args, kargs)
    _call(_C.SimpVIEnsembleSetPointwiseLagrangian, self._h(), fn, None)

  def setStopFunction(self, stop, args=None, kargs=None):
    """SimpVIEnsembleSetStopFunction(): ``stop(ens, i, param, step, t, q, p, *args, **kargs)`` after each step of each
    member, its positions q and momenta p (n,); a true return value ends member i's run there
    (EnsembleReason.CONVERGED_USER). None: no stop function. One Python call per member and step costs about what the
    member's step costs in C (docs/ensemble.md): setBatchStopFunction() makes one call per batch step."""
    fn = self._store('stop', _C.EnsembleStopFn, self._stop_fn, stop, args, kargs)
    _call(_C.SimpVIEnsembleSetStopFunction, self._h(), fn, None)

  def setBatchStopFunction(self, stop, args=None, kargs=None):
    """SimpVIEnsembleSetBatchStopFunction(): the stop function vectorised, one call after each step of a batch with
    every member whose step succeeded: ``stop(ens, member, param, step, t, q, p, out, *args, **kargs)`` receives
    their ids (k,), parameters (k, nparam), steps (k,), times (k,), positions q and momenta p (k, n), and sets
    ``out[j]`` (k,) true (``out[:] = p[:, 0] >= 0``) to end member[j]'s run there (EnsembleReason.CONVERGED_USER),
    as setStopFunction()'s function at each of them would. Each verdict must depend on its member alone. One Python
    call per batch step instead of one per member and step: the form to use from Python. None: none."""
    fn = self._store('batchstop', _C.EnsembleBatchStopFn, self._batchstop_fn, stop, args, kargs)
    _call(_C.SimpVIEnsembleSetBatchStopFunction, self._h(), fn, None)

  def setOutputFunction(self, nout, output, names=None, args=None, kargs=None):
    """SimpVIEnsembleSetOutputFunction(): nout result values per member (default without: its final q and p);
    ``output(ens, i, param, reason, step, t, q, p, out, *args, **kargs)`` fills out (nout,) at the end of member i's
    run (failed ones too, with their last good state). names: the values' names for the CSV view (default out0, ...)."""
    fn = self._store('output', _C.EnsembleOutputFn, self._output_fn, output, args, kargs)
    cnames = None
    if names is not None:
      if len(names) != nout:
        raise ValueError('simpvi.Ensemble.setOutputFunction(): %d names for %d values' % (len(names), nout))
      cnames = (ctypes.c_char_p * nout)(*(str(s).encode() for s in names))
    _call(_C.SimpVIEnsembleSetOutputFunction, self._h(), int(nout), cnames, fn, None)

  def setBatchSize(self, batch):
    """SimpVIEnsembleSetBatchSize(): the most members a process integrates together (default 16); their points come
    to the mechanics in one call per Newton iteration, so in Python larger batches share the cost of a call among more
    members (-ensemble_batch)."""
    _call(_C.SimpVIEnsembleSetBatchSize, self._h(), int(batch))

  def setChunkSize(self, chunk):
    """SimpVIEnsembleSetChunkSize(): member ids per request to the shared queue (PETSc.DECIDE: its default)."""
    _call(_C.SimpVIEnsembleSetChunkSize, self._h(), int(chunk))

  def setFromOptions(self):
    """SimpVIEnsembleSetFromOptions(): -ensemble_batch, -ensemble_chunk, -ensemble_view."""
    _call(_C.SimpVIEnsembleSetFromOptions, self._h())

  def setUp(self):
    """SimpVIEnsembleSetUp(): reads the TS and makes the work space (solve() calls it)."""
    _call(_C.SimpVIEnsembleSetUp, self._h())

  def solve(self):
    """SimpVIEnsembleSolve(): runs every member (collective). A member that fails or stops early is reported in
    getMemberInfo(); an exception raised by a callback raises PETSc.Error here."""
    _call(_C.SimpVIEnsembleSolve, self._h())

  def getResults(self):
    """SimpVIEnsembleGetResults(): a numpy copy (members, values) of every member's result values, in member order, the
    same on every process."""
    nout, ptr = _C.PetscInt(), ctypes.c_void_p()
    _call(_C.SimpVIEnsembleGetResults, self._h(), ctypes.byref(nout), ctypes.byref(ptr))
    shape = (self.getSize(), nout.value)
    return _view(ptr.value, _real, shape, False).copy() if ptr.value else np.zeros(shape, _real)

  def getMemberInfo(self):
    """SimpVIEnsembleGetMemberInfo(): a MemberInfo of numpy copies (reason, steps, its, t) in member order."""
    ptrs = [ctypes.c_void_p() for _ in range(4)]
    _call(_C.SimpVIEnsembleGetMemberInfo, self._h(), *(ctypes.byref(p) for p in ptrs))
    m = self.getSize()
    dtypes = (np.dtype(np.intc), _int, _int, _real)  # the reasons are a C enum
    return MemberInfo(*(_view(p.value, d, (m,), False).copy() if p.value else np.zeros(m, d) for p, d in zip(ptrs, dtypes)))

  def view(self, viewer=None):
    """SimpVIEnsembleView(): the study in a few lines (default viewer: stdout); ASCII_CSV format: the results as CSV;
    a binary or HDF5 viewer: the results as one Vec named SimpVIEnsembleResults."""
    _call(_C.SimpVIEnsembleView, self._h(), None if viewer is None else viewer.handle)

  # ---------------------------------------------------------------- the C side of the callbacks
  # Each is a closure over the user's function and its cache of views, so that a call costs the ctypes call, one
  # look-up of its buffers' views and the user's function (the stop function runs once per member and step).

  def _member_fn(self, fn, args, kargs):
    cache, ens = self._views['member'], self

    def member(h, i, nparam, param, n, q, p, ctx):
      try:
        key = (param, q, p)
        views = cache.get(key) or _cached(cache, key, lambda: (_view(param, _real, (nparam,), True), _view(q, _real, (n,), True), _view(p, _real, (n,), True)))
        fn(ens, i, *views, *args, **kargs)
        return 0
      except BaseException as exc:  # noqa: B036 -- whatever it is, C must see an error code
        return _cb._fail('ensemble member', fn, exc)
    return member

  def _pointwise_fn(self, fn, args, kargs):
    cache, ens, extra = self._views['pointwise'], self, bool(args or kargs)

    def pointwise(h, *a):
      """a = (npoints, n, member, nparam, param, t, x, v, L, P, G, Px, Pv, Gx, Gv, ctx), the key of its views."""
      try:
        views = cache.get(a) or _cached(cache, a, lambda: _pointwise_views(*a[:-1]))
        if extra:
          fn(ens, *views, *args, **kargs)
        else:
          fn(ens, *views)
        return 0
      except BaseException as exc:  # noqa: B036
        return _cb._fail('ensemble pointwise Lagrangian', fn, exc)
    return pointwise

  def _stop_fn(self, fn, args, kargs):
    cache, ens, boolean = self._views['state'], self, ctypes.c_int.from_address  # PetscBool is a C enum

    def stop(h, i, nparam, param, step, t, n, q, p, out, ctx):
      try:
        key = (param, q, p)
        views = cache.get(key) or _cached(cache, key, lambda: _state_views(nparam, param, n, q, p))
        if fn(ens, i, views[0], step, t, views[1], views[2], *args, **kargs):
          boolean(out).value = 1
        return 0
      except BaseException as exc:  # noqa: B036
        return _cb._fail('ensemble stop', fn, exc)
    return stop

  def _batchstop_fn(self, fn, args, kargs):
    cache, ens = self._views['batchstop'], self

    def batchstop(h, *a):
      """a = (k, member, nparam, param, step, t, n, q, p, stop, ctx), the key of its views."""
      try:
        views = cache.get(a) or _cached(cache, a, lambda: _batchstop_views(*a[:-1]))
        fn(ens, *views, *args, **kargs)
        return 0
      except BaseException as exc:  # noqa: B036
        return _cb._fail('ensemble batch stop', fn, exc)
    return batchstop

  def _output_fn(self, fn, args, kargs):
    cache, outs, ens = self._views['state'], self._views['output'], self

    def output(h, i, nparam, param, reason, step, t, n, q, p, nout, out, ctx):
      try:
        key = (param, q, p)
        views = cache.get(key) or _cached(cache, key, lambda: _state_views(nparam, param, n, q, p))
        vout = outs.get((nout, out))
        if vout is None:
          vout = _cached(outs, (nout, out), lambda: _view(out, _real, (nout,), True))
        fn(ens, i, views[0], reason, step, t, views[1], views[2], vout, *args, **kargs)
        return 0
      except BaseException as exc:  # noqa: B036
        return _cb._fail('ensemble output', fn, exc)
    return output


def _pointwise_views(npoints, n, member, nparam, param, t, x, v, L, P, G, Px, Pv, Gx, Gv):
  """The mechanics' arrays: member (npoints,), param (npoints, nparam), t, x, v, then the outputs."""
  point, block = (npoints, n), (npoints, n, n)
  return ((_view(member, _int, (npoints,), False), _view(param, _real, (npoints, nparam), False), _view(t, _real, (npoints,), False),
           _view(x, _real, point, False), _view(v, _real, point, False), _view(L, _real, (npoints,), True))
          + tuple(_view(a, _real, point, True) for a in (P, G)) + tuple(_view(a, _real, block, True) for a in (Px, Pv, Gx, Gv)))


def _state_views(nparam, param, n, q, p):
  """A member's parameters, positions and momenta, read-only."""
  return _view(param, _real, (nparam,), False), _view(q, _real, (n,), False), _view(p, _real, (n,), False)


def _batchstop_views(k, member, nparam, param, step, t, n, q, p, stop):
  """The batch stop function's arrays: member, param, step, t, q, p read-only, stop (k,) a PetscBool (C enum) array."""
  return (_view(member, _int, (k,), False), _view(param, _real, (k, nparam), False), _view(step, _int, (k,), False), _view(t, _real, (k,), False),
          _view(q, _real, (k, n), False), _view(p, _real, (k, n), False), _view(stop, np.dtype(np.intc), (k,), True))
