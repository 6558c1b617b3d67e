static char help[] = "A charged particle in a uniform magnetic field and a harmonic trap, written from the manual pages through the\n"
                     "Lagrangian door with a mixed block L_vx: L = m|v|^2/2 + b (x v_y - y v_x) - k|x|^2/2. Checks, over -T with steps\n"
                     "-dt, -dt/2 (-refine 2): the largest error of x and v against the exact motion and its observed order (-order),\n"
                     "the energy drift (-energy_tol), and the canonical angular momentum J = x p_y - y p_x, which the rotation\n"
                     "symmetry makes a conserved momentum of the discrete flow (-momentum_tol). The same program runs under\n"
                     "PETSc's types through TSSimpVISetUpPhaseSpace() (-ts_type rk), with J then only as good as the scheme.\n\n";

#include <simpvi.h>

typedef struct {
  PetscReal m, b, k;
} Ctx;

static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec X, Vec V, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *x, *v;
  PetscScalar       *lx, *lv;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArrayRead(V, &v));
  PetscCall(VecGetArrayWrite(Lx, &lx));
  PetscCall(VecGetArrayWrite(Lv, &lv));
  *L    = 0.5 * c->m * (v[0] * v[0] + v[1] * v[1]) + c->b * (x[0] * v[1] - x[1] * v[0]) - 0.5 * c->k * (x[0] * x[0] + x[1] * x[1]);
  lx[0] = c->b * v[1] - c->k * x[0];
  lx[1] = -c->b * v[0] - c->k * x[1];
  lv[0] = c->m * v[0] - c->b * x[1];
  lv[1] = c->m * v[1] + c->b * x[0];
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(VecRestoreArrayRead(V, &v));
  PetscCall(VecRestoreArrayWrite(Lx, &lx));
  PetscCall(VecRestoreArrayWrite(Lv, &lv));
  PetscFunctionReturn(0);
}

static PetscErrorCode Hessian(TS ts, PetscReal t, Vec X, Vec V, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  Ctx        *c      = (Ctx *)ctx;
  PetscInt    idx[2] = {0, 1};
  PetscScalar xx[4] = {-c->k, 0, 0, -c->k}, vx[4] = {0, -c->b, c->b, 0}, vv[4] = {c->m, 0, 0, c->m};

  PetscFunctionBeginUser;
  PetscCall(MatSetValues(Lxx, 2, idx, 2, idx, xx, INSERT_VALUES));
  PetscCall(MatSetValues(Lvx, 2, idx, 2, idx, vx, INSERT_VALUES));
  PetscCall(MatSetValues(Lvv, 2, idx, 2, idx, vv, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Lvx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lvx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Lvv, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lvv, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* z = x + i y, m z'' = -k z - 2 i b z': z = A e^{i l1 t} + C e^{i l2 t}, m l^2 + 2 b l - k = 0 */
static void Exact(const Ctx *c, PetscReal t, PetscReal z0r, PetscReal z0i, PetscReal w0r, PetscReal w0i, PetscReal s[4])
{
  const PetscReal d = PetscSqrtReal(c->b * c->b + c->m * c->k), l1 = (-c->b + d) / c->m, l2 = (-c->b - d) / c->m;
  /* A + C = z0, i l1 A + i l2 C = w0  => A = (w0/i - l2 z0)/(l1 - l2) */
  const PetscReal wr = w0i, wi = -w0r; /* w0 / i */
  const PetscReal Ar = (wr - l2 * z0r) / (l1 - l2), Ai = (wi - l2 * z0i) / (l1 - l2), Cr = z0r - Ar, Ci = z0i - Ai;
  const PetscReal c1 = PetscCosReal(l1 * t), s1 = PetscSinReal(l1 * t), c2 = PetscCosReal(l2 * t), s2 = PetscSinReal(l2 * t);

  s[0] = Ar * c1 - Ai * s1 + Cr * c2 - Ci * s2; /* x */
  s[1] = Ar * s1 + Ai * c1 + Cr * s2 + Ci * c2; /* y */
  /* velocity: i l A e^{..} */
  s[2] = -l1 * (Ar * s1 + Ai * c1) - l2 * (Cr * s2 + Ci * c2);
  s[3] = l1 * (Ar * c1 - Ai * s1) + l2 * (Cr * c2 - Ci * s2);
}

typedef struct {
  Ctx      *c;
  PetscReal J0, H0, dJ, dH, err, v0[4];
} Mon;

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Mon               *m = (Mon *)ctx;
  const Ctx         *c = m->c;
  const PetscScalar *u;
  PetscReal          J, H, vx, vy, e[4];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  J  = u[0] * u[3] - u[1] * u[2];
  vx = (u[2] + c->b * u[1]) / c->m;
  vy = (u[3] - c->b * u[0]) / c->m;
  H  = 0.5 * c->m * (vx * vx + vy * vy) + 0.5 * c->k * (u[0] * u[0] + u[1] * u[1]);
  Exact(c, t, m->v0[0], m->v0[1], m->v0[2], m->v0[3], e);
  m->err = PetscMax(m->err, PetscMax(PetscAbsReal(u[0] - e[0]), PetscAbsReal(u[1] - e[1])));
  m->err = PetscMax(m->err, PetscMax(PetscAbsReal(vx - e[2]), PetscAbsReal(vy - e[3])));
  PetscCall(VecRestoreArrayRead(U, &u));
  if (!step) {
    m->J0 = J;
    m->H0 = H;
  }
  m->dJ = PetscMax(m->dJ, PetscAbsReal(J - m->J0));
  m->dH = PetscMax(m->dH, PetscAbsReal(H - m->H0));
  PetscFunctionReturn(0);
}

static PetscErrorCode Run(Ctx *c, PetscReal dt, PetscReal T, Mon *mon)
{
  TS           ts;
  Vec          U;
  Mat          Lxx, Lvx, Lvv;
  PetscScalar *u;

  PetscFunctionBeginUser;
  mon->err = mon->dH = mon->dJ = 0;
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &Lxx));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &Lvx));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &Lvv));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  u[0] = mon->v0[0];
  u[1] = mon->v0[1];
  u[2] = c->m * mon->v0[2] - c->b * mon->v0[1]; /* p = L_v */
  u[3] = c->m * mon->v0[3] + c->b * mon->v0[0];
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, c));
  PetscCall(TSSimpVISetLagrangianHessian(ts, Lxx, Lvx, Lvv, Hessian, c));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetMaxSteps(ts, 1000000));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSMonitorSet(ts, Monitor, mon, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVISetUpPhaseSpace(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&Lxx));
  PetscCall(MatDestroy(&Lvx));
  PetscCall(MatDestroy(&Lvv));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx c   = {1.3, 0.7, 2.0};
  Mon mon = {
    &c, 0, 0, 0, 0, 0, {1.0, 0.2, -0.3, 0.8}
  };
  PetscReal dt = 0.1, T = 20, err[2], dH = 0, dJ = 0, order = 0, etol = 0, htol = 0, jtol = 0;
  PetscInt  refine = 2;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "Cyclotron options", NULL);
  PetscCall(PetscOptionsReal("-dt", "Coarsest step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsRangeInt("-refine", "Runs, halving the step", NULL, refine, &refine, NULL, 1, 2));
  PetscCall(PetscOptionsReal("-order", "Order the errors must show (0: no check)", NULL, order, &order, NULL));
  PetscCall(PetscOptionsReal("-error_tol", "Bound on the error at the finest step", NULL, etol, &etol, NULL));
  PetscCall(PetscOptionsReal("-energy_tol", "Bound on the energy drift at the finest step", NULL, htol, &htol, NULL));
  PetscCall(PetscOptionsReal("-momentum_tol", "Bound on the drift of J at every step size", NULL, jtol, &jtol, NULL));
  PetscOptionsEnd();
  for (PetscInt l = 0; l < refine; l++) {
    PetscCall(Run(&c, dt / (1 << l), T, &mon));
    PetscCall(PetscInfo(NULL, "dt %g: error %g, energy drift %g, drift of J %g\n", (double)(dt / (1 << l)), (double)mon.err, (double)mon.dH, (double)mon.dJ));
    err[l] = mon.err;
    dH     = mon.dH;
    dJ     = PetscMax(dJ, mon.dJ);
  }
  if (etol > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "Error of x and v below %g: %s\n", (double)etol, err[refine - 1] <= etol ? "yes" : "no"));
  if (order > 0 && refine > 1) PetscCall(PetscPrintf(PETSC_COMM_SELF, "Observed order at least %g: %s\n", (double)(order - 0.3), PetscLog2Real(err[0] / err[1]) >= order - 0.3 ? "yes" : "no"));
  if (htol > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "Energy drift below %g: %s\n", (double)htol, dH <= htol ? "yes" : "no"));
  if (jtol > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "Angular momentum J kept to %g: %s\n", (double)jtol, dJ <= jtol ? "yes" : "no"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex !single

  test:
    suffix: simpson
    args: -order 4 -error_tol 2e-7 -energy_tol 1e-8 -momentum_tol 1e-14
  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto -order 6 -error_tol 1e-11 -energy_tol 1e-12 -momentum_tol 1e-14
  test:
    suffix: gauss3
    args: -ts_simpvi_type gauss -ts_simpvi_degree 3 -order 6 -error_tol 5e-11 -energy_tol 1e-12 -momentum_tol 1e-14
  test:
    suffix: midpoint
    args: -ts_simpvi_type midpoint -order 2 -error_tol 5e-3 -momentum_tol 1e-14
  # the program itself under PETSc's RK4 (J not a conserved quantity there)
  test:
    suffix: rk
    args: -ts_type rk -ts_rk_type 4 -ts_adapt_type none -order 4 -error_tol 5e-6 -energy_tol 1e-7

TEST*/
