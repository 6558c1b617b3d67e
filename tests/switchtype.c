static char help[] = "One TS of PETSc's I2 interface solved twice, changing its type between (TSSetType(), optionally after\n"
                     "TSReset()): simpvi then alpha2, alpha2 then simpvi, simpvi then theta... each solve of u'' = -w^2 u on n DOFs\n"
                     "against the exact solution, to its method's accuracy. The step's SNES set-up (its DM, vectors, matrices,\n"
                     "stopping test and type) once stayed behind in the TS's SNES: the next type crashed or refused.\n"
                     "With -m2 m, the second solve (same type) is of m u'' = -w^2 u: a constant mass changed between solves, read again.\n"
                     "With -nojac, no TSSetI2Jacobian() and no DM: refused with a message that says what to give.\n"
                     "-type1 <simpvi> -type2 <alpha2> -reset -n <8> -m2 <1> -nojac\n\n";

#include "i2oscillator.h"

/* the oscillators from the start, at t = 0 and step 0 */
static PetscErrorCode Start(TS ts, Vec U, Vec V)
{
  PetscFunctionBeginUser;
  PetscCall(I2OscillatorStart(U, V));
  PetscCall(TSSetTime(ts, 0));
  PetscCall(TSSetStepNumber(ts, 0));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  TS           ts;
  Vec          U, V;
  Mat          J;
  PetscInt     n = 8;
  PetscReal    T = 2, h = 0.05, m2 = 1;
  I2Oscillator osc   = {1.5, 1};
  PetscBool    reset = PETSC_FALSE, nojac = PETSC_FALSE;
  char         type[2][64] = {TSSIMPVI, TSALPHA2};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-reset", &reset, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-m2", &m2, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-nojac", &nojac, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type1", type[0], sizeof(type[0]), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type2", type[1], sizeof(type[1]), NULL));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, n, &U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 1, NULL, 0, NULL, &J));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetI2Function(ts, NULL, I2OscillatorFunction, &osc));
  if (!nojac) PetscCall(TSSetI2Jacobian(ts, J, J, I2OscillatorJacobian, &osc));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  for (PetscInt pass = 0; pass < 2; pass++) {
    PetscBool simpvi;
    PetscReal err;

    if (pass && reset) PetscCall(TSReset(ts));
    if (pass) osc.m = m2;
    PetscCall(TSSetType(ts, type[pass]));
    PetscCall(Start(ts, U, V));
    PetscCall(TS2SetSolution(ts, U, V));
    PetscCall(TSSetTimeStep(ts, h));
    PetscCall(TSSetFromOptions(ts));
    PetscCall(TSSolve(ts, NULL));
    PetscCall(I2OscillatorError(&osc, U, T, PETSC_FALSE, &err));
    PetscCall(PetscStrcmp(type[pass], TSSIMPVI, &simpvi));
    /* Simpson's error here is about 1e-7, alpha2's and theta's (order 2) about 1e-3 */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solve %" PetscInt_FMT " by %s, mass %g: u(T) to %s's accuracy: %s\n", pass + 1, type[pass], (double)osc.m, simpvi ? "order 4" : "order 2", err < (simpvi ? 1e-6 : 1e-2) ? "yes" : "no"));
    if (!simpvi) { /* simpvi's own SNES tolerance (1e-14) gone with it: another type's answer is its own */
      SNES      snes;
      PetscReal rtol;

      PetscCall(TSGetSNES(ts, &snes));
      PetscCall(SNESGetTolerances(snes, NULL, &rtol, NULL, NULL, NULL));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solve %" PetscInt_FMT " by %s: the SNES's relative tolerance PETSc's 1e-8: %s\n", pass + 1, type[pass], rtol == 1e-8 ? "yes" : "no"));
    }
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
  # no Jacobian and no DM that could colour one by differences: refused, naming what to give (it stopped in
  # DMCreateColoring() with "No method getcoloring for DM of type shell")
  test:
    suffix: nojac
    args: -nojac -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep -o "TSSIMPVI needs the Jacobian of the second-order problem, and this program gives none"
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
