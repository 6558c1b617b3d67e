/*
   Rigid bodies (TSSimpVISetRigidBodies()) under TSAdjointSolve(): the step as TSTrajectory keeps it (its start, its
   solution Z, its size and start time) and the adjoint step on the group (src/doors/rigidbodyadjoint.c). lambda holds
   ambient gradients of the state U = (R_b, pi_b): the tangent part of its R part is propagated in the Lie algebra and
   comes back as the tangent matrix R hat(nu)/2 (the manual page of TSSimpVISetRigidBodies()).
*/
#include <simpvi/private/tssimpviimpl.h>
#include <simpvi/private/rigidbodyimpl.h>

/* stage 0: the step's start U0; then Z (3 s k entries), h and t0 packed into as many state-shaped vectors as they fill */
static PetscInt NumStages(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscInt   N  = 12 * vi->rb->nb;

  return 1 + (vi->rb->m + 2 + N - 1) / N;
}

PetscErrorCode SimpVIRigidGetStages_Private(TS ts, PetscInt *ns, Vec *Y[])
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (ns) *ns = NumStages(ts);
  if (Y) {
    if (!vi->stages) {
      vi->nstages = NumStages(ts);
      PetscCall(VecDuplicateVecs(ts->vec_sol, vi->nstages, &vi->stages));
    }
    *Y = vi->stages;
  }
  PetscFunctionReturn(0);
}

/* The flat record (Z, h, t0) to (to = PETSC_TRUE) or from the stages 1.. */
static PetscErrorCode StagesFlat(TS ts, PetscReal flat[], PetscBool to)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscInt   N = 12 * vi->rb->nb, len = vi->rb->m + 2;

  PetscFunctionBegin;
  for (PetscInt i = 1, off = 0; off < len; i++, off += N) {
    PetscScalar *a;

    PetscCall(VecGetArray(vi->stages[i], &a));
    for (PetscInt j = 0; j < N && off + j < len; j++) {
      if (to) a[j] = flat[off + j];
      else flat[off + j] = a[j];
    }
    PetscCall(VecRestoreArray(vi->stages[i], &a));
  }
  PetscFunctionReturn(0);
}

/* The accepted step from (t0, rbU0) of size h, its solution in the step object's Z, into the stages */
PetscErrorCode SimpVIRigidStagesPack_Private(TS ts, PetscReal t0, PetscReal h)
{
  TS_SimpVI         *vi = (TS_SimpVI *)ts->data;
  const PetscInt     m  = vi->rb->m;
  const PetscScalar *z;
  PetscReal         *flat;
  Vec               *Y;

  PetscFunctionBegin;
  PetscCall(SimpVIRigidGetStages_Private(ts, NULL, &Y));
  PetscCall(VecCopy(vi->rbU0, vi->stages[0]));
  PetscCall(PetscMalloc1(m + 2, &flat));
  PetscCall(VecGetArrayRead(vi->rb->Z, &z));
  PetscCall(PetscArraycpy(flat, z, m));
  PetscCall(VecRestoreArrayRead(vi->rb->Z, &z));
  flat[m]     = h;
  flat[m + 1] = t0;
  PetscCall(StagesFlat(ts, flat, PETSC_TRUE));
  PetscCall(PetscFree(flat));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIRigidAdjointSetUp_Private(TS ts)
{
  MPI_Comm   comm = PetscObjectComm((PetscObject)ts);
  TS_SimpVI *vi   = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCheck(!ts->vecs_sensi2, comm, PETSC_ERR_SUP, "TSSIMPVI has no second-order adjoint (TSSetCostHessianProducts())");
  PetscCheck(!ts->quadraturets || !ts->vecs_sensip || vi->rb->np, comm, PETSC_ERR_ARG_WRONGSTATE, "Parameter gradients (mu) of rigid bodies need TSSimpVISetRigidBodyTorque() with parameters");
  PetscCheck(!ts->vecs_sensip || vi->rb->np, comm, PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI's parameter gradients (mu of TSSetCostGradients()) of rigid bodies are those of their torques' parameters: TSSimpVISetRigidBodyTorque() with nparams > 0");
  for (PetscInt c = 0; ts->vecs_sensip && c < ts->numcost; c++) {
    PetscInt N;

    PetscCall(VecGetSize(ts->vecs_sensip[c], &N));
    PetscCheck(N == vi->rb->np, comm, PETSC_ERR_ARG_SIZ, "mu of TSSetCostGradients() has %" PetscInt_FMT " entries, the torques %" PetscInt_FMT " parameters", N, vi->rb->np);
  }
  PetscFunctionReturn(0);
}

/* A state of the layout's size around an array (work vector vi->Uk) */
static PetscErrorCode PlaceState(TS ts, const PetscReal U[])
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (!vi->Uk) PetscCall(VecDuplicate(ts->vec_sol, &vi->Uk));
  PetscCall(VecPlaceArray(vi->Uk, U));
  PetscFunctionReturn(0);
}

/* Column c of a dense matrix (a gradient by cost, PETSc's convention for the quadrature TS) into out[] (len entries) */
static PetscErrorCode Column(Mat A, PetscInt c, PetscInt len, PetscReal out[])
{
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(MatDenseGetColumn(A, c, &a));
  PetscCall(PetscArraycpy(out, a, len));
  PetscCall(MatDenseRestoreColumn(A, &a));
  PetscFunctionReturn(0);
}

/* The quadrature TS's integrand gradients at (t, U): TSSetRHSJacobian() (ambient dr/dU, a column per cost) and
   TSSetRHSJacobianP() (dr/dtheta) */
static PetscErrorCode IntegrandGradients(void *ctx, PetscReal t, const PetscReal U[], PetscReal *drdU[], PetscReal *drdth[])
{
  TS         ts = (TS)ctx, quadts = ts->quadraturets;
  TS_SimpVI *vi    = (TS_SimpVI *)ts->data;
  Mat        quadJ = NULL, quadJp = NULL;
  PetscInt   N = 12 * vi->rb->nb;

  PetscFunctionBegin;
  PetscCall(PlaceState(ts, U));
  PetscCall(TSGetRHSJacobian(quadts, &quadJ, NULL, NULL, NULL));
  if (quadJ) PetscCall(TSComputeRHSJacobian(quadts, t, vi->Uk, quadJ, NULL));
  for (PetscInt c = 0; c < ts->numcost; c++) {
    if (quadJ) PetscCall(Column(quadJ, c, N, drdU[c]));
    else PetscCall(PetscArrayzero(drdU[c], N));
  }
  if (drdth) {
    PetscCall(TSGetRHSJacobianP(quadts, &quadJp, NULL, NULL));
    if (quadJp) PetscCall(TSComputeRHSJacobianP(quadts, t, vi->Uk, quadJp));
    for (PetscInt c = 0; c < ts->numcost; c++) {
      if (quadJp) PetscCall(Column(quadJp, c, vi->rb->np, drdth[c]));
      else PetscCall(PetscArrayzero(drdth[c], vi->rb->np));
    }
  }
  PetscCall(VecResetArray(vi->Uk));
  PetscFunctionReturn(0);
}

/* The cost integral over the step the rigid-body object last evaluated (the one just taken, or just taken back by the
   adjoint), with the scheme's quadrature: h sum_k w_k r(t_k, U_k), U_k = (R0 exp(xi_k), J Omega_k) */
PetscErrorCode SimpVIRigidCostIntegral_Private(TS ts)
{
  TS_SimpVI        *vi = (TS_SimpVI *)ts->data;
  SimpVIRigidBodies rb = vi->rb;
  PetscReal        *U;
  Vec               r;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(12 * rb->nb, &U));
  PetscCall(VecDuplicate(ts->quadraturets->vec_sol, &r));
  for (PetscInt k = 0; k < rb->nq; k++) {
    PetscReal t;

    PetscCall(SimpVIRigidBodiesPointState_Private(rb, k, &t, U));
    PetscCall(PlaceState(ts, U));
    PetscCall(TSComputeRHSFunction(ts->quadraturets, t, vi->Uk, r));
    PetscCall(VecResetArray(vi->Uk));
    PetscCall(VecAXPY(ts->quadraturets->vec_sol, rb->h * rb->K->w[k], r));
  }
  PetscCall(VecDestroy(&r));
  PetscCall(PetscFree(U));
  PetscFunctionReturn(0);
}

/* lambda_j from lambda_{j+1} over the step that ends at ts->ptime (U1 = ts->vec_sol, the stages of its start) */
PetscErrorCode SimpVIRigidAdjointStep_Private(TS ts)
{
  TS_SimpVI     *vi = (TS_SimpVI *)ts->data;
  const PetscInt m  = vi->rb->m;
  PetscReal     *flat, **lam, **mu = NULL;

  PetscFunctionBegin;
  PetscCheck(vi->stages, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI's rigid-body adjoint needs the steps kept by the trajectory (TSSetSaveTrajectory() before TSSolve(); not -ts_trajectory_solution_only)");
  PetscCall(PetscMalloc2(m + 2, &flat, ts->numcost, &lam));
  PetscCall(StagesFlat(ts, flat, PETSC_FALSE));
  if (ts->vecs_sensip) PetscCall(PetscMalloc1(ts->numcost, &mu));
  for (PetscInt c = 0; c < ts->numcost; c++) {
    PetscCall(VecGetArray(ts->vecs_sensi[c], &lam[c]));
    if (mu) PetscCall(VecGetArray(ts->vecs_sensip[c], &mu[c]));
  }
  PetscCall(SimpVIRigidBodiesAdjoint_Private(vi->rb, vi->stages[0], flat, flat[m], flat[m + 1], ts->vec_sol, ts->numcost, lam, mu ? vi->rb->np : 0, mu, ts->quadraturets ? IntegrandGradients : NULL, ts));
  for (PetscInt c = 0; c < ts->numcost; c++) {
    PetscCall(VecRestoreArray(ts->vecs_sensi[c], &lam[c]));
    if (mu) PetscCall(VecRestoreArray(ts->vecs_sensip[c], &mu[c]));
  }
  PetscCall(PetscFree2(flat, lam));
  PetscCall(PetscFree(mu));
  PetscFunctionReturn(0);
}
