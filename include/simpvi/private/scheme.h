/*
   The core's scheme tables (src/core/scheme.c): the nodes, quadrature and Lagrange basis of one Galerkin scheme.
   Knows nothing of TS; the families and named schemes (the registry) are the TS type's (src/ts/registry.c).
*/
#ifndef SIMPVI_SCHEME_H
#define SIMPVI_SCHEME_H

#include <petscsys.h>

/* A scheme: a degree-s polynomial through Gauss-Lobatto nodes c_0..c_s and a quadrature (tau_k, w_k), k < nq, given by
   its family's constructor. B[k*(s+1)+i] = phi_i(tau_k), D[k*(s+1)+i] = phi_i'(tau_k) on [0,1]. */
typedef struct {
  char      *family; /* the family's name, a copy */
  PetscInt   degree, nq, order;
  PetscReal *c, *tau, *w, *B, *D;
} SimpVIScheme;

/* A family's constructor (the public TSSimpVIFamilyFn): for degree s, nq points tau and weights w on [0,1] (allocated
   by it with PetscMalloc1(), freed by the core) and the scheme's order */
typedef PetscErrorCode (*SimpVIFamilyFn)(PetscInt, PetscInt *, PetscReal **, PetscReal **, PetscInt *);

PETSC_INTERN PetscErrorCode SimpVISchemeCreate_Private(const char[], SimpVIFamilyFn, PetscInt, SimpVIScheme **);
PETSC_INTERN PetscErrorCode SimpVISchemeDestroy_Private(SimpVIScheme **);
PETSC_INTERN PetscErrorCode SimpVISchemeBasis_Private(const SimpVIScheme *, PetscReal, PetscReal[], PetscReal[]);
/* the extrapolation of a step's polynomial to the next step's nodes is taken only below this amplification of its nodal
   values' round-off (max over the nodes of sum_i |phi_i|): 2e4 for Lobatto of degree 6, 8e8 for 12, 2e24 for 32 */
#define SIMPVI_PREDICT_MAX_AMPLIFICATION 1e8
PETSC_INTERN PetscErrorCode SimpVISchemePredictBasis_Private(const SimpVIScheme *, PetscReal, PetscReal, PetscReal, PetscReal[], PetscReal[], PetscReal *);

/* The built-in families: s+1 Gauss-Lobatto points (the nodes) and s Gauss-Legendre points, both of order 2s */
PETSC_INTERN PetscErrorCode SimpVIFamilyLobatto_Private(PetscInt, PetscInt *, PetscReal **, PetscReal **, PetscInt *);
PETSC_INTERN PetscErrorCode SimpVIFamilyGauss_Private(PetscInt, PetscInt *, PetscReal **, PetscReal **, PetscInt *);

#endif
