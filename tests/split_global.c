static char help[] = "The state U = (q, p) filled as a global vector must mean the same on any number of processes.\n"
                     "n independent oscillators q_i'' = -w_i^2 q_i (w_i = 1 + i/n, mechanical door, M = I), U created with\n"
                     "PETSC_DECIDE and filled at global indices: q_i = 1 at i, p_i = 0 at n + i. The exact solution is\n"
                     "q_i(T) = cos(w_i T). On one process U's halves are (q, p) by default; on more, the layout of U says nothing\n"
                     "about which entries are positions, so TSSIMPVI must be told (-set_split: TSRHSSplitSetIS() with the global\n"
                     "halves) or stop with an error; it must never guess.\n"
                     "Options: -n <8> -set_split\n\n";

#include <simpvi.h>

typedef struct {
  PetscInt n;
} AppCtx;

static PetscReal Omega(AppCtx *user, PetscInt i)
{
  return 1 + (PetscReal)i / user->n;
}

static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xx;
  PetscScalar       *gg;
  PetscInt           lo, hi;
  PetscReal          Vloc = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  for (PetscInt i = lo; i < hi; i++) {
    PetscReal w2 = PetscSqr(Omega(user, i));

    gg[i - lo] = w2 * xx[i - lo];
    Vloc += 0.5 * w2 * PetscRealPart(xx[i - lo] * xx[i - lo]);
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(MPIU_Allreduce(&Vloc, V, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)ts)));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  PetscFunctionBeginUser;
  PetscFunctionReturn(0); /* constant, filled once in main */
}

int main(int argc, char **argv)
{
  TS        ts;
  Vec       U;
  Mat       M, K;
  AppCtx    user     = {8};
  PetscBool setsplit = PETSC_FALSE;
  PetscInt  lo, hi;
  PetscReal T = 2, err = 0, errloc = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &user.n, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-set_split", &setsplit, NULL));

  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, user.n, user.n, 1, NULL, 0, NULL, &M));
  PetscCall(MatDuplicate(M, MAT_DO_NOT_COPY_VALUES, &K));
  PetscCall(MatGetOwnershipRange(M, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscCall(MatSetValue(M, i, i, 1, INSERT_VALUES));
    PetscCall(MatSetValue(K, i, i, PetscSqr(Omega(&user, i)), INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(K, MAT_FINAL_ASSEMBLY));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, K, Potential, PotentialHessian, &user));

  /* U = (q, p) as one global vector, its layout left to PETSc */
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 2 * user.n, &U));
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(VecSetValue(U, i, i < user.n ? 1 : 0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  if (setsplit) { /* positions are the global first half: each process names its share of it */
    IS       isq, isp;
    PetscInt qlo, qhi;
    Vec      q;

    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, user.n, &q));
    PetscCall(VecGetOwnershipRange(q, &qlo, &qhi));
    PetscCall(ISCreateStride(PETSC_COMM_WORLD, qhi - qlo, qlo, 1, &isq));
    PetscCall(ISCreateStride(PETSC_COMM_WORLD, qhi - qlo, user.n + qlo, 1, &isp));
    PetscCall(TSRHSSplitSetIS(ts, "position", isq));
    PetscCall(TSRHSSplitSetIS(ts, "momentum", isp));
    PetscCall(ISDestroy(&isq));
    PetscCall(ISDestroy(&isp));
    PetscCall(VecDestroy(&q));
  }

  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, 0.01));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSolveTime(ts, &T));

  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  {
    const PetscScalar *u;

    PetscCall(VecGetArrayRead(U, &u));
    for (PetscInt i = lo; i < PetscMin(hi, user.n); i++) errloc = PetscMax(errloc, PetscAbsReal(PetscRealPart(u[i - lo]) - PetscCosReal(Omega(&user, i) * T)));
    PetscCall(VecRestoreArrayRead(U, &u));
  }
  PetscCall(MPIU_Allreduce(&errloc, &err, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "q(T) = cos(w T) to 1e-8: %s\n", err < 1e-8 ? "yes" : "no"));

  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&K));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # the default (q, p) halves, on one process
  test:
    suffix: default_1

  # on two processes without a split: an error, never a guess
  test:
    suffix: default_2
    nsize: 2
    args: -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep "PETSC ERROR" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"

  # named with TSRHSSplitSetIS(): the same answer on 1 and 2 processes
  test:
    suffix: set_split
    nsize: {{1 2}}
    args: -set_split

TEST*/
