static char help[] = "Checkpoint and restart of rigid bodies (TSSimpVISetRigidBodies(), -ts_simpvi_checkpoint, -ts_simpvi_restart): the heavy\n"
                     "top of the seed's Table 3, scheme from -scheme.\n"
                     "  -case restart: a run of -n steps against a run of n/2 steps that writes a checkpoint, restarted from it for\n"
                     "                 n/2 more: the final states and times the same bit for bit; a restart from the state alone\n"
                     "                 (TSSetTime(), TSSetStepNumber(), no compensations) differs, so the comparison sees them.\n"
                     "                 A run writing a checkpoint every n/2 steps, and restarted from its checkpoint of step n/2.\n"
                     "                 -torque: with a time-dependent, damping body-frame torque (TSSimpVISetRigidBodyTorque())\n"
                     "  -case errors:  a restart from the checkpoint of another scheme or of two free bodies: a clear error (another form:\n"
                     "                 tests/rigidring.c -check restart)\n\n";

#include <simpvi.h>
#include "../examples/models/so3top.h" /* the heavy top of the seed's Table 3: SO3TopTable3, its potential and start */

static const PetscReal taus[3] = {0.3, -0.2, 0.5}, damping = 0.05;

/* tau = R' tau_s cos(t) - c Omega (tauR = hat(R' tau_s cos t), tauO = -c I), as tests/rigidbody_torque.c's */
static PetscErrorCode Torque(PetscInt nb, PetscReal t, const PetscReal R[], const PetscReal Om[], PetscReal tau[], PetscReal tauR[], PetscReal tauO[], PetscReal tauth[], void *ctx)
{
  const PetscInt  n  = 3 * nb;
  const PetscReal ct = PetscCosReal(t);

  PetscFunctionBeginUser;
  (void)tauth, (void)ctx;
  for (PetscInt b = 0; b < nb; b++) {
    const PetscReal *Rb = R + 9 * b;
    PetscReal        ts[3];

    for (PetscInt i = 0; i < 3; i++) ts[i] = ct * (Rb[i] * taus[0] + Rb[3 + i] * taus[1] + Rb[6 + i] * taus[2]);
    for (PetscInt i = 0; i < 3; i++) tau[3 * b + i] = ts[i] - damping * Om[3 * b + i];
    if (tauR) {
      PetscReal *A = tauR + 3 * b * n + 3 * b;

      A[1] = -ts[2], A[2] = ts[1], A[n] = ts[2], A[n + 2] = -ts[0], A[2 * n] = -ts[1], A[2 * n + 1] = ts[0];
    }
    if (tauO)
      for (PetscInt i = 0; i < 3; i++) tauO[(3 * b + i) * n + 3 * b + i] = -damping;
  }
  PetscFunctionReturn(0);
}

/* A TSSIMPVI with nb tops (one, or two free bodies), options prefix prefix, its state U set */
static PetscErrorCode MakeTS(const char prefix[], const char scheme[], PetscInt nb, PetscBool torque, PetscReal dt, PetscInt steps, Vec *U, TS *ts)
{
  PetscReal J[18];

  PetscFunctionBeginUser;
  SO3TopInertia(&SO3TopTable3, J);
  SO3TopInertia(&SO3TopTable3, J + 9);
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12 * nb, U));
  if (nb == 1) PetscCall(SO3TopSetState(&SO3TopTable3, *U));
  else {
    PetscScalar *u;

    PetscCall(VecGetArray(*U, &u));
    for (PetscInt j = 0; j < 12 * nb; j++) u[j] = j < 9 * nb ? (j % 9 == 0 || j % 9 == 4 || j % 9 == 8) : 0.1 * (j - 9 * nb + 1);
    PetscCall(VecRestoreArray(*U, &u));
  }
  PetscCall(TSCreate(PETSC_COMM_SELF, ts));
  PetscCall(TSSetOptionsPrefix(*ts, prefix));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(*ts, scheme));
  PetscCall(TSSimpVISetRigidBodies(*ts, nb, J, nb == 1 ? SO3TopPotential : NULL, (void *)&SO3TopTable3));
  if (torque) PetscCall(TSSimpVISetRigidBodyTorque(*ts, 0, Torque, NULL));
  PetscCall(TSSetSolution(*ts, *U));
  PetscCall(TSSetTimeStep(*ts, dt));
  PetscCall(TSSetMaxTime(*ts, 1e6));
  PetscCall(TSSetMaxSteps(*ts, steps));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(*ts));
  PetscFunctionReturn(0);
}

/* The largest |U - W| entry */
static PetscErrorCode MaxDifference(Vec U, Vec W, PetscReal *d)
{
  Vec D;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U, &D));
  PetscCall(VecWAXPY(D, -1, W, U));
  PetscCall(VecNorm(D, NORM_INFINITY, d));
  PetscCall(VecDestroy(&D));
  PetscFunctionReturn(0);
}

/* After step `step`, a copy of the checkpoint the step's start wrote (-ts_simpvi_checkpoint_every): the periodic one,
   before the end of TSSolve() overwrites it */
typedef struct {
  PetscInt    step;
  const char *from, *to;
} CopyAt;

static PetscErrorCode CopyCheckpoint(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  const CopyAt *c = (const CopyAt *)ctx;
  FILE         *in, *out;
  char          buf[4096];
  size_t        k;

  PetscFunctionBeginUser;
  (void)ts, (void)t, (void)U;
  if (step != c->step) PetscFunctionReturn(0);
  in  = fopen(c->from, "rb");
  out = fopen(c->to, "wb");
  PetscCheck(in && out, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot copy %s to %s", c->from, c->to);
  while ((k = fread(buf, 1, sizeof(buf), in)) > 0) PetscCheck(fwrite(buf, 1, k, out) == k, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write %s", c->to);
  fclose(in);
  PetscCheck(!fclose(out), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write %s", c->to);
  PetscFunctionReturn(0);
}

static PetscErrorCode RunRestart(const char scheme[], PetscInt n, PetscReal dt, PetscBool torque, const char file[])
{
  TS        ta, tb, tc, td;
  Vec       Ua, Ub, Uc, Ud;
  PetscReal t[4], dc, dd;
  PetscInt  steps[4];
  PetscBool same;

  PetscFunctionBeginUser;
  PetscCall(MakeTS("a_", scheme, 1, torque, dt, n, &Ua, &ta)); /* all n steps in one run */
  PetscCall(TSSolve(ta, NULL));
  PetscCall(PetscOptionsSetValue(NULL, "-b_ts_simpvi_checkpoint", file)); /* n/2 steps, the checkpoint at the end */
  PetscCall(MakeTS("b_", scheme, 1, torque, dt, n / 2, &Ub, &tb));
  PetscCall(TSSolve(tb, NULL));
  PetscCall(PetscOptionsSetValue(NULL, "-c_ts_simpvi_restart", file)); /* restarted from it to step n */
  PetscCall(MakeTS("c_", scheme, 1, torque, dt, n, &Uc, &tc));
  PetscCall(TSSolve(tc, NULL));
  PetscCall(MakeTS("d_", scheme, 1, torque, dt, n, &Ud, &td)); /* from b's state, time and step alone */
  PetscCall(TSGetTime(tb, &t[1]));
  PetscCall(VecCopy(Ub, Ud));
  PetscCall(TSSetTime(td, t[1]));
  PetscCall(TSSetStepNumber(td, n / 2));
  PetscCall(TSSolve(td, NULL));
  PetscCall(TSGetTime(ta, &t[0]));
  PetscCall(TSGetTime(tc, &t[2]));
  PetscCall(TSGetTime(td, &t[3]));
  PetscCall(TSGetStepNumber(ta, &steps[0]));
  PetscCall(TSGetStepNumber(tb, &steps[1]));
  PetscCall(TSGetStepNumber(tc, &steps[2]));
  PetscCall(TSGetStepNumber(td, &steps[3]));
  PetscCall(MaxDifference(Ua, Uc, &dc));
  PetscCall(MaxDifference(Ua, Ud, &dd));
  PetscCall(VecEqual(Ua, Uc, &same));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s%s: %" PetscInt_FMT " steps against %" PetscInt_FMT " + %" PetscInt_FMT " restarted from the checkpoint: max |difference| %g, the same bit for bit: %s; the same final time: %s\n", scheme, torque ? " with a torque" : "", steps[0], steps[1], steps[2] - steps[1], (double)dc, same && dc == 0 ? "yes" : "no", t[0] == t[2] && steps[0] == steps[2] ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  restarted from the state, time and step alone (no compensations): differs from the one run: %s\n", dd > 0 || t[3] != t[0] ? "yes" : "no"));
  PetscCall(PetscInfo(NULL, "restart from the state alone: max |difference| %g, time difference %g\n", (double)dd, (double)(t[3] - t[0])));
  { /* the periodic checkpoint (at the start of step n/2 + 1, -ts_simpvi_checkpoint_every n/2) of a run of n steps */
    char      mid[PETSC_MAX_PATH_LEN + 8], every[32];
    CopyAt    copy;
    PetscReal de, df;
    PetscBool samee, samef;
    TS        te, tf;
    Vec       Ue, Uf;

    PetscCall(PetscSNPrintf(mid, sizeof(mid), "%s.mid", file));
    PetscCall(PetscSNPrintf(every, sizeof(every), "%" PetscInt_FMT, n / 2));
    copy.step = n / 2 + 1, copy.from = file, copy.to = mid;
    PetscCall(PetscOptionsSetValue(NULL, "-e_ts_simpvi_checkpoint", file));
    PetscCall(PetscOptionsSetValue(NULL, "-e_ts_simpvi_checkpoint_every", every));
    PetscCall(MakeTS("e_", scheme, 1, torque, dt, n, &Ue, &te));
    PetscCall(TSMonitorSet(te, CopyCheckpoint, &copy, NULL));
    PetscCall(TSSolve(te, NULL));
    PetscCall(PetscOptionsSetValue(NULL, "-f_ts_simpvi_restart", mid));
    PetscCall(MakeTS("f_", scheme, 1, torque, dt, n, &Uf, &tf));
    PetscCall(TSSolve(tf, NULL));
    PetscCall(MaxDifference(Ua, Ue, &de));
    PetscCall(MaxDifference(Ua, Uf, &df));
    PetscCall(VecEqual(Ua, Ue, &samee));
    PetscCall(VecEqual(Ua, Uf, &samef));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  a run writing checkpoints every %" PetscInt_FMT " steps: max |difference| %g, the same bit for bit: %s; restarted from its checkpoint of step %" PetscInt_FMT ": max |difference| %g, the same bit for bit: %s\n", n / 2, (double)de, samee && de == 0 ? "yes" : "no", n / 2, (double)df, samef && df == 0 ? "yes" : "no"));
    PetscCall(TSDestroy(&te));
    PetscCall(TSDestroy(&tf));
    PetscCall(VecDestroy(&Ue));
    PetscCall(VecDestroy(&Uf));
  }
  PetscCall(TSDestroy(&ta));
  PetscCall(TSDestroy(&tb));
  PetscCall(TSDestroy(&tc));
  PetscCall(TSDestroy(&td));
  PetscCall(VecDestroy(&Ua));
  PetscCall(VecDestroy(&Ub));
  PetscCall(VecDestroy(&Uc));
  PetscCall(VecDestroy(&Ud));
  PetscFunctionReturn(0);
}

/* Restarts from the checkpoint of another problem: PETSC_ERR_ARG_INCOMP, the objects destroyed afterwards */
static PetscErrorCode RunErrors(const char file[])
{
  const char *names[] = {"another scheme (lobatto)", "two free bodies", "the top with a torque"};
  TS          ts;
  Vec         U;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsSetValue(NULL, "-w_ts_simpvi_checkpoint", file)); /* the top, simpson, 4 steps */
  PetscCall(MakeTS("w_", "simpson", 1, PETSC_FALSE, 1e-3, 4, &U, &ts));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(PetscOptionsSetValue(NULL, "-r_ts_simpvi_restart", file));
  for (PetscInt c = 0; c < 3; c++) {
    PetscErrorCode err;

    PetscCall(MakeTS("r_", c == 0 ? "lobatto" : "simpson", c == 1 ? 2 : 1, (PetscBool)(c == 2), 1e-3, 8, &U, &ts));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    err = TSSolve(ts, NULL);
    PetscCall(PetscPopErrorHandler());
    if (c < 2) PetscCall(PetscPrintf(PETSC_COMM_SELF, "a restart of the top (simpson) as %s: an error (PETSC_ERR_ARG_INCOMP): %s\n", names[c], err == PETSC_ERR_ARG_INCOMP ? "yes" : "no"));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "a restart of the top (simpson) as %s: accepted (the torque is the program's, not the state's): %s\n", names[c], !err ? "yes" : "no"));
    if (c < 2 && err != PETSC_ERR_ARG_INCOMP) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  error %d\n", (int)err));
    PetscCall(TSDestroy(&ts));
    PetscCall(VecDestroy(&U));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      which[16] = "restart", scheme[32] = "simpson", file[PETSC_MAX_PATH_LEN] = "rigidbody_checkpoint.cp";
  PetscInt  n      = 200;
  PetscReal dt     = 1e-3;
  PetscBool torque = PETSC_FALSE, restart;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", which, sizeof(which), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-scheme", scheme, sizeof(scheme), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-file", file, sizeof(file), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-dt", &dt, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-torque", &torque, NULL));
  PetscCall(PetscStrcmp(which, "restart", &restart));
  if (restart) PetscCall(RunRestart(scheme, n, dt, torque, file));
  else PetscCall(RunErrors(file));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: restart
    args: -scheme {{simpson lobatto}separate output} -torque {{0 1}separate output}

  test:
    suffix: errors
    args: -case errors

TEST*/
