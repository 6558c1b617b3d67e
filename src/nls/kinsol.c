/*
   SUNDIALS KINSOL as the second solver of the TSSIMPVI step system (-ts_simpvi_nonlinear_solver kinsol).

   KINSOL works on N_Vector_Petsc wrappers of PETSc vectors shaped like the step vector vi->Y, so it runs on distributed
   vectors. Its linear solves go through a PETSc KSP (prefix <ts prefix>ts_simpvi_kinsol_, preonly + LU by default) on
   the analytic step Jacobian vi->J, wrapped as a custom SUNLinearSolver of type DIRECT (KINSOL 6.4 rejects
   MATRIX_EMBEDDED solvers; DIRECT makes it treat each solve as exact, like SNES with a direct KSP, with no inexact-Newton
   forcing terms and no difference-quotient products) over a SUNMatrix that is only a handle: the KINLsJacFn assembles
   vi->J at the iterate, the solver's setup hands it to the KSP (which factors it), its solve is KSPSolve.

   Strategies (-ts_simpvi_kinsol_strategy): newton (KIN_NONE) and linesearch (KIN_LINESEARCH, the default, like SNES's
   newtonls) are Newton with a new Jacobian every iteration; picard (KIN_PICARD) keeps L = J0, the Jacobian at the
   step's initial guess; fp (KIN_FP) iterates y = G(y) = y - J0^{-1} R(y), the same preconditioned fixed point, whose
   contraction factor is of the size of |Y0 - Y*|, small with the step predictor. picard and fp take KINSOL's Anderson
   acceleration of depth -ts_simpvi_kinsol_maa, capped at the number of unknowns.

   Scales (uniform, set at the start of every solve, so the tolerances are relative):
     residual scale fs = the largest sum of magnitudes of the terms of a row of R at the initial guess (p_j, and
       w_k D_ki L_v, h w_k B_ki L_x at the quadrature points): R's round-off is 1e-16 fs to 5e-15 fs (growing with the
       degree), so the default fnormtol 1e-14 sits above it for every scheme;
     increment scale us = max|Y0| (for fp also the first correction max|J0^{-1} R(Y0)|), else max|q_j|, else 1.
   KINSOL stops Newton when max|R| <= fnormtol fs or when the step max|dY_i|/(|Y_i| + us) <= scsteptol (1e-10; the
   analogue of the SNES stol test, as Newton's next correction would be its square), picard when max|R| <= fnormtol fs
   and fp when max|dY| <= fnormtol us. With these defaults the pendulum of FVCA 2023 Table 1 follows the SNES
   trajectory to a few 1e-15 (newton, linesearch, fp) over one period in 50 to 200 steps.

   Errors: a PETSc error inside a callback returns -1 to KINSOL (a positive value would mean "recoverable") and is
   raised again once KINSol() returns; Inf or NaN in the residual is recoverable for newton/linesearch (KINSOL halves
   the step). A negative KINSol() flag is a failed step (converged = PETSC_FALSE, reason "KINSOL <flag name>"), except
   a stall at round-off: a failed line search or picard/fp out of iterations whose last iterate has
   max|R| <= max(10 fnormtol, 1e-13) fs is accepted. KINSOL 6.4's Anderson acceleration has no guard against dependent
   columns and may hand over Inf or NaN near convergence: the solve then goes on without it from the last finite
   iterate.
*/
#include <simpvi/private/tssimpviimpl.h>
#include <kinsol/kinsol.h>
#include <kinsol/kinsol_ls.h>
#include <nvector/nvector_petsc.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

static const char *const SimpVIKINSOLStrategies[] = {"newton", "linesearch", "picard", "fp", "SimpVIKINSOLStrategy", "SIMPVI_KINSOL_", NULL};

typedef struct {
  TS ts;

  /* options */
  PetscInt  strategy; /* KIN_NONE, KIN_LINESEARCH, KIN_PICARD, KIN_FP: the index in SimpVIKINSOLStrategies */
  PetscInt  maa, maxits, msbset, printlevel;
  PetscReal fnormtol, scsteptol, maxnewtonstep;
  PetscBool kspsetfromoptions; /* KSPSetFromOptions() is due before the next solve */

  /* SUNDIALS objects, rebuilt when the step vector changes */
  MPI_Comm        comm;
  SUNContext      sunctx;
  void           *mem;
  long int        memmaa;   /* the Anderson depth mem was created with (KINSetMAA() must precede KINInit()) */
  Vec             Ywrapped; /* the step vector the N_Vector y wraps (referenced) */
  PetscObjectId   Yid;
  N_Vector        y, uscale, fscale;
  SUNMatrix       A;
  SUNLinearSolver LS;

  /* PETSc side */
  KSP                ksp;
  Vec                r, d;  /* residual; fp: correction */
  Vec                ygood; /* picard/fp with Anderson: the last finite iterate */
  PetscBool          havegood, aabreakdown;
  PetscObjectId      d1id; /* fp: d holds J0^{-1} R at this (vector id, state) */
  PetscObjectState   d1state;
  PetscInt           lits;      /* linear iterations of the current solve */
  PetscErrorCode     perr;      /* first PETSc error raised in a callback */
  PetscBool          nonfinite; /* a residual had Inf or NaN */
  KSPConvergedReason kspreason; /* last failed KSP solve */

  /* totals for -ts_view */
  PetscInt nsolves, nfailures, totits, totlits;
} SimpVI_KINSOL;

/* A failed line search or picard/fp out of iterations, with max|R| <= max(SIMPVI_KINSOL_STALL fnormtol,
   SIMPVI_KINSOL_ROUNDOFF) fs, is a stall at round-off and counts as converged (the round-off of R is about 1e-16 fs to
   5e-15 fs, growing with the degree) */
#define SIMPVI_KINSOL_STALL    10
#define SIMPVI_KINSOL_ROUNDOFF 1e-13

static PetscLogEvent SIMPVI_KINSOLSolve;
static PetscBool     SimpVIKINSOLEventRegistered = PETSC_FALSE;

static PetscErrorCode SimpVIKINSOLFinalize(void)
{
  PetscFunctionBegin;
  SimpVIKINSOLEventRegistered = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode SimpVIKINSOLRegisterEvent(void)
{
  PetscFunctionBegin;
  if (SimpVIKINSOLEventRegistered) PetscFunctionReturn(0);
  PetscCall(PetscLogEventRegister("SimpVIKINSOL", TS_CLASSID, &SIMPVI_KINSOLSolve));
  PetscCall(PetscRegisterFinalize(SimpVIKINSOLFinalize));
  SimpVIKINSOLEventRegistered = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* Records the first PETSc error of a callback and turns it into KINSOL's "unrecoverable" */
static int KINSOLError(SimpVI_KINSOL *kin, PetscErrorCode ierr)
{
  if (!kin->perr) kin->perr = ierr;
  return -1;
}

/* ---------------------------------------------------------------- callbacks */

/* R(y), flagging Inf or NaN */
static PetscErrorCode KINSOLResidual_Petsc(SimpVI_KINSOL *kin, Vec y, Vec r)
{
  PetscReal rnorm;

  PetscFunctionBegin;
  PetscCall(SimpVIStepResidual_Private(kin->ts, y, r));
  PetscCall(VecNorm(r, NORM_INFINITY, &rnorm));
  kin->nonfinite = (PetscBool)PetscIsInfOrNanReal(rnorm);
  PetscFunctionReturn(0);
}

/* Anderson acceleration in KINSOL 6.4 has no guard against dependent columns: once the iterates are all round-off its
   QR may divide by zero and hand over Inf or NaN. The last finite iterate is kept to fall back to. */
static PetscErrorCode KINSOLCheckIterate(SimpVI_KINSOL *kin, Vec y, PetscBool *ok)
{
  PetscReal nrm;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  if (kin->memmaa <= 0 || !(kin->strategy == KIN_PICARD || kin->strategy == KIN_FP)) PetscFunctionReturn(0);
  PetscCall(VecNorm(y, NORM_INFINITY, &nrm));
  if (PetscIsInfOrNanReal(nrm)) {
    kin->aabreakdown = PETSC_TRUE;
    *ok              = PETSC_FALSE;
  } else {
    PetscCall(VecCopy(y, kin->ygood));
    kin->havegood = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

static int KINSOLResidual(N_Vector y, N_Vector f, void *ctx)
{
  SimpVI_KINSOL *kin = (SimpVI_KINSOL *)ctx;
  PetscBool      ok;
  PetscErrorCode ierr;

  ierr = KINSOLCheckIterate(kin, N_VGetVector_Petsc(y), &ok);
  if (ierr) return KINSOLError(kin, ierr);
  if (!ok) return -1;
  ierr = KINSOLResidual_Petsc(kin, N_VGetVector_Petsc(y), N_VGetVector_Petsc(f));
  if (ierr) return KINSOLError(kin, ierr);
  if (kin->nonfinite) return kin->strategy == KIN_NONE || kin->strategy == KIN_LINESEARCH ? 1 : -1;
  return 0;
}

/* KSPSolve counting iterations; a solve that fails other than by running out of iterations is remembered */
static PetscErrorCode KINSOLKSPSolve(SimpVI_KINSOL *kin, Vec b, Vec x, PetscBool *failed)
{
  KSPConvergedReason reason;
  PetscInt           its;

  PetscFunctionBegin;
  PetscCall(KSPSolve(kin->ksp, b, x));
  PetscCall(KSPGetIterationNumber(kin->ksp, &its));
  PetscCall(KSPGetConvergedReason(kin->ksp, &reason));
  kin->lits += its;
  *failed = (PetscBool)(reason < 0 && reason != KSP_DIVERGED_ITS);
  if (*failed) kin->kspreason = reason;
  PetscFunctionReturn(0);
}

/* The fixed-point map G(y) = y - J0^{-1} R(y); the first call, at the initial guess, reuses the correction d1 */
static PetscErrorCode KINSOLFixedPoint_Petsc(SimpVI_KINSOL *kin, Vec y, Vec g, PetscBool *failed)
{
  PetscObjectId    id;
  PetscObjectState state;

  PetscFunctionBegin;
  *failed = PETSC_FALSE;
  PetscCall(PetscObjectGetId((PetscObject)y, &id));
  PetscCall(PetscObjectStateGet((PetscObject)y, &state));
  if (id != kin->d1id || state != kin->d1state) {
    PetscCall(KINSOLResidual_Petsc(kin, y, kin->r));
    if (kin->nonfinite) PetscFunctionReturn(0);
    PetscCall(KINSOLKSPSolve(kin, kin->r, kin->d, failed));
    if (*failed) PetscFunctionReturn(0);
  }
  kin->d1id = 0;
  PetscCall(VecWAXPY(g, -1, kin->d, y));
  PetscFunctionReturn(0);
}

static int KINSOLFixedPoint(N_Vector y, N_Vector g, void *ctx)
{
  SimpVI_KINSOL *kin = (SimpVI_KINSOL *)ctx;
  PetscBool      failed, ok;
  PetscErrorCode ierr;

  ierr = KINSOLCheckIterate(kin, N_VGetVector_Petsc(y), &ok);
  if (ierr) return KINSOLError(kin, ierr);
  if (!ok) return -1;
  ierr = KINSOLFixedPoint_Petsc(kin, N_VGetVector_Petsc(y), N_VGetVector_Petsc(g), &failed);
  if (ierr) return KINSOLError(kin, ierr);
  return kin->nonfinite || failed ? -1 : 0;
}

/* The Jacobian of the step at u into vi->J; a linear problem keeps it, and its factorization, while it is unchanged */
static PetscErrorCode KINSOLJacobian_Petsc(SimpVI_KINSOL *kin, Vec u)
{
  TS         ts = kin->ts;
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(SimpVIStepJacobianUpdate_Private(ts, u, vi->J));
  PetscFunctionReturn(0);
}

static int KINSOLJacobian(N_Vector u, N_Vector fu, SUNMatrix J, void *ctx, N_Vector tmp1, N_Vector tmp2)
{
  SimpVI_KINSOL *kin  = (SimpVI_KINSOL *)ctx;
  PetscErrorCode ierr = KINSOLJacobian_Petsc(kin, N_VGetVector_Petsc(u));

  return ierr ? KINSOLError(kin, ierr) : 0;
}

/* The SUNMatrix is a handle on vi->J: KINSOL zeroes DIRECT matrices before calling the Jacobian function, which
   assembles from scratch anyway */
static SUNMatrix_ID KINSOLMatGetID(SUNMatrix A)
{
  return SUNMATRIX_CUSTOM;
}

static int KINSOLMatZero(SUNMatrix A)
{
  return 0;
}

/* The SUNLinearSolver: setup gives the assembled Jacobian to the KSP and factors it, solve is KSPSolve */
static SUNLinearSolver_Type KINSOLLSGetType(SUNLinearSolver LS)
{
  return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID KINSOLLSGetID(SUNLinearSolver LS)
{
  return SUNLINEARSOLVER_CUSTOM;
}

static PetscErrorCode KINSOLLSSetup_Petsc(SimpVI_KINSOL *kin)
{
  TS_SimpVI *vi = (TS_SimpVI *)kin->ts->data;

  PetscFunctionBegin;
  PetscCall(KSPSetOperators(kin->ksp, vi->J, vi->J));
  PetscCall(KSPSetUp(kin->ksp));
  PetscFunctionReturn(0);
}

static int KINSOLLSSetup(SUNLinearSolver LS, SUNMatrix A)
{
  SimpVI_KINSOL *kin  = (SimpVI_KINSOL *)LS->content;
  PetscErrorCode ierr = KINSOLLSSetup_Petsc(kin);

  if (ierr) {
    (void)KINSOLError(kin, ierr);
    return SUNLS_PACKAGE_FAIL_UNREC;
  }
  return SUNLS_SUCCESS;
}

static int KINSOLLSSolve(SUNLinearSolver LS, SUNMatrix A, N_Vector x, N_Vector b, realtype tol)
{
  SimpVI_KINSOL *kin = (SimpVI_KINSOL *)LS->content;
  PetscBool      failed;
  PetscErrorCode ierr = KINSOLKSPSolve(kin, N_VGetVector_Petsc(b), N_VGetVector_Petsc(x), &failed);

  if (ierr) {
    (void)KINSOLError(kin, ierr);
    return SUNLS_PACKAGE_FAIL_UNREC;
  }
  return failed ? SUNLS_PACKAGE_FAIL_REC : SUNLS_SUCCESS;
}

static int KINSOLLSNumIters(SUNLinearSolver LS)
{
  SimpVI_KINSOL *kin = (SimpVI_KINSOL *)LS->content;
  PetscInt       its = 0;

  (void)KSPGetIterationNumber(kin->ksp, &its);
  return (int)its;
}

/* KINSOL's error and info messages go to PetscInfo and PetscPrintf instead of stderr/stdout */
static void KINSOLErrHandler(int code, const char *module, const char *function, char *msg, void *ctx)
{
  SimpVI_KINSOL *kin = (SimpVI_KINSOL *)ctx;

  (void)PetscInfo(kin->ts, "%s %s (%d): %s\n", module, function, code, msg);
}

static void KINSOLInfoHandler(const char *module, const char *function, char *msg, void *ctx)
{
  SimpVI_KINSOL *kin = (SimpVI_KINSOL *)ctx;

  (void)PetscPrintf(kin->comm, "      KINSOL %s: %s\n", function, msg);
}

/* KINGetReturnFlagName() of SUNDIALS 6.4 returns "NONE" for the system-function flags: those are named here */
static const char *KINSOLFlagName(int flag, char name[], size_t len)
{
  char *kname;

  switch (flag) {
  case KIN_SYSFUNC_FAIL:
    return "KIN_SYSFUNC_FAIL";
  case KIN_FIRST_SYSFUNC_ERR:
    return "KIN_FIRST_SYSFUNC_ERR";
  case KIN_REPTD_SYSFUNC_ERR:
    return "KIN_REPTD_SYSFUNC_ERR";
  case KIN_VECTOROP_ERR:
    return "KIN_VECTOROP_ERR";
  case KIN_CONTEXT_ERR:
    return "KIN_CONTEXT_ERR";
  default:
    kname = KINGetReturnFlagName(flag);
    if (!kname) return "(unknown flag)";
    if (strcmp(kname, "NONE")) (void)PetscStrncpy(name, kname, len);
    else (void)PetscSNPrintf(name, len, "flag %d", flag);
    free(kname);
    return name;
  }
}

/* ---------------------------------------------------------------- set up and tear down */

static PetscErrorCode KINSOLCreateKSP(TS ts, SimpVI_KINSOL *kin)
{
  PetscFunctionBegin;
  if (kin->ksp) PetscFunctionReturn(0);
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)ts), &kin->ksp));
  PetscCall(PetscObjectIncrementTabLevel((PetscObject)kin->ksp, (PetscObject)ts, 1));
  PetscCall(KSPSetOptionsPrefix(kin->ksp, ((PetscObject)ts)->prefix));
  PetscCall(KSPAppendOptionsPrefix(kin->ksp, "ts_simpvi_kinsol_"));
  kin->kspsetfromoptions = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* The private data, with the defaults, on first use */
static PetscErrorCode KINSOLGetContext(TS ts, SimpVI_KINSOL **ctx)
{
  TS_SimpVI     *vi = (TS_SimpVI *)ts->data;
  SimpVI_KINSOL *kin;

  PetscFunctionBegin;
  if (!vi->kinsol) {
    PetscCall(PetscNew(&kin));
    kin->ts            = ts;
    kin->comm          = PetscObjectComm((PetscObject)ts);
    kin->strategy      = KIN_LINESEARCH;
    kin->maa           = 0;
    kin->maxits        = 50;
    kin->msbset        = 1;
    kin->fnormtol      = 1e-14;
    kin->scsteptol     = 1e-10;
    kin->maxnewtonstep = 1e10;
    kin->memmaa        = -1;
    PetscCall(KINSOLCreateKSP(ts, kin));
    vi->kinsol = kin;
  }
  *ctx = (SimpVI_KINSOL *)vi->kinsol;
  PetscFunctionReturn(0);
}

/* Frees the SUNDIALS objects and the work vectors (not the KSP or the context) */
static PetscErrorCode KINSOLFreeMemory(SimpVI_KINSOL *kin)
{
  PetscFunctionBegin;
  if (kin->mem) KINFree(&kin->mem);
  if (kin->LS) SUNLinSolFreeEmpty(kin->LS); /* content is kin, not malloc'd: SUNLinSolFree would free() it */
  if (kin->A) SUNMatFreeEmpty(kin->A);
  if (kin->y) N_VDestroy(kin->y); /* a wrapper: the Vec is released below */
  if (kin->uscale) N_VDestroy(kin->uscale);
  if (kin->fscale) N_VDestroy(kin->fscale);
  kin->LS     = NULL;
  kin->A      = NULL;
  kin->y      = NULL;
  kin->uscale = NULL;
  kin->fscale = NULL;
  kin->memmaa = -1;
  kin->Yid    = 0;
  kin->d1id   = 0;
  PetscCall(VecDestroy(&kin->Ywrapped));
  PetscCall(VecDestroy(&kin->r));
  PetscCall(VecDestroy(&kin->d));
  PetscCall(VecDestroy(&kin->ygood));
  PetscFunctionReturn(0);
}

/* KINSOL memory for the step vector Y and the Anderson depth maa */
static PetscErrorCode KINSOLCreateMemory(TS ts, SimpVI_KINSOL *kin, Vec Y, long int maa)
{
  PetscInt n = -1, nold = -1;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(Y, &n));
  if (kin->Ywrapped) PetscCall(VecGetLocalSize(kin->Ywrapped, &nold));
  PetscCall(KINSOLFreeMemory(kin));
  if (n != nold) PetscCall(KSPReset(kin->ksp)); /* the step system changed size: the KSP must drop its operators */
  if (!kin->sunctx) PetscCallExternal(SUNContext_Create, (void *)&kin->comm, &kin->sunctx);

  PetscCall(PetscObjectReference((PetscObject)Y));
  kin->Ywrapped = Y;
  PetscCall(PetscObjectGetId((PetscObject)Y, &kin->Yid));
  PetscCall(VecDuplicate(Y, &kin->r));
  PetscCall(VecDuplicate(Y, &kin->d));
  if (maa > 0) PetscCall(VecDuplicate(Y, &kin->ygood));
  kin->y = N_VMake_Petsc(Y, kin->sunctx);
  PetscCheck(kin->y, kin->comm, PETSC_ERR_LIB, "N_VMake_Petsc() failed");
  kin->uscale = N_VClone(kin->y);
  kin->fscale = N_VClone(kin->y);
  PetscCheck(kin->uscale && kin->fscale, kin->comm, PETSC_ERR_LIB, "N_VClone() failed");

  kin->A = SUNMatNewEmpty(kin->sunctx);
  PetscCheck(kin->A, kin->comm, PETSC_ERR_LIB, "SUNMatNewEmpty() failed");
  kin->A->content    = kin;
  kin->A->ops->getid = KINSOLMatGetID;
  kin->A->ops->zero  = KINSOLMatZero;
  kin->LS            = SUNLinSolNewEmpty(kin->sunctx);
  PetscCheck(kin->LS, kin->comm, PETSC_ERR_LIB, "SUNLinSolNewEmpty() failed");
  kin->LS->content       = kin;
  kin->LS->ops->gettype  = KINSOLLSGetType;
  kin->LS->ops->getid    = KINSOLLSGetID;
  kin->LS->ops->setup    = KINSOLLSSetup;
  kin->LS->ops->solve    = KINSOLLSSolve;
  kin->LS->ops->numiters = KINSOLLSNumIters;

  kin->mem = KINCreate(kin->sunctx);
  PetscCheck(kin->mem, kin->comm, PETSC_ERR_LIB, "KINCreate() failed");
  PetscCallExternal(KINSetErrHandlerFn, kin->mem, KINSOLErrHandler, kin);
  PetscCallExternal(KINSetInfoHandlerFn, kin->mem, KINSOLInfoHandler, kin);
  PetscCallExternal(KINSetUserData, kin->mem, kin);
  PetscCallExternal(KINSetNumMaxIters, kin->mem, (long int)kin->maxits);
  PetscCallExternal(KINSetMAA, kin->mem, maa); /* before KINInit(), which allocates the Anderson history */
  PetscCallExternal(KINInit, kin->mem, kin->strategy == KIN_FP ? KINSOLFixedPoint : KINSOLResidual, kin->y);
  PetscCallExternal(KINSetLinearSolver, kin->mem, kin->LS, kin->A);
  PetscCallExternal(KINSetJacFn, kin->mem, KINSOLJacobian);
  kin->memmaa = maa;
  PetscFunctionReturn(0);
}

/* The settings KINSOL may take between solves */
static PetscErrorCode KINSOLSetSolveOptions(SimpVI_KINSOL *kin)
{
  PetscFunctionBegin;
  PetscCallExternal(KINSetSysFunc, kin->mem, kin->strategy == KIN_FP ? KINSOLFixedPoint : KINSOLResidual);
  PetscCallExternal(KINSetNumMaxIters, kin->mem, (long int)kin->maxits);
  PetscCallExternal(KINSetFuncNormTol, kin->mem, (realtype)kin->fnormtol);
  PetscCallExternal(KINSetScaledStepTol, kin->mem, (realtype)kin->scsteptol);
  PetscCallExternal(KINSetMaxSetupCalls, kin->mem, kin->strategy == KIN_PICARD ? (long int)kin->maxits + 1 : (long int)kin->msbset);
  PetscCallExternal(KINSetMaxNewtonStep, kin->mem, (realtype)kin->maxnewtonstep);
  PetscCallExternal(KINSetReturnNewest, kin->mem, SUNTRUE);
  PetscCallExternal(KINSetPrintLevel, kin->mem, (int)kin->printlevel);
  PetscFunctionReturn(0);
}

/* The residual scale: the largest sum of magnitudes of the terms of a residual row at the last residual evaluation,
     fs = max_i |p_j| delta_i0 + sum_k w_k (|D_ki| max|L_v(t_k)| + h |B_ki| max|L_x(t_k)|),
   the scale of the round-off of R (about 1e-16 fs), so a relative fnormtol means the same margin for every scheme */
static PetscErrorCode KINSOLResidualScale(TS ts, PetscReal *fs)
{
  TS_SimpVI          *vi = (TS_SimpVI *)ts->data;
  const SimpVIScheme *sc = vi->scheme;
  const PetscInt      s  = sc->degree;
  PetscReal           p0, P[64], G[64];

  PetscFunctionBegin;
  PetscCheck(sc->nq <= 64, PETSC_COMM_SELF, PETSC_ERR_SUP, "At most 64 quadrature points");
  PetscCall(VecNorm(vi->p0, NORM_INFINITY, &p0));
  for (PetscInt k = 0; k < sc->nq; k++) {
    PetscCall(VecNorm(vi->P[k], NORM_INFINITY, &P[k]));
    PetscCall(VecNorm(vi->G[k], NORM_INFINITY, &G[k]));
  }
  *fs = 0;
  for (PetscInt i = 0; i < s; i++) {
    PetscReal a = i == 0 ? p0 : 0;

    for (PetscInt k = 0; k < sc->nq; k++) a += sc->w[k] * (PetscAbsReal(sc->D[k * (s + 1) + i]) * P[k] + vi->h * PetscAbsReal(sc->B[k * (s + 1) + i]) * G[k]);
    *fs = PetscMax(*fs, a);
  }
  if (!(*fs > 0) || PetscIsInfOrNanReal(*fs)) *fs = 1;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the TSSIMPVI hooks */

/*
  SimpVIKINSOLSetFromOptions_Private - the -ts_simpvi_kinsol_* options, read inside TSSetFromOptions_SimpVI(); the KSP
  reads its own (-ts_simpvi_kinsol_ksp_type, -ts_simpvi_kinsol_pc_type, ...) before the next solve
*/
PetscErrorCode SimpVIKINSOLSetFromOptions_Private(TS ts, SimpVIOptionItems PetscOptionsObject)
{
  SimpVI_KINSOL *kin;

  PetscFunctionBegin;
  PetscCall(SimpVIKINSOLRegisterEvent());
  PetscCall(KINSOLGetContext(ts, &kin));
  PetscOptionsHeadBegin(PetscOptionsObject, "KINSOL solver of the TSSIMPVI step system");
  PetscCall(PetscOptionsEList("-ts_simpvi_kinsol_strategy", "KINSOL strategy: newton, linesearch, picard (L = J at the initial guess) or fp (y = y - J0^-1 R(y))", "TSSIMPVI", SimpVIKINSOLStrategies, 4, SimpVIKINSOLStrategies[kin->strategy], &kin->strategy, NULL));
  PetscCall(PetscOptionsInt("-ts_simpvi_kinsol_maa", "Anderson acceleration depth (picard and fp)", "KINSetMAA", kin->maa, &kin->maa, NULL));
  PetscCall(PetscOptionsReal("-ts_simpvi_kinsol_fnormtol", "Stop when max|R| <= fnormtol * residual scale (fp: max|dY| <= fnormtol * increment scale)", "KINSetFuncNormTol", kin->fnormtol, &kin->fnormtol, NULL));
  PetscCall(PetscOptionsReal("-ts_simpvi_kinsol_scsteptol", "Newton also stops when max|dY_i|/(|Y_i| + increment scale) <= scsteptol", "KINSetScaledStepTol", kin->scsteptol, &kin->scsteptol, NULL));
  PetscCall(PetscOptionsInt("-ts_simpvi_kinsol_max_iters", "Maximum number of nonlinear iterations per step", "KINSetNumMaxIters", kin->maxits, &kin->maxits, NULL));
  PetscCall(PetscOptionsInt("-ts_simpvi_kinsol_max_setup_calls", "Newton iterations between Jacobian updates (1: exact Newton)", "KINSetMaxSetupCalls", kin->msbset, &kin->msbset, NULL));
  PetscCall(PetscOptionsReal("-ts_simpvi_kinsol_max_newton_step", "Largest scaled Newton step", "KINSetMaxNewtonStep", kin->maxnewtonstep, &kin->maxnewtonstep, NULL));
  PetscCall(PetscOptionsRangeInt("-ts_simpvi_kinsol_print_level", "KINSOL's own iteration printout (0-3)", "KINSetPrintLevel", kin->printlevel, &kin->printlevel, NULL, 0, 3));
  PetscCheck(kin->maa >= 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "-ts_simpvi_kinsol_maa %" PetscInt_FMT " must be nonnegative", kin->maa);
  PetscCheck(kin->maxits > 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "-ts_simpvi_kinsol_max_iters %" PetscInt_FMT " must be positive", kin->maxits);
  PetscCheck(kin->msbset > 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "-ts_simpvi_kinsol_max_setup_calls %" PetscInt_FMT " must be positive", kin->msbset);
  /* a tolerance of 1 or more accepts the initial guess as converged: no solve at all */
  PetscCheck(kin->fnormtol > 0 && kin->fnormtol < 1, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "The option -ts_simpvi_kinsol_fnormtol %g must be in (0, 1)", (double)kin->fnormtol);
  PetscCheck(kin->scsteptol > 0 && kin->scsteptol < 1, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "The option -ts_simpvi_kinsol_scsteptol %g must be in (0, 1)", (double)kin->scsteptol);
  PetscCheck(kin->maxnewtonstep > 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "The option -ts_simpvi_kinsol_max_newton_step %g must be positive", (double)kin->maxnewtonstep);
  kin->kspsetfromoptions = PETSC_TRUE;
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIKINSOLView_Private(TS ts, PetscViewer viewer)
{
  TS_SimpVI     *vi  = (TS_SimpVI *)ts->data;
  SimpVI_KINSOL *kin = (SimpVI_KINSOL *)vi->kinsol;
  PetscBool      iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  if (!kin) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Step system solved by SUNDIALS KINSOL (not set up yet)\n"));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  Step system solved by SUNDIALS KINSOL %s, strategy %s, at most %" PetscInt_FMT " iterations\n", SUNDIALS_VERSION, SimpVIKINSOLStrategies[kin->strategy], kin->maxits));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (kin->strategy == KIN_FP) PetscCall(PetscViewerASCIIPrintf(viewer, "  fixed point y = y - J0^-1 R(y) with J0 at the initial guess; stops when max|dY| <= %g x increment scale\n", (double)kin->fnormtol));
  else if (kin->strategy == KIN_PICARD) PetscCall(PetscViewerASCIIPrintf(viewer, "  Picard with L = J0 at the initial guess; stops when max|R| <= %g x residual scale\n", (double)kin->fnormtol));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "  stops when max|R| <= %g x residual scale or the scaled step <= %g; Jacobian every %" PetscInt_FMT " iteration(s), largest scaled step %g\n", (double)kin->fnormtol, (double)kin->scsteptol, kin->msbset,
                                     (double)kin->maxnewtonstep));
  if (kin->strategy == KIN_FP || kin->strategy == KIN_PICARD) {
    if (kin->memmaa >= 0 && kin->memmaa < kin->maa) PetscCall(PetscViewerASCIIPrintf(viewer, "  Anderson acceleration depth %" PetscInt_FMT ", %ld used (at most the number of unknowns)\n", kin->maa, kin->memmaa));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  Anderson acceleration depth %" PetscInt_FMT "\n", kin->maa));
  }
  if (kin->nsolves) PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " solves (%" PetscInt_FMT " failed): %" PetscInt_FMT " nonlinear, %" PetscInt_FMT " linear iterations\n", kin->nsolves, kin->nfailures, kin->totits, kin->totlits));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  linear solver of the step system (options prefix %sts_simpvi_kinsol_):\n", ((PetscObject)ts)->prefix ? ((PetscObject)ts)->prefix : ""));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  PetscCall(KSPView(kin->ksp, viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}

/*
  SimpVIKINSOLSolve_Private - solves the step system for Y (holding the initial guess) with KINSOL; its and lits are the
  nonlinear and linear iterations, reason names the KINSOL flag when converged is PETSC_FALSE
*/
PetscErrorCode SimpVIKINSOLSolve_Private(TS ts, Vec Y, PetscInt *its, PetscInt *lits, PetscBool *converged, const char **reason)
{
  TS_SimpVI     *vi = (TS_SimpVI *)ts->data;
  SimpVI_KINSOL *kin;
  PetscObjectId  id;
  PetscReal      fs, us, nrm;
  long int       maa, nni = 0;
  int            flag;
  PetscInt       N;
  char           flagname[32];

  PetscFunctionBegin;
  PetscCall(SimpVIKINSOLRegisterEvent());
  PetscCall(KINSOLGetContext(ts, &kin));
  PetscCall(PetscLogEventBegin(SIMPVI_KINSOLSolve, ts, Y, 0, 0));
  PetscCall(VecGetSize(Y, &N));
  /* Anderson acceleration deeper than the number of unknowns has dependent columns: KINSOL's QR then divides by zero */
  maa = (kin->strategy == KIN_FP || kin->strategy == KIN_PICARD) ? (long int)PetscMin(kin->maa, PetscMin(kin->maxits, N)) : 0;
  PetscCall(PetscObjectGetId((PetscObject)Y, &id));
  if (!kin->mem || id != kin->Yid || maa != kin->memmaa) PetscCall(KINSOLCreateMemory(ts, kin, Y, maa));
  if (kin->kspsetfromoptions) {
    PetscCall(SimpVIDefaultLinearSolver_Private(ts, kin->ksp, N, PETSC_FALSE, PETSC_FALSE));
    PetscCall(KSPSetFromOptions(kin->ksp));
    kin->kspsetfromoptions = PETSC_FALSE;
  }
  PetscCall(KINSOLSetSolveOptions(kin));
  kin->lits        = 0;
  kin->perr        = 0;
  kin->nonfinite   = PETSC_FALSE;
  kin->havegood    = PETSC_FALSE;
  kin->aabreakdown = PETSC_FALSE;
  kin->kspreason   = KSP_CONVERGED_ITERATING;

  /* the scales, from the initial guess; for fp also J0 and the first correction d1 = J0^{-1} R(Y0) */
  PetscCall(SimpVIStepResidual_Private(ts, Y, kin->r));
  PetscCall(VecNorm(kin->r, NORM_INFINITY, &nrm));
  if (PetscIsInfOrNanReal(nrm)) {
    *its       = 0;
    *lits      = 0;
    *converged = PETSC_FALSE;
    PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "KINSOL not started: Inf or NaN in the step residual at the initial guess"));
    *reason = vi->reason;
    kin->nsolves++;
    kin->nfailures++;
    PetscCall(PetscLogEventEnd(SIMPVI_KINSOLSolve, ts, Y, 0, 0));
    PetscFunctionReturn(0);
  }
  PetscCall(KINSOLResidualScale(ts, &fs));
  PetscCall(VecNorm(Y, NORM_INFINITY, &us));
  if (kin->strategy == KIN_FP) {
    PetscBool failed;

    PetscCall(KINSOLJacobian_Petsc(kin, Y));
    PetscCall(KINSOLLSSetup_Petsc(kin));
    PetscCall(KINSOLKSPSolve(kin, kin->r, kin->d, &failed));
    PetscCall(PetscObjectGetId((PetscObject)Y, &kin->d1id));
    PetscCall(PetscObjectStateGet((PetscObject)Y, &kin->d1state));
    if (!failed) {
      PetscCall(VecNorm(kin->d, NORM_INFINITY, &nrm));
      if (!PetscIsInfOrNanReal(nrm)) us = PetscMax(us, nrm);
    } else kin->d1id = 0;
  }
  if (!(us > 0) || PetscIsInfOrNanReal(us)) PetscCall(VecNorm(vi->q0, NORM_INFINITY, &us));
  if (!(us > 0) || PetscIsInfOrNanReal(us)) us = 1;
  N_VConst((realtype)(1 / us), kin->uscale);
  N_VConst((realtype)(kin->strategy == KIN_FP ? 1 / us : 1 / fs), kin->fscale);

  flag = KINSol(kin->mem, kin->y, (int)kin->strategy, kin->uscale, kin->fscale);
  PetscCall(kin->perr); /* a PETSc error inside a callback */
  PetscCallExternal(KINGetNumNonlinSolvIters, kin->mem, &nni);
  if (kin->aabreakdown && kin->havegood) {
    /* Anderson acceleration broke down (its columns became dependent before the tolerance was met, which can happen
       with a depth equal to the number of unknowns): go on from the last finite iterate without it. The memory is
       rebuilt with the Anderson depth on the next solve. */
    long int nni0 = nni;

    PetscCall(PetscInfo(ts, "Anderson acceleration gave Inf or NaN after %ld iterations: continuing without it\n", nni));
    PetscCall(VecCopy(kin->ygood, Y));
    PetscCall(KINSOLCreateMemory(ts, kin, Y, 0));
    PetscCall(KINSOLSetSolveOptions(kin));
    N_VConst((realtype)(1 / us), kin->uscale);
    N_VConst((realtype)(kin->strategy == KIN_FP ? 1 / us : 1 / fs), kin->fscale);
    if (kin->strategy == KIN_FP) PetscCall(KINSOLLSSetup_Petsc(kin)); /* J0, still in vi->J */
    kin->d1id        = 0;
    kin->aabreakdown = PETSC_FALSE;
    kin->havegood    = PETSC_FALSE;
    kin->nonfinite   = PETSC_FALSE;
    flag             = KINSol(kin->mem, kin->y, (int)kin->strategy, kin->uscale, kin->fscale);
    PetscCall(kin->perr);
    PetscCallExternal(KINGetNumNonlinSolvIters, kin->mem, &nni);
    nni += nni0;
  }
  *its       = (PetscInt)nni;
  *lits      = kin->lits;
  *converged = (PetscBool)(flag >= 0);
  PetscCall(PetscSNPrintf(vi->reason, sizeof(vi->reason), "KINSOL %s%s%s%s", KINSOLFlagName(flag, flagname, sizeof(flagname)), kin->aabreakdown ? " (Anderson acceleration gave Inf or NaN)" : (kin->nonfinite ? " (Inf or NaN in the step residual)" : ""), kin->kspreason < 0 ? " after KSP " : "",
                          kin->kspreason < 0 ? KSPConvergedReasons[kin->kspreason] : ""));
  *reason = vi->reason;
  if (flag == KIN_LINESEARCH_NONCONV || flag == KIN_MAXITER_REACHED) {
    /* a stall at round-off: the line search cannot decrease a residual that is all round-off, and picard and fp may
       creep below a tolerance close to it; the iterate is then as good as it gets */
    PetscCall(SimpVIStepResidual_Private(ts, Y, kin->r));
    PetscCall(VecNorm(kin->r, NORM_INFINITY, &nrm));
    if (nrm <= PetscMax(SIMPVI_KINSOL_STALL * kin->fnormtol, SIMPVI_KINSOL_ROUNDOFF) * fs) {
      *converged = PETSC_TRUE;
      PetscCall(PetscInfo(ts, "%s with max|R| = %g fs: accepted as a stall at round-off\n", vi->reason, (double)(nrm / fs)));
    } else PetscCall(PetscInfo(ts, "%s with max|R| = %g fs\n", vi->reason, (double)(nrm / fs)));
  }
  PetscCall(PetscInfo(ts, "%s: %" PetscInt_FMT " nonlinear, %" PetscInt_FMT " linear iterations (residual scale %g, increment scale %g)\n", vi->reason, *its, *lits, (double)fs, (double)us));
  kin->nsolves++;
  if (!*converged) kin->nfailures++;
  kin->totits += *its;
  kin->totlits += *lits;
  PetscCall(PetscLogEventEnd(SIMPVI_KINSOLSolve, ts, Y, 0, 0));
  PetscFunctionReturn(0);
}

/*
  SimpVIKINSOLDestroy_Private - frees the KINSOL memory, the SUNDIALS context, the KSP and the private data
*/
PetscErrorCode SimpVIKINSOLDestroy_Private(TS ts)
{
  TS_SimpVI     *vi  = (TS_SimpVI *)ts->data;
  SimpVI_KINSOL *kin = (SimpVI_KINSOL *)vi->kinsol;

  PetscFunctionBegin;
  if (!kin) PetscFunctionReturn(0);
  PetscCall(KINSOLFreeMemory(kin));
  if (kin->sunctx) PetscCallExternal(SUNContext_Free, &kin->sunctx);
  PetscCall(KSPDestroy(&kin->ksp));
  PetscCall(PetscFree(vi->kinsol));
  PetscFunctionReturn(0);
}
