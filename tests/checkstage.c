static char help[] = "TSSIMPVI rejects a step through PETSc's TSAdaptCheckStage(), as TSTHETA and TSALPHA2 do: a state outside the\n"
                     "domain (TSSetFunctionDomainError()) or refused by TSAdaptSetCheckStage() is retried from the same state with a\n"
                     "smaller step, and TSSetMaxStepRejections() ends the run with DIVERGED_STEP_REJECTED. The pendulum released at\n"
                     "rest from q0 = 1, h = 0.1, Lobatto, through the I2 door (U = u) or the pointwise door (U = (q, p)).\n"
                     "  -case domain: every state after t = 0.5 is outside the domain: the run ends at t = 0.5, rejected\n"
                     "  -case check:  a check-stage function refuses steps longer than 0.05 that end after t = 0.3: the step from\n"
                     "                t = 0.3 is retaken with h = 0.05 and the run goes on to t = 1 with that step\n"
                     "Both functions check that the stage they are shown is the step's end (the exact motion to 1e-6).\n"
                     "Options: -door <i2,pointwise> -case <domain,check>\n\n";

#include <simpvi.h>
#include "../examples/models/pendulum.h"

typedef struct {
  PetscBool pointwise;
  PetscInt  calls, wrong;
} Ctx;

static Ctx ctx; /* the check-stage function has no context of its own */

/* counts the calls whose stage is not the exact motion at t (to 1e-6: the step's end, not its start or an iterate) */
static PetscErrorCode CheckIsStepEnd(PetscReal t, Vec Y)
{
  const PetscScalar *y;
  PetscReal          q, p;

  PetscFunctionBeginUser;
  ctx.calls++;
  PendulumExact(1, t, &q, &p);
  PetscCall(VecGetArrayRead(Y, &y));
  if (PetscAbsReal(PetscRealPart(y[0]) - q) > 1e-6 || (ctx.pointwise && PetscAbsReal(PetscRealPart(y[1]) - p) > 1e-6)) ctx.wrong++;
  PetscCall(VecRestoreArrayRead(Y, &y));
  PetscFunctionReturn(0);
}

static PetscErrorCode Domain(TS ts, PetscReal t, Vec Y, PetscBool *accept)
{
  PetscFunctionBeginUser;
  PetscCall(CheckIsStepEnd(t, Y));
  *accept = (PetscBool)(t <= 0.5 + 1e-12);
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckStage(TSAdapt adapt, TS ts, PetscReal t, Vec Y, PetscBool *accept)
{
  PetscReal h;

  PetscFunctionBeginUser;
  PetscCall(CheckIsStepEnd(t, Y));
  PetscCall(TSGetTimeStep(ts, &h));
  *accept = (PetscBool)(t <= 0.3 + 1e-12 || h <= 0.05 + 1e-12);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  TS                 ts;
  Vec                U, V = NULL;
  Mat                J = NULL;
  PetscReal          t, q, p, err;
  PetscInt           steps, rejects;
  TSConvergedReason  reason;
  const char        *doors[] = {"i2", "pointwise"}, *cases[] = {"domain", "check"};
  PetscInt           door = 0, cas = 0;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "checkstage options", NULL);
  PetscCall(PetscOptionsEList("-door", "i2 or pointwise", NULL, doors, 2, doors[door], &door, NULL));
  PetscCall(PetscOptionsEList("-case", "domain or check", NULL, cases, 2, cases[cas], &cas, NULL));
  PetscOptionsEnd();
  ctx.pointwise = (PetscBool)(door == 1);

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, TSSIMPVILOBATTO));
  if (ctx.pointwise) {
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
    PetscCall(VecSetValue(U, 0, 1, INSERT_VALUES));
    PetscCall(VecSetValue(U, 1, 0, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(U));
    PetscCall(VecAssemblyEnd(U));
    PetscCall(TSSimpVISetPointwiseLagrangian(ts, PendulumPointwise, NULL));
    PetscCall(TSSetSolution(ts, U));
  } else {
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 1, &U));
    PetscCall(VecDuplicate(U, &V));
    PetscCall(VecSet(U, 1));
    PetscCall(VecSet(V, 0));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &J));
    PetscCall(TSSetI2Function(ts, NULL, I2Function, NULL));
    PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, NULL));
    PetscCall(TS2SetSolution(ts, U, V));
  }
  if (cas == 0) PetscCall(TSSetFunctionDomainError(ts, Domain));
  else {
    TSAdapt adapt;

    PetscCall(TSGetAdapt(ts, &adapt));
    PetscCall(TSAdaptSetCheckStage(adapt, CheckStage));
  }
  PetscCall(TSSetTimeStep(ts, 0.1));
  PetscCall(TSSetMaxTime(ts, 1.0));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetErrorIfStepFails(ts, PETSC_FALSE));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));

  PetscCall(TSGetSolveTime(ts, &t));
  PetscCall(TSGetConvergedReason(ts, &reason));
  PetscCall(TSGetStepNumber(ts, &steps));
  PetscCall(TSGetStepRejections(ts, &rejects));
  PendulumExact(1, t, &q, &p);
  PetscCall(VecGetArrayRead(U, &u));
  err = PetscAbsReal(PetscRealPart(u[0]) - q);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "final time %.4f reason %s steps %" PetscInt_FMT " rejected %" PetscInt_FMT "\n", (double)t, TSConvergedReasons[reason], steps, rejects));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "stages shown: %s; each the step's end: %s; final state exact to 1e-8: %s\n", ctx.calls > steps ? "yes" : "no", ctx.wrong ? "no" : "yes", err < 1e-8 ? "yes" : "no"));

  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # the state after t = 0.5 is outside the domain: the step from 0.5 is halved until TSSetMaxStepRejections() (10)
  # ends the run there, as under alpha2; on the dense path (pointwise) and the SNES path (I2, and -ts_simpvi_small_limit 0)
  testset:
    args: -case domain
    output_file: output/checkstage_domain.out
    test:
      suffix: domain_i2
      args: -door i2
    test:
      suffix: domain_pointwise
      args: -door pointwise
    test:
      suffix: domain_pointwise_snes
      args: -door pointwise -ts_simpvi_small_limit 0

  # the adaptor's check-stage function refuses the step from 0.3 once; the run goes on with h = 0.05 to t = 1
  testset:
    args: -case check
    output_file: output/checkstage_check.out
    test:
      suffix: check_i2
      args: -door i2
    test:
      suffix: check_pointwise
      args: -door pointwise
    test:
      suffix: check_pointwise_snes
      args: -door pointwise -ts_simpvi_small_limit 0

TEST*/
