static char help[] = "A DMDA program written for TSALPHA2 as PETSc's tutorials write them: a chain of N unit masses and springs\n"
                     "between fixed ends, u'' + K u = 0, its I2 function on local (ghosted) arrays, its Jacobian filled with\n"
                     "MatSetValuesStencil(), and either the DM's matrix given to TSSetI2Jacobian() or no matrix at all\n"
                     "(TSSetI2Jacobian(ts, NULL, NULL, ...): the DM makes it, as the SNES of TSALPHA2 does). Started in the\n"
                     "mode sin(pi k i/(N+1)), whose exact motion is that mode times cos(omega t), omega = 2 sin(pi k/(2(N+1))).\n"
                     "Prints whether the error at the end is below -tol, on any number of processes.\n"
                     "Options: -N <64> -mode <3> -steps <40> -dt <0.05> -null_matrix -tol <1e-9>\n\n";

#include <petscts.h>
#include <petscdmda.h>

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  DM                 da;
  Vec                Ul;
  DMDALocalInfo      info;
  const PetscScalar *u, *a;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(TSGetDM(ts, &da));
  PetscCall(DMDAGetLocalInfo(da, &info));
  PetscCall(DMGetLocalVector(da, &Ul));
  PetscCall(DMGlobalToLocalBegin(da, U, INSERT_VALUES, Ul));
  PetscCall(DMGlobalToLocalEnd(da, U, INSERT_VALUES, Ul));
  PetscCall(DMDAVecGetArrayRead(da, Ul, &u));
  PetscCall(DMDAVecGetArrayRead(da, A, &a));
  PetscCall(DMDAVecGetArray(da, F, &f));
  for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
    const PetscScalar left = i > 0 ? u[i - 1] : 0, right = i < info.mx - 1 ? u[i + 1] : 0;

    f[i] = a[i] + 2 * u[i] - left - right;
  }
  PetscCall(DMDAVecRestoreArrayRead(da, Ul, &u));
  PetscCall(DMDAVecRestoreArrayRead(da, A, &a));
  PetscCall(DMDAVecRestoreArray(da, F, &f));
  PetscCall(DMRestoreLocalVector(da, &Ul));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  DM            da;
  DMDALocalInfo info;

  PetscFunctionBeginUser;
  PetscCall(TSGetDM(ts, &da));
  PetscCall(DMDAGetLocalInfo(da, &info));
  for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
    MatStencil  row = {0}, col[3] = {{0}};
    PetscScalar v[3];
    PetscInt    nc = 0;

    row.i = i;
    if (i > 0) {
      col[nc].i = i - 1;
      v[nc++]   = -1;
    }
    col[nc].i = i;
    v[nc++]   = 2 + shiftA;
    if (i < info.mx - 1) {
      col[nc].i = i + 1;
      v[nc++]   = -1;
    }
    PetscCall(MatSetValuesStencil(P, 1, &row, nc, col, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* u_i = amplitude sin(pi k (i+1)/(N+1)), i = 0..N-1 */
static PetscErrorCode Mode(DM da, PetscInt k, PetscReal amplitude, Vec U)
{
  DMDALocalInfo info;
  PetscScalar  *u;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetLocalInfo(da, &info));
  PetscCall(DMDAVecGetArray(da, U, &u));
  for (PetscInt i = info.xs; i < info.xs + info.xm; i++) u[i] = amplitude * PetscSinReal(PETSC_PI * k * (i + 1) / (info.mx + 1));
  PetscCall(DMDAVecRestoreArray(da, U, &u));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  TS        ts;
  DM        da;
  Vec       U, V, E;
  Mat       J = NULL;
  PetscInt  N = 64, k = 3, steps = 40;
  PetscReal dt = 0.05, tol = 1e-9, t, omega, err;
  PetscBool nullmatrix = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Chain options", NULL);
  PetscCall(PetscOptionsInt("-N", "Masses", NULL, N, &N, NULL));
  PetscCall(PetscOptionsInt("-mode", "Initial mode", NULL, k, &k, NULL));
  PetscCall(PetscOptionsInt("-steps", "Steps", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-tol", "Error bound", NULL, tol, &tol, NULL));
  PetscCall(PetscOptionsBool("-null_matrix", "TSSetI2Jacobian() without a matrix", NULL, nullmatrix, &nullmatrix, NULL));
  PetscOptionsEnd();

  PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, N, 1, 1, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSALPHA2));
  PetscCall(TSSetDM(ts, da));
  if (!nullmatrix) PetscCall(DMCreateMatrix(da, &J));
  PetscCall(TSSetI2Function(ts, NULL, I2Function, NULL));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, NULL));
  PetscCall(DMCreateGlobalVector(da, &U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecDuplicate(U, &E));
  PetscCall(Mode(da, k, 1, U));
  PetscCall(VecSet(V, 0));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, steps * dt));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, NULL));

  PetscCall(TSGetSolveTime(ts, &t));
  omega = 2 * PetscSinReal(PETSC_PI * k / (2.0 * (N + 1)));
  PetscCall(Mode(da, k, PetscCosReal(omega * t), E));
  PetscCall(VecAXPY(E, -1, U));
  PetscCall(VecNorm(E, NORM_INFINITY, &err));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, %s: error at t = %g below %g: %s\n", nullmatrix ? "no matrix given" : "the DM's matrix given", "MatSetValuesStencil()", (double)t, (double)tol, err < tol ? "yes" : "no"));

  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscCall(VecDestroy(&E));
  PetscCall(TSDestroy(&ts));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # alpha2 (second order) misses the bound: it means something below
  test:
    suffix: alpha2
    args: -null_matrix

  # loaded with -dll_append, unchanged; Lobatto (order 6) on 1 and 2 processes, both ways of giving the matrix
  testset:
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -ts_simpvi_type lobatto
    output_file: output/i2_dmda_simpvi.out
    test:
      suffix: dm_matrix
    test:
      suffix: dm_matrix_2
      nsize: 2
    test:
      suffix: null_matrix
      args: -null_matrix
      output_file: output/i2_dmda_simpvi_null.out
    test:
      suffix: null_matrix_2
      nsize: 2
      args: -null_matrix
      output_file: output/i2_dmda_simpvi_null.out

TEST*/
