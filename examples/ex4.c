static char help[] = "The Lagrange top in Euler angles q = (phi, theta, psi), a configuration-dependent mass M(theta), by TSSIMPVI\n"
                     "(Rojas-Quintero, Dubois, Jourdan 2025, section 4, Table 3 data) against the exact nutation theta(t) (Jacobi sn,\n"
                     "GSL). Prints the maxima over all steps of the relative nutation and energy errors with fitted orders, and the\n"
                     "drift of the cyclic momenta p_phi, p_psi; -paper lagrangetop2025 puts the paper's Tables 4 and 5 beside ours.\n"
                     "Methods: TSSIMPVI schemes (midpoint, simpson, lobatto, ...), rk4v (PETSc RK4 on the velocity form (q, q'), the\n"
                     "paper's RK4), rk4 and theta (PETSc RK4 and theta 0.5 on the phase-space form of TSSimpVISetUpPhaseSpace()).\n"
                     "The same program runs under any PETSc integrator: -methods midpoint -ts_type rk -ts_rk_type 4 -ts_adapt_type none.\n"
                     "Options: -methods midpoint,rk4v,simpson -meshes 50,100,200 (steps per nutation period) -periods 1 (list)\n"
                     "         -door mechanical|lagrangian -paper <none> -paper_tolerance 0.1 -trajectory <prefix> -trajectory_stride 1\n"
                     "         -convergence_file <file>\n"
                     "-compare_kinsol: repeat each TSSIMPVI run with SUNDIALS KINSOL and compare (examples/kinsolcompare.h)\n\n";

/*
   The top, its two doors, its velocity form and the exact nutation (the reference of Tables 4 and 5) are in
   models/lagrangetop.h, shared with ex5.c.
*/
#include <simpvi.h>
#include "models/lagrangetop.h"
#include "kinsolcompare.h"
#include "workprecision.h"

#define NMAX 8 /* at most this many methods, meshes and simulation lengths */

typedef enum {
  DOOR_MECHANICAL,
  DOOR_LAGRANGIAN
} Door;
static const char *const Doors[] = {"mechanical", "lagrangian", "Door", "DOOR_", NULL};

/* ---------------------------------------------------------------------------------------------------------- */
/* Runs                                                                                                         */

typedef struct {
  Top      *top;
  PetscReal h;                   /* step, seconds */
  PetscInt  ncheck, check[NMAX]; /* steps at which the running maxima are recorded */
  PetscReal eth, eH, dp;         /* running maxima: relative nutation, energy, momenta errors */
  PetscReal ethT[NMAX], eHT[NMAX], dpT[NMAX];
  FILE     *fp;
  PetscInt  stride;
  PetscBool velocity; /* U = (q, v) instead of (q, p) */
} Errors;

static PetscErrorCode MonitorErrors(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Errors            *err = (Errors *)ctx;
  const Top         *top = err->top;
  const PetscScalar *uu;
  PetscScalar        u[6];
  PetscReal          th, the, eth, eH, dphi, dpsi;

  PetscFunctionBeginUser;
  t = step * err->h; /* the scheme's t_j = j h, free of the round-off that accumulates in the TS time */
  PetscCall(VecGetArrayRead(U, &uu));
  for (PetscInt i = 0; i < 6; i++) u[i] = uu[i];
  PetscCall(VecRestoreArrayRead(U, &uu));
  if (err->velocity) { /* p = M(q) v */
    PetscReal   M[3][3];
    PetscScalar v[3] = {u[3], u[4], u[5]};

    MassMatrix(top, PetscRealPart(u[1]), M);
    for (PetscInt i = 0; i < 3; i++) u[3 + i] = M[i][0] * v[0] + M[i][1] * v[1] + M[i][2] * v[2];
  }
  th       = PetscRealPart(u[1]);
  the      = ExactTheta(top, t);
  eth      = (th - the) / the;
  eH       = (Energy(top, u) - top->H0) / top->H0;
  dphi     = (PetscRealPart(u[3]) - top->p0[0]) / top->p0[0];
  dpsi     = (PetscRealPart(u[5]) - top->p0[2]) / top->p0[2];
  err->eth = PetscMax(err->eth, PetscAbsReal(eth));
  err->eH  = PetscMax(err->eH, PetscAbsReal(eH));
  err->dp  = PetscMax(err->dp, PetscMax(PetscAbsReal(dphi), PetscAbsReal(dpsi)));
  for (PetscInt i = 0; i < err->ncheck; i++)
    if (step == err->check[i]) {
      err->ethT[i] = err->eth;
      err->eHT[i]  = err->eH;
      err->dpT[i]  = err->dp;
    }
  if (err->fp && step % err->stride == 0) PetscCall(PetscFPrintf(PETSC_COMM_SELF, err->fp, "%.10e %.16e %.16e %.6e %.6e %.6e %.6e\n", (double)(t / top->period), (double)th, (double)the, (double)eth, (double)eH, (double)dphi, (double)dpsi));
  PetscFunctionReturn(0);
}

typedef struct {
  const char *name, *label; /* -methods entry and the paper's row name */
} Method;

static const Method methods[] = {
  /* the first three are the paper's rows */
  {"midpoint", "Implicit midpoint"},
  {"rk4v",     "Explicit RK4"     },
  {"simpson",  "Simpson"          },
  {"rk4",      "RK4 phase space"  },
  {"theta",    "theta 0.5"        },
};

typedef struct {
  Door        door;
  const char *trajectory; /* file prefix, or NULL */
  PetscInt    stride;
} Options;

static KINSOLCompare kinsolcompare; /* -compare_kinsol */

/* One run of nsteps = periods[nT-1] * meshes steps of h = tbar / meshes; the maxima up to each periods[i] are kept, so
   one run to the longest T gives every shorter T of Tables 4 and 5 (the same steps as separate runs) */
static PetscErrorCode Run(Top *top, const Options *opt, const char method[], PetscInt meshes, PetscInt nT, const PetscReal periods[], Errors *err, char label[], size_t len, PetscBool *issimpvi, PetscBool *replaced)
{
  TS            ts;
  SNES          snes;
  TSAdapt       adapt;
  Vec           U;
  Mat           A[4];
  PetscScalar  *u;
  PetscBool     isrk4, istheta, isrk4v;
  PetscInt      nsteps = (PetscInt)(periods[nT - 1] * meshes + 0.5);
  char          fname[PETSC_MAX_PATH_LEN];
  WorkPrecision wp;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(method, "rk4", &isrk4));
  PetscCall(PetscStrcmp(method, "theta", &istheta));
  PetscCall(PetscStrcmp(method, "rk4v", &isrk4v));
  PetscCall(PetscStrncpy(label, method, len));
  for (size_t m = 0; m < sizeof(methods) / sizeof(methods[0]); m++) {
    PetscBool match;

    PetscCall(PetscStrcmp(method, methods[m].name, &match));
    if (match) PetscCall(PetscStrncpy(label, methods[m].label, len));
  }
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 3, 3, NULL, &A[i]));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  if (isrk4 || isrk4v) {
    PetscCall(TSSetType(ts, TSRK));
    PetscCall(TSRKSetType(ts, TSRK4));
  } else if (istheta) {
    PetscCall(TSSetType(ts, TSTHETA));
    PetscCall(TSThetaSetTheta(ts, 0.5));
    PetscCall(TSGetSNES(ts, &snes));
    PetscCall(SNESSetTolerances(snes, 1e-15, 1e-12, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  } else {
    PetscCall(TSSetType(ts, TSSIMPVI));
    PetscCall(TSSimpVISetType(ts, method));
  }
  PetscCall(TSGetAdapt(ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
  if (isrk4v) PetscCall(TSSetRHSFunction(ts, NULL, RHSVelocity, top));
  else if (opt->door == DOOR_MECHANICAL) {
    PetscCall(TSSimpVISetMass(ts, A[0], A[1], A[2], Mass, top));
    PetscCall(TSSimpVISetPotential(ts, A[3], Potential, PotentialHessian, top));
  } else {
    PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, top));
    PetscCall(TSSimpVISetLagrangianHessian(ts, A[0], A[1], A[2], LagrangianHessian, top));
  }
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6, &U)); /* U = (q, p), or (q, v) for rk4v */
  PetscCall(VecGetArrayWrite(U, &u));
  for (PetscInt i = 0; i < 3; i++) {
    u[i]     = top->q0[i];
    u[3 + i] = isrk4v ? top->v0[i] : top->p0[i];
  }
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  err->velocity = isrk4v;
  err->top      = top;
  err->h        = top->period / meshes;
  err->eth = err->eH = err->dp = 0;
  err->ncheck                  = nT;
  for (PetscInt i = 0; i < nT; i++) err->check[i] = (PetscInt)(periods[i] * meshes + 0.5);
  err->fp     = NULL;
  err->stride = opt->stride;
  PetscCall(TSSetTimeStep(ts, err->h));
  PetscCall(TSSetMaxSteps(ts, nsteps));
  PetscCall(TSSetMaxTime(ts, 2 * nsteps * err->h));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_STEPOVER));
  PetscCall(TSMonitorSet(ts, MonitorErrors, err, NULL));
  PetscCall(TSSetFromOptions(ts));
  if (!isrk4v) PetscCall(TSSimpVISetUpPhaseSpace(ts)); /* for -ts_type rk, theta, ... : the same top in phase space */
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, issimpvi));
  { /* -ts_type chose another integrator than the method's: name the row after it */
    TSType    type;
    PetscBool same;

    PetscCall(TSGetType(ts, &type));
    PetscCall(PetscStrcmp(type, isrk4 || isrk4v ? TSRK : istheta ? TSTHETA : TSSIMPVI, &same));
    *replaced = (PetscBool)!same;
    if (*replaced) PetscCall(PetscStrncpy(label, type, len));
  }
  if (opt->trajectory) {
    PetscCall(PetscSNPrintf(fname, sizeof(fname), "%s_%s_%" PetscInt_FMT ".dat", opt->trajectory, method, meshes));
    PetscCall(PetscFOpen(PETSC_COMM_SELF, fname, "w", &err->fp));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, err->fp, "# %s, %" PetscInt_FMT " steps per nutation period: t/tbar theta theta_exact e_theta e_H dp_phi/p_phi dp_psi/p_psi\n", label, meshes));
  }
  PetscCall(PetscSNPrintf(fname, sizeof(fname), "%s, %" PetscInt_FMT " steps/period", label, meshes));
  if (!isrk4v) PetscCall(WorkPrecisionSetUp(ts, NULL, NULL, &wp)); /* -wp: a record for bench/workprecision.py (U = (q, p)) */
  PetscCall(KINSOLCompareSolve(&kinsolcompare, ts, U, fname));
  if (!isrk4v) PetscCall(WorkPrecisionReport(ts, U, &wp));
  if (err->fp) PetscCall(PetscFClose(PETSC_COMM_SELF, err->fp));
  err->fp = NULL;
  {
    PetscInt steps;

    PetscCall(TSGetStepNumber(ts, &steps));
    PetscCheck(steps == nsteps, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s made %" PetscInt_FMT " steps, not %" PetscInt_FMT, label, steps, nsteps);
  }
  PetscCall(VecDestroy(&U));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatDestroy(&A[i]));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------------------------------------- */
/* The paper's Tables 4 and 5: meshes 50, 100, 200 per nutation period (printed "h = 0.05", 0.01, 0.005: the first
   is h = 0.02 tbar, see docs/papers.md), T = 1, 10, 100, 1000 periods, rows midpoint, RK4, Simpson   */

static const PetscReal paperT[4]       = {1, 10, 100, 1000};
static const PetscReal table4[4][3][3] = {
  {{1.53e-1, 3.70e-2, 9.21e-3}, {2.84e-3, 1.66e-4, 1.01e-5}, {2.66e-4, 1.64e-5, 1.02e-6}},
  {{3.22e0, 5.48e-1, 1.21e-1},  {9.32e-2, 3.72e-3, 1.71e-4}, {1.61e-3, 9.46e-5, 5.81e-6}},
  {{2.10e1, 2.10e1, 2.11e0},    {2.10e1, 2.36e-1, 7.31e-3},  {1.62e-2, 9.41e-4, 5.77e-5}},
  {{2.10e1, 2.10e1, 2.10e1},    {2.10e1, 2.10e1, 8.41e-1},   {1.79e-1, 9.45e-3, 5.77e-4}},
};
static const PetscReal order4[4][3] = {
  {2.03, 4.07, 4.01},
  {2.37, 4.55, 4.06},
  {1.66, 5.74, 4.07},
  {0.00, 2.32, 4.14},
};
static const PetscReal table5[4][3][3] = {
  {{1.02e-5, 2.60e-6, 6.52e-7}, {6.73e-7, 4.47e-8, 2.87e-9}, {3.56e-8, 2.20e-9, 1.37e-10}},
  {{1.02e-5, 2.60e-6, 6.52e-7}, {1.28e-6, 4.47e-8, 2.87e-9}, {3.56e-8, 2.20e-9, 1.37e-10}},
  {{1.02e-5, 2.60e-6, 6.52e-7}, {1.32e-5, 4.30e-7, 1.37e-8}, {3.58e-8, 2.20e-9, 1.37e-10}},
  {{1.02e-5, 2.60e-6, 6.52e-7}, {1.28e-4, 4.30e-6, 1.37e-7}, {3.64e-8, 2.20e-9, 1.37e-10}},
};
static const PetscReal order5[4][3] = {
  {1.99, 3.94, 4.01},
  {1.99, 4.40, 4.01},
  {1.99, 4.96, 4.01},
  {1.99, 4.93, 4.02},
};

/* least-squares slope of log e against log h (for meshes doubling, the paper's "convergence order") */
static PetscReal FitOrder(PetscInt n, const PetscInt meshes[], const PetscReal e[])
{
  PetscReal sx = 0, sy = 0, sxx = 0, sxy = 0, o;

  if (n < 2) return 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal x = PetscLogReal((PetscReal)meshes[i]), y = -PetscLogReal(e[i]);

    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  o = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return PetscAbsReal(o) < 5e-3 ? 0 : o; /* saturated errors: print 0.00, not -0.00 */
}

/* The paper's row of (T, method), or NULL */
static PetscInt PaperRow(PetscReal T, const char method[], PetscInt *mrow)
{
  PetscInt t = -1;

  *mrow = -1;
  for (PetscInt i = 0; i < 4; i++)
    if (T == paperT[i]) t = i;
  for (PetscInt m = 0; m < 3; m++) {
    if (!strcmp(method, methods[m].name)) *mrow = m;
  }
  return *mrow < 0 ? -1 : t;
}

int main(int argc, char **argv)
{
  Top       top;
  Options   opt = {DOOR_MECHANICAL, NULL, 1};
  char     *mnames[NMAX], paper[32] = "none", trajectory[PETSC_MAX_PATH_LEN] = "", convfile[PETSC_MAX_PATH_LEN] = "";
  PetscInt  nmethods = NMAX, meshes[NMAX] = {50, 100, 200}, nmeshes = NMAX, nT = NMAX;
  PetscReal periods[NMAX] = {1}, tol = 0.1;
  PetscReal eth[NMAX][NMAX][NMAX], eH[NMAX][NMAX][NMAX], dp[NMAX][NMAX]; /* [method][T][mesh], [method][T] */
  char      labels[NMAX][64];
  PetscBool flg, ispaper, simpvi[NMAX], replaced[NMAX], paperok[2][NMAX], ordersok[NMAX], compared[NMAX];
  FILE     *cf = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  /* Table 3: m = 0.1 kg, I = 2.33e-3 and I3 = 1.25e-4 kg m^2, l = 0.15 m, q0 = (0, pi/3, 0), q0' = (9.2, 0, 252) rad/s */
  PetscCall(PetscMemzero(&top, sizeof(top)));
  top.mass  = 1.00e-1;
  top.g     = 9.81;
  top.l     = 1.50e-1;
  top.I1    = 2.33e-3;
  top.I3    = 1.25e-4;
  top.q0[1] = PETSC_PI / 3;
  top.v0[0] = 9.2;
  top.v0[2] = 252;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Lagrange top options", NULL);
  PetscCall(PetscOptionsString("-paper", "Compare with a seed's tables: lagrangetop2025", NULL, paper, paper, sizeof(paper), NULL));
  PetscCall(PetscStrcmp(paper, "lagrangetop2025", &ispaper));
  PetscCheck(ispaper || !strcmp(paper, "none"), PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown -paper %s: lagrangetop2025 or none", paper);
  if (ispaper) {
    periods[1] = 10;
    periods[2] = 100;
  }
  PetscCall(PetscOptionsStringArray("-methods", "midpoint, simpson, ... (TSSIMPVI schemes), rk4 (PETSc RK4), theta (PETSc theta 0.5)", NULL, mnames, &nmethods, &flg));
  if (!flg) {
    nmethods = 3;
    PetscCall(PetscStrallocpy("midpoint", &mnames[0]));
    PetscCall(PetscStrallocpy("rk4v", &mnames[1]));
    PetscCall(PetscStrallocpy("simpson", &mnames[2]));
  }
  PetscCall(PetscOptionsIntArray("-meshes", "Steps per nutation period", NULL, meshes, &nmeshes, &flg));
  if (!flg) nmeshes = 3;
  PetscCall(PetscOptionsRealArray("-periods", "Simulation lengths in nutation periods (increasing)", NULL, periods, &nT, &flg));
  if (!flg) nT = ispaper ? 3 : 1;
  PetscCall(PetscOptionsEnum("-door", "How the top is given to the library", NULL, Doors, (PetscEnum)opt.door, (PetscEnum *)&opt.door, NULL));
  PetscCall(PetscOptionsReal("-paper_tolerance", "Largest relative difference from the paper accepted at T = 1", NULL, tol, &tol, NULL));
  PetscCall(PetscOptionsString("-trajectory", "Write t, theta, theta_exact and the errors of every run to <prefix>_<method>_<meshes>.dat", NULL, trajectory, trajectory, sizeof(trajectory), NULL));
  PetscCall(PetscOptionsInt("-trajectory_stride", "Write every n-th step", NULL, opt.stride, &opt.stride, NULL));
  PetscCall(PetscOptionsString("-convergence_file", "Write method, meshes, h/tbar, e_theta, e_H at the first T to this file", NULL, convfile, convfile, sizeof(convfile), NULL));
  PetscOptionsEnd();
  PetscCall(KINSOLCompareSetFromOptions(&kinsolcompare));
  for (PetscInt i = 1; i < nT; i++) PetscCheck(periods[i] > periods[i - 1], PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-periods must increase");
  if (trajectory[0]) opt.trajectory = trajectory;
  PetscCheck(opt.stride > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-trajectory_stride must be positive");

  PetscCall(TopSetUp(&top));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Lagrange top (Table 3), %s door: nutation period %.6f s, theta in [%.4f, %.4f] rad\n", Doors[opt.door], (double)top.period, (double)(2 * PetscAsinReal(PetscSqrtReal(top.c2 / 2))), (double)top.q0[1]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "nutation period 1.846708 s as in the paper: %s\n", PetscAbsReal(top.period - 1.846708) < 1e-6 ? "yes" : "no"));
  /* the exact solution returns to theta0 after one period and satisfies the energy integral at a quarter period */
  {
    const PetscReal t = 0.3 * top.period, h = 1e-5 * top.period, th = ExactTheta(&top, t), dth = (ExactTheta(&top, t + h) - ExactTheta(&top, t - h)) / (2 * h);
    const PetscReal s = PetscSinReal(th), c = PetscCosReal(th), d = top.p0[0] - top.p0[2] * c;
    const PetscReal H  = 0.5 * top.I1 * dth * dth + 0.5 * d * d / (top.I1 * s * s) + 0.5 * top.p0[2] * top.p0[2] / top.I3 + top.mass * top.g * top.l * c;
    const PetscBool ok = (PetscBool)(PetscAbsReal(ExactTheta(&top, top.period) - top.q0[1]) < 1e-13 && PetscAbsReal(ExactTheta(&top, 0) - top.q0[1]) < 1e-13 && PetscAbsReal(H - top.H0) < 1e-9 * top.H0);

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "exact nutation periodic and on the energy level: %s\n", ok ? "yes" : "no"));
  }

  for (PetscInt t = 0; t < nT; t++) paperok[0][t] = paperok[1][t] = ordersok[t] = PETSC_TRUE, compared[t] = PETSC_FALSE;
  if (convfile[0]) PetscCall(PetscFOpen(PETSC_COMM_SELF, convfile, "w", &cf));
  for (PetscInt m = 0; m < nmethods; m++) {
    for (PetscInt i = 0; i < nmeshes; i++) {
      Errors err;

      PetscCall(Run(&top, &opt, mnames[m], meshes[i], nT, periods, &err, labels[m], sizeof(labels[m]), &simpvi[m], &replaced[m]));
      for (PetscInt t = 0; t < nT; t++) {
        eth[m][t][i] = err.ethT[t];
        eH[m][t][i]  = err.eHT[t];
        dp[m][t]     = i ? PetscMax(dp[m][t], err.dpT[t]) : err.dpT[t];
      }
      if (cf) PetscCall(PetscFPrintf(PETSC_COMM_SELF, cf, "%s %" PetscInt_FMT " %.6e %.6e %.6e\n", mnames[m], meshes[i], 1.0 / meshes[i], (double)eth[m][0][i], (double)eH[m][0][i]));
    }
  }
  if (cf) PetscCall(PetscFClose(PETSC_COMM_SELF, cf));

  /* Tables 4 and 5 */
  for (PetscInt tab = 0; tab < 2; tab++) {
    PetscBool usepaper = (PetscBool)(ispaper && nmeshes == 3 && meshes[0] == 50 && meshes[1] == 100 && meshes[2] == 200);

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%s: %s, maxima over all steps; h and T in nutation periods%s\n", tab ? "Table 5" : "Table 4", tab ? "relative energy error |H - H0|/H0" : "relative nutation error |theta - theta_ex|/theta_ex", usepaper ? " (the paper's first column \"h = 0.05\" is h = 0.02)" : ""));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-6s %-20s", "T", "method"));
    for (PetscInt i = 0; i < nmeshes; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  h = %-6.4g", 1.0 / meshes[i]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  order\n"));
    for (PetscInt t = 0; t < nT; t++) {
      for (PetscInt m = 0; m < nmethods; m++) {
        const PetscReal *e    = tab ? eH[m][t] : eth[m][t];
        PetscInt         mrow = -1, prow = usepaper ? PaperRow(periods[t], mnames[m], &mrow) : -1;

        if (replaced[m]) prow = -1;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-6g %-20s", (double)periods[t], labels[m]));
        for (PetscInt i = 0; i < nmeshes; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %10.3e", (double)e[i]));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %5.2f\n", (double)FitOrder(nmeshes, meshes, e)));
        if (prow >= 0) {
          const PetscReal *pe = tab ? table5[prow][mrow] : table4[prow][mrow];
          const PetscReal  po = tab ? order5[prow][mrow] : order4[prow][mrow];

          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-6s %-20s", "", "  paper"));
          for (PetscInt i = 0; i < 3; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %10.3e", (double)pe[i]));
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %5.2f\n%-6s %-20s", (double)po, "", "  ratio ours/paper"));
          for (PetscInt i = 0; i < 3; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %10.3f", (double)(e[i] / pe[i])));
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
          compared[t] = PETSC_TRUE;
          for (PetscInt i = 0; i < 3; i++)
            if (PetscAbsReal(e[i] / pe[i] - 1) > tol) paperok[tab][t] = PETSC_FALSE;
          if (PetscAbsReal(FitOrder(nmeshes, meshes, e) - po) > 0.2) ordersok[t] = PETSC_FALSE;
        }
      }
    }
  }

  /* verdicts: orders (the scheme's, at the first T), momenta, agreement with the paper */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  for (PetscInt m = 0; m < nmethods; m++) {
    PetscInt  order = 0;
    PetscReal o1 = FitOrder(nmeshes, meshes, eth[m][0]), o2 = FitOrder(nmeshes, meshes, eH[m][0]);

    if (simpvi[m] && !replaced[m]) {
      TS ts;

      PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
      PetscCall(TSSetType(ts, TSSIMPVI));
      PetscCall(TSSimpVISetType(ts, mnames[m]));
      PetscCall(TSSimpVIGetOrder(ts, &order));
      PetscCall(TSDestroy(&ts));
    }
    if (nmeshes > 1 && order)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: order %" PetscInt_FMT " within 0.2 in nutation and energy at T = %g: %s\n", labels[m], order, (double)periods[0], PetscAbsReal(o1 - order) < 0.2 && PetscAbsReal(o2 - order) < 0.2 ? "yes" : "no"));
    else if (nmeshes > 1) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: observed orders %d in nutation and %d in energy\n", labels[m], (int)PetscFloorReal(o1 + 0.5), (int)PetscFloorReal(o2 + 0.5)));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: p_phi and p_psi conserved to 1e-12 relative over %d nutation period(s): %s (largest drift %.1e)\n", labels[m], (int)periods[nT - 1], dp[m][nT - 1] < 1e-12 ? "yes" : "no", (double)dp[m][nT - 1]));
  }
  for (PetscInt t = 0; t < nT; t++) {
    if (!compared[t]) continue;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "T = %d: Table 4 within %d%% of the paper: %s\n", (int)periods[t], (int)(100 * tol + 0.5), paperok[0][t] ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "T = %d: Table 5 within %d%% of the paper: %s\n", (int)periods[t], (int)(100 * tol + 0.5), paperok[1][t] ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "T = %d: orders within 0.2 of the paper's: %s\n", (int)periods[t], ordersok[t] ? "yes" : "no"));
  }
  for (PetscInt m = 0; m < nmethods; m++) PetscCall(PetscFree(mnames[m]));
  PetscCall(KINSOLCompareFinalize(&kinsolcompare));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: paper
    args: -paper lagrangetop2025 -periods 1,10

  test:
    suffix: lagrangian
    args: -paper lagrangetop2025 -periods 1 -door lagrangian

  test:
    suffix: momenta
    args: -methods midpoint,simpson,rk4,theta,rk4v -meshes 50 -periods 20

  test:
    suffix: lobatto
    args: -methods lobatto,gauss -meshes 25,50,100

  test:
    suffix: jacobian
    args: -methods midpoint,simpson,lobatto -meshes 20 -door {{mechanical lagrangian}} -snes_test_jacobian
    filter: grep "Jfd||_F/||J||_F = " | awk '/e-(0[6-9]|1[0-9])/ {good++} END {print "step Jacobian matches finite differences to 1e-6 at every Newton step:", (NR > 0 && good == NR) ? "yes" : "no"}'

  test:
    suffix: rk4
    args: -methods midpoint -ts_type rk -ts_rk_type 4 -ts_adapt_type none

  test:
    suffix: theta
    args: -methods midpoint -ts_type theta -ts_theta_theta 0.5 -ts_adapt_type none

  # SNES against KINSOL on the same runs (examples/kinsolcompare.h), compared per component. KINSOL's residual scale
  # is one number for all rows, set by the spin (psi up to 460 rad): at its default -ts_simpvi_kinsol_fnormtol 1e-14
  # Newton leaves p_theta (at most 5e-3) 1.1e-12 from SNES's (2e-15 relative to max|U|), so Newton runs at 1e-16.
  # fp stops on the increment (max|dY| <= fnormtol max|Y0|): the default is at round-off already, and 1e-16 is below
  # it (it then fails, KIN_SYSFUNC_FAIL after Anderson breaks down), so fp runs at the default.
  testset:
    requires: kinsol
    nsize: {{1 2}}
    args: -methods midpoint,simpson,lobatto -meshes 50,100 -compare_kinsol
    test:
      suffix: kinsol_newton
      args: -compare_kinsol_strategies newton -ts_simpvi_kinsol_fnormtol 1e-16
    test:
      suffix: kinsol_fp
      args: -compare_kinsol_strategies fp -compare_kinsol_maa 3

TEST*/
