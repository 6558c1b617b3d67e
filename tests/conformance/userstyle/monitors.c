static char help[] = "What a user's hooks see, written for TSALPHA2 as a PETSc user writes it: -n independent driven oscillators\n"
                     "u_i'' + w_i^2 u_i = f sin(2t) (TSSetI2Function(), MatCreateAIJ(), global MatSetValues()). A monitor reads U and\n"
                     "V (TS2GetSolution()) after every step and, with -interpolate, TSInterpolate() at a time inside the step just taken;\n"
                     "a post-step (TSSetPostStep()) reverses V after the step that ends at -kick <t> (and U too with -kick_u): the motion from there on is\n"
                     "the exact one from the reversed state. Checks: the largest error of the monitor's U, V and interpolated U\n"
                     "against the exact motion, at the finest step and its observed order (-refine); the final state (-write,\n"
                     "-compare). Options: -n <6> -T <2> -dt <0.1> -f <1> -kick <t, none> -kick_u -interpolate -refine <1>\n\n";

#include <petscts.h>
#include "check.h"

typedef struct {
  PetscInt  n, rstart, kickstep, steps;
  PetscBool kick_u, interpolate;
  PetscReal f, t0, dt, kick;
  Vec       u0, v0, w;  /* the exact motion starts from (u0, v0) at t0; w the frequencies */
  PetscReal eu, ev, ei; /* largest errors of U, V at the steps and of TSInterpolate() */
  PetscInt  ninterp, nkicks;
} Ctx;

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *u, *a, *w;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayRead(c->w, &w));
  PetscCall(VecGetArrayWrite(F, &f));
  for (PetscInt i = 0; i < c->n; i++) f[i] = a[i] + w[i] * w[i] * u[i] - c->f * PetscSinReal(2 * t);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayRead(c->w, &w));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *w;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(c->w, &w));
  for (PetscInt i = 0; i < c->n; i++) PetscCall(MatSetValue(P, c->rstart + i, c->rstart + i, shiftA + w[i] * w[i], INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(c->w, &w));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* The exact motion from (u0, v0) at t0: the particular solution k sin(2t), k = f / (w^2 - 4), and the free motion */
static PetscErrorCode Exact(Ctx *c, PetscReal t, Vec U, Vec V)
{
  const PetscScalar *u0, *v0, *w;
  PetscScalar       *u, *v;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(c->u0, &u0));
  PetscCall(VecGetArrayRead(c->v0, &v0));
  PetscCall(VecGetArrayRead(c->w, &w));
  PetscCall(VecGetArrayWrite(U, &u));
  PetscCall(VecGetArrayWrite(V, &v));
  for (PetscInt i = 0; i < c->n; i++) {
    const PetscReal wi = PetscRealPart(w[i]), k = c->f / (wi * wi - 4), s = t - c->t0;
    const PetscReal a = PetscRealPart(u0[i]) - k * PetscSinReal(2 * c->t0), b = (PetscRealPart(v0[i]) - 2 * k * PetscCosReal(2 * c->t0)) / wi;

    u[i] = a * PetscCosReal(wi * s) + b * PetscSinReal(wi * s) + k * PetscSinReal(2 * t);
    v[i] = wi * (b * PetscCosReal(wi * s) - a * PetscSinReal(wi * s)) + 2 * k * PetscCosReal(2 * t);
  }
  PetscCall(VecRestoreArrayRead(c->u0, &u0));
  PetscCall(VecRestoreArrayRead(c->v0, &v0));
  PetscCall(VecRestoreArrayRead(c->w, &w));
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(VecRestoreArrayWrite(V, &v));
  PetscFunctionReturn(0);
}

static PetscErrorCode MaxDiff(Vec X, Vec Y, PetscReal *d)
{
  Vec D;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(X, &D));
  PetscCall(VecWAXPY(D, -1, X, Y));
  PetscCall(VecNorm(D, NORM_INFINITY, d));
  PetscCall(VecDestroy(&D));
  PetscFunctionReturn(0);
}

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Ctx      *c = (Ctx *)ctx;
  Vec       X, V, Ue, Ve;
  PetscReal d;

  PetscFunctionBeginUser;
  PetscCall(TS2GetSolution(ts, &X, &V));
  PetscCall(VecDuplicate(U, &Ue));
  PetscCall(VecDuplicate(U, &Ve));
  PetscCall(Exact(c, t, Ue, Ve));
  PetscCall(MaxDiff(U, Ue, &d));
  c->eu = PetscMax(c->eu, d);
  PetscCall(MaxDiff(V, Ve, &d));
  c->ev = PetscMax(c->ev, d);
  /* a time inside the step just taken (not one whose end the post-step changed: its start is another motion's) */
  if (c->interpolate && step > 0 && step != c->kickstep) {
    const PetscReal ti = t - c->dt / 3;
    Vec             Ui;

    PetscCall(VecDuplicate(U, &Ui));
    PetscCall(TSInterpolate(ts, ti, Ui));
    PetscCall(Exact(c, ti, Ue, Ve));
    PetscCall(MaxDiff(Ui, Ue, &d));
    c->ei = PetscMax(c->ei, d);
    c->ninterp++;
    PetscCall(VecDestroy(&Ui));
  }
  PetscCall(VecDestroy(&Ue));
  PetscCall(VecDestroy(&Ve));
  PetscFunctionReturn(0);
}

static PetscErrorCode PostStep(TS ts)
{
  Ctx      *c;
  PetscInt  step;
  PetscReal t;
  Vec       U, V;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &c));
  PetscCall(TSGetStepNumber(ts, &step));
  PetscCall(TSGetTime(ts, &t));
  if (c->nkicks || PetscAbsReal(t - c->kick) > c->dt / 2) PetscFunctionReturn(0);
  c->kickstep = step;
  PetscCall(TS2GetSolution(ts, &U, &V));
  PetscCall(Exact(c, t, c->u0, c->v0)); /* the exact motion goes on from the exact state at t, reversed as U and V are */
  c->t0 = t;
  PetscCall(VecScale(V, -1));
  PetscCall(VecScale(c->v0, -1));
  if (c->kick_u) {
    PetscCall(VecScale(U, -1));
    PetscCall(VecScale(c->u0, -1));
  }
  c->nkicks++;
  PetscFunctionReturn(0);
}

static PetscErrorCode Initial(Ctx *c, PetscInt N)
{
  PetscFunctionBeginUser;
  c->t0 = 0;
  for (PetscInt i = c->rstart; i < c->rstart + c->n; i++) {
    PetscCall(VecSetValue(c->w, i, 1 + 0.3 * i, INSERT_VALUES));
    PetscCall(VecSetValue(c->u0, i, 1 - 0.1 * i, INSERT_VALUES));
    PetscCall(VecSetValue(c->v0, i, 0.2 * i, INSERT_VALUES));
  }
  PetscCall(VecAssemblyBegin(c->w));
  PetscCall(VecAssemblyEnd(c->w));
  PetscCall(VecAssemblyBegin(c->u0));
  PetscCall(VecAssemblyEnd(c->u0));
  PetscCall(VecAssemblyBegin(c->v0));
  PetscCall(VecAssemblyEnd(c->v0));
  PetscFunctionReturn(0);
}

static PetscErrorCode Solve(Ctx *c, PetscInt N, PetscReal T, PetscReal dt, Vec U, Vec V)
{
  TS  ts;
  Mat J;

  PetscFunctionBeginUser;
  PetscCall(Initial(c, N));
  c->dt = dt;
  c->eu = c->ev = c->ei = 0;
  c->ninterp = c->nkicks = 0;
  c->kickstep            = -1;
  PetscCall(VecCopy(c->u0, U));
  PetscCall(VecCopy(c->v0, V));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, c->n, c->n, N, N, 1, NULL, 0, NULL, &J));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSALPHA2));
  PetscCall(TSSetApplicationContext(ts, c));
  PetscCall(TSSetI2Function(ts, NULL, I2Function, c));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, c));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSMonitorSet(ts, Monitor, c, NULL));
  PetscCall(TSSetPostStep(ts, PostStep));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetStepNumber(ts, &c->steps));
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx       c = {0};
  PetscInt  N = 6, refine = 1;
  PetscReal T = 2, dt = 0.1, eu[8], ev[8], ei[8];
  Vec       U, V;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  c.kick = -1; /* none */
  c.f    = 1;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Monitor and post-step options", NULL);
  PetscCall(PetscOptionsInt("-n", "Oscillators", NULL, N, &N, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Coarsest time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-f", "Amplitude of the driving force", NULL, c.f, &c.f, NULL));
  PetscCall(PetscOptionsReal("-kick", "Time at which the post-step reverses V (-1: none)", NULL, c.kick, &c.kick, NULL));
  PetscCall(PetscOptionsBool("-kick_u", "The post-step reverses U too", NULL, c.kick_u, &c.kick_u, NULL));
  PetscCall(PetscOptionsBool("-interpolate", "TSInterpolate() inside each step from the monitor", NULL, c.interpolate, &c.interpolate, NULL));
  PetscCall(PetscOptionsRangeInt("-refine", "Solves, halving the step", NULL, refine, &refine, NULL, 1, 8));
  PetscOptionsEnd();

  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, N, &U));
  PetscCall(VecGetLocalSize(U, &c.n));
  PetscCall(VecGetOwnershipRange(U, &c.rstart, NULL));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecDuplicate(U, &c.u0));
  PetscCall(VecDuplicate(U, &c.v0));
  PetscCall(VecDuplicate(U, &c.w));
  for (PetscInt l = 0; l < refine; l++) {
    PetscCall(Solve(&c, N, T, dt / (1 << l), U, V));
    eu[l] = c.eu;
    ev[l] = c.ev;
    ei[l] = c.ei;
    PetscCall(PetscInfo(NULL, "level %" PetscInt_FMT ": %" PetscInt_FMT " steps, %" PetscInt_FMT " post-step kicks, %" PetscInt_FMT " interpolations\n", l, c.steps, c.nkicks, c.ninterp));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "The post-step changed the state as asked: %s\n", c.nkicks == (c.kick >= 0 && c.kick <= T) ? "yes" : "no"));
  PetscCall(CheckErrors(PETSC_COMM_WORLD, "error of the monitor's U", refine, eu));
  PetscCall(CheckErrors(PETSC_COMM_WORLD, "error of the monitor's V", refine, ev));
  if (c.interpolate) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TSInterpolate() inside every step: %s\n", c.ninterp == c.steps - c.nkicks ? "yes" : "no"));
    PetscCall(CheckErrors(PETSC_COMM_WORLD, "error of TSInterpolate()", refine, ei));
  }
  PetscCall(CheckWriteCompare(U));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscCall(VecDestroy(&c.u0));
  PetscCall(VecDestroy(&c.v0));
  PetscCall(VecDestroy(&c.w));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex !single

  # the program and its exact motion under the type it was written for (no TSInterpolate() there)
  test:
    suffix: alpha2
    args: -dt 0.05 -refine 2 -order 2 -error_tol 3e-3 -kick 0.7 -kick_u

  # under simpvi: the hooks see the scheme's order at the steps and inside them; the post-step's reversed V (and U)
  # is the state the next step starts from; 1 process, then 2 against its final state
  test:
    suffix: simpson
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -interpolate -refine 3 -order 4 -error_tol 2e-7 -kick 0.7 -kick_u
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.025 -compare final.bin
      output_file: output/monitors_simpson_2.out
  test:
    suffix: simpson_nokick
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -interpolate -refine 3 -order 4 -error_tol 2e-7
  test:
    suffix: lobatto
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -ts_simpvi_type lobatto -interpolate -refine 3 -order 6 -error_tol 1e-10 -kick 0.7
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.025 -compare final.bin
      output_file: output/monitors_lobatto_2.out

TEST*/
