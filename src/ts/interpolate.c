/*
   Dense output of TSSIMPVI. The state at a time t inside the last step [t_j, t_j + h] is the scheme's own step of
   length t - t_j from (q_j, p_j): a partial step, solved like any other. Its q(t) and p(t) = D2 Ld(q_j, Q, q(t)) have
   the scheme's order 2s (the step polynomial alone, with p as L_v of its derivative, has a lower order), and since it
   is a variational step it conserves the momentum of every symmetry of the Lagrangian, so a cyclic momentum keeps its
   value to round-off at any interpolated time. The last step's polynomial is the predictor, so Newton needs few
   iterations. The last step's own record (its start, polynomial and time) is left as it was.
*/
#include <simpvi/private/tssimpviimpl.h>

/* The end (q1, p1) of the step set in vi->step (a partial step), solved from the predictor */
static PetscErrorCode PartialStep(TS ts, Vec q1, Vec p1)
{
  TS_SimpVI  *vi = (TS_SimpVI *)ts->data;
  PetscInt    its, lits;
  PetscBool   converged;
  const char *reason;
  PetscReal   t, h;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetTime_Private(vi->step, &t, &h));
  PetscCall(SimpVIStepPredict_Private(vi->step));
  PetscCall(SimpVIStepSolve_Private(ts, &its, &lits, &converged, &reason));
  PetscCheck(converged, PetscObjectComm((PetscObject)ts), PETSC_ERR_NOT_CONVERGED, "TSSIMPVI could not interpolate at t = %g: the step of length %g from t = %g failed: %s after %" PetscInt_FMT " iterations", (double)(t + h), (double)h, (double)t, reason, its);
  PetscCall(PetscInfo(ts, "Interpolated at t = %g by a step of %g from t = %g: %" PetscInt_FMT " nonlinear, %" PetscInt_FMT " linear iterations\n", (double)(t + h), (double)h, (double)t, its, lits));
  PetscCall(SimpVIStepFinish_Private(vi->step, q1, p1));
  PetscFunctionReturn(0);
}

/*
  SimpVIInterpolate_Private - positions q and momenta p at time t of the last step: its start or end when t is one of
  them, else the partial step from its start to t
*/
PetscErrorCode SimpVIInterpolate_Private(TS ts, PetscReal t, Vec q, Vec p)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscReal  tol, tprev, hprev;
  PetscBool  has;
  Vec        qprev, pprev;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetPrevious_Private(vi->step, &has, &tprev, &hprev, &qprev, &pprev));
  PetscCheck(has, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI can interpolate only after a step");
  tol = 4 * PETSC_MACHINE_EPSILON * PetscMax(PetscAbsReal(tprev), PetscAbsReal(tprev + hprev));
  PetscCheck(t >= tprev - tol && t <= tprev + hprev + tol, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "TSSIMPVI interpolates inside its last step [%g, %g], not at %g", (double)tprev, (double)(tprev + hprev), (double)t);
  if (t <= tprev + tol) {
    PetscCall(VecCopy(qprev, q));
    PetscCall(VecCopy(pprev, p));
    PetscFunctionReturn(0);
  }
  /* the step's end as the step stored it (vi->q1, vi->p1 hold it until the next step; with compensated sums t, q1 and
     p1 may differ in the last bit from tprev + hprev and the polynomial's last node) */
  if (t >= tprev + hprev - tol && vi->stored && ts->ptime == vi->tstored) {
    PetscCall(VecCopy(vi->q1, q));
    PetscCall(VecCopy(vi->p1, p));
    PetscFunctionReturn(0);
  }
  PetscCall(SimpVIStepBeginPartial_Private(vi->step, t));
  PetscCall(PartialStep(ts, q, p));
  PetscCall(SimpVIStepEndPartial_Private(vi->step));
  PetscFunctionReturn(0);
}
