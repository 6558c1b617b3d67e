static char help[] = "Simplified Newton, TSSIMPVI's default (src/core/newton.c): the step Jacobian kept across iterations and\n"
                     "steps, the iteration stopped by theta/(1-theta) ||dY|| <= rtol ||Y||.\n"
                     "-case agree: the double pendulum (pointwise door) with each scheme, on the dense path and on newtonls\n"
                     "(-ts_simpvi_small_limit 0): the trajectory of the default run against Newton's (-ts_simpvi_lag_jacobian\n"
                     "false) to 1e-11, and fewer than half of Newton's Jacobians; the Jacobians counted as the points at\n"
                     "which the pointwise Lagrangian is asked for derivatives.\n"
                     "-case jump: a pendulum whose gravity jumps 40-fold at t = 1: the Jacobian kept before the jump no longer\n"
                     "contracts, a new one is made within the steps after it, and the trajectory is Newton's.\n"
                     "-case off: the pendulum (before the jump); what keeps Newton: PETSc's -snes_lag_jacobian, a converged test of the user's, -snes_test_jacobian,\n"
                     "-ts_simpvi_lag_jacobian false: Jacobians at every iteration (and -ts_view says which rule runs).\n\n";

#include <simpvi.h>
#include "../examples/models/doublependulum.h"

typedef struct {
  DoublePendulum dp;
  PetscInt       jacobians; /* points at which derivatives were asked for: a fixed number per step Jacobian */
  PetscReal      jump;      /* -case jump: gravity factor after t = 1 (0: the double pendulum) */
} Ctx;

static PetscErrorCode Mechanics(TS ts, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  Ctx *c = (Ctx *)ctx;

  PetscFunctionBeginUser;
  if (Px || Pv || Gx || Gv) c->jacobians += npts;
  if (!c->jump) {
    PetscCall(DoublePendulumPointwise(ts, npts, n, t, x, v, L, P, G, Px, Pv, Gx, Gv, &c->dp));
    PetscFunctionReturn(0);
  }
  for (PetscInt k = 0; k < npts; k++) { /* L = v^2/2 + g(t) cos x */
    const PetscReal g = t[k] < 1 ? 9.81 : 9.81 * c->jump;

    if (L) L[k] = 0.5 * v[k] * v[k] + g * PetscCosReal(x[k]);
    if (P) P[k] = v[k];
    if (G) G[k] = -g * PetscSinReal(x[k]);
    if (Px) Px[k] = 0;
    if (Pv) Pv[k] = 1;
    if (Gx) Gx[k] = -g * PetscCosReal(x[k]);
    if (Gv) Gv[k] = 0;
  }
  PetscFunctionReturn(0);
}

/* A user's own converged test (PETSc's, under another name) */
static PetscErrorCode MyConverged(SNES snes, PetscInt it, PetscReal xnorm, PetscReal ynorm, PetscReal fnorm, SNESConvergedReason *reason, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(SNESConvergedDefault(snes, it, xnorm, ynorm, fnorm, reason, ctx));
  PetscFunctionReturn(0);
}

/* steps of h from the problem's start; options: extra options for this run only; u: the final state */
static PetscErrorCode Run(PetscReal jump, const char scheme[], PetscReal h, PetscInt steps, const char options[], PetscBool userconverged, PetscReal u[4], PetscInt *jacobians, PetscInt *its)
{
  TS           ts;
  SNES         snes;
  Vec          U;
  PetscScalar *a;
  PetscInt     n = jump ? 1 : 2;
  Ctx          c = {
             {1, 1, 1, 1, 9.81},
             0, jump
  };

  PetscOptions o;
  char        *all;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetAll(NULL, &all)); /* the command line's options and this run's */
  PetscCall(PetscOptionsCreate(&o));
  PetscCall(PetscOptionsInsertString(o, all));
  PetscCall(PetscOptionsInsertString(o, options));
  PetscCall(PetscFree(all));
  PetscCall(PetscOptionsPush(o));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, scheme));
  PetscCall(TSSimpVISetPointwiseLagrangian(ts, Mechanics, &c));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * n, &U));
  PetscCall(VecGetArrayWrite(U, &a));
  if (jump) {
    a[0] = 1; /* q, p */
    a[1] = 0.5;
  } else {
    a[0] = 0.5; /* q1, q2, p1, p2: swinging, not tumbling */
    a[1] = -0.3;
    a[2] = 0.2;
    a[3] = 0;
  }
  PetscCall(VecRestoreArrayWrite(U, &a));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e9));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_STEPOVER));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSGetSNES(ts, &snes));
  if (userconverged) PetscCall(SNESSetConvergenceTest(snes, MyConverged, NULL, NULL));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSNESIterations(ts, its));
  PetscCall(VecGetArrayRead(U, (const PetscScalar **)&a));
  for (PetscInt i = 0; i < 2 * n; i++) u[i] = PetscRealPart(a[i]);
  PetscCall(VecRestoreArrayRead(U, (const PetscScalar **)&a));
  *jacobians = c.jacobians;
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscOptionsPop());
  PetscCall(PetscOptionsDestroy(&o));
  PetscFunctionReturn(0);
}

static PetscReal Difference(PetscInt n, const PetscReal a[], const PetscReal b[])
{
  PetscReal d = 0, s = 0;

  for (PetscInt i = 0; i < n; i++) {
    d = PetscMax(d, PetscAbsReal(a[i] - b[i]));
    s = PetscMax(s, PetscAbsReal(b[i]));
  }
  return d / s;
}

int main(int argc, char **argv)
{
  char        kase[16]  = "agree";
  const char *schemes[] = {"simpson", "lobatto", "gauss", "midpoint"};
  const char *paths[]   = {"", "-ts_simpvi_small_limit 0"};
  PetscReal   u[4], w[4];
  PetscInt    jac, jacN, its, itsN, steps = 200;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", kase, sizeof(kase), NULL));
  if (!strcmp(kase, "agree")) {
    for (PetscInt p = 0; p < 2; p++)
      for (PetscInt s = 0; s < 4; s++) {
        char newton[64];

        PetscCall(PetscSNPrintf(newton, sizeof(newton), "%s -ts_simpvi_lag_jacobian false", paths[p]));
        PetscCall(Run(0, schemes[s], 0.02, steps, paths[p], PETSC_FALSE, u, &jac, &its));
        PetscCall(Run(0, schemes[s], 0.02, steps, newton, PETSC_FALSE, w, &jacN, &itsN));
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-8s %-8s Newton's trajectory to 1e-11: %s; fewer than half its Jacobians: %s\n", schemes[s], p ? "newtonls" : "dense", Difference(4, u, w) <= 1e-11 ? "yes" : "no", 2 * jac < jacN ? "yes" : "no"));
      }
  } else if (!strcmp(kase, "jump")) {
    for (PetscInt p = 0; p < 2; p++) {
      PetscInt before, jacb;
      char     newton[64];

      PetscCall(PetscSNPrintf(newton, sizeof(newton), "%s -ts_simpvi_lag_jacobian false", paths[p]));
      PetscCall(Run(500, "lobatto", 0.02, 49, paths[p], PETSC_FALSE, u, &before, &its)); /* up to t = 0.98 */
      PetscCall(Run(500, "lobatto", 0.02, 60, paths[p], PETSC_FALSE, u, &jacb, &its));
      PetscCall(Run(500, "lobatto", 0.02, 60, newton, PETSC_FALSE, w, &jacN, &itsN));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-8s Jacobians before the jump fewer than a tenth of Newton's: %s; a new one after it: %s; Newton's trajectory to 1e-11: %s\n", p ? "newtonls" : "dense", 10 * before < jacN ? "yes" : "no", jacb > before ? "yes" : "no", Difference(2, u, w) <= 1e-11 ? "yes" : "no"));
    }
  } else if (!strcmp(kase, "off")) {
    const char *offs[] = {"-snes_lag_jacobian 2", "", "-snes_test_jacobian", "-ts_simpvi_lag_jacobian false"};

    PetscInt jacS;

    PetscCall(Run(500, "simpson", 0.02, 20, "", PETSC_FALSE, u, &jacS, &its)); /* the pendulum (t < 1: before the jump), simplified Newton */
    for (PetscInt o = 0; o < 4; o++) {
      PetscCall(Run(500, "simpson", 0.02, 20, offs[o], (PetscBool)(o == 1), u, &jac, &its));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-30s more than 5 times simplified Newton's Jacobians: %s\n", o == 1 ? "SNESSetConvergenceTest()" : offs[o], jac > 5 * jacS ? "yes" : "no"));
    }
  } else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown -case %s", kase);
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: agree
    args: -case agree

  test:
    suffix: jump
    args: -case jump

  test:
    suffix: off
    args: -case off
    filter: grep "simplified Newton's Jacobians"

  test:
    suffix: view
    args: -case off -ts_view -ts_max_steps 1
    filter: grep -E "Newton|Variational"

TEST*/
