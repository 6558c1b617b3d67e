/*
   The step system of a small problem (s n rows up to a few dozen, one process) for SNESSIMPVIDENSE (src/snes/dense.c):
   its residual and its Jacobian on a dense array, with no Mat in the loop, whose overhead per iteration is several
   times the arithmetic at these sizes (bench/stepcost). The residual is the step's own (SimpVIStepResidual_Private(),
   so X, V, P, G hold the quadrature values of the last iterate as on the SNES path); the Jacobian is the same sum of
   the door's terms (SimpVIStepAssembleTerms_Private()) added into a dense array instead of a matrix. A door with
   points() gives both on arrays, every quadrature point in one call (or the residual's P and G only, pointspg: the
   Jacobian then from its terms). The SNES type runs the Newton iteration.
*/
#include <petsc/private/petscimpl.h>
#include <simpvi/private/stepimpl.h>

/* How AddToDense() reads a matrix of the door, found once for each matrix (at most the door's maxterms of them): a
   MATSEQDENSE on its array (SimpVIDenseAccess), an AIJ one on its arrays, others by rows */
struct _SimpVIMatReader {
  SimpVIDenseAccess acc;
  PetscBool         aij;
};

/* The dense arrays of an m-row system, made at the first small solve and kept */
static PetscErrorCode SmallWorkSpace(SimpVIStep st)
{
  PetscInt m = st->scheme->degree * (st->qmap->n + st->layout.nmultiplier); /* constraints: the multipliers after */

  PetscFunctionBegin;
  if (st->dread) PetscFunctionReturn(0); /* (dJ is NULL for an empty system) */
  PetscCall(PetscMalloc2(m * m, &st->dJ, m * m, &st->dJprev));
  PetscCall(PetscMalloc3(st->door.maxterms, &st->dread, st->scheme->degree * st->scheme->degree, &st->dnzoff, st->scheme->degree * st->scheme->degree, &st->dnzc));
  st->ndread = 0;
  if (st->door.points) {
    const PetscInt nq = st->scheme->nq, n = st->qmap->n;

    PetscCall(PetscMalloc7(nq, &st->at, nq * n, &st->ax, nq * n, &st->av, nq * n, &st->aP, nq * n, &st->aG, 4 * nq * n * n, &st->aD, 4 * nq, &st->dptr));
    PetscCall(PetscMalloc3(2 * nq * n * n, &st->eG, m, &st->edy, (2 * nq + 1) * n, &st->ework));
    st->astamp.id = 0;
    st->estamp.id = 0;
    st->eGmade    = PETSC_FALSE;
    st->att       = PETSC_MAX_REAL;
    st->ath       = 0;
  }
  st->dm         = m;
  st->dgiven     = PETSC_FALSE;
  st->dassembled = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepSmallReset_Private(SimpVIStep st)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(st->dJ, st->dJprev));
  PetscCall(PetscFree3(st->dread, st->dnzoff, st->dnzc));
  st->ndread = 0;
  PetscCall(PetscFree7(st->at, st->ax, st->av, st->aP, st->aG, st->aD, st->dptr));
  PetscCall(PetscFree3(st->eG, st->edy, st->ework));
  st->eGmade     = PETSC_FALSE;
  st->dm         = 0;
  st->dgiven     = PETSC_FALSE;
  st->dassembled = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*
  SimpVIDenseAccessSet_Private - acc made (again) for A unless it is A's already: whether A is a MATSEQDENSE and, if so,
  the array functions it composes (looked up by name once, not at every access)
*/
PetscErrorCode SimpVIDenseAccessSet_Private(SimpVIDenseAccess *acc, Mat A)
{
  PetscObject obj = (PetscObject)A;

  PetscFunctionBegin;
  if (SimpVIDenseAccessCurrent(acc, A)) PetscFunctionReturn(0);
  PetscCall(PetscMemzero(acc, sizeof(*acc)));
  PetscCall(PetscObjectTypeCompare(obj, MATSEQDENSE, &acc->dense));
  if (!acc->dense) PetscCall(PetscObjectTypeCompare(obj, MATSEQAIJ, &acc->aij));
  if (acc->dense) {
    PetscCall(PetscObjectQueryFunction(obj, "MatDenseGetArrayRead_C", &acc->getarray));
    PetscCall(PetscObjectQueryFunction(obj, "MatDenseRestoreArrayRead_C", &acc->restorearray));
    PetscCall(PetscObjectQueryFunction(obj, "MatDenseGetLDA_C", &acc->getlda));
    acc->dense = (PetscBool)(acc->getarray && acc->restorearray && acc->getlda);
    PetscCall(PetscObjectQueryFunction(obj, "MatDenseGetArrayWrite_C", &acc->getwrite));
    PetscCall(PetscObjectQueryFunction(obj, "MatDenseRestoreArrayWrite_C", &acc->restorewrite));
  }
  PetscCall(MatGetLocalSize(A, &acc->mloc, &acc->nloc)); /* fixed once set */
  acc->A     = A;
  acc->id    = obj->id;
  acc->type  = obj->type_name;
  acc->qlist = obj->qlist;
  PetscFunctionReturn(0);
}

/*
  SimpVIDenseMult_Private - y = A x, on the arrays when A is a MATSEQDENSE (the sums of BLAS's reference gemv, which
  MatMult() calls: y_i = 0, then y_i += x_j A_ij for j in order) or a MATSEQAIJ (y_i = 0, then y_i += A_ij x_j over
  the row's entries in order, as MatMult_SeqAIJ() without inodes), else by MatMult()
*/
PetscErrorCode SimpVIDenseMult_Private(SimpVIDenseAccess *acc, Mat A, Vec x, Vec y)
{
  const PetscScalar *a, *xx;
  PetscScalar       *yy;
  PetscInt           m, n, lda;
  PetscBool          assembled;

  PetscFunctionBegin;
  if (!SimpVIDenseAccessCurrent(acc, A)) PetscCall(SimpVIDenseAccessSet_Private(acc, A));
  if (!acc->dense && !acc->aij) {
    PetscCall(MatMult(A, x, y));
    PetscFunctionReturn(0);
  }
  PetscCall(MatAssembled(A, &assembled)); /* as MatMult() checks */
  PetscCheck(assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not for unassembled matrix");
  if (acc->aij) {
    PetscObjectState nzstate;

    PetscCall(MatGetNonzeroState(A, &nzstate));
    if (!acc->ai || nzstate != acc->nzstate) { /* a MATSEQAIJ's rows are its own arrays (no copy) until its nonzeros change */
      const PetscInt *ai, *aj;
      PetscBool       done;

      PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
      PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot read the rows of a matrix of the problem");
      acc->ai    = ai; /* (the restore below frees nothing here, and forgets the pointers it is given) */
      acc->aj    = aj;
      acc->nrows = m;
      PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
      acc->nzstate = nzstate;
    }
    m = acc->nrows;
    PetscCall(MatSeqAIJGetArrayRead(A, &a));
    PetscCall(VecGetArrayRead(x, &xx));
    PetscCall(VecGetArrayWrite(y, &yy));
    for (PetscInt i = 0; i < m; i++) {
      PetscScalar sum = 0;

      for (PetscInt k = acc->ai[i]; k < acc->ai[i + 1]; k++) sum += a[k] * xx[acc->aj[k]];
      yy[i] = sum;
    }
    PetscCall(VecRestoreArrayWrite(y, &yy));
    PetscCall(VecRestoreArrayRead(x, &xx));
    PetscCall(MatSeqAIJRestoreArrayRead(A, &a));
    PetscFunctionReturn(0);
  }
  m = acc->mloc;
  n = acc->nloc;
  PetscCall(acc->getlda(A, &lda));
  PetscCall(acc->getarray(A, &a));
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(y, &yy));
  for (PetscInt i = 0; i < m; i++) yy[i] = 0;
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < m; i++) yy[i] += xx[j] * a[j * lda + i];
  PetscCall(VecRestoreArrayWrite(y, &yy));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(acc->restorearray(A, &a));
  PetscFunctionReturn(0);
}

/* The reader of A, made at its first term */
static PetscErrorCode MatReader(SimpVIStep st, Mat A, struct _SimpVIMatReader **reader)
{
  struct _SimpVIMatReader *rd = NULL;

  PetscFunctionBegin;
  for (PetscInt j = 0; j < st->ndread && !rd; j++)
    if (st->dread[j].acc.A == A) rd = &st->dread[j];
  if (!rd) {
    rd = &st->dread[st->ndread < st->door.maxterms ? st->ndread++ : 0]; /* more matrices than terms: unusual */
    PetscCall(PetscMemzero(rd, sizeof(*rd)));
  }
  if (!SimpVIDenseAccessCurrent(&rd->acc, A)) {
    PetscCall(SimpVIDenseAccessSet_Private(&rd->acc, A));
    PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &rd->aij));
  }
  *reader = rd;
  PetscFunctionReturn(0);
}

#define SIMPVI_ADD_BLOCK_MAX 8 /* the largest dense term added block by block */

/* The nonzero coefficients of a term (s x s) and the offsets of their blocks in dJ, for AddEntry() and AddBlock(): their
   number */
static PetscInt NonzeroCoefficients(SimpVIStep st, const PetscScalar coef[])
{
  const PetscInt s = st->scheme->degree, n = st->qmap->n, m = st->dm;
  PetscInt       nz = 0;

  for (PetscInt i = 0; i < s; i++)
    for (PetscInt l = 0; l < s; l++)
      if (coef[i * s + l] != 0) {
        st->dnzoff[nz] = i * n * m + l * n;
        st->dnzc[nz++] = coef[i * s + l];
      }
  return nz;
}

/* dJ += c a in block (i, l) for each nonzero coefficient c of the term (st->dnzc, its block's offset st->dnzoff), a the
   matrix's entry (r, col): its transpose goes to row (i, col), column (l, r) */
static inline void AddEntry(SimpVIStep st, PetscInt nz, PetscBool transpose, PetscInt r, PetscInt col, PetscScalar a)
{
  PetscScalar *PETSC_RESTRICT       J   = st->dJ + (transpose ? col * st->dm + r : r * st->dm + col);
  const PetscInt *PETSC_RESTRICT    off = st->dnzoff;
  const PetscScalar *PETSC_RESTRICT c   = st->dnzc;

  for (PetscInt t = 0; t < nz; t++) J[off[t]] += c[t] * a;
}

/* AddEntry() for every entry of an n x n term B (row-major, as added: A or A'), block by block: a block's rows are then
   a few vector operations where the compiler makes them (inlined with n a constant for the smallest systems) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
AddBlock(SimpVIStep st, PetscInt nz, const PetscInt n, const PetscScalar *PETSC_RESTRICT B)
{
  const PetscInt                    m   = st->dm;
  const PetscInt *PETSC_RESTRICT    off = st->dnzoff;
  const PetscScalar *PETSC_RESTRICT c   = st->dnzc;

  for (PetscInt t = 0; t < nz; t++) {
    PetscScalar *PETSC_RESTRICT J = st->dJ + off[t];

    SIMPVI_UNROLL_FOR(PetscInt r = 0; r < n; r++) {
      SIMPVI_UNROLL_FOR(PetscInt col = 0; col < n; col++) J[r * m + col] += c[t] * B[r * n + col];
    }
  }
}

/* dJ += coef (x) A (A' when transpose), row-major, rows and columns block-major as the step vector. A dense matrix is
   read on its array (MatGetRow() of a dense matrix allocates at each call), an AIJ one on its arrays, others by rows.
   Each entry of dJ takes one product of a coefficient and an entry of A, whatever the order of the loops. A dense
   term of a few positions is added block by block (AddBlock()), its zero entries too: the product of a zero and a
   finite coefficient is a zero, which leaves every entry as it was (dJ starts at +0, and a sum is -0 only when both
   its terms are); where a coefficient is not finite, zeros are skipped entry by entry, as for larger terms. */
static PetscErrorCode AddToDense(SimpVIStep st, void *ctx, Mat A, PetscBool transpose, const PetscScalar coef[])
{
  const PetscInt           n = st->qmap->n;
  PetscInt                 nz;
  struct _SimpVIMatReader *rd = NULL;

  PetscFunctionBegin;
  PetscCall(MatReader(st, A, &rd));
  if (rd->acc.dense) {
    const PetscScalar *a;
    PetscInt           lda;
    PetscBool          assembled;

    PetscCall(MatAssembled(A, &assembled)); /* as MatGetValues() checks */
    PetscCheck(assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not for unassembled matrix");
    PetscCall(rd->acc.getlda(A, &lda));
    PetscCall(rd->acc.getarray(A, &a));
    if (n <= SIMPVI_ADD_BLOCK_MAX) {
      PetscScalar B[SIMPVI_ADD_BLOCK_MAX * SIMPVI_ADD_BLOCK_MAX];
      PetscBool   zero = PETSC_FALSE, finite = PETSC_TRUE;

      for (PetscInt r = 0; r < n; r++)
        for (PetscInt col = 0; col < n; col++) {
          B[r * n + col] = transpose ? a[r * lda + col] : a[col * lda + r];
          if (B[r * n + col] == 0) zero = PETSC_TRUE;
        }
      nz = NonzeroCoefficients(st, coef);
      if (zero)
        for (PetscInt t = 0; t < nz && finite; t++) finite = (PetscBool)!PetscIsInfOrNanScalar(st->dnzc[t]);
      if (finite) {
        switch (n) {
        case 1:
          AddBlock(st, nz, 1, B);
          break;
        case 2:
          AddBlock(st, nz, 2, B);
          break;
        case 3:
          AddBlock(st, nz, 3, B);
          break;
        default:
          AddBlock(st, nz, n, B);
        }
        PetscCall(rd->acc.restorearray(A, &a));
        PetscFunctionReturn(0);
      }
    }
    nz = NonzeroCoefficients(st, coef);
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt col = 0; col < n; col++)
        if (a[col * lda + r] != 0) AddEntry(st, nz, transpose, r, col, a[col * lda + r]);
    PetscCall(rd->acc.restorearray(A, &a));
  } else if (rd->aij) {
    const PetscInt    *ai, *aj;
    const PetscScalar *a;
    PetscInt           nrows;
    PetscBool          done;

    nz = NonzeroCoefficients(st, coef);
    PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &ai, &aj, &done));
    PetscCheck(done && nrows == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot read the rows of a matrix of the problem");
    PetscCall(MatSeqAIJGetArrayRead(A, &a));
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt k = ai[r]; k < ai[r + 1]; k++) AddEntry(st, nz, transpose, r, aj[k], a[k]);
    PetscCall(MatSeqAIJRestoreArrayRead(A, &a));
    PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nrows, &ai, &aj, &done));
  } else {
    nz = NonzeroCoefficients(st, coef);
    for (PetscInt r = 0; r < n; r++) {
      PetscInt           ncols;
      const PetscInt    *cols;
      const PetscScalar *vals;

      PetscCall(MatGetRow(A, r, &ncols, &cols, &vals));
      for (PetscInt j = 0; j < ncols; j++) AddEntry(st, nz, transpose, r, cols[j], vals[j]);
      PetscCall(MatRestoreRow(A, r, &ncols, &cols, &vals));
    }
  }
  PetscFunctionReturn(0);
}

/* A door with points(): the quadrature points of st->Y by the kernel, and the door's P, G (and derivatives, when
   asked: a Newton iteration that keeps its Jacobian needs none) there, all in one call */
static PetscErrorCode PointsEvaluate(SimpVIStep st, PetscBool derivatives)
{
  const PetscInt     nq = st->scheme->nq, n = st->qmap->n, nn = n * n;
  const PetscScalar *y, *q0;
  PetscScalar      **x = st->xv, **v = st->xv + nq;

  PetscFunctionBegin;
  if (st->kernel->h != st->h || st->att != st->t || st->ath != st->h) { /* the tables and times of a new step (not at every iteration) */
    PetscCall(SimpVIKernelSetStepSize(st->kernel, st->h));
    PetscCall(SimpVIKernelTimes(st->kernel, st->t, st->at));
    st->att = st->t;
    st->ath = st->h;
  }
  for (PetscInt k = 0; k < nq; k++) {
    x[k] = st->ax + k * n;
    v[k] = st->av + k * n;
  }
  PetscCall(VecGetArrayRead(st->Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  PetscCall(SimpVIKernelPoints(st->kernel, n, q0, y, x, v));
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(st->Y, &y));
  if (derivatives) PetscCall(st->door.points(st->door.ctx, nq, n, st->kernel->pneed, st->at, st->ax, st->av, st->aP, st->aG, st->aD, st->aD + nq * nn, st->aD + 2 * nq * nn, st->aD + 3 * nq * nn));
  else PetscCall(st->door.points(st->door.ctx, nq, n, st->kernel->need, st->at, st->ax, st->av, st->aP, st->aG, NULL, NULL, NULL, NULL));
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
  if (st->layout.nmultiplier) PetscCall(SimpVIStepConstraintResidual_Private(st, st->Y, st->R));
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
  PetscCall(PetscArraycpy(st->eG, st->aD + 2 * nq * nn, 2 * nq * nn)); /* Gx, Gv of this Jacobian: an accepted update's momentum change */
  st->eGmade = PETSC_TRUE;
  if (st->layout.nmultiplier) PetscCall(SimpVIStepConstraintDenseJacobian_Private(st, st->Y, st->dm, st->dJ));
  PetscFunctionReturn(0);
}

/* The dense Jacobian at st->Y into st->dJ, unless the fused evaluation assembled it at this iterate */
static PetscErrorCode Jacobian(SimpVIStep st)
{
  PetscFunctionBegin;
  if (!st->dassembled) {
    PetscCall(PetscLogEventBegin(SIMPVI_Jacobian, 0, 0, 0, 0));
    if (st->door.points && !st->door.pointspg) PetscCall(PointsJacobian(st));
    else {
      PetscCall(SimpVIStepEvaluate_Private(st, st->Y));
      PetscCall(PetscArrayzero(st->dJ, st->dm * st->dm));
      PetscCall(SimpVIStepAssembleTerms_Private(st, AddToDense, NULL));
    }
    PetscCall(PetscLogEventEnd(SIMPVI_Jacobian, 0, 0, 0, 0));
  }
  st->dassembled = PETSC_FALSE; /* used: a residual the line search computes on Vecs leaves dJ behind */
  PetscFunctionReturn(0);
}

/* The residual at st->Y into st->R; fuse: the Jacobian's terms too, point by point with P and G (a door whose pg and
   terms share a user callback then calls it once per point and iteration) */
static PetscErrorCode Residual(SimpVIStep st, PetscBool fuse)
{
  PetscFunctionBegin;
  if (st->door.points) {
    PetscCall(PetscLogEventBegin(SIMPVI_Residual, 0, 0, 0, 0));
    PetscCall(PointsResidual(st, (PetscBool)(fuse && !st->door.pointspg)));
    PetscCall(PetscLogEventEnd(SIMPVI_Residual, 0, 0, 0, 0));
    fuse = PETSC_FALSE; /* the derivatives are kept on the arrays (pointspg: none): the Jacobian is assembled from them if asked */
  } else if (fuse) {
    PetscCall(PetscArrayzero(st->dJ, st->dm * st->dm));
    PetscCall(SimpVIStepResidualAndTerms_Private(st, st->Y, st->R, AddToDense, NULL));
  } else PetscCall(SimpVIStepResidual_Private(st, st->Y, st->R));
  st->dassembled = fuse;
  PetscFunctionReturn(0);
}

/* Whether simplified Newton, holding a Jacobian, is likely to replace it at the iterate whose residual comes next: after
   an iteration that contracts slower than SIMPVI_NEWTON_THETA_MAX, by the rate theta = ||dY|| / ||dY_prev|| of
   src/core/newton.c (or the last solve's, at the first), known before the residual (unless the residual then shows
   convergence). A guess, for a door that keeps its user callbacks' values for a Jacobian (SimpVIStepDoor's keep): a
   wrong one costs time, never a different answer. */
static PetscBool JacobianLikely(SNES snes, SimpVIStep st)
{
  PetscInt  it;
  PetscReal dy, theta;

  if (!st->simplified || SNESGetIterationNumber(snes, &it) || SNESGetUpdateNorm(snes, &dy)) return PETSC_TRUE;
  if (it == 0) return PETSC_FALSE;                        /* the first residual of a solve only tests */
  if (st->dyprev == 0 && st->firstwas) return PETSC_TRUE; /* the last solve replaced its Jacobian at this iterate */
  theta = st->dyprev > 0 ? dy / st->dyprev : PetscPowReal(st->thetaprev, 0.8);
  return (PetscBool)(theta > SIMPVI_NEWTON_THETA_MAX / 2);
}

/*
  SimpVIStepDenseFunction_Private - the step's residual R(Y) for SNESSIMPVIDENSE (Y, R: the step's vectors, which are
  the SNES's); jacobian: the SNES asks for the Jacobian at Y next, which a door with shared callbacks or points()
  then computes with the residual
*/
PetscErrorCode SimpVIStepDenseFunction_Private(SNES snes, Vec Y, Vec R, PetscBool jacobian, void *ctx)
{
  SimpVIStep st = (SimpVIStep)ctx;
  PetscBool  fuse, kept;

  PetscFunctionBegin;
  if (Y != st->Y || R != st->R) { /* not the step's own vectors: the Vec path */
    if (st->door.keep) PetscCall(st->door.keep(st->door.ctx, PETSC_TRUE));
    PetscCall(SimpVIStepResidual_Private(st, Y, R));
    PetscFunctionReturn(0);
  }
  PetscCall(SmallWorkSpace(st));
  kept = (PetscBool)((st->linear || st->simplified) && st->dgiven && st->dJh == st->h && (st->linear ? st->dJt == st->t : !st->refresh));
  fuse = (PetscBool)(jacobian && (st->door.shared || st->door.points));
  if (fuse && (st->linear || st->simplified)) fuse = (PetscBool)(st->door.points && !kept);                                         /* only points() derivatives, and only for a Jacobian that is not kept */
  if (st->door.keep) PetscCall(st->door.keep(st->door.ctx, (PetscBool)(jacobian && !fuse && (!kept || JacobianLikely(snes, st))))); /* fuse: the terms come now */
  PetscCall(Residual(st, fuse));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepDenseJacobian_Private - the step's Jacobian at Y (st->Y) into J, column-major, for SNESSIMPVIDENSE.
  *keep (in: the SNES holds factors of the last Jacobian given) comes back true when those serve: in a simplified
  Newton solve (src/core/newton.c), or for a linear step whose Jacobian, assembled again at each new step (it depends
  on t and h), is unchanged
*/
PetscErrorCode SimpVIStepDenseJacobian_Private(SNES snes, Vec Y, PetscScalar J[], PetscBool *keep, void *ctx)
{
  SimpVIStep      st   = (SimpVIStep)ctx;
  const PetscBool held = *keep;
  PetscInt        m;
  PetscBool       remake;

  PetscFunctionBegin;
  PetscCheck(Y == st->Y, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The step's dense Jacobian is at the step vector only");
  PetscCall(SmallWorkSpace(st));
  m = st->dm;
  PetscCall(SimpVIStepNewtonKeep_Private(st, (PetscBool)(held && st->dgiven && st->dJh == st->h), keep, &remake));
  if (*keep) PetscFunctionReturn(0);
  if (remake) { /* the Jacobian held before the solver lost it, at its point */
    PetscCall(SimpVIStepNewtonAtRecord_Private(st, st->Y));
    st->dassembled = PETSC_FALSE;
    PetscCall(Jacobian(st));
    PetscCall(SimpVIStepNewtonAtRecord_Private(st, st->Y));
  }
  if (st->linear && held && st->dgiven && st->dJh == st->h && st->dJt == st->t) { /* this step's, given already */
    *keep = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  if (!remake) {
    PetscCall(Jacobian(st));
    PetscCall(SimpVIStepNewtonRecord_Private(st, st->Y));
  }
  if (st->linear) {
    PetscBool same = PETSC_FALSE;

    if (held && st->dgiven) PetscCall(PetscArraycmp(st->dJprev, st->dJ, m * m, &same));
    if (!same) PetscCall(PetscArraycpy(st->dJprev, st->dJ, m * m));
    *keep = same;
  }
  st->dgiven = PETSC_TRUE;
  st->dJh    = st->h;
  st->dJt    = st->t;
  if (*keep) PetscFunctionReturn(0);
  for (PetscInt r = 0; r < m; r++) /* row-major to column-major */
    for (PetscInt c = 0; c < m; c++) J[c * m + r] = st->dJ[r * m + c];
  PetscFunctionReturn(0);
}
