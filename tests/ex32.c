static char help[] = "TS_LINEAR with a time-dependent quadratic potential: V(t, q) = (1 + t)^2 q^2 / 2, unit mass, through the\n"
                     "mechanical door. The step Jacobian then changes from step to step though not within a step: a run\n"
                     "declared TS_LINEAR must give the trajectory of the same run solved as a nonlinear problem (Newton to\n"
                     "round-off). The SNES type used is printed: TS_LINEAR means one linear solve per step (ksponly, or simpvidense\n"
                     "with one Newton step for small systems) unless -snes_type says otherwise.\n"
                     "Options: -dt <0.2> -final_time <2>\n\n";

#include <simpvi.h>
#include "../examples/models/unitoscillator.h"

static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  PetscScalar q2;

  PetscFunctionBeginUser;
  PetscCall(VecDot(x, x, &q2));
  *V = PetscSqr(1 + t) * PetscRealPart(q2) / 2;
  PetscCall(VecCopy(x, g));
  PetscCall(VecScale(g, PetscSqr(1 + t)));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(MatZeroEntries(H));
  PetscCall(MatShift(H, PetscSqr(1 + t)));
  PetscFunctionReturn(0);
}

/* q(T), p(T) from q = 1, p = 0 */
static PetscErrorCode Run(PetscReal dt, PetscReal T, TSProblemType type, const char prefix[], PetscReal qp[2])
{
  TS                 ts;
  Mat                M, H;
  Vec                U;
  SNES               snes;
  SNESType           snestype;
  PetscBool          dense, onestep = PETSC_FALSE;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(UnitOscillatorCreate(&M, &H, &U));

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetOptionsPrefix(ts, prefix));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetProblemType(ts, type));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, H, Potential, PotentialHessian, NULL));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetType(snes, &snestype));
  PetscCall(PetscObjectTypeCompare((PetscObject)snes, SNESSIMPVIDENSE, &dense));
  if (dense) PetscCall(SNESSimpVIDenseGetLinear(snes, &onestep));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s run: SNES %s%s\n", type == TS_LINEAR ? "TS_LINEAR" : "TS_NONLINEAR", snestype, onestep ? ", one Newton step per solve (as ksponly)" : ""));
  PetscCall(VecGetArrayRead(U, &u));
  qp[0] = PetscRealPart(u[0]);
  qp[1] = PetscRealPart(u[1]);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscReal dt = 0.2, T = 2, lin[2], nonlin[2], diff;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "TS_LINEAR options", NULL);
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-final_time", "Final time", NULL, T, &T, NULL));
  PetscOptionsEnd();
  PetscCall(Run(dt, T, TS_LINEAR, "linear_", lin));
  PetscCall(Run(dt, T, TS_NONLINEAR, "nonlinear_", nonlin));
  diff = PetscMax(PetscAbsReal(lin[0] - nonlin[0]), PetscAbsReal(lin[1] - nonlin[1]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "p(T) = %.5f (TS_LINEAR), %.5f (TS_NONLINEAR)\n", (double)lin[1], (double)nonlin[1]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TS_LINEAR agrees with the nonlinear solve to 1e-10: %s\n", diff < 1e-10 ? "yes" : "no"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex

  # Newton on the nonlinear run stops on its update (stol), at round-off
  test:
    suffix: simpson
    args: -nonlinear_snes_rtol 1e-14
  test:
    suffix: lobatto
    args: -nonlinear_snes_rtol 1e-14 -linear_ts_simpvi_type lobatto -nonlinear_ts_simpvi_type lobatto
  test:
    suffix: snes_type
    args: -nonlinear_snes_rtol 1e-14 -linear_snes_type newtonls
  test:
    suffix: kinsol
    requires: kinsol
    args: -nonlinear_snes_rtol 1e-14 -linear_ts_simpvi_nonlinear_solver kinsol -nonlinear_ts_simpvi_nonlinear_solver kinsol

TEST*/
