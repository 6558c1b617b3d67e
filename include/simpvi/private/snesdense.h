/*
   The private side of SNESSIMPVIDENSE (src/snes/dense.c): a problem that can give its residual and its dense Jacobian
   without a Mat registers them, and the type calls them instead of SNESComputeFunction()/SNESComputeJacobian().
*/
#ifndef SIMPVI_SNESDENSE_H
#define SIMPVI_SNESDENSE_H

#include <petscsnes.h>
#include <petscblaslapack.h>
#include <float.h>
#include <simpvi/private/unroll.h>

/* F(x) into f. x and f are the SNES's solution and function vectors; jacobian: the Jacobian is asked at x next (a
   problem that computes both together may do it now) */
typedef PetscErrorCode SNESSimpVIDenseFunctionFn(SNES, Vec, Vec, PetscBool, void *);
/* The Jacobian at x (the solution vector, the last function evaluated there) into J, m x m column-major as a
   MATSEQDENSE. *keep on entry: the SNES holds the factors of an earlier Jacobian this function gave; set it to keep
   them (J then untouched), to PETSC_FALSE after filling J */
typedef PetscErrorCode SNESSimpVIDenseJacobianFn(SNES, Vec, PetscScalar[], PetscBool *, void *);
/* After the update x -= dy of iteration it (norms xnorm of the new x, ynorm of dy): *accept the new x as converged
   without F there (the problem's own estimate of the error left); the solve then ends, its last F at x + dy */
typedef PetscErrorCode SNESSimpVIDenseAcceptFn(SNES, PetscInt, PetscReal, PetscReal, const PetscScalar[], PetscBool *, void *);

/* Rows below which the LU and its solve are SimpVIDenseLUFactor() and SimpVIDenseLUSolve(), above LAPACK's getrf and
   getrs: LAPACK's calls (ilaenv's block size query, getrf's recursion, getf2's BLAS calls, getrs's argument checks)
   cost several times the arithmetic of a system of a few rows (reference LAPACK, m = 3: 3.3k instructions for getrf
   + getrs, 1.7k with getf2) */
#define SIMPVI_DENSE_BLOCKED_MIN 64

/* Whether all n entries of a are finite, without a call per entry (PETSc's PetscIsInfOrNanReal() is a library
   function): x - x is 0 for a finite x and NaN for an Inf or a NaN, and a NaN stays in the sum */
static inline PetscBool SimpVIDenseAllFinite(PetscInt n, const PetscScalar a[])
{
  PetscReal z = 0;

  for (PetscInt i = 0; i < n; i++) z += (PetscRealPart(a[i]) - PetscRealPart(a[i])) + (PetscImaginaryPart(a[i]) - PetscImaginaryPart(a[i]));
  return (PetscBool)(z == 0);
}

/*
  SimpVIDenseLUFactor - the LU factors with partial pivoting of the m x m column-major A, in place, and its 1-based
  pivots: reference LAPACK getf2's arithmetic in its order (idamax's first largest pivot, the column scaled by the
  reciprocal of a pivot of at least the smallest normal number, ger's rank-one update column by column), without its
  calls of BLAS, which cost more than the arithmetic of a system of a few rows. Returns 0, or j + 1 for the first zero
  pivot j (the factors then unfinished: LAPACK's info, whose factors nobody uses).
*/
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline PetscBLASInt
SimpVIDenseLUFactorM(PetscBLASInt m, PetscScalar A[], PetscBLASInt piv[])
{
  SIMPVI_UNROLL_FOR(PetscBLASInt j = 0; j < m; j++) {
    PetscScalar *aj  = &A[j * m];
    PetscBLASInt p   = j;
    PetscReal    big = PetscAbsScalar(aj[j]);

    SIMPVI_UNROLL_FOR(PetscBLASInt i = j + 1; i < m; i++)
      if (PetscAbsScalar(aj[i]) > big) {
        big = PetscAbsScalar(aj[i]);
        p   = i;
      }
    piv[j] = p + 1;
    if (aj[p] == 0.0) return j + 1;
    if (p != j)
      SIMPVI_UNROLL_FOR(PetscBLASInt c = 0; c < m; c++) {
        const PetscScalar t = A[c * m + j];

        A[c * m + j] = A[c * m + p];
        A[c * m + p] = t;
      }
    if (PetscAbsScalar(aj[j]) >= DBL_MIN) { /* LAPACK's sfmin */
      const PetscScalar r = 1.0 / aj[j];

      SIMPVI_UNROLL_FOR(PetscBLASInt i = j + 1; i < m; i++) aj[i] = r * aj[i];
    } else
      SIMPVI_UNROLL_FOR(PetscBLASInt i = j + 1; i < m; i++) aj[i] = aj[i] / aj[j];
    SIMPVI_UNROLL_FOR(PetscBLASInt c = j + 1; c < m; c++) {
      PetscScalar *ac = &A[c * m];

      if (ac[j] != 0.0) {
        const PetscScalar t = -1.0 * ac[j];

        SIMPVI_UNROLL_FOR(PetscBLASInt i = j + 1; i < m; i++) ac[i] = ac[i] + aj[i] * t;
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
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
SimpVIDenseLUSolveM(PetscBLASInt m, const PetscScalar LU[], const PetscBLASInt piv[], PetscScalar b[])
{
  SIMPVI_UNROLL_FOR(PetscBLASInt i = 0; i < m; i++) {
    const PetscBLASInt ip = piv[i] - 1;

    if (ip != i) {
      const PetscScalar t = b[i];

      b[i]  = b[ip];
      b[ip] = t;
    }
  }
  SIMPVI_UNROLL_FOR(PetscBLASInt k = 0; k < m; k++) {
    const PetscScalar bk = b[k];

    if (bk != 0.0)
      SIMPVI_UNROLL_FOR(PetscBLASInt i = k + 1; i < m; i++) b[i] -= bk * LU[k * m + i];
  }
  SIMPVI_UNROLL_FOR(PetscBLASInt k = m - 1; k >= 0; k--) {
    if (b[k] != 0.0) {
      const PetscScalar bk = b[k] / LU[k * m + k];

      b[k] = bk;
      SIMPVI_UNROLL_FOR(PetscBLASInt i = 0; i < k; i++) b[i] -= bk * LU[k * m + i];
    }
  }
}

/* The two above with m a constant for the systems of the seeds' schemes and a few positions (their loops then unrolled
   by the compiler; the same operations in the same order) */
#define SIMPVI_DENSE_SMALL_CASES(F) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10)

static inline PetscBLASInt SimpVIDenseLUFactor(PetscBLASInt m, PetscScalar A[], PetscBLASInt piv[])
{
#define SIMPVI_CASE(M) \
case M: \
  return SimpVIDenseLUFactorM(M, A, piv);
  switch (m) {
    SIMPVI_DENSE_SMALL_CASES(SIMPVI_CASE)
  default:
    return SimpVIDenseLUFactorM(m, A, piv);
  }
#undef SIMPVI_CASE
}

static inline void SimpVIDenseLUSolve(PetscBLASInt m, const PetscScalar LU[], const PetscBLASInt piv[], PetscScalar b[])
{
#define SIMPVI_CASE(M) \
case M: \
  SimpVIDenseLUSolveM(M, LU, piv, b); \
  break;
  switch (m) {
    SIMPVI_DENSE_SMALL_CASES(SIMPVI_CASE)
  default:
    SimpVIDenseLUSolveM(m, LU, piv, b);
  }
#undef SIMPVI_CASE
}

PETSC_INTERN PetscErrorCode SNESSimpVIDenseSetArrayFunctions_Private(SNES, SNESSimpVIDenseFunctionFn *, SNESSimpVIDenseJacobianFn *, SNESSimpVIDenseAcceptFn *, void *);
PETSC_INTERN PetscErrorCode SNESSimpVIDenseIsType_Private(SNES, PetscBool *, PetscBool *);
PETSC_INTERN PetscErrorCode SNESSimpVIDenseSolveAgain_Private(SNES, Vec);
PETSC_INTERN PetscErrorCode SNESCreate_SimpVIDense(SNES);

#endif
