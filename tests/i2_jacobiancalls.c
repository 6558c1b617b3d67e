static char help[] = "The user's I2 Jacobian calls per Newton iteration of the I2 door: a chain of -n unit masses on unit springs with\n"
                     "fixed ends and a cubic on-site force, M a + K u + b u^3 + c(t) v = 0, declared TS_NONLINEAR, with a damper\n"
                     "c on every mass from t = -ton on (-c 0: none; -ton 0: from the start). The step's Jacobian needs K = dF/dU at the\n"
                     "quadrature points inside the step and C = dF/dV where F depends on v: one call of the user's Jacobian per point\n"
                     "where F does not see v (Simpson: one a Newton iteration, as TSALPHA2), two where it does. The calls and Newton\n"
                     "iterations are counted step by step (the first step, which reads M, aside) and printed as their ratio, before\n"
                     "and after the damper engages; the run must also end where the same chain ends under -snes_mf_operator (whose\n"
                     "operator is the residual's own derivative), to the Newton tolerance. The tests run Newton with a new step\n"
                     "Jacobian at every iteration (-ts_simpvi_lag_jacobian false).\n"
                     "-fresh: the Jacobian's matrix made by MatCreateAIJ() with no pattern until the user's first fill.\n"
                     "Options: -n <12> -b <0.5> -c <0> -ton <0> -dt <0.1> -steps <20> -fresh\n\n";

#include <simpvi.h>

typedef struct {
  Mat       K; /* the springs */
  PetscReal b, c, ton;
  PetscBool fresh;                    /* the Jacobian's matrix preallocated only (no pattern until the first fill) */
  PetscInt  jacobians;                /* the user's I2 Jacobian calls */
  PetscInt  lastjac, lastits;         /* at the end of the previous step */
  PetscInt  ratio[2];                 /* calls per iteration before and after the damper engages; -1: none seen */
  PetscBool integral[2], constant[2]; /* each step's calls a multiple of its iterations; the same multiple */
} Chain;

static PetscReal Damping(const Chain *ch, PetscReal t)
{
  return t >= ch->ton ? ch->c : 0;
}

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  Chain             *ch = (Chain *)ctx;
  const PetscScalar *u, *v;
  PetscScalar       *f;
  PetscInt           n;
  const PetscReal    c = Damping(ch, t);

  PetscFunctionBeginUser;
  PetscCall(MatMultAdd(ch->K, U, A, F));
  PetscCall(VecGetLocalSize(U, &n));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArray(F, &f));
  for (PetscInt i = 0; i < n; i++) f[i] += ch->b * u[i] * u[i] * u[i];
  PetscCall(VecRestoreArrayRead(U, &u));
  if (c != 0) { /* an undamped F does not read v at all */
    PetscCall(VecGetArrayRead(V, &v));
    for (PetscInt i = 0; i < n; i++) f[i] += c * v[i];
    PetscCall(VecRestoreArrayRead(V, &v));
  }
  PetscCall(VecRestoreArray(F, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  Chain             *ch = (Chain *)ctx;
  const PetscScalar *u;
  PetscInt           lo, hi, n;

  PetscFunctionBeginUser;
  ch->jacobians++;
  PetscCall(MatGetSize(P, &n, NULL));
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt i = lo; i < hi; i++) { /* K's row, its diagonal shifted: every entry set, as into a matrix with no pattern yet */
    PetscInt    cols[3], k = 0;
    PetscScalar vals[3];

    if (i > 0) {
      cols[k]   = i - 1;
      vals[k++] = -1;
    }
    cols[k]   = i;
    vals[k++] = 2 + 3 * ch->b * u[i - lo] * u[i - lo] + shiftV * Damping(ch, t) + shiftA;
    if (i < n - 1) {
      cols[k]   = i + 1;
      vals[k++] = -1;
    }
    PetscCall(MatSetValues(P, 1, &i, k, cols, vals, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* the calls and Newton iterations of the step just taken, against those of the steps before */
static PetscErrorCode PostStep(TS ts)
{
  Chain    *ch;
  PetscInt  its, step, calls, dits;
  PetscReal tprev, t;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &ch));
  PetscCall(TSGetSNESIterations(ts, &its));
  PetscCall(TSGetStepNumber(ts, &step));
  PetscCall(TSGetPrevTime(ts, &tprev));
  PetscCall(TSGetTime(ts, &t));
  calls = ch->jacobians - ch->lastjac;
  dits  = its - ch->lastits;
  if (step > 1 && dits > 0 && (ch->c == 0 || tprev >= ch->ton || t < ch->ton)) { /* the first step also reads M; a step
                                                                                  across ton is neither */
    const PetscInt w = ch->c != 0 && tprev >= ch->ton ? 1 : 0;

    if (calls % dits) ch->integral[w] = PETSC_FALSE;
    else if (ch->ratio[w] < 0) ch->ratio[w] = calls / dits;
    else if (ch->ratio[w] != calls / dits) ch->constant[w] = PETSC_FALSE;
  }
  ch->lastjac = ch->jacobians;
  ch->lastits = its;
  PetscFunctionReturn(0);
}

static PetscErrorCode Run(Chain *ch, PetscInt n, PetscReal dt, PetscInt steps, PetscBool mfoperator, Vec X)
{
  TS       ts;
  Vec      V;
  Mat      J;
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  if (ch->fresh) PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 1, NULL, &J));
  else PetscCall(MatDuplicate(ch->K, MAT_DO_NOT_COPY_VALUES, &J));
  PetscCall(MatCreateVecs(ch->K, &V, NULL));
  PetscCall(VecSet(V, 0));
  PetscCall(VecGetOwnershipRange(V, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(VecSetValue(X, i, PetscSinReal(PETSC_PI * (i + 1) / (n + 1)), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(X));
  PetscCall(VecAssemblyEnd(X));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetProblemType(ts, TS_NONLINEAR));
  PetscCall(TSSetApplicationContext(ts, ch));
  PetscCall(TSSetI2Function(ts, NULL, I2Function, ch));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, ch));
  PetscCall(TS2SetSolution(ts, X, V));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetPostStep(ts, PostStep));
  PetscCall(TSSetFromOptions(ts));
  if (mfoperator) {
    SNES snes;

    PetscCall(TSGetSNES(ts, &snes));
    PetscCall(SNESSetUseMatrixFree(snes, PETSC_TRUE, PETSC_FALSE));
  }
  ch->jacobians = ch->lastjac = ch->lastits = 0;
  ch->ratio[0] = ch->ratio[1] = -1;
  ch->integral[0] = ch->integral[1] = ch->constant[0] = ch->constant[1] = PETSC_TRUE;
  PetscCall(TSSolve(ts, X));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&V));
  PetscCall(MatDestroy(&J));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Chain     ch = {.b = 0.5}; /* the counters are set by Run() */
  PetscInt  n = 12, steps = 20, lo, hi;
  PetscReal dt = 0.1, diff, norm;
  Vec       X, Xmf;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "I2 Jacobian calls options", NULL);
  PetscCall(PetscOptionsInt("-n", "Masses", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-b", "Cubic on-site force", NULL, ch.b, &ch.b, NULL));
  PetscCall(PetscOptionsReal("-c", "Damping", NULL, ch.c, &ch.c, NULL));
  PetscCall(PetscOptionsReal("-ton", "Time the damper engages", NULL, ch.ton, &ch.ton, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsInt("-steps", "Steps", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsBool("-fresh", "The Jacobian's matrix preallocated only, its pattern made by the first fill", NULL, ch.fresh, &ch.fresh, NULL));
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
  PetscCall(MatCreateVecs(ch.K, &X, NULL));
  PetscCall(VecDuplicate(X, &Xmf));
  PetscCall(Run(&ch, n, dt, steps, PETSC_TRUE, Xmf));
  PetscCall(Run(&ch, n, dt, steps, PETSC_FALSE, X));
  for (PetscInt w = 0; w < 2; w++) {
    if (w == 0 && ch.c != 0 && ch.ton <= 0) continue;
    if (w == 1 && ch.c == 0) continue;
    if (ch.ratio[w] < 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: no step seen\n", w ? "Damped" : "Undamped"));
    else if (!ch.integral[w] || !ch.constant[w]) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s steps: I2 Jacobian calls per Newton iteration not one number\n", w ? "Damped" : "Undamped"));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s steps: %" PetscInt_FMT " I2 Jacobian calls per Newton iteration\n", w ? "Damped" : "Undamped", ch.ratio[w]));
  }
  PetscCall(VecNorm(X, NORM_INFINITY, &norm));
  PetscCall(VecAXPY(Xmf, -1, X));
  PetscCall(VecNorm(Xmf, NORM_INFINITY, &diff));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "The end agrees with -snes_mf_operator's to 1e-8: %s\n", diff <= 1e-8 * norm ? "yes" : "no"));
  PetscCall(VecDestroy(&X));
  PetscCall(VecDestroy(&Xmf));
  PetscCall(MatDestroy(&ch.K));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex

  # a new step Jacobian at every Newton iteration (simplified Newton, the default, keeps it: no call at most iterations)
  testset:
    args: -snes_rtol 1e-12 -ts_simpvi_lag_jacobian false
    test:
      suffix: simpson
    test:
      suffix: simpson_2
      nsize: 2
    test:
      suffix: lobatto3
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 3
    test:
      suffix: damped
      args: -c 0.2
    test:
      suffix: damped_fresh
      args: -c 0.2 -fresh
      output_file: output/i2_jacobiancalls_damped.out
    test:
      suffix: damper_engages
      args: -c 0.2 -ton 0.95
    test:
      suffix: damper_engages_lobatto3
      args: -c 0.2 -ton 0.95 -ts_simpvi_type lobatto -ts_simpvi_degree 3

TEST*/
