static char help[] = "The split door with Lobatto quadrature is the Lobatto IIIA-IIIB partitioned Runge-Kutta pair (docs/mathematics.md):\n"
                     "A (a_ik = int_0^{c_i} l_k), b = w and B-hat (b_i ah_ik + b_k a_ki = b_i b_k) are built from the scheme's table\n"
                     "(TSSimpVIGetTableau(): nodes and weights), the pair's steps are solved here by fixed-point iteration on f and g\n"
                     "alone, and compared with TSSIMPVI's steps on the same TSRHSSplit program. Two coupled pendulums,\n"
                     "H = T(p) + sum (1 - cos q_i) + k/2 (q_1 - q_2)^2 with T = sum p_i^2/(2 m_i): the same steps to round-off.\n"
                     "-relativistic: T = sum sqrt(1 + p_i^2); the Galerkin integrator is then another method of the same order (the\n"
                     "pair's stage momenta are not f^{-1} of the polynomial's velocities), and the steps differ beyond round-off.\n"
                     "Options: -steps <5> -h <0.1> -relativistic\n\n";

#include <simpvi.h>

#define N 2
static const PetscReal kc = 0.3, mass[N] = {1, 2};
static PetscBool       relativistic = PETSC_FALSE;

static void F(const PetscReal p[], PetscReal v[])
{
  for (PetscInt i = 0; i < N; i++) v[i] = relativistic ? p[i] / PetscSqrtReal(1 + p[i] * p[i]) : p[i] / mass[i];
}

static void G(const PetscReal q[], PetscReal g[])
{
  g[0] = -PetscSinReal(q[0]) - kc * (q[0] - q[1]);
  g[1] = -PetscSinReal(q[1]) - kc * (q[1] - q[0]);
}

static PetscErrorCode PositionRate(TS ts, PetscReal t, Vec p, Vec qdot, void *ctx)
{
  const PetscScalar *a;
  PetscScalar       *b;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(p, &a));
  PetscCall(VecGetArrayWrite(qdot, &b));
  F(a, b);
  PetscCall(VecRestoreArrayRead(p, &a));
  PetscCall(VecRestoreArrayWrite(qdot, &b));
  PetscFunctionReturn(0);
}

static PetscErrorCode MomentumRate(TS ts, PetscReal t, Vec q, Vec pdot, void *ctx)
{
  const PetscScalar *a;
  PetscScalar       *b;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(q, &a));
  PetscCall(VecGetArrayWrite(pdot, &b));
  G(a, b);
  PetscCall(VecRestoreArrayRead(q, &a));
  PetscCall(VecRestoreArrayWrite(pdot, &b));
  PetscFunctionReturn(0);
}

/* a_ik = int_0^{c_i} l_k: l_k expanded in monomials from the nodes, integrated exactly */
static void IIIA(PetscInt s, const PetscReal c[], PetscReal a[])
{
  for (PetscInt k = 0; k <= s; k++) {
    PetscReal coef[40] = {1}; /* l_k(t) = sum_j coef[j] t^j */
    PetscInt  deg      = 0;

    for (PetscInt m = 0; m <= s; m++) {
      if (m == k) continue;
      for (PetscInt j = deg + 1; j >= 0; j--) coef[j] = ((j ? coef[j - 1] : 0) - c[m] * (j <= deg ? coef[j] : 0)) / (c[k] - c[m]);
      deg++;
    }
    for (PetscInt i = 0; i <= s; i++) {
      PetscReal sum = 0;

      for (PetscInt j = 0; j <= deg; j++) sum += coef[j] * PetscPowReal(c[i], (PetscReal)(j + 1)) / (j + 1);
      a[i * (s + 1) + k] = sum;
    }
  }
}

/* One step of Lobatto IIIA-IIIB from (q, p), by fixed-point iteration on the stages until they stop changing */
static void PRKStep(PetscInt s, const PetscReal a[], const PetscReal ah[], const PetscReal b[], PetscReal h, PetscReal q[], PetscReal p[])
{
  PetscReal Q[40][N], P[40][N], fP[40][N], gQ[40][N], change = 1;

  for (PetscInt k = 0; k <= s; k++)
    for (PetscInt d = 0; d < N; d++) {
      Q[k][d] = q[d];
      P[k][d] = p[d];
    }
  for (PetscInt it = 0; it < 500 && change > 0; it++) {
    change = 0;
    for (PetscInt k = 0; k <= s; k++) {
      F(P[k], fP[k]);
      G(Q[k], gQ[k]);
    }
    for (PetscInt i = 0; i <= s; i++)
      for (PetscInt d = 0; d < N; d++) {
        PetscReal qn = q[d], pn = p[d];

        for (PetscInt k = 0; k <= s; k++) {
          qn += h * a[i * (s + 1) + k] * fP[k][d];
          pn += h * ah[i * (s + 1) + k] * gQ[k][d];
        }
        change  = PetscMax(change, PetscMax(PetscAbsReal(qn - Q[i][d]), PetscAbsReal(pn - P[i][d])));
        Q[i][d] = qn;
        P[i][d] = pn;
      }
  }
  for (PetscInt k = 0; k <= s; k++) {
    F(P[k], fP[k]);
    G(Q[k], gQ[k]);
  }
  for (PetscInt d = 0; d < N; d++) {
    PetscReal dq = 0, dp = 0;

    for (PetscInt k = 0; k <= s; k++) {
      dq += b[k] * fP[k][d];
      dp += b[k] * gQ[k][d];
    }
    q[d] += h * dq;
    p[d] += h * dp;
  }
}

int main(int argc, char **argv)
{
  TS                 ts;
  Vec                U;
  IS                 isq, isp;
  PetscInt           steps = 5, s, nq;
  PetscReal          h = 0.1, q[N] = {0.8, -0.4}, p[N] = {0.3, 0.9}, a[1600], ah[1600], diff = 0, scale = 0;
  const PetscReal   *c, *w;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-h", &h, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-relativistic", &relativistic, NULL));

  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * N, &U));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, N, 0, 1, &isq));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, N, N, 1, &isp));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSRHSSplitSetIS(ts, "position", isq));
  PetscCall(TSRHSSplitSetIS(ts, "momentum", isp));
  PetscCall(TSRHSSplitSetRHSFunction(ts, "position", NULL, PositionRate, NULL));
  PetscCall(TSRHSSplitSetRHSFunction(ts, "momentum", NULL, MomentumRate, NULL));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(VecSetValues(U, N, (PetscInt[]){0, 1}, q, INSERT_VALUES));
  PetscCall(VecSetValues(U, N, (PetscInt[]){2, 3}, p, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  PetscCall(TSSolve(ts, U));

  /* the pair from the scheme's own table */
  PetscCall(TSSimpVIGetTableau(ts, &s, &nq, &c, NULL, &w, NULL, NULL));
  PetscCheck(nq == s + 1, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Lobatto quadrature only: the pair is for the quadrature on the nodes");
  IIIA(s, c, a);
  for (PetscInt i = 0; i <= s; i++)
    for (PetscInt k = 0; k <= s; k++) ah[i * (s + 1) + k] = w[k] * (1 - a[k * (s + 1) + i] / w[i]);
  for (PetscInt j = 0; j < steps; j++) PRKStep(s, a, ah, w, h, q, p);

  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt d = 0; d < N; d++) {
    diff  = PetscMax(diff, PetscMax(PetscAbsReal(PetscRealPart(u[d]) - q[d]), PetscAbsReal(PetscRealPart(u[N + d]) - p[d])));
    scale = PetscMax(scale, PetscMax(PetscAbsReal(q[d]), PetscAbsReal(p[d])));
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  if (!relativistic) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "degree %" PetscInt_FMT ": TSSIMPVI's steps and Lobatto IIIA-IIIB's agree to 1e-13: %s\n", s, diff <= 1e-13 * scale ? "yes" : "no"));
    if (diff > 1e-13 * scale) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  difference %g\n", (double)diff));
  } else {
    PetscBool ok = (PetscBool)(diff > 1e-13 * scale && diff < PetscPowReal(h, (PetscReal)(2 * s)));

    PetscCall(PetscPrintf(PETSC_COMM_SELF, "degree %" PetscInt_FMT ", relativistic: TSSIMPVI's steps and Lobatto IIIA-IIIB's differ beyond round-off and below h^2s: %s\n", s, ok ? "yes" : "no"));
    if (!ok) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  difference %g\n", (double)diff));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(ISDestroy(&isq));
  PetscCall(ISDestroy(&isp));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: trapezoid
    args: -ts_simpvi_type trapezoid
  test:
    suffix: simpson
    args: -ts_simpvi_type simpson
  test:
    suffix: lobatto3
    args: -ts_simpvi_type lobatto
  test:
    suffix: lobatto5
    args: -ts_simpvi_type lobatto -ts_simpvi_degree 5 -h 0.3
  # a nonquadratic T: not the pair (trapezoid is Stormer-Verlet for any T, so degree 2 and 3 show the difference)
  test:
    suffix: relativistic
    args: -ts_simpvi_type {{simpson lobatto}separate output} -relativistic
  # h = 0.3, degree 5: velocities near f's bound 1 at the Newton iterates, on both solve paths (the momenta of a failed
  # inversion must not seed the next)
  test:
    suffix: relativistic5
    args: -ts_simpvi_type lobatto -ts_simpvi_degree 5 -h 0.3 -relativistic -ts_simpvi_small_limit {{0 32}}
    output_file: output/splitprk_relativistic5.out

TEST*/
