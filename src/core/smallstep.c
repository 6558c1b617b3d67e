/*
   The step system of a small problem (s n rows up to a few dozen, one process) solved by Newton on a dense Jacobian
   with a hand-rolled LU: no Mat, KSP or SNES objects in the loop, whose overhead per iteration is several times the
   arithmetic at these sizes (bench/stepcost). The residual is the step's own (SimpVIStepResidual_Private(), so X, V, P, G
   hold the quadrature values of the last iterate as on the SNES path); the Jacobian is the same sum of the door's terms
   (SimpVIStepAssembleTerms_Private()) added into a dense array instead of a matrix.

   The iteration and its stopping tests are SNESNEWTONLS's with SNESConvergedDefault (atol, rtol, stol, max_it,
   max_funcs, divtol as the SNES was given them), with full steps: no line search. Jacobian lagging follows the SNES's
   -snes_lag_jacobian and -snes_lag_jacobian_persists; a lagged Jacobian whose step does not halve the residual is
   recomputed at once (the safeguard). The caller falls back on the SNES when this iteration fails, so that failures
   keep the SNES's reasons and messages.
*/
#include <petsc/private/petscimpl.h>
#include <simpvi/private/stepimpl.h>

PetscLogEvent SIMPVI_SmallSolve;

/* The dense arrays of an m-row system, made at the first small solve and kept */
static PetscErrorCode SmallWorkSpace(SimpVIStep st)
{
  PetscInt m = st->scheme->degree * st->qmap->n;

  PetscFunctionBegin;
  if (st->dJ) PetscFunctionReturn(0);
  PetscCall(PetscMalloc6(m * m, &st->dJ, m * m, &st->dLU, m * m, &st->dJprev, m, &st->dpiv, m, &st->dy, m, &st->dy0));
  PetscCall(PetscMalloc2(st->qmap->n, &st->didx, st->qmap->n * st->qmap->n, &st->dvals));
  for (PetscInt j = 0; j < st->qmap->n; j++) st->didx[j] = j;
  if (st->door.points) {
    const PetscInt nq = st->scheme->nq, n = st->qmap->n;

    PetscCall(PetscMalloc7(nq, &st->at, nq * n, &st->ax, nq * n, &st->av, nq * n, &st->aP, nq * n, &st->aG, 4 * nq * n * n, &st->aD, 4 * nq, &st->dptr));
    st->astamp.id = 0;
  }
  st->dm      = m;
  st->dvalid  = PETSC_FALSE;
  st->djacage = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepSmallReset_Private(SimpVIStep st)
{
  PetscFunctionBegin;
  PetscCall(PetscFree6(st->dJ, st->dLU, st->dJprev, st->dpiv, st->dy, st->dy0));
  PetscCall(PetscFree2(st->didx, st->dvals));
  PetscCall(PetscFree7(st->at, st->ax, st->av, st->aP, st->aG, st->aD, st->dptr));
  st->dm        = 0;
  st->dvalid    = PETSC_FALSE;
  st->dfactored = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* dJ += c A(r, col) in block (i, l): A' goes to row (i, col), column (l, r) */
static inline void AddEntry(SimpVIStep st, PetscBool transpose, const PetscScalar coef[], PetscInt r, PetscInt col, PetscScalar a)
{
  const PetscInt s = st->scheme->degree, n = st->qmap->n, m = st->dm;

  for (PetscInt i = 0; i < s; i++)
    for (PetscInt l = 0; l < s; l++) {
      const PetscScalar c = coef[i * s + l];

      if (c == 0) continue;
      if (!transpose) st->dJ[(i * n + r) * m + l * n + col] += c * a;
      else st->dJ[(i * n + col) * m + l * n + r] += c * a;
    }
}

/* dJ += coef (x) A (A' when transpose), row-major, rows and columns block-major as the step vector. A dense matrix is
   read by one MatGetValues() (MatGetRow() of a dense matrix allocates at each call, its array access looks up a
   method by name), an AIJ one on its arrays, others by rows. */
static PetscErrorCode AddToDense(SimpVIStep st, void *ctx, Mat A, PetscBool transpose, const PetscScalar coef[])
{
  const PetscInt n = st->qmap->n;
  PetscBool      dense, aij;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQDENSE, &dense));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &aij));
  if (dense) { /* all n x n values in one call, row-major */
    const PetscScalar *a = st->dvals;

    PetscCall(MatGetValues(A, n, st->didx, n, st->didx, st->dvals));
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt col = 0; col < n; col++)
        if (a[r * n + col] != 0) AddEntry(st, transpose, coef, r, col, a[r * n + col]);
  } else if (aij) {
    const PetscInt    *ai, *aj;
    const PetscScalar *a;
    PetscInt           nrows;
    PetscBool          done;

    PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &ai, &aj, &done));
    PetscCheck(done && nrows == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot read the rows of a matrix of the problem");
    PetscCall(MatSeqAIJGetArrayRead(A, &a));
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt k = ai[r]; k < ai[r + 1]; k++) AddEntry(st, transpose, coef, r, aj[k], a[k]);
    PetscCall(MatSeqAIJRestoreArrayRead(A, &a));
    PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &ai, &aj, &done));
  } else {
    for (PetscInt r = 0; r < n; r++) {
      PetscInt           ncols;
      const PetscInt    *cols;
      const PetscScalar *vals;

      PetscCall(MatGetRow(A, r, &ncols, &cols, &vals));
      for (PetscInt j = 0; j < ncols; j++) AddEntry(st, transpose, coef, r, cols[j], vals[j]);
      PetscCall(MatRestoreRow(A, r, &ncols, &cols, &vals));
    }
  }
  PetscFunctionReturn(0);
}

/* LU with partial pivoting of dJ into dLU; *ok false for a zero or non-finite pivot */
static void Factor(PetscInt m, const PetscScalar *J, PetscScalar *LU, PetscInt *piv, PetscBool *ok)
{
  *ok = PETSC_TRUE;
  for (PetscInt j = 0; j < m * m; j++) LU[j] = J[j];
  for (PetscInt c = 0; c < m; c++) {
    PetscInt  p   = c;
    PetscReal big = PetscAbsScalar(LU[c * m + c]);

    for (PetscInt r = c + 1; r < m; r++)
      if (PetscAbsScalar(LU[r * m + c]) > big) {
        big = PetscAbsScalar(LU[r * m + c]);
        p   = r;
      }
    piv[c] = p;
    if (!(big > 0) || PetscIsInfOrNanReal(big)) {
      *ok = PETSC_FALSE;
      return;
    }
    if (p != c)
      for (PetscInt j = 0; j < m; j++) {
        PetscScalar t = LU[c * m + j];

        LU[c * m + j] = LU[p * m + j];
        LU[p * m + j] = t;
      }
    for (PetscInt r = c + 1; r < m; r++) {
      const PetscScalar f = LU[r * m + c] / LU[c * m + c];

      LU[r * m + c] = f;
      if (f != 0)
        for (PetscInt j = c + 1; j < m; j++) LU[r * m + j] -= f * LU[c * m + j];
    }
  }
}

/* x = LU^-1 P x: the row swaps (made on whole rows, multipliers included, as LAPACK's getrf) all first */
static void Solve(PetscInt m, const PetscScalar *LU, const PetscInt *piv, PetscScalar *x)
{
  for (PetscInt c = 0; c < m; c++)
    if (piv[c] != c) {
      PetscScalar t = x[c];

      x[c]      = x[piv[c]];
      x[piv[c]] = t;
    }
  for (PetscInt c = 0; c < m; c++)
    for (PetscInt r = c + 1; r < m; r++) x[r] -= LU[r * m + c] * x[c];
  for (PetscInt r = m - 1; r >= 0; r--) {
    for (PetscInt j = r + 1; j < m; j++) x[r] -= LU[r * m + j] * x[j];
    x[r] /= LU[r * m + r];
  }
}

static PetscReal Norm2(PetscInt m, const PetscScalar *x)
{
  PetscReal sum = 0;

  for (PetscInt j = 0; j < m; j++) sum += PetscRealPart(x[j] * PetscConj(x[j]));
  return PetscSqrtReal(sum);
}

/* A door with points(): the quadrature points of st->Y by the kernel, and the door's P, G (and derivatives, when
   asked: a Newton iteration that keeps its Jacobian needs none) there, all in one call */
static PetscErrorCode PointsEvaluate(SimpVIStep st, PetscBool derivatives)
{
  const PetscInt     nq = st->scheme->nq, n = st->qmap->n, nn = n * n;
  const PetscScalar *y, *q0;
  PetscScalar      **x = st->xv, **v = st->xv + nq;

  PetscFunctionBegin;
  PetscCall(SimpVIKernelSetStepSize(st->kernel, st->h));
  PetscCall(SimpVIKernelTimes(st->kernel, st->t, st->at));
  for (PetscInt k = 0; k < nq; k++) {
    x[k] = st->ax + k * n;
    v[k] = st->av + k * n;
  }
  PetscCall(VecGetArrayRead(st->Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  PetscCall(SimpVIKernelPoints(st->kernel, n, q0, y, x, v));
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(st->Y, &y));
  if (derivatives) PetscCall(st->door.points(st->door.ctx, nq, n, st->at, st->ax, st->av, st->aP, st->aG, st->aD, st->aD + nq * nn, st->aD + 2 * nq * nn, st->aD + 3 * nq * nn));
  else PetscCall(st->door.points(st->door.ctx, nq, n, st->at, st->ax, st->av, st->aP, st->aG, NULL, NULL, NULL, NULL));
  PetscCall(SimpVIStepStamp_Private(st, st->Y, &st->astamp));
  st->aderiv = derivatives;
  PetscFunctionReturn(0);
}

/* R(st->Y) by the kernel from the arrays of PointsEvaluate() */
static PetscErrorCode PointsResidual(SimpVIStep st, PetscBool derivatives)
{
  const PetscInt      nq = st->scheme->nq, n = st->qmap->n;
  const PetscScalar **P = st->parr, **G = st->parr + nq, *p0;
  PetscScalar        *r;

  PetscFunctionBegin;
  PetscCall(PointsEvaluate(st, derivatives));
  for (PetscInt k = 0; k < nq; k++) {
    P[k] = st->aP + k * n;
    G[k] = st->aG + k * n;
  }
  PetscCall(VecGetArrayRead(st->p0, &p0));
  PetscCall(VecGetArrayWrite(st->R, &r));
  PetscCall(SimpVIKernelResidual(st->kernel, n, p0, P, G, r));
  PetscCall(VecRestoreArrayWrite(st->R, &r));
  PetscCall(VecRestoreArrayRead(st->p0, &p0));
  PetscFunctionReturn(0);
}

/* The dense Jacobian by the kernel from the derivative arrays at st->Y (evaluated again if st->Y has moved or they
   were not asked for) */
static PetscErrorCode PointsJacobian(SimpVIStep st)
{
  const PetscInt nq = st->scheme->nq, nn = st->qmap->n * st->qmap->n;
  PetscBool      current;

  PetscFunctionBegin;
  PetscCall(SimpVIStepStampMatch_Private(st, st->Y, &st->astamp, &current));
  if (!current || !st->aderiv) PetscCall(PointsEvaluate(st, PETSC_TRUE));
  for (PetscInt b = 0; b < 4; b++) /* Px, Pv, Gx, Gv at each point: nq arrays each, block after block */
    for (PetscInt k = 0; k < nq; k++) st->dptr[b * nq + k] = st->aD + (b * nq + k) * nn;
  PetscCall(SimpVIKernelJacobian(st->kernel, st->qmap->n, st->dptr, st->dptr + nq, st->dptr + 2 * nq, st->dptr + 3 * nq, st->dm, st->dJ));
  PetscFunctionReturn(0);
}

/* The dense Jacobian at st->Y and its factors. A linear step's Jacobian (st->linear) depends on t and h only: it is
   assembled at each new step and factored again only if it changed. */
static PetscErrorCode JacobianFactor(SimpVIStep st, PetscBool *ok)
{
  const PetscInt m    = st->dm;
  PetscBool      same = PETSC_FALSE;

  PetscFunctionBegin;
  if (!st->dassembled) { /* else the fused evaluation assembled it at this iterate */
    PetscCall(PetscLogEventBegin(SIMPVI_Jacobian, 0, 0, 0, 0));
    if (st->linear && st->dfactored) PetscCall(PetscArraycpy(st->dJprev, st->dJ, m * m));
    if (st->door.points) PetscCall(PointsJacobian(st));
    else {
      PetscCall(SimpVIStepEvaluate_Private(st, st->Y));
      PetscCall(PetscArrayzero(st->dJ, m * m));
      PetscCall(SimpVIStepAssembleTerms_Private(st, AddToDense, NULL));
    }
    if (st->linear && st->dfactored) PetscCall(PetscArraycmp(st->dJprev, st->dJ, m * m, &same));
    PetscCall(PetscLogEventEnd(SIMPVI_Jacobian, 0, 0, 0, 0));
  }
  if (!same) Factor(m, st->dJ, st->dLU, st->dpiv, ok);
  else *ok = PETSC_TRUE;
  st->dfactored = *ok;
  st->dvalid    = *ok;
  st->djacage   = 0;
  st->dJh       = st->h;
  st->dJt       = st->t;
  PetscFunctionReturn(0);
}

/* The residual at st->Y into st->R and its norm; fuse: the Jacobian's terms too, point by point with P and G (a door
   whose pg and terms share a user callback then calls it once per point and iteration) */
static PetscErrorCode Residual(SimpVIStep st, PetscBool fuse, PetscReal *fnorm)
{
  PetscScalar *r;

  PetscFunctionBegin;
  if (st->door.points) {
    PetscCall(PetscLogEventBegin(SIMPVI_Residual, 0, 0, 0, 0));
    PetscCall(PointsResidual(st, fuse));
    PetscCall(PetscLogEventEnd(SIMPVI_Residual, 0, 0, 0, 0));
    fuse = PETSC_FALSE; /* the derivatives are kept on the arrays: the Jacobian is assembled from them if asked */
  } else if (fuse) {
    PetscCall(PetscArrayzero(st->dJ, st->dm * st->dm));
    PetscCall(SimpVIStepResidualAndTerms_Private(st, st->Y, st->R, AddToDense, NULL));
  } else PetscCall(SimpVIStepResidual_Private(st, st->Y, st->R));
  st->dassembled = fuse;
  PetscCall(VecGetArray(st->R, &r));
  *fnorm = Norm2(st->dm, r);
  PetscCall(VecRestoreArray(st->R, &r));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepSmallSolve_Private - Newton on the dense step system from the predictor in st->Y, with the SNES's tests
  (opt); *reason as SNESConvergedReason would say, *its the Newton iterations. On failure st->Y is back at the
  predictor, for the SNES to start from.
*/
PetscErrorCode SimpVIStepSmallSolve_Private(SimpVIStep st, const SimpVISmallOptions *opt, PetscInt *its, PetscInt *nfuncs, SNESConvergedReason *reason)
{
  PetscScalar *y, *r;
  PetscReal    fnorm, fnorm0, ttol, ynorm = 0, xnorm = 0, fprev = 0;
  PetscInt     m, it;
  PetscBool    ok, lagged = PETSC_FALSE, fuse;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(SIMPVI_SmallSolve, 0, 0, 0, 0));
  PetscCall(SmallWorkSpace(st));
  m = st->dm;
  /* fused residual and Jacobian when every iteration assembles a new Jacobian anyway */
  fuse    = (PetscBool)((st->door.shared || st->door.points) && !st->lagjacobian && !st->linear && opt->lag == 1 && !opt->ksponly);
  *its    = 0;
  *nfuncs = 0;
  *reason = SNES_CONVERGED_ITERATING;
  if (!opt->persist) st->dvalid = PETSC_FALSE;
  /* a linear step's Jacobian depends on t and h: checked at each new step; a lagged one is for this h */
  if (st->dJh != st->h || (st->linear && st->dJt != st->t)) st->dvalid = PETSC_FALSE;
  PetscCall(VecGetArray(st->Y, &y));
  PetscCall(PetscArraycpy(st->dy0, y, m));
  PetscCall(VecRestoreArray(st->Y, &y));

  { /* on arrays, the first residual also brings the derivatives when the first iteration will take a new Jacobian */
    const PetscBool lag0 = (PetscBool)(st->lagjacobian && !st->linear && st->dvalid);
    const PetscBool new0 = (PetscBool)(!lag0 && (!st->dvalid || st->lagjacobian || opt->lag == 1 || (opt->lag > 1 && st->djacage % opt->lag == 0)));

    PetscCall(Residual(st, (PetscBool)(fuse || (st->door.points && new0)), &fnorm));
  }
  fnorm0 = fnorm;
  (*nfuncs)++;
  ttol = opt->rtol * fnorm0;
  if (PetscIsInfOrNanReal(fnorm)) *reason = SNES_DIVERGED_FUNCTION_NANORINF;
  else if (fnorm < opt->atol) *reason = SNES_CONVERGED_FNORM_ABS;
  for (it = 0; it < opt->maxit && !*reason; it++) {
    /* the Jacobian: new unless a valid lagged one may serve (SNES's lag counts Newton iterations) */
    /* -ts_simpvi_lag_jacobian: the rule of SimpVIStepLagJacobian_Private() (the factors of this h, kept at a step's first
       iteration and while each Newton step cuts the residual by SIMPVI_LAG_CONTRACTION) */
    const PetscBool lag = (PetscBool)(st->lagjacobian && !st->linear && st->dvalid && (it == 0 || fnorm <= SIMPVI_LAG_CONTRACTION * fprev));

    if (!lag && (!st->dvalid || st->lagjacobian || opt->lag == 1 || (opt->lag > 1 && st->djacage % opt->lag == 0))) {
      PetscCall(JacobianFactor(st, &ok));
      if (!ok) {
        *reason = SNES_DIVERGED_LINEAR_SOLVE;
        break;
      }
      lagged = PETSC_FALSE;
    } else lagged = PETSC_TRUE;
    st->djacage++;
    PetscCall(VecGetArray(st->R, &r));
    PetscCall(PetscArraycpy(st->dy, r, m));
    PetscCall(VecRestoreArray(st->R, &r));
    Solve(m, st->dLU, st->dpiv, st->dy);
    PetscCall(VecGetArray(st->Y, &y));
    for (PetscInt j = 0; j < m; j++) y[j] -= st->dy[j];
    xnorm = Norm2(m, y);
    PetscCall(VecRestoreArray(st->Y, &y));
    ynorm = Norm2(m, st->dy);
    fprev = fnorm;
    PetscCall(Residual(st, fuse, &fnorm));
    (*nfuncs)++;
    *its = it + 1;
    if (opt->ksponly) { /* SNESKSPONLY: one linear solve, no test */
      *reason = PetscIsInfOrNanReal(fnorm) ? SNES_DIVERGED_FUNCTION_NANORINF : SNES_CONVERGED_ITS;
      break;
    }
    /* SNESConvergedDefault */
    if (PetscIsInfOrNanReal(fnorm)) *reason = SNES_DIVERGED_FUNCTION_NANORINF;
    else if (fnorm < opt->atol) *reason = SNES_CONVERGED_FNORM_ABS;
    else if (opt->maxf >= 0 && *nfuncs >= opt->maxf) *reason = SNES_DIVERGED_FUNCTION_COUNT;
    else if (fnorm <= ttol) *reason = SNES_CONVERGED_FNORM_RELATIVE;
    else if (ynorm < opt->stol * xnorm) *reason = SNES_CONVERGED_SNORM_RELATIVE;
    else if (opt->divtol > 0 && fnorm > opt->divtol * fnorm0) *reason = SNES_DIVERGED_DTOL;
    /* SNES's lag: a lagged Jacobian that no longer halves the residual is replaced at the next iteration */
    if (lagged && !st->lagjacobian && !*reason && fnorm > 0.5 * fprev) st->dvalid = PETSC_FALSE;
  }
  if (!*reason) *reason = SNES_DIVERGED_MAX_IT;
  PetscCall(PetscInfo(NULL, "Dense Newton: %s in %" PetscInt_FMT " iterations, residual norm %g (initial %g)\n", SNESConvergedReasons[*reason], *its, (double)fnorm, (double)fnorm0));
  if (*reason < 0) { /* back to the predictor, for the SNES */
    PetscCall(VecGetArray(st->Y, &y));
    PetscCall(PetscArraycpy(y, st->dy0, m));
    PetscCall(VecRestoreArray(st->Y, &y));
    st->dvalid = PETSC_FALSE;
  }
  PetscCall(PetscLogEventEnd(SIMPVI_SmallSolve, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}
