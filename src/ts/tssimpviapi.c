/*
   Public entry points of TSSIMPVI: thin wrappers over the composed methods of tssimpvi.c (a no-op on other TS types
   for setters, an error for getters).
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/

/*@C
  TSSimpVISetType - Sets the scheme of a `TSSIMPVI` integrator

  Logically Collective

  Input Parameters:
+ ts   - the `TS` context
- type - `TSSIMPVIMIDPOINT`, `TSSIMPVITRAPEZOID`, `TSSIMPVISIMPSON` (default), `TSSIMPVILOBATTO`, `TSSIMPVIGAUSS` or a registered name

  Options Database Key:
. -ts_simpvi_type <simpson> - the scheme

  Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVIGetType()`, `TSSimpVISetDegree()`, `TSSimpVIRegister()`
@*/
PetscErrorCode TSSimpVISetType(TS ts, TSSimpVIType type)
{
  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  SimpVIAssertPointer(type, 2);
  PetscCall(SimpVIInitializePackage());
  PetscTryMethod(ts, "TSSimpVISetType_C", (TS, TSSimpVIType), (ts, type));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIGetType - Gets the scheme of a `TSSIMPVI` integrator

  Not Collective

  Input Parameter:
. ts - the `TS` context

  Output Parameter:
. type - the scheme name

  Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVISetType()`
@*/
PetscErrorCode TSSimpVIGetType(TS ts, TSSimpVIType *type)
{
  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  SimpVIAssertPointer(type, 2);
  PetscUseMethod(ts, "TSSimpVIGetType_C", (TS, TSSimpVIType *), (ts, type));
  PetscFunctionReturn(0);
}

/*@
  TSSimpVISetDegree - Sets the polynomial degree s of a `TSSIMPVI` step (the order is 2s)

  Logically Collective

  Input Parameters:
+ ts     - the `TS` context
- degree - s >= 1; only the lobatto and gauss schemes accept a degree other than their own

  Options Database Key:
. -ts_simpvi_degree <s> - the degree

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIGetDegree()`, `TSSimpVIGetOrder()`, `TSSimpVISetType()`
@*/
PetscErrorCode TSSimpVISetDegree(TS ts, PetscInt degree)
{
  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ts, degree, 2);
  PetscTryMethod(ts, "TSSimpVISetDegree_C", (TS, PetscInt), (ts, degree));
  PetscFunctionReturn(0);
}

/*@
  TSSimpVIGetDegree - Gets the polynomial degree s of a `TSSIMPVI` step

  Not Collective

  Input Parameter:
. ts - the `TS` context

  Output Parameter:
. degree - the degree s

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetDegree()`, `TSSimpVIGetOrder()`
@*/
PetscErrorCode TSSimpVIGetDegree(TS ts, PetscInt *degree)
{
  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  SimpVIAssertPointer(degree, 2);
  PetscUseMethod(ts, "TSSimpVIGetDegree_C", (TS, PetscInt *), (ts, degree));
  PetscFunctionReturn(0);
}

/*@
  TSSimpVISetNonlinearSolverType - Chooses the solver of the per-step nonlinear system of a `TSSIMPVI` (deprecated)

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
- nls - `TSSIMPVI_NLS_KINSOL` sets the type of the `TS`'s `SNES` to `SNESKINSOL` (an error if simpvi was built
        without SUNDIALS); `TSSIMPVI_NLS_SNES` takes it back to the default if this function or the option had set it

  Options Database Key:
. -ts_simpvi_nonlinear_solver <snes,kinsol> - the same (deprecated)

  Level: deprecated

  Notes:
  The step is solved by the `TS`'s `SNES`, whatever its type: use `TSGetSNES()` and `SNESSetType`(snes, `SNESKINSOL`),
  or -snes_type kinsol, with the options -snes_kinsol_*. Kept for one release: with it the `SNES`'s `KSP` keeps the
  options prefix of simpvi 0.x's KINSOL solver, -ts_simpvi_kinsol_ (-ts_simpvi_kinsol_ksp_type, ...), and the old
  options -ts_simpvi_kinsol_strategy, _maa, _fnormtol, _scsteptol, _max_setup_calls, _max_newton_step and
  _print_level are copied to -snes_kinsol_* (_max_iters to -snes_max_it). -info prints the deprecation notice.

.seealso: `TSSIMPVI`, `SNESKINSOL`, `TSSimpVIGetNonlinearSolverType()`, `TSSimpVINonlinearSolverType`
@*/
PetscErrorCode TSSimpVISetNonlinearSolverType(TS ts, TSSimpVINonlinearSolverType nls)
{
  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(ts, nls, 2);
  PetscTryMethod(ts, "TSSimpVISetNonlinearSolverType_C", (TS, TSSimpVINonlinearSolverType), (ts, nls));
  PetscFunctionReturn(0);
}

/*@
  TSSimpVIGetNonlinearSolverType - Gets the solver of the per-step nonlinear system of a `TSSIMPVI` (deprecated)

  Not Collective

  Input Parameter:
. ts - the `TS` context

  Output Parameter:
. nls - `TSSIMPVI_NLS_KINSOL` if the `TS`'s `SNES` is a `SNESKINSOL` (or the deprecated option asked for one),
        else `TSSIMPVI_NLS_SNES`

  Level: deprecated

  Note:
  Use `TSGetSNES()` and `SNESGetType()`.

.seealso: `TSSIMPVI`, `SNESKINSOL`, `TSSimpVISetNonlinearSolverType()`
@*/
PetscErrorCode TSSimpVIGetNonlinearSolverType(TS ts, TSSimpVINonlinearSolverType *nls)
{
  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  SimpVIAssertPointer(nls, 2);
  PetscUseMethod(ts, "TSSimpVIGetNonlinearSolverType_C", (TS, TSSimpVINonlinearSolverType *), (ts, nls));
  PetscFunctionReturn(0);
}

/*@
  TSSimpVIGetOrder - Gets the order of accuracy 2s of a `TSSIMPVI` scheme

  Not Collective

  Input Parameter:
. ts - the `TS` context

  Output Parameter:
. order - the order

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIGetDegree()`
@*/
PetscErrorCode TSSimpVIGetOrder(TS ts, PetscInt *order)
{
  PetscFunctionBegin;
  PetscCall(TSSimpVIGetDegree(ts, order));
  *order *= 2;
  PetscFunctionReturn(0);
}
