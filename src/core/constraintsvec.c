/*
   Holonomic constraints on Vecs and Mats, any number of processes: the equations of src/core/constraints.c (the same
   node weights beta_i, the same rows and blocks, the same end projection; docs/mathematics.md, "Holonomic
   constraints") with g(q) a Vec of the multipliers' layout, G = dg/dq a Mat (m x n) and sum_r lambda_r d2 g_r a Mat
   (n x n), as TAO takes equality constraints. On each process the step vector holds its s position blocks, then its s
   multiplier blocks (lambda_0..lambda_{s-1}); the residual its s node blocks, then g at its share of Q_1..Q_s. The end
   projection P(t1, q1, v) + G1' mu = pt, G1 v = 0 is Newton on v with the door's P and its PV terms, each iteration a
   solve of the saddle-point matrix K = [Pv G1'; G1 0] (positions, then multipliers, on each process).
*/
#include <simpvi/private/stepimpl.h>

/* the most Newton iterations of the end projection (two or three when P is linear in v: the last ones check) */
#define SIMPVI_CONSTRAINT_VEC_MAXIT 50

PetscErrorCode SimpVIStepConstraintsVecSetUp_Private(SimpVIStep st)
{
  MPI_Comm       comm;
  const PetscInt n = st->qmap->n, m = st->layout.nmultiplier;
  char           prefix[256];
  const char    *jprefix;
  PetscInt       M;
  PetscLayout    map;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)st->q0, &comm));
  PetscCall(VecGetLayout(st->door.cg, &map));
  PetscCall(PetscLayoutReference(map, &st->cmap));
  PetscCall(VecGetSize(st->door.cg, &M));
  PetscCall(VecDuplicate(st->q0, &st->cQ));
  PetscCall(VecDuplicate(st->q0, &st->cf));
  PetscCall(VecDuplicate(st->q0, &st->cpt));
  PetscCall(VecDuplicate(st->q0, &st->cpv));
  PetscCall(VecDuplicate(st->q0, &st->cpP));
  PetscCall(VecDuplicate(st->q0, &st->cpG));
  PetscCall(VecDuplicate(st->door.cg, &st->cg));
  PetscCall(VecDuplicate(st->door.cg, &st->cmu));
  PetscCall(VecCreateMPIWithArray(comm, 1, n, st->qmap->N, NULL, &st->cviewq));
  PetscCall(VecCreateMPIWithArray(comm, 1, m, M, NULL, &st->cviewl));
  PetscCall(MatCreate(comm, &st->cK));
  PetscCall(MatSetSizes(st->cK, n + m, n + m, st->qmap->N + M, st->qmap->N + M));
  PetscCall(MatSetType(st->cK, MATAIJ));
  PetscCall(MatCreateVecs(st->cK, &st->cKx, &st->cKb));
  st->cKpre = PETSC_FALSE;
  st->cKsub = PETSC_FALSE;
  PetscCall(PetscMalloc1(st->door.maxterms, &st->cterms));
  /* the projection's solver: -ts_simpvi_projection_ksp_type, ... (the step matrix's prefix and projection_) */
  PetscCall(KSPCreate(comm, &st->cksp));
  PetscCall(MatGetOptionsPrefix(st->J, &jprefix));
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%sprojection_", jprefix ? jprefix : ""));
  PetscCall(KSPSetOptionsPrefix(st->cksp, prefix));
  PetscCall(SimpVISaddlePointSolver_Private(st->cksp, PETSC_FALSE, NULL, &st->cKsub));
  PetscCall(KSPSetFromOptions(st->cksp));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepConstraintsVecReset_Private(SimpVIStep st)
{
  PetscFunctionBegin;
  PetscCall(PetscLayoutDestroy(&st->cmap));
  PetscCall(VecDestroy(&st->cQ));
  PetscCall(VecDestroy(&st->cf));
  PetscCall(VecDestroy(&st->cpt));
  PetscCall(VecDestroy(&st->cpv));
  PetscCall(VecDestroy(&st->cpP));
  PetscCall(VecDestroy(&st->cpG));
  PetscCall(VecDestroy(&st->cg));
  PetscCall(VecDestroy(&st->cmu));
  PetscCall(VecDestroy(&st->cviewq));
  PetscCall(VecDestroy(&st->cviewl));
  PetscCall(VecDestroy(&st->cKx));
  PetscCall(VecDestroy(&st->cKb));
  PetscCall(MatDestroy(&st->cK));
  PetscCall(KSPDestroy(&st->cksp));
  PetscCall(PetscFree(st->cterms));
  PetscFunctionReturn(0);
}

/* cQ = q0 + Z_i, node i = 0..s of the step vector's local array y */
static PetscErrorCode NodeVec(SimpVIStep st, const PetscScalar q0[], const PetscScalar y[], PetscInt i)
{
  const PetscInt n = st->qmap->n;
  PetscScalar   *Q;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(st->cQ, &Q));
  for (PetscInt j = 0; j < n; j++) Q[j] = q0[j] + (i ? y[(i - 1) * n + j] : 0);
  PetscCall(VecRestoreArrayWrite(st->cQ, &Q));
  PetscFunctionReturn(0);
}

/* ||g(q0)||_inf by the Vec constraints (on every process) */
PetscErrorCode SimpVIStepConstraintStartVec_Private(SimpVIStep st, PetscReal *gnorm)
{
  PetscFunctionBegin;
  PetscCall(VecCopy(st->q0, st->cQ));
  PetscCall(st->door.vconstraint(st->door.ctx, st->cQ, st->cg));
  PetscCall(VecNorm(st->cg, NORM_INFINITY, gnorm));
  PetscFunctionReturn(0);
}

/* cf = G' lambda, lambda the local array of multipliers (m of them) */
static PetscErrorCode ForceFrom(SimpVIStep st, const PetscScalar lambda[])
{
  PetscFunctionBegin;
  PetscCall(VecPlaceArray(st->cviewl, lambda));
  PetscCall(MatMultTranspose(st->door.cG, st->cviewl, st->cf));
  PetscCall(VecResetArray(st->cviewl));
  PetscFunctionReturn(0);
}

/* SimpVIStepConstraintResidualVec_Private - SimpVIStepConstraintResidual_Private() on Vecs: the node rows get
   -h beta_i G(Q_i)' lambda_i (i < s), the constraint rows g(Q_i) (i >= 1) */
PetscErrorCode SimpVIStepConstraintResidualVec_Private(SimpVIStep st, Vec Y, Vec R)
{
  const PetscInt     s = st->scheme->degree, n = st->qmap->n, m = st->layout.nmultiplier;
  const PetscScalar *y, *q0, *f, *g;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  PetscCall(VecGetArray(R, &r));
  for (PetscInt i = 0; i <= s; i++) {
    const PetscReal a = -st->h * st->cbeta[i];

    PetscCall(NodeVec(st, q0, y, i));
    if (i) {
      PetscCall(st->door.vconstraint(st->door.ctx, st->cQ, st->cg));
      PetscCall(VecGetArrayRead(st->cg, &g));
      PetscCall(PetscArraycpy(r + s * n + (i - 1) * m, g, m));
      PetscCall(VecRestoreArrayRead(st->cg, &g));
    }
    if (i < s) {
      PetscCall(st->door.vjacobian(st->door.ctx, st->cQ, st->door.cG));
      PetscCall(ForceFrom(st, y + s * n + i * m));
      PetscCall(VecGetArrayRead(st->cf, &f));
      for (PetscInt j = 0; j < n; j++) r[i * n + j] += a * f[j];
      PetscCall(VecRestoreArrayRead(st->cf, &f));
    }
  }
  PetscCall(VecRestoreArray(R, &r));
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(Y, &y));
  PetscFunctionReturn(0);
}

/*
  AddG - G's local rows into a matrix on [blocks of positions, blocks of multipliers] per process (rows of process p
  start at jr[p]; its positions qr[p]..qr[p+1], multipliers mr[p]..mr[p+1]; nbq position blocks each): a G in
  (multiplier block lb, position block pb) unless lb < 0, and its transpose at G' in (position block tb, multiplier
  block ltb) unless tb < 0
*/
static PetscErrorCode AddG(Mat J, Mat G, const PetscInt jr[], const PetscInt qr[], const PetscInt mr[], PetscInt nbq, PetscInt lb, PetscInt pb, PetscReal a, PetscInt tb, PetscInt ltb, PetscReal at)
{
  PetscMPIInt  rank;
  PetscInt     rstart, rend, nbuf = 0, *base = NULL, *len = NULL, *idx = NULL;
  PetscScalar *val = NULL;
  PetscLayout  qmap;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)J), &rank));
  PetscCall(MatGetOwnershipRange(G, &rstart, &rend));
  PetscCall(MatGetLayouts(G, NULL, &qmap));
  for (PetscInt r = rstart; r < rend; r++) {
    const PetscInt     mstart = jr[rank] + nbq * (qr[rank + 1] - qr[rank]) + (r - mr[rank]), nm = mr[rank + 1] - mr[rank];
    PetscInt           ncols;
    const PetscInt    *cols;
    const PetscScalar *vals;

    PetscCall(MatGetRow(G, r, &ncols, &cols, &vals));
    if (ncols > nbuf) {
      PetscCall(PetscFree4(base, len, idx, val));
      nbuf = ncols;
      PetscCall(PetscMalloc4(nbuf, &base, nbuf, &len, nbuf, &idx, nbuf, &val));
    }
    for (PetscInt k = 0; k < ncols; k++) { /* column cols[k]'s position block 0 on its owner, and the owner's block length */
      PetscMPIInt o = rank;

      if (cols[k] < qr[rank] || cols[k] >= qr[rank + 1]) PetscCall(PetscLayoutFindOwner(qmap, cols[k], &o));
      base[k] = jr[o] + (cols[k] - qr[o]);
      len[k]  = qr[o + 1] - qr[o];
    }
    if (lb >= 0) {
      const PetscInt row = mstart + lb * nm;

      for (PetscInt k = 0; k < ncols; k++) {
        idx[k] = base[k] + pb * len[k];
        val[k] = a * vals[k];
      }
      PetscCall(MatSetValues(J, 1, &row, ncols, idx, val, ADD_VALUES));
    }
    if (tb >= 0) {
      const PetscInt col = mstart + ltb * nm;

      for (PetscInt k = 0; k < ncols; k++) {
        idx[k] = base[k] + tb * len[k];
        val[k] = at * vals[k];
      }
      PetscCall(MatSetValues(J, ncols, idx, 1, &col, val, ADD_VALUES));
    }
    PetscCall(MatRestoreRow(G, r, &ncols, &cols, &vals));
  }
  PetscCall(PetscFree4(base, len, idx, val));
  PetscFunctionReturn(0);
}

/* An explicit zero on the diagonal of this process's multiplier rows (after its nbq position blocks), so that it is in
   the matrix's pattern (a factorization in the natural order pivots there after the positions' updates) */
static PetscErrorCode ZeroDiagonal(Mat J, const PetscInt jr[], const PetscInt qr[], PetscInt nbq)
{
  PetscMPIInt       rank;
  const PetscScalar zero = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)J), &rank));
  for (PetscInt r = jr[rank] + nbq * (qr[rank + 1] - qr[rank]); r < jr[rank + 1]; r++) PetscCall(MatSetValues(J, 1, &r, 1, &r, &zero, ADD_VALUES));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepConstraintJacobianVec_Private - SimpVIStepConstraintJacobian_Private() on Mats: -h beta_i H(Q_i, lambda_i)
  in (node i, Z_i) for 0 < i < s (blockmat.c's block assembly), -h beta_i G(Q_i)' in (node i, lambda_i) for i < s,
  G(Q_i) in (g(Q_i), Z_i) for i >= 1, the multipliers' zero diagonal
*/
PetscErrorCode SimpVIStepConstraintJacobianVec_Private(SimpVIStep st, Vec Y, Mat J)
{
  const PetscInt     s = st->scheme->degree, n = st->qmap->n, m = st->layout.nmultiplier;
  const PetscScalar *y, *q0;
  const PetscInt    *jr, *qr;
  PetscScalar       *coef;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRanges(J, &jr));
  PetscCall(PetscLayoutGetRanges(st->qmap, &qr));
  PetscCall(PetscCalloc1(s * s, &coef));
  PetscCall(VecGetArrayRead(Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  for (PetscInt i = 0; i <= s; i++) {
    const PetscReal a = -st->h * st->cbeta[i];

    PetscCall(NodeVec(st, q0, y, i));
    PetscCall(st->door.vjacobian(st->door.ctx, st->cQ, st->door.cG));
    PetscCall(AddG(J, st->door.cG, jr, qr, st->cmap->range, s, i ? i - 1 : -1, i - 1, 1, i < s ? i : -1, i, a));
    if (i && i < s) { /* Q_i moves with Z_i: the curvature of the constraint forces */
      PetscCall(VecPlaceArray(st->cviewl, y + s * n + i * m));
      PetscCall(st->door.vhessian(st->door.ctx, st->cQ, st->cviewl, st->door.cH));
      PetscCall(VecResetArray(st->cviewl));
      coef[i * s + i - 1] = a;
      PetscCall(SimpVIMatAddBlocks_Private(J, st->qmap, st->door.cH, PETSC_FALSE, s, coef));
      coef[i * s + i - 1] = 0;
    }
  }
  PetscCall(ZeroDiagonal(J, jr, qr, s));
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(Y, &y));
  PetscCall(PetscFree(coef));
  PetscFunctionReturn(0);
}

/* K = [Pv G1'; G1 0] from the door's PV terms (nterms of them) and G1 in st->door.cG, into K or a preallocator */
static PetscErrorCode FillProjection(SimpVIStep st, Mat K, PetscInt nterms, const SimpVITerm terms[])
{
  const PetscInt *kr, *qr, *mr;
  PetscMPIInt     rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)K), &rank));
  PetscCall(MatGetOwnershipRanges(K, &kr));
  PetscCall(PetscLayoutGetRanges(st->qmap, &qr));
  mr = st->cmap->range;
  for (PetscInt t = 0; t < nterms; t++) { /* Pv: by rows of each term (positions keep their order on each process) */
    PetscInt rstart, rend;

    if (terms[t].block != SIMPVI_BLOCK_PV) continue;
    PetscCall(MatGetOwnershipRange(terms[t].A, &rstart, &rend));
    for (PetscInt r = rstart; r < rend; r++) {
      PetscInt           ncols, row = kr[rank] + (r - qr[rank]);
      const PetscInt    *cols;
      const PetscScalar *vals;

      PetscCall(MatGetRow(terms[t].A, r, &ncols, &cols, &vals));
      for (PetscInt k = 0; k < ncols; k++) {
        PetscMPIInt       o = rank;
        PetscInt          col;
        const PetscScalar v = terms[t].scale * vals[k];

        if (cols[k] < qr[rank] || cols[k] >= qr[rank + 1]) PetscCall(PetscLayoutFindOwner(st->qmap, cols[k], &o));
        col = kr[o] + (cols[k] - qr[o]);
        if (terms[t].transpose) PetscCall(MatSetValues(K, 1, &col, 1, &row, &v, ADD_VALUES));
        else PetscCall(MatSetValues(K, 1, &row, 1, &col, &v, ADD_VALUES));
      }
      PetscCall(MatRestoreRow(terms[t].A, r, &ncols, &cols, &vals));
    }
  }
  PetscCall(AddG(K, st->door.cG, kr, qr, mr, 1, 0, 0, 1, 0, 0, 1));
  PetscCall(ZeroDiagonal(K, kr, qr, 1));
  PetscFunctionReturn(0);
}

/* The projection's matrix at (t1, q1 = cQ, v = cpv), preallocated on first use, and its solver's operators */
static PetscErrorCode Projection(SimpVIStep st, PetscReal t1)
{
  PetscInt nterms = 0;

  PetscFunctionBegin;
  PetscCall(st->door.terms(st->door.ctx, t1, st->cQ, st->cpv, SIMPVI_NEED(SIMPVI_BLOCK_PV), &nterms, st->cterms));
  if (!st->cKpre) {
    Mat      pre;
    PetscInt m, n, M, N;

    PetscCall(MatGetLocalSize(st->cK, &m, &n));
    PetscCall(MatGetSize(st->cK, &M, &N));
    PetscCall(MatCreate(PetscObjectComm((PetscObject)st->cK), &pre));
    PetscCall(MatSetType(pre, MATPREALLOCATOR));
    PetscCall(MatSetSizes(pre, m, n, M, N));
    PetscCall(MatSetUp(pre));
    PetscCall(FillProjection(st, pre, nterms, st->cterms));
    PetscCall(MatAssemblyBegin(pre, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(pre, MAT_FINAL_ASSEMBLY));
    PetscCall(MatPreallocatorPreallocate(pre, PETSC_TRUE, st->cK));
    PetscCall(MatDestroy(&pre));
    PetscCall(MatSetOption(st->cK, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    st->cKpre = PETSC_TRUE;
  } else PetscCall(MatZeroEntries(st->cK));
  PetscCall(FillProjection(st, st->cK, nterms, st->cterms));
  PetscCall(MatAssemblyBegin(st->cK, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(st->cK, MAT_FINAL_ASSEMBLY));
  PetscCall(KSPSetOperators(st->cksp, st->cK, st->cK));
  if (st->cKsub) { /* the default solver's blocks, set up once (src/core/linearsolver.c) */
    PetscCall(SimpVISaddlePointSubSolver_Private(st->cksp, st->cK));
    st->cKsub = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIStepConstraintMomentumVec_Private - SimpVIStepConstraintMomentum_Private() on Vecs: d (the kernel's end
  momentum or its increment, base NULL) less h beta_i G(Q_i)' lambda_i, i = 0..s-1, then less G1' mu with (v, mu) by
  Newton on P(t1, q1, v) + G1' mu = pt, G1 v = 0, pt = base + d; keeps the multipliers of this process (mu =
  h beta_s lambda_s) and the end velocity
*/
PetscErrorCode SimpVIStepConstraintMomentumVec_Private(SimpVIStep st, const PetscScalar base[], PetscScalar d[])
{
  const PetscInt     s = st->scheme->degree, n = st->qmap->n, m = st->layout.nmultiplier;
  const PetscReal    t1 = st->t + st->h;
  const PetscScalar *y, *q0, *p0, *f, *P, *mu, *x;
  PetscScalar       *pt, *b;
  PetscReal          dvprev = PETSC_MAX_REAL;
  PetscInt           it;
  KSPConvergedReason kreason;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(st->Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  for (PetscInt i = 0; i < s; i++) { /* the forces of the solved step's multipliers */
    const PetscReal a = st->h * st->cbeta[i];

    PetscCall(NodeVec(st, q0, y, i));
    PetscCall(st->door.vjacobian(st->door.ctx, st->cQ, st->door.cG));
    PetscCall(ForceFrom(st, y + s * n + i * m));
    PetscCall(VecGetArrayRead(st->cf, &f));
    for (PetscInt j = 0; j < n; j++) d[j] -= a * f[j];
    PetscCall(VecRestoreArrayRead(st->cf, &f));
    PetscCall(PetscArraycpy(st->clambda + i * m, y + s * n + i * m, m));
  }
  /* the end: pt = p1 before lambda_s, (v, mu) from (0, 0) */
  PetscCall(VecGetArrayRead(st->p0, &p0));
  PetscCall(VecGetArrayWrite(st->cpt, &pt));
  for (PetscInt j = 0; j < n; j++) pt[j] = base ? d[j] : p0[j] + d[j];
  PetscCall(VecRestoreArrayWrite(st->cpt, &pt));
  PetscCall(VecRestoreArrayRead(st->p0, &p0));
  PetscCall(NodeVec(st, q0, y, s));
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(st->Y, &y));
  PetscCall(st->door.vjacobian(st->door.ctx, st->cQ, st->door.cG));
  PetscCall(VecSet(st->cpv, 0));
  PetscCall(VecSet(st->cmu, 0));
  for (it = 0; it < SIMPVI_CONSTRAINT_VEC_MAXIT; it++) {
    PetscReal dv, vv;

    PetscCall(st->door.pg(st->door.ctx, t1, st->cQ, st->cpv, st->cpP, st->cpG));
    PetscCall(Projection(st, t1));
    /* b = [pt - P - G1' mu; -G1 v] */
    PetscCall(MatMultTranspose(st->door.cG, st->cmu, st->cf));
    PetscCall(MatMult(st->door.cG, st->cpv, st->cg));
    PetscCall(VecGetArrayWrite(st->cKb, &b));
    PetscCall(VecGetArrayRead(st->cpt, (const PetscScalar **)&pt));
    PetscCall(VecGetArrayRead(st->cpP, &P));
    PetscCall(VecGetArrayRead(st->cf, &f));
    for (PetscInt j = 0; j < n; j++) b[j] = pt[j] - P[j] - f[j];
    PetscCall(VecRestoreArrayRead(st->cf, &f));
    PetscCall(VecRestoreArrayRead(st->cpP, &P));
    PetscCall(VecRestoreArrayRead(st->cpt, (const PetscScalar **)&pt));
    PetscCall(VecGetArrayRead(st->cg, &f));
    for (PetscInt c = 0; c < m; c++) b[n + c] = -f[c];
    PetscCall(VecRestoreArrayRead(st->cg, &f));
    PetscCall(VecRestoreArrayWrite(st->cKb, &b));
    PetscCall(KSPSolve(st->cksp, st->cKb, st->cKx));
    PetscCall(KSPGetConvergedReason(st->cksp, &kreason));
    PetscCheck(kreason > 0, PetscObjectComm((PetscObject)st->cK), PETSC_ERR_CONV_FAILED, "The end momentum's projection onto the hidden constraint at t = %g: its linear solve %s (-ts_simpvi_projection_ksp_converged_reason)", (double)t1, KSPConvergedReasons[kreason]);
    /* v += dv, mu += dmu */
    PetscCall(VecGetArrayRead(st->cKx, &x));
    {
      PetscScalar *v, *l;
      PetscReal    norms[2] = {0, 0};

      PetscCall(VecGetArray(st->cpv, &v));
      for (PetscInt j = 0; j < n; j++) {
        v[j] += x[j];
        norms[0] = PetscMax(norms[0], PetscAbsScalar(x[j]));
        norms[1] = PetscMax(norms[1], PetscAbsScalar(v[j]));
      }
      PetscCall(MPIU_Allreduce(MPI_IN_PLACE, norms, 2, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)st->cK)));
      dv = norms[0];
      vv = norms[1];
      PetscCall(VecRestoreArray(st->cpv, &v));
      PetscCall(VecGetArray(st->cmu, &l));
      for (PetscInt c = 0; c < m; c++) l[c] += x[n + c];
      PetscCall(VecRestoreArray(st->cmu, &l));
    }
    PetscCall(VecRestoreArrayRead(st->cKx, &x));
    /* converged to round-off, or no longer contracting (an iterative solve's round-off floor) */
    if (dv <= 4 * PETSC_MACHINE_EPSILON * vv || dv == 0 || (it > 0 && dv > 0.5 * dvprev)) break;
    dvprev = dv;
  }
  PetscCheck(it < SIMPVI_CONSTRAINT_VEC_MAXIT, PetscObjectComm((PetscObject)st->cK), PETSC_ERR_CONV_FAILED, "The end momentum's projection onto the hidden constraint did not converge at t = %g", (double)t1);
  PetscCall(MatMultTranspose(st->door.cG, st->cmu, st->cf));
  PetscCall(VecGetArrayRead(st->cf, &f));
  for (PetscInt j = 0; j < n; j++) d[j] -= f[j];
  PetscCall(VecRestoreArrayRead(st->cf, &f));
  PetscCall(VecGetArrayRead(st->cmu, &mu));
  for (PetscInt c = 0; c < m; c++) st->clambda[s * m + c] = mu[c] / (st->h * st->cbeta[s]);
  PetscCall(VecRestoreArrayRead(st->cmu, &mu));
  PetscFunctionReturn(0);
}

/* SimpVIStepConstraintsView_Private - the end projection's solver, for TSView() (nothing without the Vec/Mat form) */
PetscErrorCode SimpVIStepConstraintsView_Private(SimpVIStep st, PetscViewer viewer)
{
  KSPType     ktype;
  PCType      ptype;
  PC          pc;
  const char *prefix;

  PetscFunctionBegin;
  if (!st->cksp) PetscFunctionReturn(0);
  PetscCall(KSPGetType(st->cksp, &ktype));
  PetscCall(KSPGetPC(st->cksp, &pc));
  PetscCall(PCGetType(pc, &ptype));
  PetscCall(KSPGetOptionsPrefix(st->cksp, &prefix));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  End momentum's projection [Pv G'; G 0]: Newton on v, each iteration a KSP %s with PC %s (options -%sksp_type, -%spc_type, ...)\n", ktype ? ktype : "not set", ptype ? ptype : "not set", prefix ? prefix : "", prefix ? prefix : ""));
  PetscFunctionReturn(0);
}

/* SimpVIStepIsConstrained_Private - whether the step has constraints (on any process) */
PetscErrorCode SimpVIStepIsConstrained_Private(SimpVIStep st, PetscBool *constrained)
{
  PetscFunctionBegin;
  *constrained = st->constrained;
  PetscFunctionReturn(0);
}
