/*
   Rigid bodies on SO(3) (src/doors/rigidbody.c, the array form on one process; src/doors/rigidbodyvec.c, the Vec/Mat
   form on any number of processes): the per-body arithmetic of a quadrature point both use (the step object's data
   is in rigidbodyimpl.h).
*/
#ifndef SIMPVI_RIGIDBODY_H
#define SIMPVI_RIGIDBODY_H

#include <simpvi/private/liegroup.h>
#include <simpvi/private/rigidbodyimpl.h> /* the step object's data */

/* y = A x, y = A' x (3 x 3 row-major) */
static inline void MatVec3(const PetscReal A[9], const PetscReal x[3], PetscReal y[3])
{
  for (PetscInt i = 0; i < 3; i++) y[i] = A[i * 3] * x[0] + A[i * 3 + 1] * x[1] + A[i * 3 + 2] * x[2];
}
static inline void MatTVec3(const PetscReal A[9], const PetscReal x[3], PetscReal y[3])
{
  for (PetscInt i = 0; i < 3; i++) y[i] = A[i] * x[0] + A[3 + i] * x[1] + A[6 + i] * x[2];
}
/* C = A' B */
static inline void MatTMat3(const PetscReal A[9], const PetscReal B[9], PetscReal C[9])
{
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) C[i * 3 + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
}

/* one body at a quadrature point (src/doors/rigidbody.c): x = xi_k, u its chart velocity, T = dexp_{-x}, E = exp(x),
   J the inertia, g the left-trivialised gradient; P, G and E g, and their derivatives in 3 x 3 blocks (Gv as it
   stands in the step's rows); the potential's coupling of bodies b and c through the Hessian block H_bc (gb: body
   b's gradient when c = b, else NULL) */
PETSC_INTERN PetscErrorCode SimpVIRigidBodyInertia_Private(PetscInt, const PetscReal[], PetscReal[], PetscReal[], PetscInt *);
PETSC_INTERN PetscErrorCode SimpVIRigidBodyPoint_Private(const PetscReal[3], const PetscReal[3], const PetscReal[9], const PetscReal[9], const PetscReal[9], const PetscReal[3], PetscReal[3], PetscReal[3], PetscReal[3]);
PETSC_INTERN PetscErrorCode SimpVIRigidBodyPointJacobian_Private(const PetscReal[3], const PetscReal[3], const PetscReal[9], const PetscReal[9], const PetscReal[3], PetscReal[9], PetscReal[9], PetscReal[9], PetscReal[9]);
PETSC_INTERN void           SimpVIRigidBodyCoupling_Private(const PetscReal[9], const PetscReal[9], const PetscReal[3], const PetscReal[9], const PetscReal[9], PetscReal[9], PetscReal[9]);
PETSC_INTERN PetscErrorCode SimpVIRigidBodyDexpRows_Private(const PetscReal[3], const PetscReal[3], PetscBool, PetscReal[9]);
PETSC_INTERN void           SimpVIRigidBodiesEndDerivative_Private(SimpVIRigidBodies, PetscReal[]);
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesResidual_Private(SNES, Vec, Vec, void *);

/* the Vec/Mat form (src/doors/rigidbodyvec.c) */
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesVecDestroy_Private(SimpVIRigidBodiesVec *);
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesVecView_Private(SimpVIRigidBodies, PetscViewer);

#endif
