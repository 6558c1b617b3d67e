static char help[] = "The heavy (Lagrange) top of the seed's Table 3 on SO(3) (TSSimpVICreateRigidBodies()) against its exact solution:\n"
                     "the nutation u = cos theta in Jacobi elliptic functions (examples/models/lagrangetop.h), the precession phi and\n"
                     "spin psi by GSL's adaptive quadrature of their rates (rational in u), R = Rz(phi) Rx(theta) Rz(psi).\n"
                     "The exact R(T) and body angular velocity against -nfine steps of lobatto (agree to -agree_tol), then the observed\n"
                     "orders of R(T) and Omega(T) from -n0, 2 n0, 4 n0 steps of -ts_simpvi_type, verdict against -order_min.\n"
                     "Options: -T final time, -theta0 and -rates (phi', theta', psi') the start (Table 3's by default; -theta0 0\n"
                     "-rates 0,3,252: a top started upright, which comes back through the upright position), -show_errors the numbers\n\n";

#include <simpvi.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_errno.h>
#include "../examples/models/lagrangetop.h" /* the top in Euler angles and its exact nutation */
#include "../examples/models/so3top.h"      /* the same top on SO(3): SO3TopTable3, its potential and start */

/* ------------------------------------------------------------------------------------------------------------ */
/* The exact solution. With u = cos theta, b = p_phi / I, a = p_psi / I (both conserved):
     phi' = (b - a u) / (1 - u^2),   psi' = p_psi / I3 - u phi',
   b - a u = (b - a u0) + a (u0 - u), b - a u0 = phi0' sin^2 theta0, written through 1 - u (no cancellation).
   A start upright (theta0 = 0) has b = a, so phi' = a / (1 + u), regular: the axis passes over the vertical and
   theta changes sign there (u = cos theta cannot tell), and R = Rz(phi) Rx(theta) Rz(psi) with theta signed is the
   smooth solution that the Euler-angle form cannot follow (its mass matrix is singular at theta = 0). */

static void Rates(const Top *top, PetscReal t, PetscReal *th, PetscReal *dphi, PetscReal *dth, PetscReal *dpsi)
{
  const PetscReal s0 = PetscSinReal(top->q0[1]), omu0 = 1 - PetscCosReal(top->q0[1]), a = top->p0[2] / top->I1;
  PetscReal       omu, u, s;
  double          sn, cn, dn;

  *th = ExactTheta(top, t);
  omu = 2 * PetscSqr(PetscSinReal(*th / 2)); /* 1 - u */
  u   = 1 - omu;
  gsl_sf_elljac_e(top->lambda * t + top->tau0, top->k * top->k, &sn, &cn, &dn);
  if (s0 == 0) { /* an upright start (tau0 = K, cn < 0 while the top leaves upright): theta signed, -sign(cn) theta */
    if (cn > 0) *th = -*th;
    *dphi = a / (2 - omu);
  } else *dphi = (top->v0[0] * s0 * s0 + a * (omu - omu0)) / (omu * (2 - omu));
  s     = PetscSinReal(*th);
  *dpsi = top->p0[2] / top->I3 - u * *dphi;
  /* u = u1 + (u2 - u1) sn^2: u' = 2 lambda (u2 - u1) sn cn dn, theta' = -u' / sin theta */
  *dth = s != 0 ? -2 * top->lambda * (top->w2 - top->w1) * sn * cn * dn / s : 0;
}

static double PhiRate(double t, void *ctx)
{
  PetscReal th, dphi, dth, dpsi;

  Rates((const Top *)ctx, t, &th, &dphi, &dth, &dpsi);
  return dphi;
}

/* psi' - p_psi / I3 = -u phi': integrated apart from the large constant rate */
static double PsiRateRest(double t, void *ctx)
{
  PetscReal th, dphi, dth, dpsi;

  Rates((const Top *)ctx, t, &th, &dphi, &dth, &dpsi);
  return -PetscCosReal(th) * dphi;
}

/* R = Rz(phi) Rx(theta) Rz(psi) (row-major) and Omega = (theta' cos psi + phi' s sin psi, -theta' sin psi + phi' s cos psi,
   phi' cos theta + psi'), the body angular velocity of R' = R hat(Omega) */
static PetscErrorCode ExactSolution(const Top *top, PetscReal T, PetscReal R[9], PetscReal Om[3])
{
  gsl_integration_workspace *w = gsl_integration_workspace_alloc(1000);
  double                     phi, psi, err;
  PetscReal                  th, dphi, dth, dpsi;
  gsl_function               f = {PhiRate, (void *)top};

  PetscFunctionBeginUser;
  PetscCheck(w, PETSC_COMM_SELF, PETSC_ERR_MEM, "GSL workspace");
  gsl_set_error_handler_off(); /* a failed quadrature is a PETSc error below, not an abort */
  PetscCheck(!gsl_integration_qag(&f, 0, T, 0, 1e-13, 1000, GSL_INTEG_GAUSS61, w, &phi, &err), PETSC_COMM_SELF, PETSC_ERR_LIB, "GSL quadrature of phi' failed");
  f.function = PsiRateRest;
  PetscCheck(!gsl_integration_qag(&f, 0, T, 0, 1e-13, 1000, GSL_INTEG_GAUSS61, w, &psi, &err), PETSC_COMM_SELF, PETSC_ERR_LIB, "GSL quadrature of psi' failed");
  gsl_integration_workspace_free(w);
  psi += top->p0[2] / top->I3 * T;
  Rates(top, T, &th, &dphi, &dth, &dpsi);
  {
    const PetscReal cf = PetscCosReal(phi), sf = PetscSinReal(phi), ct = PetscCosReal(th), st = PetscSinReal(th), cp = PetscCosReal(psi), sp = PetscSinReal(psi);
    const PetscReal A[9] = {cf, -sf * ct, sf * st, sf, cf * ct, -cf * st, 0, st, ct}; /* Rz(phi) Rx(theta) */

    for (PetscInt i = 0; i < 3; i++) R[i * 3] = A[i * 3] * cp + A[i * 3 + 1] * sp, R[i * 3 + 1] = -A[i * 3] * sp + A[i * 3 + 1] * cp, R[i * 3 + 2] = A[i * 3 + 2];
    Om[0] = dth * cp + dphi * st * sp;
    Om[1] = -dth * sp + dphi * st * cp;
    Om[2] = dphi * ct + dpsi;
  }
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------------------------ */

/* N steps of T/N of the scheme from the top's start; U = (R, pi) at T */
static PetscErrorCode Run(TS ts, const SO3Top *top, PetscInt N, PetscReal T, Vec U)
{
  PetscReal         J[9];
  SimpVIRigidBodies rb;

  PetscFunctionBeginUser;
  SO3TopInertia(top, J);
  PetscCall(TSSimpVICreateRigidBodies(ts, 1, J, SO3TopPotential, (void *)top, &rb));
  PetscCall(SO3TopSetState(top, U));
  for (PetscInt i = 0; i < N; i++) PetscCall(SimpVIRigidBodiesStep(rb, T / N, U));
  PetscCall(SimpVIRigidBodiesDestroy(&rb));
  PetscFunctionReturn(0);
}

/* ||R - Rex||_max and |Omega - Omex|_max / |Omex|_max, Omega = J^-1 pi */
static PetscErrorCode Errors(const SO3Top *top, Vec U, const PetscReal Rex[9], const PetscReal Omex[3], PetscReal *eR, PetscReal *eO)
{
  const PetscScalar *u;
  const PetscReal    Jd[3] = {top->I1, top->I1, top->I3};
  PetscReal          om    = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  *eR = *eO = 0;
  for (PetscInt j = 0; j < 9; j++) *eR = PetscMax(*eR, PetscAbsReal(PetscRealPart(u[j]) - Rex[j]));
  for (PetscInt j = 0; j < 3; j++) *eO = PetscMax(*eO, PetscAbsReal(PetscRealPart(u[9 + j]) / Jd[j] - Omex[j])), om = PetscMax(om, PetscAbsReal(Omex[j]));
  *eO /= om;
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunExact(TS ts)
{
  SO3Top       so3store = SO3TopTable3, *so3 = &so3store;                               /* the top on the group */
  Top          top = {.mass = 0.1, .g = 9.81, .l = 0.15, .I1 = so3->I1, .I3 = so3->I3}; /* in Euler angles, for the exact solution */
  PetscInt     n0 = 200, nfine = 3200, nr = 3;
  PetscReal    T = 0.25, omin = 3.9, tol = 1e-12, Rex[9], Omex[3], eR[3], eO[3], fR, fO, oR, oO;
  PetscBool    show = PETSC_FALSE;
  TSSimpVIType type;
  Vec          U;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n0", &n0, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nfine", &nfine, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-T", &T, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-order_min", &omin, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-agree_tol", &tol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-show_errors", &show, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-theta0", &so3->theta0, NULL));
  PetscCall(PetscOptionsGetRealArray(NULL, NULL, "-rates", so3->rates, &nr, NULL));
  top.q0[1] = so3->theta0; /* the same start */
  for (PetscInt i = 0; i < 3; i++) top.v0[i] = so3->rates[i];
  PetscCheck(PetscAbsReal(so3->mgl - top.mass * top.g * top.l) <= 1e-15, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The two tops differ");
  PetscCall(TopSetUp(&top));
  PetscCall(ExactSolution(&top, T, Rex, Omex));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12, &U));

  /* the exact solution against a fine run of lobatto (order 6): the convention and the formulas checked */
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(PetscStrallocpy(type, (char **)&type));
  PetscCall(TSSimpVISetType(ts, TSSIMPVILOBATTO));
  PetscCall(Run(ts, so3, nfine, T, U));
  PetscCall(Errors(so3, U, Rex, Omex, &fR, &fO));
  PetscCall(TSSimpVISetType(ts, type));
  PetscCall(PetscFree(type));
  if (so3->theta0 == 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "heavy top (Table 3's, started upright) at T = %g s, past its return to the upright position (t = %.6f s): %s\n", (double)T, (double)top.period, T > top.period ? "yes" : "no"));
  else PetscCall(PetscPrintf(PETSC_COMM_SELF, "heavy top (Table 3) at T = %g s\n", (double)T));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  exact solution (Jacobi sn, quadrature of phi', psi')\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  agrees with %" PetscInt_FMT " steps of lobatto to %g: %s\n", nfine, (double)tol, PetscMax(fR, fO) <= tol ? "yes" : "no"));

  for (PetscInt i = 0; i < 3; i++) {
    PetscCall(Run(ts, so3, n0 << i, T, U));
    PetscCall(Errors(so3, U, Rex, Omex, &eR[i], &eO[i]));
  }
  oR = PetscLog2Real(eR[1] / eR[2]);
  oO = PetscLog2Real(eO[1] / eO[2]);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  observed orders from %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT " steps against the exact solution:\n", n0, 2 * n0, 4 * n0));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  R(T): errors decrease: %s, order >= %g: %s\n", eR[0] > eR[1] && eR[1] > eR[2] ? "yes" : "no", (double)omin, oR >= omin ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  body angular velocity: errors decrease: %s, order >= %g: %s\n", eO[0] > eO[1] && eO[1] > eO[2] ? "yes" : "no", (double)omin, oO >= omin ? "yes" : "no"));
  if (show || PetscMax(fR, fO) > tol || oR < omin || oO < omin) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  fine run: R %g Omega %g\n", (double)fR, (double)fO));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  R errors %g %g %g (order %.3f), Omega errors %g %g %g (order %.3f)\n", (double)eR[0], (double)eR[1], (double)eR[2], (double)oR, (double)eO[0], (double)eO[1], (double)eO[2], (double)oO));
  }
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  TS ts;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(RunExact(ts));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: gsl

  test:
    suffix: simpson
    args: -ts_simpvi_type simpson -order_min 3.9

  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto -order_min 5.8 -n0 100

  # past a full nutation period (1.85 s): theta through its lowest and highest point, the quadratures over both
  test:
    suffix: lobatto_period
    args: -ts_simpvi_type lobatto -order_min 5.8 -T 2 -n0 800 -nfine 4800 -agree_tol 1e-9

  # a top started upright (Euler angles' singularity) that comes back through the upright position at t = 0.82 s:
  # on the group it stays on the exact solution at the scheme's order (tests-rigidbody_upright_euler*: the same top in
  # Euler angles stops there)
  test:
    suffix: upright_simpson
    args: -ts_simpvi_type simpson -order_min 3.9 -theta0 0 -rates 0,3,252 -T 1 -n0 400 -nfine 6400

  test:
    suffix: upright_lobatto
    args: -ts_simpvi_type lobatto -order_min 5.8 -theta0 0 -rates 0,3,252 -T 1 -n0 400 -nfine 6400

TEST*/
