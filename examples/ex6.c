static char help[] = "FPU-beta chain in parallel by TSSIMPVI: n masses, alternately 1 and r, between fixed walls, springs\n"
                     "phi(d) = d^2/2 + beta d^4/4, on a dof-1 DMDA (the walls are its ghost points) with MPIAIJ mass and potential\n"
                     "Hessian through the mechanical door. All the energy starts in the lowest normal mode of the linear chain\n"
                     "(K y = omega^2 M y); the program follows the energy of that mode, checks that it flows\n"
                     "into the other modes and comes back (the Fermi-Pasta-Ulam recurrence), that the total energy is conserved, and\n"
                     "that the run on PETSC_COMM_WORLD agrees with the same run on rank 0 alone (PETSC_COMM_SELF).\n"
                     "Any TS type runs the same mechanics in phase space (TSSimpVISetUpPhaseSpace()), e.g. -ts_type theta -ts_theta_theta 0.5.\n"
                     "Options: -n <16> -beta <1> -ratio <2> (mass of the odd masses) -amplitude <12> (mode-1 amplitude Q_1)\n"
                     "         -dt <0.5> -final_time <800> -serial <1>: also solve on rank 0 alone and compare\n"
                     "         -recurrence <1>: report whether the first mode's energy leaves it and comes back\n"
                     "         -modes <1>: follow the first mode (default for n <= 100000), else start from a short wave:\n"
                     "         -wave_amplitude <1> -wavelength <64> (in masses)\n"
                     "         -monitor_mode <0>: print E_1/E_1(0) every that many steps  -bench: print a timing/memory record\n\n";

#include <simpvi.h>
#include <petscdmda.h>
#include "benchmemory.h"
#include "phasesplit.h"
#include "workprecision.h"

typedef struct {
  PetscInt   n;
  PetscReal  beta, ratio, amp;
  PetscBool  modes;
  PetscReal  wamp, wavelength; /* the start without modes */
  PetscReal  omega1;           /* lowest frequency of the linear chain */
  PetscReal *y1;               /* its M^{1/2}-normalised eigenvector of M^{-1/2} K M^{-1/2} (all n entries, on every rank) */
} Params;

typedef struct {
  Params *par;
  DM      da;       /* dof-1 DMDA of the positions, ghosted at the walls */
  Vec     xloc;     /* positions with ghosts; the walls stay 0 */
  Vec     wq, wp;   /* Q_1 = wq.q, P_1 = wp.p */
  IS      isq, isp; /* the split of U: positions then momenta on each process (PhaseSplitLocalHalves()) */
  /* monitor */
  PetscInt  every;
  PetscReal E10, rmin, rmax_after, trec, H0, drift;
  PetscBool dipped;
} Chain;

static PetscReal Mass(const Params *par, PetscInt i)
{
  return i % 2 ? par->ratio : 1.0;
}

/* The lowest mode of the linear chain, K y = omega^2 M y with K = tridiag(-1, 2, -1): the symmetric tridiagonal
   A = M^{-1/2} K M^{-1/2} has its lowest eigenvalue found by Sturm bisection, its eigenvector by inverse iteration with
   a shift just below it (A - sigma I is then positive definite: the Thomas algorithm is stable). On rank 0, broadcast. */
static PetscErrorCode LowestMode(Params *par)
{
  PetscMPIInt rank;
  PetscInt    n = par->n;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n, &par->y1));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank == 0) {
    PetscReal *a, *b, *d, *z, lo = 0, hi = 0, sigma, nrm;

    PetscCall(PetscMalloc4(n, &a, n, &b, n, &d, n, &z));
    for (PetscInt i = 0; i < n; i++) {
      a[i] = 2 / Mass(par, i);
      b[i] = i + 1 < n ? -1 / PetscSqrtReal(Mass(par, i) * Mass(par, i + 1)) : 0; /* A(i, i+1) */
      hi   = PetscMax(hi, a[i] + PetscAbsReal(b[i]) + (i ? PetscAbsReal(b[i - 1]) : 0));
    }
    for (PetscInt it = 0; it < 200 && hi - lo > 4 * PETSC_MACHINE_EPSILON * hi; it++) { /* lo <= lambda_1 < hi */
      PetscReal x = (lo + hi) / 2, dd = 1;
      PetscInt  neg = 0;

      for (PetscInt i = 0; i < n; i++) {
        dd = a[i] - x - (i ? b[i - 1] * b[i - 1] / dd : 0);
        if (dd == 0) dd = -PETSC_MACHINE_EPSILON;
        if (dd < 0) neg++;
      }
      if (neg > 0) hi = x;
      else lo = x;
    }
    par->omega1 = PetscSqrtReal(lo);
    sigma       = lo * (1 - 1e-9);
    for (PetscInt i = 0; i < n; i++) par->y1[i] = 1;
    for (PetscInt it = 0; it < 4; it++) { /* (A - sigma I) z = y, y = z/|z| */
      for (PetscInt i = 0; i < n; i++) {
        d[i] = a[i] - sigma - (i ? b[i - 1] * b[i - 1] / d[i - 1] : 0);
        z[i] = par->y1[i] - (i ? b[i - 1] * z[i - 1] / d[i - 1] : 0);
      }
      for (PetscInt i = n - 1; i >= 0; i--) z[i] = (z[i] - (i + 1 < n ? b[i] * z[i + 1] : 0)) / d[i];
      nrm = 0;
      for (PetscInt i = 0; i < n; i++) nrm += z[i] * z[i];
      nrm = PetscSqrtReal(nrm);
      for (PetscInt i = 0; i < n; i++) par->y1[i] = z[i] / nrm;
    }
    PetscCall(PetscFree4(a, b, d, z));
  }
  PetscCallMPI(MPI_Bcast(&par->omega1, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(par->y1, (PetscMPIInt)n, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

/* x with its ghosts (the neighbours' masses, and the walls at 0) */
static PetscErrorCode Ghosts(Chain *c, Vec x, const PetscScalar **xl)
{
  PetscFunctionBeginUser;
  PetscCall(DMGlobalToLocalBegin(c->da, x, INSERT_VALUES, c->xloc));
  PetscCall(DMGlobalToLocalEnd(c->da, x, INSERT_VALUES, c->xloc));
  PetscCall(DMDAVecGetArrayRead(c->da, c->xloc, (void *)xl));
  PetscFunctionReturn(0);
}

/* V = sum of phi over the n+1 springs; each process takes the springs on the left of its masses, the last also the
   spring to the right wall */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  Chain             *c    = (Chain *)ctx;
  const PetscReal    beta = c->par->beta;
  const PetscScalar *xl;
  PetscScalar       *gg;
  PetscInt           xs, xm;
  PetscReal          v = 0;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(c->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(Ghosts(c, x, &xl));
  PetscCall(VecGetArrayWrite(g, &gg));
  for (PetscInt i = xs; i < xs + xm; i++) {
    PetscReal dl = PetscRealPart(xl[i] - xl[i - 1]), dr = PetscRealPart(xl[i + 1] - xl[i]);

    gg[i - xs] = dl + beta * dl * dl * dl - dr - beta * dr * dr * dr;
    v += dl * dl / 2 + beta * dl * dl * dl * dl / 4;
    if (i == c->par->n - 1) v += dr * dr / 2 + beta * dr * dr * dr * dr / 4;
  }
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(DMDAVecRestoreArrayRead(c->da, c->xloc, (void *)&xl));
  PetscCall(MPIU_Allreduce(&v, V, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Chain             *c    = (Chain *)ctx;
  const PetscReal    beta = c->par->beta;
  const PetscScalar *xl;
  PetscInt           xs, xm;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(c->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(Ghosts(c, x, &xl));
  for (PetscInt i = xs; i < xs + xm; i++) {
    PetscReal dl = PetscRealPart(xl[i] - xl[i - 1]), dr = PetscRealPart(xl[i + 1] - xl[i]);
    PetscReal kl = 1 + 3 * beta * dl * dl, kr = 1 + 3 * beta * dr * dr;

    PetscInt    cols[3] = {i - 1, i, i + 1}, first = i > 0 ? 0 : 1, last = i < c->par->n - 1 ? 2 : 1;
    PetscScalar vals[3] = {-kl, kl + kr, -kr};

    PetscCall(MatSetValues(H, 1, &i, last - first + 1, cols + first, vals + first, INSERT_VALUES)); /* a row at once */
  }
  PetscCall(DMDAVecRestoreArrayRead(c->da, c->xloc, (void *)&xl));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* Energy of the first linear mode, E_1 = (P_1^2 + omega_1^2 Q_1^2)/2 */
static PetscErrorCode ModeEnergy(TS ts, Chain *c, Vec U, PetscReal *E1)
{
  Vec         q, p;
  PetscScalar Q, P;

  PetscFunctionBeginUser;
  PetscCall(VecGetSubVector(U, c->isq, &q));
  PetscCall(VecGetSubVector(U, c->isp, &p));
  PetscCall(VecDot(c->wq, q, &Q));
  PetscCall(VecDot(c->wp, p, &P));
  PetscCall(VecRestoreSubVector(U, c->isq, &q));
  PetscCall(VecRestoreSubVector(U, c->isp, &p));
  *E1 = 0.5 * PetscRealPart(P * P) + 0.5 * c->par->omega1 * c->par->omega1 * PetscRealPart(Q * Q);
  PetscFunctionReturn(0);
}

/* Tracks the first mode's share E_1/E_1(0): its minimum, then the largest value after it fell below one half; and the
   largest relative energy drift */
static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Chain    *c = (Chain *)ctx;
  PetscReal H;

  PetscFunctionBeginUser;
  PetscCall(TSSimpVIComputeEnergy(ts, t, U, &H));
  if (step == 0) c->H0 = H;
  c->drift = PetscMax(c->drift, PetscAbsReal(H - c->H0) / PetscAbsReal(c->H0));
  if (c->par->modes) {
    PetscReal E1 = 0, r;

    PetscCall(ModeEnergy(ts, c, U, &E1));
    if (step == 0) c->E10 = E1;
    r       = E1 / c->E10;
    c->rmin = PetscMin(c->rmin, r);
    if (r < 0.5) c->dipped = PETSC_TRUE;
    if (c->dipped && r > c->rmax_after) {
      c->rmax_after = r;
      c->trec       = t;
    }
    if (c->every > 0 && step % c->every == 0)
      PetscCall(PetscPrintf(PetscObjectComm((PetscObject)ts), "step %6" PetscInt_FMT " t %10.3f E1/E1(0) %.4f H drift %.2e\n", step, (double)t, (double)r, (double)(PetscAbsReal(H - c->H0) / PetscAbsReal(c->H0))));
  }
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt       steps, snes_its, ksp_its;
  PetscLogDouble time;
  BenchMemory    bm;    /* peak memory by phase, first-step time */
  PetscReal      drift; /* |H(T) - H(0)|/|H(0)| */
  char           tstype[64];
} RunStats;

/* One run on comm; returns the final state gathered on rank 0 of comm (q then p) and the run's statistics. A benchmark
   run (bench) monitors memory instead of the energy and the first mode after each step. */
static PetscErrorCode Run(MPI_Comm comm, Params *par, PetscReal dt, PetscReal T, PetscInt every, PetscBool bench, Chain *c, Vec *qp, RunStats *st)
{
  TS            ts;
  Vec           U, sub[2];
  PetscReal     H0, H1;
  Mat           M, K;
  PetscInt      xs, xm;
  PetscScalar  *u;
  WorkPrecision wp;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(PetscMemzero(st, sizeof(*st)));
  c->par        = par;
  c->every      = every;
  c->rmin       = 1;
  c->rmax_after = 0;
  PetscCall(DMDACreate1d(comm, DM_BOUNDARY_GHOSTED, par->n, 1, 1, NULL, &c->da));
  PetscCall(DMSetFromOptions(c->da));
  PetscCall(DMSetUp(c->da));
  PetscCall(DMCreateLocalVector(c->da, &c->xloc));
  PetscCall(VecSet(c->xloc, 0));
  PetscCall(DMDAGetCorners(c->da, &xs, NULL, NULL, &xm, NULL, NULL));

  /* mass: diagonal; Hessian: the DMDA's tridiagonal pattern */
  PetscCall(MatCreateAIJ(comm, xm, xm, par->n, par->n, 1, NULL, 0, NULL, &M));
  for (PetscInt i = xs; i < xs + xm; i++) PetscCall(MatSetValue(M, i, i, Mass(par, i), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(DMCreateMatrix(c->da, &K));
  PetscCall(MatSetOption(K, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE)); /* each process sets its own rows: no messages */

  /* the first mode's coordinates: Q_1 = (y1 sqrt(m)).q, P_1 = (y1/sqrt(m)).p */
  if (par->modes) {
    PetscScalar *a, *b;

    PetscCall(DMCreateGlobalVector(c->da, &c->wq));
    PetscCall(VecDuplicate(c->wq, &c->wp));
    PetscCall(VecGetArrayWrite(c->wq, &a));
    PetscCall(VecGetArrayWrite(c->wp, &b));
    for (PetscInt i = xs; i < xs + xm; i++) {
      a[i - xs] = par->y1[i] * PetscSqrtReal(Mass(par, i));
      b[i - xs] = par->y1[i] / PetscSqrtReal(Mass(par, i));
    }
    PetscCall(VecRestoreArrayWrite(c->wq, &a));
    PetscCall(VecRestoreArrayWrite(c->wp, &b));
  }

  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, K, Potential, PotentialHessian, c));

  /* U = [q_local | p_local] on each process (named by PhaseSplitLocalHalves()): q = Q_1 times the first mode's shape and p = 0; without
     modes, a short wave of -wavelength masses, q = a sin(k i), p = (a/2) m cos(k i) (strains about a k: nonlinear) */
  PetscCall(VecCreateMPI(comm, 2 * xm, 2 * par->n, &U));
  {
    PetscInt lo;

    PetscCall(VecGetOwnershipRange(U, &lo, NULL));
    PetscCall(ISCreateStride(comm, xm, lo, 1, &c->isq));
    PetscCall(ISCreateStride(comm, xm, lo + xm, 1, &c->isp));
  }
  PetscCall(VecGetArrayWrite(U, &u));
  for (PetscInt i = xs; i < xs + xm; i++) {
    const PetscReal k = 2 * PETSC_PI / par->wavelength;

    u[i - xs]      = par->modes ? par->amp * par->y1[i] / PetscSqrtReal(Mass(par, i)) : par->wamp * PetscSinReal(k * i);
    u[xm + i - xs] = par->modes ? 0 : 0.5 * par->wamp * Mass(par, i) * PetscCosReal(k * i);
  }
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(PhaseSplitLocalHalves(ts, U));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetMaxSteps(ts, (PetscInt)(T / dt + 0.5)));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (bench) PetscCall(TSMonitorSet(ts, BenchMemoryMonitor, &st->bm, NULL));
  else PetscCall(TSMonitorSet(ts, Monitor, c, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVISetUpPhaseSpace(ts)); /* for -ts_type theta, rk, ...: the same chain in phase space */
  {
    TSType type;

    PetscCall(TSGetType(ts, &type));
    PetscCall(PetscStrncpy(st->tstype, type, sizeof(st->tstype)));
  }
  PetscCall(TSSetUp(ts));
  PetscCall(WorkPrecisionSetUp(ts, NULL, NULL, &wp)); /* -wp: a record for bench/workprecision.py */
  PetscCall(TSSimpVIComputeEnergy(ts, 0, U, &H0));
  PetscCall(PetscTime(&st->time));
  PetscCall(TSSolve(ts, U));
  {
    PetscLogDouble t1;

    PetscCall(PetscTime(&t1));
    st->time      = t1 - st->time;
    st->bm.mem[2] = PeakRSS(PETSC_FALSE);
  }
  PetscCall(WorkPrecisionReport(ts, U, &wp));
  PetscCall(TSSimpVIComputeEnergy(ts, T, U, &H1));
  st->drift = PetscAbsReal(H1 - H0) / PetscAbsReal(H0);
  PetscCall(TSGetStepNumber(ts, &st->steps));
  PetscCall(TSGetSNESIterations(ts, &st->snes_its));
  PetscCall(TSGetKSPIterations(ts, &st->ksp_its));

  /* gather (q, p) on rank 0 of comm */
  if (qp) {
    VecScatter scatter;
    Vec        all[2];

    PetscCall(VecGetSubVector(U, c->isq, &sub[0]));
    PetscCall(VecGetSubVector(U, c->isp, &sub[1]));
    for (PetscInt k = 0; k < 2; k++) {
      PetscCall(VecScatterCreateToZero(sub[k], &scatter, &all[k]));
      PetscCall(VecScatterBegin(scatter, sub[k], all[k], INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecScatterEnd(scatter, sub[k], all[k], INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecScatterDestroy(&scatter));
    }
    PetscCall(VecRestoreSubVector(U, c->isq, &sub[0]));
    PetscCall(VecRestoreSubVector(U, c->isp, &sub[1]));
    PetscCall(VecConcatenate(2, all, qp, NULL));
    PetscCall(VecDestroy(&all[0]));
    PetscCall(VecDestroy(&all[1]));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&c->wq));
  PetscCall(VecDestroy(&c->wp));
  PetscCall(ISDestroy(&c->isq));
  PetscCall(ISDestroy(&c->isp));
  PetscCall(VecDestroy(&c->xloc));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&K));
  PetscCall(DMDestroy(&c->da));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Params         par = {16, 1.0, 2.0, 12.0, PETSC_TRUE, 1.0, 64.0, 0, NULL};
  PetscReal      dt = 0.5, T = 800;
  PetscInt       every  = 0;
  PetscBool      serial = PETSC_TRUE, bench = PETSC_FALSE, recurrence = PETSC_TRUE;
  PetscMPIInt    size, rank;
  PetscLogDouble rss0;
  Chain          c;
  RunStats       st;
  Vec            qp = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  rss0 = PeakRSS(PETSC_FALSE);
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "FPU-beta chain options", NULL);
  PetscCall(PetscOptionsInt("-n", "Number of masses", NULL, par.n, &par.n, NULL));
  PetscCall(PetscOptionsReal("-beta", "Quartic spring coefficient", NULL, par.beta, &par.beta, NULL));
  PetscCall(PetscOptionsReal("-ratio", "Mass of the odd masses (the even ones are 1)", NULL, par.ratio, &par.ratio, NULL));
  PetscCall(PetscOptionsReal("-amplitude", "Initial amplitude of the first mode", NULL, par.amp, &par.amp, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-final_time", "Final time", NULL, T, &T, NULL));
  par.modes = (PetscBool)(par.n <= 100000);
  PetscCall(PetscOptionsBool("-modes", "Start in the first linear mode and follow its energy", NULL, par.modes, &par.modes, NULL));
  PetscCall(PetscOptionsReal("-wave_amplitude", "Without modes: amplitude of the initial wave", NULL, par.wamp, &par.wamp, NULL));
  PetscCall(PetscOptionsReal("-wavelength", "Without modes: wavelength of the initial wave, in masses", NULL, par.wavelength, &par.wavelength, NULL));
  PetscCall(PetscOptionsBool("-recurrence", "Report on the first mode's energy (leaving and coming back)", NULL, recurrence, &recurrence, NULL));
  PetscCall(PetscOptionsBool("-serial", "Also solve on rank 0 alone and compare", NULL, serial, &serial, NULL));
  PetscCall(PetscOptionsInt("-monitor_mode", "Print the first mode's energy every that many steps", NULL, every, &every, NULL));
  PetscCall(PetscOptionsBool("-bench", "Print one record of time, iterations and memory", NULL, bench, &bench, NULL));
  PetscOptionsEnd();
  if (par.modes) PetscCall(LowestMode(&par));

  PetscCall(Run(PETSC_COMM_WORLD, &par, dt, T, every, bench, &c, serial ? &qp : NULL, &st));
  if (!bench) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FPU-beta chain of %" PetscInt_FMT " masses (alternately 1 and %g), beta %g, TS %s: %" PetscInt_FMT " steps\n", par.n, (double)par.ratio, (double)par.beta, st.tstype, st.steps));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "largest relative energy drift %.2e\n", (double)c.drift));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "energy conserved to 1e-3: %s\n", c.drift < 1e-3 ? "yes" : "no"));
    if (par.modes && recurrence) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "first mode keeps %.3f of its energy at least, returns to %.3f at t = %.1f\n", (double)c.rmin, (double)c.rmax_after, (double)c.trec));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "energy leaves the first mode (below 50%%): %s\n", c.rmin < 0.5 ? "yes" : "no"));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "energy comes back to the first mode (above 90%%, FPU recurrence): %s\n", c.dipped && c.rmax_after > 0.9 ? "yes" : "no"));
    }
  }
  if (serial) {
    PetscReal diff = 0;

    if (rank == 0) {
      Chain     cs;
      RunStats  ss;
      Vec       qps;
      PetscReal nd, ns;

      PetscCall(Run(PETSC_COMM_SELF, &par, dt, T, 0, PETSC_FALSE, &cs, &qps, &ss));
      PetscCall(VecNorm(qps, NORM_INFINITY, &ns));
      PetscCall(VecAXPY(qps, -1, qp));
      PetscCall(VecNorm(qps, NORM_INFINITY, &nd));
      diff = nd / ns;
      PetscCall(VecDestroy(&qps));
    }
    PetscCall(VecDestroy(&qp));
    if (!bench) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "final state, PETSC_COMM_WORLD vs rank 0 alone: relative difference %.2e\n", (double)diff));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "parallel run agrees with the serial one to 1e-10: %s\n", diff < 1e-10 ? "yes" : "no"));
    }
  }
  if (bench) {
    PetscLogDouble loc[5] = {rss0, st.bm.mem[0], st.bm.mem[1], st.bm.mem[2], PetscMax(st.bm.mem[0], PetscMax(st.bm.mem[1], st.bm.mem[2]))}, sum[5];

    PetscCall(MPIU_Allreduce(loc, sum, 5, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH problem=chain ts=%s ranks=%d n=%" PetscInt_FMT " steps=%" PetscInt_FMT " time=%.6e time_per_step=%.6e newton_per_step=%.3f krylov_per_step=%.3f", st.tstype, size, par.n, st.steps, st.time, st.time / PetscMax(st.steps, 1),
                          (double)st.snes_its / PetscMax(st.steps, 1), (double)st.ksp_its / PetscMax(st.steps, 1)));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, " first_step_time=%.6e later_time_per_step=%.6e peak_bytes=%.6e base_bytes=%.6e bytes_per_unknown=%.1f net_bytes_per_unknown=%.1f setup_bytes_per_unknown=%.1f first_step_bytes_per_unknown=%.1f later_steps_bytes_per_unknown=%.1f drift=%.3e\n",
                          st.bm.tstep[1] - st.bm.tstep[0], st.steps > 1 ? (st.time - (st.bm.tstep[1] - st.bm.tstep[0])) / (st.steps - 1) : st.time, sum[4], sum[0], sum[4] / par.n, (sum[4] - sum[0]) / par.n, sum[1] / par.n, sum[2] / par.n,
                          sum[3] / par.n, (double)st.drift));
  }
  PetscCall(PetscFree(par.y1));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: fpu

  test:
    suffix: theta
    args: -ts_type theta -ts_theta_theta 0.5 -serial 0

  test:
    suffix: par_1
    nsize: 1
    args: -final_time 20 -recurrence 0

  test:
    suffix: par_2
    nsize: 2
    args: -final_time 20 -recurrence 0
    output_file: output/ex6_par_1.out

  # dense output on 2 ranks: the final time inside the 41st step, reached by TSInterpolate()
  test:
    suffix: par_2_interp
    nsize: 2
    args: -final_time 20.3 -recurrence 0 -ts_exact_final_time interpolate

  # 4 ranks on fewer cores: a Krylov step solver, since the default parallel LU (SuperLU_DIST) spins OpenMP threads
  test:
    suffix: par_4
    nsize: 4
    args: -final_time 20 -recurrence 0 -ksp_type gmres -pc_type bjacobi -ksp_rtol 1e-14
    args: -ts_simpvi_velocity_ksp_type cg -ts_simpvi_velocity_pc_type jacobi -ts_simpvi_velocity_ksp_rtol 1e-14
    output_file: output/ex6_par_1.out

TEST*/
