static char help[] = "Errors that must be collective PETSc errors with a clear message, on any number of ranks: a mechanical\n"
                     "system of 4 unit masses on unit springs (U = (q, p), split named with TSRHSSplitSetIS()), broken as -case says:\n"
                     "  none        a correct run\n"
                     "  matlayout   a mass matrix of the right size whose rows are split over the ranks unlike the positions\n"
                     "              (rank 0 matches; needs 3 ranks to go wrong on some ranks only)\n"
                     "  vecasmat    a Vec given to TSSimpVISetMass() where the matrix Mx is expected\n"
                     "  energysize  TSSimpVIComputeEnergy() on a vector of the wrong size\n"
                     "Solver options such as -ts_simpvi_direct_limit -1 or -ts_simpvi_kinsol_fnormtol 1e300 are checked too.\n"
                     "Options: -case <none>\n\n";

#include <simpvi.h>
#include "../examples/models/unitoscillator.h"

static const char *const Cases[] = {"none", "matlayout", "vecasmat", "energysize"};

/* The n x n identity with m local rows */
static PetscErrorCode Diagonal(PetscInt m, PetscInt n, Mat *A)
{
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, m, m, n, n, 1, NULL, 0, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(MatSetValue(*A, i, i, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const PetscInt n     = 4;
  PetscInt       which = 0, lo, nloc, nq;
  PetscMPIInt    rank, size;
  TS             ts;
  Mat            M, H;
  Vec            U, W;
  IS             isq, isp;
  PetscReal      E;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Collective error options", NULL);
  PetscCall(PetscOptionsEList("-case", "What to break", NULL, Cases, 4, Cases[which], &which, NULL));
  PetscOptionsEnd();

  /* positions: 2 on rank 0, the other 2 spread over the others; each rank holds its positions, then its momenta */
  nq = size == 1 ? n : rank == 0 ? 2 : 2 / (size - 1) + (rank - 1 < 2 % (size - 1) ? 1 : 0);
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 2 * nq, PETSC_DETERMINE, &U));
  PetscCall(VecGetOwnershipRange(U, &lo, NULL));
  PetscCall(VecGetLocalSize(U, &nloc));
  PetscCall(ISCreateStride(PETSC_COMM_WORLD, nq, lo, 1, &isq));
  PetscCall(ISCreateStride(PETSC_COMM_WORLD, nq, lo + nq, 1, &isp));
  PetscCall(VecSet(U, 0));
  for (PetscInt i = 0; i < nq; i++) PetscCall(VecSetValue(U, lo + i, 1.0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  /* matlayout: rank 0 gets its 2 rows, rank 1 the other 2, the rest none */
  PetscCall(Diagonal(which == 1 ? (rank == 0 || rank == 1 ? 2 : 0) : nq, n, &M));
  PetscCall(Diagonal(nq, n, &H));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSRHSSplitSetIS(ts, "position", isq));
  PetscCall(TSRHSSplitSetIS(ts, "momentum", isp));
  if (which == 2) PetscCall(TSSimpVISetMass(ts, M, (Mat)U, NULL, NULL, NULL));
  else PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, H, UnitPotential, UnitPotentialHessian, NULL));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, 0.1));
  PetscCall(TSSetMaxSteps(ts, 5));
  PetscCall(TSSetMaxTime(ts, 100));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  if (which == 3) { /* the positions alone, not the state */
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, nq, PETSC_DETERMINE, &W));
    PetscCall(TSSimpVIComputeEnergy(ts, 0, W, &E));
    PetscCall(VecDestroy(&W));
  }
  PetscCall(TSSimpVIComputeEnergy(ts, 0, U, &E));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "energy conserved to 1e-6: %s\n", PetscAbsReal(E - 2) < 1e-6 ? "yes" : "no"));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscCall(ISDestroy(&isq));
  PetscCall(ISDestroy(&isp));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex

  test:
    suffix: none
    nsize: {{1 2 3}}

  # the error's message lines only (rank 0's: a collective error), no stack, no option table
  testset:
    args: -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep "PETSC ERROR" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"
    test:
      suffix: matlayout
      nsize: 3
      args: -case matlayout
    # the message alone: an argument check on each process (PETSC_COMM_SELF), whose two outputs and Open MPI's abort
    # banner interleave on 2 processes
    test:
      suffix: vecasmat
      nsize: {{1 2}}
      args: -case vecasmat
      filter: Error: grep -o -e "Invalid argument" -e "Wrong type of object: Parameter . 3" | sort -u
    test:
      suffix: energysize
      nsize: {{1 2}}
      args: -case energysize
    test:
      suffix: direct_limit
      nsize: {{1 2}}
      args: -ts_simpvi_direct_limit -1
    test:
      suffix: kinsol_fnormtol
      nsize: {{1 2}}
      requires: kinsol
      args: -ts_simpvi_nonlinear_solver kinsol -ts_simpvi_kinsol_fnormtol 1e300

TEST*/
