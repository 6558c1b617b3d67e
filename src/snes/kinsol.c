/*
   SNESKINSOL: SUNDIALS KINSOL behind the SNES interface, so that any PETSc program (and the TSSIMPVI step) can use it
   with -snes_type kinsol.

   KINSOL works on N_Vector_Petsc wrappers of the SNES's vectors, so it runs on distributed vectors. Its linear solves
   are the SNES's KSP on the SNES's Jacobian (SNESComputeJacobian()), wrapped as a custom SUNLinearSolver of type DIRECT
   (KINSOL 6.4 rejects MATRIX_EMBEDDED solvers; DIRECT makes it treat each solve as exact, like SNES with a direct KSP,
   with no inexact-Newton forcing terms) over a SUNMatrix that is only a handle: the KINLsJacFn assembles the Jacobian,
   the solver's setup hands it to the KSP (which factors it), its solve is KSPSolve().

   Strategies (-snes_kinsol_strategy): newton (KIN_NONE) and linesearch (KIN_LINESEARCH, the default) are Newton with a
   new Jacobian every -snes_kinsol_max_setup_calls iterations; picard (KIN_PICARD) keeps L = J0, the Jacobian at the
   initial guess; fp (KIN_FP) iterates y = G(y) = y - J0^{-1} F(y). picard and fp take KINSOL's Anderson acceleration
   of depth -snes_kinsol_maa, capped at the number of unknowns.

   Scales (uniform, set at the start of every solve): the residual scale fs = max|F(x0)| and the increment scale
   us = max|x0| (fp: also max|J0^{-1} F(x0)|), each 1 where 0; SNESKINSOLSetScaleFunction() replaces them. KINSOL stops
   when max|F| <= fnormtol fs, fnormtol = max(rtol, atol/fs) from SNESSetTolerances() (so: the SNES's relative and
   absolute tests in the max norm), or when the scaled step max|dx_i|/(|x_i| + us) <= scsteptol = stol; fp stops when
   max|dx| <= fnormtol us. -snes_kinsol_fnormtol and -snes_kinsol_scsteptol set them directly.

   Errors: a PETSc error inside a callback returns -1 to KINSOL (unrecoverable) and is raised again once KINSol()
   returns; Inf or NaN in F, or SNESSetFunctionDomainError(), is recoverable for newton/linesearch (KINSOL shortens the
   step). A failed line search or picard/fp out of iterations whose last iterate has max|F| <= max(10 fnormtol, 1e-13) fs
   is a stall at round-off and counts as converged (SNES_CONVERGED_FNORM_RELATIVE). KINSOL 6.4's Anderson acceleration
   has no guard against dependent columns and may hand over Inf or NaN near convergence: the solve then goes on without
   it from the last finite iterate.
*/
#include <simpvi.h> /*I "simpvi.h" I*/
#include <simpvi/private/compat.h>
#include <petsc/private/snesimpl.h>
#include <kinsol/kinsol.h>
#include <kinsol/kinsol_ls.h>
#include <nvector/nvector_petsc.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <stdio.h>

const char *const SNESKINSOLStrategies[] = {"newton", "linesearch", "picard", "fp", "SNESKINSOLStrategy", "SNES_KINSOL_", NULL};

/* A stall at round-off: max|F| <= max(SNESKINSOL_STALL fnormtol, SNESKINSOL_ROUNDOFF) fs */
#define SNESKINSOL_STALL    10
#define SNESKINSOL_ROUNDOFF 1e-13

typedef struct {
  /* options */
  SNESKINSOLStrategy strategy;
  PetscInt           maa, msbset, printlevel;
  PetscReal          fnormtol, scsteptol, maxnewtonstep; /* PETSC_DEFAULT: from the SNES's tolerances */
  SNESKINSOLScaleFn *scale;
  void              *scalectx;

  /* SUNDIALS objects, rebuilt when the solution vector or the Anderson depth changes */
  SUNContext      sunctx;
  void           *mem;
  long int        memmaa; /* the Anderson depth mem was created with (KINSetMAA() must precede KINInit()) */
  Vec             xwrapped;
  PetscObjectId   xid;
  N_Vector        y, uscale, fscale;
  SUNMatrix       A;
  SUNLinearSolver LS;

  /* the current solve */
  SNES               snes;
  Vec                d, ygood; /* fp: correction; Anderson: the last finite iterate */
  PetscBool          havegood, aabreakdown, nonfinite, monitor;
  PetscObjectId      d1id; /* fp: d holds J0^{-1} F at this (vector id, state) */
  PetscObjectState   d1state;
  PetscInt           lits;
  PetscErrorCode     perr; /* first PETSc error raised in a callback */
  KSPConvergedReason kspreason;
  PetscReal          fs, us, fnormtol_used, scsteptol_used, fnormscale;

  /* the outcome of the last solve, for SNESView() and SNESKINSOLGetReturnFlag() */
  int      flag;
  char     desc[256];
  long int nfe, nje, nbacktr;
} SNES_KINSOL;

/* Records the first PETSc error of a callback and turns it into KINSOL's "unrecoverable" */
static int KINSOLError(SNES_KINSOL *kin, PetscErrorCode ierr)
{
  if (!kin->perr) kin->perr = ierr;
  return -1;
}

/* Raises, once KINSOL has returned, the PETSc error a callback met (this function's name shows in the trace) */
static PetscErrorCode KINSOLCallbackError(SNES_KINSOL *kin)
{
  PetscFunctionBegin;
  PetscCall(kin->perr);
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- callbacks */

/* F(y), flagging Inf, NaN and a domain error; the SNES's function vector keeps the last F, which is F at the solution
   when KINSOL returns (but for fp, whose last evaluation is at the iterate before) */
static PetscErrorCode KINSOLFunction_Petsc(SNES_KINSOL *kin, Vec y, Vec f)
{
  SNES      snes = kin->snes;
  PetscReal fnorm;

  PetscFunctionBegin;
  PetscCall(SNESComputeFunction(snes, y, f));
  if (f != snes->vec_func) PetscCall(VecCopy(f, snes->vec_func));
  PetscCall(VecNorm(f, NORM_INFINITY, &fnorm));
  kin->nonfinite    = (PetscBool)(PetscIsInfOrNanReal(fnorm) || snes->domainerror);
  snes->domainerror = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* KINSOL 6.4's Anderson acceleration has no guard against dependent columns: once the iterates are all round-off its QR
   may divide by zero and hand over Inf or NaN. The last finite iterate is kept to fall back to. */
static PetscErrorCode KINSOLCheckIterate(SNES_KINSOL *kin, Vec y, PetscBool *ok)
{
  PetscReal nrm;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  if (kin->memmaa <= 0 || !(kin->strategy == SNES_KINSOL_PICARD || kin->strategy == SNES_KINSOL_FP)) PetscFunctionReturn(0);
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

static int KINSOLFunction(N_Vector y, N_Vector f, void *ctx)
{
  SNES_KINSOL   *kin = (SNES_KINSOL *)ctx;
  PetscBool      ok;
  PetscErrorCode ierr;

  ierr = KINSOLCheckIterate(kin, N_VGetVector_Petsc(y), &ok);
  if (ierr) return KINSOLError(kin, ierr);
  if (!ok) return -1;
  ierr = KINSOLFunction_Petsc(kin, N_VGetVector_Petsc(y), N_VGetVector_Petsc(f));
  if (ierr) return KINSOLError(kin, ierr);
  if (kin->nonfinite) return kin->strategy == SNES_KINSOL_NEWTON || kin->strategy == SNES_KINSOL_LINESEARCH ? 1 : -1;
  return 0;
}

/* KSPSolve() counting iterations; a solve that fails other than by running out of iterations is remembered */
static PetscErrorCode KINSOLKSPSolve(SNES_KINSOL *kin, Vec b, Vec x, PetscBool *failed)
{
  KSP                ksp;
  KSPConvergedReason reason;
  PetscInt           its;

  PetscFunctionBegin;
  PetscCall(SNESGetKSP(kin->snes, &ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  kin->lits += its;
  *failed = (PetscBool)(reason < 0 && reason != KSP_DIVERGED_ITS);
  if (*failed) kin->kspreason = reason;
  PetscFunctionReturn(0);
}

/* The fixed-point map G(y) = y - J0^{-1} F(y); the first call, at the initial guess, reuses the correction d1 */
static PetscErrorCode KINSOLFixedPoint_Petsc(SNES_KINSOL *kin, Vec y, Vec g, PetscBool *failed)
{
  PetscObjectId    id;
  PetscObjectState state;

  PetscFunctionBegin;
  *failed = PETSC_FALSE;
  PetscCall(PetscObjectGetId((PetscObject)y, &id));
  PetscCall(PetscObjectStateGet((PetscObject)y, &state));
  if (id != kin->d1id || state != kin->d1state) {
    PetscCall(KINSOLFunction_Petsc(kin, y, kin->snes->vec_func));
    if (kin->nonfinite) PetscFunctionReturn(0);
    PetscCall(KINSOLKSPSolve(kin, kin->snes->vec_func, kin->d, failed));
    if (*failed) PetscFunctionReturn(0);
  }
  kin->d1id = 0;
  PetscCall(VecWAXPY(g, -1, kin->d, y));
  PetscFunctionReturn(0);
}

static int KINSOLFixedPoint(N_Vector y, N_Vector g, void *ctx)
{
  SNES_KINSOL   *kin = (SNES_KINSOL *)ctx;
  PetscBool      failed, ok;
  PetscErrorCode ierr;

  ierr = KINSOLCheckIterate(kin, N_VGetVector_Petsc(y), &ok);
  if (ierr) return KINSOLError(kin, ierr);
  if (!ok) return -1;
  ierr = KINSOLFixedPoint_Petsc(kin, N_VGetVector_Petsc(y), N_VGetVector_Petsc(g), &failed);
  if (ierr) return KINSOLError(kin, ierr);
  return kin->nonfinite || failed ? -1 : 0;
}

static int KINSOLJacobian(N_Vector u, N_Vector fu, SUNMatrix J, void *ctx, N_Vector tmp1, N_Vector tmp2)
{
  SNES_KINSOL   *kin  = (SNES_KINSOL *)ctx;
  SNES           snes = kin->snes;
  PetscErrorCode ierr = SNESComputeJacobian(snes, N_VGetVector_Petsc(u), snes->jacobian, snes->jacobian_pre);

  return ierr ? KINSOLError(kin, ierr) : 0;
}

/* The SUNMatrix is a handle on the SNES's Jacobian: KINSOL zeroes DIRECT matrices before calling the Jacobian
   function, which assembles from scratch anyway */
static SUNMatrix_ID KINSOLMatGetID(SUNMatrix A)
{
  return SUNMATRIX_CUSTOM;
}

static int KINSOLMatZero(SUNMatrix A)
{
  return 0;
}

/* The SUNLinearSolver: setup gives the assembled Jacobian to the KSP and factors it, solve is KSPSolve() */
static SUNLinearSolver_Type KINSOLLSGetType(SUNLinearSolver LS)
{
  return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID KINSOLLSGetID(SUNLinearSolver LS)
{
  return SUNLINEARSOLVER_CUSTOM;
}

static PetscErrorCode KINSOLLSSetup_Petsc(SNES_KINSOL *kin)
{
  SNES snes = kin->snes;
  KSP  ksp;

  PetscFunctionBegin;
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetOperators(ksp, snes->jacobian, snes->jacobian_pre));
  PetscCall(KSPSetUp(ksp));
  PetscFunctionReturn(0);
}

static int KINSOLLSSetup(SUNLinearSolver LS, SUNMatrix A)
{
  SNES_KINSOL   *kin  = (SNES_KINSOL *)LS->content;
  PetscErrorCode ierr = KINSOLLSSetup_Petsc(kin);

  if (ierr) {
    (void)KINSOLError(kin, ierr);
    return SUNLS_PACKAGE_FAIL_UNREC;
  }
  return SUNLS_SUCCESS;
}

static int KINSOLLSSolve(SUNLinearSolver LS, SUNMatrix A, N_Vector x, N_Vector b, realtype tol)
{
  SNES_KINSOL   *kin = (SNES_KINSOL *)LS->content;
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
  SNES_KINSOL *kin = (SNES_KINSOL *)LS->content;
  KSP          ksp;
  PetscInt     its = 0;

  if (SNESGetKSP(kin->snes, &ksp) || KSPGetIterationNumber(ksp, &its)) return 0;
  return (int)its;
}

/* KINSOL's error messages go to PetscInfo(); its iteration messages ("nni = .. nfe = .. fnorm = ..") drive the SNES
   monitors, and are printed only with -snes_kinsol_print_level */
static void KINSOLErrHandler(int code, const char *module, const char *function, char *msg, void *ctx)
{
  SNES_KINSOL *kin = (SNES_KINSOL *)ctx;

  (void)PetscInfo(kin->snes, "%s %s (%d): %s\n", module, function, code, msg);
}

static void KINSOLInfoHandler(const char *module, const char *function, char *msg, void *ctx)
{
  SNES_KINSOL   *kin = (SNES_KINSOL *)ctx;
  long int       nni, nfe;
  double         fnorm;
  PetscErrorCode ierr;

  if (kin->printlevel > 0) (void)PetscPrintf(PetscObjectComm((PetscObject)kin->snes), "      KINSOL %s: %s\n", function, msg);
  if (!kin->monitor || kin->perr || sscanf(msg, "nni = %ld nfe = %ld fnorm = %lg", &nni, &nfe, &fnorm) != 3 || nni < 1) return;
  ierr = SNESMonitor(kin->snes, (PetscInt)nni, (PetscReal)fnorm * kin->fnormscale);
  if (ierr) (void)KINSOLError(kin, ierr);
}

/* KINGetReturnFlagName() of SUNDIALS 6.4 returns "NONE" for the system-function flags: those are named here */
static void KINSOLFlagName(int flag, char name[], size_t len)
{
  static const struct {
    int         flag;
    const char *name;
  } unnamed[] = {
    {KIN_SYSFUNC_FAIL,      "KIN_SYSFUNC_FAIL"     },
    {KIN_FIRST_SYSFUNC_ERR, "KIN_FIRST_SYSFUNC_ERR"},
    {KIN_REPTD_SYSFUNC_ERR, "KIN_REPTD_SYSFUNC_ERR"},
    {KIN_VECTOROP_ERR,      "KIN_VECTOROP_ERR"     },
    {KIN_CONTEXT_ERR,       "KIN_CONTEXT_ERR"      }
  };
  char *kname;

  for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(unnamed); k++) {
    if (unnamed[k].flag == flag) {
      (void)PetscStrncpy(name, unnamed[k].name, len);
      return;
    }
  }
  kname = KINGetReturnFlagName(flag);
  if (kname && strcmp(kname, "NONE")) (void)PetscStrncpy(name, kname, len);
  else (void)PetscSNPrintf(name, len, "flag %d", flag);
  free(kname);
}

/* SNESConvergedReason of a KINSOL flag; a failure inside the system function is the KSP's (fp solves in it) or F's */
static SNESConvergedReason KINSOLReason(int flag, PetscBool nonfinite, PetscBool kspfailed)
{
  switch (flag) {
  case KIN_SUCCESS:
  case KIN_INITIAL_GUESS_OK:
    return SNES_CONVERGED_FNORM_ABS;
  case KIN_STEP_LT_STPTOL:
    return SNES_CONVERGED_SNORM_RELATIVE;
  case KIN_MAXITER_REACHED:
    return SNES_DIVERGED_MAX_IT;
  case KIN_LINESEARCH_NONCONV:
  case KIN_LINESEARCH_BCFAIL:
    return SNES_DIVERGED_LINE_SEARCH;
  case KIN_LINSOLV_NO_RECOVERY:
  case KIN_LSETUP_FAIL:
  case KIN_LSOLVE_FAIL:
    return nonfinite ? SNES_DIVERGED_FUNCTION_NANORINF : SNES_DIVERGED_LINEAR_SOLVE;
  case KIN_SYSFUNC_FAIL:
  case KIN_FIRST_SYSFUNC_ERR:
  case KIN_REPTD_SYSFUNC_ERR:
    return kspfailed && !nonfinite ? SNES_DIVERGED_LINEAR_SOLVE : SNES_DIVERGED_FUNCTION_NANORINF;
  case KIN_MXNEWT_5X_EXCEEDED:
    return SNES_DIVERGED_DTOL;
  default:
    return SNES_DIVERGED_INNER;
  }
}

/* ---------------------------------------------------------------- set up and tear down */

/* Frees the SUNDIALS objects and the work vectors (not the SUNDIALS context) */
static PetscErrorCode KINSOLFreeMemory(SNES_KINSOL *kin)
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
  kin->xid    = 0;
  kin->d1id   = 0;
  PetscCall(VecDestroy(&kin->xwrapped));
  PetscCall(VecDestroy(&kin->d));
  PetscCall(VecDestroy(&kin->ygood));
  PetscFunctionReturn(0);
}

/* KINSOL memory for the solution vector x and the Anderson depth maa */
static PetscErrorCode KINSOLCreateMemory(SNES snes, SNES_KINSOL *kin, Vec x, long int maa)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)snes);

  PetscFunctionBegin;
  PetscCall(KINSOLFreeMemory(kin));
  if (!kin->sunctx) PetscCallExternal(SUNContext_Create, (void *)&((PetscObject)snes)->comm, &kin->sunctx);
  PetscCall(PetscObjectReference((PetscObject)x));
  kin->xwrapped = x;
  PetscCall(PetscObjectGetId((PetscObject)x, &kin->xid));
  PetscCall(VecDuplicate(x, &kin->d));
  if (maa > 0) PetscCall(VecDuplicate(x, &kin->ygood));
  kin->y = N_VMake_Petsc(x, kin->sunctx);
  PetscCheck(kin->y, comm, PETSC_ERR_LIB, "N_VMake_Petsc() failed");
  kin->uscale = N_VClone(kin->y);
  kin->fscale = N_VClone(kin->y);
  PetscCheck(kin->uscale && kin->fscale, comm, PETSC_ERR_LIB, "N_VClone() failed");

  kin->A = SUNMatNewEmpty(kin->sunctx);
  PetscCheck(kin->A, comm, PETSC_ERR_LIB, "SUNMatNewEmpty() failed");
  kin->A->content    = kin;
  kin->A->ops->getid = KINSOLMatGetID;
  kin->A->ops->zero  = KINSOLMatZero;
  kin->LS            = SUNLinSolNewEmpty(kin->sunctx);
  PetscCheck(kin->LS, comm, PETSC_ERR_LIB, "SUNLinSolNewEmpty() failed");
  kin->LS->content       = kin;
  kin->LS->ops->gettype  = KINSOLLSGetType;
  kin->LS->ops->getid    = KINSOLLSGetID;
  kin->LS->ops->setup    = KINSOLLSSetup;
  kin->LS->ops->solve    = KINSOLLSSolve;
  kin->LS->ops->numiters = KINSOLLSNumIters;

  kin->mem = KINCreate(kin->sunctx);
  PetscCheck(kin->mem, comm, PETSC_ERR_LIB, "KINCreate() failed");
  PetscCallExternal(KINSetErrHandlerFn, kin->mem, KINSOLErrHandler, kin);
  PetscCallExternal(KINSetInfoHandlerFn, kin->mem, KINSOLInfoHandler, kin);
  PetscCallExternal(KINSetUserData, kin->mem, kin);
  PetscCallExternal(KINSetNumMaxIters, kin->mem, (long int)PetscMax(snes->max_its, 1));
  PetscCallExternal(KINSetMAA, kin->mem, maa); /* before KINInit(), which allocates the Anderson history */
  PetscCallExternal(KINInit, kin->mem, kin->strategy == SNES_KINSOL_FP ? KINSOLFixedPoint : KINSOLFunction, kin->y);
  PetscCallExternal(KINSetLinearSolver, kin->mem, kin->LS, kin->A);
  PetscCallExternal(KINSetJacFn, kin->mem, KINSOLJacobian);
  kin->memmaa = maa;
  PetscFunctionReturn(0);
}

/* The settings KINSOL may take between solves, and the uniform scales */
static PetscErrorCode KINSOLSetSolveOptions(SNES snes, SNES_KINSOL *kin)
{
  const PetscInt maxits = PetscMax(snes->max_its, 1);

  PetscFunctionBegin;
  PetscCallExternal(KINSetSysFunc, kin->mem, kin->strategy == SNES_KINSOL_FP ? KINSOLFixedPoint : KINSOLFunction);
  PetscCallExternal(KINSetNumMaxIters, kin->mem, (long int)maxits);
  PetscCallExternal(KINSetFuncNormTol, kin->mem, (realtype)kin->fnormtol_used);
  PetscCallExternal(KINSetScaledStepTol, kin->mem, (realtype)kin->scsteptol_used);
  PetscCallExternal(KINSetMaxSetupCalls, kin->mem, kin->strategy == SNES_KINSOL_PICARD ? (long int)maxits + 1 : (long int)kin->msbset);
  PetscCallExternal(KINSetMaxNewtonStep, kin->mem, (realtype)kin->maxnewtonstep);
  PetscCallExternal(KINSetReturnNewest, kin->mem, SUNTRUE);
  /* the monitors read KINSOL's per-iteration message (print level 1) */
  PetscCallExternal(KINSetPrintLevel, kin->mem, (int)(kin->monitor ? PetscMax(kin->printlevel, 1) : kin->printlevel));
  N_VConst((realtype)(1 / kin->us), kin->uscale);
  N_VConst((realtype)(kin->strategy == SNES_KINSOL_FP ? 1 / kin->us : 1 / kin->fs), kin->fscale);
  PetscFunctionReturn(0);
}

/* The accumulated counters of KINSOL for SNESView() */
static PetscErrorCode KINSOLGetCounters(SNES_KINSOL *kin)
{
  long int n;

  PetscFunctionBegin;
  PetscCallExternal(KINGetNumFuncEvals, kin->mem, &n);
  kin->nfe += n;
  PetscCallExternal(KINGetNumBacktrackOps, kin->mem, &n);
  kin->nbacktr += n;
  if (kin->strategy != SNES_KINSOL_FP) {
    PetscCallExternal(KINGetNumJacEvals, kin->mem, &n);
    kin->nje += n;
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the SNES type */

static PetscErrorCode SNESSolve_KINSOL(SNES snes)
{
  SNES_KINSOL  *kin = (SNES_KINSOL *)snes->data;
  Vec           x = snes->vec_sol, F = snes->vec_func;
  PetscObjectId id;
  PetscReal     nrm;
  long int      maa, nni = 0;
  PetscInt      N;
  char          flagname[64];
  int           flag;

  PetscFunctionBegin;
  PetscCheck(!snes->xl && !snes->xu, PetscObjectComm((PetscObject)snes), PETSC_ERR_ARG_WRONGSTATE, "SNESKINSOL does not take variable bounds (SNESVISetVariableBounds())");
  snes->reason     = SNES_CONVERGED_ITERATING;
  snes->iter       = 0;
  snes->linear_its = 0;
  snes->norm       = 0;
  kin->snes        = snes;
  kin->lits        = 0;
  kin->perr        = 0;
  kin->nonfinite   = PETSC_FALSE;
  kin->havegood    = PETSC_FALSE;
  kin->aabreakdown = PETSC_FALSE;
  kin->kspreason   = KSP_CONVERGED_ITERATING;
  kin->flag        = KIN_SUCCESS;
  kin->desc[0]     = 0;
  kin->monitor     = (PetscBool)(snes->numbermonitors > 0);

  PetscCall(VecGetSize(x, &N));
  /* Anderson acceleration deeper than the number of unknowns has dependent columns: KINSOL's QR then divides by zero */
  maa = (kin->strategy == SNES_KINSOL_FP || kin->strategy == SNES_KINSOL_PICARD) ? (long int)PetscMin(kin->maa, PetscMin(PetscMax(snes->max_its, 1), N)) : 0;
  PetscCall(PetscObjectGetId((PetscObject)x, &id));
  if (!kin->mem || id != kin->xid || maa != kin->memmaa) PetscCall(KINSOLCreateMemory(snes, kin, x, maa));

  /* F at the initial guess, and the scales */
  PetscCall(KINSOLFunction_Petsc(kin, x, F));
  PetscCall(VecNorm(F, NORM_2, &snes->norm));
  PetscCall(SNESLogConvergenceHistory(snes, snes->norm, 0));
  PetscCall(SNESMonitor(snes, 0, snes->norm));
  if (kin->nonfinite) {
    snes->reason = SNES_DIVERGED_FUNCTION_NANORINF;
    kin->flag    = KIN_FIRST_SYSFUNC_ERR;
    PetscCall(PetscSNPrintf(kin->desc, sizeof(kin->desc), "not started: Inf or NaN in the function at the initial guess"));
    PetscFunctionReturn(0);
  }
  PetscCall(VecNorm(F, NORM_INFINITY, &kin->fs));
  PetscCall(VecNorm(x, NORM_INFINITY, &kin->us));
  if (kin->strategy == SNES_KINSOL_FP) { /* J0 and the first correction d1 = J0^{-1} F(x0) */
    PetscBool failed;

    PetscCall(SNESComputeJacobian(snes, x, snes->jacobian, snes->jacobian_pre));
    PetscCall(KINSOLLSSetup_Petsc(kin));
    PetscCall(KINSOLKSPSolve(kin, F, kin->d, &failed));
    PetscCall(PetscObjectGetId((PetscObject)x, &kin->d1id));
    PetscCall(PetscObjectStateGet((PetscObject)x, &kin->d1state));
    if (!failed) {
      PetscCall(VecNorm(kin->d, NORM_INFINITY, &nrm));
      if (!PetscIsInfOrNanReal(nrm)) kin->us = PetscMax(kin->us, nrm);
    } else kin->d1id = 0;
  }
  if (kin->scale) PetscCall((*kin->scale)(snes, x, F, &kin->fs, &kin->us, kin->scalectx));
  if (!(kin->fs > 0) || PetscIsInfOrNanReal(kin->fs)) kin->fs = 1;
  if (!(kin->us > 0) || PetscIsInfOrNanReal(kin->us)) kin->us = 1;
  kin->fnormtol_used  = kin->fnormtol != (PetscReal)PETSC_DEFAULT ? kin->fnormtol : PetscMax(snes->rtol, snes->abstol / kin->fs);
  kin->scsteptol_used = kin->scsteptol != (PetscReal)PETSC_DEFAULT ? kin->scsteptol : snes->stol;
  kin->fnormscale     = kin->strategy == SNES_KINSOL_FP ? kin->us : kin->fs;
  PetscCall(KINSOLSetSolveOptions(snes, kin));

  flag = KINSol(kin->mem, kin->y, (int)kin->strategy, kin->uscale, kin->fscale);
  PetscCall(KINSOLCallbackError(kin));
  PetscCallExternal(KINGetNumNonlinSolvIters, kin->mem, &nni);
  PetscCall(KINSOLGetCounters(kin));
  if (kin->aabreakdown && kin->havegood) {
    /* Anderson acceleration broke down (its columns became dependent before the tolerance was met): go on from the last
       finite iterate without it. The memory is rebuilt with the Anderson depth on the next solve. */
    long int nni0 = nni;

    PetscCall(PetscInfo(snes, "Anderson acceleration gave Inf or NaN after %ld iterations: continuing without it\n", nni));
    PetscCall(VecCopy(kin->ygood, x));
    PetscCall(KINSOLCreateMemory(snes, kin, x, 0));
    PetscCall(KINSOLSetSolveOptions(snes, kin));
    if (kin->strategy == SNES_KINSOL_FP) PetscCall(KINSOLLSSetup_Petsc(kin)); /* J0, still in the SNES's matrices */
    kin->aabreakdown = PETSC_FALSE;
    kin->havegood    = PETSC_FALSE;
    kin->nonfinite   = PETSC_FALSE;
    flag             = KINSol(kin->mem, kin->y, (int)kin->strategy, kin->uscale, kin->fscale);
    PetscCall(KINSOLCallbackError(kin));
    PetscCallExternal(KINGetNumNonlinSolvIters, kin->mem, &nni);
    PetscCall(KINSOLGetCounters(kin));
    nni += nni0;
    kin->aabreakdown = PETSC_TRUE; /* named in the description */
  }
  snes->iter       = (PetscInt)nni;
  snes->linear_its = kin->lits;
  kin->flag        = flag;
  snes->reason     = KINSOLReason(flag, kin->nonfinite, (PetscBool)(kin->kspreason < 0));
  KINSOLFlagName(flag, flagname, sizeof(flagname));
  PetscCall(PetscSNPrintf(kin->desc, sizeof(kin->desc), "%s%s%s%s", flagname, kin->aabreakdown ? " (Anderson acceleration gave Inf or NaN)" : (kin->nonfinite ? " (Inf or NaN in the function)" : ""), kin->kspreason < 0 ? " after KSP " : "",
                          kin->kspreason < 0 ? KSPConvergedReasons[kin->kspreason] : ""));

  /* F at the solution, as SNES leaves it: the last evaluation but for fp, and after a failure (KINSOL may have
     evaluated a rejected trial point last) */
  if (kin->strategy == SNES_KINSOL_FP || flag < 0) PetscCall(KINSOLFunction_Petsc(kin, x, F));
  PetscCall(VecNorm(F, NORM_2, &snes->norm));
  PetscCall(VecNorm(F, NORM_INFINITY, &nrm));
  if (flag == KIN_LINESEARCH_NONCONV || flag == KIN_MAXITER_REACHED) {
    /* a stall at round-off: the line search cannot decrease a residual that is all round-off, and picard and fp may
       creep below a tolerance close to it; the iterate is then as good as it gets */
    if (nrm <= PetscMax(SNESKINSOL_STALL * kin->fnormtol_used, SNESKINSOL_ROUNDOFF) * kin->fs) {
      snes->reason = SNES_CONVERGED_FNORM_RELATIVE;
      PetscCall(PetscInfo(snes, "KINSOL %s with max|F| = %g fs: accepted as a stall at round-off\n", kin->desc, (double)(nrm / kin->fs)));
    } else PetscCall(PetscInfo(snes, "KINSOL %s with max|F| = %g fs\n", kin->desc, (double)(nrm / kin->fs)));
  }
  if (snes->reason > 0 && (kin->nonfinite || PetscIsInfOrNanReal(nrm))) snes->reason = SNES_DIVERGED_FUNCTION_NANORINF;
  PetscCall(PetscInfo(snes, "KINSOL %s: %" PetscInt_FMT " nonlinear, %" PetscInt_FMT " linear iterations (residual scale %g, increment scale %g)\n", kin->desc, snes->iter, snes->linear_its, (double)kin->fs, (double)kin->us));
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESSetUp_KINSOL(SNES snes)
{
  PetscFunctionBegin;
  PetscCall(SNESSetUpMatrices(snes)); /* from the DM, as SNESNEWTONLS does */
  PetscCheck(snes->jacobian, PetscObjectComm((PetscObject)snes), PETSC_ERR_ARG_WRONGSTATE, "SNESKINSOL needs a Jacobian (SNESSetJacobian(), or -snes_mf)");
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESReset_KINSOL(SNES snes)
{
  SNES_KINSOL *kin = (SNES_KINSOL *)snes->data;

  PetscFunctionBegin;
  PetscCall(KINSOLFreeMemory(kin));
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESDestroy_KINSOL(SNES snes)
{
  SNES_KINSOL *kin = (SNES_KINSOL *)snes->data;

  PetscFunctionBegin;
  PetscCall(SNESReset_KINSOL(snes));
  if (kin->sunctx) PetscCallExternal(SUNContext_Free, &kin->sunctx);
  PetscCall(PetscFree(snes->data));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLSetStrategy_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLSetMAA_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLSetTolerances_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLGetTolerances_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLSetScaleFunction_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLGetReturnFlag_C", NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESSetFromOptions_KINSOL(SNES snes, SimpVIOptionItems PetscOptionsObject)
{
  SNES_KINSOL *kin      = (SNES_KINSOL *)snes->data;
  MPI_Comm     comm     = PetscObjectComm((PetscObject)snes);
  PetscReal    fnormtol = kin->fnormtol, scsteptol = kin->scsteptol;
  PetscBool    flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "SNES KINSOL options");
  PetscCall(PetscOptionsEnum("-snes_kinsol_strategy", "KINSOL strategy: newton, linesearch, picard (L = J at the initial guess) or fp (x = x - J0^-1 F(x))", "SNESKINSOLSetStrategy", SNESKINSOLStrategies, (PetscEnum)kin->strategy, (PetscEnum *)&kin->strategy, NULL));
  PetscCall(PetscOptionsInt("-snes_kinsol_maa", "Anderson acceleration depth (picard and fp)", "SNESKINSOLSetMAA", kin->maa, &kin->maa, NULL));
  PetscCall(PetscOptionsReal("-snes_kinsol_fnormtol", "Stop when max|F| <= fnormtol * residual scale (default max(rtol, atol/scale))", "SNESKINSOLSetTolerances", fnormtol, &fnormtol, &flg));
  if (flg) PetscCheck(fnormtol > 0 && fnormtol < 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "The option -snes_kinsol_fnormtol %g must be in (0, 1)", (double)fnormtol);
  PetscCall(PetscOptionsReal("-snes_kinsol_scsteptol", "Newton also stops when max|dx_i|/(|x_i| + increment scale) <= scsteptol (default stol)", "SNESKINSOLSetTolerances", scsteptol, &scsteptol, &flg));
  if (flg) PetscCheck(scsteptol > 0 && scsteptol < 1, comm, PETSC_ERR_ARG_OUTOFRANGE, "The option -snes_kinsol_scsteptol %g must be in (0, 1)", (double)scsteptol);
  PetscCall(PetscOptionsInt("-snes_kinsol_max_setup_calls", "Newton iterations between Jacobian updates (1: exact Newton)", "KINSetMaxSetupCalls", kin->msbset, &kin->msbset, NULL));
  PetscCall(PetscOptionsReal("-snes_kinsol_max_newton_step", "Largest scaled Newton step", "KINSetMaxNewtonStep", kin->maxnewtonstep, &kin->maxnewtonstep, NULL));
  PetscCall(PetscOptionsRangeInt("-snes_kinsol_print_level", "KINSOL's own iteration printout (0-3)", "KINSetPrintLevel", kin->printlevel, &kin->printlevel, NULL, 0, 3));
  PetscOptionsHeadEnd();
  PetscCall(SNESKINSOLSetMAA(snes, kin->maa));
  PetscCall(SNESKINSOLSetTolerances(snes, fnormtol, scsteptol));
  PetscCheck(kin->msbset > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "-snes_kinsol_max_setup_calls %" PetscInt_FMT " must be positive", kin->msbset);
  PetscCheck(kin->maxnewtonstep > 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "The option -snes_kinsol_max_newton_step %g must be positive", (double)kin->maxnewtonstep);
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESView_KINSOL(SNES snes, PetscViewer viewer)
{
  SNES_KINSOL *kin = (SNES_KINSOL *)snes->data;
  PetscBool    iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  SUNDIALS KINSOL %s, strategy %s\n", SUNDIALS_VERSION, SNESKINSOLStrategies[kin->strategy]));
  if (kin->strategy == SNES_KINSOL_FP || kin->strategy == SNES_KINSOL_PICARD) {
    if (kin->memmaa >= 0 && kin->memmaa < kin->maa) PetscCall(PetscViewerASCIIPrintf(viewer, "  Anderson acceleration depth %" PetscInt_FMT ", %ld used (at most the number of unknowns)\n", kin->maa, kin->memmaa));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  Anderson acceleration depth %" PetscInt_FMT "\n", kin->maa));
  }
  if (kin->strategy == SNES_KINSOL_FP) PetscCall(PetscViewerASCIIPrintf(viewer, "  fixed point x = x - J0^-1 F(x), J0 at the initial guess; stops when max|dx| <= fnormtol x increment scale\n"));
  else if (kin->strategy == SNES_KINSOL_PICARD) PetscCall(PetscViewerASCIIPrintf(viewer, "  Picard with L = J0 at the initial guess; stops when max|F| <= fnormtol x residual scale\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  stops when max|F| <= fnormtol x residual scale or the scaled step <= scsteptol; Jacobian every %" PetscInt_FMT " iteration(s)\n", kin->msbset));
  if (kin->fnormtol != (PetscReal)PETSC_DEFAULT) PetscCall(PetscViewerASCIIPrintf(viewer, "  fnormtol %g", (double)kin->fnormtol));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  fnormtol max(rtol, atol/residual scale)"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  if (kin->scsteptol != (PetscReal)PETSC_DEFAULT) PetscCall(PetscViewerASCIIPrintf(viewer, ", scsteptol %g\n", (double)kin->scsteptol));
  else PetscCall(PetscViewerASCIIPrintf(viewer, ", scsteptol stol\n"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  if (kin->desc[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "  last solve: %s, fnormtol %g, residual scale %g, increment scale %g\n", kin->desc, (double)kin->fnormtol_used, (double)kin->fs, (double)kin->us));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  KINSOL counters over all solves: %ld function evaluations, %ld Jacobian evaluations, %ld line search backtracks\n", kin->nfe, kin->nje, kin->nbacktr));
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESKINSOLSetStrategy_KINSOL(SNES snes, SNESKINSOLStrategy strategy)
{
  PetscFunctionBegin;
  ((SNES_KINSOL *)snes->data)->strategy = strategy;
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESKINSOLSetMAA_KINSOL(SNES snes, PetscInt maa)
{
  PetscFunctionBegin;
  PetscCheck(maa >= 0, PetscObjectComm((PetscObject)snes), PETSC_ERR_ARG_OUTOFRANGE, "The Anderson depth %" PetscInt_FMT " (-snes_kinsol_maa) must be nonnegative", maa);
  ((SNES_KINSOL *)snes->data)->maa = maa;
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESKINSOLSetTolerances_KINSOL(SNES snes, PetscReal fnormtol, PetscReal scsteptol)
{
  SNES_KINSOL *kin = (SNES_KINSOL *)snes->data;

  PetscFunctionBegin;
  PetscCheck(fnormtol == (PetscReal)PETSC_DEFAULT || (fnormtol > 0 && fnormtol < 1), PetscObjectComm((PetscObject)snes), PETSC_ERR_ARG_OUTOFRANGE, "The function tolerance %g must be in (0, 1)", (double)fnormtol);
  PetscCheck(scsteptol == (PetscReal)PETSC_DEFAULT || (scsteptol > 0 && scsteptol < 1), PetscObjectComm((PetscObject)snes), PETSC_ERR_ARG_OUTOFRANGE, "The scaled step tolerance %g must be in (0, 1)", (double)scsteptol);
  kin->fnormtol  = fnormtol;
  kin->scsteptol = scsteptol;
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESKINSOLGetTolerances_KINSOL(SNES snes, PetscReal *fnormtol, PetscReal *scsteptol)
{
  SNES_KINSOL *kin = (SNES_KINSOL *)snes->data;

  PetscFunctionBegin;
  if (fnormtol) *fnormtol = kin->fnormtol;
  if (scsteptol) *scsteptol = kin->scsteptol;
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESKINSOLSetScaleFunction_KINSOL(SNES snes, SNESKINSOLScaleFn *scale, void *ctx)
{
  SNES_KINSOL *kin = (SNES_KINSOL *)snes->data;

  PetscFunctionBegin;
  kin->scale    = scale;
  kin->scalectx = ctx;
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESKINSOLGetReturnFlag_KINSOL(SNES snes, int *flag, const char **desc)
{
  SNES_KINSOL *kin = (SNES_KINSOL *)snes->data;

  PetscFunctionBegin;
  if (flag) *flag = kin->flag;
  if (desc) *desc = kin->desc;
  PetscFunctionReturn(0);
}

/*MC
  SNESKINSOL - SUNDIALS KINSOL as a `SNES` type: Newton with or without KINSOL's line search, Picard, or a
  preconditioned fixed point with Anderson acceleration, on the `SNES`'s own function, Jacobian and `KSP`

  Options Database Keys:
+ -snes_kinsol_strategy <linesearch> - newton, linesearch, picard (L = J at the initial guess) or fp (the fixed point
                                       x = x - J0^-1 F(x), J0 at the initial guess)
. -snes_kinsol_maa <0> - Anderson acceleration depth for picard and fp (capped at the number of unknowns)
. -snes_kinsol_fnormtol <tol> - stop when max|F| <= tol x residual scale (default max(rtol, atol/residual scale))
. -snes_kinsol_scsteptol <tol> - Newton also stops when max|dx_i|/(|x_i| + increment scale) <= tol (default stol)
. -snes_kinsol_max_setup_calls <1> - Newton iterations between Jacobian updates
. -snes_kinsol_max_newton_step <1e10> - the largest scaled Newton step
- -snes_kinsol_print_level <0> - KINSOL's own printout (0-3)

  Notes:
  simpvi registers this type (`SimpVIInitializePackage()`), so any PETSc program that links simpvi, or loads it with
  -dll_append <prefix>/lib/libsimpvi.so, takes -snes_type kinsol. KINSOL works on `N_Vector_Petsc` wrappers of the
  `SNES`'s vectors; each linear solve is `KSPSolve()` with the `SNES`'s `KSP` on the Jacobian assembled by
  `SNESComputeJacobian()`, treated by KINSOL as exact (a direct solve, or a Krylov method with a tight tolerance).

  The tolerances of `SNESSetTolerances()` map to KINSOL's: max_it to its iteration limit, stol to its scaled step
  tolerance, rtol and atol to its function tolerance max(rtol, atol/fs) relative to the residual scale fs = max|F(x0)|
  (the SNES tests ||F|| <= max(rtol ||F0||, atol) in the max norm). `SNESKINSOLSetScaleFunction()` replaces the
  residual and increment scales; `SNESKINSOLSetTolerances()` sets KINSOL's tolerances directly.

  `SNESConvergedReason` from KINSOL's flag: `KIN_SUCCESS` gives `SNES_CONVERGED_FNORM_ABS`, `KIN_STEP_LT_STPTOL`
  `SNES_CONVERGED_SNORM_RELATIVE`, `KIN_MAXITER_REACHED` `SNES_DIVERGED_MAX_IT`, `KIN_LINESEARCH_NONCONV`
  `SNES_DIVERGED_LINE_SEARCH`, a failed linear solve `SNES_DIVERGED_LINEAR_SOLVE`, Inf or NaN in F (or
  `SNESSetFunctionDomainError()` that KINSOL cannot step around) `SNES_DIVERGED_FUNCTION_NANORINF`
  (`SNES_DIVERGED_FNORM_NAN` before PETSc 3.25), `KIN_MXNEWT_5X_EXCEEDED` `SNES_DIVERGED_DTOL`; a failed line search
  or picard/fp out of iterations at a residual below max(10 fnormtol, 1e-13) fs is a stall at round-off and converged
  (`SNES_CONVERGED_FNORM_RELATIVE`). `SNESKINSOLGetReturnFlag()` gives KINSOL's flag and its name. A PETSc error
  inside a callback is raised again after KINSOL returns.

  `SNESMonitor()` runs after each KINSOL iteration (read from KINSOL's print level 1 message) with ||F||_2, for fp
  with the norm of its correction ||J0^-1 F||_2 (what fp's test measures). `SNESGetIterationNumber()`
  and `SNESGetLinearSolveIterations()` count KINSOL's nonlinear iterations and the `KSP`'s iterations. No variable
  bounds, no nonlinear preconditioner, no `SNESLineSearch` (KINSOL has its own).

  Level: intermediate

.seealso: `SNESCreate()`, `SNES`, `SNESSetType()`, `SNESNEWTONLS`, `SNESKINSOLSetStrategy()`, `SNESKINSOLSetMAA()`,
          `SNESKINSOLSetTolerances()`, `SNESKINSOLSetScaleFunction()`, `SNESKINSOLGetReturnFlag()`, `TSSIMPVI`
M*/
PETSC_INTERN PetscErrorCode SNESCreate_KINSOL(SNES snes)
{
  SNES_KINSOL *kin;

  PetscFunctionBegin;
  snes->ops->setup                  = SNESSetUp_KINSOL;
  snes->ops->solve                  = SNESSolve_KINSOL;
  snes->ops->destroy                = SNESDestroy_KINSOL;
  snes->ops->setfromoptions         = SNESSetFromOptions_KINSOL;
  snes->ops->view                   = SNESView_KINSOL;
  snes->ops->reset                  = SNESReset_KINSOL;
  snes->usesksp                     = PETSC_TRUE;
  snes->usesnpc                     = PETSC_FALSE;
  snes->alwayscomputesfinalresidual = PETSC_TRUE;

  PetscCall(PetscNew(&kin));
  kin->strategy      = SNES_KINSOL_LINESEARCH;
  kin->msbset        = 1;
  kin->fnormtol      = PETSC_DEFAULT;
  kin->scsteptol     = PETSC_DEFAULT;
  kin->maxnewtonstep = 1e10;
  kin->memmaa        = -1;
  kin->flag          = KIN_SUCCESS;
  snes->data         = (void *)kin;
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLSetStrategy_C", SNESKINSOLSetStrategy_KINSOL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLSetMAA_C", SNESKINSOLSetMAA_KINSOL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLSetTolerances_C", SNESKINSOLSetTolerances_KINSOL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLGetTolerances_C", SNESKINSOLGetTolerances_KINSOL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLSetScaleFunction_C", SNESKINSOLSetScaleFunction_KINSOL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESKINSOLGetReturnFlag_C", SNESKINSOLGetReturnFlag_KINSOL));
  PetscFunctionReturn(0);
}

/*@
  SNESKINSOLSetStrategy - Sets the KINSOL strategy of a `SNESKINSOL`

  Logically Collective

  Input Parameters:
+ snes     - the `SNES` context
- strategy - `SNES_KINSOL_NEWTON`, `SNES_KINSOL_LINESEARCH` (default), `SNES_KINSOL_PICARD` or `SNES_KINSOL_FP`

  Options Database Key:
. -snes_kinsol_strategy <linesearch> - newton, linesearch, picard or fp

  Level: intermediate

  Note:
  Does nothing if the `SNES` is not a `SNESKINSOL`.

.seealso: `SNESKINSOL`, `SNESKINSOLStrategy`, `SNESKINSOLSetMAA()`
@*/
PetscErrorCode SNESKINSOLSetStrategy(SNES snes, SNESKINSOLStrategy strategy)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(snes, SNES_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(snes, strategy, 2);
  PetscTryMethod(snes, "SNESKINSOLSetStrategy_C", (SNES, SNESKINSOLStrategy), (snes, strategy));
  PetscFunctionReturn(0);
}

/*@
  SNESKINSOLSetMAA - Sets the depth of KINSOL's Anderson acceleration for the picard and fp strategies of a `SNESKINSOL`

  Logically Collective

  Input Parameters:
+ snes - the `SNES` context
- maa  - the depth (0, the default: none); capped at the number of unknowns and at the iteration limit

  Options Database Key:
. -snes_kinsol_maa <0> - the depth

  Level: intermediate

  Note:
  Does nothing if the `SNES` is not a `SNESKINSOL`.

.seealso: `SNESKINSOL`, `SNESKINSOLSetStrategy()`
@*/
PetscErrorCode SNESKINSOLSetMAA(SNES snes, PetscInt maa)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(snes, SNES_CLASSID, 1);
  PetscValidLogicalCollectiveInt(snes, maa, 2);
  PetscTryMethod(snes, "SNESKINSOLSetMAA_C", (SNES, PetscInt), (snes, maa));
  PetscFunctionReturn(0);
}

/*@
  SNESKINSOLSetTolerances - Sets KINSOL's own function and scaled step tolerances of a `SNESKINSOL`

  Logically Collective

  Input Parameters:
+ snes      - the `SNES` context
. fnormtol  - stop when max|F| <= fnormtol times the residual scale, in (0, 1); `PETSC_DEFAULT`: max(rtol, atol/scale)
              from `SNESSetTolerances()`
- scsteptol - Newton also stops when the scaled step max|dx_i|/(|x_i| + increment scale) <= scsteptol, in (0, 1);
              `PETSC_DEFAULT`: the stol of `SNESSetTolerances()`

  Options Database Keys:
+ -snes_kinsol_fnormtol <tol>  - the function tolerance
- -snes_kinsol_scsteptol <tol> - the scaled step tolerance

  Level: advanced

  Note:
  Does nothing if the `SNES` is not a `SNESKINSOL`.

.seealso: `SNESKINSOL`, `SNESKINSOLGetTolerances()`, `SNESSetTolerances()`, `SNESKINSOLSetScaleFunction()`
@*/
PetscErrorCode SNESKINSOLSetTolerances(SNES snes, PetscReal fnormtol, PetscReal scsteptol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(snes, SNES_CLASSID, 1);
  PetscValidLogicalCollectiveReal(snes, fnormtol, 2);
  PetscValidLogicalCollectiveReal(snes, scsteptol, 3);
  PetscTryMethod(snes, "SNESKINSOLSetTolerances_C", (SNES, PetscReal, PetscReal), (snes, fnormtol, scsteptol));
  PetscFunctionReturn(0);
}

/*@
  SNESKINSOLGetTolerances - Gets KINSOL's own function and scaled step tolerances of a `SNESKINSOL`

  Not Collective

  Input Parameter:
. snes - the `SNES` context, of type `SNESKINSOL`

  Output Parameters:
+ fnormtol  - the function tolerance, `PETSC_DEFAULT` if taken from `SNESSetTolerances()`
- scsteptol - the scaled step tolerance, `PETSC_DEFAULT` if taken from `SNESSetTolerances()`

  Level: advanced

.seealso: `SNESKINSOL`, `SNESKINSOLSetTolerances()`
@*/
PetscErrorCode SNESKINSOLGetTolerances(SNES snes, PetscReal *fnormtol, PetscReal *scsteptol)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(snes, SNES_CLASSID, 1);
  PetscUseMethod(snes, "SNESKINSOLGetTolerances_C", (SNES, PetscReal *, PetscReal *), (snes, fnormtol, scsteptol));
  PetscFunctionReturn(0);
}

/*@C
  SNESKINSOLSetScaleFunction - Sets the function that gives a `SNESKINSOL` its residual and increment scales

  Logically Collective

  Input Parameters:
+ snes  - the `SNES` context
. scale - the function, called at the start of each solve (`SNESKINSOLScaleFn`), or `NULL` for the defaults
- ctx   - its context

  Level: advanced

  Note:
  KINSOL's tolerances are relative to these scales: the function tolerance to the residual scale fs (default
  max|F(x0)|), the scaled step to the increment scale us (default max|x0|, for fp also max|J0^-1 F(x0)|). A problem
  whose F has round-off far from max|F(x0)| (a residual that is a small difference of large terms) should give the
  size of those terms. Does nothing if the `SNES` is not a `SNESKINSOL`.

.seealso: `SNESKINSOL`, `SNESKINSOLScaleFn`, `SNESKINSOLSetTolerances()`
@*/
PetscErrorCode SNESKINSOLSetScaleFunction(SNES snes, SNESKINSOLScaleFn *scale, void *ctx)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(snes, SNES_CLASSID, 1);
  PetscTryMethod(snes, "SNESKINSOLSetScaleFunction_C", (SNES, SNESKINSOLScaleFn *, void *), (snes, scale, ctx));
  PetscFunctionReturn(0);
}

/*@C
  SNESKINSOLGetReturnFlag - Gets the flag KINSOL returned in the last solve of a `SNESKINSOL`, and its description

  Not Collective

  Input Parameter:
. snes - the `SNES` context, of type `SNESKINSOL`

  Output Parameters:
+ flag - KINSOL's return flag (`KIN_SUCCESS`, `KIN_MAXITER_REACHED`, ...), or `NULL`
- desc - its name, with what caused it (Inf or NaN, a failed `KSP`) when known, or `NULL`; owned by the `SNES`

  Level: intermediate

.seealso: `SNESKINSOL`, `SNESGetConvergedReason()`
@*/
PetscErrorCode SNESKINSOLGetReturnFlag(SNES snes, int *flag, const char **desc)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(snes, SNES_CLASSID, 1);
  PetscUseMethod(snes, "SNESKINSOLGetReturnFlag_C", (SNES, int *, const char **), (snes, flag, desc));
  PetscFunctionReturn(0);
}
