static char help[] = "A step far shorter than the next, as PETSc's event locator takes one (a step that ends within -ts_event_tol of\n"
                     "an event) or a user's post-step sets one: the step after it must be solved as accurately as any other. The\n"
                     "pendulum released at rest from q0 = 2, Lobatto, h = 0.025 to t = 1, with step -short_step (5) of length -short\n"
                     "(8e-14); through the pointwise door (U = (q, p), the dense path) or the I2 door (U = q, the SNES path).\n"
                     "Before the fix the predictor extrapolated the short step's polynomial 3e11 times its length, and Newton\n"
                     "converged to another solution of the step's equations (an error of 1e5, with no error reported).\n"
                     "Prints whether the final error is within 10x of the run without the short step (and below 1e-12).\n"
                     "Options: -door <pointwise,i2> -short <8e-14> -short_step <5>\n\n";

#include <simpvi.h>
#include "../examples/models/pendulum.h"

typedef struct {
  PetscReal h, hshort;
  PetscInt  kshort;
} Ctx;

static PetscErrorCode PostStep(TS ts)
{
  Ctx     *c;
  PetscInt k;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &c));
  PetscCall(TSGetStepNumber(ts, &k));
  PetscCall(TSSetTimeStep(ts, k == c->kshort ? c->hshort : c->h));
  PetscFunctionReturn(0);
}

/* the error (max over q and p, or u and u') at t = 1, with or without the short step */
static PetscErrorCode Run(PetscBool pointwise, Ctx *c, PetscBool withshort, PetscReal *err)
{
  TS                 ts;
  Vec                U, V = NULL;
  Mat                J = NULL;
  PetscReal          t, q, p, qe, pe;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, TSSIMPVILOBATTO));
  PetscCall(TSSetApplicationContext(ts, c));
  if (pointwise) {
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
    PetscCall(VecSetValue(U, 0, 2, INSERT_VALUES));
    PetscCall(VecSetValue(U, 1, 0, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(U));
    PetscCall(VecAssemblyEnd(U));
    PetscCall(TSSimpVISetPointwiseLagrangian(ts, PendulumPointwise, NULL));
    PetscCall(TSSetSolution(ts, U));
  } else {
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 1, &U));
    PetscCall(VecDuplicate(U, &V));
    PetscCall(VecSet(U, 2));
    PetscCall(VecSet(V, 0));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &J));
    PetscCall(TSSetI2Function(ts, NULL, I2Function, NULL));
    PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, NULL));
    PetscCall(TS2SetSolution(ts, U, V));
  }
  PetscCall(TSSetTimeStep(ts, c->h));
  PetscCall(TSSetMaxTime(ts, 1.0));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (withshort) PetscCall(TSSetPostStep(ts, PostStep));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetSolveTime(ts, &t));
  PendulumExact(2, t, &qe, &pe);
  if (pointwise) {
    PetscCall(VecGetArrayRead(U, &u));
    q = PetscRealPart(u[0]);
    p = PetscRealPart(u[1]);
    PetscCall(VecRestoreArrayRead(U, &u));
  } else {
    Vec X, Xdot;

    PetscCall(TS2GetSolution(ts, &X, &Xdot));
    PetscCall(VecGetArrayRead(X, &u));
    q = PetscRealPart(u[0]);
    PetscCall(VecRestoreArrayRead(X, &u));
    PetscCall(VecGetArrayRead(Xdot, &u));
    p = PetscRealPart(u[0]);
    PetscCall(VecRestoreArrayRead(Xdot, &u));
  }
  *err = PetscMax(PetscAbsReal(q - qe), PetscAbsReal(p - pe));
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx         c       = {0.025, 8e-14, 5};
  const char *doors[] = {"pointwise", "i2"};
  PetscInt    door    = 0;
  PetscReal   err, err0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "shortstep options", NULL);
  PetscCall(PetscOptionsEList("-door", "pointwise or i2", NULL, doors, 2, doors[door], &door, NULL));
  PetscCall(PetscOptionsReal("-short", "Length of the short step", NULL, c.hshort, &c.hshort, NULL));
  PetscCall(PetscOptionsInt("-short_step", "The step after which the short step comes", NULL, c.kshort, &c.kshort, NULL));
  PetscOptionsEnd();
  PetscCall(Run((PetscBool)(door == 0), &c, PETSC_FALSE, &err0));
  PetscCall(Run((PetscBool)(door == 0), &c, PETSC_TRUE, &err));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "door %s, a step of %g after step %" PetscInt_FMT ": final error within 10x of the run without it and below 1e-12: %s\n", doors[door], (double)c.hshort, c.kshort, err <= 10 * err0 + 1e-15 && err < 1e-12 ? "yes" : "no"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # the dense path (pointwise door) and the SNES path (I2 door, and the pointwise door with -ts_simpvi_small_limit 0)
  test:
    suffix: dense
  test:
    suffix: snes
    args: -ts_simpvi_small_limit 0
  test:
    suffix: i2
    args: -door i2
  # a step 8.3 times shorter than the next is still extrapolated (the predictor's limit is 10)
  test:
    suffix: ratio8
    args: -short 3e-3

TEST*/
