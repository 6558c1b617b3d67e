static char help[] = "The maps of so(3) behind the rigid-body step: exp (Rodrigues), log, dexp_{-xi} = T(xi) and its inverse, and the\n"
                     "gradient and Hessian of a' T(xi) b, each against central differences of the map it derives (or its\n"
                     "defining identity), at rotation angles from 1e-4 to 3 (the series below angle 2, the closed forms above).\n"
                     "Prints a verdict per check.\n\n";

#include <simpvi.h>

int main(int argc, char **argv)
{
  const PetscReal angles[] = {1e-4, 0.3, 1.2, 1.99, 2.01, 2.7, 3.0}, dir[3] = {0.48, -0.6, 0.64}, a[3] = {0.3, -1.1, 0.7}, b[3] = {-0.9, 0.2, 0.5};
  const PetscReal eps   = 1e-5;
  PetscReal       eorth = 0, elog = 0, eT = 0, eTinv = 0, egrad = 0, ehess = 0, eid = 0, ephi = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  for (size_t t = 0; t < sizeof(angles) / sizeof(angles[0]); t++) {
    PetscReal xi[3], E[9], T[9], Tinv[9], back[3], phi, grad[3], hess[9];

    for (PetscInt j = 0; j < 3; j++) xi[j] = angles[t] * dir[j];
    PetscCall(SimpVISO3Exp(xi, E));
    PetscCall(SimpVISO3Dexp(xi, T, Tinv));
    /* E orthogonal with determinant 1 */
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) eorth = PetscMax(eorth, PetscAbsReal(E[i] * E[j] + E[3 + i] * E[3 + j] + E[6 + i] * E[6 + j] - (i == j)));
    eorth = PetscMax(eorth, PetscAbsReal(E[0] * (E[4] * E[8] - E[5] * E[7]) - E[1] * (E[3] * E[8] - E[5] * E[6]) + E[2] * (E[3] * E[7] - E[4] * E[6]) - 1));
    /* log(exp(xi)) = xi */
    PetscCall(SimpVISO3Log(E, back));
    for (PetscInt j = 0; j < 3; j++) elog = PetscMax(elog, PetscAbsReal(back[j] - xi[j]) / angles[t]);
    /* E' d/de exp(xi + e z) = hat(T z) by central differences, for each unit z */
    for (PetscInt c = 0; c < 3; c++) {
      PetscReal xp[3], xm[3], Ep[9], Em[9], W[9], w[3];

      for (PetscInt j = 0; j < 3; j++) xp[j] = xi[j] + eps * (j == c), xm[j] = xi[j] - eps * (j == c);
      PetscCall(SimpVISO3Exp(xp, Ep));
      PetscCall(SimpVISO3Exp(xm, Em));
      for (PetscInt i = 0; i < 3; i++)
        for (PetscInt j = 0; j < 3; j++) W[i * 3 + j] = (E[i] * (Ep[j] - Em[j]) + E[3 + i] * (Ep[3 + j] - Em[3 + j]) + E[6 + i] * (Ep[6 + j] - Em[6 + j])) / (2 * eps);
      w[0] = W[7], w[1] = W[2], w[2] = W[3];
      for (PetscInt i = 0; i < 3; i++) eT = PetscMax(eT, PetscAbsReal(w[i] - T[i * 3 + c]));
      eT = PetscMax(eT, PetscMax(PetscAbsReal(W[7] + W[5]), PetscMax(PetscAbsReal(W[2] + W[6]), PetscAbsReal(W[3] + W[1])))); /* skew */
    }
    /* T Tinv = I; exp(xi) T = T' */
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) {
        eTinv = PetscMax(eTinv, PetscAbsReal(T[i * 3] * Tinv[j] + T[i * 3 + 1] * Tinv[3 + j] + T[i * 3 + 2] * Tinv[6 + j] - (i == j)));
        eid   = PetscMax(eid, PetscAbsReal(E[i * 3] * T[j] + E[i * 3 + 1] * T[3 + j] + E[i * 3 + 2] * T[6 + j] - T[j * 3 + i]));
      }
    /* phi = a' T b, its gradient and Hessian by central differences */
    PetscCall(SimpVISO3DexpDerivative(xi, a, b, &phi, grad, hess));
    {
      PetscReal Tb[3];

      for (PetscInt i = 0; i < 3; i++) Tb[i] = T[i * 3] * b[0] + T[i * 3 + 1] * b[1] + T[i * 3 + 2] * b[2];
      ephi = PetscMax(ephi, PetscAbsReal(phi - (a[0] * Tb[0] + a[1] * Tb[1] + a[2] * Tb[2])));
    }
    for (PetscInt c = 0; c < 3; c++) {
      PetscReal xp[3], xm[3], pp, pm, gp[3], gm[3];

      for (PetscInt j = 0; j < 3; j++) xp[j] = xi[j] + eps * (j == c), xm[j] = xi[j] - eps * (j == c);
      PetscCall(SimpVISO3DexpDerivative(xp, a, b, &pp, gp, NULL));
      PetscCall(SimpVISO3DexpDerivative(xm, a, b, &pm, gm, NULL));
      egrad = PetscMax(egrad, PetscAbsReal((pp - pm) / (2 * eps) - grad[c]));
      for (PetscInt i = 0; i < 3; i++) ehess = PetscMax(ehess, PetscAbsReal((gp[i] - gm[i]) / (2 * eps) - hess[i * 3 + c]));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "exp orthogonal, det 1 (to 1e-14): %s\n", eorth <= 1e-14 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "log(exp(xi)) = xi (to 1e-13 relative): %s\n", elog <= 1e-13 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "exp(xi)' d exp = hat(T(xi) dxi) (central differences, to 1e-8): %s\n", eT <= 1e-8 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "T(xi) Tinv(xi) = I (to 1e-14): %s\n", eTinv <= 1e-14 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "exp(xi) T(xi) = T(xi)' (to 1e-14): %s\n", eid <= 1e-14 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "phi = a' T(xi) b (to 1e-14): %s\n", ephi <= 1e-14 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "gradient of a' T(xi) b = central differences (to 1e-8): %s\n", egrad <= 1e-8 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "Hessian of a' T(xi) b = central differences of the gradient (to 1e-8): %s\n", ehess <= 1e-8 ? "yes" : "no"));
  if (PetscMax(PetscMax(eT, egrad), ehess) > 1e-8 || PetscMax(PetscMax(eorth, eTinv), PetscMax(eid, ephi)) > 1e-14 || elog > 1e-13)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  errors: orth %g log %g T %g Tinv %g id %g phi %g grad %g hess %g\n", (double)eorth, (double)elog, (double)eT, (double)eTinv, (double)eid, (double)ephi, (double)egrad, (double)ehess));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:

TEST*/
