/*
   Block assembly shared by the step Jacobian and the phase-space IJacobian: J += sum_{i,l} coef[i nb + l] E_il (x) A
   for a user matrix A on the positions, where J lives on a block-major vector of nb blocks: on each process, block b
   of the local part holds entries [b n, (b + 1) n) for the n local positions (the step vector (Q_1 .. Q_s) and the
   phase-space state U = (q, p) in its default split).

   When J and A are assembled AIJ matrices, the entries of A's diagonal block are added straight into the value array
   of J's diagonal block (a forward scan of each sorted row of J finds them); only the entries coupling to other
   processes go through MatSetValues. Otherwise (a MATPREALLOCATOR pass, dense or other user matrices, A'), every
   row goes through MatGetRow and MatSetValues. SimpVIMatFill_Private() preallocates such a J from the same fill and
   assembles it.
*/
#include <simpvi/private/step.h>

/* Global index of (block b, position g) when g is owned by process `owner` of the layout range[], whose rows of J start
   at jrange[owner] (nb range[owner], or more where J has the multipliers of constraints after each process's blocks) */
static inline PetscInt BlockIndex(const PetscInt jrange[], const PetscInt range[], PetscInt owner, PetscInt b, PetscInt g)
{
  return jrange[owner] + b * (range[owner + 1] - range[owner]) + (g - range[owner]);
}

/* The diagonal block of an assembled AIJ matrix and its off-diagonal block (NULL on one process); Ad = NULL when the
   matrix is of another type or not assembled */
static PetscErrorCode GetAIJBlocks(Mat A, Mat *Ad, Mat *Ao, const PetscInt **garray)
{
  PetscBool seq, mpi, assembled;

  PetscFunctionBegin;
  *Ad     = NULL;
  *Ao     = NULL;
  *garray = NULL;
  PetscCall(MatAssembled(A, &assembled));
  if (!assembled) PetscFunctionReturn(0);
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &seq));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJ, &mpi));
  if (seq) *Ad = A;
  else if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(A, Ad, Ao, garray));
  PetscFunctionReturn(0);
}

/* The generic path, for any matrix types; A = NULL is the identity */
static PetscErrorCode AddBlocksByRow(Mat J, PetscLayout map, Mat A, PetscBool transpose, PetscInt nb, const PetscScalar coef[])
{
  const PetscInt *range, *jrange;
  PetscInt        rstart, rend, nbuf = 0, *owner = NULL, *ibuf = NULL;
  PetscScalar    *vbuf = NULL;
  PetscMPIInt     rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)J), &rank));
  PetscCall(PetscLayoutGetRanges(map, &range));
  PetscCall(MatGetOwnershipRanges(J, &jrange));
  PetscCall(PetscLayoutGetRange(map, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; r++) {
    PetscInt           ncols = 1;
    const PetscInt    *cols  = &r;
    const PetscScalar *vals = NULL, one = 1;

    if (A) PetscCall(MatGetRow(A, r, &ncols, &cols, &vals));
    else vals = &one;
    if (ncols * nb > nbuf) {
      PetscCall(PetscFree3(owner, ibuf, vbuf));
      nbuf = ncols * nb;
      PetscCall(PetscMalloc3(nbuf, &owner, nbuf, &ibuf, nbuf, &vbuf));
    }
    for (PetscInt j = 0; j < ncols; j++) {
      if (cols[j] >= range[rank] && cols[j] < range[rank + 1]) owner[j] = rank; /* most columns: no search */
      else PetscCall(PetscLayoutFindOwner(map, cols[j], &owner[j]));
    }
    for (PetscInt i = 0; i < nb; i++) {
      if (!transpose) { /* row (i, r): all column blocks l in one call */
        PetscInt row = BlockIndex(jrange, range, rank, i, r), n = 0;

        for (PetscInt l = 0; l < nb; l++) {
          const PetscScalar c = coef[i * nb + l];

          if (c == 0) continue;
          for (PetscInt j = 0; j < ncols; j++, n++) {
            ibuf[n] = BlockIndex(jrange, range, owner[j], l, cols[j]);
            vbuf[n] = c * vals[j];
          }
        }
        if (n) PetscCall(MatSetValues(J, 1, &row, n, ibuf, vbuf, ADD_VALUES));
      } else { /* A' : entry A(r, c) goes to row (i, c), column (l, r), on the owner of c */
        for (PetscInt l = 0; l < nb; l++) {
          const PetscScalar c   = coef[i * nb + l];
          PetscInt          col = BlockIndex(jrange, range, rank, l, r);

          if (c == 0) continue;
          for (PetscInt j = 0; j < ncols; j++) {
            ibuf[j] = BlockIndex(jrange, range, owner[j], i, cols[j]);
            vbuf[j] = c * vals[j];
          }
          PetscCall(MatSetValues(J, ncols, ibuf, 1, &col, vbuf, ADD_VALUES));
        }
      }
    }
    if (A) PetscCall(MatRestoreRow(A, r, &ncols, &cols, &vals));
  }
  PetscCall(PetscFree3(owner, ibuf, vbuf));
  PetscFunctionReturn(0);
}

/* An entry that the fast path passes on to MatSetValues */
typedef struct {
  PetscInt    row, col;
  PetscScalar val;
} Entry;

static PetscErrorCode Defer(Entry **e, PetscInt *n, PetscInt *max, PetscInt row, PetscInt col, PetscScalar val)
{
  PetscFunctionBegin;
  if (*n == *max) {
    Entry *more;

    *max = PetscMax(16, 2 * *max);
    PetscCall(PetscMalloc1(*max, &more));
    if (*n) PetscCall(PetscArraycpy(more, *e, *n));
    PetscCall(PetscFree(*e));
    *e = more;
  }
  (*e)[(*n)++] = (Entry){row, col, val};
  PetscFunctionReturn(0);
}

/* The fast path: Jd and Ad are the diagonal blocks of J and A (Ad = NULL for the identity), Jo, Ao their off-diagonal
   blocks (NULL on one process) with the global columns jgarray, garray of their compressed columns */
static PetscErrorCode AddBlocksAIJ(Mat J, Mat Jd, Mat Jo, const PetscInt jgarray[], PetscLayout map, Mat Ad, Mat Ao, const PetscInt garray[], PetscInt nb, const PetscScalar coef[])
{
  const PetscInt    *range, *jrange, *ji, *jj, *ai = NULL, *aj = NULL;
  const PetscScalar *av = NULL, one = 1;
  PetscScalar       *jv;
  PetscInt           n, m, jstart, ndefer = 0, maxdefer = 0;
  Entry             *defer = NULL;
  PetscMPIInt        rank;
  PetscBool          done;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)J), &rank));
  PetscCall(PetscLayoutGetRanges(map, &range));
  PetscCall(PetscLayoutGetLocalSize(map, &n));
  PetscCall(MatGetOwnershipRanges(J, &jrange));
  jstart = jrange[rank];
  PetscCall(MatGetRowIJ(Jd, 0, PETSC_FALSE, PETSC_FALSE, &m, &ji, &jj, &done));
  PetscCheck(done && m >= nb * n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot read the rows of the Jacobian"); /* more: a constrained step's multipliers */
  if (Ad) {
    PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCheck(done && m == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot read the rows of a matrix of the problem");
    PetscCall(MatSeqAIJGetArrayRead(Ad, &av));
  }
  PetscCall(MatSeqAIJGetArray(Jd, &jv));
  for (PetscInt r = 0; r < n; r++) {
    const PetscInt     k0 = Ad ? ai[r] : 0, k1 = Ad ? ai[r + 1] : 1, *cols = Ad ? aj + k0 : &r;
    const PetscScalar *vals = Ad ? av + k0 : &one;

    for (PetscInt i = 0; i < nb; i++) {
      const PetscInt row = i * n + r, end = ji[row + 1];
      PetscInt       p = ji[row];

      /* the columns l n + cols[k] increase with (l, k): one forward scan of the sorted row */
      for (PetscInt l = 0; l < nb; l++) {
        const PetscScalar c = coef[i * nb + l];

        if (c == 0) continue;
        for (PetscInt k = 0; k < k1 - k0; k++) {
          const PetscInt t = l * n + cols[k];

          while (p < end && jj[p] < t) p++;
          if (p < end && jj[p] == t) jv[p] += c * vals[k];
          else PetscCall(Defer(&defer, &ndefer, &maxdefer, jstart + row, jstart + t, c * vals[k])); /* new nonzero */
        }
      }
    }
  }
  PetscCall(MatSeqAIJRestoreArray(Jd, &jv));
  PetscCall(MatRestoreRowIJ(Jd, 0, PETSC_FALSE, PETSC_FALSE, &m, &ji, &jj, &done));
  if (Ad) {
    PetscCall(MatSeqAIJRestoreArrayRead(Ad, &av));
    PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  }
  if (Ao) { /* columns on other processes (the halo: a few rows), into J's off-diagonal block, whose columns are
               numbered by their place in J's sorted garray */
    const PetscInt    *oi, *oj, *bi, *bj;
    const PetscScalar *ov;
    PetscScalar       *bv;
    PetscInt           nbcols;

    PetscCall(MatGetSize(Jo, NULL, &nbcols));
    PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &m, &oi, &oj, &done));
    PetscCheck(done && m == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot read the rows of a matrix of the problem");
    PetscCall(MatGetRowIJ(Jo, 0, PETSC_FALSE, PETSC_FALSE, &m, &bi, &bj, &done));
    PetscCheck(done && m >= nb * n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot read the rows of the Jacobian"); /* more: multipliers */
    PetscCall(MatSeqAIJGetArrayRead(Ao, &ov));
    PetscCall(MatSeqAIJGetArray(Jo, &bv));
    for (PetscInt r = 0; r < n; r++) {
      for (PetscInt k = oi[r]; k < oi[r + 1]; k++) {
        PetscInt owner;

        PetscCall(PetscLayoutFindOwner(map, garray[oj[k]], &owner));
        for (PetscInt l = 0; l < nb; l++) {
          const PetscInt col = BlockIndex(jrange, range, owner, l, garray[oj[k]]);
          PetscInt       cb;

          PetscCall(PetscFindInt(col, nbcols, jgarray, &cb));
          for (PetscInt i = 0; i < nb; i++) {
            const PetscScalar c   = coef[i * nb + l];
            const PetscInt    row = i * n + r;
            PetscInt          p   = bi[row];

            if (c == 0) continue;
            while (cb >= 0 && p < bi[row + 1] && bj[p] != cb) p++;
            if (cb >= 0 && p < bi[row + 1]) bv[p] += c * ov[k];
            else PetscCall(Defer(&defer, &ndefer, &maxdefer, jstart + row, col, c * ov[k])); /* new nonzero */
          }
        }
      }
    }
    PetscCall(MatSeqAIJRestoreArray(Jo, &bv));
    PetscCall(MatSeqAIJRestoreArrayRead(Ao, &ov));
    PetscCall(MatRestoreRowIJ(Jo, 0, PETSC_FALSE, PETSC_FALSE, &m, &bi, &bj, &done));
    PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &m, &oi, &oj, &done));
  }
  /* MatSetValues leaves J unassembled: later calls before the caller's assembly take the generic path */
  for (PetscInt e = 0; e < ndefer; e++) PetscCall(MatSetValues(J, 1, &defer[e].row, 1, &defer[e].col, &defer[e].val, ADD_VALUES));
  PetscCall(PetscFree(defer));
  PetscFunctionReturn(0);
}

/* The terms a MATPREALLOCATOR pass of SimpVIMatFill_Private() has taken, composed with the preallocator: a term whose
   matrix (an AIJ matrix, or NULL, whose structural pattern MatGetRow gives, with the same nonzero state), transposition
   and blocks were all taken before adds no new position. The preallocator hashes every entry it gets, and a degree-s
   step adds the Hessian once per quadrature point: on the first Jacobian of a large system that hashing was the cost */
#define SIMPVI_SEEN_MAX 16
typedef struct {
  PetscInt n;
  struct {
    Mat              A;
    PetscObjectState state;
    PetscBool        transpose;
    PetscInt64       blocks; /* bit i nb + l: coefficient (i, l) nonzero */
  } t[SIMPVI_SEEN_MAX];
} SeenTerms;

static PetscErrorCode SeenTermsDestroy(SimpVICtxDestroyArg arg)
{
  void *ctx = SIMPVI_CTX(arg);

  PetscFunctionBegin;
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode SeenTermsCompose(Mat pre)
{
  PetscContainer container;
  SeenTerms     *seen;

  PetscFunctionBegin;
  PetscCall(PetscNew(&seen));
  PetscCall(PetscContainerCreate(PetscObjectComm((PetscObject)pre), &container));
  PetscCall(PetscContainerSetPointer(container, seen));
  PetscCall(PetscContainerSetCtxDestroy(container, SeenTermsDestroy));
  PetscCall(PetscObjectCompose((PetscObject)pre, "SimpVISeenTerms", (PetscObject)container));
  PetscCall(PetscContainerDestroy(&container));
  PetscFunctionReturn(0);
}

/* Whether J is a preallocation pass that has taken this term's positions already (else they are recorded now) */
static PetscErrorCode SeenTermsCheck(Mat J, Mat A, PetscBool transpose, PetscInt nb, const PetscScalar coef[], PetscBool *seenbefore)
{
  PetscContainer   container;
  SeenTerms       *seen;
  PetscObjectState state      = 0;
  PetscInt64       blocks     = 0;
  PetscBool        structural = PETSC_TRUE;
  PetscInt         k;

  PetscFunctionBegin;
  *seenbefore = PETSC_FALSE;
  PetscCall(PetscObjectQuery((PetscObject)J, "SimpVISeenTerms", (PetscObject *)&container));
  if (!container || nb * nb > 62) PetscFunctionReturn(0);
  if (A) {
    PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &structural, MATSEQAIJ, MATMPIAIJ, ""));
    if (structural) PetscCall(MatAssembled(A, &structural));
    if (!structural) PetscFunctionReturn(0); /* MatGetRow of other types may leave out zeros: their pattern follows the values */
    PetscCall(MatGetNonzeroState(A, &state));
  }
  for (PetscInt j = 0; j < nb * nb; j++)
    if (coef[j] != 0) blocks |= (PetscInt64)1 << j;
  PetscCall(PetscContainerGetPointer(container, (void **)&seen));
  for (k = 0; k < seen->n; k++)
    if (seen->t[k].A == A && seen->t[k].state == state && seen->t[k].transpose == transpose) break;
  if (k < seen->n) {
    *seenbefore = (PetscBool)((blocks & ~seen->t[k].blocks) == 0);
    seen->t[k].blocks |= blocks;
  } else if (seen->n < SIMPVI_SEEN_MAX) {
    seen->t[seen->n].A         = A;
    seen->t[seen->n].state     = state;
    seen->t[seen->n].transpose = transpose;
    seen->t[seen->n].blocks    = blocks;
    seen->n++;
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIMatAddBlocks_Private - J += sum_{i,l} coef[i nb + l] E_il (x) A (A' when transpose; the identity when A is
  NULL), J on the block-major layout of nb blocks of the positions' layout map. The caller assembles J.
*/
PetscErrorCode SimpVIMatAddBlocks_Private(Mat J, PetscLayout map, Mat A, PetscBool transpose, PetscInt nb, const PetscScalar coef[])
{
  Mat             Jd = NULL, Jo = NULL, Ad = NULL, Ao = NULL;
  const PetscInt *jgarray = NULL, *garray = NULL;
  PetscBool       fast = PETSC_FALSE, seenbefore;

  PetscFunctionBegin;
  PetscCall(SeenTermsCheck(J, A, transpose, nb, coef, &seenbefore));
  if (seenbefore) PetscFunctionReturn(0); /* a preallocation pass: no new positions */
  if (!transpose) {
    PetscCall(GetAIJBlocks(J, &Jd, &Jo, &jgarray));
    fast = (PetscBool)(Jd != NULL);
    if (fast && A) {
      PetscInt rstart, rend, cstart, cend, lo, hi;

      PetscCall(GetAIJBlocks(A, &Ad, &Ao, &garray));
      PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
      PetscCall(MatGetOwnershipRangeColumn(A, &cstart, &cend));
      PetscCall(PetscLayoutGetRange(map, &lo, &hi));
      fast = (PetscBool)(Ad && (!Ao || Jo) && rstart == lo && rend == hi && cstart == lo && cend == hi);
    }
  }
  PetscCall(PetscInfo(J, "%s\n", fast ? "AIJ values in place" : "by rows (MatGetRow/MatSetValues)"));
  if (fast) PetscCall(AddBlocksAIJ(J, Jd, Jo, jgarray, map, Ad, Ao, garray, nb, coef));
  else PetscCall(AddBlocksByRow(J, map, A, transpose, nb, coef));
  PetscFunctionReturn(0);
}

/* Assembles J. On the first assembly of a new pattern it finds whether any process stashed entries of another's rows
   (only transposed terms do); if none did, J gets MAT_NO_OFF_PROC_ENTRIES, which spares every later assembly a round
   of messages. */
static PetscErrorCode Assemble(Mat J, PetscBool first)
{
  PetscBool offproc = PETSC_FALSE;

  PetscFunctionBegin;
  if (first) {
    PetscInt nstash, reallocs, bnstash, breallocs;

    PetscCall(MatStashGetInfo(J, &nstash, &reallocs, &bnstash, &breallocs));
    offproc = (PetscBool)(nstash + bnstash > 0);
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &offproc, 1, SIMPVI_MPI_BOOL, MPI_LOR, PetscObjectComm((PetscObject)J)));
  }
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  if (first) {
    PetscCall(PetscInfo(J, "%s\n", offproc ? "Entries in other processes' rows: assembly with messages" : "No entries in other processes' rows: MAT_NO_OFF_PROC_ENTRIES"));
    PetscCall(MatSetOption(J, MAT_NO_OFF_PROC_ENTRIES, (PetscBool)!offproc));
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIMatFill_Private - J = what fill(ctx, J) adds (with SimpVIMatAddBlocks_Private()), assembled. The first time
  (*preallocated false) J is preallocated from a MATPREALLOCATOR pass of the same fill, so its sparsity is exactly that
  of the user's matrices (a term the pass has taken before is skipped: SeenTermsCheck()); later fills start from MatZeroEntries() and may still add nonzeros.
*/
PetscErrorCode SimpVIMatFill_Private(Mat J, PetscBool *preallocated, PetscErrorCode (*fill)(void *, Mat), void *ctx)
{
  const PetscBool first = (PetscBool) !*preallocated;

  PetscFunctionBegin;
  if (first) {
    Mat      pre;
    PetscInt m, n, M, N;

    PetscCall(MatGetLocalSize(J, &m, &n));
    PetscCall(MatGetSize(J, &M, &N));
    PetscCall(MatCreate(PetscObjectComm((PetscObject)J), &pre));
    PetscCall(MatSetType(pre, MATPREALLOCATOR));
    PetscCall(MatSetSizes(pre, m, n, M, N));
    PetscCall(MatSetUp(pre));
    PetscCall(SeenTermsCompose(pre));
    PetscCall(fill(ctx, pre));
    PetscCall(MatAssemblyBegin(pre, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(pre, MAT_FINAL_ASSEMBLY));
    PetscCall(MatPreallocatorPreallocate(pre, PETSC_TRUE, J));
    PetscCall(MatDestroy(&pre));
    PetscCall(MatSetOption(J, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    *preallocated = PETSC_TRUE;
  } else PetscCall(MatZeroEntries(J));
  PetscCall(fill(ctx, J));
  PetscCall(Assemble(J, first));
  PetscFunctionReturn(0);
}
