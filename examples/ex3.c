static char help[] = "Damped and driven oscillator m q'' + c q' + k q = F0 cos(Omega t) by TSSIMPVI: the Lagrangian L = 1/2 m v^2 - 1/2 k x^2\n"
                     "through the mechanical door and the force f(t, x, v) = -c v + F0 cos(Omega t) through TSSimpVISetForce() (the\n"
                     "discrete Lagrange-d'Alembert principle: the force enters through the same quadrature as the action). Against\n"
                     "the closed-form solution (damped transient plus steady state) it prints the maxima over all steps of |p - p_ex|\n"
                     "and |q - q_ex| with the observed orders: 2 for midpoint, 4 for simpson, 2s for lobatto. The same program runs\n"
                     "under PETSc's own integrators through TSSimpVISetUpPhaseSpace() (-ts_type rk -ts_rk_type 4 -ts_adapt_type none).\n"
                     "Options: -methods <default> (midpoint,simpson,lobatto,rk4,theta,...) -meshes 10,20,40 (steps per second) -T <2>\n"
                     "-m <1> -omega <2 pi> -c <0.5> -F0 <2> -Omega <3> -q0 <1> -p0 <0> -monitor_file <csv> -table_file <csv>\n\n";

#include <simpvi.h>
#include "methods.h"

typedef struct {
  PetscReal m, k, c, F0, Omega, q0, p0;
  PetscReal gamma, wd, A, B, C, E; /* q = e^{-gamma t} (C cos wd t + E sin wd t) + A cos Omega t + B sin Omega t */
} Oscillator;

typedef struct {
  Oscillator *osc;
  PetscReal   dt, ep, eq;
  FILE       *fp;
  const char *label;
  PetscInt    nsteps;
} Errors;

static PetscErrorCode OscillatorSetUp(Oscillator *osc)
{
  const PetscReal w02 = osc->k / osc->m, det = PetscSqr(osc->k - osc->m * osc->Omega * osc->Omega) + PetscSqr(osc->c * osc->Omega), v0 = osc->p0 / osc->m;

  PetscFunctionBeginUser;
  osc->gamma = osc->c / (2 * osc->m);
  PetscCheck(osc->gamma * osc->gamma < w02, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "The exact solution here is for an underdamped oscillator: c^2 < 4 k m");
  osc->wd = PetscSqrtReal(w02 - osc->gamma * osc->gamma);
  osc->A  = osc->F0 * (osc->k - osc->m * osc->Omega * osc->Omega) / det;
  osc->B  = osc->F0 * osc->c * osc->Omega / det;
  osc->C  = osc->q0 - osc->A;
  osc->E  = (v0 - osc->B * osc->Omega + osc->gamma * osc->C) / osc->wd;
  PetscFunctionReturn(0);
}

static void Exact(const Oscillator *osc, PetscReal t, PetscReal *q, PetscReal *p)
{
  const PetscReal e = PetscExpReal(-osc->gamma * t), cw = PetscCosReal(osc->wd * t), sw = PetscSinReal(osc->wd * t);
  const PetscReal cO = PetscCosReal(osc->Omega * t), sO = PetscSinReal(osc->Omega * t);
  PetscReal       v;

  *q = e * (osc->C * cw + osc->E * sw) + osc->A * cO + osc->B * sO;
  v  = e * ((-osc->gamma * osc->C + osc->wd * osc->E) * cw + (-osc->gamma * osc->E - osc->wd * osc->C) * sw) + osc->Omega * (-osc->A * sO + osc->B * cO);
  *p = osc->m * v;
}

static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  Oscillator        *osc = (Oscillator *)ctx;
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  *V    = 0.5 * osc->k * PetscRealPart(xx[0] * xx[0]);
  gg[0] = osc->k * xx[0];
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Oscillator *osc = (Oscillator *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatSetValue(H, 0, 0, osc->k, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* f(t, x, v) = -c v + F0 cos(Omega t): the equations of motion become d/dt L_v - L_x = f */
static PetscErrorCode Force(TS ts, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  Oscillator        *osc = (Oscillator *)ctx;
  const PetscScalar *vv;
  PetscScalar       *ff;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(f, &ff));
  ff[0] = -osc->c * vv[0] + osc->F0 * PetscCosReal(osc->Omega * t);
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(f, &ff));
  PetscFunctionReturn(0);
}

/* df/dv = -c; f does not depend on x (Fx = NULL) */
static PetscErrorCode ForceJacobian(TS ts, PetscReal t, Vec x, Vec v, Mat Fx, Mat Fv, void *ctx)
{
  Oscillator *osc = (Oscillator *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatSetValue(Fv, 0, 0, -osc->c, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(Fv, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Fv, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode MonitorErrors(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Errors            *err = (Errors *)ctx;
  const PetscScalar *u;
  PetscReal          qe, pe;

  PetscFunctionBeginUser;
  t = step * err->dt; /* the scheme's t_j = j h */
  Exact(err->osc, t, &qe, &pe);
  PetscCall(VecGetArrayRead(U, &u));
  err->eq = PetscMax(err->eq, PetscAbsReal(PetscRealPart(u[0]) - qe));
  err->ep = PetscMax(err->ep, PetscAbsReal(PetscRealPart(u[1]) - pe));
  if (err->fp) PetscCall(PetscFPrintf(PETSC_COMM_SELF, err->fp, "%s,%" PetscInt_FMT ",%.10e,%.15e,%.15e,%.15e,%.15e\n", err->label, err->nsteps, (double)t, (double)PetscRealPart(u[0]), (double)PetscRealPart(u[1]), (double)qe, (double)pe));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode DescribeMethod(TS ts, char label[], size_t len, PetscInt *order)
{
  MethodKind  kind = METHOD_OTHER;
  const char *name = NULL;

  PetscFunctionBeginUser;
  PetscCall(GetMethod(ts, &kind, &name, order));
  if (kind == METHOD_RK) {
    PetscCall(PetscSNPrintf(label, len, "rk%s", name));
  } else if (kind == METHOD_THETA) {
    PetscReal theta;

    PetscCall(TSThetaGetTheta(ts, &theta));
    PetscCall(PetscSNPrintf(label, len, "theta%g", (double)theta));
  } else PetscCall(PetscSNPrintf(label, len, "%s", name));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscReal ep, eq;
  PetscInt  order;
  char      label[32];
} RunResult;

static char monitorfile[PETSC_MAX_PATH_LEN];

static PetscErrorCode Run(Oscillator *osc, const char method[], PetscReal T, PetscInt nsteps, RunResult *res)
{
  TS           ts;
  Vec          U;
  Mat          M, K, Fv;
  PetscScalar *u;
  Errors       err = {osc, T / nsteps, 0, 0, NULL, NULL, nsteps};

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(SetMethod(ts, method));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &M));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &K));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &Fv));
  PetscCall(MatSetValue(M, 0, 0, osc->m, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, K, Potential, PotentialHessian, osc));
  PetscCall(TSSimpVISetForce(ts, NULL, Fv, Force, ForceJacobian, osc));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U)); /* U = (q, p) */
  PetscCall(VecGetArrayWrite(U, &u));
  u[0] = osc->q0;
  u[1] = osc->p0;
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, T / nsteps));
  PetscCall(TSSetMaxSteps(ts, nsteps));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVISetUpPhaseSpace(ts)); /* for -ts_type rk, theta, ...: the same forced mechanics in phase space */
  PetscCall(DescribeMethod(ts, res->label, sizeof(res->label), &res->order));
  err.label = res->label;
  if (monitorfile[0]) PetscCall(PetscFOpen(PETSC_COMM_SELF, monitorfile, "a", &err.fp));
  PetscCall(TSMonitorSet(ts, MonitorErrors, &err, NULL));
  PetscCall(TSSolve(ts, U));
  if (err.fp) PetscCall(PetscFClose(PETSC_COMM_SELF, err.fp));
  res->ep = err.ep;
  res->eq = err.eq;
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&Fv));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

/* Observed order between the last two meshes (each twice finer than the one before) */
static PetscReal Order(const PetscReal e[], PetscInt n)
{
  return n > 1 ? PetscLog2Real(e[n - 2] / e[n - 1]) : 0;
}

int main(int argc, char **argv)
{
  Oscillator osc = {1, 4 * PETSC_PI * PETSC_PI, 0.5, 2, 3, 1, 0};
  PetscReal  T = 2, omega = 2 * PETSC_PI;
  PetscInt   meshes[8] = {10, 20, 40}, nmeshes = 8, nmethods = 16;
  char      *methods[16], tablefile[PETSC_MAX_PATH_LEN] = "";
  PetscBool  flg;
  FILE      *table = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Damped driven oscillator options", NULL);
  PetscCall(PetscOptionsReal("-m", "Mass", NULL, osc.m, &osc.m, NULL));
  PetscCall(PetscOptionsReal("-omega", "Undamped angular frequency sqrt(k/m)", NULL, omega, &omega, NULL));
  PetscCall(PetscOptionsReal("-c", "Damping coefficient", NULL, osc.c, &osc.c, NULL));
  PetscCall(PetscOptionsReal("-F0", "Driving amplitude", NULL, osc.F0, &osc.F0, NULL));
  PetscCall(PetscOptionsReal("-Omega", "Driving angular frequency", NULL, osc.Omega, &osc.Omega, NULL));
  PetscCall(PetscOptionsReal("-q0", "Initial position", NULL, osc.q0, &osc.q0, NULL));
  PetscCall(PetscOptionsReal("-p0", "Initial momentum", NULL, osc.p0, &osc.p0, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsIntArray("-meshes", "Steps per unit time, each mesh twice finer than the one before", NULL, meshes, &nmeshes, &flg));
  if (!flg) nmeshes = 3;
  PetscCall(PetscOptionsStringArray("-methods", "Methods: default, midpoint, trapezoid, simpson, lobatto, gauss, rk4, theta", NULL, methods, &nmethods, &flg));
  if (!flg) {
    nmethods = 1;
    PetscCall(PetscStrallocpy("default", &methods[0]));
  }
  PetscCall(PetscOptionsString("-monitor_file", "CSV file for every step: method,N,t,q,p,q_ex,p_ex", NULL, monitorfile, monitorfile, sizeof(monitorfile), NULL));
  PetscCall(PetscOptionsString("-table_file", "CSV file for every run: method,N,h,ep,eq", NULL, tablefile, tablefile, sizeof(tablefile), NULL));
  PetscOptionsEnd();
  osc.k = osc.m * omega * omega;
  PetscCall(OscillatorSetUp(&osc));
  if (monitorfile[0]) {
    FILE *fp;

    PetscCall(PetscFOpen(PETSC_COMM_SELF, monitorfile, "w", &fp));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "method,N,t,q,p,q_ex,p_ex\n"));
    PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  }
  if (tablefile[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, tablefile, "w", &table));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, table, "method,N,h,ep,eq\n"));
  }

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Damped driven oscillator: omega %g, c %g, F0 %g, Omega %g, T %g; maxima over all steps of |p - p_ex| and |q - q_ex|\n", (double)omega, (double)osc.c, (double)osc.F0, (double)osc.Omega, (double)T));
  for (PetscInt s = 0; s < nmethods; s++) {
    RunResult res[8];
    PetscReal ep[8], eq[8];

    for (PetscInt k = 0; k < nmeshes; k++) {
      const PetscInt N = (PetscInt)(meshes[k] * T + 0.5);

      PetscCall(Run(&osc, methods[s], T, N, &res[k]));
      ep[k] = res[k].ep;
      eq[k] = res[k].eq;
      if (table) PetscCall(PetscFPrintf(PETSC_COMM_SELF, table, "%s,%" PetscInt_FMT ",%.6e,%.6e,%.6e\n", res[k].label, N, (double)(T / N), (double)ep[k], (double)eq[k]));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-10s steps/s", res[0].label));
    for (PetscInt k = 0; k < nmeshes; k++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10" PetscInt_FMT, meshes[k]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "   order\n%-10s p      ", ""));
    for (PetscInt k = 0; k < nmeshes; k++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10.3e", (double)ep[k]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %6.2f\n%-10s q      ", (double)Order(ep, nmeshes), ""));
    for (PetscInt k = 0; k < nmeshes; k++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10.3e", (double)eq[k]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %6.2f\n", (double)Order(eq, nmeshes)));
    if (nmeshes > 1 && res[0].order) {
      const PetscReal op = Order(ep, nmeshes), oq = Order(eq, nmeshes);

      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: order %" PetscInt_FMT " observed in p and q (+-0.3): %s\n", res[0].label, res[0].order, PetscAbsReal(op - res[0].order) < 0.3 && PetscAbsReal(oq - res[0].order) < 0.3 ? "yes" : "no"));
    }
  }
  for (PetscInt s = 0; s < nmethods; s++) PetscCall(PetscFree(methods[s]));
  if (table) PetscCall(PetscFClose(PETSC_COMM_SELF, table));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: simpson
    args: -ts_simpvi_type simpson

  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto

  test:
    suffix: rk4
    args: -ts_type rk -ts_rk_type 4 -ts_adapt_type none

  test:
    suffix: methods
    args: -methods midpoint,trapezoid,gauss,theta

  test:
    suffix: jacobian
    args: -methods simpson,lobatto,theta -T 0.3 -meshes 10 -snes_test_jacobian
    filter: awk '$4 == "=" && $3 ~ /^Jfd/ {n++; if ($5 + 0 > 1e-6) bad++} END {print "-snes_test_jacobian ran:", (n > 0 ? "yes" : "no"); print "||J - Jfd||/||J|| below 1e-6 everywhere:", (bad ? "no" : "yes")}'

TEST*/
