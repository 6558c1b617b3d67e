static char help[] = "Torques on rigid bodies on SO(3) (TSSimpVISetRigidBodyTorque(), SimpVIRigidBodiesSetTorque()).\n"
                     "  -case constant: a free asymmetric body under a constant torque tau_s fixed in space: its spatial momentum\n"
                     "                  R pi = L0 + t tau_s at every step to round-off (the discrete balance), R'R = I\n"
                     "  -case jacobian: two coupled bodies (gravity, V = -kappa tr(R1' R2)) under torques that depend on t, R and\n"
                     "                  Omega of both bodies: the step's Jacobian against central differences of its residual\n"
                     "  -case order:    the same bodies and torques: R(T) and pi(T) against a fine run converge at -order_min\n"
                     "  -case adjoint:  the same, with parameters theta in the torques (tau += theta_0..2 + theta_3..5 t/T on body 0):\n"
                     "                  the adjoint's gradients in (eta0, pi0) and mu = dC/dtheta against central differences;\n"
                     "                  -integral: the cost adds int_0^T W2 : R_0 + 1/2 |theta_0..2 + theta_3..5 t/T|^2 dt (-integral_fwd: forward)\n\n";

#include <simpvi.h>
#include "../examples/models/so3top.h"

typedef struct {
  PetscInt  nb;
  PetscReal J[18];
  PetscReal mgl, kappa;
  PetscReal taus[3], c, c2, knl; /* the space-fixed torque (times cos t), the damping, the coupling of the Omegas, the nonlinear term */
  PetscReal theta[6], T;
  PetscBool integral, fwd; /* a cost integral (a quadrature TS) in the adjoint case, integrated forward or in the adjoint */
} Ctx;

/* V = sum_b mgl (R_b)_33 - kappa tr(R1' R2) (examples/models/so3top.h) */
static PetscErrorCode Potential(PetscInt nb, const PetscReal R[], PetscReal *V, PetscReal g[], PetscReal H[], void *ctx)
{
  const Ctx *p = (const Ctx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SO3TopsCoupledPotential(p->mgl, p->kappa, nb, R, V, g, H));
  PetscFunctionReturn(0);
}

/* tau_b = R_b' tau_s cos(t) - c Omega_b - c2 (Omega_b - Omega_other) + knl |Omega_b|^2 e_1, and on body 0
   + theta_0..2 + theta_3..5 t/T: tauR_bb = hat(R_b' tau_s cos t), tauO_bb = -(c + c2) I + 2 knl e_1 Omega_b',
   tauO_bc = c2 I */
static PetscErrorCode Torque(PetscInt nb, PetscReal t, const PetscReal R[], const PetscReal Om[], PetscReal tau[], PetscReal tauR[], PetscReal tauO[], PetscReal tauth[], void *ctx)
{
  const Ctx      *p  = (const Ctx *)ctx;
  const PetscInt  n  = 3 * nb;
  const PetscReal ct = PetscCosReal(t);

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < nb; b++) {
    const PetscReal *Rb = R + 9 * b, *O = Om + 3 * b, *Oo = Om + 3 * (nb - 1 - b);
    PetscReal        ts[3], o2 = O[0] * O[0] + O[1] * O[1] + O[2] * O[2];

    for (PetscInt i = 0; i < 3; i++) ts[i] = ct * (Rb[i] * p->taus[0] + Rb[3 + i] * p->taus[1] + Rb[6 + i] * p->taus[2]);
    for (PetscInt i = 0; i < 3; i++) tau[3 * b + i] = ts[i] - p->c * O[i] - (nb == 2 ? p->c2 * (O[i] - Oo[i]) : 0) + (i == 0) * p->knl * o2;
    if (b == 0)
      for (PetscInt i = 0; i < 3; i++) tau[i] += p->theta[i] + p->theta[3 + i] * t / p->T;
    if (tauR) {
      PetscReal *A = tauR + 3 * b * n + 3 * b;

      A[1] = -ts[2], A[2] = ts[1], A[n] = ts[2], A[n + 2] = -ts[0], A[2 * n] = -ts[1], A[2 * n + 1] = ts[0];
    }
    if (tauO) {
      for (PetscInt i = 0; i < 3; i++) {
        tauO[(3 * b + i) * n + 3 * b + i] = -p->c - (nb == 2 ? p->c2 : 0);
        if (nb == 2) tauO[(3 * b + i) * n + 3 * (1 - b) + i] = p->c2;
      }
      for (PetscInt j = 0; j < 3; j++) tauO[(3 * b) * n + 3 * b + j] += 2 * p->knl * O[j];
    }
  }
  if (tauth)
    for (PetscInt i = 0; i < 3; i++) tauth[i * 6 + i] = 1, tauth[i * 6 + 3 + i] = t / p->T;
  PetscFunctionReturn(0);
}

static PetscErrorCode StartState(const Ctx *p, Vec U)
{
  const PetscReal xi[6] = {0.3, -0.2, 0.9, -0.4, 0.3, 0.2}, pi[6] = {0.7, -1.2, 0.9, -0.5, 0.8, 1.1};
  PetscScalar    *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArray(U, &u));
  for (PetscInt b = 0; b < p->nb; b++) {
    PetscCall(SimpVISO3Exp(xi + 3 * b, u + 9 * b));
    for (PetscInt j = 0; j < 3; j++) u[9 * p->nb + 3 * b + j] = pi[3 * b + j] * p->J[9 * b + 4 * j];
  }
  PetscCall(VecRestoreArray(U, &u));
  PetscFunctionReturn(0);
}

static const PetscReal W2[9] = {-0.2, 0.4, 0.1, 0.3, -0.5, 0.6, 0.2, -0.1, 0.35};

/* r(t, U; theta) = W2 : R_0 + 1/2 |v|^2, v = theta_0..2 + theta_3..5 t/T (the effort of the parameters' torque) */
static PetscErrorCode Integrand(TS ts, PetscReal t, Vec U, Vec r, void *ctx)
{
  const Ctx         *p = (const Ctx *)ctx;
  const PetscScalar *u;
  PetscReal          v = 0;

  PetscFunctionBeginUser;
  (void)ts;
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt j = 0; j < 9; j++) v += W2[j] * u[j];
  PetscCall(VecRestoreArrayRead(U, &u));
  for (PetscInt i = 0; i < 3; i++) v += PetscSqr(p->theta[i] + p->theta[3 + i] * t / p->T) / 2;
  PetscCall(VecSet(r, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode IntegrandJacobian(TS ts, PetscReal t, Vec U, Mat A, Mat B, void *ctx)
{
  PetscScalar *a;
  PetscInt     N;

  PetscFunctionBeginUser;
  (void)ts, (void)t, (void)U, (void)B, (void)ctx;
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatDenseGetColumn(A, 0, &a));
  for (PetscInt j = 0; j < N; j++) a[j] = j < 9 ? W2[j] : 0;
  PetscCall(MatDenseRestoreColumn(A, &a));
  PetscFunctionReturn(0);
}

static PetscErrorCode IntegrandJacobianP(TS ts, PetscReal t, Vec U, Mat A, void *ctx)
{
  const Ctx   *p = (const Ctx *)ctx;
  PetscScalar *a;

  PetscFunctionBeginUser;
  (void)ts, (void)U;
  PetscCall(MatDenseGetColumn(A, 0, &a));
  for (PetscInt i = 0; i < 3; i++) {
    const PetscReal v = p->theta[i] + p->theta[3 + i] * t / p->T;

    a[i]     = v;
    a[3 + i] = v * t / p->T;
  }
  PetscCall(MatDenseRestoreColumn(A, &a));
  PetscFunctionReturn(0);
}

/* A TSSIMPVI with the bodies and torques from a copy of U */
static PetscErrorCode MakeTS(Ctx *p, Vec U, PetscReal T, PetscInt n, SimpVIRigidBodyTorqueFn tau, TS *ts)
{
  Vec X;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U, &X));
  PetscCall(VecCopy(U, X));
  PetscCall(TSCreate(PETSC_COMM_SELF, ts));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  PetscCall(TSSimpVISetRigidBodies(*ts, p->nb, p->J, p->mgl > 0 ? Potential : NULL, p));
  PetscCall(TSSimpVISetRigidBodyTorque(*ts, 6, tau, p));
  PetscCall(TSSetSolution(*ts, X));
  PetscCall(VecDestroy(&X));
  PetscCall(TSSetTimeStep(*ts, T / n));
  PetscCall(TSSetMaxSteps(*ts, n));
  PetscCall(TSSetMaxTime(*ts, 10 * T));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (p->integral) {
    TS  quadts;
    Mat A, Ap;

    PetscCall(TSCreateQuadratureTS(*ts, p->fwd, &quadts));
    PetscCall(TSSetRHSFunction(quadts, NULL, Integrand, p));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 12 * p->nb, 1, NULL, &A));
    PetscCall(TSSetRHSJacobian(quadts, A, A, IntegrandJacobian, p));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 6, 1, NULL, &Ap));
    PetscCall(TSSetRHSJacobianP(quadts, Ap, IntegrandJacobianP, p));
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&Ap));
  }
  PetscCall(TSSetFromOptions(*ts));
  PetscFunctionReturn(0);
}

/* constant torque in space on a free body: R pi - L0 - t tau_s at every step */
static PetscErrorCode ConstantMonitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  PetscReal         *worst = (PetscReal *)ctx, L[3], Ln = 0, d = 0, o = 0;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  (void)ts;
  (void)step;
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt i = 0; i < 3; i++) L[i] = u[3 * i] * u[9] + u[3 * i + 1] * u[10] + u[3 * i + 2] * u[11];
  for (PetscInt i = 0; i < 3; i++) {
    const PetscReal e = worst[2 + i] + t * worst[5 + i];

    d = PetscMax(d, PetscAbsReal(L[i] - e));
    Ln += e * e;
    for (PetscInt j = 0; j < 3; j++) o = PetscMax(o, PetscAbsReal(u[i] * u[j] + u[3 + i] * u[3 + j] + u[6 + i] * u[6 + j] - (i == j)));
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  worst[0] = PetscMax(worst[0], d / PetscSqrtReal(Ln));
  worst[1] = PetscMax(worst[1], o);
  PetscFunctionReturn(0);
}

/* tau_s fixed in space (Torque() at t = 0 with no damping and theta = 0) */
static PetscErrorCode ConstantTorque(PetscInt nb, PetscReal t, const PetscReal R[], const PetscReal Om[], PetscReal tau[], PetscReal tauR[], PetscReal tauO[], PetscReal tauth[], void *ctx)
{
  Ctx q = *(Ctx *)ctx;

  (void)t;
  for (PetscInt j = 0; j < 6; j++) q.theta[j] = 0;
  return Torque(nb, 0, R, Om, tau, tauR, tauO, tauth, &q);
}

static PetscErrorCode RunConstant(Ctx *p)
{
  const PetscInt     n = 2000;
  TS                 ts;
  Vec                U;
  PetscReal          w[8] = {0, 0};
  const PetscScalar *u;

  PetscFunctionBeginUser;
  p->nb = 1, p->mgl = 0, p->c = p->c2 = p->knl = 0;
  p->taus[0] = 0.3, p->taus[1] = -0.5, p->taus[2] = 0.2;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12, &U));
  PetscCall(StartState(p, U));
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt i = 0; i < 3; i++) w[2 + i] = u[3 * i] * u[9] + u[3 * i + 1] * u[10] + u[3 * i + 2] * u[11], w[5 + i] = p->taus[i];
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MakeTS(p, U, 20.0, n, ConstantTorque, &ts));
  PetscCall(TSMonitorSet(ts, ConstantMonitor, w, NULL));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "free body, constant torque in space, %" PetscInt_FMT " steps: R pi = L0 + t tau_s to 1e-13: %s, R'R = I to 1e-13: %s\n", n, w[0] < 1e-13 ? "yes" : "no", w[1] < 1e-13 ? "yes" : "no"));
  PetscCall(PetscInfo(NULL, "momentum error %g orthogonality %g\n", (double)w[0], (double)w[1]));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

/* the step's Jacobian at a point off the solution against central differences of the residual */
static PetscErrorCode RunJacobian(Ctx *p)
{
  TS                ts;
  SimpVIRigidBodies rb;
  SNES              snes;
  Vec               U, Z, Zp, Fp, Fm;
  Mat               A;
  PetscInt          m;
  PetscReal         err = 0, Jmax = 0, eps = 1e-6;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVICreateRigidBodies(ts, p->nb, p->J, Potential, p, &rb));
  PetscCall(SimpVIRigidBodiesSetTorque(rb, 6, Torque, p));
  PetscCall(SimpVIRigidBodiesCreateState(rb, &U));
  PetscCall(StartState(p, U));
  PetscCall(SimpVIRigidBodiesSetTime(rb, 0.7));
  PetscCall(SimpVIRigidBodiesSetStep(rb, 0.3, U));
  PetscCall(SimpVIRigidBodiesGetSNES(rb, &snes));
  PetscCall(SNESGetSolution(snes, &Z));
  PetscCall(VecGetSize(Z, &m));
  for (PetscInt j = 0; j < m; j++) PetscCall(VecSetValue(Z, j, 0.05 * PetscSinReal(1.3 * j + 0.4), ADD_VALUES)); /* off the predictor */
  PetscCall(VecAssemblyBegin(Z));
  PetscCall(VecAssemblyEnd(Z));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, m, m, NULL, &A));
  PetscCall(SNESComputeJacobian(snes, Z, A, A));
  PetscCall(VecDuplicate(Z, &Zp));
  PetscCall(VecDuplicate(Z, &Fp));
  PetscCall(VecDuplicate(Z, &Fm));
  for (PetscInt j = 0; j < m; j++) {
    const PetscScalar *fp, *fm;

    PetscCall(VecCopy(Z, Zp));
    PetscCall(VecSetValue(Zp, j, eps, ADD_VALUES));
    PetscCall(VecAssemblyBegin(Zp));
    PetscCall(VecAssemblyEnd(Zp));
    PetscCall(SNESComputeFunction(snes, Zp, Fp));
    PetscCall(VecSetValue(Zp, j, -2 * eps, ADD_VALUES));
    PetscCall(VecAssemblyBegin(Zp));
    PetscCall(VecAssemblyEnd(Zp));
    PetscCall(SNESComputeFunction(snes, Zp, Fm));
    PetscCall(VecGetArrayRead(Fp, &fp));
    PetscCall(VecGetArrayRead(Fm, &fm));
    for (PetscInt i = 0; i < m; i++) {
      PetscScalar a;

      PetscCall(MatGetValue(A, i, j, &a));
      err  = PetscMax(err, PetscAbsReal(a - (fp[i] - fm[i]) / (2 * eps)));
      Jmax = PetscMax(Jmax, PetscAbsReal(a));
    }
    PetscCall(VecRestoreArrayRead(Fp, &fp));
    PetscCall(VecRestoreArrayRead(Fm, &fm));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "two bodies with torques in t, R and Omega: the step's Jacobian against central differences to 1e-8 relative: %s\n", err < 1e-8 * Jmax ? "yes" : "no"));
  PetscCall(PetscInfo(NULL, "Jacobian error %g of %g\n", (double)err, (double)Jmax));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&Zp));
  PetscCall(VecDestroy(&Fp));
  PetscCall(VecDestroy(&Fm));
  PetscCall(VecDestroy(&U));
  PetscCall(SimpVIRigidBodiesDestroy(&rb));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

/* R(T), pi(T) of n steps, into a new Vec */
static PetscErrorCode RunTo(Ctx *p, PetscReal T, PetscInt n, Vec *X)
{
  TS  ts;
  Vec U, S;

  PetscFunctionBeginUser;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12 * p->nb, &U));
  PetscCall(StartState(p, U));
  PetscCall(MakeTS(p, U, T, n, Torque, &ts));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetSolution(ts, &S));
  PetscCall(VecDuplicate(S, X));
  PetscCall(VecCopy(S, *X));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunOrder(Ctx *p, PetscInt n, PetscReal omin)
{
  const PetscReal T = 1.0;
  Vec             ref, X;
  PetscReal       e[2];

  PetscFunctionBeginUser;
  PetscCall(RunTo(p, T, 16 * n, &ref));
  for (PetscInt i = 0; i < 2; i++) {
    PetscCall(RunTo(p, T, n << i, &X));
    PetscCall(VecAXPY(X, -1, ref));
    PetscCall(VecNorm(X, NORM_INFINITY, &e[i]));
    PetscCall(VecDestroy(&X));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "two bodies with torques: R(T), pi(T) converge at order >= %g: %s\n", (double)omin, PetscLog2Real(e[0] / e[1]) >= omin ? "yes" : "no"));
  PetscCall(PetscInfo(NULL, "errors %g %g order %g\n", (double)e[0], (double)e[1], (double)PetscLog2Real(e[0] / e[1])));
  PetscCall(VecDestroy(&ref));
  PetscFunctionReturn(0);
}

static const PetscReal Wc[9] = {0.3, -0.7, 0.2, 0.5, 0.1, -0.4, -0.6, 0.8, 0.25};

/* C(U) = sum_b [W : R_b + 1/2 (R_b)_33^2 + 1/2 |pi_b|^2 / J_11] and its ambient gradient */
static PetscErrorCode Cost(const Ctx *p, Vec U, PetscReal *C, Vec lambda)
{
  const PetscInt     nb = p->nb;
  const PetscScalar *u;
  PetscScalar       *l = NULL;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  if (lambda) PetscCall(VecGetArray(lambda, &l));
  *C = 0;
  for (PetscInt b = 0; b < nb; b++) {
    const PetscScalar *R = u + 9 * b, *pi = u + 9 * nb + 3 * b;

    for (PetscInt j = 0; j < 9; j++) *C += Wc[j] * R[j];
    *C += R[8] * R[8] / 2;
    for (PetscInt j = 0; j < 3; j++) *C += pi[j] * pi[j] / (2 * p->J[0]);
    if (!l) continue;
    for (PetscInt j = 0; j < 9; j++) l[9 * b + j] = Wc[j];
    l[9 * b + 8] += R[8];
    for (PetscInt j = 0; j < 3; j++) l[9 * nb + 3 * b + j] = pi[j] / p->J[0];
  }
  if (l) PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode CostOf(Ctx *p, Vec U0, PetscInt n, PetscReal *C)
{
  TS  ts;
  Vec X;

  PetscFunctionBeginUser;
  PetscBool fwd = p->fwd;

  p->fwd = PETSC_TRUE; /* the differences' runs integrate forward */
  PetscCall(MakeTS(p, U0, p->T, n, Torque, &ts));
  p->fwd = fwd;
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

static PetscErrorCode RunAdjoint(Ctx *p, PetscInt n)
{
  const PetscInt     nb = p->nb, N = 6 * nb + 6;
  TS                 ts;
  Vec                U0, X, lambda, mu, Up;
  PetscReal          C, grad[18], norm[3] = {0, 0, 0}, worst[3] = {0, 0, 0};
  const PetscScalar *u0, *l, *m;
  PetscScalar       *up;

  PetscFunctionBeginUser;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12 * nb, &U0));
  PetscCall(StartState(p, U0));
  PetscCall(MakeTS(p, U0, p->T, n, Torque, &ts));
  PetscCall(TSSetSaveTrajectory(ts));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetSolution(ts, &X));
  PetscCall(VecDuplicate(X, &lambda));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6, &mu));
  PetscCall(VecSet(mu, 0));
  PetscCall(Cost(p, X, &C, lambda));
  PetscCall(TSSetCostGradients(ts, 1, &lambda, &mu));
  PetscCall(TSAdjointSolve(ts));
  PetscCall(VecGetArrayRead(U0, &u0));
  PetscCall(VecGetArrayRead(lambda, &l));
  PetscCall(VecGetArrayRead(mu, &m));
  for (PetscInt b = 0; b < nb; b++) {
    const PetscScalar *R = u0 + 9 * b, *L = l + 9 * b;
    PetscReal          A[9];

    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) A[i * 3 + j] = R[i] * L[j] + R[3 + i] * L[3 + j] + R[6 + i] * L[6 + j];
    grad[3 * b] = A[7] - A[5], grad[3 * b + 1] = A[2] - A[6], grad[3 * b + 2] = A[3] - A[1];
    for (PetscInt j = 0; j < 3; j++) grad[3 * nb + 3 * b + j] = l[9 * nb + 3 * b + j];
  }
  for (PetscInt j = 0; j < 6; j++) grad[6 * nb + j] = m[j];
  PetscCall(VecRestoreArrayRead(mu, &m));
  PetscCall(VecRestoreArrayRead(lambda, &l));
  for (PetscInt d = 0; d < N; d++) norm[d < 3 * nb ? 0 : (d < 6 * nb ? 1 : 2)] += grad[d] * grad[d];
  for (PetscInt i = 0; i < 3; i++) norm[i] = PetscSqrtReal(norm[i]);
  PetscCall(VecDuplicate(U0, &Up));
  for (PetscInt d = 0; d < N; d++) {
    const PetscInt  kind = d < 3 * nb ? 0 : (d < 6 * nb ? 1 : 2), b = kind == 2 ? 0 : (d - 3 * nb * kind) / 3, j = kind == 2 ? d - 6 * nb : d % 3;
    const PetscReal eps = kind == 1 ? 1e-5 * p->J[0] : 1e-5;
    PetscReal       Cpm[2], fd, err;

    for (PetscInt sgn = 0; sgn < 2; sgn++) {
      const PetscReal e = sgn ? -eps : eps;

      PetscCall(VecCopy(U0, Up));
      PetscCall(VecGetArray(Up, &up));
      if (kind == 0) {
        PetscReal xi[3] = {0, 0, 0}, E[9];

        xi[j] = e;
        PetscCall(SimpVISO3Exp(xi, E));
        for (PetscInt r = 0; r < 3; r++)
          for (PetscInt c = 0; c < 3; c++) up[9 * b + 3 * r + c] = u0[9 * b + 3 * r] * E[c] + u0[9 * b + 3 * r + 1] * E[3 + c] + u0[9 * b + 3 * r + 2] * E[6 + c];
      } else if (kind == 1) up[9 * nb + 3 * b + j] += e;
      else p->theta[j] += e;
      PetscCall(VecRestoreArray(Up, &up));
      PetscCall(CostOf(p, Up, n, &Cpm[sgn]));
      if (kind == 2) p->theta[j] -= e;
    }
    fd          = (Cpm[0] - Cpm[1]) / (2 * eps);
    err         = PetscAbsReal(grad[d] - fd) / norm[kind];
    worst[kind] = PetscMax(worst[kind], err);
    PetscCall(PetscInfo(NULL, "kind %d body %d %d: adjoint %.12e difference %.12e error %.2e\n", (int)kind, (int)b, (int)j, (double)grad[d], (double)fd, (double)err));
  }
  PetscCall(VecRestoreArrayRead(U0, &u0));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "two bodies with torques (t, R, Omega, theta), %" PetscInt_FMT " steps%s, against central differences to 1e-7 relative:\n", n, p->integral ? ", a cost integral in U and theta" : ""));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  gradient in the initial attitudes (Lie algebra): %s\n  gradient in the initial momenta: %s\n  gradient in the torques' parameters (mu): %s\n", worst[0] < 1e-7 ? "yes" : "no", worst[1] < 1e-7 ? "yes" : "no", worst[2] < 1e-7 ? "yes" : "no"));
  PetscCall(PetscInfo(NULL, "worst %g %g %g\n", (double)worst[0], (double)worst[1], (double)worst[2]));
  PetscCall(VecDestroy(&Up));
  PetscCall(VecDestroy(&mu));
  PetscCall(VecDestroy(&lambda));
  PetscCall(VecDestroy(&U0));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx p = {
    .nb = 2, .mgl = 0.3, .kappa = 0.4, .taus = {0.2,  -0.1, 0.3 },
               .c = 0.05, .c2 = 0.1, .knl = 0.02, .theta = { 0.1, -0.2, 0.05, 0.3, 0.1, -0.15},
               .T = 0.5
  };
  char      which[32] = "constant";
  PetscInt  n         = 20;
  PetscReal omin      = 3.9;
  PetscBool is;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", which, sizeof(which), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-order_min", &omin, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-integral", &p.integral, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-integral_fwd", &p.fwd, NULL));
  for (PetscInt j = 0; j < 18; j++) p.J[j] = 0;
  p.J[0] = 1.0, p.J[4] = 2.0, p.J[8] = 3.5, p.J[1] = p.J[3] = 0.1, p.J[5] = p.J[7] = -0.2;
  p.J[9] = 1.5, p.J[13] = 1.2, p.J[17] = 2.1;
  PetscCall(PetscStrcmp(which, "constant", &is));
  if (is) {
    PetscCall(RunConstant(&p));
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCall(PetscStrcmp(which, "jacobian", &is));
  if (is) PetscCall(RunJacobian(&p));
  PetscCall(PetscStrcmp(which, "order", &is));
  if (is) PetscCall(RunOrder(&p, n, omin));
  PetscCall(PetscStrcmp(which, "adjoint", &is));
  if (is) PetscCall(RunAdjoint(&p, n));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: constant_simpson
    args: -case constant -ts_simpvi_type simpson
    output_file: output/rigidbody_torque_constant.out
  test:
    suffix: constant_lobatto
    args: -case constant -ts_simpvi_type lobatto
    output_file: output/rigidbody_torque_constant.out
  test:
    suffix: jacobian_simpson
    args: -case jacobian -ts_simpvi_type simpson
    output_file: output/rigidbody_torque_jacobian.out
  test:
    suffix: jacobian_lobatto
    args: -case jacobian -ts_simpvi_type lobatto
    output_file: output/rigidbody_torque_jacobian.out
  test:
    suffix: order_simpson
    args: -case order -ts_simpvi_type simpson -n 20 -order_min 3.9
    output_file: output/rigidbody_torque_order.out
  test:
    suffix: order_lobatto
    args: -case order -ts_simpvi_type lobatto -n 10 -order_min 5.8
    output_file: output/rigidbody_torque_order.out
  test:
    suffix: adjoint_simpson
    args: -case adjoint -ts_simpvi_type simpson
    output_file: output/rigidbody_torque_adjoint.out
  test:
    suffix: adjoint_lobatto
    args: -case adjoint -ts_simpvi_type lobatto
    output_file: output/rigidbody_torque_adjoint.out
  test:
    suffix: adjoint_integral
    args: -case adjoint -ts_simpvi_type lobatto -integral
    output_file: output/rigidbody_torque_adjoint_integral.out
  test:
    suffix: adjoint_integral_fwd
    args: -case adjoint -ts_simpvi_type simpson -integral -integral_fwd
    output_file: output/rigidbody_torque_adjoint_integral.out

TEST*/
