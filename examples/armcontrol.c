static char help[] = "Optimal control of a two-link arm (issue 15) by TAO on gradients from TSAdjointSolve(). The arm is the double\n"
                     "pendulum in a horizontal plane (unit masses and lengths, absolute angles q1, q2, mass M(q) = [[2, c], [c, 1]],\n"
                     "c = cos(q1 - q2)), driven by a shoulder torque u1 and an elbow torque u2, which enter through the\n"
                     "Lagrange-d'Alembert force f = (u1 - u2, u2). It moves from rest at q = 0 to rest at q = (qT1, qT2) in the time T,\n"
                     "minimising\n"
                     "  J(u) = int_0^T |u|^2 dt + W/2 (|q(T) - qT|^2 + |p(T)|^2)\n"
                     "over torques piecewise linear and continuous on a grid of K intervals (2 (K + 1) parameters, starting at 0).\n"
                     "Gradients: the discrete adjoint of the integrator (mu of TSSetCostGradients(), through\n"
                     "TSSimpVISetParameterJacobian() for the force and TSSetRHSJacobianP() of the quadrature TS for the integral).\n"
                     "-ts_type theta -ts_theta_theta 0.5 runs the same problem through the phase-space form and theta's own adjoint\n"
                     "(TSSetIJacobianP()).\n"
                     "TAO blmvm keeps 2 (K + 1) quasi-Newton pairs (-tao_blmvm_mat_lmvm_hist_size overrides).\n"
                     "Options: -T <2> -steps <40> -intervals <8> -W <100> -umax <15> (bounds on the torques) -target <1.5708,1.5708>\n"
                     "         -output <prefix>: CSV of the\n"
                     "         optimal motion (<prefix>-motion.csv) and of TAO's iterations (<prefix>-tao.csv)\n\n";

#include <simpvi.h>
#include <petsctao.h>
#include "models/doublependulum.h"

#if PETSC_VERSION_LT(3, 21, 0) /* TaoSetMonitor() became TaoMonitorSet() in 3.21 */
  #define TaoMonitorSet TaoSetMonitor
#endif

typedef struct {
  PetscReal          T, W, qT[2];
  PetscInt           steps, K, np;
  const PetscScalar *theta;            /* the controls being evaluated: u_j(t) = sum_m theta[j (K + 1) + m] hat_m(t) */
  Mat                Gth, Fth, Jp, Ju; /* simpvi: dG/dtheta (2 x np); theta: dF/dtheta (4 x np); the integrand's gradients in theta (np x 1) and U (4 x 1: zero) */
  DoublePendulum     links;            /* unit masses and lengths, g = 0: the plane is horizontal */
  Mat                M, Mx, Mxx;
  Vec                lambda, mu;
  PetscBool          simpvi;
  TSType             type;
  PetscInt           evals, failed; /* objective evaluations, of which failed forward runs */
  FILE              *taofile;
} Arm;

/* the hat functions of the control grid at t: hat_m(t) is nonzero for m = m0, m0 + 1 only */
static void Hats(const Arm *arm, PetscReal t, PetscInt *m0, PetscReal *h0, PetscReal *h1)
{
  PetscReal s = PetscMin(PetscMax(t / arm->T, 0), 1) * arm->K;
  PetscInt  m = PetscMin((PetscInt)s, arm->K - 1);

  *m0 = m;
  *h1 = s - m;
  *h0 = 1 - *h1;
}

static void Control(const Arm *arm, PetscReal t, PetscScalar u[2])
{
  PetscInt  m;
  PetscReal h0, h1;

  Hats(arm, t, &m, &h0, &h1);
  for (PetscInt j = 0; j < 2; j++) u[j] = h0 * arm->theta[j * (arm->K + 1) + m] + h1 * arm->theta[j * (arm->K + 1) + m + 1];
}

/* ---------------------------------------------------------------- mechanics (M(q) in models/doublependulum.h) */

/* f = (u1 - u2, u2): the shoulder torque acts on link 1, the elbow torque between the links */
static PetscErrorCode Torques(TS ts, PetscReal t, Vec x, Vec v, Vec f, void *ptr)
{
  Arm        *arm = (Arm *)ptr;
  PetscScalar u[2], *fv;

  PetscFunctionBeginUser;
  Control(arm, t, u);
  PetscCall(VecGetArray(f, &fv));
  fv[0] = u[0] - u[1];
  fv[1] = u[1];
  PetscCall(VecRestoreArray(f, &fv));
  PetscFunctionReturn(0);
}

/* dG/dtheta = d f/dtheta (P = M v does not depend on the controls) */
static PetscErrorCode TorquesTheta(Arm *arm, PetscReal t, Mat A, PetscInt rowq)
{
  PetscInt  m;
  PetscReal h0, h1;

  PetscFunctionBeginUser;
  Hats(arm, t, &m, &h0, &h1);
  PetscCall(MatZeroEntries(A));
  for (PetscInt k = 0; k < 2; k++) {
    PetscInt  col = (k ? m + 1 : m), c1 = col, c2 = arm->K + 1 + col;
    PetscReal hat = k ? h1 : h0;

    PetscCall(MatSetValue(A, rowq + 0, c1, hat, ADD_VALUES)); /* f1 = u1 - u2 */
    PetscCall(MatSetValue(A, rowq + 0, c2, -hat, ADD_VALUES));
    PetscCall(MatSetValue(A, rowq + 1, c2, hat, ADD_VALUES)); /* f2 = u2 */
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode ParameterJacobian(TS ts, PetscReal t, Vec x, Vec v, Mat Pth, Mat Gth, void *ptr)
{
  PetscFunctionBeginUser;
  PetscCall(TorquesTheta((Arm *)ptr, t, Gth, 0));
  PetscFunctionReturn(0);
}

/* theta on the phase-space form F = (L_v - p, p' - L_x - f): dF/dtheta = (0, -df/dtheta) */
static PetscErrorCode IJacobianP(TS ts, PetscReal t, Vec U, Vec Udot, PetscReal shift, Mat A, void *ptr)
{
  PetscFunctionBeginUser;
  PetscCall(TorquesTheta((Arm *)ptr, t, A, 2));
  PetscCall(MatScale(A, -1));
  PetscFunctionReturn(0);
}

/* the cost integrand |u|^2 and its gradient in the controls (it does not depend on U) */
static PetscErrorCode Integrand(TS quadts, PetscReal t, Vec U, Vec r, void *ptr)
{
  PetscScalar u[2];

  PetscFunctionBeginUser;
  Control((Arm *)ptr, t, u);
  PetscCall(VecSet(r, u[0] * u[0] + u[1] * u[1]));
  PetscFunctionReturn(0);
}

static PetscErrorCode IntegrandP(TS quadts, PetscReal t, Vec U, Mat A, void *ptr)
{
  Arm        *arm = (Arm *)ptr;
  PetscScalar u[2];
  PetscInt    m;
  PetscReal   h0, h1;

  PetscFunctionBeginUser;
  Control(arm, t, u);
  Hats(arm, t, &m, &h0, &h1);
  PetscCall(MatZeroEntries(A));
  for (PetscInt j = 0; j < 2; j++) {
    PetscCall(MatSetValue(A, j * (arm->K + 1) + m, 0, 2 * u[j] * h0, ADD_VALUES));
    PetscCall(MatSetValue(A, j * (arm->K + 1) + m + 1, 0, 2 * u[j] * h1, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode IntegrandU(TS quadts, PetscReal t, Vec U, Mat A, Mat B, void *ptr)
{
  PetscFunctionBeginUser;
  PetscCall(MatZeroEntries(A));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- J and its gradient */

/* a TS from rest at q = 0 with the controls in arm->theta; U = (q1, q2, p1, p2) */
static PetscErrorCode CreateTS(Arm *arm, Vec U, TS *out)
{
  TS ts, quadts;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, arm->type));
  PetscCall(TSSimpVISetMass(ts, arm->M, arm->Mx, arm->Mxx, DoublePendulumMass, &arm->links));
  PetscCall(TSSimpVISetForce(ts, NULL, NULL, Torques, NULL, arm));
  if (arm->simpvi) PetscCall(TSSimpVISetParameterJacobian(ts, NULL, arm->Gth, ParameterJacobian, arm));
  else PetscCall(TSSetIJacobianP(ts, arm->Fth, IJacobianP, arm));
  PetscCall(VecSet(U, 0));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, arm->T / arm->steps));
  PetscCall(TSSetMaxTime(ts, arm->T));
  PetscCall(TSSetMaxSteps(ts, arm->steps));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetSaveTrajectory(ts));
  PetscCall(TSSetCostGradients(ts, 1, &arm->lambda, &arm->mu));
  PetscCall(TSCreateQuadratureTS(ts, PETSC_TRUE, &quadts));
  PetscCall(TSSetRHSFunction(quadts, NULL, Integrand, arm));
  PetscCall(TSSetRHSJacobian(quadts, arm->Ju, arm->Ju, IntegrandU, arm));
  PetscCall(TSSetRHSJacobianP(quadts, arm->Jp, IntegrandP, arm));
  PetscCall(TSSetFromOptions(ts));
  if (!arm->simpvi) {
    PetscCall(TSSimpVISetUpPhaseSpace(ts));
    PetscCall(TSSetIJacobianP(ts, arm->Fth, IJacobianP, arm)); /* after the phase-space form, which keeps it */
  }
  *out = ts;
  PetscFunctionReturn(0);
}

/* J(theta) and dJ/dtheta: a forward run and TSAdjointSolve() (lambda(T) = the penalty's gradient, mu(T) = 0) */
static PetscErrorCode FormFunctionGradient(Tao tao, Vec P, PetscReal *J, Vec G, void *ptr)
{
  Arm               *arm = (Arm *)ptr;
  TS                 ts;
  Vec                U, Q;
  const PetscScalar *u, *q;
  PetscScalar       *l;
  TSConvergedReason  reason;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(P, &arm->theta));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  PetscCall(CreateTS(arm, U, &ts));
  PetscCall(TSSetErrorIfStepFails(ts, PETSC_FALSE));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetConvergedReason(ts, &reason));
  if (reason < 0) { /* a step failed (a trial of the line search beyond the integrator's reach): J = Inf, which TAO's
                       line search answers with a shorter step */
    *J = PETSC_INFINITY;
    PetscCall(VecSet(G, 0));
    arm->failed++;
    PetscCall(TSDestroy(&ts));
    PetscCall(VecDestroy(&U));
    PetscCall(VecRestoreArrayRead(P, &arm->theta));
    arm->evals++;
    PetscFunctionReturn(0);
  }
  PetscCall(TSGetCostIntegral(ts, &Q));
  PetscCall(VecGetArrayRead(Q, &q));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArray(arm->lambda, &l));
  *J = PetscRealPart(q[0]);
  for (PetscInt i = 0; i < 2; i++) {
    *J += 0.5 * arm->W * (PetscSqr(PetscRealPart(u[i]) - arm->qT[i]) + PetscSqr(PetscRealPart(u[2 + i])));
    l[i]     = arm->W * (u[i] - arm->qT[i]);
    l[2 + i] = arm->W * u[2 + i];
  }
  PetscCall(VecRestoreArray(arm->lambda, &l));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(Q, &q));
  PetscCall(VecSet(arm->mu, 0));
  PetscCall(TSAdjointSolve(ts));
  PetscCall(VecCopy(arm->mu, G));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(VecRestoreArrayRead(P, &arm->theta));
  arm->evals++;
  PetscFunctionReturn(0);
}

static PetscErrorCode TaoCSV(Tao tao, void *ptr)
{
  Arm      *arm = (Arm *)ptr;
  PetscInt  it;
  PetscReal f, gnorm;

  PetscFunctionBeginUser;
  PetscCall(TaoGetSolutionStatus(tao, &it, &f, &gnorm, NULL, NULL, NULL));
  if (arm->taofile) PetscCall(PetscFPrintf(PETSC_COMM_SELF, arm->taofile, "%" PetscInt_FMT ",%.16e,%.16e\n", it, (double)f, (double)gnorm));
  PetscFunctionReturn(0);
}

/* the optimal motion, step by step: t, q1, q2, p1, p2, u1, u2 */
static PetscErrorCode WriteMotion(Arm *arm, Vec P, const char name[])
{
  TS        ts;
  Vec       U;
  FILE     *fp;
  PetscReal t;

  PetscFunctionBeginUser;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, name, "w", &fp));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "t,q1,q2,p1,p2,u1,u2\n"));
  PetscCall(VecGetArrayRead(P, &arm->theta));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  PetscCall(CreateTS(arm, U, &ts));
  PetscCall(TSSetUp(ts));
  for (PetscInt j = 0; j <= arm->steps; j++) {
    const PetscScalar *u;
    PetscScalar        c[2];

    PetscCall(TSGetTime(ts, &t));
    Control(arm, t, c);
    PetscCall(VecGetArrayRead(U, &u));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%.10e,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e\n", (double)t, (double)u[0], (double)u[1], (double)u[2], (double)u[3], (double)c[0], (double)c[1]));
    PetscCall(VecRestoreArrayRead(U, &u));
    if (j < arm->steps) PetscCall(TSStep(ts));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(VecRestoreArrayRead(P, &arm->theta));
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Arm                arm = {0};
  Tao                tao;
  Vec                P;
  PetscInt           n = 2, it;
  PetscReal          J, gnorm, gatol = 1e-6, t0, t1, umax = 15;
  char               output[PETSC_MAX_PATH_LEN] = "", type[64] = "simpvi";
  TaoConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  arm.links = (DoublePendulum){1, 1, 1, 1, 0};
  arm.T     = 2;
  arm.W     = 100;
  arm.steps = 40;
  arm.K     = 8;
  arm.qT[0] = arm.qT[1] = PETSC_PI / 2;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Two-link arm", NULL);
  PetscCall(PetscOptionsReal("-T", "Time of the motion", NULL, arm.T, &arm.T, NULL));
  PetscCall(PetscOptionsReal("-W", "Weight of the terminal penalty", NULL, arm.W, &arm.W, NULL));
  PetscCall(PetscOptionsInt("-steps", "Time steps", NULL, arm.steps, &arm.steps, NULL));
  PetscCall(PetscOptionsInt("-intervals", "Intervals of the control grid", NULL, arm.K, &arm.K, NULL));
  PetscCall(PetscOptionsReal("-umax", "Bound on the torques", NULL, umax, &umax, NULL));
  PetscCall(PetscOptionsRealArray("-target", "Target angles", NULL, arm.qT, &n, NULL));
  PetscCall(PetscOptionsString("-ts_type", "TS type", NULL, type, type, sizeof(type), NULL));
  PetscCall(PetscOptionsString("-output", "Prefix of the CSV files", NULL, output, output, sizeof(output), NULL));
  PetscOptionsEnd();
  arm.type   = type;
  arm.simpvi = (PetscBool)!strcmp(type, TSSIMPVI);
  arm.np     = 2 * (arm.K + 1);

  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &arm.M));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &arm.Mx));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &arm.Mxx));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, arm.np, NULL, &arm.Gth));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 4, arm.np, NULL, &arm.Fth));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, arm.np, 1, NULL, &arm.Jp));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 4, 1, NULL, &arm.Ju));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &arm.lambda));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, arm.np, &arm.mu));
  { /* M(0) until the first call: the phase-space form sizes it */
    PetscReal    M0[2][2];
    PetscScalar *m;

    DoublePendulumMassMatrix(&arm.links, 0, 0, M0);
    PetscCall(MatDenseGetArray(arm.M, &m));
    for (PetscInt i = 0; i < 4; i++) m[i] = M0[i % 2][i / 2]; /* column-major */
    PetscCall(MatDenseRestoreArray(arm.M, &m));
  }

  PetscCall(VecDuplicate(arm.mu, &P));
  PetscCall(VecSet(P, 0));
  PetscCall(TaoCreate(PETSC_COMM_SELF, &tao));
  PetscCall(TaoSetType(tao, TAOBLMVM));
  { /* a quasi-Newton memory as long as the controls (2 (K + 1)), not blmvm's 5: the penalty's few stiff directions
       and the torque integral's soft ones then all stay in the approximate Hessian (-tao_blmvm_mat_lmvm_hist_size 5
       takes about three times the iterations) */
    PetscBool set;
    char      hist[32];

    PetscCall(PetscOptionsHasName(NULL, NULL, "-tao_blmvm_mat_lmvm_hist_size", &set));
    PetscCall(PetscSNPrintf(hist, sizeof(hist), "%" PetscInt_FMT, arm.np));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, "-tao_blmvm_mat_lmvm_hist_size", hist));
  }
  PetscCall(TaoSetSolution(tao, P));
  PetscCall(TaoSetObjectiveAndGradient(tao, NULL, FormFunctionGradient, &arm));
  { /* torques within +-umax: blmvm's bounds keep the line search's trials in reach of every integrator's step */
    Vec lo, hi;

    PetscCall(VecDuplicate(P, &lo));
    PetscCall(VecDuplicate(P, &hi));
    PetscCall(VecSet(lo, -umax));
    PetscCall(VecSet(hi, umax));
    PetscCall(TaoSetVariableBounds(tao, lo, hi));
    PetscCall(VecDestroy(&lo));
    PetscCall(VecDestroy(&hi));
  }
  PetscCall(TaoSetTolerances(tao, gatol, 0, 0));
  PetscCall(TaoSetMaximumIterations(tao, 2000));
  PetscCall(TaoSetMaximumFunctionEvaluations(tao, 4000));
  if (output[0]) {
    char name[PETSC_MAX_PATH_LEN];

    PetscCall(PetscSNPrintf(name, sizeof(name), "%s-tao.csv", output));
    PetscCall(PetscFOpen(PETSC_COMM_SELF, name, "w", &arm.taofile));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, arm.taofile, "iteration,J,gradnorm\n"));
    PetscCall(TaoMonitorSet(tao, TaoCSV, &arm, NULL));
  }
  PetscCall(TaoSetFromOptions(tao));
  PetscCall(PetscTime(&t0));
  PetscCall(TaoSolve(tao));
  PetscCall(PetscTime(&t1));
  PetscCall(TaoGetSolutionStatus(tao, &it, &J, &gnorm, NULL, NULL, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: TAO %s, gradient norm < %g: %s\n", type, TaoConvergedReasons[reason], (double)gatol, gnorm < gatol ? "yes" : "no"));
  if (output[0]) {
    char name[PETSC_MAX_PATH_LEN];

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "RESULT %s iterations %" PetscInt_FMT " evaluations %" PetscInt_FMT " failed %" PetscInt_FMT " J %.10e gradnorm %.3e time %.3f\n", type, it, arm.evals, arm.failed, (double)J, (double)gnorm, t1 - t0));
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s-motion.csv", output));
    PetscCall(WriteMotion(&arm, P, name));
    PetscCall(PetscFClose(PETSC_COMM_SELF, arm.taofile));
  }
  PetscCall(TaoDestroy(&tao));
  PetscCall(VecDestroy(&P));
  PetscCall(VecDestroy(&arm.lambda));
  PetscCall(VecDestroy(&arm.mu));
  PetscCall(MatDestroy(&arm.M));
  PetscCall(MatDestroy(&arm.Mx));
  PetscCall(MatDestroy(&arm.Mxx));
  PetscCall(MatDestroy(&arm.Gth));
  PetscCall(MatDestroy(&arm.Fth));
  PetscCall(MatDestroy(&arm.Jp));
  PetscCall(MatDestroy(&arm.Ju));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # the discrete optimum of a coarser problem, to TAO's gradient tolerance
  test:
    suffix: simpvi
    args: -intervals 4 -steps 20 -ts_simpvi_type {{simpson lobatto}shared output}

TEST*/
