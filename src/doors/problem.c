/*
   The problem: the user's mechanics (Lagrangian, or mass and potential, or a pointwise Lagrangian), kept on the TS in a
   composed container rather than in the type's data: it survives TSSetType(), so -ts_type may change after the
   problem is set. Here are its life, its setters and the choice of the door that reads it.
*/
#include <simpvi/private/door.h> /*I "simpvi.h" I*/

static PetscErrorCode ProblemDestroy(SimpVICtxDestroyArg arg)
{
  SimpVIProblem *prob = (SimpVIProblem *)SIMPVI_CTX(arg);

  PetscFunctionBegin;
  PetscCall(SimpVIPhaseSpaceDestroy_Private(&prob->ps));
  PetscCall(SimpVIProblemReset_Private(prob));
  PetscCall(MatDestroy(&prob->user.I2P));
  PetscCall(MatDestroy(&prob->user.I2A));
  PetscCall(MatDestroy(&prob->user.Lxx));
  PetscCall(MatDestroy(&prob->user.Lvx));
  PetscCall(MatDestroy(&prob->user.Lvv));
  PetscCall(MatDestroy(&prob->user.K));
  PetscCall(MatDestroy(&prob->user.M));
  PetscCall(MatDestroy(&prob->user.Mx));
  PetscCall(MatDestroy(&prob->user.Mxx));
  PetscCall(MatDestroy(&prob->user.Fx));
  PetscCall(MatDestroy(&prob->user.Fv));
  PetscCall(MatDestroy(&prob->user.Pth));
  PetscCall(MatDestroy(&prob->user.Gth));
  PetscCall(VecDestroy(&prob->user.ceq));
  PetscCall(MatDestroy(&prob->user.ceqG));
  PetscCall(MatDestroy(&prob->user.ceqH));
  PetscCall(PetscFree(prob->user.rbJ));
  PetscCall(PetscFree(prob->user.rbJl));
  PetscCall(VecDestroy(&prob->user.rbg));
  PetscCall(MatDestroy(&prob->user.rbH));
  PetscCall(PetscFree(prob));
  PetscFunctionReturn(0);
}

/* The problem of a TS, created empty on request */
PetscErrorCode SimpVIGetProblem_Private(TS ts, PetscBool create, SimpVIProblem **prob)
{
  PetscContainer container;

  PetscFunctionBegin;
  *prob = NULL;
  PetscCall(PetscObjectQuery((PetscObject)ts, "SimpVIProblem", (PetscObject *)&container));
  if (container) PetscCall(PetscContainerGetPointer(container, (void **)prob));
  else if (create) {
    PetscCall(PetscNew(prob));
    (*prob)->directlimit = SIMPVI_DIRECT_LIMIT;
    PetscCall(PetscContainerCreate(PetscObjectComm((PetscObject)ts), &container));
    PetscCall(PetscContainerSetPointer(container, *prob));
    PetscCall(PetscContainerSetCtxDestroy(container, ProblemDestroy));
    PetscCall(PetscObjectCompose((PetscObject)ts, "SimpVIProblem", (PetscObject)container));
    PetscCall(PetscContainerDestroy(&container));
  }
  PetscFunctionReturn(0);
}

/* The native door the user's callbacks call for (NULL: none, e.g. an I2 problem): one set of mechanics only */
PetscErrorCode SimpVIProblemNativeDoor_Private(TS ts, SimpVIProblem *prob, const SimpVIDoor **door)
{
  const SimpVIUser *u = &prob->user;

  PetscFunctionBegin;
  PetscCheck(!(u->pwfn && (u->lagfn || u->potfn || u->M)), PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSimpVISetPointwiseLagrangian() and %s both give the mechanics: call one of them", u->lagfn ? "TSSimpVISetLagrangian()" : "TSSimpVISetMass()/TSSimpVISetPotential()");
  PetscCheck(!(u->lagfn && (u->potfn || u->M)), PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSimpVISetLagrangian() and %s both give the mechanics: call one of them (the Lagrangian of a mass and a potential is L = 1/2 v' M v - V)", u->M ? "TSSimpVISetMass()" : "TSSimpVISetPotential()");
  if (u->pwfn) {
    PetscMPIInt size;

    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ts), &size));
    PetscCheck(size == 1, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSimpVISetPointwiseLagrangian() is for a small system on one process, not %d: give the TS PETSC_COMM_SELF, or use TSSimpVISetLagrangian()", (int)size);
    *door = &SimpVIDoorPointwise;
  } else if (u->lagfn) *door = &SimpVIDoorLagrangian;
  else if (u->potfn || u->M) *door = &SimpVIDoorMechanical;
  else *door = NULL;
  PetscFunctionReturn(0);
}

/* The door of TSSIMPVI: a native door if the user's callbacks call for one; else a TSBASICSYMPLECTIC program's
   separable Hamiltonian (TSRHSSplitSetRHSFunction() "position" and "momentum"); else a second-order PETSc program
   (TSSetI2Function(), or TSSetIFunction() with TS2SetSolution()) */
PetscErrorCode SimpVIProblemChooseDoor_Private(TS ts, SimpVIProblem *prob, const SimpVIDoor **door)
{
  DM           dm;
  TSIFunction  ifunction;
  TSI2Function i2function;

  PetscFunctionBegin;
  PetscCall(TSGetDM(ts, &dm));
  PetscCall(DMTSGetIFunction(dm, &ifunction, NULL));
  PetscCall(DMTSGetI2Function(dm, &i2function, NULL));
  PetscCall(SimpVIProblemNativeDoor_Private(ts, prob, door));
  if (!*door) {
    PetscBool split;

    PetscCall(SimpVISplitDetect_Private(ts, &split));
    if (split) *door = &SimpVIDoorSplit;
  }
  /* TSSetIFunction() is second order where the program gives u' too (TS2SetSolution(), as TSALPHA2 reads it): else it
     is a first-order program, F(t, u, u') = 0, which no scheme of TSSIMPVI integrates */
  if (!*door && !i2function && ifunction) {
    Vec u, udot;

    PetscCall(TS2GetSolution(ts, &u, &udot));
    PetscCheck(udot, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI integrates second-order (mechanical) problems, and this TS has a first-order implicit function F(t, u, u') = 0 (TSSetIFunction() without TS2SetSolution()): use a first-order TS type, or give the problem as F(t, u, u', u'') = 0 (TSSetI2Function()), or as F(t, u, u'') = 0 through TSSetIFunction() with TS2SetSolution() for u and u'");
  }
  if (!*door && (ifunction || i2function)) *door = &SimpVIDoorI2;
  PetscCheck(*door, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI needs a Lagrangian (TSSimpVISetLagrangian() or TSSimpVISetPointwiseLagrangian()), a mechanical system (TSSimpVISetMass() and TSSimpVISetPotential()), a second-order problem (TSSetI2Function() or TSSetIFunction() with TS2SetSolution()) or a separable Hamiltonian as TSBASICSYMPLECTIC reads it (TSRHSSplitSetIS() and TSRHSSplitSetRHSFunction() for \"position\" and \"momentum\")");
  PetscFunctionReturn(0);
}

/* A setter of the mechanics after the set-up (between two TSSolve()): the door chosen then must still be the one the
   user's callbacks call for, else the step would go on with the old mechanics */
static PetscErrorCode LateDoor(TS ts, SimpVIProblem *prob, const char setter[])
{
  const SimpVIDoor *door;

  PetscFunctionBegin;
  if (prob->door != &SimpVIDoorLagrangian && prob->door != &SimpVIDoorMechanical && prob->door != &SimpVIDoorPointwise) PetscFunctionReturn(0);
  PetscCall(SimpVIProblemNativeDoor_Private(ts, prob, &door));
  PetscCheck(door == prob->door, PetscObjectComm((PetscObject)ts), PETSC_ERR_ORDER, "%s() after TSSetUp(): this TS was set up with the %s door, and its mechanics now call for %s%s%s; give them before TSSetUp() or the first TSSolve()", setter,
             prob->door->name, door ? "the " : "no door", door ? door->name : "", door ? " door" : "");
  PetscFunctionReturn(0);
}

/* Keeps a reference to a user matrix, dropping the old one */
static PetscErrorCode KeepMat(Mat A, Mat *slot)
{
  PetscFunctionBegin;
  if (A) PetscCall(PetscObjectReference((PetscObject)A));
  PetscCall(MatDestroy(slot));
  *slot = A;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetLagrangian - Gives a `TS` the Lagrangian L(t, x, v) of its mechanical system and the gradient of L

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
. f   - computes L, Lx = dL/dx and Lv = dL/dv at (t, x, v)
- ctx - user context for f

  Calling sequence of f:
$ PetscErrorCode f(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)

  Notes:
  The state of the `TS` is U = (q, p); see `TSSIMPVI`. The Hessian comes from `TSSimpVISetLagrangianHessian()`.
  The problem is kept by the `TS` whatever its type, so it may be set before -ts_type is read.

  Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVILagrangianFn`, `TSSimpVISetLagrangianHessian()`, `TSSimpVISetMass()`, `TSSimpVISetPotential()`
@*/
PetscErrorCode TSSimpVISetLagrangian(TS ts, TSSimpVILagrangianFn f, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  prob->user.lagfn  = f;
  prob->user.lagctx = ctx;
  PetscCall(SimpVILagrangianForget_Private(prob)); /* nor what the old one gave (the points path keeps P and G) */
  PetscCall(LateDoor(ts, prob, "TSSimpVISetLagrangian"));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetPointwiseLagrangian - Gives a `TS` the mechanics of a small system as one function on plain arrays that
  evaluates L(t, x, v), P = dL/dv, G = dL/dx + f and their derivatives at many points per call

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context, on one process
. f   - evaluates the mechanics at the points it is given, see `TSSimpVIPointwiseFn`
- ctx - user context for f

  Calling sequence of f:
$ PetscErrorCode f(TS ts, PetscInt npoints, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)

  Notes:
  The door of small systems (a few dozen positions: multibody and robotics models): when the step system has at
  most -ts_simpvi_small_limit rows, each Newton iteration calls f once with all the quadrature points of the step, and
  the dense step Jacobian is assembled from its arrays, so that a step costs about its arithmetic (bench/stepcost.sh).
  Larger systems, the SNES path and other `TS` types (`TSSimpVISetUpPhaseSpace()`) call f one point at a time. A force
  may be put in G (with its derivatives in Gx and Gv) or given by `TSSimpVISetForce()`, which takes the slower path.
  The state of the `TS` is U = (q, p); see `TSSIMPVI`. Instead of `TSSimpVISetLagrangian()` or `TSSimpVISetMass()`.

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIPointwiseFn`, `TSSimpVISetLagrangian()`, `TSSimpVISetMass()`, `TSSimpVISetForce()`
@*/
PetscErrorCode TSSimpVISetPointwiseLagrangian(TS ts, TSSimpVIPointwiseFn f, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  prob->user.pwfn  = f;
  prob->user.pwctx = ctx;
  PetscCall(LateDoor(ts, prob, "TSSimpVISetPointwiseLagrangian"));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetLagrangianHessian - Gives a `TS` the second derivatives of its Lagrangian

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
. Lxx - matrix for d2L/dx2
. Lvx - matrix for d2L/dv dx, entry (i,j) = d2L/dv_i dx_j, or NULL if it vanishes identically
. Lvv - matrix for d2L/dv2
. f   - fills the matrices at (t, x, v)
- ctx - user context for f

  Calling sequence of f:
$ PetscErrorCode f(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)

  Notes:
  The step Jacobian of `TSSIMPVI` is preallocated from the nonzero pattern of these matrices.

  A small system on one process (the step solved by `SNESSIMPVIDENSE`) whose Lxx, Lvx and Lvv are all MATSEQDENSE,
  without `TSSimpVISetForce()`, is evaluated on arrays: the Lagrangian is called at each quadrature point on `VECSEQ`
  Vecs of the step's own (their values new at each call, their states increased), f fills copies of Lxx, Lvx and Lvv
  that the step makes (with their values, copied again when the program changes them), read after each call, and a
  Jacobian at the points of a residual just evaluated calls only f. An f that writes the program's own matrices
  instead of those it is given is detected and gets the program's from then on.

  Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVILagrangianHessianFn`, `TSSimpVISetLagrangian()`
@*/
PetscErrorCode TSSimpVISetLagrangianHessian(TS ts, Mat Lxx, Mat Lvx, Mat Lvv, TSSimpVILagrangianHessianFn f, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  SimpVIValidHeaderSpecific(Lxx, MAT_CLASSID, 2);
  if (Lvx) SimpVIValidHeaderSpecific(Lvx, MAT_CLASSID, 3);
  SimpVIValidHeaderSpecific(Lvv, MAT_CLASSID, 4);
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  {
    const Mat         A[3]     = {Lxx, Lvx, Lvv};
    const char *const names[3] = {"Lxx", "Lvx", "Lvv"};

    PetscCall(SimpVIProblemLateMats_Private(ts, prob, "TSSimpVISetLagrangianHessian", (PetscBool)(prob->door == &SimpVIDoorLagrangian), 3, A, names));
  }
  PetscCall(KeepMat(Lxx, &prob->user.Lxx));
  PetscCall(KeepMat(Lvx, &prob->user.Lvx));
  PetscCall(KeepMat(Lvv, &prob->user.Lvv));
  prob->user.laghessfn  = f;
  prob->user.laghessctx = ctx;
  PetscCall(SimpVILagrangianForget_Private(prob));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetPotential - Gives a mechanical problem, L = 1/2 v' M(x) v - V(t, x), its potential, gradient and Hessian

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

  Note:
  Without a potential (V = 0) give only the mass. See tutorials/ex1.c (constant mass) and tutorials/ex4.c (M(x)).

  Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVIPotentialFn`, `TSSimpVIPotentialHessianFn`, `TSSimpVISetMass()`, `TSSimpVISetLagrangian()`
@*/
PetscErrorCode TSSimpVISetPotential(TS ts, Mat H, TSSimpVIPotentialFn V, TSSimpVIPotentialHessianFn hess, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  SimpVIValidHeaderSpecific(H, MAT_CLASSID, 2);
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  {
    const char *const name[1] = {"potential Hessian"};

    PetscCall(SimpVIProblemLateMats_Private(ts, prob, "TSSimpVISetPotential", (PetscBool)(prob->door == &SimpVIDoorMechanical), 1, &H, name));
  }
  PetscCall(KeepMat(H, &prob->user.K));
  prob->user.potfn     = V;
  prob->user.pothessfn = hess;
  prob->user.potctx    = ctx;
  PetscCall(SimpVIMassForget_Private(prob)); /* nor what the old potential gave (the points path keeps grad V) */
  PetscCall(LateDoor(ts, prob, "TSSimpVISetPotential"));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetMass - Gives a mechanical problem, L = 1/2 v' M(x) v - V(t, x), its mass matrix

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
. M   - the mass matrix; assembled by the caller when it is constant (f = NULL)
. Mx  - matrix for d(M(x) v)/dx, entry (i,j) = sum_l dM_il/dx_j v_l; NULL for a constant mass
. Mxx - matrix for 1/2 v' (d2M/dx_j dx_k) v; NULL for a constant mass
. f   - fills M, Mx, g_j = 1/2 v' (dM/dx_j) v and Mxx at (x, v), or NULL for a constant mass
- ctx - user context for f

  Calling sequence of f:
$ PetscErrorCode f(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)

  Notes:
  A constant mass: `TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL)` with M assembled (tutorials/ex1.c).
  A configuration-dependent mass M(x): f fills M, Mx, g and Mxx at each (x, v) the step evaluates, and the step
  needs them all, g for its residual and Mx, Mxx for its Jacobian (tutorials/ex4.c, the spherical pendulum).

  f must be a function of x and v alone: it is not called again at an (x, v) it has just been called at. A small
  system on one process (the step solved by `SNESSIMPVIDENSE`) whose M, Mx, Mxx and potential Hessian are all
  MATSEQDENSE, without `TSSimpVISetForce()`, is evaluated on arrays: f and the potential are called at each quadrature
  point on `VECSEQ` Vecs of the step's own (their values new at each call, their states increased), f and the Hessian
  fill copies of M, Mx, Mxx and the Hessian that the step makes (with their values, copied again when the program
  changes them), read after each call, and a Jacobian at the points of a residual just evaluated calls only the
  potential's Hessian. A callback that writes the program's own matrices instead of those it is given is detected and
  gets the program's from then on.
  Otherwise, on one process, for MATSEQDENSE M, Mx and Mxx of at most 16 positions, the values f gave at the quadrature
  points of a Newton iterate are kept and written back into the matrices (as f writes them, the matrices' states
  increased) when a Jacobian is made there, instead of calling f again at each point.

  Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVIMassFn`, `TSSimpVISetPotential()`
@*/
PetscErrorCode TSSimpVISetMass(TS ts, Mat M, Mat Mx, Mat Mxx, TSSimpVIMassFn f, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  SimpVIValidHeaderSpecific(M, MAT_CLASSID, 2);
  if (Mx) SimpVIValidHeaderSpecific(Mx, MAT_CLASSID, 3);
  if (Mxx) SimpVIValidHeaderSpecific(Mxx, MAT_CLASSID, 4);
  PetscCheck(!f || (Mx && Mxx), PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_NULL, "A configuration-dependent mass needs the matrices Mx and Mxx");
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  {
    const Mat         A[3]     = {M, Mx, Mxx};
    const char *const names[3] = {"mass matrix", "Mx", "Mxx"};

    PetscCall(SimpVIProblemLateMats_Private(ts, prob, "TSSimpVISetMass", (PetscBool)(prob->door == &SimpVIDoorMechanical), 3, A, names));
  }
  PetscCall(KeepMat(M, &prob->user.M));
  PetscCall(KeepMat(Mx, &prob->user.Mx));
  PetscCall(KeepMat(Mxx, &prob->user.Mxx));
  prob->user.massfn  = f;
  prob->user.massctx = ctx;
  PetscCall(SimpVIMassForget_Private(prob));
  PetscCall(LateDoor(ts, prob, "TSSimpVISetMass"));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetForce - Adds a force f(t, x, v) beyond the Lagrangian (damping, driving): the discrete
  Lagrange-d'Alembert principle takes it through the same quadrature as the action

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
. Fx  - matrix for df/dx, or NULL if f does not depend on x
. Fv  - matrix for df/dv, or NULL if f does not depend on v
. f   - computes the generalized force f at (t, x, v)
. jac - fills Fx and Fv at (t, x, v); may be NULL when both matrices are NULL
- ctx - user context

  Calling sequences:
$ PetscErrorCode f(TS ts, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
$ PetscErrorCode jac(TS ts, PetscReal t, Vec x, Vec v, Mat Fx, Mat Fv, void *ctx)

  Notes:
  The equations of motion become d/dt L_v - L_x = f. The scheme then no longer conserves the energy, but it keeps
  its order. The phase-space form given to other `TS` types (`TSSimpVISetUpPhaseSpace()`) includes the force.

  A force may be given, changed or removed between two `TSSolve()`, except one given to a `TSSIMPVI` set up
  without a force whose small step is evaluated on arrays (the pointwise door, or the mechanical or Lagrangian door
  with MATSEQDENSE matrices on one process): that step takes no force, and the call is an error. Give the force
  before `TSSetUp()` (or the first `TSSolve()`) there.

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIForceFn`, `TSSimpVIForceJacobianFn`, `TSSimpVISetLagrangian()`, `TSSimpVISetPotential()`
@*/
PetscErrorCode TSSimpVISetForce(TS ts, Mat Fx, Mat Fv, TSSimpVIForceFn f, TSSimpVIForceJacobianFn jac, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  if (Fx) SimpVIValidHeaderSpecific(Fx, MAT_CLASSID, 2);
  if (Fv) SimpVIValidHeaderSpecific(Fv, MAT_CLASSID, 3);
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  if (f && prob->door) { /* after the set-up: the step as set up must take it */
    PetscCheck(!prob->steppoints, PetscObjectComm((PetscObject)ts), PETSC_ERR_ORDER, "TSSimpVISetForce() after TSSetUp(): this TS was set up without a force, and its small step is evaluated on arrays (the %s door), which takes none; give the force before TSSetUp() or the first TSSolve()",
               prob->door->name);
    const Mat         F[2]     = {Fx, Fv};
    const char *const names[2] = {"force Jacobian Fx", "force Jacobian Fv"};

    PetscCall(SimpVIProblemLateMats_Private(ts, prob, "TSSimpVISetForce", PETSC_FALSE, 2, F, names));
    PetscCheck(!(Fx || Fv) || jac, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSimpVISetForce() was given Jacobian matrices but no function to fill them");
  }
  PetscCall(KeepMat(Fx, &prob->user.Fx));
  PetscCall(KeepMat(Fv, &prob->user.Fv));
  prob->user.forcefn    = f;
  prob->user.forcejacfn = jac;
  prob->user.forcectx   = ctx;
  PetscFunctionReturn(0);
}
