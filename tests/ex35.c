static char help[] = "TSSetPostStage() under TSSIMPVI: the hook gets a vector shaped like the TS state, holding the end of the step\n"
                     "(U = (q, p) for the native doors, u for the I2 door), at the end time of the step, once per step. A chain\n"
                     "of n unit masses and springs, through the mechanical door or the I2 door (-door i2); a post-step hook compares\n"
                     "what the post-stage hook saw with the state the step produced.\n"
                     "Options: -n <5> -door mechanical|i2\n\n";

#include <simpvi.h>
#include "../examples/models/springchain.h" /* K and its callbacks for both doors */

static const char *const Doors[] = {"mechanical", "i2"};

typedef struct {
  Mat       K;
  Vec       seen;  /* what the post-stage hook received */
  PetscReal tseen; /* its stage time */
  PetscInt  calls, steps;
  PetscBool shaped, same, timed;
} AppCtx;

static PetscErrorCode PostStage(TS ts, PetscReal t, PetscInt stage, Vec *Y)
{
  AppCtx  *user;
  Vec      U;
  PetscInt n, N;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &user));
  PetscCall(TSGetSolution(ts, &U));
  PetscCall(VecGetSize(U, &n));
  PetscCall(VecGetSize(Y[0], &N));
  user->calls++;
  user->tseen = t;
  if (stage != 0 || N != n) user->shaped = PETSC_FALSE;
  else PetscCall(VecCopy(Y[0], user->seen));
  PetscFunctionReturn(0);
}

static PetscErrorCode PostStep(TS ts)
{
  AppCtx   *user;
  Vec       U;
  PetscReal t, diff;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &user));
  PetscCall(TSGetSolution(ts, &U));
  PetscCall(TSGetTime(ts, &t));
  user->steps++;
  if (!user->shaped) PetscFunctionReturn(0);
  PetscCall(VecAXPY(user->seen, -1, U));
  PetscCall(VecNorm(user->seen, NORM_INFINITY, &diff));
  if (diff > 1e-14) user->same = PETSC_FALSE;
  if (PetscAbsReal(t - user->tseen) > 1e-14) user->timed = PETSC_FALSE;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt n = 5, door = 0;
  AppCtx   user = {NULL, NULL, 0, 0, 0, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE};
  Mat      J, M = NULL;
  Vec      U, V = NULL;
  TS       ts;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Post-stage options", NULL);
  PetscCall(PetscOptionsInt("-n", "Number of masses", NULL, n, &n, NULL));
  PetscCall(PetscOptionsEList("-door", "Door", NULL, Doors, 2, Doors[door], &door, NULL));
  PetscOptionsEnd();

  PetscCall(MatCreateAIJ(PETSC_COMM_SELF, n, n, n, n, 3, NULL, 0, NULL, &user.K));
  PetscCall(SpringChainSetStiffness(user.K));
  PetscCall(MatDuplicate(user.K, MAT_COPY_VALUES, &J));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, door == 0 ? 2 * n : n, &U));
  PetscCall(VecSet(U, 0));
  PetscCall(VecSetValue(U, 0, 1.0, INSERT_VALUES)); /* the first mass displaced, all at rest */
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  PetscCall(VecDuplicate(U, &user.seen));

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetApplicationContext(ts, &user));
  if (door == 1) {
    PetscCall(VecDuplicate(U, &V));
    PetscCall(VecSet(V, 0));
    PetscCall(TSSetI2Function(ts, NULL, I2Function, user.K));
    PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, user.K));
    PetscCall(TS2SetSolution(ts, U, V));
  } else {
    PetscCall(MatDuplicate(user.K, MAT_DO_NOT_COPY_VALUES, &M));
    PetscCall(MatZeroEntries(M));
    PetscCall(MatShift(M, 1));
    PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
    PetscCall(TSSimpVISetPotential(ts, J, Potential, PotentialHessian, user.K));
    PetscCall(TSSetSolution(ts, U));
  }
  PetscCall(TSSetPostStage(ts, PostStage));
  PetscCall(TSSetPostStep(ts, PostStep));
  PetscCall(TSSetTimeStep(ts, 0.1));
  PetscCall(TSSetMaxSteps(ts, 10));
  PetscCall(TSSetMaxTime(ts, 100));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "post-stage calls %" PetscInt_FMT " for %" PetscInt_FMT " steps\n", user.calls, user.steps));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "post-stage vector shaped like the state: %s\n", user.shaped ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "post-stage vector = the state at the end of the step: %s\n", user.shaped && user.same ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "post-stage time = the end of the step: %s\n", user.shaped && user.timed ? "yes" : "no"));

  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&user.K));
  PetscCall(MatDestroy(&J));
  PetscCall(MatDestroy(&M));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscCall(VecDestroy(&user.seen));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex

  test:
    suffix: mechanical
    args: -ts_simpvi_type {{simpson lobatto midpoint}}
  test:
    suffix: i2
    args: -door i2 -ts_simpvi_type {{simpson lobatto midpoint}}

TEST*/
