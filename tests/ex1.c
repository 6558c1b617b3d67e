static char help[] = "Observed order of convergence of TSSIMPVI schemes, through the mechanical door.\n"
                     "The harmonic oscillator is measured against its exact solution on two meshes; the pendulum, which has no\n"
                     "closed form, by the differences of three meshes. With -interpolate the final time falls inside a step and\n"
                     "TSInterpolate() gives the solution there; its error must still converge.\n"
                     "Options: -problem oscillator|pendulum -n <steps on the coarsest mesh> -periods <1> -interpolate\n\n";

#include <simpvi.h>

typedef enum {
  PROBLEM_OSCILLATOR,
  PROBLEM_PENDULUM
} Problem;
static const char *const Problems[] = {"oscillator", "pendulum", "Problem", "PROBLEM_", NULL};

typedef struct {
  Problem   problem;
  PetscReal q0, p0; /* initial state; unit mass and frequency */
} AppCtx;

/* V = q^2/2 (oscillator) or V = -cos q (pendulum) */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  if (user->problem == PROBLEM_OSCILLATOR) {
    *V    = 0.5 * xx[0] * xx[0];
    gg[0] = xx[0];
  } else {
    *V    = -PetscCosReal(xx[0]);
    gg[0] = PetscSinReal(xx[0]);
  }
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
  PetscCall(MatSetValue(H, 0, 0, user->problem == PROBLEM_OSCILLATOR ? 1.0 : PetscCosReal(xx[0]), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* Solves on [0, T] with nsteps steps of T0/nsteps (T may end inside a step) and returns (q, p) at T */
static PetscErrorCode Solve(AppCtx *user, PetscReal T0, PetscReal T, PetscInt nsteps, PetscBool interpolate, PetscReal *q, PetscReal *p)
{
  TS                 ts;
  SNES               snes;
  Vec                U;
  Mat                M, H;
  PetscScalar       *u;
  PetscReal          tfinal;
  TSConvergedReason  reason;
  const PetscScalar *uu;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &M));
  PetscCall(MatSetValue(M, 0, 0, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &H));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, H, Potential, PotentialHessian, user));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  u[0] = user->q0;
  u[1] = user->p0;
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, T0 / nsteps));
  PetscCall(TSSetMaxSteps(ts, 10 * nsteps));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, interpolate ? TS_EXACTFINALTIME_INTERPOLATE : TS_EXACTFINALTIME_MATCHSTEP));
  /* high orders on fine meshes reach round-off: solve each step to machine precision */
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetTolerances(snes, 1e-14, 1e-14, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetConvergedReason(ts, &reason));
  PetscCall(TSGetSolveTime(ts, &tfinal));
  PetscCheck(reason > 0 && PetscAbsReal(tfinal - T) < 1e-12 * T, PETSC_COMM_SELF, PETSC_ERR_PLIB, "TSSolve stopped at t = %g (reason %s) instead of %g", (double)tfinal, TSConvergedReasons[reason], (double)T);
  PetscCall(VecGetArrayRead(U, &uu));
  *q = PetscRealPart(uu[0]);
  *p = PetscRealPart(uu[1]);
  PetscCall(VecRestoreArrayRead(U, &uu));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  AppCtx      user        = {PROBLEM_OSCILLATOR, 1.0, 0.5};
  PetscInt    n           = 10, degree, order, refine;
  PetscReal   periods     = 1, T0, T, q[3], p[3], e[2], observed;
  PetscBool   interpolate = PETSC_FALSE;
  TS          ts;
  const char *type;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Order test options", NULL);
  PetscCall(PetscOptionsEnum("-problem", "The problem", NULL, Problems, (PetscEnum)user.problem, (PetscEnum *)&user.problem, NULL));
  PetscCall(PetscOptionsInt("-n", "Steps on the coarsest mesh", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-periods", "Integration time in units of 2 pi", NULL, periods, &periods, NULL));
  PetscCall(PetscOptionsBool("-interpolate", "End inside a step and interpolate", NULL, interpolate, &interpolate, NULL));
  PetscOptionsEnd();
  if (user.problem == PROBLEM_PENDULUM) { /* a large swing, far from the linear regime */
    user.q0 = 2.0;
    user.p0 = 0.0;
  }

  /* the scheme as the options set it */
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(TSSimpVIGetDegree(ts, &degree));
  PetscCall(TSSimpVIGetOrder(ts, &order));

  /* T0 fixes the step sizes. With -interpolate the final time is a third of a coarse step beyond it, and the meshes are
     refined by 4, so that it falls a third of the way into a step on every mesh and the interpolation error keeps its
     constant */
  T0     = 2 * PETSC_PI * periods;
  T      = interpolate ? T0 + T0 / (3.0 * n) : T0;
  refine = interpolate ? 4 : 2;
  for (PetscInt l = 0, nl = n; l < 3; l++, nl *= refine) PetscCall(Solve(&user, T0, T, nl, interpolate, &q[l], &p[l]));
  if (user.problem == PROBLEM_OSCILLATOR) { /* errors against q = q0 cos t + p0 sin t on the two coarse meshes */
    PetscReal qe = user.q0 * PetscCosReal(T) + user.p0 * PetscSinReal(T), pe = -user.q0 * PetscSinReal(T) + user.p0 * PetscCosReal(T);

    for (PetscInt l = 0; l < 2; l++) e[l] = PetscMax(PetscAbsReal(q[l] - qe), PetscAbsReal(p[l] - pe));
  } else { /* the differences of successive meshes shrink with the order */
    for (PetscInt l = 0; l < 2; l++) e[l] = PetscMax(PetscAbsReal(q[l] - q[l + 1]), PetscAbsReal(p[l] - p[l + 1]));
  }
  observed = PetscLogReal(e[0] / e[1]) / PetscLogReal((PetscReal)refine);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: errors %.3e %.3e, observed order %.2f\n", Problems[user.problem], (double)e[0], (double)e[1], (double)observed));
  if (!interpolate) {
    /* a wrong order, even by one, is outside this window */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "scheme %s degree %" PetscInt_FMT " order %" PetscInt_FMT " observed: %s\n", type, degree, order, PetscAbsReal(observed - order) < 0.4 ? "yes" : "no"));
  } else {
    /* the dense output is the scheme's own step from the start of the step to T, so it keeps the scheme's order; a state
       from the wrong end of the step would be of order 1 */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "scheme %s degree %" PetscInt_FMT " interpolated order %" PetscInt_FMT " observed: %s\n", type, degree, order, observed > order - 0.4 ? "yes" : "no"));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # the oscillator against its exact solution: every scheme and degree; high degrees on coarse meshes, far from round-off
  testset:
    args: -problem oscillator
    test:
      suffix: osc_midpoint
      args: -ts_simpvi_type midpoint -n 20
    test:
      suffix: osc_trapezoid
      args: -ts_simpvi_type trapezoid -n 20
    test:
      suffix: osc_simpson
      args: -ts_simpvi_type simpson -n 10
    test:
      suffix: osc_lobatto1
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 1 -n 20
    test:
      suffix: osc_lobatto2
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 2 -n 10
    test:
      suffix: osc_lobatto3
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 3 -n 6
    test:
      suffix: osc_lobatto4
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 4 -n 4
    test:
      suffix: osc_lobatto5
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 5 -n 3
    test:
      suffix: osc_gauss1
      args: -ts_simpvi_type gauss -ts_simpvi_degree 1 -n 20
    test:
      suffix: osc_gauss2
      args: -ts_simpvi_type gauss -ts_simpvi_degree 2 -n 10
    test:
      suffix: osc_gauss3
      args: -ts_simpvi_type gauss -ts_simpvi_degree 3 -n 6

  # the pendulum: nonlinear potential, so the Hessian and the quadrature of the force matter
  testset:
    args: -problem pendulum
    test:
      suffix: pend_midpoint
      args: -ts_simpvi_type midpoint -n 20
    test:
      suffix: pend_trapezoid
      args: -ts_simpvi_type trapezoid -n 20
    test:
      suffix: pend_simpson
      args: -ts_simpvi_type simpson -n 16
    test:
      suffix: pend_lobatto3
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 3 -n 16
    test:
      suffix: pend_lobatto4
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 4 -n 16
    test:
      suffix: pend_gauss2
      args: -ts_simpvi_type gauss -ts_simpvi_degree 2 -n 16
    test:
      suffix: pend_gauss3
      args: -ts_simpvi_type gauss -ts_simpvi_degree 3 -n 16

  # TSInterpolate() from the step polynomial at a time inside a step
  testset:
    args: -interpolate -n 20
    test:
      suffix: interp_midpoint
      args: -ts_simpvi_type midpoint
    test:
      suffix: interp_simpson
      args: -ts_simpvi_type simpson -problem pendulum
    test:
      suffix: interp_lobatto3
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 3
    test:
      suffix: interp_lobatto4
      args: -ts_simpvi_type lobatto -ts_simpvi_degree 4 -problem pendulum -n 8
    test:
      suffix: interp_gauss3
      args: -ts_simpvi_type gauss -ts_simpvi_degree 3 -problem pendulum

TEST*/
