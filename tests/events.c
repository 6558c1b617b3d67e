static char help[] = "Events with TSSIMPVI: TSSetEventHandler() on the pendulum q'' = -sin q released at rest from q0 = 2.\n"
                     "PETSc locates an event by rolling the step back (TSRollBack()) and retaking it shorter until the event\n"
                     "function vanishes. The zero crossings of q must be found at (2j + 1) K(sin(q0/2)), to 1e-10; the state at\n"
                     "the final time, reached through the rolled-back and shortened steps, must be as accurate as that of a run\n"
                     "without events (both against the exact solution). The problem comes through the mechanical door, U = (q, p),\n"
                     "or the PETSc second-order door (TSSetI2Function(), whose velocity the rollback must restore too), or the split door\n"
                     "(TSRHSSplitSetRHSFunction() \"position\" q' = p and \"momentum\" p' = -sin q, as for TSBASICSYMPLECTIC).\n"
                     "With -bounce a wall at q = 0 reflects the pendulum (the post-event hook reverses its momentum): the motion is\n"
                     "then |q| of the free one, and the steps after each bounce must follow it.\n"
                     "With -event_tol 1e-13 PETSc ends a step within 1e-13 of an event, and the step after it is full size again:\n"
                     "its solve must be as tight as any other's (-tight false: PETSc's default SNES tolerances).\n"
                     "Options: -door mechanical|i2|pointwise|split -dt <0.01> -periods <2> -terminate -bounce -tight <true> -event_tol <tol>\n\n";

#include <simpvi.h>
#include "../examples/models/pendulum.h"

typedef enum {
  DOOR_MECHANICAL,
  DOOR_I2,
  DOOR_POINTWISE,
  DOOR_SPLIT
} Door;
static const char *const Doors[] = {"mechanical", "i2", "pointwise", "split", "Door", "DOOR_", NULL};

/* -door split: the pendulum as a TSBASICSYMPLECTIC program, q' = p ("position"), p' = -sin q ("momentum") */
static PetscErrorCode SplitPosition(TS ts, PetscReal t, Vec p, Vec qdot, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(VecCopy(p, qdot));
  PetscFunctionReturn(0);
}

static PetscErrorCode SplitMomentum(TS ts, PetscReal t, Vec q, Vec pdot, void *ctx)
{
  PetscReal V;

  PetscFunctionBeginUser;
  PetscCall(Potential(ts, t, q, &V, pdot, ctx));
  PetscCall(VecScale(pdot, -1));
  PetscFunctionReturn(0);
}

#define MAXEVENTS 64

typedef struct {
  Door      door;
  PetscReal q0;
  PetscBool bounce, tight; /* tight: SNES tolerances 1e-14, else PETSc's defaults */
  PetscReal eventtol, vtol;
  PetscInt  nevents;
  PetscReal tevent[MAXEVENTS], qevent[MAXEVENTS];
} AppCtx;

/* the event function is q, the first entry of the state in both doors */
static PetscErrorCode EventFunction(TS ts, PetscReal t, Vec U, PetscScalar fvalue[], void *ctx)
{
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  fvalue[0] = u[0];
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode PostEvent(TS ts, PetscInt nzero, PetscInt zero[], PetscReal t, Vec U, PetscBool forward, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCheck(user->nevents < MAXEVENTS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "More than %d events", MAXEVENTS);
  PetscCall(VecGetArrayRead(U, &u));
  user->tevent[user->nevents]   = t;
  user->qevent[user->nevents++] = PetscRealPart(u[0]);
  PetscCall(VecRestoreArrayRead(U, &u));
  if (user->bounce) { /* an elastic wall: p (or v) changes sign */
    if (user->door != DOOR_I2) {
      PetscScalar *uw;

      PetscCall(VecGetArray(U, &uw));
      uw[1] = -uw[1];
      PetscCall(VecRestoreArray(U, &uw));
    } else {
      Vec X, V;

      PetscCall(TS2GetSolution(ts, &X, &V));
      PetscCall(VecScale(V, -1));
    }
  }
  PetscFunctionReturn(0);
}

/* From rest at q0 to T with steps dt, with events (crossings both ways; terminate: stop at the first) or without
   (events false); (q, p) and the time at the end */
static PetscErrorCode Run(AppCtx *user, PetscReal dt, PetscReal T, PetscBool events, PetscBool terminate, PetscReal *q, PetscReal *p, PetscReal *tend, TSConvergedReason *reason)
{
  TS                 ts;
  SNES               snes;
  Mat                M, H;
  Vec                U, V = NULL, R;
  PetscScalar       *u;
  const PetscScalar *uu, *vv;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &M));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &H));
  if (user->door != DOOR_I2) { /* U = (q, p) */
    PetscCall(MatSetValue(M, 0, 0, 1.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
    if (user->door == DOOR_POINTWISE) PetscCall(TSSimpVISetPointwiseLagrangian(ts, PendulumPointwise, user));
    else if (user->door == DOOR_MECHANICAL) {
      PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
      PetscCall(TSSimpVISetPotential(ts, H, Potential, PotentialHessian, user));
    } else {
      IS isq, isp;

      PetscCall(ISCreateStride(PETSC_COMM_SELF, 1, 0, 1, &isq));
      PetscCall(ISCreateStride(PETSC_COMM_SELF, 1, 1, 1, &isp));
      PetscCall(TSRHSSplitSetIS(ts, "position", isq));
      PetscCall(TSRHSSplitSetIS(ts, "momentum", isp));
      PetscCall(TSRHSSplitSetRHSFunction(ts, "position", NULL, SplitPosition, user));
      PetscCall(TSRHSSplitSetRHSFunction(ts, "momentum", NULL, SplitMomentum, user));
      PetscCall(ISDestroy(&isq));
      PetscCall(ISDestroy(&isp));
    }
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
    PetscCall(VecGetArrayWrite(U, &u));
    u[0] = user->q0;
    u[1] = 0;
    PetscCall(VecRestoreArrayWrite(U, &u));
    PetscCall(TSSetSolution(ts, U));
  } else { /* u = q, v = q' */
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 1, &R));
    PetscCall(TSSetI2Function(ts, R, I2Function, user));
    PetscCall(TSSetI2Jacobian(ts, M, M, I2Jacobian, user));
    PetscCall(VecDestroy(&R));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 1, &U));
    PetscCall(VecDuplicate(U, &V));
    PetscCall(VecSet(U, user->q0));
    PetscCall(VecSet(V, 0));
    PetscCall(TS2SetSolution(ts, U, V));
  }
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, 100000));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSGetSNES(ts, &snes));
  if (user->tight) PetscCall(SNESSetTolerances(snes, 1e-14, 1e-14, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  if (events) {
    PetscInt  direction = 0;
    PetscReal vtol      = user->vtol; /* |q| at the located event: a time error of vtol / |p|, p = 2 sin(q0/2) */

    PetscCall(TSSetEventHandler(ts, 1, &direction, &terminate, EventFunction, PostEvent, user));
    PetscCall(TSSetEventTolerances(ts, user->eventtol, &vtol));
  }
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetConvergedReason(ts, reason));
  PetscCall(TSGetTime(ts, tend));
  if (user->door != DOOR_I2) {
    PetscCall(VecGetArrayRead(U, &uu));
    *q = PetscRealPart(uu[0]);
    *p = PetscRealPart(uu[1]);
    PetscCall(VecRestoreArrayRead(U, &uu));
  } else {
    Vec X, Xdot;

    PetscCall(TS2GetSolution(ts, &X, &Xdot));
    PetscCall(VecGetArrayRead(X, &uu));
    PetscCall(VecGetArrayRead(Xdot, &vv));
    *q = PetscRealPart(uu[0]);
    *p = PetscRealPart(vv[0]);
    PetscCall(VecRestoreArrayRead(X, &uu));
    PetscCall(VecRestoreArrayRead(Xdot, &vv));
  }
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  AppCtx            user = {DOOR_MECHANICAL, 2.0, PETSC_FALSE, PETSC_TRUE, PETSC_DEFAULT, 1e-12, 0};
  PetscReal         dt = 0.01, periods = 2, K, T, terr = 0, qerr = 0, q, p, qe, pe, tend, err, err0;
  PetscInt          expected  = 0;
  PetscBool         terminate = PETSC_FALSE;
  TSConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Event test options", NULL);
  PetscCall(PetscOptionsEnum("-door", "How the pendulum is given", NULL, Doors, (PetscEnum)user.door, (PetscEnum *)&user.door, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-periods", "Integration time in periods", NULL, periods, &periods, NULL));
  PetscCall(PetscOptionsBool("-terminate", "Stop at the first event", NULL, terminate, &terminate, NULL));
  PetscCall(PetscOptionsBool("-bounce", "Reflect the pendulum at q = 0", NULL, user.bounce, &user.bounce, NULL));
  PetscCall(PetscOptionsBool("-tight", "SNES tolerances 1e-14 (else PETSc's defaults)", NULL, user.tight, &user.tight, NULL));
  PetscCall(PetscOptionsReal("-event_tol", "TSSetEventTolerances() tol (a tiny one makes tiny steps at the events)", NULL, user.eventtol, &user.eventtol, NULL));
  PetscCall(PetscOptionsReal("-event_vtol", "TSSetEventTolerances() vtol", NULL, user.vtol, &user.vtol, NULL));
  PetscOptionsEnd();

  K = EllipticK(PetscSinReal(user.q0 / 2));
  T = periods * 4 * K;
  PetscCall(Run(&user, dt, T, PETSC_TRUE, terminate, &q, &p, &tend, &reason));

  /* the crossings (2j + 1) K before T */
  for (PetscInt j = 0; (2 * j + 1) * K < T; j++) {
    PetscReal te = (2 * j + 1) * K;

    if (expected < user.nevents) {
      terr = PetscMax(terr, PetscAbsReal(user.tevent[expected] - te));
      qerr = PetscMax(qerr, PetscAbsReal(user.qevent[expected]));
    }
    expected++;
    if (terminate) break;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "door %s%s: %" PetscInt_FMT " events located, %" PetscInt_FMT " expected\n", Doors[user.door], user.bounce ? ", bouncing" : "", user.nevents, expected));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "event times within 1e-10 of (2j+1) K: %s (%.1e)\n", terr < 1e-10 ? "yes" : "no", (double)terr));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "|q| at the events below 1e-11: %s\n", qerr < 1e-11 ? "yes" : "no"));
  PendulumExact(user.q0, tend, &qe, &pe);
  if (user.bounce && qe < 0) { /* the reflected motion is the free one mirrored */
    qe = -qe;
    pe = -pe;
  }
  err = PetscMax(PetscAbsReal(q - qe), PetscAbsReal(p - pe));
  if (terminate) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "stopped by the event (%s) at the first crossing: %s\n", TSConvergedReasons[reason], reason == TS_CONVERGED_EVENT && PetscAbsReal(tend - K) < 1e-10 ? "yes" : "no"));
  } else {
    PetscReal q0, p0, tend0;

    /* the same run without events: the rolled-back and shortened steps must not spoil the trajectory */
    user.bounce = PETSC_FALSE;
    PetscCall(Run(&user, dt, T, PETSC_FALSE, PETSC_FALSE, &q0, &p0, &tend0, &reason));
    PendulumExact(user.q0, tend0, &qe, &pe);
    err0 = PetscMax(PetscAbsReal(q0 - qe), PetscAbsReal(p0 - pe));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "final time reached with and without events: %s\n", PetscAbsReal(tend - T) < 1e-12 && PetscAbsReal(tend0 - T) < 1e-12 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "final state with events as accurate as without (error %.1e, without %.1e, below 1e-9): %s\n", (double)err, (double)err0, err <= 2 * err0 + 1e-12 && err < 1e-9 ? "yes" : "no"));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # Simpson with dt = 0.01 and Lobatto (order 6) with dt = 0.05 keep the global error below 1e-10 over two periods
  test:
    suffix: simpson
    args: -ts_simpvi_type simpson
  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto -dt 0.05
  test:
    suffix: simpson_i2
    args: -ts_simpvi_type simpson -door i2
  test:
    suffix: lobatto_i2
    args: -ts_simpvi_type lobatto -dt 0.05 -door i2
  test:
    suffix: simpson_kinsol
    requires: kinsol
    args: -ts_simpvi_type simpson -ts_simpvi_nonlinear_solver kinsol
    output_file: output/events_simpson.out
  # T = 6.5 K, where the free pendulum has q < 0 and the reflected one q > 0
  test:
    suffix: simpson_bounce
    args: -ts_simpvi_type simpson -bounce -periods 1.625
  test:
    suffix: lobatto_bounce_i2
    args: -ts_simpvi_type lobatto -dt 0.05 -bounce -periods 1.625 -door i2
  test:
    suffix: simpson_split
    args: -ts_simpvi_type simpson -door split
  test:
    suffix: lobatto_bounce_split
    args: -ts_simpvi_type lobatto -dt 0.05 -bounce -periods 1.625 -door split
  test:
    suffix: lobatto_terminate
    args: -ts_simpvi_type lobatto -dt 0.05 -terminate
  # default SNES tolerances and events located to 1e-13: the step after the tiny step that ends at an event must not be
  # solved loosely (it was, from a predictor extrapolated from the tiny step); on the dense path (pointwise) and the SNES
  testset:
    args: -ts_simpvi_type lobatto -dt 0.025 -tight false -event_tol 1e-13 -door pointwise
    output_file: output/events_lobatto_tiny.out
    test:
      suffix: lobatto_tiny_dense
    test:
      suffix: lobatto_tiny_snes
      args: -ts_simpvi_small_limit 0

TEST*/
