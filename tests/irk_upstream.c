static char help[] = "Plain PETSc, no simpvi: why TSSimpVISetUpPhaseSpace() marks its IFunction TS_EQ_ODE_IMPLICIT. An oscillator in\n"
                     "(q, p) written F = diag(m, 1) U' + [0 -1; 1 0] U (m = 2) under TSIRK: its stage Jacobian takes J at shift 0\n"
                     "as if dF/dU' = I, every step's Newton iteration diverges, and TSIRK steps over it (no error, no\n"
                     "-ts_max_snes_failures). Matrix-free (-snes_mf) it is right. Should PETSc change this, this test says so.\n\n";

#include <petscts.h>

static PetscErrorCode IFunction(TS ts, PetscReal t, Vec U, Vec Udot, Vec F, void *ctx)
{
  const PetscReal    m = *(PetscReal *)ctx;
  const PetscScalar *u, *ud;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(Udot, &ud));
  PetscCall(VecGetArray(F, &f));
  f[0] = m * ud[0] - u[1]; /* m q' - p */
  f[1] = ud[1] + u[0];     /* p' + q */
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(Udot, &ud));
  PetscCall(VecRestoreArray(F, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode IJacobian(TS ts, PetscReal t, Vec U, Vec Udot, PetscReal a, Mat A, Mat B, void *ctx)
{
  const PetscReal m = *(PetscReal *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatSetValue(B, 0, 0, a * m, INSERT_VALUES));
  PetscCall(MatSetValue(B, 0, 1, -1, INSERT_VALUES));
  PetscCall(MatSetValue(B, 1, 0, 1, INSERT_VALUES));
  PetscCall(MatSetValue(B, 1, 1, a, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscInt failed;

static PetscErrorCode CountNewtonFailures(TS ts)
{
  SNES                snes;
  SNESConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetConvergedReason(snes, &reason));
  if (reason <= 0) failed++;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  TS                 ts;
  Vec                U;
  Mat                J;
  PetscReal          m = 2, E;
  PetscInt           steps;
  TSConvergedReason  reason;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
  PetscCall(VecSetValue(U, 0, 1, INSERT_VALUES)); /* q = 1, p = 0 */
  PetscCall(VecSetValue(U, 1, 0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, &J));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSIRK));
  PetscCall(TSSetIFunction(ts, NULL, IFunction, &m));
  PetscCall(TSSetIJacobian(ts, J, J, IJacobian, &m));
  PetscCall(TSSetTimeStep(ts, 0.1));
  PetscCall(TSSetMaxSteps(ts, 20));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetPostStep(ts, CountNewtonFailures));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetConvergedReason(ts, &reason));
  PetscCall(TSGetStepNumber(ts, &steps));
  PetscCall(VecGetArrayRead(U, &u));
  E = PetscRealPart(m * u[0] * u[0] + u[1] * u[1]) / 2; /* starts at m / 2 */
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "TS reason %s after %" PetscInt_FMT " steps; steps whose Newton iteration diverged: %" PetscInt_FMT "\n", TSConvergedReasons[reason], steps, failed));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "energy kept to 1e-6: %s\n", PetscAbsReal(E - m / 2) < 1e-6 ? "yes" : "no"));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&J));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex

  testset:
    args: -ts_irk_nstages 2 -snes_rtol 1e-12 -ksp_type gmres -ksp_rtol 1e-10
    test:
      suffix: kaij
      args: -pc_type pbjacobi -ts_max_snes_failures 1
    test:
      suffix: mf
      args: -snes_mf -pc_type none

TEST*/
