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

PetscLogEvent SIMPVI_Residual, SIMPVI_Jacobian;

/* The views Yv[a] of stage a of a step vector */
static PetscErrorCode StageViewsPlace(SimpVIStep vi, Vec Y, Vec views[], PetscBool write, PetscScalar **array)
{
  const PetscInt s = vi->scheme->degree;
  PetscInt       nloc;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(vi->q0, &nloc));
  if (write) PetscCall(VecGetArray(Y, array));
  else PetscCall(VecGetArrayRead(Y, (const PetscScalar **)array));
  for (PetscInt a = 0; a < s; a++) PetscCall(VecPlaceArray(views[a], *array + a * nloc));
  PetscFunctionReturn(0);
}

static PetscErrorCode StageViewsReset(SimpVIStep vi, Vec Y, Vec views[], PetscBool write, PetscScalar **array)
{
  PetscFunctionBegin;
  for (PetscInt a = 0; a < vi->scheme->degree; a++) PetscCall(VecResetArray(views[a]));
  if (write) PetscCall(VecRestoreArray(Y, array));
  else PetscCall(VecRestoreArrayRead(Y, (const PetscScalar **)array));
  PetscFunctionReturn(0);
}

/* x_k = q0 + sum_i B_ki Z_i, v_k = (1/h) sum_i D_ki Z_i at every quadrature point (i = 1..s, Z = Yv), since the basis
   sums to one and its derivatives to zero: working with increments spares v the round-off of (Q_i - Q_0)/h */
static PetscErrorCode QuadraturePoints(SimpVIStep vi, Vec Y)
{
  const SimpVIScheme *sc = vi->scheme;
  const PetscInt      s  = sc->degree;
  PetscScalar        *y, *coef = vi->coef;

  PetscFunctionBegin;
  PetscCall(StageViewsPlace(vi, Y, vi->Yv, PETSC_FALSE, &y));
  for (PetscInt k = 0; k < sc->nq; k++) {
    for (PetscInt i = 1; i <= s; i++) coef[i - 1] = sc->B[k * (s + 1) + i];
    PetscCall(VecCopy(vi->q0, vi->X[k]));
    PetscCall(VecMAXPY(vi->X[k], s, coef, vi->Yv));
    for (PetscInt i = 1; i <= s; i++) coef[i - 1] = sc->D[k * (s + 1) + i] / vi->h;
    PetscCall(VecSet(vi->V[k], 0));
    PetscCall(VecMAXPY(vi->V[k], s, coef, vi->Yv));
  }
  PetscCall(StageViewsReset(vi, Y, vi->Yv, PETSC_FALSE, &y));
  PetscFunctionReturn(0);
}

/* out = sum_k w_k [D_ki P_k + h B_ki G_k], the derivative of the discrete action in node i */
static PetscErrorCode ActionGradient(SimpVIStep vi, PetscInt i, Vec out)
{
  const SimpVIScheme *sc   = vi->scheme;
  const PetscInt      s    = sc->degree;
  PetscScalar        *coef = vi->coef;
  Vec                *vecs = vi->vecs;
  PetscInt            n    = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < sc->nq; k++) {
    PetscReal d = sc->w[k] * sc->D[k * (s + 1) + i], b = vi->h * sc->w[k] * sc->B[k * (s + 1) + i];

    if (d != 0) {
      coef[n]   = d;
      vecs[n++] = vi->P[k];
    }
    if (b != 0) {
      coef[n]   = b;
      vecs[n++] = vi->G[k];
    }
  }
  PetscCall(VecSet(out, 0));
  PetscCall(VecMAXPY(out, n, coef, vecs));
  PetscFunctionReturn(0);
}

/* P and G at the quadrature points of the step vector Y; skipped when Y has not changed since the last call */
static PetscErrorCode EvaluateDoor(SimpVIStep vi, Vec Y)
{
  PetscObjectState state, q0state;
  PetscObjectId    id;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)vi->q0, &q0state));
  PetscCall(PetscObjectStateGet((PetscObject)Y, &state));
  PetscCall(PetscObjectGetId((PetscObject)Y, &id));
  if (vi->evalid == id && vi->evalstate == state && vi->evalh == vi->h && vi->evalt == vi->t && vi->evalq0 == q0state) PetscFunctionReturn(0);
  PetscCall(QuadraturePoints(vi, Y));
  for (PetscInt k = 0; k < vi->scheme->nq; k++) PetscCall(vi->door.pg(vi->door.ctx, vi->t + vi->scheme->tau[k] * vi->h, vi->X[k], vi->V[k], vi->P[k], vi->G[k]));
  vi->evalid    = id;
  vi->evalstate = state;
  vi->evalh     = vi->h;
  vi->evalt     = vi->t;
  vi->evalq0    = q0state;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepResidual_Private - R(Y) of the step from (q0, p0) at stage_time with step h
*/
PetscErrorCode SimpVIStepResidual_Private(SimpVIStep vi, Vec Y, Vec R)
{
  PetscScalar *r;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SIMPVI_Residual, 0, Y, R, 0));
  PetscCall(EvaluateDoor(vi, Y));
  PetscCall(StageViewsPlace(vi, R, vi->Rv, PETSC_TRUE, &r));
  for (PetscInt i = 0; i < vi->scheme->degree; i++) PetscCall(ActionGradient(vi, i, vi->Rv[i]));
  PetscCall(VecAXPY(vi->Rv[0], 1, vi->p0));
  PetscCall(StageViewsReset(vi, R, vi->Rv, PETSC_TRUE, &r));
  PetscCall(PetscLogEventEnd(SIMPVI_Residual, 0, Y, R, 0));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepMomentum_Private - the end momentum p_{j+1} = dLd/dQ_s at the solved step vector vi->Y, written as
  p_{j+1} = p_j + h sum_k w_k G_k: the same value once the step equations hold (the D rows sum to zero and the B rows
  to one), but a cyclic coordinate (G = 0) then keeps its momentum exactly, with no Newton residual leaking in
*/
PetscErrorCode SimpVIStepMomentum_Private(SimpVIStep vi, Vec p1)
{
  PetscFunctionBegin;
  PetscCall(EvaluateDoor(vi, vi->Y));
  PetscCall(VecCopy(vi->p0, p1));
  for (PetscInt k = 0; k < vi->scheme->nq; k++) PetscCall(VecAXPY(p1, vi->h * vi->scheme->w[k], vi->G[k]));
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

/*
  d2Ld/dQ_i dQ_l = sum_k w_k [D_ki B_kl Px + (1/h) D_ki D_kl Pv + h B_ki B_kl Gx + B_ki D_kl Gv] into Jac. Terms the
  door marks constant (a constant mass) have their coefficients summed over k and are inserted once.
*/
static PetscErrorCode AssembleInto(void *ctx, Mat Jac)
{
  SimpVIStep          vi       = (SimpVIStep)ctx;
  const SimpVIScheme *sc       = vi->scheme;
  const PetscInt      s        = sc->degree;
  const PetscInt      maxterms = vi->door.maxterms;
  SimpVITerm         *terms = vi->terms, *constant = vi->terms + maxterms;
  PetscInt            nconstant = 0;
  PetscScalar        *coef = vi->termcoef, *constcoef = vi->termcoef + s * s;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(constcoef, maxterms * s * s));
  for (PetscInt k = 0; k < sc->nq; k++) {
    PetscInt nterms = 0, need = 0;

    for (PetscInt b = SIMPVI_BLOCK_PX; b <= SIMPVI_BLOCK_GV; b++) {
      SimpVITerm probe = {NULL, 1, (SimpVIBlock)b, PETSC_FALSE, PETSC_FALSE};

      TermCoefficients(sc, k, vi->h, &probe, coef);
      if (!AllZero(s * s, coef)) need |= SIMPVI_NEED(b);
    }
    PetscCall(vi->door.terms(vi->door.ctx, vi->t + sc->tau[k] * vi->h, vi->X[k], vi->V[k], need, &nterms, terms));
    for (PetscInt t = 0; t < nterms; t++) {
      TermCoefficients(sc, k, vi->h, &terms[t], coef);
      if (AllZero(s * s, coef)) continue; /* e.g. the Hessian at a Lobatto scheme's first node */
      if (terms[t].constant) {
        PetscInt c = 0;

        while (c < nconstant && !(constant[c].A == terms[t].A && constant[c].block == terms[t].block && constant[c].transpose == terms[t].transpose)) c++;
        if (c == nconstant) constant[nconstant++] = terms[t];
        for (PetscInt j = 0; j < s * s; j++) constcoef[c * s * s + j] += coef[j];
      } else PetscCall(SimpVIMatAddBlocks_Private(Jac, vi->qmap, terms[t].A, terms[t].transpose, s, coef));
    }
  }
  for (PetscInt c = 0; c < nconstant; c++) PetscCall(SimpVIMatAddBlocks_Private(Jac, vi->qmap, constant[c].A, constant[c].transpose, s, &constcoef[c * s * s]));
  PetscFunctionReturn(0);
}

/*
  Jacobian - the analytic Jacobian dR/dY, preallocated on first use from the pattern of the door's
  matrices (a MATPREALLOCATOR pass), so its sparsity is exactly that of the user's Hessian and mass blocks
*/
static PetscErrorCode Jacobian(SimpVIStep vi, Vec Y, Mat Jac)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SIMPVI_Jacobian, 0, Y, Jac, 0));
  PetscCall(EvaluateDoor(vi, Y));
  PetscCall(SimpVIMatFill_Private(Jac, &vi->Jpreallocated, AssembleInto, vi));
  PetscCall(PetscLogEventEnd(SIMPVI_Jacobian, 0, Y, Jac, 0));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepJacobian_Private - the step Jacobian at Y into J, for the solvers. A linear problem (vi->linear) has
  a Jacobian independent of Y: it is kept within a step, and at a new step (the door's matrices may depend on t) it is
  assembled into a second matrix and copied into J only if it differs, so that an unchanged J keeps its factorization
*/
PetscErrorCode SimpVIStepJacobian_Private(SimpVIStep vi, Vec Y, Mat J)
{
  PetscBool same;

  PetscFunctionBegin;
  if (vi->linear && vi->Jpreallocated) {
    if (vi->Jh == vi->h && vi->Jt == vi->t) PetscFunctionReturn(0);
    if (!vi->Jlinear) PetscCall(MatDuplicate(J, MAT_DO_NOT_COPY_VALUES, &vi->Jlinear));
    PetscCall(Jacobian(vi, Y, vi->Jlinear));
    PetscCall(MatEqual(vi->Jlinear, J, &same));
    if (!same) PetscCall(MatCopy(vi->Jlinear, J, DIFFERENT_NONZERO_PATTERN));
  } else PetscCall(Jacobian(vi, Y, J));
  vi->Jh = vi->h;
  vi->Jt = vi->t;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepPredict_Private - initial guess for the increments: the previous step's polynomial at the new nodes, or c h v0.
  The polynomial is extrapolated for the next step, and evaluated inside its own step for a step retaken shorter after
  TSRollBack() or for the partial step of TSInterpolate().
*/
PetscErrorCode SimpVIStepPredict_Private(SimpVIStep vi)
{
  const SimpVIScheme *sc = vi->scheme;
  const PetscInt      s  = sc->degree;
  PetscScalar        *y;
  PetscReal          *phi = vi->phi, tol = 1e-12 * PetscMax(1, PetscAbsReal(vi->t));
  PetscBool           poly = (PetscBool)(vi->havepoly && vi->t >= vi->tprev - tol && vi->t <= vi->tprev + vi->hprev + tol);
  /* where the new step starts on the polynomial's [0, 1]: its end, unless a step is retaken or interpolated */
  PetscReal start = PetscAbsReal(vi->tprev + vi->hprev - vi->t) <= tol ? 1 : (vi->t - vi->tprev) / vi->hprev;

  PetscFunctionBegin;
  PetscCall(StageViewsPlace(vi, vi->Y, vi->Yv, PETSC_TRUE, &y));
  for (PetscInt a = 0; a < s; a++) {
    const PetscReal c = sc->c[a + 1];

    if (poly) {
      PetscCall(SimpVISchemeBasis_Private(sc, start + c * vi->h / vi->hprev, phi, NULL));
      PetscCall(VecSet(vi->Yv[a], 0));
      PetscCall(VecMAXPY(vi->Yv[a], s + 1, phi, vi->Qprev));
      PetscCall(VecAXPY(vi->Yv[a], -1, vi->q0));
    } else {
      PetscCall(VecSet(vi->Yv[a], 0));
      if (vi->vvalid) PetscCall(VecAXPY(vi->Yv[a], c * vi->h, vi->v));
    }
  }
  PetscCall(StageViewsReset(vi, vi->Y, vi->Yv, PETSC_TRUE, &y));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepAccept_Private - keeps the nodes of the solved step as the polynomial for dense output and the predictor, and
  its start (q0 is the first node; p0) for the partial steps of interpolation and a roll-back
*/
PetscErrorCode SimpVIStepAccept_Private(SimpVIStep vi)
{
  PetscScalar *y;

  PetscFunctionBegin;
  PetscCall(StageViewsPlace(vi, vi->Y, vi->Yv, PETSC_FALSE, &y));
  PetscCall(VecCopy(vi->q0, vi->Qprev[0]));
  for (PetscInt a = 0; a < vi->scheme->degree; a++) PetscCall(VecWAXPY(vi->Qprev[a + 1], 1, vi->q0, vi->Yv[a]));
  PetscCall(StageViewsReset(vi, vi->Y, vi->Yv, PETSC_FALSE, &y));
  PetscCall(VecCopy(vi->p0, vi->pprev));
  vi->tprev    = vi->t;
  vi->hprev    = vi->h;
  vi->havepoly = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepFinish_Private - the end of the solved step: q1 = q0 + Z_s (the last block of the step vector), p1 = dLd/dQ_s
*/
PetscErrorCode SimpVIStepFinish_Private(SimpVIStep vi, Vec q1, Vec p1)
{
  const PetscInt s = vi->scheme->degree;
  PetscScalar   *y;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(vi->Y, (const PetscScalar **)&y));
  PetscCall(VecPlaceArray(vi->Yv[s - 1], y + (s - 1) * vi->qmap->n));
  PetscCall(VecWAXPY(q1, 1, vi->q0, vi->Yv[s - 1]));
  PetscCall(VecResetArray(vi->Yv[s - 1]));
  PetscCall(VecRestoreArrayRead(vi->Y, (const PetscScalar **)&y));
  PetscCall(SimpVIStepMomentum_Private(vi, p1));
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
PetscErrorCode SimpVIStepSetUp_Private(SimpVIStep vi, const SimpVIScheme *scheme, const SimpVIStepDoor *door, PetscBool linear, Vec q, const char prefix[])
{
  const PetscInt s = scheme->degree, nq = scheme->nq;
  MPI_Comm       comm;
  PetscMPIInt    size;
  PetscInt       nloc, N;
  VecType        vtype;
  PetscLayout    layout;

  PetscFunctionBegin;
  PetscCall(SimpVIStepReset_Private(vi));
  vi->scheme = scheme;
  vi->door   = *door;
  vi->linear = linear;
  PetscCall(PetscObjectGetComm((PetscObject)q, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(VecGetLocalSize(q, &nloc));
  PetscCall(VecGetSize(q, &N));
  PetscCall(VecGetType(q, &vtype));
  PetscCall(VecGetLayout(q, &layout));
  PetscCall(PetscLayoutReference(layout, &vi->qmap));
  PetscCall(VecDuplicate(q, &vi->q0));
  PetscCall(VecDuplicateVecs(q, s + 1, &vi->Qprev));
  PetscCall(VecDuplicateVecs(q, nq, &vi->X));
  PetscCall(VecDuplicateVecs(q, nq, &vi->V));
  PetscCall(VecDuplicateVecs(q, nq, &vi->P));
  PetscCall(VecDuplicateVecs(q, nq, &vi->G));
  PetscCall(VecDuplicate(q, &vi->p0));
  PetscCall(VecDuplicate(q, &vi->pprev));
  PetscCall(VecDuplicate(q, &vi->v));
  /* scratch of the scheme's size: a node gradient sums 2 nq terms; the Jacobian keeps the door's terms at a point and
     its constant ones, each with s x s coefficients */
  PetscCall(PetscMalloc3(2 * nq, &vi->coef, 2 * nq, &vi->vecs, s + 1, &vi->phi));
  PetscCall(PetscMalloc2(2 * vi->door.maxterms, &vi->terms, (1 + vi->door.maxterms) * s * s, &vi->termcoef));

  PetscCall(VecCreate(comm, &vi->Y));
  PetscCall(VecSetSizes(vi->Y, s * nloc, s * N));
  PetscCall(VecSetType(vi->Y, vtype));
  PetscCall(VecDuplicate(vi->Y, &vi->R));
  PetscCall(PetscMalloc2(s, &vi->Yv, s, &vi->Rv));
  for (PetscInt a = 0; a < s; a++) {
    if (size == 1) {
      PetscCall(VecCreateSeqWithArray(comm, 1, nloc, NULL, &vi->Yv[a]));
      PetscCall(VecCreateSeqWithArray(comm, 1, nloc, NULL, &vi->Rv[a]));
    } else {
      PetscCall(VecCreateMPIWithArray(comm, 1, nloc, N, NULL, &vi->Yv[a]));
      PetscCall(VecCreateMPIWithArray(comm, 1, nloc, N, NULL, &vi->Rv[a]));
    }
  }
  PetscCall(MatCreate(comm, &vi->J));
  PetscCall(MatSetSizes(vi->J, s * nloc, s * nloc, s * N, s * N));
  PetscCall(MatSetType(vi->J, MATAIJ));
  PetscCall(MatSetOptionsPrefix(vi->J, prefix));
  PetscCall(MatSetFromOptions(vi->J));
  vi->Jpreallocated = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepReset_Private(SimpVIStep vi)
{
  PetscFunctionBegin;
  if (vi->scheme) {
    const PetscInt s = vi->scheme->degree, nq = vi->scheme->nq;

    if (vi->Qprev) PetscCall(VecDestroyVecs(s + 1, &vi->Qprev));
    if (vi->X) PetscCall(VecDestroyVecs(nq, &vi->X));
    if (vi->V) PetscCall(VecDestroyVecs(nq, &vi->V));
    if (vi->P) PetscCall(VecDestroyVecs(nq, &vi->P));
    if (vi->G) PetscCall(VecDestroyVecs(nq, &vi->G));
    if (vi->Yv)
      for (PetscInt a = 0; a < s; a++) {
        PetscCall(VecDestroy(&vi->Yv[a]));
        PetscCall(VecDestroy(&vi->Rv[a]));
      }
  }
  PetscCall(PetscFree2(vi->Yv, vi->Rv));
  PetscCall(PetscFree3(vi->coef, vi->vecs, vi->phi));
  PetscCall(PetscFree2(vi->terms, vi->termcoef));
  PetscCall(VecDestroy(&vi->q0));
  PetscCall(VecDestroy(&vi->p0));
  PetscCall(VecDestroy(&vi->pprev));
  PetscCall(VecDestroy(&vi->v));
  PetscCall(VecDestroy(&vi->Y));
  PetscCall(VecDestroy(&vi->R));
  PetscCall(MatDestroy(&vi->J));
  PetscCall(MatDestroy(&vi->Jlinear));
  PetscCall(PetscLayoutDestroy(&vi->qmap));
  vi->scheme   = NULL;
  vi->havepoly = PETSC_FALSE;
  vi->vvalid   = PETSC_FALSE;
  vi->evalid   = 0;
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
