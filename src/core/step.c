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
#include <simpvi/private/step.h>

/* the predictor extrapolates the last step's polynomial to a step at most this many times longer (TSADAPTBASIC's default
   growth clip); beyond that it extrapolates linearly, from the polynomial's velocity at its end */
#define SIMPVI_PREDICT_MAX_RATIO 10

PetscLogEvent SIMPVI_Residual, SIMPVI_Jacobian;

/* x[j] += sum_t a[t] y[t][j] for j < n, summed as PETSc's VecMAXPY_Seq() does (the remainder of nv mod 4 first, then
   groups of four, each group's products summed before they are added to x), so that the step's residual is the same to
   the last bit as when it was written with VecMAXPY() */
static inline void MAXPY(PetscInt n, PetscScalar *x, PetscInt nv, const PetscScalar a[], const PetscScalar *const y[])
{
  PetscInt t = nv & 0x3;

  switch (t) {
  case 3:
    for (PetscInt j = 0; j < n; j++) x[j] += a[0] * y[0][j] + a[1] * y[1][j] + a[2] * y[2][j];
    break;
  case 2:
    for (PetscInt j = 0; j < n; j++) x[j] += a[0] * y[0][j] + a[1] * y[1][j];
    break;
  case 1:
    for (PetscInt j = 0; j < n; j++) x[j] += a[0] * y[0][j];
    break;
  }
  for (; t < nv; t += 4)
    for (PetscInt j = 0; j < n; j++) x[j] += a[t] * y[t][j] + a[t + 1] * y[t + 1][j] + a[t + 2] * y[t + 2][j] + a[t + 3] * y[t + 3][j];
}

/* x_k = q0 + sum_i B_ki Z_i, v_k = (1/h) sum_i D_ki Z_i at every quadrature point (i = 1..s, Z the blocks of Y), since
   the basis sums to one and its derivatives to zero: working with increments spares v the round-off of (Q_i - Q_0)/h.
   On the arrays: one pass per point rather than a Vec operation per stage. */
static PetscErrorCode QuadraturePoints(SimpVIStep st, Vec Y)
{
  const SimpVIScheme *sc = st->scheme;
  const PetscInt      s = sc->degree, n = st->qmap->n;
  const PetscScalar  *y, *q0, **z = st->parr;
  PetscScalar        *coef = st->coef;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  for (PetscInt i = 0; i < s; i++) z[i] = y + i * n;
  for (PetscInt k = 0; k < sc->nq; k++) {
    PetscScalar *x, *v;

    PetscCall(VecGetArrayWrite(st->X[k], &x));
    PetscCall(VecGetArrayWrite(st->V[k], &v));
    PetscCall(PetscArraycpy(x, q0, n));
    for (PetscInt i = 1; i <= s; i++) coef[i - 1] = sc->B[k * (s + 1) + i];
    MAXPY(n, x, s, coef, z);
    PetscCall(PetscArrayzero(v, n));
    for (PetscInt i = 1; i <= s; i++) coef[i - 1] = sc->D[k * (s + 1) + i] / st->h;
    MAXPY(n, v, s, coef, z);
    PetscCall(VecRestoreArrayWrite(st->X[k], &x));
    PetscCall(VecRestoreArrayWrite(st->V[k], &v));
  }
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(Y, &y));
  PetscFunctionReturn(0);
}

/* r_i = sum_k w_k [D_ki P_k + h B_ki G_k] (+ p0 for i = 0), the derivative of the discrete action in node i, for every
   node at once on the arrays */
static PetscErrorCode ActionGradients(SimpVIStep st, Vec R)
{
  const SimpVIScheme *sc = st->scheme;
  const PetscInt      s = sc->degree, nq = sc->nq, n = st->qmap->n;
  const PetscScalar **PG = st->parr, **terms = st->parr + 2 * nq, *p0;
  PetscScalar        *r, *coef               = st->coef;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nq; k++) {
    PetscCall(VecGetArrayRead(st->P[k], &PG[2 * k]));
    PetscCall(VecGetArrayRead(st->G[k], &PG[2 * k + 1]));
  }
  PetscCall(VecGetArrayRead(st->p0, &p0));
  PetscCall(VecGetArrayWrite(R, &r));
  for (PetscInt i = 0; i < s; i++) {
    PetscInt nt = 0;

    for (PetscInt k = 0; k < nq; k++) {
      const PetscReal d = sc->w[k] * sc->D[k * (s + 1) + i], b = st->h * sc->w[k] * sc->B[k * (s + 1) + i];

      if (d != 0) {
        coef[nt]    = d;
        terms[nt++] = PG[2 * k];
      }
      if (b != 0) {
        coef[nt]    = b;
        terms[nt++] = PG[2 * k + 1];
      }
    }
    PetscCall(PetscArrayzero(r + i * n, n));
    MAXPY(n, r + i * n, nt, coef, terms);
  }
  for (PetscInt j = 0; j < n; j++) r[j] += p0[j];
  PetscCall(VecRestoreArrayWrite(R, &r));
  PetscCall(VecRestoreArrayRead(st->p0, &p0));
  for (PetscInt k = 0; k < nq; k++) {
    PetscCall(VecRestoreArrayRead(st->P[k], &PG[2 * k]));
    PetscCall(VecRestoreArrayRead(st->G[k], &PG[2 * k + 1]));
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

/* dp = base + h sum_k w_k G_k (base NULL: 0) at the solved step vector, from the small path's arrays when they hold
   that evaluation */
static PetscErrorCode MomentumSum(SimpVIStep st, Vec base, Vec dp)
{
  PetscBool arrays = PETSC_FALSE;

  PetscFunctionBegin;
  if (st->aG) PetscCall(SimpVIStepStampMatch_Private(st, st->Y, &st->astamp, &arrays));
  if (arrays) {
    const PetscInt     n = st->qmap->n;
    const PetscScalar *b = NULL;
    PetscScalar       *d;

    if (base) PetscCall(VecGetArrayRead(base, &b));
    PetscCall(VecGetArrayWrite(dp, &d));
    for (PetscInt j = 0; j < n; j++) d[j] = b ? b[j] : 0;
    for (PetscInt k = 0; k < st->scheme->nq; k++) {
      const PetscReal a = st->h * st->scheme->w[k];

      for (PetscInt j = 0; j < n; j++) d[j] += a * st->aG[k * n + j];
    }
    PetscCall(VecRestoreArrayWrite(dp, &d));
    if (base) PetscCall(VecRestoreArrayRead(base, &b));
    PetscFunctionReturn(0);
  }
  PetscCall(SimpVIStepEvaluate_Private(st, st->Y));
  if (base) PetscCall(VecCopy(base, dp));
  else PetscCall(VecSet(dp, 0));
  for (PetscInt k = 0; k < st->scheme->nq; k++) PetscCall(VecAXPY(dp, st->h * st->scheme->w[k], st->G[k]));
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

/* The coefficient of a term's matrix in block (i, l), at quadrature point k */
static void TermCoefficients(const SimpVIScheme *sc, PetscInt k, PetscReal h, const SimpVITerm *term, PetscScalar coef[])
{
  const PetscInt   s = sc->degree, s1 = s + 1;
  const PetscReal *B = &sc->B[k * s1], *D = &sc->D[k * s1], w = sc->w[k];

  for (PetscInt i = 0; i < s; i++) {
    for (PetscInt l = 1; l <= s; l++) {
      PetscReal c = 0;

      switch (term->block) {
      case SIMPVI_BLOCK_PX:
        c = w * D[i] * B[l];
        break;
      case SIMPVI_BLOCK_PV:
        c = w * D[i] * D[l] / h;
        break;
      case SIMPVI_BLOCK_GX:
        c = h * w * B[i] * B[l];
        break;
      case SIMPVI_BLOCK_GV:
        c = w * B[i] * D[l];
        break;
      }
      coef[i * s + l - 1] = term->scale * c;
    }
  }
}

static PetscBool AllZero(PetscInt n, const PetscScalar c[])
{
  for (PetscInt j = 0; j < n; j++)
    if (c[j] != 0) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* The coefficients of a unit term of each block at each quadrature point for the step size h, and the blocks each
   point needs (a Lobatto scheme's first node needs no G_x), kept until h changes: the same numbers as
   TermCoefficients() gives, computed once rather than at every Jacobian */
static void CoefficientTables(SimpVIStep st)
{
  const SimpVIScheme *sc = st->scheme;
  const PetscInt      s = sc->degree, s2 = s * s;

  if (st->ctabh == st->h) return;
  for (PetscInt k = 0; k < sc->nq; k++) {
    st->cneed[k] = 0;
    for (PetscInt b = SIMPVI_BLOCK_PX; b <= SIMPVI_BLOCK_GV; b++) {
      SimpVITerm   probe = {NULL, 1, (SimpVIBlock)b, PETSC_FALSE, PETSC_FALSE};
      PetscScalar *c     = &st->ctab[(k * 4 + b) * s2];

      TermCoefficients(sc, k, st->h, &probe, c);
      if (!AllZero(s2, c)) st->cneed[k] |= SIMPVI_NEED(b);
    }
  }
  st->ctabh = st->h;
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

  PetscFunctionBegin;
  CoefficientTables(st);
  PetscCall(PetscArrayzero(constcoef, maxterms * s2));
  for (PetscInt k = 0; k < sc->nq; k++) {
    PetscInt nterms = 0;

    if (withpg) PetscCall(st->door.pg(st->door.ctx, st->t + sc->tau[k] * st->h, st->X[k], st->V[k], st->P[k], st->G[k]));
    PetscCall(st->door.terms(st->door.ctx, st->t + sc->tau[k] * st->h, st->X[k], st->V[k], st->cneed[k], &nterms, terms));
    for (PetscInt t = 0; t < nterms; t++) {
      const PetscScalar *unit = &st->ctab[(k * 4 + terms[t].block) * s2];

      if (!(st->cneed[k] & SIMPVI_NEED(terms[t].block))) continue; /* e.g. the Hessian at a Lobatto scheme's first node */
      for (PetscInt j = 0; j < s2; j++) coef[j] = terms[t].scale * unit[j];
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
  PetscFunctionBegin;
  PetscCall(SimpVIStepAssembleTerms_Private((SimpVIStep)ctx, AddToMat, Jac));
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
  PetscCall(SimpVIMatFill_Private(Jac, &st->Jpreallocated, AssembleInto, st));
  PetscCall(PetscLogEventEnd(SIMPVI_Jacobian, 0, Y, Jac, 0));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepLagJacobian_Private - whether the Jacobian of an earlier Newton iteration (this step's or, with the same h,
  an earlier step's) may serve again (st->lagjacobian, -ts_simpvi_lag_jacobian): at the first iteration of a step, and
  at a later one while each Newton step has cut the residual R (the residual at the iterate, which the solver computed
  before it asks for the Jacobian) by SIMPVI_LAG_CONTRACTION at least; otherwise a new Jacobian. R = NULL: the first
  iteration of a solve. Counts the calls of this step (st->jcalls, reset by SimpVIStepPredict_Private()). For the
  solver only: SimpVIStepJacobian_Private() itself always gives the Jacobian at Y (the adjoint's linearisation needs it).
*/
PetscErrorCode SimpVIStepLagJacobian_Private(SimpVIStep st, Vec R, PetscBool *lag)
{
  PetscReal fnorm = 0;

  PetscFunctionBegin;
  *lag = PETSC_FALSE;
  if (R && st->lagjacobian) PetscCall(VecNorm(R, NORM_2, &fnorm));
  if (st->lagjacobian && !st->linear && st->Jvalid && st->Jh == st->h) *lag = (PetscBool)(st->jcalls == 0 || fnorm <= SIMPVI_LAG_CONTRACTION * st->jfnorm);
  st->jfnorm = fnorm;
  st->jcalls++;
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
  const PetscBool far  = (PetscBool)(poly && start + st->h / st->hprev > 1 + SIMPVI_PREDICT_MAX_RATIO);
  PetscReal      *dphi = NULL;

  PetscFunctionBegin;
  st->jcalls = 0;
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
      const PetscReal x = start + c * st->h / st->hprev;

      phi = &st->predphi[a * (s + 1)];
      if (st->predx[a] != x) { /* the basis at this stage's node, kept while steps keep their size */
        PetscCall(SimpVISchemeBasis_Private(sc, x, phi, NULL));
        st->predx[a] = x;
      }
      MAXPY(n, ya, s + 1, phi, Q);
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
  PetscCall(VecCopy(st->q0, st->Qprev[0]));
  for (PetscInt a = 0; a < st->scheme->degree; a++) { /* Q_{a+1} = q0 + Z_a */
    PetscCall(VecGetArrayWrite(st->Qprev[a + 1], &Q));
    for (PetscInt j = 0; j < n; j++) Q[j] = y[a * n + j] + q0[j];
    PetscCall(VecRestoreArrayWrite(st->Qprev[a + 1], &Q));
  }
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(st->Y, &y));
  PetscCall(VecCopy(st->p0, st->pprev));
  st->tprev    = st->t;
  st->hprev    = st->h;
  st->havepoly = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepFinish_Private - the end of the solved step: q1 = q0 + Z_s (the last block of the step vector), p1 = dLd/dQ_s
*/
PetscErrorCode SimpVIStepFinish_Private(SimpVIStep st, Vec q1, Vec p1)
{
  const PetscInt s = st->scheme->degree;
  PetscScalar   *y;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(st->Y, (const PetscScalar **)&y));
  PetscCall(VecPlaceArray(st->Yv[s - 1], y + (s - 1) * st->qmap->n));
  PetscCall(VecWAXPY(q1, 1, st->q0, st->Yv[s - 1]));
  PetscCall(VecResetArray(st->Yv[s - 1]));
  PetscCall(VecRestoreArrayRead(st->Y, (const PetscScalar **)&y));
  PetscCall(SimpVIStepMomentum_Private(st, p1));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepCreate_Private(SimpVIStep *step)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(step));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepSetUp_Private - the step work space for a scheme and a door, shaped on the positions q; the step matrix takes its options under prefix
*/
PetscErrorCode SimpVIStepSetUp_Private(SimpVIStep st, const SimpVIScheme *scheme, const SimpVIStepDoor *door, PetscBool linear, Vec q, const char prefix[])
{
  const PetscInt s = scheme->degree, nq = scheme->nq;
  MPI_Comm       comm;
  PetscMPIInt    size;
  PetscInt       nloc, N;
  VecType        vtype;
  PetscLayout    layout;

  PetscFunctionBegin;
  PetscCall(SimpVIStepReset_Private(st));
  st->scheme = scheme;
  st->door   = *door;
  st->linear = linear;
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
  PetscCall(PetscMalloc4(2 * nq + s, &st->coef, 2 * nq, &st->vecs, s + 1, &st->phi, 4 * nq + s, &st->parr));
  PetscCall(PetscMalloc2(2 * st->door.maxterms, &st->terms, (1 + st->door.maxterms) * s * s, &st->termcoef));
  PetscCall(PetscMalloc4(nq * 4 * s * s, &st->ctab, nq, &st->cneed, s, &st->predx, s * (s + 1), &st->predphi));
  st->ctabh = 0;
  for (PetscInt a = 0; a < s; a++) st->predx[a] = PETSC_MAX_REAL;

  PetscCall(VecCreate(comm, &st->Y));
  PetscCall(VecSetSizes(st->Y, s * nloc, s * N));
  PetscCall(VecSetType(st->Y, vtype));
  PetscCall(VecDuplicate(st->Y, &st->R));
  PetscCall(PetscMalloc2(s, &st->Yv, s, &st->Rv));
  for (PetscInt a = 0; a < s; a++) {
    if (size == 1) {
      PetscCall(VecCreateSeqWithArray(comm, 1, nloc, NULL, &st->Yv[a]));
      PetscCall(VecCreateSeqWithArray(comm, 1, nloc, NULL, &st->Rv[a]));
    } else {
      PetscCall(VecCreateMPIWithArray(comm, 1, nloc, N, NULL, &st->Yv[a]));
      PetscCall(VecCreateMPIWithArray(comm, 1, nloc, N, NULL, &st->Rv[a]));
    }
  }
  PetscCall(MatCreate(comm, &st->J));
  PetscCall(MatSetSizes(st->J, s * nloc, s * nloc, s * N, s * N));
  PetscCall(MatSetType(st->J, MATAIJ));
  PetscCall(MatSetOptionsPrefix(st->J, prefix));
  PetscCall(MatSetFromOptions(st->J));
  st->Jpreallocated = PETSC_FALSE;
  st->Jvalid        = PETSC_FALSE;
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
    if (st->Yv)
      for (PetscInt a = 0; a < s; a++) {
        PetscCall(VecDestroy(&st->Yv[a]));
        PetscCall(VecDestroy(&st->Rv[a]));
      }
  }
  PetscCall(PetscFree2(st->Yv, st->Rv));
  PetscCall(PetscFree4(st->coef, st->vecs, st->phi, st->parr));
  PetscCall(SimpVIStepSmallReset_Private(st));
  PetscCall(PetscFree2(st->terms, st->termcoef));
  PetscCall(PetscFree4(st->ctab, st->cneed, st->predx, st->predphi));
  PetscCall(VecDestroy(&st->q0));
  PetscCall(VecDestroy(&st->p0));
  PetscCall(VecDestroy(&st->pprev));
  PetscCall(VecDestroy(&st->v));
  PetscCall(VecDestroy(&st->Y));
  PetscCall(VecDestroy(&st->R));
  PetscCall(MatDestroy(&st->J));
  PetscCall(VecDestroy(&st->Jr));
  PetscCall(VecDestroy(&st->JJr));
  PetscCall(VecDestroy(&st->Jy));
  PetscCall(VecDestroy(&st->Jry));
  PetscCall(PetscLayoutDestroy(&st->qmap));
  st->scheme   = NULL;
  st->havepoly = PETSC_FALSE;
  st->vvalid   = PETSC_FALSE;
  st->eval.id  = 0;
  st->res.id   = 0;
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
  const PetscInt s = st->scheme->degree;
  PetscScalar   *y;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(st->Y, (const PetscScalar **)&y));
  PetscCall(VecPlaceArray(st->Yv[s - 1], y + (s - 1) * st->qmap->n));
  PetscCall(VecCopy(st->Yv[s - 1], dq));
  PetscCall(VecResetArray(st->Yv[s - 1]));
  PetscCall(VecRestoreArrayRead(st->Y, (const PetscScalar **)&y));
  PetscCall(MomentumSum(st, NULL, dp));
  PetscFunctionReturn(0);
}
