/*
   The points path of the Vec/Mat doors (mechanical, Lagrangian): the points' Vecs on the step's arrays and the step's
   copies of the user's matrices that the callbacks fill (include/simpvi/private/pointsvecmat.h)
*/
#include <simpvi/private/pointsvecmat.h>

/* The points' X and V on the caller's arrays: made again only when those move (the step's stay); their values are new
   at every call (the state increase that tells a callback caching on it) */
PetscErrorCode SimpVIPointVecsPlace_Private(SimpVIPointVecs *pv, PetscInt npts, PetscInt n, const PetscReal x[], const PetscReal v[])
{
  PetscFunctionBegin;
  if (x != pv->xbase || v != pv->vbase || npts > pv->nplaced) {
    PetscCall(SimpVIPointVecsFree_Private(pv));
    PetscCall(PetscCalloc2(npts, &pv->X, npts, &pv->V));
    for (PetscInt k = 0; k < npts; k++) {
      PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, x + k * n, &pv->X[k]));
      PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, v + k * n, &pv->V[k]));
    }
    pv->xbase   = x;
    pv->vbase   = v;
    pv->nplaced = npts;
  }
  for (PetscInt k = 0; k < npts; k++) {
    PetscCall(PetscObjectStateIncrease((PetscObject)pv->X[k]));
    PetscCall(PetscObjectStateIncrease((PetscObject)pv->V[k]));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIPointVecsFree_Private(SimpVIPointVecs *pv)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < pv->nplaced; k++) {
    PetscCall(VecDestroy(&pv->X[k]));
    PetscCall(VecDestroy(&pv->V[k]));
  }
  PetscCall(PetscFree2(pv->X, pv->V));
  pv->nplaced = 0;
  pv->xbase = pv->vbase = NULL;
  PetscFunctionReturn(0);
}

/* Whether the problem's k matrices (NULL: none) are all MATSEQDENSE, read on their arrays */
PetscErrorCode SimpVIPointMatsDense_Private(PetscInt k, const Mat A[], PetscBool *dense)
{
  SimpVIDenseAccess acc;

  PetscFunctionBegin;
  *dense = PETSC_TRUE;
  for (PetscInt b = 0; b < k && *dense; b++) {
    if (!A[b]) continue;
    PetscCall(PetscMemzero(&acc, sizeof(acc)));
    PetscCall(SimpVIDenseAccessSet_Private(&acc, A[b]));
    *dense = acc.dense;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIPointsServe_Private(SimpVIProblem *prob, Vec q, PetscInt k, const Mat A[], PetscBool *serve)
{
  PetscBool seq;

  PetscFunctionBegin;
  *serve = PETSC_FALSE;
  if (!prob->oneprocess || prob->user.forcefn) PetscFunctionReturn(0); /* forces come as Vecs */
  PetscCall(PetscObjectTypeCompare((PetscObject)q, VECSEQ, &seq));
  if (seq) PetscCall(SimpVIPointMatsDense_Private(k, A, serve));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIPointsSame_Private(PetscInt nkept, const PetscReal tk[], const PetscReal xk[], const PetscReal vk[], PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscBool *same)
{
  PetscFunctionBegin;
  *same = (PetscBool)(nkept == npts);
  if (*same) PetscCall(PetscArraycmp(tk, t, npts, same));
  if (*same) PetscCall(PetscArraycmp(xk, x, npts * n, same));
  if (*same) PetscCall(PetscArraycmp(vk, v, npts * n, same));
  PetscFunctionReturn(0);
}

/* B = A, or B assembled as it is when A is not yet (a callback may assemble what it is given) */
static PetscErrorCode MatCopyOrAssemble(Mat A, Mat B)
{
  PetscBool assembled;

  PetscFunctionBegin;
  PetscCall(MatAssembled(A, &assembled));
  if (assembled) PetscCall(MatCopy(A, B, SAME_NONZERO_PATTERN));
  else {
    PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* A MATSEQDENSE with A's sizes, leading dimension and values, whose array functions are composed first: PETSc before
   3.19 finds a composed function by walking the object's list in the order of composition, which makes the
   MatDenseGetArrayWrite() and MatDenseRestoreArrayWrite() of a callback cost 4x as much on a matrix of
   MatCreateSeqDense() (more than the rest of a small system's point); later versions hash the names */
static PetscErrorCode CopyCreate(Mat A, Mat *B)
{
  static const char *first[] = {"MatDenseGetArrayWrite_C", "MatDenseRestoreArrayWrite_C", "MatDenseGetArray_C", "MatDenseRestoreArray_C", "MatDenseGetArrayRead_C", "MatDenseRestoreArrayRead_C", "MatDenseGetLDA_C"};
  PetscInt           m, n, lda;
  PetscBool          dense;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQDENSE, &dense));
  PetscCheck(dense, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI: a matrix of the problem is no longer the MATSEQDENSE it was at set-up: call TSSetUp() again");
  PetscCall(MatGetSize(A, &m, &n));
  PetscCall(MatDenseGetLDA(A, &lda));
  PetscCall(MatCreate(PETSC_COMM_SELF, B));
  PetscCall(MatSetSizes(*B, m, n, m, n));
  for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(first); k++) PetscCall(PetscObjectComposeFunction((PetscObject)*B, first[k], NULL)); /* MatSetType() fills them in place */
  PetscCall(MatSetType(*B, MATSEQDENSE));
  PetscCall(MatDenseSetLDA(*B, lda));
  PetscCall(MatSeqDenseSetPreallocation(*B, NULL));
  PetscCall(MatCopyOrAssemble(A, *B));
  PetscFunctionReturn(0);
}

/* The matrices the callbacks fill at the points, for the user's (NULL where the problem has none): copies, kept equal
   to the user's where those change between calls (a callback may write only some entries), unless a callback writes
   the user's own matrices and ignores its arguments: then the user's */
PetscErrorCode SimpVIPointMatsGet_Private(SimpVIPointMats *pm, const Mat user[4], Mat A[4])
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < 4; b++) {
    A[b] = user[b];
    if (!user[b] || pm->userwrites) continue;
    if (pm->own[b] && pm->copied[b] == ((PetscObject)user[b])->state) {
      A[b] = pm->own[b];
      continue;
    }
    for (PetscInt c = 0; c < b; c++) /* one copy for a matrix given twice, as the callback writes it */
      if (user[c] == user[b]) A[b] = A[c];
    if (A[b] != user[b]) continue;
    if (!pm->own[b]) PetscCall(CopyCreate(user[b], &pm->own[b]));
    else PetscCall(MatCopyOrAssemble(user[b], pm->own[b]));
    pm->copied[b] = ((PetscObject)user[b])->state;
    A[b]          = pm->own[b];
  }
  PetscFunctionReturn(0);
}

/* The copies freed (made again from the user's at the next call) */
PetscErrorCode SimpVIPointMatsFree_Private(SimpVIPointMats *pm)
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < 4; b++) PetscCall(MatDestroy(&pm->own[b]));
  PetscFunctionReturn(0);
}

/* A callback wrote the user's matrices, not its arguments: it gets the user's from now on, and the point is read from
   them */
PetscErrorCode SimpVIPointMatsUserWrites_Private(SimpVIPointMats *pm, const char door[], const Mat user[4], Mat A[4])
{
  PetscFunctionBegin;
  PetscCall(PetscInfo(NULL, "TSSIMPVI %s door: a callback wrote the problem's matrices, not the ones it was given: it gets the problem's from now on\n", door));
  pm->userwrites = PETSC_TRUE;
  PetscCall(SimpVIPointMatsFree_Private(pm));
  PetscCall(SimpVIPointMatsGet_Private(pm, user, A));
  PetscFunctionReturn(0);
}
