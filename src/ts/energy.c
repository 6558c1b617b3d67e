/*
   The energy H = p.v - L of a TSSIMPVI state, with v recovered from p by the Legendre transform, and its monitor.
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/

/*@
  TSSimpVIComputeEnergy - Computes the energy H = p.v - L(t, q, v) of a phase-space state U = (q, p)

  Collective

  Input Parameters:
+ ts - a `TSSIMPVI`, or any `TS` given the phase-space form by `TSSimpVISetUpPhaseSpace()`
. t  - the time
- U  - the state (q, p)

  Output Parameter:
. H - the energy

  Note:
  For rigid bodies (`TSSimpVISetRigidBodies()`) U = (R, pi) and H = sum_b 1/2 pi_b' J_b^-1 pi_b + V(R).

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIMonitorEnergy()`
@*/
PetscErrorCode TSSimpVIComputeEnergy(TS ts, PetscReal t, Vec U, PetscReal *H)
{
  PetscBool      issimpvi;
  SimpVIProblem *prob;
  IS             isq, isp;
  Vec            q, p, v;
  PetscReal      L;
  PetscScalar    pv;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  SimpVIValidHeaderSpecific(U, VEC_CLASSID, 3);
  SimpVIAssertPointer(H, 4);
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &issimpvi));
  if (issimpvi) {
    TS_SimpVI *vi = (TS_SimpVI *)ts->data;

    /* the set-up lays the step out on the TS's solution: U alone does not tell the split */
    PetscCheck(ts->vec_sol, PetscObjectComm((PetscObject)ts), PETSC_ERR_ORDER, "TSSimpVIComputeEnergy() on a TSSIMPVI that has no solution yet: call TSSetSolution() (or TS2SetSolution()) first");
    PetscCall(TSSetUp(ts));
    if (vi->rb) { /* rigid bodies: sum_b 1/2 pi_b' J_b^-1 pi_b + V(R) */
      const SimpVIUser *u = &vi->prob->user;

      PetscCall(SimpVICheckVecSize_Private(ts, U, 12 * (u->rbvec ? u->rbnl : u->rbn), 12 * (u->rbvec ? u->rbN : u->rbn), "The state U given to TSSimpVIComputeEnergy()"));
      PetscCall(SimpVIRigidBodiesComputeEnergy(vi->rb, U, H));
      PetscFunctionReturn(0);
    }
    prob = vi->prob;
    PetscCheck(vi->layout->split, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "The energy needs a Lagrangian or a potential; the %s door has none", vi->prob->door->name); /* and U = (q, p) */
    isq = vi->isq;
    isp = vi->isp;
    q   = vi->eq;
    p   = vi->ep;
    PetscCall(SimpVIStepGetStart_Private(vi->step, NULL, NULL, &v));
  } else {
    PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
    PetscCheck(prob && prob->ps, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "Call TSSimpVISetUpPhaseSpace() first");
    isq = prob->ps->isq;
    isp = prob->ps->isp;
    q   = prob->ps->q;
    p   = prob->ps->p;
    v   = prob->ps->v;
  }
  { /* U must be shaped like the state, or the scatter below fails with a message that names neither */
    PetscInt n, N;

    if (ts->vec_sol) {
      PetscCall(VecGetLocalSize(ts->vec_sol, &n));
      PetscCall(VecGetSize(ts->vec_sol, &N));
    } else {
      PetscInt nq, np, Nq, Np;

      PetscCall(ISGetLocalSize(isq, &nq));
      PetscCall(ISGetLocalSize(isp, &np));
      PetscCall(ISGetSize(isq, &Nq));
      PetscCall(ISGetSize(isp, &Np));
      n = nq + np;
      N = Nq + Np;
    }
    PetscCall(SimpVICheckVecSize_Private(ts, U, n, N, "The state U given to TSSimpVIComputeEnergy()"));
  }
  PetscCheck(prob->door && prob->door->lagrangian, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "The energy needs a Lagrangian or a potential; the %s door has none", prob->door ? prob->door->name : "(unset)");
  PetscCall(SimpVIPhaseSpaceSplit_Private(U, isq, isp, q, p));
  PetscCall(SimpVILegendreInverse_Private(ts, prob, t, q, p, v));
  PetscCall(prob->door->lagrangian(ts, prob, t, q, v, &L));
  PetscCall(VecDot(p, v, &pv));
  *H = PetscRealPart(pv) - L;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIMonitorEnergy - A `TSMonitor` that prints the energy and its drift relative to the first state seen

  Collective

  Input Parameters:
+ ts   - a `TSSIMPVI`, or any `TS` given the phase-space form by `TSSimpVISetUpPhaseSpace()`
. step - the step number
. t    - the time
. U    - the state
- ctx  - unused

  Options Database Key:
. -ts_simpvi_monitor_energy - set this monitor

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIComputeEnergy()`, `TSMonitorSet()`
@*/
PetscErrorCode TSSimpVIMonitorEnergy(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  SimpVIProblem *prob;
  PetscReal      H;

  PetscFunctionBegin;
  PetscCall(TSSimpVIComputeEnergy(ts, t, U, &H));
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob)); /* there is one: the energy was computed */
  if (!prob->H0set) {
    prob->H0    = H;
    prob->H0set = PETSC_TRUE;
  }
  PetscCall(
    PetscPrintf(PetscObjectComm((PetscObject)ts), "%" PetscInt_FMT " TS time %g energy %.12e relative drift %.3e\n", step, (double)t, (double)H, (double)(prob->H0 != 0 ? PetscAbsReal(H - prob->H0) / PetscAbsReal(prob->H0) : PetscAbsReal(H - prob->H0))));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIGetPhaseSpaceIS - Gets the index sets of the positions and momenta inside the state U = (q, p)

  Not Collective

  Input Parameter:
. ts - a `TSSIMPVI` with a Lagrangian or mechanical problem (it is set up if need be), or a `TS` of any type given the
       phase-space form by `TSSimpVISetUpPhaseSpace()`

  Output Parameters:
+ isq - positions
- isp - momenta

  Level: intermediate

.seealso: `TSSIMPVI`, `TSRHSSplitSetIS()`, `TSSimpVISetUpPhaseSpace()`
@*/
PetscErrorCode TSSimpVIGetPhaseSpaceIS(TS ts, IS *isq, IS *isp)
{
  PetscErrorCode (*f)(TS, IS *, IS *) = NULL;
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscCall(PetscObjectQueryFunction((PetscObject)ts, "TSSimpVIGetPhaseSpaceIS_C", &f));
  if (f) {
    PetscCall((*f)(ts, isq, isp));
    PetscFunctionReturn(0);
  }
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
  PetscCheck(prob && prob->ps, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "A TS of type %s has phase-space index sets only after TSSimpVISetUpPhaseSpace()", ((PetscObject)ts)->type_name ? ((PetscObject)ts)->type_name : "(not set)");
  if (isq) *isq = prob->ps->isq;
  if (isp) *isp = prob->ps->isp;
  PetscFunctionReturn(0);
}
