static char help[] = "The dense Newton of small step systems (SNESSIMPVIDENSE, src/snes/dense.c, on the step's arrays of\n"
                     "src/core/smallstep.c) against newtonls: the pendulum\n"
                     "(mechanical and I2 doors), the nonlinear double pendulum (M(q)) and the Lagrange top (mechanical and\n"
                     "Lagrangian doors, whose L_xv enters transposed), each scheme, the same trajectories to 1e-12 with\n"
                     "-ts_simpvi_small_limit 0 (newtonls) and by default (the dense path: the SNES type simpvidense); Simpson's\n"
                     "order 4 on the dense path; -ts_simpvi_lag_jacobian on both paths; no allocation in the\n"
                     "time loop of the dense path (with -malloc_dump, which tracks allocations). The pendulum and the double\n"
                     "pendulum also through TSSimpVISetPointwiseLagrangian(), whose dense path works on arrays: the same checks,\n"
                     "and the mechanical door's trajectories and Newton iterations (to one in 40 steps: round-off may move a stopping test; a\n"
                     "wrong Jacobian would take many more).\n\n";

#include <simpvi.h>
/* the top's and the pendulum's potentials share names */
#define Potential        TopPotential
#define PotentialHessian TopPotentialHessian
#define LAGRANGETOP_MECHANICS_ONLY
#include "../examples/models/lagrangetop.h"
#undef Potential
#undef PotentialHessian
#include "../examples/models/pendulum.h"
#include "../examples/models/doublependulum.h"

typedef enum {
  PENDULUM,
  PENDULUM_I2,
  DOUBLE,
  TOP,
  TOP_LAGRANGIAN,
  PENDULUM_POINTWISE,
  DOUBLE_POINTWISE
} Problem;
static const char *const Problems[] = {"pendulum", "pendulum (I2)", "double pendulum", "top", "top (Lagrangian)", "pendulum (pointwise)", "double (pointwise)"};

typedef struct {
  PetscReal u[8];      /* the final state: (q, p), or (u, v) for the I2 door */
  PetscInt  n;         /* its length */
  PetscBool densetype; /* the step's SNES was SNESSIMPVIDENSE (the dense path; no fall-back on another SNES since issue 21) */
  PetscInt  its;       /* Newton iterations, either path */
  PetscBool noalloc;   /* no allocation in the last steps (dense path, tracked allocations) */
} Result;

/* steps of h of the problem with the scheme; limit: -ts_simpvi_small_limit; lag: -ts_simpvi_lag_jacobian */
static PetscErrorCode Run(Problem problem, const char scheme[], PetscReal h, PetscInt steps, PetscInt limit, PetscBool lag, Result *res)
{
  TS       ts;
  Vec      U, V = NULL;
  Mat      A[4] = {NULL, NULL, NULL, NULL};
  SNES     snes;
  PetscInt d   = problem == PENDULUM || problem == PENDULUM_I2 || problem == PENDULUM_POINTWISE ? 1 : problem == DOUBLE || problem == DOUBLE_POINTWISE ? 2 : 3;
  Top      top = {
         1, 9.81, 0.1, 1, 2, {0,            PETSC_PI / 6, 0           },
              {2 * PETSC_PI, 0,            2 * PETSC_PI}
  };
  DoublePendulum dp = {1, 1, 1, 1, 9.81}; /* unit masses and lengths, as in bench/stepcost.c */
  PetscScalar   *u;
  char           value[32];

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, scheme));
  if (problem == PENDULUM_I2) {
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 1, &U));
    PetscCall(VecDuplicate(U, &V));
    PetscCall(VecSet(U, 1.0));
    PetscCall(VecSet(V, 0.5));
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 1, 1, 1, NULL, &A[0]));
    PetscCall(TSSetI2Function(ts, NULL, I2Function, NULL));
    PetscCall(TSSetI2Jacobian(ts, A[0], A[0], I2Jacobian, NULL));
    PetscCall(TS2SetSolution(ts, U, V));
  } else {
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * d, &U));
    for (PetscInt i = 0; i < 4; i++) PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, d, d, NULL, &A[i]));
    PetscCall(VecGetArrayWrite(U, &u));
    if (problem == PENDULUM_POINTWISE) PetscCall(TSSimpVISetPointwiseLagrangian(ts, PendulumPointwise, NULL));
    if (problem == DOUBLE_POINTWISE) PetscCall(TSSimpVISetPointwiseLagrangian(ts, DoublePendulumPointwise, &dp));
    if (problem == PENDULUM_POINTWISE) {
      u[0] = 1;
      u[1] = 0.5;
    } else if (problem == DOUBLE_POINTWISE) {
      u[0] = PETSC_PI / 4;
      u[1] = PETSC_PI / 3;
      u[2] = 1;
      u[3] = -0.5;
    } else if (problem == PENDULUM) {
      u[0] = 1;
      u[1] = 0.5;
      PetscCall(MatSetValue(A[0], 0, 0, 1, INSERT_VALUES));
      PetscCall(MatAssemblyBegin(A[0], MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A[0], MAT_FINAL_ASSEMBLY));
      PetscCall(TSSimpVISetMass(ts, A[0], NULL, NULL, NULL, NULL));
      PetscCall(TSSimpVISetPotential(ts, A[3], Potential, PotentialHessian, NULL));
    } else if (problem == DOUBLE) {
      u[0] = PETSC_PI / 4;
      u[1] = PETSC_PI / 3;
      u[2] = 1;
      u[3] = -0.5;
      PetscCall(TSSimpVISetMass(ts, A[0], A[1], A[2], DoublePendulumMass, &dp));
      PetscCall(TSSimpVISetPotential(ts, A[3], DoublePendulumPotential, DoublePendulumPotentialHessian, &dp));
    } else {
      PetscReal M[3][3];

      MassMatrix(&top, top.q0[1], M);
      for (PetscInt i = 0; i < 3; i++) {
        u[i]     = top.q0[i];
        u[3 + i] = M[i][0] * top.v0[0] + M[i][1] * top.v0[1] + M[i][2] * top.v0[2];
      }
      if (problem == TOP) {
        PetscCall(TSSimpVISetMass(ts, A[0], A[1], A[2], Mass, &top));
        PetscCall(TSSimpVISetPotential(ts, A[3], TopPotential, TopPotentialHessian, &top));
      } else {
        PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, &top));
        PetscCall(TSSimpVISetLagrangianHessian(ts, A[0], A[1], A[2], LagrangianHessian, &top));
      }
    }
    PetscCall(VecRestoreArrayWrite(U, &u));
    PetscCall(TSSetSolution(ts, U));
  }
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps / 2));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(PetscSNPrintf(value, sizeof(value), "%" PetscInt_FMT, limit));
  PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_small_limit", value));
  PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_lag_jacobian", lag ? "1" : "0"));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_small_limit"));
  PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_lag_jacobian"));
  PetscCall(TSSolve(ts, U)); /* the first half, then the second with the peak memory watched */
  {
    PetscLogDouble now, peak = 0;

    PetscCall(PetscMallocGetCurrentUsage(&now));
    PetscCall(PetscMallocPushMaximumUsage(0));
    PetscCall(TSSetMaxSteps(ts, steps));
    PetscCall(TSSolve(ts, U));
    PetscCall(PetscMallocPopMaximumUsage(0, &peak));
    res->noalloc = (PetscBool)(now > 0 && peak <= now);
  }
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(PetscObjectTypeCompare((PetscObject)snes, SNESSIMPVIDENSE, &res->densetype));
  PetscCall(TSGetSNESIterations(ts, &res->its));
  if (V) {
    Vec X, XV;

    PetscCall(TS2GetSolution(ts, &X, &XV));
    PetscCall(VecGetArray(X, &u));
    res->u[0] = PetscRealPart(u[0]);
    PetscCall(VecRestoreArray(X, &u));
    PetscCall(VecGetArray(XV, &u));
    res->u[1] = PetscRealPart(u[0]);
    PetscCall(VecRestoreArray(XV, &u));
    res->n = 2;
  } else {
    PetscCall(VecGetArray(U, &u));
    for (PetscInt i = 0; i < 2 * d; i++) res->u[i] = PetscRealPart(u[i]);
    PetscCall(VecRestoreArray(U, &u));
    res->n = 2 * d;
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatDestroy(&A[i]));
  PetscFunctionReturn(0);
}

static PetscReal Difference(const Result *a, const Result *b)
{
  PetscReal d = 0, scale = 0;

  for (PetscInt i = 0; i < a->n; i++) {
    d     = PetscMax(d, PetscAbsReal(a->u[i] - b->u[i]));
    scale = PetscMax(scale, PetscAbsReal(b->u[i]));
  }
  return d / scale;
}

int main(int argc, char **argv)
{
  const char *schemes[] = {"midpoint", "simpson", "lobatto", "gauss"};
  PetscBool   noalloc   = PETSC_TRUE;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  for (PetscInt p = PENDULUM; p <= TOP_LAGRANGIAN; p++) {
    for (PetscInt s = 0; s < 4; s++) {
      Result dense, snes, lagged;

      PetscCall(Run((Problem)p, schemes[s], 0.05, 40, 64, PETSC_FALSE, &dense));
      PetscCall(Run((Problem)p, schemes[s], 0.05, 40, 0, PETSC_FALSE, &snes));
      PetscCall(Run((Problem)p, schemes[s], 0.05, 40, 64, PETSC_TRUE, &lagged));
      noalloc = (PetscBool)(noalloc && dense.noalloc);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-16s %-8s: dense path alone: %s, the SNES path used the SNES: %s, same trajectory to 1e-12: %s, lagged Jacobian to 1e-10: %s\n", Problems[p], schemes[s], dense.densetype ? "yes" : "no", !snes.densetype ? "yes" : "no", Difference(&dense, &snes) < 1e-12 ? "yes" : "no", Difference(&lagged, &snes) < 1e-10 ? "yes" : "no"));
    }
  }
  for (PetscInt p = PENDULUM_POINTWISE; p <= DOUBLE_POINTWISE; p++) { /* and its twin through the mechanical door */
    const Problem twin = p == PENDULUM_POINTWISE ? PENDULUM : DOUBLE;

    for (PetscInt s = 0; s < 4; s++) {
      Result dense, snes, lagged, mech;

      PetscCall(Run((Problem)p, schemes[s], 0.05, 40, 64, PETSC_FALSE, &dense));
      PetscCall(Run((Problem)p, schemes[s], 0.05, 40, 0, PETSC_FALSE, &snes));
      PetscCall(Run((Problem)p, schemes[s], 0.05, 40, 64, PETSC_TRUE, &lagged));
      PetscCall(Run(twin, schemes[s], 0.05, 40, 64, PETSC_FALSE, &mech));
      noalloc = (PetscBool)(noalloc && dense.noalloc);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-20s %-8s: dense path alone: %s, the SNES path used the SNES: %s, same trajectory to 1e-12: %s, lagged Jacobian to 1e-10: %s, the mechanical door's trajectory to 1e-12: %s and Newton iterations to 1: %s\n", Problems[p], schemes[s],
                            dense.densetype ? "yes" : "no", !snes.densetype ? "yes" : "no", Difference(&dense, &snes) < 1e-12 ? "yes" : "no", Difference(&lagged, &snes) < 1e-10 ? "yes" : "no", Difference(&dense, &mech) < 1e-12 ? "yes" : "no",
                            PetscAbsInt(dense.its - mech.its) <= 1 && PetscAbsInt(snes.its - mech.its) <= 1 ? "yes" : "no"));
    }
  }
  { /* Simpson's order on the dense path: the pendulum from q = 1, p = 0.5 against a reference of h/8 */
    Result    r[3], ref;
    PetscReal e[2];

    PetscCall(Run(PENDULUM, "lobatto", 0.0125, 320, 64, PETSC_FALSE, &ref));
    PetscCall(Run(PENDULUM, "simpson", 0.1, 40, 64, PETSC_FALSE, &r[0]));
    PetscCall(Run(PENDULUM, "simpson", 0.05, 80, 64, PETSC_FALSE, &r[1]));
    PetscCall(Run(PENDULUM, "simpson", 0.025, 160, 64, PETSC_FALSE, &r[2]));
    e[0] = PetscLog2Real(Difference(&r[0], &ref) / Difference(&r[1], &ref));
    e[1] = PetscLog2Real(Difference(&r[1], &ref) / Difference(&r[2], &ref));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Simpson on the dense path, orders %.1f and %.1f: 4 within 0.3: %s\n", (double)e[0], (double)e[1], PetscAbsReal(e[0] - 4) < 0.3 && PetscAbsReal(e[1] - 4) < 0.3 ? "yes" : "no"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "no allocation in the dense path's time loop (allocations tracked): %s\n", noalloc ? "yes" : "no"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    args: -malloc_dump

TEST*/
