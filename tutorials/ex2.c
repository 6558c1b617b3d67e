static char help[] = "Nonlinear pendulum q'' + omega^2 sin q = 0 by TSSIMPVI through the Lagrangian door, against its exact solution\n"
                     "by Jacobi elliptic functions (GSL). Prints the maximum errors over all steps of p, q and the relative energy,\n"
                     "with observed orders, for several schemes and meshes; -paper fvca2023 or -paper lobatto2025 puts the seeds'\n"
                     "printed tables beside ours.\n"
                     "Options: -omega <2 pi> -theta0 <pi/2> -periods <1> -schemes midpoint,simpson -meshes 50,100,200 -paper <none>\n\n";

#include <simpvi.h>
#include <gsl/gsl_sf_elljac.h>
#include <gsl/gsl_sf_ellint.h>

typedef struct {
  PetscReal omega, mass, theta0;
  PetscReal k, K, period; /* modulus k = sin(theta0/2), K = K(k^2), period 4K/omega */
} Pendulum;

typedef struct {
  Pendulum *pen;
  PetscReal ep, eq, eH, H0, dt;
} Errors;

/* L = 1/2 m v^2 - m omega^2 (1 - cos x) */
static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  Pendulum          *pen = (Pendulum *)ctx;
  const PetscReal    mw2 = pen->mass * pen->omega * pen->omega;
  const PetscScalar *xx, *vv;
  PetscScalar       *gx, *gv;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(Lx, &gx));
  PetscCall(VecGetArrayWrite(Lv, &gv));
  *L    = 0.5 * pen->mass * vv[0] * vv[0] - mw2 * (1 - PetscCosReal(xx[0]));
  gx[0] = -mw2 * PetscSinReal(xx[0]);
  gv[0] = pen->mass * vv[0];
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(Lx, &gx));
  PetscCall(VecRestoreArrayWrite(Lv, &gv));
  PetscFunctionReturn(0);
}

static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  Pendulum          *pen = (Pendulum *)ctx;
  const PetscScalar *xx;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(MatSetValue(Lxx, 0, 0, -pen->mass * pen->omega * pen->omega * PetscCosReal(xx[0]), INSERT_VALUES));
  PetscCall(MatSetValue(Lvv, 0, 0, pen->mass, INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Lvv, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lvv, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* sin(q/2) = k sn(K - omega t, k^2), p = m q' = -2 m omega k cn(K - omega t, k^2)  (FVCA 2023, annex) */
static void Exact(const Pendulum *pen, PetscReal t, PetscReal *q, PetscReal *p)
{
  double sn, cn, dn;

  gsl_sf_elljac_e(pen->K - pen->omega * t, pen->k * pen->k, &sn, &cn, &dn);
  *q = 2 * PetscAsinReal(pen->k * sn);
  *p = -2 * pen->mass * pen->omega * pen->k * cn;
}

static PetscReal Energy(const Pendulum *pen, PetscReal q, PetscReal p)
{
  return 0.5 * p * p / pen->mass + pen->mass * pen->omega * pen->omega * (1 - PetscCosReal(q));
}

static PetscErrorCode MonitorErrors(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Errors            *err = (Errors *)ctx;
  const PetscScalar *u;
  PetscReal          qe, pe;

  PetscFunctionBeginUser;
  t = step * err->dt; /* the scheme's t_j = j h, free of the round-off that accumulates in the TS time */
  Exact(err->pen, t, &qe, &pe);
  PetscCall(VecGetArrayRead(U, &u));
  err->eq = PetscMax(err->eq, PetscAbsReal(u[0] - qe));
  err->ep = PetscMax(err->ep, PetscAbsReal(u[1] - pe));
  err->eH = PetscMax(err->eH, PetscAbsReal(Energy(err->pen, u[0], u[1]) - err->H0) / err->H0);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static char tstype[64]; /* the TS type of the last run: simpvi, or a PETSc type chosen with -ts_type */

static PetscErrorCode Run(Pendulum *pen, const char scheme[], PetscReal T, PetscInt nsteps, Errors *err)
{
  TS           ts;
  Vec          U;
  Mat          Lxx, Lvv;
  PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, scheme));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &Lxx));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &Lvv));
  PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, pen));
  PetscCall(TSSimpVISetLagrangianHessian(ts, Lxx, NULL, Lvv, LagrangianHessian, pen));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U)); /* U = (q, p) */
  PetscCall(VecGetArrayWrite(U, &u));
  u[0] = pen->theta0;
  u[1] = 0;
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, T / nsteps));
  PetscCall(TSSetMaxSteps(ts, nsteps));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  err->pen = pen;
  err->dt  = T / nsteps;
  err->ep = err->eq = err->eH = 0;
  err->H0                     = Energy(pen, pen->theta0, 0);
  PetscCall(TSMonitorSet(ts, MonitorErrors, err, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVISetUpPhaseSpace(ts)); /* for -ts_type rk, theta, ... : the same pendulum in phase space */
  {
    TSType type;

    PetscCall(TSGetType(ts, &type));
    PetscCall(PetscStrncpy(tstype, type, sizeof(tstype)));
  }
  PetscCall(TSSolve(ts, U));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&Lxx));
  PetscCall(MatDestroy(&Lvv));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

/* The seeds' printed values, meshes 50, 100, 200 over one period (see docs/papers.md for the conventions) */
typedef struct {
  const char *paper, *scheme, *label;
  PetscReal   p[3], q[3], H[3];
} PaperRows;

static const PaperRows papers[] = {
  {"fvca2023",    "midpoint", "Newmark",            {2.93e-2, 7.32e-3, 1.83e-3},      {5.26e-3, 1.31e-3, 3.29e-4},       {9.06e-4, 2.29e-4, 5.73e-5}      },
  {"fvca2023",    "simpson",  "Symplectic Simpson", {6.08e-6, 3.78e-7, 2.36e-8},      {1.05e-6, 6.51e-8, 4.06e-9},       {1.30e-6, 8.42e-8, 5.25e-9}      },
  {"lobatto2025", "lobatto",  "Lobatto",            {2.832e-9, 4.567e-11, 7.070e-13}, {4.218e-10, 6.692e-12, 1.057e-13}, {6.234e-10, 1.028e-11, 1.589e-13}},
};

static PetscErrorCode PrintRow(const char label[], const char quantity[], const PetscReal e[], PetscInt n, const PetscReal *paper, PetscReal tol, PetscBool *ok)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-20s %-16s", label, quantity));
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10.3e", (double)e[i]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %4.1f\n", (double)(n > 1 ? PetscLog2Real(e[n - 2] / e[n - 1]) : 0)));
  if (paper) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-20s %-16s", "  paper", ""));
    for (PetscInt i = 0; i < n; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10.3e", (double)paper[i]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%-20s %-16s", "  ratio ours/paper", ""));
    for (PetscInt i = 0; i < n; i++) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10.3f", (double)(e[i] / paper[i])));
      if (PetscAbsReal(e[i] / paper[i] - 1) > tol) *ok = PETSC_FALSE;
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Pendulum  pen     = {2 * PETSC_PI, 1, PETSC_PI / 2, 0, 0, 0};
  PetscReal periods = 1, tol      = 0.05;
  char     *schemes[8], paper[32] = "none";
  PetscInt  nschemes = 8, meshes[8] = {50, 100, 200}, nmeshes = 8;
  PetscBool flg, allok = PETSC_TRUE, compared = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Nonlinear pendulum options", NULL);
  PetscCall(PetscOptionsReal("-omega", "Angular frequency of the small oscillations", NULL, pen.omega, &pen.omega, NULL));
  PetscCall(PetscOptionsReal("-theta0", "Initial angle, at rest, in (0, pi)", NULL, pen.theta0, &pen.theta0, NULL));
  PetscCall(PetscOptionsReal("-periods", "Integration time in (nonlinear) periods", NULL, periods, &periods, NULL));
  PetscCall(PetscOptionsStringArray("-schemes", "TSSIMPVI schemes to compare", NULL, schemes, &nschemes, &flg));
  if (!flg) {
    nschemes = 2;
    PetscCall(PetscStrallocpy("midpoint", &schemes[0]));
    PetscCall(PetscStrallocpy("simpson", &schemes[1]));
  }
  PetscCall(PetscOptionsIntArray("-meshes", "Steps per period", NULL, meshes, &nmeshes, &flg));
  if (!flg) nmeshes = 3;
  PetscCall(PetscOptionsString("-paper", "Compare with a seed's table: fvca2023 or lobatto2025", NULL, paper, paper, sizeof(paper), NULL));
  PetscCall(PetscOptionsReal("-paper_tolerance", "Largest relative difference from the paper accepted", NULL, tol, &tol, NULL));
  PetscOptionsEnd();
  PetscCheck(pen.theta0 > 0 && pen.theta0 < PETSC_PI, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "theta0 must lie in (0, pi)");

  pen.k      = PetscSinReal(pen.theta0 / 2);
  pen.K      = gsl_sf_ellint_Kcomp(pen.k, GSL_PREC_DOUBLE); /* GSL takes the modulus k */
  pen.period = 4 * pen.K / pen.omega;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Nonlinear pendulum, theta0 %g, period %.6f s, %g period(s); maxima over all steps\n", (double)pen.theta0, (double)pen.period, (double)periods));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-20s %-16s", "", "number of meshes"));
  for (PetscInt i = 0; i < nmeshes; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10" PetscInt_FMT, meshes[i]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  order\n"));

  for (PetscInt s = 0; s < nschemes; s++) {
    Errors           err;
    PetscReal        ep[8], eq[8], eH[8];
    const PaperRows *ref   = NULL;
    const char      *label = schemes[s];
    PetscInt         order;

    for (size_t r = 0; r < sizeof(papers) / sizeof(papers[0]); r++) {
      PetscBool m1, m2;

      PetscCall(PetscStrcmp(papers[r].paper, paper, &m1));
      PetscCall(PetscStrcmp(papers[r].scheme, schemes[s], &m2));
      if (m1 && m2 && nmeshes == 3 && meshes[0] == 50 && meshes[1] == 100 && meshes[2] == 200) ref = &papers[r];
    }
    if (ref) label = ref->label;
    for (PetscInt i = 0; i < nmeshes; i++) {
      PetscCall(Run(&pen, schemes[s], periods * pen.period, (PetscInt)(meshes[i] * periods), &err));
      ep[i] = err.ep;
      eq[i] = err.eq;
      eH[i] = err.eH;
    }
    {
      PetscBool issimpvi;

      PetscCall(PetscStrcmp(tstype, TSSIMPVI, &issimpvi));
      if (!issimpvi) label = tstype; /* e.g. -ts_type rk: PETSc's own integrator on the phase-space form */
    }
    PetscCall(PrintRow(label, "momentum", ep, nmeshes, ref ? ref->p : NULL, tol, &allok));
    PetscCall(PrintRow(label, "state", eq, nmeshes, ref ? ref->q : NULL, tol, &allok));
    PetscCall(PrintRow(label, "relative energy", eH, nmeshes, ref ? ref->H : NULL, tol, &allok));
    if (ref) compared = PETSC_TRUE;

    /* the order the scheme promises (PETSc's other types, chosen by -ts_type, report their observed order only) */
    {
      TS        ts;
      PetscBool issimpvi;

      PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
      PetscCall(TSSetType(ts, TSSIMPVI));
      PetscCall(TSSimpVISetType(ts, schemes[s]));
      PetscCall(TSSetFromOptions(ts));
      PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &issimpvi));
      if (issimpvi) PetscCall(TSSimpVIGetOrder(ts, &order));
      else order = 0;
      PetscCall(TSDestroy(&ts));
    }
    if (nmeshes > 1 && !order) {
      PetscReal op = PetscLog2Real(ep[nmeshes - 2] / ep[nmeshes - 1]), oq = PetscLog2Real(eq[nmeshes - 2] / eq[nmeshes - 1]);

      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: observed order %d in p and %d in q\n", label, (int)(op + 0.5), (int)(oq + 0.5)));
    }
    if (nmeshes > 1 && order) {
      PetscReal op = PetscLog2Real(ep[nmeshes - 2] / ep[nmeshes - 1]), oq = PetscLog2Real(eq[nmeshes - 2] / eq[nmeshes - 1]);
      PetscBool ok = (PetscBool)(PetscAbsReal(op - order) < 0.3 && PetscAbsReal(oq - order) < 0.3);

      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: order %" PetscInt_FMT " observed in p and q: %s\n", schemes[s], order, ok ? "yes" : "no"));
    }
  }
  if (compared) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "within %d%% of the paper %s: %s\n", (int)(100 * tol + 0.5), paper, allok ? "yes" : "no"));
  for (PetscInt s = 0; s < nschemes; s++) PetscCall(PetscFree(schemes[s]));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: fvca2023
    args: -paper fvca2023

  test:
    suffix: lobatto2025
    args: -schemes lobatto -paper lobatto2025 -paper_tolerance 0.1

  test:
    suffix: jacobian
    args: -meshes 8 -schemes midpoint,simpson,lobatto -snes_test_jacobian
    filter: grep "Jfd||_F/||J||_F = " | awk '/e-(0[6-9]|1[0-9])/ {good++} END {print "every Jacobian check below 1e-6:", (NR > 0 && good == NR) ? "yes" : "no"}'

  test:
    suffix: rk4
    args: -schemes midpoint -ts_type rk -ts_rk_type 4 -ts_adapt_type none

  test:
    suffix: theta
    args: -schemes midpoint -ts_type theta -ts_theta_theta 0.5 -ts_adapt_type none

  # every SNES type runs the tutorial (issue 21): newtonls, simpvidense and kinsol solve its steps to its default
  # output; ksponly takes one Newton step per step (the wrong answer for a nonlinear problem), so only its run counts
  test:
    suffix: snes_types
    args: -paper fvca2023 -snes_type {{newtonls simpvidense}shared output}
    output_file: output/ex2_fvca2023.out
  test:
    suffix: snes_kinsol
    requires: kinsol
    args: -paper fvca2023 -snes_type kinsol
    output_file: output/ex2_fvca2023.out
  test:
    suffix: snes_ksponly
    args: -paper fvca2023 -snes_type ksponly
    filter: awk 'END {print "ran to the end:", (NR > 0) ? "yes" : "no"}'

TEST*/
