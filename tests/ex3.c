static char help[] = "Momentum conservation and the analytic step Jacobian of TSSIMPVI with a configuration-dependent mass.\n"
                     "A particle in the Kepler potential V = -k/r in polar coordinates x = (r, theta): M(x) = diag(m, m r^2), so\n"
                     "theta is cyclic and p_theta must be conserved to round-off by every step (discrete Noether theorem), while the\n"
                     "energy error stays bounded. The problem goes through the mechanical door (TSSimpVISetMass() with Mx, g, Mxx)\n"
                     "and through the Lagrangian door (with L_vx); both must give the same orbit. Last, the analytic Jacobian of the\n"
                     "step system is compared with a finite-difference one at a perturbed point.\n"
                     "Options: -dt <0.05> -steps <1200> -ecc <1.2> (initial angular velocity; 1 is a circle)\n\n";

#include <simpvi.h>
#include "../examples/stepjacobian.h"

typedef enum {
  DOOR_MECHANICAL,
  DOOR_LAGRANGIAN
} Door;
static const char *const Doors[] = {"mechanical", "lagrangian", "Door", "DOOR_", NULL};

typedef struct {
  PetscReal m, k;
  PetscReal H0, ptheta0;    /* initial energy and angular momentum */
  PetscReal dptheta, dH[2]; /* max relative change of p_theta; max |H - H0| in the first and second half */
  PetscInt  steps;
} AppCtx;

static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  *V    = -user->k / xx[0];
  gg[0] = user->k / (xx[0] * xx[0]);
  gg[1] = 0;
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xx;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(MatZeroEntries(H));
  PetscCall(MatSetValue(H, 0, 0, -2 * user->k / (xx[0] * xx[0] * xx[0]), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* M = diag(m, m r^2); Mx(i,j) = d(M v)_i/dx_j: only d(m r^2 v_th)/dr = 2 m r v_th; g = (m r v_th^2, 0); Mxx(r,r) = m v_th^2 */
static PetscErrorCode Mass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xx, *vv;
  PetscScalar       *gg;
  PetscReal          m = user->m;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(g, &gg));
  PetscCall(MatZeroEntries(M));
  PetscCall(MatZeroEntries(Mx));
  PetscCall(MatZeroEntries(Mxx));
  PetscCall(MatSetValue(M, 0, 0, m, INSERT_VALUES));
  PetscCall(MatSetValue(M, 1, 1, m * xx[0] * xx[0], INSERT_VALUES));
  PetscCall(MatSetValue(Mx, 1, 0, 2 * m * xx[0] * vv[1], INSERT_VALUES));
  PetscCall(MatSetValue(Mxx, 0, 0, m * vv[1] * vv[1], INSERT_VALUES));
  gg[0] = m * xx[0] * vv[1] * vv[1];
  gg[1] = 0;
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Mx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Mx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Mxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Mxx, MAT_FINAL_ASSEMBLY));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

/* L = 1/2 m (v_r^2 + r^2 v_th^2) + k/r */
static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xx, *vv;
  PetscScalar       *lx, *lv;
  PetscReal          m = user->m, k = user->k;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(Lx, &lx));
  PetscCall(VecGetArrayWrite(Lv, &lv));
  *L    = 0.5 * m * (vv[0] * vv[0] + xx[0] * xx[0] * vv[1] * vv[1]) + k / xx[0];
  lx[0] = m * xx[0] * vv[1] * vv[1] - k / (xx[0] * xx[0]);
  lx[1] = 0;
  lv[0] = m * vv[0];
  lv[1] = m * xx[0] * xx[0] * vv[1];
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(Lx, &lx));
  PetscCall(VecRestoreArrayWrite(Lv, &lv));
  PetscFunctionReturn(0);
}

static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xx, *vv;
  PetscReal          m = user->m, k = user->k;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(MatZeroEntries(Lxx));
  PetscCall(MatZeroEntries(Lvx));
  PetscCall(MatZeroEntries(Lvv));
  PetscCall(MatSetValue(Lxx, 0, 0, m * vv[1] * vv[1] + 2 * k / (xx[0] * xx[0] * xx[0]), INSERT_VALUES));
  PetscCall(MatSetValue(Lvx, 1, 0, 2 * m * xx[0] * vv[1], INSERT_VALUES));
  PetscCall(MatSetValue(Lvv, 0, 0, m, INSERT_VALUES));
  PetscCall(MatSetValue(Lvv, 1, 1, m * xx[0] * xx[0], INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(MatAssemblyBegin(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Lvx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lvx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Lvv, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lvv, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* H = p_r^2/2m + p_th^2/(2 m r^2) - k/r from the state alone, independent of the library */
static PetscReal Energy(AppCtx *user, const PetscScalar *u)
{
  return PetscRealPart(u[2] * u[2] / (2 * user->m) + u[3] * u[3] / (2 * user->m * u[0] * u[0]) - user->k / u[0]);
}

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  user->dptheta                    = PetscMax(user->dptheta, PetscAbsReal(PetscRealPart(u[3]) - user->ptheta0) / PetscAbsReal(user->ptheta0));
  user->dH[2 * step > user->steps] = PetscMax(user->dH[2 * step > user->steps], PetscAbsReal(Energy(user, u) - user->H0));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode Run(AppCtx *user, Door door, PetscReal dt, PetscReal thetadot, Vec U, PetscReal *jacerr)
{
  TS           ts;
  SNES         snes;
  Mat          A[4];
  PetscScalar *u;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &A[i]));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  if (door == DOOR_MECHANICAL) {
    PetscCall(TSSimpVISetMass(ts, A[0], A[1], A[2], Mass, user));
    PetscCall(TSSimpVISetPotential(ts, A[3], Potential, PotentialHessian, user));
  } else {
    PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, user));
    PetscCall(TSSimpVISetLagrangianHessian(ts, A[0], A[1], A[2], LagrangianHessian, user));
  }
  /* r = 1, theta = 0, v = (0, thetadot): p = (0, m thetadot) */
  PetscCall(VecGetArrayWrite(U, &u));
  u[0]          = 1;
  u[1]          = 0;
  u[2]          = 0;
  u[3]          = user->m * thetadot;
  user->H0      = Energy(user, u);
  user->ptheta0 = PetscRealPart(u[3]);
  PetscCall(VecRestoreArrayWrite(U, &u));
  user->dptheta = user->dH[0] = user->dH[1] = 0;
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, user->steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSMonitorSet(ts, Monitor, user, NULL));
  /* p_theta is conserved up to the step residual: solve each step to round-off */
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetTolerances(snes, 1e-14, 1e-14, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(CheckJacobian(ts, jacerr));
  PetscCall(TSDestroy(&ts));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatDestroy(&A[i]));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  AppCtx user = {
    1.0, 1.0, 0, 0, 0, {0, 0},
         1200
  };
  PetscReal          dt = 0.05, thetadot = 1.2, jacerr = 0, diff = 0, size = 0;
  PetscInt           degree;
  Vec                U[2];
  TS                 ts;
  const char        *type;
  const PetscScalar *u0, *u1;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Momentum test options", NULL);
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsInt("-steps", "Number of steps", NULL, user.steps, &user.steps, NULL));
  PetscCall(PetscOptionsReal("-ecc", "Initial angular velocity", NULL, thetadot, &thetadot, NULL));
  PetscOptionsEnd();

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(TSSimpVIGetDegree(ts, &degree));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Kepler problem in polar coordinates, scheme %s degree %" PetscInt_FMT ", %" PetscInt_FMT " steps\n", type, degree, user.steps));
  PetscCall(TSDestroy(&ts));

  for (PetscInt d = 0; d < 2; d++) {
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U[d]));
    PetscCall(Run(&user, (Door)d, dt, thetadot, U[d], &jacerr));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s door: p_theta drift %.2e, energy error %.2e then %.2e, Jacobian error %.2e\n", Doors[d], (double)user.dptheta, (double)user.dH[0], (double)user.dH[1], (double)jacerr));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s door: p_theta conserved to 1e-12: %s\n", Doors[d], user.dptheta < 1e-12 ? "yes" : "no"));
    /* bounded: no larger in the second half of the run than in the first (a drift would double it), and small */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s door: energy error bounded: %s\n", Doors[d], user.dH[1] < 1.2 * user.dH[0] && user.dH[1] < 1e-3 * PetscAbsReal(user.H0) ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s door: analytic Jacobian matches finite differences to 1e-6: %s\n", Doors[d], jacerr < 1e-6 ? "yes" : "no"));
  }
  PetscCall(VecGetArrayRead(U[0], &u0));
  PetscCall(VecGetArrayRead(U[1], &u1));
  for (PetscInt i = 0; i < 4; i++) {
    diff = PetscMax(diff, PetscAbsScalar(u0[i] - u1[i]));
    size = PetscMax(size, PetscAbsScalar(u0[i]));
  }
  PetscCall(VecRestoreArrayRead(U[0], &u0));
  PetscCall(VecRestoreArrayRead(U[1], &u1));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "doors give the same orbit to 1e-10: %s\n", diff < 1e-10 * size ? "yes" : "no"));
  for (PetscInt d = 0; d < 2; d++) PetscCall(VecDestroy(&U[d]));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: midpoint
    args: -ts_simpvi_type midpoint
  test:
    suffix: trapezoid
    args: -ts_simpvi_type trapezoid
  test:
    suffix: simpson
    args: -ts_simpvi_type simpson
  # high orders on long steps, so that the energy error is truncation, not round-off
  test:
    suffix: lobatto3
    args: -ts_simpvi_type lobatto -ts_simpvi_degree 3 -dt 0.25 -steps 600
  test:
    suffix: lobatto4
    args: -ts_simpvi_type lobatto -ts_simpvi_degree 4 -dt 0.4 -steps 400
  test:
    suffix: gauss2
    args: -ts_simpvi_type gauss -ts_simpvi_degree 2
  test:
    suffix: gauss3
    args: -ts_simpvi_type gauss -ts_simpvi_degree 3 -dt 0.25 -steps 600
  # the same verdicts with KINSOL, whose step solution the Jacobian check takes from the step DM
  test:
    suffix: kinsol_simpson
    requires: kinsol
    args: -ts_simpvi_type simpson -ts_simpvi_nonlinear_solver kinsol
    output_file: output/ex3_simpson.out

TEST*/
