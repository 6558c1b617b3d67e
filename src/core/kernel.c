/*
   The step's equations, written once (include/simpvi/private/kernel.h): the coefficients of the quadrature points,
   the residual, the Jacobian and the end momentum of one step for a scheme and a step size, and their sums on plain
   arrays of one process's block. A SimpVIKernel keeps copies of the scheme's tables, so that it outlives the TS it came
   from (an ensemble keeps one).
*/
#include <simpvi/private/kernel.h> /*I "simpvi.h" I*/

/* The vector space R^n: q (+) xi = q + xi, its tangent map the identity */
static PetscErrorCode VectorRetract(PetscInt n, const PetscScalar q[], const PetscScalar xi[], PetscScalar out[])
{
  for (PetscInt j = 0; j < n; j++) out[j] = q[j] + xi[j];
  return 0;
}

static PetscErrorCode VectorLocal(PetscInt n, const PetscScalar q[], const PetscScalar q1[], PetscScalar xi[])
{
  for (PetscInt j = 0; j < n; j++) xi[j] = q1[j] - q[j];
  return 0;
}

static PetscErrorCode VectorTangent(PetscInt n, const PetscScalar q[], const PetscScalar xi[], const PetscScalar in[], PetscScalar out[])
{
  (void)q;
  (void)xi;
  for (PetscInt j = 0; j < n; j++) out[j] = in[j];
  return 0;
}

const SimpVIConfigurationSpace SimpVIConfigurationVectorSpace = {"vector space", VectorRetract, VectorLocal, VectorTangent, VectorTangent};

/*
  SimpVIKernelCoefficient_Private - the coefficient of block b's derivative at quadrature point k in d2Ld/dQ_i dQ_l,
  for any nodes i, l = 0..s: the one formula of the step Jacobian (the kernel's tables and the stability bound read it)
*/
PetscReal SimpVIKernelCoefficient_Private(const SimpVIScheme *sc, PetscReal h, SimpVIBlock b, PetscInt k, PetscInt i, PetscInt l)
{
  const PetscInt   s1 = sc->degree + 1;
  const PetscReal *B = &sc->B[k * s1], *D = &sc->D[k * s1], w = sc->w[k];

  switch (b) {
  case SIMPVI_BLOCK_PX:
    return w * D[i] * B[l];
  case SIMPVI_BLOCK_PV:
    return w * D[i] * D[l] / h;
  case SIMPVI_BLOCK_GX:
    return h * w * B[i] * B[l];
  case SIMPVI_BLOCK_GV:
    return w * B[i] * D[l];
  }
  return 0;
}

PetscErrorCode SimpVIKernelCreate_Private(const SimpVIScheme *sc, SimpVIKernel *kernel)
{
  SimpVIKernel   K;
  const PetscInt s = sc->degree, nq = sc->nq;

  PetscFunctionBegin;
  PetscCall(PetscNew(&K));
  K->s     = s;
  K->nq    = nq;
  K->space = &SimpVIConfigurationVectorSpace;
  PetscCall(PetscMalloc5(s + 1, &K->c, nq, &K->tau, nq, &K->w, nq * (s + 1), &K->B, nq * (s + 1), &K->D));
  PetscCall(PetscArraycpy(K->c, sc->c, s + 1));
  PetscCall(PetscArraycpy(K->tau, sc->tau, nq));
  PetscCall(PetscArraycpy(K->w, sc->w, nq));
  PetscCall(PetscArraycpy(K->B, sc->B, nq * (s + 1)));
  PetscCall(PetscArraycpy(K->D, sc->D, nq * (s + 1)));
  PetscCall(PetscMalloc5(nq * s, &K->xc, nq * s, &K->vc, s * nq, &K->pc, s * nq, &K->gc, nq, &K->mc));
  PetscCall(PetscMalloc3(nq * 4 * s * s, &K->jc, nq, &K->need, nq, &K->pneed));
  PetscCall(PetscMalloc1(4 * nq + s, &K->ptr));
  PetscCall(PetscMalloc3(2 * nq * s, &K->rc, 2 * nq * s, &K->rsrc, s, &K->rcount));
  *kernel = K;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIKernelDestroy - Destroys a kernel made by `TSSimpVICreateKernel()`

  Not Collective

  Input Parameter:
. kernel - the kernel

  Level: developer

.seealso: `TSSimpVICreateKernel()`
@*/
PetscErrorCode SimpVIKernelDestroy(SimpVIKernel *kernel)
{
  SimpVIKernel K;

  PetscFunctionBegin;
  if (!kernel || !*kernel) PetscFunctionReturn(0);
  K = *kernel;
  PetscCall(PetscFree5(K->c, K->tau, K->w, K->B, K->D));
  PetscCall(PetscFree5(K->xc, K->vc, K->pc, K->gc, K->mc));
  PetscCall(PetscFree3(K->jc, K->need, K->pneed));
  PetscCall(PetscFree(K->ptr));
  PetscCall(PetscFree3(K->rc, K->rsrc, K->rcount));
  PetscCall(PetscFree(K->work));
  PetscCall(PetscFree(*kernel));
  PetscFunctionReturn(0);
}

/*@C
  SimpVIKernelGetSizes - The number of unknown nodes s of a step (the step vector holds s blocks of the positions) and
  of quadrature points nq

  Not Collective

  Input Parameter:
. kernel - the kernel

  Output Parameters:
+ s  - the scheme's degree (may be `NULL`)
- nq - the quadrature points (may be `NULL`)

  Level: developer

.seealso: `TSSimpVICreateKernel()`
@*/
PetscErrorCode SimpVIKernelGetSizes(SimpVIKernel kernel, PetscInt *s, PetscInt *nq)
{
  PetscFunctionBegin;
  PetscCheck(kernel, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null kernel");
  if (s) *s = kernel->s;
  if (nq) *nq = kernel->nq;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIKernelSetStepSize - Makes the kernel's coefficients those of steps of size h (kept while h stays)

  Not Collective

  Input Parameters:
+ kernel - the kernel
- h      - the step size

  Level: developer

.seealso: `TSSimpVICreateKernel()`, `SimpVIKernelPoints()`, `SimpVIKernelResidual()`, `SimpVIKernelJacobian()`
@*/
PetscErrorCode SimpVIKernelSetStepSize(SimpVIKernel kernel, PetscReal h)
{
  const PetscInt s = kernel->s, s1 = s + 1, s2 = s * s, nq = kernel->nq;
  SimpVIScheme   sc = {.degree = s, .nq = nq, .c = kernel->c, .tau = kernel->tau, .w = kernel->w, .B = kernel->B, .D = kernel->D};

  PetscFunctionBegin;
  if (kernel->h == h) PetscFunctionReturn(0);
  PetscCheck(h != 0 && !PetscIsInfOrNanReal(h), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Step size %g", (double)h);
  for (PetscInt k = 0; k < nq; k++) {
    const PetscReal *B = &kernel->B[k * s1], *D = &kernel->D[k * s1], w = kernel->w[k];

    for (PetscInt l = 1; l <= s; l++) {
      kernel->xc[k * s + l - 1] = B[l];
      kernel->vc[k * s + l - 1] = D[l] / h;
    }
    for (PetscInt i = 0; i < s; i++) {
      kernel->pc[i * nq + k] = w * D[i];
      kernel->gc[i * nq + k] = h * w * B[i];
    }
    kernel->mc[k]   = h * w;
    kernel->need[k] = 0;
    for (PetscInt b = SIMPVI_BLOCK_PX; b <= SIMPVI_BLOCK_GV; b++) {
      PetscReal *c = &kernel->jc[(k * 4 + b) * s2];

      for (PetscInt i = 0; i < s; i++)
        for (PetscInt l = 1; l <= s; l++) {
          c[i * s + l - 1] = SimpVIKernelCoefficient_Private(&sc, h, (SimpVIBlock)b, k, i, l);
          if (c[i * s + l - 1] != 0) kernel->need[k] |= SIMPVI_NEED(b);
        }
    }
    kernel->pneed[k] = kernel->need[k]; /* and G's derivatives where the end momentum h sum_k w_k G_k has them */
    for (PetscInt l = 0; l < s && w != 0; l++) {
      if (kernel->xc[k * s + l] != 0) kernel->pneed[k] |= SIMPVI_NEED(SIMPVI_BLOCK_GX);
      if (kernel->vc[k * s + l] != 0) kernel->pneed[k] |= SIMPVI_NEED(SIMPVI_BLOCK_GV);
    }
  }
  for (PetscInt i = 0; i < s; i++) { /* the residual's terms whose coefficient is not zero, in the order of the points */
    PetscInt nt = 0;

    for (PetscInt k = 0; k < nq; k++) {
      if (kernel->pc[i * nq + k] != 0) {
        kernel->rc[i * 2 * nq + nt]     = kernel->pc[i * nq + k];
        kernel->rsrc[i * 2 * nq + nt++] = k;
      }
      if (kernel->gc[i * nq + k] != 0) {
        kernel->rc[i * 2 * nq + nt]     = kernel->gc[i * nq + k];
        kernel->rsrc[i * 2 * nq + nt++] = nq + k;
      }
    }
    kernel->rcount[i] = nt;
  }
  kernel->h = h;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIKernelTimes - The times t_k = t + tau_k h of the quadrature points of the step from t

  Not Collective

  Input Parameters:
+ kernel - the kernel (its step size set)
- t      - the step's start

  Output Parameter:
. tk - the nq times

  Level: developer

.seealso: `TSSimpVICreateKernel()`, `SimpVIKernelPoints()`
@*/
PetscErrorCode SimpVIKernelTimes(SimpVIKernel kernel, PetscReal t, PetscReal tk[])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < kernel->nq; k++) tk[k] = t + kernel->tau[k] * kernel->h;
  PetscFunctionReturn(0);
}

/* The sums of SimpVIKernelPoints() in the vector space, x_k = q0 + xi_k (VectorRetract()'s sum), inlined with n and s
   constants for the smallest systems (the same operations in the same order) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
PointsSums(SimpVIKernel kernel, const PetscInt n, const PetscInt s, const PetscScalar q0[], const PetscScalar *const z[], PetscScalar *const X[], PetscScalar *const V[])
{
  for (PetscInt k = 0; k < kernel->nq; k++) {
    PetscScalar *x = X[k];

    SimpVIMAXPYFrom(PETSC_TRUE, n, x, s, &kernel->xc[k * s], z);
    for (PetscInt j = 0; j < n; j++) x[j] = q0[j] + x[j];
    SimpVIMAXPYFrom(PETSC_TRUE, n, V[k], s, &kernel->vc[k * s], z);
  }
}

/*@C
  SimpVIKernelPoints - The positions and velocities at the quadrature points of a step, x_k = q0 + sum_l B_kl Z_l and
  v_k = (1/h) sum_l D_kl Z_l, from the increments Z_l = Q_l - q0 of its nodes

  Not Collective

  Input Parameters:
+ kernel - the kernel (its step size set)
. n      - the positions (on this process)
. q0     - the start, n entries
- Z      - the step vector: s blocks of n entries, block l - 1 holding Z_l

  Output Parameters:
+ X - nq arrays of n entries: x_k
- V - nq arrays of n entries: v_k

  Level: developer

  Notes:
  The basis sums to one and its derivatives to zero, so working with increments spares v the round-off of (Q_l - Q_0)/h.
  The positions are x_k = q0 (+) xi_k with xi_k = sum_l B_kl Z_l: q0 + xi_k in the vector space of positions.

.seealso: `TSSimpVICreateKernel()`, `SimpVIKernelResidual()`
@*/
PetscErrorCode SimpVIKernelPoints(SimpVIKernel kernel, PetscInt n, const PetscScalar q0[], const PetscScalar Z[], PetscScalar *const X[], PetscScalar *const V[])
{
  const PetscInt      s = kernel->s;
  const PetscScalar **z = kernel->ptr;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < s; i++) z[i] = Z + i * n;
  if (kernel->space == &SimpVIConfigurationVectorSpace) {
#define SIMPVI_POINTS_SUMS(N, S) \
  case (N)*8 + (S): \
    PointsSums(kernel, N, S, q0, z, X, V); \
    break
    switch (n <= 3 && s <= 6 ? n * 8 + s : 0) {
      SIMPVI_POINTS_SUMS(1, 1);
      SIMPVI_POINTS_SUMS(1, 2);
      SIMPVI_POINTS_SUMS(1, 3);
      SIMPVI_POINTS_SUMS(1, 4);
      SIMPVI_POINTS_SUMS(1, 5);
      SIMPVI_POINTS_SUMS(1, 6);
      SIMPVI_POINTS_SUMS(2, 1);
      SIMPVI_POINTS_SUMS(2, 2);
      SIMPVI_POINTS_SUMS(2, 3);
      SIMPVI_POINTS_SUMS(2, 4);
      SIMPVI_POINTS_SUMS(2, 5);
      SIMPVI_POINTS_SUMS(2, 6);
      SIMPVI_POINTS_SUMS(3, 1);
      SIMPVI_POINTS_SUMS(3, 2);
      SIMPVI_POINTS_SUMS(3, 3);
      SIMPVI_POINTS_SUMS(3, 4);
      SIMPVI_POINTS_SUMS(3, 5);
      SIMPVI_POINTS_SUMS(3, 6);
    default:
      PointsSums(kernel, n, s, q0, z, X, V);
    }
#undef SIMPVI_POINTS_SUMS
    PetscFunctionReturn(0);
  }
  for (PetscInt k = 0; k < kernel->nq; k++) { /* x_k = q0 (+) xi_k, xi_k = sum_l B_kl Z_l made in X[k] */
    SimpVIMAXPYFrom(PETSC_TRUE, n, X[k], s, &kernel->xc[k * s], z);
    PetscCall(kernel->space->retract(n, q0, X[k], X[k]));
    SimpVIMAXPYFrom(PETSC_TRUE, n, V[k], s, &kernel->vc[k * s], z);
  }
  PetscFunctionReturn(0);
}

/* sum_t a[t] y[src[t]] on scalars, in SimpVIMAXPYFrom()'s order from zero (bit for bit its one-entry sum) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline PetscScalar
DotFrom(PetscInt nv, const PetscReal a[], const PetscScalar y[], const PetscInt src[])
{
  PetscInt    t = nv & 0x3;
  PetscScalar x = 0;

  switch (t) {
  case 3:
    x = 0 + (a[0] * y[src[0]] + a[1] * y[src[1]] + a[2] * y[src[2]]);
    break;
  case 2:
    x = 0 + (a[0] * y[src[0]] + a[1] * y[src[1]]);
    break;
  case 1:
    x = 0 + a[0] * y[src[0]];
    break;
  default:
    if (nv) {
      x = 0 + (a[0] * y[src[0]] + a[1] * y[src[1]] + a[2] * y[src[2]] + a[3] * y[src[3]]);
      t = 4;
    }
  }
  for (; t < nv; t += 4) x += a[t] * y[src[t]] + a[t + 1] * y[src[t + 1]] + a[t + 2] * y[src[t + 2]] + a[t + 3] * y[src[t + 3]];
  return x;
}

/* The sums of SimpVIKernelResidual(), inlined with n a constant for the smallest systems (the same operations in the
   same order) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
ResidualSums(SimpVIKernel kernel, const PetscInt n, const PetscScalar p0[], const PetscScalar *const P[], const PetscScalar *const G[], PetscScalar R[])
{
  const PetscInt      s = kernel->s, nq = kernel->nq;
  const PetscScalar **terms = kernel->ptr, **pg = kernel->ptr + 2 * nq;

  if (n <= 3 && nq <= 16) { /* a few positions: the terms' values gathered once per position, each row's sums on scalars */
    PetscScalar v[3][32];

    for (PetscInt k = 0; k < nq; k++)
      for (PetscInt j = 0; j < n; j++) {
        v[j][k]      = P[k][j];
        v[j][nq + k] = G[k][j];
      }
    for (PetscInt i = 0; i < s; i++)
      for (PetscInt j = 0; j < n; j++) R[i * n + j] = DotFrom(kernel->rcount[i], &kernel->rc[i * 2 * nq], v[j], &kernel->rsrc[i * 2 * nq]);
    if (p0)
      for (PetscInt j = 0; j < n; j++) R[j] += p0[j];
    return;
  }
  for (PetscInt k = 0; k < nq; k++) {
    pg[k]      = P[k];
    pg[nq + k] = G[k];
  }
  for (PetscInt i = 0; i < s; i++) {
    const PetscInt nt = kernel->rcount[i], *src = &kernel->rsrc[i * 2 * nq];

    for (PetscInt t = 0; t < nt; t++) terms[t] = pg[src[t]];
    SimpVIMAXPYFrom(PETSC_TRUE, n, R + i * n, nt, &kernel->rc[i * 2 * nq], terms);
  }
  if (p0)
    for (PetscInt j = 0; j < n; j++) R[j] += p0[j];
}

/*@C
  SimpVIKernelResidual - The residual of the step equations, R_i = delta_i0 p0 + sum_k w_k [D_ki P_k + h B_ki G_k]
  (i = 0..s-1): the derivative of the discrete action in node i

  Not Collective

  Input Parameters:
+ kernel - the kernel (its step size set)
. n      - the positions (on this process)
. p0     - the start momentum, n entries (`NULL`: 0)
. P      - nq arrays: P = dL/dv at the quadrature points
- G      - nq arrays: G = dL/dx (plus forces) there

  Output Parameter:
. R - s blocks of n entries

  Level: developer

.seealso: `TSSimpVICreateKernel()`, `SimpVIKernelPoints()`, `SimpVIKernelJacobian()`
@*/
PetscErrorCode SimpVIKernelResidual(SimpVIKernel kernel, PetscInt n, const PetscScalar p0[], const PetscScalar *const P[], const PetscScalar *const G[], PetscScalar R[])
{
  PetscFunctionBegin;
#define SIMPVI_RESIDUAL_SUMS(N) \
  case N: \
    ResidualSums(kernel, N, p0, P, G, R); \
    break
  switch (n <= 3 ? n : 0) {
    SIMPVI_RESIDUAL_SUMS(1);
    SIMPVI_RESIDUAL_SUMS(2);
    SIMPVI_RESIDUAL_SUMS(3);
  default:
    ResidualSums(kernel, n, p0, P, G, R);
  }
#undef SIMPVI_RESIDUAL_SUMS
  PetscFunctionReturn(0);
}

/*@C
  SimpVIKernelMomentum - The end momentum of a solved step, p1 = p0 + h sum_k w_k G_k

  Not Collective

  Input Parameters:
+ kernel - the kernel (its step size set)
. n      - the positions (on this process)
. p0     - the start momentum (`NULL`: 0, for the increment alone)
- G      - nq arrays: G = dL/dx (plus forces) at the quadrature points of the solved step

  Output Parameter:
. p1 - n entries

  Level: developer

  Note:
  Once the step equations hold this is d Ld/dQ_s (the D rows sum to zero and the B rows to one), but a cyclic coordinate
  (G = 0) keeps its momentum exactly, with no Newton residual leaking in.

.seealso: `TSSimpVICreateKernel()`, `SimpVIKernelResidual()`
@*/
PetscErrorCode SimpVIKernelMomentum(SimpVIKernel kernel, PetscInt n, const PetscScalar p0[], const PetscScalar *const G[], PetscScalar p1[])
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < n; j++) p1[j] = p0 ? p0[j] : 0;
  for (PetscInt k = 0; k < kernel->nq; k++)
    for (PetscInt j = 0; j < n; j++) p1[j] += kernel->mc[k] * G[k][j];
  PetscFunctionReturn(0);
}

/* p1 += a h sum_k w_k (Gx_k dx_k + Gv_k dv_k): the first-order change of the end momentum of SimpVIKernelMomentum() over
   a change of the points (dx, dv: nq arrays, SimpVIKernelPoints() of the step vector's change from q0 = 0; Gx, Gv: nq
   n x n row-major arrays) */
PetscErrorCode SimpVIKernelMomentumUpdate_Private(SimpVIKernel kernel, PetscInt n, PetscReal a, const PetscScalar *const dx[], const PetscScalar *const dv[], const PetscScalar *const Gx[], const PetscScalar *const Gv[], PetscScalar p1[])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < kernel->nq; k++)
    for (PetscInt r = 0; r < n; r++) {
      PetscScalar sum = 0;

      for (PetscInt j = 0; j < n; j++) sum += Gx[k][r * n + j] * dx[k][j] + Gv[k][r * n + j] * dv[k][j];
      p1[r] += a * kernel->mc[k] * sum;
    }
  PetscFunctionReturn(0);
}

/* coef = scale times the unit coefficients (s x s, rows i = 0..s-1, columns l = 1..s) of a block-b term at point k,
   all zero when the point does not need the block */
PetscErrorCode SimpVIKernelJacobianTerm_Private(SimpVIKernel K, PetscInt k, SimpVIBlock b, PetscScalar scale, PetscScalar coef[])
{
  const PetscInt   s2   = K->s * K->s;
  const PetscReal *unit = &K->jc[(k * 4 + b) * s2];

  PetscFunctionBegin;
#if !defined(PETSC_USE_COMPLEX)
  if (scale == 1) { /* 1 x is x, bit for bit: most terms' scale */
    PetscCall(PetscArraycpy(coef, unit, s2));
    PetscFunctionReturn(0);
  }
#endif
  for (PetscInt j = 0; j < s2; j++) coef[j] = scale * unit[j];
  PetscFunctionReturn(0);
}

/* The sums of SimpVIKernelJacobian(), inlined with n and s constants for the smallest systems of the seeds' schemes
   (the loops then unrolled; the same operations in the same order) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
JacobianSums(SimpVIKernel kernel, const PetscInt n, const PetscInt s, const PetscScalar *const Px[], const PetscScalar *const Pv[], const PetscScalar *const Gx[], const PetscScalar *const Gv[], PetscInt ld, PetscScalar J[])
{
  const PetscInt              nq = kernel->nq, m = s * n;
  PetscScalar *PETSC_RESTRICT T = kernel->work, *PETSC_RESTRICT U = kernel->work + n * m; /* no alias of the inputs */

  for (PetscInt r = 0; r < m; r++)
    for (PetscInt c = 0; c < m; c++) J[r * ld + c] = 0;
  /* the chain rule of the residual's coefficients through the points': dR_i/dZ_l = sum_k [w_k D_ki T_kl + h w_k B_ki U_kl],
     T_kl = B_kl Px + D_kl/h Pv and U_kl = B_kl Gx + D_kl/h Gv made once per point as rows of the Jacobian (T[r m + l n + c])
     and shared by every row block i */
  for (PetscInt k = 0; k < nq; k++) {
    const PetscScalar *PETSC_RESTRICT px = Px[k], *PETSC_RESTRICT pv = Pv[k], *PETSC_RESTRICT gx = Gx[k], *PETSC_RESTRICT gv = Gv[k];

    for (PetscInt l = 0; l < s; l++) {
      const PetscReal b = kernel->xc[k * s + l], d = kernel->vc[k * s + l];

      SIMPVI_UNROLL_FOR(PetscInt r = 0; r < n; r++) {
        SIMPVI_UNROLL_FOR(PetscInt c = 0; c < n; c++) {
          T[r * m + l * n + c] = b * px[r * n + c] + d * pv[r * n + c];
          U[r * m + l * n + c] = b * gx[r * n + c] + d * gv[r * n + c];
        }
      }
    }
    for (PetscInt i = 0; i < s; i++) {
      const PetscReal a = kernel->pc[i * nq + k], g = kernel->gc[i * nq + k];

      if (a == 0 && g == 0) continue;
      for (PetscInt r = 0; r < n; r++) {
        PetscScalar *PETSC_RESTRICT       row = &J[(i * n + r) * ld];
        const PetscScalar *PETSC_RESTRICT Tr = &T[r * m], *PETSC_RESTRICT Ur = &U[r * m];

        if (g == 0) { /* a Lobatto scheme's: B_ki = 0 but at its own node, half the sums' work */
          SIMPVI_UNROLL_FOR(PetscInt c = 0; c < m; c++) row[c] += a * Tr[c];
        } else {
          SIMPVI_UNROLL_FOR(PetscInt c = 0; c < m; c++) row[c] += a * Tr[c] + g * Ur[c];
        }
      }
    }
  }
}

/*@C
  SimpVIKernelJacobian - The step Jacobian dR/dZ, dense, from the derivatives of P and G at the quadrature points

  Not Collective

  Input Parameters:
+ kernel - the kernel (its step size set)
. n      - the positions
. Px     - nq arrays of n x n entries (row-major): dP/dx at the quadrature points
. Pv     - dP/dv
. Gx     - dG/dx
. Gv     - dG/dv
- ld     - the leading dimension of J (at least s n)

  Output Parameter:
. J - the s n x s n Jacobian, row-major, rows and columns block-major as the step vector (overwritten)

  Level: developer

  Note:
  The same coefficients as the step's Vec path assembles (the residual's times the points'), summed per point.

.seealso: `TSSimpVICreateKernel()`, `SimpVIKernelResidual()`
@*/
PetscErrorCode SimpVIKernelJacobian(SimpVIKernel kernel, PetscInt n, const PetscScalar *const Px[], const PetscScalar *const Pv[], const PetscScalar *const Gx[], const PetscScalar *const Gv[], PetscInt ld, PetscScalar J[])
{
  const PetscInt m = kernel->s * n;

  PetscFunctionBegin;
  if (kernel->nwork < 2 * n * m) { /* the per-point sums, kept for the largest system seen */
    PetscCall(PetscFree(kernel->work));
    PetscCall(PetscMalloc1(2 * n * m, &kernel->work));
    kernel->nwork = 2 * n * m;
  }
#define SIMPVI_JACOBIAN_SUMS(N, S) \
  case (N)*8 + (S): \
    JacobianSums(kernel, N, S, Px, Pv, Gx, Gv, ld, J); \
    break
  switch (n <= 3 && kernel->s <= 6 ? n * 8 + kernel->s : 0) {
    SIMPVI_JACOBIAN_SUMS(1, 1);
    SIMPVI_JACOBIAN_SUMS(1, 2);
    SIMPVI_JACOBIAN_SUMS(1, 3);
    SIMPVI_JACOBIAN_SUMS(1, 4);
    SIMPVI_JACOBIAN_SUMS(1, 5);
    SIMPVI_JACOBIAN_SUMS(1, 6);
    SIMPVI_JACOBIAN_SUMS(2, 1);
    SIMPVI_JACOBIAN_SUMS(2, 2);
    SIMPVI_JACOBIAN_SUMS(2, 3);
    SIMPVI_JACOBIAN_SUMS(2, 4);
    SIMPVI_JACOBIAN_SUMS(2, 5);
    SIMPVI_JACOBIAN_SUMS(2, 6);
    SIMPVI_JACOBIAN_SUMS(3, 1);
    SIMPVI_JACOBIAN_SUMS(3, 2);
    SIMPVI_JACOBIAN_SUMS(3, 3);
    SIMPVI_JACOBIAN_SUMS(3, 4);
    SIMPVI_JACOBIAN_SUMS(3, 5);
    SIMPVI_JACOBIAN_SUMS(3, 6);
  default:
    JacobianSums(kernel, n, kernel->s, Px, Pv, Gx, Gv, ld, J);
  }
#undef SIMPVI_JACOBIAN_SUMS
  PetscFunctionReturn(0);
}
