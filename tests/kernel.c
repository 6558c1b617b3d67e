static char help[] = "The step's equations on plain arrays (TSSimpVICreateKernel()): a program that takes its own steps with the\n"
                     "kernel (Newton on SimpVIKernelResidual() and SimpVIKernelJacobian(), the end by SimpVIKernelMomentum())\n"
                     "takes the steps of a TSSIMPVI with the same scheme. The Henon-Heiles system through the pointwise door,\n"
                     "-steps steps of -h; prints whether the kernel's Jacobian is the differences of its residual and whether\n"
                     "both runs end at the same (q, p) to 1e-12.\n"
                     "Options: -steps <50> -h <0.1> (and -ts_simpvi_type, -ts_simpvi_degree)\n\n";

#include <simpvi.h>

/* L = 1/2 |v|^2 - V(x), V = (x0^2 + x1^2)/2 + x0^2 x1 - x1^3/3: P, G (unless P is NULL) and their derivatives (unless
   Px is NULL) */
static void Mechanics(const PetscReal x[], const PetscReal v[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[])
{
  if (P) {
    P[0] = v[0];
    P[1] = v[1];
    G[0] = -(x[0] + 2 * x[0] * x[1]);
    G[1] = -(x[1] + x[0] * x[0] - x[1] * x[1]);
  }
  if (!Px) return;
  for (PetscInt j = 0; j < 4; j++) Px[j] = Gv[j] = Pv[j] = 0;
  Pv[0] = Pv[3] = 1;
  Gx[0]         = -(1 + 2 * x[1]);
  Gx[1] = Gx[2] = -2 * x[0];
  Gx[3]         = -(1 - 2 * x[1]);
}

static PetscErrorCode Pointwise(TS ts, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < npts; k++) {
    const PetscReal *xk = x + 2 * k, *vk = v + 2 * k;

    if (L) L[k] = 0.5 * (vk[0] * vk[0] + vk[1] * vk[1]) - (0.5 * (xk[0] * xk[0] + xk[1] * xk[1]) + xk[0] * xk[0] * xk[1] - xk[1] * xk[1] * xk[1] / 3);
    Mechanics(xk, vk, P ? P + 2 * k : NULL, G ? G + 2 * k : NULL, Px ? Px + 4 * k : NULL, Pv ? Pv + 4 * k : NULL, Gx ? Gx + 4 * k : NULL, Gv ? Gv + 4 * k : NULL);
  }
  PetscFunctionReturn(0);
}

/* x = A^-1 b by Gaussian elimination with partial pivoting (A, m x m row-major, overwritten; b overwritten by x) */
static void DenseSolve(PetscInt m, PetscReal A[], PetscReal b[])
{
  for (PetscInt c = 0; c < m; c++) {
    PetscInt p = c;

    for (PetscInt r = c + 1; r < m; r++)
      if (PetscAbsReal(A[r * m + c]) > PetscAbsReal(A[p * m + c])) p = r;
    for (PetscInt j = 0; j < m && p != c; j++) {
      const PetscReal t = A[c * m + j];

      A[c * m + j] = A[p * m + j];
      A[p * m + j] = t;
    }
    if (p != c) {
      const PetscReal t = b[c];

      b[c] = b[p];
      b[p] = t;
    }
    for (PetscInt r = c + 1; r < m; r++) {
      const PetscReal f = A[r * m + c] / A[c * m + c];

      for (PetscInt j = c; j < m; j++) A[r * m + j] -= f * A[c * m + j];
      b[r] -= f * b[c];
    }
  }
  for (PetscInt r = m - 1; r >= 0; r--) {
    for (PetscInt j = r + 1; j < m; j++) b[r] -= A[r * m + j] * b[j];
    b[r] /= A[r * m + r];
  }
}

/* The kernel's work for one step of n = 2 positions: points, P, G and derivatives at each, pointer arrays */
typedef struct {
  SimpVIKernel  kernel;
  PetscInt      s, nq;
  PetscReal    *x, *v, *P, *G, *D;
  PetscScalar **X, **V, **Pp, **Gp, **Dp;
} Work;

/* R(Z) of the step from (q0, p0), and J(Z) when J is not NULL */
static PetscErrorCode StepSystem(Work *w, const PetscReal q0[], const PetscReal p0[], const PetscReal Z[], PetscReal R[], PetscReal J[])
{
  const PetscInt nq = w->nq;

  PetscFunctionBeginUser;
  PetscCall(SimpVIKernelPoints(w->kernel, 2, q0, Z, w->X, w->V));
  for (PetscInt k = 0; k < nq; k++) Mechanics(w->X[k], w->V[k], w->Pp[k], w->Gp[k], w->Dp[k], w->Dp[nq + k], w->Dp[2 * nq + k], w->Dp[3 * nq + k]);
  PetscCall(SimpVIKernelResidual(w->kernel, 2, p0, (const PetscScalar *const *)w->Pp, (const PetscScalar *const *)w->Gp, R));
  if (J) {
    const PetscScalar *const *D = (const PetscScalar *const *)w->Dp;

    PetscCall(SimpVIKernelJacobian(w->kernel, 2, D, D + nq, D + 2 * nq, D + 3 * nq, 2 * w->s, J));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  TS        ts;
  Vec       U;
  PetscInt  steps = 50, s, nq, m;
  PetscReal h = 0.1, q[2] = {0.1, -0.2}, p[2] = {0.3, 0.25}, *Z, *R, *J, *R2, jerr = 0, jmax = 0, diff = 0;
  Work      w;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-h", &h, NULL));

  /* the TS's run */
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetPointwiseLagrangian(ts, Pointwise, NULL));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e9));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  {
    SNES snes;

    PetscCall(TSGetSNES(ts, &snes));
    PetscCall(SNESSetTolerances(snes, 1e-14, 1e-14, 0, 50, PETSC_DEFAULT));
  }
  PetscCall(TSSetFromOptions(ts));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  {
    PetscScalar *u;

    PetscCall(VecGetArrayWrite(U, &u));
    u[0] = q[0];
    u[1] = q[1];
    u[2] = p[0];
    u[3] = p[1];
    PetscCall(VecRestoreArrayWrite(U, &u));
  }
  PetscCall(TSSolve(ts, U));

  /* the same steps by the kernel */
  PetscCall(TSSimpVICreateKernel(ts, &w.kernel));
  PetscCall(SimpVIKernelGetSizes(w.kernel, &s, &nq));
  PetscCall(SimpVIKernelSetStepSize(w.kernel, h));
  w.s  = s;
  w.nq = nq;
  m    = 2 * s;
  PetscCall(PetscMalloc5(nq * 2, &w.x, nq * 2, &w.v, nq * 2, &w.P, nq * 2, &w.G, 4 * nq * 4, &w.D));
  PetscCall(PetscMalloc5(nq, &w.X, nq, &w.V, nq, &w.Pp, nq, &w.Gp, 4 * nq, &w.Dp));
  for (PetscInt k = 0; k < nq; k++) {
    w.X[k]  = w.x + 2 * k;
    w.V[k]  = w.v + 2 * k;
    w.Pp[k] = w.P + 2 * k;
    w.Gp[k] = w.G + 2 * k;
  }
  for (PetscInt j = 0; j < 4 * nq; j++) w.Dp[j] = w.D + 4 * j;
  PetscCall(PetscMalloc4(m, &Z, m, &R, m * m, &J, m, &R2));
  for (PetscInt step = 0; step < steps; step++) {
    const PetscReal *c;

    PetscCall(TSSimpVIGetTableau(ts, NULL, NULL, &c, NULL, NULL, NULL, NULL));
    for (PetscInt l = 0; l < s; l++) /* predictor: along the start momentum (P = v) */
      for (PetscInt d = 0; d < 2; d++) Z[l * 2 + d] = c[l + 1] * h * p[d];
    if (step == 0) { /* the Jacobian against central differences of the residual, at the predictor */
      PetscCall(StepSystem(&w, q, p, Z, R, J));
      for (PetscInt col = 0; col < m; col++) {
        const PetscReal e = 1e-6, z = Z[col];

        Z[col] = z + e;
        PetscCall(StepSystem(&w, q, p, Z, R2, NULL));
        Z[col] = z - e;
        PetscCall(StepSystem(&w, q, p, Z, R, NULL));
        Z[col] = z;
        for (PetscInt r = 0; r < m; r++) {
          jerr = PetscMax(jerr, PetscAbsReal((R2[r] - R[r]) / (2 * e) - J[r * m + col]));
          jmax = PetscMax(jmax, PetscAbsReal(J[r * m + col]));
        }
      }
    }
    for (PetscInt it = 0; it < 50; it++) { /* Newton */
      PetscReal rnorm = 0;

      PetscCall(StepSystem(&w, q, p, Z, R, J));
      for (PetscInt r = 0; r < m; r++) rnorm = PetscMax(rnorm, PetscAbsReal(R[r]));
      if (rnorm < 1e-15) break;
      DenseSolve(m, J, R);
      for (PetscInt r = 0; r < m; r++) Z[r] -= R[r];
    }
    PetscCall(SimpVIKernelMomentum(w.kernel, 2, p, (const PetscScalar *const *)w.Gp, p));
    for (PetscInt d = 0; d < 2; d++) q[d] += Z[(s - 1) * 2 + d];
  }
  {
    const PetscScalar *u;

    PetscCall(VecGetArrayRead(U, &u));
    diff = PetscMax(PetscMax(PetscAbsReal(u[0] - q[0]), PetscAbsReal(u[1] - q[1])), PetscMax(PetscAbsReal(u[2] - p[0]), PetscAbsReal(u[3] - p[1])));
    PetscCall(VecRestoreArrayRead(U, &u));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "kernel: %" PetscInt_FMT " unknown nodes, %" PetscInt_FMT " quadrature points\n", s, nq));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "Jacobian = central differences of the residual (to 1e-7 relative): %s\n", jerr <= 1e-7 * jmax ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "kernel's steps end where the TS's do (to 1e-12): %s\n", diff <= 1e-12 ? "yes" : "no"));
  if (diff > 1e-12) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  difference %g\n", (double)diff));
  PetscCall(PetscFree4(Z, R, J, R2));
  PetscCall(PetscFree5(w.x, w.v, w.P, w.G, w.D));
  PetscCall(PetscFree5(w.X, w.V, w.Pp, w.Gp, w.Dp));
  PetscCall(SimpVIKernelDestroy(&w.kernel));
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # the dense path and the SNES path of the TS, and the schemes (Lobatto of degree 5: the kernel's sums of more than
  # four terms)
  test:
    suffix: simpson
    args: -ts_simpvi_type simpson
  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto -ts_simpvi_small_limit 0
  test:
    suffix: gauss
    args: -ts_simpvi_type gauss
  test:
    suffix: lobatto5
    args: -ts_simpvi_type lobatto -ts_simpvi_degree 5 -h 0.2

TEST*/
