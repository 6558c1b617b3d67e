static char help[] = "A heavy oscillator (-mass 2, so dF/dU' of the phase-space form is not the identity) given to PETSc's\n"
                     "implicit types by TSSimpVISetUpPhaseSpace(). Checks the IJacobian at two shifts a, b:\n"
                     "(J(a) - J(b)) / (a - b) = dF/dU' by differences of the IFunction, then integrates: every step's Newton\n"
                     "iteration must converge and the energy stay near its start. TSIRK builds its stage Jacobian from J at\n"
                     "shift 0 as if dF/dU' = I (PETSc's TSIRK supports explicit ODEs only, and steps over a diverged SNES):\n"
                     "it must stop with an error instead of returning a wrong answer; matrix-free it is right.\n\n";

#include <simpvi.h>
#include "../examples/models/unitoscillator.h"

typedef struct {
  PetscInt steps, failed;
} Count;

/* counts the steps whose Newton iteration did not converge */
static PetscErrorCode CountNewtonFailures(TS ts)
{
  SNES                snes;
  SNESConvergedReason reason;
  Count              *count;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &count));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetConvergedReason(snes, &reason));
  count->steps++;
  if (reason <= 0) count->failed++;
  PetscFunctionReturn(0);
}

/* max |(J(a) - J(b)) / (a - b) - dF/dU'|, dF/dU' by central differences of the IFunction in U' */
static PetscErrorCode CheckShifts(TS ts, Vec U, PetscReal *err)
{
  Mat                J, Ja, Jb;
  Vec                Udot, Up, Fp, Fm;
  PetscInt           n;
  const PetscReal    a = 3.5, b = -0.25, eps = 1e-6;
  const PetscScalar *f;

  PetscFunctionBeginUser;
  PetscCall(TSGetIJacobian(ts, &J, NULL, NULL, NULL));
  PetscCall(VecGetSize(U, &n));
  PetscCall(VecDuplicate(U, &Udot));
  PetscCall(VecSet(Udot, 0.3));
  PetscCall(TSComputeIJacobian(ts, 0, U, Udot, a, J, J, PETSC_FALSE));
  PetscCall(MatConvert(J, MATDENSE, MAT_INITIAL_MATRIX, &Ja));
  PetscCall(TSComputeIJacobian(ts, 0, U, Udot, b, J, J, PETSC_FALSE));
  PetscCall(MatConvert(J, MATDENSE, MAT_INITIAL_MATRIX, &Jb));
  PetscCall(MatAXPY(Ja, -1, Jb, SAME_NONZERO_PATTERN));
  PetscCall(MatScale(Ja, 1 / (a - b)));
  PetscCall(VecDuplicate(U, &Up));
  PetscCall(VecDuplicate(U, &Fp));
  PetscCall(VecDuplicate(U, &Fm));
  *err = 0;
  for (PetscInt j = 0; j < n; j++) {
    PetscCall(VecCopy(Udot, Up));
    PetscCall(VecSetValue(Up, j, eps, ADD_VALUES));
    PetscCall(VecAssemblyBegin(Up));
    PetscCall(VecAssemblyEnd(Up));
    PetscCall(TSComputeIFunction(ts, 0, U, Up, Fp, PETSC_FALSE));
    PetscCall(VecSetValue(Up, j, -2 * eps, ADD_VALUES));
    PetscCall(VecAssemblyBegin(Up));
    PetscCall(VecAssemblyEnd(Up));
    PetscCall(TSComputeIFunction(ts, 0, U, Up, Fm, PETSC_FALSE));
    PetscCall(VecAXPY(Fp, -1, Fm));
    PetscCall(VecGetArrayRead(Fp, &f));
    for (PetscInt i = 0; i < n; i++) {
      PetscScalar jij;

      PetscCall(MatGetValue(Ja, i, j, &jij));
      *err = PetscMax(*err, PetscAbsScalar(jij - f[i] / (2 * eps)));
    }
    PetscCall(VecRestoreArrayRead(Fp, &f));
  }
  PetscCall(MatDestroy(&Ja));
  PetscCall(MatDestroy(&Jb));
  PetscCall(VecDestroy(&Udot));
  PetscCall(VecDestroy(&Up));
  PetscCall(VecDestroy(&Fp));
  PetscCall(VecDestroy(&Fm));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  TS        ts;
  Mat       M, H;
  Vec       U;
  Count     count = {0, 0};
  PetscReal E0, E1, err = PETSC_MAX_REAL, mass = 2;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-mass", &mass, NULL));
  PetscCall(UnitOscillatorCreate(&M, &H, &U));
  PetscCall(MatScale(M, mass)); /* dF/dU' = diag(mass, 1) */

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSTHETA));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, H, UnitPotential, UnitPotentialHessian, NULL));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, 0.1));
  PetscCall(TSSetMaxSteps(ts, 20));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetApplicationContext(ts, &count));
  PetscCall(TSSetPostStep(ts, CountNewtonFailures));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVISetUpPhaseSpace(ts));

  PetscCall(CheckShifts(ts, U, &err));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "(J(a) - J(b)) / (a - b) = dF/dU' to 1e-6: %s\n", err < 1e-6 ? "yes" : "no"));
  PetscCall(TSSimpVIComputeEnergy(ts, 0, U, &E0));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSSimpVIComputeEnergy(ts, 0, U, &E1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "steps %" PetscInt_FMT ", Newton failures %" PetscInt_FMT "\n", count.steps, count.failed));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "energy error < 1e-3: %s\n", PetscAbsReal(E1 - E0) < 1e-3 ? "yes" : "no"));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex

  test:
    suffix: theta
    args: -ts_type theta -ts_theta_theta 0.5 -snes_rtol 1e-12

  test:
    suffix: irk
    args: -ts_type irk -ts_irk_nstages 2 -snes_rtol 1e-12 -ksp_type gmres -pc_type pbjacobi -ksp_rtol 1e-14 -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep -e "PETSC ERROR" -e ": yes" -e ": no" -e "^steps" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"

  test:
    suffix: irk_mf
    args: -ts_type irk -ts_irk_nstages 2 -snes_rtol 1e-12 -snes_mf -ksp_type gmres -pc_type none -ksp_rtol 1e-10

TEST*/
