/*
   Rigid bodies on SO(3) as a TSSIMPVI's problem (TSSimpVISetRigidBodies()): the TS's set-up, step, dense output,
   roll-back and view for them. The step is the rigid-body object's (src/doors/rigidbody.c), solved by the TS's SNES;
   the loop around it is TSStep_SimpVI()'s (src/ts/tssimpvi.c): stage hooks, TSAdaptCheckStage() and its failure path.
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/

/* The rigid-body step object of the TS, made from TSSimpVISetRigidBodies()'s bodies and the scheme in force */
PetscErrorCode SimpVIRigidSetUp_Private(TS ts)
{
  TS_SimpVI        *vi = (TS_SimpVI *)ts->data;
  const SimpVIUser *u  = &vi->prob->user;
  MPI_Comm          comm;
  const SimpVIDoor *door;
  DM                dm;
  TSIFunction       ifunction;
  TSI2Function      i2function;
  PetscBool         split;
  PetscMPIInt       size;
  PetscInt          N;
  SNES              snes;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)ts, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(!(u->rbn && u->rbvec), comm, PETSC_ERR_ARG_WRONGSTATE, "Rigid bodies given both by TSSimpVISetRigidBodies() (arrays) and in the Vec/Mat form (TSSimpVISetRigidBodyInertias()): call one of them");
  PetscCheck(size == 1 || u->rbvec, comm, PETSC_ERR_SUP, "TSSimpVISetRigidBodies() is for one process, not %d: give the TS PETSC_COMM_SELF, or the bodies in the Vec/Mat form (TSSimpVISetRigidBodyInertias())", (int)size);
  PetscCall(SimpVIProblemNativeDoor_Private(ts, vi->prob, &door));
  PetscCall(TSGetDM(ts, &dm));
  PetscCall(DMTSGetIFunction(dm, &ifunction, NULL));
  PetscCall(DMTSGetI2Function(dm, &i2function, NULL));
  PetscCall(SimpVISplitDetect_Private(ts, &split));
  PetscCheck(!door && !ifunction && !i2function && !split, comm, PETSC_ERR_USER, "TSSimpVISetRigidBodies() and %s both give the mechanics: call one of them", door ? door->name : (split ? "TSRHSSplitSetRHSFunction()" : "TSSetI2Function()/TSSetIFunction()"));
  PetscCheck(!u->confn && !u->ceqfn && !u->forcefn && !u->paramfn, comm, PETSC_ERR_SUP, "TSSimpVISetRigidBodies() takes no %s yet", u->confn || u->ceqfn ? "constraints (TSSimpVISetConstraints(), TSSimpVISetEqualityConstraintsRoutine())" : (u->forcefn ? "forces (TSSimpVISetForce()): give body-frame torques by TSSimpVISetRigidBodyTorque()" : "parameter Jacobian (TSSimpVISetParameterJacobian())"));
  PetscCall(SimpVISchemeTable_Private(vi->family, vi->degree, &vi->scheme));
  PetscCall(TSGetSNES(ts, &snes));
  if (u->rbvec) PetscCall(SimpVIRigidBodiesCreateVec_Private(ts, snes, ts->vec_sol, &vi->rb)); /* the Vec/Mat form: src/doors/rigidbodyvec.c */
  else {
    PetscCall(VecGetSize(ts->vec_sol, &N));
    PetscCheck(N == 12 * u->rbn, comm, PETSC_ERR_ARG_SIZ, "The state of %" PetscInt_FMT " rigid bodies has 12 x %" PetscInt_FMT " entries (R_b row-major, then pi_b), not %" PetscInt_FMT, u->rbn, u->rbn, N);
    PetscCall(SimpVIRigidBodiesCreate_Private(ts, u->rbn, u->rbJ, u->rbV, u->rbctx, snes, &vi->rb));
    if (u->rbtau) PetscCall(SimpVIRigidBodiesSetTorque(vi->rb, u->rbnp, u->rbtau, u->rbtauctx));
  }
  PetscCall(VecDuplicate(ts->vec_sol, &vi->rbU0));
  PetscCall(VecDuplicate(ts->vec_sol, &vi->Ustage));
  vi->rbhas  = PETSC_FALSE;
  vi->stored = PETSC_FALSE;
  vi->ct     = 0;
  PetscCall(SimpVICheckpointSetUp_Private(ts)); /* -ts_simpvi_restart: the state and compensations of a checkpoint (src/ts/checkpointrigid.c) */
  PetscFunctionReturn(0);
}

/*
  One step of the rigid bodies, tried as TSStep_SimpVI() tries its steps: the stage (the step's end in vi->Ustage) goes
  to TSPostStage() and TSAdaptCheckStage(), which also counts a failed Newton (the TS's SNES) and cuts the step for a
  retry or ends the run (TS_DIVERGED_NONLINEAR_SOLVE); only an accepted step writes U
*/
PetscErrorCode SimpVIRigidStep_Private(TS ts)
{
  TS_SimpVI          *vi  = (TS_SimpVI *)ts->data;
  PetscInt            its = 0, lits = 0, rejections = 0;
  PetscReal           next_time_step, h = ts->time_step;
  PetscBool           accept = PETSC_TRUE, stageok = PETSC_FALSE;
  SNESConvergedReason snesreason = SNES_CONVERGED_ITERATING;
  const char         *reason     = NULL;

  PetscFunctionBegin;
  PetscCheck(!ts->forward_solve, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI has no forward sensitivities for rigid bodies (TSSimpVISetRigidBodies()) yet: TSForwardSetSensitivities() is not supported (the adjoint, TSAdjointSolve(), is)");
  PetscCheck(!ts->trajectory || !vi->prob->user.rbvec, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI has no adjoint for rigid bodies in the Vec/Mat form (TSSimpVISetRigidBodyInertias()) yet: TSSetSaveTrajectory() is not supported (the array form, TSSimpVISetRigidBodies(), has it)");
  PetscCall(SimpVICheckpointBeginStep_Private(ts)); /* every -ts_simpvi_checkpoint_every steps */
  if (ts->ptime != vi->tstored) vi->ct = 0;         /* t is not the last step's: its compensation restarts */
  PetscCall(VecCopy(ts->vec_sol, vi->rbU0));        /* the step's start, for TSRollBack() and TSInterpolate() */
  vi->rbt0 = ts->ptime;
  PetscCall(TSGetAdapt(ts, &ts->adapt));
  while (!ts->reason) {
    PetscCheck(ts->time_step > 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "TSSIMPVI needs a positive time step, not %g (TSSetTimeStep() or -ts_dt)", (double)ts->time_step);
    h = ts->time_step;
    PetscCall(TSPreStage(ts, ts->ptime));
    PetscCall(SimpVIRigidBodiesSetTime(vi->rb, ts->ptime)); /* the torques' time */
    PetscCall(SimpVIRigidBodiesSolve_Private(vi->rb, h, ts->vec_sol, &snesreason));
    PetscCall(SNESGetIterationNumber(ts->snes, &its));
    PetscCall(SNESGetLinearSolveIterations(ts->snes, &lits));
    ts->snes_its += its;
    ts->ksp_its += lits;
    if (snesreason > 0 && vi->checkstability) { /* a step that turns a body past 2 pi does not follow its motion */
      PetscReal theta;
      PetscBool stop;

      PetscCall(SimpVIRigidBodiesStepRotation_Private(vi->rb, &theta));
      if (!(theta < 2 * PETSC_PI)) {
        char msg[512];

        PetscCall(PetscSNPrintf(msg, sizeof(msg), "TSSIMPVI rigid-body step %" PetscInt_FMT " from t = %g with h = %g turns a body by %g rad, beyond 2 pi, where the step's exponential coordinates are singular (dexp): such a step does not follow the motion (a step resolves it when it turns each body far less than pi); use h < %g (-ts_simpvi_check_stability_warn only warns, -ts_simpvi_check_stability 0 skips this check)", ts->steps,
                                (double)ts->ptime, (double)h, (double)theta, (double)(h * PETSC_PI / theta)));
        PetscCall(SimpVIStabilityReport_Private(ts, msg, &stop));
        if (stop) {
          reason  = "a rotation beyond 2 pi in one step";
          stageok = PETSC_FALSE;
          break;
        }
      }
    }
    if (snesreason > 0) {
      PetscCall(SimpVIRigidBodiesFinish_Private(vi->rb, vi->Ustage, PETSC_FALSE));
      PetscCall(TSPostStage(ts, ts->ptime + h, 0, &vi->Ustage));
    } else PetscCall(VecCopy(ts->vec_sol, vi->Ustage)); /* no end to show: the hooks see the start */
    PetscCall(TSAdaptCheckStage(ts->adapt, ts, ts->ptime + h, vi->Ustage, &stageok));
    if (!stageok) {
      reason = snesreason > 0 ? "the state at the step's end rejected by TSSetFunctionDomainError() or TSAdaptSetCheckStage()" : SNESConvergedReasons[snesreason];
      goto reject_step;
    }
    PetscCall(TSAdaptChoose(ts->adapt, ts, h, NULL, &next_time_step, &accept));
    if (!accept) { /* never under TSADAPTNONE, the only adaptor TSSIMPVI takes */
      stageok       = PETSC_FALSE;
      reason        = "the step rejected by TSAdaptChoose()";
      ts->time_step = next_time_step;
      goto reject_step;
    }
    PetscCall(SimpVIRigidBodiesFinish_Private(vi->rb, ts->vec_sol, PETSC_TRUE));
    if (ts->trajectory) PetscCall(SimpVIRigidStagesPack_Private(ts, vi->rbt0, h)); /* the step as TSTrajectory keeps it, for the adjoint */
    vi->rbhas = PETSC_TRUE;
    SimpVIAdvanceTime_Private(ts, &next_time_step);
    ts->time_step = next_time_step;
    break;

  reject_step:
    PetscCall(SimpVIStepRejected_Private(ts, reason, &rejections));
  }
  if (!stageok) { /* U and t are still those of the last good step */
    PetscCheck(!ts->errorifstepfailed, PetscObjectComm((PetscObject)ts), PETSC_ERR_NOT_CONVERGED, "TSSIMPVI rigid-body step %" PetscInt_FMT " from t = %g with h = %g failed: %s after %" PetscInt_FMT " iterations%s%s", ts->steps, (double)ts->ptime, (double)h, reason, its, ts->reason == TS_DIVERGED_STEP_REJECTED ? " (retried as often as TSSetMaxStepRejections() allows)" : "", snesreason == SNES_DIVERGED_FUNCTION_NANORINF ? " (the potential, its gradient or Hessian, or the torques returned Inf or NaN?)" : "");
    PetscCall(PetscInfo(ts, "Rigid-body step %" PetscInt_FMT " at t = %g failed: %s; the state of the last good step is kept\n", ts->steps, (double)ts->ptime, reason));
  }
  PetscFunctionReturn(0);
}

/* Dense output: the step of length t - t_j from the last step's start (R_j exp(xi), on the group), as the other problems' */
PetscErrorCode SimpVIRigidInterpolate_Private(TS ts, PetscReal t, Vec U)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCheck(vi->rbhas, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "TSInterpolate() needs a step taken");
  if (t >= ts->ptime) PetscCall(VecCopy(ts->vec_sol, U));
  else if (t <= vi->rbt0) PetscCall(VecCopy(vi->rbU0, U));
  else {
    PetscCall(SimpVIRigidBodiesSetTime(vi->rb, vi->rbt0));
    PetscCall(SimpVIRigidBodiesPartialStep_Private(vi->rb, t - vi->rbt0, vi->rbU0, U));
  }
  PetscFunctionReturn(0);
}

/* Back to the start of the last step (events retake it shorter) */
PetscErrorCode SimpVIRigidRollBack_Private(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCheck(vi->rbhas && ts->ptime == vi->tstored, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI can roll back only the step it has just taken");
  PetscCall(VecCopy(vi->rbU0, ts->vec_sol)); /* a new state: the step from it restarts its compensations */
  PetscFunctionReturn(0);
}

/* The lines of TSView(): the group, the map, the state */
PetscErrorCode SimpVIRigidView_Private(TS ts, SimpVIProblem *prob, PetscViewer viewer)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (vi->rb) PetscCall(SimpVIRigidBodiesView(vi->rb, viewer));
  else {
    const PetscInt nb = prob->user.rbvec ? prob->user.rbN : prob->user.rbn;

    PetscCall(PetscViewerASCIIPrintf(viewer, "Rigid bodies: %" PetscInt_FMT ", configuration space SO(3)^%" PetscInt_FMT " (not yet set up)\n", nb, nb));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIGetRigidBodies - The rigid-body step of a `TSSIMPVI` given rigid bodies by `TSSimpVISetRigidBodies()`: for
  `SimpVIRigidBodiesComputeEnergy()`, `SimpVIRigidBodiesView()` and the like

  Not Collective

  Input Parameter:
. ts - the `TS`, set up (`TSSetUp()`, which this calls)

  Output Parameter:
. rb - the rigid bodies, owned by the `TS` (do not destroy them); their `SNES` is the `TS`'s

  Level: intermediate

.seealso: `TSSimpVISetRigidBodies()`, `TSSimpVICreateRigidBodies()`
@*/
PetscErrorCode TSSimpVIGetRigidBodies(TS ts, SimpVIRigidBodies *rb)
{
  PetscBool is;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  SimpVIAssertPointer(rb, 2);
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &is));
  PetscCheck(is, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONG, "TSSimpVIGetRigidBodies() needs a TS of type %s", TSSIMPVI);
  PetscCall(TSSetUp(ts));
  *rb = ((TS_SimpVI *)ts->data)->rb;
  PetscCheck(*rb, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "This TS has no rigid bodies: call TSSimpVISetRigidBodies()");
  PetscFunctionReturn(0);
}
