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
  TSSimpVIGetOrder - Gets the order of accuracy of a `TSSIMPVI` scheme: 2s for the built-in families, what its
  constructor declares for a family of `TSSimpVIRegisterFamily()`

  Not Collective

  Input Parameter:
. ts - the `TS` context

  Output Parameter:
. order - the order

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIGetDegree()`, `TSSimpVIRegisterFamily()`
@*/
PetscErrorCode TSSimpVIGetOrder(TS ts, PetscInt *order)
{
  TS_SimpVI *vi;

  PetscFunctionBegin;
  PetscCall(TSSimpVIGetDegree(ts, order)); /* stops on a TS of another type */
  vi = (TS_SimpVI *)ts->data;
  PetscCall(SimpVISchemeTable_Private(vi->family, vi->degree, &vi->scheme));
  *order = vi->scheme->order;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIGetTableau - Gets the table of the current `TSSIMPVI` scheme: its Gauss-Lobatto nodes, its quadrature and
  the Lagrange basis of the step polynomial at the quadrature points

  Not Collective

  Input Parameter:
. ts - the `TS` context, of type `TSSIMPVI`

  Output Parameters:
+ degree - s, the degree of the step polynomial (the step has s unknown nodes per position)
. nq     - the number of quadrature points
. c      - the s+1 nodes on [0, 1]
. tau    - the nq quadrature points on [0, 1]
. w      - the nq quadrature weights
. B      - B[k (s+1) + i] = phi_i(tau_k), the Lagrange basis of the nodes at the quadrature points
- D      - D[k (s+1) + i] = phi_i'(tau_k), its derivative

  Level: advanced

  Notes:
  Any output may be `NULL`. The arrays belong to the `TS` and stay valid until its scheme changes or it is reset or
  destroyed. With P = dL/dv and G = dL/dx at x_k = sum_i B_ki Q_i, v_k = (1/h) sum_i D_ki Q_i, the step from (q0, p0)
  solves p0 + sum_k w_k [D_k0 P_k + h B_k0 G_k] = 0 and sum_k w_k [D_ki P_k + h B_ki G_k] = 0 (i = 1..s-1) for the
  nodes Q_1..Q_s (Q_0 = q0); then q1 = Q_s and p1 = p0 + h sum_k w_k G_k. This is what a program needs to take the
  same steps outside a `TS`, e.g. for many small systems at once (`SimpVIEnsemble`), as `TSRKGetTableau()` gives
  a Runge-Kutta table.

.seealso: `TSSIMPVI`, `TSSimpVISetType()`, `TSSimpVIGetDegree()`
@*/
PetscErrorCode TSSimpVIGetTableau(TS ts, PetscInt *degree, PetscInt *nq, const PetscReal *c[], const PetscReal *tau[], const PetscReal *w[], const PetscReal *B[], const PetscReal *D[])
{
  TS_SimpVI *vi;
  PetscBool  is;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &is));
  PetscCheck(is, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONG, "TSSimpVIGetTableau() needs a TS of type %s", TSSIMPVI);
  vi = (TS_SimpVI *)ts->data;
  /* before set-up the table is made here (set-up makes it anew); after set-up it always matches the scheme */
  PetscCall(SimpVISchemeTable_Private(vi->family, vi->degree, &vi->scheme));
  if (degree) *degree = vi->scheme->degree;
  if (nq) *nq = vi->scheme->nq;
  if (c) *c = vi->scheme->c;
  if (tau) *tau = vi->scheme->tau;
  if (w) *w = vi->scheme->w;
  if (B) *B = vi->scheme->B;
  if (D) *D = vi->scheme->D;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVICreateKernel - Makes the step's equations of a `TSSIMPVI`'s scheme on plain arrays: the quadrature points,
  residual, Jacobian and end momentum of one step, as the `TS` computes them

  Not Collective

  Input Parameter:
. ts - the `TS` of type `TSSIMPVI` (its scheme chosen)

  Output Parameter:
. kernel - the kernel; destroy it with `SimpVIKernelDestroy()`

  Level: developer

  Notes:
  The kernel keeps copies of the scheme's tables: it stays valid when the `TS` changes its scheme or is destroyed.
  Set the step size with `SimpVIKernelSetStepSize()`, then for the step from (q0, p0) with unknowns Z (the node
  increments, s blocks of n): `SimpVIKernelPoints()` gives x_k and v_k, the program's mechanics P = dL/dv and
  G = dL/dx there, `SimpVIKernelResidual()` the step's residual, `SimpVIKernelJacobian()` its Jacobian from the
  derivatives of P and G, and once solved `SimpVIKernelMomentum()` the end momentum (q1 = q0 + Z_s). A program that
  takes many small steps outside a `TS` (an ensemble of members) takes exactly the `TS`'s steps this way.

.seealso: `TSSIMPVI`, `TSSimpVIGetTableau()`, `SimpVIKernelDestroy()`, `SimpVIKernelSetStepSize()`, `SimpVIKernelPoints()`,
          `SimpVIKernelResidual()`, `SimpVIKernelJacobian()`, `SimpVIKernelMomentum()`
@*/
PetscErrorCode TSSimpVICreateKernel(TS ts, SimpVIKernel *kernel)
{
  PetscFunctionBegin;
  SimpVIAssertPointer(kernel, 2);
  PetscCall(TSSimpVIGetTableau(ts, NULL, NULL, NULL, NULL, NULL, NULL, NULL)); /* checks ts, makes its table current */
  PetscCall(SimpVIKernelCreate_Private(((TS_SimpVI *)ts->data)->scheme, kernel));
  PetscFunctionReturn(0);
}
