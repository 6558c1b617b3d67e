/*
   Linear stability of TSSIMPVI: the scheme's bound on h*omega (from its step map on the oscillator), an estimate of the
   problem's omega_max at the start (Lanczos on M^-1 K, K = -L_xx), and a per-step check that the state is not blowing
   up. Beyond the bound a Lobatto-quadrature scheme amplifies the fastest modes by a large factor per step, silently:
   these checks stop the run (or warn, -ts_simpvi_check_stability_warn) with the bound and the largest stable step.
*/
#include <simpvi/private/tssimpviimpl.h>

#define SIMPVI_STABILITY_ZMAX 50.0 /* bounds are looked for up to h*omega = 50; none below: "always stable" */
#define SIMPVI_STABILITY_DZ   0.01
#define SIMPVI_LANCZOS_STEPS  30
#define SIMPVI_GROWTH_FACTOR  10.0 /* per step, over SIMPVI_GROWTH_STEPS steps in a row: a blow-up */
#define SIMPVI_GROWTH_STEPS   3
#define SIMPVI_GROWTH_SLOW    1e3 /* the state's growth since omega_max was estimated that has it estimated again */

/* The step map of L = v^2/2 - q^2/2 (omega = 1, h = z): the step equations sum_l A_il Q_l = -p0 delta_i0 (i < s),
   Q_0 = q0, p1 = sum_l A_sl Q_l, with A_il the step Jacobian's coefficients (src/core/kernel.c) for P_v = 1, G_x = -1.
   Those are w D_i D_l / h and h w B_i B_l summed over the points, so A(z) = Apv / z - z Agx with Apv and Agx made once */
typedef struct {
  PetscInt   s;
  PetscReal *Apv, *Agx, *A, *G, *b;
} StepMap;

static PetscErrorCode StepMapCreate(const SimpVIScheme *sc, StepMap *map)
{
  const PetscInt s = sc->degree, s1 = s + 1;

  PetscFunctionBegin;
  map->s = s;
  PetscCall(PetscCalloc5(s1 * s1, &map->Apv, s1 * s1, &map->Agx, s1 * s1, &map->A, s * s, &map->G, 2 * s, &map->b));
  for (PetscInt k = 0; k < sc->nq; k++)
    for (PetscInt i = 0; i < s1; i++)
      for (PetscInt l = 0; l < s1; l++) {
        map->Apv[i * s1 + l] += SimpVIKernelCoefficient_Private(sc, 1, SIMPVI_BLOCK_PV, k, i, l);
        map->Agx[i * s1 + l] += SimpVIKernelCoefficient_Private(sc, 1, SIMPVI_BLOCK_GX, k, i, l);
      }
  PetscFunctionReturn(0);
}

static PetscErrorCode StepMapDestroy(StepMap *map)
{
  PetscFunctionBegin;
  PetscCall(PetscFree5(map->Apv, map->Agx, map->A, map->G, map->b));
  PetscFunctionReturn(0);
}

/* The trace of the step map (q0, p0) -> (q1, p1) at step z: its columns for (q0, p0) = (1, 0) and (0, 1) solved
   together (one elimination, two right-hand sides) */
static PetscReal StepMapTrace(StepMap *map, PetscReal z)
{
  const PetscInt s = map->s, s1 = s + 1;
  PetscReal     *A = map->A, *G = map->G, *b = map->b, *c = map->b + s, p1;

  for (PetscInt j = 0; j < s1 * s1; j++) A[j] = map->Apv[j] / z - z * map->Agx[j];
  for (PetscInt i = 0; i < s; i++) {
    for (PetscInt l = 1; l < s1; l++) G[i * s + l - 1] = A[i * s1 + l];
    b[i] = -A[i * s1];      /* q0 = 1 */
    c[i] = i == 0 ? -1 : 0; /* p0 = 1 */
  }
  for (PetscInt k = 0; k < s; k++) { /* Gaussian elimination with partial pivoting, s is small */
    PetscInt p = k;

    for (PetscInt r = k + 1; r < s; r++)
      if (PetscAbsReal(G[r * s + k]) > PetscAbsReal(G[p * s + k])) p = r;
    if (p != k) {
      for (PetscInt j = 0; j < s; j++) {
        PetscReal t  = G[k * s + j];
        G[k * s + j] = G[p * s + j];
        G[p * s + j] = t;
      }
      {
        PetscReal t = b[k], u = c[k];
        b[k] = b[p];
        b[p] = t;
        c[k] = c[p];
        c[p] = u;
      }
    }
    for (PetscInt r = k + 1; r < s; r++) {
      PetscReal f = G[r * s + k] / G[k * s + k];

      for (PetscInt j = k; j < s; j++) G[r * s + j] -= f * G[k * s + j];
      b[r] -= f * b[k];
      c[r] -= f * c[k];
    }
  }
  for (PetscInt k = s - 1; k >= 0; k--) {
    for (PetscInt j = k + 1; j < s; j++) {
      b[k] -= G[k * s + j] * b[j];
      c[k] -= G[k * s + j] * c[j];
    }
    b[k] /= G[k * s + k];
    c[k] /= G[k * s + k];
  }
  /* b holds Q_1..Q_s for (1, 0), whose q1 is Q_s; c those for (0, 1), whose p1 = sum_l A_sl Q_l (Q_0 = 0) */
  p1 = 0;
  for (PetscInt l = 1; l < s1; l++) p1 += A[s * s1 + l] * c[l - 1];
  return b[s - 1] + p1;
}

/* The bounds found so far in this process, by scheme table: the scan below costs as much as hundreds of small steps,
   and every TS of a scheme (an ensemble's members, a parameter study's runs) would repeat it */
typedef struct _BoundCache *BoundCache;
struct _BoundCache {
  PetscInt   degree, nq;
  PetscReal *w, *B, *D, bound;
  BoundCache next;
};
static BoundCache boundcache = NULL;

static PetscBool SameTable(const SimpVIScheme *sc, BoundCache e)
{
  const size_t n = (size_t)(sc->nq * (sc->degree + 1)) * sizeof(PetscReal);

  return (PetscBool)(e->degree == sc->degree && e->nq == sc->nq && !memcmp(e->w, sc->w, (size_t)sc->nq * sizeof(PetscReal)) && !memcmp(e->B, sc->B, n) && !memcmp(e->D, sc->D, n));
}

/* Frees the cache (SimpVIFinalizePackage()) */
PetscErrorCode SimpVISchemeStabilityBoundReset_Private(void)
{
  PetscFunctionBegin;
  while (boundcache) {
    BoundCache next = boundcache->next;

    PetscCall(PetscFree3(boundcache->w, boundcache->B, boundcache->D));
    PetscCall(PetscFree(boundcache));
    boundcache = next;
  }
  PetscFunctionReturn(0);
}

/*
  SimpVISchemeStabilityBound_Private - the scheme's linear stability bound on h*omega: the first z where the trace of the
  step map leaves (-2, 2), found on a grid of step 0.01 and refined by bisection; PETSC_INFINITY when there is none
  below h*omega = 50 (midpoint and Gauss schemes). Computed once per scheme table and process.
*/
PetscErrorCode SimpVISchemeStabilityBound_Private(const SimpVIScheme *sc, PetscReal *bound)
{
  const PetscInt n = sc->nq * (sc->degree + 1);
  StepMap        map;
  BoundCache     e;

  PetscFunctionBegin;
  for (e = boundcache; e; e = e->next)
    if (SameTable(sc, e)) {
      *bound = e->bound;
      PetscFunctionReturn(0);
    }
  *bound = PETSC_INFINITY;
  PetscCall(StepMapCreate(sc, &map));
  for (PetscReal z = SIMPVI_STABILITY_DZ; z <= SIMPVI_STABILITY_ZMAX; z += SIMPVI_STABILITY_DZ) {
    PetscReal lo, hi;

    if (PetscAbsReal(StepMapTrace(&map, z)) < 2) continue;
    lo = z - SIMPVI_STABILITY_DZ;
    hi = z;
    for (PetscInt it = 0; it < 50; it++) {
      PetscReal mid = (lo + hi) / 2;

      if (PetscAbsReal(StepMapTrace(&map, mid)) < 2) lo = mid;
      else hi = mid;
    }
    *bound = lo;
    break;
  }
  PetscCall(StepMapDestroy(&map));
  PetscCall(PetscNew(&e));
  e->degree = sc->degree;
  e->nq     = sc->nq;
  e->bound  = *bound;
  PetscCall(PetscMalloc3(sc->nq, &e->w, n, &e->B, n, &e->D));
  PetscCall(PetscArraycpy(e->w, sc->w, sc->nq));
  PetscCall(PetscArraycpy(e->B, sc->B, n));
  PetscCall(PetscArraycpy(e->D, sc->D, n));
  e->next    = boundcache;
  boundcache = e;
  PetscFunctionReturn(0);
}

/* The largest eigenvalue of the symmetric tridiagonal (alpha, beta) by bisection on its Sturm count */
static PetscReal TridiagonalMax(PetscInt n, const PetscReal alpha[], const PetscReal beta[])
{
  PetscReal lo, hi;

  if (n < 1) return 0;
  lo = hi = alpha[0];
  for (PetscInt i = 0; i < n; i++) { /* Gershgorin */
    PetscReal r = (i > 0 ? PetscAbsReal(beta[i - 1]) : 0) + (i < n - 1 ? PetscAbsReal(beta[i]) : 0);

    lo = PetscMin(lo, alpha[i] - r);
    hi = PetscMax(hi, alpha[i] + r);
  }
  for (PetscInt it = 0; it < 200 && hi - lo > 1e-14 * PetscMax(PetscAbsReal(lo), PetscAbsReal(hi)); it++) {
    PetscReal x = (lo + hi) / 2, d = 1;
    PetscInt  above = 0; /* eigenvalues above x */

    for (PetscInt i = 0; i < n; i++) {
      d = alpha[i] - x - (i > 0 ? beta[i - 1] * beta[i - 1] / d : 0);
      if (d == 0) d = 1e-300;
      if (d > 0) above++;
    }
    if (above > 0) lo = x;
    else hi = x;
  }
  return lo;
}

/* y = K x = -(sum of the L_xx terms) x */
static PetscErrorCode StiffnessMult(PetscInt n, const SimpVITerm terms[], Vec x, Vec y, Vec work)
{
  PetscFunctionBegin;
  PetscCall(VecSet(y, 0));
  for (PetscInt t = 0; t < n; t++) {
    if (terms[t].block != SIMPVI_BLOCK_GX) continue;
    if (terms[t].transpose) PetscCall(MatMultTranspose(terms[t].A, x, work));
    else PetscCall(MatMult(terms[t].A, x, work));
    PetscCall(VecAXPY(y, -terms[t].scale, work));
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIStabilityEstimate_Private - omega_max^2, the largest eigenvalue of K x = lambda M x at (t, x, v), with M = L_vv
  and K = -L_xx from the door's terms: a few Lanczos steps in the M inner product (a lower bound that converges fast
  at the top of the spectrum). Forces and gyroscopic terms are left out. Sets vi->omega (negative: no estimate).
*/
PetscErrorCode SimpVIStabilityEstimate_Private(TS ts, PetscReal t, Vec x, Vec v)
{
  TS_SimpVI         *vi     = (TS_SimpVI *)ts->data;
  SimpVIProblem     *prob   = vi->prob;
  SimpVITerm        *terms  = prob->terms;
  PetscInt           nterms = 0, npv = 0, ngx = 0, N, lo, hi, m = 0;
  Mat                M      = NULL;
  PetscScalar        Mscale = 1;
  KSP                ksp;
  Vec                u, uprev, Mu, Mprev, w, z, work;
  PetscReal          alpha[SIMPVI_LANCZOS_STEPS], beta[SIMPVI_LANCZOS_STEPS], b0, lmax;
  PetscScalar       *a, dot;
  KSPConvergedReason kspreason;

  PetscFunctionBegin;
  vi->omega = -1;
  PetscCall(prob->door->terms(ts, prob, t, x, v, SIMPVI_NEED(SIMPVI_BLOCK_PV) | SIMPVI_NEED(SIMPVI_BLOCK_GX), &nterms, terms));
  for (PetscInt k = 0; k < nterms; k++) {
    if (terms[k].block == SIMPVI_BLOCK_PV) {
      npv++;
      M      = terms[k].A;
      Mscale = terms[k].scale;
    }
    if (terms[k].block == SIMPVI_BLOCK_GX) ngx++;
  }
  if (npv != 1 || PetscRealPart(Mscale) <= 0) PetscFunctionReturn(0); /* not a mass we can invert: no estimate */
  if (!ngx) {                                                         /* no stiffness: nothing oscillates */
    vi->omega = 0;
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetSize(x, &N));
  PetscCall(VecDuplicate(x, &u));
  PetscCall(VecDuplicate(x, &uprev));
  PetscCall(VecDuplicate(x, &Mu));
  PetscCall(VecDuplicate(x, &Mprev));
  PetscCall(VecDuplicate(x, &w));
  PetscCall(VecDuplicate(x, &z));
  PetscCall(VecDuplicate(x, &work));
  { /* M is SPD and usually well conditioned: CG with Jacobi, no factor (and any matrix type, e.g. MPIDENSE) */
    PC pc;

    PetscCall(KSPCreate(PetscObjectComm((PetscObject)ts), &ksp));
    PetscCall(KSPSetOptionsPrefix(ksp, ((PetscObject)ts)->prefix));
    PetscCall(KSPAppendOptionsPrefix(ksp, "ts_simpvi_stability_"));
    PetscCall(KSPSetType(ksp, KSPCG));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
    PetscCall(KSPSetTolerances(ksp, 1e-10, 1e-300, PETSC_DEFAULT, 10 * N + 100));
    PetscCall(KSPSetFromOptions(ksp));
  }
  PetscCall(KSPSetOperators(ksp, M, M));

  /* a start with every mode in it, the same on any number of processes */
  PetscCall(VecGetOwnershipRange(u, &lo, &hi));
  PetscCall(VecGetArrayWrite(u, &a));
  for (PetscInt i = lo; i < hi; i++) a[i - lo] = 1 + 0.5 * PetscSinReal(1 + 0.7 * i);
  PetscCall(VecRestoreArrayWrite(u, &a));
  PetscCall(MatMult(M, u, Mu));
  PetscCall(VecScale(Mu, Mscale));
  PetscCall(VecDot(u, Mu, &dot));
  b0 = PetscSqrtReal(PetscRealPart(dot));
  PetscCall(VecScale(u, 1 / b0));
  PetscCall(VecScale(Mu, 1 / b0));
  PetscCall(VecSet(uprev, 0));
  PetscCall(VecSet(Mprev, 0));
  for (m = 0; m < PetscMin(N, SIMPVI_LANCZOS_STEPS); m++) {
    PetscCall(StiffnessMult(nterms, terms, u, w, work)); /* w = K u */
    PetscCall(VecDot(u, w, &dot));
    alpha[m] = PetscRealPart(dot);
    PetscCall(KSPSolve(ksp, w, z)); /* z = M^-1 K u - alpha u - beta u_prev, M z alongside */
    PetscCall(KSPGetConvergedReason(ksp, &kspreason));
    if (kspreason < 0) { /* M is not what CG can invert (singular, indefinite): no estimate */
      PetscCall(PetscInfo(ts, "no omega_max estimate: the mass solve failed (%s)\n", KSPConvergedReasons[kspreason]));
      m = 0;
      break;
    }
    PetscCall(VecScale(z, 1 / Mscale));
    PetscCall(VecAXPBYPCZ(z, -alpha[m], m ? -beta[m - 1] : 0, 1, u, uprev));
    PetscCall(VecAXPBYPCZ(w, -alpha[m], m ? -beta[m - 1] : 0, 1, Mu, Mprev));
    PetscCall(VecDot(z, w, &dot));
    beta[m] = PetscSqrtReal(PetscMax(PetscRealPart(dot), 0));
    if (!(beta[m] > 1e-12 * PetscAbsReal(alpha[m])) || PetscIsInfOrNanReal(beta[m])) {
      m++;
      break;
    }
    PetscCall(VecCopy(u, uprev));
    PetscCall(VecCopy(Mu, Mprev));
    PetscCall(VecAXPBY(u, 1 / beta[m], 0, z));
    PetscCall(VecAXPBY(Mu, 1 / beta[m], 0, w));
  }
  lmax = TridiagonalMax(m, alpha, beta);
  if (m > 0 && !PetscIsInfOrNanReal(lmax)) vi->omega = PetscSqrtReal(PetscMax(lmax, 0));
  vi->omegatime = t;
  PetscCall(PetscInfo(ts, "omega_max estimated at t = %g: %g (%" PetscInt_FMT " Lanczos steps)\n", (double)t, (double)vi->omega, m));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&uprev));
  PetscCall(VecDestroy(&Mu));
  PetscCall(VecDestroy(&Mprev));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&work));
  PetscFunctionReturn(0);
}

/* Stop (or warn once) on a detected instability; *stop: the step is to be refused (also the rigid bodies' check, src/ts/steprigid.c) */
PetscErrorCode SimpVIStabilityReport_Private(TS ts, const char msg[], PetscBool *stop)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  *stop = PETSC_FALSE;
  if (vi->stabilitywarn) {
    if (!vi->stabilitywarned) PetscCall(PetscPrintf(PetscObjectComm((PetscObject)ts), "WARNING: %s\n", msg));
    vi->stabilitywarned = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  PetscCheck(!ts->errorifstepfailed, PetscObjectComm((PetscObject)ts), PETSC_ERR_NOT_CONVERGED, "%s", msg);
  PetscCall(PetscInfo(ts, "%s\n", msg));
  ts->reason = TS_DIVERGED_STEP_REJECTED;
  *stop      = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* the bound, the largest stable step and the ways out, for the messages */
static PetscErrorCode Advice(TS ts, char buf[], size_t len)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(buf, len, "%s is stable for a linear system while h*omega_max < %.4g: with omega_max = %.6g (estimated from the mass and the Hessian at t = %g), use h < %.6g, or an unconditionally stable scheme (-ts_simpvi_type midpoint or gauss); an omega_max far above the system's own frequencies points to a wrong Hessian or mass instead (-snes_test_jacobian compares the step Jacobian with the residual's differences); -ts_simpvi_check_stability_warn only warns, -ts_simpvi_check_stability 0 skips the check", vi->type,
                          (double)vi->bound, (double)vi->omega, (double)vi->omegatime, vi->omega > 0 ? (double)(vi->bound / vi->omega) : 0.0));
  PetscFunctionReturn(0);
}

/*
  SimpVIStabilityCheckStep_Private - before a step of size h (the step's): h*omega_max against the scheme's bound. The
  estimate and the bound are made at the first step after set-up. *stop: the step is refused.
*/
PetscErrorCode SimpVIStabilityCheckStep_Private(TS ts, Vec x, Vec v, PetscBool *stop)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  char       msg[1024], advice[768];

  PetscReal h;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetTime_Private(vi->step, NULL, &h));
  *stop = PETSC_FALSE;
  if (!vi->checkstability) PetscFunctionReturn(0);
  /* a run from step 0 on a TS solved before: the program may have changed the mechanics (a stiffness) with the state */
  if (ts->steprestart && ts->steps == 0) vi->stabilityready = PETSC_FALSE;
  if (!vi->stabilityready) {
    PetscCall(SimpVISchemeStabilityBound_Private(vi->scheme, &vi->bound));
    if (vi->bound < PETSC_INFINITY) PetscCall(SimpVIStabilityEstimate_Private(ts, ts->ptime, x, v));
    else vi->omega = -1;
    vi->stabilityready = PETSC_TRUE;
    vi->growthref      = 0;
  }
  if (vi->omega <= 0 || h * vi->omega < vi->bound) PetscFunctionReturn(0);
  PetscCall(Advice(ts, advice, sizeof(advice)));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "TSSIMPVI step %" PetscInt_FMT " from t = %g: h*omega_max = %.4g with h = %g is beyond the linear stability bound; %s", ts->steps, (double)ts->ptime, (double)(h * vi->omega), (double)h, advice));
  PetscCall(SimpVIStabilityReport_Private(ts, msg, stop));
  PetscFunctionReturn(0);
}

/* The 2-norms of k Vecs in one pass and one reduction (the growth check runs at every step, whose cost on a small
   system is a few of VecNorm()'s); VecNorm()'s scaled sums where the squares overflow */
static PetscErrorCode Norms(PetscInt k, Vec x[], PetscReal norm[])
{
  PetscReal   sq[4] = {0, 0, 0, 0};
  PetscMPIInt size;
  MPI_Comm    comm = PetscObjectComm((PetscObject)x[0]);

  PetscFunctionBegin;
  PetscCheck(k <= 4, comm, PETSC_ERR_PLIB, "at most 4 Vecs");
  for (PetscInt i = 0; i < k; i++) {
    const PetscScalar *a;
    PetscInt           n;

    PetscCall(VecGetLocalSize(x[i], &n));
    PetscCall(VecGetArrayRead(x[i], &a));
    for (PetscInt j = 0; j < n; j++) sq[i] += PetscRealPart(a[j] * PetscConj(a[j]));
    PetscCall(VecRestoreArrayRead(x[i], &a));
  }
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size > 1) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, sq, (PetscMPIInt)k, MPIU_REAL, MPIU_SUM, comm));
  for (PetscInt i = 0; i < k; i++) {
    if (PetscIsInfOrNanReal(sq[i])) PetscCall(VecNorm(x[i], NORM_2, &norm[i])); /* (collective: sq[i] is the same on every rank) */
    else norm[i] = PetscSqrtReal(sq[i]);
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIStabilityCheckGrowth_Private - after a step from (q0, p0) to (q1, p1) (v: a velocity for the Hessian): a state that grew by more than a factor
  10 in both q and p for 3 steps in a row is taken as a numerical blow-up (resolved physical growth is far slower)
*/
PetscErrorCode SimpVIStabilityCheckGrowth_Private(TS ts, Vec q0, Vec p0, Vec q1, Vec p1, Vec v, PetscBool *stop)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscReal  n[4], rq, rp, h;
  char       msg[1024], advice[768];

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetTime_Private(vi->step, NULL, &h));
  *stop = PETSC_FALSE;
  if (!vi->checkstability) PetscFunctionReturn(0);
  PetscCall(Norms(4, (Vec[]){q0, p0, q1, p1}, n));
  rq = n[0] > 0 ? n[2] / n[0] : 1;
  rp = n[1] > 0 ? n[3] / n[1] : 1;
  if (PetscMin(rq, rp) > SIMPVI_GROWTH_FACTOR) {
    vi->growthsteps++;
    vi->growth *= PetscMin(rq, rp);
  } else {
    vi->growthsteps = 0;
    vi->growth      = 1;
  }
  if (vi->growthsteps < SIMPVI_GROWTH_STEPS) {
    /* a slower growth, by SIMPVI_GROWTH_SLOW since omega_max was estimated: estimated again there (a stiffness that
       grows with t or the state); beyond the bound now, the step is refused as before one */
    const PetscReal norm = PetscSqrtReal(n[2] * n[2] + n[3] * n[3]);

    if (!vi->growthref) vi->growthref = PetscMax(PetscSqrtReal(n[0] * n[0] + n[1] * n[1]), PETSC_SMALL);
    if (vi->bound < PETSC_INFINITY && norm > SIMPVI_GROWTH_SLOW * vi->growthref) {
      const PetscReal growth = norm / vi->growthref;

      PetscCall(SimpVIStabilityEstimate_Private(ts, ts->ptime + h, q1, v));
      vi->growthref = norm;
      if (vi->omega > 0 && h * vi->omega >= vi->bound) {
        PetscCall(Advice(ts, advice, sizeof(advice)));
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "TSSIMPVI step %" PetscInt_FMT " to t = %g with h = %g: the state grew by a factor %.3g since omega_max was estimated, and h*omega_max = %.4g now is beyond the linear stability bound (the stiffness grew with t or the state); %s", ts->steps, (double)(ts->ptime + h), (double)h, (double)growth, (double)(h * vi->omega), advice));
        PetscCall(SimpVIStabilityReport_Private(ts, msg, stop));
      }
    }
    PetscFunctionReturn(0);
  }
  advice[0] = 0;
  if (vi->bound < PETSC_INFINITY) PetscCall(SimpVIStabilityEstimate_Private(ts, ts->ptime + h, q1, v)); /* omega_max now */
  if (vi->bound < PETSC_INFINITY && vi->omega > 0) PetscCall(Advice(ts, advice, sizeof(advice)));
  else if (vi->bound < PETSC_INFINITY) PetscCall(PetscSNPrintf(advice, sizeof(advice), "%s is stable for a linear system while h*omega_max < %.4g", vi->type, (double)vi->bound));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "TSSIMPVI step %" PetscInt_FMT " to t = %g with h = %g: the state grew by a factor %.3g over the last %d steps, a numerical instability%s%s", ts->steps, (double)(ts->ptime + h), (double)h, (double)vi->growth, SIMPVI_GROWTH_STEPS, advice[0] ? "? " : "", advice));
  vi->growthsteps = 0;
  vi->growth      = 1;
  PetscCall(SimpVIStabilityReport_Private(ts, msg, stop));
  PetscFunctionReturn(0);
}

/*
  SimpVIStabilityHint_Private - for the message of a failed step solve from (x, v): the stability bound, only when the
  step is near or beyond it (h*omega_max, estimated at x, above half the bound) and the failure is not an Inf or NaN
  from a callback
*/
PetscErrorCode SimpVIStabilityHint_Private(TS ts, const char reason[], Vec x, Vec v, char buf[], size_t len)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  char      *nan1, *nan2;

  PetscReal h;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetTime_Private(vi->step, NULL, &h));
  buf[0] = 0;
  PetscCall(PetscStrstr(reason, "NAN", &nan1));
  PetscCall(PetscStrstr(reason, "NaN", &nan2));
  if (nan1 || nan2 || !vi->checkstability || !(vi->bound < PETSC_INFINITY)) PetscFunctionReturn(0);
  PetscCall(SimpVIStabilityEstimate_Private(ts, ts->ptime, x, v)); /* omega_max where the step failed */
  if (vi->omega <= 0 || h * vi->omega < vi->bound / 2) PetscFunctionReturn(0);
  PetscCall(PetscSNPrintf(buf, len, "; h*omega_max = %.4g at the step's start and %s is stable for a linear system while h*omega_max < %.4g (largest stable h %.6g)", (double)(h * vi->omega), vi->type, (double)vi->bound, (double)(vi->bound / vi->omega)));
  PetscFunctionReturn(0);
}
