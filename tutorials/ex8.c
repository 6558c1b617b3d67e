static char help[] = "A heavy top on SO(3) by TSSIMPVI (TSSimpVISetRigidBodies()): the attitude a rotation matrix, no Euler angles,\n"
                     "so a top may pass through the upright position, where Euler angles are singular. Prints the energy\n"
                     "error, the two conserved momenta, how far R stays from a rotation, and the smallest tilt reached.\n"
                     "Options: -theta0 <pi/3> (start tilt) -rates <9.2,0,252> (ZXZ Euler-angle rates: precession, nutation, spin)\n"
                     "         -T <1> (s) -dt <1e-3> (s) and the TS's options (-ts_simpvi_type, -ts_monitor, -ts_view, ...)\n\n";

/*
   The top: a rigid body of mass m with its centre of mass at distance l from the fixed point, on the body's symmetry
   axis e3, principal moments of inertia I1 = I2, I3 about the fixed point. Its attitude R in SO(3) maps body to space
   vectors; its state for TSSIMPVI is 12 numbers, R row-major and the body angular momentum Pi = J Omega. The
   Lagrangian is 1/2 Omega' J Omega - V(R), with the potential

     V(R) = m g l e3' R e3 = m g l R_33    (the height of the centre of mass, gravity along -e3).

   TSSimpVISetRigidBodies() takes V with its derivatives on the group, in the body frame: the gradient g with
   g . eta = d/de V(R exp(e hat(eta))) at e = 0, and the Hessian H of V(R exp(hat(e))) at e = 0. With z = R' e3 (the
   vertical in the body frame, the third row of R), d/de R_33 = (R hat(eta))_33 = z . (eta x e3), so g = m g l (e3 x z);
   the Hessian is m g l ((z e3' + e3 z') / 2 - z3 I) (symmetric).

   Conserved: the energy (bounded error, no drift, for a variational integrator), the vertical component of the spatial
   angular momentum, e3 . R Pi, and the body's axial momentum Pi_3 (the seeds' Lagrange top, here without its angles).
*/
#include <simpvi.h>

typedef struct {
  PetscReal I1, I3, mgl;
} Top;

static PetscErrorCode Potential(PetscInt nbodies, const PetscReal R[], PetscReal *V, PetscReal g[], PetscReal H[], void *ctx)
{
  const Top      *top = (const Top *)ctx;
  const PetscReal c = top->mgl, z[3] = {R[6], R[7], R[8]};

  PetscFunctionBeginUser;
  *V = c * z[2];
  if (g) {
    g[0] = -c * z[1];
    g[1] = c * z[0];
    g[2] = 0;
  }
  if (H)
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) H[i * 3 + j] = c * ((z[i] * (j == 2) + (i == 2) * z[j]) / 2 - z[2] * (i == j));
  PetscFunctionReturn(0);
}

/* What the run keeps: the start's energy and momenta, the largest deviations, the smallest tilt after leaving the start */
typedef struct {
  PetscReal H0, m0, a0, dH, dm, da, orth, tilt0, tiltmin;
  PetscBool left;
} Watch;

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Watch             *w = (Watch *)ctx;
  const PetscScalar *u;
  PetscReal          H, m, a, orth = 0, tilt;

  PetscFunctionBeginUser;
  PetscCall(TSSimpVIComputeEnergy(ts, t, U, &H));
  PetscCall(VecGetArrayRead(U, &u));
  m    = u[6] * u[9] + u[7] * u[10] + u[8] * u[11]; /* e3 . R Pi */
  a    = u[11];                                     /* Pi_3 */
  tilt = PetscAcosReal(PetscMin(1, PetscMax(-1, u[8])));
  for (PetscInt i = 0; i < 3; i++) /* ||R'R - I||_max */
    for (PetscInt j = 0; j < 3; j++) orth = PetscMax(orth, PetscAbsReal(u[i] * u[j] + u[3 + i] * u[3 + j] + u[6 + i] * u[6 + j] - (i == j)));
  PetscCall(VecRestoreArrayRead(U, &u));
  if (!step) {
    w->H0 = H, w->m0 = m, w->a0 = a, w->tilt0 = tilt, w->tiltmin = PETSC_MAX_REAL;
    PetscFunctionReturn(0);
  }
  w->dH   = PetscMax(w->dH, PetscAbsReal(H - w->H0) / PetscAbsReal(w->H0));
  w->dm   = PetscMax(w->dm, PetscAbsReal(m - w->m0) / PetscMax(PetscAbsReal(w->m0), PetscAbsReal(w->a0)));
  w->da   = PetscMax(w->da, PetscAbsReal(a - w->a0) / PetscAbsReal(w->a0));
  w->orth = PetscMax(w->orth, orth);
  if (PetscAbsReal(tilt - w->tilt0) > 0.1) w->left = PETSC_TRUE;
  if (w->left) w->tiltmin = PetscMin(w->tiltmin, tilt);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Top          top      = {2.33e-3, 1.25e-4, 0.1 * 9.81 * 0.15}; /* the seed's Table 3: m = 0.1 kg, l = 0.15 m */
  PetscReal    rates[3] = {9.2, 0, 252}, theta0 = PETSC_PI / 3, T = 1, dt = 1e-3;
  PetscInt     nrates = 3, steps;
  TS           ts;
  Vec          U;
  Watch        w = {0};
  PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage()); /* registers TSSIMPVI (or link with -dll_append) */
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-theta0", &theta0, NULL));
  PetscCall(PetscOptionsGetRealArray(NULL, NULL, "-rates", rates, &nrates, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-T", &T, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-dt", &dt, NULL));

  /* the start: R = Rx(theta0) (precession and spin angles 0), Pi = J Omega from the Euler-angle rates */
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12, &U));
  PetscCall(VecGetArray(U, &u));
  {
    const PetscReal xi[3] = {theta0, 0, 0};

    PetscCall(SimpVISO3Exp(xi, u));
  }
  u[9]  = top.I1 * rates[1];
  u[10] = top.I1 * rates[0] * PetscSinReal(theta0);
  u[11] = top.I3 * (rates[0] * PetscCosReal(theta0) + rates[2]);
  PetscCall(VecRestoreArray(U, &u));

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  {
    const PetscReal J[9] = {top.I1, 0, 0, 0, top.I1, 0, 0, 0, top.I3};

    PetscCall(TSSimpVISetRigidBodies(ts, 1, J, Potential, &top));
  }
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSMonitorSet(ts, Monitor, &w, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetStepNumber(ts, &steps));

  PetscCall(PetscPrintf(PETSC_COMM_SELF, "heavy top, %" PetscInt_FMT " steps to t = %g:\n", steps, (double)T));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  relative energy error below 1e-5: %s\n", w.dH < 1e-5 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  vertical and axial angular momenta kept to 1e-13 relative: %s\n", w.dm < 1e-13 && w.da < 1e-13 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  R a rotation to 1e-13 (||R'R - I||): %s\n", w.orth < 1e-13 ? "yes" : "no"));
  if (theta0 == 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  started upright, came back within 0.01 rad of upright (seen at the steps): %s\n", w.tiltmin < 1e-2 ? "yes" : "no"));
  PetscCall(PetscInfo(NULL, "energy %g, vertical %g, axial %g, orthogonality %g, smallest tilt %g\n", (double)w.dH, (double)w.dm, (double)w.da, (double)w.orth, (double)w.tiltmin));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # the seed's Table 3 top at order 4 and 6
  test:
    suffix: simpson
    args: -ts_simpvi_type simpson

  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto -dt 2e-3

  # started upright with a tilting rate: the top leaves and comes back through the upright position
  test:
    suffix: upright
    args: -ts_simpvi_type lobatto -theta0 0 -rates 0,3,252 -dt 2e-3

  test:
    suffix: view
    args: -ts_simpvi_type simpson -T 0.01 -ts_view
    filter: grep -E "SIMPVI|Simpson|order|Rigid|SO\\(3\\)|SNES Object|type: simpvidense"

TEST*/
