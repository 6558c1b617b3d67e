static char help[] = "Error paths of TSSIMPVI: each misuse must stop with a PETSc error that says what is wrong (or, with\n"
                     "-ts_error_if_step_fails 0, end TSSolve() with TS_DIVERGED_NONLINEAR_SOLVE), never hang or crash.\n"
                     "A Duffing oscillator q'' + k q + c q^3 = 0 through the mechanical door, broken as -case says:\n"
                     "  none      a correct run (the other cases are measured against it)\n"
                     "  nodoor    no Lagrangian, mechanical system or I2 function\n"
                     "  nohessian the Lagrangian door without TSSimpVISetLagrangianHessian()\n"
                     "  badmass   a 3 x 3 mass matrix for 2 positions\n"
                     "  nan       a potential gradient that returns NaN after t = 0.25\n"
                     "  stiff     c = 1e6 and a step far beyond the stability bound\n"
                     "Options: -case <none> -dt <0.1> -steps <10>\n\n";

#include <simpvi.h>

typedef enum {
  CASE_NONE,
  CASE_NODOOR,
  CASE_NOHESSIAN,
  CASE_BADMASS,
  CASE_NAN,
  CASE_STIFF
} Case;
static const char *const Cases[] = {"none", "nodoor", "nohessian", "badmass", "nan", "stiff", "Case", "CASE_", NULL};

typedef struct {
  Case      which;
  PetscReal k, c;
} AppCtx;

static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  *V = 0;
  for (PetscInt i = 0; i < 2; i++) {
    PetscReal q = PetscRealPart(xx[i]);

    *V += user->k * q * q / 2 + user->c * q * q * q * q / 4;
    gg[i] = user->k * q + user->c * q * q * q;
  }
  if (user->which == CASE_NAN && t > 0.25) gg[0] = NAN;
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xx;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  for (PetscInt i = 0; i < 2; i++) PetscCall(MatSetValue(H, i, i, user->k + 3 * user->c * PetscRealPart(xx[i] * xx[i]), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* L = |v|^2/2 - V, for the Lagrangian-door case that forgets its Hessian */
static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  PetscReal   V;
  PetscScalar vv;

  PetscFunctionBeginUser;
  PetscCall(Potential(ts, t, x, &V, Lx, ctx));
  PetscCall(VecScale(Lx, -1));
  PetscCall(VecCopy(v, Lv));
  PetscCall(VecDot(v, v, &vv));
  *L = PetscRealPart(vv) / 2 - V;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  AppCtx            user  = {CASE_NONE, 1.0, 1.0};
  PetscReal         dt    = 0.1;
  PetscInt          steps = 10, nmass = 2;
  TS                ts;
  Mat               M, H;
  Vec               U;
  PetscScalar      *u;
  TSConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Error path options", NULL);
  PetscCall(PetscOptionsEnum("-case", "What to break", NULL, Cases, (PetscEnum)user.which, (PetscEnum *)&user.which, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsInt("-steps", "Number of steps", NULL, steps, &steps, NULL));
  PetscOptionsEnd();
  if (user.which == CASE_STIFF) user.c = 1e6;
  if (user.which == CASE_BADMASS) nmass = 3;

  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, nmass, nmass, 1, NULL, &M));
  for (PetscInt i = 0; i < nmass; i++) PetscCall(MatSetValue(M, i, i, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 1, NULL, &H));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  switch (user.which) {
  case CASE_NODOOR:
    break;
  case CASE_NOHESSIAN:
    PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, &user));
    break;
  default:
    PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
    PetscCall(TSSimpVISetPotential(ts, H, Potential, PotentialHessian, &user));
  }
  /* q = (1, -0.5), p = (0, 0.3) */
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  u[0] = 1.0;
  u[1] = -0.5;
  u[2] = 0.0;
  u[3] = 0.3;
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  /* reached only when TSSolve() returns */
  PetscCall(TSGetConvergedReason(ts, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TSSolve() returned with reason %s\n", TSConvergedReasons[reason]));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # the error's message lines only: no stack (function names and files change), no option table
  testset:
    args: -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep "PETSC ERROR" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"
    test:
      suffix: nodoor
      args: -case nodoor
    test:
      suffix: nohessian
      args: -case nohessian
    test:
      suffix: badmass
      args: -case badmass
    test:
      suffix: nan
      args: -case nan
    test:
      suffix: stiff
      args: -case stiff -dt 1
    test:
      suffix: negative_dt
      args: -ts_dt -0.1
    test:
      suffix: unknown_scheme
      args: -ts_simpvi_type nope
    test:
      suffix: degree_incompatible
      args: -ts_simpvi_type simpson -ts_simpvi_degree 3
    test:
      suffix: degree_range
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 0
    test:
      suffix: adapt
      args: -ts_adapt_type basic

  # the same run that works, and the failed step reported through the converged reason instead of an error
  test:
    suffix: none
  test:
    suffix: stiff_noerror
    args: -case stiff -dt 1 -ts_error_if_step_fails 0

TEST*/
