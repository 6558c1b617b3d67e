static char help[] = "Symplecticity of TSSIMPVI schemes on a linear system of three coupled oscillators.\n"
                     "The one-step map Phi of U = (q, p) is linear; it is built column by column by stepping from the unit states,\n"
                     "and ||Phi' J Phi - J||_F must vanish to round-off. The mass and stiffness matrices are full (not diagonal).\n"
                     "With -door lagrangian -gyro the Lagrangian gets a gyroscopic term v'G x, so L_vx = G is not zero and the\n"
                     "canonical momentum is p = M v + G x. With -rk4 the same map of PETSc's RK4 shows what a non-symplectic\n"
                     "scheme gives.\n"
                     "Options: -door mechanical|lagrangian -gyro -dt <0.3> -steps <1> -rk4\n\n";

#include <simpvi.h>

#define N 3

typedef enum {
  DOOR_MECHANICAL,
  DOOR_LAGRANGIAN
} Door;
static const char *const Doors[] = {"mechanical", "lagrangian", "Door", "DOOR_", NULL};

/* L = 1/2 v'M v + v'G x - 1/2 x'K x, all constant 3 x 3 */
static const PetscReal Mv[N][N] = {
  {2.0, 0.5, 0.0},
  {0.5, 1.5, 0.3},
  {0.0, 0.3, 1.0}
};
static const PetscReal Kv[N][N] = {
  {3.0,  -1.0, 0.0 },
  {-1.0, 2.0,  -0.5},
  {0.0,  -0.5, 1.5 }
};
static const PetscReal Gv[N][N] = {
  {0.0,  0.4,  -0.2},
  {-0.4, 0.0,  0.3 },
  {0.2,  -0.3, 0.1 }
};

typedef struct {
  PetscBool gyro;
} AppCtx;

static PetscErrorCode FillDense(Mat A, const PetscReal a[N][N], PetscReal scale)
{
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < N; i++)
    for (PetscInt j = 0; j < N; j++) PetscCall(MatSetValue(A, i, j, scale * a[i][j], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* y = scale * A x (+ y if add) for a 3 x 3 table, or A' x if transpose */
static void Apply(const PetscReal a[N][N], PetscBool transpose, PetscReal scale, const PetscScalar *x, PetscBool add, PetscScalar *y)
{
  for (PetscInt i = 0; i < N; i++) {
    PetscScalar s = 0;

    for (PetscInt j = 0; j < N; j++) s += (transpose ? a[j][i] : a[i][j]) * x[j];
    y[i] = (add ? y[i] : 0) + scale * s;
  }
}

/* Mechanical door: V = 1/2 x'K x */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  Apply(Kv, PETSC_FALSE, 1.0, xx, PETSC_FALSE, gg);
  *V = 0;
  for (PetscInt i = 0; i < N; i++) *V += 0.5 * PetscRealPart(xx[i] * gg[i]);
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(FillDense(H, Kv, 1.0));
  PetscFunctionReturn(0);
}

/* Lagrangian door: L, L_x = G'v - K x, L_v = M v + G x */
static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xx, *vv;
  PetscScalar       *lx, *lv, Mvv[N], Kx[N];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(Lx, &lx));
  PetscCall(VecGetArrayWrite(Lv, &lv));
  Apply(Mv, PETSC_FALSE, 1.0, vv, PETSC_FALSE, Mvv);
  Apply(Kv, PETSC_FALSE, 1.0, xx, PETSC_FALSE, Kx);
  *L = 0;
  for (PetscInt i = 0; i < N; i++) *L += 0.5 * PetscRealPart(vv[i] * Mvv[i] - xx[i] * Kx[i]);
  Apply(Kv, PETSC_FALSE, -1.0, xx, PETSC_FALSE, lx);
  Apply(Mv, PETSC_FALSE, 1.0, vv, PETSC_FALSE, lv);
  if (user->gyro) {
    PetscScalar Gx[N];

    Apply(Gv, PETSC_FALSE, 1.0, xx, PETSC_FALSE, Gx);
    for (PetscInt i = 0; i < N; i++) *L += PetscRealPart(vv[i] * Gx[i]);
    Apply(Gv, PETSC_TRUE, 1.0, vv, PETSC_TRUE, lx);
    Apply(Gv, PETSC_FALSE, 1.0, xx, PETSC_TRUE, lv);
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(Lx, &lx));
  PetscCall(VecRestoreArrayWrite(Lv, &lv));
  PetscFunctionReturn(0);
}

static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(FillDense(Lxx, Kv, -1.0));
  PetscCall(FillDense(Lvv, Mv, 1.0));
  if (Lvx) PetscCall(FillDense(Lvx, Gv, 1.0));
  PetscFunctionReturn(0);
}

/* Phi(:, i) = the TSSolve() of the set number of steps from the unit state e_i, i < 2N */
static PetscErrorCode BuildMap(TS ts, PetscReal Phi[2 * N][2 * N])
{
  Vec                U;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * N, &U));
  PetscCall(TSSetSolution(ts, U));
  for (PetscInt i = 0; i < 2 * N; i++) {
    PetscCall(VecSet(U, 0));
    PetscCall(VecSetValue(U, i, 1.0, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(U));
    PetscCall(VecAssemblyEnd(U));
    PetscCall(TSSetTime(ts, 0));
    PetscCall(TSSetStepNumber(ts, 0));
    PetscCall(TSSolve(ts, U));
    PetscCall(VecGetArrayRead(U, &u));
    for (PetscInt j = 0; j < 2 * N; j++) Phi[j][i] = PetscRealPart(u[j]);
    PetscCall(VecRestoreArrayRead(U, &u));
  }
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

/* ||Phi' J Phi - J||_F with J = [0 I; -I 0] in the (q, p) ordering, and ||Phi - I||_F to show that Phi is not trivial */
static void Defect(PetscReal Phi[2 * N][2 * N], PetscReal *defect, PetscReal *motion)
{
  PetscReal J[2 * N][2 * N] = {{0}};

  for (PetscInt i = 0; i < N; i++) {
    J[i][N + i] = 1;
    J[N + i][i] = -1;
  }
  *defect = *motion = 0;
  for (PetscInt a = 0; a < 2 * N; a++) {
    for (PetscInt b = 0; b < 2 * N; b++) {
      PetscReal s = 0;

      for (PetscInt i = 0; i < 2 * N; i++)
        for (PetscInt j = 0; j < 2 * N; j++) s += Phi[i][a] * J[i][j] * Phi[j][b];
      *defect += PetscSqr(s - J[a][b]);
      *motion += PetscSqr(Phi[a][b] - (a == b ? 1 : 0));
    }
  }
  *defect = PetscSqrtReal(*defect);
  *motion = PetscSqrtReal(*motion);
}

/* PETSc's RK4 on the first-order form q' = M^{-1} p, p' = -K q (no gyroscopic term) */
static PetscErrorCode RK4Map(PetscReal dt, PetscInt steps, PetscReal Phi[2 * N][2 * N])
{
  TS  ts;
  Mat A, Mm, Minv;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, N, N, NULL, &Mm));
  PetscCall(FillDense(Mm, Mv, 1.0));
  PetscCall(MatLUFactor(Mm, NULL, NULL, NULL));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, N, N, NULL, &Minv));
  PetscCall(MatShift(Minv, 1.0));
  PetscCall(MatMatSolve(Mm, Minv, Minv));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2 * N, 2 * N, NULL, &A));
  for (PetscInt i = 0; i < N; i++) {
    for (PetscInt j = 0; j < N; j++) {
      PetscScalar mij;

      PetscCall(MatGetValue(Minv, i, j, &mij));
      PetscCall(MatSetValue(A, i, N + j, mij, INSERT_VALUES));
      PetscCall(MatSetValue(A, N + i, j, -Kv[i][j], INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetOptionsPrefix(ts, "rk4_"));
  PetscCall(TSSetType(ts, TSRK));
  PetscCall(TSRKSetType(ts, TSRK4));
  PetscCall(TSSetProblemType(ts, TS_LINEAR));
  PetscCall(TSSetRHSFunction(ts, NULL, TSComputeRHSFunctionLinear, NULL));
  PetscCall(TSSetRHSJacobian(ts, A, A, TSComputeRHSJacobianConstant, NULL));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(BuildMap(ts, Phi));
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&Mm));
  PetscCall(MatDestroy(&Minv));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  AppCtx      user  = {PETSC_FALSE};
  Door        door  = DOOR_MECHANICAL;
  PetscReal   dt    = 0.3, Phi[2 * N][2 * N], defect, motion;
  PetscInt    steps = 1, degree;
  PetscBool   rk4   = PETSC_FALSE;
  TS          ts;
  SNES        snes;
  Mat         A[4];
  const char *type;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Symplecticity test options", NULL);
  PetscCall(PetscOptionsEnum("-door", "How the problem is given", NULL, Doors, (PetscEnum)door, (PetscEnum *)&door, NULL));
  PetscCall(PetscOptionsBool("-gyro", "Add the gyroscopic term v'G x (Lagrangian door)", NULL, user.gyro, &user.gyro, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsInt("-steps", "Steps in the map", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsBool("-rk4", "Also measure PETSc's RK4", NULL, rk4, &rk4, NULL));
  PetscOptionsEnd();
  PetscCheck(!user.gyro || door == DOOR_LAGRANGIAN, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-gyro needs -door lagrangian");

  for (PetscInt i = 0; i < 4; i++) PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, N, N, NULL, &A[i]));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  if (door == DOOR_MECHANICAL) {
    PetscCall(FillDense(A[0], Mv, 1.0));
    PetscCall(TSSimpVISetMass(ts, A[0], NULL, NULL, NULL, NULL));
    PetscCall(TSSimpVISetPotential(ts, A[1], Potential, PotentialHessian, NULL));
  } else {
    PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, &user));
    PetscCall(TSSimpVISetLagrangianHessian(ts, A[1], user.gyro ? A[2] : NULL, A[3], LagrangianHessian, NULL));
  }
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetTolerances(snes, 1e-14, 1e-14, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(TSSimpVIGetDegree(ts, &degree));

  PetscCall(BuildMap(ts, Phi));
  Defect(Phi, &defect, &motion);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s door%s, scheme %s degree %" PetscInt_FMT ": ||Phi'J Phi - J|| = %.3e, ||Phi - I|| = %.3e\n", Doors[door], user.gyro ? " with gyroscopic term" : "", type, degree, (double)defect, (double)motion));
  /* the map must move the state (a no-op map is symplectic too) */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "one-step map symplectic to 1e-12: %s\n", defect < 1e-12 && motion > 0.1 ? "yes" : "no"));
  if (rk4) {
    PetscCall(RK4Map(dt, steps, Phi));
    Defect(Phi, &defect, &motion);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rk4: ||Phi'J Phi - J|| = %.3e\n", (double)defect));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rk4 map symplectic to 1e-12: %s\n", defect < 1e-12 ? "yes" : "no"));
  }
  PetscCall(TSDestroy(&ts));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatDestroy(&A[i]));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # mechanical door: full constant M and K; midpoint also against PETSc's RK4, which must fail the same check
  test:
    suffix: midpoint
    args: -ts_simpvi_type midpoint -rk4
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

  # Lagrangian door with L_vx = G != 0, over three steps (the predictor from the previous step is used)
  testset:
    args: -door lagrangian -gyro -steps 3
    test:
      suffix: gyro_midpoint
      args: -ts_simpvi_type midpoint
    test:
      suffix: gyro_simpson
      args: -ts_simpvi_type simpson
    test:
      suffix: gyro_lobatto3
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 3
    test:
      suffix: gyro_lobatto4
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 4
    test:
      suffix: gyro_gauss3
      args: -ts_simpvi_type gauss -ts_simpvi_degree 3

TEST*/
