static char help[] = "The discrete adjoint of TSSIMPVI on PETSc's second-order door (TSSetI2Function()/TSSetI2Jacobian()): the TS\n"
                     "state is U (positions), lambda = dC/dU0 at fixed initial velocity V0. The problem,\n"
                     "  m_i u_i'' + gamma u_i' + k (2 u_i - u_{i-1} - u_{i+1}) + g sin(u_i) = A cos t,  m_i = 1.5 + 0.1 (i mod 3),\n"
                     "is a pendulum (-problem pendulum, one unknown, k = 0) or a chain on a DMDA (-problem chain, any number of\n"
                     "processes); the cost C = sum_i a_i sin(u_i(T)) (+ the integral of sum_i 1/2 u_i^2 with -integral).\n"
                     "Checks (-check): fd (dC/dU0 and dC/dg, g through TSSetIJacobianP(), or TSSimpVISetParameterJacobian() with\n"
                     "  -simpvi_param, against central differences), and what is not supported, which must stop with an error:\n"
                     "  forward (TSForwardSetSensitivities()), recompute (-ts_trajectory_solution_only), nomu (mu without a\n"
                     "  parameter Jacobian function), restart (an adjoint that does not go on from where the last one stopped),\n"
                     "  interpolate (a final time that TSSolve() interpolated to: the adjoint starts from the last step);\n"
                     "  resume: fd with the adjoint run in two TSAdjointSolve() calls (TSAdjointSetSteps()).\n\n";

#include <simpvi.h>
#include <petscdmda.h>
#include "fdgradient.h"

typedef enum {
  PENDULUM,
  CHAIN
} Problem;
static const char *const Problems[] = {"pendulum", "chain", "Problem", "", NULL};

typedef struct {
  Problem   problem;
  PetscBool integral, verbose, simpviparam;
  PetscReal g, gamma, amp, k, h;
  PetscInt  steps, n;
  DM        da;
  Vec       uloc;
  PetscInt  nloc, rstart;
  Vec       lam, mu;
} Ctx;

static PetscReal Mass(PetscInt i)
{
  return 1.5 + 0.1 * (PetscReal)(i % 3);
}

/* F = M a + gamma v + K u + g sin(u) - A cos t, K the chain's stiffness with fixed ends */
static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ptr)
{
  Ctx               *c = (Ctx *)ptr;
  const PetscScalar *u, *v, *a;
  PetscScalar       *f;
  PetscInt           xs, xm;

  PetscFunctionBeginUser;
  PetscCall(DMGlobalToLocalBegin(c->da, U, INSERT_VALUES, c->uloc));
  PetscCall(DMGlobalToLocalEnd(c->da, U, INSERT_VALUES, c->uloc));
  PetscCall(DMDAGetCorners(c->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayRead(c->da, c->uloc, &u));
  PetscCall(DMDAVecGetArrayRead(c->da, V, &v));
  PetscCall(DMDAVecGetArrayRead(c->da, A, &a));
  PetscCall(DMDAVecGetArray(c->da, F, &f));
  for (PetscInt i = xs; i < xs + xm; i++) {
    PetscScalar l = i > 0 ? u[i - 1] : 0, r = i < c->n - 1 ? u[i + 1] : 0;

    f[i] = Mass(i) * a[i] + c->gamma * v[i] + c->k * (2 * u[i] - l - r) + c->g * PetscSinScalar(u[i]) - c->amp * PetscCosReal(t);
  }
  PetscCall(DMDAVecRestoreArrayRead(c->da, c->uloc, &u));
  PetscCall(DMDAVecRestoreArrayRead(c->da, V, &v));
  PetscCall(DMDAVecRestoreArrayRead(c->da, A, &a));
  PetscCall(DMDAVecRestoreArray(c->da, F, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ptr)
{
  Ctx               *c = (Ctx *)ptr;
  const PetscScalar *u;
  PetscInt           xs, xm;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(c->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayRead(c->da, U, &u));
  for (PetscInt i = xs; i < xs + xm; i++) {
    PetscInt    cols[3] = {i - 1, i, i + 1};
    PetscScalar vals[3] = {-c->k, 2 * c->k + c->g * PetscCosScalar(u[i]) + shiftV * c->gamma + shiftA * Mass(i), -c->k};

    if (c->n == 1) PetscCall(MatSetValues(P, 1, &i, 1, cols + 1, vals + 1, INSERT_VALUES));
    else if (i == 0) PetscCall(MatSetValues(P, 1, &i, 2, cols + 1, vals + 1, INSERT_VALUES));
    else if (i == c->n - 1) PetscCall(MatSetValues(P, 1, &i, 2, cols, vals, INSERT_VALUES));
    else PetscCall(MatSetValues(P, 1, &i, 3, cols, vals, INSERT_VALUES));
  }
  PetscCall(DMDAVecRestoreArrayRead(c->da, U, &u));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* dF/dg = sin(u): PETSc's parameter Jacobian of the implicit form, called by TSSIMPVI with (t, U, V) */
static PetscErrorCode IJacobianP(TS ts, PetscReal t, Vec U, Vec V, PetscReal shift, Mat A, void *ptr)
{
  const PetscScalar *u;
  PetscInt           lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt i = lo; i < hi; i++) PetscCall(MatSetValue(A, i, 0, PetscSinScalar(u[i - lo]), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* the same through TSSimpVISetParameterJacobian(): dG/dg = -dF/dg, P = M v does not depend on g */
static PetscErrorCode SimpVIParameterJacobian(TS ts, PetscReal t, Vec x, Vec v, Mat Pth, Mat Gth, void *ptr)
{
  PetscFunctionBeginUser;
  PetscCall(IJacobianP(ts, t, x, v, 0, Gth, ptr));
  PetscCall(MatScale(Gth, -1));
  PetscFunctionReturn(0);
}

static PetscReal Weight(PetscInt i)
{
  return 1 + 0.1 * (PetscReal)(i % 7);
}

/* phi(U) = sum_i a_i sin(u_i) and its gradient (grad may be NULL) */
static PetscErrorCode Terminal(Vec U, PetscReal *phi, Vec grad)
{
  const PetscScalar *u;
  PetscScalar       *gr = NULL;
  PetscInt           lo, hi;
  PetscReal          loc = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  PetscCall(VecGetArrayRead(U, &u));
  if (grad) PetscCall(VecGetArray(grad, &gr));
  for (PetscInt i = lo; i < hi; i++) {
    loc += Weight(i) * PetscSinReal(PetscRealPart(u[i - lo]));
    if (gr) gr[i - lo] = Weight(i) * PetscCosReal(PetscRealPart(u[i - lo]));
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  if (grad) PetscCall(VecRestoreArray(grad, &gr));
  PetscCall(MPIU_Allreduce(&loc, phi, 1, MPIU_REAL, MPI_SUM, PetscObjectComm((PetscObject)U)));
  PetscFunctionReturn(0);
}

static PetscErrorCode Integrand(TS quadts, PetscReal t, Vec U, Vec r, void *ptr)
{
  PetscScalar uu;

  PetscFunctionBeginUser;
  PetscCall(VecDot(U, U, &uu));
  PetscCall(VecSet(r, 0.5 * uu));
  PetscFunctionReturn(0);
}

static PetscErrorCode IntegrandGradient(TS quadts, PetscReal t, Vec U, Mat A, Mat B, void *ptr)
{
  const PetscScalar *u;
  PetscScalar       *a;
  PetscInt           nloc;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(U, &nloc));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(MatDenseGetColumn(A, 0, &a));
  for (PetscInt i = 0; i < nloc; i++) a[i] = u[i];
  PetscCall(MatDenseRestoreColumn(A, &a));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

/* U0 and V0 */
static PetscErrorCode InitialState(Ctx *c, Vec U, Vec V)
{
  PetscScalar *u, *v;
  PetscInt     lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  PetscCall(VecGetArray(U, &u));
  PetscCall(VecGetArray(V, &v));
  for (PetscInt i = lo; i < hi; i++) {
    u[i - lo] = c->problem == CHAIN ? 0.8 * PetscSinReal(PETSC_PI * (i + 1) / (c->n + 1)) : 0.9;
    v[i - lo] = c->problem == CHAIN ? 0.1 * PetscCosReal(0.7 * i) : 0.2;
  }
  PetscCall(VecRestoreArray(U, &u));
  PetscCall(VecRestoreArray(V, &v));
  PetscFunctionReturn(0);
}

/* the TS of the problem from (U, V) (kept); mats[] destroyed by the caller; sensi: saved trajectory and gradients */
static PetscErrorCode CreateTS(Ctx *c, PetscReal g, Vec U, Vec V, PetscBool sensi, Mat mats[3], TS *out)
{
  TS       ts;
  MPI_Comm comm = PetscObjectComm((PetscObject)U);
  PetscInt nloc;

  PetscFunctionBeginUser;
  c->g = g;
  PetscCall(VecGetLocalSize(U, &nloc));
  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetDM(ts, c->da));
  PetscCall(DMCreateMatrix(c->da, &mats[0]));
  PetscCall(TSSetI2Function(ts, NULL, I2Function, c));
  PetscCall(TSSetI2Jacobian(ts, mats[0], mats[0], I2Jacobian, c));
  PetscCall(MatCreateDense(comm, nloc, PETSC_DECIDE, c->n, 1, NULL, &mats[1]));
  if (c->simpviparam) PetscCall(TSSimpVISetParameterJacobian(ts, NULL, mats[1], SimpVIParameterJacobian, c));
  else PetscCall(TSSetIJacobianP(ts, mats[1], IJacobianP, c));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, c->h));
  PetscCall(TSSetMaxSteps(ts, c->steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (sensi) {
    PetscCall(TSSetSaveTrajectory(ts));
    PetscCall(VecDuplicate(U, &c->lam));
    PetscCall(MatCreateVecs(mats[1], &c->mu, NULL));
    PetscCall(TSSetCostGradients(ts, 1, &c->lam, &c->mu));
  }
  if (c->integral) {
    TS quadts;

    PetscCall(TSCreateQuadratureTS(ts, PETSC_TRUE, &quadts));
    PetscCall(TSSetRHSFunction(quadts, NULL, Integrand, c));
    PetscCall(MatCreateDense(comm, nloc, PETSC_DECIDE, PETSC_DETERMINE, 1, NULL, &mats[2]));
    PetscCall(TSSetRHSJacobian(quadts, mats[2], mats[2], IntegrandGradient, c));
  }
  PetscCall(TSSetFromOptions(ts));
  *out = ts;
  PetscFunctionReturn(0);
}

static PetscErrorCode DestroyTS(Ctx *c, TS *ts, Mat mats[3])
{
  PetscFunctionBeginUser;
  PetscCall(TSDestroy(ts));
  for (PetscInt i = 0; i < 3; i++) PetscCall(MatDestroy(&mats[i]));
  PetscCall(VecDestroy(&c->lam));
  PetscCall(VecDestroy(&c->mu));
  PetscFunctionReturn(0);
}

/* C(U0, V0, g) of a forward run */
static PetscErrorCode Cost(Ctx *c, Vec U0, Vec V0, PetscReal g, PetscReal *C)
{
  TS  ts;
  Mat mats[3] = {NULL, NULL, NULL};
  Vec U, V;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U0, &U));
  PetscCall(VecDuplicate(V0, &V));
  PetscCall(VecCopy(U0, U));
  PetscCall(VecCopy(V0, V));
  PetscCall(CreateTS(c, g, U, V, PETSC_FALSE, mats, &ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(Terminal(U, C, NULL));
  if (c->integral) {
    Vec                Q;
    const PetscScalar *q;

    PetscCall(TSGetCostIntegral(ts, &Q));
    PetscCall(VecGetArrayRead(Q, &q));
    *C += PetscRealPart(q[0]);
    PetscCall(VecRestoreArrayRead(Q, &q));
  }
  PetscCall(DestroyTS(c, &ts, mats));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscFunctionReturn(0);
}

/* dC/dU0 into lambda, dC/dg into *dg by TSAdjointSolve(); check: what to break (unsupported uses) */
static PetscErrorCode Gradient(Ctx *c, const char check[], Vec U0, Vec V0, Vec lambda, PetscReal *dg)
{
  TS          ts;
  Mat         mats[3] = {NULL, NULL, NULL}, S = NULL;
  Vec         U, V;
  PetscScalar sum;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U0, &U));
  PetscCall(VecDuplicate(V0, &V));
  PetscCall(VecCopy(U0, U));
  PetscCall(VecCopy(V0, V));
  PetscCall(CreateTS(c, c->g, U, V, PETSC_TRUE, mats, &ts));
  if (!strcmp(check, "nomu")) { /* an I2 problem with mu but no parameter Jacobian function */
    PetscCall(TSSetIJacobianP(ts, mats[1], NULL, NULL));
  }
  if (!strcmp(check, "forward")) {
    PetscInt nloc;

    PetscCall(VecGetLocalSize(U, &nloc));
    PetscCall(MatCreateDense(PetscObjectComm((PetscObject)U), nloc, PETSC_DECIDE, PETSC_DETERMINE, 1, NULL, &S));
    PetscCall(MatZeroEntries(S));
    PetscCall(TSForwardSetSensitivities(ts, 1, S));
  }
  PetscCall(TSSolve(ts, U));
  PetscCall(Terminal(U, dg, c->lam));
  PetscCall(VecSet(c->mu, 0));
  if (!strcmp(check, "resume") || !strcmp(check, "restart")) { /* the adjoint of the last half of the steps first */
    PetscCall(TSAdjointSetSteps(ts, c->steps / 2));
    PetscCall(TSAdjointSolve(ts));
  }
  if (!strcmp(check, "restart")) PetscCall(TSSetStepNumber(ts, c->steps - 1)); /* then from a step the adjoint has not reached */
  PetscCall(TSAdjointSolve(ts));
  PetscCall(VecCopy(c->lam, lambda));
  PetscCall(VecSum(c->mu, &sum));
  *dg = PetscRealPart(sum);
  PetscCall(DestroyTS(c, &ts, mats));
  PetscCall(MatDestroy(&S));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscFunctionReturn(0);
}

/* C(U0) at the fixed V0, for FDGradientError() */
typedef struct {
  Ctx *c;
  Vec  V0;
} CostRun;

static PetscErrorCode CostOfU0(Vec U0, PetscReal *C, void *ptr)
{
  CostRun *run = (CostRun *)ptr;

  PetscFunctionBeginUser;
  PetscCall(Cost(run->c, U0, run->V0, run->c->g, C));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckFD(Ctx *c, const char check[], Vec U0, Vec V0)
{
  Vec       lambda;
  PetscReal dg, worst, Cp, Cm, eps = 1e-5, gerr, g0 = c->g, fdg;
  PetscInt  ndir;
  CostRun   run = {c, V0};

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U0, &lambda));
  PetscCall(Gradient(c, check, U0, V0, lambda, &dg));
  PetscCall(FDGradientError(U0, lambda, (PetscBool)(c->problem == CHAIN), eps, CostOfU0, &run, c->verbose, "adjoint", "central difference", &ndir, &worst));
  PetscCall(Cost(c, U0, V0, g0 * (1 + eps), &Cp));
  PetscCall(Cost(c, U0, V0, g0 * (1 - eps), &Cm));
  c->g = g0;
  fdg  = (Cp - Cm) / (2 * eps * g0);
  gerr = PetscAbsReal(dg - fdg) / PetscAbsReal(dg);
  if (c->verbose)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  dC/dg (%s): adjoint %.12e, central difference %.12e, relative error %.2e\n", c->simpviparam ? "TSSimpVISetParameterJacobian()" : "TSSetIJacobianP()", (double)dg, (double)fdg, (double)gerr));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dC/dU0 (fixed V0) against central differences in %" PetscInt_FMT " directions, relative error < 1e-7: %s\n", ndir, worst < 1e-7 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dC/dg (mu) against central differences, relative error < 1e-7: %s\n", gerr < 1e-7 ? "yes" : "no"));
  PetscCall(VecDestroy(&lambda));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx  c = {0};
  Vec  U0, V0;
  char check[16] = "fd";

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  c.g     = 9.81;
  c.gamma = 0.3;
  c.amp   = 0.5;
  c.k     = 4;
  c.h     = 0.05;
  c.steps = 40;
  c.n     = 12;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "I2 adjoint checks", NULL);
  PetscCall(PetscOptionsEnum("-problem", "Problem", NULL, Problems, (PetscEnum)c.problem, (PetscEnum *)&c.problem, NULL));
  PetscCall(PetscOptionsString("-check", "fd, resume, forward, recompute, nomu, restart or interpolate", NULL, check, check, sizeof(check), NULL));
  PetscCall(PetscOptionsBool("-integral", "Add the cost integral", NULL, c.integral, &c.integral, NULL));
  PetscCall(PetscOptionsBool("-simpvi_param", "mu through TSSimpVISetParameterJacobian() instead of TSSetIJacobianP()", NULL, c.simpviparam, &c.simpviparam, NULL));
  PetscCall(PetscOptionsBool("-verbose", "Print the numbers", NULL, c.verbose, &c.verbose, NULL));
  PetscCall(PetscOptionsInt("-steps", "Steps", NULL, c.steps, &c.steps, NULL));
  PetscOptionsEnd();
  if (c.problem == PENDULUM) {
    c.n = 1;
    c.k = 0;
  }
  PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, c.n, 1, 1, NULL, &c.da));
  PetscCall(DMSetUp(c.da));
  PetscCall(DMCreateLocalVector(c.da, &c.uloc));
  PetscCall(DMCreateGlobalVector(c.da, &U0));
  PetscCall(VecDuplicate(U0, &V0));
  PetscCall(InitialState(&c, U0, V0));
  if (!strcmp(check, "recompute")) {
    PetscCall(PetscOptionsSetValue(NULL, "-ts_trajectory_type", "memory"));
    PetscCall(PetscOptionsSetValue(NULL, "-ts_trajectory_solution_only", "1"));
  }
  if (!strcmp(check, "interpolate")) { /* TSSolve() interpolates back to T = 39.6 h inside the last step */
    char T[32];

    PetscCall(PetscSNPrintf(T, sizeof(T), "%.17g", (double)((c.steps - 0.4) * c.h)));
    PetscCall(PetscOptionsSetValue(NULL, "-ts_max_time", T));
    PetscCall(PetscOptionsSetValue(NULL, "-ts_exact_final_time", "interpolate"));
  }
  PetscCall(CheckFD(&c, check, U0, V0));
  PetscCall(VecDestroy(&U0));
  PetscCall(VecDestroy(&V0));
  PetscCall(VecDestroy(&c.uloc));
  PetscCall(DMDestroy(&c.da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # dC/dU0 at fixed V0 and dC/dg against central differences: terminal cost and cost integral, mu through PETSc's
  # TSSetIJacobianP() or TSSimpVISetParameterJacobian()
  test:
    suffix: pendulum
    args: -problem pendulum -integral -ts_simpvi_type {{simpson lobatto}shared output} -simpvi_param {{0 1}shared output}
  test:
    suffix: chain
    nsize: {{1 2}}
    args: -problem chain -integral -ts_simpvi_type {{simpson lobatto}shared output}
    output_file: output/adjoint_i2_chain_1.out

  # the memory trajectory (the default above is basic, on disk)
  test:
    suffix: memory
    args: -problem chain -integral -ts_trajectory_type memory
    output_file: output/adjoint_i2_chain_1.out

  # the adjoint in two pieces (TSAdjointSetSteps()): the momenta's adjoint carries over from the first
  test:
    suffix: resume
    args: -problem chain -check resume
    output_file: output/adjoint_i2_chain_1.out

  # -ts_view says what the I2 adjoint supports
  test:
    suffix: view
    args: -problem pendulum -ts_view
    filter: grep -e "Adjoint" -e "against"

  # what is not supported stops with an error that says so
  testset:
    args: -problem pendulum -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep "PETSC ERROR" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"
    test:
      suffix: forward
      args: -check forward
    test:
      suffix: recompute
      args: -check recompute
    test:
      suffix: nomu
      args: -check nomu
    test:
      suffix: restart
      args: -check restart
    test:
      suffix: interpolate
      args: -check interpolate

TEST*/
