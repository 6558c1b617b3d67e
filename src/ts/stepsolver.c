/*
   The solver of the step system: the TS's SNES on the step vector's DMShell (its function and Jacobian are the TS's
   snesfunction/snesjacobian ops, which call the step), whatever its type (SNESKINSOL too: src/ts/stepkinsol.c).
*/
#include <simpvi/private/tssimpviimpl.h>
#include <petsc/private/snesimpl.h>

/* The SNES of the TS on the step system, on its own DMShell (the step vector is s times longer than the positions) */
PetscErrorCode SimpVIStepSolverSetUp_Private(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  SNES       snes;
  KSP        ksp;
  PetscInt   N;

  PetscFunctionBegin;
  PetscCall(DMShellCreate(PetscObjectComm((PetscObject)ts), &vi->dmstep));
  { /* create the DMSNES now, on every process: PETSc may keep a stale pointer to an earlier (destroyed) step DM, and
       a process that found it equal to this one would skip this collective creation and the tags would go astray */
    DMSNES sdm;

    PetscCall(DMGetDMSNES(vi->dmstep, &sdm));
  }
  PetscCall(DMShellSetGlobalVector(vi->dmstep, vi->step->Y));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetDM(snes, vi->dmstep));
  PetscCall(SNESSetFunction(snes, vi->step->R, SNESTSFormFunction, ts));
  PetscCall(SNESSetJacobian(snes, vi->step->J, vi->step->J, SNESTSFormJacobian, ts));
  /* the SNES's own KSP, with the user's choices: options processing may have given it the user's (I2) Jacobian,
     and a factorization PC may have factored it; drop both (types and options stay) */
  PetscCall(SNESGetKSP(snes, &ksp));
  {
    PetscBool set, pset;
    Mat       A, P;

    PetscCall(KSPGetOperatorsSet(ksp, &set, &pset));
    if (set || pset) {
      PetscCall(KSPGetOperators(ksp, &A, &P));
      if (A != vi->step->J || P != vi->step->J) PetscCall(KSPReset(ksp));
    }
  }
  PetscCall(VecGetSize(vi->step->Y, &N));
  PetscCall(SimpVIDefaultLinearSolver_Private(ksp, N, vi->prob->directlimit, PETSC_FALSE, PETSC_TRUE));
  PetscCall(KSPSetFromOptions(ksp));
  PetscFunctionReturn(0);
}

/* Solves the step system for vi->step->Y with the SNES; reason names the failure (a SNESKINSOL's by KINSOL's flag) */
PetscErrorCode SimpVIStepSolve_Private(TS ts, PetscInt *its, PetscInt *lits, PetscBool *converged, const char **reason)
{
  TS_SimpVI          *vi = (TS_SimpVI *)ts->data;
  SNESConvergedReason snesreason;
  const char         *kinsolflag = NULL;

  PetscFunctionBegin;
  PetscCall(SimpVIStepKINSOL_Private(ts));
  PetscCall(SNESSolve(ts->snes, NULL, vi->step->Y));
  PetscCall(SNESGetIterationNumber(ts->snes, its));
  PetscCall(SNESGetLinearSolveIterations(ts->snes, lits));
  PetscCall(SNESGetConvergedReason(ts->snes, &snesreason));
  *converged = (PetscBool)(snesreason > 0);
  PetscTryMethod(ts->snes, "SNESKINSOLGetReturnFlag_C", (SNES, int *, const char **), (ts->snes, NULL, &kinsolflag));
  if (kinsolflag) PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "KINSOL %s", kinsolflag));
  else PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "SNES %s", SNESConvergedReasons[snesreason]));
  if (*converged) { /* ksponly (TS_LINEAR) never looks at the residual: catch Inf/NaN from a callback here */
    PetscReal ynorm;

    PetscCall(VecNorm(vi->step->Y, NORM_INFINITY, &ynorm));
    if (PetscIsInfOrNanReal(ynorm)) {
      *converged = PETSC_FALSE;
      PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "SNES %s with Inf or NaN in the solution (a callback returned Inf or NaN?)", SNESConvergedReasons[snesreason]));
    }
  }
  *reason = vi->reason;
  PetscFunctionReturn(0);
}
