static char help[] = "The end of TSSolve() interpolated (-ts_exact_final_time interpolate) for a program of PETSc's I2 interface,\n"
                     "u'' = -w^2 u (TSSetI2Function(), TS2SetSolution()), at a final time that is not a multiple of the step:\n"
                     "TSSolve(ts, u) gives u at T; TSSolve(ts, NULL) gives u and TS2GetSolution()'s velocity at T (PETSc 3.19 on), or a\n"
                     "clear error where PETSc's TSSolve() would interpolate into NULL (3.18). -null: TSSolve(ts, NULL)\n\n";

#include "i2oscillator.h"

int main(int argc, char **argv)
{
  TS             ts;
  Vec            U, V;
  Mat            J;
  PetscReal      T    = 1.23, eu, tend;
  I2Oscillator   osc  = {2, 1};
  PetscBool      null = PETSC_FALSE;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-null", &null, NULL));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 4, &U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(I2OscillatorStart(U, V));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, 4, 4, 1, NULL, 0, NULL, &J));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetI2Function(ts, NULL, I2OscillatorFunction, &osc));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2OscillatorJacobian, &osc));
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
    PetscCall(I2OscillatorError(&osc, u, T, PETSC_FALSE, &eu));
    PetscCall(I2OscillatorError(&osc, v, T, PETSC_TRUE, &ev));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TSSolve(ts, NULL): solve time T: %s; u at T: %s; TS2GetSolution()'s v at T: %s\n", tend == T ? "yes" : "no", eu < 1e-6 ? "yes" : "no", ev < 1e-6 ? "yes" : "no"));
#endif
  } else {
    Vec x;

    PetscCall(VecDuplicate(U, &x));
    PetscCall(VecCopy(U, x));
    PetscCall(TSSolve(ts, x));
    PetscCall(TSGetSolveTime(ts, &tend));
    PetscCall(I2OscillatorError(&osc, x, T, PETSC_FALSE, &eu));
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
