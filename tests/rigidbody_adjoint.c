static char help[] = "The adjoint of rigid bodies on SO(3) (TSSimpVISetRigidBodies(), TSAdjointSolve()) against central differences.\n"
                     "The cost of the final state, C(U) = sum_b [W : R_b + 1/2 (R_b)_33^2 + 1/2 sum_j s_j pi_bj^2], its ambient\n"
                     "gradient dC/dU given as lambda(T); lambda(0) has the R part R0 hat(nu0)/2, nu0 the gradient in the perturbation\n"
                     "R0 exp(hat(eta)) of the start attitude. Checked in every direction eta = e_j of every body and d = e_j of\n"
                     "every body momentum against (C(U(T; +eps)) - C(U(T; -eps))) / (2 eps), relative to |nu0| or |dC/dpi0|.\n"
                     "  -case top:  the heavy top of the seed's Table 3 (a potential with a Hessian)\n"
                     "  -case pair: two bodies joined by V = -kappa tr(R1' R2) under gravity (the off-diagonal Hessian blocks)\n"
                     "  -integral: the cost adds int_0^T r(U) dt, r = sum_b [W2 : R_b + 1/2 sum_j q_j Pi_bj^2] (a quadrature TS at the\n"
                     "             scheme's quadrature points, Pi = J Omega there), -integral_fwd: integrated forward (else in the adjoint)\n"
                     "  -case errors: parameter gradients (mu) without torque parameters give a clear error\n"
                     "  -n steps of -T/n; -show: the gradients and differences\n\n";

#include <simpvi.h>
#include "../examples/models/so3top.h" /* the heavy top of the seed's Table 3 */

typedef struct {
  PetscInt  nb;
  PetscReal J[18];
  PetscReal mgl, kappa;
  PetscReal T;
  PetscInt  n;
  PetscBool integral, fwd; /* a cost integral too (a quadrature TS), integrated forward or in the adjoint */
} Problem;

/* V = sum_b mgl (R_b)_33 - kappa tr(R1' R2) (examples/models/so3top.h) */
static PetscErrorCode Potential(PetscInt nb, const PetscReal R[], PetscReal *V, PetscReal g[], PetscReal H[], void *ctx)
{
  const Problem *p = (const Problem *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SO3TopsCoupledPotential(p->mgl, p->kappa, nb, R, V, g, H));
  PetscFunctionReturn(0);
}

static const PetscReal Wc[9] = {0.3, -0.7, 0.2, 0.5, 0.1, -0.4, -0.6, 0.8, 0.25};

/* the cost and (if lambda) its ambient gradient */
static PetscErrorCode Cost(const Problem *p, Vec U, PetscReal *C, Vec lambda)
{
  const PetscInt     nb = p->nb;
  const PetscScalar *u;
  PetscScalar       *l = NULL;
  PetscReal          s[3];

  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < 3; j++) s[j] = (j + 1.0) / (p->J[0] * p->J[0]); /* of the size of the attitude terms */
  PetscCall(VecGetArrayRead(U, &u));
  if (lambda) PetscCall(VecGetArray(lambda, &l));
  *C = 0;
  for (PetscInt b = 0; b < nb; b++) {
    const PetscScalar *R = u + 9 * b, *pi = u + 9 * nb + 3 * b;

    for (PetscInt j = 0; j < 9; j++) *C += Wc[j] * R[j];
    *C += R[8] * R[8] / 2;
    for (PetscInt j = 0; j < 3; j++) *C += s[j] * pi[j] * pi[j] / 2;
    if (!l) continue;
    for (PetscInt j = 0; j < 9; j++) l[9 * b + j] = Wc[j];
    l[9 * b + 8] += R[8];
    for (PetscInt j = 0; j < 3; j++) l[9 * nb + 3 * b + j] = s[j] * pi[j];
  }
  if (l) PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static const PetscReal W2[9] = {-0.2, 0.4, 0.1, 0.3, -0.5, 0.6, 0.2, -0.1, 0.35};

/* r(U) = sum_b [W2 : R_b + 1/2 sum_j q_j Pi_bj^2], Pi_b = J_b Omega_b at the quadrature points */
static PetscErrorCode Integrand(TS ts, PetscReal t, Vec U, Vec r, void *ctx)
{
  const Problem     *p = (const Problem *)ctx;
  const PetscScalar *u;
  PetscReal          v = 0;

  PetscFunctionBeginUser;
  (void)ts, (void)t;
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt b = 0; b < p->nb; b++) {
    for (PetscInt j = 0; j < 9; j++) v += W2[j] * u[9 * b + j];
    for (PetscInt j = 0; j < 3; j++) v += (j + 1.0) / (p->J[0] * p->J[0]) * u[9 * p->nb + 3 * b + j] * u[9 * p->nb + 3 * b + j] / 2;
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecSet(r, v));
  PetscFunctionReturn(0);
}

/* dr/dU, ambient: a column (PETSc's convention for the quadrature TS) */
static PetscErrorCode IntegrandJacobian(TS ts, PetscReal t, Vec U, Mat A, Mat B, void *ctx)
{
  const Problem     *p = (const Problem *)ctx;
  const PetscScalar *u;
  PetscScalar       *a;

  PetscFunctionBeginUser;
  (void)ts, (void)t, (void)B;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(MatDenseGetColumn(A, 0, &a));
  for (PetscInt b = 0; b < p->nb; b++) {
    for (PetscInt j = 0; j < 9; j++) a[9 * b + j] = W2[j];
    for (PetscInt j = 0; j < 3; j++) a[9 * p->nb + 3 * b + j] = (j + 1.0) / (p->J[0] * p->J[0]) * u[9 * p->nb + 3 * b + j];
  }
  PetscCall(MatDenseRestoreColumn(A, &a));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode StartState(const Problem *p, Vec U)
{
  PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(SO3TopSetState(&SO3TopTable3, U)); /* body 0: Table 3's start (R then pi, shifted below for two bodies) */
  if (p->nb == 2) {
    const PetscReal xi[3] = {-0.4, 0.3, 0.2};
    PetscReal       pi[3];

    PetscCall(VecGetArray(U, &u));
    for (PetscInt j = 0; j < 3; j++) pi[j] = u[9 + j];
    PetscCall(SimpVISO3Exp(xi, u + 9));
    u[18] = pi[0], u[19] = pi[1], u[20] = pi[2];
    u[21] = -0.5 * pi[1], u[22] = 0.3 * pi[2], u[23] = 0.8 * pi[2];
    PetscCall(VecRestoreArray(U, &u));
  }
  PetscFunctionReturn(0);
}

/* A TSSIMPVI with the bodies from U (its own state vector, a copy of U) */
static PetscErrorCode MakeTS(const Problem *p, Vec U, PetscBool save, TS *ts)
{
  Vec X;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U, &X));
  PetscCall(VecCopy(U, X));
  PetscCall(TSCreate(PETSC_COMM_SELF, ts));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  PetscCall(TSSimpVISetRigidBodies(*ts, p->nb, p->J, Potential, (void *)p));
  PetscCall(TSSetSolution(*ts, X));
  PetscCall(VecDestroy(&X));
  PetscCall(TSSetTimeStep(*ts, p->T / p->n));
  PetscCall(TSSetMaxSteps(*ts, p->n));
  PetscCall(TSSetMaxTime(*ts, 10 * p->T));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (save) PetscCall(TSSetSaveTrajectory(*ts)); /* before the options: -ts_trajectory_type */
  if (p->integral) {
    TS  quadts;
    Mat A;

    PetscCall(TSCreateQuadratureTS(*ts, save ? p->fwd : PETSC_TRUE, &quadts)); /* the differences' runs integrate forward */
    PetscCall(TSSetRHSFunction(quadts, NULL, Integrand, (void *)p));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 12 * p->nb, 1, NULL, &A));
    PetscCall(TSSetRHSJacobian(quadts, A, A, IntegrandJacobian, (void *)p));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(TSSetFromOptions(*ts));
  PetscFunctionReturn(0);
}

/* C(U(T)) of a run from U0 */
static PetscErrorCode CostOfStart(const Problem *p, Vec U0, PetscReal *C)
{
  TS  ts;
  Vec X;

  PetscFunctionBeginUser;
  PetscCall(MakeTS(p, U0, PETSC_FALSE, &ts));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetSolution(ts, &X));
  PetscCall(Cost(p, X, C, NULL));
  if (p->integral) {
    Vec                Q;
    const PetscScalar *q;

    PetscCall(TSGetCostIntegral(ts, &Q));
    PetscCall(VecGetArrayRead(Q, &q));
    *C += q[0];
    PetscCall(VecRestoreArrayRead(Q, &q));
  }
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckGradient(Problem *p, PetscBool show)
{
  const PetscInt     nb = p->nb, N = 6 * nb;
  TS                 ts;
  Vec                U0, X, lambda, Up;
  PetscReal          C, gnorm[2] = {0, 0}, worst = 0, tangent = 0, grad[12], epseta = 1e-5, epspi, pimax = 0;
  const PetscScalar *u0, *l;
  PetscScalar       *up;

  PetscFunctionBeginUser;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12 * nb, &U0));
  PetscCall(StartState(p, U0));
  PetscCall(MakeTS(p, U0, PETSC_TRUE, &ts));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetSolution(ts, &X));
  PetscCall(VecDuplicate(X, &lambda));
  PetscCall(Cost(p, X, &C, lambda));
  PetscCall(TSSetCostGradients(ts, 1, &lambda, NULL));
  PetscCall(TSAdjointSolve(ts));
  /* the gradient in (eta0, pi0): nu0_b = vee(R0' L - L' R0) from the R part L = R0 hat(nu0)/2, which is tangent */
  PetscCall(VecGetArrayRead(U0, &u0));
  PetscCall(VecGetArrayRead(lambda, &l));
  for (PetscInt b = 0; b < nb; b++) {
    const PetscScalar *R = u0 + 9 * b, *L = l + 9 * b;
    PetscReal          A[9], Lnorm        = 0;

    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) A[i * 3 + j] = R[i] * L[j] + R[3 + i] * L[3 + j] + R[6 + i] * L[6 + j];
    grad[3 * b] = A[7] - A[5], grad[3 * b + 1] = A[2] - A[6], grad[3 * b + 2] = A[3] - A[1];
    for (PetscInt j = 0; j < 9; j++) Lnorm = PetscMax(Lnorm, PetscAbsReal(L[j]));
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) tangent = PetscMax(tangent, PetscAbsReal(A[i * 3 + j] + A[j * 3 + i]) / Lnorm);
    for (PetscInt j = 0; j < 3; j++) {
      grad[3 * nb + 3 * b + j] = l[9 * nb + 3 * b + j];
      pimax                    = PetscMax(pimax, PetscAbsReal(u0[9 * nb + 3 * b + j]));
    }
  }
  PetscCall(VecRestoreArrayRead(lambda, &l));
  for (PetscInt j = 0; j < N; j++) gnorm[j >= 3 * nb] += grad[j] * grad[j]; /* the attitude's part and the momenta's: each judged on its own */
  gnorm[0] = PetscSqrtReal(gnorm[0]);
  gnorm[1] = PetscSqrtReal(gnorm[1]);
  epspi    = 1e-5 * pimax;
  /* central differences: R0_b exp(+-eps e_j), pi0_b +- eps e_j */
  PetscCall(VecDuplicate(U0, &Up));
  for (PetscInt d = 0; d < N; d++) {
    const PetscBool att = (PetscBool)(d < 3 * nb);
    const PetscInt  b = (att ? d : d - 3 * nb) / 3, j = d % 3;
    const PetscReal eps = att ? epseta : epspi;
    PetscReal       Cpm[2], fd, err;

    for (PetscInt sgn = 0; sgn < 2; sgn++) {
      PetscCall(VecCopy(U0, Up));
      PetscCall(VecGetArray(Up, &up));
      if (att) {
        PetscReal xi[3] = {0, 0, 0}, E[9];

        xi[j] = sgn ? -eps : eps;
        PetscCall(SimpVISO3Exp(xi, E));
        for (PetscInt r = 0; r < 3; r++)
          for (PetscInt c = 0; c < 3; c++) up[9 * b + 3 * r + c] = u0[9 * b + 3 * r] * E[c] + u0[9 * b + 3 * r + 1] * E[3 + c] + u0[9 * b + 3 * r + 2] * E[6 + c];
      } else up[9 * nb + 3 * b + j] += sgn ? -eps : eps;
      PetscCall(VecRestoreArray(Up, &up));
      PetscCall(CostOfStart(p, Up, &Cpm[sgn]));
    }
    fd    = (Cpm[0] - Cpm[1]) / (2 * eps);
    err   = PetscAbsReal(grad[d] - fd) / gnorm[!att];
    worst = PetscMax(worst, err);
    if (show) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s body %" PetscInt_FMT " e_%" PetscInt_FMT ": adjoint %+.12e  central difference %+.12e  relative error %.2e\n", att ? "eta" : "pi ", b, j, (double)grad[d], (double)fd, (double)err));
  }
  PetscCall(VecRestoreArrayRead(U0, &u0));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " bod%s, %" PetscInt_FMT " steps%s: lambda(0)'s attitude part tangent (R0' L skew): %s\n", nb, nb == 1 ? "y" : "ies", p->n, p->integral ? (p->fwd ? ", cost integral integrated forward" : ", cost integral integrated in the adjoint") : "", tangent < 1e-13 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  gradient in (eta0, pi0), %" PetscInt_FMT " directions, against central differences to 1e-7 relative: %s\n", N, worst < 1e-7 ? "yes" : "no"));
  if (show) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  worst relative error %.2e, |nu0| %.6e, |dC/dpi0| %.6e\n", (double)worst, (double)gnorm[0], (double)gnorm[1]));
  PetscCall(VecDestroy(&Up));
  PetscCall(VecDestroy(&lambda));
  PetscCall(VecDestroy(&U0));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

/* gradients in parameters (mu) without torque parameters: the expected error */
static PetscErrorCode CheckErrors(Problem *p)
{
  TS             ts;
  Vec            U0, X, lambda, mu;
  PetscReal      C;
  PetscErrorCode err;

  PetscFunctionBeginUser;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12 * p->nb, &U0));
  PetscCall(StartState(p, U0));
  PetscCall(MakeTS(p, U0, PETSC_TRUE, &ts));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetSolution(ts, &X));
  PetscCall(VecDuplicate(X, &lambda));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &mu));
  PetscCall(Cost(p, X, &C, lambda));
  PetscCall(TSSetCostGradients(ts, 1, &lambda, &mu));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  err = TSAdjointSolve(ts);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "parameter gradients (mu) without torque parameters: the expected error: %s\n", err == PETSC_ERR_ARG_WRONGSTATE ? "yes" : "no"));
  PetscCall(VecDestroy(&mu));
  PetscCall(VecDestroy(&lambda));
  PetscCall(VecDestroy(&U0));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Problem   p         = {.nb = 1, .mgl = 0.1 * 9.81 * 0.15, .kappa = 0.02, .T = 0.05, .n = 20};
  char      which[32] = "top";
  PetscBool show      = PETSC_FALSE, pair, errors;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", which, sizeof(which), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &p.n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-T", &p.T, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-show", &show, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-integral", &p.integral, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-integral_fwd", &p.fwd, NULL));
  PetscCall(PetscStrcmp(which, "pair", &pair));
  SO3TopInertia(&SO3TopTable3, p.J);
  if (pair) {
    p.nb = 2;
    SO3TopInertia(&SO3TopTable3, p.J + 9);
    p.J[9] = 1.7e-3, p.J[13] = 2.9e-3, p.J[17] = 0.9e-3; /* an asymmetric second body */
    p.J[10] = p.J[12] = 1e-4;
  }
  PetscCall(PetscStrcmp(which, "errors", &errors));
  if (errors) PetscCall(CheckErrors(&p));
  else PetscCall(CheckGradient(&p, show));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: top_simpson
    args: -case top -ts_simpvi_type simpson
    output_file: output/rigidbody_adjoint_top.out
  test:
    suffix: top_lobatto
    args: -case top -ts_simpvi_type lobatto
    output_file: output/rigidbody_adjoint_top.out
  test:
    suffix: top_lobatto4
    args: -case top -ts_simpvi_type lobatto -ts_simpvi_degree 4
    output_file: output/rigidbody_adjoint_top.out
  # the steps kept in memory (TSTrajectoryMemory), whose state at an adjoint step is not the step's end
  test:
    suffix: top_memory
    args: -case top -ts_simpvi_type lobatto -ts_trajectory_type memory
    output_file: output/rigidbody_adjoint_top.out
  test:
    suffix: pair_simpson
    args: -case pair -ts_simpvi_type simpson
    output_file: output/rigidbody_adjoint_pair.out
  test:
    suffix: pair_lobatto
    args: -case pair -ts_simpvi_type lobatto
    output_file: output/rigidbody_adjoint_pair.out
  test:
    suffix: integral_simpson
    args: -case pair -ts_simpvi_type simpson -integral
    output_file: output/rigidbody_adjoint_integral.out
  test:
    suffix: integral_lobatto
    args: -case pair -ts_simpvi_type lobatto -integral
    output_file: output/rigidbody_adjoint_integral.out
  test:
    suffix: integral_fwd
    args: -case pair -ts_simpvi_type lobatto -integral -integral_fwd -ts_trajectory_type memory
  test:
    suffix: errors
    args: -case errors

TEST*/
