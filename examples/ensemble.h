/*
   Ensembles for parameter studies: many small mechanical systems ("members", n positions each) integrated with a
   TSSIMPVI scheme as ONE batched system per process, solved by one SNES whose Jacobian is block diagonal (a
   MATSEQBAIJ with one s n x s n block per member, factored block by block), so that thousands of members share
   every PETSc call and the cost per member is its arithmetic.

   What a member gets is what it would get alone, bit for bit, whatever the other members of the batch:
   - per-member Newton: the convergence test is SNESConvergedDefault's, applied to each member's own norms (its residual
     against its first residual, its update against its increments); a member that has converged gets trivial equations
     (zero residual, identity block) for the rest of the solve, so its update is exactly zero; the line search is
     basic (a full Newton step), which is per member too;
   - every residual, Jacobian block and block factorization involves one member's numbers only;
   - per-member stopping: after each step a post-step function may stop any member (e.g. the flip map's "first flip");
     a finished member leaves the batch at once, its slot takes the next member from the caller's source, and when the
     source is empty and half the system is idle the batch is compacted into a smaller system;
   - a member whose Newton solve fails (-ensemble_snes_max_it, a residual not finite) leaves the batch alone.
   Options that would couple the members break this: keep the basic line search, an exact block solve (PCLU natural,
   or PCPBJACOBI) and no Jacobian lagging.
   So the results do not depend on the batch size, on which members share a batch, or on the number of processes
   (examples/sweep.c checks this against every member run alone, tests examples-sweep_flip*). They agree with a TSSIMPVI
   run of the member to round-off (not bitwise: other linear algebra), checked by -flip_check_ts in examples/sweep.c.

   The scheme is a TSSIMPVI's (TSSimpVIGetTableau(): -ts_simpvi_type, -ts_simpvi_degree); the members' mechanics are
   given pointwise and batched: P = dL/dv, G = dL/dx and their derivatives, at many points at once; the derivatives of
   a residual evaluation are kept for the Jacobian at the same point (Newton asks for both there).

   Usage:
     EnsembleCreate(ts, n, &e);                       // ts: a TSSIMPVI carrying the scheme (set from options)
     EnsembleSetMechanics(e, mechanics, ctx);
     EnsembleSetStep(e, h, maxsteps);
     EnsembleSetFromOptions(e);                       // -ensemble_batch <1024>, -ensemble_snes_*, -ensemble_ksp_*, -ensemble_pc_*
     EnsembleSolve(e, next, poststep, done, ctx);     // members from next() until it has none; done() for each
     EnsembleDestroy(&e);
*/
#ifndef SIMPVI_EXAMPLES_ENSEMBLE_H
#define SIMPVI_EXAMPLES_ENSEMBLE_H
#include <simpvi.h>
#include <petscdmshell.h>

/* P = dL/dv and G = dL/dx at npts points (member id[j], time t[j], position x[j n..], velocity v[j n..]) and the n x n
   (row-major) derivatives Px = dP/dx, Pv = dP/dv, Gx = dG/dx, Gv = dG/dv at each point */
typedef PetscErrorCode (*EnsembleMechanicsFn)(PetscInt npts, const PetscInt id[], const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx);
/* The next member to start: its id (>= 0; -1: none left) and initial state q0, p0 */
typedef PetscErrorCode (*EnsembleNextFn)(PetscInt *id, PetscReal q0[], PetscReal p0[], void *ctx);
/* After a step of nb members: member id[b] has taken step[b] steps and is at q[b n..], p[b n..]; stop[b] = PETSC_TRUE
   ends it (stop[] comes in PETSC_FALSE) */
typedef PetscErrorCode (*EnsemblePostStepFn)(PetscInt nb, const PetscInt id[], const PetscInt step[], const PetscReal q[], const PetscReal p[], PetscBool stop[], void *ctx);
/* A member has finished: stopped, after the most steps, or failed (its Newton solve did not converge) */
typedef enum {
  ENSEMBLE_STOPPED,
  ENSEMBLE_MAX_STEPS,
  ENSEMBLE_FAILED
} EnsembleReason;
typedef PetscErrorCode (*EnsembleDoneFn)(PetscInt id, EnsembleReason reason, PetscInt steps, PetscInt newtonits, const PetscReal q[], const PetscReal p[], void *ctx);

typedef struct {
  /* the scheme: s unknown nodes, nq quadrature points; phi[a (s+1) + j] = phi_j(1 + c_{a+1}), the last step's
     polynomial at the next step's nodes (the predictor) */
  PetscInt      n, s, nq, bs;
  PetscReal    *c, *phi;
  PetscReal     h, t0;
  SimpVIKernel  kernel; /* the step's equations (TSSimpVICreateKernel()) */
  PetscScalar **xptr;   /* 4 nq array pointers, for the kernel's sums */
  PetscInt      maxsteps, batch;

  EnsembleMechanicsFn mechanics;
  void               *mechctx;

  /* the members in the batch, slots 0..nb-1; the system has m >= nb slots (slots nb..m-1 idle, trivial equations) */
  PetscInt   nb, m;
  PetscInt  *id, *steps, *its;
  PetscBool *conv, *failed, *havepoly, *stop;
  PetscReal *q0, *p0, *Qprev, *G, *f0;             /* per slot: n, n, (s+1) n, nq n, 1 */
  PetscReal *q1, *p1;                              /* per slot: n, n (the post-step's arrays) */
  PetscReal *cx, *cv, *ct, *cPx, *cPv, *cGx, *cGv; /* per slot: the last evaluation's points (nq n, nq) and derivatives (nq n n) */
  PetscInt  *cid;                                  /* per slot: the member they belong to */

  /* points of the live slots (not converged in this solve), packed for one call of the mechanics */
  PetscInt  *live, nlive, *pid;
  PetscReal *pt, *px, *pv, *pP, *pG, *pPx, *pPv, *pGx, *pGv, *blk, *lu;

  SNES snes;
  Vec  Y, F;
  Mat  J;
} * Ensemble;

/* Gaussian elimination with partial pivoting of the n x n row-major A (overwritten), b overwritten by the solution */
static inline PetscErrorCode EnsembleDenseSolve(PetscInt n, PetscReal A[], PetscReal b[])
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n; k++) {
    PetscInt p = k;

    for (PetscInt i = k + 1; i < n; i++)
      if (PetscAbsReal(A[i * n + k]) > PetscAbsReal(A[p * n + k])) p = i;
    PetscCheck(A[p * n + k] != 0, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Singular velocity Hessian L_vv");
    if (p != k) {
      for (PetscInt j = 0; j < n; j++) {
        const PetscReal a = A[k * n + j];

        A[k * n + j] = A[p * n + j];
        A[p * n + j] = a;
      }
      {
        const PetscReal a = b[k];

        b[k] = b[p];
        b[p] = a;
      }
    }
    for (PetscInt i = k + 1; i < n; i++) {
      const PetscReal f = A[i * n + k] / A[k * n + k];

      for (PetscInt j = k; j < n; j++) A[i * n + j] -= f * A[k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (PetscInt k = n - 1; k >= 0; k--) {
    for (PetscInt j = k + 1; j < n; j++) b[k] -= A[k * n + j] * b[j];
    b[k] /= A[k * n + k];
  }
  PetscFunctionReturn(0);
}

/* Packs the quadrature points of the live slots from the step vector y (the kernel's x_k and v_k of each slot) */
static inline PetscErrorCode EnsemblePack(Ensemble e, const PetscScalar *y)
{
  const PetscInt n = e->n, nq = e->nq;

  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < e->nlive; j++) {
    const PetscInt b = e->live[j];

    for (PetscInt k = 0; k < nq; k++) {
      e->pid[j * nq + k] = e->id[b];
      e->xptr[k]         = e->px + (j * nq + k) * n;
      e->xptr[nq + k]    = e->pv + (j * nq + k) * n;
    }
    PetscCall(SimpVIKernelTimes(e->kernel, e->t0 + e->steps[b] * e->h, e->pt + j * nq));
    PetscCall(SimpVIKernelPoints(e->kernel, n, e->q0 + b * n, y + b * e->bs, e->xptr, e->xptr + nq));
  }
  PetscFunctionReturn(0);
}

/* The mechanics at the packed points, the points and derivatives kept per slot for the Jacobian */
static inline PetscErrorCode EnsembleEvaluate(Ensemble e)
{
  const PetscInt nq = e->nq, m = nq * e->n, mm = m * e->n;

  PetscFunctionBeginUser;
  if (!e->nlive) PetscFunctionReturn(0);
  PetscCall(e->mechanics(e->nlive * nq, e->pid, e->pt, e->px, e->pv, e->pP, e->pG, e->pPx, e->pPv, e->pGx, e->pGv, e->mechctx));
  for (PetscInt j = 0; j < e->nlive; j++) {
    const PetscInt b = e->live[j];

    e->cid[b] = e->id[b];
    PetscCall(PetscArraycpy(e->ct + b * nq, e->pt + j * nq, nq));
    PetscCall(PetscArraycpy(e->cx + b * m, e->px + j * m, m));
    PetscCall(PetscArraycpy(e->cv + b * m, e->pv + j * m, m));
    PetscCall(PetscArraycpy(e->cPx + b * mm, e->pPx + j * mm, mm));
    PetscCall(PetscArraycpy(e->cPv + b * mm, e->pPv + j * mm, mm));
    PetscCall(PetscArraycpy(e->cGx + b * mm, e->pGx + j * mm, mm));
    PetscCall(PetscArraycpy(e->cGv + b * mm, e->pGv + j * mm, mm));
  }
  PetscFunctionReturn(0);
}

/* The live slots: members of the batch neither converged in this solve nor failed */
static inline void EnsembleLive(Ensemble e)
{
  e->nlive = 0;
  for (PetscInt b = 0; b < e->nb; b++)
    if (!e->conv[b] && !e->failed[b]) e->live[e->nlive++] = b;
}

/* The step's residual (the kernel's) for the live slots; zero for the others. A member whose residual is not finite
   fails here (alone, its SNES would stop on the NaN). */
static inline PetscErrorCode EnsembleResidual(SNES snes, Vec Y, Vec F, void *ctx)
{
  Ensemble           e = (Ensemble)ctx;
  const PetscInt     n = e->n, nq = e->nq;
  const PetscScalar *y;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  EnsembleLive(e);
  PetscCall(VecGetArrayRead(Y, &y));
  PetscCall(EnsemblePack(e, y));
  PetscCall(VecRestoreArrayRead(Y, &y));
  PetscCall(EnsembleEvaluate(e));
  PetscCall(VecGetArrayWrite(F, &f));
  PetscCall(PetscArrayzero(f, e->m * e->bs));
  for (PetscInt j = 0; j < e->nlive; j++) {
    const PetscInt b = e->live[j];
    PetscScalar   *r = f + b * e->bs;
    PetscBool      finite;

    for (PetscInt k = 0; k < nq; k++) {
      e->xptr[k]      = e->pP + (j * nq + k) * n;
      e->xptr[nq + k] = e->pG + (j * nq + k) * n;
    }
    PetscCall(SimpVIKernelResidual(e->kernel, n, e->p0 + b * n, (const PetscScalar *const *)e->xptr, (const PetscScalar *const *)e->xptr + nq, r));
    PetscCall(PetscArraycpy(e->G + b * nq * n, e->pG + j * nq * n, nq * n)); /* for the end momentum */
    finite = PETSC_TRUE;
    for (PetscInt i = 0; i < e->bs; i++)
      if (PetscIsInfOrNanReal(r[i])) finite = PETSC_FALSE;
    if (!finite) {
      e->failed[b] = PETSC_TRUE;
      PetscCall(PetscArrayzero(r, e->bs));
    }
  }
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

/* The step Jacobian (the kernel's): one block per live slot, the identity for the others */
static inline PetscErrorCode EnsembleJacobian(SNES snes, Vec Y, Mat J, Mat Jpre, void *ctx)
{
  Ensemble           e = (Ensemble)ctx;
  const PetscInt     n = e->n, nq = e->nq, bs = e->bs, nn = n * n;
  const PetscScalar *y;
  PetscInt           nextidle = 0;

  PetscFunctionBeginUser;
  EnsembleLive(e);
  PetscCall(VecGetArrayRead(Y, &y));
  PetscCall(EnsemblePack(e, y));
  PetscCall(VecRestoreArrayRead(Y, &y));
  { /* the derivatives of the residual evaluation at the same points, unless some point has moved since */
    PetscBool same = PETSC_TRUE;

    for (PetscInt j = 0; j < e->nlive && same; j++) {
      const PetscInt b = e->live[j], m = nq * n;

      PetscBool st = PETSC_FALSE, sx = PETSC_FALSE, sv = PETSC_FALSE;

      PetscCall(PetscArraycmp(e->ct + b * nq, e->pt + j * nq, nq, &st));
      PetscCall(PetscArraycmp(e->cx + b * m, e->px + j * m, m, &sx));
      PetscCall(PetscArraycmp(e->cv + b * m, e->pv + j * m, m, &sv));
      same = (PetscBool)(e->cid[b] == e->id[b] && st && sx && sv);
    }
    if (!same) PetscCall(EnsembleEvaluate(e));
  }
  for (PetscInt j = 0; j <= e->nlive; j++) {
    const PetscInt b = j < e->nlive ? e->live[j] : e->m;

    for (; nextidle < b; nextidle++) { /* the slots before b that are not live */
      PetscCall(PetscArrayzero(e->blk, bs * bs));
      for (PetscInt i = 0; i < bs; i++) e->blk[i * bs + i] = 1;
      PetscCall(MatSetValuesBlocked(Jpre, 1, &nextidle, 1, &nextidle, e->blk, INSERT_VALUES));
    }
    if (j == e->nlive) break;
    for (PetscInt k = 0; k < nq; k++) {
      e->xptr[k]          = e->cPx + (b * nq + k) * nn;
      e->xptr[nq + k]     = e->cPv + (b * nq + k) * nn;
      e->xptr[2 * nq + k] = e->cGx + (b * nq + k) * nn;
      e->xptr[3 * nq + k] = e->cGv + (b * nq + k) * nn;
    }
    {
      const PetscScalar *const *A = (const PetscScalar *const *)e->xptr;

      PetscCall(SimpVIKernelJacobian(e->kernel, n, A, A + nq, A + 2 * nq, A + 3 * nq, bs, e->blk));
    }
    PetscCall(MatSetValuesBlocked(Jpre, 1, &b, 1, &b, e->blk, INSERT_VALUES));
    nextidle = b + 1;
  }
  PetscCall(MatAssemblyBegin(Jpre, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Jpre, MAT_FINAL_ASSEMBLY));
  if (J != Jpre) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

static inline PetscReal EnsembleNorm(PetscInt n, const PetscScalar a[])
{
  PetscReal sum = 0;

  for (PetscInt i = 0; i < n; i++) sum += PetscRealPart(a[i] * PetscConj(a[i]));
  return PetscSqrtReal(sum);
}

/* SNESConvergedDefault() member by member (the members' own norms against the SNES's tolerances); the solve ends when
   every member has converged or failed, and after the most iterations the members still iterating fail */
static inline PetscErrorCode EnsembleConverged(SNES snes, PetscInt it, PetscReal xnorm, PetscReal snorm, PetscReal fnorm, SNESConvergedReason *reason, void *ctx)
{
  Ensemble           e  = (Ensemble)ctx;
  const PetscInt     bs = e->bs;
  PetscReal          atol, rtol, stol;
  PetscInt           maxit, maxf, left = 0;
  Vec                X, F, dY;
  const PetscScalar *x, *dy = NULL;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(SNESGetTolerances(snes, &atol, &rtol, &stol, &maxit, &maxf));
  PetscCall(SNESGetSolution(snes, &X));
  PetscCall(SNESGetFunction(snes, &F, NULL, NULL));
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArray(F, &f));
  if (it) {
    PetscCall(SNESGetSolutionUpdate(snes, &dY));
    PetscCall(VecGetArrayRead(dY, &dy));
  }
  for (PetscInt b = 0; b < e->nb; b++) {
    PetscReal fn;

    if (e->conv[b] || e->failed[b]) continue;
    fn = EnsembleNorm(bs, f + b * bs);
    if (fn < atol) e->conv[b] = PETSC_TRUE;
    else if (!it) e->f0[b] = fn;
    else if (fn <= rtol * e->f0[b] || EnsembleNorm(bs, dy + b * bs) < stol * EnsembleNorm(bs, x + b * bs)) e->conv[b] = PETSC_TRUE;
    if (e->conv[b]) e->its[b] += it;
    else if (it >= maxit) {
      e->failed[b] = PETSC_TRUE;
      e->its[b] += it;
    } else left++;
    /* from now on its equations are trivial: the next update of a converged member must be exactly zero, and the
       residual the next linear solve takes is the one just tested */
    if (e->conv[b] || e->failed[b]) PetscCall(PetscArrayzero(f + b * bs, bs));
  }
  if (it) PetscCall(VecRestoreArrayRead(dY, &dy));
  PetscCall(VecRestoreArray(F, &f));
  PetscCall(VecRestoreArrayRead(X, &x));
  *reason = left ? SNES_CONVERGED_ITERATING : SNES_CONVERGED_FNORM_RELATIVE;
  PetscFunctionReturn(0);
}

/* The system of m slots: its vectors, its block-diagonal matrix and a SNES set from the options (made anew when m
   changes, which happens only when the batch is compacted) */
static inline PetscErrorCode EnsembleResize(Ensemble e, PetscInt m)
{
  SNESLineSearch ls;
  KSP            ksp;
  PC             pc;

  PetscFunctionBeginUser;
  PetscCall(SNESDestroy(&e->snes));
  PetscCall(VecDestroy(&e->Y));
  PetscCall(VecDestroy(&e->F));
  PetscCall(MatDestroy(&e->J));
  e->m = m;
  if (!m) PetscFunctionReturn(0);
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, m * e->bs, &e->Y));
  PetscCall(VecDuplicate(e->Y, &e->F));
  PetscCall(MatCreateSeqBAIJ(PETSC_COMM_SELF, e->bs, m * e->bs, m * e->bs, 1, NULL, &e->J));
  PetscCall(SNESCreate(PETSC_COMM_SELF, &e->snes));
  PetscCall(SNESSetOptionsPrefix(e->snes, "ensemble_"));
  { /* a DM that knows the system's vectors, for what creates work vectors from it (finite-difference Jacobians) */
    DM dm;

    PetscCall(DMShellCreate(PETSC_COMM_SELF, &dm));
    PetscCall(DMShellSetGlobalVector(dm, e->Y));
    PetscCall(SNESSetDM(e->snes, dm));
    PetscCall(DMDestroy(&dm));
  }
  PetscCall(SNESSetType(e->snes, SNESNEWTONLS));
  /* the defaults of a TSSIMPVI's SNES: Newton until its update is negligible (stol) */
  PetscCall(SNESSetTolerances(e->snes, PETSC_DEFAULT, 1e-14, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(SNESGetLineSearch(e->snes, &ls));
#if defined(SNESLINESEARCHNONE) /* the full Newton step: "basic" up to PETSc 3.25, "none" since */
  PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHNONE));
#else
  PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC));
#endif
  PetscCall(SNESGetKSP(e->snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL));
  PetscCall(SNESSetFunction(e->snes, e->F, EnsembleResidual, e));
  PetscCall(SNESSetJacobian(e->snes, e->J, e->J, EnsembleJacobian, e));
  PetscCall(SNESSetConvergenceTest(e->snes, EnsembleConverged, e, NULL));
  PetscCall(SNESSetFromOptions(e->snes));
  PetscFunctionReturn(0);
}

/* Work space for a batch of the given size */
static inline PetscErrorCode EnsembleAllocate(Ensemble e)
{
  const PetscInt n = e->n, s = e->s, nq = e->nq, B = e->batch, nn = n * n;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc7(B, &e->id, B, &e->steps, B, &e->its, B, &e->conv, B, &e->failed, B, &e->havepoly, B, &e->stop));
  PetscCall(PetscCalloc7(B * n, &e->q0, B * n, &e->p0, B * (s + 1) * n, &e->Qprev, B * nq * n, &e->G, B, &e->f0, B * n, &e->q1, B * n, &e->p1));
  PetscCall(PetscCalloc3(B, &e->live, B * nq, &e->pid, B * nq, &e->pt));
  PetscCall(PetscCalloc4(B * nq * n, &e->px, B * nq * n, &e->pv, B * nq * n, &e->pP, B * nq * n, &e->pG));
  PetscCall(PetscCalloc4(B * nq * nn, &e->pPx, B * nq * nn, &e->pPv, B * nq * nn, &e->pGx, B * nq * nn, &e->pGv));
  PetscCall(PetscCalloc2(e->bs * e->bs, &e->blk, nn, &e->lu));
  PetscCall(PetscCalloc6(B * nq * n, &e->cx, B * nq * n, &e->cv, B * nq * nn, &e->cPx, B * nq * nn, &e->cPv, B * nq * nn, &e->cGx, B * nq * nn, &e->cGv));
  PetscCall(PetscMalloc2(B * nq, &e->ct, B, &e->cid));
  for (PetscInt b = 0; b < B; b++) e->cid[b] = -1;
  PetscFunctionReturn(0);
}

static inline PetscErrorCode EnsembleFree(Ensemble e)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree7(e->id, e->steps, e->its, e->conv, e->failed, e->havepoly, e->stop));
  PetscCall(PetscFree7(e->q0, e->p0, e->Qprev, e->G, e->f0, e->q1, e->p1));
  PetscCall(PetscFree3(e->live, e->pid, e->pt));
  PetscCall(PetscFree4(e->px, e->pv, e->pP, e->pG));
  PetscCall(PetscFree4(e->pPx, e->pPv, e->pGx, e->pGv));
  PetscCall(PetscFree2(e->blk, e->lu));
  PetscCall(PetscFree6(e->cx, e->cv, e->cPx, e->cPv, e->cGx, e->cGv));
  PetscCall(PetscFree2(e->ct, e->cid));
  PetscFunctionReturn(0);
}

/* The work space of a batch (EnsembleSolve() makes it; a program may use it to inspect the system, e.g. its Jacobian) */
static inline PetscErrorCode EnsembleSetUp(Ensemble e)
{
  PetscFunctionBeginUser;
  PetscCheck(e->mechanics, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "EnsembleSetMechanics() first");
  if (!e->id) PetscCall(EnsembleAllocate(e));
  e->nb = 0;
  PetscFunctionReturn(0);
}

static inline PetscErrorCode EnsembleReset(Ensemble e)
{
  PetscFunctionBeginUser;
  PetscCall(EnsembleResize(e, 0));
  if (e->id) PetscCall(EnsembleFree(e));
  e->id = NULL;
  PetscFunctionReturn(0);
}

/*
  EnsembleCreate - an ensemble of members of n positions, integrated with the scheme of the TSSIMPVI ts (its table is
  copied: ts may be destroyed afterwards)
*/
static inline PetscErrorCode EnsembleCreate(TS ts, PetscInt n, Ensemble *ens)
{
  Ensemble         e;
  PetscInt         s, nq;
  const PetscReal *c;

  PetscFunctionBeginUser;
  PetscCall(TSSimpVIGetTableau(ts, &s, &nq, &c, NULL, NULL, NULL, NULL));
  PetscCall(PetscNew(&e));
  e->n     = n;
  e->s     = s;
  e->nq    = nq;
  e->bs    = s * n;
  e->batch = 1024;
  e->h     = 1;
  PetscCall(TSSimpVICreateKernel(ts, &e->kernel));
  PetscCall(SimpVIKernelSetStepSize(e->kernel, e->h));
  PetscCall(PetscMalloc3(s + 1, &e->c, s * (s + 1), &e->phi, 4 * nq, &e->xptr));
  PetscCall(PetscArraycpy(e->c, c, s + 1));
  /* the Lagrange basis of the nodes at 1 + c_a: the last step's polynomial extrapolated to the next step's nodes */
  for (PetscInt a = 1; a <= s; a++)
    for (PetscInt j = 0; j <= s; j++) {
      PetscReal phi = 1;

      for (PetscInt l = 0; l <= s; l++)
        if (l != j) phi *= (1 + c[a] - c[l]) / (c[j] - c[l]);
      e->phi[(a - 1) * (s + 1) + j] = phi;
    }
  *ens = e;
  PetscFunctionReturn(0);
}

static inline PetscErrorCode EnsembleSetMechanics(Ensemble e, EnsembleMechanicsFn f, void *ctx)
{
  PetscFunctionBeginUser;
  e->mechanics = f;
  e->mechctx   = ctx;
  PetscFunctionReturn(0);
}

/* The step h and the most steps of a member (members start at time 0) */
static inline PetscErrorCode EnsembleSetStep(Ensemble e, PetscReal h, PetscInt maxsteps)
{
  PetscFunctionBeginUser;
  e->h        = h;
  e->maxsteps = maxsteps;
  PetscCall(SimpVIKernelSetStepSize(e->kernel, h));
  PetscFunctionReturn(0);
}

/* -ensemble_batch <1024>: the most members in the batch */
static inline PetscErrorCode EnsembleSetFromOptions(Ensemble e)
{
  PetscFunctionBeginUser;
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "Ensemble options", NULL);
  PetscCall(PetscOptionsInt("-ensemble_batch", "The most members integrated together in one batched system", NULL, e->batch, &e->batch, NULL));
  PetscOptionsEnd();
  PetscCheck(e->batch >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-ensemble_batch must be positive");
  PetscFunctionReturn(0);
}

static inline PetscErrorCode EnsembleDestroy(Ensemble *e)
{
  PetscFunctionBeginUser;
  if (!*e) PetscFunctionReturn(0);
  PetscCall(EnsembleReset(*e));
  PetscCall(PetscFree3((*e)->c, (*e)->phi, (*e)->xptr));
  PetscCall(SimpVIKernelDestroy(&(*e)->kernel));
  PetscCall(PetscFree(*e));
  PetscFunctionReturn(0);
}

/* Slot b takes a member; its first predictor needs a velocity at q0: v0 = L_vv(q0, 0)^-1 (p0 - L_v(q0, 0)) (exact
   for L = 1/2 v' M(x) v - V(x)) */
static inline PetscErrorCode EnsembleStart(Ensemble e, PetscInt b, PetscInt id)
{
  const PetscInt n = e->n;

  PetscFunctionBeginUser;
  e->id[b]       = id;
  e->steps[b]    = 0;
  e->its[b]      = 0;
  e->failed[b]   = PETSC_FALSE;
  e->havepoly[b] = PETSC_FALSE;
  e->pid[0]      = id;
  e->pt[0]       = e->t0;
  PetscCall(PetscArrayzero(e->pv, n));
  PetscCall(e->mechanics(1, e->pid, e->pt, e->q0 + b * n, e->pv, e->pP, e->pG, e->pPx, e->pPv, e->pGx, e->pGv, e->mechctx));
  PetscCall(PetscArraycpy(e->lu, e->pPv, n * n));
  for (PetscInt d = 0; d < n; d++) e->q1[b * n + d] = e->p0[b * n + d] - e->pP[d]; /* q1: scratch for v0 until the first step */
  PetscCall(EnsembleDenseSolve(n, e->lu, e->q1 + b * n));
  PetscFunctionReturn(0);
}

/* The initial guess of every member's unknowns: the last step's polynomial at the new nodes, or Z_a = c_a h v0 */
static inline PetscErrorCode EnsemblePredict(Ensemble e)
{
  const PetscInt n = e->n, s = e->s, s1 = s + 1;
  PetscScalar   *y;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayWrite(e->Y, &y));
  PetscCall(PetscArrayzero(y, e->m * e->bs));
  for (PetscInt b = 0; b < e->nb; b++) {
    PetscScalar *z = y + b * e->bs;

    for (PetscInt a = 0; a < s; a++)
      for (PetscInt d = 0; d < n; d++) {
        if (e->havepoly[b]) {
          PetscReal sum = 0;

          for (PetscInt j = 0; j <= s; j++) sum += e->phi[a * s1 + j] * e->Qprev[(b * s1 + j) * n + d];
          z[a * n + d] = sum - e->q0[b * n + d];
        } else z[a * n + d] = e->c[a + 1] * e->h * e->q1[b * n + d];
      }
  }
  PetscCall(VecRestoreArrayWrite(e->Y, &y));
  PetscFunctionReturn(0);
}

/* The end of every solved step: q1 = q0 + Z_s, p1 = p0 + h sum_k w_k G_k, the nodes kept for the predictor */
static inline PetscErrorCode EnsembleFinishStep(Ensemble e)
{
  const PetscInt     n = e->n, s = e->s, s1 = s + 1, nq = e->nq;
  const PetscScalar *y;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(e->Y, &y));
  for (PetscInt b = 0; b < e->nb; b++) {
    const PetscScalar *z = y + b * e->bs;

    if (e->failed[b]) { /* it stays at the start of the failed step */
      PetscCall(PetscArraycpy(e->q1 + b * n, e->q0 + b * n, n));
      PetscCall(PetscArraycpy(e->p1 + b * n, e->p0 + b * n, n));
      continue;
    }
    for (PetscInt d = 0; d < n; d++) {
      e->Qprev[(b * s1) * n + d] = e->q0[b * n + d];
      for (PetscInt a = 1; a <= s; a++) e->Qprev[(b * s1 + a) * n + d] = e->q0[b * n + d] + z[(a - 1) * n + d];
      e->q1[b * n + d] = e->q0[b * n + d] + z[(s - 1) * n + d];
    }
    for (PetscInt k = 0; k < nq; k++) e->xptr[k] = e->G + (b * nq + k) * n;
    PetscCall(SimpVIKernelMomentum(e->kernel, n, e->p0 + b * n, (const PetscScalar *const *)e->xptr, e->p1 + b * n));
    e->havepoly[b] = PETSC_TRUE;
    e->steps[b]++;
  }
  PetscCall(VecRestoreArrayRead(e->Y, &y));
  PetscCall(PetscArraycpy(e->q0, e->q1, e->nb * n));
  PetscCall(PetscArraycpy(e->p0, e->p1, e->nb * n));
  PetscFunctionReturn(0);
}

/* Moves slot from into slot to (compaction) */
static inline PetscErrorCode EnsembleMove(Ensemble e, PetscInt to, PetscInt from)
{
  const PetscInt n = e->n, s1 = e->s + 1, nq = e->nq;

  PetscFunctionBeginUser;
  e->id[to]       = e->id[from];
  e->steps[to]    = e->steps[from];
  e->its[to]      = e->its[from];
  e->failed[to]   = e->failed[from];
  e->havepoly[to] = e->havepoly[from];
  PetscCall(PetscArraycpy(e->q0 + to * n, e->q0 + from * n, n));
  PetscCall(PetscArraycpy(e->p0 + to * n, e->p0 + from * n, n));
  PetscCall(PetscArraycpy(e->q1 + to * n, e->q1 + from * n, n));
  PetscCall(PetscArraycpy(e->Qprev + to * s1 * n, e->Qprev + from * s1 * n, s1 * n));
  PetscCall(PetscArraycpy(e->G + to * nq * n, e->G + from * nq * n, nq * n));
  PetscFunctionReturn(0);
}

/*
  EnsembleSolve - integrates every member that next() gives, the batch refilled as members finish; post-step after
  each step (it may stop members), done() once for each member. Not collective: one ensemble per process.
*/
static inline PetscErrorCode EnsembleSolve(Ensemble e, EnsembleNextFn next, EnsemblePostStepFn poststep, EnsembleDoneFn done, void *ctx)
{
  const PetscInt n    = e->n;
  PetscBool      more = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(EnsembleSetUp(e));
  while (PETSC_TRUE) {
    /* refill the free slots */
    while (more && e->nb < e->batch) {
      PetscInt id;

      PetscCall(next(&id, e->q0 + e->nb * n, e->p0 + e->nb * n, ctx));
      if (id < 0) more = PETSC_FALSE;
      else PetscCall(EnsembleStart(e, e->nb++, id));
    }
    if (!e->nb) break;
    /* the system: the full batch while members keep coming, then halved whenever half of it is idle */
    if (e->m < e->nb || (!more && 2 * e->nb <= e->m) || (more && e->m != e->batch)) PetscCall(EnsembleResize(e, more ? e->batch : e->nb));
    /* one step of every member */
    for (PetscInt b = 0; b < e->nb; b++) e->conv[b] = PETSC_FALSE;
    PetscCall(EnsemblePredict(e));
    PetscCall(SNESSolve(e->snes, NULL, e->Y));
    for (PetscInt b = 0; b < e->nb; b++)
      if (!e->conv[b]) e->failed[b] = PETSC_TRUE; /* the SNES stopped before this member converged */
    PetscCall(EnsembleFinishStep(e));
    PetscCall(PetscArrayzero(e->stop, e->nb));
    PetscCall(poststep(e->nb, e->id, e->steps, e->q0, e->p0, e->stop, ctx));
    /* members that are done leave; the last slot fills the gap */
    for (PetscInt b = 0; b < e->nb;) {
      EnsembleReason reason = e->failed[b] ? ENSEMBLE_FAILED : e->stop[b] ? ENSEMBLE_STOPPED : ENSEMBLE_MAX_STEPS;

      if (e->failed[b] || e->stop[b] || e->steps[b] >= e->maxsteps) {
        PetscCall(done(e->id[b], reason, e->steps[b], e->its[b], e->q0 + b * n, e->p0 + b * n, ctx));
        e->nb--;
        if (b < e->nb) {
          PetscCall(EnsembleMove(e, b, e->nb));
          e->stop[b] = e->stop[e->nb];
        }
      } else b++;
    }
  }
  PetscCall(EnsembleReset(e));
  PetscFunctionReturn(0);
}

#endif
