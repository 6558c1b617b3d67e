static char help[] = "A scheme or degree changed after a solve takes effect on the next TSSolve() of the same TS, with no TSReset().\n"
                     "A chain of n unit masses and springs between fixed ends, u'' + K u = 0, through the I2 door (TSSetI2Function(),\n"
                     "any number of ranks) or the mechanical door (-door mechanical, one rank). The TS is solved with the first\n"
                     "scheme, changed as -change says, solved again from the same start, and compared with a fresh TS made with the\n"
                     "second scheme:\n"
                     "  api      simpson, then TSSimpVISetType(ts, lobatto) and TSSimpVISetDegree(ts, 3)\n"
                     "  options  simpson, then -ts_simpvi_type lobatto -ts_simpvi_degree 3 and TSSetFromOptions()\n"
                     "  degree   lobatto degree 3, then TSSimpVISetDegree(ts, 4)\n"
                     "Options: -n <8> -dt <0.25> -final_time <5> -door i2|mechanical -change api|options|degree\n\n";

#include <simpvi.h>
#include "../examples/models/springchain.h" /* K and its callbacks for both doors */

static const char *const Doors[]   = {"i2", "mechanical"};
static const char *const Changes[] = {"api", "options", "degree"};

typedef struct {
  Mat      K;
  PetscInt door;
} AppCtx;

/* A TS for the chain; the I2 door's state is u (velocities in V), the mechanical door's U = (q, p) */
static PetscErrorCode CreateTS(AppCtx *user, PetscReal dt, PetscReal T, Mat J, Mat M, TS *ts)
{
  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_WORLD, ts));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  if (user->door == 0) {
    PetscCall(TSSetI2Function(*ts, NULL, I2Function, user->K));
    PetscCall(TSSetI2Jacobian(*ts, J, J, I2Jacobian, user->K));
  } else {
    PetscCall(TSSimpVISetMass(*ts, M, NULL, NULL, NULL, NULL));
    PetscCall(TSSimpVISetPotential(*ts, J, Potential, PotentialHessian, user->K));
  }
  PetscCall(TSSetTimeStep(*ts, dt));
  PetscCall(TSSetMaxTime(*ts, T));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscFunctionReturn(0);
}

/* The start: the slowest mode u0 at rest; the mechanical door's U = (q, p) on one rank */
static PetscErrorCode SetStart(AppCtx *user, PetscInt n, TS ts, Vec U, Vec V)
{
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(TSSetTime(ts, 0));
  PetscCall(TSSetStepNumber(ts, 0));
  PetscCall(VecSet(U, 0));
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  for (PetscInt i = lo; i < PetscMin(hi, n); i++) PetscCall(VecSetValue(U, i, PetscSinReal(PETSC_PI * (i + 1) / (n + 1)) + (i == 0 ? 1 : 0), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  if (user->door == 0) {
    PetscCall(VecSet(V, 0));
    PetscCall(TS2SetSolution(ts, U, V));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt    n = 8, change = 0;
  PetscReal   dt = 0.25, T = 5, diffnew, diffold;
  AppCtx      user = {NULL, 0};
  Mat         J, M = NULL;
  Vec         U, V = NULL, Uold, Unew;
  TS          ts, fresh;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Scheme change options", NULL);
  PetscCall(PetscOptionsInt("-n", "Number of masses", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-final_time", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsEList("-door", "Door", NULL, Doors, 2, Doors[user.door], &user.door, NULL));
  PetscCall(PetscOptionsEList("-change", "What changes after the first solve", NULL, Changes, 3, Changes[change], &change, NULL));
  PetscOptionsEnd();
  PetscCheck(user.door == 0 || size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "-door mechanical runs on one rank");

  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 1, NULL, &user.K));
  PetscCall(SpringChainSetStiffness(user.K));
  PetscCall(MatDuplicate(user.K, MAT_COPY_VALUES, &J));
  if (user.door == 0) {
    PetscCall(MatCreateVecs(user.K, &U, NULL));
    PetscCall(VecDuplicate(U, &V));
  } else {
    PetscCall(MatDuplicate(user.K, MAT_DO_NOT_COPY_VALUES, &M));
    PetscCall(MatZeroEntries(M));
    PetscCall(MatShift(M, 1));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * n, &U));
  }
  PetscCall(VecDuplicate(U, &Uold));
  PetscCall(VecDuplicate(U, &Unew));

  /* the first scheme, solved */
  PetscCall(CreateTS(&user, dt, T, J, M, &ts));
  if (change == 2) {
    PetscCall(TSSimpVISetType(ts, TSSIMPVILOBATTO));
    PetscCall(TSSimpVISetDegree(ts, 3));
  }
  PetscCall(TSSetFromOptions(ts));
  PetscCall(SetStart(&user, n, ts, U, V));
  PetscCall(TSSolve(ts, U));
  PetscCall(VecCopy(U, Uold));

  /* changed, and solved again from the same start */
  switch (change) {
  case 0:
    PetscCall(TSSimpVISetType(ts, TSSIMPVILOBATTO));
    PetscCall(TSSimpVISetDegree(ts, 3));
    break;
  case 1:
    PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_type", "lobatto"));
    PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_degree", "3"));
    PetscCall(TSSetFromOptions(ts));
    break;
  case 2:
    PetscCall(TSSimpVISetDegree(ts, 4));
    break;
  }
  PetscCall(SetStart(&user, n, ts, U, V));
  PetscCall(TSSolve(ts, U));
  {
    TSSimpVIType type;
    PetscInt     degree;

    PetscCall(TSSimpVIGetType(ts, &type));
    PetscCall(TSSimpVIGetDegree(ts, &degree));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "second solve: %s degree %" PetscInt_FMT "\n", type, degree));
  }

  /* a fresh TS with the second scheme, made once the first is gone: two SuperLU_DIST factors alive at once on one
     communicator corrupt the heap at PetscFinalize() with PETSc 3.18 */
  PetscCall(TSDestroy(&ts));
  PetscCall(CreateTS(&user, dt, T, J, M, &fresh));
  PetscCall(TSSimpVISetType(fresh, TSSIMPVILOBATTO));
  PetscCall(TSSimpVISetDegree(fresh, change == 2 ? 4 : 3));
  PetscCall(SetStart(&user, n, fresh, Unew, V));
  PetscCall(TSSolve(fresh, Unew));

  PetscCall(VecAXPY(Uold, -1, U));
  PetscCall(VecNorm(Uold, NORM_INFINITY, &diffold));
  PetscCall(VecAXPY(Unew, -1, U));
  PetscCall(VecNorm(Unew, NORM_INFINITY, &diffnew));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the two schemes differ by more than 1e-10: %s\n", diffold > 1e-10 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "second solve = a fresh TS with the new scheme to 1e-13: %s\n", diffnew < 1e-13 ? "yes" : "no"));

  PetscCall(TSDestroy(&fresh));
  PetscCall(MatDestroy(&user.K));
  PetscCall(MatDestroy(&J));
  PetscCall(MatDestroy(&M));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscCall(VecDestroy(&Uold));
  PetscCall(VecDestroy(&Unew));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex

  test:
    suffix: i2
    nsize: {{1 2}}
    args: -change {{api options degree}separate output}
  test:
    suffix: mechanical
    args: -door mechanical -change {{api options degree}separate output}
  test:
    suffix: kinsol
    requires: kinsol
    args: -door {{i2 mechanical}} -change degree -ts_simpvi_nonlinear_solver kinsol
    output_file: output/ex33_i2_change-degree.out

TEST*/
