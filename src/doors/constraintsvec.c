/*
   Holonomic constraints g(q) = 0 on Vecs and Mats, as TAO takes equality constraints
   (TaoSetEqualityConstraintsRoutine(), TaoSetJacobianEqualityRoutine()): for the Vec doors (Lagrangian, mechanical,
   ...) on any number of processes. The step's equations are those of the array form (src/core/constraints.c, the
   Vec path in src/core/constraintsvec.c).
*/
#include <simpvi/private/door.h> /*I "simpvi.h" I*/

/* Keeps a reference to a user object, dropping the old one */
static PetscErrorCode Keep(PetscObject obj, PetscObject *slot)
{
  PetscFunctionBegin;
  if (obj) PetscCall(PetscObjectReference(obj));
  PetscCall(PetscObjectDereference(*slot));
  *slot = obj;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetEqualityConstraintsRoutine - Gives a `TSSIMPVI` problem holonomic constraints g(q) = 0 on `Vec`s, with
  multipliers at the nodes of every step (the Lobatto IIIA-IIIB (SPARK) form of Jay 1996, written as a discrete
  action), for any number of processes

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
. g   - a vector for g(q): its size is the number of constraints m, its layout that of the multipliers
. f   - computes g(q) (see `TSSimpVIEqualityConstraintsFn`); `NULL` with g `NULL` removes the constraints
- ctx - user context for f

  Notes:
  The calling sequence follows `TaoSetEqualityConstraintsRoutine()`. The constraints also need their Jacobian
  G = dg/dq (`TSSimpVISetJacobianEqualityRoutine()`) and the contraction sum_r lambda_r d2 g_r/dq2 of their second
  derivatives with multipliers (`TSSimpVISetHessianEqualityRoutine()`). They take the problem of any door on `Vec`s
  (`TSSimpVISetMass()` and `TSSimpVISetPotential()`, `TSSimpVISetLagrangian()`, ...), forces included; the pointwise
  door takes them too, on one process, or its own array form `TSSimpVISetConstraints()` (not both).

  The step solves for the positions at the nodes Q_1..Q_s and the multipliers lambda_0..lambda_{s-1} together, with the
  constraints at Q_1..Q_s; the end multiplier lambda_s puts the end momentum on the hidden constraint G(q1) v1 = 0 (v1
  the velocity of p1: P(t1, q1, v1) = p1), by Newton on v1 with the door's P and dP/dv, each iteration a solve of
  [dP/dv G'; G 0] (options prefix -ts_simpvi_projection_). The state stays U = (q, p); the initial q should satisfy
  g(q) = 0 and p the hidden constraint: a start off them is taken onto them by the first step (q onto g = 0, the
  momentum normal to the manifold dropped; -info says so). The step system is a saddle point: its default solver is an LU in the natural
  order on one process, GMRES with block Jacobi in parallel, each process's block (its positions, then its multipliers)
  factored by an LU in the natural order; both are PETSc's own (no external package) and `TSView()` states them.
  `TSSimpVIGetConstraintMultipliers()` gives the last step's multipliers of this process. The adjoint and forward
  sensitivities do not take this form yet (the array form has them).

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIEqualityConstraintsFn`, `TSSimpVISetJacobianEqualityRoutine()`, `TSSimpVISetHessianEqualityRoutine()`,
          `TSSimpVISetConstraints()`, `TSSimpVIGetConstraintMultipliers()`, `TaoSetEqualityConstraintsRoutine()`
@*/
PetscErrorCode TSSimpVISetEqualityConstraintsRoutine(TS ts, Vec g, TSSimpVIEqualityConstraintsFn f, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  if (g) SimpVIValidHeaderSpecific(g, VEC_CLASSID, 2);
  PetscCheck(!g == !f, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_NULL, "TSSimpVISetEqualityConstraintsRoutine() needs both the vector g and the function, or neither");
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  if (prob->door) { /* after the set-up (between two TSSolve()) the step's unknowns are laid out for the constraints it saw */
    PetscInt mold = 0, mnew = 0;

    if (prob->user.ceq) PetscCall(VecGetSize(prob->user.ceq, &mold));
    if (g) PetscCall(VecGetSize(g, &mnew));
    PetscCheck(mold == mnew, PetscObjectComm((PetscObject)ts), PETSC_ERR_ORDER, "TSSimpVISetEqualityConstraintsRoutine() after TSSetUp() changes the number of constraints from %" PetscInt_FMT " to %" PetscInt_FMT ": the step's unknowns were laid out for the first; give the constraints before TSSetUp() or the first TSSolve()", mold, mnew);
  }
  PetscCall(Keep((PetscObject)g, (PetscObject *)&prob->user.ceq));
  prob->user.ceqfn  = f;
  prob->user.ceqctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetJacobianEqualityRoutine - Gives the Jacobian G = dg/dq of the constraints of
  `TSSimpVISetEqualityConstraintsRoutine()`

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
. G   - the matrix for G: m x n, its rows laid out as g, its columns as the positions (an `MATAIJ` in parallel, say)
. f   - fills G at q (see `TSSimpVIJacobianEqualityFn`)
- ctx - user context for f

  Note:
  The calling sequence follows `TaoSetJacobianEqualityRoutine()`, without its preconditioning matrix: G enters the step
  matrix itself. G is read with `MatGetRow()` and `MatMultTranspose()`; its pattern may change from call to call.

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIJacobianEqualityFn`, `TSSimpVISetEqualityConstraintsRoutine()`, `TSSimpVISetHessianEqualityRoutine()`,
          `TaoSetJacobianEqualityRoutine()`
@*/
PetscErrorCode TSSimpVISetJacobianEqualityRoutine(TS ts, Mat G, TSSimpVIJacobianEqualityFn f, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  if (G) SimpVIValidHeaderSpecific(G, MAT_CLASSID, 2);
  PetscCheck(!G == !f, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_NULL, "TSSimpVISetJacobianEqualityRoutine() needs both the matrix G and the function, or neither");
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  PetscCall(Keep((PetscObject)G, (PetscObject *)&prob->user.ceqG));
  prob->user.ceqjacfn  = f;
  prob->user.ceqjacctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetHessianEqualityRoutine - Gives the contraction H = sum_r lambda_r d2 g_r/dq2 of the second derivatives of
  the constraints of `TSSimpVISetEqualityConstraintsRoutine()` with multipliers lambda, which Newton on the step needs

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
. H   - the matrix for H: n x n, laid out as the positions (symmetric)
. f   - fills H at (q, lambda) (see `TSSimpVIHessianEqualityFn`)
- ctx - user context for f

  Note:
  H is the constraints' part of the Hessian of the Lagrangian L - g' lambda, as a TAO user gives it inside the
  Hessian of `TaoSetHessian()` for an equality-constrained solver; here it comes apart, since the step weights it at
  each node. Linear constraints have H = 0: give an empty (assembled) matrix and a function that leaves it.

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIHessianEqualityFn`, `TSSimpVISetEqualityConstraintsRoutine()`, `TSSimpVISetJacobianEqualityRoutine()`
@*/
PetscErrorCode TSSimpVISetHessianEqualityRoutine(TS ts, Mat H, TSSimpVIHessianEqualityFn f, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  if (H) SimpVIValidHeaderSpecific(H, MAT_CLASSID, 2);
  PetscCheck(!H == !f, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_NULL, "TSSimpVISetHessianEqualityRoutine() needs both the matrix H and the function, or neither");
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  PetscCall(Keep((PetscObject)H, (PetscObject *)&prob->user.ceqH));
  prob->user.ceqhessfn  = f;
  prob->user.ceqhessctx = ctx;
  PetscFunctionReturn(0);
}

/* The user's routines for the step (its door context is the TS) */
static PetscErrorCode StepEquality(void *ctx, Vec q, Vec g)
{
  TS             ts = (TS)ctx;
  SimpVIProblem *prob;

  PetscFunctionBegin;
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
  SimpVICallBack(ts, "TSSIMPVI equality constraints", prob->user.ceqfn(ts, q, g, prob->user.ceqctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode StepJacobianEquality(void *ctx, Vec q, Mat G)
{
  TS             ts = (TS)ctx;
  SimpVIProblem *prob;

  PetscFunctionBegin;
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
  SimpVICallBack(ts, "TSSIMPVI equality constraints' Jacobian", prob->user.ceqjacfn(ts, q, G, prob->user.ceqjacctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode StepHessianEquality(void *ctx, Vec q, Vec lambda, Mat H)
{
  TS             ts = (TS)ctx;
  SimpVIProblem *prob;

  PetscFunctionBegin;
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
  SimpVICallBack(ts, "TSSIMPVI equality constraints' Hessian", prob->user.ceqhessfn(ts, q, lambda, H, prob->user.ceqhessctx));
  PetscFunctionReturn(0);
}

/*
  SimpVIProblemStepConstraintsVec_Private - the Vec/Mat constraints in the step's door, checked against the other form,
  each other and the positions q
*/
PetscErrorCode SimpVIProblemStepConstraintsVec_Private(TS ts, SimpVIProblem *prob, const SimpVIDoor *door, Vec q, SimpVIStepDoor *stepdoor)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)ts);
  PetscInt  n, N, m, M, gm, gn, gM, gN;
  PetscBool ok;

  PetscFunctionBegin;
  PetscCheck(!prob->user.confn, comm, PETSC_ERR_ARG_WRONGSTATE, "Give the constraints once: TSSimpVISetConstraints() (arrays) or TSSimpVISetEqualityConstraintsRoutine() (Vecs), not both");
  PetscCheck(prob->user.ceqjacfn, comm, PETSC_ERR_USER, "TSSimpVISetEqualityConstraintsRoutine() needs the constraints' Jacobian: call TSSimpVISetJacobianEqualityRoutine()");
  PetscCheck(prob->user.ceqhessfn, comm, PETSC_ERR_USER, "TSSimpVISetEqualityConstraintsRoutine() needs the contraction of the constraints' second derivatives with multipliers: call TSSimpVISetHessianEqualityRoutine()");
  PetscCheck(door->terms, comm, PETSC_ERR_SUP, "The %s door gives no derivatives of P: the constraints' end projection needs dP/dv", door->name);
  PetscCall(VecGetSize(q, &N));
  PetscCall(VecGetLocalSize(q, &n));
  PetscCall(VecGetSize(prob->user.ceq, &M));
  PetscCall(VecGetLocalSize(prob->user.ceq, &m));
  PetscCheck(M > 0 && M < N, comm, PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " constraints on %" PetscInt_FMT " positions: give at least one and fewer than the positions", M, N);
  PetscCall(MatGetSize(prob->user.ceqG, &gM, &gN));
  PetscCall(MatGetLocalSize(prob->user.ceqG, &gm, &gn));
  ok = (PetscBool)(gm == m && gn == n);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, SIMPVI_MPI_BOOL, MPI_LAND, comm));
  PetscCheck(gM == M && gN == N, comm, PETSC_ERR_ARG_SIZ, "The constraints' Jacobian G is %" PetscInt_FMT " x %" PetscInt_FMT ", not %" PetscInt_FMT " constraints x %" PetscInt_FMT " positions", gM, gN, M, N);
  PetscCheck(ok, comm, PETSC_ERR_ARG_SIZ, "The constraints' Jacobian G is split over the processes unlike g (rows) and the positions (columns)");
  PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.ceqH, "constraints' Hessian H"));
  stepdoor->nmultiplier = m;
  stepdoor->cg          = prob->user.ceq;
  stepdoor->cG          = prob->user.ceqG;
  stepdoor->cH          = prob->user.ceqH;
  stepdoor->vconstraint = StepEquality;
  stepdoor->vjacobian   = StepJacobianEquality;
  stepdoor->vhessian    = StepHessianEquality;
  PetscFunctionReturn(0);
}
