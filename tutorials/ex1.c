static char help[] = "Harmonic oscillator m q'' + m omega^2 q = 0 by TSSIMPVI through the mechanical door, against its exact solution.\n"
                     "Runs a mesh-refinement sweep and prints the maximum errors of p, q and H over all steps with observed orders.\n"
                     "Options: -omega <2 pi> -mass <1> -q0 <pi/2> -p0 <0> -periods <1> -n <10> (steps per period) -levels <3>\n\n";

#include <simpvi.h>

typedef struct {
  PetscReal omega, mass, q0, p0;
} Oscillator;

typedef struct {
  Oscillator *osc;
  PetscReal   ep, eq, eH, H0, dt;
} Errors;

static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  Oscillator        *osc = (Oscillator *)ctx;
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  *V    = 0.5 * osc->mass * osc->omega * osc->omega * xx[0] * xx[0];
  gg[0] = osc->mass * osc->omega * osc->omega * xx[0];
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Oscillator *osc = (Oscillator *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatSetValue(H, 0, 0, osc->mass * osc->omega * osc->omega, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static void Exact(const Oscillator *osc, PetscReal t, PetscReal *q, PetscReal *p)
{
  PetscReal w = osc->omega, m = osc->mass;

  *q = osc->q0 * PetscCosReal(w * t) + osc->p0 / (m * w) * PetscSinReal(w * t);
  *p = -m * w * osc->q0 * PetscSinReal(w * t) + osc->p0 * PetscCosReal(w * t);
}

/* Maxima over all steps of |p - p_ex|, |q - q_ex| and |H - H0| */
static PetscErrorCode MonitorErrors(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Errors            *err = (Errors *)ctx;
  const Oscillator  *osc = err->osc;
  const PetscScalar *u;
  PetscReal          qe, pe, H;

  PetscFunctionBeginUser;
  t = step * err->dt; /* the scheme's t_j = j h, free of the round-off that accumulates in the TS time */
  Exact(osc, t, &qe, &pe);
  PetscCall(VecGetArrayRead(U, &u));
  H       = 0.5 * u[1] * u[1] / osc->mass + 0.5 * osc->mass * osc->omega * osc->omega * u[0] * u[0];
  err->eq = PetscMax(err->eq, PetscAbsReal(u[0] - qe));
  err->ep = PetscMax(err->ep, PetscAbsReal(u[1] - pe));
  err->eH = PetscMax(err->eH, PetscAbsReal(H - err->H0));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static char errorcase[32] = "none"; /* -error_case nomechanics|masssize|naninitial: deliberately bad input, for the tests */

static PetscErrorCode Run(Oscillator *osc, PetscReal T, PetscInt nsteps, Errors *err)
{
  PetscBool    nomech, badsize, naninitial;
  TS           ts;
  Vec          U;
  Mat          M, H;
  PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetProblemType(ts, TS_LINEAR)); /* a quadratic Lagrangian: one factorization for the whole run */
  PetscCall(PetscStrcmp(errorcase, "nomechanics", &nomech));
  PetscCall(PetscStrcmp(errorcase, "masssize", &badsize));
  PetscCall(PetscStrcmp(errorcase, "naninitial", &naninitial));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, badsize ? 2 : 1, badsize ? 2 : 1, NULL, &M));
  PetscCall(MatSetValue(M, 0, 0, osc->mass, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &H));
  if (!nomech) {
    PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
    PetscCall(TSSimpVISetPotential(ts, H, Potential, PotentialHessian, osc));
  }
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  u[0] = naninitial ? NAN : osc->q0; /* not through -q0: PETSc 3.21+ refuses NaN option values */
  u[1] = osc->p0;
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, T / nsteps));
  PetscCall(TSSetMaxSteps(ts, nsteps));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  err->osc = osc;
  err->dt  = T / nsteps;
  err->ep = err->eq = err->eH = 0;
  err->H0                     = 0.5 * osc->p0 * osc->p0 / osc->mass + 0.5 * osc->mass * osc->omega * osc->omega * osc->q0 * osc->q0;
  PetscCall(TSMonitorSet(ts, MonitorErrors, err, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Oscillator osc     = {2 * PETSC_PI, 1, PETSC_PI / 2, 0};
  PetscReal  periods = 1;
  PetscInt   n = 10, levels = 3, order;
  Errors     err[8];
  PetscBool  paper = PETSC_FALSE;
  /* Lobatto slides (2025) p. 27: one period, meshes 10, 20, 40, absolute energy error (see docs/papers.md) */
  const PetscReal slides[3][3] = {
    {8.952e-6, 1.393e-7, 2.170e-9 },
    {7.640e-7, 1.194e-8, 1.876e-10},
    {6.619e-5, 1.098e-6, 1.699e-8 }
  };
  TS          ts;
  const char *type;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Harmonic oscillator options", NULL);
  PetscCall(PetscOptionsReal("-omega", "Angular frequency", NULL, osc.omega, &osc.omega, NULL));
  PetscCall(PetscOptionsReal("-mass", "Mass", NULL, osc.mass, &osc.mass, NULL));
  PetscCall(PetscOptionsReal("-q0", "Initial position", NULL, osc.q0, &osc.q0, NULL));
  PetscCall(PetscOptionsReal("-p0", "Initial momentum", NULL, osc.p0, &osc.p0, NULL));
  PetscCall(PetscOptionsReal("-periods", "Integration time in periods", NULL, periods, &periods, NULL));
  PetscCall(PetscOptionsInt("-n", "Steps per period on the coarsest mesh", NULL, n, &n, NULL));
  PetscCall(PetscOptionsRangeInt("-levels", "Number of meshes, each twice finer", NULL, levels, &levels, NULL, 1, 8));
  PetscCall(PetscOptionsString("-error_case", "Deliberately bad input: nomechanics, masssize or naninitial", NULL, errorcase, errorcase, sizeof(errorcase), NULL));
  PetscCall(PetscOptionsBool("-paper", "Compare with the Lobatto slides' table (p. 27)", NULL, paper, &paper, NULL));
  PetscOptionsEnd();

  /* the scheme and its order, as the options set them */
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(TSSimpVIGetOrder(ts, &order));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Harmonic oscillator, scheme %s of order %" PetscInt_FMT ", %g period(s)\n", type, order, (double)periods));
  PetscCall(TSDestroy(&ts));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%10s %12s %12s %12s\n", "meshes", "momentum p", "state q", "energy H"));
  for (PetscInt l = 0; l < levels; l++) {
    PetscInt N = n << l;

    PetscCall(Run(&osc, periods * 2 * PETSC_PI / osc.omega, (PetscInt)(N * periods), &err[l]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%10" PetscInt_FMT " %12.4e %12.4e %12.4e\n", N, (double)err[l].ep, (double)err[l].eq, (double)err[l].eH));
  }
  if (levels > 1) {
    PetscReal op = PetscLog2Real(err[levels - 2].ep / err[levels - 1].ep), oq = PetscLog2Real(err[levels - 2].eq / err[levels - 1].eq);

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "observed orders: p %.2f, q %.2f\n", (double)op, (double)oq));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "order %" PetscInt_FMT " observed in p and q: %s\n", order, PetscAbsReal(op - order) < 0.3 && PetscAbsReal(oq - order) < 0.3 ? "yes" : "no"));
  }
  if (paper) {
    PetscBool ok = (PetscBool)(levels == 3 && n == 10);

    for (PetscInt l = 0; ok && l < 3; l++) {
      const PetscReal ours[3] = {err[l].ep, err[l].eq, err[l].eH};

      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%10" PetscInt_FMT " ratio ours/slides: p %.3f, q %.3f, H %.3f\n", n << l, (double)(ours[0] / slides[0][l]), (double)(ours[1] / slides[1][l]), (double)(ours[2] / slides[2][l])));
      for (PetscInt r = 0; r < 3; r++)
        if (PetscAbsReal(ours[r] / slides[r][l] - 1) > 0.1) ok = PETSC_FALSE;
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "within 10%% of the Lobatto slides p. 27: %s\n", ok ? "yes" : "no"));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: simpson
    args: -n 10

  test:
    suffix: midpoint
    args: -ts_simpvi_type midpoint -n 20

  test:
    suffix: lobatto2025
    args: -ts_simpvi_type lobatto -paper

  test:
    suffix: snes_viewers
    # the dense SNES's solves skip SNESSolve()'s viewer lookups only when none was asked: one line per step here
    args: -levels 1 -n 10 -snes_converged_reason
    filter: grep -c "Nonlinear solve converged due to"

  test:
    suffix: jacobian
    args: -levels 1 -ts_simpvi_type lobatto -snes_test_jacobian
    filter: grep "Jfd||_F/||J||_F = " | awk '/e-(0[6-9]|1[0-9])/ {good++} END {print "every Jacobian check below 1e-6:", (NR > 0 && good == NR) ? "yes" : "no"}'

  testset:
    args: -levels 1 -petsc_ci_portable_error_output -error_output_stdout
    filter: grep -E "ERROR: [A-Z]" | grep -v "See https"
    test:
      suffix: err_scheme
      args: -ts_simpvi_type nope
    test:
      suffix: err_degree
      args: -ts_simpvi_type simpson -ts_simpvi_degree 3
    test:
      suffix: err_degree_range
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 0
    test:
      suffix: err_step
      args: -ts_dt -0.1
    test:
      suffix: err_adapt
      args: -ts_adapt_type basic
    test:
      suffix: err_nan
      args: -error_case naninitial
    test:
      suffix: err_nomechanics
      args: -error_case nomechanics
    test:
      suffix: err_masssize
      args: -error_case masssize

  # every SNES type runs the tutorial (issue 21): newtonls, simpvidense and kinsol solve its steps to its default
  # output; ksponly takes one Newton step per step (the wrong answer for a nonlinear problem), so only its run counts
  test:
    suffix: snes_types
    args: -n 10 -snes_type {{newtonls simpvidense}shared output}
    output_file: output/ex1_simpson.out
  test:
    suffix: snes_kinsol
    requires: kinsol
    args: -n 10 -snes_type kinsol
    output_file: output/ex1_simpson.out
  test:
    suffix: snes_ksponly
    args: -n 10 -snes_type ksponly
    filter: awk 'END {print "ran to the end:", (NR > 0) ? "yes" : "no"}'

TEST*/
