static char help[] = "A parameter study with SimpVIEnsemble: the period of the nonlinear pendulum against its amplitude.\n"
                     "Each member is a pendulum (its own amplitude and frequency) released at rest; it stops at the far turning\n"
                     "point (its momentum turns positive), half a period, which the output function reads off the last step.\n"
                     "The periods are checked (to 1e-5) against T = 4 K(sin(theta0/2)) / omega. Runs on any number of processes.\n"
                     "Options: -members <32> (and -ts_simpvi_type, -ts_dt, -ensemble_batch, -ensemble_view, ...)\n\n";

/*
   A study needs only four functions on plain arrays (a member's state is q, p with n = 1 here):
     Member()     member id -> its parameters (omega^2, theta0) and initial state;
     Mechanics()  P = dL/dv, G = dL/dx and their derivatives at many points of many members at once, for
                  L = 1/2 v^2 + omega^2 cos q, each point with its member's parameters;
     Stop()       after each step of a member: end its run here?
     Output()     at the end of a member's run: its result values.
   The scheme and steps are those of a TSSIMPVI set from the options; each member takes the steps a lone TSSIMPVI run
   of it would take (tests/ensemble_object.c checks this to the bit).
*/
#include <simpvi.h>

static PetscErrorCode Member(SimpVIEnsemble ens, PetscInt i, PetscInt nparam, PetscReal param[], PetscInt n, PetscReal q[], PetscReal p[], void *ctx)
{
  const PetscInt nmembers = *(PetscInt *)ctx;

  PetscFunctionBeginUser;
  param[0] = 1 + (i % 3);                                     /* omega^2 = g / l: three lengths */
  param[1] = 0.1 + 2.9 * (PetscReal)(i / 3) / (nmembers / 3); /* the amplitude theta0 */
  q[0]     = param[1];
  p[0]     = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode Mechanics(SimpVIEnsemble ens, PetscInt npoints, PetscInt n, const PetscInt member[], PetscInt nparam, const PetscReal param[], const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < npoints; k++) {
    const PetscReal w2 = param[k * nparam];

    if (L) L[k] = 0.5 * v[k] * v[k] + w2 * PetscCosReal(x[k]);
    if (P) P[k] = v[k];
    if (G) G[k] = -w2 * PetscSinReal(x[k]);
    if (Px) {
      Px[k] = 0;
      Pv[k] = 1;
      Gx[k] = -w2 * PetscCosReal(x[k]);
      Gv[k] = 0;
    }
  }
  PetscFunctionReturn(0);
}

/* the far turning point: the momentum, negative on the way there, turns positive */
static PetscErrorCode Stop(SimpVIEnsemble ens, PetscInt member, PetscInt nparam, const PetscReal param[], PetscInt step, PetscReal t, PetscInt n, const PetscReal q[], const PetscReal p[], PetscBool *stop, void *ctx)
{
  PetscFunctionBeginUser;
  *stop = (PetscBool)(p[0] >= 0);
  PetscFunctionReturn(0);
}

/* theta0, the period (twice the time of the turning point, one Newton step back from the last step: p' = -omega^2 sin q)
   and the exact period 4 K(k) / omega, k = sin(theta0 / 2), K(k) = pi / (2 AGM(1, sqrt(1 - k^2))) */
static PetscErrorCode Output(SimpVIEnsemble ens, PetscInt member, PetscInt nparam, const PetscReal param[], SimpVIEnsembleMemberReason reason, PetscInt step, PetscReal t, PetscInt n, const PetscReal q[], const PetscReal p[], PetscInt nout, PetscReal out[], void *ctx)
{
  const PetscReal w2 = param[0], k = PetscSinReal(param[1] / 2);
  PetscReal       a = 1, b = PetscSqrtReal(1 - k * k);

  PetscFunctionBeginUser;
  for (PetscInt it = 0; it < 40 && a - b > 1e-15 * a; it++) {
    const PetscReal m = (a + b) / 2;

    b = PetscSqrtReal(a * b);
    a = m;
  }
  out[0] = param[1];
  out[1] = reason == SIMPVI_ENSEMBLE_CONVERGED_USER ? 2 * (t - p[0] / (-w2 * PetscSinReal(q[0]))) : -1;
  out[2] = 4 * (PETSC_PI / (2 * a)) / PetscSqrtReal(w2);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  TS                ts;
  SimpVIEnsemble    ens;
  PetscInt          nmembers = 32, nout;
  const PetscReal  *out;
  PetscReal         err = 0, longest = 0;
  const char *const names[] = {"theta0", "period", "exact"};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-members", &nmembers, NULL));

  /* the scheme and its steps: a TSSIMPVI as for one pendulum, with no mechanics and no solution */
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetTimeStep(ts, 0.01));
  PetscCall(TSSetMaxTime(ts, 100));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_STEPOVER));
  PetscCall(TSSetFromOptions(ts));

  PetscCall(SimpVIEnsembleCreate(PETSC_COMM_WORLD, &ens));
  PetscCall(SimpVIEnsembleSetTS(ens, ts));
  PetscCall(SimpVIEnsembleSetSize(ens, nmembers));
  PetscCall(SimpVIEnsembleSetMemberFunction(ens, 1, 2, Member, &nmembers));
  PetscCall(SimpVIEnsembleSetPointwiseLagrangian(ens, Mechanics, NULL));
  PetscCall(SimpVIEnsembleSetStopFunction(ens, Stop, NULL));
  PetscCall(SimpVIEnsembleSetOutputFunction(ens, 3, names, Output, NULL));
  PetscCall(SimpVIEnsembleSetFromOptions(ens));
  PetscCall(SimpVIEnsembleSolve(ens));

  /* every process has every member's results, in member order */
  PetscCall(SimpVIEnsembleGetResults(ens, &nout, &out));
  for (PetscInt i = 0; i < nmembers; i++) {
    const PetscReal *r = out + i * nout;

    err     = r[1] > 0 ? PetscMax(err, PetscAbsReal(r[1] - r[2]) / r[2]) : PETSC_INFINITY;
    longest = PetscMax(longest, r[1] * PetscSqrtReal(1 + (i % 3)) / (2 * PETSC_PI)); /* in small-swing periods */
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " pendulums: every period within 1e-5 of 4 K(sin(theta0/2))/omega: %s\n", nmembers, err < 1e-5 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the largest amplitude swings more than twice as slowly as a small one: %s\n", longest > 2 ? "yes" : "no"));
  PetscCall(SimpVIEnsembleDestroy(&ens));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: simpson
    nsize: {{1 2}}
    args: -ts_simpvi_type simpson
    output_file: output/ex6_simpson.out

  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto -ensemble_batch 7 -ensemble_view
    filter: grep -v -e "busy"

TEST*/
