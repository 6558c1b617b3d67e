static char help[] = "A plain PETSc second-order program run in parallel under TSSIMPVI with default options: a chain of n unit\n"
                     "masses joined by unit springs between fixed ends, u'' + K u = 0, set with TSSetI2Function()/TSSetI2Jacobian()\n"
                     "and TS2SetSolution(), its vectors and matrix from a DMDA (-dmda, also given to the TS) or made by hand. It\n"
                     "starts in the slowest normal mode, so u(t) = u(0) cos(omega_1 t) is known exactly. With -user_solver before|after\n"
                     "the program chooses the step's linear solver in code (GMRES with Jacobi on the SNES of the TS, before or after\n"
                     "TSSetFromOptions(), which reads -ts_type) and prints the solver types found after TSSolve(): a choice in code\n"
                     "or by -ksp_type/-pc_type must be kept.\n"
                     "Options: -n <20> -dt <0.1> -final_time <2> -dmda -user_solver <none|before|after>\n\n";

static const char *const When[] = {"none", "before", "after"};

#include <petscts.h>
#include <petscdmda.h>
#include "../examples/models/springchain.h" /* K, and the chain's I2Function() and I2Jacobian() */

int main(int argc, char **argv)
{
  PetscInt    n  = 20, lo, hi;
  PetscReal   dt = 0.1, T = 2, omega, err, unorm;
  PetscBool   dmda = PETSC_FALSE;
  PetscInt    when = 0;
  DM          da   = NULL;
  Mat         K, J; /* the stiffness K = tridiag(-1, 2, -1) and the step Jacobian */
  Vec         U, V, F, E;
  TS          ts;
  SNES        snes;
  KSP         ksp;
  PC          pc;
  KSPType     ksptype;
  PCType      pctype;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Chain options", NULL);
  PetscCall(PetscOptionsInt("-n", "Number of masses", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-final_time", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsBool("-dmda", "Vectors and matrix from a DMDA", NULL, dmda, &dmda, NULL));
  PetscCall(PetscOptionsEList("-user_solver", "Choose the linear solver in code, before or after TSSetFromOptions()", NULL, When, 3, When[when], &when, NULL));
  PetscOptionsEnd();

  if (dmda) {
    PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, n, 1, 1, NULL, &da));
    PetscCall(DMSetFromOptions(da));
    PetscCall(DMSetUp(da));
    PetscCall(DMCreateGlobalVector(da, &U));
    PetscCall(DMCreateMatrix(da, &K));
  } else {
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, n, &U));
    PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 1, NULL, &K));
  }
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  PetscCall(SpringChainSetStiffness(K));
  for (PetscInt i = lo; i < hi; i++) PetscCall(VecSetValue(U, i, PetscSinReal(PETSC_PI * (i + 1) / (n + 1)), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecDuplicate(U, &F));
  PetscCall(VecDuplicate(U, &E));
  PetscCall(VecCopy(U, E));
  PetscCall(VecSet(V, 0));
  PetscCall(MatDuplicate(K, MAT_DO_NOT_COPY_VALUES, &J));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  if (da) PetscCall(TSSetDM(ts, da));
  PetscCall(TSSetI2Function(ts, F, I2Function, K));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, K));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  for (PetscInt pass = 1; pass <= 2; pass++) {
    if (pass == 2) PetscCall(TSSetFromOptions(ts));
    if (when != pass) continue;
    PetscCall(KSPSetType(ksp, KSPGMRES));
    PetscCall(PCSetType(pc, PCJACOBI));
    PetscCall(KSPSetTolerances(ksp, 1e-13, 1e-50, PETSC_DEFAULT, PETSC_DEFAULT));
  }
  PetscCall(TSSolve(ts, U));

  /* slowest mode: omega_1 = 2 sin(pi / (2 (n + 1))) */
  omega = 2 * PetscSinReal(PETSC_PI / (2 * (n + 1)));
  PetscCall(VecScale(E, PetscCosReal(omega * T)));
  PetscCall(VecAXPY(E, -1, U));
  PetscCall(VecNorm(E, NORM_INFINITY, &err));
  PetscCall(VecNorm(U, NORM_INFINITY, &unorm));
  PetscCall(KSPGetType(ksp, &ksptype));
  PetscCall(PCGetType(pc, &pctype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "error against the exact mode < 1e-6: %s\n", err < 1e-6 && unorm > 0.1 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "step solver: KSP %s, PC %s\n", ksptype, pctype));

  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(MatDestroy(&K));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscCall(VecDestroy(&F));
  PetscCall(VecDestroy(&E));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex

  # default options on 1 and 2 ranks, with and without a DMDA: the direct solve, PC lu on 1 rank; on 2 ranks this
  # banded chain gets the exact interface LU (src/core/interfacelu.c, a PCSHELL: ex31_default_alt.out)
  test:
    suffix: default
    nsize: {{1 2}}
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -dmda {{0 1}}

  # a solver chosen in code after TSSetFromOptions(), or by options, is kept
  test:
    suffix: user_solver
    nsize: {{1 2}}
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -dmda {{0 1}} -user_solver {{before after}}
  test:
    suffix: options_solver
    nsize: {{1 2}}
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -dmda {{0 1}} -ksp_type gmres -pc_type jacobi -ksp_rtol 1e-13
  test:
    suffix: options_superlu_dist
    nsize: {{1 2}}
    requires: superlu_dist
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -dmda {{0 1}} -pc_type lu -pc_factor_mat_solver_type superlu_dist

TEST*/
