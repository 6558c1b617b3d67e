static char help[] = "Rigid bodies through TSSolve() (TSSimpVISetRigidBodies()): the heavy top of the seed's Table 3, scheme from -ts_simpvi_type.\n"
                     "  -case loop:        -n steps of -T/n by TSSolve() to -ts_max_steps, against the rigid-body object's own loop\n"
                     "                     (TSSimpVICreateRigidBodies(), SimpVIRigidBodiesStep()): bit for bit; then to the final time -T\n"
                     "                     (-ts_max_time) to 1e-14; TSSimpVIComputeEnergy() against the object's energy\n"
                     "  -case event:       TSSetEventHandler() on the tilt crossing -tilt (both ways, not terminating): the crossings\n"
                     "                     against those of a run without events, each located to the event tolerance, on the group\n"
                     "  -case interpolate: TSInterpolate() in the middle of each step: on the group, the two momenta kept, and the error\n"
                     "                     against a fine run of the object at the same time falling at the scheme's order (-order_min)\n"
                     "  -case fail:        a Newton that fails (-snes_max_it 1): TS_DIVERGED_NONLINEAR_SOLVE with the start state kept;\n"
                     "                     -ts_max_snes_failures -1: the step retried with halved steps\n"
                     "  -case errors:      the clear errors of what rigid bodies do not support\n"
                     "  -case tolerances:  the step SNES's relative tolerance: 0 by default, kept when set in code\n\n";

#include <simpvi.h>
#include "../examples/models/so3top.h" /* the heavy top of the seed's Table 3: SO3TopTable3, its potential and start */

/* A TSSIMPVI with the top, its state U set */
static PetscErrorCode TopTS(PetscReal dt, Vec *U, TS *ts)
{
  PetscReal J[9];

  PetscFunctionBeginUser;
  SO3TopInertia(&SO3TopTable3, J);
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12, U));
  PetscCall(SO3TopSetState(&SO3TopTable3, *U));
  PetscCall(TSCreate(PETSC_COMM_SELF, ts));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  PetscCall(TSSimpVISetRigidBodies(*ts, 1, J, SO3TopPotential, (void *)&SO3TopTable3));
  PetscCall(TSSetSolution(*ts, *U));
  PetscCall(TSSetTimeStep(*ts, dt));
  PetscCall(TSSetMaxTime(*ts, 1e6));
  PetscCall(TSSetMaxSteps(*ts, 1000000));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(*ts));
  PetscFunctionReturn(0);
}

/* ||R'R - I||_max */
static PetscReal Orthogonality(const PetscScalar *R)
{
  PetscReal e = 0;

  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) e = PetscMax(e, PetscAbsReal(R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j] - (i == j)));
  return e;
}

/* the largest |U - W| entry, momenta relative to the largest momentum of W */
static PetscErrorCode Difference(Vec U, Vec W, PetscReal *d)
{
  const PetscScalar *u, *w;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(W, &w));
  *d = 0;
  for (PetscInt j = 0; j < 9; j++) *d = PetscMax(*d, PetscAbsReal(u[j] - w[j]));
  for (PetscInt j = 9; j < 12; j++) *d = PetscMax(*d, PetscAbsReal(u[j] - w[j]) / PetscMax(PetscAbsReal(w[11]), PetscAbsReal(w[10])));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(W, &w));
  PetscFunctionReturn(0);
}

/* The object's own loop: n steps of h from the top's start, then one of hlast if positive, into W (W made here) */
static PetscErrorCode OwnLoop(PetscInt n, PetscReal h, PetscReal hlast, Vec *W)
{
  PetscReal         J[9];
  TS                ts;
  SimpVIRigidBodies rb;

  PetscFunctionBeginUser;
  SO3TopInertia(&SO3TopTable3, J);
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVICreateRigidBodies(ts, 1, J, SO3TopPotential, (void *)&SO3TopTable3, &rb));
  PetscCall(SimpVIRigidBodiesCreateState(rb, W));
  PetscCall(SO3TopSetState(&SO3TopTable3, *W));
  for (PetscInt i = 0; i < n; i++) PetscCall(SimpVIRigidBodiesStep(rb, h, *W));
  if (hlast > 0) PetscCall(SimpVIRigidBodiesStep(rb, hlast, *W));
  PetscCall(SimpVIRigidBodiesDestroy(&rb));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunLoop(PetscInt n, PetscReal T)
{
  TS                ts;
  Vec               U, W;
  PetscReal         d, t, E, Ew;
  PetscInt          steps;
  SimpVIRigidBodies rb;
  PetscBool         flg;

  PetscFunctionBeginUser;
  PetscCall(OwnLoop(n, T / n, 0, &W));
  PetscCall(TopTS(T / n, &U, &ts));
  PetscCall(TSSetMaxSteps(ts, n));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetStepNumber(ts, &steps));
  PetscCall(Difference(U, W, &d));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "TSSolve() to -ts_max_steps: %" PetscInt_FMT " steps, the object's own loop bit for bit: %s\n", steps, d == 0 ? "yes" : "no"));
  if (d != 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  difference %g\n", (double)d));
  PetscCall(TSSimpVIComputeEnergy(ts, T, U, &E));
  PetscCall(TSSimpVIGetRigidBodies(ts, &rb));
  PetscCall(SimpVIRigidBodiesComputeEnergy(rb, W, &Ew));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "TSSimpVIComputeEnergy() equal to the object's energy: %s\n", E == Ew ? "yes" : "no"));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));

  /* to the final time: the last step lands on T by the compensated time sum, or is clipped to it */
  PetscCall(TopTS(T / n, &U, &ts));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetStepNumber(ts, &steps));
  PetscCall(TSGetTime(ts, &t));
  PetscCall(Difference(U, W, &d));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "TSSolve() to -ts_max_time: %" PetscInt_FMT " steps, at the final time: %s, the object's loop to 1e-14: %s\n", steps, PetscAbsReal(t - T) <= 1e-14 * T ? "yes" : "no", d <= 1e-14 ? "yes" : "no"));
  if (d > 1e-14) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  difference %g\n", (double)d));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&W));

  /* the scheme changed after TSSetUp() and back (the step rebuilt twice), then TSSolve() in two calls (the second goes
     on from the first's compensations): still the object's loop bit for bit */
  {
    TSSimpVIType type, other;

    PetscCall(OwnLoop(n, T / n, 0, &W));
    PetscCall(TopTS(T / n, &U, &ts));
    PetscCall(TSSimpVIGetType(ts, &type));
    PetscCall(PetscStrallocpy(type, (char **)&type));
    PetscCall(PetscStrcmp(type, TSSIMPVISIMPSON, &flg));
    other = flg ? TSSIMPVILOBATTO : TSSIMPVISIMPSON;
    PetscCall(TSSetUp(ts));
    PetscCall(TSSimpVISetType(ts, other));
    PetscCall(TSSimpVISetType(ts, type));
    PetscCall(TSSetMaxSteps(ts, n / 2));
    PetscCall(TSSolve(ts, NULL));
    PetscCall(TSSetMaxSteps(ts, n));
    PetscCall(TSSolve(ts, NULL));
    PetscCall(Difference(U, W, &d));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "scheme changed after TSSetUp() and back, TSSolve() in two calls: the object's loop bit for bit: %s\n", d == 0 ? "yes" : "no"));
    if (d != 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  difference %g\n", (double)d));
    PetscCall(PetscFree(type));
    PetscCall(TSDestroy(&ts));
    PetscCall(VecDestroy(&U));
    PetscCall(VecDestroy(&W));
  }

  /* -ts_exact_final_time interpolate: the n-th step of T/(n - 1/2) passes T, and U(T) is TSInterpolate()'s, the step of
     T - t_{n-1} from the state at t_{n-1} (the object's loop of n - 1 steps, then that step) */
  {
    const PetscReal dt = T / (n - 0.5);
    PetscReal       o;

    PetscCall(OwnLoop(n - 1, dt, T - (n - 1) * dt, &W));
    PetscCall(TopTS(dt, &U, &ts));
    PetscCall(TSSetMaxTime(ts, T));
    PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_INTERPOLATE));
    PetscCall(TSSolve(ts, U));
    PetscCall(TSGetStepNumber(ts, &steps));
    PetscCall(Difference(U, W, &d));
    {
      const PetscScalar *u;

      PetscCall(VecGetArrayRead(U, &u));
      o = Orthogonality(u);
      PetscCall(VecRestoreArrayRead(U, &u));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "-ts_exact_final_time interpolate: %" PetscInt_FMT " steps, U(T) the object's loop and a last step to T to 1e-14: %s, on the group: %s\n", steps, d <= 1e-14 ? "yes" : "no", o <= 1e-13 ? "yes" : "no"));
    if (d > 1e-14) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  difference %g\n", (double)d));
    PetscCall(TSDestroy(&ts));
    PetscCall(VecDestroy(&U));
    PetscCall(VecDestroy(&W));
  }
  PetscFunctionReturn(0);
}

typedef struct {
  PetscReal c;     /* cos of the tilt of the event */
  PetscInt  count; /* events seen */
  PetscReal worst; /* the largest |R33 - c| and ||R'R - I|| at them */
  PetscReal orth;
  PetscReal lo, hi; /* the range of R33 along the run without events */
} EventCtx;

static PetscErrorCode TiltIndicator(TS ts, PetscReal t, Vec U, PetscScalar f[], void *ctx)
{
  const PetscScalar *u;

  PetscFunctionBeginUser;
  (void)ts;
  (void)t;
  PetscCall(VecGetArrayRead(U, &u));
  f[0] = u[8] - ((EventCtx *)ctx)->c;
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode TiltPostEvent(TS ts, PetscInt nev, PetscInt list[], PetscReal t, Vec U, PetscBool forward, void *ctx)
{
  EventCtx          *e = (EventCtx *)ctx;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  (void)ts;
  (void)list;
  (void)t;
  (void)forward;
  e->count += nev;
  PetscCall(VecGetArrayRead(U, &u));
  e->worst = PetscMax(e->worst, PetscAbsReal(u[8] - e->c));
  e->orth  = PetscMax(e->orth, Orthogonality(u));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

/* the crossings of R33 = c along a run without events, by the monitor */
static PetscErrorCode CountCrossings(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  EventCtx          *e = (EventCtx *)ctx;
  const PetscScalar *u;
  PetscReal          s;

  PetscFunctionBeginUser;
  (void)ts;
  (void)t;
  PetscCall(VecGetArrayRead(U, &u));
  s = u[8] - e->c;
  PetscCall(VecRestoreArrayRead(U, &u));
  if (step > 0 && s * e->worst < 0) e->count++;
  e->lo    = step ? PetscMin(e->lo, s + e->c) : s + e->c;
  e->hi    = step ? PetscMax(e->hi, s + e->c) : s + e->c;
  e->worst = s; /* the last sign */
  PetscFunctionReturn(0);
}

static PetscErrorCode RunEvent(PetscInt n, PetscReal T)
{
  TS        ts;
  Vec       U, W;
  PetscReal tilt = 0.3, tol = 1e-9, d;
  PetscInt  direction = 0, steps;
  PetscBool terminate = PETSC_FALSE, show = PETSC_FALSE;
  EventCtx  ev = {0}, cross = {0};

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tilt", &tilt, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-show", &show, NULL));
  ev.c = cross.c = PetscCosReal(tilt);
  PetscCall(TopTS(T / n, &U, &ts));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSMonitorSet(ts, CountCrossings, &cross, NULL));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSDestroy(&ts));
  W = U;

  PetscCall(TopTS(T / n, &U, &ts));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetEventHandler(ts, 1, &direction, &terminate, TiltIndicator, TiltPostEvent, &ev));
  PetscCall(TSSetEventTolerances(ts, tol, NULL));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetStepNumber(ts, &steps));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "tilt crossings located: %" PetscInt_FMT ", as many as the run without events crosses: %s\n", ev.count, ev.count == cross.count && ev.count > 0 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "each within the event tolerance of the tilt: %s, on the group (||R'R - I|| <= 1e-13): %s\n", ev.worst <= 10 * tol ? "yes" : "no", ev.orth <= 1e-13 ? "yes" : "no"));
  /* the steps shortened at the events move the end by the scheme's error only (a roll-back that lost the step's start
     would move it by far more) */
  PetscCall(Difference(U, W, &d));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "the end state as without events, to 1e-5: %s\n", d <= 1e-5 ? "yes" : "no"));
  if (d > 1e-5 || show) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  difference %g\n", (double)d));
  if (ev.count != cross.count || !ev.count || ev.worst > 10 * tol)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %" PetscInt_FMT " crossings without events, |R33 - c| %g, R33 in [%g, %g]\n", cross.count, (double)ev.worst, (double)cross.lo, (double)cross.hi));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&W));
  PetscFunctionReturn(0);
}

/* TSInterpolate() at the middle of every step of n steps over T: the largest error against the object's own loop of
   nref steps (fine) at those times, ||R'R - I|| and the two momenta's changes */
static PetscErrorCode InterpolateRun(PetscInt n, PetscInt nref, PetscReal T, PetscReal *err, PetscReal *orth, PetscReal *dmom)
{
  PetscReal         J[9];
  TS                ts, tr;
  Vec               U, Ui, W;
  SimpVIRigidBodies rb;
  PetscReal         h = T / n, mu0 = 0, a0 = 0;

  PetscFunctionBeginUser;
  SO3TopInertia(&SO3TopTable3, J);
  PetscCheck(nref % (2 * n) == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-nref must be a multiple of 2 n");
  PetscCall(TopTS(h, &U, &ts));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetUp(ts));
  PetscCall(VecDuplicate(U, &Ui));
  PetscCall(TSCreate(PETSC_COMM_SELF, &tr)); /* the reference: the object's loop of nref steps */
  PetscCall(TSSetType(tr, TSSIMPVI));
  PetscCall(TSSetFromOptions(tr));
  PetscCall(TSSimpVICreateRigidBodies(tr, 1, J, SO3TopPotential, (void *)&SO3TopTable3, &rb));
  PetscCall(SimpVIRigidBodiesCreateState(rb, &W));
  PetscCall(SO3TopSetState(&SO3TopTable3, W));
  {
    const PetscScalar *u;

    PetscCall(VecGetArrayRead(U, &u));
    mu0 = u[6] * u[9] + u[7] * u[10] + u[8] * u[11]; /* the spatial vertical momentum (R pi)_3 and the axial pi_3 */
    a0  = u[11];
    PetscCall(VecRestoreArrayRead(U, &u));
  }
  *err = *orth = *dmom = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscScalar *u;
    PetscReal          d;

    PetscCall(TSStep(ts));
    PetscCall(TSInterpolate(ts, (i + 0.5) * h, Ui));
    for (PetscInt k = 0; k < nref / (2 * n); k++) PetscCall(SimpVIRigidBodiesStep(rb, T / nref, W));
    PetscCall(Difference(Ui, W, &d));
    *err = PetscMax(*err, d);
    PetscCall(VecGetArrayRead(Ui, &u));
    *orth = PetscMax(*orth, Orthogonality(u));
    *dmom = PetscMax(*dmom, PetscMax(PetscAbsReal(u[6] * u[9] + u[7] * u[10] + u[8] * u[11] - mu0) / PetscAbsReal(mu0), PetscAbsReal(u[11] - a0) / PetscAbsReal(a0)));
    PetscCall(VecRestoreArrayRead(Ui, &u));
    for (PetscInt k = 0; k < nref / (2 * n); k++) PetscCall(SimpVIRigidBodiesStep(rb, T / nref, W));
  }
  PetscCall(SimpVIRigidBodiesDestroy(&rb));
  PetscCall(TSDestroy(&tr));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&Ui));
  PetscCall(VecDestroy(&W));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunInterpolate(PetscInt n, PetscInt nref, PetscReal T)
{
  PetscReal e1, e2, o1, o2, m1, m2, order, order_min = 3.9;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-order_min", &order_min, NULL));
  PetscCall(InterpolateRun(n, nref, T, &e1, &o1, &m1));
  PetscCall(InterpolateRun(2 * n, nref, T, &e2, &o2, &m2));
  order = PetscLog2Real(e1 / e2);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "TSInterpolate() in mid-step: on the group (||R'R - I|| <= 1e-13): %s, the two momenta kept to 1e-13: %s\n", PetscMax(o1, o2) <= 1e-13 ? "yes" : "no", PetscMax(m1, m2) <= 1e-13 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "its error at the scheme's order (observed order >= %g): %s\n", (double)order_min, order >= order_min ? "yes" : "no"));
  if (order < order_min || PetscMax(o1, o2) > 1e-13 || PetscMax(m1, m2) > 1e-13)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  errors %g %g (order %g), orthogonality %g, momenta %g\n", (double)e1, (double)e2, (double)order, (double)PetscMax(o1, o2), (double)PetscMax(m1, m2)));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunFail(PetscInt n, PetscReal T)
{
  TS                ts;
  Vec               U, U0;
  TSConvergedReason reason;
  PetscInt          steps, rejects;
  PetscReal         d;

  PetscFunctionBeginUser;
  PetscCall(TopTS(T / n, &U, &ts));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetErrorIfStepFails(ts, PETSC_FALSE));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetConvergedReason(ts, &reason));
  PetscCall(TSGetStepNumber(ts, &steps));
  PetscCall(TSGetStepRejections(ts, &rejects));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "reason %s after %" PetscInt_FMT " steps, %" PetscInt_FMT " retried\n", TSConvergedReasons[reason], steps, rejects));
  if (rejects && reason > 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "retried with halved steps and reached the final time: %s\n", reason == TS_CONVERGED_TIME ? "yes" : "no"));
  if (reason < 0) {
    PetscCall(VecDuplicate(U, &U0));
    PetscCall(SO3TopSetState(&SO3TopTable3, U0));
    PetscCall(Difference(U, U0, &d));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "the state of the last good step (the start) kept: %s\n", d == 0 && steps == 0 ? "yes" : "no"));
    PetscCall(VecDestroy(&U0));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

static PetscErrorCode DummyLagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  (void)ts, (void)t, (void)x, (void)v, (void)Lx, (void)Lv, (void)ctx;
  *L = 0;
  return 0;
}

/* each unsupported use is an error of the expected class, with the objects destroyed afterwards */
static PetscErrorCode RunErrors(void)
{
  const char *names[]  = {"a Lagrangian as well", "TSForwardSetSensitivities()", "a state of the wrong size", "TSSimpVIGetPhaseSpaceIS()", "TSRK and TSSimpVISetUpPhaseSpace()", "an attitude that is not a rotation", "a reflection for an attitude", "steps that turn the top by 12.6 rad (h = 0.05 s)"};
  const int   expect[] = {PETSC_ERR_USER, PETSC_ERR_SUP, PETSC_ERR_ARG_SIZ, PETSC_ERR_ARG_WRONGSTATE, PETSC_ERR_SUP, PETSC_ERR_ARG_WRONG, PETSC_ERR_ARG_WRONG, PETSC_ERR_NOT_CONVERGED};

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < 8; c++) {
    TS             ts;
    Vec            U, V = NULL;
    Mat            S = NULL;
    PetscErrorCode err;

    PetscCall(TopTS(c == 7 ? 0.05 : 1e-3, &U, &ts));
    if (c == 5 || c == 6) { /* R12 off by 0.3 (a new user's slip), or R with its first row negated (det R = -1) */
      PetscScalar *u;

      PetscCall(VecGetArray(U, &u));
      if (c == 5) u[1] += 0.3;
      else
        for (PetscInt j = 0; j < 3; j++) u[j] = -u[j];
      PetscCall(VecRestoreArray(U, &u));
    }
    PetscCall(TSSetMaxSteps(ts, 2));
    if (c == 0) PetscCall(TSSimpVISetLagrangian(ts, DummyLagrangian, NULL));
    if (c == 1) {
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 12, 1, NULL, &S));
      PetscCall(TSForwardSetSensitivities(ts, 1, S));
    }
    if (c == 2) {
      PetscCall(VecCreateSeq(PETSC_COMM_SELF, 13, &V));
      PetscCall(TSSetSolution(ts, V));
    }
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    if (c == 3) err = TSSimpVIGetPhaseSpaceIS(ts, NULL, NULL);
    else if (c == 4) { /* another type: its phase-space form has no rotations (the message says TSSIMPVI only) */ err = TSSetType(ts, TSRK);
      if (!err) err = TSSimpVISetUpPhaseSpace(ts);
    } else err = TSSolve(ts, NULL);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "rigid bodies with %s: the expected error: %s\n", names[c], err == (PetscErrorCode)expect[c] ? "yes" : "no"));
    if (err != (PetscErrorCode)expect[c]) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  error %d, expected %d\n", (int)err, expect[c]));
    PetscCall(TSDestroy(&ts));
    PetscCall(VecDestroy(&U));
    PetscCall(VecDestroy(&V));
    PetscCall(MatDestroy(&S));
  }
  PetscFunctionReturn(0);
}

/* the step's SNES stops on its update (rtol 0) by default, while a relative tolerance set in code after
   TSSetFromOptions() stays (a PETSc program's setting is not overwritten at TSSetUp()) */
static PetscErrorCode RunTolerances(void)
{
  PetscReal rtol[2];

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < 2; c++) {
    TS   ts;
    Vec  U;
    SNES snes;

    PetscCall(TopTS(1e-3, &U, &ts));
    PetscCall(TSSetMaxSteps(ts, 2));
    PetscCall(TSGetSNES(ts, &snes));
    if (c) PetscCall(SNESSetTolerances(snes, PETSC_DEFAULT, 1e-6, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
    PetscCall(TSSolve(ts, NULL));
    PetscCall(SNESGetTolerances(snes, NULL, &rtol[c], NULL, NULL, NULL));
    PetscCall(TSDestroy(&ts));
    PetscCall(VecDestroy(&U));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "rigid bodies' step SNES: rtol 0 by default: %s; a relative tolerance set in code kept: %s\n", rtol[0] == 0 ? "yes" : "no", rtol[1] == 1e-6 ? "yes" : "no"));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      which[16] = "loop";
  PetscInt  n = 100, nref = 6400;
  PetscReal T = 0.1;
  PetscBool loop, event, interp, fail, errors, tolerances;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", which, sizeof(which), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nref", &nref, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-T", &T, NULL));
  PetscCall(PetscStrcmp(which, "loop", &loop));
  PetscCall(PetscStrcmp(which, "event", &event));
  PetscCall(PetscStrcmp(which, "interpolate", &interp));
  PetscCall(PetscStrcmp(which, "fail", &fail));
  PetscCall(PetscStrcmp(which, "errors", &errors));
  PetscCall(PetscStrcmp(which, "tolerances", &tolerances));
  if (loop) PetscCall(RunLoop(n, T));
  else if (event) PetscCall(RunEvent(n, T));
  else if (interp) PetscCall(RunInterpolate(n, nref, T));
  else if (fail) PetscCall(RunFail(n, T));
  else if (errors) PetscCall(RunErrors());
  else if (tolerances) PetscCall(RunTolerances());
  else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Unknown -case %s", which);
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: loop_simpson
    args: -case loop -ts_simpvi_type simpson
    output_file: output/rigidbody_ts_loop.out
  test:
    suffix: loop_lobatto
    args: -case loop -ts_simpvi_type lobatto
    output_file: output/rigidbody_ts_loop.out
  # -ts_view names the group, the map, the scheme and its order; -ts_monitor shows the steps
  test:
    suffix: view
    args: -case loop -n 4 -T 0.004 -ts_view -ts_monitor
    filter: grep -e "Variational integrator" -e "Rigid bodies" -e "curve of a step" -e "state:" -e "scheme " -e "TS dt" -e "TSSolve"
  test:
    suffix: event_simpson
    args: -case event -T 1.5 -n 750 -tilt 0.3 -ts_simpvi_type simpson
    output_file: output/rigidbody_ts_event.out
  test:
    suffix: event_lobatto
    args: -case event -T 1.5 -n 750 -tilt 0.3 -ts_simpvi_type lobatto
    output_file: output/rigidbody_ts_event.out
  test:
    suffix: interpolate_simpson
    args: -case interpolate -T 0.1 -n 80 -nref 1280 -ts_simpvi_type simpson -order_min 3.9
    output_file: output/rigidbody_ts_interpolate.out
  test:
    suffix: interpolate_lobatto
    args: -case interpolate -T 0.1 -n 10 -nref 640 -ts_simpvi_type lobatto -order_min 5.8
    output_file: output/rigidbody_ts_interpolate.out
  # a Newton that fails: the run ends with the TS's reason, or its steps are retried halved
  test:
    suffix: fail
    args: -case fail -snes_max_it 1
  test:
    suffix: fail_retry
    args: -case fail -snes_max_it 2 -ts_max_snes_failures -1 -n 10 -T 0.1
  test:
    suffix: errors
    args: -case errors

  test:
    suffix: tolerances
    args: -case tolerances

TEST*/
