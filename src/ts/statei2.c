/*
   The I2 state layout of TSSIMPVI: the TS state holds the positions u in U and their velocities u' in vec_dot
   (TS2SetSolution(), as TSALPHA2 keeps them), the momenta p = L_v(u, u') inside only. The I2 door gives its problems so.
   U alone is not the whole state: what TSTrajectory keeps, the adjoint and a checkpoint carry the rest here.
*/
#include <simpvi/private/tssimpviimpl.h>

static PetscErrorCode SetUp_I2(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (!ts->vec_dot) { /* TSSetSolution() alone: start at rest, as TSALPHA2 does */
    PetscCall(VecDuplicate(ts->vec_sol, &ts->vec_dot));
    PetscCall(VecSet(ts->vec_dot, 0));
  }
  PetscCall(VecDuplicate(ts->vec_sol, &vi->q1));
  PetscCall(VecDuplicate(vi->q1, &vi->vprev));
  PetscFunctionReturn(0);
}

static PetscErrorCode Stamp_I2(TS ts, PetscObjectState *sol, PetscObjectState *dot)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)ts->vec_sol, sol));
  PetscCall(PetscObjectStateGet((PetscObject)ts->vec_dot, dot));
  PetscFunctionReturn(0);
}

/* Velocities turned into momenta p0 = L_v(q0, v0), unless the state is the last step's own end, whose momentum p1 is
   kept (the round trip p -> v -> p would cost digits) */
static PetscErrorCode Load_I2(TS ts, PetscBool stored)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  Vec        q0, p0, v;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetStart_Private(vi->step, &q0, &p0, &v));
  PetscCall(VecCopy(ts->vec_sol, q0));
  PetscCall(VecCopy(ts->vec_dot, v));
  if (vi->compensated && stored) PetscCall(VecCopy(vi->p1, p0));
  else PetscCall(vi->prob->door->pg(ts, vi->prob, ts->ptime, q0, v, p0, vi->work));
  PetscCall(SimpVIStepSetVelocity_Private(vi->step, PETSC_TRUE));
  if (!stored) PetscCall(PetscObjectStateIncrease((PetscObject)v)); /* as q0, p0: see LoadState() */
  PetscFunctionReturn(0);
}

/* Keeps the velocity of TS2GetSolution() current: v1 = L_v^{-1}(q1, p1) */
static PetscErrorCode Store_I2(TS ts, PetscReal t1)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  Vec        v;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetStart_Private(vi->step, NULL, NULL, &v)); /* the next step's start velocity */
  PetscCall(SimpVILegendreInverse_Private(ts, vi->prob, t1, vi->q1, vi->p1, v));
  if (vi->prob->door->check) PetscCall(vi->prob->door->check(ts, vi->prob, t1, vi->q1, v));
  PetscCall(VecCopy(vi->q1, ts->vec_sol));
  PetscCall(VecCopy(v, ts->vec_dot));
  PetscFunctionReturn(0);
}

static PetscErrorCode Join_I2(TS ts, Vec q, Vec p, Vec U)
{
  PetscFunctionBegin;
  PetscCall(VecCopy(q, U));
  PetscFunctionReturn(0);
}

/* U = u: a gradient by U has no part by the momenta */
static PetscErrorCode Cotangent_I2(TS ts, Vec dU, Vec dq, Vec dp)
{
  PetscFunctionBegin;
  PetscCall(VecCopy(dU, dq));
  PetscCall(VecSet(dp, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode Velocity_I2(TS ts, Vec *v)
{
  PetscFunctionBegin;
  PetscCall(SimpVIStepGetStart_Private(((TS_SimpVI *)ts->data)->step, NULL, NULL, v));
  PetscFunctionReturn(0);
}

/* The start velocity of the accepted step, for TSRollBack() */
static PetscErrorCode Accepted_I2(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(VecCopy(ts->vec_dot, vi->vprev));
  PetscFunctionReturn(0);
}

static PetscErrorCode RollBack_I2(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  Vec        q0;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetPrevious_Private(vi->step, NULL, NULL, NULL, &q0, NULL));
  PetscCall(VecCopy(q0, ts->vec_sol));
  PetscCall(VecCopy(vi->vprev, ts->vec_dot));
  PetscFunctionReturn(0);
}

/* u, u', the last step's start velocity (for TSRollBack()) and the end momentum p1 (a stored state goes on from it) */
static PetscErrorCode CheckpointIO_I2(TS ts, PetscViewer viewer, PetscBool write)
{
  TS_SimpVI *vi                          = (TS_SimpVI *)ts->data;
  PetscErrorCode (*io)(Vec, PetscViewer) = write ? VecView : VecLoad;

  PetscFunctionBegin;
  PetscCall(io(ts->vec_sol, viewer));
  PetscCall(io(ts->vec_dot, viewer));
  PetscCall(io(vi->vprev, viewer));
  PetscCall(io(vi->p1, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckpointVecs_I2(TS ts, PetscInt *n, Vec v[], const char *name[])
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  v[*n]        = ts->vec_sol;
  name[(*n)++] = "u";
  v[*n]        = ts->vec_dot;
  name[(*n)++] = "u'";
  v[*n]        = vi->p1;
  name[(*n)++] = "the end momentum p1";
  PetscFunctionReturn(0);
}

/* U = q: the start q0, p0, then the increments Z_1..Z_s, one per stage */
static PetscInt NumStages_I2(PetscInt s)
{
  return 2 + s;
}

static PetscErrorCode Stages_I2(TS ts, PetscBool tostages)
{
  TS_SimpVI     *vi = (TS_SimpVI *)ts->data;
  const PetscInt s  = vi->scheme->degree;
  PetscInt       nloc;
  PetscScalar   *y;
  Vec            q0, p0, Y;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetSizes_Private(vi->step, &nloc, NULL));
  PetscCall(SimpVIStepGetStart_Private(vi->step, &q0, &p0, NULL));
  PetscCall(SimpVIStepGetSystem_Private(vi->step, &Y, NULL, NULL));
  if (tostages) {
    PetscCall(VecCopy(q0, vi->stages[0]));
    PetscCall(VecCopy(p0, vi->stages[1]));
    PetscCall(VecGetArrayRead(Y, (const PetscScalar **)&y));
  } else {
    PetscCall(VecCopy(vi->stages[0], q0));
    PetscCall(VecCopy(vi->stages[1], p0));
    PetscCall(VecGetArray(Y, &y));
  }
  for (PetscInt a = 0; a < s; a++) {
    PetscCall(VecPlaceArray(vi->zview, y + a * nloc));
    if (tostages) PetscCall(VecCopy(vi->zview, vi->stages[2 + a]));
    else PetscCall(VecCopy(vi->stages[2 + a], vi->zview));
    PetscCall(VecResetArray(vi->zview));
  }
  if (tostages) PetscCall(VecRestoreArrayRead(Y, (const PetscScalar **)&y));
  else PetscCall(VecRestoreArray(Y, &y));
  PetscFunctionReturn(0);
}

/* lambda = dC/dq; the momenta's adjoint is ours: zero at the final time, then carried over from the step after */
static PetscErrorCode LambdaIn_I2(TS ts)
{
  TS_SimpVI      *vi    = (TS_SimpVI *)ts->data;
  const PetscBool first = (PetscBool)(ts->steps + 1 == vi->fwdsteps);

  PetscFunctionBegin;
  PetscCheck(first || ts->steps + 1 == vi->adjnext, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI's adjoint of an I2 problem carries the velocities' adjoint from step to step: it must run backwards from the last step of TSSolve() (%" PetscInt_FMT "), not start at step %" PetscInt_FMT, vi->fwdsteps, ts->steps + 1);
  for (PetscInt n = 0; n < ts->numcost; n++) {
    PetscCall(VecCopy(ts->vecs_sensi[n], vi->lq[n]));
    if (first) PetscCall(VecSet(vi->lp[n], 0));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode LambdaOut_I2(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  for (PetscInt n = 0; n < ts->numcost; n++) PetscCall(VecCopy(vi->lq[n], ts->vecs_sensi[n]));
  vi->adjnext = ts->steps;
  PetscFunctionReturn(0);
}

const SimpVIStateLayout SimpVIStateLayoutI2 = {
  .name           = "I2: u in U, u' beside it",
  .checkpointid   = 0,
  .setup          = SetUp_I2,
  .stamp          = Stamp_I2,
  .load           = Load_I2,
  .store          = Store_I2,
  .join           = Join_I2,
  .cotangent      = Cotangent_I2,
  .velocity       = Velocity_I2,
  .accepted       = Accepted_I2,
  .rollback       = RollBack_I2,
  .checkpointio   = CheckpointIO_I2,
  .checkpointvecs = CheckpointVecs_I2,
  .nstages        = NumStages_I2,
  .stages         = Stages_I2,
  .lambdain       = LambdaIn_I2,
  .lambdaout      = LambdaOut_I2,
};
