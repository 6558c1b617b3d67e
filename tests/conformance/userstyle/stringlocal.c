static char help[] = "A string with two coupled transverse displacements (x, y) at each of -n nodes of a 1-D DMDA with 2 dof, written\n"
                     "for TSALPHA2 as a PETSc user writes it: the I2 Jacobian filled with MatSetValuesLocal() in the DM's local\n"
                     "(ghosted) numbering. a + (L kron S) u = 0, L the second-difference matrix with fixed ends, S = [2 s; s 1]: from the\n"
                     "string mode sin(mode pi (i+1)/(n+1)) times an eigenvector of S at rest, the exact solution is a cosine. Every\n"
                     "node also gets a damper -c v (C = dF/dV) when -c is given. -refine L solves L times, halving the step.\n"
                     "Options: -n <14> -mode <2> -s <0.5> -c <0> -T <3> -dt <0.3>\n\n";

#include <petscdmda.h>
#include <petscts.h>
#include "check.h"

typedef struct {
  PetscScalar x, y;
} Node;

typedef struct {
  PetscInt  mode;
  PetscReal s, c;
} String;

static PetscErrorCode FormI2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  String     *st = (String *)ctx;
  DM          da;
  Vec         Ul;
  const Node *u, *v, *a;
  Node       *f;
  PetscInt    xs, xm, n;

  PetscFunctionBeginUser;
  PetscCall(TSGetDM(ts, &da));
  PetscCall(DMDAGetInfo(da, NULL, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMGetLocalVector(da, &Ul));
  PetscCall(DMGlobalToLocalBegin(da, U, INSERT_VALUES, Ul));
  PetscCall(DMGlobalToLocalEnd(da, U, INSERT_VALUES, Ul));
  PetscCall(DMDAVecGetArrayRead(da, Ul, &u));
  PetscCall(DMDAVecGetArrayRead(da, V, &v));
  PetscCall(DMDAVecGetArrayRead(da, A, &a));
  PetscCall(DMDAVecGetArray(da, F, &f));
  for (PetscInt i = xs; i < xs + xm; i++) {
    const Node        zero = {0, 0}, ul = i > 0 ? u[i - 1] : zero, ur = i < n - 1 ? u[i + 1] : zero;
    const PetscScalar lx = 2 * u[i].x - ul.x - ur.x, ly = 2 * u[i].y - ul.y - ur.y; /* (L u) */

    f[i].x = a[i].x + st->c * v[i].x + 2 * lx + st->s * ly;
    f[i].y = a[i].y + st->c * v[i].y + st->s * lx + ly;
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
  String  *st = (String *)ctx;
  DM       da;
  PetscInt xs, xm, gxs, n;

  PetscFunctionBeginUser;
  PetscCall(TSGetDM(ts, &da));
  PetscCall(DMDAGetInfo(da, NULL, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAGetGhostCorners(da, &gxs, NULL, NULL, NULL, NULL, NULL));
  for (PetscInt i = xs; i < xs + xm; i++) {
    const PetscScalar S[2][2] = {
      {2,     st->s},
      {st->s, 1    }
    };
    const PetscScalar diag = shiftA + shiftV * st->c;

    for (PetscInt r = 0; r < 2; r++) {
      const PetscInt row = 2 * (i - gxs) + r; /* local (ghosted) numbering */
      PetscInt       cols[6], nc = 0;
      PetscScalar    vals[6];

      for (PetscInt q = 0; q < 2; q++) {
        if (i > 0) {
          cols[nc]   = 2 * (i - 1 - gxs) + q;
          vals[nc++] = -S[r][q];
        }
        cols[nc]   = 2 * (i - gxs) + q;
        vals[nc++] = 2 * S[r][q] + (r == q ? diag : 0);
        if (i < n - 1) {
          cols[nc]   = 2 * (i + 1 - gxs) + q;
          vals[nc++] = -S[r][q];
        }
      }
      PetscCall(MatSetValuesLocal(P, 1, &row, nc, cols, vals, INSERT_VALUES));
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

/* the mode times the eigenvector (s, lambda - 2) of S for lambda = (3 + sqrt(1 + 4 s^2))/2, damped cosine of
   w^2 = lambda 4 sin^2(mode pi / (2 (n + 1))) */
static PetscErrorCode FormSolution(DM da, const String *st, PetscReal t, Vec U)
{
  const PetscReal lambda = (3 + PetscSqrtReal(1 + 4 * st->s * st->s)) / 2;
  PetscInt        xs, xm, n;
  Node           *u;
  PetscReal       amp = 1;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetInfo(da, NULL, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  if (t > 0) {
    const PetscReal sn = PetscSinReal(st->mode * PETSC_PI / (2 * (n + 1))), w2 = 4 * lambda * sn * sn;
    const PetscReal wd = PetscSqrtReal(w2 - st->c * st->c / 4);

    amp = PetscExpReal(-st->c * t / 2) * (PetscCosReal(wd * t) + st->c / (2 * wd) * PetscSinReal(wd * t));
  }
  PetscCall(DMDAVecGetArray(da, U, &u));
  for (PetscInt i = xs; i < xs + xm; i++) {
    const PetscReal phi = amp * PetscSinReal(st->mode * PETSC_PI * (i + 1) / (n + 1));

    u[i].x = phi * st->s;
    u[i].y = phi * (lambda - 2);
  }
  PetscCall(DMDAVecRestoreArray(da, U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode Solve(DM da, String *st, PetscReal T, PetscReal dt, Vec U)
{
  TS  ts;
  Vec V;
  Mat J;

  PetscFunctionBeginUser;
  PetscCall(FormSolution(da, st, 0, U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecSet(V, 0));
  PetscCall(DMCreateMatrix(da, &J));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetDM(ts, da));
  PetscCall(TSSetType(ts, TSALPHA2));
  PetscCall(TSSetI2Function(ts, NULL, FormI2Function, st));
  PetscCall(TSSetI2Jacobian(ts, J, J, FormI2Jacobian, st));
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
  String    st = {2, 0.5, 0};
  PetscInt  n = 14, refine = 1;
  PetscReal T = 3, dt = 0.3, err[8];
  DM        da;
  Vec       U, E;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "String options", NULL);
  PetscCall(PetscOptionsInt("-n", "Nodes", NULL, n, &n, NULL));
  PetscCall(PetscOptionsInt("-mode", "Initial mode", NULL, st.mode, &st.mode, NULL));
  PetscCall(PetscOptionsReal("-s", "Coupling of x and y", NULL, st.s, &st.s, NULL));
  PetscCall(PetscOptionsReal("-c", "Damping", NULL, st.c, &st.c, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Coarsest time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsRangeInt("-refine", "Solves, halving the step", NULL, refine, &refine, NULL, 1, 8));
  PetscOptionsEnd();

  PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, n, 2, 1, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateGlobalVector(da, &U));
  PetscCall(VecDuplicate(U, &E));
  PetscCall(FormSolution(da, &st, T, E));
  for (PetscInt l = 0; l < refine; l++) {
    PetscCall(Solve(da, &st, T, dt / (1 << l), U));
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
    args: -dt 0.02 -refine 2 -c 0.2 -order 2 -error_tol 1e-4

  # under simpvi, 1 process, then 2 against its final state; undamped, then damped (C = dF/dV)
  test:
    suffix: simpson
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -order 4 -error_tol 1e-7
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.075 -compare final.bin
      output_file: output/stringlocal_simpson_2.out
  test:
    suffix: lobatto
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -ts_simpvi_type lobatto -dt 0.6 -order 6 -error_tol 1e-10
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.15 -compare final.bin
      output_file: output/stringlocal_lobatto_2.out
  test:
    suffix: damped_simpson
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -c 0.2 -order 4 -error_tol 1e-7
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.075 -compare final.bin
      output_file: output/stringlocal_damped_simpson_2.out

TEST*/
