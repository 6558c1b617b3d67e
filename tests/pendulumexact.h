/*
   The exact motion of the pendulum q'' = -sin q released at rest from q0 (unit mass and frequency), through Jacobi's
   elliptic functions with modulus k = sin(q0/2):
     q(t) = 2 asin(k sn(K - t, k)),  p(t) = q'(t) = -2 k cn(K - t, k),  period T = 4 K(k),
   zero crossings of q at t = (2j + 1) K. K and sn, cn come from the arithmetic-geometric mean (Abramowitz and Stegun
   17.6 and 16.4), exact to round-off, so that errors of 1e-10 and below can be measured against them.
*/
#ifndef PENDULUMEXACT_H
#define PENDULUMEXACT_H
#include <petscsys.h>

/* the complete elliptic integral of the first kind: K(k) = pi / (2 AGM(1, sqrt(1 - k^2))) */
static PetscReal EllipticK(PetscReal k)
{
  PetscReal a = 1, b = PetscSqrtReal(1 - k * k);

  for (PetscInt i = 0; i < 64 && PetscAbsReal(a - b) > 1e-17 * a; i++) {
    PetscReal an = (a + b) / 2;

    b = PetscSqrtReal(a * b);
    a = an;
  }
  return PETSC_PI / (2 * a);
}

/* sn(u, k) and cn(u, k) by the descending AGM: phi_N = 2^N a_N u, phi_{n-1} = (phi_n + asin(c_n sin(phi_n) / a_n)) / 2 */
static void JacobiSnCn(PetscReal u, PetscReal k, PetscReal *sn, PetscReal *cn)
{
  PetscReal a[64], c[64], b = PetscSqrtReal(1 - k * k), phi;
  PetscInt  n = 0;

  a[0] = 1;
  c[0] = k;
  while (n < 63 && PetscAbsReal(c[n]) > 1e-17) {
    a[n + 1] = (a[n] + b) / 2;
    c[n + 1] = (a[n] - b) / 2;
    b        = PetscSqrtReal(a[n] * b);
    n++;
  }
  phi = PetscPowReal(2.0, (PetscReal)n) * a[n] * u;
  for (; n > 0; n--) phi = (phi + PetscAsinReal(c[n] * PetscSinReal(phi) / a[n])) / 2;
  *sn = PetscSinReal(phi);
  *cn = PetscCosReal(phi);
}

/* (q, p) at time t of the pendulum released at rest from q0 */
static void PendulumExact(PetscReal q0, PetscReal t, PetscReal *q, PetscReal *p)
{
  PetscReal k = PetscSinReal(q0 / 2), K = EllipticK(k), sn, cn;

  JacobiSnCn(K - t, k, &sn, &cn);
  *q = 2 * PetscAsinReal(k * sn);
  *p = -2 * k * cn;
}
#endif
