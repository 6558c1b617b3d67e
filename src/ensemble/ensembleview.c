/*
   SimpVIEnsembleView: the study in a few lines (its scheme and steps, how its members ended, the balance of the
   processes), each process's share under ascii_info_detail, the results as CSV under ascii_csv, and as a Vec to any
   other viewer (binary, HDF5).
*/
#include <simpvi/private/ensembleimpl.h> /*I "simpvi.h" I*/

/* One CSV line per member: member, reason, steps, Newton iterations, final time, result values */
static PetscErrorCode ViewCSV(SimpVIEnsemble ens, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "member,reason,steps,newton_its,t"));
  for (PetscInt j = 0; j < ens->nout; j++) {
    if (ens->outnames) PetscCall(PetscViewerASCIIPrintf(viewer, ",%s", ens->outnames[j]));
    else PetscCall(PetscViewerASCIIPrintf(viewer, ",out%" PetscInt_FMT, j));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  for (PetscInt i = 0; i < ens->nmembers; i++) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT ",%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%.17g", i, SimpVIEnsembleMemberReasons[ens->reason[i]], ens->steps[i], ens->its[i], (double)ens->tend[i]));
    for (PetscInt j = 0; j < ens->nout; j++) PetscCall(PetscViewerASCIIPrintf(viewer, ",%.17g", (double)ens->out[i * ens->nout + j]));
    PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  }
  PetscFunctionReturn(0);
}

/* The balance of the last solve: busy time over the slowest process's (the solve's wall time) */
static PetscErrorCode ViewBalance(SimpVIEnsemble ens, PetscViewer viewer, PetscBool detail)
{
  PetscMPIInt size;
  PetscReal   mean = 0, min = 1;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ens), &size));
  for (PetscMPIInt r = 0; r < size; r++) {
    const PetscReal u = ens->wall > 0 ? ens->rankbusy[r] / ens->wall : 1;

    mean += u / size;
    min = PetscMin(min, u);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "Processes: %d, busy %.1f %% of the solve's %g s on average (least busy %.1f %%)\n", (int)size, (double)(100 * mean), (double)ens->wall, (double)(100 * min)));
  if (!detail) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPushTab(viewer));
  for (PetscMPIInt r = 0; r < size; r++)
    PetscCall(
      PetscViewerASCIIPrintf(viewer, "[%d] %" PetscInt_FMT " members in %" PetscInt_FMT " chunks, busy %g s (%.1f %%)\n", (int)r, ens->rankmembers[r], ens->rankchunks[r], (double)ens->rankbusy[r], (double)(ens->wall > 0 ? 100 * ens->rankbusy[r] / ens->wall : 100)));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

/* Any other viewer (binary, HDF5): the results as one Vec named "SimpVIEnsembleResults", a row per member in member
   order: reason, steps, Newton iterations, final time, the result values */
static PetscErrorCode ViewVec(SimpVIEnsemble ens, PetscViewer viewer)
{
  const PetscInt rec = SIMPVI_ENSEMBLE_RECORD(ens);
  Vec            R;
  PetscInt       lo, hi;
  PetscScalar   *r;

  PetscFunctionBegin;
  PetscCheck(ens->solved, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_WRONGSTATE, "No results to write before SimpVIEnsembleSolve()");
  PetscCall(VecCreate(PetscObjectComm((PetscObject)ens), &R));
  PetscCall(VecSetSizes(R, PETSC_DECIDE, ens->nmembers * rec));
  PetscCall(VecSetBlockSize(R, rec));
  PetscCall(VecSetFromOptions(R));
  PetscCall(PetscObjectSetName((PetscObject)R, "SimpVIEnsembleResults"));
  PetscCall(VecGetOwnershipRange(R, &lo, &hi));
  PetscCall(VecGetArrayWrite(R, &r));
  for (PetscInt k = lo; k < hi; k++) {
    const PetscInt i = k / rec, j = k % rec;

    r[k - lo] = j == 0 ? (PetscReal)ens->reason[i] : j == 1 ? (PetscReal)ens->steps[i] : j == 2 ? (PetscReal)ens->its[i] : j == 3 ? ens->tend[i] : ens->out[i * ens->nout + j - 4];
  }
  PetscCall(VecRestoreArrayWrite(R, &r));
  PetscCall(VecView(R, viewer));
  PetscCall(VecDestroy(&R));
  PetscFunctionReturn(0);
}

/*@C
  SimpVIEnsembleView - Views a `SimpVIEnsemble`: its study and, after a solve, how its members ended and how busy each
  process was; or its results as CSV

  Collective

  Input Parameters:
+ ens    - the ensemble
- viewer - a viewer (`NULL`: `PETSC_VIEWER_STDOUT_()` of its communicator)

  Options Database Key:
. -ensemble_view - after `SimpVIEnsembleSolve()`; -ensemble_view ::ascii_info_detail adds each process's members,
                   chunks and busy time; -ensemble_view :file.csv:ascii_csv writes the results

  Level: intermediate

  Notes:
  Format `PETSC_VIEWER_ASCII_CSV` writes one line per member, in member order: member, reason, steps, Newton
  iterations, final time and the result values (`SimpVIEnsembleSetOutputFunction()`), all reals to 17 digits; the same
  file whatever the number of processes.

  Any other viewer (`PETSCVIEWERBINARY`, `PETSCVIEWERHDF5`, ...) gets the results as one `Vec` named
  "SimpVIEnsembleResults" of block size 4 + nout, a block per member in member order: reason, steps, Newton
  iterations, final time and the result values (`VecLoad()` reads it back).

  A process is busy from the start of the solve until its last member ends; the percentages are of the slowest
  process's time.

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSolve()`, `SimpVIEnsembleGetResults()`
@*/
PetscErrorCode SimpVIEnsembleView(SimpVIEnsemble ens, PetscViewer viewer)
{
  PetscBool         iascii;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)ens), &viewer));
  PetscValidHeaderSpecific(viewer, PETSC_VIEWER_CLASSID, 2);
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) {
    PetscCall(ViewVec(ens, viewer));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (format == PETSC_VIEWER_ASCII_CSV) {
    PetscCheck(ens->solved, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_WRONGSTATE, "No results to write before SimpVIEnsembleSolve()");
    PetscCall(ViewCSV(ens, viewer));
    PetscFunctionReturn(0);
  }
  {
    const char *prefix;
    PetscMPIInt size;

    PetscCall(PetscObjectGetOptionsPrefix((PetscObject)ens, &prefix));
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ens), &size));
    PetscCall(PetscViewerASCIIPrintf(viewer, "SimpVIEnsemble Object:%s%s %d MPI process%s\n", prefix ? " " : "", prefix ? prefix : "", (int)size, size > 1 ? "es" : ""));
  }
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " members of %" PetscInt_FMT " positions and %" PetscInt_FMT " parameters; batches of %" PetscInt_FMT "\n", ens->nmembers, ens->n, ens->nparam, ens->batchsize));
  if (ens->setupcalled) {
    const SimpVIEnsembleControl *ctl = &ens->ctl;

    PetscCall(PetscViewerASCIIPrintf(viewer, "Scheme %s, degree %" PetscInt_FMT ", order %" PetscInt_FMT "; steps of %g from t = %g", ctl->type, ctl->degree, ctl->order, (double)ctl->h, (double)ctl->t0));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE)); /* the rest of the line */
    if (ctl->tmax < PETSC_MAX_REAL) PetscCall(PetscViewerASCIIPrintf(viewer, " to %g (%s)", (double)ctl->tmax, ctl->eftopt == TS_EXACTFINALTIME_MATCHSTEP ? "matchstep" : "stepover"));
    if (ctl->maxsteps < PETSC_MAX_INT) PetscCall(PetscViewerASCIIPrintf(viewer, ", at most %" PetscInt_FMT, ctl->maxsteps));
    PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
    PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
    PetscCall(PetscViewerASCIIPrintf(viewer, "Newton of SNESSIMPVIDENSE on each member's step: rtol %g, atol %g, stol %g, max_it %" PetscInt_FMT "\n", (double)ctl->rtol, (double)ctl->atol, (double)ctl->stol, ctl->maxit));
  }
  if (ens->solved) {
    PetscInt count[5] = {0, 0, 0, 0, 0}, its = 0, steps = 0;

    for (PetscInt i = 0; i < ens->nmembers; i++) {
      count[ens->reason[i] + 1]++;
      its += ens->its[i];
      steps += ens->steps[i];
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "Members: %" PetscInt_FMT " reached the final time, %" PetscInt_FMT " took the most steps, %" PetscInt_FMT " stopped, %" PetscInt_FMT " failed\n", count[SIMPVI_ENSEMBLE_CONVERGED_TIME + 1], count[SIMPVI_ENSEMBLE_CONVERGED_ITS + 1], count[SIMPVI_ENSEMBLE_CONVERGED_USER + 1], count[SIMPVI_ENSEMBLE_DIVERGED_NONLINEAR_SOLVE + 1]));
    PetscCall(PetscViewerASCIIPrintf(viewer, "Steps %" PetscInt_FMT ", Newton iterations %" PetscInt_FMT "\n", steps, its));
    PetscCall(ViewBalance(ens, viewer, (PetscBool)(format == PETSC_VIEWER_ASCII_INFO_DETAIL)));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}
