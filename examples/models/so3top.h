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
#endif
