/*
   An exact parallel solve of a matrix that is nearly banded on each process and whose processes couple through few
   unknowns (a chain, a 1-D grid cut into pieces): the step's default in parallel for such matrices
   (SimpVIDefaultSolverFromMatrix_Private()). Write A = D + O, D the processes' diagonal blocks, O their couplings,
   whose columns (each process's ghosts) lie in a small set G of m unknowns. From D x = b - O x,
     x = y - Z x_G,   y = D^{-1} b,   Z = D^{-1} O,
   and on the rows of G alone this is the m x m capacitance system (I + Z_G) x_G = y_G. Set-up: each process factors its
   block D (LU ordered by RCM, as on one process) and solves for the g columns of its O; the capacitance matrix,
   gathered from the processes' rows, is factored (dense LU with pivoting) on each. An application: one pair of
   triangular solves on each process, one MPI_Allgatherv() of m numbers, an m x m dense solve and g AXPYs. Block Jacobi
   with BiCGStab (the default otherwise) needs at least 2 iterations (5 solves with the blocks and 5 products with A,
   and 4 reductions each) where a direct solve on one process needs one pair of triangular solves.
*/
#include <petsc/private/pcimpl.h>
#include <simpvi/private/step.h>

typedef struct {
  Mat              F;      /* LU factor of the process's diagonal block D */
  PetscObjectState pstate; /* the matrix's nonzero state at F's symbolic factorization and G's making */
  PetscObjectId    pid;    /* and the matrix (a new one, e.g. of another degree, may show the same state) */
  Mat              Z;      /* D^{-1} O: local rows x g ghost columns, dense */
  PetscInt         g, *gidx;
  PetscInt         m, k0, mown, rstart; /* |G|; this process's rows of G: G[k0 .. k0 + mown); its first row */
  PetscInt        *G;
  PetscMPIInt     *counts, *displs; /* of the processes' pieces of G (G is sorted: each piece contiguous) */
  Mat              C;               /* I + Z_G, m x m dense, factored */
  Vec              b, y, yG, xG, w; /* b, y: local wrappers of the input and output; yG, xG: m; w: g */
  PetscScalar     *send;
  PetscBool        failed; /* the last factorization failed (a zero pivot): applications give Inf, as PCLU's */
} PC_InterfaceLU;

static PetscErrorCode Reset(PC_InterfaceLU *il)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&il->F));
  PetscCall(MatDestroy(&il->Z));
  PetscCall(MatDestroy(&il->C));
  PetscCall(VecDestroy(&il->b));
  PetscCall(VecDestroy(&il->y));
  PetscCall(VecDestroy(&il->yG));
  PetscCall(VecDestroy(&il->xG));
  PetscCall(VecDestroy(&il->w));
  PetscCall(PetscFree2(il->G, il->gidx));
  PetscCall(PetscFree3(il->counts, il->displs, il->send));
  il->m = il->g = il->mown = 0;
  PetscFunctionReturn(0);
}

/* G, the union of the processes' ghost columns (sorted, on every process), and where this process's pieces sit in it */
static PetscErrorCode InterfaceSet(PC_InterfaceLU *il, MPI_Comm comm, PetscInt rstart, PetscInt rend, const PetscInt garray[])
{
  PetscMPIInt size, g, *gcounts, *gdispls;
  PetscInt    total = 0, *all;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMPIIntCast(il->g, &g));
  PetscCall(PetscMalloc2(size, &gcounts, size, &gdispls));
  PetscCallMPI(MPI_Allgather(&g, 1, MPI_INT, gcounts, 1, MPI_INT, comm));
  for (PetscMPIInt p = 0; p < size; p++) {
    gdispls[p] = (PetscMPIInt)total;
    total += gcounts[p];
  }
  PetscCall(PetscMalloc1(total, &all));
  PetscCallMPI(MPI_Allgatherv(garray, g, MPIU_INT, all, gcounts, gdispls, MPIU_INT, comm));
  PetscCall(PetscSortRemoveDupsInt(&total, all));
  il->m = total;
  PetscCall(PetscMalloc2(il->m, &il->G, il->g, &il->gidx));
  PetscCall(PetscArraycpy(il->G, all, il->m));
  PetscCall(PetscFree(all));
  PetscCall(PetscFree2(gcounts, gdispls));
  for (PetscInt j = 0; j < il->g; j++) PetscCall(PetscFindInt(garray[j], il->m, il->G, &il->gidx[j]));
  il->rstart = rstart;
  il->k0     = 0;
  while (il->k0 < il->m && il->G[il->k0] < rstart) il->k0++;
  il->mown = 0;
  while (il->k0 + il->mown < il->m && il->G[il->k0 + il->mown] < rend) il->mown++;
  PetscCall(PetscMalloc3(size, &il->counts, size, &il->displs, PetscMax(il->mown * il->m, il->mown), &il->send));
  {
    PetscMPIInt mown;

    PetscCall(PetscMPIIntCast(il->mown, &mown));
    PetscCallMPI(MPI_Allgather(&mown, 1, MPI_INT, il->counts, 1, MPI_INT, comm));
  }
  il->displs[0] = 0;
  for (PetscMPIInt p = 1; p < size; p++) il->displs[p] = il->displs[p - 1] + il->counts[p - 1];
  PetscFunctionReturn(0);
}

/* The capacitance matrix I + Z_G: this process's rows of G from its Z, gathered, then factored on every process */
static PetscErrorCode Capacitance(PC_InterfaceLU *il, MPI_Comm comm)
{
  const PetscScalar *z;
  PetscScalar       *c;
  PetscMPIInt        size, *counts, *displs;
  PetscInt           lda;
  MatFactorInfo      info;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(MatDenseGetLDA(il->Z, &lda));
  PetscCall(PetscArrayzero(il->send, il->mown * il->m));
  PetscCall(MatDenseGetArrayRead(il->Z, &z));
  for (PetscInt k = 0; k < il->mown; k++) { /* row k0 + k of C, row-major */
    const PetscInt r = il->G[il->k0 + k] - il->rstart;

    il->send[k * il->m + il->k0 + k] = 1;
    for (PetscInt j = 0; j < il->g; j++) il->send[k * il->m + il->gidx[j]] += z[r + j * lda];
  }
  PetscCall(MatDenseRestoreArrayRead(il->Z, &z));
  PetscCall(PetscMalloc2(size, &counts, size, &displs));
  for (PetscMPIInt p = 0; p < size; p++) {
    counts[p] = il->counts[p] * (PetscMPIInt)il->m;
    displs[p] = il->displs[p] * (PetscMPIInt)il->m;
  }
  PetscCall(MatDestroy(&il->C));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, il->m, il->m, NULL, &il->C));
  PetscCall(MatDenseGetArrayWrite(il->C, &c));
  PetscCallMPI(MPI_Allgatherv(il->send, (PetscMPIInt)(il->mown * il->m), MPIU_SCALAR, c, counts, displs, MPIU_SCALAR, comm));
  /* row-major as gathered: the transpose of C in the dense (column-major) storage */
  for (PetscInt i = 0; i < il->m; i++)
    for (PetscInt j = 0; j < i; j++) {
      const PetscScalar t = c[i + j * il->m];

      c[i + j * il->m] = c[j + i * il->m];
      c[j + i * il->m] = t;
    }
  PetscCall(MatDenseRestoreArrayWrite(il->C, &c));
  PetscCall(PetscFree2(counts, displs));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatLUFactor(il->C, NULL, NULL, &info));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCSetUp_InterfaceLU(PC pc)
{
  PC_InterfaceLU  *il;
  MPI_Comm         comm = PetscObjectComm((PetscObject)pc);
  Mat              P, Ad, Ao, Od;
  const PetscInt  *garray;
  PetscInt         n, rstart, rend;
  PetscObjectState state;
  MatFactorInfo    info;
  MatFactorError   err;
  PetscBool        mpiaij;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &il));
  PetscCall(PCGetOperators(pc, NULL, &P));
  PetscCall(PetscObjectTypeCompare((PetscObject)P, MATMPIAIJ, &mpiaij));
  PetscCheck(mpiaij, comm, PETSC_ERR_SUP, "The interface LU of a nearly banded step matrix needs a MATMPIAIJ matrix, not %s", ((PetscObject)P)->type_name);
  PetscCall(MatMPIAIJGetSeqAIJ(P, &Ad, &Ao, &garray));
  PetscCall(MatGetOwnershipRange(P, &rstart, &rend));
  PetscCall(MatGetNonzeroState(P, &state)); /* of both blocks: the ghost columns may change alone */
  PetscCall(MatFactorInfoInitialize(&info));
  if (!il->F || state != il->pstate || ((PetscObject)P)->id != il->pid) { /* a new pattern or matrix: the ordering, symbolic factorization and interface again */
    IS rperm, cperm;

    PetscCall(Reset(il));
    PetscCall(MatGetOrdering(Ad, MATORDERINGRCM, &rperm, &cperm));
    PetscCall(MatGetFactor(Ad, MATSOLVERPETSC, MAT_FACTOR_LU, &il->F));
    PetscCall(MatLUFactorSymbolic(il->F, Ad, rperm, cperm, &info));
    PetscCall(ISDestroy(&rperm));
    PetscCall(ISDestroy(&cperm));
    il->pstate = state;
    il->pid    = ((PetscObject)P)->id;
    PetscCall(MatGetSize(Ao, NULL, &il->g));
    PetscCall(InterfaceSet(il, comm, rstart, rend, garray));
    PetscCall(MatGetLocalSize(P, &n, NULL));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, NULL, &il->b));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, NULL, &il->y));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, il->m, &il->yG));
    PetscCall(VecDuplicate(il->yG, &il->xG));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, il->g, &il->w));
  }
  PetscCall(MatFactorClearError(il->F));
  PetscCall(MatLUFactorNumeric(il->F, Ad, &info));
  PetscCall(MatFactorGetError(il->F, &err));
  il->failed = (PetscBool)(err != MAT_FACTOR_NOERROR);
  if (il->failed) { /* a zero pivot: the solve fails as PCLU's would (the step is retried or the error reported) */
    PetscCall(PetscInfo(pc, "The LU of this process's block failed (MatFactorError %d)\n", (int)err));
    PetscCall(PCSetFailedReason(pc, err == MAT_FACTOR_NUMERIC_ZEROPIVOT ? PC_FACTOR_NUMERIC_ZEROPIVOT : PC_FACTOR_OTHER));
    PetscFunctionReturn(0);
  }
  PetscCall(MatDestroy(&il->Z));
  PetscCall(MatConvert(Ao, MATSEQDENSE, MAT_INITIAL_MATRIX, &Od));
  PetscCall(MatDuplicate(Od, MAT_DO_NOT_COPY_VALUES, &il->Z));
  if (il->g) PetscCall(MatMatSolve(il->F, Od, il->Z));
  PetscCall(MatDestroy(&Od));
  if (il->m) PetscCall(Capacitance(il, comm));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCApply_InterfaceLU(PC pc, Vec b, Vec x)
{
  PC_InterfaceLU    *il;
  const PetscScalar *ba, *xg;
  PetscScalar       *xa, *w;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &il));
  if (il->failed) {
    PetscCall(VecSet(x, PETSC_INFINITY));
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetArrayRead(b, &ba));
  PetscCall(VecGetArray(x, &xa));
  PetscCall(VecPlaceArray(il->b, ba));
  PetscCall(VecPlaceArray(il->y, xa));
  PetscCall(MatSolve(il->F, il->b, il->y)); /* y = D^{-1} b */
  if (il->m) {
    PetscScalar *yg;

    for (PetscInt k = 0; k < il->mown; k++) il->send[k] = xa[il->G[il->k0 + k] - il->rstart];
    PetscCall(VecGetArrayWrite(il->yG, &yg));
    PetscCallMPI(MPI_Allgatherv(il->send, (PetscMPIInt)il->mown, MPIU_SCALAR, yg, il->counts, il->displs, MPIU_SCALAR, PetscObjectComm((PetscObject)pc)));
    PetscCall(VecRestoreArrayWrite(il->yG, &yg));
    PetscCall(MatSolve(il->C, il->yG, il->xG)); /* x_G */
    PetscCall(VecGetArrayRead(il->xG, &xg));
    PetscCall(VecGetArrayWrite(il->w, &w));
    for (PetscInt j = 0; j < il->g; j++) w[j] = -xg[il->gidx[j]];
    PetscCall(VecRestoreArrayWrite(il->w, &w));
    PetscCall(VecRestoreArrayRead(il->xG, &xg));
    if (il->g) PetscCall(MatMultAdd(il->Z, il->w, il->y, il->y)); /* x = y - Z x_G */
  }
  PetscCall(VecResetArray(il->b));
  PetscCall(VecResetArray(il->y));
  PetscCall(VecRestoreArrayRead(b, &ba));
  PetscCall(VecRestoreArray(x, &xa));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCView_InterfaceLU(PC pc, PetscViewer viewer)
{
  PC_InterfaceLU *il;
  PetscBool       iascii;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &il));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (iascii) PetscCall(PetscViewerASCIIPrintf(viewer, "each process's block by an LU ordered by RCM, the %" PetscInt_FMT " unknowns coupling the processes by a dense capacitance system (an exact solve)\n", il->m));
  PetscFunctionReturn(0);
}

static PetscErrorCode PCDestroy_InterfaceLU(PC pc)
{
  PC_InterfaceLU *il;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &il));
  PetscCall(Reset(il));
  PetscCall(PetscFree(il));
  PetscFunctionReturn(0);
}

/*
  SimpVIPCSetInterfaceLU_Private - makes pc the exact parallel solve of this file (a PCSHELL named "simpvi interface
  LU"), for a MATMPIAIJ operator nearly banded on each process whose processes couple through few unknowns
*/
PetscErrorCode SimpVIPCSetInterfaceLU_Private(PC pc)
{
  PC_InterfaceLU *il;

  PetscFunctionBegin;
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PetscNew(&il));
  PetscCall(PCShellSetContext(pc, il));
  PetscCall(PCShellSetName(pc, "simpvi interface LU"));
  PetscCall(PCShellSetSetUp(pc, PCSetUp_InterfaceLU));
  PetscCall(PCShellSetApply(pc, PCApply_InterfaceLU));
  PetscCall(PCShellSetView(pc, PCView_InterfaceLU));
  PetscCall(PCShellSetDestroy(pc, PCDestroy_InterfaceLU));
  PetscFunctionReturn(0);
}

/*
  SimpVIInterfaceCount_Private - on a MATMPIAIJ matrix A: the number of columns coupling the processes (the union of
  their ghost columns, m of the capacitance system) and the most of any one process (g), collective
*/
PetscErrorCode SimpVIInterfaceCount_Private(Mat A, PetscInt *m, PetscInt *gmax)
{
  Mat             Ad, Ao;
  const PetscInt *garray;
  PetscInt        g;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(MatGetSize(Ao, NULL, &g));
  PetscCallMPI(MPI_Allreduce(&g, gmax, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)A)));
  PetscCallMPI(MPI_Allreduce(&g, m, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)A))); /* an upper bound of |G| */
  PetscFunctionReturn(0);
}
