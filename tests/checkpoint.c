static char help[] = "Checkpoint and restart of TSSIMPVI on a chain of n pendulums with springs between neighbours (a discrete\n"
                     "sine-Gordon: L = sum_i [v_i^2/2 - kappa/2 (u_{i+1} - u_i)^2 - (1 - cos u_i)], u_0 = u_{n+1} = 0) on a 1-D DMDA,\n"
                     "through the mechanical door (U = [q_local | p_local]) or PETSc's second-order door (TSSetI2Function()).\n"
                     "  -final <file>      write the final positions and momenta (velocities for -door i2) in the DMDA's natural order,\n"
                     "                     for tests/checkpoint/checkpoint_kill.py, which compares them byte for byte\n"
                     "  -kill_at_step <k>  rank -kill_rank SIGKILLs itself in the monitor of step k (a run killed mid-way)\n"
                     "  -pid_file <file>   each rank writes its process id to <file>.<rank> (for a kill from outside)\n"
                     "  -restart_check     in one process: the run to the end without checkpoints; a run that stops at step -stop_at\n"
                     "                     (or time -stop_time) writing checkpoints; a second TS restarted from the checkpoint that\n"
                     "                     one left and run to the end; prints whether the two final states are bitwise equal\n"
                     "  -damage            in one process: a run writes its checkpoint, then restarts from damaged copies of it\n"
                     "                     (a bit flipped, cut short, NaN bytes, ...) and from bad paths; prints each error\n"
                     "Options: -door mechanical|i2 -n <40> -steps <200> -final_time <none> -dt <0.05> -kappa <4>\n\n";

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
  char      message[1024]; /* the first message of the error Run() caught */
  PetscInt  stepsdone;     /* the step the TS was at then */
} Chain;

/* Keeps the error's first message instead of printing it: the test prints it, once */
static PetscErrorCode CatchError(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  Chain *ch = (Chain *)ctx;

  if (p == PETSC_ERROR_INITIAL) PetscStrncpy(ch->message, mess ? mess : "", sizeof(ch->message));
  return n;
}

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

/* One run from the initial state, to steps steps or time tfinal; the final state into q, p. With err, an error of
   TSSolve() is caught (its message in ch->message) and returned in *err; the objects are destroyed all the same */
static PetscErrorCode Run(Chain *ch, Door door, PetscInt steps, PetscReal tfinal, PetscReal dt, Vec q, Vec p, PetscErrorCode *err)
{
  TS                     ts;
  Vec                    U = NULL, u = NULL, v = NULL, S, X = NULL;
  TSExactFinalTimeOption eft;
  Mat                    M, K, J;
  PetscInt               xs, xm, N, nloc;

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
  PetscCall(TSSetMaxTime(ts, tfinal));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (ch->killstep >= 0) PetscCall(TSMonitorSet(ts, Kill, ch, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSGetExactFinalTime(ts, &eft));
  if (eft == TS_EXACTFINALTIME_INTERPOLATE) { /* PETSc 3.18's TSSolve() interpolates into its argument, which must be given */
    PetscCall(TSGetSolution(ts, &S));
    PetscCall(VecDuplicate(S, &X));
    PetscCall(VecCopy(S, X));
  }
  if (err) {
    PetscCall(PetscPushErrorHandler(CatchError, ch));
    *err = TSSolve(ts, X);
    PetscCall(PetscPopErrorHandler());
    PetscCall(TSGetStepNumber(ts, &ch->stepsdone));
  } else PetscCall(TSSolve(ts, X));
  if (!err || !*err) PetscCall(FinalState(ts, door, q, p)); /* the state the TS stepped to, not the interpolated one */
  PetscCall(VecDestroy(&X));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

/* The options database's -ts_simpvi_checkpoint and -ts_simpvi_restart for the next Run() (NULL: none) */
static PetscErrorCode SetFiles(const char checkpoint[], const char restart[])
{
  PetscFunctionBeginUser;
  if (checkpoint) PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_checkpoint", checkpoint));
  else PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_checkpoint"));
  if (restart) PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_restart", restart));
  else PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_restart"));
  PetscFunctionReturn(0);
}

/* zlib's CRC-32, to forge a checkpoint whose checksum matches its (bad) contents */
static unsigned Crc32(const unsigned char *b, size_t n)
{
  unsigned c = 0xffffffffu;

  for (size_t i = 0; i < n; i++) {
    c ^= b[i];
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return ~c;
}

typedef enum {
  FLIP,      /* one bit flipped at offset */
  CUT,       /* the file cut to offset bytes */
  NANRAW,    /* 8 bytes of NaN over the second entry of the first vector */
  NANSEALED, /* the same, with the checksum made to match: a file written so */
  OLD,       /* a checkpoint of format 1: version 1, no checksum */
  OTHER      /* a PETSc vector file */
} Damage;

/* Rank 0: the good checkpoint (good, size bytes) damaged into file */
static PetscErrorCode WriteDamaged(const unsigned char *good, long size, Damage d, long offset, const char file[])
{
  unsigned char *b;
  long           n = size, vec = -1;
  FILE          *f;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(size, &b));
  PetscCall(PetscArraycpy(b, good, size));
  for (long i = 0; i + 3 < size && vec < 0; i++) /* the first vector: PETSc's class id 1211214, big-endian */
    if (b[i] == 0x00 && b[i + 1] == 0x12 && b[i + 2] == 0x7B && b[i + 3] == 0x4E) vec = i;
  PetscCheck(vec > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No vector in the checkpoint");
  switch (d) {
  case FLIP:
    b[offset] ^= 0x10;
    break;
  case CUT:
    n = offset;
    break;
  case NANRAW:
  case NANSEALED:
    memset(b + vec + 8 + 8, 0xff, 8); /* a quiet NaN over the vector's second entry */
    if (d == NANSEALED) {
      const unsigned crc = Crc32(b, size - 16);

      for (int k = 0; k < 4; k++) b[size - 4 + k] = (unsigned char)(crc >> (24 - 8 * k));
    }
    break;
  case OLD:
    b[4] = b[5] = b[6] = 0;
    b[7]               = 1;
    n                  = size - 16;
    break;
  case OTHER:
    n = size - vec;
    PetscCall(PetscArraymove(b, b + vec, n));
    break;
  }
  f = fopen(file, "wb");
  PetscCheck(f && (long)fwrite(b, 1, n, f) == n && !fclose(f), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write %s", file);
  PetscCall(PetscFree(b));
  PetscFunctionReturn(0);
}

/* A restart that must stop with an error naming its file and containing word; prints the error */
static PetscErrorCode ExpectError(Chain *ch, Door door, PetscInt steps, PetscReal dt, Vec q, Vec p, const char what[], const char file[], const char word[])
{
  PetscErrorCode err;
  int            codes[2];

  PetscFunctionBeginUser;
  ch->message[0] = 0;
  PetscCall(Run(ch, door, steps, PETSC_MAX_REAL, dt, q, p, &err));
  codes[0] = (int)err;
  codes[1] = -(int)err;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, codes, 2, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s\n", what, ch->message));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  stops at set-up, on every process, with an error that names %s and says \"%s\": %s\n", file, word, codes[0] && codes[0] == -codes[1] && !ch->stepsdone && strstr(ch->message, file) && strstr(ch->message, word) ? "yes" : "no"));
  PetscFunctionReturn(0);
}

/* The checkpoint of a run, damaged in every way below: each restart from it must stop with its error */
static PetscErrorCode DamageCheck(Chain *ch, Door door, PetscInt steps, PetscReal dt, Vec q, Vec p)
{
  const char    *good = "good.cp", *bad = "damaged.cp";
  unsigned char *b    = NULL;
  long           size = 0;
  PetscMPIInt    rank;
  char           what[128];
  struct {
    Damage      d;
    double      offset; /* bytes from the start (>= 1 or 0), from the end (< 0), or a fraction of the size */
    const char *word, *what;
  } cases[] = {
    {FLIP,      0,    "corrupt",                   "with a bit flipped in its first byte"                    },
    {FLIP,      6,    "corrupt",                   "with a bit flipped in its format version"                },
    {FLIP,      13,   "corrupt",                   "with a bit flipped in its length"                        },
    {FLIP,      100,  "corrupt",                   "with a bit flipped in its header"                        },
    {FLIP,      300,  "corrupt",                   "with a bit flipped in the scheme's name"                 },
    {FLIP,      0.5,  "corrupt",                   "with a bit flipped in its vectors"                       },
    {FLIP,      0.75, "corrupt",                   "with a bit flipped further in its vectors"               },
    {FLIP,      -20,  "corrupt",                   "with a bit flipped in its last vector"                   },
    {FLIP,      -16,  "corrupt",                   "with a bit flipped in its checksum record's mark"        },
    {FLIP,      -9,   "corrupt",                   "with a bit flipped in its checksum record's length"      },
    {FLIP,      -1,   "corrupt",                   "with a bit flipped in its checksum"                      },
    {CUT,       -1,   "truncated",                 "cut short by 1 byte"                                     },
    {CUT,       -16,  "truncated",                 "cut short by its checksum record"                        },
    {CUT,       0.5,  "truncated",                 "cut to half its length"                                  },
    {CUT,       20,   "truncated",                 "cut to 20 bytes"                                         },
    {CUT,       3,    "truncated",                 "cut to 3 bytes"                                          },
    {CUT,       0,    "truncated",                 "cut to 0 bytes"                                          },
    {NANRAW,    0,    "corrupt",                   "with NaN bytes in its state"                             },
    {NANSEALED, 0,    "NaN or Inf",                "with NaN bytes in its state and a checksum made to match"},
    {OLD,       0,    "older simpvi",              "of format 1 (version 1, no checksum)"                    },
    {OTHER,     0,    "not a TSSIMPVI checkpoint", "that is a PETSc vector file"                             },
  };

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(SetFiles(good, NULL));
  PetscCall(Run(ch, door, steps, PETSC_MAX_REAL, dt, q, p, NULL));
  if (!rank) {
    FILE *f = fopen(good, "rb");

    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "No checkpoint %s", good);
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    rewind(f);
    PetscCall(PetscMalloc1(size, &b));
    PetscCheck((long)fread(b, 1, size, f) == size, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Cannot read %s", good);
    fclose(f);
  }
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    const double o = cases[i].offset;

    if (!rank) PetscCall(WriteDamaged(b, size, cases[i].d, (long)(o < 0 ? size + o : (o > 0 && o < 1 ? o * size : o)), bad));
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    PetscCall(SetFiles(NULL, bad));
    PetscCall(PetscSNPrintf(what, sizeof(what), "a restart from a checkpoint %s", cases[i].what));
    PetscCall(ExpectError(ch, door, steps, dt, q, p, what, bad, cases[i].word));
  }
  /* the same checkpoint through the other door (the message names the door that wrote it) */
  PetscCall(SetFiles(NULL, good));
  PetscCall(ExpectError(ch, door == DOOR_I2 ? DOOR_MECHANICAL : DOOR_I2, steps, dt, q, p, "a restart through the other door", good, door == DOOR_I2 ? "through the second-order (I2) door, but" : "through the mechanical door, but"));
  /* checkpoint paths that cannot be written: an error at set-up, before the first step */
  PetscCall(SetFiles("no_such_directory/run.cp", NULL));
  PetscCall(ExpectError(ch, door, steps, dt, q, p, "a checkpoint in a directory that does not exist", "no_such_directory/run.cp", "cannot be created"));
  PetscCall(SetFiles("good.cp/run.cp", NULL));
  PetscCall(ExpectError(ch, door, steps, dt, q, p, "a checkpoint under a file", "good.cp/run.cp", "cannot be created"));
  PetscCall(SetFiles(".", NULL));
  PetscCall(ExpectError(ch, door, steps, dt, q, p, "a checkpoint that is a directory", "to .", "is a directory"));
  PetscCall(SetFiles(NULL, NULL));
  PetscCall(PetscFree(b));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Chain       ch   = {NULL, NULL, 4, -1, 0, "", 0};
  Door        door = DOOR_MECHANICAL;
  PetscInt    n = 40, steps = 200, stopstep = -1;
  PetscReal   dt = 0.05, tfinal = PETSC_MAX_REAL, stoptime = -1;
  PetscBool   check = PETSC_FALSE, damage = PETSC_FALSE, flg;
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
  PetscCall(PetscOptionsReal("-final_time", "Final time (instead of -steps)", NULL, tfinal, &tfinal, &flg));
  if (flg) steps = PETSC_MAX_INT;
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-kappa", "Spring constant", NULL, ch.kappa, &ch.kappa, NULL));
  PetscCall(PetscOptionsInt("-kill_at_step", "SIGKILL at this step", NULL, ch.killstep, &ch.killstep, NULL));
  PetscCall(PetscOptionsInt("-kill_rank", "The rank that kills itself", NULL, ch.killrank, &ch.killrank, NULL));
  PetscCall(PetscOptionsString("-final", "Write the final state to this file", NULL, final, final, sizeof(final), NULL));
  PetscCall(PetscOptionsString("-pid_file", "Write each rank's process id to <file>.<rank>", NULL, pidfile, pidfile, sizeof(pidfile), NULL));
  PetscCall(PetscOptionsBool("-restart_check", "Stop, restart from the checkpoint left in the same process and compare", NULL, check, &check, NULL));
  PetscCall(PetscOptionsInt("-stop_at", "-restart_check: the step the first run stops at", NULL, stopstep, &stopstep, NULL));
  PetscCall(PetscOptionsReal("-stop_time", "-restart_check: the time the first run stops at", NULL, stoptime, &stoptime, NULL));
  PetscCall(PetscOptionsBool("-damage", "Restart from damaged checkpoints and bad paths", NULL, damage, &damage, NULL));
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

  if (damage) PetscCall(DamageCheck(&ch, door, steps, dt, q, p));
  else if (check) { /* uninterrupted; stopped early writing checkpoints; restarted from the one left, to the end */ char file[PETSC_MAX_PATH_LEN];
    Vec                                                                                                                  q2, p2;
    PetscBool                                                                                                            same_q, same_p;
    PetscReal                                                                                                            dq, dp, sq, sp;

    PetscCall(PetscOptionsGetString(NULL, NULL, "-ts_simpvi_checkpoint", file, sizeof(file), &flg));
    PetscCheck(flg, PETSC_COMM_WORLD, PETSC_ERR_USER, "-restart_check needs -ts_simpvi_checkpoint <file>");
    PetscCall(VecDuplicate(q, &q2));
    PetscCall(VecDuplicate(p, &p2));
    PetscCall(SetFiles(NULL, NULL));
    PetscCall(Run(&ch, door, steps, tfinal, dt, q, p, NULL));
    PetscCall(SetFiles(file, NULL));
    PetscCall(Run(&ch, door, stopstep >= 0 ? stopstep : (stoptime >= 0 ? PETSC_MAX_INT : steps), stoptime >= 0 ? stoptime : tfinal, dt, q2, p2, NULL));
    PetscCall(SetFiles(NULL, file));
    PetscCall(Run(&ch, door, steps, tfinal, dt, q2, p2, NULL));
    PetscCall(VecEqual(q, q2, &same_q));
    PetscCall(VecEqual(p, p2, &same_p));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "restarted run bitwise equal to the uninterrupted one: %s\n", same_q && same_p ? "yes" : "no"));
    PetscCall(VecAXPY(q2, -1, q));
    PetscCall(VecAXPY(p2, -1, p));
    PetscCall(VecNorm(q2, NORM_INFINITY, &dq));
    PetscCall(VecNorm(p2, NORM_INFINITY, &dp));
    PetscCall(VecNorm(q, NORM_INFINITY, &sq));
    PetscCall(VecNorm(p, NORM_INFINITY, &sp));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "restarted run within 1e-12 (relative) of the uninterrupted one: %s\n", PetscMax(dq, dp) <= 1e-12 * PetscMax(sq, sp) ? "yes" : "no"));
    PetscCall(VecDestroy(&q2));
    PetscCall(VecDestroy(&p2));
  } else PetscCall(Run(&ch, door, steps, tfinal, dt, q, p, NULL));
  if (final[0]) {
    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, final, FILE_MODE_WRITE, &viewer));
    PetscCall(VecView(q, viewer));
    PetscCall(VecView(p, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
  }
  PetscCall(VecDestroy(&q));
  PetscCall(VecDestroy(&p));
  PetscCall(VecDestroy(&ch.uloc));
  PetscCall(DMDestroy(&ch.da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # the run to the end without checkpoints; a run that stops at step 87 writing checkpoints every 30 steps and at
  # the end (the last at step 87, not 60); a second TS restarted from it to step 100 must end bitwise equal;
  # -ts_view shows the checkpoints and the restart
  testset:
    args: -steps 100 -ts_simpvi_checkpoint chain.cp -ts_simpvi_checkpoint_every 30 -restart_check -stop_at 87 -ts_view
    filter: grep -e "Checkpoint" -e "Restarted" -e "bitwise"
    test:
      suffix: restart_mechanical
      nsize: {{1 2}}
      args: -door mechanical
    test:
      suffix: restart_i2
      nsize: {{1 2}}
      args: -door i2

  # a run ending at -ts_max_steps 50 with a checkpoint every 10 steps leaves one at step 50, and a restart from it
  # takes no step and ends where it ended (the I2 door's end checkpoint: restart_i2)
  test:
    suffix: end50
    nsize: {{1 2}}
    args: -n 8 -steps 50 -ts_simpvi_checkpoint run.cp -ts_simpvi_checkpoint_every 10 -restart_check -ts_view
    filter: grep -e "Checkpoint" -e "Restarted" -e "bitwise"

  # a finished run extended: to t = 2, then restarted with the final time 4, as one run to 4; bit for bit when the
  # first run ends on the step grid (stepover, interpolate; matchstep with a step that divides 2), to round-off when
  # matchstep stretches its last steps to land on t = 2 (dt = 0.05 is not a binary fraction)
  testset:
    args: -n 8 -final_time 4 -stop_time 2 -ts_simpvi_checkpoint run.cp -ts_simpvi_checkpoint_every 30 -restart_check -ts_view
    filter: grep -e "Restarted" -e "bitwise" -e "within"
    test:
      suffix: extend
      nsize: {{1 2}}
      args: -dt 0.05 -ts_exact_final_time {{stepover interpolate}} -door {{mechanical i2}}
    test:
      suffix: extend_matchstep
      args: -dt 0.0625 -ts_exact_final_time matchstep -door {{mechanical i2}}
    test:
      suffix: extend_matchstep_roundoff
      args: -dt 0.05 -ts_exact_final_time matchstep
      filter: grep -e "Restarted" -e "within"

  # restarts from damaged checkpoints (bits flipped at 11 places, cut at 6 lengths, NaN bytes, format 1, another
  # program's file, another door) and checkpoint paths that cannot be written: each error names the file and what
  # is wrong, on every process, at set-up
  test:
    suffix: damage
    nsize: {{1 2}}
    args: -n 8 -steps 20 -damage -door {{mechanical i2}separate output}

TEST*/
