/*
   Unit masses each on a unit spring to the wall, through TSSIMPVI's mechanical door: M = I, V = |q|^2/2, shared by
   tests/ex32.c, tests/ex34.c and tests/ex36.c.
*/
#ifndef UNITOSCILLATOR_H
#define UNITOSCILLATOR_H
#include <simpvi.h>

/* V = |q|^2/2, grad V = q */
static inline PetscErrorCode UnitPotential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  PetscScalar xx;

  PetscFunctionBeginUser;
  PetscCall(VecDot(x, x, &xx));
  *V = PetscRealPart(xx) / 2;
  PetscCall(VecCopy(x, g));
  PetscFunctionReturn(0);
}

/* H = I */
static inline PetscErrorCode UnitPotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(MatZeroEntries(H));
  PetscCall(MatShift(H, 1));
  PetscFunctionReturn(0);
}

/* One oscillator on one process: M = H = [1] (dense) and the start U = (q, p) = (1, 0) */
static inline PetscErrorCode UnitOscillatorCreate(Mat *M, Mat *H, Vec *U)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateDense(PETSC_COMM_SELF, 1, 1, 1, 1, NULL, M));
  PetscCall(MatZeroEntries(*M));
  PetscCall(MatShift(*M, 1));
  PetscCall(MatDuplicate(*M, MAT_COPY_VALUES, H));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, U));
  PetscCall(VecSetValue(*U, 0, 1.0, INSERT_VALUES));
  PetscCall(VecSetValue(*U, 1, 0.0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(*U));
  PetscCall(VecAssemblyEnd(*U));
  PetscFunctionReturn(0);
}
#endif
