static char help[] = "Two coupled nonlinear oscillators with a configuration-dependent mass, written from the manual pages through the\n"
                     "mechanical door (TSSimpVIMassFn with its derivative terms): M(x) = [1 + a x1^2, b; b, 2 + c x0^2],\n"
                     "V(t, x) = k0 x0^2/2 + beta x0^4/4 + k1 x1^2/2 + gamma x0 x1 - F x0 cos(W t). Checks, with steps -dt and -dt/2:\n"
                     "the final state against TSRK 5dp at 1e-13 on the user's own phase-space form (q' = M^-1 p, p' = g - grad V) and\n"
                     "the observed order (-order, -error_tol); with F = 0 the energy drift (-energy_tol); TSSimpVIComputeEnergy()\n"
                     "against the user's H = v'Mv/2 + V at every step, F or not.\n\n";

#include <simpvi.h>

typedef struct {
  PetscReal a, b, c, k0, k1, beta, gamma, F, W;
} Ctx;

static void MassAt(const Ctx *c, const PetscScalar *x, PetscReal M[4])
{
  M[0] = 1 + c->a * x[1] * x[1];
  M[1] = M[2] = c->b;
  M[3]        = 2 + c->c * x[0] * x[0];
}

static PetscErrorCode Mass(TS ts, Vec X, Vec Vv, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *x, *v;
  PetscReal          m[4];
  PetscInt           idx[2] = {0, 1};

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArrayRead(Vv, &v));
  MassAt(c, x, m);
  PetscCall(MatSetValues(M, 2, idx, 2, idx, m, INSERT_VALUES));
  {
    PetscScalar mx[4]  = {0, 2 * c->a * x[1] * v[0], 2 * c->c * x[0] * v[1], 0};
    PetscScalar mxx[4] = {c->c * v[1] * v[1], 0, 0, c->a * v[0] * v[0]};
    PetscCall(MatSetValues(Mx, 2, idx, 2, idx, mx, INSERT_VALUES));
    PetscCall(MatSetValues(Mxx, 2, idx, 2, idx, mxx, INSERT_VALUES));
    PetscCall(VecSetValue(g, 0, c->c * x[0] * v[1] * v[1], INSERT_VALUES));
    PetscCall(VecSetValue(g, 1, c->a * x[1] * v[0] * v[0], INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(VecRestoreArrayRead(Vv, &v));
  PetscCall(VecAssemblyBegin(g));
  PetscCall(VecAssemblyEnd(g));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Mx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Mx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Mxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Mxx, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscReal Pot(const Ctx *c, PetscReal t, const PetscScalar *x, PetscReal gr[2])
{
  gr[0] = c->k0 * x[0] + c->beta * x[0] * x[0] * x[0] + c->gamma * x[1] - c->F * PetscCosReal(c->W * t);
  gr[1] = c->k1 * x[1] + c->gamma * x[0];
  return 0.5 * c->k0 * x[0] * x[0] + 0.25 * c->beta * PetscPowReal(x[0], 4) + 0.5 * c->k1 * x[1] * x[1] + c->gamma * x[0] * x[1] - c->F * x[0] * PetscCosReal(c->W * t);
}

static PetscErrorCode Potential(TS ts, PetscReal t, Vec X, PetscReal *V, Vec G, void *ctx)
{
  const PetscScalar *x;
  PetscScalar       *g;
  PetscReal          gr[2];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(X, &x));
  *V = Pot((Ctx *)ctx, t, x, gr);
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(VecGetArrayWrite(G, &g));
  g[0] = gr[0];
  g[1] = gr[1];
  PetscCall(VecRestoreArrayWrite(G, &g));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotHess(TS ts, PetscReal t, Vec X, Mat H, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *x;
  PetscInt           idx[2] = {0, 1};
  PetscScalar        h[4];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(X, &x));
  h[0] = c->k0 + 3 * c->beta * x[0] * x[0];
  h[1] = h[2] = c->gamma;
  h[3]        = c->k1;
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(MatSetValues(H, 2, idx, 2, idx, h, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* the user's own phase-space form: q' = M(q)^-1 p, p' = g(q, v) - grad V */
static PetscErrorCode RHS(TS ts, PetscReal t, Vec U, Vec F, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *u;
  PetscScalar       *f;
  PetscReal          m[4], det, v[2], gr[2];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayWrite(F, &f));
  MassAt(c, u, m);
  det  = m[0] * m[3] - m[1] * m[2];
  v[0] = (m[3] * u[2] - m[1] * u[3]) / det;
  v[1] = (-m[2] * u[2] + m[0] * u[3]) / det;
  (void)Pot(c, t, u, gr);
  f[0] = v[0];
  f[1] = v[1];
  f[2] = c->c * u[0] * v[1] * v[1] - gr[0];
  f[3] = c->a * u[1] * v[0] * v[0] - gr[1];
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

static PetscReal Energy(const Ctx *c, PetscReal t, const PetscScalar *u)
{
  PetscReal m[4], det, v[2], gr[2];

  MassAt(c, u, m);
  det  = m[0] * m[3] - m[1] * m[2];
  v[0] = (m[3] * u[2] - m[1] * u[3]) / det;
  v[1] = (-m[2] * u[2] + m[0] * u[3]) / det;
  return 0.5 * (v[0] * u[2] + v[1] * u[3]) + Pot(c, t, u, gr);
}

typedef struct {
  Ctx      *c;
  PetscReal H0, drift, libdiff;
} Mon;

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Mon               *m = (Mon *)ctx;
  const PetscScalar *u;
  PetscReal          H, Hlib;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  H = Energy(m->c, t, u);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(TSSimpVIComputeEnergy(ts, t, U, &Hlib));
  if (step == 0) m->H0 = H;
  m->drift   = PetscMax(m->drift, PetscAbsReal(H - m->H0));
  m->libdiff = PetscMax(m->libdiff, PetscAbsReal(H - Hlib));
  PetscFunctionReturn(0);
}

static PetscErrorCode Initial(Vec U)
{
  PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayWrite(U, &u));
  u[0] = 0.8;
  u[1] = -0.3;
  u[2] = 0.1;
  u[3] = 0.9;
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode Run(Ctx *c, PetscReal dt, PetscReal T, Mon *mon, PetscReal *err)
{
  TS  ts, rk;
  Vec U, R;
  Mat M, Mx, Mxx, H;

  PetscFunctionBeginUser;
  mon->drift = mon->libdiff = 0;
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &M));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &Mx));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &Mxx));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &H));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  PetscCall(VecDuplicate(U, &R));
  PetscCall(Initial(U));
  PetscCall(Initial(R));

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetMass(ts, M, Mx, Mxx, Mass, c));
  PetscCall(TSSimpVISetPotential(ts, H, Potential, PotHess, c));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSMonitorSet(ts, Monitor, mon, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVISetUpPhaseSpace(ts));
  PetscCall(TSSolve(ts, U));

  PetscCall(TSCreate(PETSC_COMM_SELF, &rk));
  PetscCall(TSSetType(rk, TSRK));
  PetscCall(TSRKSetType(rk, TSRK5DP));
  PetscCall(TSSetRHSFunction(rk, NULL, RHS, c));
  PetscCall(TSSetTimeStep(rk, 1e-3));
  PetscCall(TSSetMaxTime(rk, T));
  PetscCall(TSSetExactFinalTime(rk, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetTolerances(rk, 1e-13, NULL, 1e-13, NULL));
  PetscCall(TSSetMaxSteps(rk, 10000000));
  PetscCall(TSSolve(rk, R));
  PetscCall(VecAXPY(R, -1, U));
  PetscCall(VecNorm(R, NORM_INFINITY, err));
  PetscCall(TSDestroy(&ts));
  PetscCall(TSDestroy(&rk));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&R));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&Mx));
  PetscCall(MatDestroy(&Mxx));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx       c   = {0.7, 0.2, 0.5, 1.0, 2.0, 0.8, 0.3, 0, 1.3};
  Mon       mon = {&c, 0, 0, 0};
  PetscReal T = 5, dt = 0.1, err[2], order = 0, etol = 0, htol = 0, drift = 0, libdiff = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "Configuration-dependent mass options", NULL);
  PetscCall(PetscOptionsReal("-F", "Amplitude of the driving term of V", NULL, c.F, &c.F, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Coarsest step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-order", "Order the errors must show (0: no check)", NULL, order, &order, NULL));
  PetscCall(PetscOptionsReal("-error_tol", "Bound on the error at the finer step", NULL, etol, &etol, NULL));
  PetscCall(PetscOptionsReal("-energy_tol", "Bound on the energy drift at the finer step (F = 0)", NULL, htol, &htol, NULL));
  PetscOptionsEnd();
  for (PetscInt l = 0; l < 2; l++) {
    PetscCall(Run(&c, dt / (1 << l), T, &mon, &err[l]));
    PetscCall(PetscInfo(NULL, "dt %g: error against rk5dp %g, energy drift %g, TSSimpVIComputeEnergy() against the user's H %g\n", (double)(dt / (1 << l)), (double)err[l], (double)mon.drift, (double)mon.libdiff));
    drift   = mon.drift;
    libdiff = PetscMax(libdiff, mon.libdiff);
  }
  if (etol > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "Final state within %g of TSRK 5dp's: %s\n", (double)etol, err[1] <= etol ? "yes" : "no"));
  if (order > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "Observed order at least %g: %s\n", (double)(order - 0.3), PetscLog2Real(err[0] / err[1]) >= order - 0.3 ? "yes" : "no"));
  if (htol > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "Energy drift below %g: %s\n", (double)htol, drift <= htol ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "TSSimpVIComputeEnergy() is the user's H to 1e-14: %s\n", libdiff <= 1e-14 ? "yes" : "no"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex !single

  test:
    suffix: simpson
    args: -order 4 -error_tol 1e-7 -energy_tol 1e-7
  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto -order 6 -error_tol 1e-11 -energy_tol 1e-11
  # V depends on t: no energy, the order stays
  test:
    suffix: driven_simpson
    args: -F 0.5 -order 4 -error_tol 1e-6
  test:
    suffix: driven_lobatto
    args: -F 0.5 -ts_simpvi_type lobatto -order 6 -error_tol 1e-10

TEST*/
