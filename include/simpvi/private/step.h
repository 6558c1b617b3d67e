/*
   The core's step (src/core/): what the residual and Jacobian of one step need from a door (P, G and the terms of
   their derivatives), the step matrix's block assembly, and default linear solvers. Knows nothing of TS.
*/
#ifndef SIMPVI_STEP_H
#define SIMPVI_STEP_H

#include <petscksp.h>
#include <simpvi/private/compat.h>
#include <simpvi/private/scheme.h>

/* Which block of the step Jacobian a term of the Lagrangian's second derivatives feeds:
   P = dL/dv and G = dL/dx (plus forces) are differentiated in x (X) and v (V). */
typedef enum {
  SIMPVI_BLOCK_PX,
  SIMPVI_BLOCK_PV,
  SIMPVI_BLOCK_GX,
  SIMPVI_BLOCK_GV
} SimpVIBlock;
/* A set of blocks, for a door to skip callbacks whose terms would all have zero coefficients */
#define SIMPVI_NEED(block) (1 << (block))
#define SIMPVI_NEED_ALL    (SIMPVI_NEED(SIMPVI_BLOCK_PX) | SIMPVI_NEED(SIMPVI_BLOCK_PV) | SIMPVI_NEED(SIMPVI_BLOCK_GX) | SIMPVI_NEED(SIMPVI_BLOCK_GV))

typedef struct {
  Mat         A;
  PetscScalar scale;
  SimpVIBlock block;
  PetscBool   transpose; /* insert A' (L_xv = L_vx') */
  PetscBool   constant;  /* A does not depend on (t, x, v): the core may sum its coefficients over the quadrature */
} SimpVITerm;

/* Block assembly of the step matrix (src/core/blockmat.c) */
PETSC_INTERN PetscErrorCode SimpVIMatAddBlocks_Private(Mat, PetscLayout, Mat, PetscBool, PetscInt, const PetscScalar[]);
PETSC_INTERN PetscErrorCode SimpVIMatFill_Private(Mat, PetscBool *, PetscErrorCode (*)(void *, Mat), void *);

/* Default linear solvers (src/core/linearsolver.c): systems (and mass matrices) with more rows than the limit get a
   Krylov solver, fewer a direct one */
#define SIMPVI_DIRECT_LIMIT 100000
PETSC_INTERN PetscErrorCode SimpVIDefaultLinearSolver_Private(KSP, PetscInt, PetscInt, PetscBool, PetscBool);
PETSC_INTERN PetscErrorCode SimpVIStepPlaceholderSolver_Private(KSP);

PETSC_INTERN PetscLogEvent SIMPVI_Residual, SIMPVI_Jacobian;

#endif
