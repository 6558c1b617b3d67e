static char help[] = "A chain of -n pendulums coupled by torsion springs, driven at the first one, written for TSALPHA2 as a PETSc user\n"
                     "writes it without a DM: vectors from MatCreateVecs() of a MatCreateAIJ() matrix, the I2 Jacobian filled with\n"
                     "MatSetValues() in global indices. theta_i'' + g sin(theta_i) - kappa (theta_{i+1} - 2 theta_i + theta_{i-1})\n"
                     "= f0 sin(Omega t) [i = 0], free ends, from theta_i = amp cos(pi i/(n-1)) at rest: nonlinear, no exact solution,\n"
                     "so the final state is compared with a TSALPHA2 run of a fine step (-write, -compare) and -refine L solves L times,\n"
                     "halving the step, for the observed order of the differences.\n"
                     "Options: -n <12> -g <1> -kappa <1> -f0 <0.5> -Omega <1.1> -amp <1> -T <4> -dt <0.2>\n\n";

#include <petscts.h>
#include "check.h"

typedef struct {
  PetscInt  n;
  PetscReal g, kappa, f0, Omega;
} Pendulums;

static PetscErrorCode FormI2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  Pendulums         *pd = (Pendulums *)ctx;
  VecScatter         scatter;
  Vec                Uall; /* every angle on every process: the neighbours of the owned ones */
  const PetscScalar *u, *a;
  PetscScalar       *f;
  PetscInt           lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecScatterCreateToAll(U, &scatter, &Uall));
  PetscCall(VecScatterBegin(scatter, U, Uall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(scatter, U, Uall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  PetscCall(VecGetArrayRead(Uall, &u));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArray(F, &f));
  for (PetscInt i = lo; i < hi; i++) {
    PetscScalar lap = 0;

    if (i > 0) lap += u[i - 1] - u[i];
    if (i < pd->n - 1) lap += u[i + 1] - u[i];
    f[i - lo] = a[i - lo] + pd->g * PetscSinScalar(u[i]) - pd->kappa * lap - (i == 0 ? pd->f0 * PetscSinReal(pd->Omega * t) : 0);
  }
  PetscCall(VecRestoreArrayRead(Uall, &u));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArray(F, &f));
  PetscCall(VecScatterDestroy(&scatter));
  PetscCall(VecDestroy(&Uall));
  PetscFunctionReturn(0);
}

static PetscErrorCode FormI2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  Pendulums         *pd = (Pendulums *)ctx;
  const PetscScalar *u;
  PetscInt           lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt i = lo; i < hi; i++) {
    PetscInt    cols[3], nc   = 0;
    PetscScalar vals[3], diag = shiftA + pd->g * PetscCosScalar(u[i - lo]);

    if (i > 0) {
      cols[nc]   = i - 1;
      vals[nc++] = -pd->kappa;
      diag += pd->kappa;
    }
    if (i < pd->n - 1) {
      cols[nc]   = i + 1;
      vals[nc++] = -pd->kappa;
      diag += pd->kappa;
    }
    cols[nc]   = i;
    vals[nc++] = diag;
    PetscCall(MatSetValues(P, 1, &i, nc, cols, vals, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Solve(Pendulums *pd, PetscReal amp, PetscReal T, PetscReal dt, Vec U)
{
  TS       ts;
  Vec      V;
  Mat      J;
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, pd->n, pd->n, 3, NULL, 1, NULL, &J));
  PetscCall(MatSetFromOptions(J));
  PetscCall(MatSetUp(J));
  PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(VecSetValue(U, i, amp * PetscCosReal(PETSC_PI * i / (pd->n - 1)), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecSet(V, 0));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSALPHA2));
  PetscCall(TSSetI2Function(ts, NULL, FormI2Function, pd));
  PetscCall(TSSetI2Jacobian(ts, J, J, FormI2Jacobian, pd));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&V));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Pendulums pd  = {12, 1, 1, 0.5, 1.1};
  PetscReal amp = 1, T = 4, dt = 0.2, diff[8];
  PetscInt  refine = 1;
  Vec       U, Uprev;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Pendulum chain options", NULL);
  PetscCall(PetscOptionsInt("-n", "Pendulums", NULL, pd.n, &pd.n, NULL));
  PetscCall(PetscOptionsReal("-g", "Gravity over length", NULL, pd.g, &pd.g, NULL));
  PetscCall(PetscOptionsReal("-kappa", "Torsion spring constant", NULL, pd.kappa, &pd.kappa, NULL));
  PetscCall(PetscOptionsReal("-f0", "Driving torque", NULL, pd.f0, &pd.f0, NULL));
  PetscCall(PetscOptionsReal("-Omega", "Driving frequency", NULL, pd.Omega, &pd.Omega, NULL));
  PetscCall(PetscOptionsReal("-amp", "Initial amplitude", NULL, amp, &amp, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Coarsest time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsRangeInt("-refine", "Solves, halving the step", NULL, refine, &refine, NULL, 1, 8));
  PetscOptionsEnd();

  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, pd.n, &U));
  PetscCall(VecDuplicate(U, &Uprev));
  for (PetscInt l = 0; l < refine; l++) {
    PetscCall(Solve(&pd, amp, T, dt / (1 << l), U));
    if (l > 0) {
      PetscCall(VecAXPY(Uprev, -1, U));
      PetscCall(VecNorm(Uprev, NORM_INFINITY, &diff[l - 1]));
    }
    PetscCall(VecCopy(U, Uprev));
  }
  if (refine > 2) PetscCall(CheckErrors(PETSC_COMM_WORLD, "difference between successive steps", refine - 1, diff));
  PetscCall(CheckWriteCompare(U));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&Uprev));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex !single

  # TSALPHA2 with a fine step gives the reference; simpvi against it, with differences between successive steps of
  # its order, and 2 processes against 1
  test:
    suffix: alpha2_reference
    test:
      args: -dt 0.002 -write alpha2.bin
      output_file: output/empty.out
    test:
      args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -dt 0.4 -order 4 -compare alpha2.bin -compare_tol 5e-6 -write final.bin
    test:
      nsize: 2
      args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -dt 0.1 -compare alpha2.bin,final.bin -compare_tol 5e-6,1e-10
      output_file: output/pendulums_alpha2_reference_2.out
    test:
      args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -ts_simpvi_type lobatto -refine 3 -dt 0.4 -order 6 -compare alpha2.bin -compare_tol 5e-6 -write lobatto.bin
      output_file: output/pendulums_alpha2_reference_lobatto.out
    test:
      nsize: 2
      args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -ts_simpvi_type lobatto -dt 0.1 -compare alpha2.bin,lobatto.bin -compare_tol 5e-6,1e-10
      output_file: output/pendulums_alpha2_reference_lobatto_2.out

TEST*/
