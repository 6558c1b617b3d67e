/*
   Default linear solvers for the systems simpvi meets (the step system, the mass matrix): a direct solve up to a size
   limit, a Krylov method beyond, set only where the user chose nothing.
*/
#include <petsc/private/petscimpl.h>
#include <simpvi/private/step.h>

/* Whether the user left the type of a KSP or PC (obj) to simpvi: none set and no option given, or still simpvi's
   placeholder (placeholder != NULL, the type TSCreate_SimpVI() put on the step KSP) */
static PetscErrorCode TypeUnchosen(PetscObject obj, const char option[], const char placeholder[], PetscBool *unchosen)
{
  PetscBool given, same = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(obj->options, obj->prefix, option, &given));
  if (obj->type_name && placeholder) PetscCall(PetscObjectTypeCompare(obj, placeholder, &same));
  *unchosen = (PetscBool)(!given && (!obj->type_name || same));
  PetscFunctionReturn(0);
}

/*
  SimpVIDefaultLinearSolver_Private - the default solver of a linear system of N rows met by the TS (the step system,
  or the mass matrix when spd): on one process a direct solve up to limit rows (-ts_simpvi_direct_limit), where a
  factorization is cheap and blind to conditioning; above it, and in parallel at every size, a Krylov method
  (BiCGStab, or CG for the SPD mass matrix) with block Jacobi/ILU(0), whose memory grows like the matrix's rather than
  like a factor's (BiCGStab keeps a few vectors where GMRES keeps its basis). In parallel a direct solve
  (SuperLU_DIST) was measured 1.2 to 5 times slower than the Krylov solve on every size of bench/crossover.sh (50 to
  2 10^5 masses on 2 processes, docs/crossover.md), with the Jacobian and its factors kept or not. Only the types the
  user left unchosen (TypeUnchosen) are set; placeholder: the KSP carries the step placeholders of
  SimpVIStepPlaceholderSolver_Private(). ours (optional): whether it chose both types, so that
  SimpVIDefaultSolverFromMatrix_Private() may refine the choice from the first matrix (in parallel too: a nearly banded
  step matrix gets an exact solve, src/core/interfacelu.c).
*/
PetscErrorCode SimpVIDefaultLinearSolver_Private(KSP ksp, PetscInt N, PetscInt limit, PetscBool spd, PetscBool placeholder, PetscBool *ours)
{
  PC          pc;
  PetscMPIInt size;
  PetscBool   kspfree, pcfree, direct;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ksp), &size));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(TypeUnchosen((PetscObject)ksp, "-ksp_type", placeholder ? KSPPREONLY : NULL, &kspfree));
  PetscCall(TypeUnchosen((PetscObject)pc, "-pc_type", placeholder ? PCNONE : NULL, &pcfree));
  if (pcfree) PetscCall(PCSetType(pc, N > limit || size > 1 ? PCBJACOBI : PCLU));
  if (ours) *ours = (PetscBool)(pcfree && kspfree);
  if (!kspfree) PetscFunctionReturn(0);
  PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &direct, PCLU, PCCHOLESKY, PCQR, ""));
  if (direct) PetscCall(KSPSetType(ksp, KSPPREONLY));
  else {
    PetscCall(KSPSetType(ksp, spd ? KSPCG : KSPBCGS));
    /* the Newton test is on the update (stol): linear solves must be accurate well below it */
    PetscCall(KSPSetTolerances(ksp, 1e-12, 1e-50, PETSC_DEFAULT, PETSC_DEFAULT));
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIStepPlaceholderSolver_Private - types for the step KSP before set-up that build nothing: options processing
  hands the SNES's matrix (the user's I2 Jacobian) to its KSP, and a factorization PC would factor it there (with
  SuperLU_DIST, an unused factor that cannot even be destroyed). Kept where the user already chose a type.
*/
PetscErrorCode SimpVIStepPlaceholderSolver_Private(KSP ksp)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPGetPC(ksp, &pc));
  if (!((PetscObject)ksp)->type_name) PetscCall(KSPSetType(ksp, KSPPREONLY));
  if (!((PetscObject)pc)->type_name) PetscCall(PCSetType(pc, PCNONE));
  PetscFunctionReturn(0);
}

/* The rows' and columns' envelope of A under the permutation perm (new index of row i: inv[i]): the entries a banded
   LU of the permuted A may fill, sum over rows of the distance from the first entry to the diagonal, both triangles */
static PetscErrorCode Envelope(Mat A, const PetscInt perm[], PetscCount *env, PetscCount *nnz)
{
  const PetscInt *ia, *ja;
  PetscInt        n, *inv, *first, *top;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ() did not give the rows of the step matrix");
  PetscCall(PetscMalloc3(n, &inv, n, &first, n, &top));
  for (PetscInt r = 0; r < n; r++) {
    inv[perm[r]] = r;
    first[r] = top[r] = r;
  }
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt k = ia[i]; k < ia[i + 1]; k++) {
      const PetscInt r = inv[i], c = inv[ja[k]];

      if (c < r) first[r] = PetscMin(first[r], c); /* lower triangle: row r from column c */
      else top[c] = PetscMin(top[c], r);           /* upper triangle: column c from row r */
    }
  *env = 0;
  for (PetscInt r = 0; r < n; r++) *env += (r - first[r]) + (r - top[r]);
  *nnz = ia[n];
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCall(PetscFree3(inv, first, top));
  PetscFunctionReturn(0);
}

/* Whether the square AIJ matrix A (one process's) is nearly banded under RCM: its envelope at most
   SIMPVI_BANDED_ENVELOPE times its entries; *zero: its number of zero diagonal entries */
#define SIMPVI_BANDED_ENVELOPE 4
static PetscErrorCode NearlyBanded(Mat A, PetscBool *banded, PetscInt *zero, PetscCount *env, PetscCount *nnz)
{
  IS              rperm, cperm, zeros;
  const PetscInt *perm;

  PetscFunctionBegin;
  PetscCall(MatFindZeroDiagonals(A, &zeros));
  PetscCall(ISGetSize(zeros, zero));
  PetscCall(ISDestroy(&zeros));
  PetscCall(MatGetOrdering(A, MATORDERINGRCM, &rperm, &cperm));
  PetscCall(ISGetIndices(rperm, &perm));
  PetscCall(Envelope(A, perm, env, nnz));
  PetscCall(ISRestoreIndices(rperm, &perm));
  PetscCall(ISDestroy(&rperm));
  PetscCall(ISDestroy(&cperm));
  *banded = (PetscBool)(*env <= SIMPVI_BANDED_ENVELOPE * *nnz);
  PetscFunctionReturn(0);
}

/*
  SimpVIDefaultSolverFromMatrix_Private - refines the default solver of the step (SimpVIDefaultLinearSolver_Private()
  chose both types) from the step matrix A's first pattern, before its first factorization: where A is nearly banded
  under reverse Cuthill-McKee (its envelope at most SIMPVI_BANDED_ENVELOPE times its entries: a chain, a 1-D grid,
  whose step matrix couples s copies of a band), an LU ordered by RCM fills at most that envelope, whatever the size:
  the direct solve then, ordered by RCM (unless -pc_factor_mat_ordering_type is given). Otherwise (2-D and 3-D grids)
  the choice stays: an LU up to -ts_simpvi_direct_limit rows ordered by PETSc's nested dissection, Krylov above. On the
  chains of bench/stepcost.sh and bench/crossover.sh nested dissection filled the factor 1.7 times and scattered it (a
  Simpson step 3.5 times slower than with RCM), and above the limit (2 10^5 rows) BiCGStab cost 2.8 times the direct
  solve that simplified Newton factors once for many steps.
  In parallel the same test on each process's diagonal block, and the processes coupled through at most
  SIMPVI_INTERFACE_MAX unknowns (SIMPVI_INTERFACE_GHOSTS per process): the exact solve of src/core/interfacelu.c, each
  block by an LU ordered by RCM, in place of BiCGStab with block Jacobi/ILU(0) (on the 10^5-mass FPUT chain of the
  conformance suite, 2 BiCGStab iterations a solve: 5 products and 5 block solves, 8 reductions, where this solve
  needs one pair of triangular solves and one MPI_Allgatherv(): bench/ranks.sh). krylov: the step's operator is not
  A (an inexact Jacobian, A only preconditions it): the Krylov method stays. *banded: whether RCM was chosen.
*/
#define SIMPVI_INTERFACE_MAX    256
#define SIMPVI_INTERFACE_GHOSTS 32
PetscErrorCode SimpVIDefaultSolverFromMatrix_Private(KSP ksp, Mat A, PetscBool krylov, PetscBool *banded)
{
  PC         pc;
  PetscBool  lu, bjacobi, bcgs, preonly, seqaij, mpiaij, given, near;
  PetscCount env = 0, nnz = 0;
  PetscInt   nzero;

  PetscFunctionBegin;
  *banded = PETSC_FALSE;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCLU, &lu));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &bjacobi));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPBCGS, &bcgs));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPPREONLY, &preonly));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &seqaij));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJ, &mpiaij));
  PetscCall(PetscOptionsHasName(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-pc_factor_mat_ordering_type", &given));
  if (given) PetscFunctionReturn(0);
  if (mpiaij) { /* in parallel (collective): each process's block, and the coupling of the processes */
    Mat             Ad, Ao;
    const PetscInt *garray;
    PetscInt        m, gmax;
    PetscBool       all, sub;

    if (!(bjacobi && bcgs)) PetscFunctionReturn(0); /* not the choice made */
    PetscCall(PetscOptionsHasName(((PetscObject)pc)->options, ((PetscObject)pc)->prefix, "-sub_pc_type", &sub));
    if (sub) PetscFunctionReturn(0); /* options for block Jacobi's blocks: block Jacobi stays */
    PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
    PetscCall(NearlyBanded(Ad, &near, &nzero, &env, &nnz));
    near = (PetscBool)(near && !nzero); /* a saddle point: its blocks' LU would need the natural order (constraints' default) */
    PetscCallMPI(MPI_Allreduce(&near, &all, 1, SIMPVI_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A)));
    if (!all) PetscFunctionReturn(0);
    PetscCall(SimpVIInterfaceCount_Private(A, &m, &gmax));
    if (m > SIMPVI_INTERFACE_MAX || gmax > SIMPVI_INTERFACE_GHOSTS) {
      PetscCall(PetscInfo(pc, "The processes' blocks of the step matrix are nearly banded, but they couple through up to %" PetscInt_FMT " unknowns (%" PetscInt_FMT " on one process): block Jacobi stays\n", m, gmax));
      PetscFunctionReturn(0);
    }
    PetscCall(PetscInfo(pc, "The step matrix is nearly banded under RCM on each process (envelope %" PetscCount_FMT ", %" PetscCount_FMT " entries on this one), its processes coupled through at most %" PetscInt_FMT " unknowns: each block by an LU ordered by RCM, the coupling by a capacitance system\n", env, nnz, m));
    PetscCall(SimpVIPCSetInterfaceLU_Private(pc));
    if (!krylov) PetscCall(KSPSetType(ksp, KSPPREONLY));
    *banded = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  if (!seqaij || !((lu && preonly) || (bjacobi && bcgs))) PetscFunctionReturn(0); /* not the choice made */
  PetscCall(NearlyBanded(A, &near, &nzero, &env, &nnz));
  /* zero diagonals: a saddle point (the multipliers of constraints, after the positions), which an LU without pivoting
     factors in the natural order, the multipliers' Schur complement last; RCM may put a zero pivot first */
  if (nzero && lu && preonly) {
    PetscCall(PetscInfo(pc, "The step matrix has %" PetscInt_FMT " zero diagonal entries (a saddle point): LU in the natural order\n", nzero));
    PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL));
    PetscFunctionReturn(0);
  }
  if (!near) PetscFunctionReturn(0);
  PetscCall(PetscInfo(pc, "The step matrix is nearly banded under RCM (envelope %" PetscCount_FMT ", %" PetscCount_FMT " entries): LU ordered by RCM%s\n", env, nnz, bjacobi ? " in place of BiCGStab above -ts_simpvi_direct_limit" : ""));
  if (bjacobi) {
    PetscCall(PCSetType(pc, PCLU));
    if (!krylov) PetscCall(KSPSetType(ksp, KSPPREONLY));
  }
  PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGRCM));
  *banded = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*
  SimpVISaddlePointSolver_Private - the default solver of a saddle-point system whose rows are, on each process, its
  positions and then its multipliers (a step with holonomic constraints, the end momentum's projection), set where the
  user chose no type: on one process an LU in the natural order (the multipliers' zero diagonal block last, pivoting on
  its Schur complement after the positions' updates); in parallel GMRES with block Jacobi, each process's block a
  saddle point of its own, factored by an LU in the natural order (SimpVISaddlePointSubSolver_Private()), with no
  external package (PETSc's own LU). *ours (optional): whether it chose the PC; *sub: whether the block solvers are
  still to be set, once the PC is set up.
*/
PetscErrorCode SimpVISaddlePointSolver_Private(KSP ksp, PetscBool placeholder, PetscBool *ours, PetscBool *sub)
{
  PC          pc;
  PetscMPIInt size;
  PetscBool   kspfree, pcfree;

  PetscFunctionBegin;
  *sub = PETSC_FALSE;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ksp), &size));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(TypeUnchosen((PetscObject)ksp, "-ksp_type", placeholder ? KSPPREONLY : NULL, &kspfree));
  PetscCall(TypeUnchosen((PetscObject)pc, "-pc_type", placeholder ? PCNONE : NULL, &pcfree));
  if (ours) *ours = pcfree;
  if (pcfree) {
    PetscCall(PCSetType(pc, size > 1 ? PCBJACOBI : PCLU));
    if (size == 1) PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL));
    *sub = (PetscBool)(size > 1);
  }
  if (kspfree) {
    PetscBool direct;

    PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &direct, PCLU, PCCHOLESKY, PCQR, ""));
    PetscCall(KSPSetType(ksp, direct ? KSPPREONLY : KSPGMRES));
    /* Newton's test is on the update: the linear solves must be accurate well below it */
    if (!direct) PetscCall(KSPSetTolerances(ksp, 1e-13, 1e-50, PETSC_DEFAULT, PETSC_DEFAULT));
  }
  PetscFunctionReturn(0);
}

/*
  SimpVISaddlePointSubSolver_Private - the blocks of SimpVISaddlePointSolver_Private()'s block Jacobi, once its operator
  A is known: each process's saddle-point block by an LU in the natural order (an incomplete one would drop the
  multipliers' Schur complement), unless -sub_pc_type or -sub_pc_factor_mat_ordering_type says otherwise
*/
PetscErrorCode SimpVISaddlePointSubSolver_Private(KSP ksp, Mat A)
{
  PC        pc;
  KSP      *sub;
  PetscInt  nsub;
  PetscBool bjacobi;

  PetscFunctionBegin;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &bjacobi));
  if (!bjacobi) PetscFunctionReturn(0);
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PCBJacobiGetSubKSP(pc, &nsub, NULL, &sub));
  for (PetscInt b = 0; b < nsub; b++) {
    PC        subpc;
    PetscBool pcfree, ordergiven;

    PetscCall(KSPGetPC(sub[b], &subpc));
    PetscCall(PetscOptionsHasName(((PetscObject)subpc)->options, ((PetscObject)subpc)->prefix, "-pc_type", &pcfree));
    pcfree = (PetscBool)!pcfree;
    PetscCall(PetscOptionsHasName(((PetscObject)subpc)->options, ((PetscObject)subpc)->prefix, "-pc_factor_mat_ordering_type", &ordergiven));
    if (pcfree) PetscCall(PCSetType(subpc, PCLU));
    if (pcfree && !ordergiven) PetscCall(PCFactorSetMatOrderingType(subpc, MATORDERINGNATURAL));
  }
  PetscFunctionReturn(0);
}
