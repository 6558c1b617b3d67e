static char help[] = "Soak run of TSSIMPVI (bench/soak.sh): a long run with the energy error and the resident memory sampled along the\n"
                     "way, which must stay flat (no leak per step). Lobatto (order 6) through the mechanical door, M = I:\n"
                     "  -problem pendulum    q'' = -omega^2 sin q, omega = 2 pi, q(0) = 1, -dt <1e-3>\n"
                     "  -problem sinegordon  the sine-Gordon kink u_tt = u_xx - sin u of examples/ex7.c in 1-D, n unknowns on [-L, L]\n"
                     "                       (finite differences, lattice form: kappa = 1/dx^2, u = 0 and 2 pi beyond the ends), on a\n"
                     "                       DMDA over the processes, the kink at velocity 0.5 from x0 = -L/4; -dt <0.5 dx>\n"
                     "Prints -samples lines (step, t, relative energy error |H - H0|/H0, resident memory summed over the processes) and\n"
                     "verdicts: the memory at the end within -mem_tol_mb of the memory at half the run (a leak per step grows it).\n"
                     "Checkpointing may be added (-ts_simpvi_checkpoint <file> -ts_simpvi_checkpoint_every <N>).\n"
                     "Options: -problem pendulum|sinegordon -steps <1e5> -samples <20> -n <100000> -L <50> -mem_tol_mb <1>\n\n";

#include <simpvi.h>
#include <petscdmda.h>

typedef enum {
  PROBLEM_PENDULUM,
  PROBLEM_SINEGORDON
} Problem;
static const char *const Problems[] = {"pendulum", "sinegordon", "Problem", "PROBLEM_", NULL};

typedef struct {
  Problem        problem;
  DM             da;
  Vec            uloc, g;
  PetscReal      omega2, kappa, right; /* pendulum omega^2; sine-Gordon 1/dx^2 and the value beyond the right end */
  PetscInt       steps, every;
  PetscReal      H0, maxerr;
  PetscLogDouble mem0, mem; /* resident memory (bytes, summed over the processes) at half the run and at the end */
  PetscInt       half;      /* the step of mem0 */
  PetscLogDouble t0;
} Soak;

/* Resident memory of this process now (Linux VmRSS), bytes */
static PetscLogDouble ResidentMemory(void)
{
  char           line[256];
  PetscLogDouble rss = 0;
  FILE          *f   = fopen("/proc/self/status", "r");

  if (!f) return 0;
  while (fgets(line, sizeof(line), f))
    if (!strncmp(line, "VmRSS:", 6)) {
      rss = 1024.0 * atof(line + 6);
      break;
    }
  fclose(f);
  return rss;
}

/* gradient of V and V itself (summed over the processes) */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  Soak              *s = (Soak *)ctx;
  const PetscScalar *xl;
  PetscScalar       *gg;
  PetscInt           xs, xm, N;
  PetscReal          Vloc = 0;

  PetscFunctionBeginUser;
  if (s->problem == PROBLEM_PENDULUM) {
    const PetscScalar *xx;

    PetscCall(VecGetArrayRead(x, &xx));
    PetscCall(VecGetArrayWrite(g, &gg));
    gg[0] = s->omega2 * PetscSinScalar(xx[0]);
    *V    = s->omega2 * (1 - PetscCosReal(PetscRealPart(xx[0])));
    PetscCall(VecRestoreArrayRead(x, &xx));
    PetscCall(VecRestoreArrayWrite(g, &gg));
    PetscFunctionReturn(0);
  }
  PetscCall(DMDAGetInfo(s->da, NULL, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(s->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMGlobalToLocal(s->da, x, INSERT_VALUES, s->uloc));
  PetscCall(DMDAVecGetArrayRead(s->da, s->uloc, &xl));
  PetscCall(VecGetArrayWrite(g, &gg));
  for (PetscInt i = xs; i < xs + xm; i++) {
    const PetscScalar left = i > 0 ? xl[i - 1] : 0, right = i < N - 1 ? xl[i + 1] : s->right;

    gg[i - xs] = s->kappa * (2 * xl[i] - left - right) + PetscSinScalar(xl[i]);
    Vloc += 0.5 * s->kappa * PetscRealPart((xl[i] - left) * (xl[i] - left)) + 1 - PetscCosReal(PetscRealPart(xl[i]));
    if (i == N - 1) Vloc += 0.5 * s->kappa * PetscRealPart((right - xl[i]) * (right - xl[i]));
  }
  PetscCall(DMDAVecRestoreArrayRead(s->da, s->uloc, &xl));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(MPIU_Allreduce(&Vloc, V, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)ts)));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Soak              *s = (Soak *)ctx;
  const PetscScalar *xx;
  PetscInt           xs, xm, N = 1;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  if (s->problem == PROBLEM_PENDULUM) PetscCall(MatSetValue(H, 0, 0, s->omega2 * PetscCosScalar(xx[0]), INSERT_VALUES));
  else {
    PetscCall(DMDAGetInfo(s->da, NULL, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    PetscCall(DMDAGetCorners(s->da, &xs, NULL, NULL, &xm, NULL, NULL));
    for (PetscInt i = xs; i < xs + xm; i++) {
      PetscCall(MatSetValue(H, i, i, 2 * s->kappa + PetscCosScalar(xx[i - xs]), INSERT_VALUES));
      if (i > 0) PetscCall(MatSetValue(H, i, i - 1, -s->kappa, INSERT_VALUES));
      if (i < N - 1) PetscCall(MatSetValue(H, i, i + 1, -s->kappa, INSERT_VALUES));
    }
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* H = |p|^2/2 + V(q), U = [q_local | p_local] */
static PetscErrorCode Energy(TS ts, Soak *s, Vec U, PetscReal *H)
{
  Vec                q;
  const PetscScalar *u;
  PetscScalar       *qq;
  PetscReal          V, kin = 0;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(s->g, &q));
  PetscCall(VecGetLocalSize(q, &n));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayWrite(q, &qq));
  for (PetscInt i = 0; i < n; i++) {
    qq[i] = u[i];
    kin += 0.5 * PetscRealPart(u[n + i] * u[n + i]);
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayWrite(q, &qq));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &kin, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)U)));
  PetscCall(Potential(ts, 0, q, &V, s->g, s));
  PetscCall(VecDestroy(&q));
  *H = kin + V;
  PetscFunctionReturn(0);
}

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Soak          *s   = (Soak *)ctx;
  PetscReal      H   = 0, err;
  PetscLogDouble mem = ResidentMemory(), now;

  PetscFunctionBeginUser;
  if (step % s->every && step != s->steps) PetscFunctionReturn(0);
  PetscCall(Energy(ts, s, U, &H));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &mem, 1, MPI_DOUBLE, MPI_SUM, PetscObjectComm((PetscObject)ts)));
  if (step == 0) {
    s->H0 = H;
    PetscCall(PetscTime(&s->t0));
  }
  err       = PetscAbsReal(H - s->H0) / PetscAbsReal(s->H0);
  s->maxerr = PetscMax(s->maxerr, err);
  if (step <= s->steps / 2) s->mem0 = mem; /* the sample at half the run: the work space and malloc's pools are there */
  if (step <= s->steps / 2) s->half = step;
  s->mem = mem;
  PetscCall(PetscTime(&now));
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)ts), "%12" PetscInt_FMT " %14.6g %14.3e %12.2f %10.1f\n", step, (double)t, (double)err, mem / 1048576.0, now - s->t0));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Soak        s = {PROBLEM_PENDULUM, NULL, NULL, NULL, 4 * PETSC_PI * PETSC_PI, 0, 2 * PETSC_PI, 100000, 0, 0, 0, 0, 0, 0, 0};
  PetscInt    n = 100000, samples = 20, nloc = 1, N = 1;
  PetscReal   L = 50, dt = 1e-3, memtol = 1, dx = 1;
  PetscBool   dtset;
  TS          ts;
  Vec         U;
  Mat         M, K;
  MPI_Comm    comm;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscOptionsBegin(comm, NULL, "Soak options", NULL);
  PetscCall(PetscOptionsEnum("-problem", "pendulum or sinegordon", NULL, Problems, (PetscEnum)s.problem, (PetscEnum *)&s.problem, NULL));
  PetscCall(PetscOptionsInt("-steps", "Steps", NULL, s.steps, &s.steps, NULL));
  PetscCall(PetscOptionsInt("-samples", "Samples of energy and memory", NULL, samples, &samples, NULL));
  PetscCall(PetscOptionsInt("-n", "Sine-Gordon unknowns", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-L", "Sine-Gordon half-width", NULL, L, &L, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, &dtset));
  PetscCall(PetscOptionsReal("-mem_tol_mb", "Largest growth of the memory between the first and the last sample (MB)", NULL, memtol, &memtol, NULL));
  PetscOptionsEnd();
  s.every = PetscMax(1, s.steps / samples);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (s.problem == PROBLEM_PENDULUM) {
    PetscCheck(size == 1, comm, PETSC_ERR_SUP, "-problem pendulum runs on one process");
    comm = PETSC_COMM_SELF;
    PetscCall(VecCreateSeq(comm, 1, &s.g));
  } else {
    dx      = 2 * L / (n + 1);
    s.kappa = 1 / (dx * dx);
    if (!dtset) dt = 0.5 * dx;
    PetscCall(DMDACreate1d(comm, DM_BOUNDARY_NONE, n, 1, 1, NULL, &s.da));
    PetscCall(DMSetUp(s.da));
    PetscCall(DMCreateLocalVector(s.da, &s.uloc));
    PetscCall(DMCreateGlobalVector(s.da, &s.g));
    PetscCall(VecGetLocalSize(s.g, &nloc));
    N = n;
  }

  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, TSSIMPVILOBATTO));
  PetscCall(MatCreateAIJ(comm, nloc, nloc, N, N, 1, NULL, 0, NULL, &M));
  {
    PetscInt lo, hi;

    PetscCall(MatGetOwnershipRange(M, &lo, &hi));
    for (PetscInt i = lo; i < hi; i++) PetscCall(MatSetValue(M, i, i, 1, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  if (s.da) PetscCall(DMCreateMatrix(s.da, &K));
  else PetscCall(MatDuplicate(M, MAT_DO_NOT_COPY_VALUES, &K));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, K, Potential, PotentialHessian, &s));

  PetscCall(VecCreateMPI(comm, 2 * nloc, 2 * N, &U));
  {
    PetscScalar *u;
    PetscInt     xs = 0;

    if (s.da) PetscCall(DMDAGetCorners(s.da, &xs, NULL, NULL, NULL, NULL, NULL));
    PetscCall(VecGetArrayWrite(U, &u));
    if (s.problem == PROBLEM_PENDULUM) {
      u[0] = 1;
      u[1] = 0;
    } else {
      const PetscReal v = 0.5, gamma = 1 / PetscSqrtReal(1 - v * v), x0 = -L / 4;

      for (PetscInt i = 0; i < nloc; i++) {
        const PetscReal x = -L + (xs + i + 1) * dx, z = gamma * (x - x0);

        u[i]        = 4 * PetscAtanReal(PetscExpReal(z));
        u[nloc + i] = -v * 2 * gamma / PetscCoshReal(z); /* u_t = -v u_x */
      }
    }
    PetscCall(VecRestoreArrayWrite(U, &u));
  }
  if (size > 1) {
    IS       isq, isp;
    PetscInt lo;

    PetscCall(VecGetOwnershipRange(U, &lo, NULL));
    PetscCall(ISCreateStride(comm, nloc, lo, 1, &isq));
    PetscCall(ISCreateStride(comm, nloc, lo + nloc, 1, &isp));
    PetscCall(TSRHSSplitSetIS(ts, "position", isq));
    PetscCall(TSRHSSplitSetIS(ts, "momentum", isp));
    PetscCall(ISDestroy(&isq));
    PetscCall(ISDestroy(&isp));
  }
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, s.steps));
  PetscCall(TSSetMaxTime(ts, 1e300));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSMonitorSet(ts, Monitor, &s, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(PetscPrintf(comm, "soak: %s, %" PetscInt_FMT " unknowns on %d process(es), Lobatto, h = %g, %" PetscInt_FMT " steps\n", Problems[s.problem], N, (int)size, (double)dt, s.steps));
  PetscCall(PetscPrintf(comm, "        step              t   rel. energy err  memory (MB)   time (s)\n"));
  PetscCall(TSSolve(ts, U));
  PetscCall(PetscPrintf(comm, "largest relative energy error at the samples: %.3e\n", (double)s.maxerr));
  PetscCall(PetscPrintf(comm, "memory growth over the second half of the run (steps %" PetscInt_FMT " to %" PetscInt_FMT "): %.3f MB, %.3g bytes per step; flat (below %g MB): %s\n", s.half, s.steps, (s.mem - s.mem0) / 1048576.0, (s.mem - s.mem0) / (double)PetscMax(1, s.steps - s.half), (double)memtol, (s.mem - s.mem0) / 1048576.0 <= memtol ? "yes" : "no"));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&s.g));
  PetscCall(VecDestroy(&s.uloc));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&K));
  PetscCall(DMDestroy(&s.da));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFinalize());
  return 0;
}
