static char help[] = "Spherical pendulum by TSSIMPVI through the mechanical door with a configuration-dependent mass M(x).\n"
                     "x = (theta, phi): theta the angle from the downward vertical, phi the azimuth; L = 1/2 m l^2 (theta'^2 +\n"
                     "sin^2(theta) phi'^2) + m g l cos(theta). Runs a step-refinement sweep against a fine-step reference and prints the\n"
                     "errors at the final time with the observed order, and checks that the cyclic momentum p_phi is conserved at\n"
                     "every step, that the energy error shrinks at the scheme's order, and that it does not drift over a long run.\n"
                     "Options: -theta0 <1> -phidot0 <1.5> (initial angle and azimuthal velocity, at rest in theta) -T <4> -n <16>\n"
                     "(steps of the coarsest run) -levels <3>\n\n";

/*
   The mechanical door takes L = 1/2 v' M(x) v - V(t, x). When M depends on x, TSSimpVISetMass() is given a function
   that fills, at (x, v), M(x) and three derivative terms the step needs (see TSSimpVIMassFn):

     Mx(i,j)  = d(M(x) v)_i / dx_j          here only Mx(phi,theta)  = m l^2 sin(2 theta) v_phi
     g_j      = 1/2 v' (dM/dx_j) v          here only g_theta        = 1/2 m l^2 sin(2 theta) v_phi^2
     Mxx(j,k) = 1/2 v' (d2M/dx_j dx_k) v    here only Mxx(theta,theta) = m l^2 cos(2 theta) v_phi^2

   phi does not appear in L, so p_phi = m l^2 sin^2(theta) phi' is conserved exactly by the exact flow and, being the
   momentum of a symmetry of the discrete action too, by every step of the scheme (discrete Noether theorem).
*/
#include <simpvi.h>

typedef struct {
  PetscReal m, l, g; /* mass, length, gravity */
  PetscReal theta0, phidot0;
  PetscReal H0, pphi0; /* initial energy and cyclic momentum */
  PetscReal dH, dpphi; /* max over the steps of |H - H0| and |p_phi - p_phi0| / |p_phi0| */
  PetscReal dHhalf[2]; /* max of |H - H0| over the first and the second half of the run */
  PetscInt  nsteps;
} Pendulum;

/* V = -m g l cos(theta) */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec gradV, void *ctx)
{
  Pendulum          *pe = (Pendulum *)ctx;
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(gradV, &gg));
  *V    = -pe->m * pe->g * pe->l * PetscCosReal(xx[0]);
  gg[0] = pe->m * pe->g * pe->l * PetscSinReal(xx[0]);
  gg[1] = 0;
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(gradV, &gg));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Pendulum          *pe = (Pendulum *)ctx;
  const PetscScalar *xx;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(MatZeroEntries(H));
  PetscCall(MatSetValue(H, 0, 0, pe->m * pe->g * pe->l * PetscCosReal(xx[0]), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* M(x) = m l^2 diag(1, sin^2 theta) and its derivative terms (see the comment at the top) */
static PetscErrorCode Mass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  Pendulum          *pe = (Pendulum *)ctx;
  const PetscScalar *xx, *vv;
  PetscScalar       *gg;
  PetscReal          ml2 = pe->m * pe->l * pe->l, s, c;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(g, &gg));
  s = PetscSinReal(xx[0]);
  c = PetscCosReal(xx[0]);
  PetscCall(MatZeroEntries(M));
  PetscCall(MatZeroEntries(Mx));
  PetscCall(MatZeroEntries(Mxx));
  PetscCall(MatSetValue(M, 0, 0, ml2, INSERT_VALUES));
  PetscCall(MatSetValue(M, 1, 1, ml2 * s * s, INSERT_VALUES));
  PetscCall(MatSetValue(Mx, 1, 0, ml2 * 2 * s * c * vv[1], INSERT_VALUES));
  PetscCall(MatSetValue(Mxx, 0, 0, ml2 * (c * c - s * s) * vv[1] * vv[1], INSERT_VALUES));
  gg[0] = ml2 * s * c * vv[1] * vv[1];
  gg[1] = 0;
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Mx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Mx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Mxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Mxx, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* H = p_theta^2 / (2 m l^2) + p_phi^2 / (2 m l^2 sin^2 theta) - m g l cos theta, from the state U = (theta, phi, p_theta, p_phi) alone */
static PetscReal Energy(const Pendulum *pe, const PetscScalar *u)
{
  PetscReal ml2 = pe->m * pe->l * pe->l, s = PetscSinReal(PetscRealPart(u[0]));

  return PetscRealPart(u[2] * u[2] / (2 * ml2) + u[3] * u[3] / (2 * ml2 * s * s)) - pe->m * pe->g * pe->l * PetscCosReal(PetscRealPart(u[0]));
}

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Pendulum          *pe = (Pendulum *)ctx;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  pe->dH                            = PetscMax(pe->dH, PetscAbsReal(Energy(pe, u) - pe->H0));
  pe->dHhalf[2 * step > pe->nsteps] = PetscMax(pe->dHhalf[2 * step > pe->nsteps], PetscAbsReal(Energy(pe, u) - pe->H0));
  pe->dpphi                         = PetscMax(pe->dpphi, PetscAbsReal(PetscRealPart(u[3]) - pe->pphi0) / PetscAbsReal(pe->pphi0));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

/* Integrates to time T in nsteps steps with the scheme the options choose, or with a given reference scheme */
static PetscErrorCode Run(Pendulum *pe, PetscReal T, PetscInt nsteps, const char *reftype, PetscInt refdegree, Vec U)
{
  TS           ts;
  SNES         snes;
  Mat          A[4]; /* M, Mx, Mxx and the potential's Hessian */
  PetscScalar *u;
  PetscReal    ml2 = pe->m * pe->l * pe->l, s = PetscSinReal(pe->theta0);

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &A[i]));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetMass(ts, A[0], A[1], A[2], Mass, pe));
  PetscCall(TSSimpVISetPotential(ts, A[3], Potential, PotentialHessian, pe));

  /* U = (theta, phi, p_theta, p_phi): at rest in theta, turning in phi */
  PetscCall(VecGetArrayWrite(U, &u));
  u[0]      = pe->theta0;
  u[1]      = 0;
  u[2]      = 0;
  u[3]      = ml2 * s * s * pe->phidot0;
  pe->H0    = Energy(pe, u);
  pe->pphi0 = PetscRealPart(u[3]);
  PetscCall(VecRestoreArrayWrite(U, &u));
  pe->dH = pe->dpphi = pe->dHhalf[0] = pe->dHhalf[1] = 0;
  pe->nsteps                                         = nsteps;

  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, T / nsteps));
  PetscCall(TSSetMaxSteps(ts, nsteps));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSMonitorSet(ts, Monitor, pe, NULL));
  /* p_phi is conserved up to the step residual: solve each step to round-off */
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetTolerances(snes, 1e-14, 1e-14, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(TSSetFromOptions(ts));
  if (reftype) {
    PetscCall(TSSimpVISetType(ts, reftype));
    PetscCall(TSSimpVISetDegree(ts, refdegree));
  }
  PetscCall(TSSolve(ts, U));
  PetscCall(TSDestroy(&ts));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatDestroy(&A[i]));
  PetscFunctionReturn(0);
}

/* max |a_i - b_i| */
static PetscErrorCode Distance(Vec a, Vec b, PetscReal *d)
{
  Vec w;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(a, &w));
  PetscCall(VecWAXPY(w, -1, a, b));
  PetscCall(VecNorm(w, NORM_INFINITY, d));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Pendulum pe = {
    1, 1, 1, 1, 1.5, 0, 0, 0, 0, {0, 0},
             0
  };
  PetscReal   T = 4, err[8], dH[8], dpphi = 0, refdiff, eo, ho;
  PetscInt    n = 16, levels = 3, order, nref;
  Vec         U, Uref, Uref2;
  TS          ts;
  const char *type;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Spherical pendulum options", NULL);
  PetscCall(PetscOptionsReal("-theta0", "Initial angle from the downward vertical", NULL, pe.theta0, &pe.theta0, NULL));
  PetscCall(PetscOptionsReal("-phidot0", "Initial azimuthal angular velocity", NULL, pe.phidot0, &pe.phidot0, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsInt("-n", "Steps of the coarsest run", NULL, n, &n, NULL));
  PetscCall(PetscOptionsRangeInt("-levels", "Number of runs, each with twice the steps", NULL, levels, &levels, NULL, 2, 8));
  PetscOptionsEnd();

  /* the scheme and its order, as the options set them */
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(TSSimpVIGetOrder(ts, &order));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Spherical pendulum, scheme %s of order %" PetscInt_FMT ", T = %g\n", type, order, (double)T));
  PetscCall(TSDestroy(&ts));

  /* the reference: Lobatto of degree 5 (order 10) on twice the finest run's steps, checked against twice as many again */
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  PetscCall(VecDuplicate(U, &Uref));
  PetscCall(VecDuplicate(U, &Uref2));
  nref = 2 * (n << (levels - 1));
  PetscCall(Run(&pe, T, nref, TSSIMPVILOBATTO, 5, Uref));
  PetscCall(Run(&pe, T, 2 * nref, TSSIMPVILOBATTO, 5, Uref2));
  PetscCall(Distance(Uref, Uref2, &refdiff));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "reference (lobatto, degree 5, %" PetscInt_FMT " steps) agrees with twice the steps to 1e-12: %s\n", nref, refdiff < 1e-12 ? "yes" : "no"));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%8s %14s %14s %14s\n", "steps", "error at T", "energy error", "p_phi drift"));
  for (PetscInt l = 0; l < levels; l++) {
    PetscCall(Run(&pe, T, n << l, NULL, 0, U));
    PetscCall(Distance(U, Uref, &err[l]));
    dH[l] = pe.dH;
    dpphi = PetscMax(dpphi, pe.dpphi);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%8" PetscInt_FMT " %14.4e %14.4e %14.4e\n", n << l, (double)err[l], (double)dH[l], (double)pe.dpphi));
  }
  eo = PetscLog2Real(err[levels - 2] / err[levels - 1]);
  ho = PetscLog2Real(dH[levels - 2] / dH[levels - 1]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "observed orders: state %.2f, energy %.2f\n", (double)eo, (double)ho));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "order %" PetscInt_FMT " observed in the state: %s\n", order, PetscAbsReal(eo - order) < 0.3 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "energy error (max over the steps) shrinks at order %" PetscInt_FMT ": %s\n", order, PetscAbsReal(ho - order) < 0.3 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "p_phi conserved to 1e-12 at every step of every run: %s\n", dpphi < 1e-12 ? "yes" : "no"));

  /* symplectic: over 50 times as long, at the coarsest step, the energy error oscillates but does not grow (a drift
     would make the second half's maximum about twice the first's), and p_phi stays put */
  PetscCall(Run(&pe, 50 * T, 50 * n, NULL, 0, U));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "long run, %" PetscInt_FMT " steps: energy error %.2e then %.2e, p_phi drift %.1e\n", 50 * n, (double)pe.dHhalf[0], (double)pe.dHhalf[1], (double)pe.dpphi));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "long run: energy error bounded: %s\n", pe.dHhalf[1] < 1.2 * pe.dHhalf[0] ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "long run: p_phi conserved to 1e-12: %s\n", pe.dpphi < 1e-12 ? "yes" : "no"));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&Uref));
  PetscCall(VecDestroy(&Uref2));
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
    suffix: midpoint
    args: -ts_simpvi_type midpoint

  # the step Jacobian built from M, Mx, Mxx and the potential's Hessian, against finite differences
  test:
    suffix: jacobian
    args: -ts_simpvi_type lobatto -levels 2 -n 4 -T 1 -snes_test_jacobian
    filter: grep "Jfd||_F/||J||_F = " | awk '/e-(0[6-9]|1[0-9])/ {good++} END {print "every Jacobian check below 1e-6:", (NR > 0 && good == NR) ? "yes" : "no"}'

  # every SNES type runs the tutorial (issue 21): newtonls, simpvidense and kinsol solve its steps to its default
  # output; ksponly takes one Newton step per step (the wrong answer for a nonlinear problem), so only its run counts
  test:
    suffix: snes_types
    args: -ts_simpvi_type simpson -snes_type {{newtonls simpvidense}shared output}
    output_file: output/ex4_simpson.out
  test:
    suffix: snes_kinsol
    requires: kinsol
    args: -ts_simpvi_type simpson -snes_type kinsol
    output_file: output/ex4_simpson.out
  test:
    suffix: snes_ksponly
    args: -ts_simpvi_type simpson -snes_type ksponly
    filter: awk 'END {print "ran to the end:", (NR > 0) ? "yes" : "no"}'

TEST*/
