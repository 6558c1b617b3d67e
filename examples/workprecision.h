/*
   -wp: one record per TSSolve() for the work-precision benchmark (bench/workprecision.py), in any example that calls
   WorkPrecisionSetUp() before its solve and WorkPrecisionReport() after it:

     WP steps=<n> time=<s> newton=<n> energy=<sup_j |H_j - H_0|/|H_0|> state=<|X - X_ref|_inf/|X_ref|_inf or -1>
        diverged=<steps whose nonlinear solve failed>

   time is the wall time spent inside the steps (from each pre-step to its post-step hook), so the examples' own
   monitors and this one's energy are not counted: every method pays for its steps only. The state error compares the
   final state X with a reference saved by an earlier run (-wp_save FILE, -wp_reference FILE; PETSc binary, one
   process). The energy is TSSimpVIComputeEnergy()'s unless the example gives its own. diverged counts the steps whose
   SNES did not converge, which some PETSc types (TSIRK) step over without an error. One measured TS at a time.
*/
#ifndef WORKPRECISION_H
#define WORKPRECISION_H
#include <simpvi.h>

typedef PetscErrorCode (*WorkPrecisionEnergyFn)(TS, PetscReal, Vec, PetscReal *, void *);

typedef struct {
  PetscBool             on;
  PetscLogDouble        tstart, time; /* start of the current step; sum of the steps' times */
  PetscReal             H0, eH;
  SNES                  snes;     /* the TS's SNES when its type has one, else NULL */
  PetscInt              diverged; /* steps whose nonlinear solve failed */
  WorkPrecisionEnergyFn energy;
  void                 *ctx;
  char                  save[PETSC_MAX_PATH_LEN], reference[PETSC_MAX_PATH_LEN];
} WorkPrecision;

static WorkPrecision *workprecision_active; /* the pre- and post-step hooks take no context */

static inline PetscErrorCode WorkPrecisionPreStep(TS ts)
{
  PetscFunctionBeginUser;
  PetscCall(PetscTime(&workprecision_active->tstart));
  PetscFunctionReturn(0);
}

static inline PetscErrorCode WorkPrecisionPostStep(TS ts)
{
  PetscLogDouble t;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t));
  workprecision_active->time += t - workprecision_active->tstart;
  if (workprecision_active->snes) {
    SNESConvergedReason reason;

    PetscCall(SNESGetConvergedReason(workprecision_active->snes, &reason));
    if (reason < 0) workprecision_active->diverged++;
  }
  PetscFunctionReturn(0);
}

static inline PetscErrorCode WorkPrecisionMonitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  WorkPrecision *wp = (WorkPrecision *)ctx;
  PetscReal      H;

  PetscFunctionBeginUser;
  if (wp->energy) PetscCall(wp->energy(ts, t, U, &H, wp->ctx));
  else PetscCall(TSSimpVIComputeEnergy(ts, t, U, &H));
  if (step == 0) wp->H0 = H;
  else wp->eH = PetscMax(wp->eH, PetscAbsReal(H - wp->H0) / PetscAbsReal(wp->H0));
  PetscFunctionReturn(0);
}

/* After TSSetFromOptions() (and TSSimpVISetUpPhaseSpace()): with -wp, hooks that time the steps and follow the energy
   (energy NULL: TSSimpVIComputeEnergy()) */
static inline PetscErrorCode WorkPrecisionSetUp(TS ts, WorkPrecisionEnergyFn energy, void *ctx, WorkPrecision *wp)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(wp, sizeof(*wp)));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-wp", &wp->on, NULL));
  if (!wp->on) PetscFunctionReturn(0);
  PetscCall(PetscOptionsGetString(NULL, NULL, "-wp_save", wp->save, sizeof(wp->save), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-wp_reference", wp->reference, sizeof(wp->reference), NULL));
  wp->energy = energy;
  wp->ctx    = ctx;
  { /* the explicit types have no SNES (TSGetSNES() would make one) */
    PetscBool explicit_type = PETSC_FALSE, match;

    for (size_t i = 0; i < 4; i++) {
      const TSType types[] = {TSRK, TSBASICSYMPLECTIC, TSEULER, TSSSP};

      PetscCall(PetscObjectTypeCompare((PetscObject)ts, types[i], &match));
      explicit_type = (PetscBool)(explicit_type || match);
    }
    if (!explicit_type) PetscCall(TSGetSNES(ts, &wp->snes));
  }
  workprecision_active = wp;
  PetscCall(TSSetPreStep(ts, WorkPrecisionPreStep));
  PetscCall(TSSetPostStep(ts, WorkPrecisionPostStep));
  PetscCall(TSMonitorSet(ts, WorkPrecisionMonitor, wp, NULL));
  PetscFunctionReturn(0);
}

/* After TSSolve(): the record, with X the final state to compare (U, or (u, v) of a second-order problem) */
static inline PetscErrorCode WorkPrecisionReport(TS ts, Vec X, WorkPrecision *wp)
{
  PetscInt    steps, newton;
  PetscReal   err = -1;
  PetscViewer viewer;

  PetscFunctionBeginUser;
  if (!wp->on) PetscFunctionReturn(0);
  PetscCall(TSGetStepNumber(ts, &steps));
  PetscCall(TSGetSNESIterations(ts, &newton));
  if (wp->reference[0]) {
    Vec       R;
    PetscReal nr;

    PetscCall(VecDuplicate(X, &R));
    PetscCall(PetscViewerBinaryOpen(PetscObjectComm((PetscObject)X), wp->reference, FILE_MODE_READ, &viewer));
    PetscCall(VecLoad(R, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
    PetscCall(VecNorm(R, NORM_INFINITY, &nr));
    PetscCall(VecAXPY(R, -1, X));
    PetscCall(VecNorm(R, NORM_INFINITY, &err));
    err /= nr;
    PetscCall(VecDestroy(&R));
  }
  if (wp->save[0]) {
    PetscCall(PetscViewerCreate(PetscObjectComm((PetscObject)X), &viewer));
    PetscCall(PetscViewerSetType(viewer, PETSCVIEWERBINARY));
    PetscCall(PetscViewerBinarySetSkipInfo(viewer, PETSC_TRUE));
    PetscCall(PetscViewerFileSetMode(viewer, FILE_MODE_WRITE));
    PetscCall(PetscViewerFileSetName(viewer, wp->save));
    PetscCall(VecView(X, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
  }
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)ts), "WP steps=%" PetscInt_FMT " time=%.6e newton=%" PetscInt_FMT " energy=%.6e state=%.6e diverged=%" PetscInt_FMT "\n", steps, wp->time, newton, (double)wp->eH, (double)err, wp->diverged));
  PetscCall(TSSetPreStep(ts, NULL));
  PetscCall(TSSetPostStep(ts, NULL));
  workprecision_active = NULL;
  PetscFunctionReturn(0);
}
#endif
