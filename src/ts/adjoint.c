/*
   TSSIMPVI under TSAdjointSolve() and TSForward: the discrete adjoint and tangent maps of the step (the core's
   src/core/steptangent.c) on the TS's state U = (q, p), the step as TSTrajectory keeps it (TSGetStages()), the cost
   integral of a quadrature TS (TSCreateQuadratureTS()) with the scheme's own quadrature, and the parameter
   derivatives of TSSimpVISetParameterJacobian().
   The I2 door carries the positions alone in U (its velocities in vec_dot, outside what TSTrajectory and
   TSSetCostGradients() know): lambda is then dC/dq, the adjoint of the momenta is carried here from step to step (zero
   at the final time: no cost on V), and the gradient that comes out is dC/dU0 at fixed V0 (constant M: p0 = M V0).
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/
#include <simpvi/private/rigidbodyimpl.h>

/* The stages of a step, U-shaped: its start and increments, as the state layout packs them */
static PetscInt NumStages(TS_SimpVI *vi)
{
  return vi->layout->nstages(vi->scheme->degree);
}

static PetscErrorCode StagesCreate(TS ts)
{
  TS_SimpVI  *vi = (TS_SimpVI *)ts->data;
  MPI_Comm    comm;
  PetscMPIInt size;
  PetscInt    nloc, N;

  PetscFunctionBegin;
  if (vi->stages) PetscFunctionReturn(0);
  vi->nstages = NumStages(vi);
  PetscCall(VecDuplicateVecs(ts->vec_sol, vi->nstages, &vi->stages));
  PetscCall(PetscObjectGetComm((PetscObject)ts, &comm));
  PetscCall(VecGetLocalSize(vi->q1, &nloc));
  PetscCall(VecGetSize(vi->q1, &N));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) PetscCall(VecCreateSeqWithArray(comm, 1, nloc, NULL, &vi->zview));
  else PetscCall(VecCreateMPIWithArray(comm, 1, nloc, N, NULL, &vi->zview));
  PetscFunctionReturn(0);
}

static PetscErrorCode TSGetStages_SimpVI(TS ts, PetscInt *ns, Vec *Y[])
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (vi->rb) { /* rigid bodies: their step's record (src/ts/adjointrigid.c) */
    PetscCall(SimpVIRigidGetStages_Private(ts, ns, Y));
    PetscFunctionReturn(0);
  }
  if (ns) *ns = NumStages(vi);
  if (Y) {
    PetscCall(StagesCreate(ts));
    *Y = vi->stages;
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIStagesPack_Private - the step just solved, as TSTrajectory keeps it: its start and its increments (the
  adjoint step linearises the step map at exactly these, with no solve)
*/
PetscErrorCode SimpVIStagesPack_Private(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(StagesCreate(ts)); /* and the step's own times */
  if (ts->steps >= vi->nsteptimes) {
    PetscInt   n = PetscMax(2 * vi->nsteptimes, ts->steps + 64);
    PetscReal *more;

    PetscCall(PetscCalloc1(2 * n, &more));
    if (vi->nsteptimes) PetscCall(PetscArraycpy(more, vi->steptimes, 2 * vi->nsteptimes));
    PetscCall(PetscFree(vi->steptimes));
    vi->steptimes  = more;
    vi->nsteptimes = n;
  }
  PetscCall(SimpVIStepGetTime_Private(vi->step, &vi->steptimes[2 * ts->steps], &vi->steptimes[2 * ts->steps + 1]));
  vi->fwdsteps = ts->steps + 1; /* the I2 adjoint starts from the last step taken */
  PetscCall(vi->layout->stages(ts, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/* The step that ends at ts->ptime (ts->time_step < 0 in the adjoint run), from the stages, linearised */
static PetscErrorCode StepFromStages(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscReal  t0 = ts->ptime + ts->time_step, h0 = -ts->time_step;

  PetscFunctionBegin;
  if (ts->steps < vi->nsteptimes) { /* the step's own t and h, of which the trajectory's differ by the round-off of t + h */
    const PetscReal t = vi->steptimes[2 * ts->steps], h = vi->steptimes[2 * ts->steps + 1];

    if (PetscAbsReal(t - t0) <= 1e-10 * PetscMax(1, PetscAbsReal(t)) && PetscAbsReal(h - h0) <= 1e-10 * h) {
      t0 = t;
      h0 = h;
    }
  }
  PetscCall(SimpVIStepSetTime_Private(vi->step, t0, h0));
  PetscCall(vi->layout->stages(ts, PETSC_FALSE));
  PetscCall(SimpVIStepLinearize_Private(vi->step));
  PetscFunctionReturn(0);
}

/* The solver of the tangent and transposed systems: the step's default (Krylov with block Jacobi in parallel, where
   PETSc 3.18's SuperLU_DIST would have no transposed solve anyway) */
static PetscErrorCode AdjointKSP(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscInt   N;
  char       prefix[256];

  PetscFunctionBegin;
  if (vi->adjksp) PetscFunctionReturn(0);
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)ts), &vi->adjksp));
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%sts_simpvi_adjoint_", ((PetscObject)ts)->prefix ? ((PetscObject)ts)->prefix : ""));
  PetscCall(KSPSetOptionsPrefix(vi->adjksp, prefix));
  {
    Vec Y;

    PetscCall(SimpVIStepGetSystem_Private(vi->step, &Y, NULL, NULL));
    PetscCall(VecGetSize(Y, &N));
  }
  PetscCall(SimpVIDefaultLinearSolver_Private(vi->adjksp, N, vi->prob->directlimit, PETSC_FALSE, PETSC_FALSE, NULL));
  if (vi->prob->user.confn) { /* a saddle point (the multipliers' zero diagonal block last): an LU in the natural order */
    PC        pc;
    PetscBool lu;

    PetscCall(KSPGetPC(vi->adjksp, &pc));
    PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCLU, &lu));
    if (lu) PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL));
  }
  PetscCall(KSPSetFromOptions(vi->adjksp));
  PetscFunctionReturn(0);
}

static PetscErrorCode AdjointWork(TS ts, PetscInt ncost)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (vi->adj && vi->adj->ncost < ncost) PetscCall(SimpVIAdjointDestroyWork_Private(ts));
  if (!vi->adj) {
    PetscCall(SimpVIStepAdjointCreate_Private(vi->step, ncost, &vi->adj));
    PetscCall(VecDuplicateVecs(vi->q1, vi->adj->ncost, &vi->lq));
    PetscCall(VecDuplicateVecs(vi->q1, vi->adj->ncost, &vi->lp));
    for (PetscInt i = 0; i < 4; i++) PetscCall(VecDuplicate(vi->q1, &vi->tq[i]));
  }
  if (!vi->Uk) PetscCall(VecDuplicate(ts->vec_sol, &vi->Uk));
  PetscCall(AdjointKSP(ts));
  PetscFunctionReturn(0);
}

/*
  SimpVIAdjointDestroyWork_Private - what the adjoint and tangent maps made (TSReset(), TSAdjointReset())
*/
PetscErrorCode SimpVIAdjointDestroyWork_Private(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (vi->adj) {
    PetscCall(VecDestroyVecs(vi->adj->ncost, &vi->lq));
    PetscCall(VecDestroyVecs(vi->adj->ncost, &vi->lp));
  }
  PetscCall(SimpVIStepAdjointDestroy_Private(&vi->adj));
  for (PetscInt i = 0; i < 4; i++) PetscCall(VecDestroy(&vi->tq[i]));
  PetscCall(VecDestroy(&vi->Uk));
  PetscCall(VecDestroy(&vi->eth));
  PetscCall(KSPDestroy(&vi->adjksp));
  PetscFunctionReturn(0);
}

/* Whether the parameter derivative comes from PETSc's TSSetIJacobianP() (given with its function), for a door that
   reads it (the I2 door) */
static PetscBool I2ParameterJacobianP(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  return (PetscBool)(vi->prob->door->ijacobianp && !vi->prob->user.paramfn && ts->Jacp && ts->ijacobianp);
}

/* The parameter derivatives of P and G at a point: TSSimpVISetParameterJacobian(), or for the I2 door
   F = M a + f(t, u, v; theta) PETSc's dF/dtheta (TSSetIJacobianP() called with (t, u, v) and shift 0, minus
   TSSetRHSJacobianP()): G = -f, so dG/dtheta = -dF/dtheta with M independent of theta (dP/dtheta = 0) */
static PetscErrorCode ParameterJacobian(void *ctx, PetscReal t, Vec x, Vec v, Mat *Pth, Mat *Gth)
{
  TS          ts = (TS)ctx;
  SimpVIUser *u  = &((TS_SimpVI *)ts->data)->prob->user;

  PetscFunctionBegin;
  *Pth = u->Pth;
  *Gth = u->Gth;
  if (I2ParameterJacobianP(ts)) {
    *Pth = NULL;
    *Gth = ts->Jacp;
    SimpVICallBack(ts, "TSSIMPVI I2 parameter Jacobian (TSSetIJacobianP())", TSComputeIJacobianP(ts, t, x, v, 0, ts->Jacp, PETSC_FALSE));
    PetscCall(MatScale(ts->Jacp, -1));
    PetscFunctionReturn(0);
  }
  if (!u->paramfn) {
    *Pth = *Gth = NULL;
    PetscFunctionReturn(0);
  }
  SimpVICallBack(ts, "TSSIMPVI parameter Jacobian", u->paramfn(ts, t, x, v, u->Pth, u->Gth, u->paramctx));
  PetscFunctionReturn(0);
}

/* Column n of a dense matrix (a cost's gradient, stored as a column: PETSc's convention for the quadrature TS) into a
   vector, through the work vector col of its layout */
static PetscErrorCode DenseColumn(Mat A, PetscInt n, Vec col, Vec out)
{
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(MatDenseGetColumn(A, n, &a));
  PetscCall(VecPlaceArray(col, a));
  PetscCall(VecCopy(col, out));
  PetscCall(VecResetArray(col));
  PetscCall(MatDenseRestoreColumn(A, &a));
  PetscFunctionReturn(0);
}

/* The TS state at a quadrature point: U = (x, P), or U = x for the I2 door */
static PetscErrorCode StateAt(TS ts, Vec x, Vec P, Vec U)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(vi->layout->join(ts, x, P, U));
  PetscFunctionReturn(0);
}

/* The gradients of the quadrature TS's integrand r(t, U) at U = (x, P): dr/dq, dr/dp (and dr/dtheta) of each cost */
static PetscErrorCode IntegrandGradients(void *ctx, PetscReal t, Vec x, Vec P, Vec rq[], Vec rp[], Vec rth[])
{
  TS         ts = (TS)ctx, quadts = ts->quadraturets;
  TS_SimpVI *vi    = (TS_SimpVI *)ts->data;
  Mat        quadJ = NULL, quadJp = NULL;

  PetscFunctionBegin;
  PetscCall(StateAt(ts, x, P, vi->Uk));
  PetscCall(TSGetRHSJacobian(quadts, &quadJ, NULL, NULL, NULL));
  if (quadJ) PetscCall(TSComputeRHSJacobian(quadts, t, vi->Uk, quadJ, NULL));
  for (PetscInt n = 0; n < ts->numcost; n++) {
    if (quadJ) { /* I2: r(t, q), no momentum part */
      PetscCall(DenseColumn(quadJ, n, ts->vec_drdu_col, vi->Uk));
      PetscCall(vi->layout->cotangent(ts, vi->Uk, rq[n], rp[n]));
    } else {
      PetscCall(VecSet(rq[n], 0));
      PetscCall(VecSet(rp[n], 0));
    }
  }
  if (!rth) PetscFunctionReturn(0);
  PetscCall(StateAt(ts, x, P, vi->Uk));
  PetscCall(TSGetRHSJacobianP(quadts, &quadJp, NULL, NULL));
  if (quadJp) PetscCall(TSComputeRHSJacobianP(quadts, t, vi->Uk, quadJp));
  for (PetscInt n = 0; n < ts->numcost; n++) {
    if (quadJp) PetscCall(DenseColumn(quadJp, n, ts->vec_drdp_col, rth[n]));
    else PetscCall(VecSet(rth[n], 0));
  }
  PetscFunctionReturn(0);
}

/* The quadrature TS's integrand r(t, U) at U = (x, P) */
static PetscErrorCode IntegrandValue(void *ctx, PetscReal t, Vec x, Vec P, Vec r)
{
  TS         ts = (TS)ctx;
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (!vi->Uk) PetscCall(VecDuplicate(ts->vec_sol, &vi->Uk));
  PetscCall(StateAt(ts, x, P, vi->Uk));
  PetscCall(TSComputeRHSFunction(ts->quadraturets, t, vi->Uk, r));
  PetscFunctionReturn(0);
}

static PetscErrorCode TSAdjointSetUp_SimpVI(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  /* TSSolve() interpolated U back to the final time, but the trajectory, and so the adjoint, ends at the last step:
     lambda of U(T) pulled back through the steps to ptime would be a gradient of nothing (beyond round-off) */
  PetscCheck(ts->exact_final_time != TS_EXACTFINALTIME_INTERPOLATE || ts->ptime - ts->solvetime <= 1e-6 * PetscAbsReal(ts->time_step), PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI's adjoint runs back from the last step, which ends at t = %g, not from the final time %g that TSSolve() interpolated the solution to: use -ts_exact_final_time matchstep (TS_EXACTFINALTIME_MATCHSTEP)",
             (double)ts->ptime, (double)ts->solvetime);
  if (vi->rb) {
    PetscCall(SimpVIRigidAdjointSetUp_Private(ts));
    PetscFunctionReturn(0);
  }
  PetscCheck(!ts->vecs_sensi2, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI has no second-order adjoint (TSSetCostHessianProducts())");
  PetscCheck(vi->layout, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI sets up its adjoint after TSSetUp() (TSSolve() calls it)");
  PetscCheck(!vi->prob->user.ceqfn, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI has no adjoint with the Vec/Mat constraints (TSSimpVISetEqualityConstraintsRoutine()) yet: the array form (TSSimpVISetConstraints()) has one");
  PetscCheck(!ts->vecs_sensip || !vi->prob->user.confn, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI has no gradients in the parameters (mu of TSSetCostGradients()) with holonomic constraints (TSSimpVISetConstraints()) yet: the gradients in the initial state only");
  PetscCheck(!ts->vecs_sensip || vi->prob->user.paramfn || I2ParameterJacobianP(ts), PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "%s", vi->prob->door->ijacobianp ? "TSSIMPVI gradients in the parameters (mu of TSSetCostGradients()) of an I2 problem need TSSetIJacobianP() with a function (dF/dtheta at (t, U, V), M independent of theta) or TSSimpVISetParameterJacobian()" : "TSSIMPVI gradients in the parameters (mu of TSSetCostGradients()) need TSSimpVISetParameterJacobian()");
  /* a layout whose U lacks the momenta (I2): a recomputed step would start from the checkpoint's U with whatever
     velocity vec_dot holds then */
  PetscCheck(vi->layout->split || !ts->trajectory || !ts->trajectory->solution_only, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI's adjoint of an I2 problem needs the steps kept by the trajectory: -ts_trajectory_solution_only would recompute steps from positions without their velocities");
  PetscCall(AdjointWork(ts, ts->numcost));
  PetscFunctionReturn(0);
}

static PetscErrorCode TSAdjointReset_SimpVI(TS ts)
{
  PetscFunctionBegin;
  PetscCall(SimpVIAdjointDestroyWork_Private(ts));
  PetscFunctionReturn(0);
}

/* lambda_j = (d(q1, p1)/d(q0, p0))' lambda_{j+1} (plus the cost integrand's gradients), mu += the parameter part */
static PetscErrorCode TSAdjointStep_SimpVI(TS ts)
{
  TS_SimpVI            *vi   = (TS_SimpVI *)ts->data;
  SimpVIStepSensitivity sens = {ts->quadraturets ? IntegrandGradients : NULL, ParameterJacobian, ts};

  PetscFunctionBegin;
  if (vi->rb) {
    PetscCall(SimpVIRigidAdjointStep_Private(ts));
    PetscFunctionReturn(0);
  }
  PetscCall(StepFromStages(ts));
  PetscCall(vi->layout->lambdain(ts));
  PetscCall(SimpVIStepAdjoint_Private(vi->step, vi->adj, vi->adjksp, &sens, ts->numcost, vi->lq, vi->lp, ts->vecs_sensip));
  PetscCall(vi->layout->lambdaout(ts));
  PetscFunctionReturn(0);
}

/* The cost integral over the step with the scheme's quadrature: after TSStep() (forward) or TSAdjointStep() */
static PetscErrorCode CostIntegral(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCheck(ts->quadraturets, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI integrates the cost of a quadrature TS: TSCreateQuadratureTS() with TSSetRHSFunction() and TSSetRHSJacobian() on it (TSSetCostIntegrand() is PETSc's deprecated form, which TSGetCostIntegral() does not read)");
  if (vi->rb) PetscCall(SimpVIRigidCostIntegral_Private(ts)); /* rigid bodies: src/ts/adjointrigid.c */
  else PetscCall(SimpVIStepIntegral_Private(vi->step, IntegrandValue, ts, ts->vec_costintegrand, ts->quadraturets->vec_sol));
  PetscFunctionReturn(0);
}

static PetscErrorCode TSForwardCostIntegral_SimpVI(TS ts)
{
  PetscFunctionBegin;
  if (ts->reason < 0) PetscFunctionReturn(0);
  PetscCall(CostIntegral(ts));
  PetscFunctionReturn(0);
}

static PetscErrorCode TSAdjointCostIntegral_SimpVI(TS ts)
{
  PetscFunctionBegin;
  PetscCall(CostIntegral(ts));
  PetscFunctionReturn(0);
}

/* The tangent-linear run: every column S_j of the sensitivities dU/dtheta goes through the step's tangent map, with
   the parameter part when TSSimpVISetParameterJacobian() gave one (column j: theta_j), else as perturbations of the
   initial state */
static PetscErrorCode TSForwardStep_SimpVI(TS ts)
{
  TS_SimpVI            *vi   = (TS_SimpVI *)ts->data;
  SimpVIUser           *u    = &vi->prob->user;
  SimpVIStepSensitivity sens = {NULL, ParameterJacobian, ts};
  PetscInt              ncol;

  PetscFunctionBegin;
  if (ts->reason < 0) PetscFunctionReturn(0);
  PetscCheck(!u->ceqfn, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI has no forward sensitivities with the Vec/Mat constraints (TSSimpVISetEqualityConstraintsRoutine()) yet: the array form (TSSimpVISetConstraints()) has them");
  PetscCheck(!u->paramfn || !u->confn, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI has no forward sensitivities in parameters (TSSimpVISetParameterJacobian()) with holonomic constraints (TSSimpVISetConstraints()) yet: the sensitivities to the initial state only");
  PetscCheck(vi->layout->split, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI has no forward sensitivities (TSForwardSetSensitivities()) for an I2 problem: its velocities, which the tangent map needs, are outside the TS state (TSAdjointSolve() gives dC/dU0 at fixed V0)");
  PetscCall(AdjointWork(ts, 1));
  PetscCall(SimpVIStepLinearize_Private(vi->step));
  PetscCall(MatGetSize(ts->mat_sensip, NULL, &ncol));
  if (u->paramfn && !vi->eth) PetscCall(MatCreateVecs(u->Gth ? u->Gth : u->Pth, &vi->eth, NULL));
  for (PetscInt j = 0; j < ncol; j++) {
    Vec col;

    if (vi->eth) {
      PetscCall(VecSet(vi->eth, 0));
      PetscCall(VecSetValue(vi->eth, j, 1, INSERT_VALUES));
      PetscCall(VecAssemblyBegin(vi->eth));
      PetscCall(VecAssemblyEnd(vi->eth));
    }
    PetscCall(MatDenseGetColumnVecWrite(ts->mat_sensip, j, &col));
    PetscCall(vi->layout->split(ts, col, vi->tq[0], vi->tq[1]));
    PetscCall(SimpVIStepTangent_Private(vi->step, vi->adj, vi->adjksp, &sens, vi->tq[0], vi->tq[1], vi->eth, vi->tq[2], vi->tq[3]));
    PetscCall(vi->layout->join(ts, vi->tq[2], vi->tq[3], col));
    PetscCall(MatDenseRestoreColumnVecWrite(ts->mat_sensip, j, &col));
  }
  PetscFunctionReturn(0);
}

/* The tangent map needs nothing inside a step: no stages for a TSTrajectory to keep */
static PetscErrorCode TSForwardGetStages_SimpVI(TS ts, PetscInt *ns, Mat *S[])
{
  PetscFunctionBegin;
  if (ns) *ns = 0;
  if (S) *S = NULL;
  PetscFunctionReturn(0);
}

/*
  SimpVIAdjointView_Private - what -ts_view says of the adjoint, when the TS saves its trajectory or has cost gradients
*/
PetscErrorCode SimpVIAdjointView_Private(TS ts, PetscViewer viewer)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (!ts->trajectory && !ts->vecs_sensi && !ts->forward_solve) PetscFunctionReturn(0); /* said where sensitivities are asked for */
  if (vi->rb) {                                                                         /* rigid bodies: src/ts/adjointrigid.c */
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Adjoint (TSAdjointSolve()) of rigid bodies on SO(3): exact discrete adjoint of the step on the group, one LU of the step Jacobian per step; lambda = dC/dU ambient, its attitude part returned as R hat(nu)/2 (nu the gradient in R exp(hat(eta))); parameter gradients %s\n",
                                     vi->rb->np ? "of the torques' parameters (TSSimpVISetRigidBodyTorque())" : "none (torques without parameters)"));
    PetscFunctionReturn(0);
  }
  if (vi->layout && !vi->layout->split) { /* U lacks the momenta (I2) */
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Adjoint (TSAdjointSolve()) of the I2 door: exact discrete adjoint, lambda = dC/dU0 at fixed V0, costs of U(T) and integrals of (t, U) (none of V), parameter gradients %s; no gradient in V0, no forward sensitivities\n",
                                     vi->prob->user.paramfn ? "from TSSimpVISetParameterJacobian()" : (I2ParameterJacobianP(ts) ? "from TSSetIJacobianP() (dF/dtheta, M independent of theta)" : "need TSSetIJacobianP() or TSSimpVISetParameterJacobian()")));
  } else {
    PetscCall(
      PetscViewerASCIIPrintf(viewer, "  Adjoint (TSAdjointSolve()): exact discrete adjoint of the step, one transposed step-Jacobian solve per step; cost integrals with the scheme's quadrature; parameter gradients %s\n", vi->prob && vi->prob->user.paramfn ? "from TSSimpVISetParameterJacobian()" : "need TSSimpVISetParameterJacobian()"));
  }
  if (vi->adjksp) {
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(KSPView(vi->adjksp, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIAdjointSetOps_Private - the adjoint, forward-sensitivity and trajectory ops of TSSIMPVI
*/
PetscErrorCode SimpVIAdjointSetOps_Private(TS ts)
{
  PetscFunctionBegin;
  ts->ops->getstages        = TSGetStages_SimpVI;
  ts->ops->adjointsetup     = TSAdjointSetUp_SimpVI;
  ts->ops->adjointreset     = TSAdjointReset_SimpVI;
  ts->ops->adjointstep      = TSAdjointStep_SimpVI;
  ts->ops->adjointintegral  = TSAdjointCostIntegral_SimpVI;
  ts->ops->forwardintegral  = TSForwardCostIntegral_SimpVI;
  ts->ops->forwardstep      = TSForwardStep_SimpVI;
  ts->ops->forwardgetstages = TSForwardGetStages_SimpVI;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetParameterJacobian - Gives a `TSSIMPVI` problem the derivatives of its step quantities P = dL/dv and
  G = dL/dx + f in parameters theta, for the parameter gradients (mu) of `TSAdjointSolve()` and the parameter
  columns of `TSForwardSetSensitivities()`

  Logically Collective

  Input Parameters:
+ ts     - the `TS` context
. Ptheta - matrix (positions x parameters) for dP/dtheta, or NULL if P does not depend on theta
. Gtheta - matrix (positions x parameters) for dG/dtheta, or NULL if G does not depend on theta
. f      - fills the matrices at (t, x, v)
- ctx    - user context for f

  Calling sequence of f:
$ PetscErrorCode f(TS ts, PetscReal t, Vec x, Vec v, Mat Ptheta, Mat Gtheta, void *ctx)

  Notes:
  This stands in for `TSSetIJacobianP()` (and is registered as the `TS`'s parameter Jacobian, so that
  `TSSetCostGradients()` accepts mu): the step's residual and its end momentum are made of P and G at the quadrature
  points, so these two derivatives give the exact parameter gradients of the discrete map. A quadrature `TS`
  (`TSCreateQuadratureTS()`) adds its `TSSetRHSJacobianP()` term. On the I2 door (F = M A + f(t, U, V; theta)),
  P = M V and G = -f; there PETSc's `TSSetIJacobianP()` may be used instead when M does not depend on theta.

  Under another `TS` type, `TSSimpVISetUpPhaseSpace()` (called before or after this) registers dF/dtheta of its
  phase-space form, built from these two (rows of U = (q, p)), so that the type's own adjoint gives mu:
  `TSSetIJacobianP()` for the implicit types (theta, cn, beuler), `TSSetRHSJacobianP()` for the explicit ones (rk)
  when dP/dtheta is NULL.

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIParameterJacobianFn`, `TSSetCostGradients()`, `TSAdjointSolve()`, `TSForwardSetSensitivities()`
@*/
PetscErrorCode TSSimpVISetParameterJacobian(TS ts, Mat Ptheta, Mat Gtheta, TSSimpVIParameterJacobianFn f, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  if (Ptheta) SimpVIValidHeaderSpecific(Ptheta, MAT_CLASSID, 2);
  if (Gtheta) SimpVIValidHeaderSpecific(Gtheta, MAT_CLASSID, 3);
  PetscCheck(Ptheta || Gtheta, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_NULL, "TSSimpVISetParameterJacobian() needs dP/dtheta or dG/dtheta");
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  if (Ptheta) PetscCall(PetscObjectReference((PetscObject)Ptheta));
  PetscCall(MatDestroy(&prob->user.Pth));
  prob->user.Pth = Ptheta;
  if (Gtheta) PetscCall(PetscObjectReference((PetscObject)Gtheta));
  PetscCall(MatDestroy(&prob->user.Gth));
  prob->user.Gth      = Gtheta;
  prob->user.paramfn  = f;
  prob->user.paramctx = ctx;
  PetscCall(TSSetIJacobianP(ts, Gtheta ? Gtheta : Ptheta, NULL, NULL));
  PetscCall(SimpVIPhaseSpaceSetParameterJacobian_Private(ts, prob)); /* after TSSimpVISetUpPhaseSpace(): in U's shape */
  PetscFunctionReturn(0);
}
