/*
   The study: each process keeps a batch of members stepping together, refilled from the shared queue as members end;
   a member that ends (final time, most steps, stopped, failed) is recorded by its process; the records are gathered in
   member order on every process at the end.
*/
#include <simpvi/private/ensembleimpl.h> /*I "simpvi.h" I*/
#include <simpvi/private/compat.h>

PetscLogEvent SIMPVI_EnsembleSolve, SIMPVI_EnsembleStep;

/* Slot b's member has ended: its result values (the output function's, or q and p) in this process's records */
static PetscErrorCode Record(SimpVIEnsemble ens, PetscInt b)
{
  SimpVIEnsembleBatch *B   = &ens->batch;
  const PetscInt       rec = SIMPVI_ENSEMBLE_RECORD(ens), n = ens->n;
  PetscReal           *r;

  PetscFunctionBegin;
  if (ens->nmine == ens->maxmine) { /* grow the records */
    PetscInt  *id, max = PetscMax(2 * ens->maxmine, 64);
    PetscReal *rc;

    PetscCall(PetscMalloc2(max, &id, max * rec, &rc));
    PetscCall(PetscArraycpy(id, ens->mineid, ens->nmine));
    PetscCall(PetscArraycpy(rc, ens->minerec, ens->nmine * rec));
    PetscCall(PetscFree2(ens->mineid, ens->minerec));
    ens->mineid  = id;
    ens->minerec = rc;
    ens->maxmine = max;
  }
  ens->mineid[ens->nmine] = B->member[b];
  r                       = ens->minerec + ens->nmine * rec;
  r[0]                    = (PetscReal)B->reason[b];
  r[1]                    = (PetscReal)B->steps[b];
  r[2]                    = (PetscReal)B->its[b];
  r[3]                    = B->t[b];
  if (ens->outputfn) {
    PetscCall(ens->outputfn(ens, B->member[b], ens->nparam, B->param + b * PetscMax(ens->nparam, 1), B->reason[b], B->steps[b], B->t[b], n, B->q + b * n, B->p + b * n, ens->nout, r + 4, ens->outputctx));
  } else {
    PetscCall(PetscArraycpy(r + 4, B->q + b * n, n));
    PetscCall(PetscArraycpy(r + 4 + n, B->p + b * n, n));
  }
  ens->nmine++;
  PetscFunctionReturn(0);
}

/* This process's members, batch after batch, until the shared queue is empty */
static PetscErrorCode Work(SimpVIEnsemble ens)
{
  SimpVIEnsembleBatch *B    = &ens->batch;
  PetscBool            more = PETSC_TRUE;

  PetscFunctionBegin;
  B->nb = 0;
  while (PETSC_TRUE) {
    while (more && B->nb < B->B) { /* the free slots take the next members: this process's chunk, then new ones while
                                      it holds fewer than the queue's limit (fewer as the queue nears its end) */
      PetscInt id, limit = B->B;

      if (ens->queue.next >= ens->queue.end) {
        PetscCall(SimpVIEnsembleQueueLimit_Private(ens, &limit));
        if (B->nb >= limit) break;
      }
      PetscCall(SimpVIEnsembleQueueNext_Private(ens, limit - B->nb, &id));
      if (id < 0) more = PETSC_FALSE;
      else PetscCall(SimpVIEnsembleBatchStart_Private(ens, B->nb++, id));
    }
    if (!B->nb) break;
    PetscCall(SimpVIEnsembleBatchStep_Private(ens));
    for (PetscInt b = 0; b < B->nb;) { /* members that ended leave; the last slot fills the gap */
      if (B->reason[b] == SIMPVI_ENSEMBLE_ITERATING) {
        b++;
        continue;
      }
      PetscCall(Record(ens, b));
      PetscCall(SimpVIEnsembleBatchMove_Private(ens, b, --B->nb));
    }
  }
  PetscFunctionReturn(0);
}

/*@
  SimpVIEnsembleSolve - Runs every member of a `SimpVIEnsemble`

  Collective

  Input Parameter:
. ens - the ensemble

  Options Database Key:
. -ensemble_view - view the study afterwards (see `SimpVIEnsembleSetFromOptions()`)

  Level: intermediate

  Notes:
  Each process takes member ids in chunks from a counter shared by all (process 0 works too) and runs them in batches
  of `SimpVIEnsembleSetBatchSize()` members: one step of every member of the batch at a time, the Newton iterations of
  all of them side by side, with one call of the pointwise function per iteration. A member ends at the `TS`'s final
  time or most steps, when the stop function says so, or when the Newton solve of one of its steps fails
  (`SIMPVI_ENSEMBLE_DIVERGED_NONLINEAR_SOLVE`: the study goes on). Its slot then takes the next member. On more than
  one process a process takes new members only while it holds fewer than a quarter of the members left per process
  (and at most a batch), so that the work each holds when the queue runs out, the study's tail, stays small.

  A member's steps are those of a lone `TSSIMPVI` run of it with `TSSimpVISetPointwiseLagrangian()`, bit for bit
  (see `SimpVIEnsembleSetTS()` for what a lone run does beyond them). The results, gathered on every process in member
  order by `SimpVIEnsembleGetResults()`, are therefore the same on any number of processes and for any batch size.

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleGetResults()`, `SimpVIEnsembleGetMemberInfo()`, `SimpVIEnsembleView()`
@*/
PetscErrorCode SimpVIEnsembleSolve(SimpVIEnsemble ens)
{
  PetscLogDouble start, end;
  MPI_Comm       comm;
  PetscMPIInt    rank, size, mine, first;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscCall(SimpVIEnsembleSetUp(ens));
  PetscCall(SimpVIEnsembleResultsFree_Private(ens));
  PetscCall(PetscObjectGetComm((PetscObject)ens, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscLogEventBegin(SIMPVI_EnsembleSolve, ens, 0, 0, 0));
  PetscCall(SimpVIEnsembleQueueBegin_Private(ens));
  PetscCall(PetscTime(&start));
  ierr = Work(ens); /* a user function's error on one process: the others finish the queue, then all stop below */
  PetscCall(PetscTime(&end));
  PetscCall(SimpVIEnsembleQueueEnd_Private(ens));
  mine = ierr ? rank + 1 : 0;
  PetscCallMPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MAX, comm));
  PetscCall(ierr);
  PetscCheck(!first, comm, PETSC_ERR_LIB, "SimpVIEnsembleSolve(): a member's function failed on process %d: all %d processes stop", first - 1, size);
  PetscCall(SimpVIEnsembleGather_Private(ens, (PetscReal)(end - start)));
  PetscCall(PetscLogEventEnd(SIMPVI_EnsembleSolve, ens, 0, 0, 0));
  PetscCall(PetscObjectViewFromOptions((PetscObject)ens, NULL, "-ensemble_view"));
  PetscFunctionReturn(0);
}

/*@C
  SimpVIEnsembleGetResults - Gets the result values of every member of a solved `SimpVIEnsemble`, in member order

  Not Collective

  Input Parameter:
. ens - the ensemble, after `SimpVIEnsembleSolve()`

  Output Parameters:
+ nout - the values per member (may be `NULL`)
- out  - the values, member i's at out + i nout (may be `NULL`); owned by the ensemble

  Level: intermediate

  Note:
  Every process holds all of them, the same whatever the number of processes.

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetOutputFunction()`, `SimpVIEnsembleGetMemberInfo()`
@*/
PetscErrorCode SimpVIEnsembleGetResults(SimpVIEnsemble ens, PetscInt *nout, const PetscReal *out[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscCheck(ens->solved, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_WRONGSTATE, "No results before SimpVIEnsembleSolve()");
  if (nout) *nout = ens->nout;
  if (out) *out = ens->out;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIEnsembleGetMemberInfo - Gets how the run of every member of a solved `SimpVIEnsemble` ended, in member order

  Not Collective

  Input Parameter:
. ens - the ensemble, after `SimpVIEnsembleSolve()`

  Output Parameters:
+ reason - how each member's run ended (may be `NULL`)
. steps  - the steps each took (may be `NULL`)
. its    - the Newton iterations each took, its cost (may be `NULL`)
- t      - the time each ended at (may be `NULL`)

  Level: intermediate

  Note:
  The arrays are owned by the ensemble; every process holds all of them.

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleMemberReason`, `SimpVIEnsembleGetResults()`
@*/
PetscErrorCode SimpVIEnsembleGetMemberInfo(SimpVIEnsemble ens, const SimpVIEnsembleMemberReason *reason[], const PetscInt *steps[], const PetscInt *its[], const PetscReal *t[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscCheck(ens->solved, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_WRONGSTATE, "No results before SimpVIEnsembleSolve()");
  if (reason) *reason = ens->reason;
  if (steps) *steps = ens->steps;
  if (its) *its = ens->its;
  if (t) *t = ens->tend;
  PetscFunctionReturn(0);
}
