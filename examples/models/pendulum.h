/*
   The pendulum q'' = -sin q (unit mass and frequency), shared by tests/dense.c, tests/events.c and tests/smallpath.c:
   its potential V = -cos x_0 (x_0 the angle from the downward vertical, other coordinates free: the spherical
   pendulum's phi), its Lagrangian on plain arrays, its PETSc second-order form u'' + sin u = 0, and its exact motion.

   The exact motion of the pendulum released at rest from q0, through Jacobi's
   elliptic functions with modulus k = sin(q0/2):
     q(t) = 2 asin(k sn(K - t, k)),  p(t) = q'(t) = -2 k cn(K - t, k),  period T = 4 K(k),
   zero crossings of q at t = (2j + 1) K. K and sn, cn come from the arithmetic-geometric mean (Abramowitz and Stegun
   17.6 and 16.4), exact to round-off, so that errors of 1e-10 and below can be measured against them.
*/
#ifndef PENDULUM_H
#define PENDULUM_H
#include <petscts.h>

/* V = -cos x_0 for TSSimpVISetPotential() (one process) */
static inline PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecSet(g, 0));
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArray(g, &gg));
  *V    = -PetscCosReal(PetscRealPart(xx[0]));
  gg[0] = PetscSinReal(PetscRealPart(xx[0]));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArray(g, &gg));
  PetscFunctionReturn(0);
}

static inline PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  const PetscScalar *xx;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(MatZeroEntries(H));
  PetscCall(MatSetValue(H, 0, 0, PetscCosReal(PetscRealPart(xx[0])), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* F = a + sin u, for TSSetI2Function() */
static inline PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  const PetscScalar *u, *a;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayWrite(F, &f));
  f[0] = a[0] + PetscSinReal(PetscRealPart(u[0]));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

static inline PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(MatSetValue(P, 0, 0, shiftA + PetscCosReal(PetscRealPart(u[0])), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* The same mechanics for TSSimpVISetPointwiseLagrangian() (n = 1): L = 1/2 v^2 + cos x at every point of the call */
static inline PetscErrorCode PendulumPointwise(TS ts, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  PetscFunctionBeginUser;
  PetscCheck(n == 1, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_SIZ, "The pendulum has 1 position, not %" PetscInt_FMT, n);
  for (PetscInt k = 0; k < npts; k++) {
    if (L) L[k] = 0.5 * v[k] * v[k] + PetscCosReal(x[k]);
    if (P) P[k] = v[k];
    if (G) G[k] = -PetscSinReal(x[k]);
    if (Px) {
      Px[k] = Gv[k] = 0;
      Pv[k]         = 1;
      Gx[k]         = -PetscCosReal(x[k]);
    }
  }
  PetscFunctionReturn(0);
}

/* the complete elliptic integral of the first kind: K(k) = pi / (2 AGM(1, sqrt(1 - k^2))) */
static inline PetscReal EllipticK(PetscReal k)
{
  PetscReal a = 1, b = PetscSqrtReal(1 - k * k);

  for (PetscInt i = 0; i < 64 && PetscAbsReal(a - b) > 1e-17 * a; i++) {
    PetscReal an = (a + b) / 2;

    b = PetscSqrtReal(a * b);
    a = an;
  }
  return PETSC_PI / (2 * a);
}

/* sn(u, k) and cn(u, k) by the descending AGM: phi_N = 2^N a_N u, phi_{n-1} = (phi_n + asin(c_n sin(phi_n) / a_n)) / 2 */
static inline void JacobiSnCn(PetscReal u, PetscReal k, PetscReal *sn, PetscReal *cn)
{
  PetscReal a[64], c[64], b = PetscSqrtReal(1 - k * k), phi;
  PetscInt  n = 0;

  a[0] = 1;
  c[0] = k;
  while (n < 63 && PetscAbsReal(c[n]) > 1e-17) {
    a[n + 1] = (a[n] + b) / 2;
    c[n + 1] = (a[n] - b) / 2;
    b        = PetscSqrtReal(a[n] * b);
    n++;
  }
  phi = PetscPowReal(2.0, (PetscReal)n) * a[n] * u;
  for (; n > 0; n--) phi = (phi + PetscAsinReal(c[n] * PetscSinReal(phi) / a[n])) / 2;
  *sn = PetscSinReal(phi);
  *cn = PetscCosReal(phi);
}

/* (q, p) at time t of the pendulum released at rest from q0 */
static inline void PendulumExact(PetscReal q0, PetscReal t, PetscReal *q, PetscReal *p)
{
  PetscReal k = PetscSinReal(q0 / 2), K = EllipticK(k), sn, cn;

  JacobiSnCn(K - t, k, &sn, &cn);
  *q = 2 * PetscAsinReal(k * sn);
  *p = -2 * k * cn;
}
#endif
