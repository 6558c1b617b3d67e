static char help[] = "MPI-parallel parameter studies with TSSIMPVI: PETSC_COMM_WORLD is split into run communicators of\n"
                     "-sweep_ranks_per_run ranks; each runs independent TSSIMPVI integrations, one per task of a parameter grid, handed\n"
                     "out by rank 0 as a work queue (or by a static cyclic split), and rank 0 gathers every result into one CSV file,\n"
                     "rows sorted by task, so the file does not depend on the number of ranks.\n"
                     "  -study convergence: schemes x steps per period on the nonlinear pendulum (omega = 2 pi, theta0 = pi/2, one\n"
                     "     period) against its exact solution (GSL Jacobi elliptic functions); max errors of p, q, H per row and the\n"
                     "     fitted orders per scheme.\n"
                     "  -study flip: the double pendulum's time to first flip over a grid of initial angles (theta1, theta2) in\n"
                     "     [-pi, pi]^2 at rest (m1 = m2 = 1, l1 = l2 = l, configuration-dependent mass through TSSimpVISetMass()).\n"
                     "Options: -study convergence|flip -sweep_csv <file> -sweep_ranks_per_run <1> -sweep_schedule dynamic|static\n"
                     "  -sweep_progress <bool> -sweep_check_serial (rank 0 reruns every task alone and compares the CSV rows)\n"
                     "  -sweep_only <task> (run one task, e.g. with -snes_test_jacobian)\n"
                     "  convergence: -schemes midpoint,simpson,lobatto -meshes 25,50,100,200,400 -order_floor <1e-12>\n"
                     "  flip: -grid <N> -flip_tmax <T in sqrt(l/g)> -flip_dt <h in sqrt(l/g)> -flip_l <1> -flip_g <9.81>\n"
                     "        -flip_skip_forbidden <bool> -flip_energy_tol <2e-2> -flip_check_jacobian; the scheme is -ts_simpvi_type (default simpson)\n"
                     "        -flip_ensemble <bool> (default: the grid's tasks as one SimpVIEnsemble on all ranks, members dealt out on\n"
                     "        request, -ensemble_batch, -ensemble_chunk, -ensemble_view; 0: one TS per task through the queue)\n"
                     "        -flip_check_ts <steps> (the ensemble against a TSSIMPVI run of each task alone through the mass door)\n\n";

#include <simpvi.h>
#include "stepjacobian.h"
#include "phasesplit.h"
#include <gsl/gsl_sf_elljac.h>
#include <gsl/gsl_sf_ellint.h>
#include <sys/resource.h>

/* ------------------------------------------------------------------------------------------------------------------
   The work queue. Rank 0 of WORLD is the leader of run group 0 and also the queue: it answers the other leaders'
   requests between its own time steps (TSPostStep) and between its tasks. A request carries the result of the
   requester's previous task, the answer is the next task index, or -1 when the queue is empty. The leader of each
   group broadcasts the task to its group. With -sweep_schedule static, group g runs tasks g, g + ngroups, ... and only
   sends the results.
   ------------------------------------------------------------------------------------------------------------------ */
#define TAG_REQUEST 4201
#define TAG_TASK    4202
#define TAG_RESULT  4203

typedef struct {
  MPI_Comm       world, sub; /* world: a duplicate of PETSC_COMM_WORLD for the queue's messages; sub: the run communicator */
  PetscMPIInt    rank, size, subrank, subsize, group, ngroups;
  PetscBool      dynamic, active, progress;
  PetscInt       ntasks, nrec, next, done, stopped, shown;
  PetscReal     *rec, *buf; /* rank 0: ntasks x nrec results; a message of 1 + nrec */
  PetscLogDouble t0, busy;  /* start of the sweep; time this group spent in its tasks */
  PetscInt       ran;       /* tasks run by this group */
} Queue;

static PetscErrorCode QueueStore(Queue *q, const PetscReal msg[])
{
  const PetscInt task = (PetscInt)msg[0];

  PetscFunctionBeginUser;
  if (task < 0) PetscFunctionReturn(0);
  PetscCall(PetscArraycpy(q->rec + task * q->nrec, msg + 1, q->nrec));
  q->done++;
  while (q->progress && q->shown < (10 * q->done) / q->ntasks) {
    PetscLogDouble now;

    PetscCall(PetscTime(&now));
    q->shown++;
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "sweep: %3d%% (%" PetscInt_FMT " of %" PetscInt_FMT " runs) after %.0f s\n", (int)(10 * q->shown), q->done, q->ntasks, now - q->t0));
  }
  PetscFunctionReturn(0);
}

static PetscInt QueueTake(Queue *q)
{
  return q->next < q->ntasks ? q->next++ : -1;
}

/* Rank 0: answers every message already waiting (or exactly one, waiting for it, when block is true) */
static PetscErrorCode QueueServe(Queue *q, PetscBool block)
{
  PetscFunctionBeginUser;
  if (!q->active || q->rank != 0 || q->ngroups == 1) PetscFunctionReturn(0);
  while (PETSC_TRUE) {
    MPI_Status status;
    int        flag = 1;

    if (block) PetscCallMPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, q->world, &status));
    else PetscCallMPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, q->world, &flag, &status));
    if (!flag) break;
    PetscCallMPI(MPI_Recv(q->buf, (PetscMPIInt)(q->nrec + 1), MPIU_REAL, status.MPI_SOURCE, status.MPI_TAG, q->world, MPI_STATUS_IGNORE));
    PetscCall(QueueStore(q, q->buf));
    if (status.MPI_TAG == TAG_REQUEST) {
      PetscInt task = QueueTake(q);

      if (task < 0) q->stopped++;
      PetscCallMPI(MPI_Send(&task, 1, MPIU_INT, status.MPI_SOURCE, TAG_TASK, q->world));
    }
    if (block) break;
  }
  PetscFunctionReturn(0);
}

/* Collective on q->sub: hands in the result of task prev (if prev >= 0) and gets the next task, -1 at the end */
static PetscErrorCode QueueNext(Queue *q, PetscInt prev, const PetscReal prevrec[], PetscInt *task)
{
  PetscInt t = -1;

  PetscFunctionBeginUser;
  if (q->subrank == 0) {
    q->buf[0] = (PetscReal)prev;
    if (prev >= 0) PetscCall(PetscArraycpy(q->buf + 1, prevrec, q->nrec));
    if (q->rank == 0) {
      PetscCall(QueueStore(q, q->buf));
      PetscCall(QueueServe(q, PETSC_FALSE));
      t = q->dynamic ? QueueTake(q) : (prev < 0 ? 0 : prev + q->ngroups);
    } else if (q->dynamic) {
      PetscCallMPI(MPI_Send(q->buf, (PetscMPIInt)(q->nrec + 1), MPIU_REAL, 0, TAG_REQUEST, q->world));
      PetscCallMPI(MPI_Recv(&t, 1, MPIU_INT, 0, TAG_TASK, q->world, MPI_STATUS_IGNORE));
    } else {
      if (prev >= 0) PetscCallMPI(MPI_Send(q->buf, (PetscMPIInt)(q->nrec + 1), MPIU_REAL, 0, TAG_RESULT, q->world));
      t = prev < 0 ? q->group : prev + q->ngroups;
    }
    if (t >= q->ntasks) t = -1;
  }
  PetscCallMPI(MPI_Bcast(&t, 1, MPIU_INT, 0, q->sub));
  *task = t;
  PetscFunctionReturn(0);
}

/* Rank 0, after its own last task: waits for the other groups' last results */
static PetscErrorCode QueueFinish(Queue *q)
{
  PetscFunctionBeginUser;
  if (q->rank == 0)
    while (q->dynamic ? q->stopped < q->ngroups - 1 : q->done < q->ntasks) PetscCall(QueueServe(q, PETSC_TRUE));
  q->active = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------------------------------
   A small mechanical system on any communicator: n positions split over the ranks, U = (q, p) with the library's
   default split (on each rank its positions, then their momenta), user matrices dense with the positions' rows, and
   everything the callbacks need gathered on every rank (n is tiny).
   ------------------------------------------------------------------------------------------------------------------ */
#define MAXN 4

typedef struct {
  MPI_Comm    comm;
  PetscMPIInt size;
  PetscInt    n, nloc, lo;        /* positions: total, owned, first owned */
  PetscInt    uq[MAXN], up[MAXN]; /* index of q_i and p_i in U */
  Vec         U, xall, Uall;      /* U template; gathered copies (size > 1) */
  VecScatter  xtoall, Utoall;
  Mat         A[4]; /* mass M, Mx, Mxx, potential Hessian; or Lxx, Lvv */
} Model;

static PetscErrorCode ModelCreate(MPI_Comm comm, PetscInt n, PetscInt nmat, Model *m)
{
  Vec             x;
  PetscLayout     map;
  const PetscInt *range;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(m, sizeof(*m)));
  m->comm = comm;
  m->n    = n;
  PetscCallMPI(MPI_Comm_size(comm, &m->size));
  PetscCall(PetscLayoutCreateFromSizes(comm, PETSC_DECIDE, n, 1, &map));
  PetscCall(PetscLayoutGetRanges(map, &range));
  PetscCall(PetscLayoutGetLocalSize(map, &m->nloc));
  PetscCall(PetscLayoutGetRange(map, &m->lo, NULL));
  for (PetscMPIInt r = 0; r < m->size; r++)
    for (PetscInt i = range[r]; i < range[r + 1]; i++) {
      m->uq[i] = 2 * range[r] + (i - range[r]);
      m->up[i] = m->uq[i] + (range[r + 1] - range[r]);
    }
  PetscCall(PetscLayoutDestroy(&map));
  PetscCall(VecCreateMPI(comm, 2 * m->nloc, 2 * n, &m->U));
  if (m->size > 1) {
    PetscCall(VecCreateMPI(comm, m->nloc, n, &x));
    PetscCall(VecScatterCreateToAll(x, &m->xtoall, &m->xall));
    PetscCall(VecScatterCreateToAll(m->U, &m->Utoall, &m->Uall));
    PetscCall(VecDestroy(&x));
  }
  for (PetscInt k = 0; k < nmat; k++) PetscCall(MatCreateDense(comm, m->nloc, m->nloc, n, n, NULL, &m->A[k]));
  PetscFunctionReturn(0);
}

static PetscErrorCode ModelDestroy(Model *m)
{
  PetscFunctionBeginUser;
  PetscCall(VecDestroy(&m->U));
  PetscCall(VecDestroy(&m->xall));
  PetscCall(VecDestroy(&m->Uall));
  PetscCall(VecScatterDestroy(&m->xtoall));
  PetscCall(VecScatterDestroy(&m->Utoall));
  for (PetscInt k = 0; k < 4; k++) PetscCall(MatDestroy(&m->A[k]));
  PetscFunctionReturn(0);
}

/* out[0..n) = the whole of x (a position-shaped or U-shaped vector), on every rank */
static PetscErrorCode ModelGather(Model *m, Vec x, PetscBool isU, PetscReal out[])
{
  const PetscScalar *a;
  PetscInt           N;
  Vec                all = isU ? m->Uall : m->xall;

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(x, &N));
  if (m->size > 1) {
    VecScatter sc = isU ? m->Utoall : m->xtoall;

    PetscCall(VecScatterBegin(sc, x, all, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, x, all, INSERT_VALUES, SCATTER_FORWARD));
    x = all;
  }
  PetscCall(VecGetArrayRead(x, &a));
  for (PetscInt i = 0; i < N; i++) out[i] = PetscRealPart(a[i]);
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(0);
}

static PetscErrorCode ModelGetState(Model *m, Vec U, PetscReal q[], PetscReal p[])
{
  PetscReal u[2 * MAXN];

  PetscFunctionBeginUser;
  PetscCall(ModelGather(m, U, PETSC_TRUE, u));
  for (PetscInt i = 0; i < m->n; i++) {
    q[i] = u[m->uq[i]];
    p[i] = u[m->up[i]];
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ModelSetState(Model *m, Vec U, const PetscReal q[], const PetscReal p[])
{
  PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayWrite(U, &u));
  for (PetscInt i = 0; i < m->nloc; i++) {
    u[i]           = q[m->lo + i];
    u[m->nloc + i] = p[m->lo + i];
  }
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscFunctionReturn(0);
}

/* The owned entries of g from a full array */
static PetscErrorCode ModelSetVec(Model *m, Vec g, const PetscReal full[])
{
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayWrite(g, &a));
  for (PetscInt i = 0; i < m->nloc; i++) a[i] = full[m->lo + i];
  PetscCall(VecRestoreArrayWrite(g, &a));
  PetscFunctionReturn(0);
}

/* The owned rows of A from a full n x n row-major array */
static PetscErrorCode ModelSetMat(Model *m, Mat A, const PetscReal full[])
{
  PetscFunctionBeginUser;
  for (PetscInt i = m->lo; i < m->lo + m->nloc; i++)
    for (PetscInt j = 0; j < m->n; j++) PetscCall(MatSetValue(A, i, j, full[i * m->n + j], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------------------------------
   The sweep: a study is a number of tasks, a record of nrec reals per task, a run function and a CSV row format
   ------------------------------------------------------------------------------------------------------------------ */
typedef enum {
  STUDY_CONVERGENCE,
  STUDY_FLIP
} Study;
static const char *const Studies[] = {"convergence", "flip", "Study", "STUDY_", NULL};

typedef struct _Sweep Sweep;
struct _Sweep {
  Study       study;
  Queue       q;
  PetscInt    ntasks, nrec;
  const char *header;
  PetscErrorCode (*run)(Sweep *, Model *, PetscInt, PetscReal[]);
  PetscErrorCode (*format)(Sweep *, const PetscReal[], char[], size_t);
  PetscInt nmat, npos;

  /* convergence */
  PetscReal omega, theta0, k, K, period;
  char     *schemes[8];
  PetscInt  nschemes, meshes[16], nmeshes;

  /* flip */
  PetscInt  grid;
  PetscReal l, g, tmax, dt, tau; /* tmax and dt in units of tau = sqrt(l/g) */
  PetscBool skip;
  PetscBool nostop; /* no stop at the flip (-flip_check_ts) */
};

/* Per run: what the post-step and the monitor need */
typedef struct {
  Sweep    *sw;
  Model    *m;
  PetscReal h, H0, dH, ep, eq;
  PetscReal prev[2];
  PetscInt  flipstep, which;
  PetscReal tflip;
} Run;

/* ---------------------------------------------- convergence: the pendulum ---------------------------------------- */
enum {
  C_SCHEME,
  C_ORDER,
  C_STEPS,
  C_H,
  C_EP,
  C_EQ,
  C_EH,
  C_NEWTON,
  C_REASON,
  C_NREC
};

/* L = 1/2 v^2 - omega^2 (1 - cos x), m = 1 */
static PetscErrorCode PendulumLagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  Run      *run = (Run *)ctx;
  PetscReal w2  = run->sw->omega * run->sw->omega, xx, vv, gx, gv;

  PetscFunctionBeginUser;
  PetscCall(ModelGather(run->m, x, PETSC_FALSE, &xx));
  PetscCall(ModelGather(run->m, v, PETSC_FALSE, &vv));
  *L = 0.5 * vv * vv - w2 * (1 - PetscCosReal(xx));
  gx = -w2 * PetscSinReal(xx);
  gv = vv;
  PetscCall(ModelSetVec(run->m, Lx, &gx));
  PetscCall(ModelSetVec(run->m, Lv, &gv));
  PetscFunctionReturn(0);
}

static PetscErrorCode PendulumHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  Run      *run = (Run *)ctx;
  PetscReal xx, hxx, one = 1;

  PetscFunctionBeginUser;
  PetscCall(ModelGather(run->m, x, PETSC_FALSE, &xx));
  hxx = -run->sw->omega * run->sw->omega * PetscCosReal(xx);
  PetscCall(ModelSetMat(run->m, Lxx, &hxx));
  PetscCall(ModelSetMat(run->m, Lvv, &one));
  PetscFunctionReturn(0);
}

/* sin(q/2) = k sn(K - omega t, k^2), p = -2 omega k cn(K - omega t, k^2) */
static void PendulumExact(Sweep *sw, PetscReal t, PetscReal *q, PetscReal *p)
{
  double sn, cn, dn;

  gsl_sf_elljac_e(sw->K - sw->omega * t, sw->k * sw->k, &sn, &cn, &dn);
  *q = 2 * PetscAsinReal(sw->k * sn);
  *p = -2 * sw->omega * sw->k * cn;
}

static PetscReal PendulumEnergy(Sweep *sw, PetscReal q, PetscReal p)
{
  return 0.5 * p * p + sw->omega * sw->omega * (1 - PetscCosReal(q));
}

static PetscErrorCode PendulumMonitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Run      *run = (Run *)ctx;
  PetscReal q, p, qe, pe;

  PetscFunctionBeginUser;
  PetscCall(ModelGetState(run->m, U, &q, &p));
  PendulumExact(run->sw, step * run->h, &qe, &pe); /* t_j = j h, free of the TS time's round-off */
  run->eq = PetscMax(run->eq, PetscAbsReal(q - qe));
  run->ep = PetscMax(run->ep, PetscAbsReal(p - pe));
  run->dH = PetscMax(run->dH, PetscAbsReal(PendulumEnergy(run->sw, q, p) - run->H0) / run->H0);
  PetscFunctionReturn(0);
}

static PetscErrorCode PostStepServe(TS ts)
{
  Run *run;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &run));
  PetscCall(QueueServe(&run->sw->q, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* task = scheme * nmeshes + mesh */
static PetscErrorCode ConvergenceRun(Sweep *sw, Model *m, PetscInt task, PetscReal rec[])
{
  const PetscInt    is = task / sw->nmeshes, n = sw->meshes[task % sw->nmeshes];
  Run               run;
  PetscReal         q0 = sw->theta0, p0 = 0;
  TS                ts;
  Vec               U;
  PetscInt          order, its;
  TSConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&run, sizeof(run)));
  run.sw = sw;
  run.m  = m;
  run.h  = sw->period / n;
  run.H0 = PendulumEnergy(sw, sw->theta0, 0);
  PetscCall(TSCreate(m->comm, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, sw->schemes[is]));
  PetscCall(TSSimpVISetLagrangian(ts, PendulumLagrangian, &run));
  PetscCall(TSSimpVISetLagrangianHessian(ts, m->A[0], NULL, m->A[1], PendulumHessian, &run));
  PetscCall(VecDuplicate(m->U, &U));
  PetscCall(ModelSetState(m, U, &q0, &p0));
  PetscCall(PhaseSplitLocalHalves(ts, U));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, run.h));
  PetscCall(TSSetMaxSteps(ts, n));
  PetscCall(TSSetMaxTime(ts, sw->period));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetErrorIfStepFails(ts, PETSC_FALSE));
  PetscCall(TSMonitorSet(ts, PendulumMonitor, &run, NULL));
  PetscCall(TSSetPostStep(ts, PostStepServe));
  PetscCall(TSSetApplicationContext(ts, &run));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSSimpVIGetOrder(ts, &order));
  PetscCall(TSGetSNESIterations(ts, &its));
  PetscCall(TSGetConvergedReason(ts, &reason));
  rec[C_SCHEME] = is;
  rec[C_ORDER]  = order;
  rec[C_STEPS]  = n;
  rec[C_H]      = run.h;
  rec[C_EP]     = run.ep;
  rec[C_EQ]     = run.eq;
  rec[C_EH]     = run.dH;
  rec[C_NEWTON] = its;
  rec[C_REASON] = reason;
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

static PetscErrorCode ConvergenceFormat(Sweep *sw, const PetscReal r[], char buf[], size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(buf, len, "%s,%d,%d,%.10e,%.6e,%.6e,%.6e,%d,%s", sw->schemes[(int)r[C_SCHEME]], (int)r[C_ORDER], (int)r[C_STEPS], (double)r[C_H], (double)r[C_EP], (double)r[C_EQ], (double)r[C_EH], (int)r[C_NEWTON], TSConvergedReasons[(int)r[C_REASON]]));
  PetscFunctionReturn(0);
}

/* Least-squares slope of -log(e) against log(steps) over the rows of scheme is with e > floor */
static PetscReal FitOrder(Sweep *sw, const PetscReal *rec, PetscInt is, PetscInt col, PetscReal floor, PetscInt *npts)
{
  PetscReal sx = 0, sy = 0, sxx = 0, sxy = 0;
  PetscInt  n = 0;

  for (PetscInt i = 0; i < sw->nmeshes; i++) {
    const PetscReal *r = rec + (is * sw->nmeshes + i) * sw->nrec;

    if (!(r[col] > floor)) continue;
    sx += PetscLogReal(r[C_STEPS]);
    sy += -PetscLogReal(r[col]);
    sxx += PetscLogReal(r[C_STEPS]) * PetscLogReal(r[C_STEPS]);
    sxy += -PetscLogReal(r[C_STEPS]) * PetscLogReal(r[col]);
    n++;
  }
  *npts = n;
  return n < 2 ? 0 : (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

static PetscErrorCode ConvergenceReport(Sweep *sw, const PetscReal *rec, PetscReal floor)
{
  static const char *const names[]    = {"p", "q", "H"};
  static const PetscInt    cols[]     = {C_EP, C_EQ, C_EH};
  PetscBool                all        = PETSC_TRUE;
  char                     orders[64] = "";

  PetscFunctionBeginUser;
  for (PetscInt is = 0; is < sw->nschemes; is++) {
    const PetscInt order = (PetscInt)rec[is * sw->nmeshes * sw->nrec + C_ORDER];
    PetscBool      ok    = PETSC_TRUE;
    char           tmp[16];

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-9s expected order %" PetscInt_FMT ", fitted:", sw->schemes[is], order));
    for (PetscInt c = 0; c < 3; c++) {
      PetscInt  npts;
      PetscReal fit = FitOrder(sw, rec, is, cols[c], floor, &npts);

      PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %s %.2f (%" PetscInt_FMT " meshes)", names[c], (double)fit, npts));
      if (npts < 2 || PetscAbsReal(fit - order) > 0.3) ok = PETSC_FALSE;
    }
    for (PetscInt i = 0; i < sw->nmeshes; i++)
      if (rec[(is * sw->nmeshes + i) * sw->nrec + C_REASON] <= 0) ok = PETSC_FALSE;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%s: order %" PetscInt_FMT " observed in p, q and H: %s\n", sw->schemes[is], order, ok ? "yes" : "no"));
    all = (PetscBool)(all && ok);
    PetscCall(PetscSNPrintf(tmp, sizeof(tmp), " %" PetscInt_FMT, order));
    PetscCall(PetscStrlcat(orders, tmp, sizeof(orders)));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "orders%s observed: %s\n", orders, all ? "yes" : "no"));
  PetscFunctionReturn(0);
}

/* ------------------------------------------- flip: the double pendulum ------------------------------------------- */
enum {
  F_I,
  F_J,
  F_TH1,
  F_TH2,
  F_STATUS, /* 1 flipped, 0 no flip before tmax, 2 energetically forbidden (not integrated), -1 solver failure */
  F_WHICH,  /* the angle that flipped: 1 or 2 */
  F_STEPS,  /* steps taken (the flip step when flipped) */
  F_TFLIP,  /* flip time in sqrt(l/g), -1 without flip */
  F_DH,     /* max |H - H0| / (m g l) */
  F_NEWTON,
  F_NREC
};

/* m1 = m2 = 1, l1 = l2 = l: M = l^2 [[2, c], [c, 1]], c = cos(th1 - th2); V = -g l (2 cos th1 + cos th2) */
static PetscErrorCode DPMass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec gv, Mat Mxx, void *ctx)
{
  Run      *run = (Run *)ctx;
  PetscReal xx[2], vv[2], l2 = run->sw->l * run->sw->l, c, s;

  PetscFunctionBeginUser;
  PetscCall(ModelGather(run->m, x, PETSC_FALSE, xx));
  PetscCall(ModelGather(run->m, v, PETSC_FALSE, vv));
  c = PetscCosReal(xx[0] - xx[1]);
  s = PetscSinReal(xx[0] - xx[1]);
  {
    const PetscReal mm[4]  = {2 * l2, l2 * c, l2 * c, l2};
    const PetscReal mx[4]  = {-l2 * s * vv[1], l2 * s * vv[1], -l2 * s * vv[0], l2 * s * vv[0]}; /* d(M v)_i / dx_j */
    const PetscReal g[2]   = {-l2 * s * vv[0] * vv[1], l2 * s * vv[0] * vv[1]};                  /* 1/2 v' dM/dx_j v */
    const PetscReal mxx[4] = {-l2 * c * vv[0] * vv[1], l2 * c * vv[0] * vv[1], l2 * c * vv[0] * vv[1], -l2 * c * vv[0] * vv[1]};

    PetscCall(ModelSetMat(run->m, M, mm));
    PetscCall(ModelSetMat(run->m, Mx, mx));
    PetscCall(ModelSetMat(run->m, Mxx, mxx));
    PetscCall(ModelSetVec(run->m, gv, g));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode DPPotential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec grad, void *ctx)
{
  Run      *run = (Run *)ctx;
  PetscReal xx[2], gl = run->sw->g * run->sw->l, g[2];

  PetscFunctionBeginUser;
  PetscCall(ModelGather(run->m, x, PETSC_FALSE, xx));
  *V   = -gl * (2 * PetscCosReal(xx[0]) + PetscCosReal(xx[1]));
  g[0] = 2 * gl * PetscSinReal(xx[0]);
  g[1] = gl * PetscSinReal(xx[1]);
  PetscCall(ModelSetVec(run->m, grad, g));
  PetscFunctionReturn(0);
}

static PetscErrorCode DPPotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Run      *run = (Run *)ctx;
  PetscReal xx[2], gl = run->sw->g * run->sw->l;

  PetscFunctionBeginUser;
  PetscCall(ModelGather(run->m, x, PETSC_FALSE, xx));
  {
    const PetscReal h[4] = {2 * gl * PetscCosReal(xx[0]), 0, 0, gl * PetscCosReal(xx[1])};

    PetscCall(ModelSetMat(run->m, H, h));
  }
  PetscFunctionReturn(0);
}

/* H = 1/2 p' M^{-1} p + V, from the state alone */
static PetscReal DPEnergy(Sweep *sw, const PetscReal q[], const PetscReal p[])
{
  const PetscReal l2 = sw->l * sw->l, c = PetscCosReal(q[0] - q[1]), det = l2 * l2 * (2 - c * c);

  return 0.5 * (l2 * p[0] * p[0] - 2 * l2 * c * p[0] * p[1] + 2 * l2 * p[1] * p[1]) / det - sw->g * sw->l * (2 * PetscCosReal(q[0]) + PetscCosReal(q[1]));
}

/* The double pendulum at one point, for the pointwise doors (the ensemble's and a lone TSSIMPVI's): P = M v and
   G = g - grad V (DPMass(), DPPotential()) and their derivatives; any output may be NULL */
static void FlipPoint(const Sweep *sw, const PetscReal x[], const PetscReal v[], PetscReal *L, PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[])
{
  const PetscReal l2 = sw->l * sw->l, gl = sw->g * sw->l;
  /* each angle's sine and cosine together (one sincos() call each), whichever the caller asks; those of the difference
     from them (a third sincos() is a sixth of the study's time) */
  const PetscReal s0 = PetscSinReal(x[0]), c0 = PetscCosReal(x[0]), s1 = PetscSinReal(x[1]), c1 = PetscCosReal(x[1]);
  const PetscReal c = c0 * c1 + s0 * s1, s = s0 * c1 - c0 * s1;

  if (L) *L = l2 * v[0] * v[0] + 0.5 * l2 * v[1] * v[1] + l2 * c * v[0] * v[1] + gl * (2 * c0 + c1);
  if (P) {
    P[0] = 2 * l2 * v[0] + l2 * c * v[1];
    P[1] = l2 * c * v[0] + l2 * v[1];
  }
  if (G) {
    G[0] = -l2 * s * v[0] * v[1] - 2 * gl * s0;
    G[1] = l2 * s * v[0] * v[1] - gl * s1;
  }
  if (Px) { /* P_x = Mx */
    Px[0] = -l2 * s * v[1];
    Px[1] = l2 * s * v[1];
    Px[2] = -l2 * s * v[0];
    Px[3] = l2 * s * v[0];
  }
  if (Pv) { /* P_v = M */
    Pv[0] = 2 * l2;
    Pv[1] = l2 * c;
    Pv[2] = l2 * c;
    Pv[3] = l2;
  }
  if (Gx) { /* G_x = Mxx - V'' */
    const PetscReal cvv = l2 * c * v[0] * v[1];

    Gx[0] = -cvv - 2 * gl * c0;
    Gx[1] = cvv;
    Gx[2] = cvv;
    Gx[3] = -cvv - gl * c1;
  }
  if (Gv) { /* G_v = Mx' */
    Gv[0] = -l2 * s * v[1];
    Gv[1] = -l2 * s * v[0];
    Gv[2] = l2 * s * v[1];
    Gv[3] = l2 * s * v[0];
  }
}

/* A lone TSSIMPVI run's pointwise mechanics: FlipPoint() at each point, as the ensemble's */
static PetscErrorCode FlipPointwise(TS ts, PetscInt npoints, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  Run *run = (Run *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < npoints; k++) FlipPoint(run->sw, x + 2 * k, v + 2 * k, L ? L + k : NULL, P ? P + 2 * k : NULL, G ? G + 2 * k : NULL, Px ? Px + 4 * k : NULL, Pv ? Pv + 4 * k : NULL, Gx ? Gx + 4 * k : NULL, Gv ? Gv + 4 * k : NULL);
  PetscFunctionReturn(0);
}

/* At rest, theta2 can reach pi only if 2 cos th1 + cos th2 <= 1 and theta1 only if it is <= -1: energy forbids any flip */
static PetscBool FlipForbidden(Sweep *sw, PetscInt task)
{
  const PetscInt  N   = sw->grid;
  const PetscReal th1 = -PETSC_PI + (task % N + 0.5) * 2 * PETSC_PI / N, th2 = -PETSC_PI + (task / N + 0.5) * 2 * PETSC_PI / N;

  return (PetscBool)(sw->skip && 2 * PetscCosReal(th1) + PetscCosReal(th2) > 1);
}

/* After each step: the energy error, the flip test (an angle beyond +-pi; its time by linear interpolation between the
   steps, in sqrt(l/g)), then the queue */
static PetscErrorCode FlipPostStep(TS ts)
{
  Run      *run;
  PetscInt  step;
  Vec       U;
  PetscReal q[2], p[2];

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &run));
  PetscCall(TSGetStepNumber(ts, &step));
  PetscCall(TSGetSolution(ts, &U));
  PetscCall(ModelGetState(run->m, U, q, p));
  run->dH = PetscMax(run->dH, PetscAbsReal(DPEnergy(run->sw, q, p) - run->H0) / (run->sw->g * run->sw->l));
  if (!run->sw->nostop) {
    PetscReal frac = 2;

    for (PetscInt i = 0; i < 2; i++) {
      const PetscReal a = PetscAbsReal(q[i]), a0 = PetscAbsReal(run->prev[i]);

      if (a > PETSC_PI) {
        const PetscReal f = (PETSC_PI - a0) / (a - a0);

        if (f < frac) {
          frac       = f;
          run->which = i + 1;
        }
      }
      run->prev[i] = q[i];
    }
    if (run->which) {
      run->flipstep = step;
      run->tflip    = (step - 1 + frac) * run->sw->dt;
      PetscCall(TSSetConvergedReason(ts, TS_CONVERGED_USER));
    }
  }
  PetscCall(QueueServe(&run->sw->q, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* A TSSIMPVI run of a task: the mechanics through the mass door (TSSimpVISetMass(), TSSimpVISetPotential()) or, with
   pointwise, through TSSimpVISetPointwiseLagrangian() as the ensemble's members (FlipPoint()); with newton by Newton
   (-ts_simpvi_lag_jacobian false, what the ensemble does), else simplified Newton unless the options say otherwise */
static PetscErrorCode FlipSetUp(Sweep *sw, Model *m, Run *run, PetscInt task, PetscBool pointwise, PetscBool newton, TS *ts, Vec *U, PetscInt *nmax)
{
  char      given[64] = "";
  PetscBool had       = PETSC_FALSE;

  const PetscInt  N = sw->grid, i = task % N, j = task / N;
  const PetscReal q[2] = {-PETSC_PI + (i + 0.5) * 2 * PETSC_PI / N, -PETSC_PI + (j + 0.5) * 2 * PETSC_PI / N}, p[2] = {0, 0};

  PetscFunctionBeginUser;
  *nmax = (PetscInt)PetscCeilReal(sw->tmax / sw->dt - 1e-9);
  PetscCall(PetscMemzero(run, sizeof(*run)));
  run->sw      = sw;
  run->m       = m;
  run->h       = sw->dt * sw->tau;
  run->H0      = DPEnergy(sw, q, p);
  run->prev[0] = q[0];
  run->prev[1] = q[1];
  PetscCall(TSCreate(m->comm, ts));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(*ts, TSSIMPVISIMPSON));
  if (pointwise) PetscCall(TSSimpVISetPointwiseLagrangian(*ts, FlipPointwise, run));
  else {
    PetscCall(TSSimpVISetMass(*ts, m->A[0], m->A[1], m->A[2], DPMass, run));
    PetscCall(TSSimpVISetPotential(*ts, m->A[3], DPPotential, DPPotentialHessian, run));
  }
  PetscCall(VecDuplicate(m->U, U));
  PetscCall(ModelSetState(m, *U, q, p));
  PetscCall(PhaseSplitLocalHalves(*ts, *U));
  PetscCall(TSSetSolution(*ts, *U));
  PetscCall(TSSetTimeStep(*ts, run->h));
  PetscCall(TSSetMaxSteps(*ts, *nmax));
  PetscCall(TSSetMaxTime(*ts, (*nmax + 1) * run->h));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_STEPOVER));
  PetscCall(TSSetErrorIfStepFails(*ts, PETSC_FALSE));
  PetscCall(TSSetPostStep(*ts, FlipPostStep));
  PetscCall(TSSetApplicationContext(*ts, run));
  if (newton) { /* whatever the command line says, restored after */
    PetscCall(PetscOptionsGetString(NULL, NULL, "-ts_simpvi_lag_jacobian", given, sizeof(given), &had));
    PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_lag_jacobian", "false"));
  }
  PetscCall(TSSetFromOptions(*ts));
  if (newton && had) PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_lag_jacobian", given[0] ? given : NULL));
  else if (newton) PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_lag_jacobian"));
  PetscFunctionReturn(0);
}

/* task = j * grid + i: theta1 = -pi + (i + 1/2) 2 pi / grid, theta2 likewise with j (cell centres); a TSSIMPVI run as
   FlipSetUp() makes it */
static PetscErrorCode FlipRunWith(Sweep *sw, Model *m, PetscInt task, PetscBool pointwise, PetscBool newton, PetscReal rec[])
{
  const PetscInt  N   = sw->grid;
  const PetscReal th1 = -PETSC_PI + (task % N + 0.5) * 2 * PETSC_PI / N, th2 = -PETSC_PI + (task / N + 0.5) * 2 * PETSC_PI / N;
  Run             run;
  TS              ts;
  Vec             U;
  PetscInt        nmax, steps, its;

  PetscFunctionBeginUser;
  PetscCall(PetscArrayzero(rec, sw->nrec));
  rec[F_I]     = task % N;
  rec[F_J]     = task / N;
  rec[F_TH1]   = th1;
  rec[F_TH2]   = th2;
  rec[F_TFLIP] = -1;
  if (FlipForbidden(sw, task)) {
    rec[F_STATUS] = 2;
    PetscFunctionReturn(0);
  }
  PetscCall(FlipSetUp(sw, m, &run, task, pointwise, newton, &ts, &U, &nmax));
  PetscCall(TSSolve(ts, U));
  {
    TSConvergedReason reason;

    PetscCall(TSGetConvergedReason(ts, &reason));
    PetscCall(TSGetStepNumber(ts, &steps));
    PetscCall(TSGetSNESIterations(ts, &its));
    rec[F_STATUS] = reason < 0 ? -1 : run.which ? 1 : 0;
  }
  rec[F_WHICH]  = run.which;
  rec[F_STEPS]  = steps;
  rec[F_TFLIP]  = run.which ? run.tflip : -1;
  rec[F_DH]     = run.dH;
  rec[F_NEWTON] = its;
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

/* One TS per task (-flip_ensemble 0): the mass door with the options' Newton */
static PetscErrorCode FlipRun(Sweep *sw, Model *m, PetscInt task, PetscReal rec[])
{
  PetscFunctionBeginUser;
  PetscCall(FlipRunWith(sw, m, task, PETSC_FALSE, PETSC_FALSE, rec));
  PetscFunctionReturn(0);
}

static PetscErrorCode FlipFormat(Sweep *sw, const PetscReal r[], char buf[], size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(buf, len, "%d,%d,%.10f,%.10f,%d,%d,%d,%.6f,%.3e,%d", (int)r[F_I], (int)r[F_J], (double)r[F_TH1], (double)r[F_TH2], (int)r[F_STATUS], (int)r[F_WHICH], (int)r[F_STEPS], (double)r[F_TFLIP], (double)r[F_DH], (int)r[F_NEWTON]));
  PetscFunctionReturn(0);
}

static PetscErrorCode FlipReport(Sweep *sw, const PetscReal *rec, PetscReal tol)
{
  PetscInt   counts[4] = {0, 0, 0, 0}, decades[5] = {0, 0, 0, 0, 0}, which[3] = {0, 0, 0};
  PetscInt64 sum   = 0;
  PetscReal  dHmax = 0;

  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < sw->ntasks; t++) {
    const PetscReal *r  = rec + t * sw->nrec;
    const PetscInt   st = (PetscInt)r[F_STATUS];

    counts[st < 0 ? 3 : st]++;
    if (st == 1) {
      PetscInt d = 0;

      while (d < 4 && r[F_TFLIP] >= PetscPowReal(10, d + 1)) d++;
      decades[d]++;
      which[(PetscInt)r[F_WHICH]]++;
      sum = (sum + (PetscInt64)(t + 1) * (PetscInt64)r[F_STEPS]) % 1000000007;
    }
    if (st == 0 || st == 1) dHmax = PetscMax(dHmax, r[F_DH]);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rows %" PetscInt_FMT "\n", sw->ntasks));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "flipped %" PetscInt_FMT " (theta1 first %" PetscInt_FMT ", theta2 first %" PetscInt_FMT "), no flip before tmax %" PetscInt_FMT ", energetically forbidden %" PetscInt_FMT ", solver failures %" PetscInt_FMT "\n", counts[1], which[1], which[2], counts[0], counts[2], counts[3]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "flip times in sqrt(l/g): below 10 %" PetscInt_FMT ", 10-100 %" PetscInt_FMT ", 100-1000 %" PetscInt_FMT ", 1000-10000 %" PetscInt_FMT ", above %" PetscInt_FMT "\n", decades[0], decades[1], decades[2], decades[3], decades[4]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "checksum of flip steps %" PetscInt64_FMT "\n", sum));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "max energy error %.2e m g l; below %g m g l in every run: %s\n", (double)dHmax, (double)tol, dHmax < tol ? "yes" : "no"));
  PetscFunctionReturn(0);
}

/* ||J - Jfd||_F / ||J||_F of the step system of a task's first step, at a perturbed point (serial); through the mass
   door or the pointwise one (the ensemble's mechanics) */
static PetscErrorCode FlipCheckJacobian(Sweep *sw, Model *m, PetscInt task, PetscBool pointwise, PetscReal *relerr)
{
  Run      run;
  TS       ts;
  Vec      U, Y, Y0 = NULL;
  SNES     snes;
  Mat      J;
  PetscInt nmax;

  PetscFunctionBeginUser;
  PetscCall(FlipSetUp(sw, m, &run, task, pointwise, PETSC_FALSE, &ts, &U, &nmax));
  PetscCall(TSSetMaxSteps(ts, 1));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetSolution(snes, &Y));
  if (!Y) { /* -ts_simpvi_nonlinear_solver kinsol: the SNES solved nothing; check at the step's start (all nodes at q0), perturbed alike */
    PetscCall(SNESGetJacobian(snes, &J, NULL, NULL, NULL));
    PetscCall(MatCreateVecs(J, &Y0, NULL));
    PetscCall(VecZeroEntries(Y0));
    Y = Y0;
  }
  PetscCall(StepJacobianError(snes, Y, 0.3, relerr));
  PetscCall(VecDestroy(&Y0));
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

/* --------------------------------- flip: the double pendulums as one SimpVIEnsemble --------------------------------
   The integrated tasks (all but the energetically forbidden ones) are the members of one SimpVIEnsemble (simpvi.h,
   docs/ensemble.md) on all processes, dealt out on request: member k is task task[k], its mechanics FlipPoint() at
   all points of a batch, its post-step FlipPostStep()'s test (the stop function) and its row's values the output
   function's. A member takes the steps a lone TSSIMPVI run of its task by Newton through TSSimpVISetPointwiseLagrangian()
   with the same FlipPoint() takes, bit for bit, so the CSV does not depend on the number of processes;
   -sweep_check_serial reruns every task so and compares the rows. */
typedef struct {
  Sweep         *sw;
  PetscInt       nmembers, *task;        /* member k is task task[k] */
  PetscReal     *H0, *dH, *prev, *tflip; /* per member, kept by the process that runs it */
  PetscInt      *which;                  /* per member: the angle that flipped, 0 before */
  PetscBool      nostop;                 /* no stop at the flip (-flip_check_ts) */
  PetscInt       ndone, every;           /* progress: members this process finished, a line every so many */
  PetscLogDouble t0;
} FlipStudy;

/* Member k: task task[k] at rest at its grid point; its parameters are its initial angles */
static PetscErrorCode FlipMember(SimpVIEnsemble ens, PetscInt k, PetscInt nparam, PetscReal param[], PetscInt n, PetscReal q[], PetscReal p[], void *ctx)
{
  FlipStudy     *fs = (FlipStudy *)ctx;
  const PetscInt N = fs->sw->grid, task = fs->task[k];

  PetscFunctionBeginUser;
  q[0] = param[0] = -PETSC_PI + (task % N + 0.5) * 2 * PETSC_PI / N;
  q[1] = param[1] = -PETSC_PI + (task / N + 0.5) * 2 * PETSC_PI / N;
  p[0] = p[1]         = 0;
  fs->H0[k]           = DPEnergy(fs->sw, q, p);
  fs->dH[k]           = 0;
  fs->prev[2 * k]     = q[0];
  fs->prev[2 * k + 1] = q[1];
  fs->which[k]        = 0;
  fs->tflip[k]        = -1;
  PetscFunctionReturn(0);
}

/* The ensemble's mechanics: FlipPoint() at every point of every member of a batch */
static PetscErrorCode FlipEnsembleMechanics(SimpVIEnsemble ens, PetscInt npoints, PetscInt n, const PetscInt member[], PetscInt nparam, const PetscReal param[], const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  FlipStudy *fs = (FlipStudy *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < npoints; k++) FlipPoint(fs->sw, x + 2 * k, v + 2 * k, L ? L + k : NULL, P ? P + 2 * k : NULL, G ? G + 2 * k : NULL, Px ? Px + 4 * k : NULL, Pv ? Pv + 4 * k : NULL, Gx ? Gx + 4 * k : NULL, Gv ? Gv + 4 * k : NULL);
  PetscFunctionReturn(0);
}

/* FlipPostStep() for a member: the energy error, the flip (an angle beyond +-pi, its time interpolated) ends its run */
static PetscErrorCode FlipStop(SimpVIEnsemble ens, PetscInt k, PetscInt nparam, const PetscReal param[], PetscInt step, PetscReal t, PetscInt n, const PetscReal q[], const PetscReal p[], PetscBool *stop, void *ctx)
{
  FlipStudy *fs   = (FlipStudy *)ctx;
  Sweep     *sw   = fs->sw;
  PetscReal *prev = fs->prev + 2 * k, frac = 2;

  PetscFunctionBeginUser;
  fs->dH[k] = PetscMax(fs->dH[k], PetscAbsReal(DPEnergy(sw, q, p) - fs->H0[k]) / (sw->g * sw->l));
  if (fs->nostop) PetscFunctionReturn(0);
  for (PetscInt i = 0; i < 2; i++) {
    const PetscReal a = PetscAbsReal(q[i]), a0 = PetscAbsReal(prev[i]);

    if (a > PETSC_PI) {
      const PetscReal f = (PETSC_PI - a0) / (a - a0);

      if (f < frac) {
        frac         = f;
        fs->which[k] = i + 1;
      }
    }
    prev[i] = q[i];
  }
  if (fs->which[k]) {
    fs->tflip[k] = (step - 1 + frac) * sw->dt;
    *stop        = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

/* A member's values of its CSV row (the rest comes from its steps, Newton iterations and how it ended) */
static PetscErrorCode FlipOutput(SimpVIEnsemble ens, PetscInt k, PetscInt nparam, const PetscReal param[], SimpVIEnsembleMemberReason reason, PetscInt step, PetscReal t, PetscInt n, const PetscReal q[], const PetscReal p[], PetscInt nout, PetscReal out[], void *ctx)
{
  FlipStudy *fs = (FlipStudy *)ctx;

  PetscFunctionBeginUser;
  out[0] = fs->which[k];
  out[1] = fs->which[k] ? fs->tflip[k] : -1;
  out[2] = fs->dH[k];
  fs->ndone++;
  if (fs->every && fs->ndone % fs->every == 0) {
    PetscLogDouble now;

    PetscCall(PetscTime(&now));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "sweep: rank 0 has finished %" PetscInt_FMT " of the %" PetscInt_FMT " members after %.0f s\n", fs->ndone, fs->nmembers, now - fs->t0));
  }
  PetscFunctionReturn(0);
}

/* The flip study as one SimpVIEnsemble on comm: rows into rec (ntasks x nrec, if not NULL; the energetically forbidden
   tasks too, not integrated). maxsteps < 0: up to tmax with the stop at the flip; else maxsteps steps without it, the
   end states (q, p) into qend (4 per task). With view (the same on every process), the ensemble is viewed on stderr:
   how the members ended and how busy each process was. */
static PetscErrorCode FlipStudyRun(Sweep *sw, MPI_Comm comm, PetscInt maxsteps, PetscBool view, PetscReal *qend, PetscReal *rec)
{
  FlipStudy                         fs;
  SimpVIEnsemble                    ens;
  TS                                ts;
  PetscMPIInt                       rank, size;
  PetscInt                          nmax = (PetscInt)PetscCeilReal(sw->tmax / sw->dt - 1e-9), nout;
  const PetscReal                   h    = sw->dt * sw->tau, *out;
  const PetscInt                   *steps, *its;
  const SimpVIEnsembleMemberReason *reason;
  const char *const                 names[] = {"which", "t_flip", "energy_err"};

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMemzero(&fs, sizeof(fs)));
  fs.sw     = sw;
  fs.nostop = (PetscBool)(maxsteps >= 0);
  PetscCall(PetscMalloc1(sw->ntasks, &fs.task));
  for (PetscInt t = 0; t < sw->ntasks; t++)
    if (!FlipForbidden(sw, t)) fs.task[fs.nmembers++] = t;
  PetscCall(PetscMalloc5(fs.nmembers, &fs.H0, fs.nmembers, &fs.dH, 2 * fs.nmembers, &fs.prev, fs.nmembers, &fs.tflip, fs.nmembers, &fs.which));
  if (view && rank == 0) fs.every = PetscMax(1, fs.nmembers / (10 * size));
  PetscCall(PetscTime(&fs.t0));

  /* the scheme and its steps: FlipSetUp()'s, a TSSIMPVI with no mechanics, simpson unless -ts_simpvi_type says otherwise */
  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, TSSIMPVISIMPSON));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, maxsteps >= 0 ? maxsteps : nmax));
  PetscCall(TSSetMaxTime(ts, (nmax + 1) * h));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_STEPOVER));
  PetscCall(TSSetFromOptions(ts));

  PetscCall(SimpVIEnsembleCreate(comm, &ens));
  PetscCall(SimpVIEnsembleSetTS(ens, ts));
  PetscCall(SimpVIEnsembleSetSize(ens, fs.nmembers));
  PetscCall(SimpVIEnsembleSetMemberFunction(ens, 2, 2, FlipMember, &fs));
  PetscCall(SimpVIEnsembleSetPointwiseLagrangian(ens, FlipEnsembleMechanics, &fs));
  PetscCall(SimpVIEnsembleSetStopFunction(ens, FlipStop, &fs));
  if (!fs.nostop) PetscCall(SimpVIEnsembleSetOutputFunction(ens, 3, names, FlipOutput, &fs)); /* else the end states */
  PetscCall(SimpVIEnsembleSetFromOptions(ens));
  PetscCall(SimpVIEnsembleSolve(ens));
  if (view) {
    PetscViewer viewer;

    PetscCall(PetscViewerASCIIGetStderr(comm, &viewer));
    PetscCall(PetscViewerPushFormat(viewer, PETSC_VIEWER_ASCII_INFO_DETAIL));
    PetscCall(SimpVIEnsembleView(ens, viewer));
    PetscCall(PetscViewerPopFormat(viewer));
  }

  /* every process has every member's results, in member order */
  PetscCall(SimpVIEnsembleGetResults(ens, &nout, &out));
  PetscCall(SimpVIEnsembleGetMemberInfo(ens, &reason, &steps, &its, NULL));
  if (rec) {
    const PetscInt N = sw->grid;

    PetscCall(PetscArrayzero(rec, sw->ntasks * sw->nrec));
    for (PetscInt t = 0; t < sw->ntasks; t++) { /* the forbidden ones; the others are overwritten below */
      PetscReal *r = rec + t * sw->nrec;

      r[F_I]      = t % N;
      r[F_J]      = t / N;
      r[F_TH1]    = -PETSC_PI + (t % N + 0.5) * 2 * PETSC_PI / N;
      r[F_TH2]    = -PETSC_PI + (t / N + 0.5) * 2 * PETSC_PI / N;
      r[F_STATUS] = 2;
      r[F_TFLIP]  = -1;
    }
    for (PetscInt k = 0; k < fs.nmembers && !fs.nostop; k++) {
      const PetscReal *o = out + k * nout;
      PetscReal       *r = rec + fs.task[k] * sw->nrec;

      r[F_STATUS] = reason[k] == SIMPVI_ENSEMBLE_DIVERGED_NONLINEAR_SOLVE ? -1 : o[0] ? 1 : 0;
      r[F_WHICH]  = o[0];
      r[F_STEPS]  = steps[k];
      r[F_TFLIP]  = o[1];
      r[F_DH]     = o[2];
      r[F_NEWTON] = its[k];
    }
    for (PetscInt k = 0; k < fs.nmembers && fs.nostop; k++) rec[fs.task[k] * sw->nrec + F_NEWTON] = its[k];
  }
  for (PetscInt k = 0; k < fs.nmembers && qend; k++) PetscCall(PetscArraycpy(qend + 4 * fs.task[k], out + k * nout, 4));
  PetscCall(SimpVIEnsembleDestroy(&ens));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFree5(fs.H0, fs.dH, fs.prev, fs.tflip, fs.which));
  PetscCall(PetscFree(fs.task));
  PetscFunctionReturn(0);
}

/* The ensemble against TSSIMPVI runs of each member alone through the mass door (TSSimpVISetMass(), by Newton): every
   integrated task, nsteps steps without the stop at the flip; the largest difference of the end states (other
   mechanics code, so not bitwise) and the number of tasks with the same Newton iterations */
static PetscErrorCode FlipCheckTS(Sweep *sw, PetscInt nsteps, PetscReal *maxdiff, PetscInt *sameits, PetscInt *nrun)
{
  PetscReal *rec, *qend;
  Model      self;

  PetscFunctionBeginUser;
  *maxdiff = 0;
  *sameits = *nrun = 0;
  PetscCall(PetscMalloc2(sw->ntasks * sw->nrec, &rec, 4 * sw->ntasks, &qend));
  PetscCall(FlipStudyRun(sw, PETSC_COMM_SELF, nsteps, PETSC_FALSE, qend, rec));
  PetscCall(ModelCreate(PETSC_COMM_SELF, sw->npos, sw->nmat, &self));
  sw->nostop = PETSC_TRUE;
  for (PetscInt t = 0; t < sw->ntasks; t++) {
    Run       run;
    TS        ts;
    Vec       U;
    PetscInt  nmax, its;
    PetscReal qq[2], pp[2];

    if (FlipForbidden(sw, t)) continue;
    PetscCall(FlipSetUp(sw, &self, &run, t, PETSC_FALSE, PETSC_TRUE, &ts, &U, &nmax));
    PetscCall(TSSetMaxSteps(ts, nsteps));
    PetscCall(TSSolve(ts, U));
    PetscCall(TSGetSNESIterations(ts, &its));
    PetscCall(ModelGetState(&self, U, qq, pp));
    for (PetscInt i = 0; i < 2; i++) {
      *maxdiff = PetscMax(*maxdiff, PetscAbsReal(qq[i] - qend[4 * t + i]));
      *maxdiff = PetscMax(*maxdiff, PetscAbsReal(pp[i] - qend[4 * t + 2 + i]));
    }
    if (its == (PetscInt)rec[t * sw->nrec + F_NEWTON]) (*sameits)++;
    (*nrun)++;
    PetscCall(VecDestroy(&U));
    PetscCall(TSDestroy(&ts));
  }
  sw->nostop = PETSC_FALSE;
  PetscCall(ModelDestroy(&self));
  PetscCall(PetscFree2(rec, qend));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------ driver --------------------------------------------------- */
/* CPU time of this process (user + system), for the load-balance lines */
static PetscLogDouble CPUTime(void)
{
  struct rusage u;

  if (getrusage(RUSAGE_SELF, &u)) return 0;
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

static PetscErrorCode WriteCSV(Sweep *sw, const char file[], const PetscReal *rec)
{
  FILE *fp;
  char  row[512];

  PetscFunctionBeginUser;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, file, "w", &fp));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "task,%s\n", sw->header));
  for (PetscInt t = 0; t < sw->ntasks; t++) {
    PetscCall(sw->format(sw, rec + t * sw->nrec, row, sizeof(row)));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%" PetscInt_FMT ",%s\n", t, row));
  }
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Sweep          sw;
  Queue         *q = &sw.q;
  Model          model;
  PetscMPIInt    k  = 1;
  PetscInt       kk = 1, only = -1, task, prev = -1, checkts = 0;
  PetscReal     *mine, floor = 1e-12, etol  = 2e-2;
  PetscBool      flg, progress, checkserial = PETSC_FALSE, checkjac = PETSC_FALSE, dynamic = PETSC_TRUE, ensemble = PETSC_TRUE;
  char           csv[PETSC_MAX_PATH_LEN] = "";
  PetscLogDouble t1, t2, c0, c1;
  const char    *schedules[] = {"static", "dynamic"};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscMemzero(&sw, sizeof(sw)));
  sw.study    = STUDY_CONVERGENCE;
  sw.omega    = 2 * PETSC_PI;
  sw.theta0   = PETSC_PI / 2;
  sw.grid     = 32;
  sw.l        = 1;
  sw.g        = 9.81;
  sw.tmax     = 1000;
  sw.dt       = 0.1;
  sw.skip     = PETSC_TRUE;
  q->progress = PETSC_TRUE;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Parameter sweep options", NULL);
  PetscCall(PetscOptionsEnum("-study", "Study", NULL, Studies, (PetscEnum)sw.study, (PetscEnum *)&sw.study, NULL));
  PetscCall(PetscOptionsString("-sweep_csv", "CSV file written by rank 0", NULL, csv, csv, sizeof(csv), NULL));
  PetscCall(PetscOptionsInt("-sweep_ranks_per_run", "Ranks of each run communicator", NULL, kk, &kk, NULL));
  {
    PetscInt sched = 1;

    PetscCall(PetscOptionsEList("-sweep_schedule", "Task distribution: a work queue on rank 0 or a static cyclic split", NULL, schedules, 2, schedules[1], &sched, NULL));
    dynamic = (PetscBool)(sched == 1);
  }
  PetscCall(PetscOptionsBool("-sweep_progress", "Progress lines on stderr", NULL, q->progress, &q->progress, NULL));
  PetscCall(PetscOptionsBool("-sweep_check_serial", "Rank 0 reruns every task alone and compares the CSV rows", NULL, checkserial, &checkserial, NULL));
  PetscCall(PetscOptionsInt("-sweep_only", "Run only this task", NULL, only, &only, NULL));
  sw.nschemes = 8;
  PetscCall(PetscOptionsStringArray("-schemes", "convergence: TSSIMPVI schemes", NULL, sw.schemes, &sw.nschemes, &flg));
  if (!flg) {
    sw.nschemes = 3;
    PetscCall(PetscStrallocpy("midpoint", &sw.schemes[0]));
    PetscCall(PetscStrallocpy("simpson", &sw.schemes[1]));
    PetscCall(PetscStrallocpy("lobatto", &sw.schemes[2]));
  }
  sw.nmeshes = 16;
  PetscCall(PetscOptionsIntArray("-meshes", "convergence: steps per period", NULL, sw.meshes, &sw.nmeshes, &flg));
  if (!flg) {
    sw.nmeshes = 5;
    for (PetscInt i = 0; i < 5; i++) sw.meshes[i] = 25 << i;
  }
  PetscCall(PetscOptionsReal("-order_floor", "convergence: errors below this are round-off and left out of the fits", NULL, floor, &floor, NULL));
  PetscCall(PetscOptionsInt("-grid", "flip: grid points per angle", NULL, sw.grid, &sw.grid, NULL));
  PetscCall(PetscOptionsReal("-flip_tmax", "flip: final time in sqrt(l/g)", NULL, sw.tmax, &sw.tmax, NULL));
  PetscCall(PetscOptionsReal("-flip_dt", "flip: time step in sqrt(l/g)", NULL, sw.dt, &sw.dt, NULL));
  PetscCall(PetscOptionsReal("-flip_l", "flip: pendulum length l1 = l2 (m)", NULL, sw.l, &sw.l, NULL));
  PetscCall(PetscOptionsReal("-flip_g", "flip: gravity (m/s^2)", NULL, sw.g, &sw.g, NULL));
  PetscCall(PetscOptionsBool("-flip_skip_forbidden", "flip: do not integrate where energy forbids a flip", NULL, sw.skip, &sw.skip, NULL));
  PetscCall(PetscOptionsReal("-flip_energy_tol", "flip: largest max |H - H0| / (m g l) accepted", NULL, etol, &etol, NULL));
  PetscCall(PetscOptionsBool("-flip_check_jacobian", "flip: compare the analytic step Jacobian with finite differences", NULL, checkjac, &checkjac, NULL));
  PetscCall(PetscOptionsBool("-flip_ensemble", "flip: the tasks as one SimpVIEnsemble on all processes, else one TS per task", NULL, ensemble, &ensemble, NULL));
  PetscCall(PetscOptionsInt("-flip_check_ts", "flip: compare the ensemble with a TSSIMPVI run of each task alone over this many steps", NULL, checkts, &checkts, NULL));
  PetscOptionsEnd();
  PetscCheck(kk >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-sweep_ranks_per_run must be positive");
  k = (PetscMPIInt)kk;

  if (sw.study == STUDY_CONVERGENCE) {
    sw.k      = PetscSinReal(sw.theta0 / 2);
    sw.K      = gsl_sf_ellint_Kcomp(sw.k, GSL_PREC_DOUBLE);
    sw.period = 4 * sw.K / sw.omega;
    sw.ntasks = sw.nschemes * sw.nmeshes;
    sw.nrec   = C_NREC;
    sw.npos   = 1;
    sw.nmat   = 2;
    sw.header = "scheme,order,steps_per_period,h,err_p,err_q,err_H_rel,newton_its,reason";
    sw.run    = ConvergenceRun;
    sw.format = ConvergenceFormat;
  } else {
    PetscCheck(sw.grid >= 1 && sw.dt > 0 && sw.tmax > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "flip needs -grid >= 1, -flip_dt > 0 and -flip_tmax > 0");
    sw.tau    = PetscSqrtReal(sw.l / sw.g);
    sw.ntasks = sw.grid * sw.grid;
    sw.nrec   = F_NREC;
    sw.npos   = 2;
    sw.nmat   = 4;
    sw.header = "i,j,theta1,theta2,status,which,steps,t_flip,energy_err,newton_its";
    sw.run    = FlipRun;
    sw.format = FlipFormat;
  }

  /* the run communicators */
  PetscCallMPI(MPI_Comm_dup(PETSC_COMM_WORLD, &q->world));
  PetscCallMPI(MPI_Comm_rank(q->world, &q->rank));
  PetscCallMPI(MPI_Comm_size(q->world, &q->size));
  q->group   = q->rank / k;
  q->ngroups = (q->size + k - 1) / k;
  PetscCallMPI(MPI_Comm_split(q->world, q->group, q->rank, &q->sub));
  PetscCallMPI(MPI_Comm_rank(q->sub, &q->subrank));
  PetscCallMPI(MPI_Comm_size(q->sub, &q->subsize));
  q->dynamic = dynamic;
  q->ntasks  = sw.ntasks;
  q->nrec    = sw.nrec;
  q->active  = PETSC_TRUE;
  progress   = q->progress; /* the same on every process */
  if (q->rank != 0) q->progress = PETSC_FALSE;
  PetscCall(PetscMalloc1(sw.nrec + 1, &q->buf));
  PetscCall(PetscCalloc1(q->rank == 0 ? sw.ntasks * sw.nrec : 1, &q->rec));
  PetscCall(PetscMalloc1(sw.nrec, &mine));
  PetscCall(ModelCreate(q->sub, sw.npos, sw.nmat, &model));

  if (only >= 0) { /* one task on the first run communicator, printed: for -snes_test_jacobian and friends */
    char row[512];

    PetscCheck(only < sw.ntasks, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-sweep_only %" PetscInt_FMT " but there are %" PetscInt_FMT " tasks", only, sw.ntasks);
    q->active = PETSC_FALSE;
    if (q->group == 0) {
      PetscCall(sw.run(&sw, &model, only, mine));
      PetscCall(sw.format(&sw, mine, row, sizeof(row)));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "task,%s\n%" PetscInt_FMT ",%s\n", sw.header, only, row));
    }
    goto finalize;
  }

  ensemble = (PetscBool)(ensemble && sw.study == STUDY_FLIP && k == 1);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "study %s: %" PetscInt_FMT " runs\n", Studies[sw.study], sw.ntasks));
  if (q->progress && ensemble) PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "sweep: %" PetscInt_FMT " runs on %d rank(s) as one SimpVIEnsemble (members dealt out on request)\n", sw.ntasks, q->size));
  else if (q->progress) PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "sweep: %" PetscInt_FMT " runs on %d group(s) of %d rank(s), %s schedule\n", sw.ntasks, q->ngroups, k, q->dynamic ? "dynamic" : "static"));
  if (sw.study == STUDY_FLIP) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "grid %" PetscInt_FMT " x %" PetscInt_FMT ", tmax %g sqrt(l/g), dt %g sqrt(l/g)\n", sw.grid, sw.grid, (double)sw.tmax, (double)sw.dt));
  PetscCall(PetscTime(&q->t0));
  c0 = CPUTime();
  if (ensemble) { /* one SimpVIEnsemble on all processes; every process gets all rows, rank 0 keeps them */
    PetscCall(FlipStudyRun(&sw, PETSC_COMM_WORLD, -1, progress, NULL, q->rank == 0 ? q->rec : NULL));
    task = -1;
  } else PetscCall(QueueNext(q, -1, NULL, &task));
  while (task >= 0) {
    PetscCall(PetscTime(&t1));
    PetscCall(sw.run(&sw, &model, task, mine));
    PetscCall(PetscTime(&t2));
    q->busy += t2 - t1;
    q->ran++;
    prev = task;
    PetscCall(QueueNext(q, prev, mine, &task));
  }
  if (!ensemble) PetscCall(QueueFinish(q));
  q->active = PETSC_FALSE;
  PetscCall(PetscTime(&t2));
  c1 = CPUTime();
  { /* load balance, on stderr: it depends on the machine; busy is wall time in the tasks, cpu the processes' CPU time */
    PetscReal   mystat[3] = {q->subrank == 0 ? q->busy : 0, q->subrank == 0 ? (PetscReal)q->ran : 0, c1 - c0}, *all = NULL;
    PetscMPIInt size = q->size;

    if (q->rank == 0) PetscCall(PetscMalloc1(3 * size, &all));
    PetscCallMPI(MPI_Gather(mystat, 3, MPIU_REAL, all, 3, MPIU_REAL, 0, q->world));
    if (q->rank == 0 && q->progress && ensemble) { /* the ensemble viewed itself: its processes' busy shares */
      PetscReal cpu = 0;

      for (PetscMPIInt r = 0; r < size; r++) cpu += all[3 * r + 2];
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "sweep: wall %.1f s, cpu %.1f s over all ranks\n", t2 - q->t0, (double)cpu));
    } else if (q->rank == 0 && q->progress) {
      PetscReal maxbusy = 0, sumbusy = 0, cpu = 0;

      for (PetscMPIInt r = 0; r < size; r += k) {
        PetscReal gcpu = 0;

        for (PetscMPIInt i = r; i < PetscMin(r + k, size); i++) gcpu += all[3 * i + 2];
        PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "sweep: group %d ran %.0f tasks, busy %.1f s, cpu %.1f s\n", r / k, (double)all[3 * r + 1], (double)all[3 * r], (double)gcpu));
        maxbusy = PetscMax(maxbusy, all[3 * r]);
        sumbusy += all[3 * r];
        cpu += gcpu;
      }
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "sweep: wall %.1f s, busiest group %.1f s, mean %.1f s (imbalance %.3f), cpu %.1f s over all ranks\n", t2 - q->t0, (double)maxbusy, (double)(sumbusy / q->ngroups), (double)(maxbusy * q->ngroups / sumbusy), (double)cpu));
    }
    PetscCall(PetscFree(all));
  }

  if (q->rank == 0) {
    if (csv[0]) PetscCall(WriteCSV(&sw, csv, q->rec));
    if (sw.study == STUDY_CONVERGENCE) PetscCall(ConvergenceReport(&sw, q->rec, floor));
    else PetscCall(FlipReport(&sw, q->rec, etol));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "csv written by rank 0: %s\n", csv[0] ? "yes" : "no"));

  if (checkjac && sw.study == STUDY_FLIP) { /* the step Jacobian with the configuration-dependent mass, at one task */
    Model     self;
    PetscReal err = 0;

    if (q->rank == 0) {
      PetscCall(ModelCreate(PETSC_COMM_SELF, sw.npos, sw.nmat, &self));
      PetscCall(FlipCheckJacobian(&sw, &self, sw.ntasks / 3, PETSC_FALSE, &err));
      PetscCall(ModelDestroy(&self));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "analytic step Jacobian matches finite differences to 1e-6: %s\n", err < 1e-6 ? "yes" : "no"));
    if (ensemble) { /* the ensemble's mechanics, FlipPoint(), through a lone run's pointwise door */
      err = 1;
      if (q->rank == 0) {
        PetscCall(ModelCreate(PETSC_COMM_SELF, sw.npos, sw.nmat, &self));
        PetscCall(FlipCheckJacobian(&sw, &self, sw.ntasks / 3, PETSC_TRUE, &err));
        PetscCall(ModelDestroy(&self));
      }
      PetscCallMPI(MPI_Bcast(&err, 1, MPIU_REAL, 0, q->world));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "step Jacobian of the ensemble's pointwise mechanics matches finite differences to 1e-6: %s\n", err < 1e-6 ? "yes" : "no"));
    }
  }

  if (checkts > 0 && ensemble) { /* the ensemble against TSSIMPVI alone, member by member */
    PetscReal diff = 0;
    PetscInt  same = 0, nrun = 0;

    diff = 1;
    if (q->rank == 0) PetscCall(FlipCheckTS(&sw, checkts, &diff, &same, &nrun));
    PetscCallMPI(MPI_Bcast(&diff, 1, MPIU_REAL, 0, q->world));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "ensemble after %" PetscInt_FMT " steps agrees with TSSIMPVI runs of each member alone through the mass door to 1e-12: %s\n", checkts, diff < 1e-12 ? "yes" : "no"));
    PetscCall(PetscInfo(NULL, "ensemble vs TSSIMPVI alone (mass door): max difference %g, same Newton iterations in %" PetscInt_FMT " of %" PetscInt_FMT " members\n", (double)diff, same, nrun));
  }

  if (checkserial) { /* rank 0 alone reruns every task on PETSC_COMM_SELF and compares the rows: the ensemble's with a lone
                        TSSIMPVI run by Newton through the pointwise door, every number bitwise; the others' as CSV rows */
    PetscInt differ = 0;

    if (q->rank == 0) {
      Model self;
      char  row[512], row0[512];

      PetscCall(ModelCreate(PETSC_COMM_SELF, sw.npos, sw.nmat, &self));
      for (PetscInt t = 0; t < sw.ntasks; t++) {
        if (ensemble) PetscCall(FlipRunWith(&sw, &self, t, PETSC_TRUE, PETSC_TRUE, mine));
        else PetscCall(sw.run(&sw, &self, t, mine));
        PetscCall(sw.format(&sw, mine, row, sizeof(row)));
        PetscCall(sw.format(&sw, q->rec + t * sw.nrec, row0, sizeof(row0)));
        PetscCall(PetscStrcmp(row, row0, &flg));
        for (PetscInt c = 0; c < sw.nrec && ensemble; c++)
          if (mine[c] != q->rec[t * sw.nrec + c]) flg = PETSC_FALSE;
        if (!flg) {
          differ++;
          PetscCall(PetscInfo(NULL, "task %" PetscInt_FMT ": alone %s, in the study %s\n", t, row, row0));
        }
      }
      PetscCall(ModelDestroy(&self));
    }
    PetscCallMPI(MPI_Bcast(&differ, 1, MPIU_INT, 0, q->world));
    if (ensemble) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "ensemble rows identical (bitwise) to one TSSIMPVI per task alone (pointwise door, by Newton): %s\n", differ ? "no" : "yes"));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "csv rows identical to a serial run: %s\n", differ ? "no" : "yes"));
  }

finalize:
  PetscCall(ModelDestroy(&model));
  PetscCall(PetscFree(mine));
  PetscCall(PetscFree(q->rec));
  PetscCall(PetscFree(q->buf));
  for (PetscInt i = 0; i < sw.nschemes; i++) PetscCall(PetscFree(sw.schemes[i]));
  PetscCallMPI(MPI_Comm_free(&q->sub));
  PetscCallMPI(MPI_Comm_free(&q->world));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: convergence
    nsize: {{1 2 3}}
    args: -study convergence -meshes 25,50,100 -sweep_progress 0 -sweep_check_serial -sweep_csv sweep_convergence.csv

  test:
    suffix: convergence_ranks_per_run
    nsize: 2
    args: -study convergence -meshes 25,50,100 -sweep_ranks_per_run 2 -sweep_progress 0

  # the SimpVIEnsemble: every number of every row bitwise that of one TSSIMPVI per task alone by Newton through the
  # pointwise door with the same mechanics (-sweep_check_serial), that step Jacobian against finite differences, and the
  # members against TSSIMPVI runs alone through the mass door (-flip_check_ts, to 1e-12)
  test:
    suffix: flip
    nsize: {{1 2 3}}
    args: -study flip -grid 8 -flip_tmax 100 -flip_dt 0.05 -sweep_progress 0 -sweep_check_serial -flip_check_jacobian -flip_check_ts 20 -sweep_csv sweep_flip.csv

  # a batch of 5 and chunks of 2: members refilled as others finish; the same rows. The lone runs of the check are by
  # Newton whatever the command line says (here simplified Newton)
  test:
    suffix: flip_batch
    nsize: 2
    args: -study flip -grid 8 -flip_tmax 100 -flip_dt 0.05 -sweep_progress 0 -sweep_check_serial -flip_check_jacobian -flip_check_ts 20 -sweep_csv sweep_flip.csv -ensemble_batch 5 -ensemble_chunk 2 -ts_simpvi_lag_jacobian true
    output_file: output/sweep_flip.out

  # a Newton limit (the TS's SNES's, which the ensemble reads) that some members' steps need more than: those members
  # fail (status -1) as they do alone, and the others go on (the same rows as each task alone, with a batch of 5)
  test:
    suffix: flip_failures
    nsize: 2
    args: -study flip -grid 8 -flip_tmax 100 -flip_dt 0.05 -sweep_progress 0 -sweep_check_serial -snes_max_it 3 -ensemble_batch 5
    filter: grep -E "flipped|identical"

  # other schemes of the TSSIMPVI registry in the ensemble (3 nodes of 2 unknowns a step)
  test:
    suffix: flip_schemes
    nsize: 2
    args: -study flip -grid 8 -flip_tmax 20 -flip_dt 0.05 -sweep_progress 0 -sweep_check_serial -flip_check_jacobian -flip_check_ts 20 -ensemble_batch 5 -ts_simpvi_type {{lobatto gauss}} -ts_simpvi_degree 3
    filter: grep -E "Jacobian|agrees|identical"
    output_file: output/sweep_flip_schemes.out

  # one TS per task through the work queue (-flip_ensemble 0): the same flips as the ensemble
  test:
    suffix: flip_ts
    nsize: 2
    args: -study flip -grid 8 -flip_tmax 100 -flip_dt 0.05 -sweep_progress 0 -sweep_check_serial -flip_check_jacobian -sweep_csv sweep_flip.csv -flip_ensemble 0

  # each run on 2 ranks (its positions split over them); this once hung in the first step Jacobian's assembly, before
  # the step DM's DMSNES was created eagerly
  test:
    suffix: flip_ranks_per_run
    nsize: 2
    args: -study flip -grid 4 -flip_tmax 10 -flip_skip_forbidden 0 -sweep_ranks_per_run 2 -sweep_progress 0

  test:
    suffix: flip_static
    nsize: 2
    args: -study flip -grid 8 -flip_tmax 100 -flip_dt 0.05 -sweep_schedule static -sweep_check_serial -flip_check_jacobian -sweep_csv sweep_flip.csv -flip_ensemble 0
    output_file: output/sweep_flip_ts.out

  # the flip map with KINSOL (fixed point, Anderson depth 3) on each process: the same flips as with SNES
  test:
    suffix: flip_kinsol
    requires: kinsol
    nsize: 2
    args: -study flip -grid 8 -flip_tmax 100 -flip_dt 0.05 -sweep_progress 0 -sweep_check_serial -flip_check_jacobian -sweep_csv sweep_flip.csv -ts_simpvi_nonlinear_solver kinsol -ts_simpvi_kinsol_strategy fp -ts_simpvi_kinsol_maa 3 -flip_ensemble 0
    output_file: output/sweep_flip_ts.out

  test:
    suffix: flip_snes_test_jacobian
    args: -study flip -grid 8 -flip_tmax 1 -sweep_only 9 -snes_test_jacobian
    filter: grep "Jfd||_F/||J||_F = " | awk '/e-(0[6-9]|1[0-9])/ {good++} END {print "jacobian checks", (NR > 0 && good == NR) ? "all good" : "failed"}'

TEST*/
