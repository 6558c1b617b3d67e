static char help[] = "A consistent mass with a lumped-mass preconditioner, written for TSALPHA2 as a PETSc user writes it: a chain of\n"
                     "-n nodes with the finite-element mass M = tridiag(1/6, 2/3, 1/6) and stiffness K = tridiag(-1, 2, -1), fixed\n"
                     "ends, M a + K u = 0 in TSSetI2Function() (MatCreateAIJ(), global MatSetValues()); the I2 Jacobian fills the\n"
                     "preconditioning matrix P with shiftA I + K (the mass lumped, as a cheap preconditioner) and leaves the operator\n"
                     "to -snes_mf_operator (matrix-free differences of the I2 function). The answer is M's, whatever P is: from the mode\n"
                     "sin(mode pi (i+1)/(n+1)) at rest, a cosine of omega^2 = lambda_K / mu_M. -refine L solves L times, halving h.\n"
                     "Options: -n <12> -mode <2> -T <3> -dt <0.3>\n\n";

#include <petscts.h>
#include "check.h"

typedef struct {
  Mat M, K;
} Chain;

static PetscErrorCode FormI2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  Chain *ch = (Chain *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatMult(ch->K, U, F));
  PetscCall(MatMultAdd(ch->M, A, F, F));
  PetscFunctionReturn(0);
}

static PetscErrorCode FormI2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  Chain *ch = (Chain *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatCopy(ch->K, P, SAME_NONZERO_PATTERN));
  PetscCall(MatShift(P, shiftA)); /* the lumped mass: row sums of M are 1 */
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Tridiagonal(PetscInt n, PetscScalar off, PetscScalar diag, Mat *A)
{
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 1, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    if (i > 0) PetscCall(MatSetValue(*A, i, i - 1, off, INSERT_VALUES));
    PetscCall(MatSetValue(*A, i, i, diag, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(*A, i, i + 1, off, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
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

static PetscErrorCode Solve(Chain *ch, PetscInt mode, PetscReal T, PetscReal dt, Vec U)
{
  TS       ts;
  Vec      V;
  Mat      P;
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(ch->K, &n, NULL));
  PetscCall(FormMode(n, mode, 1, U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecSet(V, 0));
  PetscCall(MatDuplicate(ch->K, MAT_DO_NOT_COPY_VALUES, &P));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSALPHA2));
  PetscCall(TSSetI2Function(ts, NULL, FormI2Function, ch));
  PetscCall(TSSetI2Jacobian(ts, P, P, FormI2Jacobian, ch));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&P));
  PetscCall(VecDestroy(&V));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt  n = 12, mode = 2, refine = 1;
  PetscReal T = 3, dt = 0.3, err[8];
  Chain     ch;
  Vec       U, E;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Consistent mass options", NULL);
  PetscCall(PetscOptionsInt("-n", "Nodes", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-mode", "Initial mode", NULL, mode, &mode, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Coarsest time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsRangeInt("-refine", "Solves, halving the step", NULL, refine, &refine, NULL, 1, 8));
  PetscOptionsEnd();

  PetscCall(Tridiagonal(n, 1.0 / 6, 2.0 / 3, &ch.M));
  PetscCall(Tridiagonal(n, -1, 2, &ch.K));
  PetscCall(MatCreateVecs(ch.K, &U, &E));
  {
    const PetscReal c = PetscCosReal(mode * PETSC_PI / (n + 1)), omega = PetscSqrtReal((2 - 2 * c) / ((4 + 2 * c) / 6));

    PetscCall(FormMode(n, mode, PetscCosReal(omega * T), E));
  }
  for (PetscInt l = 0; l < refine; l++) {
    PetscCall(Solve(&ch, mode, T, dt / (1 << l), U));
    PetscCall(VecAXPY(U, -1, E));
    PetscCall(VecNorm(U, NORM_INFINITY, &err[l]));
    PetscCall(VecAXPY(U, 1, E));
  }
  PetscCall(CheckErrors(PETSC_COMM_WORLD, "error against the exact solution", refine, err));
  PetscCall(CheckWriteCompare(U));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&E));
  PetscCall(MatDestroy(&ch.M));
  PetscCall(MatDestroy(&ch.K));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex !single

  # the program and its exact solution under the type it was written for
  test:
    suffix: alpha2
    args: -snes_mf_operator -dt 0.02 -refine 2 -order 2 -error_tol 1e-4

  # under simpvi, 1 process, then 2 against its final state: the mass is the I2 function's, not the preconditioner's
  test:
    suffix: simpson
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -snes_mf_operator -refine 3 -order 4 -error_tol 1e-7
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.075 -compare final.bin
      output_file: output/lumpedpc_simpson_2.out
  test:
    suffix: lobatto
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -ts_simpvi_type lobatto -snes_mf_operator -dt 0.6 -refine 3 -order 6 -error_tol 1e-10

TEST*/
