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
  PetscCheck(!ts->quadraturets, comm, PETSC_ERR_SUP, "TSSIMPVI has no cost integrals (TSCreateQuadratureTS()) for rigid bodies (TSSimpVISetRigidBodies()) yet: the adjoint takes costs of the final state U(T)");
  PetscCheck(!ts->vecs_sensip || vi->rb->np, comm, PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI's parameter gradients (mu of TSSetCostGradients()) of rigid bodies are those of their torques' parameters: TSSimpVISetRigidBodyTorque() with nparams > 0");
  for (PetscInt c = 0; ts->vecs_sensip && c < ts->numcost; c++) {
    PetscInt N;

    PetscCall(VecGetSize(ts->vecs_sensip[c], &N));
    PetscCheck(N == vi->rb->np, comm, PETSC_ERR_ARG_SIZ, "mu of TSSetCostGradients() has %" PetscInt_FMT " entries, the torques %" PetscInt_FMT " parameters", N, vi->rb->np);
  }
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
  PetscCall(SimpVIRigidBodiesAdjoint_Private(vi->rb, vi->stages[0], flat, flat[m], flat[m + 1], ts->vec_sol, ts->numcost, lam, mu ? vi->rb->np : 0, mu));
  for (PetscInt c = 0; c < ts->numcost; c++) {
    PetscCall(VecRestoreArray(ts->vecs_sensi[c], &lam[c]));
    if (mu) PetscCall(VecRestoreArray(ts->vecs_sensip[c], &mu[c]));
  }
  PetscCall(PetscFree2(flat, lam));
  PetscCall(PetscFree(mu));
  PetscFunctionReturn(0);
}
