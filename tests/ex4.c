static char help[] = "The doors of TSSIMPVI agree: one nonlinear problem given four ways gives the same trajectory.\n"
                     "Two masses on hardening springs, M q'' + grad V(q) = 0 with a full constant mass matrix and\n"
                     "V = k1 q1^2/2 + c1 q1^4/4 + k2 d^2/2 + c2 d^4/4, d = q2 - q1, given through\n"
                     "  mechanical: TSSimpVISetMass() and TSSimpVISetPotential()\n"
                     "  lagrangian: TSSimpVISetLagrangian() with L = v'M v/2 - V and L_vx = NULL\n"
                     "  i2:         TSSetI2Function()/TSSetI2Jacobian() with TS2SetSolution(), as for TSALPHA2\n"
                     "  ifunction:  TSSetIFunction()/TSSetIJacobian() on (u, u'') with TS2SetSolution(), as in PETSc's ts ex43\n"
                     "Positions and momenta (p = M v for the second-order doors) must agree to 1e-12, and each door's analytic step\n"
                     "Jacobian must match finite differences. With -damping c a force -c C v is added: through TSSimpVISetForce() for\n"
                     "the native doors, as C u' in the I2 function (the IFunction form has no velocity, so it is left out).\n"
                     "Options: -dt <0.1> -steps <100> -damping <0>\n\n";

#include <simpvi.h>
#include "../examples/stepjacobian.h"

#define N 2

typedef enum {
  DOOR_MECHANICAL,
  DOOR_LAGRANGIAN,
  DOOR_I2,
  DOOR_IFUNCTION
} Door;
static const char *const Doors[] = {"mechanical", "lagrangian", "i2", "ifunction", "Door", "DOOR_", NULL};

static PetscReal Mv[N][N] = {
  /* not const: passed with the Hessian to FillDense() */
  {2.0, 0.5},
  {0.5, 1.0}
};

static PetscReal Cv[N][N] = {
  {1.0, 0.2},
  {0.2, 0.5}
};

typedef struct {
  PetscReal k1, c1, k2, c2;
  PetscReal damping; /* the force is -damping * C v */
} AppCtx;

static PetscReal PotentialValue(AppCtx *user, const PetscScalar *x, PetscScalar *g, PetscReal H[N][N])
{
  PetscReal q1 = PetscRealPart(x[0]), d = PetscRealPart(x[1] - x[0]), f1 = user->k1 * q1 + user->c1 * q1 * q1 * q1, f2 = user->k2 * d + user->c2 * d * d * d;
  PetscReal h1 = user->k1 + 3 * user->c1 * q1 * q1, h2 = user->k2 + 3 * user->c2 * d * d;

  if (g) {
    g[0] = f1 - f2;
    g[1] = f2;
  }
  if (H) {
    H[0][0] = h1 + h2;
    H[0][1] = H[1][0] = -h2;
    H[1][1]           = h2;
  }
  return 0.5 * user->k1 * q1 * q1 + 0.25 * user->c1 * q1 * q1 * q1 * q1 + 0.5 * user->k2 * d * d + 0.25 * user->c2 * d * d * d * d;
}

/* A = a*T1 + b*T2, assembled */
static PetscErrorCode FillDense(Mat A, PetscReal a, const PetscReal T1[N][N], PetscReal b, PetscReal T2[N][N])
{
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < N; i++)
    for (PetscInt j = 0; j < N; j++) PetscCall(MatSetValue(A, i, j, a * T1[i][j] + (T2 ? b * T2[i][j] : 0), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static void MassTimes(const PetscScalar *v, PetscScalar *Mvv)
{
  for (PetscInt i = 0; i < N; i++) Mvv[i] = Mv[i][0] * v[0] + Mv[i][1] * v[1];
}

/* mechanical door */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  *V = PotentialValue((AppCtx *)ctx, xx, gg, NULL);
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  const PetscScalar *xx;
  PetscReal          h[N][N];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PotentialValue((AppCtx *)ctx, xx, NULL, h);
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(FillDense(H, 1, h, 0, NULL));
  PetscFunctionReturn(0);
}

/* Lagrangian door: L = v'M v/2 - V, L_x = -grad V, L_v = M v */
static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  const PetscScalar *xx, *vv;
  PetscScalar       *lx, *lv;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(Lx, &lx));
  PetscCall(VecGetArrayWrite(Lv, &lv));
  *L = -PotentialValue((AppCtx *)ctx, xx, lx, NULL);
  for (PetscInt i = 0; i < N; i++) lx[i] = -lx[i];
  MassTimes(vv, lv);
  for (PetscInt i = 0; i < N; i++) *L += 0.5 * PetscRealPart(vv[i] * lv[i]);
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(Lx, &lx));
  PetscCall(VecRestoreArrayWrite(Lv, &lv));
  PetscFunctionReturn(0);
}

static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  const PetscScalar *xx;
  PetscReal          h[N][N];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PotentialValue((AppCtx *)ctx, xx, NULL, h);
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(FillDense(Lxx, -1, h, 0, NULL));
  PetscCall(FillDense(Lvv, 1, Mv, 0, NULL));
  PetscFunctionReturn(0);
}

/* native doors' damping force f = -damping C v, df/dv = -damping C */
static PetscErrorCode Force(TS ts, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *vv;
  PetscScalar       *ff;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(f, &ff));
  for (PetscInt i = 0; i < N; i++) ff[i] = -user->damping * (Cv[i][0] * vv[0] + Cv[i][1] * vv[1]);
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(f, &ff));
  PetscFunctionReturn(0);
}

static PetscErrorCode ForceJacobian(TS ts, PetscReal t, Vec x, Vec v, Mat Fx, Mat Fv, void *ctx)
{
  AppCtx *user = (AppCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(FillDense(Fv, -user->damping, Cv, 0, NULL));
  PetscFunctionReturn(0);
}

/* second-order doors: F = M a + damping C v + grad V(u), dF/du + shiftV damping C + shiftA M */
static PetscErrorCode Residual(AppCtx *user, Vec U, Vec V, Vec A, Vec F)
{
  const PetscScalar *u, *a, *v;
  PetscScalar       *f, Ma[N];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayWrite(F, &f));
  PotentialValue(user, u, f, NULL);
  MassTimes(a, Ma);
  for (PetscInt i = 0; i < N; i++) f[i] += Ma[i];
  if (V) {
    PetscCall(VecGetArrayRead(V, &v));
    for (PetscInt i = 0; i < N; i++) f[i] += user->damping * (Cv[i][0] * v[0] + Cv[i][1] * v[1]);
    PetscCall(VecRestoreArrayRead(V, &v));
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode Tangent(AppCtx *user, Vec U, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P)
{
  const PetscScalar *u;
  PetscReal          h[N][N];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PotentialValue(user, u, NULL, h);
  PetscCall(VecRestoreArrayRead(U, &u));
  for (PetscInt i = 0; i < N; i++)
    for (PetscInt j = 0; j < N; j++) h[i][j] += shiftV * user->damping * Cv[i][j];
  PetscCall(FillDense(P, shiftA, Mv, 1, h));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(Residual((AppCtx *)ctx, U, V, A, F));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(Tangent((AppCtx *)ctx, U, shiftV, shiftA, J, P));
  PetscFunctionReturn(0);
}

static PetscErrorCode IFunction(TS ts, PetscReal t, Vec U, Vec A, Vec F, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(Residual((AppCtx *)ctx, U, NULL, A, F));
  PetscFunctionReturn(0);
}

static PetscErrorCode IJacobian(TS ts, PetscReal t, Vec U, Vec A, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(Tangent((AppCtx *)ctx, U, 0, shiftA, J, P));
  PetscFunctionReturn(0);
}

/* Runs one door from q0 with velocity v0; returns q and p = L_v at the end */
static PetscErrorCode Run(AppCtx *user, Door door, PetscReal dt, PetscInt steps, const PetscScalar q0[], const PetscScalar v0[], PetscReal q[], PetscReal p[], PetscReal *jacerr)
{
  TS                 ts;
  SNES               snes;
  Mat                A[4];
  Vec                U, V, R;
  PetscScalar       *u, *v;
  const PetscScalar *uu, *vv;
  PetscScalar        pp[N];
  PetscInt           nsteps;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, N, N, NULL, &A[i]));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  if (door == DOOR_MECHANICAL || door == DOOR_LAGRANGIAN) { /* native: U = (q, p) */
    if (door == DOOR_MECHANICAL) {
      PetscCall(FillDense(A[0], 1, Mv, 0, NULL));
      PetscCall(TSSimpVISetMass(ts, A[0], NULL, NULL, NULL, NULL));
      PetscCall(TSSimpVISetPotential(ts, A[1], Potential, PotentialHessian, user));
    } else {
      PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, user));
      PetscCall(TSSimpVISetLagrangianHessian(ts, A[0], NULL, A[1], LagrangianHessian, user));
    }
    if (user->damping > 0) PetscCall(TSSimpVISetForce(ts, NULL, A[3], Force, ForceJacobian, user));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * N, &U));
    PetscCall(VecGetArrayWrite(U, &u));
    MassTimes(v0, pp);
    for (PetscInt i = 0; i < N; i++) {
      u[i]     = q0[i];
      u[N + i] = pp[i];
    }
    PetscCall(VecRestoreArrayWrite(U, &u));
    PetscCall(TSSetSolution(ts, U));
  } else { /* second order: u = q, v = q' */
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, N, &R));
    if (door == DOOR_I2) {
      PetscCall(TSSetI2Function(ts, R, I2Function, user));
      PetscCall(TSSetI2Jacobian(ts, A[0], A[0], I2Jacobian, user));
    } else {
      PetscCall(TSSetIFunction(ts, R, IFunction, user));
      PetscCall(TSSetIJacobian(ts, A[0], A[0], IJacobian, user));
    }
    PetscCall(VecDestroy(&R));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, N, &U));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, N, &V));
    PetscCall(VecGetArrayWrite(U, &u));
    PetscCall(VecGetArrayWrite(V, &v));
    for (PetscInt i = 0; i < N; i++) {
      u[i] = q0[i];
      v[i] = v0[i];
    }
    PetscCall(VecRestoreArrayWrite(U, &u));
    PetscCall(VecRestoreArrayWrite(V, &v));
    PetscCall(TS2SetSolution(ts, U, V));
    PetscCall(VecDestroy(&V));
  }
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  /* different doors start Newton from different guesses: converge to round-off */
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetTolerances(snes, 1e-14, 1e-14, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(CheckJacobian(ts, jacerr));
  PetscCall(TSGetStepNumber(ts, &nsteps));
  PetscCheck(nsteps == steps, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s door took %" PetscInt_FMT " steps, not %" PetscInt_FMT, Doors[door], nsteps, steps);
  if (door == DOOR_MECHANICAL || door == DOOR_LAGRANGIAN) {
    PetscCall(VecGetArrayRead(U, &uu));
    for (PetscInt i = 0; i < N; i++) {
      q[i] = PetscRealPart(uu[i]);
      p[i] = PetscRealPart(uu[N + i]);
    }
    PetscCall(VecRestoreArrayRead(U, &uu));
  } else {
    Vec X, Xdot;

    PetscCall(TS2GetSolution(ts, &X, &Xdot));
    PetscCall(VecGetArrayRead(X, &uu));
    PetscCall(VecGetArrayRead(Xdot, &vv));
    MassTimes(vv, pp);
    for (PetscInt i = 0; i < N; i++) {
      q[i] = PetscRealPart(uu[i]);
      p[i] = PetscRealPart(pp[i]);
    }
    PetscCall(VecRestoreArrayRead(X, &uu));
    PetscCall(VecRestoreArrayRead(Xdot, &vv));
  }
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatDestroy(&A[i]));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  AppCtx            user = {1.0, 2.0, 3.0, 4.0, 0.0};
  PetscReal         dt = 0.1, q[4][N], p[4][N], jacerr[4], scale = 0, moved = 0;
  PetscInt          ndoors;
  PetscInt          steps = 100, degree;
  const PetscScalar q0[N] = {0.8, -0.3}, v0[N] = {0.2, 1.1};
  TS                ts;
  const char       *type;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Doors test options", NULL);
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsInt("-steps", "Number of steps", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsReal("-damping", "Damping factor c of the force -c C v", NULL, user.damping, &user.damping, NULL));
  PetscOptionsEnd();
  ndoors = user.damping > 0 ? 3 : 4; /* the IFunction form cannot carry the damping */

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(TSSimpVIGetDegree(ts, &degree));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Two hardening springs%s, scheme %s degree %" PetscInt_FMT ", %" PetscInt_FMT " steps\n", user.damping > 0 ? " with damping" : "", type, degree, steps));
  PetscCall(TSDestroy(&ts));

  for (PetscInt d = 0; d < ndoors; d++) {
    PetscCall(Run(&user, (Door)d, dt, steps, q0, v0, q[d], p[d], &jacerr[d]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s door: step Jacobian matches finite differences to 1e-6: %s\n", Doors[d], jacerr[d] < 1e-6 ? "yes" : "no"));
  }
  for (PetscInt i = 0; i < N; i++) {
    scale = PetscMax(scale, PetscMax(PetscAbsReal(q[0][i]), PetscAbsReal(p[0][i])));
    moved = PetscMax(moved, PetscAbsReal(q[0][i] - PetscRealPart(q0[i])));
  }
  /* the trajectory must have gone somewhere, or agreement proves nothing */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the masses moved: %s\n", moved > 0.1 ? "yes" : "no"));
  for (PetscInt d = 1; d < ndoors; d++) {
    PetscReal dq = 0, dp = 0;

    for (PetscInt i = 0; i < N; i++) {
      dq = PetscMax(dq, PetscAbsReal(q[d][i] - q[0][i]));
      dp = PetscMax(dp, PetscAbsReal(p[d][i] - p[0][i]));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s door vs mechanical: |dq| %.2e |dp| %.2e\n", Doors[d], (double)dq, (double)dp));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s door agrees with the mechanical door to 1e-12: %s\n", Doors[d], PetscMax(dq, dp) < 1e-12 * scale ? "yes" : "no"));
  }
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
  test:
    suffix: lobatto3
    args: -ts_simpvi_type lobatto -ts_simpvi_degree 3
  test:
    suffix: lobatto4
    args: -ts_simpvi_type lobatto -ts_simpvi_degree 4
  test:
    suffix: gauss2
    args: -ts_simpvi_type gauss -ts_simpvi_degree 2
  # the same verdicts with KINSOL, whose step solution the Jacobian check takes from the step DM
  test:
    suffix: kinsol_lobatto3
    requires: kinsol
    args: -ts_simpvi_type lobatto -ts_simpvi_degree 3 -ts_simpvi_nonlinear_solver kinsol
    output_file: output/ex4_lobatto3.out

  # a damping force: TSSimpVISetForce() for the native doors against C u' in the I2 function
  test:
    suffix: damped_simpson
    args: -ts_simpvi_type simpson -damping 0.3
  test:
    suffix: damped_lobatto3
    args: -ts_simpvi_type lobatto -ts_simpvi_degree 3 -damping 0.3
  test:
    suffix: damped_gauss2
    args: -ts_simpvi_type gauss -ts_simpvi_degree 2 -damping 0.3

TEST*/
