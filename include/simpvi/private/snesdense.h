/*
   The private side of SNESSIMPVIDENSE (src/snes/dense.c): a problem that can give its residual and its dense Jacobian
   without a Mat registers them, and the type calls them instead of SNESComputeFunction()/SNESComputeJacobian().
*/
#ifndef SIMPVI_SNESDENSE_H
#define SIMPVI_SNESDENSE_H

#include <petscsnes.h>

/* F(x) into f. x and f are the SNES's solution and function vectors; jacobian: the Jacobian is asked at x next (a
   problem that computes both together may do it now) */
typedef PetscErrorCode SNESSimpVIDenseFunctionFn(SNES, Vec, Vec, PetscBool, void *);
/* The Jacobian at x (the solution vector, the last function evaluated there) into J, m x m column-major as a
   MATSEQDENSE. *keep on entry: the SNES holds the factors of an earlier Jacobian this function gave; set it to keep
   them (J then untouched), to PETSC_FALSE after filling J */
typedef PetscErrorCode SNESSimpVIDenseJacobianFn(SNES, Vec, PetscScalar[], PetscBool *, void *);

PETSC_INTERN PetscErrorCode SNESSimpVIDenseSetArrayFunctions_Private(SNES, SNESSimpVIDenseFunctionFn *, SNESSimpVIDenseJacobianFn *, void *);
PETSC_INTERN PetscErrorCode SNESCreate_SimpVIDense(SNES);

#endif
