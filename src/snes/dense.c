/*
   SNESSIMPVIDENSE: Newton on a dense Jacobian, factored by LAPACK (getrf/getrs), for small systems on one process,
   where a Mat, KSP and PC per iteration cost several times the arithmetic (bench/stepcost). It is the SNES newtonls
   would be with a direct solve: the SNES's tolerances, converged test, monitors, convergence history, Jacobian lag
   and line search. The TSSIMPVI step gives its residual and dense Jacobian on arrays
   (SNESSimpVIDenseSetArrayFunctions_Private(), src/core/smallstep.c); any other problem is solved through
   SNESComputeFunction() and SNESComputeJacobian(), the Jacobian read into a dense matrix.
*/
#include <simpvi.h> /*I "simpvi.h" I*/
#include <simpvi/private/compat.h>
#include <simpvi/private/snesdense.h>
#include <petsc/private/snesimpl.h>
#include <petsc/private/dmimpl.h>
#include <petscblaslapack.h>

/* PETSc main: the line search of full steps is "none" (SNESLINESEARCHBASIC, "basic", before), the domain error flag
   functiondomainerror and its check SNESCheckFunctionDomainError() */
#if PETSC_VERSION_LT(3, 25, 0)
  #define SIMPVI_LINESEARCH_FULL SNESLINESEARCHBASIC
#else
  #define SIMPVI_LINESEARCH_FULL SNESLINESEARCHNONE
#endif
#if defined(SNESCheckFunctionDomainError)
  #define SIMPVI_DOMAINERROR(snes)             ((snes)->functiondomainerror)
  #define SimpVISNESCheckFunctionNorm(snes, f) SNESCheckFunctionDomainError(snes, f)
  #define SimpVISNESClearDomainErrors(snes)    ((snes)->functiondomainerror = (snes)->objectivedomainerror = (snes)->jacobiandomainerror = PETSC_FALSE)
#else
  #define SIMPVI_DOMAINERROR(snes)             ((snes)->domainerror)
  #define SimpVISNESCheckFunctionNorm(snes, f) SNESCheckFunctionNorm(snes, f)
  #define SimpVISNESClearDomainErrors(snes)    ((snes)->domainerror = (snes)->jacobiandomainerror = PETSC_FALSE)
#endif

typedef struct {
  /* the array functions, and the SNES's Jacobian callback they stand for (another one, e.g. -snes_fd, is used instead) */
  SNESSimpVIDenseFunctionFn *function;
  SNESSimpVIDenseJacobianFn *jacobian;
  SNESSimpVIDenseAcceptFn   *accept; /* may be NULL */
  void                      *ctx;
  PetscErrorCode (*jacobianof)(SNES, Vec, Mat, Mat, void *);

  PetscBool linear;  /* one Newton step, no test (as SNESKSPONLY) */
  PetscBool testjac; /* -snes_test_jacobian: the Jacobian through SNESComputeJacobian(), which runs the test */

  /* the m x m Jacobian and its LU factors (column-major, in place), the Newton step */
  PetscBLASInt     m, *piv;
  PetscScalar     *LU, *dy;
  PetscBool        factored; /* LU holds the factors of an earlier Jacobian */
  Mat              D;        /* generic path: the Jacobian as a MATSEQDENSE when the SNES's is not one */
  PetscObjectState Astate;   /* generic path: the state of the Jacobian matrix that was factored */
  PetscObjectId    Aid;
  PetscInt         factorizations;
  PetscBool        arrays; /* the last solve used the array functions */
} SNES_SimpVIDense;

static PetscReal Norm2(PetscInt m, const PetscScalar *x)
{
  PetscReal sum = 0;

  for (PetscInt j = 0; j < m; j++) sum += PetscRealPart(x[j] * PetscConj(x[j]));
  return PetscSqrtReal(sum);
}

/* The SNES's converged test, then the iteration limit (PETSc main's SNESConverged(); 3.18's ls.c does the latter) */
static PetscErrorCode Converged(SNES snes, PetscInt it, PetscReal xnorm, PetscReal ynorm, PetscReal fnorm)
{
  PetscFunctionBegin;
  PetscUseTypeMethod(snes, converged, it, xnorm, ynorm, fnorm, &snes->reason, snes->cnvP);
  if (!snes->reason && it == snes->max_its) snes->reason = SNES_DIVERGED_MAX_IT;
  PetscFunctionReturn(0);
}

/* Whether the array functions may stand for the SNES's own: set, the Jacobian callback unchanged, no matrix-free
   Jacobian, no Jacobian test */
static PetscErrorCode UseArrays(SNES snes, PetscBool *use)
{
  SNES_SimpVIDense *dn = (SNES_SimpVIDense *)snes->data;
  PetscErrorCode (*jac)(SNES, Vec, Mat, Mat, void *);

  PetscFunctionBegin;
  *use = PETSC_FALSE;
  if (!dn->function || !dn->jacobian || snes->mf || snes->mf_operator || dn->testjac) PetscFunctionReturn(0);
  PetscCall(SNESGetJacobian(snes, NULL, NULL, &jac, NULL));
  *use = (PetscBool)(jac == dn->jacobianof);
  PetscFunctionReturn(0);
}

/* F at the solution vector */
static PetscErrorCode Function(SNES snes, PetscBool arrays, PetscBool jacobiannext, PetscReal *fnorm)
{
  SNES_SimpVIDense  *dn = (SNES_SimpVIDense *)snes->data;
  const PetscScalar *f;

  PetscFunctionBegin;
  if (arrays) {
    PetscCall((*dn->function)(snes, snes->vec_sol, snes->vec_func, jacobiannext, dn->ctx));
    snes->nfuncs++;
  } else PetscCall(SNESComputeFunction(snes, snes->vec_sol, snes->vec_func));
  PetscCall(VecGetArrayRead(snes->vec_func, &f));
  *fnorm = Norm2(dn->m, f);
  PetscCall(VecRestoreArrayRead(snes->vec_func, &f));
  PetscFunctionReturn(0);
}

/* Whether the SNES's lag (SNESSetLagJacobian(), counted as SNESComputeJacobian() counts it) asks for a new Jacobian */
static PetscBool JacobianDue(SNES snes)
{
  SNES_SimpVIDense *dn = (SNES_SimpVIDense *)snes->data;

  if (!dn->factored || snes->lagjacobian == -2) return PETSC_TRUE;
  if (snes->lagjacobian == -1) return PETSC_FALSE;
  if (snes->lagjacobian > 1 && (snes->iter + snes->jac_iter) % snes->lagjacobian) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* The Jacobian at the solution vector, factored (or the factors kept); *ok false for a singular or non-finite one */
static PetscErrorCode JacobianFactor(SNES snes, PetscBool arrays, PetscBool *ok)
{
  SNES_SimpVIDense *dn   = (SNES_SimpVIDense *)snes->data;
  PetscBool         keep = PETSC_FALSE;
  PetscBLASInt      info = 0;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  if (!JacobianDue(snes)) PetscFunctionReturn(0);
  if (snes->lagjacobian == -2) snes->lagjacobian = -1;
  if (arrays) {
    keep = dn->factored;
    PetscCall((*dn->jacobian)(snes, snes->vec_sol, dn->LU, &keep, dn->ctx));
  } else { /* SNESComputeJacobian() (its own lag and -snes_test_jacobian), then the values of the operator */
    Mat                A = snes->jacobian, B = snes->jacobian_pre, E = NULL;
    PetscObjectState   state;
    PetscObjectId      id;
    PetscBool          dense, implicit;
    const PetscScalar *a;
    PetscInt           lda;

    if (!A) {
      if (!dn->D) PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, dn->m, dn->m, NULL, &dn->D));
      A = B = dn->D;
    }
    if (!B) B = A;
    PetscCall(SNESComputeJacobian(snes, snes->vec_sol, A, B));
    PetscCall(PetscObjectStateGet((PetscObject)A, &state));
    PetscCall(PetscObjectGetId((PetscObject)A, &id));
    keep = (PetscBool)(dn->factored && id == dn->Aid && state == dn->Astate); /* not computed again: lagged */
    if (!keep) {
      PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQDENSE, &dense));
      PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &implicit, MATMFFD, MATSHELL, ""));
      if (dense) E = A;
      else if (implicit) PetscCall(MatComputeOperator(A, MATSEQDENSE, &E)); /* -snes_mf: its columns, m products */
      else PetscCall(MatConvert(A, MATSEQDENSE, MAT_INITIAL_MATRIX, &E));
      PetscCall(MatDenseGetLDA(E, &lda));
      PetscCall(MatDenseGetArrayRead(E, &a));
      for (PetscInt c = 0; c < dn->m; c++) PetscCall(PetscArraycpy(&dn->LU[c * dn->m], &a[c * lda], dn->m));
      PetscCall(MatDenseRestoreArrayRead(E, &a));
      if (E != A) PetscCall(MatDestroy(&E));
      dn->Aid    = id;
      dn->Astate = state;
    }
  }
  if (!keep) {
    PetscCall(PetscFPTrapPush(PETSC_FP_TRAP_OFF));
    if (dn->m < SIMPVI_DENSE_BLOCKED_MIN) info = SimpVIDenseLUFactor(dn->m, dn->LU, dn->piv);
    else PetscCallBLAS("LAPACKgetrf", LAPACKgetrf_(&dn->m, &dn->m, dn->LU, &dn->m, dn->piv, &info));
    PetscCall(PetscFPTrapPop());
    dn->factorizations++;
    for (PetscInt j = 0; j < dn->m && !info; j++)
      if (PetscIsInfOrNanScalar(dn->LU[j * dn->m + j])) info = 1;
    dn->factored = (PetscBool)(info == 0);
    *ok          = dn->factored;
  }
  PetscFunctionReturn(0);
}

/* dy = J^-1 F by the factors */
static PetscErrorCode Solve(SNES snes)
{
  SNES_SimpVIDense  *dn  = (SNES_SimpVIDense *)snes->data;
  PetscBLASInt       one = 1, info = 0;
  const PetscScalar *f;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(snes->vec_func, &f));
  PetscCall(PetscArraycpy(dn->dy, f, dn->m));
  PetscCall(VecRestoreArrayRead(snes->vec_func, &f));
  if (dn->m < SIMPVI_DENSE_BLOCKED_MIN) SimpVIDenseLUSolve(dn->m, dn->LU, dn->piv, dn->dy);
  else {
    PetscCallBLAS("LAPACKgetrs", LAPACKgetrs_("N", &dn->m, &one, dn->LU, &dn->m, dn->piv, dn->dy, &dn->m, &info));
    PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK getrs: argument %d is invalid", -(int)info);
  }
  snes->linear_its++; /* one direct solve, as preonly LU counts */
  PetscFunctionReturn(0);
}

/* The line search may be skipped for an update written inline: basic, full steps, no hooks, no monitor. basic: the
   type takes the step it is given (damped or not) and needs no Jacobian matrix (bt's slope is a product with it, which
   the array functions do not fill) */
static PetscErrorCode InlineUpdate(SNES snes, PetscBool *inl, PetscBool *basic_)
{
  SNESLineSearch ls;
  PetscReal      damping;
  PetscBool      basic;
  PetscViewer    monitor;
  PetscErrorCode (*pre)(SNESLineSearch, Vec, Vec, PetscBool *, void *);
  PetscErrorCode (*post)(SNESLineSearch, Vec, Vec, Vec, PetscBool *, PetscBool *, void *);

  PetscFunctionBegin;
  PetscCall(SNESGetLineSearch(snes, &ls));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)ls, &basic, "basic", "none", ""));
  PetscCall(SNESLineSearchGetDamping(ls, &damping));
  PetscCall(SNESLineSearchGetPreCheck(ls, &pre, NULL));
  PetscCall(SNESLineSearchGetPostCheck(ls, &post, NULL));
  PetscCall(SNESLineSearchGetDefaultMonitor(ls, &monitor));
  *inl    = (PetscBool)(basic && damping == 1.0 && !pre && !post && !monitor);
  *basic_ = basic;
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESSolve_SimpVIDense(SNES snes)
{
  SNES_SimpVIDense *dn = (SNES_SimpVIDense *)snes->data;
  PetscReal         fnorm, xnorm = 0, ynorm = 0;
  PetscBool         arrays, inl, basic, ok;
  PetscScalar      *x, *y;

  PetscFunctionBegin;
  PetscCheck(!snes->xl && !snes->xu, PetscObjectComm((PetscObject)snes), PETSC_ERR_ARG_WRONGSTATE, "SNESSIMPVIDENSE has no variable bounds");
  snes->reason = SNES_CONVERGED_ITERATING;
  snes->iter   = 0;
  snes->norm   = 0;
  PetscCall(UseArrays(snes, &arrays));
  PetscCall(InlineUpdate(snes, &inl, &basic));
  if (!basic && !dn->linear) arrays = PETSC_FALSE; /* e.g. bt: through SNESComputeJacobian(), which fills the matrix */
  dn->arrays = arrays;
  PetscCall(Function(snes, arrays, JacobianDue(snes), &fnorm));
  if (SIMPVI_DOMAINERROR(snes)) {
    snes->reason = SNES_DIVERGED_FUNCTION_DOMAIN;
    PetscFunctionReturn(0);
  }
  if (!dn->linear) SimpVISNESCheckFunctionNorm(snes, fnorm); /* linear: as SNESKSPONLY, no test (the caller checks the solution) */
  snes->norm = fnorm;
  PetscCall(SNESLogConvergenceHistory(snes, fnorm, 0));
  PetscCall(SNESMonitor(snes, 0, fnorm));
  if (!dn->linear) {
    PetscCall(Converged(snes, 0, 0, 0, fnorm));
    if (snes->reason) PetscFunctionReturn(0);
  }

  for (PetscInt i = 0; i < snes->max_its; i++) {
    PetscCall(JacobianFactor(snes, arrays, &ok));
    if (!ok) {
      snes->reason = SNES_DIVERGED_LINEAR_SOLVE;
      break;
    }
    PetscCall(Solve(snes));
    if (inl || dn->linear) { /* x -= dy, F there */
      PetscCall(VecGetArray(snes->vec_sol, &x));
      for (PetscInt j = 0; j < dn->m; j++) x[j] -= dn->dy[j];
      xnorm = Norm2(dn->m, x);
      PetscCall(VecRestoreArray(snes->vec_sol, &x));
      ynorm       = Norm2(dn->m, dn->dy);
      snes->iter  = i + 1;
      snes->ynorm = ynorm; /* for the function: the update's size, which tells whether a Jacobian is likely next */
      if (arrays && !dn->linear && dn->accept) {
        PetscBool accept;

        PetscCall((*dn->accept)(snes, snes->iter, xnorm, ynorm, dn->dy, &accept, dn->ctx));
        if (accept) { /* converged without F at the new x (its norm stays the last F's) */
          snes->xnorm  = xnorm;
          snes->reason = SNES_CONVERGED_SNORM_RELATIVE;
          break;
        }
      }
      PetscCall(Function(snes, arrays, (PetscBool)(!dn->linear && JacobianDue(snes)), &fnorm));
      if (SIMPVI_DOMAINERROR(snes)) {
        snes->reason = SNES_DIVERGED_FUNCTION_DOMAIN;
        break;
      }
    } else { /* the SNES's line search along dy */
      SNESLineSearch       ls;
      SNESLineSearchReason lsreason;

      PetscCall(VecGetArrayWrite(snes->vec_sol_update, &y));
      PetscCall(PetscArraycpy(y, dn->dy, dn->m));
      PetscCall(VecRestoreArrayWrite(snes->vec_sol_update, &y));
      PetscCall(SNESGetLineSearch(snes, &ls));
      PetscCall(SNESLineSearchApply(ls, snes->vec_sol, snes->vec_func, &fnorm, snes->vec_sol_update));
      PetscCall(SNESLineSearchGetReason(ls, &lsreason));
      PetscCall(SNESLineSearchGetNorms(ls, &xnorm, &fnorm, &ynorm));
      snes->iter = i + 1;
      if (lsreason != SNES_LINESEARCH_SUCCEEDED) {
        if (SIMPVI_DOMAINERROR(snes)) snes->reason = SNES_DIVERGED_FUNCTION_DOMAIN;
        else if (snes->stol * xnorm > ynorm) snes->reason = SNES_CONVERGED_SNORM_RELATIVE;
        else snes->reason = SNES_DIVERGED_LINE_SEARCH;
        break;
      }
    }
    if (!dn->linear) SimpVISNESCheckFunctionNorm(snes, fnorm);
    snes->norm  = fnorm;
    snes->xnorm = xnorm;
    snes->ynorm = ynorm;
    PetscCall(SNESLogConvergenceHistory(snes, fnorm, 1));
    PetscCall(SNESMonitor(snes, snes->iter, fnorm));
    if (dn->linear) { /* SNESKSPONLY: one step, no test */
      snes->reason = SNES_CONVERGED_ITS;
      break;
    }
    PetscCall(Converged(snes, snes->iter, xnorm, ynorm, fnorm));
    if (snes->reason) break;
  }
  if (!snes->reason) snes->reason = SNES_DIVERGED_MAX_IT;
  if (snes->reason < 0) dn->factored = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESSetUp_SimpVIDense(SNES snes)
{
  SNES_SimpVIDense *dn = (SNES_SimpVIDense *)snes->data;
  PetscMPIInt       size;
  PetscInt          m;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)snes), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)snes), PETSC_ERR_SUP, "SNESSIMPVIDENSE solves on one process, not %d", (int)size);
  PetscCall(VecGetLocalSize(snes->vec_sol, &m));
  if (dn->LU && m != dn->m) PetscCall(PetscFree3(dn->LU, dn->dy, dn->piv));
  if (!dn->LU) {
    PetscCall(PetscBLASIntCast(m, &dn->m));
    PetscCall(PetscMalloc3(m * m, &dn->LU, m, &dn->dy, m, &dn->piv));
  }
  dn->factored = PETSC_FALSE;
  PetscCall(PetscOptionsHasName(((PetscObject)snes)->options, ((PetscObject)snes)->prefix, "-snes_test_jacobian", &dn->testjac));
  if (!snes->vec_sol_update) PetscCall(VecDuplicate(snes->vec_sol, &snes->vec_sol_update));
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESReset_SimpVIDense(SNES snes)
{
  SNES_SimpVIDense *dn = (SNES_SimpVIDense *)snes->data;

  PetscFunctionBegin;
  PetscCall(PetscFree3(dn->LU, dn->dy, dn->piv));
  PetscCall(MatDestroy(&dn->D));
  dn->m        = 0;
  dn->factored = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESDestroy_SimpVIDense(SNES snes)
{
  PetscFunctionBegin;
  PetscCall(SNESReset_SimpVIDense(snes));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESSimpVIDenseSetArrayFunctions_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESSimpVIDenseSetLinear_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESSimpVIDenseGetLinear_C", NULL));
  PetscCall(PetscFree(snes->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESSetFromOptions_SimpVIDense(SNES snes, SimpVIOptionItems PetscOptionsObject)
{
  SNES_SimpVIDense *dn = (SNES_SimpVIDense *)snes->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "SNES simpvidense options");
  PetscCall(PetscOptionsBool("-snes_simpvidense_linear", "The system is linear: one Newton step, no convergence test (as ksponly)", "SNESSimpVIDenseSetLinear", dn->linear, &dn->linear, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESView_SimpVIDense(SNES snes, PetscViewer viewer)
{
  SNES_SimpVIDense *dn = (SNES_SimpVIDense *)snes->data;
  PetscBool         iascii, inl = PETSC_FALSE, basic = PETSC_TRUE, arr;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  Newton on a dense Jacobian, LAPACK LU (getrf/getrs)%s\n", dn->linear ? "; linear system: one Newton step, no convergence test" : ""));
  PetscCall(UseArrays(snes, &arr));
  if (snes->linesearch) PetscCall(InlineUpdate(snes, &inl, &basic));
  if (!basic && !dn->linear) arr = PETSC_FALSE;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  residual and Jacobian %s\n", arr ? "on arrays, given by the problem" : "from SNESComputeFunction() and SNESComputeJacobian()"));
  if (inl) PetscCall(PetscViewerASCIIPrintf(viewer, "  full Newton steps (basic line search, damping 1)\n"));
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESSimpVIDenseSetArrayFunctions_SimpVIDense(SNES snes, SNESSimpVIDenseFunctionFn *function, SNESSimpVIDenseJacobianFn *jacobian, SNESSimpVIDenseAcceptFn *accept, void *ctx)
{
  SNES_SimpVIDense *dn = (SNES_SimpVIDense *)snes->data;

  PetscFunctionBegin;
  dn->function = function;
  dn->jacobian = jacobian;
  dn->accept   = accept;
  dn->ctx      = ctx;
  PetscCall(SNESGetJacobian(snes, NULL, NULL, &dn->jacobianof, NULL));
  dn->factored = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESSimpVIDenseSetLinear_SimpVIDense(SNES snes, PetscBool linear)
{
  PetscFunctionBegin;
  ((SNES_SimpVIDense *)snes->data)->linear = linear;
  PetscFunctionReturn(0);
}

static PetscErrorCode SNESSimpVIDenseGetLinear_SimpVIDense(SNES snes, PetscBool *linear)
{
  PetscFunctionBegin;
  *linear = ((SNES_SimpVIDense *)snes->data)->linear;
  PetscFunctionReturn(0);
}

/*
  SNESSimpVIDenseIsType_Private - whether snes is a SNESSIMPVIDENSE and, if so, whether it takes one Newton step per
  solve; for the step's solver at every step, whose systems may be solved in a microsecond: the type is known by its
  solve routine, not by comparing names, and the flag read without a composed-function lookup
*/
PetscErrorCode SNESSimpVIDenseIsType_Private(SNES snes, PetscBool *dense, PetscBool *linear)
{
  PetscFunctionBegin;
  *dense  = (PetscBool)(snes->ops->solve == SNESSolve_SimpVIDense);
  *linear = (PetscBool)(*dense && ((SNES_SimpVIDense *)snes->data)->linear);
  PetscFunctionReturn(0);
}

/*
  SNESSimpVIDenseSolveAgain_Private - SNESSolve(snes, NULL, x) for a SNESSIMPVIDENSE that solved for x before, with
  nothing to view, adapt, monitor, guess or check around its solves (the TSSIMPVI step's, which has asked the options
  once: src/ts/stepsolver.c). It makes the calls SNESSolve() makes then, without the two options SNESSolve() looks up
  by name at every solve (-snes_adapt_initial and -snes_adapt_sequence): 1.1k instructions, 4 % of a pendulum's step.
  Any other case is SNESSolve()'s.
*/
PetscErrorCode SNESSimpVIDenseSolveAgain_Private(SNES snes, Vec x)
{
  PetscFunctionBegin;
  if (snes->ops->solve != SNESSolve_SimpVIDense || snes->vec_sol != x || !snes->setupcalled || snes->vec_rhs || snes->ops->computeinitialguess || snes->gridsequence || snes->numbermonitors || snes->errorifnotconverged || (snes->dm && snes->dm->numbermonitors)) {
    PetscCall(PetscOptionsPushCreateViewerOff(PETSC_TRUE)); /* (its viewers are not asked for) */
    PetscCall(SNESSolve(snes, NULL, x));
    PetscCall(PetscOptionsPopCreateViewerOff());
    PetscFunctionReturn(0);
  }
  if (snes->conv_hist_reset) snes->conv_hist_len = 0;
  if (snes->counters_reset) {
    snes->nfuncs      = 0;
    snes->linear_its  = 0;
    snes->numFailures = 0;
  }
  snes->reason = SNES_CONVERGED_ITERATING;
  PetscCall(PetscLogEventBegin(SNES_Solve, snes, 0, 0, 0));
  PetscCall(SNESSolve_SimpVIDense(snes));
  PetscCall(PetscLogEventEnd(SNES_Solve, snes, 0, 0, 0));
  PetscCheck(snes->reason, PETSC_COMM_SELF, PETSC_ERR_PLIB, "SNESSIMPVIDENSE returned without setting a converged reason");
  SimpVISNESClearDomainErrors(snes);
  if (snes->lagjac_persist) snes->jac_iter += snes->iter;
  if (snes->lagpre_persist) snes->pre_iter += snes->iter;
  PetscFunctionReturn(0);
}

/*
  SNESSimpVIDenseSetArrayFunctions_Private - The residual and dense Jacobian of the problem without Vec-to-Mat
  assembly, called at the SNES's solution vector while the SNES's Jacobian callback is the one set at this call, and
  (optional) the problem's test that accepts an update without the residual after it (a no-op for other SNES types)
*/
PetscErrorCode SNESSimpVIDenseSetArrayFunctions_Private(SNES snes, SNESSimpVIDenseFunctionFn *function, SNESSimpVIDenseJacobianFn *jacobian, SNESSimpVIDenseAcceptFn *accept, void *ctx)
{
  PetscFunctionBegin;
  PetscTryMethod(snes, "SNESSimpVIDenseSetArrayFunctions_C", (SNES, SNESSimpVIDenseFunctionFn *, SNESSimpVIDenseJacobianFn *, SNESSimpVIDenseAcceptFn *, void *), (snes, function, jacobian, accept, ctx));
  PetscFunctionReturn(0);
}

/*@
  SNESSimpVIDenseSetLinear - Tells a `SNESSIMPVIDENSE` that its system is linear: each solve is one Newton step
  with no convergence test, as `SNESKSPONLY`

  Logically Collective

  Input Parameters:
+ snes   - the `SNES` context
- linear - `PETSC_TRUE` for one step

  Options Database Key:
. -snes_simpvidense_linear - one Newton step

  Note:
  `TSSIMPVI` sets it on the dense `SNES` it chooses for a `TS_LINEAR` problem. A no-op for other `SNES` types.

  Level: intermediate

.seealso: `SNESSIMPVIDENSE`, `SNESSimpVIDenseGetLinear()`, `SNESKSPONLY`
@*/
PetscErrorCode SNESSimpVIDenseSetLinear(SNES snes, PetscBool linear)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(snes, SNES_CLASSID, 1);
  PetscValidLogicalCollectiveBool(snes, linear, 2);
  PetscTryMethod(snes, "SNESSimpVIDenseSetLinear_C", (SNES, PetscBool), (snes, linear));
  PetscFunctionReturn(0);
}

/*@
  SNESSimpVIDenseGetLinear - Whether a `SNESSIMPVIDENSE` takes one Newton step per solve

  Not Collective

  Input Parameter:
. snes - the `SNES` context, of type `SNESSIMPVIDENSE`

  Output Parameter:
. linear - `PETSC_TRUE` for one step

  Level: intermediate

.seealso: `SNESSIMPVIDENSE`, `SNESSimpVIDenseSetLinear()`
@*/
PetscErrorCode SNESSimpVIDenseGetLinear(SNES snes, PetscBool *linear)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(snes, SNES_CLASSID, 1);
  PetscAssertPointer(linear, 2);
  PetscUseMethod(snes, "SNESSimpVIDenseGetLinear_C", (SNES, PetscBool *), (snes, linear));
  PetscFunctionReturn(0);
}

/*MC
  SNESSIMPVIDENSE - Newton on a dense Jacobian factored by LAPACK (getrf/getrs), for small systems on one process

  Options Database Key:
. -snes_simpvidense_linear - one Newton step per solve, no convergence test (as `SNESKSPONLY`)

  Notes:
  The Newton iteration of `SNESNEWTONLS` with a direct solve, without a `Mat`, `KSP` or `PC`: the `SNES`'s
  tolerances (`SNESSetTolerances()`: atol, rtol, stol, max_it, max_funcs; `SNESSetDivergenceTolerance()`), its
  converged test (`SNESSetConvergenceTest()`), monitors, convergence history, Jacobian lag
  (`SNESSetLagJacobian()`, `SNESSetLagJacobianPersists()`), function domain errors and its `SNESLineSearch`, basic
  (none from PETSc 3.26) with full steps by default (-snes_linesearch_type, -snes_linesearch_damping and the others apply). Each Newton step
  counts one linear iteration, as preonly LU does. The Jacobian is the `SNES`'s (`SNESComputeJacobian()`), read into
  a dense matrix (`MatConvert()`, or `MatComputeOperator()` for -snes_mf); the `KSP` is not used.

  `TSSIMPVI` makes it the default `SNES` of step systems with at most -ts_simpvi_small_limit rows on one process, and
  gives it the step's residual and dense Jacobian on arrays.

  simpvi registers this type (`SimpVIInitializePackage()`), so any PETSc program that links simpvi, or loads it with
  -dll_append <prefix>/lib/libsimpvi.so, takes -snes_type simpvidense.

  Level: intermediate

.seealso: `SNESCreate()`, `SNES`, `SNESSetType()`, `SNESNEWTONLS`, `SNESKSPONLY`, `SNESSimpVIDenseSetLinear()`, `TSSIMPVI`
M*/

/*@C
  SNESCreate_SimpVIDense - Makes a `SNES` of type `SNESSIMPVIDENSE`: called by `SNESSetType()`, not by users

  Collective

  Input Parameter:
. snes - the `SNES` context

  Level: developer

.seealso: `SNESSIMPVIDENSE`, `SNESSetType()`, `SimpVIInitializePackage()`
@*/
PetscErrorCode SNESCreate_SimpVIDense(SNES snes)
{
  SNES_SimpVIDense *dn;
  SNESLineSearch    ls;

  PetscFunctionBegin;
  snes->ops->setup                  = SNESSetUp_SimpVIDense;
  snes->ops->solve                  = SNESSolve_SimpVIDense;
  snes->ops->destroy                = SNESDestroy_SimpVIDense;
  snes->ops->setfromoptions         = SNESSetFromOptions_SimpVIDense;
  snes->ops->view                   = SNESView_SimpVIDense;
  snes->ops->reset                  = SNESReset_SimpVIDense;
  snes->usesksp                     = PETSC_FALSE;
  snes->usesnpc                     = PETSC_FALSE;
  snes->alwayscomputesfinalresidual = PETSC_TRUE;
  PetscCall(SNESGetLineSearch(snes, &ls));
  if (!((PetscObject)ls)->type_name) PetscCall(SNESLineSearchSetType(ls, SIMPVI_LINESEARCH_FULL));
  PetscCall(PetscNew(&dn));
  snes->data = (void *)dn;
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESSimpVIDenseSetArrayFunctions_C", SNESSimpVIDenseSetArrayFunctions_SimpVIDense));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESSimpVIDenseSetLinear_C", SNESSimpVIDenseSetLinear_SimpVIDense));
  PetscCall(PetscObjectComposeFunction((PetscObject)snes, "SNESSimpVIDenseGetLinear_C", SNESSimpVIDenseGetLinear_SimpVIDense));
  PetscFunctionReturn(0);
}
