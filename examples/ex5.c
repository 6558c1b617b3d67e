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
   The mechanics and the exact solution below are those of ex4.c.
*/
#include <simpvi.h>
#include "kinsolcompare.h"
#include <gsl/gsl_sf_elljac.h>
#include <gsl/gsl_sf_ellint.h>
#include <gsl/gsl_poly.h>

#define NMAX 8

typedef struct {
  PetscReal mass, g, l, I1, I3;      /* Table 6 */
  PetscReal q0[3], v0[3], p0[3], H0; /* initial state, momenta and energy */
  PetscReal beta;                    /* 2 m g l / I */
  PetscReal w1, w2, w3, c2;          /* roots of f(u0 + w), and 1 - u2 */
  PetscReal k, K, lambda, tau0, period;
} Top;

/* ---------------------------------------------------------------------------------------------------------- */
/* The mechanics                                                                                                */

static void MassMatrix(const Top *top, PetscReal th, PetscReal M[3][3])
{
  const PetscReal s = PetscSinReal(th), c = PetscCosReal(th);

  M[0][0] = top->I1 * s * s + top->I3 * c * c;
  M[0][1] = 0;
  M[0][2] = top->I3 * c;
  M[1][0] = 0;
  M[1][1] = top->I1;
  M[1][2] = 0;
  M[2][0] = top->I3 * c;
  M[2][1] = 0;
  M[2][2] = top->I3;
}

/* H(q, p) from the state alone, independent of the library: phi' sin^2 = (p_phi - p_psi c)/I, psi' + phi' c = p_psi/I3 */
static PetscReal Energy(const Top *top, const PetscScalar *u)
{
  const PetscReal th = PetscRealPart(u[1]), s = PetscSinReal(th), c = PetscCosReal(th);
  const PetscReal pphi = PetscRealPart(u[3]), pth = PetscRealPart(u[4]), ppsi = PetscRealPart(u[5]);
  const PetscReal d = pphi - ppsi * c;

  return 0.5 * pth * pth / top->I1 + 0.5 * d * d / (top->I1 * s * s) + 0.5 * ppsi * ppsi / top->I3 + top->mass * top->g * top->l * c;
}

static PetscErrorCode SetDense(Mat A, PetscReal a[3][3])
{
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) PetscCall(MatSetValue(A, i, j, a[i][j], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* Mechanical door. With w3 = psi' + phi' c, only theta (index 1) enters M:
   Mx(i,1) = d(M v)_i/dtheta = (2 (I - I3) s c phi' - I3 s psi', 0, -I3 s phi'),
   g_1 = 1/2 v' dM/dtheta v = (I - I3) s c phi'^2 - I3 s phi' psi',
   Mxx(1,1) = 1/2 v' d2M/dtheta2 v = (I - I3) cos(2 theta) phi'^2 - I3 c phi' psi' */
static PetscErrorCode Mass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  Top               *top = (Top *)ctx;
  const PetscScalar *xx, *vv;
  PetscScalar       *gg;
  PetscReal          A[3][3], B[3][3] = {{0}}, C[3][3] = {{0}}, th, s, c, dphi, dpsi;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  th   = PetscRealPart(xx[1]);
  dphi = PetscRealPart(vv[0]);
  dpsi = PetscRealPart(vv[2]);
  s    = PetscSinReal(th);
  c    = PetscCosReal(th);
  MassMatrix(top, th, A);
  B[0][1] = 2 * (top->I1 - top->I3) * s * c * dphi - top->I3 * s * dpsi;
  B[2][1] = -top->I3 * s * dphi;
  C[1][1] = (top->I1 - top->I3) * (c * c - s * s) * dphi * dphi - top->I3 * c * dphi * dpsi;
  PetscCall(VecGetArrayWrite(g, &gg));
  gg[0] = 0;
  gg[1] = (top->I1 - top->I3) * s * c * dphi * dphi - top->I3 * s * dphi * dpsi;
  gg[2] = 0;
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(SetDense(M, A));
  PetscCall(SetDense(Mx, B));
  PetscCall(SetDense(Mxx, C));
  PetscFunctionReturn(0);
}

/* V = m g l cos theta */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec gradV, void *ctx)
{
  Top               *top = (Top *)ctx;
  const PetscReal    mgl = top->mass * top->g * top->l;
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(gradV, &gg));
  *V    = mgl * PetscCosReal(PetscRealPart(xx[1]));
  gg[0] = 0;
  gg[1] = -mgl * PetscSinReal(PetscRealPart(xx[1]));
  gg[2] = 0;
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(gradV, &gg));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Top               *top = (Top *)ctx;
  const PetscScalar *xx;
  PetscReal          A[3][3] = {{0}};

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  A[1][1] = -top->mass * top->g * top->l * PetscCosReal(PetscRealPart(xx[1]));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(SetDense(H, A));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------------------------------------- */
/* The exact nutation (see ex4.c)                                                                               */

static PetscErrorCode TopSetUp(Top *top)
{
  const PetscReal th0 = top->q0[1], u0 = PetscCosReal(th0), s2 = PetscSinReal(th0) * PetscSinReal(th0);
  const PetscReal dphi = top->v0[0], dth = top->v0[1], beta = 2 * top->mass * top->g * top->l / top->I1;
  PetscReal       M[3][3], a, e0, d0, f0, f1, f2, w[3], r, F0;
  PetscScalar     u[6];
  int             nroots;

  PetscFunctionBeginUser;
  MassMatrix(top, th0, M);
  for (PetscInt i = 0; i < 3; i++) top->p0[i] = M[i][0] * top->v0[0] + M[i][1] * top->v0[1] + M[i][2] * top->v0[2];
  for (PetscInt i = 0; i < 3; i++) {
    u[i]     = top->q0[i];
    u[3 + i] = top->p0[i];
  }
  top->H0   = Energy(top, u);
  top->beta = beta;
  a         = top->p0[2] / top->I1;
  d0        = dphi * s2;                    /* b - a u0 */
  e0        = dth * dth + dphi * dphi * s2; /* alpha - beta u0 */
  f0        = s2 * dth * dth;
  f1        = -2 * u0 * e0 - beta * s2 + 2 * a * d0;
  f2        = -e0 + 2 * beta * u0 - a * a;
  if (f0 == 0) { /* theta0' = 0: u0 is a turning point, w = 0 a root */
    nroots = gsl_poly_solve_quadratic(beta, f2, f1, &w[0], &w[1]);
    PetscCheck(nroots == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The energy cubic has complex roots: not a top motion");
    w[2] = 0;
  } else {
    nroots = gsl_poly_solve_cubic(f2 / beta, f1 / beta, f0 / beta, &w[0], &w[1], &w[2]);
    PetscCheck(nroots == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The energy cubic has one real root: not a top motion");
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt it = 0; it < 3; it++) {
        const PetscReal x = w[i], fx = ((beta * x + f2) * x + f1) * x + f0, dfx = (3 * beta * x + 2 * f2) * x + f1;

        if (dfx != 0) w[i] = x - fx / dfx;
      }
  }
  for (PetscInt i = 0; i < 3; i++) /* sort */
    for (PetscInt j = i + 1; j < 3; j++)
      if (w[j] < w[i]) {
        PetscReal tmp = w[i];

        w[i] = w[j];
        w[j] = tmp;
      }
  top->w1 = w[0];
  top->w2 = w[1];
  top->w3 = w[2];
  PetscCheck(top->w1 <= 0 && top->w2 >= 0 && u0 + top->w2 <= 1 && u0 + top->w3 >= 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Roots of the energy cubic out of order: u0 %g, u1 %g, u2 %g, u3 %g", (double)u0, (double)(u0 + w[0]), (double)(u0 + w[1]), (double)(u0 + w[2]));
  top->c2     = 2 * PetscSinReal(th0 / 2) * PetscSinReal(th0 / 2) - top->w2; /* 1 - u2 = (1 - u0) - w2 */
  top->k      = PetscSqrtReal((top->w2 - top->w1) / (top->w3 - top->w1));
  top->lambda = PetscSqrtReal(beta * (top->w3 - top->w1)) / 2;
  top->K      = gsl_sf_ellint_Kcomp(top->k, GSL_PREC_DOUBLE); /* GSL takes the modulus k */
  top->period = 2 * top->K / top->lambda;
  /* phase: sn^2(tau0) = (u0 - u1)/(u2 - u1); sn^2 grows on [0, K] (u' >= 0, i.e. theta' <= 0) and decreases on [K, 2K] */
  r         = top->w2 > top->w1 ? PetscMin(1, PetscMax(0, -top->w1 / (top->w2 - top->w1))) : 0;
  F0        = r >= 1 ? top->K : gsl_sf_ellint_F(PetscAsinReal(PetscSqrtReal(r)), top->k, GSL_PREC_DOUBLE);
  top->tau0 = dth <= 0 ? F0 : 2 * top->K - F0;
  PetscFunctionReturn(0);
}

static PetscReal ExactTheta(const Top *top, PetscReal t)
{
  double sn, cn, dn, omu;

  gsl_sf_elljac_e(top->lambda * t + top->tau0, top->k * top->k, &sn, &cn, &dn); /* GSL takes the parameter m = k^2 */
  omu = top->c2 + (top->w2 - top->w1) * cn * cn;                                /* 1 - cos theta */
  return 2 * PetscAsinReal(PetscSqrtReal(PetscMax(0, omu) / 2));
}

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
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, nsteps));
  PetscCall(TSSetMaxTime(ts, 2 * nsteps * h));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_STEPOVER));
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
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, nsteps));
  PetscCall(TSSetMaxTime(ts, 2 * nsteps * h));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_STEPOVER));
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

  # SNES against KINSOL Newton and fixed point with Anderson depth 3 on the complete top (examples/kinsolcompare.h)
  test:
    suffix: kinsol
    requires: kinsol
    args: -compare_kinsol -compare_kinsol_strategies newton,fp

TEST*/
