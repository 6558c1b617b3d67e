static char help[] = "A vibrating membrane on a 2-D DMDA, written for TSALPHA2 as a PETSc user writes it: the 5-point Laplacian of\n"
                     "the interior nodes of the unit square (fixed edges), a + gamma v - Delta_h u = 0, the I2 Jacobian filled with\n"
                     "MatSetValuesStencil(). From the mode u = sin(kx pi x) sin(ky pi y) at rest, whose exact discrete solution is a\n"
                     "damped cosine. By default the callbacks go in with TSSetI2Function()/TSSetI2Jacobian() and the DM's matrix;\n"
                     "-dmts sets them on the DM (DMTSSetI2Function()/DMTSSetI2Jacobian()) and gives no matrix, and -no_matrix calls\n"
                     "TSSetI2Jacobian() with NULL matrices: either way the SNES makes the matrix from the DM. -no_jacobian sets no\n"
                     "Jacobian at all: run with -snes_fd_color (finite differences coloured by the DM). -refine L solves L times,\n"
                     "halving the step.\n"
                     "Options: -nx <12> -ny <10> -kx <1> -ky <2> -gamma <0> -T <1> -dt <0.05> -dmts -no_matrix -no_jacobian\n\n";

#include <petscdmda.h>
#include <petscts.h>
#include "check.h"

typedef struct {
  PetscInt  kx, ky;
  PetscReal gamma;
} Membrane;

static PetscErrorCode FormI2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  Membrane           *mb = (Membrane *)ctx;
  DM                  da;
  DMDALocalInfo       info;
  Vec                 Ul;
  const PetscScalar **u, **v, **a;
  PetscScalar       **f;

  PetscFunctionBeginUser;
  PetscCall(TSGetDM(ts, &da));
  PetscCall(DMDAGetLocalInfo(da, &info));
  PetscCall(DMGetLocalVector(da, &Ul));
  PetscCall(DMGlobalToLocalBegin(da, U, INSERT_VALUES, Ul));
  PetscCall(DMGlobalToLocalEnd(da, U, INSERT_VALUES, Ul));
  PetscCall(DMDAVecGetArrayRead(da, Ul, &u));
  PetscCall(DMDAVecGetArrayRead(da, V, &v));
  PetscCall(DMDAVecGetArrayRead(da, A, &a));
  PetscCall(DMDAVecGetArray(da, F, &f));
  {
    const PetscReal hx = 1.0 / (info.mx + 1), hy = 1.0 / (info.my + 1), sx = 1 / (hx * hx), sy = 1 / (hy * hy);

    for (PetscInt j = info.ys; j < info.ys + info.ym; j++) {
      for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
        const PetscScalar uw = i > 0 ? u[j][i - 1] : 0, ue = i < info.mx - 1 ? u[j][i + 1] : 0;
        const PetscScalar us = j > 0 ? u[j - 1][i] : 0, un = j < info.my - 1 ? u[j + 1][i] : 0;

        f[j][i] = a[j][i] + mb->gamma * v[j][i] - sx * (uw - 2 * u[j][i] + ue) - sy * (us - 2 * u[j][i] + un);
      }
    }
  }
  PetscCall(DMDAVecRestoreArrayRead(da, Ul, &u));
  PetscCall(DMDAVecRestoreArrayRead(da, V, &v));
  PetscCall(DMDAVecRestoreArrayRead(da, A, &a));
  PetscCall(DMDAVecRestoreArray(da, F, &f));
  PetscCall(DMRestoreLocalVector(da, &Ul));
  PetscFunctionReturn(0);
}

static PetscErrorCode FormI2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  Membrane     *mb = (Membrane *)ctx;
  DM            da;
  DMDALocalInfo info;

  PetscFunctionBeginUser;
  PetscCall(TSGetDM(ts, &da));
  PetscCall(DMDAGetLocalInfo(da, &info));
  {
    const PetscReal hx = 1.0 / (info.mx + 1), hy = 1.0 / (info.my + 1), sx = 1 / (hx * hx), sy = 1 / (hy * hy);

    for (PetscInt j = info.ys; j < info.ys + info.ym; j++) {
      for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
        MatStencil  row = {0}, col[5] = {{0}};
        PetscScalar val[5];
        PetscInt    nc = 0;

        row.i = i;
        row.j = j;
        if (j > 0) {
          col[nc].i = i;
          col[nc].j = j - 1;
          val[nc++] = -sy;
        }
        if (i > 0) {
          col[nc].i = i - 1;
          col[nc].j = j;
          val[nc++] = -sx;
        }
        col[nc].i = i;
        col[nc].j = j;
        val[nc++] = 2 * sx + 2 * sy + shiftV * mb->gamma + shiftA;
        if (i < info.mx - 1) {
          col[nc].i = i + 1;
          col[nc].j = j;
          val[nc++] = -sx;
        }
        if (j < info.my - 1) {
          col[nc].i = i;
          col[nc].j = j + 1;
          val[nc++] = -sy;
        }
        PetscCall(MatSetValuesStencil(P, 1, &row, nc, col, val, INSERT_VALUES));
      }
    }
  }
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* u = amp(t) sin(kx pi x) sin(ky pi y): amp'' + gamma amp' + w^2 amp = 0, amp(0) = 1, amp'(0) = 0 */
static PetscErrorCode FormSolution(DM da, const Membrane *mb, PetscReal t, Vec U)
{
  DMDALocalInfo info;
  PetscScalar **u;
  PetscReal     amp = 1;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetLocalInfo(da, &info));
  if (t > 0) {
    const PetscReal hx = 1.0 / (info.mx + 1), hy = 1.0 / (info.my + 1);
    const PetscReal sx = PetscSinReal(mb->kx * PETSC_PI * hx / 2) / hx, sy = PetscSinReal(mb->ky * PETSC_PI * hy / 2) / hy;
    const PetscReal w2 = 4 * (sx * sx + sy * sy), wd = PetscSqrtReal(w2 - mb->gamma * mb->gamma / 4);

    amp = PetscExpReal(-mb->gamma * t / 2) * (PetscCosReal(wd * t) + mb->gamma / (2 * wd) * PetscSinReal(wd * t));
  }
  PetscCall(DMDAVecGetArray(da, U, &u));
  for (PetscInt j = info.ys; j < info.ys + info.ym; j++) {
    for (PetscInt i = info.xs; i < info.xs + info.xm; i++) u[j][i] = amp * PetscSinReal(mb->kx * PETSC_PI * (i + 1) / (info.mx + 1)) * PetscSinReal(mb->ky * PETSC_PI * (j + 1) / (info.my + 1));
  }
  PetscCall(DMDAVecRestoreArray(da, U, &u));
  PetscFunctionReturn(0);
}

/* A DM of its own for each TS: the callbacks set on it (-dmts) belong to that TS's solvers */
static PetscErrorCode Solve(DM dagrid, Membrane *mb, PetscBool dmts, PetscBool nomatrix, PetscBool nojacobian, PetscReal T, PetscReal dt, Vec U)
{
  TS  ts;
  DM  da;
  Vec V;
  Mat J = NULL;

  PetscFunctionBeginUser;
  PetscCall(DMClone(dagrid, &da));
  PetscCall(FormSolution(da, mb, 0, U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecSet(V, 0));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetDM(ts, da));
  PetscCall(TSSetType(ts, TSALPHA2));
  PetscCall(TSAlpha2SetRadius(ts, 1.0));
  if (dmts) {
    PetscCall(DMTSSetI2Function(da, FormI2Function, mb));
    if (!nojacobian) PetscCall(DMTSSetI2Jacobian(da, FormI2Jacobian, mb));
  } else {
    if (!nomatrix) PetscCall(DMCreateMatrix(da, &J));
    PetscCall(TSSetI2Function(ts, NULL, FormI2Function, mb));
    if (!nojacobian) PetscCall(TSSetI2Jacobian(ts, J, J, FormI2Jacobian, mb));
  }
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&V));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Membrane  mb = {1, 2, 0};
  PetscInt  nx = 12, ny = 10, refine = 1;
  PetscReal T = 1, dt = 0.05, err[8];
  PetscBool dmts = PETSC_FALSE, nomatrix = PETSC_FALSE, nojacobian = PETSC_FALSE;
  DM        da;
  Vec       U, E;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Membrane options", NULL);
  PetscCall(PetscOptionsInt("-nx", "Interior nodes in x", NULL, nx, &nx, NULL));
  PetscCall(PetscOptionsInt("-ny", "Interior nodes in y", NULL, ny, &ny, NULL));
  PetscCall(PetscOptionsInt("-kx", "Mode in x", NULL, mb.kx, &mb.kx, NULL));
  PetscCall(PetscOptionsInt("-ky", "Mode in y", NULL, mb.ky, &mb.ky, NULL));
  PetscCall(PetscOptionsReal("-gamma", "Damping", NULL, mb.gamma, &mb.gamma, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Coarsest time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsRangeInt("-refine", "Solves, halving the step", NULL, refine, &refine, NULL, 1, 8));
  PetscCall(PetscOptionsBool("-dmts", "Callbacks on the DM, no matrix given", NULL, dmts, &dmts, NULL));
  PetscCall(PetscOptionsBool("-no_matrix", "TSSetI2Jacobian() with NULL matrices", NULL, nomatrix, &nomatrix, NULL));
  PetscCall(PetscOptionsBool("-no_jacobian", "No Jacobian callback (use -snes_fd_color)", NULL, nojacobian, &nojacobian, NULL));
  PetscOptionsEnd();

  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, nx, ny, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateGlobalVector(da, &U));
  PetscCall(VecDuplicate(U, &E));
  PetscCall(FormSolution(da, &mb, T, E));
  for (PetscInt l = 0; l < refine; l++) {
    PetscCall(Solve(da, &mb, dmts, nomatrix, nojacobian, T, dt / (1 << l), U));
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
    args: -dt 0.01 -refine 2 -gamma 0.5 -order 2 -error_tol 1e-3
    test:
    test:
      args: -dmts
    test:
      args: -no_matrix
    test:
      args: -dmts -no_jacobian -snes_fd_color

  # under simpvi, 1 process, then 2 against its final state (h omega_max = 1.7 and 2.6 at the coarsest steps)
  test:
    suffix: simpson
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -dt 0.05 -order 4 -error_tol 1e-6
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.0125 -compare final.bin
      output_file: output/membrane2d_simpson_2.out
  test:
    suffix: lobatto_damped
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -ts_simpvi_type lobatto -dt 0.08 -gamma 0.5 -order 6 -error_tol 1e-9
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.02 -compare final.bin
      output_file: output/membrane2d_lobatto_damped_2.out
  # the default Krylov step solver (BiCGStab, block Jacobi ILU(0)) instead of LU
  test:
    suffix: krylov
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 2 -ts_simpvi_direct_limit 10 -dt 0.05 -order 4 -error_tol 1e-5
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.025 -compare final.bin
      output_file: output/membrane2d_krylov_2.out
  # -ts_view says so on one process too, on a grid whose step matrix is not nearly banded (it named only the parallel
  # and LU choices)
  test:
    suffix: krylov_view
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -nx 30 -ny 30 -ts_simpvi_direct_limit 10 -dt 0.02 -ts_max_steps 2 -ts_view
    filter: grep -o "Step.s linear solver: BiCGStab with block Jacobi/ILU(0), the default on one process above 10 rows"

  # the callbacks on the DM, and no matrix given (TSALPHA2's SNES makes it from the DM)
  test:
    suffix: dmts
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -dmts -dt 0.05 -order 4 -error_tol 1e-6
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.0125 -compare final.bin
      output_file: output/membrane2d_dmts_2.out
  test:
    suffix: no_matrix
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -no_matrix -dt 0.05 -order 4 -error_tol 1e-6
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.0125 -compare final.bin
      output_file: output/membrane2d_no_matrix_2.out
  # no Jacobian at all: PETSc's finite differences coloured by the DM (-snes_fd_color), as DMDA programs often run
  test:
    suffix: fdcolor
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -dmts -no_jacobian -snes_fd_color -dt 0.05 -order 4 -error_tol 1e-6
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.0125 -compare final.bin
      output_file: output/membrane2d_fdcolor_2.out

TEST*/
