static char help[] = "The two assembly paths of the step Jacobian of TSSIMPVI give the same matrix, also when the user's Hessian\n"
                     "gains nonzeros during the run. A chain of N pendulums with unequal masses, springs between neighbours and,\n"
                     "from t = t_on, a spring between the first and the last pendulum (on other processes in parallel), whose\n"
                     "Hessian entries the potential inserts only once the spring acts. Three runs of the same steps:\n"
                     "  fast:    the default AIJ step matrix, filled straight from the user's AIJ rows;\n"
                     "  generic: the step matrix as BAIJ (option prefix generic_), filled by MatGetRow/MatSetValues;\n"
                     "  full:    the Hessian preallocated with the spring's entries from the start (option prefix full_).\n"
                     "The last step's Jacobians of fast and generic are compared at the same point, and the trajectories.\n"
                     "With -door lagrangian the chain goes through TSSimpVISetLagrangian() with a gyroscopic coupling\n"
                     "g sum_i x_{i+1} v_i, whose Lvx enters the step matrix also transposed: rows of other processes.\n"
                     "Options: -door mechanical|lagrangian -g <0.3> -N <24> (pendulums) -dt <0.1> -steps <10> -t_on <0.35> -kappa <2> -eps <0.5>\n\n";

#include <simpvi.h>
#include "../examples/phasesplit.h"

typedef enum {
  DOOR_MECHANICAL,
  DOOR_LAGRANGIAN
} Door;
static const char *const Doors[] = {"mechanical", "lagrangian", "Door", "DOOR_", NULL};

typedef struct {
  Door       door;
  PetscReal  g;          /* gyroscopic coupling of the Lagrangian door */
  Vec        grad, vall; /* work: grad V; every velocity, on every process */
  PetscInt   n, N;       /* pendulums on this process, in all */
  PetscReal  kappa, eps, ton;
  PetscBool  fullpattern; /* insert the first-last spring's entries (as zeros) before it acts */
  Vec        xall;        /* every position, on every process */
  VecScatter toall;
} AppCtx;

static PetscReal Spring(AppCtx *user, PetscReal t)
{
  return t > user->ton ? user->eps : 0;
}

static PetscErrorCode Gather(AppCtx *user, Vec x, const PetscScalar **xa)
{
  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(user->toall, x, user->xall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(user->toall, x, user->xall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(user->xall, xa));
  PetscFunctionReturn(0);
}

/* V = sum_i (1 - cos x_i) + kappa/2 sum_i (x_{i+1} - x_i)^2 + eps(t)/2 (x_{N-1} - x_0)^2 */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscInt     N    = user->N;
  const PetscReal    e    = Spring(user, t);
  const PetscScalar *xa;
  PetscScalar       *gg;
  PetscInt           lo, hi;
  PetscReal          v = 0;

  PetscFunctionBeginUser;
  PetscCall(Gather(user, x, &xa));
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArrayWrite(g, &gg));
  for (PetscInt i = lo; i < hi; i++) {
    gg[i - lo] = PetscSinReal(xa[i]);
    v += 1 - PetscCosReal(xa[i]);
    if (i > 0) gg[i - lo] += user->kappa * (xa[i] - xa[i - 1]);
    if (i < N - 1) {
      gg[i - lo] -= user->kappa * (xa[i + 1] - xa[i]);
      v += 0.5 * user->kappa * PetscSqr(xa[i + 1] - xa[i]);
    }
  }
  if (lo == 0 && hi > 0) gg[0] -= e * (xa[N - 1] - xa[0]);
  if (lo <= N - 1 && N - 1 < hi) {
    gg[N - 1 - lo] += e * (xa[N - 1] - xa[0]);
    v += 0.5 * e * PetscSqr(xa[N - 1] - xa[0]);
  }
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(VecRestoreArrayRead(user->xall, &xa));
  PetscCall(MPIU_Allreduce(&v, V, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscInt     N    = user->N;
  const PetscReal    e    = Spring(user, t);
  const PetscScalar *xx;
  PetscInt           lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(MatZeroEntries(H));
  for (PetscInt i = lo; i < hi; i++) {
    PetscScalar diag = PetscCosReal(xx[i - lo]);

    if (i > 0) {
      diag += user->kappa;
      PetscCall(MatSetValue(H, i, i - 1, -user->kappa, INSERT_VALUES));
    }
    if (i < N - 1) {
      diag += user->kappa;
      PetscCall(MatSetValue(H, i, i + 1, -user->kappa, INSERT_VALUES));
    }
    if ((i == 0 || i == N - 1) && (e != 0 || user->fullpattern)) { /* a user who inserts only what acts */
      diag += e;
      PetscCall(MatSetValue(H, i, N - 1 - i, -e, INSERT_VALUES));
    }
    PetscCall(MatSetValue(H, i, i, diag, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* L = sum_i m_i v_i^2 / 2 - V(t, x) + g sum_{i < N-1} x_{i+1} v_i, m_i = 1 + i mod 3 */
static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xa, *va, *gv;
  PetscScalar       *lx, *lv;
  PetscInt           lo, hi;
  PetscReal          V, l = 0;

  PetscFunctionBeginUser;
  PetscCall(Potential(ts, t, x, &V, user->grad, user));
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecScatterBegin(user->toall, v, user->vall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(user->toall, v, user->vall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(Gather(user, x, &xa));
  PetscCall(VecGetArrayRead(user->vall, &va));
  PetscCall(VecGetArrayRead(user->grad, &gv));
  PetscCall(VecGetArrayWrite(Lx, &lx));
  PetscCall(VecGetArrayWrite(Lv, &lv));
  for (PetscInt i = lo; i < hi; i++) {
    const PetscReal m = 1.0 + i % 3;

    lx[i - lo] = -gv[i - lo] + (i > 0 ? user->g * va[i - 1] : 0);
    lv[i - lo] = m * va[i] + (i < user->N - 1 ? user->g * xa[i + 1] : 0);
    l += 0.5 * m * PetscSqr(va[i]) + (i < user->N - 1 ? user->g * xa[i + 1] * va[i] : 0);
  }
  PetscCall(VecRestoreArrayWrite(Lx, &lx));
  PetscCall(VecRestoreArrayWrite(Lv, &lv));
  PetscCall(VecRestoreArrayRead(user->grad, &gv));
  PetscCall(VecRestoreArrayRead(user->vall, &va));
  PetscCall(VecRestoreArrayRead(user->xall, &xa));
  PetscCall(MPIU_Allreduce(&l, L, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  *L -= V;
  PetscFunctionReturn(0);
}

/* Lxx = -hess V, Lvx(i, i+1) = g, Lvv = diag(m) */
static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  AppCtx  *user = (AppCtx *)ctx;
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(PotentialHessian(ts, t, x, Lxx, user));
  PetscCall(MatScale(Lxx, -1));
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscCall(MatSetValue(Lvv, i, i, 1.0 + i % 3, INSERT_VALUES));
    if (i < user->N - 1) PetscCall(MatSetValue(Lvx, i, i + 1, user->g, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(Lvv, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lvv, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Lvx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lvx, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* The chain from a wave at rest, masses 1, 2, 3, 1, 2, 3, ... Returns the TS (kept alive to the end, see
   tests/ex10_kinsol.c: in parallel a destroyed TS's DM address must not be reused) and the final state. */
static PetscErrorCode Run(AppCtx *user, const char prefix[], PetscReal dt, PetscInt steps, Vec *Uout, TS *tsout, PetscReal *nnz)
{
  TS           ts;
  Vec          U;
  Mat          M, H, Lvx;
  SNES         snes;
  Mat          J;
  PetscInt     lo, hi;
  PetscScalar *u;
  MatInfo      info;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, user->n, user->n, PETSC_DETERMINE, PETSC_DETERMINE, 1, NULL, 0, NULL, &M));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, user->n, user->n, PETSC_DETERMINE, PETSC_DETERMINE, 3, NULL, 2, NULL, &H));
  PetscCall(MatSetOption(H, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE)); /* the spring's entries come later */
  PetscCall(MatGetOwnershipRange(M, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(MatSetValue(M, i, i, 1.0 + i % 3, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 2 * user->n, PETSC_DETERMINE, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  for (PetscInt i = lo; i < hi; i++) {
    u[i - lo]           = 0.8 * PetscSinReal(PETSC_PI * (i + 0.5) / user->N);
    u[user->n + i - lo] = 0;
  }
  PetscCall(VecRestoreArrayWrite(U, &u));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetOptionsPrefix(ts, prefix));
  PetscCall(TSSetType(ts, TSSIMPVI));
  if (user->door == DOOR_MECHANICAL) {
    PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
    PetscCall(TSSimpVISetPotential(ts, H, Potential, PotentialHessian, user));
  } else {
    PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, user->n, user->n, PETSC_DETERMINE, PETSC_DETERMINE, 1, NULL, 1, NULL, &Lvx));
    PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, user));
    PetscCall(TSSimpVISetLagrangianHessian(ts, H, Lvx, M, LagrangianHessian, user));
    PetscCall(MatDestroy(&Lvx));
  }
  PetscCall(PhaseSplitLocalHalves(ts, U));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, steps * dt));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSetMaxSteps(ts, 1)); /* the first step alone: the Jacobian's pattern before the spring acts */
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetJacobian(snes, &J, NULL, NULL, NULL));
  PetscCall(MatGetInfo(J, MAT_GLOBAL_SUM, &info));
  nnz[0] = info.nz_used;
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSolve(ts, U));
  PetscCall(MatGetInfo(J, MAT_GLOBAL_SUM, &info));
  nnz[1] = info.nz_used;
  *Uout  = U;
  *tsout = ts;
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscFunctionReturn(0);
}

/* ||J_a - J_b||_F / ||J_a||_F, both Jacobians evaluated at the solution Y of a's last step */
static PetscErrorCode CompareJacobians(TS a, TS b, PetscReal *relerr)
{
  SNES      snes[2];
  Mat       J[2], Jaij[2];
  Vec       Y;
  PetscReal na, nd;
  TS        ts[2] = {a, b};

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 2; k++) PetscCall(TSGetSNES(ts[k], &snes[k]));
  PetscCall(SNESGetSolution(snes[0], &Y));
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(SNESGetJacobian(snes[k], &J[k], NULL, NULL, NULL));
    PetscCall(SNESComputeJacobian(snes[k], Y, J[k], J[k]));
    PetscCall(MatConvert(J[k], MATAIJ, MAT_INITIAL_MATRIX, &Jaij[k]));
  }
  PetscCall(MatNorm(Jaij[0], NORM_FROBENIUS, &na));
  PetscCall(MatAXPY(Jaij[1], -1, Jaij[0], DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(Jaij[1], NORM_FROBENIUS, &nd));
  *relerr = nd / na;
  for (PetscInt k = 0; k < 2; k++) PetscCall(MatDestroy(&Jaij[k]));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  AppCtx      user = {DOOR_MECHANICAL, 0.3, NULL, NULL, 0, 24, 2.0, 0.5, 0.35, PETSC_FALSE, NULL, NULL};
  PetscReal   dt = 0.1, nnz[3][2], jacerr = 0, diff[2], nrm;
  PetscInt    steps = 10;
  Vec         U[3], x;
  TS          ts[3];
  const char *names[3] = {"fast", "generic", "full"};
  PetscBool   set;
  MatType     mtype;
  Mat         J;
  SNES        snes;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Step Jacobian assembly test options", NULL);
  PetscCall(PetscOptionsInt("-N", "Pendulums", NULL, user.N, &user.N, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsInt("-steps", "Number of steps", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsReal("-t_on", "Time from which the first and last pendulums are coupled", NULL, user.ton, &user.ton, NULL));
  PetscCall(PetscOptionsReal("-kappa", "Spring between neighbours", NULL, user.kappa, &user.kappa, NULL));
  PetscCall(PetscOptionsReal("-eps", "Spring between the first and last pendulums", NULL, user.eps, &user.eps, NULL));
  PetscCall(PetscOptionsEnum("-door", "Mechanics through TSSimpVISetMass()/TSSimpVISetPotential() or TSSimpVISetLagrangian()", NULL, Doors, (PetscEnum)user.door, (PetscEnum *)&user.door, NULL));
  PetscCall(PetscOptionsReal("-g", "Gyroscopic coupling of the Lagrangian door", NULL, user.g, &user.g, NULL));
  PetscOptionsEnd();
  PetscCall(PetscOptionsHasName(NULL, "generic_", "-ts_simpvi_mat_type", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-generic_ts_simpvi_mat_type", MATBAIJ));

  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, user.N, &x));
  PetscCall(VecGetLocalSize(x, &user.n));
  PetscCall(VecScatterCreateToAll(x, &user.toall, &user.xall));
  PetscCall(VecDuplicate(user.xall, &user.vall));
  PetscCall(VecDuplicate(x, &user.grad));
  PetscCall(VecDestroy(&x));

  for (PetscInt r = 0; r < 3; r++) {
    user.fullpattern = (PetscBool)(r == 2);
    PetscCall(Run(&user, r == 0 ? NULL : r == 1 ? "generic_" : "full_", dt, steps, &U[r], &ts[r], nnz[r]));
    PetscCall(TSGetSNES(ts[r], &snes));
    PetscCall(SNESGetJacobian(snes, &J, NULL, NULL, NULL));
    PetscCall(MatGetType(J, &mtype));
    if (!strncmp(mtype, "seq", 3) || !strncmp(mtype, "mpi", 3)) mtype += 3; /* the same output on any number of processes */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-7s: step matrix %s, nonzeros after the first step %g, after step %" PetscInt_FMT " %g\n", names[r], mtype, nnz[r][0], steps, nnz[r][1]));
  }
  PetscCall(CompareJacobians(ts[0], ts[1], &jacerr));
  PetscCall(VecNorm(U[0], NORM_INFINITY, &nrm));
  for (PetscInt r = 1; r < 3; r++) {
    PetscCall(VecAXPY(U[r], -1, U[0]));
    PetscCall(VecNorm(U[r], NORM_INFINITY, &diff[r - 1]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s door, chain of %" PetscInt_FMT ", spring between its ends from t = %g: the step Jacobian gained nonzeros: %s\n", Doors[user.door], user.N, (double)user.ton, nnz[0][1] > nnz[0][0] ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "fast and generic assembly give the same Jacobian to 1e-13: %s\n", jacerr < 1e-13 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "same trajectory as the generic assembly to 1e-12: %s\n", diff[0] < 1e-12 * nrm ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "same trajectory as with the full pattern from the start to 1e-12: %s\n", diff[1] < 1e-12 * nrm ? "yes" : "no"));
  for (PetscInt r = 0; r < 3; r++) {
    PetscCall(VecDestroy(&U[r]));
    PetscCall(TSDestroy(&ts[r]));
  }
  PetscCall(VecDestroy(&user.xall));
  PetscCall(VecDestroy(&user.vall));
  PetscCall(VecDestroy(&user.grad));
  PetscCall(VecScatterDestroy(&user.toall));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # in parallel the spring joins the first and last processes: its entries are off-process columns of the step matrix
  test:
    suffix: mechanical
    nsize: {{1 2 3}}
    args: -ksp_type gmres -pc_type bjacobi -ksp_rtol 1e-14 -generic_ksp_type gmres -generic_pc_type bjacobi -generic_ksp_rtol 1e-14 -full_ksp_type gmres -full_pc_type bjacobi -full_ksp_rtol 1e-14 -malloc_dump
    output_file: output/ex11_mechanical.out
  # Lvx also enters transposed: in parallel, entries of the neighbour's rows go through the assembly's messages
  test:
    suffix: lagrangian
    nsize: {{1 2 3}}
    args: -door lagrangian -ksp_type gmres -pc_type bjacobi -ksp_rtol 1e-14 -generic_ksp_type gmres -generic_pc_type bjacobi -generic_ksp_rtol 1e-14 -full_ksp_type gmres -full_pc_type bjacobi -full_ksp_rtol 1e-14 -malloc_dump
    output_file: output/ex11_lagrangian.out

TEST*/
