static char help[] = "Linear stability of TSSIMPVI: a chain of n unit masses and unit springs between fixed ends, V = k(t)/2 q'L q\n"
                     "(L the 1-D Laplacian, k(t) = 1 + stiffen t^2), omega_max = 2 sqrt(k) sin(n pi / (2(n+1))), started from one\n"
                     "displaced mass (every mode). The step is h = ratio / omega_max(0). Beyond a scheme's bound (trapezoid 2,\n"
                     "simpson 2 sqrt 2, lobatto 3.11; midpoint and gauss have none) the run must stop with an error giving the bound\n"
                     "and the largest stable step, not blow up silently; with -ts_simpvi_check_stability_warn it warns once and\n"
                     "goes on. With -stiffen the chain stiffens in time beyond the bound: the per-step growth check stops it.\n"
                     "With -oscillate a, k(t) = (1 + a sin 3t) / (1 + a): beyond the bound for part of each period only, the\n"
                     "state grows slowly; the estimate made again after a growth by 1e3 stops it. With -resolve k2, the TS solves\n"
                     "again from step 0 and the start with k scaled by k2 (a program's new stiffness): estimated again there.\n"
                     "Prints whether max |q| after the run is below 10 (it is 1 at the start).\n"
                     "With -schemes a,b,...: one run per scheme in this process, each with a new TS (the bounds are cached per\n"
                     "scheme table: each run's message must give its own scheme's bound).\n"
                     "Options: -n <20> -ratio <20> -steps <10> -stiffen <0> -schemes <list>\n\n";

#include <simpvi.h>
#include "../examples/phasesplit.h"

typedef struct {
  Mat       L;
  PetscReal stiffen, oscillate, scale, resolve;
} AppCtx;

static PetscReal Stiffness(AppCtx *user, PetscReal t)
{
  return user->scale * (1 + user->stiffen * t * t) * (1 + user->oscillate * PetscSinReal(3 * t)) / (1 + user->oscillate);
}

static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  AppCtx     *user = (AppCtx *)ctx;
  PetscScalar xg;

  PetscFunctionBeginUser;
  PetscCall(MatMult(user->L, x, g));
  PetscCall(VecScale(g, Stiffness(user, t)));
  PetscCall(VecDot(x, g, &xg));
  *V = 0.5 * PetscRealPart(xg);
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  AppCtx *user = (AppCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(MatCopy(user->L, H, SAME_NONZERO_PATTERN));
  PetscCall(MatScale(H, Stiffness(user, t)));
  PetscFunctionReturn(0);
}

/* One run of a new TS from the displaced mass (scheme NULL: the options') */
static PetscErrorCode Run(const char *scheme, Mat M, Mat K, AppCtx *user, PetscInt n, PetscInt lo, PetscInt hi, PetscReal h, PetscInt steps)
{
  TS           ts;
  Vec          U, q;
  PetscReal    qmax;
  PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, K, Potential, PotentialHessian, user));
  /* U = [q_local | p_local]: mass n/2 displaced by 1, at rest */
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 2 * (hi - lo), 2 * n, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  for (PetscInt i = lo; i < hi; i++) {
    u[i - lo]           = i == n / 2 ? 1 : 0;
    u[hi - lo + i - lo] = 0;
  }
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(PhaseSplitLocalHalves(ts, U));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (scheme) PetscCall(TSSimpVISetType(ts, scheme));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  if (user->resolve > 0) { /* the same TS again from step 0, the start, and a stiffer chain */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "first solve done; again with k scaled by %g\n", (double)user->resolve));
    PetscCall(VecGetArrayWrite(U, &u));
    for (PetscInt i = lo; i < hi; i++) {
      u[i - lo]           = i == n / 2 ? 1 : 0;
      u[hi - lo + i - lo] = 0;
    }
    PetscCall(VecRestoreArrayWrite(U, &u));
    user->scale = user->resolve;
    PetscCall(TSSetTime(ts, 0));
    PetscCall(TSSetStepNumber(ts, 0));
    PetscCall(TSSetMaxSteps(ts, steps));
    PetscCall(TSSolve(ts, U));
    user->scale = 1;
  }

  {
    IS isq;

    PetscCall(TSRHSSplitGetIS(ts, "position", &isq));
    PetscCall(VecGetSubVector(U, isq, &q));
    PetscCall(VecNorm(q, NORM_INFINITY, &qmax));
    PetscCall(VecRestoreSubVector(U, isq, &q));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "max |q| after the run below 10: %s\n", qmax < 10 ? "yes" : "no"));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Mat       M, K;
  AppCtx    user = {NULL, 0, 0, 1, 0};
  PetscInt  n = 20, steps = 10, lo, hi, nschemes = 8;
  PetscReal ratio = 20, wmax;
  char     *schemes[8];
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-ratio", &ratio, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-stiffen", &user.stiffen, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-oscillate", &user.oscillate, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-resolve", &user.resolve, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-schemes", schemes, &nschemes, &set));
  if (!set) nschemes = 0;
  wmax = 2 * PetscSinReal(n * PETSC_PI / (2 * (n + 1)));

  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 1, NULL, &user.L));
  PetscCall(MatGetOwnershipRange(user.L, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscCall(MatSetValue(user.L, i, i, 2, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(user.L, i, i - 1, -1, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(user.L, i, i + 1, -1, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(user.L, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(user.L, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDuplicate(user.L, MAT_COPY_VALUES, &K));
  PetscCall(MatDuplicate(user.L, MAT_DO_NOT_COPY_VALUES, &M));
  for (PetscInt i = lo; i < hi; i++) PetscCall(MatSetValue(M, i, i, 1, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));

  if (!nschemes) PetscCall(Run(NULL, M, K, &user, n, lo, hi, ratio / wmax, steps));
  for (PetscInt i = 0; i < nschemes; i++) {
    PetscCall(Run(schemes[i], M, K, &user, n, lo, hi, ratio / wmax, steps));
    PetscCall(PetscFree(schemes[i]));
  }
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&user.L));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # h*omega_max = 20: an error with the bound and the largest stable step, on 1 and 2 processes (before: max |q| > 10
  # after 3 steps, silently)
  testset:
    args: -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep "PETSC ERROR" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"
    test:
      suffix: beyond_trapezoid
      nsize: {{1 2}}
      args: -ts_simpvi_type trapezoid -steps 3
    test:
      suffix: beyond_simpson
      nsize: {{1 2}}
      args: -ts_simpvi_type simpson -steps 3
    test:
      suffix: beyond_lobatto
      nsize: {{1 2}}
      args: -ts_simpvi_type lobatto -steps 3
    # the chain stiffens in time (h*omega_max = 1 at the start): the state's growth by 1e3 has omega_max estimated again,
    # beyond the bound now: it stops there (the per-step growth check stopped it two steps later)
    test:
      suffix: stiffen
      args: -ratio 1 -stiffen 200 -steps 40 -ts_simpvi_type simpson
    # it stiffens faster: the same (the step solve failed first once, with the bound in its message)
    test:
      suffix: stiffen_fast
      args: -ratio 1 -stiffen 2000 -steps 40 -ts_simpvi_type simpson
    # beyond the bound for part of each period (h*omega_max from 0.6 to 2.9 against 2.83): a slow growth (once silent,
    # a state 1e9 times its start), stopped where omega_max estimated again after a growth by 1e3 is beyond the bound
    test:
      suffix: oscillate
      args: -ratio 2.9 -oscillate 0.7 -steps 3000 -ts_simpvi_type simpson
    # the same TS solved again from step 0 with a 16 times stiffer chain (h*omega_max 0.9, then 3.6): refused at its
    # first step (once: estimated at the first solve only, and the second solve blew up silently)
    test:
      suffix: resolve
      nsize: {{1 2}}
      args: -ratio 0.9 -resolve 16 -steps 200 -ts_simpvi_type simpson

  # the bounds are cached per scheme table: five TS in one process, each warning with its own scheme's bound
  test:
    suffix: warn_schemes
    args: -ts_simpvi_check_stability_warn -steps 1 -schemes trapezoid,simpson,lobatto,simpson,gauss,trapezoid,gauss,lobatto

  # warn only: the run goes on and blows up
  test:
    suffix: warn
    args: -ts_simpvi_type simpson -ts_simpvi_check_stability_warn -steps 3

  # within the bounds (95 %), or unconditionally stable schemes at h*omega_max = 20: no error, no growth
  test:
    suffix: within_trapezoid
    args: -steps 200 -ts_simpvi_type trapezoid -ratio 1.9
    output_file: output/stability_within.out
  test:
    suffix: within_simpson
    args: -steps 200 -ts_simpvi_type simpson -ratio 2.68
    output_file: output/stability_within.out
  test:
    suffix: within_lobatto
    args: -steps 200 -ts_simpvi_type lobatto -ratio 2.95
    output_file: output/stability_within.out
  test:
    suffix: unconditional
    args: -ts_simpvi_type {{midpoint gauss}}
    output_file: output/stability_within.out

TEST*/
