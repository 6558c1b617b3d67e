/*
   SimpVIEnsemble, the object: its life, its setters and its options. A member is what a member function makes of its
   id (parameters, initial q and p); its mechanics are the pointwise door's function with the member and its
   parameters at each point; its steps are those of the TSSIMPVI given to SimpVIEnsembleSetTS().
*/
#include <simpvi/private/ensembleimpl.h> /*I "simpvi.h" I*/
#include <simpvi/private/compat.h>

PetscClassId SIMPVIENSEMBLE_CLASSID;

static const char *const MemberReasonsShifted[]      = {"DIVERGED_NONLINEAR_SOLVE", "ITERATING", "CONVERGED_TIME", "CONVERGED_ITS", "CONVERGED_USER", "SimpVIEnsembleMemberReason", "SIMPVI_ENSEMBLE_", NULL};
const char *const       *SimpVIEnsembleMemberReasons = MemberReasonsShifted + 1;

/*@
  SimpVIEnsembleCreate - Creates a parameter study: many small systems integrated with the scheme of a `TSSIMPVI`

  Collective

  Input Parameter:
. comm - the processes that share the members

  Output Parameter:
. ens - the ensemble

  Level: intermediate

  Notes:
  Give it a configured `TSSIMPVI` (`SimpVIEnsembleSetTS()`), the number of members (`SimpVIEnsembleSetSize()`), a
  member function (`SimpVIEnsembleSetMemberFunction()`) and the mechanics (`SimpVIEnsembleSetPointwiseLagrangian()`),
  then `SimpVIEnsembleSolve()`. Each member takes the steps a lone `TSSIMPVI` run of it with the pointwise door
  (`TSSimpVISetPointwiseLagrangian()`) takes, bit for bit, whatever the batch size and the number of processes.

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetTS()`, `SimpVIEnsembleSolve()`, `SimpVIEnsembleDestroy()`
@*/
PetscErrorCode SimpVIEnsembleCreate(MPI_Comm comm, SimpVIEnsemble *ens)
{
  SimpVIEnsemble e;

  PetscFunctionBegin;
  PetscAssertPointer(ens, 2);
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscHeaderCreate(e, SIMPVIENSEMBLE_CLASSID, "SimpVIEnsemble", "Parameter study", "TS", comm, SimpVIEnsembleDestroy, SimpVIEnsembleView));
  e->batchsize = 16;
  e->chunk     = PETSC_DECIDE;
  *ens         = e;
  PetscFunctionReturn(0);
}

/*@
  SimpVIEnsembleDestroy - Destroys a `SimpVIEnsemble`

  Collective

  Input Parameter:
. ens - the ensemble

  Level: intermediate

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleCreate()`
@*/
PetscErrorCode SimpVIEnsembleDestroy(SimpVIEnsemble *ens)
{
  SimpVIEnsemble e;

  PetscFunctionBegin;
  if (!ens || !*ens) PetscFunctionReturn(0);
  e = *ens;
  PetscValidHeaderSpecific(e, SIMPVIENSEMBLE_CLASSID, 1);
  if (--((PetscObject)e)->refct > 0) {
    *ens = NULL;
    PetscFunctionReturn(0);
  }
  PetscCall(SimpVIEnsembleBatchDestroy_Private(e));
  PetscCall(SimpVIEnsembleResultsFree_Private(e));
  PetscCall(SimpVIKernelDestroy(&e->kernel));
  if (e->outnames)
    for (PetscInt j = 0; j < e->nout; j++) PetscCall(PetscFree(e->outnames[j]));
  PetscCall(PetscFree(e->outnames));
  PetscCall(PetscFree3(e->rankmembers, e->rankchunks, e->rankbusy));
  PetscCall(TSDestroy(&e->ts));
  PetscCall(PetscHeaderDestroy(ens));
  PetscFunctionReturn(0);
}

/* A change of the study: the work space and the results of an earlier solve go */
static PetscErrorCode Changed(SimpVIEnsemble ens)
{
  PetscFunctionBegin;
  PetscCall(SimpVIEnsembleBatchDestroy_Private(ens));
  PetscCall(SimpVIEnsembleResultsFree_Private(ens));
  PetscCall(SimpVIKernelDestroy(&ens->kernel));
  ens->setupcalled = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@
  SimpVIEnsembleSetTS - Gives a `SimpVIEnsemble` the `TSSIMPVI` whose steps its members take

  Logically Collective

  Input Parameters:
+ ens - the ensemble
- ts  - a `TS` of type `TSSIMPVI`, configured (its options set): its scheme, start time, time step, final time or
        most steps, exact final time and the tolerances of its `SNES`

  Level: intermediate

  Notes:
  The ensemble reads the `TS` at `SimpVIEnsembleSetUp()`: `TSGetTime()`, `TSGetTimeStep()`, `TSGetMaxTime()`,
  `TSGetMaxSteps()`, `TSGetExactFinalTime()` (stepover or matchstep), -ts_simpvi_type and -ts_simpvi_degree,
  -ts_simpvi_compensated_summation, and `SNESGetTolerances()`, `SNESGetDivergenceTolerance()` of its `SNES`. Each step
  of a member is the Newton iteration of `SNESSIMPVIDENSE` with the `SNES`'s default convergence test (full steps, LU
  by LAPACK) on the step's equations of `TSSimpVICreateKernel()`; the `TS` needs no mechanics and no solution.

  A member's steps are then those of a lone run of it by Newton (-ts_simpvi_lag_jacobian false) whose `SNES` is the
  default of small systems, `SNESSIMPVIDENSE` with full steps: bit for bit. A lone run with default options (simplified
  Newton: the Jacobian kept while the iteration contracts fast), another `SNES` type (-snes_type newtonls), a line
  search (-snes_linesearch_type bt) or -snes_lag_jacobian agrees to its Newton tolerance only.

  What a lone `TSSIMPVI` does beyond that is not done for a member: no stability checks, no second solve by
  `SNESNEWTONLS` after a failed dense Newton, no retry with a shorter step (a failed member stops, reported as
  `SIMPVI_ENSEMBLE_DIVERGED_NONLINEAR_SOLVE`), no forces, no events but the stop function.

.seealso: `SimpVIEnsemble`, `TSSIMPVI`, `SimpVIEnsembleSetUp()`, `TSSimpVICreateKernel()`
@*/
PetscErrorCode SimpVIEnsembleSetTS(SimpVIEnsemble ens, TS ts)
{
  PetscBool simpvi;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscValidHeaderSpecific(ts, TS_CLASSID, 2);
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &simpvi));
  PetscCheck(simpvi, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_WRONG, "SimpVIEnsembleSetTS() needs a TS of type TSSIMPVI, not %s", ((PetscObject)ts)->type_name ? ((PetscObject)ts)->type_name : "(no type)");
  PetscCall(PetscObjectReference((PetscObject)ts));
  PetscCall(TSDestroy(&ens->ts));
  ens->ts = ts;
  PetscCall(Changed(ens));
  PetscFunctionReturn(0);
}

/*@
  SimpVIEnsembleSetSize - Sets the number of members of a `SimpVIEnsemble`: members 0 to nmembers - 1

  Logically Collective

  Input Parameters:
+ ens      - the ensemble
- nmembers - the number of members

  Level: intermediate

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleGetSize()`, `SimpVIEnsembleSetMemberFunction()`
@*/
PetscErrorCode SimpVIEnsembleSetSize(SimpVIEnsemble ens, PetscInt nmembers)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ens, nmembers, 2);
  PetscCheck(nmembers >= 0, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_OUTOFRANGE, "Number of members %" PetscInt_FMT " must be nonnegative", nmembers);
  ens->nmembers = nmembers;
  PetscCall(Changed(ens));
  PetscFunctionReturn(0);
}

/*@
  SimpVIEnsembleGetSize - Gets the number of members of a `SimpVIEnsemble`

  Not Collective

  Input Parameter:
. ens - the ensemble

  Output Parameter:
. nmembers - the number of members

  Level: intermediate

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetSize()`
@*/
PetscErrorCode SimpVIEnsembleGetSize(SimpVIEnsemble ens, PetscInt *nmembers)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscAssertPointer(nmembers, 2);
  *nmembers = ens->nmembers;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIEnsembleSetMemberFunction - Sets the function that gives each member of a `SimpVIEnsemble` its parameters and
  initial state

  Logically Collective

  Input Parameters:
+ ens    - the ensemble
. n      - the number of positions of a member
. nparam - the number of parameters of a member (0 or more)
. f      - the function, `SimpVIEnsembleMemberFn`
- ctx    - its context (may be `NULL`)

  Level: intermediate

  Note:
  The function is called once per member, on the process that runs it. A member whose state is not finite (a NaN)
  fails at its first step and is reported so; the others run on.

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleMemberFn`, `SimpVIEnsembleSetPointwiseLagrangian()`
@*/
PetscErrorCode SimpVIEnsembleSetMemberFunction(SimpVIEnsemble ens, PetscInt n, PetscInt nparam, SimpVIEnsembleMemberFn f, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ens, n, 2);
  PetscValidLogicalCollectiveInt(ens, nparam, 3);
  PetscCheck(n >= 1, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_OUTOFRANGE, "A member needs at least one position, not %" PetscInt_FMT, n);
  PetscCheck(nparam >= 0, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_OUTOFRANGE, "Number of parameters %" PetscInt_FMT " must be nonnegative", nparam);
  ens->n         = n;
  ens->nparam    = nparam;
  ens->memberfn  = f;
  ens->memberctx = ctx;
  PetscCall(Changed(ens));
  PetscFunctionReturn(0);
}

/*@C
  SimpVIEnsembleSetPointwiseLagrangian - Sets the mechanics of the members of a `SimpVIEnsemble`: P = dL/dv,
  G = dL/dx and their derivatives at many points (of many members) per call, as `TSSimpVISetPointwiseLagrangian()`
  with the member and its parameters at each point

  Logically Collective

  Input Parameters:
+ ens - the ensemble
. f   - the function, `SimpVIEnsemblePointwiseFn`
- ctx - its context (may be `NULL`)

  Level: intermediate

  Note:
  Each Newton iteration of a batch calls it once with every quadrature point of every member still iterating, with
  the derivatives (L is never asked for).

.seealso: `SimpVIEnsemble`, `SimpVIEnsemblePointwiseFn`, `TSSimpVISetPointwiseLagrangian()`
@*/
PetscErrorCode SimpVIEnsembleSetPointwiseLagrangian(SimpVIEnsemble ens, SimpVIEnsemblePointwiseFn f, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  ens->pointwise    = f;
  ens->pointwisectx = ctx;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIEnsembleSetStopFunction - Sets a function called after each step of each member of a `SimpVIEnsemble`, which
  may end the member's run (an event)

  Logically Collective

  Input Parameters:
+ ens - the ensemble
. f   - the function, `SimpVIEnsembleStopFn` (`NULL`: none)
- ctx - its context (may be `NULL`)

  Level: intermediate

  Note:
  A member it stops ends with `SIMPVI_ENSEMBLE_CONVERGED_USER`, also at its last step, as a `TSSetPostStep()` function
  that calls `TSSetConvergedReason()` with `TS_CONVERGED_USER` ends a lone `TS`'s run.

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleStopFn`, `SimpVIEnsembleSetBatchStopFunction()`, `SimpVIEnsembleGetMemberInfo()`
@*/
PetscErrorCode SimpVIEnsembleSetStopFunction(SimpVIEnsemble ens, SimpVIEnsembleStopFn f, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  ens->stopfn  = f;
  ens->stopctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIEnsembleSetBatchStopFunction - Sets a function called once after each step of a batch of a `SimpVIEnsemble`
  with every member whose step succeeded, which may end their runs: the stop function on arrays, for vectorised code
  (one call per batch step instead of one per member and step)

  Logically Collective

  Input Parameters:
+ ens - the ensemble
. f   - the function, `SimpVIEnsembleBatchStopFn` (`NULL`: none)
- ctx - its context (may be `NULL`)

  Level: intermediate

  Notes:
  A member it stops ends with `SIMPVI_ENSEMBLE_CONVERGED_USER`, as with `SimpVIEnsembleSetStopFunction()`, whose
  function sees the same members at the same steps (each right after its step, this one after the batch's step);
  each member's verdict must depend on that member alone. Both may be set: a member ends if either says so.

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleBatchStopFn`, `SimpVIEnsembleSetStopFunction()`
@*/
PetscErrorCode SimpVIEnsembleSetBatchStopFunction(SimpVIEnsemble ens, SimpVIEnsembleBatchStopFn f, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  ens->batchstopfn  = f;
  ens->batchstopctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIEnsembleSetOutputFunction - Sets the function that gives the result values of each member of a
  `SimpVIEnsemble` at the end of its run

  Logically Collective

  Input Parameters:
+ ens   - the ensemble
. nout  - the number of values per member
. names - their names, for the view's CSV header (`NULL`: out0, out1, ...)
. f     - the function, `SimpVIEnsembleOutputFn`
- ctx   - its context (may be `NULL`)

  Level: intermediate

  Note:
  Without an output function a member's result values are its final positions and momenta (2 n values: q0, ..., p0,
  ...). The function is called for every member, failed ones too (with their last good state).

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleOutputFn`, `SimpVIEnsembleGetResults()`, `SimpVIEnsembleView()`
@*/
PetscErrorCode SimpVIEnsembleSetOutputFunction(SimpVIEnsemble ens, PetscInt nout, const char *const names[], SimpVIEnsembleOutputFn f, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ens, nout, 2);
  PetscCheck(nout >= 0, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_OUTOFRANGE, "Number of result values %" PetscInt_FMT " must be nonnegative", nout);
  PetscCall(Changed(ens));
  if (ens->outnames)
    for (PetscInt j = 0; j < ens->nout; j++) PetscCall(PetscFree(ens->outnames[j]));
  PetscCall(PetscFree(ens->outnames));
  ens->nout      = nout;
  ens->outputfn  = f;
  ens->outputctx = ctx;
  if (names) {
    PetscCall(PetscMalloc1(nout, &ens->outnames));
    for (PetscInt j = 0; j < nout; j++) PetscCall(PetscStrallocpy(names[j], &ens->outnames[j]));
  }
  PetscFunctionReturn(0);
}

/*@
  SimpVIEnsembleSetBatchSize - Sets the most members a process integrates together: their points come to the pointwise
  function in one call per Newton iteration

  Logically Collective

  Input Parameters:
+ ens   - the ensemble
- batch - the most members in a batch (default 16)

  Options Database Key:
. -ensemble_batch <16> - the batch size

  Level: intermediate

  Notes:
  The results do not depend on it: each member's arithmetic is its own.

  A process holds its members until they end, all of them stepping together; the longer the batch, the more work a
  process may hold when the queue runs out, and the others wait for it (on many processes, fewer members are held as
  the queue nears its end: `SimpVIEnsembleSolve()`). In C a member's step costs its arithmetic whatever the batch;
  a batch pays off where one call of the mechanics for many points is cheaper than many calls (vectorised code).

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetChunkSize()`
@*/
PetscErrorCode SimpVIEnsembleSetBatchSize(SimpVIEnsemble ens, PetscInt batch)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ens, batch, 2);
  PetscCheck(batch >= 1, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_OUTOFRANGE, "Batch size %" PetscInt_FMT " must be positive", batch);
  if (batch != ens->batchsize) PetscCall(Changed(ens));
  ens->batchsize = batch;
  PetscFunctionReturn(0);
}

/*@
  SimpVIEnsembleSetChunkSize - Sets how many member ids a process takes at a time from the shared queue

  Logically Collective

  Input Parameters:
+ ens   - the ensemble
- chunk - members per request, or `PETSC_DECIDE` (the members over 16 times the processes, at most the batch size)

  Options Database Key:
. -ensemble_chunk <chunk> - the chunk size

  Level: advanced

  Note:
  Members are handed out on request, so a process that draws cheap members takes more of them; smaller chunks balance
  the last members better, larger ones ask less often.

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetBatchSize()`
@*/
PetscErrorCode SimpVIEnsembleSetChunkSize(SimpVIEnsemble ens, PetscInt chunk)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ens, chunk, 2);
  PetscCheck(chunk >= 1 || chunk == PETSC_DECIDE, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_OUTOFRANGE, "Chunk size %" PetscInt_FMT " must be positive", chunk);
  ens->chunk = chunk;
  PetscFunctionReturn(0);
}

/*@
  SimpVIEnsembleSetFromOptions - Sets a `SimpVIEnsemble` from the options database

  Collective

  Input Parameter:
. ens - the ensemble

  Options Database Keys:
+ -ensemble_batch <16> - the most members integrated together on a process
. -ensemble_chunk <n>   - member ids per request to the shared queue
- -ensemble_view        - view the study after `SimpVIEnsembleSolve()` (-ensemble_view ::ascii_info_detail: each process's
                          share; -ensemble_view :results.csv:ascii_csv: the results as CSV)

  Level: intermediate

  Note:
  The scheme, steps and Newton tolerances are the `TS`'s options (-ts_simpvi_type, -ts_dt, -ts_max_time, -snes_rtol, ...).

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetBatchSize()`, `SimpVIEnsembleSetChunkSize()`, `SimpVIEnsembleView()`
@*/
PetscErrorCode SimpVIEnsembleSetFromOptions(SimpVIEnsemble ens)
{
  PetscInt  batch = ens->batchsize, chunk = ens->chunk;
  PetscBool view;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscObjectOptionsBegin((PetscObject)ens);
  PetscCall(PetscOptionsInt("-ensemble_batch", "The most members integrated together on a process", "SimpVIEnsembleSetBatchSize", batch, &batch, NULL));
  PetscCall(PetscOptionsInt("-ensemble_chunk", "Member ids per request to the shared queue", "SimpVIEnsembleSetChunkSize", chunk, &chunk, NULL));
  PetscCall(PetscOptionsName("-ensemble_view", "View the study after the solve", "SimpVIEnsembleView", &view)); /* read by the solve */
  PetscOptionsEnd();
  PetscCall(SimpVIEnsembleSetBatchSize(ens, batch));
  PetscCall(SimpVIEnsembleSetChunkSize(ens, chunk));
  PetscFunctionReturn(0);
}
