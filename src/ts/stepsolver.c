/*
   The solver of the step system: the TS's SNES on the step vector's DMShell (its function and Jacobian are the TS's
   snesfunction/snesjacobian ops, which call the step), whatever its type (SNESKINSOL too: src/ts/stepkinsol.c).
   Small systems (s n rows up to -ts_simpvi_small_limit, one process) under the default SNES go to the dense Newton of
   src/core/smallstep.c with the SNES's tolerances, and back to the SNES if it fails.
*/
#include <simpvi/private/tssimpviimpl.h>
#include <petsc/private/snesimpl.h>

/* Options that ask for the SNES's own output or a Jacobian other than the step's: they keep the SNES path */
static const char *const SNESOnlyOptions[] = {"-snes_converged_reason",   "-snes_view",  "-snes_monitor", "-snes_test_jacobian", "-snes_mf", "-snes_mf_operator", "-snes_fd", "-snes_fd_color", "-snes_linesearch_type",
                                              "-snes_linesearch_monitor", "-snes_ksp_ew"};

/* Whether the dense path may solve this TS's steps (vi->smallpath; the SNES's type and monitors are checked again at
   each solve): one process, s n rows up to the limit, none of the SNES-only options, the default direct solve (a
   linear solver or a step matrix type the user chose keeps the SNES and its KSP) */
static PetscErrorCode SmallPathPossible(TS ts, PetscInt N)
{
  TS_SimpVI  *vi = (TS_SimpVI *)ts->data;
  PetscMPIInt size;
  PetscBool   given = PETSC_FALSE, matset, preonly, lu;
  SNES        snes;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ts), &size));
  PetscCall(TSGetSNES(ts, &snes));
  for (size_t i = 0; i < sizeof(SNESOnlyOptions) / sizeof(SNESOnlyOptions[0]) && !given; i++) PetscCall(PetscOptionsHasName(((PetscObject)snes)->options, ((PetscObject)snes)->prefix, SNESOnlyOptions[i], &given));
  PetscCall(PetscOptionsHasName(((PetscObject)ts)->options, ((PetscObject)ts)->prefix, "-ts_simpvi_mat_type", &matset));
  { /* the default direct solve, not a linear solver the user chose (in code or by options) */
    KSP ksp;
    PC  pc;

    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPPREONLY, &preonly));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &lu, PCLU, PCCHOLESKY, ""));
  }
  vi->smallpath = (PetscBool)(size == 1 && N <= vi->smalllimit && !given && !matset && preonly && lu && !vi->prob->inexactjacobian);
  PetscFunctionReturn(0);
}

/* The SNES of the TS on the step system, on its own DMShell (the step vector is s times longer than the positions) */
PetscErrorCode SimpVIStepSolverSetUp_Private(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  SNES       snes;
  KSP        ksp;
  PetscInt   N;
  Vec        Y, R;
  Mat        J;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetSystem_Private(vi->step, &Y, &R, &J));
  PetscCall(DMShellCreate(PetscObjectComm((PetscObject)ts), &vi->dmstep));
  { /* create the DMSNES now, on every process: PETSc may keep a stale pointer to an earlier (destroyed) step DM, and
       a process that found it equal to this one would skip this collective creation and the tags would go astray */
    DMSNES sdm;

    PetscCall(DMGetDMSNES(vi->dmstep, &sdm));
  }
  PetscCall(DMShellSetGlobalVector(vi->dmstep, Y));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetDM(snes, vi->dmstep));
  PetscCall(SNESSetFunction(snes, R, SNESTSFormFunction, ts));
  PetscCall(SNESSetJacobian(snes, J, J, SNESTSFormJacobian, ts));
  /* the SNES's own KSP, with the user's choices: options processing may have given it the user's (I2) Jacobian,
     and a factorization PC may have factored it; drop both (types and options stay) */
  PetscCall(SNESGetKSP(snes, &ksp));
  {
    PetscBool set, pset;
    Mat       A, P;

    PetscCall(KSPGetOperatorsSet(ksp, &set, &pset));
    if (set || pset) {
      PetscCall(KSPGetOperators(ksp, &A, &P));
      if (A != J || P != J) PetscCall(KSPReset(ksp));
    }
  }
  PetscCall(VecGetSize(Y, &N));
  PetscCall(SimpVIDefaultLinearSolver_Private(ksp, N, vi->prob->directlimit, PETSC_FALSE, PETSC_TRUE));
  if (vi->prob->inexactjacobian) { /* the assembled step matrix only preconditions the true (matrix-free) Jacobian, as
                                      -snes_mf_operator does; a Krylov method applies it (preonly would be that matrix's Newton) */
    PetscBool preonly;

    PetscCall(SNESSetUseMatrixFree(snes, PETSC_TRUE, PETSC_FALSE));
    PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPPREONLY, &preonly));
    if (preonly) PetscCall(KSPSetType(ksp, KSPGMRES));
    PetscCall(PetscInfo(ts, "The door's derivatives are approximate: the step's Jacobian is matrix-free, the assembled step matrix its preconditioner\n"));
  }
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(SmallPathPossible(ts, N));
  PetscFunctionReturn(0);
}

/* Solves the step system for the step vector with the SNES; reason names the failure (a SNESKINSOL's by KINSOL's flag) */
PetscErrorCode SimpVIStepSolve_Private(TS ts, PetscInt *its, PetscInt *lits, PetscBool *converged, const char **reason)
{
  TS_SimpVI          *vi = (TS_SimpVI *)ts->data;
  SNESConvergedReason snesreason;
  const char         *kinsolflag = NULL;
  Vec                 Y;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetSystem_Private(vi->step, &Y, NULL, NULL));
  PetscCall(SimpVIStepKINSOL_Private(ts));
  if (vi->smallpath) {
    PetscBool           newton, ksponly;
    SimpVISmallOptions  opt;
    PetscInt            nfuncs;
    SNESConvergedReason small;
    PetscReal           tstart;

    PetscCall(PetscObjectTypeCompare((PetscObject)ts->snes, SNESNEWTONLS, &newton));
    PetscCall(PetscObjectTypeCompare((PetscObject)ts->snes, SNESKSPONLY, &ksponly));
    if (!((PetscObject)ts->snes)->type_name) newton = PETSC_TRUE; /* SNESSetUp() would make it newtonls */
    if ((newton || ksponly) && !ts->snes->numbermonitors && ts->snes->ops->converged == SNESConvergedDefault) {
      PetscCall(SNESGetTolerances(ts->snes, &opt.atol, &opt.rtol, &opt.stol, &opt.maxit, &opt.maxf));
      PetscCall(SNESGetDivergenceTolerance(ts->snes, &opt.divtol));
      PetscCall(SNESGetLagJacobian(ts->snes, &opt.lag));
      opt.persist = ts->snes->lagjac_persist;
      opt.ksponly = ksponly;
      PetscCall(SimpVIStepSmallSolve_Private(vi->step, &opt, its, &nfuncs, &small));
      /* what the SNES would hold after the solve, for callers that ask it (SNESGetSolution(), its reason) */
      if (ts->snes->vec_sol != Y) {
        PetscCall(PetscObjectReference((PetscObject)Y));
        PetscCall(VecDestroy(&ts->snes->vec_sol));
        ts->snes->vec_sol = Y;
      }
      ts->snes->iter       = *its;
      ts->snes->linear_its = *its;
      ts->snes->reason     = small;
      if (small > 0) {
        *lits      = *its; /* one direct solve per iteration, as preonly LU counts */
        *converged = PETSC_TRUE;
        *reason    = SNESConvergedReasons[small]; /* no formatting on the path whose steps cost microseconds */
        PetscFunctionReturn(0);
      }
      PetscCall(SimpVIStepGetTime_Private(vi->step, &tstart, NULL));
      PetscCall(PetscInfo(ts, "Dense Newton of the step from t = %g: %s after %" PetscInt_FMT " iterations; the SNES solves it again\n", (double)tstart, SNESConvergedReasons[small], *its));
    }
  }
  PetscCall(SNESSolve(ts->snes, NULL, Y));
  PetscCall(SNESGetIterationNumber(ts->snes, its));
  PetscCall(SNESGetLinearSolveIterations(ts->snes, lits));
  PetscCall(SNESGetConvergedReason(ts->snes, &snesreason));
  *converged = (PetscBool)(snesreason > 0);
  PetscTryMethod(ts->snes, "SNESKINSOLGetReturnFlag_C", (SNES, int *, const char **), (ts->snes, NULL, &kinsolflag));
  if (kinsolflag) PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "KINSOL %s", kinsolflag));
  else PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "SNES %s", SNESConvergedReasons[snesreason]));
  if (*converged) { /* ksponly (TS_LINEAR) never looks at the residual: catch Inf/NaN from a callback here */
    PetscReal ynorm;

    PetscCall(VecNorm(Y, NORM_INFINITY, &ynorm));
    if (PetscIsInfOrNanReal(ynorm)) {
      *converged       = PETSC_FALSE;
      ts->snes->reason = SNES_DIVERGED_FUNCTION_NANORINF; /* for TSAdaptCheckStage() */
      PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "SNES %s with Inf or NaN in the solution (a callback returned Inf or NaN?)", SNESConvergedReasons[snesreason]));
    }
  }
  *reason = vi->reason;
  PetscFunctionReturn(0);
}
