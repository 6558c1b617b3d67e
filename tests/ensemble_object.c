static char help[] = "SimpVIEnsemble against lone TSSIMPVI runs: a study of pendulums (or double pendulums) with different\n"
                     "initial angles and parameters; every member's final (q, p), steps, time and Newton iterations must be\n"
                     "those of a lone TSSIMPVI run of it by Newton through the pointwise door, to the bit (and those of a lone run with\n"
                     "default options, simplified Newton, to 1e-8), whatever the batch, chunk and\n"
                     "number of processes (each process checks every size-th member alone). A member given a NaN\n"
                     "(-nan_member) must fail alone and be reported; a member whose function returns an error (-error_member) stops the\n"
                     "study on every process (the others once waited forever); -stop ends each member when its first angle turns negative\n"
                     "(-batch_stop: through the batch stop function);\n"
                     "-twice solves again with batches of 3 and compares the results; -binary writes them to a binary viewer and\n"
                     "reads them back; -error <type,interpolate,nomembers> makes a mistake.\n"
                     "Options: -problem <pendulum,double> -members <24> -dt <0.05> -nan_member <-1> -stop -view_csv -twice\n"
                     "         (and the TS's: -ts_simpvi_type, -ts_max_time, -ts_max_steps, -ts_exact_final_time, -snes_*)\n\n";

#include <simpvi.h>

typedef struct {
  PetscBool dbl;      /* the double pendulum (n = 2), else the pendulum (n = 1) */
  PetscInt  nmembers; /* the study's size */
  PetscInt  nanmember;
  PetscInt  errormember; /* -error_member: its member function returns an error */
  PetscReal dt;          /* the time step (-dt: -ts_dt was renamed in PETSc 3.25) */
} Study;

/* The pendulum, L = 1/2 v^2 + w2 cos q (w2 = param[0]), or the double pendulum of unit rods and masses with gravity
   param[0] and second mass param[1], at one point */
static void Point(PetscBool dbl, const PetscReal *param, const PetscReal *x, const PetscReal *v, PetscReal *P, PetscReal *G, PetscReal *Px, PetscReal *Pv, PetscReal *Gx, PetscReal *Gv)
{
  if (!dbl) {
    if (P) {
      P[0] = v[0];
      G[0] = -param[0] * PetscSinReal(x[0]);
    }
    if (Px) {
      Px[0] = 0;
      Pv[0] = 1;
      Gx[0] = -param[0] * PetscCosReal(x[0]);
      Gv[0] = 0;
    }
  } else {
    const PetscReal g = param[0], m2 = param[1], k = m2, a = 1 + m2, b = m2, g1 = (1 + m2) * g, g2 = m2 * g;
    const PetscReal s = PetscSinReal(x[0] - x[1]), c = PetscCosReal(x[0] - x[1]), v1 = v[0], v2 = v[1];

    if (P) {
      P[0] = a * v1 + k * c * v2;
      P[1] = b * v2 + k * c * v1;
      G[0] = -k * v1 * v2 * s - g1 * PetscSinReal(x[0]);
      G[1] = k * v1 * v2 * s - g2 * PetscSinReal(x[1]);
    }
    if (Px) {
      Px[0] = -k * v2 * s, Px[1] = k * v2 * s, Px[2] = -k * v1 * s, Px[3] = k * v1 * s;
      Pv[0] = a, Pv[1] = k * c, Pv[2] = k * c, Pv[3] = b;
      Gx[0] = -k * v1 * v2 * c - g1 * PetscCosReal(x[0]), Gx[1] = k * v1 * v2 * c, Gx[2] = k * v1 * v2 * c, Gx[3] = -k * v1 * v2 * c - g2 * PetscCosReal(x[1]);
      Gv[0] = Px[0], Gv[1] = Px[2], Gv[2] = Px[1], Gv[3] = Px[3];
    }
  }
}

/* The ensemble's mechanics: every point with its member's parameters */
static PetscErrorCode EnsembleMechanics(SimpVIEnsemble ens, PetscInt npoints, PetscInt n, const PetscInt member[], PetscInt nparam, const PetscReal param[], const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  Study         *st = (Study *)ctx;
  const PetscInt nn = n * n;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < npoints; k++) Point(st->dbl, param + k * nparam, x + k * n, v + k * n, P ? P + k * n : NULL, G ? G + k * n : NULL, Px ? Px + k * nn : NULL, Pv ? Pv + k * nn : NULL, Gx ? Gx + k * nn : NULL, Gv ? Gv + k * nn : NULL);
  PetscFunctionReturn(0);
}

/* Member i: its parameters and initial angles (at rest); -nan_member gets a NaN */
static PetscErrorCode Member(SimpVIEnsemble ens, PetscInt i, PetscInt nparam, PetscReal param[], PetscInt n, PetscReal q[], PetscReal p[], void *ctx)
{
  Study          *st = (Study *)ctx;
  const PetscReal f  = (PetscReal)i / st->nmembers;

  PetscFunctionBeginUser;
  if (!st->dbl) {
    param[0] = 1 + 0.25 * (i % 4);
    q[0]     = 0.2 + 2.8 * f;
  } else {
    param[0] = i % 2 ? 9.81 : 5;
    param[1] = 0.5 + 0.25 * (i % 3);
    q[0]     = 0.5 + 2 * f;
    q[1]     = -0.3 + 1.5 * f;
  }
  for (PetscInt j = 0; j < n; j++) p[j] = 0;
  if (i == st->nanmember) q[0] = NAN;
  PetscCheck(i != st->errormember, PETSC_COMM_SELF, PETSC_ERR_USER, "member %" PetscInt_FMT " refused by its member function", i);
  PetscFunctionReturn(0);
}

/* -stop: a member ends when its first angle turns negative */
static PetscErrorCode Stop(SimpVIEnsemble ens, PetscInt member, PetscInt nparam, const PetscReal param[], PetscInt step, PetscReal t, PetscInt n, const PetscReal q[], const PetscReal p[], PetscBool *stop, void *ctx)
{
  PetscFunctionBeginUser;
  *stop = (PetscBool)(q[0] < 0);
  PetscFunctionReturn(0);
}

/* -stop -batch_stop: the same, once per step of a batch with its members' arrays */
static PetscErrorCode BatchStop(SimpVIEnsemble ens, PetscInt nmembers, const PetscInt member[], PetscInt nparam, const PetscReal param[], const PetscInt step[], const PetscReal t[], PetscInt n, const PetscReal q[], const PetscReal p[], PetscBool stop[], void *ctx)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nmembers; k++) {
    PetscCheck(!stop[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "The verdicts must come in PETSC_FALSE");
    stop[k] = (PetscBool)(q[k * n] < 0);
  }
  PetscFunctionReturn(0);
}

/* A lone run: the member's parameters and the study's problem */
typedef struct {
  Study    *st;
  PetscReal param[2];
} Lone;

static PetscErrorCode LoneMechanics(TS ts, PetscInt npoints, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  Lone          *lo = (Lone *)ctx;
  const PetscInt nn = n * n;

  PetscFunctionBeginUser;
  PetscCheck(!L, PETSC_COMM_SELF, PETSC_ERR_SUP, "No Lagrangian here");
  for (PetscInt k = 0; k < npoints; k++) Point(lo->st->dbl, lo->param, x + k * n, v + k * n, P ? P + k * n : NULL, G ? G + k * n : NULL, Px ? Px + k * nn : NULL, Pv ? Pv + k * nn : NULL, Gx ? Gx + k * nn : NULL, Gv ? Gv + k * nn : NULL);
  PetscFunctionReturn(0);
}

static PetscErrorCode LonePostStep(TS ts)
{
  Vec                U;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(TSGetSolution(ts, &U));
  PetscCall(VecGetArrayRead(U, &u));
  if (PetscRealPart(u[0]) < 0) PetscCall(TSSetConvergedReason(ts, TS_CONVERGED_USER));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

/* The TS the study and the lone runs are set from: the scheme and steps of the options */
static PetscErrorCode MakeTS(MPI_Comm comm, PetscReal dt, TS *ts)
{
  PetscFunctionBeginUser;
  PetscCall(TSCreate(comm, ts));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  PetscCall(TSSetTimeStep(*ts, dt));
  PetscCall(TSSetMaxTime(*ts, 10));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(*ts));
  PetscFunctionReturn(0);
}

/* Member i alone, by Newton (-ts_simpvi_lag_jacobian false): whether its (q, p), steps, time, reason and Newton iterations
   are those of the ensemble, bitwise; or with default options (simplified Newton): the largest difference of (q, p) */
static PetscErrorCode CheckAlone(Study *st, PetscInt i, PetscInt n, const PetscReal out[], SimpVIEnsembleMemberReason reason, PetscInt steps, PetscInt its, PetscReal tend, PetscBool lagged, PetscBool *same, PetscReal *diff)
{
  TS                         ts;
  Vec                        U;
  Lone                       lo = {.st = st};
  PetscReal                  q[2], p[2];
  PetscScalar               *u;
  PetscInt                   lsteps, lits;
  PetscReal                  lt;
  TSConvergedReason          lreason;
  SimpVIEnsembleMemberReason r;

  PetscFunctionBeginUser;
  PetscCall(Member(NULL, i, 2, lo.param, n, q, p, st));
  if (!lagged) PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_lag_jacobian", "false"));
  PetscCall(MakeTS(PETSC_COMM_SELF, st->dt, &ts));
  if (!lagged) PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_lag_jacobian"));
  PetscCall(TSSimpVISetPointwiseLagrangian(ts, LoneMechanics, &lo));
  if (reason == SIMPVI_ENSEMBLE_CONVERGED_USER) PetscCall(TSSetPostStep(ts, LonePostStep));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * n, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  for (PetscInt j = 0; j < n; j++) {
    u[j]     = q[j];
    u[n + j] = p[j];
  }
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetStepNumber(ts, &lsteps));
  PetscCall(TSGetSNESIterations(ts, &lits));
  PetscCall(TSGetTime(ts, &lt));
  PetscCall(TSGetConvergedReason(ts, &lreason));
  r     = lreason == TS_CONVERGED_TIME ? SIMPVI_ENSEMBLE_CONVERGED_TIME : lreason == TS_CONVERGED_ITS ? SIMPVI_ENSEMBLE_CONVERGED_ITS : lreason == TS_CONVERGED_USER ? SIMPVI_ENSEMBLE_CONVERGED_USER : SIMPVI_ENSEMBLE_DIVERGED_NONLINEAR_SOLVE;
  *same = (PetscBool)(r == reason && lsteps == steps && (lits == its || lagged) && lt == tend);
  PetscCall(VecGetArray(U, &u));
  for (PetscInt j = 0; j < 2 * n; j++) {
    if (PetscRealPart(u[j]) != out[j] && !lagged) *same = PETSC_FALSE;
    *diff = PetscMax(*diff, PetscAbsReal(PetscRealPart(u[j]) - out[j]));
  }
  PetscCall(VecRestoreArray(U, &u));
  if (!*same)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  member %" PetscInt_FMT ": lone run %s, %" PetscInt_FMT " steps, %" PetscInt_FMT " its, t %.17g; ensemble %s, %" PetscInt_FMT ", %" PetscInt_FMT ", %.17g\n", i, TSConvergedReasons[lreason], lsteps, lits, (double)lt, SimpVIEnsembleMemberReasons[reason], steps, its, (double)tend));
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Study                             st         = {.dbl = PETSC_FALSE, .nmembers = 24, .nanmember = -1, .errormember = -1, .dt = 0.05};
  const char                       *problems[] = {"pendulum", "double"};
  PetscInt                          problem = 0, n, nout, mismatches = 0, lagmismatches = 0, others = 0;
  PetscReal                         lagdiff = 0, lagtol = 2e-7; /* round-off differences grow about 1e8-fold over the 10 s of the chaotic double pendulums: 2e-8 measured between Newton and simplified Newton with a Newton tolerance of 1e-22 */
  PetscBool                         stop = PETSC_FALSE, batchstop = PETSC_FALSE, csv = PETSC_FALSE, twice = PETSC_FALSE, binary = PETSC_FALSE;
  const char                       *errors[] = {"none", "type", "interpolate", "nomembers"};
  PetscInt                          error    = 0;
  PetscMPIInt                       rank, size;
  TS                                ts;
  SimpVIEnsemble                    ens;
  const PetscReal                  *out, *tend;
  const PetscInt                   *steps, *its;
  const SimpVIEnsembleMemberReason *reason;
  TSSimpVIType                      type;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Ensemble test options", NULL);
  PetscCall(PetscOptionsEList("-problem", "The members' system", NULL, problems, 2, problems[problem], &problem, NULL));
  PetscCall(PetscOptionsInt("-members", "The number of members", NULL, st.nmembers, &st.nmembers, NULL));
  PetscCall(PetscOptionsReal("-dt", "The time step", NULL, st.dt, &st.dt, NULL));
  PetscCall(PetscOptionsInt("-nan_member", "A member given a NaN", NULL, st.nanmember, &st.nanmember, NULL));
  PetscCall(PetscOptionsInt("-error_member", "A member whose member function returns an error", NULL, st.errormember, &st.errormember, NULL));
  PetscCall(PetscOptionsBool("-stop", "End each member when its first angle turns negative", NULL, stop, &stop, NULL));
  PetscCall(PetscOptionsBool("-batch_stop", "With -stop: through the batch stop function", NULL, batchstop, &batchstop, NULL));
  PetscCall(PetscOptionsBool("-view_csv", "Print the results as CSV", NULL, csv, &csv, NULL));
  PetscCall(PetscOptionsBool("-binary", "Write the results to a binary viewer and read them back", NULL, binary, &binary, NULL));
  PetscCall(PetscOptionsBool("-twice", "Solve again with batches of 3 and compare", NULL, twice, &twice, NULL));
  PetscCall(PetscOptionsEList("-error", "A mistake: a TS of another type, an interpolated final time, no member function", NULL, errors, 4, errors[error], &error, NULL));
  PetscOptionsEnd();
  st.dbl = (PetscBool)(problem == 1);
  n      = st.dbl ? 2 : 1;

  PetscCall(MakeTS(PETSC_COMM_WORLD, st.dt, &ts));
  if (error == 1) PetscCall(TSSetType(ts, TSRK));
  if (error == 2) PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_INTERPOLATE));
  PetscCall(SimpVIEnsembleCreate(PETSC_COMM_WORLD, &ens));
  PetscCall(SimpVIEnsembleSetTS(ens, ts));
  PetscCall(SimpVIEnsembleSetSize(ens, st.nmembers));
  if (error != 3) PetscCall(SimpVIEnsembleSetMemberFunction(ens, n, st.dbl ? 2 : 1, Member, &st));
  PetscCall(SimpVIEnsembleSetPointwiseLagrangian(ens, EnsembleMechanics, &st));
  if (stop && batchstop) PetscCall(SimpVIEnsembleSetBatchStopFunction(ens, BatchStop, NULL));
  else if (stop) PetscCall(SimpVIEnsembleSetStopFunction(ens, Stop, NULL));
  PetscCall(SimpVIEnsembleSetFromOptions(ens));
  if (st.errormember >= 0) { /* the error returned on every process (as a Python program catches it), none left waiting */
    PetscErrorCode ierr;
    PetscMPIInt    all, failed;

    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = SimpVIEnsembleSolve(ens);
    PetscCall(PetscPopErrorHandler());
    failed = ierr ? 1 : 0;
    PetscCallMPI(MPI_Allreduce(&failed, &all, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "a member function's error: SimpVIEnsembleSolve() returned an error on every process: %s\n", all ? "yes" : "no"));
    PetscCall(SimpVIEnsembleDestroy(&ens));
    PetscCall(TSDestroy(&ts));
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCall(SimpVIEnsembleSolve(ens));
  PetscCall(SimpVIEnsembleGetResults(ens, &nout, &out));
  PetscCall(SimpVIEnsembleGetMemberInfo(ens, &reason, &steps, &its, &tend));
  PetscCall(TSSimpVIGetType(ts, &type));

  /* every size-th member alone on this process */
  for (PetscInt i = rank; i < st.nmembers; i += size) {
    PetscBool same = PETSC_FALSE;

    if (reason[i] < 0) continue; /* failed: counted below */
    PetscCall(CheckAlone(&st, i, n, out + i * nout, reason[i], steps[i], its[i], tend[i], PETSC_FALSE, &same, &lagdiff));
    if (!same) mismatches++;
    PetscCall(CheckAlone(&st, i, n, out + i * nout, reason[i], steps[i], its[i], tend[i], PETSC_TRUE, &same, &lagdiff));
    if (!same) lagmismatches++;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &mismatches, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &lagmismatches, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &lagdiff, 1, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  for (PetscInt i = 0; i < st.nmembers; i++)
    if (i != st.nanmember && reason[i] > 0) others++;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " %s members, scheme %s, %" PetscInt_FMT " values each\n", st.nmembers, problems[problem], type, nout));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "members agree with lone TSSIMPVI runs by Newton (q, p, steps, time, reason, Newton iterations; bit for bit): %s\n", mismatches ? "no" : "yes"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "members agree with lone runs with default options (simplified Newton; steps, time, reason; q, p to %g): %s\n", (double)lagtol, lagmismatches || lagdiff > lagtol ? "no" : "yes"));
  PetscCall(PetscInfo(NULL, "largest difference of (q, p) from the simplified Newton lone runs: %g\n", (double)lagdiff));
  if (stop) {
    PetscInt stopped = 0;

    for (PetscInt i = 0; i < st.nmembers; i++)
      if (reason[i] == SIMPVI_ENSEMBLE_CONVERGED_USER) stopped++;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every member stopped by the stop function: %s\n", stopped == st.nmembers ? "yes" : "no"));
  }
  if (st.nanmember >= 0) {
    const PetscInt k = st.nanmember;

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "member %" PetscInt_FMT " (a NaN) reported failed at its first step: %s\n", k, reason[k] == SIMPVI_ENSEMBLE_DIVERGED_NONLINEAR_SOLVE && steps[k] == 0 ? "yes" : "no"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "every other member ran to its end: %s\n", others == st.nmembers - (st.nanmember >= 0) ? "yes" : "no"));
  if (binary) { /* the results through a binary viewer: a Vec of a block per member, read back */
    PetscViewer        viewer;
    Vec                R;
    PetscInt           lo, hi;
    const PetscScalar *r;
    PetscMPIInt        same = 1;

    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, "ensemble_results.bin", FILE_MODE_WRITE, &viewer));
    PetscCall(SimpVIEnsembleView(ens, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, "ensemble_results.bin", FILE_MODE_READ, &viewer));
    PetscCall(VecCreate(PETSC_COMM_WORLD, &R));
    PetscCall(VecLoad(R, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
    PetscCall(VecGetOwnershipRange(R, &lo, &hi));
    PetscCall(VecGetArrayRead(R, &r));
    for (PetscInt k = lo; k < hi; k++) {
      const PetscInt  i = k / (4 + nout), j = k % (4 + nout);
      const PetscReal v = j == 0 ? (PetscReal)reason[i] : j == 1 ? (PetscReal)steps[i] : j == 2 ? (PetscReal)its[i] : j == 3 ? tend[i] : out[i * nout + j - 4];

      if (PetscRealPart(r[k - lo]) != v && !(PetscIsNanReal(v) && PetscIsNanReal(PetscRealPart(r[k - lo])))) same = 0;
    }
    PetscCall(VecRestoreArrayRead(R, &r));
    PetscCall(VecDestroy(&R));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, PETSC_COMM_WORLD));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the results through a binary viewer read back the same: %s\n", same ? "yes" : "no"));
  }
  if (twice) { /* the same study again, other batches: the same results */
    PetscReal       *first;
    const PetscReal *again;
    PetscBool        same;

    PetscCall(PetscMalloc1(st.nmembers * nout, &first));
    PetscCall(PetscArraycpy(first, out, st.nmembers * nout));
    PetscCall(SimpVIEnsembleSetBatchSize(ens, 3));
    PetscCall(SimpVIEnsembleSolve(ens));
    PetscCall(SimpVIEnsembleGetResults(ens, NULL, &again));
    PetscCall(PetscArraycmp(first, again, st.nmembers * nout, &same));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "a second solve with batches of 3 gives the same results: %s\n", same ? "yes" : "no"));
    PetscCall(PetscFree(first));
  }
  if (csv) {
    PetscViewer viewer;

    PetscCall(PetscViewerASCIIGetStdout(PETSC_COMM_WORLD, &viewer));
    PetscCall(PetscViewerPushFormat(viewer, PETSC_VIEWER_ASCII_CSV));
    PetscCall(SimpVIEnsembleView(ens, viewer));
    PetscCall(PetscViewerPopFormat(viewer));
  }
  PetscCall(SimpVIEnsembleDestroy(&ens));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # a member function's error on one of 2 processes: that process reports it and the other stops too, saying where
  test:
    suffix: error_member
    nsize: {{1 2}}
    args: -error_member 5
    output_file: output/ensemble_object_error_member.out

  # pendulums, Simpson, matchstep to t = 10: the results (CSV) the same on 1 and 2 processes, for any batch and chunk
  test:
    suffix: simpson
    nsize: {{1 2}}
    args: -ts_simpvi_type simpson -ensemble_batch {{1 5 64}} -ensemble_chunk 3 -view_csv
    output_file: output/ensemble_object_simpson.out

  # double pendulums, Lobatto of degree 3, 150 steps (stepover), a NaN member among them; 3 processes too; the results
  # through a binary viewer
  test:
    suffix: lobatto
    nsize: {{1 2 3}}
    args: -problem double -ts_simpvi_type lobatto -ts_max_steps 150 -ts_max_time 1e9 -ts_exact_final_time stepover -nan_member 5 -ensemble_batch 4 -binary
    output_file: output/ensemble_object_lobatto.out

  # double pendulums, Gauss of degree 3, stopped when the first angle turns negative
  test:
    suffix: gauss
    nsize: {{1 2}}
    args: -problem double -ts_simpvi_type gauss -ts_simpvi_degree 3 -stop -ts_max_time 20
    output_file: output/ensemble_object_gauss.out

  # the same through the batch stop function (one call per step of a batch): the same output
  test:
    suffix: gauss_batchstop
    nsize: {{1 2}}
    args: -problem double -ts_simpvi_type gauss -ts_simpvi_degree 3 -stop -batch_stop -ts_max_time 20 -ensemble_batch 5
    output_file: output/ensemble_object_gauss.out

  # the order-2 schemes: the midpoint (one Gauss point) and the trapezoid (no interior node)
  test:
    suffix: midpoint
    nsize: {{1 2}}
    args: -problem double -ts_simpvi_type midpoint -dt 0.02
    output_file: output/ensemble_object_midpoint.out

  test:
    suffix: trapezoid
    args: -problem double -ts_simpvi_type trapezoid -dt 0.02 -ensemble_batch 1

  # mistakes: clear errors on every process
  testset:
    nsize: 2
    args: -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep "PETSC ERROR" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"
    test:
      suffix: err_type
      args: -error type
    test:
      suffix: err_interpolate
      args: -error interpolate
    test:
      suffix: err_nomembers
      args: -error nomembers

  # uncompensated sums, other Newton tolerances, the view, a second solve
  test:
    suffix: view
    args: -ts_simpvi_type lobatto -ts_simpvi_compensated_summation 0 -snes_rtol 1e-10 -snes_stol 1e-12 -ensemble_view -twice
    filter: grep -v -e "busy"

TEST*/
