/*
   Checkpoint and restart of TSSIMPVI (-ts_simpvi_checkpoint, -ts_simpvi_checkpoint_every, -ts_simpvi_restart): a
   PETSc binary file with everything the next step reads, so that a run restarted from it goes on bit for bit as the
   run that wrote it would have. Written atomically: to <file>.tmp, flushed to disk, then renamed over <file>.

   The file: a header of integers and of reals (below), the scheme's name, then the vectors (VecView()): the state
   (q, p) of a phase-space problem, or u and u' of an I2 problem, the last step's polynomial, the compensations. It
   loads on any number of processes: each vector is read in its global ordering (a DMDA vector's natural one), which
   is the same on any number of processes when the problem numbers its unknowns so (docs/longruns.md).
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/
#include <fcntl.h>
#include <unistd.h>

#define SIMPVI_CHECKPOINT_MAGIC   1397312848 /* "SIMP" */
#define SIMPVI_CHECKPOINT_VERSION 1
#define SIMPVI_CHECKPOINT_EVERY   1000

enum {
  CP_MAGIC,
  CP_VERSION,
  CP_SIZE, /* processes of the run that wrote it */
  CP_DEGREE,
  CP_QUADRATURE,
  CP_NATIVE,
  CP_NPOS, /* positions */
  CP_STEPS,
  CP_HAVEPOLY,
  CP_STABILITYREADY,
  CP_STABILITYWARNED,
  CP_GROWTHSTEPS,
  CP_SNESITS,
  CP_KSPITS,
  CP_SNESFAILURES,
  CP_REJECT,
  CP_RETRIES,
  CP_H0SET,
  CP_COMPENSATED,
  CP_STORED, /* U is the end of the last step (its p1 and compensations carry on) */
  CP_NINT
};

enum {
  CP_PTIME,
  CP_TIMESTEP,
  CP_PTIMEPREV,
  CP_TPREV,
  CP_HPREV,
  CP_CT,
  CP_OMEGA,
  CP_BOUND,
  CP_OMEGATIME,
  CP_GROWTH,
  CP_H0,
  CP_I2SHIFT,
  CP_NREAL
};

#define CP_NAMELEN 64

PetscErrorCode SimpVICheckpointSetFromOptions_Private(TS ts, SimpVIOptionItems PetscOptionsObject)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  char       file[PETSC_MAX_PATH_LEN];
  PetscBool  flg;

  PetscFunctionBegin;
  if (!vi->cpevery) vi->cpevery = SIMPVI_CHECKPOINT_EVERY;
  PetscCall(PetscOptionsString("-ts_simpvi_checkpoint", "Write a checkpoint to this file every -ts_simpvi_checkpoint_every steps (atomically: <file>.tmp, then renamed)", "TSSIMPVI", vi->cpfile ? vi->cpfile : "", file, sizeof(file), &flg));
  if (flg) {
    PetscCall(PetscFree(vi->cpfile));
    if (file[0]) PetscCall(PetscStrallocpy(file, &vi->cpfile));
  }
  PetscCall(PetscOptionsInt("-ts_simpvi_checkpoint_every", "Steps between checkpoints", "TSSIMPVI", vi->cpevery, &vi->cpevery, NULL));
  PetscCheck(vi->cpevery >= 1, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "The option -ts_simpvi_checkpoint_every %" PetscInt_FMT " must be 1 or more (steps)", vi->cpevery);
  PetscCall(PetscOptionsString("-ts_simpvi_restart", "Restart from this checkpoint file (at TSSetUp(), before the first step)", "TSSIMPVI", vi->restartfile ? vi->restartfile : "", file, sizeof(file), &flg));
  if (flg) {
    PetscCall(PetscFree(vi->restartfile));
    if (file[0]) PetscCall(PetscStrallocpy(file, &vi->restartfile));
  }
  PetscFunctionReturn(0);
}

/* The vectors of the file, in order; written or read. The state of a phase-space problem goes as its positions and
   momenta (the order of U's entries may depend on the number of processes, as [q_local | p_local] does) */
static PetscErrorCode Vectors(TS ts, PetscViewer viewer, PetscBool write, PetscBool havepoly)
{
  TS_SimpVI *vi                          = (TS_SimpVI *)ts->data;
  SimpVIStep st                          = vi->step;
  PetscErrorCode (*io)(Vec, PetscViewer) = write ? VecView : VecLoad;

  PetscFunctionBegin;
  if (vi->native) {
    if (write) PetscCall(SimpVIPhaseSpaceSplit_Private(ts->vec_sol, vi->isq, vi->isp, vi->eq, vi->ep));
    PetscCall(io(vi->eq, viewer));
    PetscCall(io(vi->ep, viewer));
    if (!write) PetscCall(SimpVIPhaseSpaceJoin_Private(vi->eq, vi->ep, vi->isq, vi->isp, ts->vec_sol));
  } else {
    PetscCall(io(ts->vec_sol, viewer));
    PetscCall(io(ts->vec_dot, viewer));
    PetscCall(io(vi->vprev, viewer));
    PetscCall(io(vi->p1, viewer));
  }
  if (havepoly) {
    for (PetscInt a = 0; a <= st->scheme->degree; a++) PetscCall(io(st->Qprev[a], viewer));
    PetscCall(io(st->pprev, viewer));
  }
  PetscCall(io(vi->cq, viewer));
  PetscCall(io(vi->cp, viewer));
  PetscFunctionReturn(0);
}

/* The file on disk before the rename: a crash just after the rename must not leave a name pointing at lost data */
static PetscErrorCode SyncAndRename(MPI_Comm comm, const char tmp[], const char file[])
{
  PetscMPIInt rank;
  int         err = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    int fd = open(tmp, O_RDONLY);

    if (fd < 0 || fsync(fd) || close(fd)) err = 1;
    else if (rename(tmp, file)) err = 2;
  }
  PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, comm));
  PetscCheck(!err, comm, PETSC_ERR_FILE_WRITE, "TSSIMPVI could not %s the checkpoint %s", err == 1 ? "flush to disk" : "rename into place", err == 1 ? tmp : file);
  PetscFunctionReturn(0);
}

/*
  SimpVICheckpointWrite_Private - the state of the TS at the start of step ts->steps into file, atomically
*/
PetscErrorCode SimpVICheckpointWrite_Private(TS ts, const char file[])
{
  TS_SimpVI     *vi = (TS_SimpVI *)ts->data;
  SimpVIStep     st = vi->step;
  MPI_Comm       comm;
  PetscMPIInt    size;
  PetscViewer    viewer;
  PetscInt       ints[CP_NINT];
  PetscReal      reals[CP_NREAL];
  char           tmp[PETSC_MAX_PATH_LEN + 8], name[CP_NAMELEN];
  PetscBool      stored;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscObjectGetComm((PetscObject)ts, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  /* collective: U may have been changed on some processes only (a post-event function), and the file has one answer */
  PetscCall(SimpVIStateIsStored_Private(ts, &stored));
  ints[CP_MAGIC]           = SIMPVI_CHECKPOINT_MAGIC;
  ints[CP_VERSION]         = SIMPVI_CHECKPOINT_VERSION;
  ints[CP_SIZE]            = size;
  ints[CP_DEGREE]          = vi->degree;
  ints[CP_QUADRATURE]      = (PetscInt)vi->quadrature;
  ints[CP_NATIVE]          = vi->native;
  ints[CP_NPOS]            = st->qmap->N;
  ints[CP_STEPS]           = ts->steps;
  ints[CP_HAVEPOLY]        = st->havepoly;
  ints[CP_STABILITYREADY]  = vi->stabilityready;
  ints[CP_STABILITYWARNED] = vi->stabilitywarned;
  ints[CP_GROWTHSTEPS]     = vi->growthsteps;
  ints[CP_SNESITS]         = ts->snes_its;
  ints[CP_KSPITS]          = ts->ksp_its;
  ints[CP_SNESFAILURES]    = ts->num_snes_failures;
  ints[CP_REJECT]          = ts->reject;
  ints[CP_RETRIES]         = vi->retries;
  ints[CP_H0SET]           = vi->prob->H0set;
  ints[CP_COMPENSATED]     = vi->compensated;
  ints[CP_STORED]          = stored;
  reals[CP_PTIME]          = ts->ptime;
  reals[CP_TIMESTEP]       = ts->time_step;
  reals[CP_PTIMEPREV]      = ts->ptime_prev;
  reals[CP_TPREV]          = st->tprev;
  reals[CP_HPREV]          = st->hprev;
  reals[CP_CT]             = vi->ct;
  reals[CP_OMEGA]          = vi->omega;
  reals[CP_BOUND]          = vi->bound;
  reals[CP_OMEGATIME]      = vi->omegatime;
  reals[CP_GROWTH]         = vi->growth;
  reals[CP_H0]             = vi->prob->H0;
  reals[CP_I2SHIFT]        = vi->native ? 0 : vi->prob->I2shift;
  PetscCall(PetscMemzero(name, sizeof(name)));
  PetscCall(PetscStrncpy(name, vi->type, sizeof(name)));

  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", file));
  PetscCall(PetscViewerCreate(comm, &viewer));
  PetscCall(PetscViewerSetType(viewer, PETSCVIEWERBINARY));
  PetscCall(PetscViewerFileSetMode(viewer, FILE_MODE_WRITE));
  PetscCall(PetscViewerBinarySetSkipInfo(viewer, PETSC_TRUE));
  PetscCall(PetscViewerFileSetName(viewer, tmp));
  PetscCall(PetscViewerBinaryWrite(viewer, ints, CP_NINT, PETSC_INT));
  PetscCall(PetscViewerBinaryWrite(viewer, reals, CP_NREAL, PETSC_REAL));
  PetscCall(PetscViewerBinaryWrite(viewer, name, CP_NAMELEN, PETSC_CHAR));
  PetscCall(Vectors(ts, viewer, PETSC_TRUE, st->havepoly));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(SyncAndRename(comm, tmp, file));
  vi->cpstep = ts->steps;
  vi->cpcount++;
  PetscCall(PetscTime(&t1));
  PetscCall(PetscInfo(ts, "Checkpoint of step %" PetscInt_FMT " (t = %g) written to %s in %g s\n", ts->steps, (double)ts->ptime, file, (double)(t1 - t0)));
  PetscFunctionReturn(0);
}

/* At the start of a step: a checkpoint every -ts_simpvi_checkpoint_every steps, once per step (not again when PETSc
   retakes a step after a roll-back) */
PetscErrorCode SimpVICheckpointMaybeWrite_Private(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (!vi->cpfile || ts->steps <= 0 || ts->steps % vi->cpevery || ts->steps == vi->cpstep) PetscFunctionReturn(0);
  PetscCall(SimpVICheckpointWrite_Private(ts, vi->cpfile));
  PetscFunctionReturn(0);
}

/*
  SimpVICheckpointRestart_Private - at set-up, before the first step: the state and history of -ts_simpvi_restart's
  checkpoint into the TS. TSSolve() then goes on from its step number, time and time step, with its counters.
*/
PetscErrorCode SimpVICheckpointRestart_Private(TS ts)
{
  TS_SimpVI  *vi = (TS_SimpVI *)ts->data;
  SimpVIStep  st = vi->step;
  MPI_Comm    comm;
  PetscViewer viewer;
  PetscInt    ints[CP_NINT];
  PetscReal   reals[CP_NREAL];
  char        name[CP_NAMELEN];
  PetscBool   exists;

  PetscFunctionBegin;
  if (!vi->restartfile || vi->restartstep >= 0 || ts->steps) PetscFunctionReturn(0);
  PetscCall(PetscObjectGetComm((PetscObject)ts, &comm));
  PetscCall(PetscTestFile(vi->restartfile, 'r', &exists));
  PetscCheck(exists, comm, PETSC_ERR_FILE_OPEN, "TSSIMPVI cannot read the checkpoint %s given to -ts_simpvi_restart", vi->restartfile);
  PetscCall(PetscViewerBinaryOpen(comm, vi->restartfile, FILE_MODE_READ, &viewer));
  PetscCall(PetscViewerBinaryRead(viewer, ints, CP_NINT, NULL, PETSC_INT));
  PetscCheck(ints[CP_MAGIC] == SIMPVI_CHECKPOINT_MAGIC && ints[CP_VERSION] == SIMPVI_CHECKPOINT_VERSION, comm, PETSC_ERR_FILE_UNEXPECTED, "%s is not a TSSIMPVI checkpoint (of this version, %d)", vi->restartfile, SIMPVI_CHECKPOINT_VERSION);
  PetscCall(PetscViewerBinaryRead(viewer, reals, CP_NREAL, NULL, PETSC_REAL));
  PetscCall(PetscViewerBinaryRead(viewer, name, CP_NAMELEN, NULL, PETSC_CHAR));
  name[CP_NAMELEN - 1] = 0;
  PetscCheck(ints[CP_DEGREE] == vi->degree && ints[CP_QUADRATURE] == (PetscInt)vi->quadrature, comm, PETSC_ERR_ARG_INCOMP, "The checkpoint %s is of scheme %s with degree %" PetscInt_FMT ", but this TS has scheme %s with degree %" PetscInt_FMT, vi->restartfile, name, ints[CP_DEGREE], vi->type, vi->degree);
  PetscCheck(ints[CP_NATIVE] == (PetscInt)vi->native && ints[CP_NPOS] == st->qmap->N, comm, PETSC_ERR_ARG_INCOMP, "The checkpoint %s is of a problem with %" PetscInt_FMT " positions through the %s door, but this TS has %" PetscInt_FMT " positions through the %s door", vi->restartfile, ints[CP_NPOS], ints[CP_NATIVE] ? "Lagrangian or mechanical" : "second-order (I2)",
             st->qmap->N, vi->prob->door->name);
  PetscCall(Vectors(ts, viewer, PETSC_FALSE, (PetscBool)ints[CP_HAVEPOLY]));
  PetscCall(PetscViewerDestroy(&viewer));

  ts->steps             = ints[CP_STEPS];
  ts->snes_its          = ints[CP_SNESITS];
  ts->ksp_its           = ints[CP_KSPITS];
  ts->num_snes_failures = ints[CP_SNESFAILURES];
  ts->reject            = ints[CP_REJECT];
  ts->ptime             = reals[CP_PTIME];
  ts->time_step         = reals[CP_TIMESTEP];
  ts->ptime_prev        = reals[CP_PTIMEPREV];
  ts->steprestart       = PETSC_FALSE;
  st->havepoly          = (PetscBool)ints[CP_HAVEPOLY];
  st->tprev             = reals[CP_TPREV];
  st->hprev             = reals[CP_HPREV];
  vi->stabilityready    = (PetscBool)ints[CP_STABILITYREADY];
  vi->stabilitywarned   = (PetscBool)ints[CP_STABILITYWARNED];
  vi->growthsteps       = ints[CP_GROWTHSTEPS];
  vi->omega             = reals[CP_OMEGA];
  vi->bound             = reals[CP_BOUND];
  vi->omegatime         = reals[CP_OMEGATIME];
  vi->growth            = reals[CP_GROWTH];
  vi->retries           = ints[CP_RETRIES];
  vi->prob->H0set       = (PetscBool)ints[CP_H0SET];
  vi->prob->H0          = reals[CP_H0];
  vi->ct                = reals[CP_CT];
  /* the compensations and (I2) the end momentum p1 carry on only into a run that sums as the writer did */
  vi->stored = (PetscBool)(ints[CP_STORED] && ints[CP_COMPENSATED] == (PetscInt)vi->compensated);
  if (vi->stored) {
    PetscCall(PetscObjectStateGet((PetscObject)ts->vec_sol, &vi->solstate));
    if (!vi->native) PetscCall(PetscObjectStateGet((PetscObject)ts->vec_dot, &vi->dotstate));
    vi->tstored = ts->ptime;
  }
  if (!vi->native && reals[CP_I2SHIFT] != vi->prob->I2shift)
    PetscCall(PetscInfo(ts, "The I2 door read M with shift %g, the run that wrote %s with %g (another initial state): the restarted run may differ from the original in the last bits\n", (double)vi->prob->I2shift, vi->restartfile, (double)reals[CP_I2SHIFT]));
  vi->restartstep = ts->steps;
  vi->restarttime = ts->ptime;
  vi->cpstep      = ts->steps;
  PetscCall(PetscInfo(ts, "Restarted from %s (written on %" PetscInt_FMT " processes) at step %" PetscInt_FMT ", t = %g\n", vi->restartfile, ints[CP_SIZE], ts->steps, (double)ts->ptime));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVICheckpointView_Private(TS ts, PetscViewer viewer)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (vi->cpfile) {
    char last[64] = "";

    if (vi->cpcount) PetscCall(PetscSNPrintf(last, sizeof(last), ", the last at step %" PetscInt_FMT, vi->cpstep));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Checkpoint every %" PetscInt_FMT " steps to %s (written to %s.tmp, then renamed): %" PetscInt_FMT " written%s\n", vi->cpevery, vi->cpfile, vi->cpfile, vi->cpcount, last));
  }
  if (vi->restartstep >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  Restarted from the checkpoint %s at step %" PetscInt_FMT ", t = %g\n", vi->restartfile, vi->restartstep, (double)vi->restarttime));
  PetscFunctionReturn(0);
}
