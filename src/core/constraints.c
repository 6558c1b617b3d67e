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
  const PetscInt n1 = n + m;

  PetscFunctionBegin;
  PetscCall(SimpVIStepConstraintsReset_Private(st));
  /* scratch: a node Q (n), g (m), G (m n), H (n n); the projection's P, G, Px, Pv, Gx, Gv at one point (2 n + 4 n n),
     its system (n1 n1), right side (n1), pivots (n1, as reals), v (n) */
  PetscCall(PetscMalloc3(s + 1, &st->cbeta, (s + 1) * m, &st->clambda, n + m + m * n + n * n + 2 * n + 4 * n * n + n1 * n1 + 2 * n1 + n, &st->cwork));
  for (PetscInt i = 0; i <= s; i++) {
    st->cbeta[i] = 0;
    for (PetscInt k = 0; k < nq; k++) st->cbeta[i] += st->scheme->w[k] * st->scheme->B[k * (s + 1) + i];
  }
  PetscCall(PetscArrayzero(st->clambda, (s + 1) * m));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepConstraintsReset_Private(SimpVIStep st)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(st->cbeta, st->clambda, st->cwork));
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
  SimpVIStepConstraintResidual_Private - adds the constraint forces -h beta_i G(Q_i)' lambda_i to the node rows of R (the
  kernel's residual, made already) and writes g(Q_i), i = 1..s, in its constraint rows
*/
PetscErrorCode SimpVIStepConstraintResidual_Private(SimpVIStep st, Vec Y, Vec R)
{
  const PetscInt     s = st->scheme->degree, n = st->qmap->n, m = st->layout.nmultiplier;
  const PetscScalar *y, *q0;
  PetscScalar       *r, *Q = st->cwork, *g = Q + n, *G = g + m;

  PetscFunctionBegin;
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
  for i >= 1; an explicit zero on the multipliers' diagonal, so that it is in a matrix's pattern
*/
static PetscErrorCode Blocks(SimpVIStep st, Vec Y, AddBlockFn add, void *ctx)
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

    Node(st, q0, y, i, Q);
    PetscCall(Constraint(st, Q, i && i < s ? lambda : NULL, NULL, G, i && i < s ? H : NULL));
    if (i < s) { /* node i's rows: lambda_i's columns and, at an unknown node, Z_i's */
      for (PetscInt j = 0; j < n; j++) rows[j] = i * n + j;
      for (PetscInt c = 0; c < m; c++) cols[c] = s * n + i * m + c;
      for (PetscInt j = 0; j < n; j++)
        for (PetscInt c = 0; c < m; c++) GT[j * m + c] = a * G[c * n + j];
      PetscCall(add(ctx, n, rows, m, cols, GT));
      if (i) {
        for (PetscInt j = 0; j < n; j++) cols[j] = (i - 1) * n + j;
        for (PetscInt j = 0; j < n * n; j++) H[j] *= a;
        PetscCall(add(ctx, n, rows, n, cols, H));
      }
    }
    if (i) { /* g(Q_i)'s rows */
      for (PetscInt c = 0; c < m; c++) rows[c] = s * n + (i - 1) * m + c;
      for (PetscInt j = 0; j < n; j++) cols[j] = (i - 1) * n + j;
      PetscCall(add(ctx, m, rows, n, cols, G));
    }
  }
  for (PetscInt r = s * n; r < s * (n + m); r++) {
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
  PetscCall(Blocks(st, Y, AddToMat, J));
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
  PetscCall(Blocks(st, Y, AddToDense, &d));
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

  PetscFunctionBegin;
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
  for (it = 0; it < SIMPVI_CONSTRAINT_MAXIT; it++) {
    PetscReal dv = 0, vv = 0;

    PetscCall(st->door.points(st->door.ctx, 1, n, &t1, Q, v, P, Gp, Px, Pv, Gx, Gv));
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
    if (dv <= 4 * PETSC_MACHINE_EPSILON * vv || dv == 0) break;
  }
  PetscCheck(it < SIMPVI_CONSTRAINT_MAXIT, PETSC_COMM_SELF, PETSC_ERR_CONV_FAILED, "The end momentum's projection onto the hidden constraint did not converge at t = %g", (double)t1);
  for (PetscInt c = 0; c < m; c++) {
    for (PetscInt j = 0; j < n; j++) d[j] -= G[c * n + j] * mu[c];
    st->clambda[s * m + c] = mu[c] / (st->h * st->cbeta[s]);
  }
  if (pt != p) PetscCall(PetscFree(pt));
  PetscCall(VecRestoreArrayRead(st->p0, &p0));
  PetscCall(VecRestoreArrayRead(st->q0, &q0));
  PetscCall(VecRestoreArrayRead(st->Y, &y));
  PetscCall(PetscFree2(piv, mu));
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
