/*
   The private side of SNESSIMPVIDENSE (src/snes/dense.c): a problem that can give its residual and its dense Jacobian
   without a Mat registers them, and the type calls them instead of SNESComputeFunction()/SNESComputeJacobian().
*/
#ifndef SIMPVI_SNESDENSE_H
#define SIMPVI_SNESDENSE_H

#include <petscsnes.h>
#include <petscblaslapack.h>

/* F(x) into f. x and f are the SNES's solution and function vectors; jacobian: the Jacobian is asked at x next (a
   problem that computes both together may do it now) */
typedef PetscErrorCode SNESSimpVIDenseFunctionFn(SNES, Vec, Vec, PetscBool, void *);
/* The Jacobian at x (the solution vector, the last function evaluated there) into J, m x m column-major as a
   MATSEQDENSE. *keep on entry: the SNES holds the factors of an earlier Jacobian this function gave; set it to keep
   them (J then untouched), to PETSC_FALSE after filling J */
typedef PetscErrorCode SNESSimpVIDenseJacobianFn(SNES, Vec, PetscScalar[], PetscBool *, void *);

/* Rows below which the LU is LAPACK's unblocked getf2 and the solve SimpVIDenseLUSolve() (src/snes/dense.c): getrf's
   block size query (ilaenv) and recursion cost twice the arithmetic below a few dozen rows (reference LAPACK, m = 3:
   3.3k instructions for getrf + getrs, 1.7k with getf2) */
#define SIMPVI_DENSE_BLOCKED_MIN 64
#define LAPACKgetf2_             PETSCBLAS(getf2, GETF2)
BLAS_EXTERN void LAPACKgetf2_(const PetscBLASInt *, const PetscBLASInt *, PetscScalar *, const PetscBLASInt *, PetscBLASInt *, PetscBLASInt *);

/*
  SimpVIDenseLUSolve - b = A^-1 b for the m x m column-major LU factors and 1-based pivots of LAPACK's getf2/getrf:
  reference LAPACK getrs's arithmetic in its order (the row swaps of laswp, then trsm's column sweeps: unit lower,
  then upper), without getrs's argument checks and string compares, which cost ten times the arithmetic of a system
  of a few rows. The ensembles (src/ensemble) solve with it too, so that their members' steps are a lone run's.
*/
static inline void SimpVIDenseLUSolve(PetscBLASInt m, const PetscScalar LU[], const PetscBLASInt piv[], PetscScalar b[])
{
  for (PetscBLASInt i = 0; i < m; i++) {
    const PetscBLASInt ip = piv[i] - 1;

    if (ip != i) {
      const PetscScalar t = b[i];

      b[i]  = b[ip];
      b[ip] = t;
    }
  }
  for (PetscBLASInt k = 0; k < m; k++) {
    const PetscScalar bk = b[k];

    if (bk != 0.0)
      for (PetscBLASInt i = k + 1; i < m; i++) b[i] -= bk * LU[k * m + i];
  }
  for (PetscBLASInt k = m - 1; k >= 0; k--) {
    if (b[k] != 0.0) {
      const PetscScalar bk = b[k] / LU[k * m + k];

      b[k] = bk;
      for (PetscBLASInt i = 0; i < k; i++) b[i] -= bk * LU[k * m + i];
    }
  }
}

PETSC_INTERN PetscErrorCode SNESSimpVIDenseSetArrayFunctions_Private(SNES, SNESSimpVIDenseFunctionFn *, SNESSimpVIDenseJacobianFn *, void *);
PETSC_INTERN PetscErrorCode SNESCreate_SimpVIDense(SNES);

#endif
