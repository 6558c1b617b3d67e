/*
   Lagrangian door: the user's L(t, x, v), its gradient and Hessian blocks, as the core's P, G and their derivatives.
*/
#include <simpvi/private/pointsvecmat.h>

/* The points path (Points_Lagrangian()): the small dense step's P, G and their derivatives at every quadrature point
   on arrays, for one process, plain Vecs, no force and MATSEQDENSE Hessians (PointsSetUp()), as the mechanical door's
   (src/doors/mechanical.c). The user's L gives P and G on Vecs of the door's kept arrays; its Hessian fills the step's
   copies of Lxx, Lvx, Lvv, read on their arrays. A call for the derivatives at bitwise the points of the last (the
   Jacobian at the residual's iterate) calls only the Hessian. */
struct _SimpVILagPoints {
  SimpVIPointVecs   pts;       /* per point, VECSEQ on x, v (the caller's arrays) */
  Vec              *Pv, *Gv;   /* per point, on the kept P and G */
  SimpVIDenseAccess acc[3];    /* Lxx, Lvx, Lvv */
  PetscInt          cap, capn; /* the points and positions the arrays below hold */
  PetscInt          npts;      /* the points kept (0: none) */
  PetscReal        *t, *x, *v; /* the kept points' inputs */
  PetscScalar      *P, *G;     /* per point */
  PetscScalar      *H;         /* one point's Lxx, Lvx, Lvv, column-major as the user's */
  SimpVIPointMats   mats;      /* what the Hessian fills: copies of Lxx, Lvx, Lvv, or the user's */
};

static PetscErrorCode PointsSetUp(TS ts, SimpVIProblem *prob, Vec q)
{
  Mat       A[3] = {prob->user.Lxx, prob->user.Lvx, prob->user.Lvv};
  PetscBool serve;

  PetscFunctionBegin;
  PetscCall(SimpVIPointsServe_Private(prob, q, 3, A, &serve));
  if (serve) PetscCall(PetscNew(&prob->lagpts));
  PetscFunctionReturn(0);
}

static PetscErrorCode PointsFree(SimpVILagPoints *lp)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < lp->cap; k++) {
    PetscCall(VecDestroy(&lp->Pv[k]));
    PetscCall(VecDestroy(&lp->Gv[k]));
  }
  PetscCall(PetscFree2(lp->Pv, lp->Gv));
  PetscCall(PetscFree6(lp->t, lp->x, lp->v, lp->P, lp->G, lp->H));
  PetscCall(SimpVIPointVecsFree_Private(&lp->pts));
  lp->cap = lp->capn = lp->npts = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode Reset_Lagrangian(SimpVIProblem *prob)
{
  PetscFunctionBegin;
  if (!prob->lagpts) PetscFunctionReturn(0);
  PetscCall(PointsFree(prob->lagpts));
  PetscCall(SimpVIPointMatsFree_Private(&prob->lagpts->mats));
  PetscCall(PetscFree(prob->lagpts));
  PetscFunctionReturn(0);
}

/* A new Lagrangian or Hessian (TSSimpVISetLagrangian(), TSSimpVISetLagrangianHessian()): nothing they gave before stands */
PetscErrorCode SimpVILagrangianForget_Private(SimpVIProblem *prob)
{
  PetscFunctionBegin;
  if (!prob->lagpts) PetscFunctionReturn(0);
  prob->lagpts->npts            = 0;
  prob->lagpts->mats.userwrites = PETSC_FALSE;
  PetscCall(SimpVIPointMatsFree_Private(&prob->lagpts->mats));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUp_Lagrangian(TS ts, SimpVIProblem *prob, Vec q)
{
  PetscFunctionBegin;
  PetscCheck(prob->user.laghessfn && prob->user.Lxx && prob->user.Lvv, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI needs the Hessian of the Lagrangian: call TSSimpVISetLagrangianHessian()");
  PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Lxx, "Lxx"));
  PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Lvv, "Lvv"));
  if (prob->user.Lvx) PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Lvx, "Lvx"));
  PetscCall(PointsSetUp(ts, prob, q));
  PetscFunctionReturn(0);
}

/* The arrays and Vecs of npts points of n positions */
static PetscErrorCode PointsReserve(SimpVILagPoints *lp, PetscInt npts, PetscInt n)
{
  PetscFunctionBegin;
  if (npts <= lp->cap && n == lp->capn) PetscFunctionReturn(0);
  PetscCall(PointsFree(lp));
  PetscCall(PetscMalloc6(npts, &lp->t, npts * n, &lp->x, npts * n, &lp->v, npts * n, &lp->P, npts * n, &lp->G, 3 * n * n, &lp->H));
  PetscCall(PetscCalloc2(npts, &lp->Pv, npts, &lp->Gv));
  for (PetscInt k = 0; k < npts; k++) {
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, lp->P + k * n, &lp->Pv[k]));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, lp->G + k * n, &lp->Gv[k]));
  }
  lp->cap  = npts;
  lp->capn = n;
  PetscFunctionReturn(0);
}

/* Px = Lvx, Pv = Lvv, Gx = Lxx, Gv = Lvx' at one point, row-major from the column-major Hessians (lvx: Lvx given, else
   zero): the blocks of Terms_Lagrangian() */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
PointDerivatives(const PetscInt n, PetscBool lvx, const PetscScalar *PETSC_RESTRICT Lxx, const PetscScalar *PETSC_RESTRICT Lvx, const PetscScalar *PETSC_RESTRICT Lvv, PetscScalar *PETSC_RESTRICT px, PetscScalar *PETSC_RESTRICT pv, PetscScalar *PETSC_RESTRICT gx, PetscScalar *PETSC_RESTRICT gv)
{
  SIMPVI_UNROLL_FOR(PetscInt r = 0; r < n; r++) {
    SIMPVI_UNROLL_FOR(PetscInt c = 0; c < n; c++) {
      pv[r * n + c] = Lvv[c * n + r];
      gx[r * n + c] = Lxx[c * n + r];
      px[r * n + c] = lvx ? Lvx[c * n + r] : 0;
      gv[r * n + c] = lvx ? Lvx[r * n + c] : 0; /* Lvx' */
    }
  }
}

/*
  P, G and their derivatives at npts points on arrays for the small dense path: the numbers of PG_Lagrangian() and the
  blocks of Terms_Lagrangian(), each point's as a whole (row-major). P and G alone call L at every point (a residual
  evaluated again after a failed solve calls it again, as the Vec path does: a domain error it sets is set again); the
  derivatives at the points of the last call call only the Hessian.
*/
static PetscErrorCode Points_Lagrangian(TS ts, SimpVIProblem *prob, PetscInt npts, PetscInt n, const PetscInt need[], const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[])
{
  SimpVILagPoints *lp      = prob->lagpts;
  const PetscInt   nn      = n * n;
  const Mat        user[4] = {prob->user.Lxx, prob->user.Lvx, prob->user.Lvv, NULL};
  PetscBool        kept    = PETSC_FALSE;
  Mat              A[4]; /* the matrices the Hessian fills (SimpVIPointMatsGet_Private()) */

  PetscFunctionBegin;
  PetscCall(PointsReserve(lp, npts, n));
  if (Px) PetscCall(SimpVIPointsSame_Private(lp->npts, lp->t, lp->x, lp->v, npts, n, t, x, v, &kept));
  PetscCall(SimpVIPointVecsPlace_Private(&lp->pts, npts, n, x, v));
  if (!kept) {
    lp->npts = 0; /* nothing kept until every point is done */
    for (PetscInt k = 0; k < npts; k++) {
      PetscReal L;

      SimpVICallBackOneProcess(ts, "TSSIMPVI Lagrangian", prob->user.lagfn(ts, t[k], lp->pts.X[k], lp->pts.V[k], &L, lp->Gv[k], lp->Pv[k], prob->user.lagctx));
    }
    PetscCall(PetscArraycpy(lp->t, t, npts));
    PetscCall(PetscArraycpy(lp->x, x, npts * n));
    PetscCall(PetscArraycpy(lp->v, v, npts * n));
    lp->npts = npts;
  }
  PetscCall(PetscArraycpy(P, lp->P, npts * n));
  PetscCall(PetscArraycpy(G, lp->G, npts * n));
  if (!Px) PetscFunctionReturn(0);
  PetscCall(SimpVIPointMatsGet_Private(&lp->mats, user, A));
  for (PetscInt k = 0; k < npts; k++) {
    const PetscObjectState s[3] = {((PetscObject)user[0])->state, user[1] ? ((PetscObject)user[1])->state : 0, ((PetscObject)user[2])->state};
    const PetscBool        lvx  = (PetscBool)(user[1] != NULL);

    SimpVICallBackOneProcess(ts, "TSSIMPVI Lagrangian Hessian", prob->user.laghessfn(ts, t[k], lp->pts.X[k], lp->pts.V[k], A[0], A[1], A[2], prob->user.laghessctx));
    if (PetscUnlikely(SimpVIPointMatForeign(A[0], user[0], s[0]) || (lvx && SimpVIPointMatForeign(A[1], user[1], s[1])) || SimpVIPointMatForeign(A[2], user[2], s[2]))) PetscCall(SimpVIPointMatsUserWrites_Private(&lp->mats, "Lagrangian", user, A));
    PetscCall(SimpVIPointMatRead(&lp->acc[0], "Lagrangian", A[0], n, lp->H));
    if (lvx) PetscCall(SimpVIPointMatRead(&lp->acc[1], "Lagrangian", A[1], n, lp->H + nn));
    PetscCall(SimpVIPointMatRead(&lp->acc[2], "Lagrangian", A[2], n, lp->H + 2 * nn));
#define SIMPVI_POINT_DERIVATIVES(N) PointDerivatives(N, lvx, lp->H, lp->H + nn, lp->H + 2 * nn, Px + k * nn, Pv + k * nn, Gx + k * nn, Gv + k * nn)
    SIMPVI_SMALL_N(n, SIMPVI_POINT_DERIVATIVES);
#undef SIMPVI_POINT_DERIVATIVES
  }
  PetscFunctionReturn(0);
}

/* points() where Points_Lagrangian() serves (PointsSetUp()) */
static PetscBool HasPoints_Lagrangian(const SimpVIProblem *prob)
{
  return (PetscBool)(prob->lagpts != NULL);
}

static PetscErrorCode PG_Lagrangian(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec P, Vec G)
{
  PetscReal L;

  PetscFunctionBegin;
  SimpVICallBack(ts, "TSSIMPVI Lagrangian", prob->user.lagfn(ts, t, x, v, &L, G, P, prob->user.lagctx));
  PetscCall(SimpVIForceAdd_Private(ts, prob, t, x, v, G));
  PetscFunctionReturn(0);
}

static PetscErrorCode Terms_Lagrangian(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscInt need, PetscInt *n, SimpVITerm terms[])
{
  PetscFunctionBegin;
  SimpVICallBack(ts, "TSSIMPVI Lagrangian Hessian", prob->user.laghessfn(ts, t, x, v, prob->user.Lxx, prob->user.Lvx, prob->user.Lvv, prob->user.laghessctx));
  PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Lvv, 1, SIMPVI_BLOCK_PV, PETSC_FALSE, PETSC_FALSE}));
  PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Lxx, 1, SIMPVI_BLOCK_GX, PETSC_FALSE, PETSC_FALSE}));
  if (prob->user.Lvx) {
    PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Lvx, 1, SIMPVI_BLOCK_PX, PETSC_FALSE, PETSC_FALSE}));
    PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Lvx, 1, SIMPVI_BLOCK_GV, PETSC_TRUE, PETSC_FALSE}));
  }
  PetscCall(SimpVIForceTerms_Private(ts, prob, t, x, v, n, terms));
  PetscFunctionReturn(0);
}

static PetscErrorCode L_Lagrangian(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscReal *L)
{
  PetscFunctionBegin;
  SimpVICallBack(ts, "TSSIMPVI Lagrangian", prob->user.lagfn(ts, t, x, v, L, prob->work, prob->work2, prob->user.lagctx));
  PetscFunctionReturn(0);
}

const SimpVIDoor SimpVIDoorLagrangian = {
  .name       = "Lagrangian",
  .maxterms   = 6, /* Lvv, Lxx, Lvx twice, Fx, Fv */
  .setup      = SetUp_Lagrangian,
  .pg         = PG_Lagrangian,
  .terms      = Terms_Lagrangian,
  .lagrangian = L_Lagrangian,
  .reset      = Reset_Lagrangian,
  .points     = Points_Lagrangian,
  .haspoints  = HasPoints_Lagrangian,
  .state      = SIMPVI_STATE_PHASESPACE,
};
