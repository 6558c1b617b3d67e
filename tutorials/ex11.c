static char help[] = "The Lie-group benchmark heavy top of Brüls, Cardona and Arnold (Mechanism and Machine Theory 48, 2012) by TSSIMPVI\n"
                     "on SO(3) (TSSimpVISetRigidBodies()): a body fixed at one point, its centre of mass X = (0, 1, 0) m from it in\n"
                     "the body, spinning at 150 rad/s. Prints the energy error, the two conserved momenta, how far R stays from a\n"
                     "rotation, and the centre of mass at the final time; -check order: the observed order of the final attitude\n"
                     "from -dt, dt/2, dt/4 against a run of dt/64.\n"
                     "Options: -T <2> (s) -dt <1e-3> (s) -check <none,order> and the TS's options (-ts_simpvi_type, -ts_monitor, ...)\n\n";

/*
   The benchmark (Brüls and Cardona 2010, Brüls, Cardona and Arnold 2012, and the Lie-group papers after them): mass
   m = 15 kg, inertia J_c = diag(0.234375, 0.46875, 0.234375) kg m^2 about the centre of mass, which is at X = (0, 1, 0)
   m in the body frame from the fixed point; gravity gamma = (0, 0, -9.81) m/s^2; at t = 0, R = I and the body angular
   velocity Omega = (0, 150, -4.61538) rad/s. The papers integrate it on SO(3) x R^3 (or SE(3)) with the fixed point
   as a constraint; about the fixed point it is a rotation alone, with the inertia there (parallel axes)

     J = J_c + m (|X|^2 I - X X'),

   and the potential V(R) = -m gamma' R X = m g e3' R X (the height of the centre of mass times m g). With z = R' e3
   (the vertical in the body frame), the derivative along R exp(e hat(eta)) is m g z . (eta x X), so the body-frame
   gradient is g = m g (X x z), and the second derivative of V(R exp(hat(e))) at e = 0 is

     H = m g ((z X' + X z') / 2 - (z . X) I)        (symmetric; tutorials/ex8.c is the case X = l e3).

   The body is symmetric about X (J_x = J_z), so besides the energy two momenta are conserved: the vertical component
   of the spatial angular momentum, e3 . R Pi, and the axial one, Pi_y (a Lagrange top lying on its side at t = 0).
*/
#include <simpvi.h>

typedef struct {
  PetscReal mg, X[3]; /* m g, the centre of mass in the body frame */
} Top;

static PetscErrorCode Potential(PetscInt nbodies, const PetscReal R[], PetscReal *V, PetscReal g[], PetscReal H[], void *ctx)
{
  const Top      *top = (const Top *)ctx;
  const PetscReal c = top->mg, *X = top->X, z[3] = {R[6], R[7], R[8]}, zX = z[0] * X[0] + z[1] * X[1] + z[2] * X[2];

  PetscFunctionBeginUser;
  *V = c * zX; /* e3' R X = z . X */
  if (g) {
    g[0] = c * (X[1] * z[2] - X[2] * z[1]);
    g[1] = c * (X[2] * z[0] - X[0] * z[2]);
    g[2] = c * (X[0] * z[1] - X[1] * z[0]);
  }
  if (H)
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) H[i * 3 + j] = c * ((z[i] * X[j] + X[i] * z[j]) / 2 - zX * (i == j));
  PetscFunctionReturn(0);
}

/* What the run keeps: the start's energy and momenta and the largest deviations */
typedef struct {
  PetscReal H0, m0, a0, dH, dm, da, orth;
} Watch;

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Watch             *w = (Watch *)ctx;
  const PetscScalar *u;
  PetscReal          H, m, a, orth = 0;

  PetscFunctionBeginUser;
  PetscCall(TSSimpVIComputeEnergy(ts, t, U, &H));
  PetscCall(VecGetArrayRead(U, &u));
  m = u[6] * u[9] + u[7] * u[10] + u[8] * u[11]; /* e3 . R Pi */
  a = u[10];                                     /* Pi_y */
  for (PetscInt i = 0; i < 3; i++)               /* ||R'R - I||_max */
    for (PetscInt j = 0; j < 3; j++) orth = PetscMax(orth, PetscAbsReal(u[i] * u[j] + u[3 + i] * u[3 + j] + u[6 + i] * u[6 + j] - (i == j)));
  PetscCall(VecRestoreArrayRead(U, &u));
  if (!step) {
    w->H0 = H, w->m0 = m, w->a0 = a;
    PetscFunctionReturn(0);
  }
  w->dH   = PetscMax(w->dH, PetscAbsReal(H - w->H0) / PetscAbsReal(w->H0));
  w->dm   = PetscMax(w->dm, PetscAbsReal(m - w->m0) / PetscAbsReal(w->a0)); /* m0 is small: against the spin's momentum */
  w->da   = PetscMax(w->da, PetscAbsReal(a - w->a0) / PetscAbsReal(w->a0));
  w->orth = PetscMax(w->orth, orth);
  PetscFunctionReturn(0);
}

/* The benchmark's top integrated to T in steps of dt (with the monitor when w is given); U = (R, Pi) at T */
static PetscErrorCode Run(Top *top, PetscReal T, PetscReal dt, Watch *w, Vec U)
{
  const PetscReal Jc[3] = {0.234375, 0.46875, 0.234375}, Omega0[3] = {0, 150, -4.61538}, m = 15;
  const PetscReal X2 = top->X[0] * top->X[0] + top->X[1] * top->X[1] + top->X[2] * top->X[2];
  PetscReal       J[9];
  PetscScalar    *u;
  TS              ts;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < 3; i++) /* J = J_c + m (|X|^2 I - X X') */
    for (PetscInt j = 0; j < 3; j++) J[i * 3 + j] = (i == j ? Jc[i] + m * X2 : 0) - m * top->X[i] * top->X[j];
  PetscCall(VecGetArray(U, &u)); /* R = I, Pi = J Omega */
  for (PetscInt i = 0; i < 9; i++) u[i] = i % 4 == 0;
  for (PetscInt i = 0; i < 3; i++) u[9 + i] = J[i * 3] * Omega0[0] + J[i * 3 + 1] * Omega0[1] + J[i * 3 + 2] * Omega0[2];
  PetscCall(VecRestoreArray(U, &u));

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetRigidBodies(ts, 1, J, Potential, top));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (w) PetscCall(TSMonitorSet(ts, Monitor, w, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

/* max |R - Rref| over the entries */
static PetscErrorCode AttitudeError(Vec U, Vec Uref, PetscReal *e)
{
  const PetscScalar *u, *r;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(Uref, &r));
  *e = 0;
  for (PetscInt i = 0; i < 9; i++) *e = PetscMax(*e, PetscAbsReal(u[i] - r[i]));
  PetscCall(VecRestoreArrayRead(Uref, &r));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Top top = {
    15 * 9.81, {0, 1, 0}
  };
  PetscReal         T = 2, dt = 1e-3;
  const char *const checks[] = {"none", "order", "CheckType", "CHECK_", NULL};
  enum {
    NONE,
    ORDER
  } check = NONE;
  Vec                U;
  Watch              w = {0};
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage()); /* registers TSSIMPVI (or link with -dll_append) */
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "The benchmark heavy top of Bruls, Cardona and Arnold", NULL);
  PetscCall(PetscOptionsReal("-T", "Final time (s)", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Step (s)", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsEnum("-check", "What to check", NULL, checks, (PetscEnum)check, (PetscEnum *)&check, NULL));
  PetscOptionsEnd();
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12, &U));

  if (check == ORDER) { /* the final attitude from dt, dt/2, dt/4 against dt/64 */
    Vec       Uref;
    PetscReal e[3], order;

    PetscCall(VecDuplicate(U, &Uref));
    PetscCall(Run(&top, T, dt / 64, NULL, Uref));
    for (PetscInt i = 0; i < 3; i++) {
      PetscCall(Run(&top, T, dt / (1 << i), NULL, U));
      PetscCall(AttitudeError(U, Uref, &e[i]));
    }
    order = PetscLog2Real(e[1] / e[2]);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "benchmark heavy top, R(%g) from steps of %g, %g, %g against %g:\n", (double)T, (double)dt, (double)(dt / 2), (double)(dt / 4), (double)(dt / 64)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  errors decrease: %s; observed order %.1f\n", e[0] > e[1] && e[1] > e[2] ? "yes" : "no", (double)order));
    PetscCall(PetscInfo(NULL, "errors %g %g %g, orders %g %g\n", (double)e[0], (double)e[1], (double)e[2], (double)PetscLog2Real(e[0] / e[1]), (double)order));
    PetscCall(VecDestroy(&Uref));
  } else {
    PetscCall(Run(&top, T, dt, &w, U));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "benchmark heavy top, steps of %g s to t = %g s:\n", (double)dt, (double)T));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  relative energy error below 1e-8: %s\n", w.dH < 1e-8 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  vertical and axial angular momenta kept to 1e-13 relative: %s\n", w.dm < 1e-13 && w.da < 1e-13 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  R a rotation to 1e-13 (||R'R - I||): %s\n", w.orth < 1e-13 ? "yes" : "no"));
    PetscCall(VecGetArrayRead(U, &u));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  centre of mass R X at t = %g: (%.4f, %.4f, %.4f) m\n", (double)T, (double)(u[1]), (double)(u[4]), (double)(u[7])));
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(PetscInfo(NULL, "energy %g, vertical %g, axial %g, orthogonality %g\n", (double)w.dH, (double)w.dm, (double)w.da, (double)w.orth));
  }
  PetscCall(VecDestroy(&U));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: simpson
    args: -ts_simpvi_type simpson

  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto -dt 2e-3

  test:
    suffix: order_simpson
    args: -ts_simpvi_type simpson -check order -T 0.5 -dt 2e-3

  test:
    suffix: order_lobatto
    args: -ts_simpvi_type lobatto -check order -T 0.5 -dt 4e-3

TEST*/
