/*
   Lie groups for the step (src/core/liegroup.c): SO(3) as a configuration space beside the vector space, and the
   small dense algebra of rotations the rigid-body step (src/doors/rigidbody.c) needs.
*/
#ifndef SIMPVI_LIEGROUP_H
#define SIMPVI_LIEGROUP_H

#include <simpvi/private/kernel.h>

/* SO(3)^k: configurations of 9 numbers (a rotation matrix, row-major) per body, 3 tangent directions, R exp(xi) */
PETSC_INTERN const SimpVIConfigurationSpace SimpVIConfigurationSO3;

PETSC_INTERN PetscErrorCode SimpVISO3ExpIncrement_Private(const PetscReal[], PetscReal[]);
/* several maps at one xi on one evaluation of the coefficients of |xi|^2 (9 numbers), bit for bit the public ones */
PETSC_INTERN void SimpVISO3Coefficients_Private(const PetscReal[], PetscReal[]);
PETSC_INTERN void SimpVISO3DexpDerivativeAt_Private(const PetscReal[], const PetscReal[], const PetscReal[], const PetscReal[], PetscReal *, PetscReal[], PetscReal[]);
PETSC_INTERN void SimpVISO3ExpDexpAt_Private(const PetscReal[], const PetscReal[], PetscReal[], PetscReal[]);

/* s + e = a + b exactly (Knuth's TwoSum) */
static inline void SimpVITwoSum(PetscReal a, PetscReal b, PetscReal *s, PetscReal *e)
{
  const PetscReal t = a + b, bb = t - a;

  *e = (a - (t - bb)) + (b - bb);
  *s = t;
}

/* C = A B, 3 x 3 row-major (C distinct from A and B) */
static inline void SimpVISO3Multiply(const PetscReal A[9], const PetscReal B[9], PetscReal C[9])
{
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) C[i * 3 + j] = A[i * 3] * B[j] + A[i * 3 + 1] * B[3 + j] + A[i * 3 + 2] * B[6 + j];
}

#endif
