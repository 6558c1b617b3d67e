static char help[] = "SUNDIALS KINSOL (SNESKINSOL) against SNES newtonls on the TSSIMPVI step system (-ts_simpvi_nonlinear_solver kinsol).\n"
                     "For each mesh the run with SNES is the reference; each KINSOL strategy must give the same trajectory,\n"
                     "max_j |U_kinsol(t_j) - U_snes(t_j)| <= tol max_j |U_snes(t_j)|, and the nonlinear/linear iteration counts\n"
                     "of all solvers are printed side by side. Problems, through the Lagrangian door:\n"
                     "  pendulum: L = v^2/2 - omega^2 (1 - cos x), one period (Table 1 of FVCA 2023: theta0 = pi/2, omega = 2 pi);\n"
                     "  chain:    n coupled pendulums per process, L = sum v_i^2/2 - omega^2 (1 - cos x_i) - kappa/2 (x_{i+1} - x_i)^2,\n"
                     "            distributed: on each process the first half of the local entries of U are positions (TSRHSSplitSetIS()).\n"
                     "With -fail the program makes one run with the solver chosen in the options database and lets a failed\n"
                     "step raise its error; with -resize one TS solves the chain, is reset and solves a larger one.\n"
                     "Options: -problem pendulum|chain -strategies newton,linesearch,fp -maa <3> -meshes 50,100,200 -tol <1e-12>\n"
                     "         -omega <2 pi> -theta0 <pi/2> -kappa <4> -n <4> -final_time <one period> -fail -resize -dt <h> -steps <n>\n"
                     "         -error_after <calls> -verbose -use_snes_type (KINSOL by -snes_type kinsol, not the deprecated options)\n\n";

#include <simpvi.h>
#include "../examples/phasesplit.h"

typedef enum {
  PROBLEM_PENDULUM,
  PROBLEM_CHAIN
} Problem;
static const char *const Problems[] = {"pendulum", "chain", "Problem", "PROBLEM_", NULL};

typedef struct {
  Problem    problem;
  PetscReal  omega, theta0, kappa;
  PetscInt   ncalls, errorafter; /* the Lagrangian raises an error once called more than errorafter times (testing) */
  PetscInt   n, N, lo;           /* chain: positions per process, in all, first owned */
  Vec        xloc;               /* chain: owned positions with one ghost each side */
  VecScatter toloc;
  PetscBool  hasleft, hasright;
} AppCtx;

/* xl[k] = x_{lo-1+k}, k = 0..n+1; the slots beyond the ends of the chain are not filled */
static PetscErrorCode Ghosts(AppCtx *user, Vec x, const PetscScalar **xl)
{
  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(user->toloc, x, user->xloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(user->toloc, x, user->xloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(user->xloc, xl));
  PetscFunctionReturn(0);
}

static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscReal    w2 = user->omega * user->omega, kappa = user->kappa;
  const PetscScalar *xx, *vv, *xl;
  PetscScalar       *gx, *gv;
  PetscReal          l = 0;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCheck(++user->ncalls <= user->errorafter, PETSC_COMM_SELF, PETSC_ERR_USER, "Lagrangian: deliberate error at call %" PetscInt_FMT " (-error_after)", user->ncalls);
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(Lx, &gx));
  PetscCall(VecGetArrayWrite(Lv, &gv));
  for (PetscInt i = 0; i < n; i++) {
    l += 0.5 * vv[i] * vv[i] - w2 * (1 - PetscCosReal(xx[i]));
    gx[i] = -w2 * PetscSinReal(xx[i]);
    gv[i] = vv[i];
  }
  if (user->problem == PROBLEM_CHAIN) { /* springs: each process owns the one on the left of each of its masses */
    PetscCall(Ghosts(user, x, &xl));
    for (PetscInt k = 1; k <= n; k++) {
      if (k > 1 || user->hasleft) {
        PetscReal d = PetscRealPart(xl[k] - xl[k - 1]);

        l -= 0.5 * kappa * d * d;
        gx[k - 1] -= kappa * d;
      }
      if (k < n || user->hasright) gx[k - 1] += kappa * PetscRealPart(xl[k + 1] - xl[k]);
    }
    PetscCall(VecRestoreArrayRead(user->xloc, &xl));
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(Lx, &gx));
  PetscCall(VecRestoreArrayWrite(Lv, &gv));
  PetscCall(MPIU_Allreduce(&l, L, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(0);
}

static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscReal    w2 = user->omega * user->omega, kappa = user->kappa;
  const PetscScalar *xx;
  PetscInt           lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArrayRead(x, &xx));
  for (PetscInt i = lo; i < hi; i++) {
    PetscScalar diag = -w2 * PetscCosReal(xx[i - lo]);

    if (user->problem == PROBLEM_CHAIN) {
      if (i > 0) {
        diag -= kappa;
        PetscCall(MatSetValue(Lxx, i, i - 1, kappa, INSERT_VALUES));
      }
      if (i < user->N - 1) {
        diag -= kappa;
        PetscCall(MatSetValue(Lxx, i, i + 1, kappa, INSERT_VALUES));
      }
    }
    PetscCall(MatSetValue(Lxx, i, i, diag, INSERT_VALUES));
    PetscCall(MatSetValue(Lvv, i, i, 1.0, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Lvv, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lvv, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* The chain's layout (n positions per process) and the ghost scatter x -> (x_{lo-1}, x_lo..x_{hi-1}, x_hi) */
static PetscErrorCode SetUpChain(AppCtx *user)
{
  Vec      x;
  IS       from, to;
  PetscInt idx[2], pos[2], nghost = 0, *gidx, *lidx;

  PetscFunctionBeginUser;
  PetscCall(VecDestroy(&user->xloc));
  PetscCall(VecScatterDestroy(&user->toloc));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, user->n, PETSC_DETERMINE, &x));
  PetscCall(VecGetSize(x, &user->N));
  PetscCall(VecGetOwnershipRange(x, &user->lo, NULL));
  user->hasleft  = (PetscBool)(user->lo > 0);
  user->hasright = (PetscBool)(user->lo + user->n < user->N);
  if (user->hasleft) {
    idx[nghost]   = user->lo - 1;
    pos[nghost++] = 0;
  }
  if (user->hasright) {
    idx[nghost]   = user->lo + user->n;
    pos[nghost++] = user->n + 1;
  }
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, user->n + 2, &user->xloc));
  PetscCall(VecSet(user->xloc, 0));
  PetscCall(PetscMalloc2(user->n + 2, &gidx, user->n + 2, &lidx));
  for (PetscInt k = 0; k < user->n; k++) {
    gidx[k] = user->lo + k;
    lidx[k] = k + 1;
  }
  for (PetscInt g = 0; g < nghost; g++) {
    gidx[user->n + g] = idx[g];
    lidx[user->n + g] = pos[g];
  }
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, user->n + nghost, gidx, PETSC_COPY_VALUES, &from));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, user->n + nghost, lidx, PETSC_COPY_VALUES, &to));
  PetscCall(PetscFree2(gidx, lidx));
  PetscCall(VecScatterCreate(x, from, user->xloc, to, &user->toloc));
  PetscCall(ISDestroy(&from));
  PetscCall(ISDestroy(&to));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(0);
}

/* The state U = (q, p) on each process, the Hessian blocks, and the initial state: the pendulum at rest at theta0,
   the chain in a smooth wave */
static PetscErrorCode CreateProblem(AppCtx *user, Vec *U, Mat *Lxx, Mat *Lvv)
{
  PetscScalar *u;
  PetscInt     n = user->problem == PROBLEM_CHAIN ? user->n : 1;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, n, n, PETSC_DETERMINE, PETSC_DETERMINE, 3, NULL, 2, NULL, Lxx));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, n, n, PETSC_DETERMINE, PETSC_DETERMINE, 1, NULL, 0, NULL, Lvv));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 2 * n, PETSC_DETERMINE, U));
  PetscCall(VecGetArrayWrite(*U, &u));
  for (PetscInt k = 0; k < n; k++) {
    PetscReal s = (user->lo + k + 0.5) / user->N;

    u[k]     = user->problem == PROBLEM_CHAIN ? user->theta0 * PetscSinReal(PETSC_PI * s) : user->theta0;
    u[n + k] = user->problem == PROBLEM_CHAIN ? 2 * PetscCosReal(2 * PETSC_PI * s) : 0;
  }
  PetscCall(VecRestoreArrayWrite(*U, &u));
  PetscFunctionReturn(0);
}

/* The trajectory of a run: stored (reference) or compared with the stored one */
typedef struct {
  Vec      *U;
  PetscInt  nsteps;
  PetscBool store;
  PetscReal maxdiff, maxnorm;
} Trajectory;

static PetscErrorCode MonitorTrajectory(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Trajectory *tr = (Trajectory *)ctx;
  PetscReal   nrm;

  PetscFunctionBeginUser;
  if (step > tr->nsteps) PetscFunctionReturn(0);
  if (tr->store) {
    PetscCall(VecCopy(U, tr->U[step]));
    PetscCall(VecNorm(U, NORM_INFINITY, &nrm));
    tr->maxnorm = PetscMax(tr->maxnorm, nrm);
  } else {
    PetscCall(VecAXPY(tr->U[step], -1, U)); /* the reference is not needed afterwards */
    PetscCall(VecNorm(tr->U[step], NORM_INFINITY, &nrm));
    tr->maxdiff = PetscMax(tr->maxdiff, nrm);
    PetscCall(VecAXPY(tr->U[step], 1, U));
  }
  PetscFunctionReturn(0);
}

/* The solver is chosen with the deprecated -ts_simpvi_nonlinear_solver kinsol and -ts_simpvi_kinsol_*, or with
   -snes_type kinsol and -snes_kinsol_* (-use_snes_type) */
static PetscBool UseSNESType = PETSC_FALSE;

/* Selects the step solver for the next Run() through the options database: SNES for NULL or "snes", else KINSOL */
static PetscErrorCode UseSolver(const char strategy[], PetscInt maa)
{
  const char *const prefix = UseSNESType ? "-snes_kinsol_" : "-ts_simpvi_kinsol_";
  char              buf[32], name[64];
  PetscBool         isfp, ispicard, issnes = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "%sstrategy", prefix));
  PetscCall(PetscOptionsClearValue(NULL, name));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%smaa", prefix));
  PetscCall(PetscOptionsClearValue(NULL, name));
  if (strategy) PetscCall(PetscStrcmp(strategy, "snes", &issnes));
  if (issnes) {
    if (UseSNESType) PetscCall(PetscOptionsClearValue(NULL, "-snes_type"));
    else PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_nonlinear_solver", "snes"));
    PetscFunctionReturn(0);
  }
  if (UseSNESType) PetscCall(PetscOptionsSetValue(NULL, "-snes_type", "kinsol"));
  else PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_nonlinear_solver", "kinsol"));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%sstrategy", prefix));
  PetscCall(PetscOptionsSetValue(NULL, name, strategy));
  PetscCall(PetscStrcmp(strategy, "fp", &isfp));
  PetscCall(PetscStrcmp(strategy, "picard", &ispicard));
  if (isfp || ispicard) {
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, maa));
    PetscCall(PetscSNPrintf(name, sizeof(name), "%smaa", prefix));
    PetscCall(PetscOptionsSetValue(NULL, name, buf));
  }
  PetscFunctionReturn(0);
}

/* A TSSIMPVI for the chain through the Lagrangian door, nsteps steps of h, before TSSetFromOptions() */
static PetscErrorCode CreateTS(AppCtx *user, PetscReal h, PetscInt nsteps, TS *ts, Vec *U, Mat *Lxx, Mat *Lvv)
{
  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_WORLD, ts));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  PetscCall(CreateProblem(user, U, Lxx, Lvv));
  PetscCall(TSSimpVISetLagrangian(*ts, Lagrangian, user));
  PetscCall(TSSimpVISetLagrangianHessian(*ts, *Lxx, NULL, *Lvv, LagrangianHessian, user));
  PetscCall(PhaseSplitLocalHalves(*ts, *U));
  PetscCall(TSSetSolution(*ts, *U));
  PetscCall(TSSetTimeStep(*ts, h));
  PetscCall(TSSetMaxSteps(*ts, nsteps));
  PetscCall(TSSetMaxTime(*ts, nsteps * h));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscFunctionReturn(0);
}

/* One run over nsteps steps of h, with the final state copied to Ufinal if given.
   The TS is returned, not destroyed: in parallel, PETSc 3.18 compares a DMSNES's "original DM" pointer with the step's
   new DMShell, and a pointer left by a destroyed TS can match a new DM's address on one process only, which then skips
   a DMSNES copy the other process makes and the two stop agreeing on message tags (a hang). Keeping every TS until
   the end means no DM address is reused. */
static PetscErrorCode Run(AppCtx *user, PetscReal h, PetscInt nsteps, Trajectory *tr, PetscInt *its, PetscInt *lits, Vec Ufinal, TS *kept)
{
  TS  ts;
  Vec U;
  Mat Lxx, Lvv;

  PetscFunctionBeginUser;
  PetscCall(CreateTS(user, h, nsteps, &ts, &U, &Lxx, &Lvv));
  if (tr) PetscCall(TSMonitorSet(ts, MonitorTrajectory, tr, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSNESIterations(ts, its));
  PetscCall(TSGetKSPIterations(ts, lits));
  if (Ufinal) PetscCall(VecCopy(U, Ufinal));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&Lxx));
  PetscCall(MatDestroy(&Lvv));
  *kept = ts;
  PetscFunctionReturn(0);
}

/* One TS solves the chain, is reset, and solves a chain with two more pendulums per process: the step system changes
   size, so the solver's data must be rebuilt. The final state is compared with a fresh run of the larger chain. */
static PetscErrorCode Resize(AppCtx *user, PetscReal h, PetscInt nsteps, PetscReal tol, TS *kept, PetscInt *nkept)
{
  TS        ts;
  Vec       U, Uref;
  Mat       Lxx, Lvv;
  PetscInt  its, lits, N0;
  PetscReal diff, nrm;

  PetscFunctionBeginUser;
  PetscCall(CreateTS(user, h, nsteps, &ts, &U, &Lxx, &Lvv));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSNESIterations(ts, &its));
  N0 = user->N;
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&Lxx));
  PetscCall(MatDestroy(&Lvv));

  PetscCall(TSReset(ts));
  user->n += 2;
  PetscCall(SetUpChain(user));
  PetscCall(CreateProblem(user, &U, &Lxx, &Lvv));
  PetscCall(TSSimpVISetLagrangianHessian(ts, Lxx, NULL, Lvv, LagrangianHessian, user));
  PetscCall(PhaseSplitLocalHalves(ts, U));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTime(ts, 0));
  PetscCall(TSSetStepNumber(ts, 0));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSolve(ts, U));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "chain of %" PetscInt_FMT ", then after TSReset() of %" PetscInt_FMT " pendulums, %" PetscInt_FMT " steps each, on one TS\n", N0, user->N, nsteps));

  PetscCall(VecDuplicate(U, &Uref));
  PetscCall(UseSolver(NULL, 0));
  PetscCall(Run(user, h, nsteps, NULL, &its, &lits, Uref, &kept[(*nkept)++]));
  PetscCall(VecNorm(Uref, NORM_INFINITY, &nrm));
  PetscCall(VecAXPY(Uref, -1, U));
  PetscCall(VecNorm(Uref, NORM_INFINITY, &diff));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after the resize the final state agrees with a fresh SNES run to %g relative: %s\n", (double)tol, diff <= tol * nrm ? "yes" : "no"));
  PetscCall(VecDestroy(&Uref));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&Lxx));
  PetscCall(MatDestroy(&Lvv));
  kept[(*nkept)++] = ts;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  AppCtx      user = {PROBLEM_PENDULUM, 2 * PETSC_PI, PETSC_PI / 2, 4, 0, PETSC_MAX_INT, 4, 1, 0, NULL, NULL, PETSC_FALSE, PETSC_FALSE};
  char       *strategies[8], label[64];
  PetscInt    nstrategies = 8, meshes[8] = {50, 100, 200}, nmeshes = 8, maa = 3, steps = 4, its, lits;
  PetscReal   tol = 1e-12, T = 1.180340599016096, dt = 0.5, worst[8] = {0};
  TS          kept[80];
  PetscInt    nkept = 0;
  PetscBool   flg, fail = PETSC_FALSE, verbose = PETSC_FALSE, resize = PETSC_FALSE, agree[8];
  PetscMPIInt rank, size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "KINSOL against SNES options", NULL);
  PetscCall(PetscOptionsEnum("-problem", "Problem", NULL, Problems, (PetscEnum)user.problem, (PetscEnum *)&user.problem, NULL));
  PetscCall(PetscOptionsReal("-omega", "Angular frequency of the small oscillations", NULL, user.omega, &user.omega, NULL));
  PetscCall(PetscOptionsReal("-theta0", "Initial angle (amplitude of the chain's wave)", NULL, user.theta0, &user.theta0, NULL));
  PetscCall(PetscOptionsReal("-kappa", "Spring constant between neighbours of the chain", NULL, user.kappa, &user.kappa, NULL));
  PetscCall(PetscOptionsInt("-n", "Pendulums of the chain per process", NULL, user.n, &user.n, NULL));
  PetscCall(PetscOptionsReal("-final_time", "Length of the runs (default: the pendulum's period for theta0 = pi/2, omega = 2 pi)", NULL, T, &T, NULL));
  PetscCall(PetscOptionsStringArray("-strategies", "KINSOL strategies compared with SNES", NULL, strategies, &nstrategies, &flg));
  if (!flg) {
    nstrategies = 3;
    PetscCall(PetscStrallocpy("newton", &strategies[0]));
    PetscCall(PetscStrallocpy("linesearch", &strategies[1]));
    PetscCall(PetscStrallocpy("fp", &strategies[2]));
  }
  PetscCall(PetscOptionsInt("-maa", "Anderson depth of the fp and picard runs", NULL, maa, &maa, NULL));
  PetscCall(PetscOptionsIntArray("-meshes", "Steps over the final time", NULL, meshes, &nmeshes, &flg));
  if (!flg) nmeshes = 3;
  PetscCall(PetscOptionsReal("-tol", "Largest relative difference of the trajectories accepted", NULL, tol, &tol, NULL));
  PetscCall(PetscOptionsBool("-fail", "One run with the options database's solver, step -dt, -steps steps", NULL, fail, &fail, NULL));
  PetscCall(PetscOptionsReal("-dt", "Step of the -fail run", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsInt("-steps", "Steps of the -fail run", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsInt("-error_after", "The Lagrangian raises a PETSc error once called more than this many times", NULL, user.errorafter, &user.errorafter, NULL));
  PetscCall(PetscOptionsBool("-resize", "Chain only: one TS solves, is reset and solves a larger chain (-dt, -steps)", NULL, resize, &resize, NULL));
  PetscCall(PetscOptionsBool("-verbose", "Also print the largest relative differences", NULL, verbose, &verbose, NULL));
  PetscCall(PetscOptionsBool("-use_snes_type", "Choose KINSOL with -snes_type kinsol -snes_kinsol_* (else the deprecated -ts_simpvi_nonlinear_solver kinsol)", NULL, UseSNESType, &UseSNESType, NULL));
  PetscOptionsEnd();
  PetscCheck(nmeshes * (nstrategies + 1) <= 80, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "At most 80 runs");
  PetscCheck(user.problem == PROBLEM_CHAIN || size == 1, PETSC_COMM_WORLD, PETSC_ERR_WRONG_MPI_SIZE, "The pendulum runs on one process; use -problem chain in parallel");

  if (user.problem == PROBLEM_CHAIN) PetscCall(SetUpChain(&user));

  if (resize) {
    PetscCheck(user.problem == PROBLEM_CHAIN, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-resize needs -problem chain");
    PetscCall(Resize(&user, dt, steps, tol, kept, &nkept));
  } else if (fail) {
    PetscCall(Run(&user, dt, steps, NULL, &its, &lits, NULL, &kept[nkept++]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " steps of h = %g done in %" PetscInt_FMT " nonlinear iterations\n", steps, (double)dt, its));
  } else {
    if (user.problem == PROBLEM_PENDULUM) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Nonlinear pendulum, theta0 %g, omega %g, %g s\n", (double)user.theta0, (double)user.omega, (double)T));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Chain of %" PetscInt_FMT " coupled pendulums on %d processes, kappa %g, %g s\n", user.N, size, (double)user.kappa, (double)T));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "nonlinear/linear iterations over the run\n%8s %14s", "steps", "SNES"));
    for (PetscInt s = 0; s < nstrategies; s++) {
      PetscBool isfp, ispicard;

      PetscCall(PetscStrcmp(strategies[s], "fp", &isfp));
      PetscCall(PetscStrcmp(strategies[s], "picard", &ispicard));
      if (isfp || ispicard) PetscCall(PetscSNPrintf(label, sizeof(label), "%s(m=%" PetscInt_FMT ")", strategies[s], maa));
      else PetscCall(PetscSNPrintf(label, sizeof(label), "%s", strategies[s]));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %16s", label));
      agree[s] = PETSC_TRUE;
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
    for (PetscInt m = 0; m < nmeshes; m++) {
      Trajectory tr;
      Vec        U;

      PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 2 * (user.problem == PROBLEM_CHAIN ? user.n : 1), PETSC_DETERMINE, &U));
      PetscCall(VecDuplicateVecs(U, meshes[m] + 1, &tr.U));
      PetscCall(VecDestroy(&U));
      tr.nsteps  = meshes[m];
      tr.store   = PETSC_TRUE;
      tr.maxnorm = 0;
      PetscCall(UseSolver(NULL, maa));
      PetscCall(Run(&user, T / meshes[m], meshes[m], &tr, &its, &lits, NULL, &kept[nkept++]));
      PetscCall(PetscSNPrintf(label, sizeof(label), "%" PetscInt_FMT "/%" PetscInt_FMT, its, lits));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%8" PetscInt_FMT " %14s", meshes[m], label));
      tr.store = PETSC_FALSE;
      for (PetscInt s = 0; s < nstrategies; s++) {
        tr.maxdiff = 0;
        PetscCall(UseSolver(strategies[s], maa));
        PetscCall(Run(&user, T / meshes[m], meshes[m], &tr, &its, &lits, NULL, &kept[nkept++]));
        PetscCall(PetscSNPrintf(label, sizeof(label), "%" PetscInt_FMT "/%" PetscInt_FMT, its, lits));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %16s", label));
        worst[s] = PetscMax(worst[s], tr.maxdiff / tr.maxnorm);
        if (!(tr.maxdiff <= tol * tr.maxnorm)) agree[s] = PETSC_FALSE;
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
      PetscCall(VecDestroyVecs(meshes[m] + 1, &tr.U));
    }
    PetscCall(UseSolver(NULL, maa));
    PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_nonlinear_solver"));
    for (PetscInt s = 0; s < nstrategies; s++) {
      if (verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KINSOL %s: largest relative difference from SNES %.3e\n", strategies[s], (double)worst[s]));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "KINSOL %s gives the SNES trajectory to %g relative: %s\n", strategies[s], (double)tol, agree[s] ? "yes" : "no"));
    }
  }
  for (PetscInt k = 0; k < nkept; k++) PetscCall(TSDestroy(&kept[k]));
  for (PetscInt s = 0; s < nstrategies; s++) PetscCall(PetscFree(strategies[s]));
  PetscCall(VecDestroy(&user.xloc));
  PetscCall(VecScatterDestroy(&user.toloc));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: kinsol

  # Table 1 of FVCA 2023: one period (1.180341 s) of the pendulum in 50, 100, 200 steps; SNES against KINSOL newton,
  # linesearch and the preconditioned fixed point with Anderson depth 3
  test:
    suffix: pendulum
    requires: kinsol
    args: -problem pendulum

  test:
    suffix: pendulum_lobatto
    requires: kinsol
    args: -problem pendulum -ts_simpvi_type lobatto -ts_simpvi_degree 4 -meshes 50,100 -strategies newton,linesearch,picard,fp

  # the same runs with -snes_type kinsol -snes_kinsol_* on the TS's SNES: the same iterations as the deprecated options
  test:
    suffix: pendulum_snes_type
    requires: kinsol
    args: -problem pendulum -use_snes_type
    output_file: output/ex10_kinsol_pendulum.out
  test:
    suffix: pendulum_lobatto_snes_type
    requires: kinsol
    args: -problem pendulum -ts_simpvi_type lobatto -ts_simpvi_degree 4 -meshes 50,100 -strategies newton,linesearch,picard,fp -use_snes_type
    output_file: output/ex10_kinsol_pendulum_lobatto.out
  test:
    suffix: chain_snes_type
    requires: kinsol
    nsize: 2
    args: -problem chain -pc_type redundant -use_snes_type
    output_file: output/ex10_kinsol_chain.out

  # too large a step (h omega = pi, theta0 = 3): KINSOL fails, the TS stops with an error naming the step and the flag
  testset:
    requires: kinsol
    args: -fail -theta0 3 -dt 0.5 -steps 10 -ts_simpvi_nonlinear_solver kinsol -petsc_ci_portable_error_output -error_output_stdout
    filter: grep "PETSC ERROR: TSSIMPVI"
    test:
      suffix: fail_newton
      args: -ts_simpvi_type midpoint -ts_simpvi_kinsol_strategy newton
    test:
      suffix: fail_linesearch
      args: -ts_simpvi_type midpoint -ts_simpvi_kinsol_strategy linesearch
    test:
      suffix: fail_fp
      args: -ts_simpvi_kinsol_strategy fp -ts_simpvi_kinsol_maa 3

  # a PETSc error inside a KINSOL callback comes back as that error, raised again after KINSol() returns (by
  # KINSOLCallbackError(), src/snes/kinsol.c)
  test:
    suffix: callback_error
    requires: kinsol
    args: -fail -dt 0.02 -steps 4 -error_after 3 -ts_simpvi_nonlinear_solver kinsol -petsc_ci_portable_error_output -error_output_stdout
    filter: grep -E "deliberate|KINSOLCallbackError" | sed -e "s/[^ ]* KINSOLCallbackError/KINSOLCallbackError/"

  # -ts_view shows the step's SNES of type kinsol: the strategy, the tolerances, the Anderson depth and the KSP (with the
  # prefix of the deprecated -ts_simpvi_nonlinear_solver kinsol)
  test:
    suffix: view
    requires: kinsol
    args: -meshes 10 -strategies linesearch,fp -ts_view
    filter: grep -E "SUNDIALS KINSOL|Anderson acceleration|stops when|fnormtol|last solve|KINSOL counters|KSP Object: \(ts_simpvi_kinsol_\)"

  # -ts_monitor, -ts_view and -log_view under KINSOL: the view shows the SNES of type kinsol and the iteration totals,
  # -log_view the SNESSolve of each step; SNES newtonls for contrast (the SNES itself: -ts_simpvi_small_limit 0)
  testset:
    requires: kinsol
    args: -fail -dt 0.1 -steps 3 -ts_monitor -ts_view -log_view
    filter: grep -E "TS dt|steps of|SNES Object|type: kinsol|total number of nonlinear solver iterations|^(TSStep|SNESSolve|KSPSolve) " | sed -E "s/^([A-Za-z]+) +([0-9]+) .*$/-log_view: \1 called \2 times/"
    test:
      suffix: view_log_kinsol
      args: -ts_simpvi_nonlinear_solver kinsol
    test:
      suffix: view_log_snes
      args: -ts_simpvi_small_limit 0

  # a distributed chain of 8 coupled pendulums on 2 processes; PCREDUNDANT rather than the default MUMPS, which hangs
  # after a few hundred parallel factorizations with Debian's PETSc 3.18 / MUMPS 5.5 / Open MPI 4.1
  testset:
    requires: kinsol
    nsize: 2
    args: -problem chain -pc_type redundant -ts_simpvi_kinsol_pc_type redundant
    test:
      suffix: chain
    test:
      suffix: chain_gmres
      args: -meshes 50,100 -ts_simpvi_kinsol_ksp_type gmres -ts_simpvi_kinsol_pc_type bjacobi -ts_simpvi_kinsol_ksp_rtol 1e-14
    test:
      suffix: chain_resize
      args: -resize -dt 0.02 -steps 20 -ts_simpvi_nonlinear_solver kinsol -ts_simpvi_kinsol_strategy fp -ts_simpvi_kinsol_maa 3

TEST*/
