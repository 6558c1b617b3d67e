static char help[] = "The chain of tests/chainvec.c (N point masses joined by rigid links of length 1, hung from a fixed pivot,\n"
                     "under gravity, in 3-D, on a parallel Vec) run two ways over the same time T: TSSIMPVI with the\n"
                     "constraints on Vecs and Mats (TSSimpVISetEqualityConstraintsRoutine(), -scheme <simpson>, step -h) and\n"
                     "PETSc's DAE route, the stabilised index-2 equations of Gear, Gupta and Leimkuhler as an implicit TS\n"
                     "(TSSetIFunction()/TSSetIJacobian(), options prefix dae_, by default -dae_ts_type bdf -dae_ts_bdf_order 4,\n"
                     "fixed steps -dae_h): q' = v - G' mu, M v' = -grad V - G' lambda, 0 = g(q), 0 = G(q) v, unknowns\n"
                     "(q, v, lambda, mu) on each process. Prints for each: the wall time, the error of (q, p) at T against\n"
                     "a lobatto reference at -h_ref <h/8>, |g(q)| and |G(q) v| at T. Options: -links <16> -T <1> -h <0.01>\n"
                     "-dae_h <0.001> -verdicts (yes/no lines for a smoke test). The DAE route's linear solver is PETSc's LU in the\n"
                     "natural order (a saddle point): on more than one process give a parallel one, e.g.\n"
                     "-dae_pc_factor_mat_solver_type mumps.\n\n";

#include <petsctime.h>
#include "../examples/models/linkchain.h" /* the chain: Chain, Mass(), Initial(), Potential(), Equality() and its derivatives */

typedef struct {
  PetscReal  time, gmax, hidden;
  PetscReal *U; /* (q, p) of every mass on rank 0 */
} Result;

/* x (a position-shaped Vec) to rank 0's array */
static PetscErrorCode ToZero(Vec x, PetscReal a[])
{
  VecScatter         toz;
  Vec                z;
  const PetscScalar *zz;
  PetscMPIInt        rank;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)x), &rank));
  PetscCall(VecScatterCreateToZero(x, &toz, &z));
  PetscCall(VecScatterBegin(toz, x, z, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(toz, x, z, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetLocalSize(z, &n));
  PetscCall(VecGetArrayRead(z, &zz));
  for (PetscInt j = 0; j < n; j++) a[j] = zz[j];
  PetscCall(VecRestoreArrayRead(z, &zz));
  PetscCall(VecScatterDestroy(&toz));
  PetscCall(VecDestroy(&z));
  PetscFunctionReturn(0);
}

/* The measures at the end from (q, v): |g(q)|, |G(q) v|, and (q, M v) on rank 0 */
static PetscErrorCode Measure(Chain *ch, Mat M, Mat G, Vec q, Vec v, Result *res)
{
  Vec w, p;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(G, NULL, &w));
  PetscCall(Equality(NULL, q, w, ch));
  PetscCall(VecNorm(w, NORM_INFINITY, &res->gmax));
  PetscCall(JacobianEquality(NULL, q, G, ch));
  PetscCall(MatMult(G, v, w));
  PetscCall(VecNorm(w, NORM_INFINITY, &res->hidden));
  PetscCall(VecDuplicate(v, &p));
  PetscCall(MatMult(M, v, p));
  PetscCall(ToZero(q, res->U));
  PetscCall(ToZero(p, res->U + 3 * ch->N));
  PetscCall(VecDestroy(&p));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(0);
}

/* TSSIMPVI with the constraints on Vecs */
static PetscErrorCode RunSimpVI(MPI_Comm comm, PetscInt N, const char scheme[], PetscReal h, PetscReal T, Result *res)
{
  Chain          ch = {0};
  TS             ts;
  Vec            u, g, qa, pa, v;
  Mat            M, K, G, H;
  IS             iq, ip;
  PetscReal     *x0, *v0;
  PetscLogDouble t0, t1;
  PetscInt       n, lo;

  PetscFunctionBeginUser;
  PetscCall(ChainCreate(comm, N, 3, &ch));
  PetscCall(ChainMatrices(comm, &ch, &M, &K, &G, &H));
  n  = 3 * ch.nloc;
  lo = ch.first;
  PetscCall(MatCreateVecs(G, NULL, &g));
  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, scheme));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, K, Potential, PotentialHessian, &ch));
  PetscCall(TSSimpVISetEqualityConstraintsRoutine(ts, g, Equality, &ch));
  PetscCall(TSSimpVISetJacobianEqualityRoutine(ts, G, JacobianEquality, &ch));
  PetscCall(TSSimpVISetHessianEqualityRoutine(ts, H, HessianEquality, &ch));
  PetscCall(VecCreateMPI(comm, 2 * n, 6 * N, &u));
  PetscCall(ISCreateStride(comm, n, 6 * lo, 1, &iq));
  PetscCall(ISCreateStride(comm, n, 6 * lo + n, 1, &ip));
  PetscCall(TSRHSSplitSetIS(ts, "position", iq));
  PetscCall(TSRHSSplitSetIS(ts, "momentum", ip));
  PetscCall(TSSetSolution(ts, u));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, (PetscInt)PetscCeilReal(T / h - 0.5)));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(PetscMalloc2(3 * N, &x0, 3 * N, &v0));
  Initial(&ch, x0, v0);
  PetscCall(VecGetSubVector(u, iq, &qa));
  PetscCall(VecGetSubVector(u, ip, &pa));
  for (PetscInt j = 3 * lo; j < 3 * lo + n; j++) {
    PetscCall(VecSetValue(qa, j, x0[j], INSERT_VALUES));
    PetscCall(VecSetValue(pa, j, Mass(j / 3) * v0[j], INSERT_VALUES));
  }
  PetscCall(PetscFree2(x0, v0));
  PetscCall(VecAssemblyBegin(qa));
  PetscCall(VecAssemblyEnd(qa));
  PetscCall(VecAssemblyBegin(pa));
  PetscCall(VecAssemblyEnd(pa));
  PetscCall(VecRestoreSubVector(u, iq, &qa));
  PetscCall(VecRestoreSubVector(u, ip, &pa));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(TSSolve(ts, u));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t1));
  res->time = t1 - t0;
  PetscCall(VecGetSubVector(u, iq, &qa));
  PetscCall(VecGetSubVector(u, ip, &pa));
  PetscCall(VecDuplicate(pa, &v));
  PetscCall(MatGetDiagonal(M, v));
  PetscCall(VecPointwiseDivide(v, pa, v));
  PetscCall(Measure(&ch, M, G, qa, v, res));
  PetscCall(VecDestroy(&v));
  PetscCall(VecRestoreSubVector(u, iq, &qa));
  PetscCall(VecRestoreSubVector(u, ip, &pa));
  PetscCall(ISDestroy(&iq));
  PetscCall(ISDestroy(&ip));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&g));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&G));
  PetscCall(MatDestroy(&H));
  PetscCall(ChainDestroy(&ch));
  PetscFunctionReturn(0);
}

/* The DAE route: X = (q, v, lambda, mu) on each process */
typedef struct {
  Chain          *ch;
  Mat             M, G, W, Hl, Hm; /* M, G(q), d(G(q) v)/dq, sum lambda_r d2 g_r, sum mu_r d2 g_r */
  Vec             gradV;
  IS              is[4];
  PetscInt        n, nm; /* local positions and multipliers */
  const PetscInt *xr;    /* X's ownership ranges */
} DAE;

static PetscErrorCode Parts(DAE *dae, Vec X, Vec part[4], PetscBool get)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 4; k++) {
    if (get) PetscCall(VecGetSubVector(X, dae->is[k], &part[k]));
    else PetscCall(VecRestoreSubVector(X, dae->is[k], &part[k]));
  }
  PetscFunctionReturn(0);
}

/* F = (q' - v + G' mu, M v' + grad V + G' lambda, g(q), G(q) v) */
static PetscErrorCode IFunction(TS ts, PetscReal t, Vec X, Vec Xd, Vec F, void *ctx)
{
  DAE      *dae = (DAE *)ctx;
  Vec       x[4], xd[4], f[4];
  PetscReal V;

  PetscFunctionBeginUser;
  PetscCall(Parts(dae, X, x, PETSC_TRUE));
  PetscCall(Parts(dae, Xd, xd, PETSC_TRUE));
  PetscCall(Parts(dae, F, f, PETSC_TRUE));
  PetscCall(JacobianEquality(NULL, x[0], dae->G, dae->ch));
  PetscCall(MatMultTranspose(dae->G, x[3], f[0]));
  PetscCall(VecAXPY(f[0], 1, xd[0]));
  PetscCall(VecAXPY(f[0], -1, x[1]));
  PetscCall(Potential(NULL, t, x[0], &V, dae->gradV, dae->ch));
  PetscCall(MatMultTranspose(dae->G, x[2], f[1]));
  PetscCall(MatMultAdd(dae->M, xd[1], f[1], f[1]));
  PetscCall(VecAXPY(f[1], 1, dae->gradV));
  PetscCall(Equality(NULL, x[0], f[2], dae->ch));
  PetscCall(MatMult(dae->G, x[1], f[3]));
  PetscCall(Parts(dae, X, x, PETSC_FALSE));
  PetscCall(Parts(dae, Xd, xd, PETSC_FALSE));
  PetscCall(Parts(dae, F, f, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* A's rows into J at block rows rb, columns cb (0..3: q, v, lambda, mu; rows of A laid out as block rb, columns as cb),
   scaled; transpose: A' instead */
static PetscErrorCode AddBlock(DAE *dae, Mat J, Mat A, PetscInt rb, PetscInt cb, PetscReal scale, PetscBool transpose)
{
  PetscInt    rstart, rend;
  PetscLayout cmap;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)J), &rank));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(MatGetLayouts(A, NULL, &cmap));
  for (PetscInt r = rstart; r < rend; r++) {
    PetscInt           ncols, row;
    const PetscInt    *cols;
    const PetscScalar *vals;
    const PetscInt     rblock = transpose ? cb : rb, cblock = transpose ? rb : cb;

    PetscCall(MatGetRow(A, r, &ncols, &cols, &vals));
    /* row r of A: local to this process in the layout of block (transpose ? cb : rb) */
    row = dae->xr[rank] + (rblock < 2 ? rblock * dae->n : 2 * dae->n + (rblock - 2) * dae->nm) + (r - rstart);
    for (PetscInt k = 0; k < ncols; k++) {
      PetscMPIInt       o;
      PetscInt          col, no;
      const PetscInt   *ranges;
      const PetscScalar v = scale * vals[k];

      /* column cols[k] of A, a position (cblock 0 or 1) or a multiplier (2 or 3) on its owner o */
      PetscCall(PetscLayoutFindOwner(cmap, cols[k], &o));
      PetscCall(PetscLayoutGetRanges(cmap, &ranges));
      no  = cblock < 2 ? ranges[o + 1] - ranges[o] : 3 * (ranges[o + 1] - ranges[o]);
      col = dae->xr[o] + (cblock < 2 ? cblock * no : 2 * no + (cblock - 2) * no / 3) + (cols[k] - ranges[o]);
      if (transpose) PetscCall(MatSetValues(J, 1, &col, 1, &row, &v, ADD_VALUES));
      else PetscCall(MatSetValues(J, 1, &row, 1, &col, &v, ADD_VALUES));
    }
    PetscCall(MatRestoreRow(A, r, &ncols, &cols, &vals));
  }
  PetscFunctionReturn(0);
}

/* dF/dX + a dF/dX': rows q: a I + H(mu), -I, 0, G'; rows v: H(lambda), a M, G', 0; rows lambda: G; rows mu: W(v), G */
static PetscErrorCode IJacobian(TS ts, PetscReal t, Vec X, Vec Xd, PetscReal a, Mat J, Mat P, void *ctx)
{
  DAE *dae = (DAE *)ctx;
  Vec  x[4];
  Mat  Id;

  PetscFunctionBeginUser;
  PetscCall(Parts(dae, X, x, PETSC_TRUE));
  PetscCall(JacobianEquality(NULL, x[0], dae->G, dae->ch));
  PetscCall(JacobianEquality(NULL, x[1], dae->W, dae->ch));
  PetscCall(HessianEquality(NULL, x[0], x[3], dae->Hm, dae->ch));
  PetscCall(HessianEquality(NULL, x[0], x[2], dae->Hl, dae->ch));
  PetscCall(Parts(dae, X, x, PETSC_FALSE));
  PetscCall(MatZeroEntries(P));
  PetscCall(MatDuplicate(dae->M, MAT_DO_NOT_COPY_VALUES, &Id));
  PetscCall(MatShift(Id, 1));
  PetscCall(AddBlock(dae, P, Id, 0, 0, a, PETSC_FALSE));
  PetscCall(AddBlock(dae, P, dae->Hm, 0, 0, 1, PETSC_FALSE));
  PetscCall(AddBlock(dae, P, Id, 0, 1, -1, PETSC_FALSE));
  PetscCall(AddBlock(dae, P, dae->G, 0, 3, 1, PETSC_TRUE));
  PetscCall(AddBlock(dae, P, dae->Hl, 1, 0, 1, PETSC_FALSE));
  PetscCall(AddBlock(dae, P, dae->M, 1, 1, a, PETSC_FALSE));
  PetscCall(AddBlock(dae, P, dae->G, 1, 2, 1, PETSC_TRUE));
  PetscCall(AddBlock(dae, P, dae->G, 2, 0, 1, PETSC_FALSE));
  PetscCall(AddBlock(dae, P, dae->W, 3, 0, 1, PETSC_FALSE));
  PetscCall(AddBlock(dae, P, dae->G, 3, 1, 1, PETSC_FALSE));
  PetscCall(MatDestroy(&Id));
  { /* the multipliers' diagonal, explicitly (zero) */
    PetscMPIInt rank;

    PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)P), &rank));
    for (PetscInt r = dae->xr[rank] + 2 * dae->n; r < dae->xr[rank + 1]; r++) PetscCall(MatSetValue(P, r, r, 0, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode RunDAE(MPI_Comm comm, PetscInt N, PetscReal h, PetscReal T, Result *res)
{
  Chain          ch  = {0};
  DAE            dae = {0};
  TS             ts;
  Vec            X, x[4];
  Mat            J, K;
  PetscReal     *x0, *v0;
  PetscLogDouble t0, t1;
  PetscInt       lo, xstart;
  KSP            ksp;
  PC             pc;

  PetscFunctionBeginUser;
  PetscCall(ChainCreate(comm, N, 3, &ch));
  dae.ch = &ch;
  PetscCall(ChainMatrices(comm, &ch, &dae.M, &K, &dae.G, &dae.Hl));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDuplicate(dae.G, MAT_DO_NOT_COPY_VALUES, &dae.W));
  PetscCall(MatDuplicate(dae.Hl, MAT_DO_NOT_COPY_VALUES, &dae.Hm));
  PetscCall(MatCreateVecs(dae.M, &dae.gradV, NULL));
  dae.n  = 3 * ch.nloc;
  dae.nm = ch.nloc;
  lo     = ch.first;
  PetscCall(VecCreateMPI(comm, 2 * dae.n + 2 * dae.nm, 8 * N, &X));
  PetscCall(VecGetOwnershipRanges(X, &dae.xr));
  PetscCall(VecGetOwnershipRange(X, &xstart, NULL));
  PetscCall(ISCreateStride(comm, dae.n, xstart, 1, &dae.is[0]));
  PetscCall(ISCreateStride(comm, dae.n, xstart + dae.n, 1, &dae.is[1]));
  PetscCall(ISCreateStride(comm, dae.nm, xstart + 2 * dae.n, 1, &dae.is[2]));
  PetscCall(ISCreateStride(comm, dae.nm, xstart + 2 * dae.n + dae.nm, 1, &dae.is[3]));
  PetscCall(MatCreateAIJ(comm, 2 * dae.n + 2 * dae.nm, 2 * dae.n + 2 * dae.nm, 8 * N, 8 * N, 12, NULL, 6, NULL, &J));
  PetscCall(MatSetOption(J, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  /* the start: (q0, v0), lambda = mu = 0 (BDF never differentiates them) */
  PetscCall(PetscMalloc2(3 * N, &x0, 3 * N, &v0));
  Initial(&ch, x0, v0);
  PetscCall(Parts(&dae, X, x, PETSC_TRUE));
  for (PetscInt j = 3 * lo; j < 3 * lo + dae.n; j++) {
    PetscCall(VecSetValue(x[0], j, x0[j], INSERT_VALUES));
    PetscCall(VecSetValue(x[1], j, v0[j], INSERT_VALUES));
  }
  for (PetscInt k = 0; k < 4; k++) {
    PetscCall(VecAssemblyBegin(x[k]));
    PetscCall(VecAssemblyEnd(x[k]));
  }
  PetscCall(VecSet(x[2], 0));
  PetscCall(VecSet(x[3], 0));
  PetscCall(Parts(&dae, X, x, PETSC_FALSE));
  PetscCall(PetscFree2(x0, v0));

  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetOptionsPrefix(ts, "dae_"));
  PetscCall(TSSetType(ts, TSBDF));
  PetscCall(TSBDFSetOrder(ts, 4));
  PetscCall(TSSetIFunction(ts, NULL, IFunction, &dae));
  PetscCall(TSSetIJacobian(ts, J, J, IJacobian, &dae));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, (PetscInt)PetscCeilReal(T / h - 0.5)));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  {
    TSAdapt adapt;
    SNES    snes;

    PetscCall(TSGetAdapt(ts, &adapt));
    PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
    PetscCall(TSGetSNES(ts, &snes));
    PetscCall(SNESSetTolerances(snes, 1e-10, 1e-12, 1e-14, 50, PETSC_DEFAULT)); /* F stagnates at about 1e-12 */
    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(PCSetType(pc, PCLU));
    PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL)); /* a saddle point: positions first */
  }
  PetscCall(TSSetFromOptions(ts));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(TSSolve(ts, X));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t1));
  res->time = t1 - t0;
  PetscCall(Parts(&dae, X, x, PETSC_TRUE));
  PetscCall(Measure(&ch, dae.M, dae.G, x[0], x[1], res));
  PetscCall(Parts(&dae, X, x, PETSC_FALSE));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&X));
  PetscCall(MatDestroy(&J));
  for (PetscInt k = 0; k < 4; k++) PetscCall(ISDestroy(&dae.is[k]));
  PetscCall(MatDestroy(&dae.M));
  PetscCall(MatDestroy(&dae.G));
  PetscCall(MatDestroy(&dae.W));
  PetscCall(MatDestroy(&dae.Hl));
  PetscCall(MatDestroy(&dae.Hm));
  PetscCall(VecDestroy(&dae.gradV));
  PetscCall(ChainDestroy(&ch));
  PetscFunctionReturn(0);
}

static PetscReal Error(PetscInt n, const PetscReal a[], const PetscReal b[])
{
  PetscReal e = 0;

  for (PetscInt j = 0; j < n; j++) e = PetscMax(e, PetscAbsReal(a[j] - b[j]));
  return e;
}

int main(int argc, char **argv)
{
  PetscInt    N = 16;
  PetscReal   T = 1, h = 0.01, hdae = 0.001, href = 0;
  char        scheme[64] = "simpson";
  PetscBool   verdicts   = PETSC_FALSE;
  Result      ref, vi, dae;
  PetscMPIInt size;
  PetscReal   evi, edae;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Chain: simpvi against the DAE route", NULL);
  PetscCall(PetscOptionsInt("-links", "Masses and links", NULL, N, &N, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-h", "simpvi's step", NULL, h, &h, NULL));
  PetscCall(PetscOptionsReal("-dae_h", "The DAE route's step", NULL, hdae, &hdae, NULL));
  PetscCall(PetscOptionsReal("-h_ref", "The reference's step (lobatto)", NULL, href, &href, NULL));
  PetscCall(PetscOptionsString("-scheme", "simpvi's scheme", NULL, scheme, scheme, sizeof(scheme), NULL));
  PetscCall(PetscOptionsBool("-verdicts", "yes/no lines", NULL, verdicts, &verdicts, NULL));
  PetscOptionsEnd();
  if (href <= 0) href = h / 8;
  PetscCall(PetscMalloc3(6 * N, &ref.U, 6 * N, &vi.U, 6 * N, &dae.U));
  PetscCall(RunSimpVI(PETSC_COMM_WORLD, N, "lobatto", href, T, &ref));
  PetscCall(RunSimpVI(PETSC_COMM_WORLD, N, scheme, h, T, &vi));
  PetscCall(RunDAE(PETSC_COMM_WORLD, N, hdae, T, &dae));
  evi  = Error(6 * N, vi.U, ref.U);
  edae = Error(6 * N, dae.U, ref.U);
  PetscCallMPI(MPI_Bcast(&evi, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(&edae, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "chain of %" PetscInt_FMT " links in 3-D, T = %g, %d process(es); error of (q, p) at T against lobatto at h = %g\n", N, (double)T, size, (double)href));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "| run | h | error at T | |g(q)| at T | |G(q) v| at T | wall time (s) |\n|---|---|---|---|---|---|\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "| simpvi %s | %g | %.2e | %.1e | %.1e | %.3g |\n", scheme, (double)h, (double)evi, (double)vi.gmax, (double)vi.hidden, (double)vi.time));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "| DAE route, GGL | %g | %.2e | %.1e | %.1e | %.3g |\n", (double)hdae, (double)edae, (double)dae.gmax, (double)dae.hidden, (double)dae.time));
  if (verdicts) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verdict: simpvi's constraints at round-off (|g| <= 1e-12, |G v| <= 1e-11): %s\n", vi.gmax <= 1e-12 && vi.hidden <= 1e-11 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verdict: both runs within 1e-3 of the reference: %s\n", evi <= 1e-3 && edae <= 1e-3 ? "yes" : "no"));
  }
  PetscCall(PetscFree3(ref.U, vi.U, dae.U));
  PetscCall(PetscFinalize());
  return 0;
}
