static char help[] = "The end of TSSolve() interpolated (-ts_exact_final_time interpolate) for a program of PETSc's I2 interface,\n"
                     "u'' = -w^2 u (TSSetI2Function(), TS2SetSolution()), at a final time that is not a multiple of the step:\n"
                     "TSSolve(ts, u) gives u at T; TSSolve(ts, NULL) gives u and TS2GetSolution()'s velocity at T (PETSc 3.19 on), or a\n"
                     "clear error where PETSc's TSSolve() would interpolate into NULL (3.18). -null: TSSolve(ts, NULL)\n\n";

#include <simpvi.h>

static const PetscReal w = 2;

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(VecWAXPY(F, w * w, U, A));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(P, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) PetscCall(MatSetValue(P, i, i, shiftA + w * w, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* max |x - x(T)| over the entries, x(T) = a cos(w T) + b sin(w T) for the start u_i = 1 + i, v = 0 (b = 0) or its
   velocity (v: -w a sin(w T)) */
static PetscErrorCode Error(Vec x, PetscReal T, PetscBool velocity, PetscReal *err)
{
  const PetscScalar *a;
  PetscInt           n, rstart;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetOwnershipRange(x, &rstart, NULL));
  PetscCall(VecGetArrayRead(x, &a));
  *err = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal amp = 1 + rstart + i, exact = velocity ? -w * amp * PetscSinReal(w * T) : amp * PetscCosReal(w * T);

    *err = PetscMax(*err, PetscAbsReal(PetscRealPart(a[i]) - exact));
  }
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, err, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  TS             ts;
  Vec            U, V;
  Mat            J;
  PetscReal      T    = 1.23, eu, tend;
  PetscBool      null = PETSC_FALSE;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-null", &null, NULL));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 4, &U));
  PetscCall(VecDuplicate(U, &V));
  {
    PetscInt     rstart, rend;
    PetscScalar *a;

    PetscCall(VecGetOwnershipRange(U, &rstart, &rend));
    PetscCall(VecGetArrayWrite(U, &a));
    for (PetscInt i = rstart; i < rend; i++) a[i - rstart] = 1 + i;
    PetscCall(VecRestoreArrayWrite(U, &a));
  }
  PetscCall(VecSet(V, 0));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, 4, 4, 1, NULL, 0, NULL, &J));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetI2Function(ts, NULL, I2Function, NULL));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, NULL));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, 0.025));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_INTERPOLATE));
  PetscCall(TSSetFromOptions(ts));
  if (null) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = TSSolve(ts, NULL);
    PetscCall(PetscPopErrorHandler());
#if PETSC_VERSION_LT(3, 19, 0)
    PetscCheck(ierr == PETSC_ERR_SUP, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "TSSolve(ts, NULL) gave %d, not PETSC_ERR_SUP", (int)ierr);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TSSolve(ts, NULL): refused with PETSC_ERR_SUP (PETSc < 3.19), as it should\n"));
#else
    Vec       u, v;
    PetscReal ev;

    PetscCall(ierr);
    PetscCall(TSGetSolveTime(ts, &tend));
    PetscCall(TS2GetSolution(ts, &u, &v));
    PetscCall(Error(u, T, PETSC_FALSE, &eu));
    PetscCall(Error(v, T, PETSC_TRUE, &ev));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TSSolve(ts, NULL): solve time T: %s; u at T: %s; TS2GetSolution()'s v at T: %s\n", tend == T ? "yes" : "no", eu < 1e-6 ? "yes" : "no", ev < 1e-6 ? "yes" : "no"));
#endif
  } else {
    Vec x;

    PetscCall(VecDuplicate(U, &x));
    PetscCall(VecCopy(U, x));
    PetscCall(TSSolve(ts, x));
    PetscCall(TSGetSolveTime(ts, &tend));
    PetscCall(Error(x, T, PETSC_FALSE, &eu));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TSSolve(ts, u): solve time T: %s; u at T: %s\n", tend == T ? "yes" : "no", eu < 1e-6 ? "yes" : "no"));
    PetscCall(VecDestroy(&x));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex !single

  test:
    suffix: given
    nsize: {{1 2}}
  test:
    suffix: null
    nsize: {{1 2}}
    args: -null
  # Lobatto of high degree: its predictor once extrapolated the last step's polynomial with a round-off amplified by
  # up to 2e24 (degree 32), and Newton stopped at a relative residual test far from the answer
  test:
    suffix: highdegree
    args: -ts_simpvi_type lobatto -ts_simpvi_degree {{16 24 32}}
    output_file: output/interpolate_i2_given.out

TEST*/
