/*
   The solver of the step system: the TS's SNES on the step vector's DMShell (its function and Jacobian are the TS's
   snesfunction/snesjacobian ops, which call the step), whatever its type (SNESKINSOL too: src/ts/stepkinsol.c).
   Small systems (s n rows up to -ts_simpvi_small_limit, one process, the default direct solve) get SNESSIMPVIDENSE
   (src/snes/dense.c) unless the user chose a SNES type, with the step's residual and dense Jacobian on arrays
   (src/core/smallstep.c); a TS_LINEAR problem makes it one Newton step per solve, as SNESKSPONLY. A step it fails
   is solved again by newtonls (NewtonLSAgain()), whose reason a failure then reports.
*/
#include <simpvi/private/tssimpviimpl.h>
#include <simpvi/private/snesdense.h>
#include <simpvi/private/compat.h>
#include <petsc/private/snesimpl.h> /* DMGetDMSNES() */
#include <petsc/private/kspimpl.h>  /* DMGetDMKSP() */

/* Whether the dense SNES suits this TS's steps: one process, s n rows up to the limit, the default direct solve (a
   linear solver or a step matrix type the user chose keeps the SNES and its KSP), the exact Jacobian */
static PetscErrorCode SmallSystem(TS ts, PetscInt N, PetscBool *small)
{
  TS_SimpVI  *vi = (TS_SimpVI *)ts->data;
  PetscMPIInt size;
  PetscBool   matset, preonly, lu;
  KSP         ksp;
  PC          pc;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ts), &size));
  PetscCall(PetscOptionsHasName(((PetscObject)ts)->options, ((PetscObject)ts)->prefix, "-ts_simpvi_mat_type", &matset));
  PetscCall(SNESGetKSP(ts->snes, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPPREONLY, &preonly));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &lu, PCLU, PCCHOLESKY, ""));
  *small = (PetscBool)(size == 1 && N <= vi->smalllimit && !matset && preonly && lu && !vi->prob->inexactjacobian && !vi->prob->user.ceqfn); /* the dense path takes the array constraints only */
  PetscFunctionReturn(0);
}

/* The SNES type of the step: the user's (by code, or -snes_type), else SNESSIMPVIDENSE for a small system, else
   SNESNEWTONLS, SNESKSPONLY for TS_LINEAR (which TSSetFromOptions() sets, as for every TS) */
static PetscErrorCode StepSNESType(TS ts, PetscInt N)
{
  SNES      snes = ts->snes;
  PetscBool given, deflt = PETSC_TRUE, small = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(((PetscObject)snes)->options, ((PetscObject)snes)->prefix, "-snes_type", &given));
  if (((PetscObject)snes)->type_name) PetscCall(PetscObjectTypeCompareAny((PetscObject)snes, &deflt, SNESNEWTONLS, ts->problem_type == TS_LINEAR ? SNESKSPONLY : SNESNEWTONLS, ""));
  if (given || !deflt) PetscFunctionReturn(0);
  PetscCall(SmallSystem(ts, N, &small));
  if (small) {
    PetscBool dense;

    PetscCall(PetscObjectTypeCompare((PetscObject)snes, SNESSIMPVIDENSE, &dense));
    if (!dense) {
      PetscCall(SNESSetType(snes, SNESSIMPVIDENSE));
      PetscCall(SNESResetFromOptions(snes)); /* the -snes_* options again, on the new type and its line search */
    }
    PetscCall(SNESSimpVIDenseSetLinear(snes, (PetscBool)(ts->problem_type == TS_LINEAR)));
  } else if (ts->problem_type == TS_LINEAR) PetscCall(SNESSetType(snes, SNESKSPONLY)); /* one linear solve per step */
  PetscFunctionReturn(0);
}

/* Whether the user asked for any of what SNESSolve() looks up by name at every solve (-snes_view,
   -snes_converged_reason, -snes_adapt_initial, ...): if not, the dense SNES's solves skip those lookups, a quarter of a
   small step's cost on PETSc 3.18 (its solve makes no KSP or other object that would look up options of its own) */
static PetscErrorCode StepViewersAsked(SNES snes, PetscBool *asked)
{
  const char *names[] = {"-snes_view_pre", "-snes_view", "-snes_converged_reason", "-snes_view_solution", "-snes_convergence_estimate", "-snes_test_local_min", "-snes_adapt_initial", "-snes_adapt_sequence"};

  PetscFunctionBegin;
  *asked = PETSC_FALSE;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(names) && !*asked; i++) PetscCall(PetscOptionsHasName(((PetscObject)snes)->options, ((PetscObject)snes)->prefix, names[i], asked));
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
  { /* create the DMSNES and DMKSP now, on every process: SNESSetDM() and KSPSetDM() would otherwise share the old step
       DM's, whose write permission may name an earlier (destroyed) step DM; a process whose new DM took that address
       would skip the collective copy-on-write that the others make, and the tags of every later message on the
       communicator would go astray (a user's PetscSynchronizedFlush() hung under -ts_convergence_estimate) */
    DMSNES sdm;
    DMKSP  kdm;

    PetscCall(DMGetDMSNES(vi->dmstep, &sdm));
    PetscCall(DMGetDMKSP(vi->dmstep, &kdm));
  }
  PetscCall(DMShellSetGlobalVector(vi->dmstep, Y));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESReset(snes)); /* vectors and matrices of another size, from a TS of another type before */
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
  vi->banded = PETSC_FALSE;
  vi->saddle = vi->saddlepending = PETSC_FALSE;
  if (vi->prob->user.ceqfn) { /* the Vec/Mat constraints: a saddle point on any number of processes (src/core/linearsolver.c) */
    PetscCall(SimpVISaddlePointSolver_Private(ksp, PETSC_TRUE, &vi->saddle, &vi->saddlepending));
    vi->solverpending = PETSC_FALSE;
  } else PetscCall(SimpVIDefaultLinearSolver_Private(ksp, N, vi->prob->directlimit, PETSC_FALSE, PETSC_TRUE, &vi->solverpending));
  if (vi->prob->inexactjacobian) { /* the assembled step matrix only preconditions the true (matrix-free) Jacobian, as
                                      -snes_mf_operator does; a Krylov method applies it (preonly would be that matrix's Newton) */
    PetscBool preonly;

    PetscCall(SNESSetUseMatrixFree(snes, PETSC_TRUE, PETSC_FALSE));
    PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPPREONLY, &preonly));
    if (preonly) PetscCall(KSPSetType(ksp, KSPGMRES));
    PetscCall(PetscInfo(ts, "The door's derivatives are approximate: the step's Jacobian is matrix-free, the assembled step matrix its preconditioner\n"));
  }
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(StepSNESType(ts, N));
  PetscCall(SNESSimpVIDenseSetArrayFunctions_Private(snes, SimpVIStepDenseFunction_Private, SimpVIStepDenseJacobian_Private, SimpVIStepNewtonAccept_Private, vi->step));
  /* simplified Newton's stopping test (src/core/newton.c) in place of PETSc's default one, which it wraps */
  if (snes->ops->converged == SNESConvergedDefault) PetscCall(SNESSetConvergenceTest(snes, SimpVIStepNewtonConverged_Private, vi->step, NULL));
  PetscCall(PetscOptionsHasName(((PetscObject)snes)->options, ((PetscObject)snes)->prefix, "-snes_test_jacobian", &vi->testjacobian));
  PetscCall(StepViewersAsked(snes, &vi->snesviewers));
  PetscFunctionReturn(0);
}

/* Whether this solve may keep Jacobians (simplified Newton, src/core/newton.c): newtonls or the dense SNES with
   TSSIMPVI's converged test, neither PETSc's own lag nor its Jacobian test asked for */
static PetscErrorCode SimplifiedNewtonAllowed(TS ts, PetscBool *allowed)
{
  TS_SimpVI *vi   = (TS_SimpVI *)ts->data;
  SNES       snes = ts->snes;
  PetscInt   lag;
  PetscBool  dense, linear;

  PetscFunctionBegin;
  *allowed = PETSC_FALSE;
  if (snes->ops->converged != SimpVIStepNewtonConverged_Private || vi->testjacobian) PetscFunctionReturn(0);
  PetscCall(SNESGetLagJacobian(snes, &lag));
  if (lag != 1) PetscFunctionReturn(0);
  PetscCall(SNESSimpVIDenseIsType_Private(snes, &dense, &linear));
  if (dense) *allowed = PETSC_TRUE;
  else PetscCall(PetscObjectTypeCompare((PetscObject)snes, SNESNEWTONLS, allowed));
  PetscFunctionReturn(0);
}

/* -ts_view: whether the step's solves keep Jacobians, and their stopping test */
PetscErrorCode SimpVIStepSolverView_Private(TS ts, PetscViewer viewer)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscBool  allowed, lag;
  PetscReal  rtol;

  PetscFunctionBegin;
  if (!ts->snes || ts->problem_type == TS_LINEAR) PetscFunctionReturn(0);
  PetscCall(SimplifiedNewtonAllowed(ts, &allowed));
  PetscCall(SimpVIStepGetLagJacobian_Private(vi->step, &lag, &rtol));
  if (allowed && lag)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Simplified Newton: the step Jacobian and its factors kept across iterations and steps of the same h while the contraction theta <= %g; stops at theta/(1-theta) ||dY|| <= %g ||Y|| (-ts_simpvi_lag_jacobian, -ts_simpvi_newton_rtol)\n", (double)SIMPVI_NEWTON_THETA_MAX, (double)rtol));
  else {
    PetscInt snes_lag;

    PetscCall(SNESGetLagJacobian(ts->snes, &snes_lag));
    if (snes_lag != 1)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  Newton with the SNES's own Jacobian lag (-snes_lag_jacobian %" PetscInt_FMT "): %s\n", snes_lag, snes_lag == -1 ? "the step Jacobian never made again" : (snes_lag == -2 ? "the step Jacobian made at the next iteration, then kept" : "a new step Jacobian every that many iterations, PETSc's rule")));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  Newton: a new step Jacobian at every iteration%s\n", lag ? " (the SNES's type, converged test or Jacobian test keep it from simplified Newton)" : " (-ts_simpvi_lag_jacobian false)"));
  }
  PetscFunctionReturn(0);
}

/* The step solved again from the predictor by Newton's own iteration (a new Jacobian at each iterate), by the SNES as
   it is now: its iterations, linear iterations and reason */
static PetscErrorCode SolveAgainByNewton(TS ts, PetscInt *its, PetscInt *lits, SNESConvergedReason *reason)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  Vec        Y;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetSystem_Private(vi->step, &Y, NULL, NULL));
  PetscCall(SimpVIStepPredict_Private(vi->step));
  PetscCall(SimpVIStepNewtonBegin_Private(vi->step, PETSC_FALSE, PETSC_TRUE));
  PetscCall(SNESSolve(ts->snes, NULL, Y));
  PetscCall(SNESGetIterationNumber(ts->snes, its));
  PetscCall(SNESGetLinearSolveIterations(ts->snes, lits));
  PetscCall(SNESGetConvergedReason(ts->snes, reason));
  PetscFunctionReturn(0);
}

/* The dense SNES that TSSIMPVI chose (no -snes_type) failed a step: newtonls, with its line search (bt), solves it
   again from the predictor, as the dense Newton's fall-back always did (a full Newton step into a region where the
   residual is not defined, say). Only after a failure; the SNES is the dense type again after it */
static PetscErrorCode NewtonLSAgain(TS ts, PetscBool linear, PetscInt *its, PetscInt *lits, SNESConvergedReason *reason, PetscBool *converged)
{
  TS_SimpVI *vi   = (TS_SimpVI *)ts->data;
  SNES       snes = ts->snes;
  PetscBool  given;
  PetscReal  tstart;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(((PetscObject)snes)->options, ((PetscObject)snes)->prefix, "-snes_type", &given));
  if (given) PetscFunctionReturn(0);
  PetscCall(SimpVIStepGetTime_Private(vi->step, &tstart, NULL));
  PetscCall(PetscInfo(ts, "SNESSIMPVIDENSE on the step from t = %g: %s after %" PetscInt_FMT " iterations; newtonls solves it again\n", (double)tstart, SNESConvergedReasons[*reason], *its));
  PetscCall(SNESSetType(snes, linear ? SNESKSPONLY : SNESNEWTONLS));
  PetscCall(SNESResetFromOptions(snes));
  PetscCall(SolveAgainByNewton(ts, its, lits, reason));
  PetscCall(SNESSetType(snes, SNESSIMPVIDENSE));
  PetscCall(SNESResetFromOptions(snes));
  PetscCall(SNESSimpVIDenseSetLinear(snes, linear));
  PetscCall(SNESSimpVIDenseSetArrayFunctions_Private(snes, SimpVIStepDenseFunction_Private, SimpVIStepDenseJacobian_Private, SimpVIStepNewtonAccept_Private, vi->step));
  PetscCall(SNESSetConvergedReason(snes, *reason)); /* newtonls's, for TSAdaptCheckStage() */
  *converged = (PetscBool)(*reason > 0);
  PetscFunctionReturn(0);
}

/* A simplified Newton solve (src/core/newton.c) failed, its kept Jacobian perhaps too far from this step's: Newton's
   own iteration solves it again from the predictor, as before simplified Newton */
static PetscErrorCode NewtonAgain(TS ts, PetscInt *its, PetscInt *lits, SNESConvergedReason *reason, PetscBool *converged)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscInt   its2, lits2;
  PetscReal  tstart;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetTime_Private(vi->step, &tstart, NULL));
  PetscCall(PetscInfo(ts, "Simplified Newton on the step from t = %g: %s after %" PetscInt_FMT " iterations; Newton solves it again\n", (double)tstart, SNESConvergedReasons[*reason], *its));
  PetscCall(SolveAgainByNewton(ts, &its2, &lits2, reason));
  *its += its2;
  *lits += lits2;
  *converged = (PetscBool)(*reason > 0);
  PetscFunctionReturn(0);
}

/* Solves the step system for the step vector with the SNES; reason names the failure (a SNESKINSOL's by KINSOL's flag) */
PetscErrorCode SimpVIStepSolve_Private(TS ts, PetscInt *its, PetscInt *lits, PetscBool *converged, const char **reason)
{
  TS_SimpVI          *vi = (TS_SimpVI *)ts->data;
  SNESConvergedReason snesreason;
  const char         *kinsolflag = NULL;
  PetscBool           dense, linear = PETSC_FALSE, allowed;
  Vec                 Y;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetSystem_Private(vi->step, &Y, NULL, NULL));
  PetscCall(SNESSimpVIDenseIsType_Private(ts->snes, &dense, &linear));
  if (!dense || vi->kinsolalias) { /* (no name lookups on the dense path, whose steps may cost a microsecond) */
    PetscCall(SimpVIStepKINSOL_Private(ts));
    PetscCall(SNESSimpVIDenseIsType_Private(ts->snes, &dense, &linear));
  }
  PetscCall(SimplifiedNewtonAllowed(ts, &allowed));
  PetscCall(SimpVIStepNewtonBegin_Private(vi->step, allowed, PETSC_FALSE));
  if (dense && !vi->snesviewers) PetscCall(SNESSimpVIDenseSolveAgain_Private(ts->snes, Y)); /* SNESSolve() without its lookups */
  else PetscCall(SNESSolve(ts->snes, NULL, Y));
  PetscCall(SNESGetIterationNumber(ts->snes, its));
  PetscCall(SNESGetLinearSolveIterations(ts->snes, lits));
  PetscCall(SNESGetConvergedReason(ts->snes, &snesreason));
  *converged = (PetscBool)(snesreason > 0);
  if (!*converged && allowed) PetscCall(NewtonAgain(ts, its, lits, &snesreason, converged));
  if (dense && !*converged) PetscCall(NewtonLSAgain(ts, linear, its, lits, &snesreason, converged));
  if (*converged && (!dense || linear)) { /* ksponly and the dense SNES of one step (TS_LINEAR) never test the residual: catch Inf/NaN from a callback here */
    PetscReal ynorm;

    PetscCall(VecNorm(Y, NORM_INFINITY, &ynorm));
    if (PetscIsInfOrNanReal(ynorm)) {
      *converged = PETSC_FALSE;
      PetscCall(SNESSetConvergedReason(ts->snes, SNES_DIVERGED_FUNCTION_NANORINF)); /* for TSAdaptCheckStage() */
      PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "SNES %s with Inf or NaN in the solution (a callback returned Inf or NaN?)", SNESConvergedReasons[snesreason]));
      *reason = vi->reason;
      PetscFunctionReturn(0);
    }
  }
  if (*converged) {
    *reason = SNESConvergedReasons[snesreason]; /* no formatting on the path whose steps cost microseconds */
    PetscFunctionReturn(0);
  }
  PetscTryMethod(ts->snes, "SNESKINSOLGetReturnFlag_C", (SNES, int *, const char **), (ts->snes, NULL, &kinsolflag));
  if (kinsolflag) PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "KINSOL %s", kinsolflag));
  else if (snesreason == SNES_DIVERGED_LINEAR_SOLVE) /* say what makes the step's linear system unsolvable */
    PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "SNES %s (the step's linear system not solved: a singular step Jacobian, from a singular mass matrix, L_vv or dF/dA of the I2 function? or a Krylov solve that did not converge, -ksp_converged_reason)", SNESConvergedReasons[snesreason]));
  else PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "SNES %s", SNESConvergedReasons[snesreason]));
  *reason = vi->reason;
  PetscFunctionReturn(0);
}
