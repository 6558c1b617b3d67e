/*
   Holonomic constraints g(q) = 0 in the step (docs/mathematics.md, "Holonomic constraints"): the discrete action gets
   -h sum_i beta_i g(Q_i)' lambda_i at the nodes Q_0..Q_s (beta_i = sum_k w_k B_ki, the Lobatto weights of the nodes),
   so that
     R_i - h beta_i G(Q_i)' lambda_i = 0   (i = 0..s-1)        the step vector: Z_1..Z_s, then lambda_0..lambda_{s-1}
     g(Q_i) = 0                           (i = 1..s)          the residual: R_0..R_{s-1}, then g(Q_1)..g(Q_s)
   and p1 = p0 + h sum_k w_k G_k - h sum_{i=0..s} beta_i G(Q_i)' lambda_i, lambda_s chosen so that p1 lies on the hidden
   constraint G(q1) v1 = 0, v1 the velocity of p1 at q1 (P(t1, q1, v1) = p1): RATTLE's last half step. One process, the
   door's points() on arrays (n x n dense blocks): a small system's constraints.
*/
#include <simpvi/private/stepimpl.h>
#include <simpvi/private/snesdense.h> /* SimpVIDenseLUFactor(), SimpVIDenseLUSolve() */

/* the most Newton iterations of the end momentum's projection (one when P is linear in v) */
#define SIMPVI_CONSTRAINT_MAXIT 50

PetscErrorCode SimpVIStepConstraintsSetUp_Private(SimpVIStep st)
{
  const PetscInt s = st->scheme->degree, nq = st->scheme->nq, n = st->qmap->n, m = st->layout.nmultiplier;
  const PetscInt n1    = n + m;
  const PetscInt nwork = st->door.vconstraint ? 0 : n + m + m * n + n * n + 2 * n + 4 * n * n + n1 * n1 + 2 * n1 + n;

  PetscFunctionBegin;
  PetscCall(SimpVIStepConstraintsReset_Private(st));
  /* the nodes' weights and multipliers, both forms; the array form's scratch: a node Q (n), g (m), G (m n), H (n n);
     the projection's P, G, Px, Pv, Gx, Gv at one point (2 n + 4 n n), its system (n1 n1), right side (n1), pivots (n1,
     as reals), v (n) */
  PetscCall(PetscMalloc4(s + 1, &st->cbeta, (s + 1) * m, &st->clambda, nwork, &st->cwork, st->door.vconstraint ? 0 : n, &st->cv));
  for (PetscInt i = 0; i <= s; i++) {
    st->cbeta[i] = 0;
    for (PetscInt k = 0; k < nq; k++) st->cbeta[i] += st->scheme->w[k] * st->scheme->B[k * (s + 1) + i];
  }
  PetscCall(PetscArrayzero(st->clambda, (s + 1) * m));
  PetscCall(PetscArrayzero(st->cv, st->door.vconstraint ? 0 : n));
  PetscCall(VecDuplicate(st->q0, &st->cp1));
  if (st->door.vconstraint) PetscCall(SimpVIStepConstraintsVecSetUp_Private(st)); /* src/core/constraintsvec.c */
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepConstraintsReset_Private(SimpVIStep st)
{
  PetscFunctionBegin;
  PetscCall(PetscFree4(st->cbeta, st->clambda, st->cwork, st->cv));
  PetscCall(PetscFree2(st->clin, st->cpiv));
  PetscCall(VecDestroy(&st->cp1));
  PetscCall(SimpVIStepConstraintsVecReset_Private(st));
  PetscFunctionReturn(0);
}

/* Q = q0 + Z_i, node i = 0..s of the step vector y */
static void Node(SimpVIStep st, const PetscScalar q0[], const PetscScalar y[], PetscInt i, PetscScalar Q[])
{
  const PetscInt n = st->qmap->n;

  for (PetscInt j = 0; j < n; j++) Q[j] = q0[j] + (i ? y[(i - 1) * n + j] : 0);
}

static PetscErrorCode Constraint(SimpVIStep st, const PetscScalar Q[], const PetscScalar lambda[], PetscScalar g[], PetscScalar G[], PetscScalar H[])
{
  PetscFunctionBegin;
  PetscCall(st->door.constraint(st->door.ctx, st->qmap->n, st->layout.nmultiplier, Q, lambda, g, G, H));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepConstraintStart_Private - the start q0 of a run against the constraint manifold: the step's nodes satisfy
  g = 0, and a start off it (by more than 1e-8 max(1, ||q0||)) is taken onto it at the first step, its momentum normal
  to it dropped; said under -info (a start off the manifold is legitimate: differences of the map in q0, say)
*/
PetscErrorCode SimpVIStepConstraintStart_Private(SimpVIStep st, PetscReal t)
{
  const PetscInt m     = st->layout.nmultiplier;
  PetscReal      gnorm = 0, qnorm;

  PetscFunctionBegin;
  if (!st->constrained) PetscFunctionReturn(0);
  if (st->door.vconstraint) PetscCall(SimpVIStepConstraintStartVec_Private(st, &gnorm));
  else {
    const PetscScalar *q0;
    PetscScalar       *g;

    PetscCall(PetscMalloc1(m, &g));
    PetscCall(VecGetArrayRead(st->q0, &q0));
    PetscCall(Constraint(st, q0, NULL, g, NULL, NULL));
    PetscCall(VecRestoreArrayRead(st->q0, &q0));
    for (PetscInt c = 0; c < m; c++) gnorm = PetscMax(gnorm, PetscAbsScalar(g[c]));
    PetscCall(PetscFree(g));
  }
  PetscCall(VecNorm(st->q0, NORM_INFINITY, &qnorm));
  if (gnorm > 1e-8 * PetscMax(1, qnorm)) PetscCall(PetscInfo(NULL, "The start q0 at t = %g is off the constraint manifold, ||g(q0)|| = %g: the first step takes it onto it\n", (double)t, (double)gnorm));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepConstraintResidual_Private - adds the constraint forces -h beta_i G(Q_i)' lambda_i to the node rows of R (the
  kernel's residual, made already) and writes g(Q_i), i = 1..s, in its constraint rows
*/
PetscErrorCode SimpVIStepConstraintResidual_Private(SimpVIStep st, Vec Y, Vec R)
{
  const PetscInt     s = st->scheme->degree, n = st->qmap->n, m = st->layout.nmultiplier;
  const PetscScalar *y, *q0;
  PetscScalar       *r, *Q = st->cwork, *g = Q + n, *G = g + m;

  PetscFunctionBegin;
  if (st->door.vconstraint) { /* the same rows on Vecs (src/core/constraintsvec.c) */
    PetscCall(SimpVIStepConstraintResidualVec_Private(st, Y, R));
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetArrayRead(Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  PetscCall(VecGetArray(R, &r));
  for (PetscInt i = 0; i <= s; i++) {
    const PetscScalar *lambda = y + s * n + i * m;
    const PetscReal    a      = -st->h * st->cbeta[i];

    Node(st, q0, y, i, Q);
    PetscCall(Constraint(st, Q, NULL, i ? g : NULL, i < s ? G : NULL, NULL));
    if (i < s)
      for (PetscInt c = 0; c < m; c++)
        for (PetscInt j = 0; j < n; j++) r[i * n + j] += a * G[c * n + j] * lambda[c];
    if (i) PetscCall(PetscArraycpy(r + s * n + (i - 1) * m, g, m));
  }
  PetscCall(VecRestoreArray(R, &r));
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(Y, &y));
  PetscFunctionReturn(0);
}

/* How the constraints' blocks reach a Jacobian: values (row-major, nr x nc) added at global rows and columns */
typedef PetscErrorCode (*AddBlockFn)(void *, PetscInt, const PetscInt[], PetscInt, const PetscInt[], const PetscScalar[]);

static PetscErrorCode AddToMat(void *ctx, PetscInt nr, const PetscInt rows[], PetscInt nc, const PetscInt cols[], const PetscScalar v[])
{
  PetscFunctionBegin;
  PetscCall(MatSetValues((Mat)ctx, nr, rows, nc, cols, v, ADD_VALUES));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscScalar *J;
  PetscInt     ld;
} DenseTarget;

static PetscErrorCode AddToDense(void *ctx, PetscInt nr, const PetscInt rows[], PetscInt nc, const PetscInt cols[], const PetscScalar v[])
{
  DenseTarget *d = (DenseTarget *)ctx;

  PetscFunctionBegin;
  for (PetscInt r = 0; r < nr; r++)
    for (PetscInt c = 0; c < nc; c++) d->J[rows[r] * d->ld + cols[c]] += v[r * nc + c];
  PetscFunctionReturn(0);
}

/*
  Blocks - the constraints' blocks of the step Jacobian at Y, given to add() (one process: local indices are global):
  -h beta_i H(Q_i, lambda_i) in (node i, Z_i), -h beta_i G(Q_i)' in (node i, lambda_i) for i < s, G(Q_i) in (g(Q_i), Z_i)
  for i >= 1; an explicit zero on the multipliers' diagonal, so that it is in a matrix's pattern. start: their
  derivatives in the step's start q0 instead (every node Q_i = q0 + Z_i moves with it, Q_0 too), in columns 0..n-1
*/
static PetscErrorCode Blocks(SimpVIStep st, Vec Y, PetscBool start, AddBlockFn add, void *ctx)
{
  const PetscInt     s = st->scheme->degree, n = st->qmap->n, m = st->layout.nmultiplier;
  const PetscScalar *y, *q0;
  PetscScalar       *Q = st->cwork, *G = Q + n + m, *H = G + m * n, *GT = H + n * n;
  PetscInt          *rows, *cols;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(n + m, &rows, n + m, &cols));
  PetscCall(VecGetArrayRead(Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  for (PetscInt i = 0; i <= s; i++) {
    const PetscScalar *lambda = y + s * n + i * m;
    const PetscReal    a      = -st->h * st->cbeta[i];
    const PetscBool    curve  = (PetscBool)(i < s && (i || start)); /* node i's rows move with Q_i */

    Node(st, q0, y, i, Q);
    PetscCall(Constraint(st, Q, curve ? lambda : NULL, NULL, G, curve ? H : NULL));
    if (i < s) { /* node i's rows: lambda_i's columns and, where Q_i moves, Z_i's (or q0's) */
      for (PetscInt j = 0; j < n; j++) rows[j] = i * n + j;
      if (!start) {
        for (PetscInt c = 0; c < m; c++) cols[c] = s * n + i * m + c;
        for (PetscInt j = 0; j < n; j++)
          for (PetscInt c = 0; c < m; c++) GT[j * m + c] = a * G[c * n + j];
        PetscCall(add(ctx, n, rows, m, cols, GT));
      }
      if (curve) {
        for (PetscInt j = 0; j < n; j++) cols[j] = start ? j : (i - 1) * n + j;
        for (PetscInt j = 0; j < n * n; j++) H[j] *= a;
        PetscCall(add(ctx, n, rows, n, cols, H));
      }
    }
    if (i) { /* g(Q_i)'s rows */
      for (PetscInt c = 0; c < m; c++) rows[c] = s * n + (i - 1) * m + c;
      for (PetscInt j = 0; j < n; j++) cols[j] = start ? j : (i - 1) * n + j;
      PetscCall(add(ctx, m, rows, n, cols, G));
    }
  }
  for (PetscInt r = s * n; r < s * (n + m) && !start; r++) {
    const PetscScalar zero = 0;

    PetscCall(add(ctx, 1, &r, 1, &r, &zero));
  }
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(Y, &y));
  PetscCall(PetscFree2(rows, cols));
  PetscFunctionReturn(0);
}

/* SimpVIStepConstraintJacobian_Private - adds the constraints' blocks at Y to the step matrix J (the SNES path) */
PetscErrorCode SimpVIStepConstraintJacobian_Private(SimpVIStep st, Vec Y, Mat J)
{
  PetscFunctionBegin;
  if (st->door.vconstraint) PetscCall(SimpVIStepConstraintJacobianVec_Private(st, Y, J)); /* the same blocks from Mats */
  else PetscCall(Blocks(st, Y, PETSC_FALSE, AddToMat, J));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepConstraintDenseJacobian_Private - the constraints' rows and columns of the dense step Jacobian J (row-major,
  leading dimension ld = s (n + m)) at Y, whose position block (s n x s n) the kernel has made: the rest zeroed, the
  blocks added (the dense path)
*/
PetscErrorCode SimpVIStepConstraintDenseJacobian_Private(SimpVIStep st, Vec Y, PetscInt ld, PetscScalar J[])
{
  const PetscInt sn = st->scheme->degree * st->qmap->n;
  DenseTarget    d  = {J, ld};

  PetscFunctionBegin;
  for (PetscInt r = 0; r < ld; r++)
    for (PetscInt c = r < sn ? sn : 0; c < ld; c++) J[r * ld + c] = 0;
  PetscCall(Blocks(st, Y, PETSC_FALSE, AddToDense, &d));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepConstraintMomentum_Private - d, the kernel's end momentum (p1, or its increment when base is NULL), less the
  constraint forces h beta_i G(Q_i)' lambda_i of the solved step, i = 0..s: lambda_s by Newton on
    P(t1, q1, v) + G(q1)' mu = p,  G(q1) v = 0,   mu = h beta_s lambda_s
  (one iteration when P is linear in v: RATTLE's projection M v + G' mu = p, G v = 0). Keeps the s + 1 multipliers.
*/
PetscErrorCode SimpVIStepConstraintMomentum_Private(SimpVIStep st, const PetscScalar base[], PetscScalar d[])
{
  const PetscInt     s = st->scheme->degree, n = st->qmap->n, m = st->layout.nmultiplier, n1 = n + m;
  const PetscScalar *y, *q0, *p0;
  PetscScalar       *Q = st->cwork, *G = Q + n + m, *P = G + m * n, *Gp = P + n, *Px = Gp + n, *Pv = Px + n * n, *Gx = Pv + n * n, *Gv = Gx + n * n;
  PetscScalar       *K = Gv + n * n, *F = K + n1 * n1, *v = F + n1, *mu, p[64], *pt = NULL;
  PetscBLASInt      *piv;
  const PetscReal    t1 = st->t + st->h;
  PetscInt           it;
  PetscReal          dvprev;

  PetscFunctionBegin;
  if (st->door.vconstraint) { /* the same forces and projection on Vecs (src/core/constraintsvec.c) */
    PetscCall(SimpVIStepConstraintMomentumVec_Private(st, base, d));
    PetscFunctionReturn(0);
  }
  PetscCheck(st->door.points, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Constraints need a door with points on arrays");
  PetscCall(PetscMalloc2(n1, &piv, n1, &mu));
  PetscCall(VecGetArrayRead(st->Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  PetscCall(VecGetArrayRead(st->p0, &p0));
  for (PetscInt i = 0; i < s; i++) { /* the forces of the solved step's multipliers */
    const PetscScalar *lambda = y + s * n + i * m;
    const PetscReal    a      = st->h * st->cbeta[i];

    Node(st, q0, y, i, Q);
    PetscCall(Constraint(st, Q, NULL, NULL, G, NULL));
    for (PetscInt c = 0; c < m; c++)
      for (PetscInt j = 0; j < n; j++) d[j] -= a * G[c * n + j] * lambda[c];
    PetscCall(PetscArraycpy(st->clambda + i * m, lambda, m));
  }
  /* the end: p = p1 before lambda_s, v from v = 0 (P linear in v: exact after one iteration) */
  if (n > 64) PetscCall(PetscMalloc1(n, &pt));
  else pt = p;
  for (PetscInt j = 0; j < n; j++) pt[j] = base ? d[j] : p0[j] + d[j];
  Node(st, q0, y, s, Q);
  PetscCall(Constraint(st, Q, NULL, NULL, G, NULL));
  PetscCall(PetscArrayzero(v, n));
  PetscCall(PetscArrayzero(mu, m));
  for (it = 0, dvprev = 0; it < SIMPVI_CONSTRAINT_MAXIT; it++) {
    PetscReal dv = 0, vv = 0;

    PetscCall(st->door.points(st->door.ctx, 1, n, NULL, &t1, Q, v, P, Gp, Px, Pv, Gx, Gv));
    /* K = [Pv G'; G 0] column-major, F = -[P + G' mu - p; G v] */
    for (PetscInt r = 0; r < n1; r++)
      for (PetscInt c = 0; c < n1; c++) K[c * n1 + r] = r < n ? (c < n ? Pv[r * n + c] : G[(c - n) * n + r]) : (c < n ? G[(r - n) * n + c] : 0);
    for (PetscInt j = 0; j < n; j++) {
      F[j] = pt[j] - P[j];
      for (PetscInt c = 0; c < m; c++) F[j] -= G[c * n + j] * mu[c];
    }
    for (PetscInt c = 0; c < m; c++) {
      F[n + c] = 0;
      for (PetscInt j = 0; j < n; j++) F[n + c] -= G[c * n + j] * v[j];
    }
    PetscCheck(!SimpVIDenseLUFactor((PetscBLASInt)n1, K, piv), PETSC_COMM_SELF, PETSC_ERR_CONV_FAILED, "The end momentum's projection onto the hidden constraint is singular at t = %g: G(q1) rank deficient or dP/dv singular", (double)t1);
    SimpVIDenseLUSolve((PetscBLASInt)n1, K, piv, F);
    for (PetscInt j = 0; j < n; j++) {
      v[j] += F[j];
      dv = PetscMax(dv, PetscAbsScalar(F[j]));
      vv = PetscMax(vv, PetscAbsScalar(v[j]));
    }
    for (PetscInt c = 0; c < m; c++) mu[c] += F[n + c];
    /* converged to round-off, or no longer contracting: at the round-off floor of a velocity near zero (a turning
       point, where |v| is far below the momenta it comes from), as the Vec path decides */
    if (dv <= 4 * PETSC_MACHINE_EPSILON * vv || dv == 0 || (it > 0 && dv > 0.5 * dvprev)) break;
    dvprev = dv;
  }
  PetscCheck(it < SIMPVI_CONSTRAINT_MAXIT, PETSC_COMM_SELF, PETSC_ERR_CONV_FAILED, "The end momentum's projection onto the hidden constraint did not converge at t = %g", (double)t1);
  for (PetscInt c = 0; c < m; c++) {
    for (PetscInt j = 0; j < n; j++) d[j] -= G[c * n + j] * mu[c];
    st->clambda[s * m + c] = mu[c] / (st->h * st->cbeta[s]);
  }
  PetscCall(PetscArraycpy(st->cv, v, n)); /* the end velocity, for the linearisation */
  if (pt != p) PetscCall(PetscFree(pt));
  PetscCall(VecRestoreArrayRead(st->p0, &p0));
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(st->Y, &y));
  PetscCall(PetscFree2(piv, mu));
  PetscFunctionReturn(0);
}

/*
  The linearisation of the constraints' part of a step (src/core/steptangent.c, docs/mathematics.md section 9): with
  F(Y; q0, p0) the step system (node rows, then g rows) and pt the end momentum before lambda_s,
    dF/dq0  (constraints' part) = Dq       (N x n, N = s (n + m): Blocks() in q0),
    d(pt)   (constraints' part) = Pm dY + Pq dq0    (the node rows' constraint forces summed: pt = p0 + h sum_k w_k G_k
                                                     + the sum of those forces),
  and the end projection P(t1, q1, v1) + G1' mu = pt, G1 v1 = 0 (G1 = G(q1), mu = h beta_s lambda_s) linearised:
    K [dv; dmu] = [dpt - (Px + A) dq1; -M dq1],   dp1 = dpt - A dq1 - G1' dmu,
  K = [Pv G1'; G1 0], A = sum_r mu_r d2 g_r/dq2 at q1, M row r = (d2 g_r/dq2 v1)'. The arrays of clin, in this order
  (row-major unless said): Dq, Pm, Pq, K and K' (LU factors, column-major), Px + A, A, M, G1, then scratch: DY (N x N),
  two vectors (N and n + m).
*/
typedef struct {
  PetscScalar *Dq, *Pm, *Pq, *K, *Kt, *PA, *A, *M, *G1, *DY, *wN, *w;
} Linear;

static PetscErrorCode LinearArrays(SimpVIStep st, Linear *L)
{
  const PetscInt n = st->qmap->n, m = st->layout.nmultiplier, n1 = n + m, N = st->scheme->degree * n1;
  const PetscInt size = N * n + n * N + n * n + 2 * n1 * n1 + 2 * n * n + 2 * m * n + N * N + N + n1;

  PetscFunctionBegin;
  if (!st->clin) PetscCall(PetscMalloc2(size, &st->clin, 2 * n1 + m, &st->cpiv));
  L->Dq = st->clin;
  L->Pm = L->Dq + N * n;
  L->Pq = L->Pm + n * N;
  L->K  = L->Pq + n * n;
  L->Kt = L->K + n1 * n1;
  L->PA = L->Kt + n1 * n1;
  L->A  = L->PA + n * n;
  L->M  = L->A + n * n;
  L->G1 = L->M + m * n;
  L->DY = L->G1 + m * n;
  L->wN = L->DY + N * N;
  L->w  = L->wN + N;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepConstraintMultipliers_Private - the multipliers lambda_0..lambda_{s-1} of the step vector st->Y from its
  increments alone (a step rebuilt from the stages a TSTrajectory keeps, which hold the increments only): the node rows
  R_i - h beta_i G(Q_i)' lambda_i = 0 are linear in lambda_i, solved in the normal equations
  G(Q_i) G(Q_i)' lambda_i = G(Q_i) R_i / (h beta_i), R_i the kernel's residual (the step's residual at lambda = 0)
*/
PetscErrorCode SimpVIStepConstraintMultipliers_Private(SimpVIStep st)
{
  const PetscInt     s = st->scheme->degree, n = st->qmap->n, m = st->layout.nmultiplier;
  const PetscScalar *r, *q0;
  PetscScalar       *y, *Q = st->cwork, *G = Q + n + m, *GG, *b;
  Linear             L;

  PetscFunctionBegin;
  PetscCheck(!st->door.vconstraint, PetscObjectComm((PetscObject)st->Y), PETSC_ERR_SUP, "The tangent and adjoint maps of a step with the Vec/Mat constraints (TSSimpVISetEqualityConstraintsRoutine()) are not there yet: the array form (TSSimpVISetConstraints()) has them");
  PetscCall(LinearArrays(st, &L));
  GG = L.DY; /* scratch: m x m and m */
  b  = GG + m * m;
  PetscCall(VecGetArray(st->Y, &y));
  PetscCall(PetscArrayzero(y + s * n, s * m));
  PetscCall(VecRestoreArray(st->Y, &y));
  PetscCall(SimpVIStepResidual_Private(st, st->Y, st->R));
  PetscCall(VecGetArrayRead(st->R, &r));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  PetscCall(VecGetArray(st->Y, &y));
  for (PetscInt i = 0; i < s; i++) {
    const PetscReal a = st->h * st->cbeta[i];

    PetscCheck(a != 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "The multipliers of a step with a zero node weight (beta_%" PetscInt_FMT " = 0) cannot be rebuilt", i);
    Node(st, q0, y, i, Q);
    PetscCall(Constraint(st, Q, NULL, NULL, G, NULL));
    for (PetscInt c = 0; c < m; c++) {
      b[c] = 0;
      for (PetscInt j = 0; j < n; j++) b[c] += G[c * n + j] * r[i * n + j] / a;
      for (PetscInt e = 0; e < m; e++) {
        GG[e * m + c] = 0;
        for (PetscInt j = 0; j < n; j++) GG[e * m + c] += G[c * n + j] * G[e * n + j];
      }
    }
    PetscCheck(!SimpVIDenseLUFactor((PetscBLASInt)m, GG, st->cpiv), PETSC_COMM_SELF, PETSC_ERR_CONV_FAILED, "G(Q_%" PetscInt_FMT ") G(Q_%" PetscInt_FMT ")' is singular at t = %g: G rank deficient", i, i, (double)st->t);
    SimpVIDenseLUSolve((PetscBLASInt)m, GG, st->cpiv, b);
    PetscCall(PetscArraycpy(y + s * n + i * m, b, m));
  }
  PetscCall(VecRestoreArray(st->Y, &y));
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(st->R, &r));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepConstraintLinearize_Private - the constraints' part of the linearisation at the step vector st->Y (its
  multipliers in place): Dq, Pm, Pq and the end projection's linearisation (the end momentum made again, which finds
  v1 and lambda_s as the step did)
*/
PetscErrorCode SimpVIStepConstraintLinearize_Private(SimpVIStep st)
{
  const PetscInt     s = st->scheme->degree, n = st->qmap->n, m = st->layout.nmultiplier, n1 = n + m, N = s * n1;
  const PetscReal    t1 = st->t + st->h;
  const PetscScalar *y, *q0;
  PetscScalar       *Q = st->cwork, *e = Q + n, *G = e + m, *P = G + m * n, *Gp = P + n, *Px = Gp + n, *Pv = Px + n * n, *Gx = Pv + n * n, *Gv = Gx + n * n;
  PetscScalar        mu[64], *pmu = mu;
  Linear             L;
  DenseTarget        dq, dy;

  PetscFunctionBegin;
  PetscCheck(!st->door.vconstraint, PetscObjectComm((PetscObject)st->Y), PETSC_ERR_SUP, "The tangent and adjoint maps of a step with the Vec/Mat constraints (TSSimpVISetEqualityConstraintsRoutine()) are not there yet: the array form (TSSimpVISetConstraints()) has them");
  PetscCall(LinearArrays(st, &L));
  PetscCall(SimpVIStepMomentum_Private(st, st->cp1)); /* v1 and lambda_s */
  /* Dq, and Pm, Pq: the node rows of the constraints' blocks summed */
  PetscCall(PetscArrayzero(L.Dq, N * n));
  PetscCall(PetscArrayzero(L.DY, N * N));
  dq.J  = L.Dq;
  dq.ld = n;
  dy.J  = L.DY;
  dy.ld = N;
  PetscCall(Blocks(st, st->Y, PETSC_TRUE, AddToDense, &dq));
  PetscCall(Blocks(st, st->Y, PETSC_FALSE, AddToDense, &dy));
  PetscCall(PetscArrayzero(L.Pm, n * N));
  PetscCall(PetscArrayzero(L.Pq, n * n));
  for (PetscInt i = 0; i < s; i++)
    for (PetscInt j = 0; j < n; j++) {
      for (PetscInt c = 0; c < N; c++) L.Pm[j * N + c] += L.DY[(i * n + j) * N + c];
      for (PetscInt c = 0; c < n; c++) L.Pq[j * n + c] += L.Dq[(i * n + j) * n + c];
    }
  /* the projection at (t1, q1, v1) */
  if (m > 64) PetscCall(PetscMalloc1(m, &pmu));
  for (PetscInt c = 0; c < m; c++) pmu[c] = st->h * st->cbeta[s] * st->clambda[s * m + c];
  PetscCall(VecGetArrayRead(st->Y, &y));
  PetscCall(VecGetArrayRead(st->q0, &q0));
  Node(st, q0, y, s, Q);
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(st->Y, &y));
  PetscCall(st->door.points(st->door.ctx, 1, n, NULL, &t1, Q, st->cv, P, Gp, Px, Pv, Gx, Gv));
  PetscCall(Constraint(st, Q, pmu, NULL, L.G1, L.A));
  if (pmu != mu) PetscCall(PetscFree(pmu));
  for (PetscInt j = 0; j < n * n; j++) L.PA[j] = Px[j] + L.A[j];
  for (PetscInt r = 0; r < m; r++) { /* M row r = (d2 g_r/dq2 v1)': the contraction with the unit vector e_r */
    for (PetscInt c = 0; c < m; c++) e[c] = c == r ? 1 : 0;
    PetscCall(Constraint(st, Q, e, NULL, NULL, Gx));
    for (PetscInt k = 0; k < n; k++) {
      L.M[r * n + k] = 0;
      for (PetscInt j = 0; j < n; j++) L.M[r * n + k] += Gx[k * n + j] * st->cv[j];
    }
  }
  for (PetscInt r = 0; r < n1; r++)
    for (PetscInt c = 0; c < n1; c++) {
      L.K[c * n1 + r]  = r < n ? (c < n ? Pv[r * n + c] : L.G1[(c - n) * n + r]) : (c < n ? L.G1[(r - n) * n + c] : 0);
      L.Kt[r * n1 + c] = L.K[c * n1 + r];
    }
  PetscCheck(!SimpVIDenseLUFactor((PetscBLASInt)n1, L.K, st->cpiv), PETSC_COMM_SELF, PETSC_ERR_CONV_FAILED, "The end momentum's projection is singular at t = %g", (double)t1);
  PetscCheck(!SimpVIDenseLUFactor((PetscBLASInt)n1, L.Kt, st->cpiv + n1), PETSC_COMM_SELF, PETSC_ERR_CONV_FAILED, "The end momentum's projection is singular at t = %g", (double)t1);
  PetscFunctionReturn(0);
}

/* y -= Dq x (x of n entries, y of N), or with transpose y -= Dq' x (x of N, y of n): the step system's dependence on q0
   for the tangent and the adjoint, both sums in the same order */
static PetscErrorCode SubtractDq(SimpVIStep st, PetscBool transpose, const PetscScalar x[], PetscScalar y[])
{
  const PetscInt n = st->qmap->n, N = st->scheme->degree * (n + st->layout.nmultiplier);
  Linear         L;

  PetscFunctionBegin;
  PetscCall(LinearArrays(st, &L));
  for (PetscInt r = 0; r < N; r++)
    for (PetscInt j = 0; j < n; j++) {
      if (transpose) y[j] -= L.Dq[r * n + j] * x[r];
      else y[r] -= L.Dq[r * n + j] * x[j];
    }
  PetscFunctionReturn(0);
}

/* SimpVIStepConstraintTangentStart_Private - rhs -= Dq dq0: the constraints' part of the tangent's right side */
PetscErrorCode SimpVIStepConstraintTangentStart_Private(SimpVIStep st, const PetscScalar dq0[], PetscScalar rhs[])
{
  PetscFunctionBegin;
  PetscCall(SubtractDq(st, PETSC_FALSE, dq0, rhs));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepConstraintTangentEnd_Private - dp, the kernel's dp0 + h sum_k w_k (G_x dx_k + G_v dv_k), becomes dp1: the
  multipliers' forces (dY the whole step vector's tangent) and the end projection
*/
PetscErrorCode SimpVIStepConstraintTangentEnd_Private(SimpVIStep st, const PetscScalar dq0[], const PetscScalar dY[], PetscScalar dp[])
{
  const PetscInt     s = st->scheme->degree, n = st->qmap->n, m = st->layout.nmultiplier, n1 = n + m, N = s * n1;
  const PetscScalar *dZs = dY + (s - 1) * n;
  Linear             L;

  PetscFunctionBegin;
  PetscCall(LinearArrays(st, &L));
  for (PetscInt j = 0; j < n; j++) {
    for (PetscInt c = 0; c < N; c++) dp[j] += L.Pm[j * N + c] * dY[c];
    for (PetscInt c = 0; c < n; c++) dp[j] += L.Pq[j * n + c] * dq0[c];
  }
  for (PetscInt j = 0; j < n; j++) L.wN[j] = dq0[j] + dZs[j]; /* dq1 */
  for (PetscInt r = 0; r < n1; r++) {
    L.w[r] = r < n ? dp[r] : 0;
    for (PetscInt c = 0; c < n; c++) L.w[r] -= (r < n ? L.PA[r * n + c] : L.M[(r - n) * n + c]) * L.wN[c];
  }
  SimpVIDenseLUSolve((PetscBLASInt)n1, L.K, st->cpiv, L.w);
  for (PetscInt j = 0; j < n; j++) {
    for (PetscInt c = 0; c < n; c++) dp[j] -= L.A[j * n + c] * L.wN[c];
    for (PetscInt c = 0; c < m; c++) dp[j] -= L.G1[c * n + j] * L.w[n + c];
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIStepConstraintAdjointEnd_Private - the end projection's transpose: (lq, lp), the gradients in (q1, p1), become
  those in (q1, pt) (pt the end momentum before lambda_s), in place
*/
PetscErrorCode SimpVIStepConstraintAdjointEnd_Private(SimpVIStep st, PetscScalar lq[], PetscScalar lp[])
{
  const PetscInt n = st->qmap->n, m = st->layout.nmultiplier, n1 = n + m;
  Linear         L;

  PetscFunctionBegin;
  PetscCall(LinearArrays(st, &L));
  for (PetscInt r = 0; r < n1; r++) { /* [a; b] = K^-T [0; G1 lp] */
    L.w[r] = 0;
    for (PetscInt j = 0; j < n && r >= n; j++) L.w[r] += L.G1[(r - n) * n + j] * lp[j];
  }
  SimpVIDenseLUSolve((PetscBLASInt)n1, L.Kt, st->cpiv + n1, L.w);
  for (PetscInt k = 0; k < n; k++) { /* lq += -A' lp + (Px + A)' a + M' b */
    for (PetscInt j = 0; j < n; j++) lq[k] += -L.A[j * n + k] * lp[j] + L.PA[j * n + k] * L.w[j];
    for (PetscInt c = 0; c < m; c++) lq[k] += L.M[c * n + k] * L.w[n + c];
  }
  for (PetscInt j = 0; j < n; j++) lp[j] -= L.w[j];
  PetscFunctionReturn(0);
}

/*
  SimpVIStepConstraintAdjointMomentum_Private - the multipliers' forces in pt, transposed: gY += Pm' lpt (the right side
  of the transposed step system) and gq += Pq' lpt (the direct part of the gradient in q0)
*/
PetscErrorCode SimpVIStepConstraintAdjointMomentum_Private(SimpVIStep st, const PetscScalar lpt[], PetscScalar gY[], PetscScalar gq[])
{
  const PetscInt n = st->qmap->n, N = st->scheme->degree * (n + st->layout.nmultiplier);
  Linear         L;

  PetscFunctionBegin;
  PetscCall(LinearArrays(st, &L));
  for (PetscInt j = 0; j < n; j++) {
    for (PetscInt c = 0; c < N; c++) gY[c] += L.Pm[j * N + c] * lpt[j];
    for (PetscInt c = 0; c < n; c++) gq[c] += L.Pq[j * n + c] * lpt[j];
  }
  PetscFunctionReturn(0);
}

/* SimpVIStepConstraintAdjointStart_Private - gq -= Dq' m: the constraints' part of -dF/dq0' m */
PetscErrorCode SimpVIStepConstraintAdjointStart_Private(SimpVIStep st, const PetscScalar mY[], PetscScalar gq[])
{
  PetscFunctionBegin;
  PetscCall(SubtractDq(st, PETSC_TRUE, mY, gq));
  PetscFunctionReturn(0);
}

/* SimpVIStepGetMultipliers_Private - the multipliers of the last finished step at its s + 1 nodes, node-major */
PetscErrorCode SimpVIStepGetMultipliers_Private(SimpVIStep st, PetscInt *nnodes, PetscInt *m, const PetscReal *lambda[])
{
  PetscFunctionBegin;
  if (nnodes) *nnodes = st->scheme ? st->scheme->degree + 1 : 0;
  if (m) *m = st->layout.nmultiplier;
  if (lambda) *lambda = st->clambda;
  PetscFunctionReturn(0);
}
