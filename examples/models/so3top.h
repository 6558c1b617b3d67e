/*
   The heavy top on SO(3) for TSSimpVISetRigidBodies() (the same top in Euler angles is lagrangetop.h), shared by
   tests/rigidbody_ts.c, tests/rigidbody_exact.c and bench/rigidtop.c. tutorials/ex8.c keeps its own copy (a tutorial
   reads on its own; its comment derives the gradient and Hessian), and tests/rigidbody.c its own (its context holds
   the pair potential's coupling too). A rigid body of mass m with its centre of mass at distance l from the fixed point on the body's
   symmetry axis e3, principal moments of inertia I1 = I2, I3 about the fixed point; its state is 12 numbers, R
   row-major and the body angular momentum Pi = J Omega, J = diag(I1, I1, I3). The potential

     V(R) = m g l e3' R e3 = m g l R_33    (the height of the centre of mass, gravity along -e3)

   with z = R' e3 (the third row of R) has the body-frame gradient g = m g l (e3 x z) (g . eta = d/de V(R exp(e hat(eta)))
   at e = 0) and the Hessian m g l ((z e3' + e3 z') / 2 - z3 I) of V(R exp(hat(e))) at e = 0.
*/
#ifndef SO3TOP_H
#define SO3TOP_H
#include <simpvi.h>

typedef struct {
  PetscReal I1, I3, mgl;      /* the moments of inertia about the fixed point (I2 = I1), m g l */
  PetscReal theta0, rates[3]; /* the start: ZXZ Euler angles (0, theta0, 0), their rates (phi', theta', psi') */
} SO3Top;

/* the seed's Table 3: m = 0.1 kg, l = 0.15 m, I1 = 2.33e-3, I3 = 1.25e-4 kg m^2; the start (0, pi/3, 0), (9.2, 0, 252) rad/s */
static const SO3Top SO3TopTable3 = {
  .I1 = 2.33e-3, .I3 = 1.25e-4, .mgl = 0.1 * 9.81 * 0.15, .theta0 = PETSC_PI / 3, .rates = {9.2, 0, 252}
};

/* J = diag(I1, I1, I3), row-major */
static inline void SO3TopInertia(const SO3Top *top, PetscReal J[9])
{
  for (PetscInt i = 0; i < 9; i++) J[i] = 0;
  J[0] = J[4] = top->I1;
  J[8]        = top->I3;
}

/* V, its gradient and Hessian on the group, for TSSimpVISetRigidBodies(); ctx is the SO3Top */
static inline PetscErrorCode SO3TopPotential(PetscInt nb, const PetscReal R[], PetscReal *V, PetscReal g[], PetscReal H[], void *ctx)
{
  const PetscReal c = ((const SO3Top *)ctx)->mgl, z[3] = {R[6], R[7], R[8]};

  PetscFunctionBeginUser;
  *V = c * z[2];
  if (g) g[0] = -c * z[1], g[1] = c * z[0], g[2] = 0;
  if (H)
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) H[i * 3 + j] = c * ((z[i] * (j == 2) + (i == 2) * z[j]) / 2 - z[2] * (i == j));
  PetscFunctionReturn(0);
}

/* The start in U = (R, Pi): R = Rx(theta0) (precession and spin angles 0), Pi = J Omega from the Euler-angle rates,
   Omega = (theta', phi' sin theta0, phi' cos theta0 + psi') */
static inline PetscErrorCode SO3TopSetState(const SO3Top *top, Vec U)
{
  const PetscReal  th = top->theta0, xi[3] = {th, 0, 0};
  const PetscReal *rates = top->rates;
  PetscScalar     *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArray(U, &u));
  PetscCall(SimpVISO3Exp(xi, u));
  u[9] = top->I1 * rates[1], u[10] = top->I1 * rates[0] * PetscSinReal(th), u[11] = top->I3 * (rates[0] * PetscCosReal(th) + rates[2]);
  PetscCall(VecRestoreArray(U, &u));
  PetscFunctionReturn(0);
}
/* V = sum_b mgl (R_b)_33 - kappa tr(R1' R2) for nb tops (the coupling when nb = 2; tests/rigidbody_adjoint.c and
   tests/rigidbody_torque.c): the top's gravity on each body, and the pair's coupling (tests/rigidbody.c: g1 = -kappa vee(A - A'), g2 = -g1, H11 = H22 = -kappa (sym(A) - tr(A) I), H12 = kappa (A' - tr(A) I)) */
static inline PetscErrorCode SO3TopsCoupledPotential(PetscReal mgl, PetscReal kappa, PetscInt nb, const PetscReal R[], PetscReal *V, PetscReal g[], PetscReal H[])
{
  const PetscInt n   = 3 * nb;
  SO3Top         top = {.mgl = mgl};

  PetscFunctionBeginUser;
  *V = 0;
  if (H)
    for (PetscInt j = 0; j < n * n; j++) H[j] = 0;
  for (PetscInt b = 0; b < nb; b++) {
    PetscReal Vb, gb[3], Hb[9];

    PetscCall(SO3TopPotential(1, R + 9 * b, &Vb, gb, Hb, &top));
    *V += Vb;
    for (PetscInt i = 0; g && i < 3; i++) g[3 * b + i] = gb[i];
    for (PetscInt i = 0; H && i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) H[(3 * b + i) * n + 3 * b + j] = Hb[3 * i + j];
  }
  if (nb == 2) {
    const PetscReal k = kappa;
    PetscReal       A[9], tr, w[3];

    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) A[i * 3 + j] = R[i] * R[9 + j] + R[3 + i] * R[9 + 3 + j] + R[6 + i] * R[9 + 6 + j];
    tr = A[0] + A[4] + A[8];
    *V += -k * tr;
    w[0] = A[7] - A[5], w[1] = A[2] - A[6], w[2] = A[3] - A[1];
    if (g)
      for (PetscInt j = 0; j < 3; j++) g[j] += -k * w[j], g[3 + j] += k * w[j];
    if (H)
      for (PetscInt i = 0; i < 3; i++)
        for (PetscInt j = 0; j < 3; j++) {
          const PetscReal d = (i == j), sym = (A[i * 3 + j] + A[j * 3 + i]) / 2;

          H[i * 6 + j] += -k * (sym - tr * d);
          H[(3 + i) * 6 + 3 + j] += -k * (sym - tr * d);
          H[i * 6 + 3 + j] += k * (A[j * 3 + i] - tr * d);
          H[(3 + i) * 6 + j] += k * (A[i * 3 + j] - tr * d);
        }
  }
  PetscFunctionReturn(0);
}
#endif
