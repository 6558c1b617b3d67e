static char help[] = "The simpvi functions meant for any TS type, on a TS of another type (-ts_type rk by default): a harmonic\n"
                     "oscillator through the mechanical door, given the phase-space form by TSSimpVISetUpPhaseSpace(), monitored by\n"
                     "TSSimpVIMonitorEnergy(); TSSimpVIGetPhaseSpaceIS() names its positions and momenta. With -no_phase_space the\n"
                     "TS has no phase-space form: both functions must stop with a PETSc error, and must never read or write the data\n"
                     "of another type (run under valgrind).\n"
                     "Options: -no_phase_space -call monitor|is\n\n";

#include <simpvi.h>
#include "../examples/models/unitoscillator.h"

static const char *const Calls[] = {"monitor", "is"};

int main(int argc, char **argv)
{
  TS        ts;
  Mat       M, H;
  Vec       U;
  IS        isq, isp;
  PetscInt  call    = 0, nq, np, q0;
  PetscBool nophase = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Other-type options", NULL);
  PetscCall(PetscOptionsBool("-no_phase_space", "Skip TSSimpVISetUpPhaseSpace()", NULL, nophase, &nophase, NULL));
  PetscCall(PetscOptionsEList("-call", "The call that must fail without the phase-space form", NULL, Calls, 2, Calls[call], &call, NULL));
  PetscOptionsEnd();

  PetscCall(UnitOscillatorCreate(&M, &H, &U));

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSRK));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, H, UnitPotential, UnitPotentialHessian, NULL));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, 0.1));
  PetscCall(TSSetMaxSteps(ts, 3));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  if (!nophase) PetscCall(TSSimpVISetUpPhaseSpace(ts));
  if (nophase && call == 1) PetscCall(TSSimpVIGetPhaseSpaceIS(ts, &isq, &isp));
  PetscCall(TSMonitorSet(ts, TSSimpVIMonitorEnergy, NULL, NULL));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSSimpVIGetPhaseSpaceIS(ts, &isq, &isp));
  PetscCall(ISGetSize(isq, &nq));
  PetscCall(ISGetSize(isp, &np));
  PetscCall(ISGetMinMax(isq, &q0, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "phase-space IS: %" PetscInt_FMT " positions from entry %" PetscInt_FMT ", %" PetscInt_FMT " momenta\n", nq, q0, np));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex

  test:
    suffix: rk
    args: -ts_type {{rk theta euler simpvi}separate output}

  testset:
    args: -no_phase_space -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep "PETSC ERROR" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"
    test:
      suffix: nophase_monitor
      args: -call monitor
    test:
      suffix: nophase_is
      args: -call is

TEST*/
