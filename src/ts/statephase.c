/*
   The phase-space state layout of TSSIMPVI: the TS state is U = (q, p), its positions and momenta split by the index
   sets isq, isp (TSRHSSplitSetIS() "position" and "momentum", SimpVIProblemSplit_Private()). Every door but the I2
   door gives its problems so.
*/
#include <simpvi/private/tssimpviimpl.h>

/* Where is starts in U's array when it is a range of U's entries on one process (the default split, and every split the
   user gives as such), else -1. In parallel VecGetSubVector() is collective: every process takes it */
static PetscErrorCode RangeStart(Vec U, IS is, PetscInt *start)
{
  PetscBool   stride;
  PetscInt    first, step, n, lo, hi;
  PetscMPIInt size;

  PetscFunctionBegin;
  *start = -1;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)U), &size));
  PetscCall(PetscObjectTypeCompare((PetscObject)is, ISSTRIDE, &stride));
  if (size > 1 || !stride) PetscFunctionReturn(0);
  PetscCall(ISStrideGetInfo(is, &first, &step));
  PetscCall(ISGetLocalSize(is, &n));
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  if ((step == 1 || n <= 1) && first >= lo && first + n <= hi) *start = first - lo;
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUp_PhaseSpace(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  Vec        sub;

  PetscFunctionBegin;
  PetscCall(ISDestroy(&vi->isq));
  PetscCall(ISDestroy(&vi->isp));
  PetscCall(SimpVIProblemSplit_Private(ts, ts->vec_sol, &vi->isq, &vi->isp));
  PetscCall(RangeStart(ts->vec_sol, vi->isq, &vi->qfirst));
  PetscCall(RangeStart(ts->vec_sol, vi->isp, &vi->pfirst));
  PetscCall(VecGetSubVector(ts->vec_sol, vi->isq, &sub));
  PetscCall(VecDuplicate(sub, &vi->q1)); /* shaped like the positions: the others are its duplicates */
  PetscCall(VecRestoreSubVector(ts->vec_sol, vi->isq, &sub));
  PetscFunctionReturn(0);
}

static PetscErrorCode Stamp_PhaseSpace(TS ts, PetscObjectState *sol, PetscObjectState *dot)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)ts->vec_sol, sol));
  *dot = 0;
  PetscFunctionReturn(0);
}

/* U from (q, p): on the arrays when both are ranges of U (the copies of SimpVIPhaseSpaceJoin_Private() less the
   checks it makes at each call, which cost as much as a small step's other work on the state), else by the split */
static PetscErrorCode Join_PhaseSpace(TS ts, Vec q, Vec p, Vec U)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (vi->qfirst >= 0 && vi->pfirst >= 0) {
    const PetscScalar *a, *b;
    PetscScalar       *u;
    PetscInt           n;

    PetscCall(VecGetLocalSize(q, &n));
    PetscCall(VecGetArrayRead(q, &a));
    PetscCall(VecGetArrayRead(p, &b));
    PetscCall(VecGetArray(U, &u));
    PetscCall(PetscArraycpy(u + vi->qfirst, a, n));
    PetscCall(PetscArraycpy(u + vi->pfirst, b, n));
    PetscCall(VecRestoreArray(U, &u));
    PetscCall(VecRestoreArrayRead(p, &b));
    PetscCall(VecRestoreArrayRead(q, &a));
  } else PetscCall(SimpVIPhaseSpaceJoin_Private(q, p, vi->isq, vi->isp, U));
  PetscFunctionReturn(0);
}

static PetscErrorCode Split_PhaseSpace(TS ts, Vec U, Vec q, Vec p)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (vi->qfirst >= 0 && vi->pfirst >= 0) {
    const PetscScalar *u;
    PetscScalar       *a, *b;
    PetscInt           n;

    PetscCall(VecGetLocalSize(q, &n));
    PetscCall(VecGetArrayRead(U, &u)); /* U may be locked read-only, as in a monitor */
    PetscCall(VecGetArray(q, &a));
    PetscCall(VecGetArray(p, &b));
    PetscCall(PetscArraycpy(a, u + vi->qfirst, n));
    PetscCall(PetscArraycpy(b, u + vi->pfirst, n));
    PetscCall(VecRestoreArray(p, &b));
    PetscCall(VecRestoreArray(q, &a));
    PetscCall(VecRestoreArrayRead(U, &u));
  } else PetscCall(SimpVIPhaseSpaceSplit_Private(U, vi->isq, vi->isp, q, p));
  PetscFunctionReturn(0);
}

static PetscErrorCode Load_PhaseSpace(TS ts, PetscBool stored)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  Vec        q0, p0;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetStart_Private(vi->step, &q0, &p0, NULL));
  PetscCall(Split_PhaseSpace(ts, ts->vec_sol, q0, p0));
  PetscFunctionReturn(0);
}

static PetscErrorCode Store_PhaseSpace(TS ts, PetscReal t1)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(Join_PhaseSpace(ts, vi->q1, vi->p1, ts->vec_sol));
  PetscFunctionReturn(0);
}

/* U holds no velocity: the stability checks take v = 0 at the step's start */
static PetscErrorCode Velocity_PhaseSpace(TS ts, Vec *v)
{
  PetscFunctionBegin;
  *v = ((TS_SimpVI *)ts->data)->prob->zero;
  PetscFunctionReturn(0);
}

/* The last step's start is the polynomial's first node and its start momentum */
static PetscErrorCode RollBack_PhaseSpace(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  Vec        q0, p0;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetPrevious_Private(vi->step, NULL, NULL, NULL, &q0, &p0));
  PetscCall(Join_PhaseSpace(ts, q0, p0, ts->vec_sol));
  PetscFunctionReturn(0);
}

/* The state goes as its positions and momenta: the order of U's entries may depend on the number of processes, as
   [q_local | p_local] does */
static PetscErrorCode CheckpointIO_PhaseSpace(TS ts, PetscViewer viewer, PetscBool write)
{
  TS_SimpVI *vi                          = (TS_SimpVI *)ts->data;
  PetscErrorCode (*io)(Vec, PetscViewer) = write ? VecView : VecLoad;

  PetscFunctionBegin;
  if (write) PetscCall(Split_PhaseSpace(ts, ts->vec_sol, vi->eq, vi->ep));
  PetscCall(io(vi->eq, viewer));
  PetscCall(io(vi->ep, viewer));
  if (!write) PetscCall(Join_PhaseSpace(ts, vi->eq, vi->ep, ts->vec_sol));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckpointVecs_PhaseSpace(TS ts, PetscInt *n, Vec v[], const char *name[])
{
  PetscFunctionBegin;
  v[*n]        = ts->vec_sol;
  name[(*n)++] = "q, p";
  PetscFunctionReturn(0);
}

/* The start (q0, p0), then the increments Z_1..Z_s two per stage (q and p slots) */
static PetscInt NumStages_PhaseSpace(PetscInt s)
{
  return 1 + (s + 1) / 2;
}

static PetscErrorCode Stages_PhaseSpace(TS ts, PetscBool tostages)
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
  if (tostages) PetscCall(Join_PhaseSpace(ts, q0, p0, vi->stages[0]));
  else PetscCall(Split_PhaseSpace(ts, vi->stages[0], q0, p0));
  if (tostages) PetscCall(VecGetArrayRead(Y, (const PetscScalar **)&y));
  else PetscCall(VecGetArray(Y, &y));
  for (PetscInt a = 0; a < s; a++) {
    Vec U = vi->stages[1 + a / 2], sub;

    PetscCall(VecPlaceArray(vi->zview, y + a * nloc));
    PetscCall(VecGetSubVector(U, a % 2 ? vi->isp : vi->isq, &sub));
    if (tostages) PetscCall(VecCopy(vi->zview, sub));
    else PetscCall(VecCopy(sub, vi->zview));
    PetscCall(VecRestoreSubVector(U, a % 2 ? vi->isp : vi->isq, &sub));
    PetscCall(VecResetArray(vi->zview));
  }
  if (s % 2) { /* the unused momentum slot of the last stage */
    Vec sub;

    PetscCall(VecGetSubVector(vi->stages[vi->nstages - 1], vi->isp, &sub));
    if (tostages) PetscCall(VecSet(sub, 0));
    PetscCall(VecRestoreSubVector(vi->stages[vi->nstages - 1], vi->isp, &sub));
  }
  if (tostages) PetscCall(VecRestoreArrayRead(Y, (const PetscScalar **)&y));
  else PetscCall(VecRestoreArray(Y, &y));
  PetscFunctionReturn(0);
}

static PetscErrorCode LambdaIn_PhaseSpace(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  for (PetscInt n = 0; n < ts->numcost; n++) PetscCall(Split_PhaseSpace(ts, ts->vecs_sensi[n], vi->lq[n], vi->lp[n]));
  PetscFunctionReturn(0);
}

static PetscErrorCode LambdaOut_PhaseSpace(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  for (PetscInt n = 0; n < ts->numcost; n++) PetscCall(Join_PhaseSpace(ts, vi->lq[n], vi->lp[n], ts->vecs_sensi[n]));
  PetscFunctionReturn(0);
}

const SimpVIStateLayout SimpVIStateLayoutPhaseSpace = {
  .name           = "phase space U = (q, p)",
  .checkpointid   = 1,
  .setup          = SetUp_PhaseSpace,
  .stamp          = Stamp_PhaseSpace,
  .load           = Load_PhaseSpace,
  .store          = Store_PhaseSpace,
  .join           = Join_PhaseSpace,
  .split          = Split_PhaseSpace,
  .cotangent      = Split_PhaseSpace,
  .velocity       = Velocity_PhaseSpace,
  .rollback       = RollBack_PhaseSpace,
  .checkpointio   = CheckpointIO_PhaseSpace,
  .checkpointvecs = CheckpointVecs_PhaseSpace,
  .nstages        = NumStages_PhaseSpace,
  .stages         = Stages_PhaseSpace,
  .lambdain       = LambdaIn_PhaseSpace,
  .lambdaout      = LambdaOut_PhaseSpace,
};
