static char help[] = "SNESKINSOL (-snes_type kinsol) used directly, without a TS, on a small distributed nonlinear system: a chain\n"
                     "of n unknowns on a DMDA, F_i(x) = x_i^3 + 2 x_i - (x_{i-1} + x_{i+1})/2 - a_i (x_0 = x_{n+1} = 0), with a\n"
                     "chosen so that x*_i = sin(i) is the solution. -case says what is run:\n"
                     "  solve       each strategy of -strategies from x = 0: converged reason, iterations, |x - x*| < 1e-10\n"
                     "  maxit       Newton from x = 10 with SNESSetTolerances(max_it = 2): SNES_DIVERGED_MAX_IT\n"
                     "  nan         F returns NaN at the initial guess: Inf/NaN reason, no KINSOL iteration\n"
                     "  noroot      F_i = x_i^2 + 1, which has no root: the line search fails, SNES_DIVERGED_LINE_SEARCH\n"
                     "  singular    a zero Jacobian (LU fails): SNES_DIVERGED_LINEAR_SOLVE\n"
                     "  error       F raises a PETSc error at its -error_after'th call, inside KINSOL: SNESSolve() raises it\n"
                     "-check says what a converged solve must satisfy: solution (|x - x*| < 1e-10 and the residual test),\n"
                     "residual (max|F(x)| <= max(rtol max|F(x0)|, atol), F as SNESGetFunction() leaves it) or none.\n"
                     "Options: -n <8> -case <solve> -strategies newton,linesearch,picard,fp -maa <3> -error_after <4> -check <solution>\n\n";

#include <simpvi.h>
#include <petscdmda.h>

#if PETSC_VERSION_LT(3, 25, 0) /* the reason's name before PETSc 3.25 */
  #define SNES_DIVERGED_FUNCTION_NANORINF SNES_DIVERGED_FNORM_NAN
#endif

typedef enum {
  CASE_SOLVE,
  CASE_MAXIT,
  CASE_NAN,
  CASE_NOROOT,
  CASE_SINGULAR,
  CASE_ERROR
} Case;
static const char *const Cases[] = {"solve", "maxit", "nan", "noroot", "singular", "error", "Case", "CASE_", NULL};

typedef enum {
  CHECK_SOLUTION,
  CHECK_RESIDUAL,
  CHECK_NONE
} Check;
static const char *const Checks[] = {"solution", "residual", "none", "Check", "CHECK_", NULL};

typedef struct {
  Case     tcase;
  Check    check;
  PetscInt ncalls, errorafter;
} AppCtx;

static PetscErrorCode FormFunctionLocal(DMDALocalInfo *info, const PetscScalar *x, PetscScalar *f, AppCtx *user)
{
  PetscFunctionBeginUser;
  PetscCheck(user->tcase != CASE_ERROR || ++user->ncalls <= user->errorafter, PETSC_COMM_SELF, PETSC_ERR_USER, "FormFunctionLocal: deliberate error at call %" PetscInt_FMT " (-error_after)", user->ncalls);
  for (PetscInt i = info->xs; i < info->xs + info->xm; i++) {
    const PetscReal xs = PetscSinReal((PetscReal)(i + 1)), xl = i > 0 ? PetscSinReal((PetscReal)i) : 0, xr = i < info->mx - 1 ? PetscSinReal((PetscReal)(i + 2)) : 0;
    const PetscReal a    = xs * xs * xs + 2 * xs - (xl + xr) / 2;
    PetscScalar     left = i > 0 ? x[i - 1] : 0, right = i < info->mx - 1 ? x[i + 1] : 0;

    if (user->tcase == CASE_NOROOT) f[i] = x[i] * x[i] + 1;
    else f[i] = x[i] * x[i] * x[i] + 2 * x[i] - (left + right) / 2 - a;
    if (user->tcase == CASE_NAN) f[i] = PETSC_SQRT_MACHINE_EPSILON / 0.0 * 0.0; /* NaN */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FormJacobianLocal(DMDALocalInfo *info, const PetscScalar *x, Mat J, Mat P, AppCtx *user)
{
  PetscFunctionBeginUser;
  for (PetscInt i = info->xs; i < info->xs + info->xm; i++) {
    MatStencil  row = {.i = i}, col[3];
    PetscScalar v[3];
    PetscInt    nc = 0;

    if (i > 0) {
      col[nc].i = i - 1;
      v[nc++]   = user->tcase == CASE_NOROOT ? 0 : -0.5;
    }
    col[nc].i = i;
    v[nc++]   = user->tcase == CASE_NOROOT ? 2 * x[i] : 3 * x[i] * x[i] + 2;
    if (i < info->mx - 1) {
      col[nc].i = i + 1;
      v[nc++]   = user->tcase == CASE_NOROOT ? 0 : -0.5;
    }
    if (user->tcase == CASE_SINGULAR)
      for (PetscInt k = 0; k < nc; k++) v[k] = 0;
    PetscCall(MatSetValuesStencil(P, 1, &row, nc, col, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* One solve from x = x0 with the given strategy; prints the outcome */
static PetscErrorCode Solve(DM da, AppCtx *user, const char strategy[], PetscInt maa, PetscReal x0)
{
  SNES                snes;
  KSP                 ksp;
  PC                  pc;
  Vec                 x, xexact, F0;
  SNESConvergedReason reason;
  PetscInt            its, lits, lo, hi;
  PetscReal           err, f0;
  const char         *flag;
  char                opt[64];

  PetscFunctionBeginUser;
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetDM(snes, da));
  PetscCall(SNESSetType(snes, SNESKINSOL));
  PetscCall(PetscOptionsSetValue(NULL, "-snes_kinsol_strategy", strategy));
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "%" PetscInt_FMT, maa));
  PetscCall(PetscOptionsSetValue(NULL, "-snes_kinsol_maa", opt));
  if (user->tcase == CASE_MAXIT) PetscCall(SNESSetTolerances(snes, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT, 2, PETSC_DEFAULT));
  else PetscCall(SNESSetTolerances(snes, PETSC_DEFAULT, 1e-12, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  /* exact linear solves on any number of ranks: the iteration counts do not depend on the partition */
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCREDUNDANT));
  PetscCall(SNESSetFromOptions(snes));
  PetscCall(DMCreateGlobalVector(da, &x));
  PetscCall(VecSet(x, x0));
  user->ncalls = 0;
  PetscCall(VecDuplicate(x, &F0));
  PetscCall(SNESComputeFunction(snes, x, F0));
  PetscCall(VecNorm(F0, NORM_INFINITY, &f0));
  PetscCall(VecDestroy(&F0));
  user->ncalls = 0;
  PetscCall(SNESSolve(snes, NULL, x));
  PetscCall(SNESGetConvergedReason(snes, &reason));
  PetscCall(SNESGetIterationNumber(snes, &its));
  PetscCall(SNESGetLinearSolveIterations(snes, &lits));
  PetscCall(SNESKINSOLGetReturnFlag(snes, NULL, &flag));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s after %" PetscInt_FMT " iterations (%" PetscInt_FMT " linear); KINSOL %s\n", strategy, reason == SNES_DIVERGED_FUNCTION_NANORINF ? "Inf or NaN in the function" : SNESConvergedReasons[reason], its, lits, flag));
  if (user->check != CHECK_NONE) {
    PetscReal rtol, atol, fnorm;
    Vec       F;

    PetscCall(SNESGetTolerances(snes, &atol, &rtol, NULL, NULL, NULL));
    PetscCall(SNESGetFunction(snes, &F, NULL, NULL));
    PetscCall(VecNorm(F, NORM_INFINITY, &fnorm));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: converged with max|F(x)| <= max(rtol max|F(x0)|, atol): %s\n", strategy, reason > 0 && fnorm <= PetscMax(rtol * f0, atol) ? "yes" : "no"));
  }
  if (user->check == CHECK_SOLUTION) {
    PetscScalar *xe;

    PetscCall(VecDuplicate(x, &xexact));
    PetscCall(VecGetOwnershipRange(xexact, &lo, &hi));
    PetscCall(VecGetArrayWrite(xexact, &xe));
    for (PetscInt i = lo; i < hi; i++) xe[i - lo] = PetscSinReal((PetscReal)(i + 1));
    PetscCall(VecRestoreArrayWrite(xexact, &xe));
    PetscCall(VecAXPY(xexact, -1, x));
    PetscCall(VecNorm(xexact, NORM_INFINITY, &err));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: |x - x*| < 1e-10: %s\n", strategy, err < 1e-10 ? "yes" : "no"));
    PetscCall(VecDestroy(&xexact));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(SNESDestroy(&snes));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  AppCtx    user = {CASE_SOLVE, CHECK_SOLUTION, 0, 4};
  DM        da;
  char     *strategies[4];
  PetscInt  n = 8, maa = 3, nstrategies = 4;
  PetscBool flg;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "SNESKINSOL test options", NULL);
  PetscCall(PetscOptionsEnum("-case", "What to run", NULL, Cases, (PetscEnum)user.tcase, (PetscEnum *)&user.tcase, NULL));
  PetscCall(PetscOptionsInt("-n", "Number of unknowns", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-maa", "Anderson depth of picard and fp", NULL, maa, &maa, NULL));
  PetscCall(PetscOptionsEnum("-check", "What a converged solve must satisfy", NULL, Checks, (PetscEnum)user.check, (PetscEnum *)&user.check, NULL));
  PetscCall(PetscOptionsInt("-error_after", "-case error: the function fails after this many calls", NULL, user.errorafter, &user.errorafter, NULL));
  PetscCall(PetscOptionsStringArray("-strategies", "KINSOL strategies", NULL, strategies, &nstrategies, &flg));
  PetscOptionsEnd();
  if (!flg) {
    const char *all[] = {"newton", "linesearch", "picard", "fp"};

    for (PetscInt s = 0; s < 4; s++) PetscCall(PetscStrallocpy(all[s], &strategies[s]));
    nstrategies = 4;
  }
  PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, n, 1, 1, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMDASNESSetFunctionLocal(da, INSERT_VALUES, (DMDASNESFunction)FormFunctionLocal, &user));
  PetscCall(DMDASNESSetJacobianLocal(da, (DMDASNESJacobian)FormJacobianLocal, &user));
  for (PetscInt s = 0; s < nstrategies; s++) {
    PetscCall(Solve(da, &user, strategies[s], maa, user.tcase == CASE_MAXIT ? 10 : (user.tcase == CASE_NOROOT ? 0.5 : 0)));
    PetscCall(PetscFree(strategies[s]));
  }
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: kinsol !complex

  # every strategy from x = 0 to x* (rtol 1e-12), the same counts on 1 and 2 ranks
  test:
    suffix: solve
    requires: kinsol
    nsize: {{1 2}}
    output_file: output/sneskinsol_solve.out

  # SNESSetTolerances() reaches KINSOL: rtol 1e-4 stops Newton earlier (fnormtol max(rtol, atol/fs)), stol 0.5 stops it
  # on its scaled step (KIN_STEP_LT_STPTOL, SNES_CONVERGED_SNORM_RELATIVE), max_it 2 at 2 iterations (-case maxit)
  test:
    suffix: rtol
    requires: kinsol
    nsize: 2
    args: -strategies newton -snes_rtol 1e-4 -check residual
  test:
    suffix: stol
    requires: kinsol
    nsize: 2
    args: -strategies newton -snes_stol 0.5 -check none

  # failures, each mapped to its SNESConvergedReason, on 2 ranks
  testset:
    requires: kinsol
    nsize: 2
    args: -check none
    test:
      suffix: maxit
      args: -case maxit -strategies newton,linesearch
    test:
      suffix: nan
      args: -case nan -strategies linesearch,fp
    test:
      suffix: noroot
      args: -case noroot -strategies linesearch
    test:
      suffix: singular
      args: -case singular -strategies newton,fp

  # a PETSc error inside a KINSOL callback comes back as that error, raised again after KINSol() returns
  test:
    suffix: error
    requires: kinsol
    nsize: 2
    args: -case error -strategies linesearch -error_after 4 -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep -E "^\[0\].*(deliberate|KINSOLCallbackError)" | sed -e "s/[^ ]* KINSOLCallbackError/KINSOLCallbackError/"

  # -snes_view shows the strategy, the Anderson depth, the tolerances and KINSOL's counters
  test:
    suffix: view
    requires: kinsol
    nsize: 2
    args: -strategies fp -snes_view
    filter: grep -E "type: kinsol|SUNDIALS KINSOL|Anderson|fixed point|fnormtol|KINSOL counters"

TEST*/
