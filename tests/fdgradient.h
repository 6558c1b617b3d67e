/*
   The check of an adjoint gradient lambda = dC/dU0 against central differences of the cost, shared by tests/adjoint.c
   and tests/adjoint_i2.c. In each direction d,
     err = |lambda' d - (C(U0 + eps d) - C(U0 - eps d)) / (2 eps)| / (|lambda| |d|):
   relative to the whole gradient, so that a direction in which C hardly changes is not judged on its round-off. The
   directions are the unit vectors of a small problem, or three fixed smooth ones of a long chain (its unit vectors
   would take two forward runs each).
*/
#ifndef FDGRADIENT_H
#define FDGRADIENT_H
#include <petscvec.h>

/* C(U0) of a forward run from U0 */
typedef PetscErrorCode (*FDCostFn)(Vec U0, PetscReal *C, void *ctx);

/* the j-th direction: e_j, or (smooth) sin(1.3 (i + 1) (j + 1) + 0.7) in entry i, the same on any number of processes */
static inline PetscErrorCode FDDirection(PetscInt j, PetscBool smooth, Vec d)
{
  PetscInt     lo, hi;
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(d, &lo, &hi));
  PetscCall(VecGetArray(d, &a));
  for (PetscInt i = lo; i < hi; i++) a[i - lo] = smooth ? PetscSinReal(1.3 * (i + 1) * (j + 1) + 0.7) : (i == j ? 1 : 0);
  PetscCall(VecRestoreArray(d, &a));
  PetscFunctionReturn(0);
}

/* The largest err over the *ndir directions (three smooth ones, or one per entry of U0). verbose: a line for each
   direction, naming the gradient's number adjoint[] and the difference's difference[] */
static inline PetscErrorCode FDGradientError(Vec U0, Vec lambda, PetscBool smooth, PetscReal eps, FDCostFn cost, void *ctx, PetscBool verbose, const char adjoint[], const char difference[], PetscInt *ndir, PetscReal *worst)
{
  Vec       d, Up;
  PetscReal lnorm, Cp, Cm;

  PetscFunctionBeginUser;
  *worst = 0;
  PetscCall(VecGetSize(U0, ndir));
  if (smooth) *ndir = 3;
  PetscCall(VecDuplicate(U0, &d));
  PetscCall(VecDuplicate(U0, &Up));
  PetscCall(VecNorm(lambda, NORM_2, &lnorm));
  for (PetscInt j = 0; j < *ndir; j++) {
    PetscScalar ld;
    PetscReal   dnorm, fd, err;

    PetscCall(FDDirection(j, smooth, d));
    PetscCall(VecNorm(d, NORM_2, &dnorm));
    PetscCall(VecDot(lambda, d, &ld));
    PetscCall(VecWAXPY(Up, eps, d, U0));
    PetscCall(cost(Up, &Cp, ctx));
    PetscCall(VecWAXPY(Up, -eps, d, U0));
    PetscCall(cost(Up, &Cm, ctx));
    fd  = (Cp - Cm) / (2 * eps);
    err = PetscAbsReal(PetscRealPart(ld) - fd) / (lnorm * dnorm);
    if (verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  direction %" PetscInt_FMT ": %s %.12e, %s %.12e, relative error %.2e\n", j, adjoint, (double)PetscRealPart(ld), difference, (double)fd, (double)err));
    *worst = PetscMax(*worst, err);
  }
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&Up));
  PetscFunctionReturn(0);
}
#endif
