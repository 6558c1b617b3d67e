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
  PetscValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscValidCharPointer(type, 2);
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
  PetscValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscValidPointer(type, 2);
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
  PetscValidHeaderSpecific(ts, TS_CLASSID, 1);
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
  PetscValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscValidIntPointer(degree, 2);
  PetscUseMethod(ts, "TSSimpVIGetDegree_C", (TS, PetscInt *), (ts, degree));
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

/*@C
  TSSimpVISetLagrangian - Gives a `TSSIMPVI` integrator the Lagrangian L(t, x, v) and its gradient

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
. f   - computes L, Lx = dL/dx and Lv = dL/dv at (t, x, v)
- ctx - user context for f

  Calling sequence of f:
$ PetscErrorCode f(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)

  Note:
  The state of the `TS` is U = (q, p); see `TSSIMPVI`. The Hessian comes from `TSSimpVISetLagrangianHessian()`.

  Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVISetLagrangianHessian()`, `TSSimpVISetMass()`, `TSSimpVISetPotential()`
@*/
PetscErrorCode TSSimpVISetLagrangian(TS ts, TSSimpVILagrangianFn f, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscTryMethod(ts, "TSSimpVISetLagrangian_C", (TS, TSSimpVILagrangianFn, void *), (ts, f, ctx));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetLagrangianHessian - Gives a `TSSIMPVI` integrator the second derivatives of its Lagrangian

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
. Lxx - matrix for d2L/dx2
. Lvx - matrix for d2L/dv dx, entry (i,j) = d2L/dv_i dx_j, or NULL if it vanishes identically
. Lvv - matrix for d2L/dv2
. f   - fills the three matrices at (t, x, v)
- ctx - user context for f

  Calling sequence of f:
$ PetscErrorCode f(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)

  Note:
  The step Jacobian is preallocated from the nonzero pattern of these matrices.

  Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVISetLagrangian()`
@*/
PetscErrorCode TSSimpVISetLagrangianHessian(TS ts, Mat Lxx, Mat Lvx, Mat Lvv, TSSimpVILagrangianHessianFn f, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscValidHeaderSpecific(Lxx, MAT_CLASSID, 2);
  if (Lvx) PetscValidHeaderSpecific(Lvx, MAT_CLASSID, 3);
  PetscValidHeaderSpecific(Lvv, MAT_CLASSID, 4);
  PetscTryMethod(ts, "TSSimpVISetLagrangianHessian_C", (TS, Mat, Mat, Mat, TSSimpVILagrangianHessianFn, void *), (ts, Lxx, Lvx, Lvv, f, ctx));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetPotential - Gives a mechanical `TSSIMPVI` problem its potential V(t, x), gradient and Hessian

  Logically Collective

  Input Parameters:
+ ts   - the `TS` context
. H    - matrix for the Hessian d2V/dx2
. V    - computes V and its gradient at (t, x)
. hess - fills H at (t, x)
- ctx  - user context

  Calling sequences:
$ PetscErrorCode V(TS ts, PetscReal t, Vec x, PetscReal *V, Vec gradV, void *ctx)
$ PetscErrorCode hess(TS ts, PetscReal t, Vec x, Mat H, void *ctx)

  Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVISetMass()`, `TSSimpVISetLagrangian()`
@*/
PetscErrorCode TSSimpVISetPotential(TS ts, Mat H, TSSimpVIPotentialFn V, TSSimpVIPotentialHessianFn hess, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscValidHeaderSpecific(H, MAT_CLASSID, 2);
  PetscTryMethod(ts, "TSSimpVISetPotential_C", (TS, Mat, TSSimpVIPotentialFn, TSSimpVIPotentialHessianFn, void *), (ts, H, V, hess, ctx));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetMass - Gives a mechanical `TSSIMPVI` problem, L = 1/2 v' M(x) v - V(t, x), its mass matrix

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
. M   - the mass matrix; assembled by the caller when it is constant (f = NULL)
. Mx  - matrix for d(M(x) v)/dx, entry (i,j) = sum_l dM_il/dx_j v_l; NULL for constant mass
. Mxx - matrix for 1/2 v' (d2M/dx_j dx_k) v; NULL for constant mass
. f   - fills M, Mx, g_j = 1/2 v' (dM/dx_j) v and Mxx at (x, v), or NULL for a constant mass
- ctx - user context for f

  Calling sequence of f:
$ PetscErrorCode f(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)

  Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVISetPotential()`
@*/
PetscErrorCode TSSimpVISetMass(TS ts, Mat M, Mat Mx, Mat Mxx, TSSimpVIMassFn f, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscValidHeaderSpecific(M, MAT_CLASSID, 2);
  PetscCheck(!f || (Mx && Mxx), PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_NULL, "A configuration-dependent mass needs the matrices Mx and Mxx");
  PetscTryMethod(ts, "TSSimpVISetMass_C", (TS, Mat, Mat, Mat, TSSimpVIMassFn, void *), (ts, M, Mx, Mxx, f, ctx));
  PetscFunctionReturn(0);
}
