/*
   Simplified Newton on the step system: the step's Jacobian (and the factors the linear solver made of it) serves again
   at later Newton iterations and at later steps of the same h, for as long as the iteration contracts fast. A Newton
   iteration with a kept Jacobian converges linearly, with rate theta = ||dY_k|| / ||dY_k-1||; the error left after
   it is about theta / (1 - theta) ||dY_k||, which stops the iteration (Hairer and Wanner's RADAU5, SUNDIALS'
   nonlinear solvers): PETSc's step-length test ||dY|| < stol ||Y|| would stop a linearly converging iteration early,
   with an error of theta/(1 - theta) stol ||Y||. An iteration with a new Jacobian is Newton's, stopped by the SNES's
   own test. The rule runs when TSSIMPVI's converged test (SimpVIStepNewtonConverged_Private(), which wraps
   SNESConvergedDefault()) is the SNES's and neither PETSc's own lag nor the Jacobian test is asked for
   (src/ts/stepsolver.c decides); both solve paths ask SimpVIStepNewtonKeep_Private() at each Jacobian request.

   The answer depends on which Jacobian is held. So that it does not depend on anything else (a dense output between
   two steps, a restart from a checkpoint), the point of the held Jacobian is recorded and the Jacobian made again
   there, bit for bit, where the solver has lost it; a TSSolve() from step 0 (ts->steprestart) forgets it.
*/
#include <simpvi/private/stepimpl.h>

/*
  SimpVIStepNewtonBegin_Private - starts a solve of the step system; allowed: the SNES and its converged test let the
  Jacobian be kept (SimpVIStepNewtonKeep_Private()). fresh: the first iteration takes a new Jacobian (a solve again
  after a failure). A partial step (dense output) is solved by Newton and leaves the record of the held Jacobian.
*/
PetscErrorCode SimpVIStepNewtonBegin_Private(SimpVIStep st, PetscBool allowed, PetscBool fresh)
{
  PetscFunctionBegin;
  st->jcalls    = 0;
  st->dyprev    = 0;
  st->firstwas  = st->firstslow;
  st->firstslow = PETSC_FALSE;
  st->kept      = PETSC_FALSE;
  if (st->partial) {
    st->simplified = PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  st->simplified = (PetscBool)(allowed && st->lagjacobian && !st->linear);
  st->thetaprev  = st->theta; /* a solve's first iteration is judged by the last one's rate only (its Jacobian ages) */
  st->theta      = 1;
  if (fresh) st->refresh = PETSC_TRUE;
  st->q0norm = -1; /* made when the stagnation test needs it (a slow contraction): most solves never do */
  PetscFunctionReturn(0);
}

/* SimpVIStepNewtonForget_Private - the next solve starts with a new Jacobian and no history (a TSSolve() from step 0) */
PetscErrorCode SimpVIStepNewtonForget_Private(SimpVIStep st)
{
  PetscFunctionBegin;
  st->refresh   = PETSC_TRUE;
  st->theta     = 1;
  st->jrecorded = PETSC_FALSE;
  st->jremake   = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepNewtonKeep_Private - at a Jacobian request of the solver: whether the Jacobian held (have: the solver
  holds one of this step size) serves again (*keep), or must be made again at its recorded point (*remake: the
  solver lost it). Neither outside a simplified solve, nor after a slow contraction: a new Jacobian at Y then.
*/
PetscErrorCode SimpVIStepNewtonKeep_Private(SimpVIStep st, PetscBool have, PetscBool *keep, PetscBool *remake)
{
  PetscFunctionBegin;
  st->jcalls++;
  *keep   = PETSC_FALSE;
  *remake = PETSC_FALSE;
  if (!st->simplified) {
    st->kept = PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  if (st->jremake && !st->refresh && st->jrecorded && st->Jph == st->h) *remake = PETSC_TRUE;
  else *keep = (PetscBool)(have && !st->refresh && !st->jremake);
  st->jremake = PETSC_FALSE;
  if (!*keep && !*remake) {
    PetscCall(PetscInfo(NULL, "simplified Newton: a new Jacobian at iteration %" PetscInt_FMT " (%s)\n", st->jcalls - 1, st->refresh ? "slow contraction, or a new solve" : "none held for this h"));
    st->refresh = PETSC_FALSE;
  }
  st->kept = (PetscBool)(*keep || *remake);
  PetscFunctionReturn(0);
}

/* SimpVIStepNewtonRecord_Private - a new Jacobian was made at Y (and the step's t, h, q0): the point of the one held */
PetscErrorCode SimpVIStepNewtonRecord_Private(SimpVIStep st, Vec Y)
{
  PetscFunctionBegin;
  if (!st->simplified) PetscFunctionReturn(0);
  if (!st->JY) {
    PetscCall(VecDuplicate(Y, &st->JY));
    PetscCall(VecDuplicate(st->q0, &st->Jq0));
  }
  PetscCall(VecCopy(Y, st->JY));
  PetscCall(VecCopy(st->q0, st->Jq0));
  st->Jpt       = st->t;
  st->Jph       = st->h;
  st->jrecorded = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepNewtonAtRecord_Private - swaps the step's t, h, q0 and the vector Y (NULL: the Jacobian is made at the
  recorded iterate st->JY itself, as the Vec path does: SNESComputeJacobian() locks its solution vector) with the
  held Jacobian's point (and back, called again), to make that Jacobian again
*/
PetscErrorCode SimpVIStepNewtonAtRecord_Private(SimpVIStep st, Vec Y)
{
  PetscReal t = st->t, h = st->h;

  PetscFunctionBegin;
  st->t   = st->Jpt;
  st->h   = st->Jph;
  st->Jpt = t;
  st->Jph = h;
  PetscCall(VecSwap(st->q0, st->Jq0));
  if (Y) PetscCall(VecSwap(Y, st->JY));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepNewtonConverged_Private - the SNES converged test of the step (ctx: the step): SNESConvergedDefault();
  after an iteration with a kept Jacobian its step-length test is replaced by the estimate of the error left,
  theta/(1 - theta) ||dY|| <= newtonrtol ||Y||, or ||dY|| at round-off. An iteration that has not converged and
  contracted slower than SIMPVI_NEWTON_THETA_MAX asks for a new Jacobian at the next request, unless its update is at the
  round-off of the positions or its residual at that of p0: it has stagnated there and converged. The rate of the
  first iteration of a solve with a kept Jacobian is its residual's fall (no earlier update to measure it by). Newton's iterations
  (a new Jacobian each) are judged by SNESConvergedDefault() and, where their residual stops falling, by the latter.
*/
/* the sizes of the solve's q0 and p0, made when a stagnation test first needs them (every process together) */
static PetscErrorCode StartSizes(SimpVIStep st)
{
  PetscFunctionBegin;
  if (st->q0norm >= 0) PetscFunctionReturn(0);
  PetscCall(VecNorm(st->q0, NORM_2, &st->q0norm));
  st->q0norm *= PetscSqrtReal((PetscReal)st->scheme->degree); /* the step vector holds s blocks of positions */
  PetscCall(VecNorm(st->p0, NORM_2, &st->p0norm));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepNewtonConverged_Private(SNES snes, PetscInt it, PetscReal xnorm, PetscReal ynorm, PetscReal fnorm, SNESConvergedReason *reason, void *ctx)
{
  SimpVIStep st = (SimpVIStep)ctx;
  PetscReal  theta, fprev = st->fprev;
  PetscBool  measured, stagnated;

  PetscFunctionBegin;
  st->fprev = fnorm;
  if (!it || !st->simplified || !st->kept) {
    PetscCall(SNESConvergedDefault(snes, it, xnorm, ynorm, fnorm, reason, NULL));
    if (it) st->dyprev = ynorm;
    /* Newton's residual no longer falling, at the round-off of p0 (a term of the residual's first block): stagnated
       there. Unknowns whose round-off is coarser than the tests' scales get there (the multipliers of a very short
       constrained step: about eps |p| / h), where a line search then fails */
    PetscBool judge = (PetscBool)(it && !*reason && fnorm > fprev / 2);

    if (!*reason && !judge) {                               /* the first, or still falling: judged all the same for a SNES that cannot go on from
                                 round-off (newtontr's trust region stalls there, DIVERGED_INNER or _TR_DELTA) */
      if (st->snestype != ((PetscObject)snes)->type_name) { /* compared once per type, not at every iteration */
        PetscCall(PetscObjectTypeCompareAny((PetscObject)snes, &st->snesnewton, SNESNEWTONLS, SNESSIMPVIDENSE, SNESKSPONLY, ""));
        st->snestype = ((PetscObject)snes)->type_name;
      }
      judge = (PetscBool)!st->snesnewton;
    }
    if (judge) {
      PetscCall(StartSizes(st));
      if (fnorm <= SIMPVI_NEWTON_ROUNDOFF * st->p0norm) {
        PetscCall(PetscInfo(snes, "Converged: Newton's residual %g stagnates (was %g) at the round-off of ||p0|| = %g\n", (double)fnorm, (double)fprev, (double)st->p0norm));
        *reason = SNES_CONVERGED_SNORM_RELATIVE;
      }
    }
    PetscFunctionReturn(0);
  }
  PetscCall(SNESConvergedDefault(snes, it, xnorm, PETSC_MAX_REAL, fnorm, reason, NULL)); /* all but the step-length test */
  measured = (PetscBool)(st->dyprev > 0);
  theta    = measured ? ynorm / st->dyprev : PetscPowReal(st->thetaprev, 0.8); /* RADAU5's caution */
  if (measured) st->theta = theta;
  st->dyprev = ynorm;
  if (*reason) PetscFunctionReturn(0);
  /* an update at the round-off of the positions x_k = q0 + ... that no longer contracts: the iteration has stagnated
     there (increments small against q0, as in a stiff chain near rest), and the rate it shows is the round-off's; a new
     Jacobian would not take it further. Or a residual at the round-off of p0, as above */
  if (measured && theta > SIMPVI_NEWTON_THETA_MAX) PetscCall(StartSizes(st));
  stagnated = (PetscBool)(measured && theta > SIMPVI_NEWTON_THETA_MAX && (ynorm <= SIMPVI_NEWTON_ROUNDOFF * (xnorm + st->q0norm) || fnorm <= SIMPVI_NEWTON_ROUNDOFF * st->p0norm));
  if ((theta < 1 && theta / (1 - theta) * ynorm <= st->newtonrtol * xnorm) || ynorm <= SIMPVI_NEWTON_ROUNDOFF * xnorm) {
    PetscCall(PetscInfo(snes, "Converged: simplified Newton's error estimate %g (contraction %g) <= %g * ||Y|| = %g\n", (double)(theta < 1 ? theta / (1 - theta) * ynorm : ynorm), (double)theta, (double)st->newtonrtol, (double)(st->newtonrtol * xnorm)));
    *reason = SNES_CONVERGED_SNORM_RELATIVE;
  } else if (stagnated) {
    PetscCall(PetscInfo(snes, "Converged: simplified Newton stagnates (contraction %g) with its update %g at the round-off of the positions (||Y|| + sqrt(s) ||q0|| = %g) or its residual %g at that of ||p0|| = %g\n", (double)theta, (double)ynorm, (double)(xnorm + st->q0norm), (double)fnorm,
                        (double)st->p0norm));
    *reason = SNES_CONVERGED_SNORM_RELATIVE;
  } else if (measured && theta > SIMPVI_NEWTON_THETA_MAX) { /* (not at convergence, whose rate may be round-off's) */
    PetscCall(PetscInfo(snes, "Simplified Newton contracts by %g only: a new Jacobian next\n", (double)theta));
    st->refresh = PETSC_TRUE;
  } else if (!measured && fnorm > SIMPVI_NEWTON_THETA_MAX * fprev) {
    /* the first iteration with a Jacobian kept from an earlier solve has no rate of updates yet, but its residual's fall
       tells the same: one too old is replaced here rather than after a second iteration. Not at the round-off of p0,
       where a residual no longer falls */
    PetscCall(StartSizes(st));
    if (fnorm > SIMPVI_NEWTON_ROUNDOFF * st->p0norm && ynorm > SIMPVI_NEWTON_ROUNDOFF * (xnorm + st->q0norm)) {
      PetscCall(PetscInfo(snes, "Simplified Newton's first iteration reduces the residual by %g only: a new Jacobian next\n", (double)(fnorm / fprev)));
      st->refresh   = PETSC_TRUE;
      st->firstslow = PETSC_TRUE;
    }
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIStepNewtonAccept_Private - SNESSIMPVIDENSE's test of an update (SNESSimpVIDenseAcceptFn): simplified Newton's
  converged test above, theta/(1 - theta) ||dY|| <= newtonrtol ||Y|| or ||dY|| at round-off, decided on the update alone
  as RADAU5 decides it: the residual at the new iterate is not evaluated. The test needs only the update's norm and the
  one before it, the residual served the end momentum only: p1 = p0 + h sum_k w_k G_k takes G at the iterate before
  and its first-order change over dY by the derivatives of the kept Jacobian
  (SimpVIStepMomentum_Private()); its error, the derivatives' own (about theta) times ||dY|| <= newtonrtol ||Y||, is
  below the round-off the test asks, and a coordinate whose G vanishes keeps its momentum exactly. For the points path
  of the dense step, without constraints, in the vector space.
*/
PetscErrorCode SimpVIStepNewtonAccept_Private(SNES snes, PetscInt it, PetscReal xnorm, PetscReal ynorm, const PetscScalar dy[], PetscBool *accept, void *ctx)
{
  SimpVIStep st = (SimpVIStep)ctx;
  PetscReal  theta;

  PetscFunctionBegin;
  *accept = PETSC_FALSE;
  if (!st->simplified || !st->kept || st->dyprev <= 0 || !st->door.points || st->door.pointspg || !st->eGmade || !st->edy || st->layout.nmultiplier || st->constrained || st->kernel->space != &SimpVIConfigurationVectorSpace) PetscFunctionReturn(0);
  theta = ynorm / st->dyprev;
  if (!((theta < 1 && theta / (1 - theta) * ynorm <= st->newtonrtol * xnorm) || ynorm <= SIMPVI_NEWTON_ROUNDOFF * xnorm)) PetscFunctionReturn(0);
  PetscCall(PetscInfo(snes, "Converged: simplified Newton's error estimate %g (contraction %g) <= %g * ||Y|| = %g, on the update alone (no residual after it)\n", (double)(theta < 1 ? theta / (1 - theta) * ynorm : ynorm), (double)theta, (double)st->newtonrtol, (double)(st->newtonrtol * xnorm)));
  st->theta  = theta;
  st->dyprev = ynorm;
  PetscCall(PetscArraycpy(st->edy, dy, st->dm));
  PetscCall(SimpVIStepStamp_Private(st, st->Y, &st->estamp));
  *accept = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* -ts_simpvi_lag_jacobian, -ts_simpvi_newton_rtol */
PetscErrorCode SimpVIStepSetLagJacobian_Private(SimpVIStep st, PetscBool lag, PetscReal rtol)
{
  PetscFunctionBegin;
  st->lagjacobian = lag;
  st->newtonrtol  = rtol;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepGetLagJacobian_Private(SimpVIStep st, PetscBool *lag, PetscReal *rtol)
{
  PetscFunctionBegin;
  if (lag) *lag = st->lagjacobian;
  if (rtol) *rtol = st->newtonrtol;
  PetscFunctionReturn(0);
}

/*
  SimpVIStepNewtonGetState_Private - what a checkpoint keeps of simplified Newton (src/ts/checkpoint.c): whether a
  Jacobian's point is recorded, whether the next solve takes a new Jacobian, and r = {t, h, theta} (the point's time
  and step size, the last contraction); the point's vectors go by SimpVIStepNewtonRecordIO_Private()
*/
PetscErrorCode SimpVIStepNewtonGetState_Private(SimpVIStep st, PetscBool *recorded, PetscBool *refresh, PetscReal r[3])
{
  PetscFunctionBegin;
  *recorded = st->jrecorded;
  *refresh  = st->refresh;
  r[0]      = st->Jpt;
  r[1]      = st->Jph;
  r[2]      = st->theta;
  PetscFunctionReturn(0);
}

/* SimpVIStepNewtonSetState_Private - a restart's: the recorded Jacobian is made again at the first request */
PetscErrorCode SimpVIStepNewtonSetState_Private(SimpVIStep st, PetscBool recorded, PetscBool refresh, const PetscReal r[3])
{
  PetscFunctionBegin;
  st->jrecorded = recorded;
  st->jremake   = recorded;
  st->refresh   = refresh;
  st->Jpt       = r[0];
  st->Jph       = r[1];
  st->theta     = r[2];
  PetscFunctionReturn(0);
}

/* the multiplier blocks of a step vector (each process's s blocks after its s stage blocks): written or read as s
   vectors of the constraints' layout, whose global ordering does not depend on the number of processes */
static PetscErrorCode MultipliersIO(SimpVIStep st, Vec Yv, PetscViewer viewer, PetscBool write)
{
  const PetscInt s = st->scheme->degree, n = st->qmap->n, m = st->layout.nmultiplier;
  Vec            w;
  PetscScalar   *y, *a;

  PetscFunctionBegin;
  if (!st->constrained) PetscFunctionReturn(0); /* (the same on every process) */
  PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)Yv), m, PETSC_DETERMINE, &w));
  for (PetscInt b = 0; b < s; b++) {
    if (!write) PetscCall(VecLoad(w, viewer));
    PetscCall(VecGetArray(Yv, &y));
    PetscCall(VecGetArray(w, &a));
    if (write) PetscCall(PetscArraycpy(a, y + s * n + b * m, m));
    else PetscCall(PetscArraycpy(y + s * n + b * m, a, m));
    PetscCall(VecRestoreArray(w, &a));
    PetscCall(VecRestoreArray(Yv, &y));
    if (write) PetscCall(VecView(w, viewer));
  }
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepMultipliersIO_Private - writes (or reads) the multipliers of the last solve, which the next one starts from
  (the predictor makes the increments only): a restarted run then solves as the original did
*/
PetscErrorCode SimpVIStepMultipliersIO_Private(SimpVIStep st, PetscViewer viewer, PetscBool write)
{
  PetscFunctionBegin;
  PetscCall(MultipliersIO(st, st->Y, viewer, write));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepNewtonRecordIO_Private - writes (or reads) the recorded point's q0 and the s stage blocks of its step vector,
  each as a vector of the positions (their global ordering does not depend on the number of processes, as the step
  vector's does), then its multipliers (the Jacobian's constraint terms depend on them)
*/
PetscErrorCode SimpVIStepNewtonRecordIO_Private(SimpVIStep st, PetscViewer viewer, PetscBool write)
{
  const PetscInt s = st->scheme->degree, n = st->qmap->n;
  Vec            w;
  PetscScalar   *y, *a;

  PetscFunctionBegin;
  if (!st->JY) {
    PetscCall(VecDuplicate(st->Y, &st->JY));
    PetscCall(VecDuplicate(st->q0, &st->Jq0));
  }
  PetscCall(write ? VecView(st->Jq0, viewer) : VecLoad(st->Jq0, viewer));
  PetscCall(VecDuplicate(st->q0, &w));
  for (PetscInt b = 0; b < s; b++) {
    if (!write) PetscCall(VecLoad(w, viewer));
    PetscCall(VecGetArray(st->JY, &y));
    PetscCall(VecGetArray(w, &a));
    if (write) PetscCall(PetscArraycpy(a, y + b * n, n));
    else PetscCall(PetscArraycpy(y + b * n, a, n));
    PetscCall(VecRestoreArray(w, &a));
    PetscCall(VecRestoreArray(st->JY, &y));
    if (write) PetscCall(VecView(w, viewer));
  }
  PetscCall(VecDestroy(&w));
  PetscCall(MultipliersIO(st, st->JY, viewer, write));
  PetscFunctionReturn(0);
}
