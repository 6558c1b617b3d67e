/*
   Dense output of TSSIMPVI. The state at a time t inside the last step [t_j, t_j + h] is the scheme's own step of
   length t - t_j from (q_j, p_j): a partial step, solved like any other. Its q(t) and p(t) = D2 Ld(q_j, Q, q(t)) have
   the scheme's order 2s (the step polynomial alone, with p as L_v of its derivative, has a lower order), and since it
   is a variational step it conserves the momentum of every symmetry of the Lagrangian, so a cyclic momentum keeps its
   value to round-off at any interpolated time. The last step's polynomial is the predictor, so Newton needs few
   iterations. The last step's own record (its start, polynomial and time) is left as it was.
*/
#include <simpvi/private/tssimpviimpl.h>

/* The end (q1, p1) of the step of length vi->h from (vi->q0, vi->p0) at vi->stage_time, solved from the predictor */
static PetscErrorCode PartialStep(TS ts, Vec q1, Vec p1)
{
  TS_SimpVI         *vi = (TS_SimpVI *)ts->data;
  const PetscInt     s  = vi->scheme->degree;
  PetscInt           its, lits, nloc;
  PetscBool          converged;
  const char        *reason;
  const PetscScalar *y;

  PetscFunctionBegin;
  PetscCall(SimpVIStepPredict_Private(ts));
  PetscCall(SimpVIStepSolve_Private(ts, &its, &lits, &converged, &reason));
  PetscCheck(converged, PetscObjectComm((PetscObject)ts), PETSC_ERR_NOT_CONVERGED, "TSSIMPVI could not interpolate at t = %g: the step of length %g from t = %g failed: %s after %" PetscInt_FMT " iterations", (double)(vi->stage_time + vi->h), (double)vi->h, (double)vi->stage_time, reason, its);
  PetscCall(PetscInfo(ts, "Interpolated at t = %g by a step of %g from t = %g: %" PetscInt_FMT " nonlinear, %" PetscInt_FMT " linear iterations\n", (double)(vi->stage_time + vi->h), (double)vi->h, (double)vi->stage_time, its, lits));
  /* q1 = q0 + Z_s (the last block of the step vector), p1 = dLd/dQ_s */
  PetscCall(VecGetLocalSize(vi->q0, &nloc));
  PetscCall(VecGetArrayRead(vi->Y, &y));
  PetscCall(VecPlaceArray(vi->Yv[s - 1], y + (s - 1) * nloc));
  PetscCall(VecWAXPY(q1, 1, vi->q0, vi->Yv[s - 1]));
  PetscCall(VecResetArray(vi->Yv[s - 1]));
  PetscCall(VecRestoreArrayRead(vi->Y, &y));
  PetscCall(SimpVIStepMomentum_Private(ts, p1));
  PetscFunctionReturn(0);
}

/*
  SimpVIInterpolate_Private - positions q and momenta p at time t of the last step: its start or end when t is one of
  them, else the partial step from its start to t
*/
PetscErrorCode SimpVIInterpolate_Private(TS ts, PetscReal t, Vec q, Vec p)
{
  TS_SimpVI      *vi         = (TS_SimpVI *)ts->data;
  const PetscReal stage_time = vi->stage_time, h = vi->h;
  PetscReal       tol;

  PetscFunctionBegin;
  PetscCheck(vi->havepoly, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI can interpolate only after a step");
  tol = 4 * PETSC_MACHINE_EPSILON * PetscMax(PetscAbsReal(vi->tprev), PetscAbsReal(vi->tprev + vi->hprev));
  PetscCheck(t >= vi->tprev - tol && t <= vi->tprev + vi->hprev + tol, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "TSSIMPVI interpolates inside its last step [%g, %g], not at %g", (double)vi->tprev, (double)(vi->tprev + vi->hprev), (double)t);
  if (t <= vi->tprev + tol) {
    PetscCall(VecCopy(vi->Qprev[0], q));
    PetscCall(VecCopy(vi->pprev, p));
    PetscFunctionReturn(0);
  }
  /* the step's end (vi->p1 holds its momentum until the next step) */
  if (t >= vi->tprev + vi->hprev - tol && vi->tprev + vi->hprev == ts->ptime) {
    PetscCall(VecCopy(vi->Qprev[vi->scheme->degree], q));
    PetscCall(VecCopy(vi->p1, p));
    PetscFunctionReturn(0);
  }
  vi->stage_time = vi->tprev;
  vi->h          = t - vi->tprev;
  PetscCall(VecCopy(vi->Qprev[0], vi->q0));
  PetscCall(VecCopy(vi->pprev, vi->p0));
  PetscCall(PartialStep(ts, q, p));
  vi->stage_time = stage_time;
  vi->h          = h;
  PetscFunctionReturn(0);
}
