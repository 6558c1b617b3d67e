/*
   The set-up of a SimpVIEnsemble: what it reads from its TSSIMPVI (the scheme as a kernel, the time control, the
   Newton tolerances of the TS's SNES) and the work space of a batch.
*/
#include <simpvi/private/ensembleimpl.h> /*I "simpvi.h" I*/
#include <simpvi/private/tssimpviimpl.h>
#include <simpvi/private/compat.h>

/* The TS's time control, scheme and SNES tolerances */
static PetscErrorCode ReadTS(SimpVIEnsemble ens)
{
  SimpVIEnsembleControl *ctl = &ens->ctl;
  TS                     ts  = ens->ts;
  SNES                   snes;
  TSSimpVIType           type;

  PetscFunctionBegin;
  PetscCall(TSGetTime(ts, &ctl->t0));
  PetscCall(TSGetTimeStep(ts, &ctl->h));
  PetscCall(TSGetMaxTime(ts, &ctl->tmax));
  PetscCall(TSGetMaxSteps(ts, &ctl->maxsteps));
  PetscCall(TSGetExactFinalTime(ts, &ctl->eftopt));
  PetscCheck(ctl->h > 0 && !PetscIsInfOrNanReal(ctl->h), PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_OUTOFRANGE, "The ensemble's TS needs a finite positive time step, not %g (TSSetTimeStep() or -ts_dt)", (double)ctl->h);
  PetscCheck(ctl->tmax < PETSC_MAX_REAL || ctl->maxsteps < PETSC_MAX_INT, PetscObjectComm((PetscObject)ens), PETSC_ERR_ARG_WRONGSTATE, "The ensemble's TS needs TSSetMaxTime() or TSSetMaxSteps() (-ts_max_time, -ts_max_steps)");
  PetscCheck(ctl->eftopt != TS_EXACTFINALTIME_INTERPOLATE, PetscObjectComm((PetscObject)ens), PETSC_ERR_SUP, "The ensemble's members take whole steps: -ts_exact_final_time stepover or matchstep, not interpolate");
  { /* the members' steps are the kernel's, which has no multipliers */
    SimpVIProblem *prob;

    PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
    PetscCheck(!prob || (!prob->user.confn && !prob->user.ceqfn), PetscObjectComm((PetscObject)ens), PETSC_ERR_SUP, "SimpVIEnsemble does not take holonomic constraints (TSSimpVISetConstraints(), TSSimpVISetEqualityConstraintsRoutine()) yet");
  }
  ctl->compensated = ((TS_SimpVI *)ts->data)->compensated;
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(PetscStrncpy(ctl->type, type, sizeof(ctl->type)));
  PetscCall(TSSimpVIGetDegree(ts, &ctl->degree));
  PetscCall(TSSimpVIGetOrder(ts, &ctl->order));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetTolerances(snes, &ctl->atol, &ctl->rtol, &ctl->stol, &ctl->maxit, &ctl->maxf));
  PetscCall(SNESGetDivergenceTolerance(snes, &ctl->divtol));
  PetscCall(SNESGetForceIteration(snes, &ctl->forceiteration));
  PetscFunctionReturn(0);
}

/*@
  SimpVIEnsembleSetUp - Reads the `TS` of a `SimpVIEnsemble` and makes its work space; called by `SimpVIEnsembleSolve()`

  Collective

  Input Parameter:
. ens - the ensemble

  Level: advanced

  Note:
  Each solve sets the ensemble up again: a change of its `TS` (scheme, steps, tolerances) between solves holds for
  the next one.

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetTS()`, `SimpVIEnsembleSolve()`
@*/
PetscErrorCode SimpVIEnsembleSetUp(SimpVIEnsemble ens)
{
  MPI_Comm    comm;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ens, SIMPVIENSEMBLE_CLASSID, 1);
  PetscCall(PetscObjectGetComm((PetscObject)ens, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(ens->ts, comm, PETSC_ERR_ARG_WRONGSTATE, "Give the ensemble its TSSIMPVI first: SimpVIEnsembleSetTS()");
  PetscCheck(ens->memberfn, comm, PETSC_ERR_ARG_WRONGSTATE, "Give the ensemble its members first: SimpVIEnsembleSetMemberFunction()");
  PetscCheck(ens->pointwise, comm, PETSC_ERR_ARG_WRONGSTATE, "Give the ensemble its mechanics first: SimpVIEnsembleSetPointwiseLagrangian()");
  PetscCall(ReadTS(ens));
  PetscCall(SimpVIKernelDestroy(&ens->kernel));
  PetscCall(TSSimpVICreateKernel(ens->ts, &ens->kernel));
  PetscCall(SimpVIKernelGetSizes(ens->kernel, &ens->s, &ens->nq));
  ens->m      = ens->s * ens->n;
  ens->scheme = (SimpVIScheme){.degree = ens->s, .nq = ens->nq, .c = ens->kernel->c, .tau = ens->kernel->tau, .w = ens->kernel->w, .B = ens->kernel->B, .D = ens->kernel->D};
  if (!ens->outputfn) { /* the final q and p */
    if (ens->outnames)
      for (PetscInt j = 0; j < ens->nout; j++) PetscCall(PetscFree(ens->outnames[j]));
    PetscCall(PetscFree(ens->outnames));
    ens->nout = 2 * ens->n;
    PetscCall(PetscMalloc1(ens->nout, &ens->outnames));
    for (PetscInt j = 0; j < ens->nout; j++) {
      char name[32];

      PetscCall(PetscSNPrintf(name, sizeof(name), "%s%" PetscInt_FMT, j < ens->n ? "q" : "p", j % ens->n));
      PetscCall(PetscStrallocpy(name, &ens->outnames[j]));
    }
  }
  PetscCall(SimpVIEnsembleBatchDestroy_Private(ens));
  PetscCall(SimpVIEnsembleBatchCreate_Private(ens));
  PetscCall(PetscFree3(ens->rankmembers, ens->rankchunks, ens->rankbusy));
  PetscCall(PetscCalloc3(size, &ens->rankmembers, size, &ens->rankchunks, size, &ens->rankbusy));
  ens->setupcalled = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* The work space of a batch of ens->batchsize slots */
PetscErrorCode SimpVIEnsembleBatchCreate_Private(SimpVIEnsemble ens)
{
  SimpVIEnsembleBatch *b = &ens->batch;
  const PetscInt       B = ens->batchsize, n = ens->n, np = ens->nparam, s = ens->s, nq = ens->nq, m = ens->m;
  const PetscInt       np1 = PetscMax(np, 1);

  PetscFunctionBegin;
  b->B  = B;
  b->nb = 0;
  PetscCall(PetscCalloc5(B, &b->member, B, &b->steps, B, &b->its, B, &b->iter, B, &b->nfuncs));
  PetscCall(PetscCalloc6(B, &b->t, B, &b->ct, B, &b->h, B, &b->hnext, B, &b->tprev, B, &b->hprev));
  PetscCall(PetscCalloc2(B, &b->ttol, B, &b->rnorm0));
  PetscCall(PetscCalloc2(B, &b->xnorm, B, &b->ynorm));
  PetscCall(PetscCalloc3(B, &b->havepoly, B, &b->live, B, &b->reason));
  PetscCall(PetscCalloc7(B * np1, &b->param, B * n, &b->q, B * n, &b->p, B * n, &b->cq, B * n, &b->cp, B * (s + 1) * n, &b->Qprev, B * m, &b->Z));
  PetscCall(PetscCalloc2(B, &b->slot, B * nq, &b->pmember));
  PetscCall(PetscCalloc2(B, &b->pstep, B, &b->pstop));
  PetscCall(PetscMalloc3(B, &b->packed, B, &b->packedt, B, &b->packedh));
  for (PetscInt j = 0; j < B; j++) b->packed[j] = -1;
  PetscCall(PetscCalloc7(B * nq, &b->pt, B * nq * np1, &b->pparam, B * nq * n, &b->px, B * nq * n, &b->pv, B * nq * n, &b->pP, B * nq * n, &b->pG, 4 * B * nq * n * n, &b->pD));
  PetscCall(PetscCalloc7(m, &b->R, m * m, &b->J, m * m, &b->LU, m, &b->dy, n, &b->dq, n, &b->dp, m, &b->piv));
  PetscCall(PetscCalloc5(s, &b->predx, s * (s + 1), &b->predphi, s + 1, &b->farphi, s + 1, &b->dphi, 4 * nq, &b->ptr));
  for (PetscInt a = 0; a < s; a++) b->predx[a] = PETSC_MAX_REAL;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIEnsembleBatchDestroy_Private(SimpVIEnsemble ens)
{
  SimpVIEnsembleBatch *b = &ens->batch;

  PetscFunctionBegin;
  if (!b->member) PetscFunctionReturn(0);
  PetscCall(PetscFree5(b->member, b->steps, b->its, b->iter, b->nfuncs));
  PetscCall(PetscFree6(b->t, b->ct, b->h, b->hnext, b->tprev, b->hprev));
  PetscCall(PetscFree2(b->ttol, b->rnorm0));
  PetscCall(PetscFree2(b->xnorm, b->ynorm));
  PetscCall(PetscFree3(b->havepoly, b->live, b->reason));
  PetscCall(PetscFree7(b->param, b->q, b->p, b->cq, b->cp, b->Qprev, b->Z));
  PetscCall(PetscFree2(b->slot, b->pmember));
  PetscCall(PetscFree3(b->packed, b->packedt, b->packedh));
  PetscCall(PetscFree2(b->pstep, b->pstop));
  PetscCall(PetscFree7(b->pt, b->pparam, b->px, b->pv, b->pP, b->pG, b->pD));
  PetscCall(PetscFree7(b->R, b->J, b->LU, b->dy, b->dq, b->dp, b->piv));
  PetscCall(PetscFree5(b->predx, b->predphi, b->farphi, b->dphi, b->ptr));
  PetscFunctionReturn(0);
}
