static char help[] = "A user's shell preconditioner on the TS's solver, written for TSALPHA2 as a PETSc user writes it: a linear chain\n"
                     "of -n unit masses (MatCreateAIJ(), global MatSetValues()), and on TSGetSNES()/SNESGetKSP() GMRES with a Jacobi\n"
                     "preconditioner of the user's own (PCSHELL, its diagonal taken from the preconditioning matrix at set-up, like\n"
                     "ksp/tutorials/ex15.c). Checks: the final state against the exact solution (a mode at rest, a cosine), and that\n"
                     "the shell was set up and applied (the solver the user chose was the one used). -refine L solves L times.\n"
                     "Options: -n <10> -mode <2> -T <3> -dt <0.3>\n\n";

#include <petscts.h>
#include "check.h"

typedef struct {
  Vec      diag; /* 1 / diag(P) */
  PetscInt setups, applies;
} Jacobi;

static PetscErrorCode JacobiSetUp(PC pc)
{
  Jacobi *jac;
  Mat     P;

  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &jac));
  PetscCall(PCGetOperators(pc, NULL, &P));
  PetscCall(VecDestroy(&jac->diag)); /* the operator may have changed size */
  PetscCall(MatCreateVecs(P, &jac->diag, NULL));
  PetscCall(MatGetDiagonal(P, jac->diag));
  PetscCall(VecReciprocal(jac->diag));
  jac->setups++;
  PetscFunctionReturn(0);
}

static PetscErrorCode JacobiApply(PC pc, Vec x, Vec y)
{
  Jacobi *jac;

  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &jac));
  PetscCall(VecPointwiseMult(y, x, jac->diag));
  jac->applies++;
  PetscFunctionReturn(0);
}

static PetscErrorCode FormI2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  Mat K = (Mat)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatMult(K, U, F));
  PetscCall(VecAXPY(F, 1, A));
  PetscFunctionReturn(0);
}

static PetscErrorCode FormI2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  Mat K = (Mat)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatCopy(K, P, SAME_NONZERO_PATTERN));
  PetscCall(MatShift(P, shiftA));
  PetscFunctionReturn(0);
}

static PetscErrorCode FormMode(PetscInt n, PetscInt mode, PetscReal amp, Vec U)
{
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(VecSetValue(U, i, amp * PetscSinReal(mode * PETSC_PI * (i + 1) / (n + 1)), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  PetscFunctionReturn(0);
}

static PetscErrorCode Solve(Mat K, PetscInt mode, PetscReal T, PetscReal dt, Vec U, Jacobi *jac)
{
  TS       ts;
  SNES     snes;
  KSP      ksp;
  PC       pc;
  Vec      V;
  Mat      J;
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(K, &n, NULL));
  PetscCall(FormMode(n, mode, 1, U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecSet(V, 0));
  PetscCall(MatDuplicate(K, MAT_DO_NOT_COPY_VALUES, &J));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSALPHA2));
  PetscCall(TSSetI2Function(ts, NULL, FormI2Function, K));
  PetscCall(TSSetI2Jacobian(ts, J, J, FormI2Jacobian, K));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPSetTolerances(ksp, 1e-13, 1e-50, PETSC_DEFAULT, 200));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PCShellSetContext(pc, jac));
  PetscCall(PCShellSetSetUp(pc, JacobiSetUp));
  PetscCall(PCShellSetApply(pc, JacobiApply));
  PetscCall(PCShellSetName(pc, "the user's Jacobi"));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&V));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt  n = 10, mode = 2, refine = 1, lo, hi;
  PetscReal T = 3, dt = 0.3, err[8];
  Jacobi    jac = {NULL, 0, 0};
  Mat       K;
  Vec       U, E;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Shell preconditioner options", NULL);
  PetscCall(PetscOptionsInt("-n", "Masses", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-mode", "Initial mode", NULL, mode, &mode, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Coarsest time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsRangeInt("-refine", "Solves, halving the step", NULL, refine, &refine, NULL, 1, 8));
  PetscOptionsEnd();

  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 1, NULL, &K));
  PetscCall(MatGetOwnershipRange(K, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    if (i > 0) PetscCall(MatSetValue(K, i, i - 1, -1, INSERT_VALUES));
    PetscCall(MatSetValue(K, i, i, 2, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(K, i, i + 1, -1, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(K, &U, &E));
  {
    const PetscReal s = PetscSinReal(mode * PETSC_PI / (2 * (n + 1)));

    PetscCall(FormMode(n, mode, PetscCosReal(2 * s * T), E));
  }
  for (PetscInt l = 0; l < refine; l++) {
    PetscCall(Solve(K, mode, T, dt / (1 << l), U, &jac));
    PetscCall(VecAXPY(U, -1, E));
    PetscCall(VecNorm(U, NORM_INFINITY, &err[l]));
    PetscCall(VecAXPY(U, 1, E));
  }
  PetscCall(PetscInfo(NULL, "Shell preconditioner: %" PetscInt_FMT " set-ups, %" PetscInt_FMT " applications\n", jac.setups, jac.applies));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "The user's shell preconditioner was set up and applied: %s\n", jac.setups > 0 && jac.applies > jac.setups ? "yes" : "no"));
  PetscCall(CheckErrors(PETSC_COMM_WORLD, "error against the exact solution", refine, err));
  PetscCall(CheckWriteCompare(U));
  PetscCall(VecDestroy(&jac.diag));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&E));
  PetscCall(MatDestroy(&K));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex !single

  # the program and its exact solution under the type it was written for
  test:
    suffix: alpha2
    args: -dt 0.02 -refine 2 -order 2 -error_tol 1e-4

  # under simpvi, 1 process, then 2 against its final state: the step systems of -n 10 (20 and 30 rows) are within
  # -ts_simpvi_small_limit, -n 40 beyond it
  test:
    suffix: simpson
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -order 4 -error_tol 1e-7
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.075 -compare final.bin
      output_file: output/shellpc_simpson_2.out
  test:
    suffix: lobatto
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -ts_simpvi_type lobatto -order 6 -error_tol 1e-11
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.075 -compare final.bin
      output_file: output/shellpc_lobatto_2.out
  test:
    suffix: simpson_40
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -n 40 -order 4 -error_tol 1e-10
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.075 -compare final.bin
      output_file: output/shellpc_simpson_40_2.out

TEST*/
