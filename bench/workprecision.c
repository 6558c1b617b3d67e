static char help[] = "Two problems of the work-precision benchmark (bench/workprecision.py) that no example runs as such, each one\n"
                     "fixed-step TSSolve() with a -wp record (examples/workprecision.h):\n"
                     "  -problem pendulum: q'' = -sin q released at rest from -q0 (examples/models/pendulum.h), mechanical door,\n"
                     "     PETSc's types (rk, theta, bdf, irk, basicsymplectic, ...) get U' = (p, -sin q) written out, as a PETSc\n"
                     "     user writes it (-native 0: through TSSimpVISetUpPhaseSpace() instead)\n"
                     "  -problem chain: the linear chain u'' + K u = 0 of -n unit masses (examples/models/springchain.h) as a plain\n"
                     "     PETSc second-order program (TSSetI2Function()/TSSetI2Jacobian()): TSSIMPVI or TSALPHA2; it starts at rest\n"
                     "     from a Gaussian pulse of -width masses in the middle\n"
                     "Options: -problem <pendulum> -T <1000> -dt <0.1> -q0 <pi/2> -native <1> -n <10000> -width <20>, then -wp (see the header)\n\n";

#include <simpvi.h>
#include "../examples/workprecision.h"
#include "../examples/models/pendulum.h"
#define I2Function       ChainI2Function /* springchain.h names its callbacks as pendulum.h does */
#define I2Jacobian       ChainI2Jacobian
#define Potential        ChainPotential
#define PotentialHessian ChainPotentialHessian
#include "../examples/models/springchain.h"
#undef I2Function
#undef I2Jacobian
#undef Potential
#undef PotentialHessian

/* H = p^2/2 + 1 - cos q: the energy above the rest state (pendulum.h's V = -cos q makes H0 = 0 at q0 = pi/2) */
static PetscErrorCode PendulumEnergy(TS ts, PetscReal t, Vec U, PetscReal *H, void *ctx)
{
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  *H = 0.5 * PetscSqr(PetscRealPart(u[1])) + 1 - PetscCosReal(PetscRealPart(u[0]));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

/* The pendulum as a PETSc user writes it for PETSc's own types (-native): U' = (p, -sin q), its Jacobian, and the
   splits q' = p, p' = -sin q of basicsymplectic; no library adapter between the TS and the arithmetic */
static PetscErrorCode NativeRHS(TS ts, PetscReal t, Vec U, Vec F, void *ctx)
{
  const PetscScalar *u;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayWrite(F, &f));
  f[0] = u[1];
  f[1] = -PetscSinReal(PetscRealPart(u[0]));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode NativeRHSJacobian(TS ts, PetscReal t, Vec U, Mat J, Mat P, void *ctx)
{
  const PetscScalar *u;
  PetscInt           rows[2] = {0, 1};
  PetscScalar        v[4];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  v[0] = 0;
  v[1] = 1;
  v[2] = -PetscCosReal(PetscRealPart(u[0]));
  v[3] = 0;
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MatSetValues(P, 2, rows, 2, rows, v, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode NativePositionRate(TS ts, PetscReal t, Vec p, Vec qdot, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(VecCopy(p, qdot));
  PetscFunctionReturn(0);
}

static PetscErrorCode NativeMomentumRate(TS ts, PetscReal t, Vec q, Vec pdot, void *ctx)
{
  const PetscScalar *qq;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(q, &qq));
  PetscCall(VecGetArrayWrite(pdot, &f));
  f[0] = -PetscSinReal(PetscRealPart(qq[0]));
  PetscCall(VecRestoreArrayRead(q, &qq));
  PetscCall(VecRestoreArrayWrite(pdot, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode NativeSetUp(TS ts, Mat *J)
{
  PetscBool isbsymp;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, J)); /* AIJ: TSIRK builds a KAIJ on it */
  PetscCall(TSSetRHSFunction(ts, NULL, NativeRHS, NULL));
  PetscCall(TSSetRHSJacobian(ts, *J, *J, NativeRHSJacobian, NULL));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSBASICSYMPLECTIC, &isbsymp));
  if (isbsymp) {
    IS isq, isp;

    PetscCall(ISCreateStride(PETSC_COMM_SELF, 1, 0, 1, &isq));
    PetscCall(ISCreateStride(PETSC_COMM_SELF, 1, 1, 1, &isp));
    PetscCall(TSRHSSplitSetIS(ts, "position", isq));
    PetscCall(TSRHSSplitSetIS(ts, "momentum", isp));
    PetscCall(TSRHSSplitSetRHSFunction(ts, "position", NULL, NativePositionRate, NULL));
    PetscCall(TSRHSSplitSetRHSFunction(ts, "momentum", NULL, NativeMomentumRate, NULL));
    PetscCall(ISDestroy(&isq));
    PetscCall(ISDestroy(&isp));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Pendulum(PetscReal q0, PetscReal T, PetscReal dt, PetscBool native)
{
  TS            ts;
  Vec           U;
  Mat           M, H, J = NULL;
  PetscBool     issimpvi;
  PetscScalar  *u;
  WorkPrecision wp;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &M));
  PetscCall(MatSetValue(M, 0, 0, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &H));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, H, Potential, PotentialHessian, NULL));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  u[0] = q0;
  u[1] = 0;
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetMaxSteps(ts, (PetscInt)(T / dt + 0.5)));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &issimpvi));
  if (native && !issimpvi) PetscCall(NativeSetUp(ts, &J));
  else PetscCall(TSSimpVISetUpPhaseSpace(ts)); /* for -ts_type rk, theta, ...: the same pendulum in phase space */
  PetscCall(WorkPrecisionSetUp(ts, PendulumEnergy, NULL, &wp));
  PetscCall(TSSolve(ts, U));
  PetscCall(WorkPrecisionReport(ts, U, &wp));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscCall(MatDestroy(&J));
  PetscFunctionReturn(0);
}

/* H = v'v/2 + u'Ku/2 from the TS's (u, v): the same for TSSIMPVI's second-order door and TSALPHA2 */
static PetscErrorCode ChainEnergy(TS ts, PetscReal t, Vec U, PetscReal *H, void *ctx)
{
  Vec         u, v, Ku;
  PetscScalar vv, uKu;

  PetscFunctionBeginUser;
  PetscCall(TS2GetSolution(ts, &u, &v));
  PetscCall(VecDuplicate(u, &Ku));
  PetscCall(MatMult((Mat)ctx, u, Ku));
  PetscCall(VecDot(u, Ku, &uKu));
  PetscCall(VecDot(v, v, &vv));
  *H = PetscRealPart(vv + uKu) / 2;
  PetscCall(VecDestroy(&Ku));
  PetscFunctionReturn(0);
}

static PetscErrorCode Chain(PetscInt n, PetscReal width, PetscReal T, PetscReal dt)
{
  TS            ts;
  Vec           u, v, F, X, uv[2];
  Mat           K, J;
  PetscScalar  *a;
  WorkPrecision wp;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 3, NULL, &K));
  PetscCall(SpringChainSetStiffness(K));
  PetscCall(MatDuplicate(K, MAT_COPY_VALUES, &J));
  PetscCall(MatCreateVecs(K, &u, &F));
  PetscCall(VecDuplicate(u, &v));
  PetscCall(VecGetArrayWrite(u, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = PetscExpReal(-PetscSqr((i - 0.5 * (n - 1)) / width));
  PetscCall(VecRestoreArrayWrite(u, &a));
  PetscCall(VecSet(v, 0));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetI2Function(ts, F, ChainI2Function, K));
  PetscCall(TSSetI2Jacobian(ts, J, J, ChainI2Jacobian, K));
  PetscCall(TS2SetSolution(ts, u, v));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetMaxSteps(ts, (PetscInt)(T / dt + 0.5)));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(WorkPrecisionSetUp(ts, ChainEnergy, K, &wp));
  PetscCall(TSSolve(ts, u));
  {
    Vec us, vs;

    PetscCall(TS2GetSolution(ts, &us, &vs));
    uv[0] = us;
    uv[1] = vs;
    PetscCall(VecConcatenate(2, uv, &X, NULL));
  }
  PetscCall(WorkPrecisionReport(ts, X, &wp));
  PetscCall(VecDestroy(&X));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&F));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&J));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char      problem[32] = "pendulum";
  PetscReal T = 1000, dt = 0.1, q0 = PETSC_PI / 2, width = 20;
  PetscInt  n = 10000;
  PetscBool ispendulum, ischain, native = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Work-precision problems", NULL);
  PetscCall(PetscOptionsString("-problem", "pendulum or chain", NULL, problem, problem, sizeof(problem), NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-q0", "Pendulum: initial angle, at rest", NULL, q0, &q0, NULL));
  PetscCall(PetscOptionsBool("-native", "Pendulum: PETSc's types get U' = (p, -sin q) written out, not TSSimpVISetUpPhaseSpace()", NULL, native, &native, NULL));
  PetscCall(PetscOptionsInt("-n", "Chain: number of masses", NULL, n, &n, NULL));
  PetscCall(PetscOptionsReal("-width", "Chain: width of the initial pulse, in masses", NULL, width, &width, NULL));
  PetscOptionsEnd();
  PetscCall(PetscStrcmp(problem, "pendulum", &ispendulum));
  PetscCall(PetscStrcmp(problem, "chain", &ischain));
  PetscCheck(ispendulum || ischain, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-problem is pendulum or chain, not %s", problem);
  if (ispendulum) PetscCall(Pendulum(q0, T, dt, native));
  else PetscCall(Chain(n, width, T, dt));
  PetscCall(PetscFinalize());
  return 0;
}
