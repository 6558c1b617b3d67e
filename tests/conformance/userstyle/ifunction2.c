static char help[] = "A second-order problem given as an implicit function of (U, A), written for TSALPHA2 as a PETSc user writes it:\n"
                     "TSSetIFunction()/TSSetIJacobian() with TS2SetSolution(), where TSALPHA2 passes the acceleration as the IFunction's\n"
                     "U_t and the shift of A as its shift. A driven chain of -n unit masses on a 1-D DMDA, the IJacobian filled with\n"
                     "MatSetValuesStencil(): a_i - (u_{i+1} - 2 u_i + u_{i-1}) = f0 cos(Omega t) phi_i, fixed ends, from u = phi at\n"
                     "rest, phi_i = sin(mode pi (i+1)/(n+1)): the exact solution is the driven oscillation of that mode. -refine L solves\n"
                     "L times, halving the step.\n"
                     "Options: -n <16> -mode <3> -f0 <0.5> -Omega <1.3> -T <4> -dt <0.4>\n\n";

#include <petscdmda.h>
#include <petscts.h>
#include "check.h"

typedef struct {
  PetscInt  n, mode;
  PetscReal f0, Omega;
} Chain;

static PetscReal Phi(const Chain *ch, PetscInt i)
{
  return PetscSinReal(ch->mode * PETSC_PI * (i + 1) / (ch->n + 1));
}

/* F(t, U, A) = A + K U - f(t) */
static PetscErrorCode FormIFunction(TS ts, PetscReal t, Vec U, Vec A, Vec F, void *ctx)
{
  Chain             *ch = (Chain *)ctx;
  DM                 da;
  Vec                Ul;
  const PetscScalar *u, *a;
  PetscScalar       *f;
  PetscInt           xs, xm;

  PetscFunctionBeginUser;
  PetscCall(TSGetDM(ts, &da));
  PetscCall(DMGetLocalVector(da, &Ul));
  PetscCall(DMGlobalToLocalBegin(da, U, INSERT_VALUES, Ul));
  PetscCall(DMGlobalToLocalEnd(da, U, INSERT_VALUES, Ul));
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayRead(da, Ul, &u));
  PetscCall(DMDAVecGetArrayRead(da, A, &a));
  PetscCall(DMDAVecGetArray(da, F, &f));
  for (PetscInt i = xs; i < xs + xm; i++) {
    const PetscScalar ul = i > 0 ? u[i - 1] : 0, ur = i < ch->n - 1 ? u[i + 1] : 0;

    f[i] = a[i] - (ul - 2 * u[i] + ur) - ch->f0 * PetscCosReal(ch->Omega * t) * Phi(ch, i);
  }
  PetscCall(DMDAVecRestoreArrayRead(da, Ul, &u));
  PetscCall(DMDAVecRestoreArrayRead(da, A, &a));
  PetscCall(DMDAVecRestoreArray(da, F, &f));
  PetscCall(DMRestoreLocalVector(da, &Ul));
  PetscFunctionReturn(0);
}

/* dF/dU + shift dF/dA */
static PetscErrorCode FormIJacobian(TS ts, PetscReal t, Vec U, Vec A, PetscReal shift, Mat J, Mat P, void *ctx)
{
  Chain   *ch = (Chain *)ctx;
  DM       da;
  PetscInt xs, xm;

  PetscFunctionBeginUser;
  PetscCall(TSGetDM(ts, &da));
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  for (PetscInt i = xs; i < xs + xm; i++) {
    MatStencil  row = {0}, col[3] = {{0}};
    PetscScalar val[3];
    PetscInt    nc = 0;

    row.i = i;
    if (i > 0) {
      col[nc].i = i - 1;
      val[nc++] = -1;
    }
    col[nc].i = i;
    val[nc++] = 2 + shift;
    if (i < ch->n - 1) {
      col[nc].i = i + 1;
      val[nc++] = -1;
    }
    PetscCall(MatSetValuesStencil(P, 1, &row, nc, col, val, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* a'' + w^2 a = f0 cos(Omega t), a(0) = 1, a'(0) = 0 */
static PetscReal ExactAmplitude(const Chain *ch, PetscReal t)
{
  const PetscReal s = PetscSinReal(ch->mode * PETSC_PI / (2 * (ch->n + 1))), w = 2 * s;
  const PetscReal p = ch->f0 / (w * w - ch->Omega * ch->Omega);

  return p * PetscCosReal(ch->Omega * t) + (1 - p) * PetscCosReal(w * t);
}

static PetscErrorCode Solve(DM da, Chain *ch, PetscReal T, PetscReal dt, Vec U)
{
  TS       ts;
  Vec      V;
  Mat      J;
  PetscInt xs, xm;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  for (PetscInt i = xs; i < xs + xm; i++) PetscCall(VecSetValue(U, i, Phi(ch, i), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecSet(V, 0));
  PetscCall(DMCreateMatrix(da, &J));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetDM(ts, da));
  PetscCall(TSSetType(ts, TSALPHA2));
  PetscCall(TSSetIFunction(ts, NULL, FormIFunction, ch));
  PetscCall(TSSetIJacobian(ts, J, J, FormIJacobian, ch));
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
  Chain     ch = {16, 3, 0.5, 1.3};
  PetscReal T = 4, dt = 0.4, err[8];
  PetscInt  refine = 1, xs, xm;
  DM        da;
  Vec       U, E;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Chain options", NULL);
  PetscCall(PetscOptionsInt("-n", "Masses", NULL, ch.n, &ch.n, NULL));
  PetscCall(PetscOptionsInt("-mode", "Initial mode", NULL, ch.mode, &ch.mode, NULL));
  PetscCall(PetscOptionsReal("-f0", "Driving amplitude", NULL, ch.f0, &ch.f0, NULL));
  PetscCall(PetscOptionsReal("-Omega", "Driving frequency", NULL, ch.Omega, &ch.Omega, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Coarsest time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsRangeInt("-refine", "Solves, halving the step", NULL, refine, &refine, NULL, 1, 8));
  PetscOptionsEnd();

  PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, ch.n, 1, 1, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateGlobalVector(da, &U));
  PetscCall(VecDuplicate(U, &E));
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  for (PetscInt i = xs; i < xs + xm; i++) PetscCall(VecSetValue(E, i, ExactAmplitude(&ch, T) * Phi(&ch, i), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(E));
  PetscCall(VecAssemblyEnd(E));
  for (PetscInt l = 0; l < refine; l++) {
    PetscCall(Solve(da, &ch, T, dt / (1 << l), U));
    PetscCall(VecAXPY(U, -1, E));
    PetscCall(VecNorm(U, NORM_INFINITY, &err[l]));
    PetscCall(VecAXPY(U, 1, E));
  }
  PetscCall(CheckErrors(PETSC_COMM_WORLD, "error against the exact solution", refine, err));
  PetscCall(CheckWriteCompare(U));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&E));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex !single

  # the program and its exact solution under the type it was written for
  test:
    suffix: alpha2
    args: -dt 0.02 -refine 2 -order 2 -error_tol 1e-4

  # under simpvi, 1 process, then 2 against its final state
  test:
    suffix: simpson
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -order 4 -error_tol 1e-6
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.1 -compare final.bin
      output_file: output/ifunction2_simpson_2.out
  test:
    suffix: lobatto
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -ts_simpvi_type lobatto -dt 0.8 -order 6 -error_tol 1e-8
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.2 -compare final.bin
      output_file: output/ifunction2_lobatto_2.out

TEST*/
