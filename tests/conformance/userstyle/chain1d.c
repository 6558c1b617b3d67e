static char help[] = "A chain of masses on a 1-D DMDA, written for TSALPHA2 as a PETSc user writes it: TSSetI2Function() with\n"
                     "DMGlobalToLocal() and DMDAVecGetArray(), the I2 Jacobian filled with MatSetValuesStencil() into the DM's matrix.\n"
                     "m a_i + c v_i - k (u_{i+1} - 2 u_i + u_{i-1}) - beta ((u_{i+1} - u_i)^3 - (u_i - u_{i-1})^3) = f0 cos(Omega t) phi_i,\n"
                     "fixed ends, from u = amp phi at rest, phi_i = sin(mode pi (i+1)/(n+1)). For beta = 0 the exact solution is the\n"
                     "damped, driven oscillation of that mode (u and, from TS2GetSolution(), v); -linear declares TS_LINEAR. -segments S\n"
                     "calls TSSolve() S times, to T/S, 2T/S, ... T, as a program does that writes output; -refine L solves L times,\n"
                     "halving the step.\n"
                     "Options: -n <16> -m <1> -k <1> -beta <0> -c <0> -f0 <0> -Omega <1.3> -mode <3> -amp <1> -T <4> -dt <0.4> -segments <1>\n\n";

#include <petscdmda.h>
#include <petscts.h>
#include "check.h"

typedef struct {
  PetscInt  n, mode;
  PetscReal m, k, beta, c, f0, Omega, amp;
} Chain;

static PetscReal Phi(const Chain *ch, PetscInt i)
{
  return PetscSinReal(ch->mode * PETSC_PI * (i + 1) / (ch->n + 1));
}

static PetscErrorCode FormI2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  Chain             *ch = (Chain *)ctx;
  DM                 da;
  Vec                Ul;
  const PetscScalar *u, *v, *a;
  PetscScalar       *f;
  PetscInt           xs, xm;

  PetscFunctionBeginUser;
  PetscCall(TSGetDM(ts, &da));
  PetscCall(DMGetLocalVector(da, &Ul));
  PetscCall(DMGlobalToLocalBegin(da, U, INSERT_VALUES, Ul));
  PetscCall(DMGlobalToLocalEnd(da, U, INSERT_VALUES, Ul));
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayRead(da, Ul, &u));
  PetscCall(DMDAVecGetArrayRead(da, V, &v));
  PetscCall(DMDAVecGetArrayRead(da, A, &a));
  PetscCall(DMDAVecGetArray(da, F, &f));
  for (PetscInt i = xs; i < xs + xm; i++) {
    const PetscScalar ul = i > 0 ? u[i - 1] : 0, ur = i < ch->n - 1 ? u[i + 1] : 0;
    const PetscScalar dl = u[i] - ul, dr = ur - u[i];

    f[i] = ch->m * a[i] + ch->c * v[i] - ch->k * (dr - dl) - ch->beta * (dr * dr * dr - dl * dl * dl) - ch->f0 * PetscCosReal(ch->Omega * t) * Phi(ch, i);
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
  Chain             *ch = (Chain *)ctx;
  DM                 da;
  Vec                Ul;
  const PetscScalar *u;
  PetscInt           xs, xm;

  PetscFunctionBeginUser;
  PetscCall(TSGetDM(ts, &da));
  PetscCall(DMGetLocalVector(da, &Ul));
  PetscCall(DMGlobalToLocalBegin(da, U, INSERT_VALUES, Ul));
  PetscCall(DMGlobalToLocalEnd(da, U, INSERT_VALUES, Ul));
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  PetscCall(DMDAVecGetArrayRead(da, Ul, &u));
  for (PetscInt i = xs; i < xs + xm; i++) {
    const PetscScalar ul = i > 0 ? u[i - 1] : 0, ur = i < ch->n - 1 ? u[i + 1] : 0;
    const PetscScalar kl = ch->k + 3 * ch->beta * (u[i] - ul) * (u[i] - ul), kr = ch->k + 3 * ch->beta * (ur - u[i]) * (ur - u[i]);
    MatStencil        row = {0}, col[3] = {{0}};
    PetscScalar       val[3];
    PetscInt          nc = 0;

    row.i = i;
    if (i > 0) {
      col[nc].i = i - 1;
      val[nc++] = -kl;
    }
    col[nc].i = i;
    val[nc++] = kl + kr + shiftV * ch->c + shiftA * ch->m;
    if (i < ch->n - 1) {
      col[nc].i = i + 1;
      val[nc++] = -kr;
    }
    PetscCall(MatSetValuesStencil(P, 1, &row, nc, col, val, INSERT_VALUES));
  }
  PetscCall(DMDAVecRestoreArrayRead(da, Ul, &u));
  PetscCall(DMRestoreLocalVector(da, &Ul));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* The mode's amplitude and its rate for beta = 0: a'' + (c/m) a' + w^2 a = (f0/m) cos(Omega t), a(0) = amp, a'(0) = 0 */
static void ExactAmplitude(const Chain *ch, PetscReal t, PetscReal *a, PetscReal *adot)
{
  const PetscReal s  = PetscSinReal(ch->mode * PETSC_PI / (2 * (ch->n + 1)));
  const PetscReal w2 = 4 * ch->k / ch->m * s * s, g = ch->c / ch->m, F = ch->f0 / ch->m;
  const PetscReal dre = w2 - ch->Omega * ch->Omega, dim = g * ch->Omega, d2 = dre * dre + dim * dim;
  /* particular: Re(F e^{i Omega t} / (dre + i dim)) = F (dre cos + dim sin) / d2 */
  const PetscReal p0 = F * dre / d2, pd0 = F * dim * ch->Omega / d2;
  const PetscReal wd = PetscSqrtReal(w2 - g * g / 4), A0 = ch->amp - p0, B0 = (-pd0 + g / 2 * A0) / wd;
  const PetscReal c = PetscCosReal(ch->Omega * t), sn = PetscSinReal(ch->Omega * t), e = PetscExpReal(-g * t / 2);
  const PetscReal hc = A0 * PetscCosReal(wd * t) + B0 * PetscSinReal(wd * t), hs = -A0 * PetscSinReal(wd * t) + B0 * PetscCosReal(wd * t);

  *a    = F * (dre * c + dim * sn) / d2 + e * hc;
  *adot = F * ch->Omega * (dim * c - dre * sn) / d2 + e * (wd * hs - g / 2 * hc);
}

/* u(T) into U and u'(T), from TS2GetSolution(), into Vout */
static PetscErrorCode Solve(DM da, Chain *ch, PetscBool linear, PetscInt segments, PetscReal T, PetscReal dt, Vec U, Vec Vout)
{
  TS       ts;
  Vec      V;
  Mat      J;
  PetscInt xs, xm;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  for (PetscInt i = xs; i < xs + xm; i++) PetscCall(VecSetValue(U, i, ch->amp * Phi(ch, i), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecSet(V, 0));
  PetscCall(DMCreateMatrix(da, &J));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetDM(ts, da));
  PetscCall(TSSetType(ts, TSALPHA2));
  PetscCall(TSSetProblemType(ts, linear ? TS_LINEAR : TS_NONLINEAR));
  PetscCall(TSSetI2Function(ts, NULL, FormI2Function, ch));
  PetscCall(TSSetI2Jacobian(ts, J, J, FormI2Jacobian, ch));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  for (PetscInt k = 1; k <= segments; k++) {
    PetscCall(TSSetMaxTime(ts, T * k / segments));
    PetscCall(TSSolve(ts, U));
  }
  {
    Vec u, v;

    PetscCall(TS2GetSolution(ts, &u, &v));
    PetscCall(VecCopy(v, Vout));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&V));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Chain     ch = {16, 3, 1, 1, 0, 0, 0, 1.3, 1};
  PetscReal T = 4, dt = 0.4, err[8];
  PetscInt  refine = 1, segments = 1, xs, xm;
  PetscBool linear = PETSC_FALSE;
  DM        da;
  Vec       U, Uprev, E, V, Ev;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Chain options", NULL);
  PetscCall(PetscOptionsInt("-n", "Masses", NULL, ch.n, &ch.n, NULL));
  PetscCall(PetscOptionsInt("-mode", "Initial mode", NULL, ch.mode, &ch.mode, NULL));
  PetscCall(PetscOptionsReal("-m", "Mass", NULL, ch.m, &ch.m, NULL));
  PetscCall(PetscOptionsReal("-k", "Spring constant", NULL, ch.k, &ch.k, NULL));
  PetscCall(PetscOptionsReal("-beta", "FPUT quartic coefficient", NULL, ch.beta, &ch.beta, NULL));
  PetscCall(PetscOptionsReal("-c", "Damping", NULL, ch.c, &ch.c, NULL));
  PetscCall(PetscOptionsReal("-f0", "Driving amplitude", NULL, ch.f0, &ch.f0, NULL));
  PetscCall(PetscOptionsReal("-Omega", "Driving frequency", NULL, ch.Omega, &ch.Omega, NULL));
  PetscCall(PetscOptionsReal("-amp", "Initial amplitude", NULL, ch.amp, &ch.amp, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Coarsest time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsRangeInt("-refine", "Solves, halving the step", NULL, refine, &refine, NULL, 1, 8));
  PetscCall(PetscOptionsInt("-segments", "TSSolve() calls to reach T", NULL, segments, &segments, NULL));
  PetscCall(PetscOptionsBool("-linear", "Declare TS_LINEAR", NULL, linear, &linear, NULL));
  PetscOptionsEnd();

  PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, ch.n, 1, 1, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateGlobalVector(da, &U));
  PetscCall(VecDuplicate(U, &Uprev));
  PetscCall(VecDuplicate(U, &E));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecDuplicate(U, &Ev));
  PetscCall(DMDAGetCorners(da, &xs, NULL, NULL, &xm, NULL, NULL));
  {
    PetscReal a, adot;

    ExactAmplitude(&ch, T, &a, &adot);
    for (PetscInt i = xs; i < xs + xm; i++) {
      PetscCall(VecSetValue(E, i, a * Phi(&ch, i), INSERT_VALUES));
      PetscCall(VecSetValue(Ev, i, adot * Phi(&ch, i), INSERT_VALUES));
    }
  }
  PetscCall(VecAssemblyBegin(E));
  PetscCall(VecAssemblyEnd(E));
  PetscCall(VecAssemblyBegin(Ev));
  PetscCall(VecAssemblyEnd(Ev));

  for (PetscInt l = 0; l < refine; l++) {
    PetscCall(Solve(da, &ch, linear, segments, T, dt / (1 << l), U, V));
    if (ch.beta == 0) { /* positions and velocities against the exact solution */
      PetscReal verr;

      PetscCall(VecWAXPY(Uprev, -1, E, U));
      PetscCall(VecNorm(Uprev, NORM_INFINITY, &err[l]));
      PetscCall(VecWAXPY(Uprev, -1, Ev, V));
      PetscCall(VecNorm(Uprev, NORM_INFINITY, &verr));
      err[l] = PetscMax(err[l], verr);
    } else if (l > 0) { /* between successive steps */
      PetscCall(VecAXPY(Uprev, -1, U));
      PetscCall(VecNorm(Uprev, NORM_INFINITY, &err[l - 1]));
    }
    PetscCall(VecCopy(U, Uprev));
  }
  if (ch.beta == 0) PetscCall(CheckErrors(PETSC_COMM_WORLD, "error of (u, v) against the exact solution", refine, err));
  else if (refine > 2) PetscCall(CheckErrors(PETSC_COMM_WORLD, "difference between successive steps", refine - 1, err));
  PetscCall(CheckWriteCompare(U));

  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&Uprev));
  PetscCall(VecDestroy(&E));
  PetscCall(VecDestroy(&V));
  PetscCall(VecDestroy(&Ev));
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
    args: -dt 0.02 -refine 2 -c 0.1 -f0 0.5 -order 2 -error_tol 1e-4

  # under simpvi, 1 process, then 2 against its final state: TS_LINEAR undamped, then damped (C = dF/dV) and driven
  test:
    suffix: linear_simpson
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -linear -order 4 -error_tol 1e-7
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.1 -compare final.bin
      output_file: output/chain1d_linear_simpson_2.out
  test:
    suffix: linear_lobatto
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -linear -ts_simpvi_type lobatto -dt 0.8 -order 6 -error_tol 1e-10
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.2 -compare final.bin
      output_file: output/chain1d_linear_lobatto_2.out
  test:
    suffix: damped_simpson
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -c 0.1 -f0 0.5 -order 4 -error_tol 1e-6
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.1 -compare final.bin
      output_file: output/chain1d_damped_simpson_2.out
  test:
    suffix: damped_lobatto
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -c 0.1 -f0 0.5 -ts_simpvi_type lobatto -dt 0.8 -order 6 -error_tol 1e-8
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.2 -compare final.bin
      output_file: output/chain1d_damped_lobatto_2.out
  # TSSolve() called 3 times, to 4/3, 8/3 and 4 (steps cut to land there: -ts_exact_final_time matchstep)
  test:
    suffix: segments
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -segments 3 -c 0.1 -f0 0.5 -order 4 -error_tol 1e-6
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -refine 1 -dt 0.1 -compare final.bin
      output_file: output/chain1d_segments_2.out

  # FPUT (nonlinear): TSALPHA2 with a fine step gives the reference; simpvi against it, with differences between
  # successive steps of its order, and 2 processes against 1
  test:
    suffix: fput
    args: -beta 1 -amp 0.8
    test:
      args: -dt 0.002 -write alpha2.bin
      output_file: output/empty.out
    test:
      args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -refine 3 -order 4 -compare alpha2.bin -compare_tol 1e-6 -write final.bin
    test:
      nsize: 2
      args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -dt 0.1 -compare alpha2.bin,final.bin -compare_tol 1e-6,1e-10
      output_file: output/chain1d_fput_2.out
    test:
      args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -ts_simpvi_type lobatto -refine 3 -order 6 -compare alpha2.bin -compare_tol 1e-6
      output_file: output/chain1d_fput_lobatto.out

TEST*/
