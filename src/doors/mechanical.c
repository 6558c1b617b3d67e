/*
   Mechanical door: L = 1/2 v' M(x) v - V(t, x). Builds L_v = M v, L_x = g - grad V with g = 1/2 v' dM/dx v, and the
   second derivatives L_vv = M, L_vx = d(Mv)/dx, L_xx = Mxx - hess V; constant M makes the mass-derivative terms vanish.
*/
#include <simpvi/private/door.h>

/* The mass callback's values at the last points it was called at, on one process for MATSEQDENSE M, Mx and Mxx of a
   few positions. The step asks for P and G at every quadrature point of an iterate, then (when it makes a Jacobian) for
   the terms at the same points: those are then the values the callback gave there, written back into the user's
   matrices as the callback writes them (its array functions, the state increase), not a second call, which on
   PETSc 3.18 costs more than the rest of the point in the by-name lookups of MatDenseGetArrayWrite(). A point is its x
   and v, each an id and a state, as for the last call's cache: the callback is a function of them. A slot per x (by
   its id: the step's quadrature points are vectors of consecutive ids), which an x of a later state replaces. */
#define SIMPVI_MASS_MEMO     16 /* slots (a scheme has at most s + 1 quadrature points) */
#define SIMPVI_MASS_MEMO_MAX 16 /* the most positions memoized */
struct _SimpVIMassMemo {
  PetscInt          n;
  PetscBool         valid[SIMPVI_MASS_MEMO];
  PetscObjectId     id[SIMPVI_MASS_MEMO][2];
  PetscObjectState  state[SIMPVI_MASS_MEMO][2];
  PetscScalar      *vals;   /* per slot: M, Mx, Mxx (n x n each, column-major), then g */
  SimpVIDenseAccess acc[3]; /* M, Mx, Mxx */
};

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
    PetscInt n;

    PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Mx, "Mx"));
    PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Mxx, "Mxx"));
    PetscCall(VecDuplicate(q, &prob->massg));
    PetscCall(VecGetLocalSize(q, &n));
    if (prob->oneprocess && n <= SIMPVI_MASS_MEMO_MAX) {
      PetscCall(PetscNew(&prob->massmemo));
      PetscCall(PetscMalloc1(SIMPVI_MASS_MEMO * (3 * n * n + n), &prob->massmemo->vals));
      prob->massmemo->n = n;
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Reset_Mechanical(SimpVIProblem *prob)
{
  PetscFunctionBegin;
  prob->massvalid = PETSC_FALSE;
  PetscCall(PetscMemzero(&prob->massacc, sizeof(prob->massacc)));
  PetscCall(VecDestroy(&prob->massg));
  if (prob->massmemo) PetscCall(PetscFree(prob->massmemo->vals));
  PetscCall(PetscFree(prob->massmemo));
  PetscFunctionReturn(0);
}

/* A new mass (TSSimpVISetMass()): nothing the callback gave before stands */
PetscErrorCode SimpVIMassForget_Private(SimpVIProblem *prob)
{
  PetscFunctionBegin;
  prob->massvalid = PETSC_FALSE;
  if (prob->massmemo) PetscCall(PetscArrayzero(prob->massmemo->valid, SIMPVI_MASS_MEMO));
  PetscFunctionReturn(0);
}

/* Whether the memo serves the user's matrices as they are now: three distinct MATSEQDENSE with write access */
static PetscErrorCode MemoUsable(SimpVIProblem *prob, PetscBool *usable)
{
  SimpVIMassMemo *mm   = prob->massmemo;
  Mat             A[3] = {prob->user.M, prob->user.Mx, prob->user.Mxx};

  PetscFunctionBegin;
  *usable = PETSC_FALSE;
  if (!mm || A[0] == A[1] || A[0] == A[2] || A[1] == A[2]) PetscFunctionReturn(0);
  for (PetscInt b = 0; b < 3; b++) {
    if (!SimpVIDenseAccessCurrent(&mm->acc[b], A[b])) PetscCall(SimpVIDenseAccessSet_Private(&mm->acc[b], A[b]));
    if (!mm->acc[b].dense || !mm->acc[b].getwrite || !mm->acc[b].restorewrite) PetscFunctionReturn(0);
  }
  *usable = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* n x n entries from an array of leading dimension lda (from) to one of leading dimension ldb (to) */
static inline PetscErrorCode CopyBlock(PetscInt n, const PetscScalar *from, PetscInt lda, PetscScalar *to, PetscInt ldb)
{
  PetscFunctionBegin;
  if (lda == n && ldb == n) PetscCall(PetscArraycpy(to, from, n * n));
  else
    for (PetscInt c = 0; c < n; c++) PetscCall(PetscArraycpy(to + c * ldb, from + c * lda, n));
  PetscFunctionReturn(0);
}

/* The callback's values just computed at the point (id, state) into its slot */
static PetscErrorCode MemoStore(SimpVIProblem *prob, const PetscObjectId id[2], const PetscObjectState state[2])
{
  SimpVIMassMemo    *mm = prob->massmemo;
  const PetscInt     n = mm->n, nn = n * n, e = (PetscInt)(id[0] % SIMPVI_MASS_MEMO);
  Mat                A[3] = {prob->user.M, prob->user.Mx, prob->user.Mxx};
  PetscScalar       *vals = mm->vals + e * (3 * nn + n);
  const PetscScalar *a, *g;
  PetscInt           lda;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < 3; b++) {
    PetscCall(mm->acc[b].getlda(A[b], &lda));
    PetscCall(mm->acc[b].getarray(A[b], &a));
    PetscCall(CopyBlock(n, a, lda, vals + b * nn, n));
    PetscCall(mm->acc[b].restorearray(A[b], &a));
  }
  PetscCall(VecGetArrayRead(prob->massg, &g));
  PetscCall(PetscArraycpy(vals + 3 * nn, g, n));
  PetscCall(VecRestoreArrayRead(prob->massg, &g));
  for (PetscInt j = 0; j < 2; j++) {
    mm->id[e][j]    = id[j];
    mm->state[e][j] = state[j];
  }
  mm->valid[e] = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* The memo's values at the point (id, state), if it holds them, written into the user's matrices and g as the callback
   writes them: MatDenseGetArrayWrite(), MatDenseRestoreArrayWrite() (which increases the state), VecGetArrayWrite() */
static PetscErrorCode MemoLoad(SimpVIProblem *prob, const PetscObjectId id[2], const PetscObjectState state[2], PetscBool *found)
{
  SimpVIMassMemo    *mm = prob->massmemo;
  const PetscInt     n = mm->n, nn = n * n, e = (PetscInt)(id[0] % SIMPVI_MASS_MEMO);
  Mat                A[3] = {prob->user.M, prob->user.Mx, prob->user.Mxx};
  const PetscScalar *vals = mm->vals + e * (3 * nn + n);
  PetscScalar       *a, *g;
  PetscInt           lda;

  PetscFunctionBegin;
  *found = (PetscBool)(mm->valid[e] && mm->id[e][0] == id[0] && mm->id[e][1] == id[1] && mm->state[e][0] == state[0] && mm->state[e][1] == state[1]);
  if (!*found) PetscFunctionReturn(0);
  for (PetscInt b = 0; b < 3; b++) {
    PetscCall(mm->acc[b].getlda(A[b], &lda));
    PetscCall(mm->acc[b].getwrite(A[b], &a));
    PetscCall(CopyBlock(n, vals + b * nn, n, a, lda));
    PetscCall(mm->acc[b].restorewrite(A[b], &a));
    PetscCall(PetscObjectStateIncrease((PetscObject)A[b]));
#if defined(PETSC_HAVE_CUDA) || defined(PETSC_HAVE_HIP)
    A[b]->offloadmask = PETSC_OFFLOAD_CPU;
#endif
  }
  PetscCall(VecGetArrayWrite(prob->massg, &g));
  PetscCall(PetscArraycpy(g, vals + 3 * nn, n));
  PetscCall(VecRestoreArrayWrite(prob->massg, &g));
  PetscFunctionReturn(0);
}

/* The user's mass callback at (x, v), skipped on one process when it was last called at these very vectors, unchanged
   since (the dense path asks for P, G and the terms of a point one after the other), and replaced by the memo's values
   when it was called at them not long ago (the terms of the quadrature points after the residual's P and G) */
static PetscErrorCode Mass(TS ts, SimpVIProblem *prob, Vec x, Vec v)
{
  PetscObjectId    id[2];
  PetscObjectState state[2];
  PetscBool        memo, found;

  PetscFunctionBegin;
  if (!prob->user.massfn) PetscFunctionReturn(0);
  if (!prob->oneprocess) { /* the callback's failure check is collective: every process calls it, whatever each one's cache says */
    SimpVICallBack(ts, "TSSIMPVI mass", prob->user.massfn(ts, x, v, prob->user.M, prob->user.Mx, prob->massg, prob->user.Mxx, prob->user.massctx));
    PetscFunctionReturn(0);
  }
  id[0]    = ((PetscObject)x)->id; /* PetscObjectGetId() and PetscObjectStateGet(), without their calls */
  id[1]    = ((PetscObject)v)->id;
  state[0] = ((PetscObject)x)->state;
  state[1] = ((PetscObject)v)->state;
  if (prob->massvalid && id[0] == prob->massid[0] && id[1] == prob->massid[1] && state[0] == prob->massstate[0] && state[1] == prob->massstate[1]) PetscFunctionReturn(0);
  prob->massvalid = PETSC_FALSE;
  PetscCall(MemoUsable(prob, &memo));
  found = PETSC_FALSE;
  if (memo) PetscCall(MemoLoad(prob, id, state, &found));
  if (!found) {
    SimpVICallBackOneProcess(ts, "TSSIMPVI mass", prob->user.massfn(ts, x, v, prob->user.M, prob->user.Mx, prob->massg, prob->user.Mxx, prob->user.massctx));
    if (memo && prob->keepvalues) PetscCall(MemoStore(prob, id, state));
  }
  for (PetscInt j = 0; j < 2; j++) {
    prob->massid[j]    = id[j];
    prob->massstate[j] = state[j];
  }
  prob->massvalid = PETSC_TRUE;
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

    SimpVICallBackProblem(ts, prob, "TSSIMPVI potential", prob->user.potfn(ts, t, x, &V, G, prob->user.potctx));
    nloc = prob->nlocal;
    PetscCall(VecGetArray(G, &gg));
    if (prob->user.massfn) PetscCall(VecGetArrayRead(prob->massg, &mg));
    for (PetscInt j = 0; j < nloc; j++) gg[j] = mg ? -gg[j] + mg[j] : -gg[j];
    if (mg) PetscCall(VecRestoreArrayRead(prob->massg, &mg));
    PetscCall(VecRestoreArray(G, &gg));
  } else {
    PetscCall(VecSet(G, 0));
    if (prob->user.massfn) PetscCall(VecAXPY(G, 1, prob->massg));
  }
  if (prob->user.forcefn) PetscCall(SimpVIForceAdd_Private(ts, prob, t, x, v, G));
  PetscFunctionReturn(0);
}

static PetscErrorCode Terms_Mechanical(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscInt need, PetscInt *n, SimpVITerm terms[])
{
  PetscFunctionBegin;
  PetscCall(Mass(ts, prob, x, v));
  PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.M, 1, SIMPVI_BLOCK_PV, PETSC_FALSE, (PetscBool)!prob->user.massfn}));
  if (prob->user.potfn && (need & SIMPVI_NEED(SIMPVI_BLOCK_GX))) { /* e.g. not at a Lobatto scheme's first node */
    SimpVICallBackProblem(ts, prob, "TSSIMPVI potential Hessian", prob->user.pothessfn(ts, t, x, prob->user.K, prob->user.potctx));
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
  .keeps      = PETSC_TRUE, /* the mass memo */
  .state      = SIMPVI_STATE_PHASESPACE,
};
