/*
   One step of every member of a batch. A member's step is that of a lone TSSIMPVI with the pointwise door, to the
   bit: the predictor of SimpVIStepPredict_Private() (none at the first step: the phase-space state has no velocity),
   the Newton iteration of SNESSIMPVIDENSE with SNESConvergedDefault() on the TS's SNES tolerances (full steps, the
   kernel's residual and Jacobian, LAPACK's LU), the end as TSStep_SimpVI() makes it (Kahan-compensated or not) and the
   time control of TSSolve() and TSAdaptChoose() (matchstep's last step). The members iterate side by side: each
   Newton iteration evaluates the points of every member still iterating in one call of the pointwise function, and
   every other number of a member is computed from its own numbers only.
*/
#include <simpvi/private/ensembleimpl.h>
#include <simpvi/private/compat.h>
#include <simpvi/private/snesdense.h> /* the LU and its solve, as SNESSIMPVIDENSE makes them */

/* the predictor's limit of SimpVIStepPredict_Private() (src/core/step.c) */
#define SIMPVI_PREDICT_MAX_RATIO 10

static PetscReal Norm2(PetscInt m, const PetscScalar *x)
{
  PetscReal sum = 0;

  for (PetscInt j = 0; j < m; j++) sum += PetscRealPart(x[j] * PetscConj(x[j]));
  return PetscSqrtReal(sum);
}

/* The first step's size: TSSolve()'s clip of a matchstep run to the final time */
static PetscReal FirstStep(const SimpVIEnsembleControl *ctl)
{
  const PetscReal dt = ctl->h, maxdt = ctl->tmax - ctl->t0;

  if (ctl->eftopt != TS_EXACTFINALTIME_MATCHSTEP) return dt;
  return dt >= maxdt ? maxdt : (PetscIsCloseAtTol(dt, maxdt, 10 * PETSC_MACHINE_EPSILON, 0) ? maxdt : dt);
}

/*
  SimpVIEnsembleBatchStart_Private - slot b takes member id: its parameters and initial state from the member
  function, at the TS's start time; a member with nothing to do (no steps, or no time left) is done at once
*/
PetscErrorCode SimpVIEnsembleBatchStart_Private(SimpVIEnsemble ens, PetscInt b, PetscInt id)
{
  SimpVIEnsembleBatch         *B   = &ens->batch;
  const SimpVIEnsembleControl *ctl = &ens->ctl;
  const PetscInt               n   = ens->n;

  PetscFunctionBegin;
  for (PetscInt j = 0; j < B->B; j++) /* its parameters are new (a member may come back in another solve) */
    if (B->packed[j] == id) B->packed[j] = -1;
  B->member[b]   = id;
  B->steps[b]    = 0;
  B->its[b]      = 0;
  B->t[b]        = ctl->t0;
  B->ct[b]       = 0;
  B->hnext[b]    = FirstStep(ctl);
  B->havepoly[b] = PETSC_FALSE;
  B->reason[b]   = SIMPVI_ENSEMBLE_ITERATING;
  PetscCall(PetscArrayzero(B->cq + b * n, n));
  PetscCall(PetscArrayzero(B->cp + b * n, n));
  PetscCall(ens->memberfn(ens, id, ens->nparam, B->param + b * PetscMax(ens->nparam, 1), n, B->q + b * n, B->p + b * n, ens->memberctx));
  if (ctl->maxsteps <= 0) B->reason[b] = SIMPVI_ENSEMBLE_CONVERGED_ITS;
  else if (ctl->t0 >= ctl->tmax) B->reason[b] = SIMPVI_ENSEMBLE_CONVERGED_TIME;
  PetscFunctionReturn(0);
}

/* The initial guess of slot b's step from t with step h: the last step's polynomial at the new nodes (its velocity at
   its end, for a step far longer than it), or zero */
static PetscErrorCode Predict(SimpVIEnsemble ens, PetscInt b)
{
  SimpVIEnsembleBatch *B = &ens->batch;
  const PetscInt       s = ens->s, n = ens->n;
  const PetscReal      t = B->t[b], h = B->h[b], tprev = B->tprev[b], hprev = B->hprev[b];
  const PetscReal     *q0 = B->q + b * n, tol = 1e-12 * PetscMax(1, PetscAbsReal(t));
  const PetscScalar   *Q[16];
  PetscScalar         *y    = B->Z + b * ens->m;
  const PetscBool      poly = (PetscBool)(B->havepoly[b] && t >= tprev - tol && t <= tprev + hprev + tol);
  PetscReal            start;
  PetscBool            far;

  PetscFunctionBegin;
  PetscCheck(s < 16, PETSC_COMM_SELF, PETSC_ERR_SUP, "Ensembles take schemes of degree up to 15");
  PetscCall(PetscArrayzero(y, ens->m));
  if (!poly) PetscFunctionReturn(0);
  start = PetscAbsReal(tprev + hprev - t) <= tol ? 1 : (t - tprev) / hprev;
  far   = (PetscBool)(start + h / hprev > 1 + SIMPVI_PREDICT_MAX_RATIO);
  if (!far) { /* nor where the extrapolation would amplify round-off beyond use (high degrees) */
    PetscCall(SimpVISchemePredictBasis_Private(&ens->scheme, start, h, hprev, B->predx, B->predphi, &B->predamp));
    far = (PetscBool)(B->predamp > SIMPVI_PREDICT_MAX_AMPLIFICATION);
  }
  for (PetscInt j = 0; j <= s; j++) Q[j] = B->Qprev + (b * (s + 1) + j) * n;
  if (far) PetscCall(SimpVISchemeBasis_Private(&ens->scheme, start, B->farphi, B->dphi));
  for (PetscInt a = 0; a < s; a++) {
    const PetscReal c  = ens->scheme.c[a + 1];
    PetscScalar    *ya = y + a * n;

    if (far) {
      for (PetscInt i = 0; i <= s; i++) {
        const PetscReal f = c * h / hprev * B->dphi[i];

        for (PetscInt j = 0; j < n; j++) ya[j] += f * Q[i][j];
      }
    } else {
      const PetscReal *phi = &B->predphi[a * (s + 1)];

      SimpVIMAXPY(n, ya, s + 1, phi, Q);
      for (PetscInt j = 0; j < n; j++) ya[j] -= q0[j];
    }
  }
  PetscFunctionReturn(0);
}

/* The points of the live slots by the kernel, packed, and the pointwise function at all of them with the derivatives
   (the dense Newton asks for the Jacobian at each iterate it evaluates) */
static PetscErrorCode Evaluate(SimpVIEnsemble ens)
{
  SimpVIEnsembleBatch *B = &ens->batch;
  const PetscInt       n = ens->n, nq = ens->nq, np = ens->nparam, np1 = PetscMax(np, 1), nn = n * n;
  const PetscInt       N  = B->nlive * nq;
  PetscScalar        **xp = B->ptr, **vp = B->ptr + nq;

  PetscFunctionBegin;
  if (!B->nlive) PetscFunctionReturn(0);
  for (PetscInt j = 0; j < B->nlive; j++) {
    const PetscInt b = B->slot[j];

    PetscCall(SimpVIKernelSetStepSize(ens->kernel, B->h[b]));
    if (B->packed[j] != B->member[b] || B->packedt[j] != B->t[b] || B->packedh[j] != B->h[b]) { /* a member or a step new at j: not every iteration */
      PetscCall(SimpVIKernelTimes(ens->kernel, B->t[b], B->pt + j * nq));
      for (PetscInt k = 0; k < nq; k++) {
        B->pmember[j * nq + k] = B->member[b];
        for (PetscInt i = 0; i < np; i++) B->pparam[(j * nq + k) * np + i] = B->param[b * np1 + i];
      }
      B->packed[j]  = B->member[b];
      B->packedt[j] = B->t[b];
      B->packedh[j] = B->h[b];
    }
    for (PetscInt k = 0; k < nq; k++) {
      xp[k] = B->px + (j * nq + k) * n;
      vp[k] = B->pv + (j * nq + k) * n;
    }
    PetscCall(SimpVIKernelPoints(ens->kernel, n, B->q + b * n, B->Z + b * ens->m, xp, vp));
  }
  PetscCall(ens->pointwise(ens, N, n, B->pmember, np, B->pparam, B->pt, B->px, B->pv, NULL, B->pP, B->pG, B->pD, B->pD + N * nn, B->pD + 2 * N * nn, B->pD + 3 * N * nn, ens->pointwisectx));
  for (PetscInt j = 0; j < B->nlive; j++) B->nfuncs[B->slot[j]]++;
  PetscFunctionReturn(0);
}

/* Packed slot j's arrays: P and G at its points (ptr[0..nq), ptr[nq..2nq)), or their derivatives (ptr[0..4nq)) */
static void PackedValues(SimpVIEnsemble ens, PetscInt j, const PetscScalar **ptr)
{
  const SimpVIEnsembleBatch *B = &ens->batch;
  const PetscInt             n = ens->n, nq = ens->nq;

  for (PetscInt k = 0; k < nq; k++) {
    ptr[k]      = B->pP + (j * nq + k) * n;
    ptr[nq + k] = B->pG + (j * nq + k) * n;
  }
}

static void PackedDerivatives(SimpVIEnsemble ens, PetscInt j, const PetscScalar **ptr)
{
  const SimpVIEnsembleBatch *B  = &ens->batch;
  const PetscInt             nn = ens->n * ens->n, nq = ens->nq, N = B->nlive * nq;

  for (PetscInt blk = 0; blk < 4; blk++)
    for (PetscInt k = 0; k < nq; k++) ptr[blk * nq + k] = B->pD + blk * N * nn + (j * nq + k) * nn;
}

/* SNESConvergedDefault() for slot b, then SNESSIMPVIDENSE's iteration limit: >0 converged, <0 diverged, 0 iterating */
static PetscInt Converged(SimpVIEnsemble ens, PetscInt b, PetscInt it, PetscReal xnorm, PetscReal ynorm, PetscReal fnorm)
{
  const SimpVIEnsembleControl *ctl    = &ens->ctl;
  SimpVIEnsembleBatch         *B      = &ens->batch;
  PetscInt                     reason = 0;

  if (!it) {
    B->ttol[b]   = fnorm * ctl->rtol;
    B->rnorm0[b] = fnorm;
  }
  if (PetscIsInfOrNanReal(fnorm)) reason = -1;
  else if (fnorm < ctl->atol && (it || !ctl->forceiteration)) reason = 1;
  else if (B->nfuncs[b] >= ctl->maxf && ctl->maxf >= 0) reason = -1;
  if (it && !reason) {
    if (fnorm <= B->ttol[b]) reason = 1;
    else if (ynorm < ctl->stol * xnorm) reason = 1;
    else if (ctl->divtol > 0 && fnorm > ctl->divtol * B->rnorm0[b]) reason = -1;
  }
  if (!reason && it == ctl->maxit) reason = -1;
  return reason;
}

/* The residual of packed slot j at its iterate; its Newton's verdict there (it the iterations taken) */
static PetscErrorCode Residual(SimpVIEnsemble ens, PetscInt j, PetscInt it, PetscReal xnorm, PetscReal ynorm, PetscInt *reason)
{
  SimpVIEnsembleBatch *B = &ens->batch;
  const PetscInt       b = B->slot[j], nq = ens->nq;
  const PetscScalar  **v = (const PetscScalar **)B->ptr;
  PetscReal            fnorm;

  PetscFunctionBegin;
  PackedValues(ens, j, v);
  PetscCall(SimpVIKernelSetStepSize(ens->kernel, B->h[b]));
  PetscCall(SimpVIKernelResidual(ens->kernel, ens->n, B->p + b * ens->n, v, v + nq, B->R));
  fnorm = Norm2(ens->m, B->R);
  if (PetscIsInfOrNanReal(fnorm)) *reason = -1; /* SNESCheckFunctionNorm() */
  else *reason = Converged(ens, b, it, xnorm, ynorm, fnorm);
  PetscFunctionReturn(0);
}

/* A Newton step of packed slot j from the residual in B->R: the Jacobian by the kernel, LU (*ok false: singular or
   not finite), Z -= J^-1 R; the norms of the iterate and the update */
static PetscErrorCode NewtonStep(SimpVIEnsemble ens, PetscInt j, PetscBool *ok, PetscReal *xnorm, PetscReal *ynorm)
{
  SimpVIEnsembleBatch *B = &ens->batch;
  const PetscInt       b = B->slot[j], nq = ens->nq, m = ens->m;
  const PetscScalar  **d = (const PetscScalar **)B->ptr;
  PetscBLASInt         bm, one = 1, info = 0;
  PetscScalar         *z = B->Z + b * m;

  PetscFunctionBegin;
  PetscCall(PetscBLASIntCast(m, &bm));
  PackedDerivatives(ens, j, d);
  PetscCall(SimpVIKernelJacobian(ens->kernel, ens->n, d, d + nq, d + 2 * nq, d + 3 * nq, m, B->J));
  for (PetscInt r = 0; r < m; r++) /* row-major to column-major */
    for (PetscInt c = 0; c < m; c++) B->LU[c * m + r] = B->J[r * m + c];
  if (m < SIMPVI_DENSE_BLOCKED_MIN) { /* a Jacobian with a NaN or Inf fails at once: no trap to hold off (a push costs a malloc) */
    if (!SimpVIDenseAllFinite(m * m, B->LU)) info = 1;
    else info = SimpVIDenseLUFactor(bm, B->LU, B->piv);
  } else {
    PetscCall(PetscFPTrapPush(PETSC_FP_TRAP_OFF));
    PetscCallBLAS("LAPACKgetrf", LAPACKgetrf_(&bm, &bm, B->LU, &bm, B->piv, &info));
    PetscCall(PetscFPTrapPop());
  }
  for (PetscInt i = 0; i < m && !info; i++)
    if (!SimpVIDenseAllFinite(1, &B->LU[i * m + i])) info = 1;
  *ok = (PetscBool)(info == 0);
  if (!*ok) PetscFunctionReturn(0);
  PetscCall(PetscArraycpy(B->dy, B->R, m));
  if (m < SIMPVI_DENSE_BLOCKED_MIN) SimpVIDenseLUSolve(bm, B->LU, B->piv, B->dy);
  else {
    PetscCallBLAS("LAPACKgetrs", LAPACKgetrs_("N", &bm, &one, B->LU, &bm, B->piv, B->dy, &bm, &info));
    PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK getrs: argument %d is invalid", -(int)info);
  }
  for (PetscInt i = 0; i < m; i++) z[i] -= B->dy[i];
  *xnorm = Norm2(m, z);
  *ynorm = Norm2(m, B->dy);
  PetscFunctionReturn(0);
}

/* x1 = x0 + d with Kahan's compensation c, as TSSIMPVI's CompensatedAdd() (src/ts/tssimpvi.c) */
static void CompensatedAdd(PetscInt n, PetscReal x[], const PetscReal d[], PetscReal c[])
{
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal y = d[i] - c[i], sum = x[i] + y;

    c[i] = (sum - x[i]) - y;
    x[i] = sum;
  }
}

/* The end of packed slot j's solved step: the polynomial kept, (q, p) moved on, then the time and the next step's
   size as TSAdaptChoose() (matchstep) and AdvanceTime() (src/ts/tssimpvi.c) make them */
static PetscErrorCode Finish(SimpVIEnsemble ens, PetscInt j)
{
  SimpVIEnsembleBatch         *B   = &ens->batch;
  const SimpVIEnsembleControl *ctl = &ens->ctl;
  const PetscInt               b = B->slot[j], n = ens->n, s = ens->s, nq = ens->nq;
  const PetscScalar          **v = (const PetscScalar **)B->ptr;
  PetscReal                   *q = B->q + b * n, *p = B->p + b * n, *Q = B->Qprev + b * (s + 1) * n;
  const PetscReal             *z = B->Z + b * ens->m, h = B->h[b], t = B->t[b];
  PetscReal                    hn = h;

  PetscFunctionBegin;
  PackedValues(ens, j, v);
  PetscCall(SimpVIKernelSetStepSize(ens->kernel, h));
  PetscCall(PetscArraycpy(Q, q, n)); /* Q_0 = q0, Q_{a+1} = q0 + Z_a */
  for (PetscInt a = 0; a < s; a++)
    for (PetscInt i = 0; i < n; i++) Q[(a + 1) * n + i] = q[i] + z[a * n + i];
  B->tprev[b]    = t;
  B->hprev[b]    = h;
  B->havepoly[b] = PETSC_TRUE;
  if (ctl->compensated) {
    PetscCall(PetscArraycpy(B->dq, z + (s - 1) * n, n));
    PetscCall(SimpVIKernelMomentum(ens->kernel, n, NULL, v + nq, B->dp));
    CompensatedAdd(n, q, B->dq, B->cq + b * n);
    CompensatedAdd(n, p, B->dp, B->cp + b * n);
  } else {
    for (PetscInt i = 0; i < n; i++) q[i] = q[i] + z[(s - 1) * n + i];
    PetscCall(SimpVIKernelMomentum(ens->kernel, n, p, v + nq, p));
  }
  if (ctl->eftopt == TS_EXACTFINALTIME_MATCHSTEP) { /* TSAdaptChoose(): the next step ends on the final time */
    const PetscReal t1 = t + h, tend = t1 + hn, hmax = ctl->tmax - t1, a = 1.01, bb = 2.0;

    if (t1 < ctl->tmax && tend > ctl->tmax) hn = hmax;
    if (t1 < ctl->tmax && tend < ctl->tmax && h * bb > hmax) hn = hmax / 2;
    if (t1 < ctl->tmax && tend < ctl->tmax && h * a > hmax) hn = hmax;
  }
  if (ctl->compensated) { /* AdvanceTime() */
    const PetscReal y = h - B->ct[b], tc = t + y;

    B->ct[b] = (tc - t) - y;
    if (ctl->eftopt == TS_EXACTFINALTIME_MATCHSTEP && tc != ctl->tmax && ((tc < ctl->tmax && t + h >= ctl->tmax) || PetscAbsReal(tc - ctl->tmax) <= 8 * PETSC_MACHINE_EPSILON * PetscAbsReal(ctl->tmax))) {
      B->t[b]  = ctl->tmax;
      B->ct[b] = 0;
    } else B->t[b] = tc;
  } else B->t[b] = t + h;
  B->hnext[b] = hn;
  B->steps[b]++;
  if (B->steps[b] >= ctl->maxsteps) B->reason[b] = SIMPVI_ENSEMBLE_CONVERGED_ITS;
  else if (B->t[b] >= ctl->tmax) B->reason[b] = SIMPVI_ENSEMBLE_CONVERGED_TIME;
  if (ens->stopfn) {
    PetscBool stop = PETSC_FALSE;

    PetscCall(ens->stopfn(ens, B->member[b], ens->nparam, B->param + b * PetscMax(ens->nparam, 1), B->steps[b], B->t[b], n, q, p, &stop, ens->stopctx));
    if (stop) B->reason[b] = SIMPVI_ENSEMBLE_CONVERGED_USER;
  }
  PetscFunctionReturn(0);
}

/* Packed slot j's Newton ends: converged (its step finished) or failed (it stays at the step's start) */
static PetscErrorCode EndNewton(SimpVIEnsemble ens, PetscInt j, PetscInt verdict)
{
  SimpVIEnsembleBatch *B = &ens->batch;
  const PetscInt       b = B->slot[j];

  PetscFunctionBegin;
  B->live[b] = PETSC_FALSE;
  B->its[b] += B->iter[b];
  if (verdict > 0) PetscCall(Finish(ens, j));
  else B->reason[b] = SIMPVI_ENSEMBLE_DIVERGED_NONLINEAR_SOLVE;
  PetscFunctionReturn(0);
}

/* The live slots, packed in slot order */
static void Pack(SimpVIEnsembleBatch *B)
{
  B->nlive = 0;
  for (PetscInt b = 0; b < B->nb; b++)
    if (B->live[b]) B->slot[B->nlive++] = b;
}

/* The batch stop function once for the members whose step just ended well, packed in slot order into the points'
   arrays (free after the Newton iterations): every slot began the step iterating (SimpVIEnsembleSolve() takes the
   ended members out before the next step), so these are all but the failed ones */
static PetscErrorCode BatchStop(SimpVIEnsemble ens)
{
  SimpVIEnsembleBatch *B = &ens->batch;
  const PetscInt       n = ens->n, np = ens->nparam, np1 = PetscMax(np, 1);
  PetscInt             k = 0;

  PetscFunctionBegin;
  for (PetscInt j = 0; j < B->B; j++) B->packed[j] = -1; /* the points' arrays are this function's now */
  for (PetscInt b = 0; b < B->nb; b++) {
    if (B->reason[b] == SIMPVI_ENSEMBLE_DIVERGED_NONLINEAR_SOLVE) continue;
    B->slot[k]    = b;
    B->pmember[k] = B->member[b];
    B->pstep[k]   = B->steps[b];
    B->pt[k]      = B->t[b];
    B->pstop[k]   = PETSC_FALSE;
    PetscCall(PetscArraycpy(B->pparam + k * np, B->param + b * np1, np));
    PetscCall(PetscArraycpy(B->px + k * n, B->q + b * n, n));
    PetscCall(PetscArraycpy(B->pv + k * n, B->p + b * n, n));
    k++;
  }
  if (!k) PetscFunctionReturn(0);
  PetscCall(ens->batchstopfn(ens, k, B->pmember, np, B->pparam, B->pstep, B->pt, n, B->px, B->pv, B->pstop, ens->batchstopctx));
  for (PetscInt j = 0; j < k; j++)
    if (B->pstop[j]) B->reason[B->slot[j]] = SIMPVI_ENSEMBLE_CONVERGED_USER;
  PetscFunctionReturn(0);
}

/*
  SimpVIEnsembleBatchStep_Private - one step of every member of the batch still running (reason 0): predictor, the
  Newton iterations side by side (one call of the pointwise function per iteration), and each member's end
*/
PetscErrorCode SimpVIEnsembleBatchStep_Private(SimpVIEnsemble ens)
{
  SimpVIEnsembleBatch *B = &ens->batch;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SIMPVI_EnsembleStep, 0, 0, 0, 0));
  for (PetscInt b = 0; b < B->nb; b++) {
    B->live[b] = (PetscBool)(B->reason[b] == SIMPVI_ENSEMBLE_ITERATING);
    if (!B->live[b]) continue;
    B->h[b]      = B->hnext[b];
    B->iter[b]   = 0;
    B->nfuncs[b] = 0;
    B->xnorm[b]  = 0;
    B->ynorm[b]  = 0;
    PetscCall(Predict(ens, b));
  }
  Pack(B);
  while (B->nlive) {
    PetscCall(Evaluate(ens));
    /* the verdict at each live member's iterate (the residual in B->R), and a Newton step for those that go on */
    for (PetscInt j = 0; j < B->nlive; j++) {
      const PetscInt b       = B->slot[j];
      PetscInt       verdict = 0;
      PetscBool      ok      = PETSC_FALSE;

      PetscCall(Residual(ens, j, B->iter[b], B->xnorm[b], B->ynorm[b], &verdict));
      if (verdict) {
        PetscCall(EndNewton(ens, j, verdict));
        continue;
      }
      PetscCall(NewtonStep(ens, j, &ok, &B->xnorm[b], &B->ynorm[b]));
      if (!ok) PetscCall(EndNewton(ens, j, -1)); /* SNES_DIVERGED_LINEAR_SOLVE */
      else B->iter[b]++;
    }
    Pack(B);
  }
  if (ens->batchstopfn) PetscCall(BatchStop(ens));
  PetscCall(PetscLogEventEnd(SIMPVI_EnsembleStep, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* SimpVIEnsembleBatchMove_Private - slot from's member moves to slot to (a finished member's slot is filled) */
PetscErrorCode SimpVIEnsembleBatchMove_Private(SimpVIEnsemble ens, PetscInt to, PetscInt from)
{
  SimpVIEnsembleBatch *B = &ens->batch;
  const PetscInt       n = ens->n, np1 = PetscMax(ens->nparam, 1), s1 = ens->s + 1;

  PetscFunctionBegin;
  if (to == from) PetscFunctionReturn(0);
  B->member[to]   = B->member[from];
  B->steps[to]    = B->steps[from];
  B->its[to]      = B->its[from];
  B->t[to]        = B->t[from];
  B->ct[to]       = B->ct[from];
  B->hnext[to]    = B->hnext[from];
  B->tprev[to]    = B->tprev[from];
  B->hprev[to]    = B->hprev[from];
  B->havepoly[to] = B->havepoly[from];
  B->reason[to]   = B->reason[from];
  PetscCall(PetscArraycpy(B->param + to * np1, B->param + from * np1, np1));
  PetscCall(PetscArraycpy(B->q + to * n, B->q + from * n, n));
  PetscCall(PetscArraycpy(B->p + to * n, B->p + from * n, n));
  PetscCall(PetscArraycpy(B->cq + to * n, B->cq + from * n, n));
  PetscCall(PetscArraycpy(B->cp + to * n, B->cp + from * n, n));
  PetscCall(PetscArraycpy(B->Qprev + to * s1 * n, B->Qprev + from * s1 * n, s1 * n));
  PetscFunctionReturn(0);
}
