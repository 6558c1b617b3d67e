static char help[] = "One TS of PETSc's I2 interface solved twice, changing its type between (TSSetType(), optionally after\n"
                     "TSReset()): simpvi then alpha2, alpha2 then simpvi, simpvi then theta... each solve of u'' = -w^2 u on n DOFs\n"
                     "against the exact solution, to its method's accuracy. The step's SNES set-up (its DM, vectors, matrices,\n"
                     "stopping test and type) once stayed behind in the TS's SNES: the next type crashed or refused.\n"
                     "With -m2 m, the second solve (same type) is of m u'' = -w^2 u: a constant mass changed between solves, read again.\n"
                     "-type1 <simpvi> -type2 <alpha2> -reset -n <8> -m2 <1>\n\n";

#include <simpvi.h>

static const PetscReal w = 1.5;

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  const PetscReal m = *(PetscReal *)ctx;

  PetscFunctionBeginUser;
  PetscCall(VecAXPBYPCZ(F, m, w * w, 0, A, U)); /* F = m A + w^2 U */
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  PetscInt rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(P, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) PetscCall(MatSetValue(P, i, i, shiftA * *(PetscReal *)ctx + w * w, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* u_i(0) = 1 + i, v = 0, t = 0 */
static PetscErrorCode Start(TS ts, Vec U, Vec V)
{
  PetscInt     rstart, rend;
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(U, &rstart, &rend));
  PetscCall(VecGetArrayWrite(U, &a));
  for (PetscInt i = rstart; i < rend; i++) a[i - rstart] = 1 + i;
  PetscCall(VecRestoreArrayWrite(U, &a));
  PetscCall(VecSet(V, 0));
  PetscCall(TSSetTime(ts, 0));
  PetscCall(TSSetStepNumber(ts, 0));
  PetscFunctionReturn(0);
}

/* max |u_i(T) - (1 + i) cos(w T / sqrt(m))| / (1 + i) */
static PetscErrorCode Error(Vec U, PetscReal T, PetscReal m, PetscReal *err)
{
  const PetscScalar *a;
  PetscInt           rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(U, &rstart, &rend));
  PetscCall(VecGetArrayRead(U, &a));
  *err = 0;
  for (PetscInt i = rstart; i < rend; i++) *err = PetscMax(*err, PetscAbsReal(PetscRealPart(a[i - rstart]) / (1 + i) - PetscCosReal(w / PetscSqrtReal(m) * T)));
  PetscCall(VecRestoreArrayRead(U, &a));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, err, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  TS        ts;
  Vec       U, V;
  Mat       J;
  PetscInt  n = 8;
  PetscReal T = 2, h = 0.05, m = 1, m2 = 1;
  PetscBool reset       = PETSC_FALSE;
  char      type[2][64] = {TSSIMPVI, TSALPHA2};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-reset", &reset, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-m2", &m2, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type1", type[0], sizeof(type[0]), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type2", type[1], sizeof(type[1]), NULL));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, n, &U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 1, NULL, 0, NULL, &J));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetI2Function(ts, NULL, I2Function, &m));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, &m));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  for (PetscInt pass = 0; pass < 2; pass++) {
    PetscBool simpvi;
    PetscReal err;

    if (pass && reset) PetscCall(TSReset(ts));
    if (pass) m = m2;
    PetscCall(TSSetType(ts, type[pass]));
    PetscCall(Start(ts, U, V));
    PetscCall(TS2SetSolution(ts, U, V));
    PetscCall(TSSetTimeStep(ts, h));
    PetscCall(TSSetFromOptions(ts));
    PetscCall(TSSolve(ts, NULL));
    PetscCall(Error(U, T, m, &err));
    PetscCall(PetscStrcmp(type[pass], TSSIMPVI, &simpvi));
    /* Simpson's error here is about 1e-7, alpha2's and theta's (order 2) about 1e-3 */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solve %" PetscInt_FMT " by %s, mass %g: u(T) to %s's accuracy: %s\n", pass + 1, type[pass], (double)m, simpvi ? "order 4" : "order 2", err < (simpvi ? 1e-6 : 1e-2) ? "yes" : "no"));
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
    suffix: simpvi_alpha2
    nsize: {{1 2}}
    args: -reset {{0 1}}
  test:
    suffix: alpha2_simpvi
    nsize: {{1 2}}
    args: -type1 alpha2 -type2 simpvi -reset {{0 1}}
  test:
    suffix: simpvi_simpvi
    args: -type2 simpvi -reset {{0 1}}
  # a constant mass doubled between two solves of the same TS (once refused after the first step, as a mass that changed
  # within the run)
  # -log_view shows the user's I2 function and Jacobian as PETSc's events, as under TSALPHA2 (simpvi calls them directly)
  test:
    suffix: log_view
    args: -type2 simpvi -log_view
    filter: grep -o -e "^TSFunctionEval" -e "^TSJacobianEval" | sort -u
  # an empty system (no DOF), as TSALPHA2 takes it: once refused as having no mass
  test:
    suffix: empty
    nsize: {{1 2}}
    args: -n 0 -type1 simpvi -type2 simpvi
  test:
    suffix: newmass
    nsize: {{1 2}}
    args: -type2 simpvi -m2 2

TEST*/
