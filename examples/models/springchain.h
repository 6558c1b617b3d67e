/*
   A chain of n unit masses joined by unit springs between fixed ends, u'' + K u = 0 with K = tridiag(-1, 2, -1), shared
   by tests/ex31.c, tests/ex33.c and tests/ex35.c. Every callback takes the stiffness K itself as its context: PETSc's
   second-order form (TSSetI2Function()/TSSetI2Jacobian()) and the potential V = u'Ku/2 of TSSIMPVI's mechanical door
   (TSSimpVISetPotential()). Only petscts.h, so that the I2 form stays a plain PETSc program.
*/
#ifndef SPRINGCHAIN_H
#define SPRINGCHAIN_H
#include <petscts.h>

/* The rows of K this process owns, then K assembled (K preallocated for 3 nonzeros a row) */
static inline PetscErrorCode SpringChainSetStiffness(Mat K)
{
  PetscInt n, lo, hi;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(K, &n, NULL));
  PetscCall(MatGetOwnershipRange(K, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    if (i > 0) PetscCall(MatSetValue(K, i, i - 1, -1.0, INSERT_VALUES));
    PetscCall(MatSetValue(K, i, i, 2.0, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(K, i, i + 1, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(K, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* F = u'' + K u */
static inline PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(MatMultAdd((Mat)ctx, U, A, F));
  PetscFunctionReturn(0);
}

/* J = K + shiftA I */
static inline PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(MatCopy((Mat)ctx, P, SAME_NONZERO_PATTERN));
  PetscCall(MatShift(P, shiftA));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* V = u'Ku/2, grad V = K u */
static inline PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  PetscScalar xKx;

  PetscFunctionBeginUser;
  PetscCall(MatMult((Mat)ctx, x, g));
  PetscCall(VecDot(x, g, &xKx));
  *V = PetscRealPart(xKx) / 2;
  PetscFunctionReturn(0);
}

static inline PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(MatCopy((Mat)ctx, H, SAME_NONZERO_PATTERN));
  PetscFunctionReturn(0);
}
#endif
