/*
   Split door: a separable Hamiltonian H = T(t, p) + V(t, q) given as PETSc's TSBASICSYMPLECTIC reads it, the RHS split
   "position" q' = f(t, p) and "momentum" p' = g(t, q) (TSRHSSplitSetIS(), TSRHSSplitSetRHSFunction()), each function
   called on its sub-TS with the other half of U, as TSBASICSYMPLECTIC calls them. The Lagrangian of H,
   L(q, v) = p v - T(p) - V(q) with v = f(p), gives the core what it needs with f and g alone:
     P = L_v = f^{-1}(v) (Newton on f),  G = L_x = g(q),  L_vv = (df/dp)^{-1},  L_xx = dg/dq,  L_xv = 0.
   With Lobatto quadrature on the nodes the step is then the Lobatto IIIA-IIIB pair (docs/mathematics.md); with Gauss
   quadrature it is the Galerkin integrator of the same Lagrangian. df/dp and dg/dq come from the split's own RHS
   Jacobians, else the TS's RHS Jacobian restricted to the split, else finite differences coloured on the pattern a
   dense finite-difference probe finds at set-up (at most -ts_simpvi_split_fd_limit positions).
*/
#include <petsc/private/tsimpl.h> /* the user's TS: its step and time in the callback errors */
#include <simpvi/private/door.h>

/* Momenta of this many recent velocity vectors are kept (warm starts, and the P a terms() call needs): two steps' worth
   of quadrature points of the largest scheme */
#define SPLIT_NCACHE 72

typedef enum {
  SPLIT_JAC_SUBTS,
  SPLIT_JAC_PARENT,
  SPLIT_JAC_FD
} SplitJacSource;

/* One of the two functions: f of the "position" split, g of the "momentum" split */
typedef struct {
  const char    *name;   /* "position" or "momentum" */
  const char    *cbname; /* in the collective callback errors */
  TS             subts;  /* the split's sub-TS: its RHS function (and Jacobian) */
  TS             ts;     /* the user's TS, for the collective callback check */
  SplitJacSource src;
  Mat            J;        /* the Jacobian (n x n) as last computed: the sub-TS's, a submatrix of the TS's, or coloured FD */
  MatFDColoring  fdc;      /* finite differences */
  PetscInt       ncolors;  /* of the colouring */
  PetscBool      diagonal; /* the pattern found (or the values last computed) is diagonal */
  PetscReal      t;        /* the time of the function the finite differences take */
  PetscInt       evals, jacs;
} SplitFn;

struct _SimpVISplit {
  SimpVIProblem *prob; /* its user.I2P, I2A: the matrices of TSSetRHSJacobian() on the TS, taken from its SNES */
  SplitFn        f, g;
  IS             isq, isp; /* the split of U, for the TS's RHS Jacobian */
  Vec            U;        /* (x, P) joined, for the TS's RHS Jacobian */
  Mat            Pv;       /* L_vv = (df/dp)^{-1}: diagonal (AIJ) or dense */
  PetscBool      Pvvalid, Pvdense;
  PetscInt       fdlimit; /* -ts_simpvi_split_fd_limit: the largest split probed by dense finite differences (and inverted densely) */
  Vec            r, rt, w, dP, d;
  /* momenta of recent velocity vectors (by id and state) */
  PetscObjectId    cid[SPLIT_NCACHE];
  PetscObjectState cstate[SPLIT_NCACHE];
  PetscReal        ct[SPLIT_NCACHE];
  Vec              cP[SPLIT_NCACHE];
  PetscInt         cnext;
  PetscInt         inversions, invits, refreshes;
  PetscReal        vmax; /* the largest |v| inverted so far */
};

/* out = f(t, p) (position) or g(t, q) (momentum), on the split's sub-TS as TSBASICSYMPLECTIC calls it */
static PetscErrorCode Eval(SplitFn *fn, PetscReal t, Vec in, Vec out)
{
  PetscFunctionBegin;
  PetscCall(TSSetTime(fn->subts, t));
  PetscCall(TSSetStepNumber(fn->subts, fn->ts->steps));
  SimpVICallBack(fn->ts, fn->cbname, TSComputeRHSFunction(fn->subts, t, in, out));
  fn->evals++;
  PetscFunctionReturn(0);
}

/* The function MatFDColoringApply() differentiates */
static PetscErrorCode FDFunction(void *unused, Vec in, Vec out, void *ctx)
{
  SplitFn *fn = (SplitFn *)ctx;

  PetscFunctionBegin;
  PetscCall(Eval(fn, fn->t, in, out));
  PetscFunctionReturn(0);
}

/* Whether every process's rows of A hold nothing off the diagonal (values, not structure) */
static PetscErrorCode IsDiagonal(Mat A, PetscBool *diag)
{
  PetscInt rstart, rend;

  PetscFunctionBegin;
  *diag = PETSC_TRUE;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt r = rstart; r < rend && *diag; r++) {
    PetscInt           ncols;
    const PetscInt    *cols;
    const PetscScalar *vals;

    PetscCall(MatGetRow(A, r, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; k++)
      if (cols[k] != r && vals[k] != 0) *diag = PETSC_FALSE;
    PetscCall(MatRestoreRow(A, r, &ncols, &cols, &vals));
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, diag, 1, SIMPVI_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A)));
  PetscFunctionReturn(0);
}

/*
  The pattern of the function's Jacobian, found once by dense finite differences at x0 plus a random perturbation
  (an entry that vanishes at one point by accident does not vanish at a random one): a difference exactly zero is a
  structural zero. The coloured finite differences then cost (colours + 1) evaluations per Jacobian; a diagonal one
  (particles: q' = p/m) costs two.
*/
static PetscErrorCode FindPattern(TS ts, SimpVISplit *sp, SplitFn *fn, Vec x0)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)ts);
  Vec         x, y0, y;
  PetscRandom rnd;
  PetscInt    N, n, rstart, rend, *dnnz, *onnz, nmark = 0, *marks = NULL, cap = 0;
  PetscReal   xnorm;
  ISColoring  iscoloring;
  MatColoring mc;

  PetscFunctionBegin;
  PetscCall(VecGetSize(x0, &N));
  PetscCall(VecGetLocalSize(x0, &n));
  PetscCall(VecGetOwnershipRange(x0, &rstart, &rend));
  PetscCheck(N <= sp->fdlimit, comm, PETSC_ERR_SUP, "TSSIMPVI's split door needs d%s/d%s of the TSRHSSplit \"%s\" function: give it with TSSetRHSJacobian() on the sub-TS (TSRHSSplitGetSubTS()) or on the TS itself (the whole U), or allow its %" PetscInt_FMT " entries to be found by finite differences with -ts_simpvi_split_fd_limit %" PetscInt_FMT " (dense at set-up, then coloured)", fn == &sp->f ? "f" : "g", fn == &sp->f ? "p" : "q", fn->name, N, N);
  PetscCall(VecDuplicate(x0, &x));
  PetscCall(VecDuplicate(x0, &y0));
  PetscCall(VecDuplicate(x0, &y));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1, 1));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecNorm(x0, NORM_INFINITY, &xnorm));
  PetscCall(VecAYPX(x, 1e-2 * (xnorm > 0 ? xnorm : 1), x0));
  PetscCall(Eval(fn, ts->ptime, x, y0));
  PetscCall(PetscCalloc2(n, &dnnz, n, &onnz));
  for (PetscInt j = 0; j < N; j++) {
    const PetscScalar *a, *b;
    PetscScalar        xj = 0;
    PetscReal          delta;

    if (j >= rstart && j < rend) PetscCall(VecGetValues(x, 1, &j, &xj));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &xj, 1, MPIU_SCALAR, MPIU_SUM, comm));
    delta = PETSC_SQRT_MACHINE_EPSILON * PetscMax(PetscAbsScalar(xj), 1);
    if (j >= rstart && j < rend) PetscCall(VecSetValue(x, j, xj + delta, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(x));
    PetscCall(VecAssemblyEnd(x));
    PetscCall(Eval(fn, ts->ptime, x, y));
    if (j >= rstart && j < rend) PetscCall(VecSetValue(x, j, xj, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(x));
    PetscCall(VecAssemblyEnd(x));
    PetscCall(VecGetArrayRead(y0, &a));
    PetscCall(VecGetArrayRead(y, &b));
    for (PetscInt i = 0; i < n; i++) {
      if (a[i] == b[i] && i + rstart != j) continue;
      if (nmark == cap) {
        PetscInt *more;

        cap = 2 * cap + 64;
        PetscCall(PetscMalloc1(2 * cap, &more));
        if (marks) PetscCall(PetscArraycpy(more, marks, 2 * nmark));
        PetscCall(PetscFree(marks));
        marks = more;
      }
      marks[2 * nmark]     = i + rstart;
      marks[2 * nmark + 1] = j;
      nmark++;
      if (j >= rstart && j < rend) dnnz[i]++;
      else onnz[i]++;
    }
    PetscCall(VecRestoreArrayRead(y0, &a));
    PetscCall(VecRestoreArrayRead(y, &b));
  }
  PetscCall(MatCreateAIJ(comm, n, n, N, N, 0, dnnz, 0, onnz, &fn->J));
  for (PetscInt k = 0; k < nmark; k++) PetscCall(MatSetValue(fn->J, marks[2 * k], marks[2 * k + 1], 0.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(fn->J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(fn->J, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(marks));
  PetscCall(PetscFree2(dnnz, onnz));
  {
    PetscInt nnz = nmark;

    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &nnz, 1, MPIU_INT, MPI_SUM, comm));
    fn->diagonal = (PetscBool)(nnz == N);
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y0));
  PetscCall(VecDestroy(&y));

  PetscCall(MatColoringCreate(fn->J, &mc));
  PetscCall(MatColoringSetType(mc, MATCOLORINGGREEDY));
  PetscCall(MatColoringSetDistance(mc, 2));
  PetscCall(MatColoringApply(mc, &iscoloring));
  PetscCall(MatColoringDestroy(&mc));
  PetscCall(ISColoringGetIS(iscoloring, PETSC_USE_POINTER, &fn->ncolors, NULL));
  PetscCall(ISColoringRestoreIS(iscoloring, PETSC_USE_POINTER, NULL));
  PetscCall(MatFDColoringCreate(fn->J, iscoloring, &fn->fdc));
#if PETSC_VERSION_LT(3, 24, 0) /* MatFDColoringFn since 3.24 */
  PetscCall(MatFDColoringSetFunction(fn->fdc, (PetscErrorCode(*)(void))(void (*)(void))FDFunction, fn));
#else
  PetscCall(MatFDColoringSetFunction(fn->fdc, FDFunction, fn));
#endif
  PetscCall(MatFDColoringSetUp(fn->J, iscoloring, fn->fdc));
  PetscCall(ISColoringDestroy(&iscoloring));
  PetscFunctionReturn(0);
}

/* df/dp (at P) or dg/dq (at x) into fn->J, from the source chosen at set-up */
static PetscErrorCode Jacobian(TS ts, SimpVISplit *sp, SplitFn *fn, PetscReal t, Vec x, Vec P)
{
  Vec in = fn == &sp->f ? P : x;

  PetscFunctionBegin;
  fn->jacs++;
  switch (fn->src) {
  case SPLIT_JAC_SUBTS: {
    Mat A, B;

    PetscCall(TSGetRHSJacobian(fn->subts, &A, &B, NULL, NULL));
    PetscCall(TSSetTime(fn->subts, t));
    SimpVICallBack(ts, "TSRHSSplit sub-TS RHS Jacobian", TSComputeRHSJacobian(fn->subts, t, in, A, B));
    fn->J = B;
  } break;
  case SPLIT_JAC_PARENT: {
    Mat A, B;

    PetscCall(SimpVIPhaseSpaceJoin_Private(x, P, sp->isq, sp->isp, sp->U));
    B = sp->prob->user.I2P;
    A = sp->prob->user.I2A ? sp->prob->user.I2A : B;
    SimpVICallBack(ts, "TS RHS Jacobian", TSComputeRHSJacobian(ts, t, sp->U, A, B));
    if (fn == &sp->f) PetscCall(MatCreateSubMatrix(B, sp->isq, sp->isp, fn->J ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, &fn->J));
    else PetscCall(MatCreateSubMatrix(B, sp->isp, sp->isq, fn->J ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, &fn->J));
  } break;
  case SPLIT_JAC_FD:
    fn->t = t;
    PetscCall(MatFDColoringApply(fn->J, fn->fdc, in, NULL));
    break;
  }
  PetscFunctionReturn(0);
}

/* Pv = (df/dp)^{-1} at P: entry by entry for a diagonal df/dp, else dense (every process inverts the whole matrix) */
static PetscErrorCode ComputePv(TS ts, SimpVISplit *sp, PetscReal t, Vec x, Vec P)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)ts);
  PetscBool diag, invertible = PETSC_TRUE;
  PetscInt  N, n, rstart, rend;

  PetscFunctionBegin;
  PetscCall(Jacobian(ts, sp, &sp->f, t, x, P));
  PetscCall(MatGetSize(sp->f.J, &N, NULL));
  PetscCall(MatGetLocalSize(sp->f.J, &n, NULL));
  PetscCall(MatGetOwnershipRange(sp->f.J, &rstart, &rend));
  if (sp->f.src == SPLIT_JAC_FD) diag = sp->f.diagonal;
  else PetscCall(IsDiagonal(sp->f.J, &diag));
  if (diag) {
    PetscReal dmin;

    PetscCall(MatGetDiagonal(sp->f.J, sp->d));
    PetscCall(VecPointwiseMult(sp->dP, sp->d, sp->d));
    PetscCall(VecMin(sp->dP, NULL, &dmin));
    /* no inverse from the program's own Jacobian: most likely a wrong one (PETSc's hamiltonian/ex2 fills half its rows),
       which Inf would only carry into the step (a debug PETSc's NaN check, a failed solve). By finite differences, a T(p)
       not strictly convex at a Newton iterate: Inf fails that solve, and the step is retried or fails */
    PetscCheck(dmin > 0 || sp->f.src == SPLIT_JAC_FD, comm, PETSC_ERR_USER, "TSSIMPVI split door: df/dp of the TSRHSSplit \"position\" function (%s) has a zero or non-finite diagonal entry at t = %g: that Jacobian must fill every row of dq'/dp (TSSetRHSJacobian()), and the kinetic energy T(p) be strictly convex", sp->f.src == SPLIT_JAC_SUBTS ? "from its sub-TS's RHS Jacobian" : "from the TS's RHS Jacobian, restricted to the split", (double)t);
    if (!(dmin > 0)) {
      PetscCall(PetscInfo(ts, "df/dp of the TSRHSSplit \"position\" function has a zero (or not finite) diagonal entry at t = %g: T(p) must be strictly convex there\n", (double)t));
      PetscCall(VecSet(sp->d, PETSC_INFINITY));
      invertible = PETSC_FALSE;
    } else PetscCall(VecReciprocal(sp->d));
    if (!sp->Pv || sp->Pvdense) {
      PetscCall(MatDestroy(&sp->Pv));
      PetscCall(MatCreateAIJ(comm, n, n, N, N, 1, NULL, 0, NULL, &sp->Pv));
      for (PetscInt r = rstart; r < rend; r++) PetscCall(MatSetValue(sp->Pv, r, r, 1.0, INSERT_VALUES));
      PetscCall(MatAssemblyBegin(sp->Pv, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(sp->Pv, MAT_FINAL_ASSEMBLY));
      sp->Pvdense = PETSC_FALSE;
    }
    PetscCall(MatDiagonalSet(sp->Pv, sp->d, INSERT_VALUES));
  } else {
    IS            all;
    Mat          *sub, Fd, Id, Inv, lu;
    MatFactorInfo info;
    PetscScalar  *a;
    IS            perm, iperm;

    PetscCheck(N <= sp->fdlimit, comm, PETSC_ERR_SUP, "TSSIMPVI's split door needs (df/dp)^{-1}, the Hessian of the Lagrangian in v; df/dp of the TSRHSSplit \"position\" function is not diagonal, and its inverse is dense: allowed up to -ts_simpvi_split_fd_limit positions (%" PetscInt_FMT "), the problem has %" PetscInt_FMT, sp->fdlimit, N);
    PetscCall(ISCreateStride(PETSC_COMM_SELF, N, 0, 1, &all));
    PetscCall(MatCreateSubMatrices(sp->f.J, 1, &all, &all, MAT_INITIAL_MATRIX, &sub));
    PetscCall(ISDestroy(&all));
    PetscCall(MatConvert(sub[0], MATSEQDENSE, MAT_INITIAL_MATRIX, &Fd));
    PetscCall(MatDestroySubMatrices(1, &sub));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, N, N, NULL, &Id));
    PetscCall(MatZeroEntries(Id));
    PetscCall(MatShift(Id, 1));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, N, N, NULL, &Inv));
    PetscCall(MatGetFactor(Fd, MATSOLVERPETSC, MAT_FACTOR_LU, &lu));
    PetscCall(MatGetOrdering(Fd, MATORDERINGNATURAL, &perm, &iperm));
    PetscCall(MatFactorInfoInitialize(&info));
    PetscCall(MatLUFactorSymbolic(lu, Fd, perm, iperm, &info));
    PetscCall(MatLUFactorNumeric(lu, Fd, &info));
    PetscCall(MatMatSolve(lu, Id, Inv));
    PetscCall(ISDestroy(&perm));
    PetscCall(ISDestroy(&iperm));
    PetscCall(MatDestroy(&lu));
    PetscCall(MatDestroy(&Fd));
    PetscCall(MatDestroy(&Id));
    if (!sp->Pv || !sp->Pvdense) {
      PetscCall(MatDestroy(&sp->Pv));
      PetscCall(MatCreateDense(comm, n, n, N, N, NULL, &sp->Pv));
      sp->Pvdense = PETSC_TRUE;
    }
    PetscCall(MatDenseGetArray(Inv, &a)); /* column-major, leading dimension N */
    for (PetscInt r = rstart; r < rend; r++)
      for (PetscInt c = 0; c < N; c++) PetscCall(MatSetValue(sp->Pv, r, c, a[r + c * N], INSERT_VALUES));
    PetscCall(MatDenseRestoreArray(Inv, &a));
    PetscCall(MatDestroy(&Inv));
    PetscCall(MatAssemblyBegin(sp->Pv, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(sp->Pv, MAT_FINAL_ASSEMBLY));
  }
  sp->Pvvalid = invertible; /* else made again at the next inversion, from its warm start */
  sp->refreshes++;
  PetscFunctionReturn(0);
}

/* The cache slot of a velocity vector (by id; *fresh: its state is the one P was computed at) */
static PetscErrorCode CacheFind(SimpVISplit *sp, Vec v, PetscReal t, PetscInt *slot, PetscBool *fresh)
{
  PetscObjectId    id;
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)v, &id));
  PetscCall(PetscObjectStateGet((PetscObject)v, &state));
  *fresh = PETSC_FALSE;
  for (PetscInt k = 0; k < SPLIT_NCACHE; k++) {
    if (sp->cP[k] && sp->cid[k] == id) {
      *slot  = k;
      *fresh = (PetscBool)(sp->cstate[k] == state && sp->ct[k] == t);
      PetscFunctionReturn(0);
    }
  }
  *slot     = sp->cnext;
  sp->cnext = (sp->cnext + 1) % SPLIT_NCACHE;
  /* a new velocity vector starts from P = 0: another point's P may be a failed step's (a bounded f evaluates to 0 far
     out, where a flat f has a spurious root); the same vector's last P is the warm start of its next inversion */
  if (!sp->cP[*slot]) PetscCall(VecDuplicate(v, &sp->cP[*slot]));
  PetscCall(VecZeroEntries(sp->cP[*slot]));
  sp->cid[*slot] = id;
  PetscFunctionReturn(0);
}

/*
  P = f^{-1}(t, v): Newton's iteration on f(P) = v with the last (df/dp)^{-1} (a chord, refreshed at the iterate when it
  contracts slowly), each update halved until the residual decreases: f may be bounded (a relativistic q' = p/sqrt(1+p^2)),
  and a full Newton update from a warm start above the root would jump far. The momentum it converges to does not
  depend on the matrix, only the iterations do: f linear (quadratic T) takes one update and a check. A v outside f's
  range has no P: the iteration fails and gives Inf, which fails the step solve (the step is then retried with a smaller
  h where -ts_max_snes_failures allows) rather than the run.
*/
static PetscErrorCode Momentum(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec P)
{
  SimpVISplit *sp = prob->split;
  PetscInt     slot;
  PetscBool    fresh, converged = PETSC_FALSE, refreshed = PETSC_FALSE;
  PetscReal    dnorm, pnorm, rnorm, rtnorm = 0, vnorm;
  Vec          Pk;

  PetscFunctionBegin;
  PetscCall(CacheFind(sp, v, t, &slot, &fresh));
  Pk = sp->cP[slot];
  if (fresh) {
    if (P) PetscCall(VecCopy(Pk, P));
    PetscFunctionReturn(0);
  }
  PetscCall(VecNorm(Pk, NORM_INFINITY, &pnorm));
  if (PetscIsInfOrNanReal(pnorm)) PetscCall(VecZeroEntries(Pk)); /* after a failed inversion */
  if (!sp->Pvvalid) PetscCall(ComputePv(ts, sp, t, x, Pk));
  if (!sp->Pvvalid) { /* df/dp singular at the warm start (far out, where a bounded f is flat): from P = 0 */
    PetscCall(VecZeroEntries(Pk));
    PetscCall(ComputePv(ts, sp, t, x, Pk));
  }
  sp->inversions++;
  PetscCall(VecNorm(v, NORM_INFINITY, &vnorm));
  sp->vmax = PetscMax(sp->vmax, vnorm); /* the scale of the residual's round-off, also where v = 0 */
  PetscCall(Eval(&sp->f, t, Pk, sp->r));
  PetscCall(VecAXPY(sp->r, -1, v));
  PetscCall(VecNorm(sp->r, NORM_INFINITY, &rnorm));
  for (PetscInt it = 0; it < 50 && !PetscIsInfOrNanReal(rnorm); it++) {
    PetscBool decreased = PETSC_FALSE;
    PetscReal lambda    = 1;

    sp->invits++;
    PetscCall(MatMult(sp->Pv, sp->r, sp->dP));
    PetscCall(VecNorm(sp->dP, NORM_INFINITY, &dnorm));
    PetscCall(VecNorm(Pk, NORM_INFINITY, &pnorm));
    if (PetscIsInfOrNanReal(dnorm)) break;
    /* the residual is round-off of the velocities, or the update is below the last bit of P with a small residual (a
       huge P where a bounded f is flat also has a tiny update) */
    if (rnorm <= 16 * PETSC_MACHINE_EPSILON * sp->vmax || (dnorm <= 8 * PETSC_MACHINE_EPSILON * pnorm && rnorm <= PETSC_SQRT_MACHINE_EPSILON * sp->vmax)) {
      PetscCall(VecAXPY(Pk, -1, sp->dP));
      converged = PETSC_TRUE;
      break;
    }
    for (PetscInt ls = 0; ls < 40 && !decreased; ls++, lambda /= 2) {
      PetscCall(VecWAXPY(sp->w, -lambda, sp->dP, Pk));
      PetscCall(Eval(&sp->f, t, sp->w, sp->rt));
      PetscCall(VecAXPY(sp->rt, -1, v));
      PetscCall(VecNorm(sp->rt, NORM_INFINITY, &rtnorm));
      decreased = (PetscBool)(!PetscIsInfOrNanReal(rtnorm) && rtnorm < rnorm);
    }
    if (!decreased) {
      if (refreshed) break;
      PetscCall(ComputePv(ts, sp, t, x, Pk)); /* a stale chord: Newton from here */
      refreshed = PETSC_TRUE;
      continue;
    }
    PetscCall(VecCopy(sp->w, Pk));
    PetscCall(VecCopy(sp->rt, sp->r));
    refreshed = PETSC_FALSE;
    if (rtnorm > 0.25 * rnorm) { /* slow: Newton from here */
      PetscCall(ComputePv(ts, sp, t, x, Pk));
      refreshed = PETSC_TRUE;
    }
    rnorm = rtnorm;
  }
  if (!converged) {
    PetscCall(PetscInfo(ts, "The momentum P = f^{-1}(v) of the TSRHSSplit \"position\" function did not converge at t = %g (residual %g, |v| %g): the step fails\n", (double)t, (double)rnorm, (double)vnorm));
    /* P = Inf fails the solve that asked; the chord and every kept momentum (some may be a spurious root of a
       bounded f far out) are no start for the retried step: all start again from 0 */
    if (P) PetscCall(VecSet(P, PETSC_INFINITY));
    sp->Pvvalid = PETSC_FALSE;
    for (PetscInt k = 0; k < SPLIT_NCACHE; k++) {
      if (sp->cP[k]) PetscCall(VecZeroEntries(sp->cP[k]));
      sp->ct[k] = PETSC_MIN_REAL; /* never fresh */
    }
    PetscFunctionReturn(0);
  }
  PetscCall(PetscObjectStateGet((PetscObject)v, &sp->cstate[slot]));
  sp->ct[slot] = t;
  if (P) PetscCall(VecCopy(Pk, P));
  PetscFunctionReturn(0);
}

static PetscErrorCode Momentum_Split(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec P)
{
  PetscFunctionBegin;
  PetscCall(Momentum(ts, prob, t, x, v, P));
  PetscFunctionReturn(0);
}

static PetscErrorCode PG_Split(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec P, Vec G)
{
  PetscFunctionBegin;
  PetscCall(Momentum(ts, prob, t, x, v, P));
  PetscCall(Eval(&prob->split->g, t, x, G));

  PetscFunctionReturn(0);
}

static PetscErrorCode Terms_Split(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscInt need, PetscInt *n, SimpVITerm terms[])
{
  SimpVISplit *sp = prob->split;
  PetscInt     slot;
  PetscBool    fresh;

  PetscFunctionBegin;
  PetscCall(Momentum(ts, prob, t, x, v, NULL)); /* computed by pg() at this v already, as a rule */
  PetscCall(CacheFind(sp, v, t, &slot, &fresh));
  if (need & SIMPVI_NEED(SIMPVI_BLOCK_PV)) {
    PetscCall(ComputePv(ts, sp, t, x, sp->cP[slot]));
    PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){sp->Pv, 1, SIMPVI_BLOCK_PV, PETSC_FALSE, PETSC_FALSE}));
  }
  if (need & SIMPVI_NEED(SIMPVI_BLOCK_GX)) {
    PetscCall(Jacobian(ts, sp, &sp->g, t, x, sp->cP[slot]));
    PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){sp->g.J, 1, SIMPVI_BLOCK_GX, PETSC_FALSE, PETSC_FALSE}));
  }
  PetscFunctionReturn(0);
}

/* Where df/dp or dg/dq comes from: the sub-TS's RHS Jacobian, the TS's, or finite differences */
static PetscErrorCode ChooseSource(TS ts, SimpVISplit *sp, SplitFn *fn, Vec x0)
{
  TSRHSJacobian jac;
  DM            dm;

  PetscFunctionBegin;
  PetscCall(TSGetDM(ts, &dm));
  PetscCall(TSGetRHSJacobian(fn->subts, NULL, NULL, &jac, NULL));
  if (jac) {
    Mat A, B;

    PetscCall(TSGetRHSJacobian(fn->subts, &A, &B, NULL, NULL));
    PetscCheck(B, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "The TSRHSSplit \"%s\" sub-TS has an RHS Jacobian function but no matrix", fn->name);
    fn->src = SPLIT_JAC_SUBTS;
    PetscFunctionReturn(0);
  }
  PetscCall(DMTSGetRHSJacobian(dm, &jac, NULL));
  if (jac && sp->prob->user.I2P) { /* TSSetRHSJacobian() on the TS: its matrix is kept by the problem */
    fn->src = SPLIT_JAC_PARENT;
    PetscFunctionReturn(0);
  }
  fn->src = SPLIT_JAC_FD;
  PetscCall(FindPattern(ts, sp, fn, x0));
  PetscFunctionReturn(0);
}

static PetscErrorCode Reset_Split(SimpVIProblem *prob)
{
  SimpVISplit *sp = prob->split;

  PetscFunctionBegin;
  if (!sp) PetscFunctionReturn(0);
  if (sp->f.src != SPLIT_JAC_SUBTS) PetscCall(MatDestroy(&sp->f.J));
  if (sp->g.src != SPLIT_JAC_SUBTS) PetscCall(MatDestroy(&sp->g.J));
  PetscCall(MatFDColoringDestroy(&sp->f.fdc));
  PetscCall(MatFDColoringDestroy(&sp->g.fdc));
  PetscCall(ISDestroy(&sp->isq));
  PetscCall(ISDestroy(&sp->isp));
  PetscCall(VecDestroy(&sp->U));
  PetscCall(MatDestroy(&sp->Pv));
  PetscCall(VecDestroy(&sp->r));
  PetscCall(VecDestroy(&sp->dP));
  PetscCall(VecDestroy(&sp->d));
  PetscCall(VecDestroy(&sp->rt));
  PetscCall(VecDestroy(&sp->w));
  for (PetscInt k = 0; k < SPLIT_NCACHE; k++) PetscCall(VecDestroy(&sp->cP[k]));
  PetscCall(PetscFree(prob->split));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUp_Split(TS ts, SimpVIProblem *prob, Vec q)
{
  SimpVISplit  *sp;
  Vec           q0, p0;
  TSRHSFunction fq, fp;

  PetscFunctionBegin;
  PetscCall(PetscNew(&prob->split));
  sp          = prob->split;
  sp->prob    = prob;
  sp->fdlimit = 1000;
  PetscObjectOptionsBegin((PetscObject)ts);
  PetscCall(PetscOptionsInt("-ts_simpvi_split_fd_limit", "Largest TSRHSSplit whose Jacobians, not given, are found by dense finite differences at set-up (then coloured), and whose dense (df/dp)^{-1} is allowed", "TSSIMPVI", sp->fdlimit, &sp->fdlimit, NULL));
  PetscOptionsEnd();
  sp->f.name   = "position";
  sp->g.name   = "momentum";
  sp->f.cbname = "TSRHSSplit \"position\" function";
  sp->g.cbname = "TSRHSSplit \"momentum\" function";
  sp->f.ts     = ts;
  sp->g.ts     = ts;
  PetscCall(TSRHSSplitGetSubTS(ts, "position", &sp->f.subts));
  PetscCall(TSRHSSplitGetSubTS(ts, "momentum", &sp->g.subts));
  PetscCall(TSGetRHSFunction(sp->f.subts, NULL, &fq, NULL));
  PetscCall(TSGetRHSFunction(sp->g.subts, NULL, &fp, NULL));
  PetscCheck(fq && fp, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI's split door needs both TSRHSSplitSetRHSFunction(ts, \"position\", ...) (q' = f(t, p)) and TSRHSSplitSetRHSFunction(ts, \"momentum\", ...) (p' = g(t, q))");
  PetscCall(SimpVIProblemSplit_Private(ts, ts->vec_sol, &sp->isq, &sp->isp));
  PetscCall(VecDuplicate(ts->vec_sol, &sp->U));
  PetscCall(VecDuplicate(q, &sp->r));
  PetscCall(VecDuplicate(q, &sp->rt));
  PetscCall(VecDuplicate(q, &sp->w));
  PetscCall(VecDuplicate(q, &sp->dP));
  PetscCall(VecDuplicate(q, &sp->d));
  PetscCall(VecDuplicate(q, &q0));
  PetscCall(VecDuplicate(q, &p0));
  PetscCall(SimpVIPhaseSpaceSplit_Private(ts->vec_sol, sp->isq, sp->isp, q0, p0));
  PetscCall(ChooseSource(ts, sp, &sp->f, p0));
  PetscCall(ChooseSource(ts, sp, &sp->g, q0));
  PetscCall(VecDestroy(&q0));
  PetscCall(VecDestroy(&p0));
  PetscFunctionReturn(0);
}

/* The split door in TSView() */
static PetscErrorCode View_Split(SimpVIProblem *prob, PetscViewer viewer)
{
  SimpVISplit *sp = prob->split;
  SplitFn     *fns[2];

  PetscFunctionBegin;
  if (!sp) PetscFunctionReturn(0);
  fns[0] = &sp->f;
  fns[1] = &sp->g;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  Separable Hamiltonian from the RHS split (as TSBASICSYMPLECTIC reads it): q' = f(t, p) \"position\", p' = g(t, q) \"momentum\"; P = f^{-1}(v) by Newton\n"));
  for (PetscInt k = 0; k < 2; k++) {
    SplitFn *fn = fns[k];

    switch (fn->src) {
    case SPLIT_JAC_SUBTS:
      PetscCall(PetscViewerASCIIPrintf(viewer, "    %s from the \"%s\" sub-TS's RHS Jacobian\n", k ? "dg/dq" : "df/dp", fn->name));
      break;
    case SPLIT_JAC_PARENT:
      PetscCall(PetscViewerASCIIPrintf(viewer, "    %s from the TS's RHS Jacobian, restricted to the split\n", k ? "dg/dq" : "df/dp"));
      break;
    case SPLIT_JAC_FD:
      PetscCall(PetscViewerASCIIPrintf(viewer, "    %s by finite differences with %" PetscInt_FMT " colours (pattern found at set-up%s)\n", k ? "dg/dq" : "df/dp", fn->ncolors, fn->diagonal ? ": diagonal" : ""));
      break;
    }
  }
  if (sp->Pv) PetscCall(PetscViewerASCIIPrintf(viewer, "    L_vv = (df/dp)^{-1} %s; %" PetscInt_FMT " momentum inversions in %" PetscInt_FMT " iterations\n", sp->Pvdense ? "dense" : "diagonal", sp->inversions, sp->invits));
  PetscFunctionReturn(0);
}

/* The split door applies: a program that gave both splits their RHS functions (TSBASICSYMPLECTIC's input) */
PetscErrorCode SimpVISplitDetect_Private(TS ts, PetscBool *found)
{
  TS            q, p;
  TSRHSFunction fq = NULL, fp = NULL;

  PetscFunctionBegin;
  *found = PETSC_FALSE;
  PetscCall(TSRHSSplitGetSubTS(ts, "position", &q));
  PetscCall(TSRHSSplitGetSubTS(ts, "momentum", &p));
  if (!q || !p) PetscFunctionReturn(0);
  PetscCall(TSGetRHSFunction(q, NULL, &fq, NULL));
  PetscCall(TSGetRHSFunction(p, NULL, &fp, NULL));
  *found = (PetscBool)(fq && fp);
  PetscFunctionReturn(0);
}

const SimpVIDoor SimpVIDoorSplit = {
  .name         = "separable Hamiltonian (RHS split)",
  .maxterms     = 2, /* Pv, dg/dq */
  .setup        = SetUp_Split,
  .pg           = PG_Split,
  .terms        = Terms_Split,
  .reset        = Reset_Split,
  .momentum     = Momentum_Split,
  .view         = View_Split,
  .state        = SIMPVI_STATE_PHASESPACE,
  .userjacobian = PETSC_TRUE, /* an RHS Jacobian of the whole U, which TSSetRHSJacobian() put in the SNES */
};
