static char help[] = "Dense output of TSSIMPVI (TSInterpolate(), -ts_exact_final_time interpolate) at times inside a step.\n"
                     "  -problem pendulum:  q'' = -sin q from rest at q0 = 2, against its exact solution (Jacobi elliptic functions):\n"
                     "                      the interpolated q and p at off-grid final times must converge at the scheme's order;\n"
                     "                      with -i2 through TSSetI2Function() (the interpolated state is then q alone).\n"
                     "  -problem spherical: the spherical pendulum, x = (theta, phi), M(x) = diag(1, sin^2 theta) through\n"
                     "                      TSSimpVISetMass(), V = -cos theta; phi is cyclic, so p_phi must stay at its initial value\n"
                     "                      to round-off at every interpolated time (three per step, and the off-grid final time),\n"
                     "                      the energy there no worse than at the steps, and the interpolations must not change\n"
                     "                      the steps.\n"
                     "Options: -dt <0.2> -T <3> -levels <3> -i2\n\n";

#include <simpvi.h>
#include "../examples/models/pendulum.h"

typedef enum {
  PROBLEM_PENDULUM,
  PROBLEM_SPHERICAL
} Problem;
static const char *const Problems[] = {"pendulum", "spherical", "Problem", "PROBLEM_", NULL};

#define NTHETA 3
static const PetscReal Thetas[NTHETA] = {0.25, 0.5, 0.8}; /* where in a step the solution is interpolated */

typedef struct {
  Problem   problem;
  PetscReal q0;
  PetscBool i2;                      /* pendulum: through TSSetI2Function(), U = u */
  PetscBool interpolate_steps;       /* spherical: interpolate inside every step (post-step hook) */
  PetscReal pphi0, H0;               /* spherical: initial p_phi and energy */
  PetscReal dpphi, dHstep, dHinterp; /* max |p_phi - p_phi0| at interpolated times, max |H - H0| at steps and interpolated times */
  Vec       W;
} AppCtx;

/* spherical: M = diag(1, s^2), s = sin theta; Mx(phi, theta) = d(s^2 v_phi)/dtheta = sin(2 theta) v_phi;
   g = (sin(2 theta) v_phi^2 / 2, 0); Mxx(theta, theta) = cos(2 theta) v_phi^2 */
static PetscErrorCode Mass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  const PetscScalar *xx, *vv;
  PetscScalar       *gg;
  PetscReal          th, vphi;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  th   = PetscRealPart(xx[0]);
  vphi = PetscRealPart(vv[1]);
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(MatZeroEntries(M));
  PetscCall(MatZeroEntries(Mx));
  PetscCall(MatZeroEntries(Mxx));
  PetscCall(MatSetValue(M, 0, 0, 1.0, INSERT_VALUES));
  PetscCall(MatSetValue(M, 1, 1, PetscSqr(PetscSinReal(th)), INSERT_VALUES));
  PetscCall(MatSetValue(Mx, 1, 0, PetscSinReal(2 * th) * vphi, INSERT_VALUES));
  PetscCall(MatSetValue(Mxx, 0, 0, PetscCosReal(2 * th) * vphi * vphi, INSERT_VALUES));
  PetscCall(VecGetArrayWrite(g, &gg));
  gg[0] = 0.5 * PetscSinReal(2 * th) * vphi * vphi;
  gg[1] = 0;
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Mx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Mx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Mxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Mxx, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* H = p_theta^2/2 + p_phi^2/(2 sin^2 theta) - cos theta, from the state alone */
static PetscReal SphericalEnergy(const PetscScalar *u)
{
  PetscReal th = PetscRealPart(u[0]), pth = PetscRealPart(u[2]), pphi = PetscRealPart(u[3]);

  return 0.5 * pth * pth + 0.5 * pphi * pphi / PetscSqr(PetscSinReal(th)) - PetscCosReal(th);
}

/* spherical: p_phi and H at the state U (interpolated or not) */
static PetscErrorCode Record(AppCtx *user, Vec U, PetscBool interpolated)
{
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  if (interpolated) {
    user->dpphi    = PetscMax(user->dpphi, PetscAbsReal(PetscRealPart(u[3]) - user->pphi0));
    user->dHinterp = PetscMax(user->dHinterp, PetscAbsReal(SphericalEnergy(u) - user->H0));
  } else user->dHstep = PetscMax(user->dHstep, PetscAbsReal(SphericalEnergy(u) - user->H0));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

/* after every step: the state at the step, and interpolated at three times inside it */
static PetscErrorCode PostStep(TS ts)
{
  AppCtx   *user;
  PetscReal t0, t1;
  Vec       U;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &user));
  PetscCall(TSGetSolution(ts, &U));
  PetscCall(Record(user, U, PETSC_FALSE));
  if (!user->interpolate_steps) PetscFunctionReturn(0);
  PetscCall(TSGetPrevTime(ts, &t0));
  PetscCall(TSGetTime(ts, &t1));
  for (PetscInt i = 0; i < NTHETA; i++) {
    PetscCall(TSInterpolate(ts, t0 + Thetas[i] * (t1 - t0), user->W));
    PetscCall(Record(user, user->W, PETSC_TRUE));
  }
  PetscFunctionReturn(0);
}

/* Steps of dt up to T, then interpolated to T + theta dt; the state there in u[] */
static PetscErrorCode Solve(AppCtx *user, PetscReal dt, PetscReal T, PetscReal theta, PetscReal u[])
{
  const PetscInt     n = user->problem == PROBLEM_PENDULUM ? 1 : 2, nu = user->i2 ? 1 : 2 * n;
  TS                 ts;
  SNES               snes;
  Mat                A[4];
  Vec                U, V = NULL, R;
  PetscScalar       *uu;
  const PetscScalar *ur;
  PetscReal          tsolve;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetApplicationContext(ts, user));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &A[i]));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, nu, &U));
  if (user->i2) { /* u = q, v = q' */
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 1, &R));
    PetscCall(TSSetI2Function(ts, R, I2Function, user));
    PetscCall(TSSetI2Jacobian(ts, A[0], A[0], I2Jacobian, user));
    PetscCall(VecDestroy(&R));
    PetscCall(VecDuplicate(U, &V));
    PetscCall(VecSet(V, 0));
  } else if (user->problem == PROBLEM_PENDULUM) {
    PetscCall(MatSetValue(A[0], 0, 0, 1.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A[0], MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A[0], MAT_FINAL_ASSEMBLY));
    PetscCall(TSSimpVISetMass(ts, A[0], NULL, NULL, NULL, NULL));
  } else PetscCall(TSSimpVISetMass(ts, A[0], A[1], A[2], Mass, user));
  if (!user->i2) PetscCall(TSSimpVISetPotential(ts, A[3], Potential, PotentialHessian, user));
  PetscCall(VecGetArrayWrite(U, &uu));
  if (user->problem == PROBLEM_PENDULUM) {
    uu[0] = user->q0;
    if (!user->i2) uu[1] = 0;
  } else { /* theta = 1, phi = 0, theta' = 0, phi' = 1.2 */
    uu[0]       = 1;
    uu[1]       = 0;
    uu[2]       = 0;
    uu[3]       = PetscSqr(PetscSinReal(1.0)) * 1.2;
    user->pphi0 = PetscRealPart(uu[3]);
    user->H0    = SphericalEnergy(uu);
    user->dpphi = user->dHstep = user->dHinterp = 0;
    PetscCall(VecDuplicate(U, &user->W));
    PetscCall(TSSetPostStep(ts, PostStep));
  }
  PetscCall(VecRestoreArrayWrite(U, &uu));
  if (user->i2) PetscCall(TS2SetSolution(ts, U, V));
  else PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, 1000000));
  PetscCall(TSSetMaxTime(ts, T + theta * dt));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_INTERPOLATE));
  /* high orders reach round-off on fine meshes: solve each step, and each interpolating step, to machine precision */
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetTolerances(snes, 1e-14, 1e-14, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSolveTime(ts, &tsolve));
  PetscCheck(PetscAbsReal(tsolve - (T + theta * dt)) < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "TSSolve ended at %g, not %g", (double)tsolve, (double)(T + theta * dt));
  if (user->problem == PROBLEM_SPHERICAL) PetscCall(Record(user, U, PETSC_TRUE));
  PetscCall(VecGetArrayRead(U, &ur));
  for (PetscInt i = 0; i < nu; i++) u[i] = PetscRealPart(ur[i]);
  PetscCall(VecRestoreArrayRead(U, &ur));
  PetscCall(VecDestroy(&user->W));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatDestroy(&A[i]));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  AppCtx      user = {PROBLEM_PENDULUM, 2.0, PETSC_FALSE, PETSC_FALSE};
  PetscReal   dt = 0.2, T = 3;
  PetscInt    levels = 3, order;
  TS          ts;
  const char *name;
  char        type[64];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Dense output test options", NULL);
  PetscCall(PetscOptionsEnum("-problem", "The problem", NULL, Problems, (PetscEnum)user.problem, (PetscEnum *)&user.problem, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step (of the coarsest mesh)", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-T", "Time of the last step before the interpolated final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsBool("-i2", "Pendulum through TSSetI2Function()", NULL, user.i2, &user.i2, NULL));
  PetscCall(PetscOptionsRangeInt("-levels", "Meshes dt, dt/2, ...", NULL, levels, &levels, NULL, 2, 8));
  PetscOptionsEnd();

  /* the scheme as the options set it */
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVIGetType(ts, &name));
  PetscCall(PetscStrncpy(type, name, sizeof(type)));
  PetscCall(TSSimpVIGetOrder(ts, &order));
  PetscCall(TSDestroy(&ts));

  if (user.problem == PROBLEM_PENDULUM) {
    PetscReal eq[8], ep[8], oq = PETSC_MAX_REAL, op = PETSC_MAX_REAL;

    /* on each mesh the largest error over final times a fraction theta of a step past T, where steps end */
    for (PetscInt l = 0; l < levels; l++) {
      PetscReal h = dt / PetscPowReal(2.0, (PetscReal)l), u[2] = {0, 0}, qe, pe;

      eq[l] = ep[l] = 0;
      for (PetscInt i = 0; i < NTHETA; i++) {
        PetscCall(Solve(&user, h, T, Thetas[i], u));
        PendulumExact(user.q0, T + Thetas[i] * h, &qe, &pe);
        eq[l] = PetscMax(eq[l], PetscAbsReal(u[0] - qe));
        if (!user.i2) ep[l] = PetscMax(ep[l], PetscAbsReal(u[1] - pe));
      }
      if (user.i2) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dt/%d: interpolated error q %.2e\n", 1 << l, (double)eq[l]));
      else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dt/%d: interpolated errors q %.2e p %.2e\n", 1 << l, (double)eq[l], (double)ep[l]));
      if (l) {
        oq = PetscMin(oq, PetscLog2Real(eq[l - 1] / eq[l]));
        if (!user.i2) op = PetscMin(op, PetscLog2Real(ep[l - 1] / ep[l]));
      }
    }
    if (user.i2) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "scheme %s order %" PetscInt_FMT ", I2 door: lowest observed order of interpolated q %.2f\n", type, order, (double)oq));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "interpolated q converges at the scheme's order: %s\n", oq > order - 0.4 ? "yes" : "no"));
    } else {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "scheme %s order %" PetscInt_FMT ": lowest observed orders of interpolated q %.2f, p %.2f\n", type, order, (double)oq, (double)op));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "interpolated q and p converge at the scheme's order: %s\n", oq > order - 0.4 && op > order - 0.4 ? "yes" : "no"));
    }
  } else {
    PetscReal u0[4], u1[4], dstep = 0, dHstep;

    PetscCall(Solve(&user, dt, T, Thetas[0], u0)); /* without interpolations inside the steps */
    dHstep                 = user.dHstep;
    user.interpolate_steps = PETSC_TRUE;
    PetscCall(Solve(&user, dt, T, Thetas[0], u1));
    for (PetscInt i = 0; i < 4; i++) dstep = PetscMax(dstep, PetscAbsReal(u1[i] - u0[i]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "scheme %s: |p_phi - p_phi(0)| below 1e-12 at every interpolated time: %s (%.1e)\n", type, user.dpphi < 1e-12 ? "yes" : "no", (double)user.dpphi));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "energy error at interpolated times %.1e, at the steps %.1e: within twice: %s\n", (double)user.dHinterp, (double)user.dHstep, user.dHinterp <= 2 * user.dHstep + 1e-14 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "interpolating inside every step leaves the steps unchanged: %s\n", dstep < 1e-13 && dHstep == user.dHstep ? "yes" : "no"));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: pendulum_simpson
    args: -problem pendulum -ts_simpvi_type simpson
  test:
    suffix: pendulum_lobatto
    args: -problem pendulum -ts_simpvi_type lobatto
  test:
    suffix: pendulum_lobatto4
    args: -problem pendulum -ts_simpvi_type lobatto -ts_simpvi_degree 4 -dt 0.8
  test:
    suffix: pendulum_gauss
    args: -problem pendulum -ts_simpvi_type gauss -ts_simpvi_degree 2
  test:
    suffix: pendulum_lobatto_i2
    args: -problem pendulum -ts_simpvi_type lobatto -i2
  test:
    suffix: spherical_simpson
    args: -problem spherical -ts_simpvi_type simpson -dt 0.1 -T 10
  test:
    suffix: spherical_lobatto
    args: -problem spherical -ts_simpvi_type lobatto -dt 0.1 -T 10
  # the partial steps of the dense output solved by KINSOL
  test:
    suffix: spherical_lobatto_kinsol
    requires: kinsol
    args: -problem spherical -ts_simpvi_type lobatto -dt 0.1 -T 10 -ts_simpvi_nonlinear_solver kinsol
    output_file: output/dense_spherical_lobatto.out

TEST*/
