/*
   The Lagrange top in Euler angles q = (phi, theta, psi) (Rojas-Quintero, Dubois, Jourdan 2025, section 4), shared by
   examples/ex4.c (Table 3) and examples/ex5.c (Table 6): its mechanics for the mechanical and Lagrangian doors, the
   velocity form a classical code integrates, and the exact nutation.

   The top (section 4.1 of the paper): I = I1 = I2, I3, mass m, centre of mass at distance l on the symmetry axis,
     L = 1/2 I (theta'^2 + phi'^2 sin^2 theta) + 1/2 I3 (psi' + phi' cos theta)^2 - m g l cos theta,
     M(theta) = [ I s^2 + I3 c^2, 0, I3 c ; 0, I, 0 ; I3 c, 0, I3 ]      (s = sin theta, c = cos theta).
   phi and psi are cyclic: p_phi and p_psi are conserved, and a variational integrator conserves them to round-off.

   Exact nutation (the reference of Tables 4 and 5). With u = cos theta, the energy integral is
     u'^2 = f(u) = (1 - u^2)(alpha - beta u) - (b - a u)^2,
     alpha = 2 (H - p_psi^2 / 2 I3) / I,  beta = 2 m g l / I,  a = p_psi / I,  b = p_phi / I,
   a cubic with roots u1 <= u0 <= u2 <= 1 < u3 (u0 = cos theta0). Then
     u(t) = u1 + (u2 - u1) sn^2(lambda t + tau0, k),  k^2 = (u2 - u1)/(u3 - u1),  lambda = sqrt(beta (u3 - u1)) / 2,
   and the nutation period is 2 K(k) / lambda (1.846708 s for Table 3). The paper's Weierstrass form (20) reduces to this.
   To keep the roots accurate, f is expanded about u0 with coefficients from the initial rates (no cancellation in
   alpha - b^2): f(u0 + w) = f0 + f1 w + f2 w^2 + beta w^3 with
     f0 = s0^2 theta0'^2 (s0^2 = 1 - u0^2),  f1 = -2 u0 e0 - beta s0^2 + 2 a d0,  f2 = -e0 + 2 beta u0 - a^2,
     d0 = b - a u0 = phi0' s0^2,  e0 = alpha - beta u0 = theta0'^2 + phi0'^2 s0^2;
   when theta0' = 0 (Table 3), w = 0 is a root and the two others solve a quadratic; otherwise GSL's cubic solver,
   polished by Newton. theta = 2 asin(sqrt((1 - u)/2)) with 1 - u = (1 - u2) + (u2 - u1) cn^2 keeps theta accurate
   near the top of the loops (theta_min is 2.7 degrees for Table 3).
*/
#ifndef LAGRANGETOP_H
#define LAGRANGETOP_H
#include <simpvi.h>
#if !defined(LAGRANGETOP_MECHANICS_ONLY) /* the mechanics alone (tests/smallpath.c) need no GSL */
  #include <gsl/gsl_sf_elljac.h>
  #include <gsl/gsl_sf_ellint.h>
  #include <gsl/gsl_poly.h>
#endif

typedef struct {
  PetscReal mass, g, l, I1, I3;      /* the paper's Table 3 or 6 */
  PetscReal q0[3], v0[3], p0[3], H0; /* initial state, momenta and energy */
  PetscReal beta;                    /* 2 m g l / I */
  PetscReal w1, w2, w3, c2;          /* roots of f(u0 + w), and 1 - u2 */
  PetscReal k, K, lambda, tau0, period;
} Top;

/* ---------------------------------------------------------------------------------------------------------- */
/* The mechanics                                                                                                */

static inline void MassMatrix(const Top *top, PetscReal th, PetscReal M[3][3])
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
static inline PetscReal Energy(const Top *top, const PetscScalar *u)
{
  const PetscReal th = PetscRealPart(u[1]), s = PetscSinReal(th), c = PetscCosReal(th);
  const PetscReal pphi = PetscRealPart(u[3]), pth = PetscRealPart(u[4]), ppsi = PetscRealPart(u[5]);
  const PetscReal d = pphi - ppsi * c;

  return 0.5 * pth * pth / top->I1 + 0.5 * d * d / (top->I1 * s * s) + 0.5 * ppsi * ppsi / top->I3 + top->mass * top->g * top->l * c;
}

static inline PetscErrorCode SetDense(Mat A, PetscReal a[3][3])
{
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) PetscCall(MatSetValue(A, i, j, a[i][j], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* theta and the rates (phi', theta', psi') at (x, v): all that L depends on besides constants */
static inline PetscErrorCode GetThetaAndRates(Vec x, Vec v, PetscReal *th, PetscReal *dphi, PetscReal *dth, PetscReal *dpsi)
{
  const PetscScalar *xx, *vv;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  *th   = PetscRealPart(xx[1]);
  *dphi = PetscRealPart(vv[0]);
  *dth  = PetscRealPart(vv[1]);
  *dpsi = PetscRealPart(vv[2]);
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscFunctionReturn(0);
}

/* Mechanical door. With w3 = psi' + phi' c, only theta (index 1) enters M:
   Mx(i,1) = d(M v)_i/dtheta = (2 (I - I3) s c phi' - I3 s psi', 0, -I3 s phi'),
   g_1 = 1/2 v' dM/dtheta v = (I - I3) s c phi'^2 - I3 s phi' psi',
   Mxx(1,1) = 1/2 v' d2M/dtheta2 v = (I - I3) cos(2 theta) phi'^2 - I3 c phi' psi' */
static inline PetscErrorCode Mass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  Top         *top = (Top *)ctx;
  PetscScalar *gg;
  PetscReal    A[3][3], B[3][3] = {{0}}, C[3][3] = {{0}}, th = 0, dphi = 0, dth = 0, dpsi = 0, s, c;

  PetscFunctionBeginUser;
  PetscCall(GetThetaAndRates(x, v, &th, &dphi, &dth, &dpsi));
  s = PetscSinReal(th);
  c = PetscCosReal(th);
  MassMatrix(top, th, A);
  B[0][1] = 2 * (top->I1 - top->I3) * s * c * dphi - top->I3 * s * dpsi;
  B[2][1] = -top->I3 * s * dphi;
  C[1][1] = (top->I1 - top->I3) * (c * c - s * s) * dphi * dphi - top->I3 * c * dphi * dpsi;
  PetscCall(VecGetArrayWrite(g, &gg));
  gg[0] = 0;
  gg[1] = (top->I1 - top->I3) * s * c * dphi * dphi - top->I3 * s * dphi * dpsi;
  gg[2] = 0;
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(SetDense(M, A));
  PetscCall(SetDense(Mx, B));
  PetscCall(SetDense(Mxx, C));
  PetscFunctionReturn(0);
}

/* V = m g l cos theta */
static inline PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec gradV, void *ctx)
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

static inline PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
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

/* Lagrangian door: the same L with its gradient and Hessian blocks (L_vx = Mx above, L_xx = Mxx - d2V) */
static inline PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  Top            *top = (Top *)ctx;
  const PetscReal mgl = top->mass * top->g * top->l;
  PetscScalar    *lx, *lv;
  PetscReal       th = 0, dphi = 0, dth = 0, dpsi = 0, s, c, w3;

  PetscFunctionBeginUser;
  PetscCall(GetThetaAndRates(x, v, &th, &dphi, &dth, &dpsi));
  s  = PetscSinReal(th);
  c  = PetscCosReal(th);
  w3 = dpsi + dphi * c;
  *L = 0.5 * top->I1 * (dth * dth + dphi * dphi * s * s) + 0.5 * top->I3 * w3 * w3 - mgl * c;
  PetscCall(VecGetArrayWrite(Lx, &lx));
  PetscCall(VecGetArrayWrite(Lv, &lv));
  lx[0] = 0;
  lx[1] = top->I1 * dphi * dphi * s * c - top->I3 * w3 * dphi * s + mgl * s;
  lx[2] = 0;
  lv[0] = top->I1 * dphi * s * s + top->I3 * w3 * c;
  lv[1] = top->I1 * dth;
  lv[2] = top->I3 * w3;
  PetscCall(VecRestoreArrayWrite(Lx, &lx));
  PetscCall(VecRestoreArrayWrite(Lv, &lv));
  PetscFunctionReturn(0);
}

static inline PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  Top            *top = (Top *)ctx;
  const PetscReal mgl = top->mass * top->g * top->l;
  PetscReal       A[3][3], B[3][3] = {{0}}, C[3][3] = {{0}}, th = 0, dphi = 0, dth = 0, dpsi = 0, s, c, w3;

  PetscFunctionBeginUser;
  PetscCall(GetThetaAndRates(x, v, &th, &dphi, &dth, &dpsi));
  s  = PetscSinReal(th);
  c  = PetscCosReal(th);
  w3 = dpsi + dphi * c;
  MassMatrix(top, th, A);
  B[0][1] = 2 * top->I1 * dphi * s * c - top->I3 * dphi * s * c - top->I3 * w3 * s; /* d2L/dphi' dtheta */
  B[2][1] = -top->I3 * dphi * s;                                                    /* d2L/dpsi' dtheta */
  C[1][1] = top->I1 * dphi * dphi * (c * c - s * s) + top->I3 * dphi * dphi * s * s - top->I3 * w3 * dphi * c + mgl * c;
  PetscCall(SetDense(Lxx, C));
  PetscCall(SetDense(Lvx, B));
  PetscCall(SetDense(Lvv, A));
  PetscFunctionReturn(0);
}

/* The velocity form U = (q, v) that a classical code integrates: q' = v, M(q) v' = L_x - L_vx v (from d/dt L_v = L_x) */
static inline PetscErrorCode RHSVelocity(TS ts, PetscReal t, Vec U, Vec F, void *ctx)
{
  Top               *top = (Top *)ctx;
  const PetscReal    mgl = top->mass * top->g * top->l;
  const PetscScalar *u;
  PetscScalar       *f;
  PetscReal          M[3][3], r[3], th, s, c, dphi, dth, dpsi, w3, det;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayWrite(F, &f));
  th   = PetscRealPart(u[1]);
  dphi = PetscRealPart(u[3]);
  dth  = PetscRealPart(u[4]);
  dpsi = PetscRealPart(u[5]);
  s    = PetscSinReal(th);
  c    = PetscCosReal(th);
  w3   = dpsi + dphi * c;
  MassMatrix(top, th, M);
  /* L_x - L_vx v: only theta' multiplies the nonzero column of L_vx */
  r[0] = -(2 * top->I1 * dphi * s * c - top->I3 * dphi * s * c - top->I3 * w3 * s) * dth;
  r[1] = top->I1 * dphi * dphi * s * c - top->I3 * w3 * dphi * s + mgl * s;
  r[2] = top->I3 * dphi * s * dth;
  /* M = [a 0 b; 0 I 0; b 0 I3]: the (phi, psi) block by Cramer's rule */
  det  = M[0][0] * M[2][2] - M[0][2] * M[2][0];
  f[0] = dphi;
  f[1] = dth;
  f[2] = dpsi;
  f[3] = (M[2][2] * r[0] - M[0][2] * r[2]) / det;
  f[4] = r[1] / top->I1;
  f[5] = (M[0][0] * r[2] - M[2][0] * r[0]) / det;
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------------------------------------- */
#if !defined(LAGRANGETOP_MECHANICS_ONLY)
/* The exact nutation                                                                                           */

static inline PetscErrorCode TopSetUp(Top *top)
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

static inline PetscReal ExactTheta(const Top *top, PetscReal t)
{
  double sn, cn, dn, omu;

  gsl_sf_elljac_e(top->lambda * t + top->tau0, top->k * top->k, &sn, &cn, &dn); /* GSL takes the parameter m = k^2 */
  omu = top->c2 + (top->w2 - top->w1) * cn * cn;                                /* 1 - cos theta */
  return 2 * PetscAsinReal(PetscSqrtReal(PetscMax(0, omu) / 2));
}

#endif
#endif
