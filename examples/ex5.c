static char help[] = "The reduced Lagrange top (Rojas-Quintero, Dubois, Jourdan 2025, section 4.3, Table 6: I = 1, I3 = 2, m g l = 4 pi^2,\n"
                     "theta0 = pi/6, psi0' = 2 pi, a motion with cusps). The complete top (Euler angles, configuration-dependent mass) is\n"
                     "integrated by TSSIMPVI (Simpson by default); the reduced first-order system (26) for (theta, xi = theta') by PETSc's\n"
                     "RK4 with fixed steps (options prefix -reduced_). Prints Table 6 (paper, ours, ratio) and the sup over the steps of\n"
                     "|theta_SIM - theta_RK4| with the orders of Figure 14, and of each against the exact nutation (Jacobi sn, GSL).\n"
                     "The complete system runs under any PETSc integrator too: -ts_type theta -ts_theta_theta 0.5 -ts_adapt_type none.\n"
                     "Options: -T <1> (seconds) -steps 10,20,40,80 (steps per second) -g <9.81> (does not change the results)\n"
                     "-compare_kinsol: repeat each TSSIMPVI run of the complete top with SUNDIALS KINSOL and compare (examples/kinsolcompare.h)\n\n";

/*
   Table 6: m = 1, I = 1, I3 = 2, l = 4 pi^2 / g (so m g l / I = A = 4 pi^2), q0 = (0, pi/6, 0), q0' = (0, 0, 2 pi).
   Then p_psi = I3 (psi' + phi' cos theta) = 4 pi and p_phi = p_psi cos theta0 = 2 pi sqrt(3) (21), and with
   I phi' sin^2 theta = p_phi - p_psi cos theta the nutation obeys the reduced system (23)-(25):
     theta' = xi,   xi' = (A + phi'^2 cos theta - (p_psi / I) phi') sin theta,   phi' = (p_phi - p_psi cos theta)/(I sin^2 theta),
   i.e. (26): phi' = 2 pi (sqrt 3 - 2 cos theta)/sin^2 theta, xi' = (4 pi^2 + phi'^2 cos theta - 4 pi phi') sin theta.
   phi' vanishes at theta0 = theta_min (the cusps). Both the complete and the reduced system share the exact nutation
   of examples/ex4.c (energy integral, Jacobi sn); here theta0 is the upper root u2 of the cubic in u = cos theta.
   The mechanics and the exact solution are those of ex4.c, in models/lagrangetop.h.
*/
#include <simpvi.h>
#include "models/lagrangetop.h"
#include "kinsolcompare.h"

#define NMAX 8

/* ---------------------------------------------------------------------------------------------------------- */
/* Runs                                                                                                         */

/* The reduced system (23)-(25) in U = (theta, xi) */
typedef struct {
  Top      *top;
  PetscReal A, pphi, ppsi;
} Reduced;

static PetscErrorCode RHSReduced(TS ts, PetscReal t, Vec U, Vec F, void *ctx)
{
  Reduced           *red = (Reduced *)ctx;
  const PetscReal    I1  = red->top->I1;
  const PetscScalar *u;
  PetscScalar       *f;
  PetscReal          th, s, c, dphi;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayWrite(F, &f));
  th   = PetscRealPart(u[0]);
  s    = PetscSinReal(th);
  c    = PetscCosReal(th);
  dphi = (red->pphi - red->ppsi * c) / (I1 * s * s);
  f[0] = u[1];
  f[1] = (red->A + dphi * dphi * c - red->ppsi / I1 * dphi) * s;
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt   index; /* position of theta in the state */
  PetscReal *theta; /* theta_n, n = 0..nsteps */
  PetscInt   nsteps;
  Top       *top;
  PetscReal  dp; /* complete system: largest relative change of p_phi, p_psi */
  PetscBool  complete;
} Record;

static PetscErrorCode MonitorRecord(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Record            *rec = (Record *)ctx;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCheck(step <= rec->nsteps, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Step %" PetscInt_FMT " beyond the %" PetscInt_FMT " planned", step, rec->nsteps);
  PetscCall(VecGetArrayRead(U, &u));
  rec->theta[step] = PetscRealPart(u[rec->index]);
  if (rec->complete) {
    rec->dp = PetscMax(rec->dp, PetscAbsReal(PetscRealPart(u[3]) - rec->top->p0[0]) / PetscAbsReal(rec->top->p0[0]));
    rec->dp = PetscMax(rec->dp, PetscAbsReal(PetscRealPart(u[5]) - rec->top->p0[2]) / PetscAbsReal(rec->top->p0[2]));
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static KINSOLCompare kinsolcompare; /* -compare_kinsol */

/* Exactly nsteps steps of h from U: the step count ends the run, not the time */
static PetscErrorCode SetSteps(TS ts, Vec U, PetscReal h, PetscInt nsteps)
{
  PetscFunctionBeginUser;
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, nsteps));
  PetscCall(TSSetMaxTime(ts, 2 * nsteps * h));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_STEPOVER));
  PetscFunctionReturn(0);
}

/* The complete top, U = (q, p), by the TS of the default prefix (simpvi simpson unless -ts_type/-ts_simpvi_type) */
static PetscErrorCode RunComplete(Top *top, PetscReal h, PetscInt nsteps, Record *rec, char label[], size_t len, PetscInt *order)
{
  TS           ts;
  Vec          U;
  Mat          A[4];
  PetscScalar *u;
  PetscBool    issimpvi;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 3, 3, NULL, &A[i]));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, TSSIMPVISIMPSON));
  PetscCall(TSSimpVISetMass(ts, A[0], A[1], A[2], Mass, top));
  PetscCall(TSSimpVISetPotential(ts, A[3], Potential, PotentialHessian, top));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  for (PetscInt i = 0; i < 3; i++) {
    u[i]     = top->q0[i];
    u[3 + i] = top->p0[i];
  }
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(SetSteps(ts, U, h, nsteps));
  rec->index    = 1;
  rec->nsteps   = nsteps;
  rec->top      = top;
  rec->dp       = 0;
  rec->complete = PETSC_TRUE;
  PetscCall(TSMonitorSet(ts, MonitorRecord, rec, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVISetUpPhaseSpace(ts));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &issimpvi));
  if (issimpvi) {
    TSSimpVIType type;

    PetscCall(TSSimpVIGetType(ts, &type));
    PetscCall(TSSimpVIGetOrder(ts, order));
    PetscCall(PetscStrncpy(label, type, len));
  } else {
    TSType type;

    PetscCall(TSGetType(ts, &type));
    PetscCall(PetscStrncpy(label, type, len));
    *order = 0;
  }
  {
    char run[64];

    PetscCall(PetscSNPrintf(run, sizeof(run), "%s, h = %g", label, (double)h));
    PetscCall(KINSOLCompareSolve(&kinsolcompare, ts, U, run));
  }
  PetscCall(VecDestroy(&U));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatDestroy(&A[i]));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

/* The reduced system by the TS of prefix -reduced_: PETSc RK4 with fixed steps */
static PetscErrorCode RunReduced(Reduced *red, PetscReal h, PetscInt nsteps, Record *rec, char label[], size_t len)
{
  TS           ts;
  TSAdapt      adapt;
  Vec          U;
  PetscScalar *u;
  TSType       type;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetOptionsPrefix(ts, "reduced_"));
  PetscCall(TSSetType(ts, TSRK));
  PetscCall(TSRKSetType(ts, TSRK4));
  PetscCall(TSGetAdapt(ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
  PetscCall(TSSetRHSFunction(ts, NULL, RHSReduced, red));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  u[0] = red->top->q0[1];
  u[1] = red->top->v0[1];
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(SetSteps(ts, U, h, nsteps));
  rec->index    = 0;
  rec->nsteps   = nsteps;
  rec->complete = PETSC_FALSE;
  PetscCall(TSMonitorSet(ts, MonitorRecord, rec, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSGetType(ts, &type));
  PetscCall(PetscStrncpy(label, type, len));
  if (!strcmp(type, TSRK)) {
    TSRKType rktype;

    PetscCall(TSRKGetType(ts, &rktype));
    if (!strcmp(rktype, TSRK4)) PetscCall(PetscStrncpy(label, "RK4", len));
  }
  PetscCall(TSSolve(ts, U));
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Top       top;
  Reduced   red;
  PetscReal T = 1, eps[NMAX], esim[NMAX], erk[NMAX], dp = 0;
  PetscInt  steps[NMAX] = {10, 20, 40, 80}, nh = NMAX, order = 0;
  char      simlabel[64] = "", rklabel[64] = "";
  PetscBool flg, ok;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  /* Table 6: m = 1 kg, I = 1 and I3 = 2 kg m^2, l = 4 pi^2 / g, q0 = (0, pi/6, 0), q0' = (0, 0, 2 pi) rad/s */
  PetscCall(PetscMemzero(&top, sizeof(top)));
  top.mass  = 1;
  top.g     = 9.81;
  top.I1    = 1;
  top.I3    = 2;
  top.q0[1] = PETSC_PI / 6;
  top.v0[2] = 2 * PETSC_PI;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Reduced Lagrange top options", NULL);
  PetscCall(PetscOptionsReal("-T", "Final time, seconds", NULL, T, &T, NULL));
  PetscCall(PetscOptionsIntArray("-steps", "Steps per second (h = 1/steps)", NULL, steps, &nh, &flg));
  if (!flg) nh = 4;
  PetscCall(PetscOptionsReal("-g", "Gravity; l = 4 pi^2 / g keeps m g l = 4 pi^2", NULL, top.g, &top.g, NULL));
  PetscOptionsEnd();
  PetscCall(KINSOLCompareSetFromOptions(&kinsolcompare));
  top.l = 4 * PETSC_PI * PETSC_PI / top.g;
  PetscCall(TopSetUp(&top));
  red.top  = &top;
  red.A    = top.mass * top.g * top.l / top.I1;
  red.pphi = top.p0[0];
  red.ppsi = top.p0[2];

  /* Table 6 */
  {
    const char     *names[] = {"m_top [kg]", "I [kg m^2]", "I3 [kg m^2]", "A = m g l / I [s^-2]", "l [m]", "theta0 [rad]", "psi0' [rad/s]", "p_phi [kg m^2/s]", "p_psi [kg m^2/s]"};
    const PetscReal paper[] = {1, 1, 2, 4 * PETSC_PI * PETSC_PI, 4 * PETSC_PI * PETSC_PI / top.g, PETSC_PI / 6, 2 * PETSC_PI, 2 * PETSC_PI * PetscSqrtReal(3.0), 4 * PETSC_PI};
    const PetscReal ours[]  = {top.mass, top.I1, top.I3, red.A, top.l, top.q0[1], top.v0[2], top.p0[0], top.p0[2]};

    ok = PETSC_TRUE;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Table 6: reduced Lagrange top, a motion with cusps (p_phi, p_psi computed from the initial conditions)\n"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-22s %14s %14s %10s\n", "parameter", "paper", "ours", "ratio"));
    for (PetscInt i = 0; i < 9; i++) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-22s %14.6e %14.6e %10.6f\n", names[i], (double)paper[i], (double)ours[i], (double)(ours[i] / paper[i])));
      if (PetscAbsReal(ours[i] / paper[i] - 1) > 1e-14) ok = PETSC_FALSE;
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Table 6 reproduced, with p_phi = 2 pi sqrt(3) and p_psi = 4 pi (21), to 1e-14: %s\n", ok ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "exact nutation: period %.6f s, theta in [%.4f, %.4f] rad; phi' = 0 at theta0 (cusps): %s\n", (double)top.period, (double)top.q0[1], (double)(2 * PetscAsinReal(PetscSqrtReal((top.c2 + (top.w2 - top.w1)) / 2))),
                          PetscAbsReal(red.pphi - red.ppsi * PetscCosReal(top.q0[1])) < 1e-13 * red.pphi ? "yes" : "no"));
  }

  for (PetscInt i = 0; i < nh; i++) {
    const PetscReal h      = 1.0 / steps[i];
    const PetscInt  nsteps = (PetscInt)(T * steps[i] + 0.5);
    Record          sim, rk;

    PetscCall(PetscMalloc2(nsteps + 1, &sim.theta, nsteps + 1, &rk.theta));
    PetscCall(RunComplete(&top, h, nsteps, &sim, simlabel, sizeof(simlabel), &order));
    PetscCall(RunReduced(&red, h, nsteps, &rk, rklabel, sizeof(rklabel)));
    eps[i] = esim[i] = erk[i] = 0;
    for (PetscInt n = 0; n <= nsteps; n++) {
      const PetscReal the = ExactTheta(&top, n * h);

      eps[i]  = PetscMax(eps[i], PetscAbsReal(sim.theta[n] - rk.theta[n]));
      esim[i] = PetscMax(esim[i], PetscAbsReal(sim.theta[n] - the));
      erk[i]  = PetscMax(erk[i], PetscAbsReal(rk.theta[n] - the));
    }
    dp = PetscMax(dp, sim.dp);
    PetscCall(PetscFree2(sim.theta, rk.theta));
  }

  /* Figure 14: the difference, and each against the exact nutation */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nFigure 14: sup_n |theta_n - theta'_n| over %g s, %s on the complete top, %s on the reduced system (26)\n", (double)T, simlabel, rklabel));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s %16s %6s %16s %6s %16s %6s\n", "h [s]", "complete-reduced", "order", "complete-exact", "order", "reduced-exact", "order"));
  for (PetscInt i = 0; i < nh; i++) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8.5f %16.3e", (double)(1.0 / steps[i]), (double)eps[i]));
    if (i) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %6.2f", (double)(PetscLogReal(eps[i - 1] / eps[i]) / PetscLogReal((PetscReal)steps[i] / steps[i - 1]))));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %6s", ""));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %16.3e", (double)esim[i]));
    if (i) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %6.2f", (double)(PetscLogReal(esim[i - 1] / esim[i]) / PetscLogReal((PetscReal)steps[i] / steps[i - 1]))));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %6s", ""));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %16.3e", (double)erk[i]));
    if (i) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %6.2f", (double)(PetscLogReal(erk[i - 1] / erk[i]) / PetscLogReal((PetscReal)steps[i] / steps[i - 1]))));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  }
  if (nh > 1) {
    /* the order of the difference is the closest integer to each successive alpha (the paper); it is the smaller of the two orders */
    const PetscInt  expect = order && order < 4 ? order : 4, last = nh - 1;
    const PetscReal r  = PetscLogReal((PetscReal)steps[last] / steps[last - 1]);
    const PetscReal od = PetscLogReal(eps[last - 1] / eps[last]) / r, os = PetscLogReal(esim[last - 1] / esim[last]) / r, orr = PetscLogReal(erk[last - 1] / erk[last]) / r;

    const PetscBool rk4 = (PetscBool)!strcmp(rklabel, "RK4");

    if (order && rk4) {
      PetscBool all = PETSC_TRUE;

      for (PetscInt i = 1; i < nh; i++)
        if ((PetscInt)PetscFloorReal(PetscLogReal(eps[i - 1] / eps[i]) / PetscLogReal((PetscReal)steps[i] / steps[i - 1]) + 0.5) != expect) all = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s (complete) - %s (reduced): every successive order rounds to %" PetscInt_FMT ", the last within 0.2: %s\n", simlabel, rklabel, expect, all && PetscAbsReal(od - expect) < 0.2 ? "yes" : "no"));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s (complete) against the exact nutation: order %" PetscInt_FMT " within 0.2: %s\n", simlabel, order, PetscAbsReal(os - order) < 0.2 ? "yes" : "no"));
    } else {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s (complete) - %s (reduced): observed order %d\n", simlabel, rklabel, (int)PetscFloorReal(od + 0.5)));
      if (order) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s (complete) against the exact nutation: order %" PetscInt_FMT " within 0.2: %s\n", simlabel, order, PetscAbsReal(os - order) < 0.2 ? "yes" : "no"));
      else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s (complete) against the exact nutation: observed order %d\n", simlabel, (int)PetscFloorReal(os + 0.5)));
    }
    if (rk4) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s (reduced) against the exact nutation: order 4 within 0.2: %s\n", rklabel, PetscAbsReal(orr - 4) < 0.2 ? "yes" : "no"));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s (reduced) against the exact nutation: observed order %d\n", rklabel, (int)PetscFloorReal(orr + 0.5)));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: p_phi and p_psi conserved to 1e-12 relative: %s (largest drift %.1e)\n", simlabel, dp < 1e-12 ? "yes" : "no", (double)dp));
  PetscCall(KINSOLCompareFinalize(&kinsolcompare));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: table6

  test:
    suffix: midpoint
    args: -ts_simpvi_type midpoint

  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto -steps 10,20,40

  test:
    suffix: theta
    args: -ts_type theta -ts_theta_theta 0.5 -ts_adapt_type none

  # SNES against KINSOL Newton and fixed point with Anderson depth 3 on the complete top (examples/kinsolcompare.h); the
  # SNES newtonls itself, not the dense SNES type (simpvidense) that small systems get by default
  test:
    suffix: kinsol
    requires: kinsol
    args: -compare_kinsol -compare_kinsol_strategies newton,fp -ts_simpvi_small_limit 0

TEST*/
