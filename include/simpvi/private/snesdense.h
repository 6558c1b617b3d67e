/*
   The private side of SNESSIMPVIDENSE (src/snes/dense.c): a problem that can give its residual and its dense Jacobian
   without a Mat registers them, and the type calls them instead of SNESComputeFunction()/SNESComputeJacobian().
*/
#ifndef SIMPVI_SNESDENSE_H
#define SIMPVI_SNESDENSE_H

#include <petscsnes.h>
#include <petscblaslapack.h>
#include <float.h>

/* F(x) into f. x and f are the SNES's solution and function vectors; jacobian: the Jacobian is asked at x next (a
   problem that computes both together may do it now) */
typedef PetscErrorCode SNESSimpVIDenseFunctionFn(SNES, Vec, Vec, PetscBool, void *);
/* The Jacobian at x (the solution vector, the last function evaluated there) into J, m x m column-major as a
   MATSEQDENSE. *keep on entry: the SNES holds the factors of an earlier Jacobian this function gave; set it to keep
   them (J then untouched), to PETSC_FALSE after filling J */
typedef PetscErrorCode SNESSimpVIDenseJacobianFn(SNES, Vec, PetscScalar[], PetscBool *, void *);

/* Rows below which the LU and its solve are SimpVIDenseLUFactor() and SimpVIDenseLUSolve(), above LAPACK's getrf and
   getrs: LAPACK's calls (ilaenv's block size query, getrf's recursion, getf2's BLAS calls, getrs's argument checks)
   cost several times the arithmetic of a system of a few rows (reference LAPACK, m = 3: 3.3k instructions for getrf
   + getrs, 1.7k with getf2) */
#define SIMPVI_DENSE_BLOCKED_MIN 64

/*
  SimpVIDenseLUFactor - the LU factors with partial pivoting of the m x m column-major A, in place, and its 1-based
  pivots: reference LAPACK getf2's arithmetic in its order (idamax's first largest pivot, the column scaled by the
  reciprocal of a pivot of at least the smallest normal number, ger's rank-one update column by column), without its
  calls of BLAS, which cost more than the arithmetic of a system of a few rows. Returns 0, or j + 1 for the first zero
  pivot j (the factors then unfinished: LAPACK's info, whose factors nobody uses).
*/
static inline PetscBLASInt SimpVIDenseLUFactor(PetscBLASInt m, PetscScalar A[], PetscBLASInt piv[])
{
  for (PetscBLASInt j = 0; j < m; j++) {
    PetscScalar *aj  = &A[j * m];
    PetscBLASInt p   = j;
    PetscReal    big = PetscAbsScalar(aj[j]);

    for (PetscBLASInt i = j + 1; i < m; i++)
      if (PetscAbsScalar(aj[i]) > big) {
        big = PetscAbsScalar(aj[i]);
        p   = i;
      }
    piv[j] = p + 1;
    if (aj[p] == 0.0) return j + 1;
    if (p != j)
      for (PetscBLASInt c = 0; c < m; c++) {
        const PetscScalar t = A[c * m + j];

        A[c * m + j] = A[c * m + p];
        A[c * m + p] = t;
      }
    if (PetscAbsScalar(aj[j]) >= DBL_MIN) { /* LAPACK's sfmin */
      const PetscScalar r = 1.0 / aj[j];

      for (PetscBLASInt i = j + 1; i < m; i++) aj[i] = r * aj[i];
    } else
      for (PetscBLASInt i = j + 1; i < m; i++) aj[i] = aj[i] / aj[j];
    for (PetscBLASInt c = j + 1; c < m; c++) {
      PetscScalar *ac = &A[c * m];

      if (ac[j] != 0.0) {
        const PetscScalar t = -1.0 * ac[j];

        for (PetscBLASInt i = j + 1; i < m; i++) ac[i] = ac[i] + aj[i] * t;
      }
    }
  }
  return 0;
}

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
