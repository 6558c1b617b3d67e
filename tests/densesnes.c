static char help[] = "SNESSIMPVIDENSE (src/snes/dense.c), the dense Newton SNES type, on its own and as the TSSIMPVI step's solver.\n"
                     "-case generic: a 2 x 2 nonlinear system given only through SNESSetFunction()/SNESSetJacobian() (an AIJ\n"
                     "Jacobian, read through MatConvert(); -snes_mf: MatComputeOperator()), against newtonls with the basic line\n"
                     "search: the same root and the same iterations, then -snes_linesearch_damping 0.5 on both.\n"
                     "-case damping: the pendulum's steps (mechanical door, Simpson, 20 steps) on the dense path (the default) and\n"
                     "on newtonls with the basic line search, undamped and with -snes_linesearch_damping 0.5: the damping raises\n"
                     "both iteration counts, alike.\n"
                     "-case run: the same steps with whatever options are given (-snes_monitor, -ts_view), printing the SNES type.\n\n";

#include <simpvi.h>
#include "../examples/models/pendulum.h"

/* the line search of full steps: "none" in PETSc main, "basic" before */
#if PETSC_VERSION_LT(3, 25, 0)
  #define FULLSTEPS SNESLINESEARCHBASIC
#else
  #define FULLSTEPS SNESLINESEARCHNONE
#endif

/* F(x) = (x0^2 + x1 - 11, x0 + x1^2 - 7): a root at (3, 2) */
static PetscErrorCode Function(SNES snes, Vec X, Vec F, void *ctx)
{
  const PetscScalar *x;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArrayWrite(F, &f));
  f[0] = x[0] * x[0] + x[1] - 11;
  f[1] = x[0] + x[1] * x[1] - 7;
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode Jacobian(SNES snes, Vec X, Mat J, Mat P, void *ctx)
{
  const PetscScalar *x;
  PetscInt           idx[2] = {0, 1};
  PetscScalar        v[4];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(X, &x));
  v[0] = 2 * x[0];
  v[1] = 1;
  v[2] = 1;
  v[3] = 2 * x[1];
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(MatSetValues(P, 2, idx, 2, idx, v, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* The generic system from (1, 1) with the SNES type, full or damped steps; mf: -snes_mf */
static PetscErrorCode SolveGeneric(SNESType type, PetscReal damping, PetscBool mf, PetscInt *its, PetscReal *err, SNESConvergedReason *reason)
{
  SNES               snes;
  SNESLineSearch     ls;
  Vec                x, r;
  Mat                J;
  const PetscScalar *xx;

  PetscFunctionBeginUser;
  PetscCall(SNESCreate(PETSC_COMM_SELF, &snes));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &x));
  PetscCall(VecDuplicate(x, &r));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, &J));
  PetscCall(SNESSetFunction(snes, r, Function, NULL));
  PetscCall(SNESSetJacobian(snes, J, J, Jacobian, NULL));
  PetscCall(SNESSetType(snes, type));
  PetscCall(SNESSetTolerances(snes, 1e-12, 1e-12, 0, 50, 1000));
  PetscCall(SNESGetLineSearch(snes, &ls));
  PetscCall(SNESLineSearchSetType(ls, FULLSTEPS));
  PetscCall(SNESLineSearchSetDamping(ls, damping));
  if (mf) PetscCall(SNESSetUseMatrixFree(snes, PETSC_TRUE, PETSC_FALSE));
  {
    KSP ksp;
    PC  pc;

    PetscCall(SNESGetKSP(snes, &ksp)); /* newtonls: a direct solve, as the dense type's */
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, mf ? PCNONE : PCLU));
    if (mf) PetscCall(KSPSetType(ksp, KSPGMRES));
    PetscCall(KSPSetTolerances(ksp, 1e-14, 1e-14, PETSC_DEFAULT, PETSC_DEFAULT));
  }
  PetscCall(VecSet(x, 1));
  PetscCall(SNESSolve(snes, NULL, x));
  PetscCall(SNESGetIterationNumber(snes, its));
  PetscCall(SNESGetConvergedReason(snes, reason));
  PetscCall(VecGetArrayRead(x, &xx));
  *err = PetscMax(PetscAbsScalar(xx[0] - 3), PetscAbsScalar(xx[1] - 2));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&r));
  PetscCall(SNESDestroy(&snes));
  PetscFunctionReturn(0);
}

/* 20 Simpson steps of the pendulum (mechanical door); type: NULL for TSSIMPVI's default, damping through the options */
static PetscErrorCode Pendulum(SNESType type, const char damping[], PetscInt *its, char used[32])
{
  TS          ts;
  SNES        snes;
  Vec         U;
  Mat         M, H;
  PetscScalar u[2]   = {1, 0.5};
  PetscInt    idx[2] = {0, 1};
  SNESType    t;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, TSSIMPVISIMPSON));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &M));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &H));
  PetscCall(MatSetValue(M, 0, 0, 1, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, H, Potential, PotentialHessian, NULL));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
  PetscCall(VecSetValues(U, 2, idx, u, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, 0.2));
  PetscCall(TSSetMaxSteps(ts, 20));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (type) {
    PetscCall(PetscOptionsSetValue(NULL, "-snes_type", type));
    PetscCall(PetscOptionsSetValue(NULL, "-snes_linesearch_type", FULLSTEPS));
  }
  if (damping) PetscCall(PetscOptionsSetValue(NULL, "-snes_linesearch_damping", damping));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(PetscOptionsClearValue(NULL, "-snes_type"));
  PetscCall(PetscOptionsClearValue(NULL, "-snes_linesearch_type"));
  PetscCall(PetscOptionsClearValue(NULL, "-snes_linesearch_damping"));
  PetscCall(TSGetSNESIterations(ts, its));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetType(snes, &t));
  PetscCall(PetscStrncpy(used, t, 32));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      kase[32] = "generic";
  PetscBool same;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", kase, sizeof(kase), NULL));
  PetscCall(PetscStrcmp(kase, "generic", &same));
  if (same) {
    PetscInt            its[5];
    PetscReal           err[5];
    SNESConvergedReason reason[5];

    PetscCall(SolveGeneric(SNESSIMPVIDENSE, 1.0, PETSC_FALSE, &its[0], &err[0], &reason[0]));
    PetscCall(SolveGeneric(SNESNEWTONLS, 1.0, PETSC_FALSE, &its[1], &err[1], &reason[1]));
    PetscCall(SolveGeneric(SNESSIMPVIDENSE, 0.5, PETSC_FALSE, &its[2], &err[2], &reason[2]));
    PetscCall(SolveGeneric(SNESNEWTONLS, 0.5, PETSC_FALSE, &its[3], &err[3], &reason[3]));
    PetscCall(SolveGeneric(SNESSIMPVIDENSE, 1.0, PETSC_TRUE, &its[4], &err[4], &reason[4]));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "generic system, full steps: simpvidense converged to the root (1e-10): %s, newtonls too: %s, the same iterations: %s\n", reason[0] > 0 && err[0] < 1e-10 ? "yes" : "no", reason[1] > 0 && err[1] < 1e-10 ? "yes" : "no", its[0] == its[1] ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "generic system, damping 0.5: simpvidense converged: %s, newtonls too: %s, the same iterations: %s, more than with full steps: %s\n", reason[2] > 0 && err[2] < 1e-10 ? "yes" : "no", reason[3] > 0 && err[3] < 1e-10 ? "yes" : "no", its[2] == its[3] ? "yes" : "no", its[2] > its[0] ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "generic system, -snes_mf (MatComputeOperator()): simpvidense converged: %s, the same iterations: %s\n", reason[4] > 0 && err[4] < 1e-10 ? "yes" : "no", its[4] == its[0] ? "yes" : "no"));
  }
  PetscCall(PetscStrcmp(kase, "damping", &same));
  if (same) {
    PetscInt dense, dense5, newton, newton5;
    char     t[4][32];

    PetscCall(Pendulum(NULL, NULL, &dense, t[0]));
    PetscCall(Pendulum(NULL, "0.5", &dense5, t[1]));
    PetscCall(Pendulum(SNESNEWTONLS, NULL, &newton, t[2]));
    PetscCall(Pendulum(SNESNEWTONLS, "0.5", &newton5, t[3]));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "pendulum steps: the default SNES is %s, %s (undamped, damped), the chosen one %s, %s\n", t[0], t[1], t[2], t[3]));
    /* (the dense path accepts an update without the residual after it, its end momentum equal to newtonls's to round-off
       only: a step's iterations may differ by one now and then) */
    PetscCall(PetscInfo(NULL, "iterations %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT "\n", dense, dense5, newton, newton5));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "-snes_linesearch_damping 0.5 raises the dense path's iterations: %s, newtonls's: %s; the two paths take the same iterations (to 2 in 20 steps), undamped: %s, damped: %s\n", dense5 > dense ? "yes" : "no", newton5 > newton ? "yes" : "no", PetscAbsInt(dense - newton) <= 2 ? "yes" : "no", PetscAbsInt(dense5 - newton5) <= 2 ? "yes" : "no"));
  }
  PetscCall(PetscStrcmp(kase, "run", &same));
  if (same) {
    PetscInt its;
    char     t[32];

    PetscCall(Pendulum(NULL, NULL, &its, t));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "pendulum steps solved by SNES type %s\n", t));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    args: -case generic -malloc_dump

  test:
    suffix: damping
    args: -case damping -malloc_dump

  # -snes_monitor prints on the dense path (its lines counted)
  test:
    suffix: monitor
    args: -case run -snes_monitor
    filter: awk '/SNES Function norm/ {n++} /solved by SNES type/ {t = $NF} END {print "type", t, "monitor lines:", (n > 20) ? "yes" : "no"}'

  # a line search that multiplies by the Jacobian matrix (bt's slope) on the dense path: the matrix is filled for it
  # (it was left empty by the array functions: "Not for unassembled matrix")
  test:
    suffix: linesearch_bt
    args: -case run -snes_linesearch_type bt -malloc_dump

  # -ts_view shows the SNES type that solves the steps, once
  test:
    suffix: view
    args: -case run -ts_view
    filter: grep -E "Step solved|type: simpvi|solved by SNES type"

TEST*/
