/*
   TSSIMPVI: Galerkin variational integrators (midpoint, trapezoid, Simpson, Lobatto, Gauss) as a PETSc TS type.
   Each step is the stationary point of a discrete action; the core (src/core/step.c) gives its residual and Jacobian.
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/
#include <petsc/private/snesimpl.h>

#define SIMPVI_SNES_RTOL 1e-14 /* the step SNES's relative tolerance (PETSc's 1e-8 would cap high orders) */

const char *const TSSimpVINonlinearSolverTypes[] = {"snes", "kinsol", "TSSimpVINonlinearSolverType", "TSSIMPVI_NLS_", NULL}; /* deprecated */

static PetscBool  cited      = PETSC_FALSE;
static const char citation[] = "@article{RojasQuintero2024,\n"
                               "  title   = {Simpson's Variational Integrator for Systems with Quadratic Lagrangians},\n"
                               "  author  = {J. A. Rojas-Quintero and F. Dubois and J. G. Cabrera-D\\'iaz},\n"
                               "  journal = {Axioms},\n  volume = {13},\n  number = {4},\n  pages = {255},\n  year = {2024}\n}\n";

/* The state in U is the one the last step stored (nobody changed U, U' or t since): the next step goes on from that
   step's end (q1, p1) and its compensations; otherwise they restart at zero. Collective: the same answer everywhere */
PetscErrorCode SimpVIStateIsStored_Private(TS ts, PetscBool *stored)
{
  TS_SimpVI       *vi = (TS_SimpVI *)ts->data;
  PetscObjectState sol, dot;
  PetscMPIInt      size;

  PetscFunctionBegin;
  *stored = PETSC_FALSE;
  if (!vi->stored || ts->ptime != vi->tstored) PetscFunctionReturn(0);
  PetscCall(vi->layout->stamp(ts, &sol, &dot));
  *stored = (PetscBool)(sol == vi->solstate && dot == vi->dotstate);
  /* a post-event function may change U on some processes only (each its own ball, in PETSc's ts/tutorials/ex44.c) */
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ts), &size));
  if (size > 1) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, stored, 1, SIMPVI_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)ts)));
  PetscFunctionReturn(0);
}

/* Loads (q0, p0) from the TS state, as the state layout holds it */
static PetscErrorCode LoadState(TS ts, PetscBool stored)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (vi->compensated && !stored) {
    PetscCall(VecSet(vi->cq, 0));
    PetscCall(VecSet(vi->cp, 0));
    vi->ct = 0;
  }
  PetscCall(vi->layout->load(ts, stored));
  /* VecCopy() hands U's cached norms on to q0 and v (and p0 from a phase-space U), on the processes where U still
     has them: those where nobody changed U. A post-event function may change U on some processes only (PETSc's
     ts/tutorials/ex44.c: one ball per process); a later VecNorm() of q0 (the growth check, the dense path) would then
     reduce on the other processes only, and they would meet in different collectives (MPI_ERR_TRUNCATE in
     TSEventDetection()). A state increase on every process drops the copied norms everywhere */
  if (!stored) {
    Vec q0, p0;

    PetscCall(SimpVIStepGetStart_Private(vi->step, &q0, &p0, NULL));
    PetscCall(PetscObjectStateIncrease((PetscObject)q0));
    PetscCall(PetscObjectStateIncrease((PetscObject)p0)); /* v too, by the layout that loads one */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode StoreState(TS ts, PetscReal t1)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(vi->layout->store(ts, t1));
  PetscCall(vi->layout->stamp(ts, &vi->solstate, &vi->dotstate));
  vi->stored = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* x1 = x0 + d, summed with Kahan's compensation c (the low bits of the earlier sums, carried into this one); cnext: the
   low bits this sum loses, the compensation of the next step if this one is accepted */
static PetscErrorCode CompensatedAdd(Vec x0, Vec d, Vec c, Vec x1, Vec cnext)
{
  const PetscScalar *a, *b, *cc;
  PetscScalar       *s, *cn;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x0, &n));
  PetscCall(VecGetArrayRead(x0, &a));
  PetscCall(VecGetArrayRead(d, &b));
  PetscCall(VecGetArrayRead(c, &cc));
  PetscCall(VecGetArrayWrite(x1, &s));
  PetscCall(VecGetArrayWrite(cnext, &cn));
  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar y = b[i] - cc[i], sum = a[i] + y;

    cn[i] = (sum - a[i]) - y;
    s[i]  = sum;
  }
  PetscCall(VecRestoreArrayRead(x0, &a));
  PetscCall(VecRestoreArrayRead(d, &b));
  PetscCall(VecRestoreArrayRead(c, &cc));
  PetscCall(VecRestoreArrayWrite(x1, &s));
  PetscCall(VecRestoreArrayWrite(cnext, &cn));
  PetscFunctionReturn(0);
}

static void SwapVecs(Vec *x, Vec *y)
{
  Vec t = *x;

  *x = *y;
  *y = t;
}

/* The end (q1, p1) of the accepted step is the stage StageState() made (and cnext the compensations it left): swapped
   in, not summed again */
static PetscErrorCode FinishStep(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  SwapVecs(&vi->q1, &vi->eq);
  SwapVecs(&vi->p1, &vi->ep);
  if (vi->compensated) {
    SwapVecs(&vi->cq, &vi->cqnext);
    SwapVecs(&vi->cp, &vi->cpnext);
  }
  PetscFunctionReturn(0);
}

/* t += h, compensated as q and p are. PETSc's TSAdaptChoose() clips the last step of a matchstep run to end where its
   uncompensated sum reaches the final time, from the uncompensated end of the step before: that step lands on it
   exactly, or the run would take one more step of an ulp or two (the compensated and the uncompensated sums of the
   two steps differ by that much: T = 1.23 with h = 0.025). A step that ends on the final time keeps its size for the
   next TSSolve(), as TSAdaptChoose() leaves it when its own sum reaches the final time; *next_h is not the ulp that
   TSAdaptChoose() found left (a continued run would crawl by ulps) */
void SimpVIAdvanceTime_Private(TS ts, PetscReal *next_h)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  if (vi->compensated) {
    const PetscReal y = ts->time_step - vi->ct, t = ts->ptime + y;

    vi->ct = (t - ts->ptime) - y;
    if (ts->exact_final_time == TS_EXACTFINALTIME_MATCHSTEP && ((t < ts->max_time && ts->ptime + ts->time_step >= ts->max_time) || PetscAbsReal(t - ts->max_time) <= 8 * PETSC_MACHINE_EPSILON * PetscAbsReal(ts->max_time))) {
      ts->ptime = ts->max_time;
      vi->ct    = 0;
      *next_h   = ts->time_step;
    } else ts->ptime = t;
  } else ts->ptime += ts->time_step;
  vi->tstored = ts->ptime;
}

/* A try of a step failed (reason): counted, and the run ends with TS_DIVERGED_STEP_REJECTED once it has been retried
   more often than TSSetMaxStepRejections() allows (the retry's step size is set already) */
PetscErrorCode SimpVIStepRejected_Private(TS ts, const char reason[], PetscInt *rejections)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  ts->reject++;
  vi->retries++;
  if (!ts->reason && ++*rejections > ts->max_reject && ts->max_reject >= 0) ts->reason = TS_DIVERGED_STEP_REJECTED;
  if (!ts->reason) PetscCall(PetscInfo(ts, "Step %" PetscInt_FMT " at t = %g failed (%s): retried with h = %g\n", ts->steps, (double)ts->ptime, reason, (double)ts->time_step));
  PetscFunctionReturn(0);
}

/* The step's end as the one stage that PETSc's hooks see (TSPostStage(), TSAdaptCheckStage()), shaped like U, made at
   every try of a step, in eq, ep: the state the step stores if accepted (FinishStep()). A compensated run adds the
   step's increments dq, dp to q0, p0 and keeps the low bits it loses in cqnext, cpnext, which only an accepted step
   carries on */
static PetscErrorCode StageState(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  Vec        q0, p0;

  PetscFunctionBegin;
  PetscCall(SimpVIStepGetStart_Private(vi->step, &q0, &p0, NULL));
  if (!vi->compensated) PetscCall(SimpVIStepFinish_Private(vi->step, vi->eq, vi->ep));
  else {
    PetscCall(SimpVIStepIncrements_Private(vi->step, vi->dq, vi->dp));
    PetscCall(CompensatedAdd(q0, vi->dq, vi->cq, vi->eq, vi->cqnext));
    PetscCall(CompensatedAdd(p0, vi->dp, vi->cp, vi->ep, vi->cpnext));
  }
  PetscCall(vi->layout->join(ts, vi->eq, vi->ep, vi->Ustage));
  PetscFunctionReturn(0);
}

/*
  TSTHETA's step loop: each try of a step ends in TSAdaptCheckStage(); a failed solve (the SNES's reason; the dense
  path leaves its own there) or a stage rejected by TSSetFunctionDomainError() or TSAdaptSetCheckStage() goes to
  reject_step and is retried from the same (untouched) state with the step scaled by -ts_adapt_scale_solve_failed (0.5
  for TSSIMPVI), until -ts_max_snes_failures or TSSetMaxStepRejections() ends the run with ts->reason set, the last
  good state in U
*/
static PetscErrorCode TSSetUp_SimpVI(TS);
static PetscErrorCode TSReset_SimpVI(TS);

static PetscErrorCode TSStep_SimpVI(TS ts)
{
  TS_SimpVI  *vi  = (TS_SimpVI *)ts->data;
  PetscInt    its = 0, lits = 0, rejections = 0;
  PetscReal   next_time_step;
  PetscBool   accept = PETSC_TRUE, stageok = PETSC_FALSE, stop, stored, tooshort = PETSC_FALSE;
  const char *reason = NULL;
  Vec         v0, q0, p0;

  PetscFunctionBegin;
  PetscCall(PetscCitationsRegister(citation, &cited));
  if (ts->steprestart && ts->steps == 0 && vi->stored && vi->prob && vi->prob->door == &SimpVIDoorI2) {
    /* a run from step 0 on a TS solved before: the program may have changed the constant mass the I2 door read at
       set-up (and checks at every step); if so, set up again, as a new TS would be */
    PetscBool changed;

    PetscCall(SimpVII2MassChanged_Private(ts, vi->prob, &changed));
    if (changed) {
      PetscCall(PetscInfo(ts, "A run from step 0 after an earlier one, the constant mass changed: the second-order problem set up again\n"));
      PetscCall(SNESReset(ts->snes));
      PetscCall(TSReset_SimpVI(ts));
      PetscCall(TSSetUp_SimpVI(ts));
    }
  }
  if (vi->rb) { /* rigid bodies: their own step (src/ts/steprigid.c) */
    PetscCall(SimpVIRigidStep_Private(ts));
    PetscFunctionReturn(0);
  }
  PetscCall(SimpVIStepGetStart_Private(vi->step, &q0, &p0, NULL));
  PetscCall(SimpVICheckpointBeginStep_Private(ts));
  PetscCall(SimpVIStateIsStored_Private(ts, &stored)); /* once: a retry starts from the same state */
  PetscCall(vi->layout->velocity(ts, &v0));            /* the start velocity of the stability checks */
  PetscCall(TSGetAdapt(ts, &ts->adapt));
  while (!ts->reason) {
    PetscBool converged;

    PetscCheck(ts->time_step > 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "TSSIMPVI needs a positive time step, not %g (TSSetTimeStep() or -ts_dt)", (double)ts->time_step);
    { /* a step cut by failed tries (a domain error that every longer step meets) below -ts_adapt_dt_min, or so short
         that t no longer moves: the run would crawl forever */
      PetscReal hmin = 0;

      if (vi->retries) PetscCall(TSAdaptGetStepLimits(ts->adapt, &hmin, NULL));
      if (vi->retries && (ts->time_step < hmin || ts->ptime + ts->time_step == ts->ptime)) {
        ts->reason = TS_DIVERGED_STEP_REJECTED;
        reason     = ts->time_step < hmin ? "the step, cut by the failed tries before it, is below -ts_adapt_dt_min" : "the step, cut by the failed tries before it, is too short to move t";
        stageok    = PETSC_FALSE;
        tooshort   = PETSC_TRUE;
        break;
      }
    }
    PetscCall(SimpVIStepSetTime_Private(vi->step, ts->ptime, ts->time_step));
    if (ts->steprestart) PetscCall(SimpVIStepNewtonForget_Private(vi->step)); /* a TSSolve() from step 0, or after an event */
    PetscCall(LoadState(ts, stored));
    if (ts->steprestart && ts->steps == 0 && !vi->retries) PetscCall(SimpVIStepConstraintStart_Private(vi->step, ts->ptime));
    PetscCall(SimpVIStabilityCheckStep_Private(ts, q0, v0, &stop));
    if (stop) PetscFunctionReturn(0);
    PetscCall(SimpVIStepPredict_Private(vi->step));

    PetscCall(TSPreStage(ts, ts->ptime));
    PetscCall(SimpVIStepSolve_Private(ts, &its, &lits, &converged, &reason));
    ts->snes_its += its;
    ts->ksp_its += lits;
    /* the stage for the user's post-stage, domain and check-stage functions, made whether they are set or not (no
       public function says whether a check-stage function is); PETSc main calls the last two after a failed solve
       too, on the failed iterate, as TSTHETA's */
    if (!vi->Ustage) PetscCall(VecDuplicate(ts->vec_sol, &vi->Ustage));
    PetscCall(StageState(ts));
    if (converged) PetscCall(TSPostStage(ts, ts->ptime + ts->time_step, 0, &vi->Ustage));
    PetscCall(TSAdaptCheckStage(ts->adapt, ts, ts->ptime + ts->time_step, vi->Ustage, &stageok));
    if (!stageok) {
      if (converged) reason = "the state at the step's end rejected by TSSetFunctionDomainError() or TSAdaptSetCheckStage()";
      goto reject_step;
    }

    vi->stored = PETSC_FALSE; /* q1, p1 are this step's end from here on, U becomes it only in StoreState() */
    PetscCall(FinishStep(ts));
    PetscCall(SimpVIStabilityCheckGrowth_Private(ts, q0, p0, vi->q1, vi->p1, v0, &stop));
    if (stop) PetscFunctionReturn(0);
    PetscCall(TSAdaptChoose(ts->adapt, ts, ts->time_step, NULL, &next_time_step, &accept));
    if (!accept) {                 /* never under TSADAPTNONE, the only adaptor TSSIMPVI takes */
      stored        = PETSC_FALSE; /* FinishStep() moved the compensations on: the retry starts without them */
      stageok       = PETSC_FALSE;
      reason        = "the step rejected by TSAdaptChoose()";
      ts->time_step = next_time_step;
      goto reject_step;
    }
    PetscCall(SimpVIStepAccept_Private(vi->step));
    if (ts->trajectory) PetscCall(SimpVIStagesPack_Private(ts));   /* the step as TSTrajectory keeps it, for the adjoint */
    if (vi->layout->accepted) PetscCall(vi->layout->accepted(ts)); /* what TSRollBack() needs beyond the polynomial */
    SimpVIAdvanceTime_Private(ts, &next_time_step);
    PetscCall(StoreState(ts, ts->ptime));
    ts->time_step = next_time_step;
    break;

  reject_step:
    PetscCall(SimpVIStepRejected_Private(ts, reason, &rejections));
  }
  if (!stageok) { /* U, U' and t are still those of the last good step */
    char      bound[512];
    PetscReal h; /* the failed step's (TSAdaptCheckStage() has cut ts->time_step for a retry) */

    char its_text[64];

    PetscCall(SimpVIStepGetTime_Private(vi->step, NULL, &h));
    if (tooshort) h = ts->time_step;
    PetscCall(PetscSNPrintf(its_text, sizeof(its_text), " after %" PetscInt_FMT " iterations", its));
    PetscCall(SimpVIStabilityHint_Private(ts, reason, q0, v0, bound, sizeof(bound)));
    PetscCheck(!ts->errorifstepfailed, PetscObjectComm((PetscObject)ts), PETSC_ERR_NOT_CONVERGED, "TSSIMPVI step %" PetscInt_FMT " from t = %g with h = %g failed: %s%s%s%s%s", ts->steps, (double)ts->ptime, (double)h, reason, tooshort ? " (a domain error or a failing solve that every longer step meets?)" : "", tooshort ? "" : its_text, bound, ts->reason == TS_DIVERGED_STEP_REJECTED && !tooshort ? " (retried as often as TSSetMaxStepRejections() allows)" : "");
    PetscCall(PetscInfo(ts, "Step %" PetscInt_FMT " at t = %g failed: %s; the state of the last good step is kept\n", ts->steps, (double)ts->ptime, reason));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESTSFormFunction_SimpVI(SNES snes, Vec Y, Vec R, TS ts)
{
  PetscFunctionBegin;
  PetscCall(SimpVIStepResidual_Private(((TS_SimpVI *)ts->data)->step, Y, R));
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESTSFormJacobian_SimpVI(SNES snes, Vec Y, Mat A, Mat B, TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(SimpVIStepSolverJacobian_Private(vi->step, Y, B)); /* simplified Newton: J and its factors kept */
  if (vi->solverpending) {                                     /* the default solver refined from the first step matrix, before its first factorization */
    KSP ksp;

    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(SimpVIDefaultSolverFromMatrix_Private(ksp, B, vi->prob->inexactjacobian, &vi->banded));
    vi->solverpending = PETSC_FALSE;
  }
  if (vi->saddlepending) { /* the saddle-point default's blocks, on the first step matrix */
    KSP ksp;

    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(SimpVISaddlePointSubSolver_Private(ksp, B));
    vi->saddlepending = PETSC_FALSE;
  }
  if (A != B) {
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* Dense output: the scheme's own step from the start of the last step to t (src/ts/interpolate.c) */
static PetscErrorCode TSInterpolate_SimpVI(TS ts, PetscReal t, Vec U)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  /* PETSc before 3.19: TSSolve(ts, NULL) interpolates its end into NULL, then views that NULL (a crash, whatever the type) */
  PetscCheck(U, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSolve(ts, NULL) with -ts_exact_final_time interpolate: this PETSc's TSSolve() interpolates into the NULL it was given, and would then crash viewing it; pass the solution vector, TSSolve(ts, u), or use -ts_exact_final_time matchstep");
  if (vi->rb) {
    PetscCall(SimpVIRigidInterpolate_Private(ts, t, U));
    PetscFunctionReturn(0);
  }
  PetscCall(SimpVIInterpolate_Private(ts, t, vi->eq, vi->ep));
  PetscCall(vi->layout->join(ts, vi->eq, vi->ep, U));
  /* TSSolve(ts, NULL)'s end interpolated into the solution itself: TS2GetSolution()'s velocity beside it */
  if (U == ts->vec_sol && vi->layout == &SimpVIStateLayoutI2) PetscCall(SimpVILegendreInverse_Private(ts, vi->prob, t, vi->eq, vi->ep, ts->vec_dot));
  PetscFunctionReturn(0);
}

/* Back to the start of the last step (events retake it shorter); its polynomial stays, to predict the shorter step */
static PetscErrorCode TSRollBack_SimpVI(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscBool  has;

  PetscFunctionBegin;
  if (vi->rb) {
    PetscCall(SimpVIRigidRollBack_Private(ts));
    PetscFunctionReturn(0);
  }
  PetscCall(SimpVIStepGetPrevious_Private(vi->step, &has, NULL, NULL, NULL, NULL));
  PetscCheck(has && vi->stored && ts->ptime == vi->tstored, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI can roll back only the step it has just taken");
  PetscCall(vi->layout->rollback(ts));
  PetscFunctionReturn(0);
}

/* The step's matrix (NULL on error, which then shows at the step's own use of it) */
static Mat StepMatrix(TS_SimpVI *vi)
{
  Mat J = NULL;

  if (SimpVIStepGetSystem_Private(vi->step, NULL, NULL, &J)) return NULL;
  return J;
}

/* Whether the SNES's preconditioning matrix P is one of ours (the step matrix, the placeholder) or none */
static PetscBool OwnSNESMatrix(TS_SimpVI *vi, Mat P)
{
  return (PetscBool)(!P || P == StepMatrix(vi) || P == vi->placeholder);
}

/* The SNES of the TS solves the step system: the user's I2 (or I) Jacobian matrix, which TSSetI2Jacobian() put in it,
   moves to the problem before options processing hands it to the SNES's KSP (where a factorization PC would factor
   it, and a SuperLU_DIST factor never used cannot even be destroyed); a shell of its sizes stands in its place until
   the step matrix does (SimpVIStepSolverSetUp_Private()) */
static PetscErrorCode TakeUserJacobian(TS ts)
{
  TS_SimpVI     *vi = (TS_SimpVI *)ts->data;
  SimpVIProblem *prob;
  SNES           snes;
  Mat            A, P;
  PetscInt       m, n, M, N;

  PetscFunctionBegin;
  if (vi->rb) PetscFunctionReturn(0); /* the SNES's matrix is the rigid bodies' step's */
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetJacobian(snes, &A, &P, NULL, NULL));
  if (OwnSNESMatrix(vi, P)) PetscFunctionReturn(0);
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  PetscCall(PetscObjectReference((PetscObject)P));
  PetscCall(MatDestroy(&prob->user.I2P));
  prob->user.I2P = P;
  if (A) PetscCall(PetscObjectReference((PetscObject)A));
  PetscCall(MatDestroy(&prob->user.I2A));
  prob->user.I2A = A;
  if (!vi->placeholder) {
    PetscCall(MatGetLocalSize(P, &m, &n));
    PetscCall(MatGetSize(P, &M, &N));
    PetscCall(MatCreateShell(PetscObjectComm((PetscObject)P), m, n, M, N, NULL, &vi->placeholder));
  }
  PetscCall(SNESSetJacobian(snes, vi->placeholder, vi->placeholder, NULL, NULL));
  PetscFunctionReturn(0);
}

/* When the TS is reset or changes type: its SNES as a TS of another type finds it. The step's set-up left in it the step
   system's DM, vectors and matrices, simplified Newton's stopping test (on the step, freed next) and the dense type: its
   own DM (with the TS's function and Jacobian callbacks), PETSc's test and Newton come back, the user's matrices go
   back to it, and the step placeholders become the default direct solve if the user chose nothing */
static PetscErrorCode ReturnUserSolver(TS ts)
{
  TS_SimpVI     *vi = (TS_SimpVI *)ts->data;
  SimpVIProblem *prob;
  SNES           snes = ts->snes;
  KSP            ksp;
  DM             dm;
  Mat            P;
  PetscBool      dense, given;

  PetscFunctionBegin;
  if (!snes) PetscFunctionReturn(0);
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
  PetscCall(SNESGetJacobian(snes, NULL, &P, NULL, NULL));
  if (ts->setupcalled) {
    if (snes->ops->converged == SimpVIStepNewtonConverged_Private) PetscCall(SNESSetConvergenceTest(snes, SNESConvergedDefault, NULL, NULL));
    PetscCall(PetscObjectTypeCompare((PetscObject)snes, SNESSIMPVIDENSE, &dense));
    PetscCall(PetscOptionsHasName(((PetscObject)snes)->options, ((PetscObject)snes)->prefix, "-snes_type", &given));
    if (dense && !given) PetscCall(SNESSetType(snes, ts->problem_type == TS_LINEAR ? SNESKSPONLY : SNESNEWTONLS));
    if (OwnSNESMatrix(vi, P)) {
      PetscCall(SNESReset(snes)); /* the step's vectors and matrices */
      P = NULL;
    }
    PetscCall(TSGetDM(ts, &dm));
    PetscCall(SNESSetDM(snes, dm));
  }
  if (prob && prob->user.I2P && OwnSNESMatrix(vi, P)) PetscCall(SNESSetJacobian(snes, prob->user.I2A ? prob->user.I2A : prob->user.I2P, prob->user.I2P, NULL, NULL));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(SimpVIDefaultLinearSolver_Private(ksp, 0, SIMPVI_DIRECT_LIMIT, PETSC_FALSE, PETSC_TRUE, NULL));
  PetscFunctionReturn(0);
}

/* The step's door: the problem's door on the user's TS (the handle its callbacks receive) */
static PetscErrorCode StepPG(void *ctx, PetscReal t, Vec x, Vec v, Vec P, Vec G)
{
  TS         ts = (TS)ctx;
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(vi->prob->door->pg(ts, vi->prob, t, x, v, P, G));
  PetscFunctionReturn(0);
}

static PetscErrorCode StepTerms(void *ctx, PetscReal t, Vec x, Vec v, PetscInt need, PetscInt *n, SimpVITerm terms[])
{
  TS         ts = (TS)ctx;
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(vi->prob->door->terms(ts, vi->prob, t, x, v, need, n, terms));
  PetscFunctionReturn(0);
}

static PetscErrorCode StepKeep(void *ctx, PetscBool keep)
{
  TS         ts = (TS)ctx;
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  vi->prob->keepvalues = keep;
  PetscFunctionReturn(0);
}

static PetscErrorCode StepPoints(void *ctx, PetscInt npts, PetscInt n, const PetscInt need[], const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[])
{
  TS         ts = (TS)ctx;
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(vi->prob->door->points(ts, vi->prob, npts, n, need, t, x, v, P, G, Px, Pv, Gx, Gv));
  PetscFunctionReturn(0);
}

/* The state layout of each SimpVIStateKind */
static const SimpVIStateLayout *const StateLayouts[] = {&SimpVIStateLayoutPhaseSpace, &SimpVIStateLayoutI2};

/* Picks the door and the state layout, builds the scheme table and the step work space */
static PetscErrorCode TSSetUp_SimpVI(TS ts)
{
  TS_SimpVI        *vi = (TS_SimpVI *)ts->data;
  PetscBool         isnone;
  TSAdapt           adapt;
  TSAdaptType       adapttype;
  const SimpVIDoor *door;
  SimpVIStepDoor    stepdoor = {0};
  char              prefix[256];

  PetscFunctionBegin;
  /* TSSolve() would clip an infinite step to the time left, and the step failure would then name a step never asked for */
  PetscCheck(!PetscIsInfOrNanReal(ts->time_step), PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "TSSIMPVI needs a finite positive time step, not %g (TSSetTimeStep() or -ts_dt)", (double)ts->time_step);
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &vi->prob));
  PetscCall(TSGetAdapt(ts, &adapt));
  PetscCall(PetscObjectTypeCompare((PetscObject)adapt, TSADAPTNONE, &isnone));
  PetscCall(TSAdaptGetType(adapt, &adapttype));
  PetscCheck(isnone, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI takes fixed steps to stay symplectic: use -ts_adapt_type none, not %s", adapttype);
  if (vi->prob->user.rbn || vi->prob->user.rbvec) { /* rigid bodies (TSSimpVISetRigidBodies(), or the Vec/Mat form): their step, src/ts/steprigid.c */
    PetscCall(SimpVIRigidSetUp_Private(ts));
    PetscFunctionReturn(0);
  }
  PetscCall(SimpVIProblemChooseDoor_Private(ts, vi->prob, &door)); /* src/doors/problem.c */
  if (door->userjacobian) PetscCall(TakeUserJacobian(ts));         /* the Jacobian the program gave the SNES is the door's */
  vi->layout = StateLayouts[door->state];
  PetscCall(vi->layout->setup(ts)); /* vi->q1, shaped like the positions: the others are its duplicates */
  /* holonomic constraints g(q) = 0, if given, checked against the door (src/doors/constraints.c) */
  PetscCall(SimpVIProblemStepConstraints_Private(ts, vi->prob, door, vi->q1, &stepdoor));
  PetscCall(VecDuplicate(vi->q1, &vi->eq));
  PetscCall(VecDuplicate(vi->q1, &vi->ep));
  PetscCall(VecDuplicate(vi->q1, &vi->p1));
  PetscCall(VecDuplicate(vi->q1, &vi->work));
  PetscCall(VecDuplicate(vi->q1, &vi->cq));
  PetscCall(VecDuplicate(vi->q1, &vi->cqnext));
  PetscCall(VecDuplicate(vi->q1, &vi->cpnext));
  PetscCall(VecDuplicate(vi->q1, &vi->cp));
  PetscCall(VecDuplicate(vi->q1, &vi->dq));
  PetscCall(VecDuplicate(vi->q1, &vi->dp));
  PetscCall(VecSet(vi->cq, 0));
  PetscCall(VecSet(vi->cp, 0));
  vi->ct     = 0;
  vi->stored = PETSC_FALSE;
  PetscCall(SimpVISchemeDestroy_Private(&vi->scheme));
  PetscCall(SimpVISchemeTable_Private(vi->family, vi->degree, &vi->scheme));
  vi->stabilityready = PETSC_FALSE; /* the bound and omega_max of this scheme and problem, at the first step */
  PetscCall(SimpVIProblemSetUp_Private(ts, vi->prob, door, vi->q1));
  stepdoor.maxterms    = door->maxterms;
  stepdoor.pg          = StepPG;
  stepdoor.terms       = StepTerms;
  stepdoor.keep        = door->keeps ? StepKeep : NULL;
  stepdoor.ctx         = ts;
  stepdoor.shared      = (PetscBool)(door->shares && door->shares(vi->prob));
  stepdoor.pointspg    = door->pointspg;
  stepdoor.points      = door->points && (!door->haspoints || door->haspoints(vi->prob)) && !vi->prob->user.forcefn ? StepPoints : NULL; /* forces come as Vecs */
  vi->prob->steppoints = (PetscBool)(stepdoor.points != NULL);
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%sts_simpvi_", ((PetscObject)ts)->prefix ? ((PetscObject)ts)->prefix : ""));
  PetscCall(SimpVIStepSetUp_Private(vi->step, vi->scheme, &stepdoor, (PetscBool)(ts->problem_type == TS_LINEAR), vi->q1, prefix));
  PetscCall(SimpVIStepSolverSetUp_Private(ts)); /* and the SNES type: the dense one for small systems, ksponly for TS_LINEAR */
  PetscCall(SimpVICheckpointSetUp_Private(ts)); /* the checkpoint path checked; -ts_simpvi_restart: the state and history of a checkpoint */
  PetscFunctionReturn(0);
}

static PetscErrorCode TSReset_SimpVI(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(ReturnUserSolver(ts));
  if (vi->prob) {
    PetscCall(SimpVIProblemReset_Private(vi->prob));
    vi->prob->H0set = PETSC_FALSE;
  }
  PetscCall(SimpVIStepReset_Private(vi->step));
  PetscCall(DMDestroy(&vi->dmstep));
  PetscCall(VecDestroy(&vi->q1));
  PetscCall(VecDestroy(&vi->p1));
  PetscCall(VecDestroy(&vi->vprev));
  PetscCall(VecDestroy(&vi->work));
  PetscCall(VecDestroy(&vi->eq));
  PetscCall(VecDestroy(&vi->ep));
  PetscCall(VecDestroy(&vi->Ustage));
  PetscCall(VecDestroy(&vi->cq));
  PetscCall(VecDestroy(&vi->cqnext));
  PetscCall(VecDestroy(&vi->cpnext));
  PetscCall(VecDestroy(&vi->cp));
  PetscCall(VecDestroy(&vi->dq));
  PetscCall(VecDestroy(&vi->dp));
  PetscCall(SimpVIRigidBodiesDestroy(&vi->rb));
  PetscCall(VecDestroy(&vi->rbU0));
  vi->rbhas  = PETSC_FALSE;
  vi->stored = PETSC_FALSE;
  vi->layout = NULL;
  PetscCall(SimpVISchemeDestroy_Private(&vi->scheme));
  PetscCall(ISDestroy(&vi->isq));
  PetscCall(ISDestroy(&vi->isp));
  PetscCall(SimpVIAdjointDestroyWork_Private(ts));
  if (vi->stages) PetscCall(VecDestroyVecs(vi->nstages, &vi->stages));
  PetscCall(VecDestroy(&vi->zview));
  PetscCall(PetscFree(vi->steptimes));
  vi->nsteptimes      = 0;
  vi->stabilityready  = PETSC_FALSE;
  vi->stabilitywarned = PETSC_FALSE;
  vi->growthsteps     = 0;
  vi->growthref       = 0;
  vi->growth          = 1;
  PetscFunctionReturn(0);
}

static PetscErrorCode TSDestroy_SimpVI(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(TSReset_SimpVI(ts));
  if (ts->snes) { /* the SNES's relative tolerance of TSSIMPVI's (TSCreate_SimpVI()) back to PETSc's, for the next type */
    PetscReal atol, rtol, stol;
    PetscInt  maxit, maxf;
    PetscBool set;

    PetscCall(SNESGetTolerances(ts->snes, &atol, &rtol, &stol, &maxit, &maxf));
    PetscCall(PetscOptionsHasName(((PetscObject)ts->snes)->options, ((PetscObject)ts->snes)->prefix, "-snes_rtol", &set));
    if (rtol == SIMPVI_SNES_RTOL && !set) PetscCall(SNESSetTolerances(ts->snes, atol, 1e-8, stol, maxit, maxf));
  }
  PetscCall(MatDestroy(&vi->placeholder));
  PetscCall(SimpVIStepDestroy_Private(&vi->step));
  PetscCall(PetscFree(vi->type));
  PetscCall(PetscFree(vi->family));
  PetscCall(PetscFree(vi->cpfile));
  PetscCall(PetscFree(vi->restartfile));
  PetscCall(PetscFree(ts->data));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVISetType_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVIGetType_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVISetDegree_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVIGetDegree_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVISetNonlinearSolverType_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVIGetNonlinearSolverType_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVIGetPhaseSpaceIS_C", NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode TSSimpVISetType_SimpVI(TS, TSSimpVIType);
static PetscErrorCode TSSimpVISetDegree_SimpVI(TS, PetscInt);

static PetscErrorCode TSSetFromOptions_SimpVI(TS ts, SimpVIOptionItems PetscOptionsObject)
{
  TS_SimpVI     *vi = (TS_SimpVI *)ts->data;
  char           type[256];
  const char   **names;
  PetscInt       degree = vi->degree, nnames, choice;
  PetscBool      flg, monitor = PETSC_FALSE;
  SimpVIProblem *prob;

  PetscFunctionBegin;
  PetscCall(TakeUserJacobian(ts));
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  PetscOptionsHeadBegin(PetscOptionsObject, "Variational integrator (TSSIMPVI) options");
  /* the choices are the registry's (as TSBASICSYMPLECTIC lists its schemes); a name outside it stops first with the
     registry's own message, which names TSSimpVIRegister() */
  PetscCall(PetscOptionsGetString(PetscOptionsObject->options, PetscOptionsObject->prefix, "-ts_simpvi_type", type, sizeof(type), &flg));
  if (flg) PetscCall(TSSimpVISetType_SimpVI(ts, type));
  PetscCall(SimpVISchemeNames_Private(&nnames, &names));
  PetscCall(PetscOptionsEList("-ts_simpvi_type", "Scheme", "TSSimpVISetType", names, nnames, vi->type, &choice, NULL));
  PetscCall(PetscFree(names));
  PetscCall(PetscOptionsInt("-ts_simpvi_degree", "Polynomial degree s of the step (order 2s)", "TSSimpVISetDegree", vi->degree, &degree, &flg));
  if (flg) PetscCall(TSSimpVISetDegree_SimpVI(ts, degree));
  PetscCall(SimpVIKINSOLAliasSetFromOptions_Private(ts, PetscOptionsObject));
  PetscCall(SimpVIDirectLimitOption_Private(ts, PetscOptionsObject, prob));
  {
    PetscBool lag;
    PetscReal rtol;

    PetscCall(SimpVIStepGetLagJacobian_Private(vi->step, &lag, &rtol));
    PetscCall(PetscOptionsBool("-ts_simpvi_lag_jacobian", "Simplified Newton: keep the step Jacobian (and its factors) across Newton iterations and steps of the same h while the iteration contracts fast", "TSSIMPVI", lag, &lag, NULL));
    PetscCall(PetscOptionsReal("-ts_simpvi_newton_rtol", "Simplified Newton stops when its error estimate theta/(1-theta) ||dY|| is below this times ||Y||", "TSSIMPVI", rtol, &rtol, NULL));
    PetscCheck(rtol > 0 && rtol < 1, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "The option -ts_simpvi_newton_rtol %g must be in (0, 1) (relative to the step vector's norm)", (double)rtol);
    PetscCall(SimpVIStepSetLagJacobian_Private(vi->step, lag, rtol));
  }
  PetscCall(PetscOptionsInt("-ts_simpvi_small_limit", "Largest step system (rows, s times the positions) whose SNES is simpvidense (a dense Newton) by default, on one process; 0: newtonls always", "TSSIMPVI", vi->smalllimit, &vi->smalllimit, NULL));
  PetscCheck(vi->smalllimit >= 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "The option -ts_simpvi_small_limit %" PetscInt_FMT " must be 0 or more (rows; 0: newtonls always)", vi->smalllimit);
  PetscCall(PetscOptionsBool("-ts_simpvi_check_stability", "Stop when h*omega_max (estimated at the first step) is beyond the scheme's linear stability bound, or when the state blows up", "TSSIMPVI", vi->checkstability, &vi->checkstability, NULL));
  PetscCall(PetscOptionsBool("-ts_simpvi_check_stability_warn", "Only warn (once) where -ts_simpvi_check_stability would stop", "TSSIMPVI", vi->stabilitywarn, &vi->stabilitywarn, NULL));
  PetscCall(PetscOptionsBool("-ts_simpvi_monitor_energy", "Print the energy H and its relative drift after each step", "TSSimpVIMonitorEnergy", monitor, &monitor, &flg));
  if (flg && monitor) PetscCall(TSMonitorSet(ts, TSSimpVIMonitorEnergy, NULL, NULL));
  PetscCall(PetscOptionsBool("-ts_simpvi_compensated_summation", "Sum the q, p and t updates with Kahan's compensation (round-off that grows like sqrt(steps))", "TSSIMPVI", vi->compensated, &vi->compensated, NULL));
  PetscCall(SimpVICheckpointSetFromOptions_Private(ts, PetscOptionsObject));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode TSView_SimpVI(TS ts, PetscViewer viewer)
{
  TS_SimpVI  *vi = (TS_SimpVI *)ts->data;
  PetscBool   iascii;
  const char *family;
  PetscInt    npos;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  PetscCall(SimpVISchemeTable_Private(vi->family, vi->degree, &vi->scheme)); /* the family's nq and order (before set-up too) */
  PetscCall(SimpVISchemeFamilyTitle_Private(vi->family, &family));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  Variational integrator %s: degree %" PetscInt_FMT ", %" PetscInt_FMT "-point %s quadrature, order %" PetscInt_FMT "\n", vi->type, vi->degree, vi->scheme->nq, family, vi->scheme->order));
  {
    SimpVIProblem *prob;

    PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
    if (prob && (prob->user.rbn || prob->user.rbvec)) { /* rigid bodies: the group, the map and the state; the SNES follows (TSView()) */
      PetscCall(SimpVIRigidView_Private(ts, prob, viewer));
      if (vi->rb) PetscCall(SimpVIAdjointView_Private(ts, viewer));
      if (vi->retries || ts->max_snes_failures != 1)
        PetscCall(PetscViewerASCIIPrintf(viewer, "  Steps retried from the last good state with a smaller step (failed solves, rejected stages): %" PetscInt_FMT " (solve failures allowed: %" PetscInt_FMT ", -ts_max_snes_failures)\n", vi->retries, ts->max_snes_failures));
      PetscFunctionReturn(0);
    }
  }
  PetscCall(SimpVIStepGetSizes_Private(vi->step, NULL, &npos));
  if (vi->prob && vi->prob->door) PetscCall(PetscViewerASCIIPrintf(viewer, "  Problem given through the %s door; step system of %" PetscInt_FMT " x %" PetscInt_FMT " positions\n", vi->prob->door->name, vi->degree, npos));
  if (vi->prob && vi->prob->door && vi->prob->door->view) PetscCall(vi->prob->door->view(vi->prob, viewer));
  if (vi->prob) PetscCall(SimpVIProblemViewConstraints_Private(vi->prob, vi->degree, viewer));
  if (vi->prob && vi->prob->door && npos) {
    PetscBool points;

    PetscCall(SimpVIStepHasPoints_Private(vi->step, &points));
    SNESType  type;
    PetscBool dense;

    PetscCall(SNESGetType(ts->snes, &type));
    PetscCall(PetscObjectTypeCompare((PetscObject)ts->snes, SNESSIMPVIDENSE, &dense));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Step solved by the SNES, type %s%s\n", type ? type : "not set", dense ? " (the default for systems of at most -ts_simpvi_small_limit rows on one process)" : ""));
    if (dense && points && !vi->prob->door->pointspg) PetscCall(PetscViewerASCIIPrintf(viewer, "  Its residual and Jacobian on arrays: the %s door's P, G and their derivatives at every quadrature point\n", vi->prob->door->name));
    else if (dense && points) PetscCall(PetscViewerASCIIPrintf(viewer, "  Its residual on arrays: the %s door's P and G at every quadrature point\n", vi->prob->door->name));
    PetscCall(SimpVIStepSolverView_Private(ts, viewer));
  }
  {
    PetscMPIInt size;
    KSP         ksp;
    PC          pc;
    PetscBool   bcgs, bjacobi;

    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ts), &size));
    PetscCall(SNESGetKSP(ts->snes, &ksp));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PetscObjectTypeCompare((PetscObject)ksp, KSPBCGS, &bcgs));
    PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &bjacobi));
    if (size > 1 && bcgs && bjacobi)
      PetscCall(
        PetscViewerASCIIPrintf(viewer,
                               "  Step's linear solver: BiCGStab with block Jacobi/ILU(0), the default in parallel unless the step matrix is nearly banded on each process (a parallel LU was measured slower at every size: bench/crossover.sh)\n"));
    if (size == 1 && bcgs && bjacobi && !vi->banded)
      PetscCall(
        PetscViewerASCIIPrintf(viewer, "  Step's linear solver: BiCGStab with block Jacobi/ILU(0), the default on one process above %" PetscInt_FMT " rows (-ts_simpvi_direct_limit) unless the step matrix is nearly banded\n", vi->prob ? vi->prob->directlimit : (PetscInt)SIMPVI_DIRECT_LIMIT));
    if (vi->saddle)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  Step's linear solver: the saddle-point default of the Vec/Mat constraints, %s\n", size > 1 ? "GMRES with block Jacobi, each process's block (its positions, then its multipliers) by an LU in the natural order" : "an LU in the natural order (the multipliers last)"));
    PetscCall(SimpVIStepConstraintsView_Private(vi->step, viewer));
    if (vi->banded && size == 1) PetscCall(PetscViewerASCIIPrintf(viewer, "  Step's linear solver: LU ordered by reverse Cuthill-McKee, the default for a step matrix nearly banded under it at any size (bench/crossover.sh)\n"));
    if (vi->banded && size > 1)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  Step's linear solver: each process's block by an LU ordered by reverse Cuthill-McKee and the few unknowns coupling the processes by a dense capacitance system (an exact solve), the default in "
                                               "parallel for a step matrix nearly banded on each process (bench/ranks.sh, bench/crossover.sh)\n"));
  }
  PetscCall(SimpVIAdjointView_Private(ts, viewer));
  if (!vi->compensated) PetscCall(PetscViewerASCIIPrintf(viewer, "  Compensated (Kahan) summation of the q, p and t updates: off\n"));
  if (vi->retries || ts->max_snes_failures != 1)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Steps retried from the last good state with a smaller step (failed solves, rejected stages): %" PetscInt_FMT " (solve failures allowed: %" PetscInt_FMT ", -ts_max_snes_failures)\n", vi->retries, ts->max_snes_failures));
  PetscCall(SimpVICheckpointView_Private(ts, viewer));
  PetscFunctionReturn(0);
}

/* A scheme changed after set-up: the step work space is rebuilt now, as TSRKSetType() does for its tableau */
static PetscErrorCode SchemeChanged(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscBool  same;

  PetscFunctionBegin;
  if (!ts->setupcalled || !vi->scheme) PetscFunctionReturn(0);
  PetscCall(SimpVISchemeIs_Private(vi->scheme, vi->family, vi->degree, &same));
  if (same) PetscFunctionReturn(0);
  PetscCall(SNESReset(ts->snes)); /* its matrices and factorization have the old step's size */
  PetscCall(TSReset_SimpVI(ts));
  PetscCall(TSSetUp_SimpVI(ts));
  PetscFunctionReturn(0);
}

static PetscErrorCode TSSimpVISetType_SimpVI(TS ts, TSSimpVIType type)
{
  TS_SimpVI  *vi = (TS_SimpVI *)ts->data;
  const char *family;

  PetscFunctionBegin;
  PetscCall(SimpVISchemeFind_Private(type, &family, &vi->degree, &vi->degreefixed));
  PetscCall(PetscFree(vi->family));
  PetscCall(PetscStrallocpy(family, &vi->family));
  PetscCall(PetscFree(vi->type));
  PetscCall(PetscStrallocpy(type, &vi->type));
  PetscCall(SchemeChanged(ts));
  PetscFunctionReturn(0);
}

static PetscErrorCode TSSimpVIGetPhaseSpaceIS_SimpVI(TS ts, IS *isq, IS *isp)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(TSSetUp(ts));
  PetscCheck(!vi->rb, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "Rigid bodies' state U = (R, pi) has no position and momentum index sets");
  PetscCheck(vi->layout->split, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "An I2 problem carries positions only");
  if (isq) *isq = vi->isq;
  if (isp) *isp = vi->isp;
  PetscFunctionReturn(0);
}

static PetscErrorCode TSSimpVIGetType_SimpVI(TS ts, TSSimpVIType *type)
{
  PetscFunctionBegin;
  *type = ((TS_SimpVI *)ts->data)->type;
  PetscFunctionReturn(0);
}

static PetscErrorCode TSSimpVISetDegree_SimpVI(TS ts, PetscInt degree)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCheck(degree >= 1 && degree <= 32, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "TSSIMPVI degree %" PetscInt_FMT " is out of range: use 1 to 32", degree);
  PetscCheck(!vi->degreefixed || degree == vi->degree, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_INCOMP, "Scheme %s has degree %" PetscInt_FMT "; for degree %" PetscInt_FMT " use -ts_simpvi_type lobatto or gauss", vi->type, vi->degree, degree);
  vi->degree = degree;
  PetscCall(SchemeChanged(ts));
  PetscFunctionReturn(0);
}

static PetscErrorCode TSSimpVIGetDegree_SimpVI(TS ts, PetscInt *degree)
{
  PetscFunctionBegin;
  *degree = ((TS_SimpVI *)ts->data)->degree;
  PetscFunctionReturn(0);
}

/*MC
  TSSIMPVI - Galerkin variational integrators: symplectic, momentum-preserving, fixed-step schemes of order 2s built
  from a degree-s polynomial per step and a quadrature of the action

  Options Database Keys:
+ -ts_simpvi_type <simpson> - midpoint (order 2, the Newmark scheme), trapezoid (order 2), simpson (order 4),
                              lobatto (order 2s, default s = 3) or gauss (order 2s with s Gauss points)
. -ts_simpvi_degree <s> - the degree of lobatto or gauss schemes
. -ts_simpvi_nonlinear_solver <snes> - deprecated: the step is solved by the TS's SNES, -snes_type kinsol chooses `SNESKINSOL`
. -ts_simpvi_direct_limit <100000> - step systems with at most this many rows get a direct solve by default on one
                              process, larger ones (and every size in parallel) BiCGStab with block Jacobi/ILU(0); the mass
                              solves behind velocities take -ts_simpvi_velocity_ksp_*
. -ts_simpvi_small_limit <SIMPVI_SMALL_LIMIT> - step systems with at most this many rows, on one process, get the SNES
                              type `SNESSIMPVIDENSE` unless a SNES type is chosen; 0: `SNESNEWTONLS` always
. -ts_simpvi_lag_jacobian <true> - simplified Newton: keep the step Jacobian and its factorization (of an earlier Newton
                              iteration, or of an earlier step with the same h) while the iteration contracts by 100 at
                              least; the iteration stops when its error estimate theta/(1-theta) ||dY|| (theta the
                              observed contraction) is below -ts_simpvi_newton_rtol ||Y||. For newtonls and simpvidense
                              with the default converged test, unless -snes_lag_jacobian or -snes_test_jacobian is given.
                              On the small dense path of the pointwise, mechanical and Lagrangian doors the test is made on
                              the update itself, without a residual after it (the end momentum then takes G's first-order
                              change)
. -ts_simpvi_newton_rtol <1e-16> - the tolerance of simplified Newton's error estimate, relative to the step vector's norm
. -ts_simpvi_mat_type <aij> - the type of the step matrix
. -ts_simpvi_monitor_energy - print the energy H and its relative drift after each step
. -ts_simpvi_check_stability <true> - stop when h*omega_max, with omega_max estimated at the first step from the mass and
                                       the Hessian, is beyond the scheme's linear stability bound, or when the state blows up
. -ts_simpvi_check_stability_warn - only warn instead
. -ts_simpvi_stability_ksp_* - the solver of the mass solves in the omega_max estimate (CG with Jacobi, rtol 1e-10; -ts_simpvi_stability_pc_*)
. -ts_simpvi_compensated_summation <true> - sum the q, p and t updates with Kahan's compensation: round-off then stays near
                                       one rounding instead of growing like sqrt(steps)
. -ts_simpvi_checkpoint <file> - write a checkpoint (state, step, time, time step, the last step's polynomial, compensations,
                                       counters, a CRC-32) every -ts_simpvi_checkpoint_every steps and at the end of `TSSolve()`, to
                                       <file>.tmp then renamed to <file>; the path is checked in `TSSetUp()`
. -ts_simpvi_checkpoint_every <1000> - steps between checkpoints
- -ts_simpvi_restart <file> - go on from a checkpoint, bit for bit as the run that wrote it (same program, same number of
                                       processes), to the final time or step in force (a later one extends a finished run);
                                       applied in `TSSetUp()`, after its length and checksum are verified

  Notes:
  The problem comes through one of five doors: a Lagrangian `TSSimpVISetLagrangian()` with
  `TSSimpVISetLagrangianHessian()`; a mechanical system L = 1/2 v'M(x)v - V(t,x) with `TSSimpVISetMass()` and
  `TSSimpVISetPotential()`; a small system's Lagrangian on plain arrays, many points per call,
  `TSSimpVISetPointwiseLagrangian()` (one process; its dense step path has no `Vec` or `Mat` in the loop); or an unchanged second-order PETSc program (`TSSetI2Function()`/`TSSetI2Jacobian()`, or
  `TSSetIFunction()` on (U, A) with `TS2SetSolution()`), read as M a + f(t, u, v) = 0 with constant M; or an unchanged
  `TSBASICSYMPLECTIC` program, a separable Hamiltonian given by `TSRHSSplitSetRHSFunction()` for "position" (q' = f(t, p))
  and "momentum" (p' = g(t, q)), read through L = p v - T(p) - V(q) with P = f^{-1}(v) (the Lobatto IIIA-IIIB pair
  for quadratic T; -ts_simpvi_split_fd_limit bounds the finite differences of Jacobians it is not given). Native problems
  carry the phase-space point U = (q, p), split with `TSRHSSplitSetIS()` "position" and "momentum"; on one process
  the default is the first and second half of U, on more the split must be named.

  Rigid bodies on SO(3) come through `TSSimpVISetRigidBodies()` (inertia tensors and a potential V(R)): the state U
  holds their rotation matrices and body momenta, and each step is the scheme's Galerkin step on the group,
  R0 exp(xi(tau)) (docs/mathematics.md, section 8), solved by the `TS`'s `SNES`; `TSSolve()`, events, `TSInterpolate()`
  and the failure path below work as for the other problems. `TSAdjointSolve()` gives the gradient of a cost of U(T)
  in the initial attitude (in the Lie algebra) and the body momenta: lambda is dC/dU in ambient coordinates at T and
  comes back at 0 with its attitude part projected onto the tangent space of SO(3) (`TSSimpVISetRigidBodies()`).

  Each step solves, with the `TS`'s `SNES` and the analytic Jacobian, for the nodes Q_1..Q_s of the step polynomial:
.vb
     p_j + dLd/dQ_0 = 0,  dLd/dQ_i = 0 (0 < i < s),  then p_{j+1} = dLd/dQ_s,
     Ld = h sum_k w_k L(t_k, sum_i B_ki Q_i, (1/h) sum_i D_ki Q_i)
.ve
  with Gauss-Lobatto nodes, B_ki and D_ki the Lagrange basis and its derivative at the quadrature points.
  The step size stays fixed: `TSADAPTNONE` only.

  Dense output (`TSInterpolate()`, `-ts_exact_final_time interpolate`): the state at a time t inside the last step
  [t_j, t_j + h] is the scheme's own step of length t - t_j from (q_j, p_j), with p(t) = dLd/dQ_s of that partial step.
  Positions and momenta so keep the scheme's order 2s, and the momentum of every symmetry of the Lagrangian (a cyclic
  coordinate's momentum) is conserved exactly at interpolated times, as at the steps (tests/dense.c). The step
  polynomial only predicts the partial step; its nonlinear solve (-info shows its iterations, which the TS's totals
  leave out) is the price of dense output: the polynomial alone, with momenta as L_v of its derivative, loses orders.
  On the I2 door `TSInterpolate()` gives the positions u alone: the velocity of `TS2GetSolution()` stays that of the
  last step, at `TSGetTime()`, so after a `TSSolve()` that interpolated back to the final time (its U at
  `TSGetSolveTime()`) V is not at that time; -ts_exact_final_time matchstep ends the steps on it, U and V alike. An
  adjoint (`TSAdjointSolve()`) runs back from the last step, so it refuses a solve that interpolated.

  Events (`TSSetEventHandler()`): PETSc locates an event by rolling the step back (`TSRollBack()` restores its start)
  and retaking it shorter until the event function is below its tolerance (`TSSetEventTolerances()`); after the event
  the steps go on with the step size PETSc chooses. Each step, shortened or not, is a full variational step.

  The step is one stage for `TSSetPreStage()` and `TSSetPostStage()`: the pre-stage hook gets the start time of the
  step, the post-stage hook the end time and a copy, shaped like the state, of the state the step gives (U = (q, p),
  or u for the I2 door); changes the hook makes to that copy are ignored.

  Long runs: a failed step solve leaves the state of the last good step in the `TS` (with `TSSetErrorIfStepFails()`
  false, or -ts_error_if_step_fails false; by default it is an error that names the step). With -ts_max_snes_failures
  <n> (-1: no limit) the step is retried from that state with a halved step (-ts_adapt_scale_solve_failed), at most
  `TSSetMaxStepRejections()` times (-ts_max_reject; -ts_max_step_rejections from PETSc 3.25); the steps go on with
  the smaller step, which costs the scheme its exact symplecticity at the change. -ts_adapt_monitor reports each retry, `TSView()` their number. docs/longruns.md gives the checkpoint's
  contents, restarts on another number of processes, and the round-off measurements.

  A quadratic Lagrangian may be declared with `TSSetProblemType`(ts, `TS_LINEAR`): each step is then one linear solve
  (`SNESKSPONLY`, unless -snes_type chooses another) with a step Jacobian assembled and factored once per run while it
  does not change. It may depend on t: at each step one more residual, at the start plus a fixed pseudo-random
  direction, compares J r with that of the kept Jacobian, and a change (to 1e-12, relative) has it assembled again.

  Sensitivities: `TSAdjointSolve()` after `TSSetSaveTrajectory()` and `TSSetCostGradients()` gives the exact discrete
  adjoint of the step map (q_j, p_j) -> (q_{j+1}, p_{j+1}) for every scheme and the native doors (Lagrangian,
  mechanical with constant or configuration-dependent mass, pointwise, with forces), serial and parallel: one transposed solve
  of the step Jacobian per step, at the nodes of the step the trajectory kept (`TSGetStages()`: its start and its
  increments), with any `TSTrajectory` type (memory, basic on disk, -ts_trajectory_solution_only recomputing steps).
  The solver of those systems takes -ts_simpvi_adjoint_ksp_*, -ts_simpvi_adjoint_pc_* options (a direct solve up to
  -ts_simpvi_direct_limit on one process, Krylov with block Jacobi in parallel). A cost integral of a quadrature `TS`
  (`TSCreateQuadratureTS()`) is integrated with the scheme's own quadrature, h sum_k w_k r(t_k, (x_k, P_k)), and its
  gradients `TSSetRHSJacobian()`/`TSSetRHSJacobianP()` enter the adjoint. Gradients in parameters (mu) need
  `TSSimpVISetParameterJacobian()`. `TSForwardSetSensitivities()` runs the step's tangent map. Not supported:
  second-order adjoints, adaptive steps.

  On the I2 door the state U holds the positions alone and the velocities V are outside it (`TS2SetSolution()`), so
  `TSAdjointSolve()` gives what PETSc's U-shaped lambda has room for: lambda = dC/dU0 at fixed V0, for a cost of U(T)
  and cost integrals r(t, U) of a quadrature `TS`; the adjoint of the momenta p = M V is carried inside from step to
  step, zero at the final time. Gradients in parameters (mu) come from `TSSetIJacobianP()`, called with (t, U, V) and
  shift 0 as dF/dtheta of F = M A + f(t, U, V; theta) (M must not depend on theta), or from
  `TSSimpVISetParameterJacobian()` (P = M V, G = -f). Not supported there: gradients in V0, costs of V, forward
  sensitivities, -ts_trajectory_solution_only (a recomputed step would lack its start velocity), an adjoint that does
  not run backwards from the last step of `TSSolve()`; each stops with an error.

  References:
+ * - J. A. Rojas-Quintero, F. Dubois, J. G. Cabrera-Diaz, Simpson's variational integrator for systems with quadratic Lagrangians, Axioms 13(4):255, 2024.
- * - F. Dubois, J. A. Rojas-Quintero, Simpson's quadrature for a nonlinear variational symplectic scheme, FVCA X, 2023.

  Level: beginner

.seealso: `TSCreate()`, `TS`, `TSSetType()`, `TSSimpVISetType()`, `TSSimpVISetLagrangian()`, `TSSimpVISetMass()`, `TSSimpVISetRigidBodies()`, `TSSimpVISetNonlinearSolverType()`,
          `TSSimpVISetUpPhaseSpace()`, `TSSimpVISetParameterJacobian()`, `TSAdjointSolve()`, `TSALPHA2`, `TSBASICSYMPLECTIC`
M*/

/*@C
  TSCreate_SimpVI - Makes a `TS` of type `TSSIMPVI`: called by `TSSetType()`, not by users

  Collective

  Input Parameter:
. ts - the `TS` context

  Note:
  `TSSetType()` finds it once `SimpVIInitializePackage()` (or -dll_append of the library) has registered `TSSIMPVI`.

  Level: developer

.seealso: `TSSIMPVI`, `TSSetType()`, `SimpVIInitializePackage()`
@*/
PETSC_EXTERN PetscErrorCode TSCreate_SimpVI(TS ts)
{
  TS_SimpVI *vi;
  SNES       snes;
  KSP        ksp;
  TSAdapt    adapt;

  PetscFunctionBegin;
  ts->ops->reset          = TSReset_SimpVI;
  ts->ops->destroy        = TSDestroy_SimpVI;
  ts->ops->view           = TSView_SimpVI;
  ts->ops->setup          = TSSetUp_SimpVI;
  ts->ops->step           = TSStep_SimpVI;
  ts->ops->interpolate    = TSInterpolate_SimpVI;
  ts->ops->rollback       = TSRollBack_SimpVI;
  ts->ops->setfromoptions = TSSetFromOptions_SimpVI;
  ts->ops->snesfunction   = SNESTSFormFunction_SimpVI;
  ts->ops->snesjacobian   = SNESTSFormJacobian_SimpVI;
  ts->default_adapt_type  = TSADAPTNONE;
  ts->usessnes            = PETSC_TRUE;
  PetscCall(SimpVIAdjointSetOps_Private(ts));

  PetscCall(PetscNew(&vi));
  ts->data = (void *)vi;
  PetscCall(SimpVIStepCreate_Private(&vi->step));
  vi->checkstability = PETSC_TRUE;
  vi->growth         = 1;
  vi->smalllimit     = SIMPVI_SMALL_LIMIT;
  vi->compensated    = PETSC_TRUE;
  vi->restartstep    = -1;
  vi->cpstep         = -1;
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVISetType_C", TSSimpVISetType_SimpVI));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVIGetType_C", TSSimpVIGetType_SimpVI));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVISetDegree_C", TSSimpVISetDegree_SimpVI));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVIGetDegree_C", TSSimpVIGetDegree_SimpVI));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVISetNonlinearSolverType_C", TSSimpVISetNonlinearSolverType_SimpVI));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVIGetNonlinearSolverType_C", TSSimpVIGetNonlinearSolverType_SimpVI));
  PetscCall(PetscObjectComposeFunction((PetscObject)ts, "TSSimpVIGetPhaseSpaceIS_C", TSSimpVIGetPhaseSpaceIS_SimpVI));
  PetscCall(TSSimpVISetType_SimpVI(ts, TSSIMPVISIMPSON));

  /* Defaults that options may override: Newton run until its update is negligible (the stol test) rather than
     stopped at 1e-8 of the first residual, which would cap high orders; the step's linear solver is chosen at set-up
     (SimpVIDefaultLinearSolver_Private) where the user left it unchosen, placeholders until then */
  PetscCall(TSGetAdapt(ts, &adapt));
  PetscCall(TSAdaptSetScaleSolveFailed(adapt, 0.5)); /* a failed step solve is retried with a halved step (PETSc: 0.25) */
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetTolerances(snes, PETSC_DEFAULT, SIMPVI_SNES_RTOL, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(SimpVIStepPlaceholderSolver_Private(ksp));
  PetscFunctionReturn(0);
}
