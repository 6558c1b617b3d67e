/*
   Dense output of TSSIMPVI. The state at a time t inside the last step [t_j, t_j + h] is the scheme's own step of
   length t - t_j from (q_j, p_j): a partial step, solved like any other. Its q(t) and p(t) = D2 Ld(q_j, Q, q(t)) have
   the scheme's order 2s (the step polynomial alone, with p as L_v of its derivative, has a lower order), and since it
   is a variational step it conserves the momentum of every symmetry of the Lagrangian, so a cyclic momentum keeps its
   value to round-off at any interpolated time. The last step's polynomial is the predictor, so Newton needs few
   iterations. The last step's own record (its start, polynomial and time) is left as it was.
*/
#include <simpvi/private/tssimpviimpl.h>

/* The end (q1, p1) of the step of length h from (q0, p0) at t set in vi->step, solved from the predictor */
static PetscErrorCode PartialStep(TS ts, Vec q1, Vec p1)
{
  TS_SimpVI  *vi = (TS_SimpVI *)ts->data;
  PetscInt    its, lits;
  PetscBool   converged;
  const char *reason;

  PetscFunctionBegin;
  PetscCall(SimpVIStepPredict_Private(vi->step));
  PetscCall(SimpVIStepSolve_Private(ts, &its, &lits, &converged, &reason));
  PetscCheck(converged, PetscObjectComm((PetscObject)ts), PETSC_ERR_NOT_CONVERGED, "TSSIMPVI could not interpolate at t = %g: the step of length %g from t = %g failed: %s after %" PetscInt_FMT " iterations", (double)(vi->step->t + vi->step->h),
             (double)vi->step->h, (double)vi->step->t, reason, its);
  PetscCall(PetscInfo(ts, "Interpolated at t = %g by a step of %g from t = %g: %" PetscInt_FMT " nonlinear, %" PetscInt_FMT " linear iterations\n", (double)(vi->step->t + vi->step->h), (double)vi->step->h, (double)vi->step->t, its, lits));
  PetscCall(SimpVIStepFinish_Private(vi->step, q1, p1));
  PetscFunctionReturn(0);
}

/*
  SimpVIInterpolate_Private - positions q and momenta p at time t of the last step: its start or end when t is one of
  them, else the partial step from its start to t
*/
PetscErrorCode SimpVIInterpolate_Private(TS ts, PetscReal t, Vec q, Vec p)
{
  TS_SimpVI      *vi         = (TS_SimpVI *)ts->data;
  const PetscReal stage_time = vi->step->t, h = vi->step->h;
  PetscReal       tol;

  PetscFunctionBegin;
  PetscCheck(vi->step->havepoly, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI can interpolate only after a step");
  tol = 4 * PETSC_MACHINE_EPSILON * PetscMax(PetscAbsReal(vi->step->tprev), PetscAbsReal(vi->step->tprev + vi->step->hprev));
  PetscCheck(t >= vi->step->tprev - tol && t <= vi->step->tprev + vi->step->hprev + tol, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "TSSIMPVI interpolates inside its last step [%g, %g], not at %g", (double)vi->step->tprev,
             (double)(vi->step->tprev + vi->step->hprev), (double)t);
  if (t <= vi->step->tprev + tol) {
    PetscCall(VecCopy(vi->step->Qprev[0], q));
    PetscCall(VecCopy(vi->step->pprev, p));
    PetscFunctionReturn(0);
  }
  /* the step's end as the step stored it (vi->q1, vi->p1 hold it until the next step; with compensated sums t, q1 and
     p1 may differ in the last bit from tprev + hprev and the polynomial's last node) */
  if (t >= vi->step->tprev + vi->step->hprev - tol && vi->stored && ts->ptime == vi->tstored) {
    PetscCall(VecCopy(vi->q1, q));
    PetscCall(VecCopy(vi->p1, p));
    PetscFunctionReturn(0);
  }
  vi->step->t = vi->step->tprev;
  vi->step->h = t - vi->step->tprev;
  PetscCall(VecCopy(vi->step->Qprev[0], vi->step->q0));
  PetscCall(VecCopy(vi->step->pprev, vi->step->p0));
  PetscCall(PartialStep(ts, q, p));
  vi->step->t = stage_time;
  vi->step->h = h;
  PetscFunctionReturn(0);
}
