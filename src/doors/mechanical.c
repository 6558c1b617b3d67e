/*
   Mechanical door: L = 1/2 v' M(x) v - V(t, x). Builds L_v = M v, L_x = g - grad V with g = 1/2 v' dM/dx v, and the
   second derivatives L_vv = M, L_vx = d(Mv)/dx, L_xx = Mxx - hess V; constant M makes the mass-derivative terms vanish.
*/
#include <simpvi/private/door.h>

static PetscErrorCode SetUp_Mechanical(TS ts, SimpVIProblem *prob, Vec q)
{
  PetscFunctionBegin;
  PetscCheck(prob->user.M, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI mechanical problem without a mass matrix: call TSSimpVISetMass()");
  PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.M, "mass matrix"));
  if (prob->user.potfn) {
    PetscCheck(prob->user.K && prob->user.pothessfn, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI needs the Hessian of the potential (TSSimpVISetPotential())");
    PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.K, "potential Hessian"));
  }
  if (prob->user.massfn) {
    PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Mx, "Mx"));
    PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Mxx, "Mxx"));
    PetscCall(VecDuplicate(q, &prob->massg));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Reset_Mechanical(SimpVIProblem *prob)
{
  PetscFunctionBegin;
  prob->massvalid = PETSC_FALSE;
  PetscCall(PetscMemzero(&prob->massacc, sizeof(prob->massacc)));
  PetscCall(VecDestroy(&prob->massg));
  PetscFunctionReturn(0);
}

/* The user's mass callback at (x, v), skipped on one process when it was last called at these very vectors, unchanged
   since (the dense path asks for P, G and the terms of a point one after the other) */
static PetscErrorCode Mass(TS ts, SimpVIProblem *prob, Vec x, Vec v)
{
  PetscObjectId    xid, vid;
  PetscObjectState xstate, vstate;
  PetscMPIInt      size;

  PetscFunctionBegin;
  if (!prob->user.massfn) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)x), &size));
  if (size > 1) { /* the callback's failure check is collective: every process calls it, whatever each one's cache says */
    SimpVICallBack(ts, "TSSIMPVI mass", prob->user.massfn(ts, x, v, prob->user.M, prob->user.Mx, prob->massg, prob->user.Mxx, prob->user.massctx));
    PetscFunctionReturn(0);
  }
  xid    = ((PetscObject)x)->id; /* PetscObjectGetId() and PetscObjectStateGet(), without their calls */
  vid    = ((PetscObject)v)->id;
  xstate = ((PetscObject)x)->state;
  vstate = ((PetscObject)v)->state;
  if (prob->massvalid && xid == prob->massid[0] && vid == prob->massid[1] && xstate == prob->massstate[0] && vstate == prob->massstate[1]) PetscFunctionReturn(0);
  prob->massvalid = PETSC_FALSE;
  SimpVICallBack(ts, "TSSIMPVI mass", prob->user.massfn(ts, x, v, prob->user.M, prob->user.Mx, prob->massg, prob->user.Mxx, prob->user.massctx));
  prob->massid[0]    = xid;
  prob->massid[1]    = vid;
  prob->massstate[0] = xstate;
  prob->massstate[1] = vstate;
  prob->massvalid    = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode PG_Mechanical(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec P, Vec G)
{
  PetscReal V;

  PetscFunctionBegin;
  PetscCall(Mass(ts, prob, x, v));
  PetscCall(SimpVIDenseMult_Private(&prob->massacc, prob->user.M, v, P));
  if (prob->user.potfn) { /* G = -grad V (+ g) on the arrays: VecScale() and VecAXPY() cost more than their arithmetic */
    PetscScalar       *gg;
    const PetscScalar *mg = NULL;
    PetscInt           nloc;

    SimpVICallBack(ts, "TSSIMPVI potential", prob->user.potfn(ts, t, x, &V, G, prob->user.potctx));
    PetscCall(VecGetLocalSize(G, &nloc));
    PetscCall(VecGetArray(G, &gg));
    if (prob->user.massfn) PetscCall(VecGetArrayRead(prob->massg, &mg));
    for (PetscInt j = 0; j < nloc; j++) gg[j] = mg ? -gg[j] + mg[j] : -gg[j];
    if (mg) PetscCall(VecRestoreArrayRead(prob->massg, &mg));
    PetscCall(VecRestoreArray(G, &gg));
  } else {
    PetscCall(VecSet(G, 0));
    if (prob->user.massfn) PetscCall(VecAXPY(G, 1, prob->massg));
  }
  PetscCall(SimpVIForceAdd_Private(ts, prob, t, x, v, G));
  PetscFunctionReturn(0);
}

static PetscErrorCode Terms_Mechanical(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscInt need, PetscInt *n, SimpVITerm terms[])
{
  PetscFunctionBegin;
  PetscCall(Mass(ts, prob, x, v));
  PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.M, 1, SIMPVI_BLOCK_PV, PETSC_FALSE, (PetscBool)!prob->user.massfn}));
  if (prob->user.potfn && (need & SIMPVI_NEED(SIMPVI_BLOCK_GX))) { /* e.g. not at a Lobatto scheme's first node */
    SimpVICallBack(ts, "TSSIMPVI potential Hessian", prob->user.pothessfn(ts, t, x, prob->user.K, prob->user.potctx));
    PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.K, -1, SIMPVI_BLOCK_GX, PETSC_FALSE, PETSC_FALSE}));
  }
  if (prob->user.massfn) {
    PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Mxx, 1, SIMPVI_BLOCK_GX, PETSC_FALSE, PETSC_FALSE}));
    PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Mx, 1, SIMPVI_BLOCK_PX, PETSC_FALSE, PETSC_FALSE}));
    PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Mx, 1, SIMPVI_BLOCK_GV, PETSC_TRUE, PETSC_FALSE}));
  }
  PetscCall(SimpVIForceTerms_Private(ts, prob, t, x, v, n, terms));
  PetscFunctionReturn(0);
}

static PetscErrorCode L_Mechanical(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscReal *L)
{
  PetscReal   V = 0;
  PetscScalar vMv;

  PetscFunctionBegin;
  PetscCall(Mass(ts, prob, x, v));
  PetscCall(MatMult(prob->user.M, v, prob->work));
  PetscCall(VecDot(v, prob->work, &vMv));
  if (prob->user.potfn) SimpVICallBack(ts, "TSSIMPVI potential", prob->user.potfn(ts, t, x, &V, prob->work2, prob->user.potctx));
  *L = 0.5 * PetscRealPart(vMv) - V;
  PetscFunctionReturn(0);
}

/* The mass callback gives M, Mx, g and Mxx together: the step evaluates P, G and their terms at once */
static PetscBool Shares_Mechanical(const SimpVIProblem *prob)
{
  return (PetscBool)(prob->user.massfn != NULL);
}

/* T(p) = 1/2 p' M^{-1} p and V(q) apart: a constant mass */
static PetscBool Separable_Mechanical(const SimpVIProblem *prob)
{
  return (PetscBool)(prob->user.massfn == NULL);
}

const SimpVIDoor SimpVIDoorMechanical = {
  .name       = "mechanical",
  .maxterms   = 7, /* M, K, Mxx, Mx twice, Fx, Fv */
  .setup      = SetUp_Mechanical,
  .pg         = PG_Mechanical,
  .terms      = Terms_Mechanical,
  .lagrangian = L_Mechanical,
  .reset      = Reset_Mechanical,
  .shares     = Shares_Mechanical,
  .separable  = Separable_Mechanical,
  .state      = SIMPVI_STATE_PHASESPACE,
};
