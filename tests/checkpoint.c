static char help[] = "Checkpoint and restart of TSSIMPVI on a chain of n pendulums with springs between neighbours (a discrete\n"
                     "sine-Gordon: L = sum_i [v_i^2/2 - kappa/2 (u_{i+1} - u_i)^2 - (1 - cos u_i)], u_0 = u_{n+1} = 0) on a 1-D DMDA,\n"
                     "through the mechanical door (U = [q_local | p_local]) or PETSc's second-order door (TSSetI2Function()).\n"
                     "  -final <file>      write the final positions and momenta (velocities for -door i2) in the DMDA's natural order,\n"
                     "                     for tests/checkpoint/checkpoint_kill.py, which compares them byte for byte\n"
                     "  -kill_at_step <k>  rank -kill_rank SIGKILLs itself in the monitor of step k (a run killed mid-way)\n"
                     "  -pid_file <file>   each rank writes its process id to <file>.<rank> (for a kill from outside)\n"
                     "  -restart_check     in one process: a run to the end writing checkpoints, then a second TS restarted from the\n"
                     "                     last one; prints whether the two final states are bitwise equal\n"
                     "Options: -door mechanical|i2 -n <40> -steps <200> -dt <0.05> -kappa <4>\n\n";

#include <simpvi.h>
#include <petscdmda.h>
#include <signal.h>
#include <unistd.h>

typedef enum {
  DOOR_MECHANICAL,
  DOOR_I2
} Door;
static const char *const Doors[] = {"mechanical", "i2", "Door", "DOOR_", NULL};

typedef struct {
  DM        da;
  Vec       uloc;
  PetscReal kappa;
  PetscInt  killstep;
  PetscInt  killrank;
} Chain;

/* f_i = kappa (2 u_i - u_{i-1} - u_{i+1}) + sin u_i = dV/du_i; V on this process into *V */
static PetscErrorCode Forces(Chain *ch, Vec u, Vec f, PetscReal *V)
{
  const PetscScalar *ul;
  PetscScalar       *ff;
  PetscInt           xs, xm, N;
  PetscReal          Vloc = 0;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(ch->da, NULL, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMGlobalToLocal(ch->da, u, INSERT_VALUES, ch->uloc));
  PetscCall(DMDAGetCorners(ch->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayRead(ch->da, ch->uloc, &ul));
  PetscCall(VecGetArrayWrite(f, &ff));
  for (PetscInt i = xs; i < xs + xm; i++) {
    const PetscScalar left = i > 0 ? ul[i - 1] : 0, right = i < N - 1 ? ul[i + 1] : 0;

    ff[i - xs] = ch->kappa * (2 * ul[i] - left - right) + PetscSinScalar(ul[i]);
    Vloc += 0.5 * ch->kappa * PetscRealPart((ul[i] - left) * (ul[i] - left)) + 1 - PetscCosReal(PetscRealPart(ul[i]));
    if (i == N - 1) Vloc += 0.5 * ch->kappa * PetscRealPart(ul[i] * ul[i]);
  }
  PetscCall(DMDAVecRestoreArrayRead(ch->da, ch->uloc, &ul));
  PetscCall(VecRestoreArrayWrite(f, &ff));
  if (V) *V = Vloc;
  PetscFunctionReturn(0);
}

/* kappa Lap + diag(cos u) + shift I */
static PetscErrorCode Hessian(Chain *ch, Vec u, PetscReal shift, Mat H)
{
  const PetscScalar *uu;
  PetscInt           xs, xm, N;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(ch->da, NULL, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(ch->da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(VecGetArrayRead(u, &uu));
  for (PetscInt i = xs; i < xs + xm; i++) {
    PetscCall(MatSetValue(H, i, i, shift + 2 * ch->kappa + PetscCosScalar(uu[i - xs]), INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(H, i, i - 1, -ch->kappa, INSERT_VALUES));
    if (i < N - 1) PetscCall(MatSetValue(H, i, i + 1, -ch->kappa, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(u, &uu));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  PetscReal Vloc;

  PetscFunctionBeginUser;
  PetscCall(Forces((Chain *)ctx, x, g, &Vloc));
  PetscCall(MPIU_Allreduce(&Vloc, V, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)ts)));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(Hessian((Chain *)ctx, x, 0, H));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(Forces((Chain *)ctx, U, F, NULL));
  PetscCall(VecAXPY(F, 1, A));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(Hessian((Chain *)ctx, U, shiftA, P));
  PetscFunctionReturn(0);
}

static PetscErrorCode Kill(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Chain      *ch = (Chain *)ctx;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)ts), &rank));
  if (step == ch->killstep && rank == ch->killrank) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "rank %d kills itself at step %" PetscInt_FMT "\n", (int)rank, step));
    fflush(stdout);
    raise(SIGKILL);
  }
  PetscFunctionReturn(0);
}

/* The final (q, p), or (u, u'), as DMDA vectors (natural order in the file); they stay in q, p */
static PetscErrorCode FinalState(TS ts, Door door, Vec q, Vec p)
{
  Vec U, V;

  PetscFunctionBeginUser;
  if (door == DOOR_I2) {
    PetscCall(TS2GetSolution(ts, &U, &V));
    PetscCall(VecCopy(U, q));
    PetscCall(VecCopy(V, p));
  } else {
    const PetscScalar *u;
    PetscScalar       *qq, *pp;
    PetscInt           n;

    PetscCall(TSGetSolution(ts, &U));
    PetscCall(VecGetLocalSize(q, &n));
    PetscCall(VecGetArrayRead(U, &u));
    PetscCall(VecGetArrayWrite(q, &qq));
    PetscCall(VecGetArrayWrite(p, &pp));
    PetscCall(PetscArraycpy(qq, u, n));
    PetscCall(PetscArraycpy(pp, u + n, n));
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(VecRestoreArrayWrite(q, &qq));
    PetscCall(VecRestoreArrayWrite(p, &pp));
  }
  PetscFunctionReturn(0);
}

/* One run from the initial state, to -steps steps; the final state into q, p */
static PetscErrorCode Run(Chain *ch, Door door, PetscInt steps, PetscReal dt, Vec q, Vec p)
{
  TS       ts;
  Vec      U = NULL, u = NULL, v = NULL;
  Mat      M, K, J;
  PetscInt xs, xm, N, nloc;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(ch->da, NULL, &N, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(ch->da, &xs, NULL, NULL, &xm, NULL, NULL));
  nloc = xm;
  PetscCall(TSCreate(PetscObjectComm((PetscObject)ch->da), &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, TSSIMPVILOBATTO));
  PetscCall(DMCreateMatrix(ch->da, &K));
  if (door == DOOR_MECHANICAL) {
    IS           isq, isp;
    PetscInt     lo;
    PetscScalar *uu;

    PetscCall(MatCreateAIJ(PetscObjectComm((PetscObject)ch->da), nloc, nloc, N, N, 1, NULL, 0, NULL, &M));
    for (PetscInt i = xs; i < xs + xm; i++) PetscCall(MatSetValue(M, i, i, 1, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
    PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
    PetscCall(TSSimpVISetPotential(ts, K, Potential, PotentialHessian, ch));
    PetscCall(MatDestroy(&M));
    PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)ch->da), 2 * nloc, 2 * N, &U));
    PetscCall(VecGetOwnershipRange(U, &lo, NULL));
    PetscCall(VecGetArrayWrite(U, &uu));
    for (PetscInt i = xs; i < xs + xm; i++) {
      uu[i - xs]        = 2.5 * PetscSinReal(PETSC_PI * (i + 1) / (N + 1)); /* large amplitudes: nonlinear */
      uu[nloc + i - xs] = 0.3 * PetscCosReal(3 * PETSC_PI * (i + 1) / (N + 1));
    }
    PetscCall(VecRestoreArrayWrite(U, &uu));
    PetscCall(ISCreateStride(PetscObjectComm((PetscObject)ch->da), nloc, lo, 1, &isq));
    PetscCall(ISCreateStride(PetscObjectComm((PetscObject)ch->da), nloc, lo + nloc, 1, &isp));
    PetscCall(TSRHSSplitSetIS(ts, "position", isq));
    PetscCall(TSRHSSplitSetIS(ts, "momentum", isp));
    PetscCall(ISDestroy(&isq));
    PetscCall(ISDestroy(&isp));
    PetscCall(TSSetSolution(ts, U));
  } else {
    PetscScalar *uu, *vv;

    PetscCall(DMCreateMatrix(ch->da, &J));
    PetscCall(TSSetI2Function(ts, NULL, I2Function, ch));
    PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, ch));
    PetscCall(MatDestroy(&J));
    PetscCall(DMCreateGlobalVector(ch->da, &u));
    PetscCall(DMCreateGlobalVector(ch->da, &v));
    PetscCall(VecGetArrayWrite(u, &uu));
    PetscCall(VecGetArrayWrite(v, &vv));
    for (PetscInt i = xs; i < xs + xm; i++) {
      uu[i - xs] = 2.5 * PetscSinReal(PETSC_PI * (i + 1) / (N + 1));
      vv[i - xs] = 0.3 * PetscCosReal(3 * PETSC_PI * (i + 1) / (N + 1));
    }
    PetscCall(VecRestoreArrayWrite(u, &uu));
    PetscCall(VecRestoreArrayWrite(v, &vv));
    PetscCall(TS2SetSolution(ts, u, v));
  }
  PetscCall(MatDestroy(&K));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (ch->killstep >= 0) PetscCall(TSMonitorSet(ts, Kill, ch, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(FinalState(ts, door, q, p));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Chain       ch   = {NULL, NULL, 4, -1, 0};
  Door        door = DOOR_MECHANICAL;
  PetscInt    n = 40, steps = 200;
  PetscReal   dt                        = 0.05;
  PetscBool   check                     = PETSC_FALSE, flg;
  char        final[PETSC_MAX_PATH_LEN] = "", pidfile[PETSC_MAX_PATH_LEN] = "";
  Vec         q, p;
  PetscViewer viewer;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Checkpoint test options", NULL);
  PetscCall(PetscOptionsEnum("-door", "mechanical or i2", NULL, Doors, (PetscEnum)door, (PetscEnum *)&door, NULL));
  PetscCall(PetscOptionsInt("-n", "Pendulums", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-steps", "Steps", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-kappa", "Spring constant", NULL, ch.kappa, &ch.kappa, NULL));
  PetscCall(PetscOptionsInt("-kill_at_step", "SIGKILL at this step", NULL, ch.killstep, &ch.killstep, NULL));
  PetscCall(PetscOptionsInt("-kill_rank", "The rank that kills itself", NULL, ch.killrank, &ch.killrank, NULL));
  PetscCall(PetscOptionsString("-final", "Write the final state to this file", NULL, final, final, sizeof(final), NULL));
  PetscCall(PetscOptionsString("-pid_file", "Write each rank's process id to <file>.<rank>", NULL, pidfile, pidfile, sizeof(pidfile), NULL));
  PetscCall(PetscOptionsBool("-restart_check", "Restart from the last checkpoint in the same process and compare", NULL, check, &check, NULL));
  PetscOptionsEnd();
  if (pidfile[0]) { /* OpenMPI starts the ranks in process groups of their own: a kill from outside needs their ids */
    char        name[PETSC_MAX_PATH_LEN + 16];
    PetscMPIInt rank;
    FILE       *f;

    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s.%d", pidfile, (int)rank));
    f = fopen(name, "w");
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", name);
    fprintf(f, "%d\n", (int)getpid());
    fclose(f);
  }
  PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, n, 1, 1, NULL, &ch.da));
  PetscCall(DMSetFromOptions(ch.da));
  PetscCall(DMSetUp(ch.da));
  PetscCall(DMCreateLocalVector(ch.da, &ch.uloc));
  PetscCall(DMCreateGlobalVector(ch.da, &q));
  PetscCall(VecDuplicate(q, &p));

  PetscCall(Run(&ch, door, steps, dt, q, p));
  if (final[0]) {
    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, final, FILE_MODE_WRITE, &viewer));
    PetscCall(VecView(q, viewer));
    PetscCall(VecView(p, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
  }
  if (check) { /* the run above wrote checkpoints (-ts_simpvi_checkpoint): a new TS from the last one */
    char      file[PETSC_MAX_PATH_LEN];
    Vec       q2, p2;
    PetscBool same_q, same_p;

    PetscCall(PetscOptionsGetString(NULL, NULL, "-ts_simpvi_checkpoint", file, sizeof(file), &flg));
    PetscCheck(flg, PETSC_COMM_WORLD, PETSC_ERR_USER, "-restart_check needs -ts_simpvi_checkpoint <file>");
    PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_restart", file));
    PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_checkpoint"));
    PetscCall(VecDuplicate(q, &q2));
    PetscCall(VecDuplicate(p, &p2));
    PetscCall(Run(&ch, door, steps, dt, q2, p2));
    PetscCall(VecEqual(q, q2, &same_q));
    PetscCall(VecEqual(p, p2, &same_p));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "restarted run bitwise equal to the uninterrupted one: %s\n", same_q && same_p ? "yes" : "no"));
    PetscCall(VecDestroy(&q2));
    PetscCall(VecDestroy(&p2));
  }
  PetscCall(VecDestroy(&q));
  PetscCall(VecDestroy(&p));
  PetscCall(VecDestroy(&ch.uloc));
  PetscCall(DMDestroy(&ch.da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # in one process: the run to the end writes checkpoints every 30 steps; a second TS restarts from the last (step
  # 180) and must end bitwise equal; -ts_view shows the checkpoints and the restart
  testset:
    args: -ts_simpvi_checkpoint chain.cp -ts_simpvi_checkpoint_every 30 -restart_check -ts_view
    filter: grep -e "Checkpoint" -e "Restarted" -e "bitwise"
    test:
      suffix: restart_mechanical
      nsize: {{1 2}}
      args: -door mechanical
    test:
      suffix: restart_i2
      nsize: {{1 2}}
      args: -door i2

TEST*/
