static char help[] = "TSSIMPVI in parallel: a chain of n masses with FPU springs (cubic and quartic terms) between fixed ends.\n"
                     "The mass matrix and the potential Hessian are tridiagonal MPIAIJ matrices; the state U = (q, p) is split\n"
                     "as [q_local | p_local] on each process (the library's default U = (q, p) on one process; named with\n"
                     "TSRHSSplitSetIS() on more) or, with -split interleaved, as (q_i, p_i) pairs named with TSRHSSplitSetIS(). The run on PETSC_COMM_WORLD is\n"
                     "compared with a serial run of the same problem on rank 0, gathered with VecScatterCreateToZero(), for a final\n"
                     "time that is not a multiple of the step: once with TS_EXACTFINALTIME_MATCHSTEP (the last step is shortened)\n"
                     "and then, on the same TS from the same start, with TS_EXACTFINALTIME_INTERPOLATE (TSInterpolate() from the\n"
                     "step polynomial); the two must give nearly the same state at the final time.\n"
                     "Options: -n <40> -dt <0.1> -final_time <2.05> -split default|interleaved -fresh_ts\n\n";

#include <simpvi.h>
#include "../examples/phasesplit.h"

typedef enum {
  SPLIT_DEFAULT,
  SPLIT_INTERLEAVED
} Split;
static const char *const Splits[] = {"default", "interleaved", "Split", "SPLIT_", NULL};

typedef struct {
  PetscInt   n, lo, nloc; /* masses; first owned and number owned */
  PetscReal  alpha, beta; /* phi(d) = d^2/2 + alpha d^3/3 + beta d^4/4 */
  Vec        xloc;        /* owned positions with one ghost each side (zero at the fixed ends) */
  VecScatter toloc;
} Chain;

static PetscReal Phi(Chain *c, PetscReal d)
{
  return d * d / 2 + c->alpha * d * d * d / 3 + c->beta * d * d * d * d / 4;
}
static PetscReal DPhi(Chain *c, PetscReal d)
{
  return d + c->alpha * d * d + c->beta * d * d * d;
}
static PetscReal D2Phi(Chain *c, PetscReal d)
{
  return 1 + 2 * c->alpha * d + 3 * c->beta * d * d;
}

/* xloc[k] = x_{lo-1+k}, k = 0..nloc+1, with x_{-1} = x_n = 0 */
static PetscErrorCode Ghosts(Chain *c, Vec x, const PetscScalar **xl)
{
  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(c->toloc, x, c->xloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(c->toloc, x, c->xloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(c->xloc, xl));
  PetscFunctionReturn(0);
}

/* V = sum over the n+1 springs of phi(x_{i+1} - x_i); each process sums the springs on the left of its masses, the
   last one also the spring to the right wall */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  Chain             *c = (Chain *)ctx;
  const PetscScalar *xl;
  PetscScalar       *gg;
  PetscReal          v = 0;

  PetscFunctionBeginUser;
  PetscCall(Ghosts(c, x, &xl));
  PetscCall(VecGetArrayWrite(g, &gg));
  for (PetscInt k = 1; k <= c->nloc; k++) {
    PetscReal left = PetscRealPart(xl[k] - xl[k - 1]), right = PetscRealPart(xl[k + 1] - xl[k]);

    gg[k - 1] = DPhi(c, left) - DPhi(c, right);
    v += Phi(c, left);
    if (c->lo + k == c->n) v += Phi(c, right);
  }
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(VecRestoreArrayRead(c->xloc, &xl));
  PetscCall(MPIU_Allreduce(&v, V, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Chain             *c = (Chain *)ctx;
  const PetscScalar *xl;

  PetscFunctionBeginUser;
  PetscCall(Ghosts(c, x, &xl));
  for (PetscInt k = 1; k <= c->nloc; k++) {
    PetscInt  i  = c->lo + k - 1;
    PetscReal kl = D2Phi(c, PetscRealPart(xl[k] - xl[k - 1])), kr = D2Phi(c, PetscRealPart(xl[k + 1] - xl[k]));

    PetscCall(MatSetValue(H, i, i, kl + kr, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(H, i, i - 1, -kl, INSERT_VALUES));
    if (i < c->n - 1) PetscCall(MatSetValue(H, i, i + 1, -kr, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(c->xloc, &xl));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* A tridiagonal AIJ matrix with the positions' layout */
static PetscErrorCode CreateTridiagonal(MPI_Comm comm, Chain *c, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(comm, c->nloc, c->nloc, c->n, c->n, 3, NULL, 1, NULL, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/* The problem on comm: TS, state U, the ISs of q and p in U */
static PetscErrorCode Setup(MPI_Comm comm, Chain *c, Split split, TSExactFinalTimeOption exact, PetscReal dt, PetscReal T, TS *ts, Vec *U, IS *isq, IS *isp, Mat A[2])
{
  Vec          x;
  IS           from, to;
  PetscInt    *idx, *pos, nidx = 0;
  PetscScalar *u;

  PetscFunctionBeginUser;
  c->nloc = PETSC_DECIDE;
  PetscCall(PetscSplitOwnership(comm, &c->nloc, &c->n));
  PetscCallMPI(MPI_Scan(&c->nloc, &c->lo, 1, MPIU_INT, MPI_SUM, comm));
  c->lo -= c->nloc;

  /* ghost scatter from the positions' layout */
  PetscCall(VecCreateMPI(comm, c->nloc, c->n, &x));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, c->nloc + 2, &c->xloc));
  PetscCall(VecSet(c->xloc, 0));
  PetscCall(PetscMalloc2(c->nloc + 2, &idx, c->nloc + 2, &pos));
  for (PetscInt k = 0; k < c->nloc + 2; k++) { /* the walls are not scattered: they stay 0 */
    PetscInt i = c->lo - 1 + k;

    if (i < 0 || i >= c->n) continue;
    idx[nidx]   = i;
    pos[nidx++] = k;
  }
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nidx, idx, PETSC_COPY_VALUES, &from));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nidx, pos, PETSC_COPY_VALUES, &to));
  PetscCall(PetscFree2(idx, pos));
  PetscCall(VecScatterCreate(x, from, c->xloc, to, &c->toloc));
  PetscCall(ISDestroy(&from));
  PetscCall(ISDestroy(&to));
  PetscCall(VecDestroy(&x));

  /* mass: 1 + (i mod 3)/4 on the diagonal, 0.2 beside it (diagonally dominant, so SPD) */
  PetscCall(CreateTridiagonal(comm, c, &A[0]));
  PetscCall(CreateTridiagonal(comm, c, &A[1]));
  for (PetscInt i = c->lo; i < c->lo + c->nloc; i++) {
    PetscCall(MatSetValue(A[0], i, i, 1 + (i % 3) / 4.0, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(A[0], i, i - 1, 0.2, INSERT_VALUES));
    if (i < c->n - 1) PetscCall(MatSetValue(A[0], i, i + 1, 0.2, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A[0], MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A[0], MAT_FINAL_ASSEMBLY));

  PetscCall(TSCreate(comm, ts));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  PetscCall(TSSimpVISetMass(*ts, A[0], NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(*ts, A[1], Potential, PotentialHessian, c));

  /* U = (q, p): q_i = a mix of the two lowest modes, p = 0 */
  PetscCall(VecCreateMPI(comm, 2 * c->nloc, 2 * c->n, U));
  if (split == SPLIT_DEFAULT) {
    PetscMPIInt size;

    PetscCall(ISCreateStride(comm, c->nloc, 2 * c->lo, 1, isq));
    PetscCall(ISCreateStride(comm, c->nloc, 2 * c->lo + c->nloc, 1, isp));
    PetscCallMPI(MPI_Comm_size(comm, &size));
    if (size > 1) PetscCall(PhaseSplitLocalHalves(*ts, *U)); /* the default halves of U are not each process's */
  } else {
    PetscCall(ISCreateStride(comm, c->nloc, 2 * c->lo, 2, isq));
    PetscCall(ISCreateStride(comm, c->nloc, 2 * c->lo + 1, 2, isp));
    PetscCall(TSRHSSplitSetIS(*ts, "position", *isq));
    PetscCall(TSRHSSplitSetIS(*ts, "momentum", *isp));
  }
  PetscCall(VecGetArrayWrite(*U, &u));
  for (PetscInt k = 0; k < c->nloc; k++) {
    PetscReal s = PETSC_PI * (c->lo + k + 1) / (c->n + 1);

    u[split == SPLIT_DEFAULT ? k : 2 * k]               = 0.6 * PetscSinReal(s) + 0.3 * PetscSinReal(2 * s);
    u[split == SPLIT_DEFAULT ? c->nloc + k : 2 * k + 1] = 0;
  }
  PetscCall(VecRestoreArrayWrite(*U, &u));
  PetscCall(TSSetSolution(*ts, *U));
  PetscCall(TSSetTimeStep(*ts, dt));
  PetscCall(TSSetMaxTime(*ts, T));
  PetscCall(TSSetMaxSteps(*ts, 100000));
  PetscCall(TSSetExactFinalTime(*ts, exact));
  PetscCall(TSSetFromOptions(*ts));
  PetscFunctionReturn(0);
}

static PetscErrorCode Teardown(Chain *c, TS *ts, Vec *U, IS *isq, IS *isp, Mat A[2])
{
  PetscFunctionBeginUser;
  PetscCall(TSDestroy(ts));
  PetscCall(VecDestroy(U));
  PetscCall(ISDestroy(isq));
  PetscCall(ISDestroy(isp));
  PetscCall(MatDestroy(&A[0]));
  PetscCall(MatDestroy(&A[1]));
  PetscCall(VecDestroy(&c->xloc));
  PetscCall(VecScatterDestroy(&c->toloc));
  PetscFunctionReturn(0);
}

/* The sub-vector of U on is, gathered in natural order on rank 0 */
static PetscErrorCode Gather(Vec U, IS is, Vec *seq)
{
  Vec        sub;
  VecScatter scatter;

  PetscFunctionBeginUser;
  PetscCall(VecGetSubVector(U, is, &sub));
  PetscCall(VecScatterCreateToZero(sub, &scatter, seq));
  PetscCall(VecScatterBegin(scatter, sub, *seq, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(scatter, sub, *seq, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterDestroy(&scatter));
  PetscCall(VecRestoreSubVector(U, is, &sub));
  PetscFunctionReturn(0);
}

/* Solves with MATCHSTEP and then, on the same TS (or a new one with -fresh_ts) from the same initial state, with
   INTERPOLATE; returns for each the final time, the steps taken and the state (q, p) gathered on rank 0 */
static PetscErrorCode SolveBoth(MPI_Comm comm, Chain *c, Split split, PetscBool fresh, PetscReal dt, PetscReal T, PetscReal tfinal[2], PetscInt steps[2], Vec qp[2][2])
{
  TS  ts;
  Vec U, U0;
  IS  isq, isp;
  Mat A[2];

  PetscFunctionBeginUser;
  PetscCall(Setup(comm, c, split, TS_EXACTFINALTIME_MATCHSTEP, dt, T, &ts, &U, &isq, &isp, A));
  PetscCall(VecDuplicate(U, &U0));
  PetscCall(VecCopy(U, U0));
  for (PetscInt m = 0; m < 2; m++) {
    if (m && fresh) { /* a new TS for the second solve */
      PetscCall(VecDestroy(&U0));
      PetscCall(Teardown(c, &ts, &U, &isq, &isp, A));
      PetscCall(Setup(comm, c, split, TS_EXACTFINALTIME_INTERPOLATE, dt, T, &ts, &U, &isq, &isp, A));
    } else if (m) { /* start again, ending with TSInterpolate() */
      PetscCall(VecCopy(U0, U));
      PetscCall(TSSetTime(ts, 0));
      PetscCall(TSSetStepNumber(ts, 0));
      PetscCall(TSSetTimeStep(ts, dt));
      PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_INTERPOLATE));
    }
    PetscCall(TSSolve(ts, U));
    PetscCall(TSGetSolveTime(ts, &tfinal[m]));
    PetscCall(TSGetStepNumber(ts, &steps[m]));
    PetscCall(Gather(U, isq, &qp[m][0]));
    PetscCall(Gather(U, isp, &qp[m][1]));
  }
  PetscCall(VecDestroy(&U0));
  PetscCall(Teardown(c, &ts, &U, &isq, &isp, A));
  PetscFunctionReturn(0);
}

/* max |a - b| / max |b| over q and p, for the gathered states on rank 0 */
static PetscErrorCode Difference(Vec a[2], Vec b[2], PetscReal *diff)
{
  PetscReal dmax = 0, smax = 0;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < 2; i++) {
    Vec       d;
    PetscReal nd, ns;

    PetscCall(VecDuplicate(a[i], &d));
    PetscCall(VecWAXPY(d, -1, b[i], a[i]));
    PetscCall(VecNorm(d, NORM_INFINITY, &nd));
    PetscCall(VecNorm(b[i], NORM_INFINITY, &ns));
    PetscCall(VecDestroy(&d));
    dmax = PetscMax(dmax, nd);
    smax = PetscMax(smax, ns);
  }
  *diff = smax > 0 ? dmax / smax : dmax;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Chain       c     = {40, 0, 0, 0.25, 1.0, NULL, NULL};
  Split       split = SPLIT_DEFAULT;
  PetscBool   fresh = PETSC_FALSE;
  PetscReal   dt = 0.1, T = 2.05, diff[2] = {0, 0}, tfinal[2], dqp = 0;
  PetscInt    steps[2], degree;
  PetscMPIInt rank;
  Vec         par[2][2], ser[2][2] = {
                           {NULL, NULL},
                           {NULL, NULL}
  };
  TS          ts;
  const char *type;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Parallel chain options", NULL);
  PetscCall(PetscOptionsInt("-n", "Number of masses", NULL, c.n, &c.n, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-final_time", "Final time, not a multiple of dt", NULL, T, &T, NULL));
  PetscCall(PetscOptionsEnum("-split", "Layout of (q, p) in U", NULL, Splits, (PetscEnum)split, (PetscEnum *)&split, NULL));
  PetscCall(PetscOptionsBool("-fresh_ts", "A new TS for the second solve", NULL, fresh, &fresh, NULL));
  PetscOptionsEnd();

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(TSSimpVIGetDegree(ts, &degree));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FPU chain of %" PetscInt_FMT " masses, %s split, scheme %s degree %" PetscInt_FMT "\n", c.n, Splits[split], type, degree));
  PetscCall(TSDestroy(&ts));

  PetscCall(SolveBoth(PETSC_COMM_WORLD, &c, split, fresh, dt, T, tfinal, steps, par));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank == 0) { /* the same problem, serial, with the default split */
    PetscReal tser[2];
    PetscInt  nser[2];

    PetscCall(SolveBoth(PETSC_COMM_SELF, &c, SPLIT_DEFAULT, fresh, dt, T, tser, nser, ser));
    for (PetscInt m = 0; m < 2; m++) PetscCall(Difference(par[m], ser[m], &diff[m]));
    PetscCall(Difference(par[1], par[0], &dqp));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matchstep: %" PetscInt_FMT " steps to t = %g, parallel vs serial %.2e\n", steps[0], (double)tfinal[0], (double)diff[0]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matchstep: final time reached exactly: %s\n", PetscAbsReal(tfinal[0] - T) < 1e-12 * T ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matchstep: parallel agrees with serial to 1e-12: %s\n", diff[0] < 1e-12 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "interpolate: %" PetscInt_FMT " steps, solution at t = %g, parallel vs serial %.2e\n", steps[1], (double)tfinal[1], (double)diff[1]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "interpolate: solution given at the final time: %s\n", PetscAbsReal(tfinal[1] - T) < 1e-12 * T ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "interpolate: parallel agrees with serial to 1e-12: %s\n", diff[1] < 1e-12 ? "yes" : "no"));
  /* both approximate the state at T: they differ by the interpolation error, far less than the state itself */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "interpolated vs matched state at T: %.2e\n", (double)dqp));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "interpolated state agrees with the matched one to 1e-4: %s\n", dqp < 1e-4 ? "yes" : "no"));
  for (PetscInt m = 0; m < 2; m++) {
    for (PetscInt i = 0; i < 2; i++) {
      PetscCall(VecDestroy(&par[m][i]));
      PetscCall(VecDestroy(&ser[m][i]));
    }
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # every test prints the same verdicts: only the decimals differ between process counts
  test:
    suffix: 1
    nsize: 1
  test:
    suffix: 2
    nsize: 2
  test:
    suffix: 3
    nsize: 3
  test:
    suffix: interleaved_2
    nsize: 2
    args: -split interleaved
  test:
    suffix: lobatto_2
    nsize: 2
    args: -split interleaved -ts_simpvi_type lobatto -ts_simpvi_degree 3 -n 41
  test:
    suffix: midpoint_2
    nsize: 2
    args: -ts_simpvi_type midpoint
  test:
    suffix: trapezoid_2
    nsize: 2
    args: -ts_simpvi_type trapezoid
  # a second TS on PETSC_COMM_WORLD after a first one has run: this hung in the first MatMult of the new TS
  # (PetscCommBuildTwoSided under PetscSFSetUp) when MUMPS was the default parallel direct solver
  test:
    suffix: fresh_midpoint_2
    nsize: 2
    args: -ts_simpvi_type midpoint -fresh_ts

TEST*/
