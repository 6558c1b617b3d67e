static char help[] = "TS_LINEAR through the I2 door on the SNES path: a chain of -n unit masses with fixed ends, springs k(t) and a\n"
                     "damper c on every mass, M a + c v + k(t) K u = 0, with k = 1 until -tswitch and 2 after (-tswitch 0: never).\n"
                     "Declared TS_LINEAR, a step is one linear solve whose Jacobian is assembled (and factored) again only when it\n"
                     "changed: with constant springs once per run, whatever the number of steps (the last step, cut by round-off to\n"
                     "end at T, included), so the user's I2 Jacobian is called as often over 10 steps as over 20; with springs that\n"
                     "stiffen once, once more. Either way the run must give the trajectory of the same run as TS_NONLINEAR.\n"
                     "Options: -n <20> -c <0.1> -tswitch <0.55> -dt <0.1>\n\n";

#include <simpvi.h>

typedef struct {
  Mat       K;       /* the springs' stiffness for k = 1 */
  PetscReal c;       /* damping */
  PetscReal tswitch; /* k = 2 from here on (0: never) */
  PetscInt  jacobians;
} Chain;

static PetscReal Stiffness(const Chain *ch, PetscReal t)
{
  return ch->tswitch > 0 && t >= ch->tswitch ? 2 : 1;
}

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  Chain *ch = (Chain *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatMult(ch->K, U, F));
  PetscCall(VecAXPBYPCZ(F, 1, ch->c, Stiffness(ch, t), A, V));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  Chain *ch = (Chain *)ctx;

  PetscFunctionBeginUser;
  ch->jacobians++;
  PetscCall(MatCopy(ch->K, P, SAME_NONZERO_PATTERN));
  PetscCall(MatScale(P, Stiffness(ch, t)));
  PetscCall(MatShift(P, shiftA + ch->c * shiftV));
  PetscFunctionReturn(0);
}

/* u(T) into X, from a sine mode at rest; the user's I2 Jacobian calls during TSSolve() */
static PetscErrorCode Run(Chain *ch, PetscInt n, PetscReal dt, PetscInt steps, TSProblemType type, Vec X, PetscInt *jacobians)
{
  TS       ts;
  Vec      V;
  Mat      J;
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(ch->K, MAT_DO_NOT_COPY_VALUES, &J));
  PetscCall(VecDuplicate(X, &V));
  PetscCall(VecSet(V, 0));
  PetscCall(VecGetOwnershipRange(X, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(VecSetValue(X, i, PetscSinReal(PETSC_PI * (i + 1) / (n + 1)), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(X));
  PetscCall(VecAssemblyEnd(X));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetProblemType(ts, type));
  PetscCall(TSSetI2Function(ts, NULL, I2Function, ch));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, ch));
  PetscCall(TS2SetSolution(ts, X, V));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, steps * dt)); /* the sum of the steps ends short of it by round-off: a last step cut */
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSetUp(ts));
  ch->jacobians = 0;
  PetscCall(TSSolve(ts, X));
  *jacobians = ch->jacobians;
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&V));
  PetscCall(MatDestroy(&J));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Chain     ch = {NULL, 0.1, 0.55, 0};
  PetscInt  n  = 20, lo, hi, jl10, jl20, jn, js;
  PetscReal dt = 0.1, diff;
  Vec       lin, nonlin;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "TS_LINEAR chain options", NULL);
  PetscCall(PetscOptionsInt("-n", "Masses", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-c", "Damping", NULL, ch.c, &ch.c, NULL));
  PetscCall(PetscOptionsReal("-tswitch", "Time the springs stiffen (0: never)", NULL, ch.tswitch, &ch.tswitch, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscOptionsEnd();
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 1, NULL, &ch.K));
  PetscCall(MatGetOwnershipRange(ch.K, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    if (i > 0) PetscCall(MatSetValue(ch.K, i, i - 1, -1, INSERT_VALUES));
    PetscCall(MatSetValue(ch.K, i, i, 2, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(ch.K, i, i + 1, -1, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(ch.K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(ch.K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(ch.K, &lin, NULL));
  PetscCall(VecDuplicate(lin, &nonlin));

  {
    const PetscReal tswitch = ch.tswitch;

    ch.tswitch = 0; /* constant springs */
    PetscCall(Run(&ch, n, dt, 10, TS_LINEAR, lin, &jl10));
    PetscCall(Run(&ch, n, dt, 20, TS_LINEAR, lin, &jl20));
    PetscCall(Run(&ch, n, dt, 20, TS_NONLINEAR, nonlin, &jn));
    PetscCall(VecAXPY(nonlin, -1, lin));
    PetscCall(VecNorm(nonlin, NORM_INFINITY, &diff));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Constant springs, TS_LINEAR: %" PetscInt_FMT " I2 Jacobian calls over 10 steps, %" PetscInt_FMT " over 20\n", jl10, jl20));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Step Jacobian assembled once per run: %s\n", jl10 == jl20 && jl10 > 0 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TS_LINEAR agrees with the nonlinear solve to 1e-10: %s\n", diff < 1e-10 ? "yes" : "no"));

    ch.tswitch = tswitch;
    PetscCall(Run(&ch, n, dt, 20, TS_LINEAR, lin, &js));
    PetscCall(Run(&ch, n, dt, 20, TS_NONLINEAR, nonlin, &jn));
    PetscCall(VecAXPY(nonlin, -1, lin));
    PetscCall(VecNorm(nonlin, NORM_INFINITY, &diff));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Springs stiffening at t = %g, TS_LINEAR: %" PetscInt_FMT " I2 Jacobian calls over 20 steps\n", (double)ch.tswitch, js));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Step Jacobian assembled again after the change: %s\n", js > jl20 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TS_LINEAR agrees with the nonlinear solve to 1e-10: %s\n", diff < 1e-10 ? "yes" : "no"));
  }
  PetscCall(VecDestroy(&lin));
  PetscCall(VecDestroy(&nonlin));
  PetscCall(MatDestroy(&ch.K));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex

  # Newton on the nonlinear runs stops on its update (stol), at round-off
  testset:
    args: -snes_rtol 1e-14
    test:
      suffix: simpson
    test:
      suffix: simpson_2
      nsize: 2
    test:
      suffix: lobatto4
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 4
    test:
      suffix: newtonls
      args: -snes_type newtonls

TEST*/
