static char help[] = "Holonomic constraints on Vecs and Mats (TSSimpVISetEqualityConstraintsRoutine() and its Jacobian and\n"
                     "Hessian routines): a chain of N point masses (-links N, masses 1, 1.25, 1.5, 1, ...) joined by rigid\n"
                     "links of length 1, the first link hung from a fixed pivot at the origin, under gravity, in 2-D or 3-D\n"
                     "(-dim), through the mechanical door (-lagrangian: the Lagrangian door) on a plain parallel Vec (each\n"
                     "process its share of the masses and of the links that end at them; -drag c: a force -c v on each mass).\n"
                     "-check ranks: the run on every process of the communicator against the same run on one process (rank\n"
                     "0), final states agreeing to 1e-10, |g(q)| <= 1e-12 and the hidden constraint G(q) M^-1 p <= 1e-11 at\n"
                     "the end; pointwise (one process): the same run through the pointwise door with the array constraints\n"
                     "(TSSimpVISetConstraints()), the two doors agreeing to 1e-10; errors: the set-up errors (no Jacobian\n"
                     "routine, no Hessian routine, both forms, a G of the wrong size).\n\n";

#include "../examples/models/linkchain.h" /* the chain: Chain, Mass(), Initial(), Potential(), Equality() and its derivatives */

/* The same mechanics through the Lagrangian door: L = 1/2 sum m v^2 - V, Lx = -grad V, Lv = m v */
static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  const Chain       *ch = (const Chain *)ctx;
  const PetscScalar *w;
  PetscScalar       *lv;
  PetscReal          V, T = 0;

  PetscFunctionBeginUser;
  PetscCall(Potential(ts, t, x, &V, Lx, ctx));
  PetscCall(VecScale(Lx, -1));
  PetscCall(VecGetArrayRead(v, &w));
  PetscCall(VecGetArrayWrite(Lv, &lv));
  for (PetscInt j = 0; j < ch->d * ch->nloc; j++) {
    const PetscReal m = Mass(ch->first + j / ch->d);

    lv[j] = m * w[j];
    T += 0.5 * m * w[j] * w[j];
  }
  PetscCall(VecRestoreArrayWrite(Lv, &lv));
  PetscCall(VecRestoreArrayRead(v, &w));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &T, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  *L = T - V;
  PetscFunctionReturn(0);
}

static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  PetscFunctionBeginUser; /* Lxx = 0 and Lvv = M, as assembled */
  PetscFunctionReturn(0);
}

/* A linear drag on every mass, f = -c v (-drag c): a force, which enters G and leaves the end projection alone */
static PetscErrorCode Drag(TS ts, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  const Chain *ch = (const Chain *)ctx;

  PetscFunctionBeginUser;
  PetscCall(VecAXPBY(f, -ch->drag, 0, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode DragJacobian(TS ts, PetscReal t, Vec x, Vec v, Mat Fx, Mat Fv, void *ctx)
{
  PetscFunctionBeginUser; /* Fv = -c I, as assembled */
  PetscFunctionReturn(0);
}

/* The pointwise door's Lagrangian (one process): L = 1/2 sum m v^2 - V */
static PetscErrorCode Pointwise(TS ts, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  const Chain   *ch = (const Chain *)ctx;
  const PetscInt d  = ch->d;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < npts; k++) {
    if (L) L[k] = 0;
    for (PetscInt j = 0; j < n; j++) {
      const PetscReal m = Mass(j / d), f = j % d == d - 1 ? ch->grav * m : 0;

      if (L) L[k] += 0.5 * m * v[k * n + j] * v[k * n + j] - f * x[k * n + j];
      if (P) P[k * n + j] = m * v[k * n + j];
      if (G) G[k * n + j] = -f;
    }
    if (Px)
      for (PetscInt j = 0; j < n * n; j++) {
        Px[k * n * n + j] = Gx[k * n * n + j] = Gv[k * n * n + j] = 0;
        Pv[k * n * n + j]                                         = j % (n + 1) == 0 ? Mass((j / n) / d) : 0;
      }
  }
  PetscFunctionReturn(0);
}

/* The same constraints on arrays (TSSimpVISetConstraints()) */
static PetscErrorCode Lengths(TS ts, PetscInt n, PetscInt m, const PetscReal q[], const PetscReal lambda[], PetscReal g[], PetscReal G[], PetscReal H[], void *ctx)
{
  const Chain   *ch = (const Chain *)ctx;
  const PetscInt d  = ch->d;

  PetscFunctionBeginUser;
  if (G) PetscCall(PetscArrayzero(G, m * n));
  if (H) PetscCall(PetscArrayzero(H, n * n));
  for (PetscInt a = 0; a < m; a++) {
    PetscReal e[3], n2 = 0;

    for (PetscInt c = 0; c < d; c++) {
      e[c] = q[a * d + c] - (a ? q[(a - 1) * d + c] : 0);
      n2 += e[c] * e[c];
    }
    if (g) g[a] = 0.5 * (n2 - 1);
    for (PetscInt c = 0; c < d; c++) {
      const PetscInt i = a * d + c, j = (a - 1) * d + c;

      if (G) {
        G[a * n + i] = e[c];
        if (a) G[a * n + j] = -e[c];
      }
      if (H) {
        H[i * n + i] += lambda[a];
        if (a) {
          H[j * n + j] += lambda[a];
          H[i * n + j] -= lambda[a];
          H[j * n + i] -= lambda[a];
        }
      }
    }
  }
  PetscFunctionReturn(0);
}

typedef struct {
  PetscReal gmax, hidden; /* |g(q)| and |G(q) M^-1 p| at the end */
} Measure;

/* What to leave out of the set-up (-check errors) */
typedef enum {
  OMIT_NONE,
  OMIT_JACOBIAN,
  OMIT_HESSIAN,
  BOTH_FORMS,
  WRONG_G
} Flaw;

/* -check's runs: the initial state (unless restarted), TSSolve(), and at the end (q, p) on rank 0 (U) and the
   constraints' measures */
static PetscErrorCode Solve(TS ts, Chain *ch, Vec u, Mat M, Mat G, PetscReal U[], Measure *meas)
{
  const PetscInt     d = ch->d, N = ch->N, lo = ch->first, hi = ch->first + ch->nloc;
  MPI_Comm           comm = PetscObjectComm((PetscObject)ts);
  Vec                v, m, Gv, qa, pa, z;
  IS                 isq, isp;
  PetscReal         *x0, *v0;
  PetscMPIInt        rank;
  PetscBool          restarted;
  VecScatter         toz;
  const PetscScalar *zz;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(TSSetUp(ts));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_simpvi_restart", &restarted)); /* -check restart: the state is the file's */
  /* the initial state, (q, p) of this process's masses */
  PetscCall(TSSimpVIGetPhaseSpaceIS(ts, &isq, &isp));
  if (!restarted) {
    PetscCall(PetscMalloc2(d * N, &x0, d * N, &v0));
    Initial(ch, x0, v0);
    PetscCall(VecGetSubVector(u, isq, &qa));
    PetscCall(VecGetSubVector(u, isp, &pa));
    for (PetscInt j = d * lo; j < d * hi; j++) {
      PetscCall(VecSetValue(qa, j, x0[j], INSERT_VALUES));
      PetscCall(VecSetValue(pa, j, Mass(j / d) * v0[j], INSERT_VALUES));
    }
    PetscCall(VecAssemblyBegin(qa));
    PetscCall(VecAssemblyEnd(qa));
    PetscCall(VecAssemblyBegin(pa));
    PetscCall(VecAssemblyEnd(pa));
    PetscCall(VecRestoreSubVector(u, isq, &qa));
    PetscCall(VecRestoreSubVector(u, isp, &pa));
    PetscCall(PetscFree2(x0, v0));
  }
  PetscCall(TSSolve(ts, u));

  /* the end: q and p to rank 0, |g(q)| and |G(q) M^-1 p| */
  PetscCall(VecGetSubVector(u, isq, &qa));
  PetscCall(VecGetSubVector(u, isp, &pa));
  PetscCall(VecDuplicate(pa, &v));
  PetscCall(VecDuplicate(pa, &m));
  PetscCall(VecCreateMPI(comm, ch->nloc, N, &Gv));
  PetscCall(VecCopy(pa, v));
  PetscCall(MatGetDiagonal(M, m));
  PetscCall(VecPointwiseDivide(v, v, m));
  PetscCall(Equality(ts, qa, Gv, ch));
  PetscCall(VecNorm(Gv, NORM_INFINITY, &meas->gmax));
  PetscCall(JacobianEquality(ts, qa, G, ch));
  PetscCall(MatMult(G, v, Gv));
  PetscCall(VecNorm(Gv, NORM_INFINITY, &meas->hidden));
  for (PetscInt part = 0; part < 2; part++) {
    PetscCall(VecScatterCreateToZero(part ? pa : qa, &toz, &z));
    PetscCall(VecScatterBegin(toz, part ? pa : qa, z, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(toz, part ? pa : qa, z, INSERT_VALUES, SCATTER_FORWARD));
    if (rank == 0) {
      PetscCall(VecGetArrayRead(z, &zz));
      for (PetscInt j = 0; j < d * N; j++) U[part * d * N + j] = zz[j];
      PetscCall(VecRestoreArrayRead(z, &zz));
    }
    PetscCall(VecScatterDestroy(&toz));
    PetscCall(VecDestroy(&z));
  }
  PetscCall(VecRestoreSubVector(u, isq, &qa));
  PetscCall(VecRestoreSubVector(u, isp, &pa));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&m));
  PetscCall(VecDestroy(&Gv));
  PetscFunctionReturn(0);
}

/*
  Run - the chain on comm from its initial state for steps steps of size h with the scheme; pointwise: through the
  pointwise door and the array constraints (one process). The final (q, p) of every mass on rank 0 of comm in U (2 d N:
  q then p), and the constraints' measures there
*/
static PetscErrorCode Run(MPI_Comm comm, PetscInt N, PetscInt d, const char scheme[], PetscReal h, PetscInt steps, PetscBool pointwise, PetscBool lagrangian, PetscReal drag, Flaw flaw, PetscReal U[], Measure *meas, PetscBool *failed)
{
  Chain    ch = {0};
  TS       ts;
  Vec      u, g;
  Mat      M, K, G, H, Fv = NULL;
  PetscInt n, lo;

  PetscFunctionBeginUser;
  PetscCall(ChainCreate(comm, N, d, &ch));
  ch.drag = drag;
  lo      = ch.first;
  n       = d * ch.nloc;
  PetscCall(ChainMatrices(comm, &ch, &M, &K, &G, &H));
  PetscCall(MatCreateVecs(G, NULL, &g)); /* the multipliers: one per link */
  if (flaw == WRONG_G) {
    PetscCall(MatDestroy(&G));
    PetscCall(MatCreateAIJ(comm, PETSC_DECIDE, PETSC_DECIDE, N + 1, d * N, 2 * d, NULL, d, NULL, &G));
  }

  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, scheme));
  if (pointwise) {
    PetscCall(TSSimpVISetPointwiseLagrangian(ts, Pointwise, &ch));
    PetscCall(TSSimpVISetConstraints(ts, N, Lengths, &ch));
  } else {
    if (lagrangian) {
      PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, &ch));
      PetscCall(TSSimpVISetLagrangianHessian(ts, K, NULL, M, LagrangianHessian, &ch));
    } else {
      PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
      PetscCall(TSSimpVISetPotential(ts, K, Potential, PotentialHessian, &ch));
    }
    PetscCall(TSSimpVISetEqualityConstraintsRoutine(ts, g, Equality, &ch));
    if (flaw != OMIT_JACOBIAN) PetscCall(TSSimpVISetJacobianEqualityRoutine(ts, G, JacobianEquality, &ch));
    if (flaw != OMIT_HESSIAN) PetscCall(TSSimpVISetHessianEqualityRoutine(ts, H, HessianEquality, &ch));
    if (flaw == BOTH_FORMS) PetscCall(TSSimpVISetConstraints(ts, N, Lengths, &ch));
    if (drag != 0) {
      PetscCall(MatDuplicate(M, MAT_DO_NOT_COPY_VALUES, &Fv));
      PetscCall(MatShift(Fv, -drag));
      PetscCall(TSSimpVISetForce(ts, NULL, Fv, Drag, DragJacobian, &ch));
      PetscCall(MatDestroy(&Fv));
    }
  }
  PetscCall(VecCreateMPI(comm, 2 * n, 2 * d * N, &u));
  PetscCall(TSSetSolution(ts, u));
  { /* U = (q, p) on each process: its positions, then their momenta */
    IS iq, ip;

    PetscCall(ISCreateStride(comm, n, 2 * d * lo, 1, &iq));
    PetscCall(ISCreateStride(comm, n, 2 * d * lo + n, 1, &ip));
    PetscCall(TSRHSSplitSetIS(ts, "position", iq));
    PetscCall(TSRHSSplitSetIS(ts, "momentum", ip));
    PetscCall(ISDestroy(&iq));
    PetscCall(ISDestroy(&ip));
  }
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  if (flaw != OMIT_NONE) { /* -check errors: the set-up must fail, collectively */
    PetscErrorCode ierr;

    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = TSSetUp(ts);
    PetscCall(PetscPopErrorHandler());
    *failed = (PetscBool)(ierr != 0);
  } else PetscCall(Solve(ts, &ch, u, M, G, U, meas));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&g));
  PetscCall(ChainDestroy(&ch));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&G));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

static PetscReal MaxDiff(PetscInt n, const PetscReal a[], const PetscReal b[])
{
  PetscReal e = 0;

  for (PetscInt j = 0; j < n; j++) e = PetscMax(e, PetscAbsReal(a[j] - b[j]));
  return e;
}

int main(int argc, char **argv)
{
  PetscInt    N = 8, d = 3, steps = 40;
  PetscReal   h = 0.01, *U1, *U2, diff, drag = 0;
  char        scheme[64] = "simpson", check[64] = "ranks";
  PetscMPIInt size, rank;
  Measure     m1, m2;
  PetscBool   verbose = PETSC_FALSE, lagrangian = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Chain of N links with constraints on Vecs", NULL);
  PetscCall(PetscOptionsInt("-links", "Masses and links", NULL, N, &N, NULL));
  PetscCall(PetscOptionsInt("-dim", "2 or 3", NULL, d, &d, NULL));
  PetscCall(PetscOptionsInt("-steps", "Steps", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsReal("-h", "Step size", NULL, h, &h, NULL));
  PetscCall(PetscOptionsString("-scheme", "simpson or lobatto", NULL, scheme, scheme, sizeof(scheme), NULL));
  PetscCall(PetscOptionsString("-check", "ranks, pointwise or errors", NULL, check, check, sizeof(check), NULL));
  PetscCall(PetscOptionsReal("-drag", "A linear drag -c v on every mass (TSSimpVISetForce())", NULL, drag, &drag, NULL));
  PetscCall(PetscOptionsBool("-lagrangian", "Through the Lagrangian door (TSSimpVISetLagrangian()), not the mechanical one", NULL, lagrangian, &lagrangian, NULL));
  PetscCall(PetscOptionsBool("-verbose", "Print the measured numbers", NULL, verbose, &verbose, NULL));
  PetscOptionsEnd();
  PetscCheck(d == 2 || d == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim 2 or 3");
  PetscCall(PetscMalloc2(2 * d * N, &U1, 2 * d * N, &U2));

  if (!strcmp(check, "ranks")) {
    PetscCall(Run(PETSC_COMM_WORLD, N, d, scheme, h, steps, PETSC_FALSE, lagrangian, drag, OMIT_NONE, U2, &m2, NULL));
    if (rank == 0) PetscCall(Run(PETSC_COMM_SELF, N, d, scheme, h, steps, PETSC_FALSE, lagrangian, drag, OMIT_NONE, U1, &m1, NULL));
    diff = rank == 0 ? MaxDiff(2 * d * N, U1, U2) : 0;
    if (verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "max |U(%d ranks) - U(1 rank)| = %g, |g| = %g, |G M^-1 p| = %g\n", size, (double)diff, (double)m2.gmax, (double)m2.hidden));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s door, %s, %" PetscInt_FMT " links in %" PetscInt_FMT "-D, %" PetscInt_FMT " steps: final states on %d ranks and on 1 agree to 1e-10: %s\n", lagrangian ? "Lagrangian" : "mechanical", scheme, N, d, steps, size, diff <= 1e-10 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "|g(q)| <= 1e-12: %s; hidden constraint |G(q) M^-1 p| <= 1e-11: %s\n", m2.gmax <= 1e-12 ? "yes" : "no", m2.hidden <= 1e-11 ? "yes" : "no"));
  } else if (!strcmp(check, "pointwise")) {
    PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-check pointwise runs on one process");
    PetscCheck(drag == 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-check pointwise runs without -drag (the array constraints take no forces)");
    PetscCall(Run(PETSC_COMM_SELF, N, d, scheme, h, steps, PETSC_FALSE, lagrangian, drag, OMIT_NONE, U2, &m2, NULL));
    PetscCall(Run(PETSC_COMM_SELF, N, d, scheme, h, steps, PETSC_TRUE, PETSC_FALSE, 0, OMIT_NONE, U1, &m1, NULL));
    diff = MaxDiff(2 * d * N, U1, U2);
    if (verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "max |U(Vec door) - U(pointwise door)| = %g, |g| = %g / %g, hidden = %g / %g\n", (double)diff, (double)m2.gmax, (double)m1.gmax, (double)m2.hidden, (double)m1.hidden));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, %" PetscInt_FMT " links in %" PetscInt_FMT "-D, %" PetscInt_FMT " steps: the %s door with Vec/Mat constraints and the pointwise door with array constraints agree to 1e-10: %s\n", scheme, N, d, steps, lagrangian ? "Lagrangian" : "mechanical", diff <= 1e-10 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "|g(q)| <= 1e-12: %s; hidden constraint |G(q) M^-1 p| <= 1e-11: %s\n", m2.gmax <= 1e-12 && m1.gmax <= 1e-12 ? "yes" : "no", m2.hidden <= 1e-11 && m1.hidden <= 1e-11 ? "yes" : "no"));
  } else if (!strcmp(check, "restart")) {
    /* a checkpoint at step `steps` of a run to 2 steps, and the run restarted from it, on every process: the same end,
       bit for bit (the multipliers the next solve starts from are in the file, per constraint) */
    char file[PETSC_MAX_PATH_LEN] = "chainvec_checkpoint.bin", every[32];

    PetscCall(Run(PETSC_COMM_WORLD, N, d, scheme, h, 2 * steps, PETSC_FALSE, lagrangian, drag, OMIT_NONE, U1, &m1, NULL));
    PetscCall(PetscSNPrintf(every, sizeof(every), "%" PetscInt_FMT, steps));
    PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_checkpoint", file));
    PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_checkpoint_every", every));
    PetscCall(Run(PETSC_COMM_WORLD, N, d, scheme, h, steps, PETSC_FALSE, lagrangian, drag, OMIT_NONE, U2, &m2, NULL));
    PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_checkpoint"));
    PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_checkpoint_every"));
    PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_restart", file));
    PetscCall(Run(PETSC_COMM_WORLD, N, d, scheme, h, 2 * steps, PETSC_FALSE, lagrangian, drag, OMIT_NONE, U2, &m2, NULL));
    PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_restart"));
    diff = rank == 0 ? MaxDiff(2 * d * N, U1, U2) : 0;
    if (verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "max |U(restarted) - U(one run)| = %g\n", (double)diff));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " links: restarted from the checkpoint of step %" PetscInt_FMT ", the state at step %" PetscInt_FMT " the same bit for bit: %s\n", N, steps, 2 * steps, diff == 0 ? "yes" : "no"));
  } else if (!strcmp(check, "errors")) {
    const char *names[] = {"no Jacobian routine", "no Hessian routine", "both forms", "G of the wrong size"};
    const Flaw  flaws[] = {OMIT_JACOBIAN, OMIT_HESSIAN, BOTH_FORMS, WRONG_G};

    for (PetscInt f = 0; f < 4; f++) {
      PetscBool failed;

      PetscCall(Run(PETSC_COMM_WORLD, N, d, scheme, h, 1, PETSC_FALSE, PETSC_FALSE, 0, flaws[f], U2, &m2, &failed));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: an error: %s\n", names[f], failed ? "yes" : "no"));
    }
  } else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "Unknown -check %s", check);
  PetscCall(PetscFree2(U1, U2));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: pointwise
    args: -check pointwise -links 4 -dim 2

  test:
    suffix: pointwise_lobatto
    args: -check pointwise -links 3 -dim 3 -scheme lobatto

  test:
    suffix: ranks
    nsize: 2
    args: -check ranks

  test:
    suffix: ranks_lobatto_2d
    nsize: 2
    args: -check ranks -scheme lobatto -dim 2 -links 9

  test:
    suffix: ranks_lagrangian
    nsize: 2
    args: -check ranks -lagrangian -links 6

  test:
    suffix: pointwise_lagrangian
    args: -check pointwise -lagrangian -links 3 -dim 2

  test:
    suffix: ranks_drag_interpolate
    nsize: 2
    args: -check ranks -links 5 -drag 0.3 -steps 1000 -ts_max_time 0.355 -ts_exact_final_time interpolate

  test:
    suffix: view
    nsize: 2
    args: -check ranks -links 4 -steps 2 -ts_view
    filter: grep -E "Holonomic|Step.s linear solver|projection|agree"

  test:
    suffix: errors
    args: -check errors -links 3

  # checkpoint and restart with the Vec/Mat constraints, 1 and 2 ranks
  test:
    suffix: restart
    nsize: {{1 2}}
    args: -check restart -links 6 -steps 30 -scheme {{simpson lobatto}}
    output_file: output/chainvec_restart.out

TEST*/
