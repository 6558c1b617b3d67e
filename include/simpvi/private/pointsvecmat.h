/*
   The points path of the doors whose user callbacks take Vecs and Mats (mechanical, Lagrangian: src/doors/), shared by
   them (src/doors/pointsvecmat.c): on one process, for plain Vecs and MATSEQDENSE matrices, the small dense step asks
   for P, G and their derivatives at every quadrature point on arrays. The callbacks take Vecs made once per point on
   the step's arrays of x and v, and the step's own copies of the user's matrices, read back on their arrays.
*/
#ifndef SIMPVI_POINTSVECMAT_H
#define SIMPVI_POINTSVECMAT_H

#include <simpvi/private/door.h>
#include <simpvi/private/unroll.h>

/* The points' X and V: VECSEQ on the caller's arrays, made again only when those move */
typedef struct {
  Vec             *X, *V;
  const PetscReal *xbase, *vbase; /* the arrays X and V are made on, for nplaced points */
  PetscInt         nplaced, cap;
} SimpVIPointVecs;
PETSC_INTERN PetscErrorCode SimpVIPointVecsPlace_Private(SimpVIPointVecs *, PetscInt, PetscInt, const PetscReal[], const PetscReal[]);
PETSC_INTERN PetscErrorCode SimpVIPointVecsFree_Private(SimpVIPointVecs *);

/* The matrices the callbacks fill, for up to four of the user's (NULL where the problem has none): the step's copies,
   whose array functions PETSc 3.18 finds first, kept equal to the user's where those change between calls; or the
   user's own once a callback is seen writing those and ignoring its arguments (userwrites) */
typedef struct {
  Mat              own[4];
  PetscObjectState copied[4];
  PetscBool        userwrites;
} SimpVIPointMats;
PETSC_INTERN PetscErrorCode SimpVIPointMatsGet_Private(SimpVIPointMats *, const Mat[4], Mat[4]);
PETSC_INTERN PetscErrorCode SimpVIPointMatsFree_Private(SimpVIPointMats *);
PETSC_INTERN PetscErrorCode SimpVIPointMatsUserWrites_Private(SimpVIPointMats *, const char[], const Mat[4], Mat[4]);

/* Whether a callback given the copy A of the user's matrix B wrote B, of state s before the call: it ignores its
   arguments (SimpVIPointMatsUserWrites_Private()) */
static inline PetscBool SimpVIPointMatForeign(Mat A, Mat B, PetscObjectState s)
{
  return (PetscBool)(A != B && ((PetscObject)B)->state != s);
}

/* Whether the problem's matrices (NULL: none) are all MATSEQDENSE, read on their arrays */
PETSC_INTERN PetscErrorCode SimpVIPointMatsDense_Private(PetscInt, const Mat[], PetscBool *);
/* Whether a door's points path serves the problem: one process, plain Vecs, no force, its matrices MATSEQDENSE */
PETSC_INTERN PetscErrorCode SimpVIPointsServe_Private(SimpVIProblem *, Vec, PetscInt, const Mat[], PetscBool *);
/* Whether npts points (t, x, v) of n positions are bitwise the nkept ones kept (tk, xk, vk) */
PETSC_INTERN PetscErrorCode SimpVIPointsSame_Private(PetscInt, const PetscReal[], const PetscReal[], const PetscReal[], PetscInt, PetscInt, const PetscReal[], const PetscReal[], const PetscReal[], PetscBool *);

/* B = A, n x n column-major from leading dimension lda to n */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
SimpVICopyColumns(const PetscInt n, const PetscScalar *PETSC_RESTRICT a, PetscInt lda, PetscScalar *PETSC_RESTRICT B)
{
  SIMPVI_UNROLL_FOR(PetscInt c = 0; c < n; c++) {
    SIMPVI_UNROLL_FOR(PetscInt r = 0; r < n; r++) B[c * n + r] = a[c * lda + r];
  }
}

/* B = A (column-major, n x n) from a MATSEQDENSE A of the door's on its array (inlined: called at every point) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline PetscErrorCode
SimpVIPointMatRead(SimpVIDenseAccess *acc, const char door[], Mat A, PetscInt n, PetscScalar *PETSC_RESTRICT B)
{
  const PetscScalar *a;
  PetscInt           lda;
  PetscBool          assembled;

  PetscFunctionBegin;
  if (PetscUnlikely(!SimpVIDenseAccessCurrent(acc, A))) {
    PetscCall(SimpVIDenseAccessSet_Private(acc, A));
    PetscCheck(acc->dense && acc->mloc == n && acc->nloc == n, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI %s door: a matrix of the problem is no longer the MATSEQDENSE of %" PetscInt_FMT " x %" PetscInt_FMT " it was at set-up: call TSSetUp() again", door, n, n);
  }
  PetscCall(MatAssembled(A, &assembled)); /* as the Vec path's MatMult() and its terms check */
  PetscCheck(assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not for unassembled matrix");
  PetscCall(acc->getlda(A, &lda));
  PetscCall(acc->getarray(A, &a));
#define SIMPVI_COPY_COLUMNS(N) SimpVICopyColumns(N, a, lda, B)
  SIMPVI_SMALL_N(n, SIMPVI_COPY_COLUMNS); /* n a constant for the smallest systems: a few moves, not a memcpy() call per column */
#undef SIMPVI_COPY_COLUMNS
  PetscCall(acc->restorearray(A, &a));
  PetscFunctionReturn(0);
}

#endif
