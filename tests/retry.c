static char help[] = "A failed step solve of TSSIMPVI: the state of the last good step stays, and with -ts_max_snes_failures the step\n"
                     "is retried from it with a halved step. The pendulum L = v^2/2 - (1 - cos x) through the Lagrangian door, with a\n"
                     "Lagrangian that cannot be evaluated (NaN) in a short time window -hole_width wide around a quadrature point of\n"
                     "step -hole_step (Lobatto, h = 0.01): that step's solve fails, the same step halved has no point in the window.\n"
                     "Prints the step and time reached, whether U after a final failure is bitwise the state of the last good step,\n"
                     "and the energy error of a run that goes on after the retry.\n"
                     "With -wall w, a TSSetFunctionDomainError() rejects x < w, which the swing reaches: every step that crosses it\n"
                     "is retried shorter, and the run, which crawled towards the wall forever, stops once the step no longer moves t.\n"
                     "Options: -hole_step <5> -hole_width <1e-9> -steps <20> -max_reject <10> (TSSetMaxStepRejections()) -wall <none> -h <0.01>\n\n";

#include <simpvi.h>
#include <math.h>

typedef struct {
  PetscReal thole, width, wall;
  Vec       last; /* the state after the last completed step */
  PetscInt  laststep;
  PetscReal lasttime;
} Ctx;

static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *xx, *vv;
  PetscScalar       *gx, *gv;
  const PetscBool    hole = (PetscBool)(PetscAbsReal(t - c->thole) < c->width);

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(Lx, &gx));
  PetscCall(VecGetArrayWrite(Lv, &gv));
  *L    = 0.5 * vv[0] * vv[0] - (1 - PetscCosReal(xx[0]));
  gx[0] = hole ? (PetscReal)NAN : -PetscSinReal(xx[0]);
  gv[0] = vv[0];
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(Lx, &gx));
  PetscCall(VecRestoreArrayWrite(Lv, &gv));
  PetscFunctionReturn(0);
}

static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  const PetscScalar *xx;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(MatSetValue(Lxx, 0, 0, -PetscCosReal(xx[0]), INSERT_VALUES));
  PetscCall(MatSetValue(Lvv, 0, 0, 1, INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Lvv, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lvv, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode Wall(TS ts, PetscReal t, Vec U, PetscBool *accept)
{
  Ctx               *c;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &c));
  PetscCall(VecGetArrayRead(U, &u));
  *accept = (PetscBool)(PetscRealPart(u[0]) >= c->wall);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode KeepLast(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Ctx *c = (Ctx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(VecCopy(U, c->last));
  c->laststep = step;
  c->lasttime = t;
  PetscFunctionReturn(0);
}

static PetscReal Energy(const PetscScalar *u)
{
  return 0.5 * PetscRealPart(u[1] * u[1]) + 1 - PetscCosReal(PetscRealPart(u[0]));
}

int main(int argc, char **argv)
{
  TS                 ts;
  Vec                U;
  Mat                Lxx, Lvv;
  Ctx                c = {0, 1e-9, PETSC_MIN_REAL, NULL, -1, 0};
  PetscBool          wall;
  PetscInt           holestep = 5, steps = 20, nsteps, failures, maxreject = 10;
  PetscReal          h = 0.01, t, H0, H1;
  PetscBool          same;
  TSConvergedReason  reason;
  const PetscScalar *u;
  const PetscReal    tau1 = 0.5 * (1 - 1 / PetscSqrtReal(5)); /* the first interior Gauss-Lobatto point of degree 3 */

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-hole_step", &holestep, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-hole_width", &c.width, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-max_reject", &maxreject, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-wall", &c.wall, &wall));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-h", &h, NULL));
  c.thole = (holestep + tau1) * h;

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, TSSIMPVILOBATTO));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &Lxx));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &Lvv));
  PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, &c));
  PetscCall(TSSimpVISetLagrangianHessian(ts, Lxx, NULL, Lvv, LagrangianHessian, &c));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
  PetscCall(VecSetValue(U, 0, 1.0, INSERT_VALUES));
  PetscCall(VecSetValue(U, 1, 0.0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  PetscCall(VecDuplicate(U, &c.last));
  PetscCall(VecGetArrayRead(U, &u));
  H0 = Energy(u);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSMonitorSet(ts, KeepLast, &c, NULL));
  if (wall) {
    PetscCall(TSSetApplicationContext(ts, &c));
    PetscCall(TSSetFunctionDomainError(ts, Wall));
  }
  PetscCall(TSSetMaxStepRejections(ts, maxreject)); /* -ts_max_reject (3.25: -ts_max_step_rejections) overrides it */
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));

  PetscCall(TSGetConvergedReason(ts, &reason));
  PetscCall(TSGetStepNumber(ts, &nsteps));
  PetscCall(TSGetTime(ts, &t));
  PetscCall(TSGetSNESFailures(ts, &failures));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "reason %s, %" PetscInt_FMT " steps to t = %.4f, %" PetscInt_FMT " failed step solve(s)\n", TSConvergedReasons[reason], nsteps, (double)t, failures));
  if (reason < 0) {
    PetscCall(VecEqual(U, c.last, &same));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "the failed step from t = %.4f left U, t and the step number of the last good step (%" PetscInt_FMT ") bitwise: %s\n", (double)t, c.laststep, same && c.laststep == nsteps && t == c.lasttime ? "yes" : "no"));
  } else {
    PetscCall(VecGetArrayRead(U, &u));
    H1 = Energy(u);
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "relative energy error after the retried step below 1e-12: %s\n", PetscAbsReal(H1 - H0) / H0 < 1e-12 ? "yes" : "no"));
  }
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&c.last));
  PetscCall(MatDestroy(&Lxx));
  PetscCall(MatDestroy(&Lvv));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # no retry allowed (PETSc's default -ts_max_snes_failures 1), failures not errors: the last good state is kept
  test:
    suffix: keep
    args: -ts_error_if_step_fails false

  # the default: the failure is an error that names the step
  test:
    suffix: error
    args: -petsc_ci_portable_error_output -error_output_stdout
    filter: grep -e "PETSC ERROR: TSSIMPVI" -e "^reason"

  # one retry allowed: the step is retaken with h/2 from the same state, shown on the adaptor's monitor and -ts_view
  test:
    suffix: retry
    args: -ts_max_snes_failures 2 -ts_adapt_monitor -ts_view
    filter: grep -e "stage rejected" -e "retried" -e "^reason" -e "energy"

  # a wall at x = -0.9 that the swing (amplitude 1) reaches, every retry allowed: each step that crosses it is retried
  # shorter, and the run stops where the step no longer moves t, with an error that says so (it crawled forever)
  test:
    suffix: wall
    args: -wall -0.9 -steps 100000 -ts_max_snes_failures -1 -h 0.1 -hole_step -100 -petsc_ci_portable_error_output -error_output_stdout
    filter: grep -e "PETSC ERROR: TSSIMPVI" -e "^reason"
  test:
    suffix: wall_keep
    args: -wall -0.9 -steps 100000 -ts_max_snes_failures -1 -h 0.1 -hole_step -100 -ts_error_if_step_fails false

  # retries allowed but each one fails again (a window wider than the run): TSSetMaxStepRejections() ends them at the
  # first step
  test:
    suffix: reject
    args: -ts_max_snes_failures -1 -max_reject 3 -hole_width 1e3 -ts_error_if_step_fails false -ts_adapt_monitor

TEST*/
