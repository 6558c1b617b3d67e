/*
   The step of TSSIMPVI as an object of its own (SimpVIStep): residual and analytic Jacobian of one step, for any
   scheme table (B, D, w) and any door, its predictor and its end (q1, p1). Knows nothing of TS; a solver drives it.

   Unknowns are the increments Z_i = Q_i - q_j of the node values Q_1..Q_s of the step polynomial; the equations are
     R_0 = p_j + dLd/dQ_0 = 0,   R_i = dLd/dQ_i = 0 (i = 1..s-1),   dLd/dQ_i = sum_k w_k [D_ki P_k + h B_ki G_k]
   with P = L_v, G = L_x at the quadrature points. The end momentum p_{j+1} = dLd/dQ_s is then explicit, so the
   solve costs what the s*n position system costs. The step vector is block-major on each process: stage a of the
   local part holds entries [a*nlocal, (a+1)*nlocal).
*/
#include <petsc/private/petscimpl.h>
#include <simpvi/private/stepimpl.h>

/* the predictor extrapolates the last step's polynomial to a step at most this many times longer (TSADAPTBASIC's default
   growth clip); beyond that it extrapolates linearly, from the polynomial's velocity at its end */
#define SIMPVI_PREDICT_MAX_RATIO 10

PetscLogEvent SIMPVI_Residual, SIMPVI_Jacobian;

/* X, V at every quadrature point of the step vector Y, by the kernel on the arrays */
static PetscErrorCode QuadraturePoints(SimpVIStep st, Vec Y)
{
  const PetscInt     nq = st->scheme->nq;
  const PetscScalar *y, *q0;
  PetscScalar      **x = st->xv, **v = st->xv + nq;

  PetscFunctionBegin;
  PetscCall(SimpVIKernelSetStepSize(st->kernel, st->h));
  PetscCall(VecGetArrayRead(Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  for (PetscInt k = 0; k < nq; k++) {
    PetscCall(VecGetArrayWrite(st->X[k], &x[k]));
    PetscCall(VecGetArrayWrite(st->V[k], &v[k]));
  }
  PetscCall(SimpVIKernelPoints(st->kernel, st->qmap->n, q0, y, x, v));
  for (PetscInt k = 0; k < nq; k++) {
    PetscCall(VecRestoreArrayWrite(st->X[k], &x[k]));
    PetscCall(VecRestoreArrayWrite(st->V[k], &v[k]));
  }
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(Y, &y));
  PetscFunctionReturn(0);
}

/* R(Y) by the kernel from P, G at the quadrature points of the last evaluation */
static PetscErrorCode ActionGradients(SimpVIStep st, Vec R)
{
  const PetscInt      nq = st->scheme->nq;
  const PetscScalar **P = st->parr, **G = st->parr + nq, *p0;
  PetscScalar        *r;

  PetscFunctionBegin;
  PetscCall(SimpVIKernelSetStepSize(st->kernel, st->h));
  for (PetscInt k = 0; k < nq; k++) {
    PetscCall(VecGetArrayRead(st->P[k], &P[k]));
    PetscCall(VecGetArrayRead(st->G[k], &G[k]));
  }
  PetscCall(VecGetArrayRead(st->p0, &p0));
  PetscCall(VecGetArrayWrite(R, &r));
  PetscCall(SimpVIKernelResidual(st->kernel, st->qmap->n, p0, P, G, r));
  PetscCall(VecRestoreArrayWrite(R, &r));
  PetscCall(VecRestoreArrayRead(st->p0, &p0));
  for (PetscInt k = 0; k < nq; k++) {
    PetscCall(VecRestoreArrayRead(st->P[k], &P[k]));
    PetscCall(VecRestoreArrayRead(st->G[k], &G[k]));
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIStepEvaluate_Private - X, V, P and G at the quadrature points of the step vector Y; skipped when Y has not
  changed since the last call
*/
PetscErrorCode SimpVIStepEvaluate_Private(SimpVIStep st, Vec Y)
{
  PetscBool same;

  PetscFunctionBegin;
  PetscCall(SimpVIStepStampMatch_Private(st, Y, &st->eval, &same));
  if (same) PetscFunctionReturn(0);
  PetscCall(QuadraturePoints(st, Y));
  for (PetscInt k = 0; k < st->scheme->nq; k++) PetscCall(st->door.pg(st->door.ctx, st->t + st->scheme->tau[k] * st->h, st->X[k], st->V[k], st->P[k], st->G[k]));
  PetscCall(SimpVIStepStamp_Private(st, Y, &st->eval));
  PetscFunctionReturn(0);
}

/* SimpVIStepStamp_Private - what an evaluation at the quadrature points of Y belongs to: Y, q0, t and h now */
PetscErrorCode SimpVIStepStamp_Private(SimpVIStep st, Vec Y, SimpVIStamp *stamp)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)Y, &stamp->id));
  PetscCall(PetscObjectStateGet((PetscObject)Y, &stamp->state));
  PetscCall(PetscObjectStateGet((PetscObject)st->q0, &stamp->q0state));
  stamp->h = st->h;
  stamp->t = st->t;
  PetscFunctionReturn(0);
}

/* SimpVIStepStampMatch_Private - whether an evaluation stamped so is that of Y as it is now */
PetscErrorCode SimpVIStepStampMatch_Private(SimpVIStep st, Vec Y, const SimpVIStamp *stamp, PetscBool *same)
{
  SimpVIStamp now;

  PetscFunctionBegin;
  PetscCall(SimpVIStepStamp_Private(st, Y, &now));
  *same = (PetscBool)(now.id == stamp->id && now.state == stamp->state && now.q0state == stamp->q0state && now.h == stamp->h && now.t == stamp->t);
  PetscFunctionReturn(0);
}

/* dp = base + h sum_k w_k G_k (base NULL: 0) at the solved step vector, by the kernel, from the small path's arrays
   when they hold that evaluation */
static PetscErrorCode MomentumSum(SimpVIStep st, Vec base, Vec dp)
{
  const PetscInt      nq = st->scheme->nq, n = st->qmap->n;
  const PetscScalar **G = st->parr, *b = NULL;
  PetscScalar        *d;
  PetscBool           arrays = PETSC_FALSE, update = PETSC_FALSE;

  PetscFunctionBegin;
  if (st->aG) PetscCall(SimpVIStepStampMatch_Private(st, st->Y, &st->astamp, &arrays));
  if (!arrays && st->edy) { /* Y the iterate after the arrays', accepted on its update (SimpVIStepNewtonAccept_Private()) */
    PetscCall(SimpVIStepStampMatch_Private(st, st->Y, &st->estamp, &update));
    arrays = update;
  }
  if (!arrays) PetscCall(SimpVIStepEvaluate_Private(st, st->Y));
  PetscCall(SimpVIKernelSetStepSize(st->kernel, st->h));
  for (PetscInt k = 0; k < nq; k++) {
    if (arrays) G[k] = st->aG + k * n;
    else PetscCall(VecGetArrayRead(st->G[k], &G[k]));
  }
  if (base) PetscCall(VecGetArrayRead(base, &b));
  PetscCall(VecGetArrayWrite(dp, &d));
  PetscCall(SimpVIKernelMomentum(st->kernel, n, b, G, d));
  if (update) { /* G's change over the update, Y - Y_arrays = -dY */
    PetscScalar **dxv = st->xv, *zero = st->ework + 2 * nq * n;

    for (PetscInt k = 0; k < 2 * nq; k++) dxv[k] = st->ework + k * n; /* the points' change dx, dv over dY */
    PetscCall(PetscArrayzero(zero, n));
    PetscCall(SimpVIKernelPoints(st->kernel, n, zero, st->edy, dxv, dxv + nq));
    for (PetscInt b = 2; b < 4; b++) /* Gx, Gv at each point, those of the kept Jacobian (PointsJacobian()) */
      for (PetscInt k = 0; k < nq; k++) st->dptr[b * nq + k] = st->eG + ((b - 2) * nq + k) * n * n;
    PetscCall(SimpVIKernelMomentumUpdate_Private(st->kernel, n, -1, (const PetscScalar *const *)dxv, (const PetscScalar *const *)(dxv + nq), st->dptr + 2 * nq, st->dptr + 3 * nq, d));
  }
  if (st->constrained) PetscCall(SimpVIStepConstraintMomentum_Private(st, b, d)); /* the constraint forces */
  PetscCall(VecRestoreArrayWrite(dp, &d));
  if (base) PetscCall(VecRestoreArrayRead(base, &b));
  if (!arrays)
    for (PetscInt k = 0; k < nq; k++) PetscCall(VecRestoreArrayRead(st->G[k], &G[k]));
  PetscFunctionReturn(0);
}

/* What the residual R was just computed at (Y's stamp, p0's state) and R's id and state, for ResidualCurrent() */
static PetscErrorCode ResidualRecord(SimpVIStep st, Vec Y, Vec R)
{
  PetscFunctionBegin;
  PetscCall(SimpVIStepStamp_Private(st, Y, &st->res));
  PetscCall(PetscObjectGetId((PetscObject)R, &st->resrid));
  PetscCall(PetscObjectStateGet((PetscObject)R, &st->resrstate));
  PetscCall(PetscObjectStateGet((PetscObject)st->p0, &st->resp0));
  PetscFunctionReturn(0);
}

/* Whether R holds the residual at Y of the current step: the last one computed, and nothing changed since */
static PetscErrorCode ResidualCurrent(SimpVIStep st, Vec Y, Vec R, PetscBool *current)
{
  PetscObjectId    rid;
  PetscObjectState rstate, p0;

  PetscFunctionBegin;
  PetscCall(SimpVIStepStampMatch_Private(st, Y, &st->res, current));
  PetscCall(PetscObjectGetId((PetscObject)R, &rid));
  PetscCall(PetscObjectStateGet((PetscObject)R, &rstate));
  PetscCall(PetscObjectStateGet((PetscObject)st->p0, &p0));
  *current = (PetscBool)(*current && rid == st->resrid && rstate == st->resrstate && p0 == st->resp0);
  PetscFunctionReturn(0);
}

/*
  SimpVIStepResidual_Private - R(Y) of the step from (q0, p0) at t with step h
*/
PetscErrorCode SimpVIStepResidual_Private(SimpVIStep st, Vec Y, Vec R)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SIMPVI_Residual, 0, Y, R, 0));
  PetscCall(SimpVIStepEvaluate_Private(st, Y));
  PetscCall(ActionGradients(st, R));
  if (st->constrained) PetscCall(SimpVIStepConstraintResidual_Private(st, Y, R));
  PetscCall(ResidualRecord(st, Y, R));
  PetscCall(PetscLogEventEnd(SIMPVI_Residual, 0, Y, R, 0));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepMomentum_Private - the end momentum p_{j+1} = dLd/dQ_s at the solved step vector st->Y, written as
  p_{j+1} = p_j + h sum_k w_k G_k: the same value once the step equations hold (the D rows sum to zero and the B rows
  to one), but a cyclic coordinate (G = 0) then keeps its momentum exactly, with no Newton residual leaking in
*/
PetscErrorCode SimpVIStepMomentum_Private(SimpVIStep st, Vec p1)
{
  PetscFunctionBegin;
  PetscCall(MomentumSum(st, st->p0, p1));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepAssembleTerms_Private - d2Ld/dQ_i dQ_l = sum_k w_k [D_ki B_kl Px + (1/h) D_ki D_kl Pv + h B_ki B_kl Gx +
  B_ki D_kl Gv] at the quadrature values of the last evaluation, given to add() term by term with its s x s
  coefficients: add(st, ctx, A, transpose, coef) adds coef (x) A (A'). Terms the door marks constant (a constant mass)
  have their coefficients summed over k and are given once.
*/
static PetscErrorCode AssembleTerms(SimpVIStep st, PetscBool withpg, PetscErrorCode (*add)(SimpVIStep, void *, Mat, PetscBool, const PetscScalar[]), void *ctx)
{
  const SimpVIScheme *sc = st->scheme;
  const PetscInt      s = sc->degree, s2 = s * s;
  const PetscInt      maxterms = st->door.maxterms;
  SimpVITerm         *terms = st->terms, *constant = st->terms + maxterms;
  PetscInt            nconstant = 0;
  PetscScalar        *coef = st->termcoef, *constcoef = st->termcoef + s2;
  SimpVIKernel        K = st->kernel;

  PetscFunctionBegin;
  PetscCall(SimpVIKernelSetStepSize(K, st->h));
  PetscCall(PetscArrayzero(constcoef, maxterms * s2));
  for (PetscInt k = 0; k < sc->nq; k++) {
    PetscInt nterms = 0;

    if (withpg) PetscCall(st->door.pg(st->door.ctx, st->t + sc->tau[k] * st->h, st->X[k], st->V[k], st->P[k], st->G[k]));
    PetscCall(st->door.terms(st->door.ctx, st->t + sc->tau[k] * st->h, st->X[k], st->V[k], K->need[k], &nterms, terms));
    for (PetscInt t = 0; t < nterms; t++) {
      if (!(K->need[k] & SIMPVI_NEED(terms[t].block))) continue; /* e.g. the Hessian at a Lobatto scheme's first node */
      PetscCall(SimpVIKernelJacobianTerm_Private(K, k, terms[t].block, terms[t].scale, coef));
      if (terms[t].constant) {
        PetscInt c = 0;

        while (c < nconstant && !(constant[c].A == terms[t].A && constant[c].block == terms[t].block && constant[c].transpose == terms[t].transpose)) c++;
        if (c == nconstant) constant[nconstant++] = terms[t];
        for (PetscInt j = 0; j < s2; j++) constcoef[c * s2 + j] += coef[j];
      } else PetscCall(add(st, ctx, terms[t].A, terms[t].transpose, coef));
    }
  }
  for (PetscInt c = 0; c < nconstant; c++) PetscCall(add(st, ctx, constant[c].A, constant[c].transpose, &constcoef[c * s2]));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepAssembleTerms_Private(SimpVIStep st, PetscErrorCode (*add)(SimpVIStep, void *, Mat, PetscBool, const PetscScalar[]), void *ctx)
{
  PetscFunctionBegin;
  PetscCall(AssembleTerms(st, PETSC_FALSE, add, ctx));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepResidualAndTerms_Private - the residual R(Y) and the terms of the Jacobian at Y (given to add()) in one pass
  over the quadrature points, P, G and the terms of each point one after the other: for a door whose pg and terms
  share a user callback (st->door.shared, a mass M(x)), which the door then calls once per point
*/
PetscErrorCode SimpVIStepResidualAndTerms_Private(SimpVIStep st, Vec Y, Vec R, PetscErrorCode (*add)(SimpVIStep, void *, Mat, PetscBool, const PetscScalar[]), void *ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SIMPVI_Residual, 0, Y, R, 0));
  PetscCall(QuadraturePoints(st, Y));
  PetscCall(AssembleTerms(st, PETSC_TRUE, add, ctx));
  PetscCall(ActionGradients(st, R));
  if (st->constrained) PetscCall(SimpVIStepConstraintResidual_Private(st, Y, R));
  PetscCall(SimpVIStepStamp_Private(st, Y, &st->eval));
  PetscCall(ResidualRecord(st, Y, R));
  PetscCall(PetscLogEventEnd(SIMPVI_Residual, 0, Y, R, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode AddToMat(SimpVIStep st, void *ctx, Mat A, PetscBool transpose, const PetscScalar coef[])
{
  PetscFunctionBegin;
  PetscCall(SimpVIMatAddBlocks_Private((Mat)ctx, st->qmap, A, transpose, st->scheme->degree, coef));
  PetscFunctionReturn(0);
}

static PetscErrorCode AssembleInto(void *ctx, Mat Jac)
{
  SimpVIStep st = (SimpVIStep)ctx;

  PetscFunctionBegin;
  PetscCall(SimpVIStepAssembleTerms_Private(st, AddToMat, Jac));
  if (st->constrained) PetscCall(SimpVIStepConstraintJacobian_Private(st, st->cY, Jac));
  PetscFunctionReturn(0);
}

/*
  Jacobian - the analytic Jacobian dR/dY, preallocated on first use from the pattern of the door's
  matrices (a MATPREALLOCATOR pass), so its sparsity is exactly that of the user's Hessian and mass blocks
*/
static PetscErrorCode Jacobian(SimpVIStep st, Vec Y, Mat Jac)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SIMPVI_Jacobian, 0, Y, Jac, 0));
  PetscCall(SimpVIStepEvaluate_Private(st, Y));
  st->cY = Y;
  PetscCall(SimpVIMatFill_Private(Jac, &st->Jpreallocated, AssembleInto, st));
  st->cY = NULL;
  PetscCall(PetscLogEventEnd(SIMPVI_Jacobian, 0, Y, Jac, 0));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepSolverJacobian_Private - the Jacobian for the solver's request at Y into B: the one B holds (simplified
  Newton, src/core/newton.c), that one made again at its recorded point, or a new one at Y. The adjoint's linearisation
  calls SimpVIStepJacobian_Private(), at Y always.
*/
PetscErrorCode SimpVIStepSolverJacobian_Private(SimpVIStep st, Vec Y, Mat B)
{
  PetscBool keep, remake;

  PetscFunctionBegin;
  PetscCall(SimpVIStepNewtonKeep_Private(st, (PetscBool)(B == st->J && st->Jvalid && st->Jh == st->h), &keep, &remake));
  if (keep) PetscFunctionReturn(0);
  if (remake) {
    PetscCall(SimpVIStepNewtonAtRecord_Private(st, NULL));
    PetscCall(SimpVIStepJacobian_Private(st, st->JY, B));
    PetscCall(SimpVIStepNewtonAtRecord_Private(st, NULL));
  } else {
    PetscCall(SimpVIStepJacobian_Private(st, Y, B));
    PetscCall(SimpVIStepNewtonRecord_Private(st, Y));
  }
  PetscFunctionReturn(0);
}

/* The probe r of a linear step's Jacobian, by global (stage, position) index so that it is the same on any number of
   processes, and the work space of LinearJacobianKept() */
static PetscErrorCode LinearProbeSetUp(SimpVIStep st)
{
  const PetscInt s = st->scheme->degree, n = st->qmap->n, N = st->qmap->N, lo = st->qmap->rstart;
  PetscScalar   *r;

  PetscFunctionBegin;
  if (st->Jr) PetscFunctionReturn(0);
  PetscCall(VecDuplicate(st->Y, &st->Jr));
  PetscCall(VecDuplicate(st->Y, &st->JJr));
  PetscCall(VecDuplicate(st->Y, &st->Jy));
  PetscCall(VecDuplicate(st->Y, &st->Jry));
  PetscCall(VecGetArrayWrite(st->Jr, &r));
  for (PetscInt a = 0; a < s; a++)
    for (PetscInt j = 0; j < n; j++) r[a * n + j] = 1 + 0.5 * PetscSinReal(1 + 0.7548776662 * (PetscReal)(a * N + lo + j));
  PetscCall(VecRestoreArrayWrite(st->Jr, &r));
  PetscFunctionReturn(0);
}

/*
  LinearJacobianKept - whether J, the Jacobian of a linear step (st->linear) assembled at an earlier step (or for
  another step size), is this step's too, so that neither J nor its factorization need be made again (a time-dependent linear
  problem changes it). R is affine in Y with slope J: R(Y + sigma r) - R(Y) = sigma J r for the fixed probe r, against
  J r kept at J's assembly; one residual more, instead of the door's second derivatives at every quadrature point, an
  assembly and a factorization. sigma, a power of two, puts sigma r far above Y and q0, and sigma J r far above p0 and
  the residual's terms at Y, so that their round-off neither hides a change nor makes one up: a change found wrongly
  costs an assembly, not the answer, and a change it misses leaves J r the same to SIMPVI_LINEAR_PROBE_RTOL.
*/
static PetscErrorCode LinearJacobianKept(SimpVIStep st, Vec Y, PetscBool *kept)
{
  PetscBool current = PETSC_FALSE;
  PetscReal jr, y, p, d, scale, sigma, g[4];

  PetscFunctionBegin;
  *kept = PETSC_FALSE;
  PetscCall(ResidualCurrent(st, Y, st->R, &current)); /* the solver has computed R(Y) before it asks for J */
  if (!current) PetscCall(SimpVIStepResidual_Private(st, Y, st->R));
  /* the scale of sigma decides the cost only: too small, the round-off of the terms at Y shows as a change of J, which is
     then assembled again. Those terms are bounded by J times Y and q0, and what does not grow with them (a force, a
     constant in P) shows in p0 or R(Y). Found at the first probe after an assembly and kept (2^30 to spare): a state
     grown far beyond it makes J assembled again, and sigma found again. 2-norms: bounds of every entry, by BLAS. */
  jr = st->JJrnorm;
  if (!(jr > 0)) PetscFunctionReturn(0);
  if (!st->Jsigma) {
    for (PetscInt i = 0; i < 4; i++) PetscCall(VecNormBegin(i == 0 ? Y : i == 1 ? st->q0 : i == 2 ? st->p0 : st->R, NORM_2, &g[i]));
    for (PetscInt i = 0; i < 4; i++) PetscCall(VecNormEnd(i == 0 ? Y : i == 1 ? st->q0 : i == 2 ? st->p0 : st->R, NORM_2, &g[i]));
    y          = g[0] + g[1];
    p          = g[2] + g[3];
    scale      = PetscMax(y / 0.5, p / jr); /* in units of Y; the probe's entries are 0.5 at least, J r's at most jr */
    st->Jsigma = PetscPowReal(2, PetscCeilReal(PetscLog2Real(scale > 0 ? scale : 1)) + 30);
  }
  sigma = st->Jsigma;
  if (PetscIsInfOrNanReal(sigma)) PetscFunctionReturn(0);
  PetscCall(VecWAXPY(st->Jy, sigma, st->Jr, Y));
  PetscCall(SimpVIStepResidual_Private(st, st->Jy, st->Jry));
  { /* d = ||R(Y + sigma r) - R(Y) - sigma J r||_inf = sigma ||(J(t) - J) r||_inf, in one pass */
    const PetscScalar *a, *b, *c;
    PetscInt           m;

    PetscCall(VecGetLocalSize(Y, &m));
    PetscCall(VecGetArrayRead(st->Jry, &a));
    PetscCall(VecGetArrayRead(st->R, &b));
    PetscCall(VecGetArrayRead(st->JJr, &c));
    d = 0;
    for (PetscInt j = 0; j < m; j++) d = PetscMax(d, PetscAbsScalar((a[j] - b[j]) - sigma * c[j]));
    PetscCall(VecRestoreArrayRead(st->Jry, &a));
    PetscCall(VecRestoreArrayRead(st->R, &b));
    PetscCall(VecRestoreArrayRead(st->JJr, &c));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &d, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)Y)));
  }
  *kept = (PetscBool)(d <= SIMPVI_LINEAR_PROBE_RTOL * sigma * jr);
  if (!*kept) PetscCall(PetscInfo(NULL, "Linear step at t = %g: J r changed by %g (relative); J assembled again\n", (double)st->t, (double)(d / (sigma * jr))));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepJacobian_Private - the step Jacobian at Y into J, for the solvers and the adjoint. A linear problem
  (st->linear) has a Jacobian independent of Y: it is kept within a step, and at a later step (or another step size)
  kept while LinearJacobianKept() finds it unchanged, so that J keeps its factorization; otherwise it is assembled again.
  The probe leaves the quadrature points at another Y: callers evaluate again at Y (the residual) after the Jacobian.
*/
PetscErrorCode SimpVIStepJacobian_Private(SimpVIStep st, Vec Y, Mat J)
{
  PetscBool kept = PETSC_FALSE;

  PetscFunctionBegin;
  if (st->linear && st->Jvalid) { /* also for another h: a last step clipped to the final time differs by round-off */
    if (st->Jt != st->t || st->Jh != st->h) PetscCall(LinearJacobianKept(st, Y, &kept));
    else kept = PETSC_TRUE;
  }
  if (!kept) {
    PetscCall(Jacobian(st, Y, J));
    if (st->linear) {
      PetscCall(LinearProbeSetUp(st));
      PetscCall(MatMult(J, st->Jr, st->JJr));
      PetscCall(VecNorm(st->JJr, NORM_INFINITY, &st->JJrnorm));
      st->Jsigma = 0; /* found again at the next probe */
    }
  }
  st->Jh     = st->h;
  st->Jt     = st->t;
  st->Jvalid = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepPredict_Private - initial guess for the increments: the previous step's polynomial at the new nodes, or c h v0.
  The polynomial is extrapolated for the next step, and evaluated inside its own step for a step retaken shorter (a
  roll-back) or for the partial step of an interpolation.
*/
PetscErrorCode SimpVIStepPredict_Private(SimpVIStep st)
{
  const SimpVIScheme *sc = st->scheme;
  const PetscInt      s = sc->degree, n = st->qmap->n;
  PetscScalar        *y;
  const PetscScalar  *q0, *v = NULL, **Q = st->parr;
  PetscReal          *phi = st->phi, tol = 1e-12 * PetscMax(1, PetscAbsReal(st->t));
  PetscBool           poly = (PetscBool)(st->havepoly && st->t >= st->tprev - tol && st->t <= st->tprev + st->hprev + tol);
  /* where the new step starts on the polynomial's [0, 1]: its end, unless a step is retaken or interpolated */
  PetscReal start = PetscAbsReal(st->tprev + st->hprev - st->t) <= tol ? 1 : (st->t - st->tprev) / st->hprev;

  /* a polynomial is not extrapolated far beyond its own step (after the tiny step that ends at an event, say): its
     error grows as (h/hprev)^s, and Newton started there may converge to another solution of the step's equations.
     The step then starts from the polynomial's velocity at its end, c h v1 (a tiny step's v1 is still good to a few
     digits, enough for Newton) */
  PetscBool  far  = (PetscBool)(poly && start + st->h / st->hprev > 1 + SIMPVI_PREDICT_MAX_RATIO);
  PetscReal *dphi = NULL;

  PetscFunctionBegin;
  if (poly && !far) { /* nor where the extrapolation would amplify round-off beyond use (high degrees) */
    PetscCall(SimpVISchemePredictBasis_Private(sc, start, st->h, st->hprev, st->predx, st->predphi, &st->predamp));
    far = (PetscBool)(st->predamp > SIMPVI_PREDICT_MAX_AMPLIFICATION);
  }
  /* on the arrays, summed as VecSet(), VecMAXPY() and VecAXPY() did */
  PetscCall(VecGetArrayWrite(st->Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  if (poly)
    for (PetscInt j = 0; j <= s; j++) PetscCall(VecGetArrayRead(st->Qprev[j], &Q[j]));
  else if (st->vvalid) PetscCall(VecGetArrayRead(st->v, &v));
  if (far) {
    PetscCall(PetscMalloc1(s + 1, &dphi));
    PetscCall(SimpVISchemeBasis_Private(sc, start, st->phi, dphi));
  }
  for (PetscInt a = 0; a < s; a++) {
    const PetscReal c  = sc->c[a + 1];
    PetscScalar    *ya = y + a * n;

    PetscCall(PetscArrayzero(ya, n));
    if (far) {
      for (PetscInt i = 0; i <= s; i++) {
        const PetscReal f = c * st->h / st->hprev * dphi[i];

        for (PetscInt j = 0; j < n; j++) ya[j] += f * Q[i][j];
      }
    } else if (poly) {
      phi = &st->predphi[a * (s + 1)];
      SimpVIMAXPY(n, ya, s + 1, phi, Q);
      for (PetscInt j = 0; j < n; j++) ya[j] -= q0[j];
    } else if (v)
      for (PetscInt j = 0; j < n; j++) ya[j] += c * st->h * v[j];
  }
  PetscCall(PetscFree(dphi));
  if (poly)
    for (PetscInt j = 0; j <= s; j++) PetscCall(VecRestoreArrayRead(st->Qprev[j], &Q[j]));
  else if (v) PetscCall(VecRestoreArrayRead(st->v, &v));
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayWrite(st->Y, &y));
  PetscFunctionReturn(0);
}

/* y = x (x: n local entries of an array the caller holds): VecCopy()'s logging and checks cost more than the copy on
   the small systems whose steps take microseconds */
static PetscErrorCode CopyArray(PetscInt n, const PetscScalar x[], Vec y)
{
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(y, &a));
  PetscCall(PetscArraycpy(a, x, n));
  PetscCall(VecRestoreArrayWrite(y, &a));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepAccept_Private - keeps the nodes of the solved step as the polynomial for dense output and the predictor, and
  its start (q0 is the first node; p0) for the partial steps of interpolation and a roll-back
*/
PetscErrorCode SimpVIStepAccept_Private(SimpVIStep st)
{
  const PetscInt     n = st->qmap->n;
  const PetscScalar *y, *q0;
  PetscScalar       *Q;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(st->Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  PetscCall(CopyArray(n, q0, st->Qprev[0]));
  for (PetscInt a = 0; a < st->scheme->degree; a++) { /* Q_{a+1} = q0 (+) Z_a */
    PetscCall(VecGetArrayWrite(st->Qprev[a + 1], &Q));
    PetscCall(st->kernel->space->retract(n, q0, y + a * n, Q));
    PetscCall(VecRestoreArrayWrite(st->Qprev[a + 1], &Q));
  }
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(st->Y, &y));
  PetscCall(VecGetArrayRead(st->p0, &q0));
  PetscCall(CopyArray(n, q0, st->pprev));
  PetscCall(VecRestoreArrayRead(st->p0, &q0));
  st->tprev    = st->t;
  st->hprev    = st->h;
  st->havepoly = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepFinish_Private - the end of the solved step: q1 = q0 (+) Z_s (the last block of the step vector), p1 = dLd/dQ_s
*/
PetscErrorCode SimpVIStepFinish_Private(SimpVIStep st, Vec q1, Vec p1)
{
  const PetscInt     s = st->scheme->degree, n = st->qmap->n;
  const PetscScalar *y, *q0;
  PetscScalar       *q;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(st->Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  PetscCall(VecGetArrayWrite(q1, &q));
  PetscCall(st->kernel->space->retract(n, q0, y + (s - 1) * n, q));
  PetscCall(VecRestoreArrayWrite(q1, &q));
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(st->Y, &y));
  PetscCall(SimpVIStepMomentum_Private(st, p1));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepCreate_Private(SimpVIStep *step)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(step));
  (*step)->lagjacobian = PETSC_TRUE;
  (*step)->newtonrtol  = SIMPVI_NEWTON_RTOL;
  (*step)->theta       = 1;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepSetUp_Private - the step work space for a scheme and a door, shaped on the positions q; the step matrix takes its options under prefix
*/
PetscErrorCode SimpVIStepSetUp_Private(SimpVIStep st, const SimpVIScheme *scheme, const SimpVIStepDoor *door, PetscBool linear, Vec q, const char prefix[])
{
  const PetscInt s = scheme->degree, nq = scheme->nq, m = door->nmultiplier;
  MPI_Comm       comm;
  PetscMPIInt    size;
  PetscInt       nloc, N, M = m;
  VecType        vtype;
  PetscLayout    layout;

  PetscFunctionBegin;
  PetscCall(SimpVIStepReset_Private(st));
  st->scheme      = scheme;
  st->door        = *door;
  st->constrained = (PetscBool)(door->constraint || door->vconstraint);
  st->linear      = (PetscBool)(linear && !st->constrained);  /* g(q) = 0 makes the step nonlinear */
  if (door->vconstraint) PetscCall(VecGetSize(door->cg, &M)); /* the multipliers of every process */
  PetscCall(PetscObjectGetComm((PetscObject)q, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(VecGetLocalSize(q, &nloc));
  PetscCall(VecGetSize(q, &N));
  PetscCall(VecGetType(q, &vtype));
  PetscCall(VecGetLayout(q, &layout));
  PetscCall(PetscLayoutReference(layout, &st->qmap));
  PetscCall(VecDuplicate(q, &st->q0));
  PetscCall(VecDuplicateVecs(q, s + 1, &st->Qprev));
  PetscCall(VecDuplicateVecs(q, nq, &st->X));
  PetscCall(VecDuplicateVecs(q, nq, &st->V));
  PetscCall(VecDuplicateVecs(q, nq, &st->P));
  PetscCall(VecDuplicateVecs(q, nq, &st->G));
  PetscCall(VecDuplicate(q, &st->p0));
  PetscCall(VecDuplicate(q, &st->pprev));
  PetscCall(VecDuplicate(q, &st->v));
  /* scratch of the scheme's size: a node gradient sums 2 nq terms; the Jacobian keeps the door's terms at a point and
     its constant ones, each with s x s coefficients */
  st->layout.nstored     = nloc; /* positions in a vector space: as many numbers as tangent directions */
  st->layout.ntangent    = nloc;
  st->layout.nmultiplier = m; /* each node's multipliers on this process: their s blocks follow its positions' in Y */
  st->layout.space       = &SimpVIConfigurationVectorSpace;
  PetscCall(SimpVIKernelCreate_Private(scheme, &st->kernel));
  st->kernel->space = st->layout.space;
  PetscCall(PetscMalloc3(s + 1, &st->phi, 2 * nq + s + 1, &st->parr, 2 * nq, &st->xv));
  PetscCall(PetscMalloc2(2 * st->door.maxterms, &st->terms, (1 + st->door.maxterms) * s * s, &st->termcoef));
  PetscCall(PetscMalloc2(s, &st->predx, s * (s + 1), &st->predphi));
  for (PetscInt a = 0; a < s; a++) st->predx[a] = PETSC_MAX_REAL;

  PetscCall(VecCreate(comm, &st->Y));
  PetscCall(VecSetSizes(st->Y, s * (nloc + m), s * (N + M)));
  PetscCall(VecSetType(st->Y, vtype));
  PetscCall(VecDuplicate(st->Y, &st->R));
  PetscCall(MatCreate(comm, &st->J));
  PetscCall(MatSetSizes(st->J, s * (nloc + m), s * (nloc + m), s * (N + M), s * (N + M)));
  PetscCall(MatSetType(st->J, MATAIJ));
  PetscCall(MatSetOptionsPrefix(st->J, prefix));
  PetscCall(MatSetFromOptions(st->J));
  { /* the step matrix is not symmetric: a symmetric format would keep one triangle and solve another matrix */
    PetscBool sym;

    PetscCall(PetscObjectTypeCompareAny((PetscObject)st->J, &sym, MATSBAIJ, MATSEQSBAIJ, MATMPISBAIJ, ""));
    PetscCheck(!sym, comm, PETSC_ERR_SUP, "The step matrix of TSSIMPVI is not symmetric: -ts_simpvi_mat_type %s would keep one triangle of it; use aij, baij or dense", ((PetscObject)st->J)->type_name);
  }
  st->Jpreallocated = PETSC_FALSE;
  st->Jvalid        = PETSC_FALSE;
  if (st->constrained) PetscCall(SimpVIStepConstraintsSetUp_Private(st));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepReset_Private(SimpVIStep st)
{
  PetscFunctionBegin;
  if (st->scheme) {
    const PetscInt s = st->scheme->degree, nq = st->scheme->nq;

    if (st->Qprev) PetscCall(VecDestroyVecs(s + 1, &st->Qprev));
    if (st->X) PetscCall(VecDestroyVecs(nq, &st->X));
    if (st->V) PetscCall(VecDestroyVecs(nq, &st->V));
    if (st->P) PetscCall(VecDestroyVecs(nq, &st->P));
    if (st->G) PetscCall(VecDestroyVecs(nq, &st->G));
  }
  PetscCall(PetscFree3(st->phi, st->parr, st->xv));
  PetscCall(SimpVIStepSmallReset_Private(st));
  PetscCall(SimpVIStepConstraintsReset_Private(st));
  PetscCall(PetscFree2(st->terms, st->termcoef));
  PetscCall(PetscFree2(st->predx, st->predphi));
  PetscCall(SimpVIKernelDestroy(&st->kernel));
  PetscCall(VecDestroy(&st->q0));
  PetscCall(VecDestroy(&st->p0));
  PetscCall(VecDestroy(&st->pprev));
  PetscCall(VecDestroy(&st->v));
  PetscCall(VecDestroy(&st->Y));
  PetscCall(VecDestroy(&st->R));
  PetscCall(MatDestroy(&st->J));
  PetscCall(VecDestroy(&st->Jr));
  PetscCall(VecDestroy(&st->JY));
  PetscCall(VecDestroy(&st->Jq0));
  st->jrecorded = PETSC_FALSE;
  st->jremake   = PETSC_FALSE;
  PetscCall(VecDestroy(&st->JJr));
  PetscCall(VecDestroy(&st->Jy));
  PetscCall(VecDestroy(&st->Jry));
  PetscCall(PetscLayoutDestroy(&st->qmap));
  st->scheme      = NULL;
  st->constrained = PETSC_FALSE;
  st->havepoly    = PETSC_FALSE;
  st->vvalid      = PETSC_FALSE;
  st->eval.id     = 0;
  st->res.id      = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepDestroy_Private(SimpVIStep *step)
{
  PetscFunctionBegin;
  if (!*step) PetscFunctionReturn(0);
  PetscCall(SimpVIStepReset_Private(*step));
  PetscCall(PetscFree(*step));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepIncrements_Private - the increments of the solved step, dq = Z_s and dp = h sum_k w_k G_k, for an owner that
  adds them to (q0, p0) itself: a compensated sum keeps the low bits q0 + dq and p0 + dp round away
*/
PetscErrorCode SimpVIStepIncrements_Private(SimpVIStep st, Vec dq, Vec dp)
{
  const PetscInt     s = st->scheme->degree;
  const PetscScalar *y;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(st->Y, &y));
  PetscCall(CopyArray(st->qmap->n, y + (s - 1) * st->qmap->n, dq));
  PetscCall(VecRestoreArrayRead(st->Y, &y));
  PetscCall(MomentumSum(st, NULL, dp));
  PetscFunctionReturn(0);
}

/* The step as its owner (the TS type) sees it: its time, start, previous step, system and options, through these
   functions only */

/* SimpVIStepSetTime_Private - the step from t with step size h (its start set by the owner in the Vecs of
   SimpVIStepGetStart_Private()) */
PetscErrorCode SimpVIStepSetTime_Private(SimpVIStep st, PetscReal t, PetscReal h)
{
  PetscFunctionBegin;
  st->t = t;
  st->h = h;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepGetTime_Private(SimpVIStep st, PetscReal *t, PetscReal *h)
{
  PetscFunctionBegin;
  if (t) *t = st->t;
  if (h) *h = st->h;
  PetscFunctionReturn(0);
}

/* SimpVIStepGetStart_Private - the step's start (q0, p0) and a velocity v at q0, for the owner to fill; v serves the
   first predictor once SimpVIStepSetVelocity_Private() says it holds one. Any argument may be NULL. */
PetscErrorCode SimpVIStepGetStart_Private(SimpVIStep st, Vec *q0, Vec *p0, Vec *v)
{
  PetscFunctionBegin;
  if (q0) *q0 = st->q0;
  if (p0) *p0 = st->p0;
  if (v) *v = st->v;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepSetVelocity_Private(SimpVIStep st, PetscBool valid)
{
  PetscFunctionBegin;
  st->vvalid = valid;
  PetscFunctionReturn(0);
}

/* SimpVIStepGetPrevious_Private - the last solved step: whether there is one, its start time and size, its start
   (q0, p0). Any argument may be NULL. */
PetscErrorCode SimpVIStepGetPrevious_Private(SimpVIStep st, PetscBool *has, PetscReal *t, PetscReal *h, Vec *q0, Vec *p0)
{
  PetscFunctionBegin;
  if (has) *has = st->havepoly;
  if (t) *t = st->tprev;
  if (h) *h = st->hprev;
  if (q0) *q0 = st->Qprev ? st->Qprev[0] : NULL;
  if (p0) *p0 = st->pprev;
  PetscFunctionReturn(0);
}

/* SimpVIStepBeginPartial_Private - makes the step the part of the last solved step from its start to t (for dense
   output), remembering the step it was; SimpVIStepEndPartial_Private() gives that back */
PetscErrorCode SimpVIStepBeginPartial_Private(SimpVIStep st, PetscReal t)
{
  PetscFunctionBegin;
  PetscCheck(st->havepoly, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "No step to interpolate in");
  st->tsaved  = st->t;
  st->hsaved  = st->h;
  st->partial = PETSC_TRUE;
  st->t       = st->tprev;
  st->h       = t - st->tprev;
  PetscCall(VecCopy(st->Qprev[0], st->q0));
  PetscCall(VecCopy(st->pprev, st->p0));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepEndPartial_Private(SimpVIStep st)
{
  PetscFunctionBegin;
  st->t       = st->tsaved;
  st->h       = st->hsaved;
  st->partial = PETSC_FALSE;
  st->jremake = st->jrecorded; /* the partial step's Newton took the solver's Jacobian: the held one is made again */
  PetscFunctionReturn(0);
}

/* SimpVIStepGetSystem_Private - the step vector Y, its residual R and Jacobian J (any may be NULL) */
PetscErrorCode SimpVIStepGetSystem_Private(SimpVIStep st, Vec *Y, Vec *R, Mat *J)
{
  PetscFunctionBegin;
  if (Y) *Y = st->Y;
  if (R) *R = st->R;
  if (J) *J = st->J;
  PetscFunctionReturn(0);
}

/* SimpVIStepGetSizes_Private - the positions: local n and global N (0 before set-up) */
PetscErrorCode SimpVIStepGetSizes_Private(SimpVIStep st, PetscInt *n, PetscInt *N)
{
  PetscFunctionBegin;
  if (n) *n = st->qmap ? st->qmap->n : 0;
  if (N) *N = st->qmap ? st->qmap->N : 0;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepResidualScale_Private - the largest sum of magnitudes of the terms of a residual row at the last evaluation,
  fs = max_i |p0| delta_i0 + sum_k (|w_k D_ki| max|P_k| + |h w_k B_ki| max|G_k|): the scale of R's round-off
*/
PetscErrorCode SimpVIStepResidualScale_Private(SimpVIStep st, PetscReal *fs)
{
  const PetscInt nq = st->scheme->nq, s = st->scheme->degree;
  PetscReal      p0, *P, *G;

  PetscFunctionBegin;
  PetscCall(SimpVIKernelSetStepSize(st->kernel, st->h));
  PetscCall(PetscMalloc2(nq, &P, nq, &G));
  PetscCall(VecNorm(st->p0, NORM_INFINITY, &p0));
  for (PetscInt k = 0; k < nq; k++) {
    PetscCall(VecNorm(st->P[k], NORM_INFINITY, &P[k]));
    PetscCall(VecNorm(st->G[k], NORM_INFINITY, &G[k]));
  }
  *fs = 0;
  for (PetscInt i = 0; i < s; i++) {
    PetscReal a = i == 0 ? p0 : 0;

    for (PetscInt k = 0; k < nq; k++) a += PetscAbsReal(st->kernel->pc[i * nq + k]) * P[k] + PetscAbsReal(st->kernel->gc[i * nq + k]) * G[k];
    *fs = PetscMax(*fs, a);
  }
  PetscCall(PetscFree2(P, G));
  PetscFunctionReturn(0);
}

/* SimpVIStepHasPoints_Private - whether the door evaluates every quadrature point in one call on arrays */
PetscErrorCode SimpVIStepHasPoints_Private(SimpVIStep st, PetscBool *points)
{
  PetscFunctionBegin;
  *points = (PetscBool)(st->door.points != NULL);
  PetscFunctionReturn(0);
}

/* SimpVIStepGetPolynomial_Private - the last solved step's nodes Q_0..Q_s and start momentum, for a checkpoint to write or
   read (SimpVIStepSetPrevious_Private() then says what they are) */
PetscErrorCode SimpVIStepGetPolynomial_Private(SimpVIStep st, Vec **Q, Vec *pprev)
{
  PetscFunctionBegin;
  *Q     = st->Qprev;
  *pprev = st->pprev;
  PetscFunctionReturn(0);
}

/* SimpVIStepSetPrevious_Private - a restart's record of the last solved step: whether there is one, its start and size */
PetscErrorCode SimpVIStepSetPrevious_Private(SimpVIStep st, PetscBool has, PetscReal t, PetscReal h)
{
  PetscFunctionBegin;
  st->havepoly = has;
  st->tprev    = t;
  st->hprev    = h;
  PetscFunctionReturn(0);
}
