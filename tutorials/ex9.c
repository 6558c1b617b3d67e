static char help[] = "Rest-to-rest reorientation of a spacecraft by optimal control: TSSIMPVI's rigid body on SO(3) with body torques\n"
                     "(TSSimpVISetRigidBodyTorque()), the gradient by TSAdjointSolve() on the group, the optimisation by TAO.\n"
                     "Prints whether TAO converged, the final attitude error and momentum, and the gradient against differences.\n"
                     "Options: -T <10> (s) -n <100> (steps) -segments <10> (of the piecewise-linear torques) -angle <1.5> (rad)\n"
                     "         -effort <1e-4> (weight of the control effort) -check_gradient, and the TS and Tao options\n\n";

/*
   A spacecraft with the asymmetric inertia J = diag(1, 1.6, 2.1) starts at rest at R = I and must come to rest at the
   target attitude Rf = exp(angle hat(a)) at time T, turned by torques from actuators fixed in the body (reaction
   wheels, thrusters). The torque is piecewise linear in time: tau(t) = sum_j theta_j phi_j(t), phi_j the hat function
   of the node t_j = j T/m (m segments), so theta holds 3 (m + 1) numbers, the torque's three body components at each
   node. The cost

     C(theta) = 1/2 ||R(T) - Rf||_F^2 + 1/2 |pi(T)|^2 + effort/2 int_0^T |tau|^2 dt

   penalises the attitude error (3 - tr(Rf' R) for a rotation), the final body momentum pi = J Omega (rest), and the
   control effort. Its gradient comes from one forward run and one adjoint run:
   - TSSimpVISetRigidBodyTorque() with 3 (m + 1) parameters gives the torque and d tau/d theta (the hat functions);
   - TSSetCostGradients() takes lambda(T) = dC/dU in the state's ambient coordinates: dC/dR = R - Rf (the attitude
     error's; only its part tangent to SO(3) counts) and dC/dpi = pi, and mu (zero); TSAdjointSolve() adds to mu the
     gradient of the final-state terms in theta, exactly for the discrete map;
   - the effort is a quadratic form in theta alone, theta' M theta with the hat functions' mass matrix (per component:
     h/3 on the diagonal's ends, 2h/3 inside, h/6 beside it), added with its gradient directly.
   TAO (-tao_type lmvm or blmvm, the default) minimises C.
*/
#include <simpvi.h>
#include <petsctao.h>

typedef struct {
  PetscReal J[9], Rf[9], T, effort;
  PetscInt  n, m;           /* time steps, torque segments */
  PetscReal Rend[9], pi[3]; /* the last forward run's end */
  PetscInt  runs;
  Vec       theta; /* the torques' parameters the TS reads, a copy of TAO's */
} Ctx;

/* tau(t) = sum_j theta_j phi_j(t) in the body frame; d tau/d theta = the hat functions (tauR, tauO: no dependence) */
static PetscErrorCode Torque(PetscInt nb, PetscReal t, const PetscReal R[], const PetscReal Omega[], PetscReal tau[], PetscReal tauR[], PetscReal tauO[], PetscReal tauth[], void *ctx)
{
  Ctx               *c  = (Ctx *)ctx;
  const PetscInt     np = 3 * (c->m + 1);
  const PetscReal    s  = PetscMin(PetscMax(t / c->T * c->m, 0), c->m); /* the segment coordinate */
  const PetscInt     j  = PetscMin((PetscInt)s, c->m - 1);
  const PetscReal    f  = s - j; /* phi_j = 1 - f, phi_{j+1} = f on segment j */
  const PetscScalar *th;

  PetscFunctionBeginUser;
  (void)nb, (void)R, (void)Omega, (void)tauR, (void)tauO;
  PetscCall(VecGetArrayRead(c->theta, &th));
  for (PetscInt i = 0; i < 3; i++) tau[i] = (1 - f) * th[3 * j + i] + f * th[3 * (j + 1) + i];
  PetscCall(VecRestoreArrayRead(c->theta, &th));
  if (tauth)
    for (PetscInt i = 0; i < 3; i++) {
      tauth[i * np + 3 * j + i]       = 1 - f;
      tauth[i * np + 3 * (j + 1) + i] = f;
    }
  PetscFunctionReturn(0);
}

/* effort/2 theta' M theta and its gradient added to G */
static PetscReal Effort(Ctx *c, const PetscScalar th[], PetscScalar G[])
{
  const PetscReal h = c->T / c->m;
  PetscReal       E = 0;

  for (PetscInt j = 0; j <= c->m; j++)
    for (PetscInt i = 0; i < 3; i++) {
      const PetscReal d  = (j == 0 || j == c->m) ? h / 3 : 2 * h / 3;
      PetscReal       Mt = d * th[3 * j + i];

      if (j > 0) Mt += h / 6 * th[3 * (j - 1) + i];
      if (j < c->m) Mt += h / 6 * th[3 * (j + 1) + i];
      E += c->effort / 2 * th[3 * j + i] * Mt;
      if (G) G[3 * j + i] += c->effort * Mt;
    }
  return E;
}

/* C(theta) and (G not NULL) its gradient: a forward run, then the adjoint */
static PetscErrorCode CostAndGradient(Ctx *c, Vec X, PetscReal *C, Vec G)
{
  const PetscInt     np = 3 * (c->m + 1);
  TS                 ts;
  TSTrajectory       tj;
  Vec                U, lambda, mu;
  const PetscScalar *u, *th;
  PetscScalar       *l, *g;

  PetscFunctionBeginUser;
  PetscCall(VecCopy(X, c->theta));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12, &U));
  PetscCall(VecGetArray(U, &l)); /* at rest at R = I */
  for (PetscInt j = 0; j < 12; j++) l[j] = (j == 0 || j == 4 || j == 8);
  PetscCall(VecRestoreArray(U, &l));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetRigidBodies(ts, 1, c->J, NULL, NULL)); /* no potential */
  PetscCall(TSSimpVISetRigidBodyTorque(ts, np, Torque, c));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, c->T / c->n));
  PetscCall(TSSetMaxSteps(ts, c->n));
  PetscCall(TSSetMaxTime(ts, 2 * c->T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (G) {
    PetscCall(TSSetSaveTrajectory(ts));
    PetscCall(TSGetTrajectory(ts, &tj));
    PetscCall(TSTrajectorySetType(tj, ts, TSTRAJECTORYMEMORY)); /* the steps in memory, not on disk */
  }
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, NULL));
  c->runs++;
  /* the final-state terms and their ambient gradient: dC/dR = R - Rf, dC/dpi = pi */
  PetscCall(VecDuplicate(U, &lambda));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArray(lambda, &l));
  *C = 0;
  for (PetscInt j = 0; j < 9; j++) {
    c->Rend[j] = u[j];
    l[j]       = u[j] - c->Rf[j];
    *C += l[j] * l[j] / 2;
  }
  for (PetscInt j = 0; j < 3; j++) {
    c->pi[j] = u[9 + j];
    l[9 + j] = u[9 + j];
    *C += u[9 + j] * u[9 + j] / 2;
  }
  PetscCall(VecRestoreArray(lambda, &l));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecGetArrayRead(X, &th));
  if (G) {
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, np, &mu));
    PetscCall(VecSet(mu, 0));
    PetscCall(TSSetCostGradients(ts, 1, &lambda, &mu));
    PetscCall(TSAdjointSolve(ts));
    PetscCall(VecCopy(mu, G));
    PetscCall(VecGetArray(G, &g));
    *C += Effort(c, th, g);
    PetscCall(VecRestoreArray(G, &g));
    PetscCall(VecDestroy(&mu));
  } else *C += Effort(c, th, NULL);
  PetscCall(VecRestoreArrayRead(X, &th));
  PetscCall(VecDestroy(&lambda));
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

static PetscErrorCode FormFunctionGradient(Tao tao, Vec X, PetscReal *f, Vec G, void *ctx)
{
  PetscFunctionBeginUser;
  (void)tao;
  PetscCall(CostAndGradient((Ctx *)ctx, X, f, G));
  PetscFunctionReturn(0);
}

/* the adjoint's gradient at X against central differences of C in every parameter, relative to |gradient| */
static PetscErrorCode CheckGradient(Ctx *c, Vec X)
{
  Vec       G, Xp;
  PetscReal C, Cp, Cm, gnorm, worst = 0, eps = 1e-5;
  PetscInt  np;

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(X, &np));
  PetscCall(VecDuplicate(X, &G));
  PetscCall(VecDuplicate(X, &Xp));
  PetscCall(CostAndGradient(c, X, &C, G));
  PetscCall(VecNorm(G, NORM_2, &gnorm));
  for (PetscInt j = 0; j < np; j++) {
    PetscScalar gj;

    PetscCall(VecCopy(X, Xp));
    PetscCall(VecSetValue(Xp, j, eps, ADD_VALUES));
    PetscCall(VecAssemblyBegin(Xp));
    PetscCall(VecAssemblyEnd(Xp));
    PetscCall(CostAndGradient(c, Xp, &Cp, NULL));
    PetscCall(VecSetValue(Xp, j, -2 * eps, ADD_VALUES));
    PetscCall(VecAssemblyBegin(Xp));
    PetscCall(VecAssemblyEnd(Xp));
    PetscCall(CostAndGradient(c, Xp, &Cm, NULL));
    PetscCall(VecGetValues(G, 1, &j, &gj));
    worst = PetscMax(worst, PetscAbsReal(gj - (Cp - Cm) / (2 * eps)) / gnorm);
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "Adjoint gradient in the %" PetscInt_FMT " torque parameters against central differences, relative error < 1e-7: %s\n", np, worst < 1e-7 ? "yes" : "no"));
  PetscCall(PetscInfo(NULL, "gradient check: worst relative error %g\n", (double)worst));
  PetscCall(VecDestroy(&G));
  PetscCall(VecDestroy(&Xp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx c = {
    .J = {1, 0, 0, 0, 1.6, 0, 0, 0, 2.1},
      .T = 10, .effort = 1e-4, .n = 100, .m = 10
  };
  PetscReal          angle = 1.5, axis[3] = {1, 2, 2}, xi[3], C, err[2], An[9], ea;
  PetscBool          check = PETSC_FALSE;
  Tao                tao;
  Vec                X;
  TaoConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-T", &c.T, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &c.n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-segments", &c.m, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-angle", &angle, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-effort", &c.effort, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_gradient", &check, NULL));
  for (PetscInt i = 0; i < 3; i++) xi[i] = angle * axis[i] / 3; /* |(1, 2, 2)| = 3 */
  PetscCall(SimpVISO3Exp(xi, c.Rf));

  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 3 * (c.m + 1), &X));
  PetscCall(VecDuplicate(X, &c.theta));
  if (check) { /* at a torque profile away from zero, where the dynamics are nonlinear */
    PetscScalar *x;

    PetscCall(VecGetArray(X, &x));
    for (PetscInt j = 0; j < 3 * (c.m + 1); j++) x[j] = 0.05 * PetscSinReal(1.7 * j + 0.3);
    PetscCall(VecRestoreArray(X, &x));
    PetscCall(CheckGradient(&c, X));
  }
  PetscCall(VecSet(X, 0)); /* start from no torque */

  PetscCall(TaoCreate(PETSC_COMM_SELF, &tao));
  PetscCall(TaoSetType(tao, TAOBLMVM));
  PetscCall(TaoSetSolution(tao, X));
  PetscCall(TaoSetObjectiveAndGradient(tao, NULL, FormFunctionGradient, &c));
  PetscCall(TaoSetTolerances(tao, 1e-10, 0, 1e-6)); /* |gradient| down by 1e-6 from the start */
  PetscCall(TaoSetMaximumIterations(tao, 500));
  PetscCall(TaoSetFromOptions(tao));
  PetscCall(TaoSolve(tao));
  PetscCall(TaoGetConvergedReason(tao, &reason));

  /* the final state of the optimum: the attitude error is the angle of Rf' R(T) */
  PetscCall(CostAndGradient(&c, X, &C, NULL));
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) An[i * 3 + j] = c.Rf[i] * c.Rend[j] + c.Rf[3 + i] * c.Rend[3 + j] + c.Rf[6 + i] * c.Rend[6 + j];
  PetscCall(SimpVISO3Log(An, xi));
  ea     = PetscSqrtReal(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2]);
  err[0] = ea;
  err[1] = PetscSqrtReal(c.pi[0] * c.pi[0] + c.pi[1] * c.pi[1] + c.pi[2] * c.pi[2]);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "Reorientation by %g rad in %g s (%" PetscInt_FMT " steps, torques on %" PetscInt_FMT " segments): TAO converged: %s\n", (double)angle, (double)c.T, c.n, c.m, reason > 0 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  final attitude error < 1e-4 rad: %s, final body momentum < 1e-4: %s\n", err[0] < 1e-4 ? "yes" : "no", err[1] < 1e-4 ? "yes" : "no"));
  PetscCall(PetscInfo(NULL, "cost %g, attitude error %g rad, momentum %g, reason %s, %" PetscInt_FMT " runs\n", (double)C, (double)err[0], (double)err[1], TaoConvergedReasons[reason], c.runs));

  PetscCall(TaoDestroy(&tao));
  PetscCall(VecDestroy(&X));
  PetscCall(VecDestroy(&c.theta));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: blmvm
    args: -tao_type blmvm -check_gradient

  test:
    suffix: lmvm
    args: -tao_type lmvm -ts_simpvi_type lobatto

TEST*/
