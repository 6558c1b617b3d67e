/*
   Mechanical door: L = 1/2 v' M(x) v - V(t, x). Builds L_v = M v, L_x = g - grad V with g = 1/2 v' dM/dx v, and the
   second derivatives L_vv = M, L_vx = d(Mv)/dx, L_xx = Mxx - hess V; constant M makes the mass-derivative terms vanish.
*/
#include <simpvi/private/pointsvecmat.h>

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

/* The points path (Points_Mechanical()): the small dense step's P, G and their derivatives at every quadrature point on
   arrays, for one process, plain Vecs and MATSEQDENSE matrices (PointsSetUp()). The user's callbacks take Vecs of the
   door, one set per point made on the step's arrays of x and v (their state increased at each call, the values being
   new) and on the door's of g and grad V; the user's matrices are read on their arrays. The step asks for P and
   G at the points of an iterate and, when it makes a Jacobian there, for their derivatives at the same points: the
   values the mass and potential gave at the last call's points are kept, and a call for the derivatives at bitwise
   the same (t, x, v) calls only the potential's Hessian. */
struct _SimpVIMechPoints {
  SimpVIPointVecs   pts;          /* per point, VECSEQ on x, v (the caller's arrays) */
  Vec              *gv, *dVv;     /* per point, on g and grad V (the kept ones) */
  SimpVIDenseAccess acc[4];       /* M, Mx, Mxx, K */
  PetscInt          cap, capn;    /* the points and positions the arrays below hold */
  PetscInt          npts;         /* the points kept (0: none) */
  PetscReal        *t, *x, *v;    /* the kept points' inputs */
  PetscScalar      *M, *Mx, *Mxx; /* per point, column-major as the user's matrices (a constant M: the first only) */
  PetscScalar      *g, *dV, *K;   /* per point: 1/2 v' dM/dx v, grad V; K: one Hessian */
  SimpVIPointMats   mats;         /* what the callbacks fill: copies of M, Mx, Mxx, K, or the user's */
};

/* Points_Mechanical() serves the problem: one process, plain Vecs, no force (the step's forces come through Vecs) and
   every matrix of the user's MATSEQDENSE, read on its array (the access of SimpVIDenseAccessSet_Private()) */
static PetscErrorCode PointsSetUp(TS ts, SimpVIProblem *prob, Vec q)
{
  Mat       A[4] = {prob->user.M, prob->user.massfn ? prob->user.Mx : NULL, prob->user.massfn ? prob->user.Mxx : NULL, prob->user.potfn ? prob->user.K : NULL};
  PetscBool serve;

  PetscFunctionBegin;
  PetscCall(SimpVIPointsServe_Private(prob, q, 4, A, &serve));
  if (serve) PetscCall(PetscNew(&prob->mechpts));
  PetscFunctionReturn(0);
}

/* The points' Vecs and arrays freed */
static PetscErrorCode PointsFree(SimpVIMechPoints *mp)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < mp->cap; k++) {
    PetscCall(VecDestroy(&mp->gv[k]));
    PetscCall(VecDestroy(&mp->dVv[k]));
  }
  PetscCall(PetscFree2(mp->gv, mp->dVv));
  PetscCall(PetscFree3(mp->t, mp->x, mp->v));
  PetscCall(PetscFree6(mp->M, mp->Mx, mp->Mxx, mp->g, mp->dV, mp->K));
  PetscCall(SimpVIPointVecsFree_Private(&mp->pts));
  mp->cap = mp->capn = mp->npts = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode PointsReset(SimpVIProblem *prob)
{
  SimpVIMechPoints *mp = prob->mechpts;

  PetscFunctionBegin;
  if (!mp) PetscFunctionReturn(0);
  PetscCall(PointsFree(mp));
  PetscCall(SimpVIPointMatsFree_Private(&mp->mats));
  PetscCall(PetscFree(prob->mechpts));
  PetscFunctionReturn(0);
}

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
  PetscCall(PointsSetUp(ts, prob, q));
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
  PetscCall(PointsReset(prob));
  PetscFunctionReturn(0);
}

/* A new mass or potential (TSSimpVISetMass(), TSSimpVISetPotential()): nothing the callbacks gave before stands */
PetscErrorCode SimpVIMassForget_Private(SimpVIProblem *prob)
{
  PetscFunctionBegin;
  prob->massvalid = PETSC_FALSE;
  if (prob->massmemo) PetscCall(PetscArrayzero(prob->massmemo->valid, SIMPVI_MASS_MEMO));
  if (prob->mechpts) {
    prob->mechpts->npts            = 0;
    prob->mechpts->mats.userwrites = PETSC_FALSE;
    PetscCall(SimpVIPointMatsFree_Private(&prob->mechpts->mats));
  }
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
  if (!prob->massg) PetscCall(VecDuplicate(x, &prob->massg)); /* a mass function given after the set-up (TSSimpVISetMass()) */
  if (!prob->oneprocess) {                                    /* the callback's failure check is collective: every process calls it, whatever each one's cache says */
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

/* P = M v at one point (M column-major): the sums of SimpVIDenseMult_Private(); inlined with n a constant for the
   smallest systems */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
PointP(const PetscInt n, const PetscScalar *PETSC_RESTRICT M, const PetscScalar *PETSC_RESTRICT v, PetscScalar *PETSC_RESTRICT P)
{
  SIMPVI_UNROLL_FOR(PetscInt i = 0; i < n; i++) P[i] = 0;
  SIMPVI_UNROLL_FOR(PetscInt j = 0; j < n; j++) {
    SIMPVI_UNROLL_FOR(PetscInt i = 0; i < n; i++) P[i] += v[j] * M[j * n + i];
  }
}

/* Pv = M, Px = Mx, Gv = Mx', Gx = Mxx - K at one point, row-major from the column-major matrices (massfn: Mx, Mxx
   given; hess: K, else none; needgx: else Gx = 0) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
PointDerivatives(const PetscInt n, PetscBool massfn, PetscBool hess, PetscBool needgx, const PetscScalar *PETSC_RESTRICT M, const PetscScalar *PETSC_RESTRICT Mx, const PetscScalar *PETSC_RESTRICT Mxx, const PetscScalar *PETSC_RESTRICT K, PetscScalar *PETSC_RESTRICT px, PetscScalar *PETSC_RESTRICT pv, PetscScalar *PETSC_RESTRICT gx, PetscScalar *PETSC_RESTRICT gv)
{
  SIMPVI_UNROLL_FOR(PetscInt r = 0; r < n; r++) {
    SIMPVI_UNROLL_FOR(PetscInt c = 0; c < n; c++) {
      pv[r * n + c] = M[c * n + r];
      px[r * n + c] = massfn ? Mx[c * n + r] : 0;
      gv[r * n + c] = massfn ? Mx[r * n + c] : 0; /* Mx' */
      gx[r * n + c] = !needgx ? 0 : (massfn ? (hess ? Mxx[c * n + r] - K[c * n + r] : Mxx[c * n + r]) : (hess ? -K[c * n + r] : 0));
    }
  }
}

/* The arrays and Vecs of npts points of n positions */
static PetscErrorCode PointsReserve(SimpVIMechPoints *mp, PetscInt npts, PetscInt n)
{
  PetscFunctionBegin;
  if (npts <= mp->cap && n == mp->capn) PetscFunctionReturn(0);
  PetscCall(PointsFree(mp));
  PetscCall(PetscMalloc3(npts, &mp->t, npts * n, &mp->x, npts * n, &mp->v));
  PetscCall(PetscMalloc6(npts * n * n, &mp->M, npts * n * n, &mp->Mx, npts * n * n, &mp->Mxx, npts * n, &mp->g, npts * n, &mp->dV, n * n, &mp->K));
  PetscCall(PetscCalloc2(npts, &mp->gv, npts, &mp->dVv));
  for (PetscInt k = 0; k < npts; k++) {
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, mp->g + k * n, &mp->gv[k]));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, mp->dV + k * n, &mp->dVv[k]));
  }
  mp->cap  = npts;
  mp->capn = n;
  PetscFunctionReturn(0);
}

/* The matrices the callbacks fill (SimpVIPointMatsGet_Private()) for the user's M, Mx, Mxx and K, NULL where the
   problem has none */
static inline void UserMatrices(SimpVIProblem *prob, Mat user[4])
{
  user[0] = prob->user.massfn ? prob->user.M : NULL;
  user[1] = prob->user.massfn ? prob->user.Mx : NULL;
  user[2] = prob->user.massfn ? prob->user.Mxx : NULL;
  user[3] = prob->user.potfn ? prob->user.K : NULL;
}

/* The user's mass (mass: else the kept values stand) and potential at npts points into the kept arrays, through the
   same checks as on the Vec path (the matrices the callback filled then hold the last point's values) */
static PetscErrorCode PointsCall(TS ts, SimpVIProblem *prob, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscBool mass)
{
  SimpVIMechPoints *mp = prob->mechpts;
  const PetscInt    nn = n * n;
  Mat               A[4], user[4];

  PetscFunctionBegin;
  UserMatrices(prob, user);
  PetscCall(PointsReserve(mp, npts, n));
  PetscCall(SimpVIPointMatsGet_Private(&mp->mats, user, A));
  PetscCall(SimpVIPointVecsPlace_Private(&mp->pts, npts, n, x, v));
  mp->npts = 0;                            /* nothing kept until every point is done */
  if (mass) prob->massvalid = PETSC_FALSE; /* the user's mass matrices are no longer those of the Vec path's last call */
  if (mass && !prob->user.massfn) PetscCall(SimpVIPointMatRead(&mp->acc[0], "mechanical", prob->user.M, n, mp->M));
  for (PetscInt k = 0; k < npts; k++) {
    if (mass && prob->user.massfn) {
      const PetscObjectState s[3] = {((PetscObject)prob->user.M)->state, ((PetscObject)prob->user.Mx)->state, ((PetscObject)prob->user.Mxx)->state};

      SimpVICallBackOneProcess(ts, "TSSIMPVI mass", prob->user.massfn(ts, mp->pts.X[k], mp->pts.V[k], A[0], A[1], mp->gv[k], A[2], prob->user.massctx));
      if (PetscUnlikely(SimpVIPointMatForeign(A[0], prob->user.M, s[0]) || SimpVIPointMatForeign(A[1], prob->user.Mx, s[1]) || SimpVIPointMatForeign(A[2], prob->user.Mxx, s[2])))
        PetscCall(SimpVIPointMatsUserWrites_Private(&mp->mats, "mechanical", user, A));
      PetscCall(SimpVIPointMatRead(&mp->acc[0], "mechanical", A[0], n, mp->M + k * nn));
      PetscCall(SimpVIPointMatRead(&mp->acc[1], "mechanical", A[1], n, mp->Mx + k * nn));
      PetscCall(SimpVIPointMatRead(&mp->acc[2], "mechanical", A[2], n, mp->Mxx + k * nn));
    }
    if (prob->user.potfn) {
      PetscReal V;

      SimpVICallBackOneProcess(ts, "TSSIMPVI potential", prob->user.potfn(ts, t[k], mp->pts.X[k], &V, mp->dVv[k], prob->user.potctx));
    }
  }
  PetscCall(PetscArraycpy(mp->t, t, npts));
  PetscCall(PetscArraycpy(mp->x, x, npts * n));
  PetscCall(PetscArraycpy(mp->v, v, npts * n));
  mp->npts = npts;
  PetscFunctionReturn(0);
}

/* Whether the kept values are those of these points: bitwise the same inputs */
static PetscErrorCode PointsKept(SimpVIMechPoints *mp, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscBool *kept)
{
  PetscFunctionBegin;
  *kept = PETSC_FALSE;
  if (mp->capn == n) PetscCall(SimpVIPointsSame_Private(mp->npts, mp->t, mp->x, mp->v, npts, n, t, x, v, kept));
  PetscFunctionReturn(0);
}

/*
  P, G and their derivatives at npts points on arrays for the small dense path: the numbers of PG_Mechanical() (P = M v
  summed as SimpVIDenseMult_Private() does, G = -grad V + g) and the blocks of Terms_Mechanical(), Pv = M, Px = Mx,
  Gv = Mx', Gx = Mxx - K, each point's as a whole (row-major). A point that needs no G_x (a Lobatto scheme's first
  node) gets zeros there and no Hessian call. A call for the derivatives at the points of the last (the Jacobian at
  the residual's iterate) calls only the Hessian; P and G alone at them (a residual evaluated again after a failed
  solve) call the potential again, as the Vec path does with its mass memo (a domain error it sets is set again).
*/
static PetscErrorCode Points_Mechanical(TS ts, SimpVIProblem *prob, PetscInt npts, PetscInt n, const PetscInt need[], const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[])
{
  SimpVIMechPoints *mp     = prob->mechpts;
  const PetscInt    nn     = n * n;
  const PetscBool   massfn = (PetscBool)(prob->user.massfn != NULL), potfn = (PetscBool)(prob->user.potfn != NULL);
  PetscBool         kept = PETSC_FALSE;
  Mat               A[4], user[4]; /* the matrices the callbacks fill (SimpVIPointMatsGet_Private()) */

  PetscFunctionBegin;
  PetscCall(PointsKept(mp, npts, n, t, x, v, &kept));
  if (Px && !kept) PetscCall(PointsCall(ts, prob, npts, n, t, x, v, PETSC_TRUE));
  else if (!Px) PetscCall(PointsCall(ts, prob, npts, n, t, x, v, (PetscBool)!kept)); /* the potential always, the mass where not kept; Mx, Mxx kept whatever the step guesses (a few copies against a mass call per point where it guesses wrong) */
  for (PetscInt k = 0; k < npts; k++) {
    const PetscScalar *M = mp->M + (massfn ? k * nn : 0);

#define SIMPVI_POINT_P(N) PointP(N, M, v + k * n, P + k * n)
    SIMPVI_SMALL_N(n, SIMPVI_POINT_P);
#undef SIMPVI_POINT_P
  }
  if (potfn && massfn) /* G = -grad V + g, every point at once */
    for (PetscInt j = 0; j < npts * n; j++) G[j] = -mp->dV[j] + mp->g[j];
  else if (potfn)
    for (PetscInt j = 0; j < npts * n; j++) G[j] = -mp->dV[j];
  else if (massfn)
    for (PetscInt j = 0; j < npts * n; j++) G[j] = 0 + mp->g[j];
  else
    for (PetscInt j = 0; j < npts * n; j++) G[j] = 0;
  if (!Px) PetscFunctionReturn(0);
  UserMatrices(prob, user);
  PetscCall(SimpVIPointMatsGet_Private(&mp->mats, user, A));
  for (PetscInt k = 0; k < npts; k++) {
    const PetscScalar *M = mp->M + (massfn ? k * nn : 0), *Mx = mp->Mx + k * nn, *Mxx = mp->Mxx + k * nn;
    const PetscBool    needgx = (PetscBool)(!need || (need[k] & SIMPVI_NEED(SIMPVI_BLOCK_GX)));

    if (needgx && potfn) {
      const PetscObjectState s = ((PetscObject)prob->user.K)->state;

      SimpVICallBackOneProcess(ts, "TSSIMPVI potential Hessian", prob->user.pothessfn(ts, t[k], mp->pts.X[k], A[3], prob->user.potctx));
      if (PetscUnlikely(SimpVIPointMatForeign(A[3], prob->user.K, s))) PetscCall(SimpVIPointMatsUserWrites_Private(&mp->mats, "mechanical", user, A));
      PetscCall(SimpVIPointMatRead(&mp->acc[3], "mechanical", A[3], n, mp->K));
    }
#define SIMPVI_POINT_DERIVATIVES(N) PointDerivatives(N, massfn, potfn, needgx, M, Mx, Mxx, mp->K, Px + k * nn, Pv + k * nn, Gx + k * nn, Gv + k * nn)
    SIMPVI_SMALL_N(n, SIMPVI_POINT_DERIVATIVES);
#undef SIMPVI_POINT_DERIVATIVES
  }
  PetscFunctionReturn(0);
}

/* points() where Points_Mechanical() serves (PointsSetUp()) */
static PetscBool HasPoints_Mechanical(const SimpVIProblem *prob)
{
  return (PetscBool)(prob->mechpts != NULL);
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
  .points     = Points_Mechanical,
  .haspoints  = HasPoints_Mechanical,
  .keeps      = PETSC_TRUE, /* the mass memo */
  .state      = SIMPVI_STATE_PHASESPACE,
};
