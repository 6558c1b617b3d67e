/*
   Checkpoint and restart of TSSIMPVI (-ts_simpvi_checkpoint, -ts_simpvi_checkpoint_every, -ts_simpvi_restart): a
   PETSc binary file with everything the next step reads, so that a run restarted from it goes on bit for bit as the
   run that wrote it would have. Written atomically: to <file>.tmp, flushed to disk, then renamed over <file>; every
   -ts_simpvi_checkpoint_every steps and at the end of TSSolve().

   The file: a header of integers (its first ones, magic to sizes, as src/ts/checkpointfile.c reads them) and of
   reals (below), the scheme's and the door's names, then the vectors (VecView()): the state as its layout keeps it
   (src/ts/statephase.c: q and p; src/ts/statei2.c: u, u' and what goes on from them), the last step's polynomial,
   the compensations (rigid bodies: the state and its compensations, src/ts/checkpointrigid.c); then a trailer with a CRC-32 of all of it (checkpointfile.c), verified before a restart reads a
   record. It loads on any number of processes:
   each vector is read in its global ordering (a DMDA vector's natural one), which is the same on any number of
   processes when the problem numbers its unknowns so (docs/longruns.md).
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/

#define SIMPVI_CHECKPOINT_EVERY 1000

enum {
  CP_SIZE = SIMPVI_CP_NHEAD, /* processes of the run that wrote it */
  CP_DEGREE,
  CP_QUADRATURE,
  CP_LAYOUT, /* the state layout's checkpointid: 1 phase space, 0 I2 */
  CP_NPOS,   /* positions */
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
  CP_STORED,         /* U is the end of the last step (its p1 and compensations carry on) */
  CP_NEWTONRECORDED, /* simplified Newton: the point of the Jacobian held is in the file (src/core/newton.c) */
  CP_NEWTONREFRESH,  /* the next solve takes a new Jacobian */
  CP_NMULTIPLIER,    /* holonomic constraints: multipliers per node (0: none) */
  CP_NINT
};

enum {
  CP_PTIME,
  CP_TIMESTEP,
  CP_PTIMEPREV,
  CP_TPREV,
  CP_HPREV,
  CP_CT,
  CP_H0,
  CP_NFINITE, /* the reals above are finite in a good checkpoint */
  CP_OMEGA = CP_NFINITE,
  CP_BOUND, /* infinite for a scheme without a bound */
  CP_OMEGATIME,
  CP_GROWTH,
  CP_I2SHIFT,
  CP_NEWTONT, /* the held Jacobian's t, h, and the last contraction rate */
  CP_NEWTONH,
  CP_NEWTONTHETA,
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

/* The vectors of the file, in order; written or read. The state goes as its layout writes it */
static PetscErrorCode Vectors(TS ts, PetscViewer viewer, PetscBool write, PetscBool havepoly, PetscBool newtonrecorded)
{
  TS_SimpVI *vi                          = (TS_SimpVI *)ts->data;
  PetscErrorCode (*io)(Vec, PetscViewer) = write ? VecView : VecLoad;
  Vec *Q, pprev;

  PetscFunctionBegin;
  PetscCall(vi->layout->checkpointio(ts, viewer, write));
  PetscCall(SimpVIStepGetPolynomial_Private(vi->step, &Q, &pprev));
  if (havepoly) {
    for (PetscInt a = 0; a <= vi->scheme->degree; a++) PetscCall(io(Q[a], viewer));
    PetscCall(io(pprev, viewer));
  }
  PetscCall(io(vi->cq, viewer));
  PetscCall(io(vi->cp, viewer));
  if (newtonrecorded) PetscCall(SimpVIStepNewtonRecordIO_Private(vi->step, viewer, write));
  PetscCall(SimpVIStepMultipliersIO_Private(vi->step, viewer, write));
  PetscFunctionReturn(0);
}

/* A vector of the file with NaN or Inf (collective): its name, or NULL. The 1-norm, since a NaN hides from the max */
static PetscErrorCode NotFinite(TS ts, PetscBool havepoly, const char **which)
{
  TS_SimpVI  *vi = (TS_SimpVI *)ts->data;
  Vec         v[16], *Q, pprev;
  const char *name[16];
  PetscInt    n = 0;

  PetscFunctionBegin;
  *which = NULL;
  PetscCall(vi->layout->checkpointvecs(ts, &n, v, name));
  PetscCall(SimpVIStepGetPolynomial_Private(vi->step, &Q, &pprev));
  if (havepoly) {
    v[n]      = pprev;
    name[n++] = "the last step's start momentum";
  }
  v[n]      = vi->cq;
  name[n++] = "the compensation of q";
  v[n]      = vi->cp;
  name[n++] = "the compensation of p";
  for (PetscInt i = 0; i < n && !*which; i++) {
    PetscReal nrm;

    PetscCall(VecNorm(v[i], NORM_1, &nrm));
    if (PetscIsInfOrNanReal(nrm)) *which = name[i];
  }
  for (PetscInt a = 0; havepoly && a <= vi->scheme->degree && !*which; a++) {
    PetscReal nrm;

    PetscCall(VecNorm(Q[a], NORM_1, &nrm));
    if (PetscIsInfOrNanReal(nrm)) *which = "the last step's polynomial";
  }
  PetscFunctionReturn(0);
}

/* Only the forward solve writes: not the steps TSAdjointSolve() recomputes from its own checkpoints */
static PetscBool InAdjointSolve(TS ts)
{
  return (PetscBool)(ts->adjointsetupcalled && ts->adjoint_max_steps > 0);
}

/*
  SimpVICheckpointWrite_Private - the state of the TS at the start of step ts->steps into file, atomically
*/
PetscErrorCode SimpVICheckpointWrite_Private(TS ts, const char file[])
{
  TS_SimpVI     *vi = (TS_SimpVI *)ts->data;
  MPI_Comm       comm;
  PetscMPIInt    size;
  PetscViewer    viewer;
  PetscInt       ints[CP_NINT], familyid;
  PetscReal      reals[CP_NREAL];
  char           tmp[PETSC_MAX_PATH_LEN + 8], name[CP_NAMELEN], door[CP_NAMELEN];
  const char    *bad;
  PetscBool      stored;
  PetscLogDouble t0, t1;
  PetscBool      havepoly, newtonrecorded, newtonrefresh;
  PetscReal      newton[3];
  PetscReal      tprev, hprev;
  PetscInt       npos, nmult, layout;
  const char    *doorname;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscObjectGetComm((PetscObject)ts, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (vi->rb) { /* rigid bodies (src/ts/checkpointrigid.c): no polynomial, no held Jacobian, no multipliers */
    PetscCall(SimpVIRigidCheckpointProblem_Private(ts, &layout, &npos, &doorname));
    havepoly = newtonrecorded = newtonrefresh = PETSC_FALSE;
    tprev = hprev = newton[0] = newton[1] = newton[2] = 0;
    nmult                                             = 0;
    PetscCall(SimpVIRigidCheckpointNotFinite_Private(ts, &bad));
    PetscCall(SimpVIRigidCheckpointStored_Private(ts, &stored)); /* collective, as below */
  } else {
    layout   = vi->layout->checkpointid;
    doorname = vi->prob->door->name;
    PetscCall(SimpVIStepGetPrevious_Private(vi->step, &havepoly, &tprev, &hprev, NULL, NULL));
    PetscCall(SimpVIStepGetSizes_Private(vi->step, NULL, &npos));
    PetscCall(SimpVIStepNewtonGetState_Private(vi->step, &newtonrecorded, &newtonrefresh, newton));
    PetscCall(SimpVIStepGetMultipliers_Private(vi->step, NULL, &nmult, NULL)); /* this process's */
    PetscCall(NotFinite(ts, havepoly, &bad));
    /* collective: U may have been changed on some processes only (a post-event function), and the file has one answer */
    PetscCall(SimpVIStateIsStored_Private(ts, &stored));
  }
  /* a bad state must not replace the last good checkpoint */
  PetscCheck(!bad, comm, PETSC_ERR_FP, "TSSIMPVI will not write the checkpoint %s of step %" PetscInt_FMT ": %s holds NaN or Inf", file, ts->steps, bad);
  PetscCall(SimpVISchemeFamilyId_Private(vi->family, &familyid));
  ints[SIMPVI_CP_MAGIC]      = SIMPVI_CHECKPOINT_MAGIC;
  ints[SIMPVI_CP_VERSION]    = SIMPVI_CHECKPOINT_VERSION;
  ints[SIMPVI_CP_LENGTHHI]   = 0; /* filled in when the file is complete */
  ints[SIMPVI_CP_LENGTHLO]   = 0;
  ints[SIMPVI_CP_SCALARSIZE] = (PetscInt)sizeof(PetscScalar);
  ints[SIMPVI_CP_REALSIZE]   = (PetscInt)sizeof(PetscReal);
  ints[CP_SIZE]              = size;
  ints[CP_DEGREE]            = vi->degree;
  ints[CP_QUADRATURE]        = familyid;
  ints[CP_LAYOUT]            = layout;
  ints[CP_NPOS]              = npos;
  ints[CP_STEPS]             = ts->steps;
  ints[CP_HAVEPOLY]          = havepoly;
  ints[CP_STABILITYREADY]    = vi->stabilityready;
  ints[CP_STABILITYWARNED]   = vi->stabilitywarned;
  ints[CP_GROWTHSTEPS]       = vi->growthsteps;
  ints[CP_SNESITS]           = ts->snes_its;
  ints[CP_KSPITS]            = ts->ksp_its;
  ints[CP_SNESFAILURES]      = ts->num_snes_failures;
  ints[CP_REJECT]            = ts->reject;
  ints[CP_RETRIES]           = vi->retries;
  ints[CP_H0SET]             = vi->prob->H0set;
  ints[CP_COMPENSATED]       = vi->compensated;
  ints[CP_STORED]            = stored;
  ints[CP_NEWTONRECORDED]    = newtonrecorded;
  ints[CP_NEWTONREFRESH]     = newtonrefresh;
  PetscCall(MPIU_Allreduce(&nmult, &ints[CP_NMULTIPLIER], 1, MPIU_INT, MPI_SUM, comm));
  reals[CP_NEWTONT]     = newton[0];
  reals[CP_NEWTONH]     = newton[1];
  reals[CP_NEWTONTHETA] = newton[2];
  reals[CP_PTIME]       = ts->ptime;
  reals[CP_TIMESTEP]    = ts->time_step;
  reals[CP_PTIMEPREV]   = ts->ptime_prev;
  reals[CP_TPREV]       = tprev;
  reals[CP_HPREV]       = hprev;
  reals[CP_CT]          = vi->rb && ts->ptime != vi->tstored ? 0 : vi->ct; /* the rigid step's restarts when t changed */
  reals[CP_OMEGA]       = vi->omega;
  reals[CP_BOUND]       = vi->bound;
  reals[CP_OMEGATIME]   = vi->omegatime;
  reals[CP_GROWTH]      = vi->growth;
  reals[CP_H0]          = vi->prob->H0;
  reals[CP_I2SHIFT]     = vi->prob->I2shift; /* 0 but for the I2 door */
  PetscCall(PetscMemzero(name, sizeof(name)));
  PetscCall(PetscStrncpy(name, vi->type, sizeof(name)));
  PetscCall(PetscMemzero(door, sizeof(door)));
  PetscCall(PetscStrncpy(door, doorname, sizeof(door)));

  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", file));
  PetscCall(PetscViewerCreate(comm, &viewer));
  PetscCall(PetscViewerSetType(viewer, PETSCVIEWERBINARY));
  PetscCall(PetscViewerFileSetMode(viewer, FILE_MODE_WRITE));
  PetscCall(PetscViewerBinarySetSkipInfo(viewer, PETSC_TRUE));
  PetscCall(PetscViewerFileSetName(viewer, tmp));
  PetscCall(PetscViewerBinaryWrite(viewer, ints, CP_NINT, PETSC_INT));
  PetscCall(PetscViewerBinaryWrite(viewer, reals, CP_NREAL, PETSC_REAL));
  PetscCall(PetscViewerBinaryWrite(viewer, name, CP_NAMELEN, PETSC_CHAR));
  PetscCall(PetscViewerBinaryWrite(viewer, door, CP_NAMELEN, PETSC_CHAR));
  if (vi->rb) PetscCall(SimpVIRigidCheckpointIO_Private(ts, viewer, PETSC_TRUE, stored));
  else PetscCall(Vectors(ts, viewer, PETSC_TRUE, havepoly, newtonrecorded));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(SimpVICheckpointFileFinish_Private(comm, tmp, file)); /* length, checksum, fsync, rename */
  vi->cpstep = ts->steps;
  vi->cpcount++;
  PetscCall(PetscTime(&t1));
  PetscCall(PetscInfo(ts, "Checkpoint of step %" PetscInt_FMT " (t = %g) written to %s in %g s\n", ts->steps, (double)ts->ptime, file, (double)(t1 - t0)));
  PetscFunctionReturn(0);
}

/*
  The checkpoint at the end of TSSolve(). TS has no operation for it; TSSolve() calls the monitors once more after its
  loop, the only call with ts->reason set: after the last step's events, post-event and TSPostStep() hooks, before
  TS_EXACTFINALTIME_INTERPOLATE's interpolation (its call with step -1 is skipped). So the file holds the state the
  TS stepped to (past the final time when interpolating), from which one more step would go on. This monitor stays
  registered when the TS changes type, hence the type check
*/
static PetscErrorCode MonitorEndOfSolve(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  TS_SimpVI *vi;
  PetscBool  isvi;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &isvi));
  if (!isvi) PetscFunctionReturn(0);
  vi = (TS_SimpVI *)ts->data;
  if (!vi->cpfile || !ts->reason || step != ts->steps || step <= 0 || U != ts->vec_sol || step == vi->cpstep || InAdjointSolve(ts)) PetscFunctionReturn(0);
  PetscCall(SimpVICheckpointWrite_Private(ts, vi->cpfile));
  PetscFunctionReturn(0);
}

/* The end-of-solve monitor in the TS's list (again, if the user cancelled the monitors after set-up) */
static PetscErrorCode EnsureEndOfSolveMonitor(TS ts)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < ts->numbermonitors; i++)
    if (ts->monitor[i] == MonitorEndOfSolve) PetscFunctionReturn(0);
  PetscCheck(ts->numbermonitors < MAXTSMONITORS, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "TSSIMPVI needs one of the TS's %d monitor slots to write its checkpoint at the end of TSSolve() (-ts_simpvi_checkpoint), and all are taken", (int)MAXTSMONITORS);
  PetscCall(TSMonitorSet(ts, MonitorEndOfSolve, NULL, NULL));
  PetscFunctionReturn(0);
}

/* At the start of a step: the events' values after a restart; a checkpoint every -ts_simpvi_checkpoint_every steps,
   once per step (not again when PETSc retakes a step after a roll-back) */
PetscErrorCode SimpVICheckpointBeginStep_Private(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (vi->restartevents) { /* TSSolve() computes the events' values at the start only at step 0: after a restart, here, at
                              the restored state (else the first step compares them with uninitialized memory) */
    vi->restartevents = PETSC_FALSE;
    if (ts->event) PetscCall(TSEventInitialize(ts->event, ts, ts->ptime, ts->vec_sol));
  }
  if (!vi->cpfile || InAdjointSolve(ts)) PetscFunctionReturn(0);
  PetscCall(EnsureEndOfSolveMonitor(ts));
  if (ts->steps <= 0 || ts->steps % vi->cpevery || ts->steps == vi->cpstep) PetscFunctionReturn(0);
  PetscCall(SimpVICheckpointWrite_Private(ts, vi->cpfile));
  PetscFunctionReturn(0);
}

/* The problem of a checkpoint's header, for the messages */
static PetscErrorCode Describe(PetscInt layout, PetscInt n, const char door[], char buf[], size_t len)
{
  PetscFunctionBegin;
  if (layout == SIMPVI_CP_LAYOUT_RIGID || layout == SIMPVI_CP_LAYOUT_RIGIDVEC) PetscCall(PetscSNPrintf(buf, len, "%" PetscInt_FMT " %s", n, door));
  else PetscCall(PetscSNPrintf(buf, len, "%" PetscInt_FMT " positions through the %s door", n, door));
  PetscFunctionReturn(0);
}

/*
  Restart - at set-up, before the first step: the state and history of -ts_simpvi_restart's checkpoint into the TS,
  once its length and checksum are verified. TSSolve() then goes on from its step number, time and time step, with
  its counters.
*/
static PetscErrorCode Restart(TS ts)
{
  TS_SimpVI  *vi = (TS_SimpVI *)ts->data;
  MPI_Comm    comm;
  PetscViewer viewer;
  PetscInt    npos, nmult, mloc;
  PetscInt    ints[CP_NINT], familyid;
  PetscReal   reals[CP_NREAL];
  char        name[CP_NAMELEN], door[CP_NAMELEN], theirs[2 * CP_NAMELEN + 64], ours[2 * CP_NAMELEN + 64];
  const char *bad, *doorname;
  PetscBool   sameproblem;
  PetscInt    layout;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)ts, &comm));
  if (vi->rb) { /* rigid bodies: src/ts/checkpointrigid.c */
    PetscCall(SimpVIRigidCheckpointProblem_Private(ts, &layout, &npos, &doorname));
    mloc = 0;
  } else {
    layout   = vi->layout->checkpointid;
    doorname = vi->prob->door->name;
    PetscCall(SimpVIStepGetSizes_Private(vi->step, NULL, &npos));
    PetscCall(SimpVIStepGetMultipliers_Private(vi->step, NULL, &mloc, NULL)); /* this process's */
  }
  PetscCall(SimpVICheckpointFileVerify_Private(comm, vi->restartfile)); /* whole, unchanged, of this format */
  PetscCall(PetscViewerCreate(comm, &viewer));
  PetscCall(PetscViewerSetType(viewer, PETSCVIEWERBINARY));
  PetscCall(PetscViewerFileSetMode(viewer, FILE_MODE_READ));
  PetscCall(PetscViewerBinarySetSkipInfo(viewer, PETSC_TRUE));
  PetscCall(PetscViewerFileSetName(viewer, vi->restartfile));
  PetscCall(PetscViewerBinaryRead(viewer, ints, CP_NINT, NULL, PETSC_INT));
  PetscCall(PetscViewerBinaryRead(viewer, reals, CP_NREAL, NULL, PETSC_REAL));
  PetscCall(PetscViewerBinaryRead(viewer, name, CP_NAMELEN, NULL, PETSC_CHAR));
  PetscCall(PetscViewerBinaryRead(viewer, door, CP_NAMELEN, NULL, PETSC_CHAR));
  PetscCall(SimpVISchemeFamilyId_Private(vi->family, &familyid));
  name[CP_NAMELEN - 1] = 0;
  door[CP_NAMELEN - 1] = 0;
  PetscCall(MPIU_Allreduce(&mloc, &nmult, 1, MPIU_INT, MPI_SUM, comm));
  sameproblem = (PetscBool)(ints[CP_DEGREE] == vi->degree && ints[CP_QUADRATURE] == familyid && ints[CP_LAYOUT] == layout && ints[CP_NPOS] == npos && ints[CP_NMULTIPLIER] == nmult);
  if (!sameproblem) PetscCall(PetscViewerDestroy(&viewer)); /* before the error */
  PetscCheck(ints[CP_DEGREE] == vi->degree && ints[CP_QUADRATURE] == familyid, comm, PETSC_ERR_ARG_INCOMP, "The checkpoint %s is of scheme %s with degree %" PetscInt_FMT ", but this TS has scheme %s with degree %" PetscInt_FMT, vi->restartfile, name, ints[CP_DEGREE], vi->type, vi->degree);
  PetscCall(Describe(ints[CP_LAYOUT], ints[CP_NPOS], door, theirs, sizeof(theirs)));
  PetscCall(Describe(layout, npos, doorname, ours, sizeof(ours)));
  PetscCheck(ints[CP_LAYOUT] == layout && ints[CP_NPOS] == npos, comm, PETSC_ERR_ARG_INCOMP, "The checkpoint %s is of a problem with %s, but this TS has %s", vi->restartfile, theirs, ours);
  PetscCheck(ints[CP_NMULTIPLIER] == nmult, comm, PETSC_ERR_ARG_INCOMP, "The checkpoint %s is of a problem with %" PetscInt_FMT " constraints, but this TS has %" PetscInt_FMT " (TSSimpVISetConstraints())", vi->restartfile, ints[CP_NMULTIPLIER], nmult);
  if (vi->rb) PetscCall(SimpVIRigidCheckpointIO_Private(ts, viewer, PETSC_FALSE, (PetscBool)ints[CP_STORED]));
  else PetscCall(Vectors(ts, viewer, PETSC_FALSE, (PetscBool)ints[CP_HAVEPOLY], (PetscBool)ints[CP_NEWTONRECORDED]));
  PetscCall(PetscViewerDestroy(&viewer));
  for (PetscInt i = 0; i < CP_NFINITE; i++) PetscCheck(!PetscIsInfOrNanReal(reals[i]), comm, PETSC_ERR_FILE_UNEXPECTED, "The checkpoint %s is bad: its time, time step or energy is NaN or Inf", vi->restartfile);
  PetscCheck(reals[CP_TIMESTEP] > 0 && ints[CP_STEPS] >= 0, comm, PETSC_ERR_FILE_UNEXPECTED, "The checkpoint %s is bad: step %" PetscInt_FMT " with time step %g", vi->restartfile, ints[CP_STEPS], (double)reals[CP_TIMESTEP]);
  if (vi->rb) PetscCall(SimpVIRigidCheckpointNotFinite_Private(ts, &bad));
  else PetscCall(NotFinite(ts, (PetscBool)ints[CP_HAVEPOLY], &bad));
  PetscCheck(!bad, comm, PETSC_ERR_FILE_UNEXPECTED, "The checkpoint %s is bad: %s holds NaN or Inf (a step never leaves one: the file was written so, not by a failed step)", vi->restartfile, bad);

  ts->steps             = ints[CP_STEPS];
  ts->snes_its          = ints[CP_SNESITS];
  ts->ksp_its           = ints[CP_KSPITS];
  ts->num_snes_failures = ints[CP_SNESFAILURES];
  ts->reject            = ints[CP_REJECT];
  ts->ptime             = reals[CP_PTIME];
  ts->time_step         = reals[CP_TIMESTEP];
  ts->ptime_prev        = reals[CP_PTIMEPREV];
  ts->steprestart       = PETSC_FALSE;
  if (!vi->rb) {
    const PetscReal newton[3] = {reals[CP_NEWTONT], reals[CP_NEWTONH], reals[CP_NEWTONTHETA]};

    PetscCall(SimpVIStepNewtonSetState_Private(vi->step, (PetscBool)ints[CP_NEWTONRECORDED], (PetscBool)ints[CP_NEWTONREFRESH], newton));
    PetscCall(SimpVIStepSetPrevious_Private(vi->step, (PetscBool)ints[CP_HAVEPOLY], reals[CP_TPREV], reals[CP_HPREV]));
  }
  vi->stabilityready  = (PetscBool)ints[CP_STABILITYREADY];
  vi->stabilitywarned = (PetscBool)ints[CP_STABILITYWARNED];
  vi->growthsteps     = ints[CP_GROWTHSTEPS];
  vi->omega           = reals[CP_OMEGA];
  vi->bound           = reals[CP_BOUND];
  vi->omegatime       = reals[CP_OMEGATIME];
  vi->growth          = reals[CP_GROWTH];
  vi->retries         = ints[CP_RETRIES];
  vi->prob->H0set     = (PetscBool)ints[CP_H0SET];
  vi->prob->H0        = reals[CP_H0];
  vi->ct              = reals[CP_CT];
  if (vi->rb) vi->tstored = ts->ptime; /* the rigid step's time compensation carries on (its R, pi ones: read above) */
  /* the compensations and (I2) the end momentum p1 carry on only into a run that sums as the writer did */
  vi->stored = (PetscBool)(!vi->rb && ints[CP_STORED] && ints[CP_COMPENSATED] == (PetscInt)vi->compensated);
  if (vi->stored) {
    PetscCall(vi->layout->stamp(ts, &vi->solstate, &vi->dotstate));
    vi->tstored = ts->ptime;
  }
  if (reals[CP_I2SHIFT] != vi->prob->I2shift) /* both 0 but for the I2 door */
    PetscCall(PetscInfo(ts, "The I2 door read M with shift %g, the run that wrote %s with %g (another initial state): the restarted run may differ from the original in the last bits\n", (double)vi->prob->I2shift, vi->restartfile, (double)reals[CP_I2SHIFT]));
  vi->restartstep   = ts->steps;
  vi->restarttime   = ts->ptime;
  vi->restartevents = PETSC_TRUE;
  vi->cpstep        = ts->steps;
  PetscCall(PetscInfo(ts, "Restarted from %s (written on %" PetscInt_FMT " processes, %s) at step %" PetscInt_FMT ", t = %g\n", vi->restartfile, ints[CP_SIZE], door, ts->steps, (double)ts->ptime));
  PetscFunctionReturn(0);
}

/*
  SimpVICheckpointSetUp_Private - in TSSetUp(): the checkpoint path checked for writing (an error now, not at the
  first checkpoint), the end-of-solve checkpoint registered, and -ts_simpvi_restart's checkpoint read
*/
PetscErrorCode SimpVICheckpointSetUp_Private(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (vi->cpfile) {
    PetscCall(SimpVICheckpointFileCheckWritable_Private(PetscObjectComm((PetscObject)ts), vi->cpfile));
    PetscCall(EnsureEndOfSolveMonitor(ts));
  }
  if (vi->restartfile && vi->restartstep < 0 && !ts->steps) PetscCall(Restart(ts));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVICheckpointView_Private(TS ts, PetscViewer viewer)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (vi->cpfile) {
    char last[64] = "";

    if (vi->cpcount) PetscCall(PetscSNPrintf(last, sizeof(last), ", the last at step %" PetscInt_FMT, vi->cpstep));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Checkpoint every %" PetscInt_FMT " steps and at the end of TSSolve() to %s (written to %s.tmp, then renamed): %" PetscInt_FMT " written%s\n", vi->cpevery, vi->cpfile, vi->cpfile, vi->cpcount, last));
  }
  if (vi->restartstep >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  Restarted from the checkpoint %s at step %" PetscInt_FMT ", t = %g\n", vi->restartfile, vi->restartstep, (double)vi->restarttime));
  PetscFunctionReturn(0);
}
