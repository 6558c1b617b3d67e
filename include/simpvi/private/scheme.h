/*
   The core's scheme tables (src/core/scheme.c): the nodes, quadrature and Lagrange basis of one Galerkin scheme.
   Knows nothing of TS; the named schemes (the registry) are the TS type's (src/ts/registry.c).
*/
#ifndef SIMPVI_SCHEME_H
#define SIMPVI_SCHEME_H

#include <petscsys.h>

/* A scheme: a degree-s polynomial through Gauss-Lobatto nodes c_0..c_s and a quadrature (tau_k, w_k), k < nq.
   B[k*(s+1)+i] = phi_i(tau_k), D[k*(s+1)+i] = phi_i'(tau_k) on [0,1]. */
typedef struct {
  PetscInt   degree, nq, order;
  PetscReal *c, *tau, *w, *B, *D;
} SimpVIScheme;

PETSC_INTERN PetscErrorCode SimpVISchemeCreate_Private(PetscBool, PetscInt, SimpVIScheme **); /* PetscBool: Lobatto quadrature, else Gauss */
PETSC_INTERN PetscErrorCode SimpVISchemeDestroy_Private(SimpVIScheme **);
PETSC_INTERN PetscErrorCode SimpVISchemeBasis_Private(const SimpVIScheme *, PetscReal, PetscReal[], PetscReal[]);

#endif
