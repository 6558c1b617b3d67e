static char help[] = "Diatomic Fermi-Pasta-Ulam-Tsingou (beta) chain M q'' + f(q) = 0, written for TSALPHA2 with TSSetI2Function()/TSSetI2Jacobian(),\n"
                     "run unchanged by TSSIMPVI through its second-order door. Prints the energy H = v'Mv/2 + V(q) at the start and end of a run,\n"
                     "its largest relative drift, and the observed convergence order against a much finer run of the same time stepper.\n"
                     "Options: -n <8> (moving masses) -beta <1> -amplitude <1> -final_time <12> -dt <0.2> -refine <16> (reference step dt/(4 refine))\n"
                     "         -energy_tol <1e-6> -order <p> (expected order: by default that of TSSIMPVI's scheme, 2 for TSALPHA2)\n\n";

/*
   The chain: n masses on a line between two walls, q_i the displacement of mass i, q_0 = q_{n+1} = 0 at the walls.
   Neighbours are joined by FPU-beta springs whose energy for the elongation d is  k d^2/2 + beta d^4/4, so

      V(q) = sum_{i=0..n} ( k d_i^2/2 + beta d_i^4/4 ),   d_i = q_{i+1} - q_i,
      f(q) = dV/dq:  f_i = s(d_{i-1}) - s(d_i),           s(d) = k d + beta d^3 (the spring force).

   The masses alternate between 1 and 2 (a diatomic chain), so M is constant but not the identity.

   This is exactly the program a PETSc user writes for the generalized-alpha method TSALPHA2:

      F(t, q, v, a) = M a + f(q) = 0                          (TSSetI2Function)
      dF/dq + shiftV dF/dv + shiftA dF/da = K(q) + shiftA M    (TSSetI2Jacobian; f does not depend on v)

   with the initial positions and velocities given by TS2SetSolution(). TSSIMPVI reads the same callbacks as the
   Lagrangian L = v'Mv/2 - V(q): it takes M from the Jacobian's shiftA part, the force from the I2 function and its
   Hessian K from the Jacobian with both shifts zero, and integrates with a symplectic Galerkin variational scheme.
   The physics below never calls a TSSIMPVI-specific function; only main() calls SimpVIInitializePackage() (to register
   the type without -dll_append), and the report asks TSSimpVIGetType()/TSSimpVIGetOrder() for the scheme's name and order.
*/
#include <petscts.h>
#include <simpvi.h>

typedef struct {
  PetscInt  n;       /* number of moving masses */
  PetscReal k, beta; /* linear and cubic spring constants */
  PetscReal A;       /* initial amplitude of the lowest linear mode */
  PetscReal T;       /* final time */
  Vec       m;       /* the diagonal of the mass matrix */
} Chain;

/* What a run reports: the energy at the start and the end, the largest relative drift, and the time stepper */
typedef struct {
  Chain    *chain;
  PetscReal H0, H, drift;
  char      type[64];
  PetscInt  order; /* the order the time stepper should show, 0 if unknown */
} Report;

static inline PetscReal Spring(const Chain *chain, PetscReal d)
{
  return chain->k * d + chain->beta * d * d * d;
}

static inline PetscReal SpringStiffness(const Chain *chain, PetscReal d)
{
  return chain->k + 3 * chain->beta * d * d;
}

/* Position of mass i, with the walls at i = -1 and i = n (C indexing: the moving masses are 0..n-1) */
static inline PetscReal Position(const Chain *chain, const PetscScalar *q, PetscInt i)
{
  return (i < 0 || i >= chain->n) ? 0 : PetscRealPart(q[i]);
}

/* The I2 function F(t, q, v, a) = M a + f(q): the same code serves TSALPHA2 and TSSIMPVI */
static PetscErrorCode Residual(TS ts, PetscReal t, Vec Q, Vec V, Vec A, Vec F, void *ctx)
{
  Chain             *chain = (Chain *)ctx;
  const PetscScalar *q, *a, *m;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(Q, &q));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayRead(chain->m, &m));
  PetscCall(VecGetArrayWrite(F, &f));
  for (PetscInt i = 0; i < chain->n; i++) {
    PetscReal dl = Position(chain, q, i) - Position(chain, q, i - 1), dr = Position(chain, q, i + 1) - Position(chain, q, i);

    f[i] = m[i] * a[i] + Spring(chain, dl) - Spring(chain, dr);
  }
  PetscCall(VecRestoreArrayRead(Q, &q));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayRead(chain->m, &m));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

/* The I2 Jacobian shiftA M + K(q), K = d2V/dq2 tridiagonal; no shiftV term since f does not depend on v */
static PetscErrorCode Jacobian(TS ts, PetscReal t, Vec Q, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  Chain             *chain = (Chain *)ctx;
  const PetscScalar *q, *m;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(Q, &q));
  PetscCall(VecGetArrayRead(chain->m, &m));
  for (PetscInt i = 0; i < chain->n; i++) {
    PetscReal   kl      = SpringStiffness(chain, Position(chain, q, i) - Position(chain, q, i - 1));
    PetscReal   kr      = SpringStiffness(chain, Position(chain, q, i + 1) - Position(chain, q, i));
    PetscInt    cols[3] = {i - 1, i, i + 1};
    PetscScalar vals[3] = {-kl, shiftA * m[i] + kl + kr, -kr};

    /* entries outside the chain (the walls) carry a negative column index, which MatSetValues() ignores */
    if (i == chain->n - 1) cols[2] = -1;
    PetscCall(MatSetValues(P, 1, &i, 3, cols, vals, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(Q, &q));
  PetscCall(VecRestoreArrayRead(chain->m, &m));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* The energy H = v'Mv/2 + V(q), computed by the program itself, whatever the time stepper keeps internally */
static PetscErrorCode Energy(const Chain *chain, Vec Q, Vec V, PetscReal *H)
{
  const PetscScalar *q, *v, *m;
  PetscReal          T = 0, U = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(Q, &q));
  PetscCall(VecGetArrayRead(V, &v));
  PetscCall(VecGetArrayRead(chain->m, &m));
  for (PetscInt i = 0; i < chain->n; i++) T += 0.5 * PetscRealPart(m[i] * v[i] * v[i]);
  for (PetscInt i = -1; i < chain->n; i++) {
    PetscReal d = Position(chain, q, i + 1) - Position(chain, q, i);

    U += 0.5 * chain->k * d * d + 0.25 * chain->beta * d * d * d * d;
  }
  PetscCall(VecRestoreArrayRead(Q, &q));
  PetscCall(VecRestoreArrayRead(V, &v));
  PetscCall(VecRestoreArrayRead(chain->m, &m));
  *H = T + U;
  PetscFunctionReturn(0);
}

/* After every step: the energy from TS2GetSolution(), which gives positions and velocities for both TSALPHA2 and TSSIMPVI */
static PetscErrorCode MonitorEnergy(TS ts, PetscInt step, PetscReal t, Vec X, void *ctx)
{
  Report *report = (Report *)ctx;
  Vec     Q, V;

  PetscFunctionBeginUser;
  PetscCall(TS2GetSolution(ts, &Q, &V));
  PetscCall(Energy(report->chain, Q, V, &report->H));
  if (step == 0) report->H0 = report->H;
  report->drift = PetscMax(report->drift, PetscAbsReal(report->H - report->H0) / report->H0);
  PetscFunctionReturn(0);
}

/* The lowest linear mode q_i = A sin(pi (i+1)/(n+1)), at rest */
static PetscErrorCode InitialState(const Chain *chain, Vec Q, Vec V)
{
  PetscScalar *q;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayWrite(Q, &q));
  for (PetscInt i = 0; i < chain->n; i++) q[i] = chain->A * PetscSinReal(PETSC_PI * (i + 1) / (chain->n + 1));
  PetscCall(VecRestoreArrayWrite(Q, &q));
  PetscCall(VecSet(V, 0));
  PetscFunctionReturn(0);
}

/* The order the time stepper should show; -order overrides it */
static PetscErrorCode ExpectedOrder(TS ts, PetscInt *order)
{
  PetscBool isvi, isalpha2;

  PetscFunctionBeginUser;
  *order = 0;
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &isvi));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSALPHA2, &isalpha2));
  if (isvi) PetscCall(TSSimpVIGetOrder(ts, order));
  if (isalpha2) *order = 2;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-order", order, NULL));
  PetscFunctionReturn(0);
}

/* One run from t = 0 to chain->T with nsteps steps; (Q, V) receive the final positions and velocities */
static PetscErrorCode Solve(Chain *chain, PetscInt nsteps, Vec Q, Vec V, Report *report)
{
  TS          ts;
  Vec         F, Q0, V0, Qt, Vt;
  Mat         J;
  const char *type;
  PetscBool   isvi;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  /* only a default: -ts_type alpha2 (or any other second-order TS) runs the same program */
  PetscCall(TSSetType(ts, TSSIMPVI));

  /* the second-order problem, as for TSALPHA2: a residual vector, a tridiagonal Jacobian, the I2 callbacks */
  PetscCall(VecDuplicate(Q, &F));
  PetscCall(TSSetI2Function(ts, F, Residual, chain));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, chain->n, chain->n, 3, NULL, &J));
  PetscCall(TSSetI2Jacobian(ts, J, J, Jacobian, chain));
  PetscCall(VecDestroy(&F));
  PetscCall(MatDestroy(&J));

  /* the state is the pair (positions, velocities), both owned by the TS from here on */
  PetscCall(VecDuplicate(Q, &Q0));
  PetscCall(VecDuplicate(V, &V0));
  PetscCall(InitialState(chain, Q0, V0));
  PetscCall(TS2SetSolution(ts, Q0, V0));
  PetscCall(VecDestroy(&Q0));
  PetscCall(VecDestroy(&V0));

  report->chain = chain;
  report->drift = 0;
  PetscCall(TSMonitorSet(ts, MonitorEnergy, report, NULL));
  PetscCall(TSSetFromOptions(ts));
  /* the convergence study fixes the steps itself, so they are set after the options */
  PetscCall(TSSetTimeStep(ts, chain->T / nsteps));
  PetscCall(TSSetMaxTime(ts, chain->T));
  PetscCall(TSSetMaxSteps(ts, nsteps));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));

  PetscCall(TSGetType(ts, &type));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &isvi));
  if (isvi) {
    TSSimpVIType scheme;

    PetscCall(TSSimpVIGetType(ts, &scheme));
    PetscCall(PetscSNPrintf(report->type, sizeof(report->type), "%s (%s)", type, scheme));
  } else PetscCall(PetscStrncpy(report->type, type, sizeof(report->type)));
  PetscCall(ExpectedOrder(ts, &report->order));

  PetscCall(TSSolve(ts, NULL));
  PetscCall(TS2GetSolution(ts, &Qt, &Vt));
  PetscCall(VecCopy(Qt, Q));
  PetscCall(VecCopy(Vt, V));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Chain        chain = {8, 1, 1, 1, 12, NULL};
  PetscReal    dt = 0.2, tol = 1e-6, eq[3], ev[3], oq = 0, ov = 0;
  PetscInt     refine = 16, nsteps;
  PetscMPIInt  size;
  Report       report, ignore;
  Vec          Qref, Vref, Q, V;
  PetscScalar *m;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_WRONG_MPI_SIZE, "Only for sequential runs");
  /* registers TSSIMPVI; a program that does not link simpvi gets it with -dll_append /path/to/libsimpvi.so instead */
  PetscCall(SimpVIInitializePackage());

  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "FPU chain options", NULL);
  PetscCall(PetscOptionsRangeInt("-n", "Number of moving masses", NULL, chain.n, &chain.n, NULL, 1, 1000));
  PetscCall(PetscOptionsReal("-beta", "Cubic spring constant", NULL, chain.beta, &chain.beta, NULL));
  PetscCall(PetscOptionsReal("-amplitude", "Initial amplitude of the lowest mode", NULL, chain.A, &chain.A, NULL));
  PetscCall(PetscOptionsReal("-final_time", "Final time", NULL, chain.T, &chain.T, NULL));
  PetscCall(PetscOptionsReal("-dt", "Coarsest time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsRangeInt("-refine", "The reference step is dt/(4 refine)", NULL, refine, &refine, NULL, 2, 1024));
  PetscCall(PetscOptionsReal("-energy_tol", "Tolerance on the relative energy drift", NULL, tol, &tol, NULL));
  PetscOptionsEnd();
  nsteps = (PetscInt)PetscCeilReal(chain.T / dt - 1e-8); /* dt is rounded down to divide the final time */

  PetscCall(VecCreateSeq(PETSC_COMM_SELF, chain.n, &chain.m));
  PetscCall(VecGetArrayWrite(chain.m, &m));
  for (PetscInt i = 0; i < chain.n; i++) m[i] = i % 2 ? 2 : 1;
  PetscCall(VecRestoreArrayWrite(chain.m, &m));
  PetscCall(VecDuplicate(chain.m, &Q));
  PetscCall(VecDuplicate(chain.m, &V));
  PetscCall(VecDuplicate(chain.m, &Qref));
  PetscCall(VecDuplicate(chain.m, &Vref));

  /* the reference: the same time stepper with a step 4*refine times smaller */
  PetscCall(Solve(&chain, 4 * refine * nsteps, Qref, Vref, &ignore));

  /* three runs with steps dt, dt/2, dt/4; the first one also reports the energy */
  for (PetscInt l = 0; l < 3; l++) {
    PetscCall(Solve(&chain, nsteps << l, Q, V, l ? &ignore : &report));
    PetscCall(VecAXPY(Q, -1, Qref));
    PetscCall(VecAXPY(V, -1, Vref));
    PetscCall(VecNorm(Q, NORM_2, &eq[l]));
    PetscCall(VecNorm(V, NORM_2, &ev[l]));
    if (!l) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "FPU-beta chain of %" PetscInt_FMT " masses, time stepper %s, %" PetscInt_FMT " steps to t = %g\n", chain.n, report.type, nsteps, (double)chain.T));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "energy H at the start %.10f, at the end %.10f, largest relative drift %.2e\n", (double)report.H0, (double)report.H, (double)report.drift));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "energy drift below %g: %s\n", (double)tol, report.drift < tol ? "yes" : "no"));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%8s %12s %12s\n", "steps", "error q", "error v"));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%8" PetscInt_FMT " %12.4e %12.4e\n", nsteps << l, (double)eq[l], (double)ev[l]));
  }

  /* observed orders from the two finer pairs */
  oq = PetscLog2Real(eq[1] / eq[2]);
  ov = PetscLog2Real(ev[1] / ev[2]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "observed orders: q %.2f, v %.2f\n", (double)oq, (double)ov));
  if (report.order) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "order %" PetscInt_FMT " observed: %s\n", report.order, PetscAbsReal(oq - report.order) < 0.3 && PetscAbsReal(ov - report.order) < 0.3 ? "yes" : "no"));

  PetscCall(VecDestroy(&Q));
  PetscCall(VecDestroy(&V));
  PetscCall(VecDestroy(&Qref));
  PetscCall(VecDestroy(&Vref));
  PetscCall(VecDestroy(&chain.m));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: simpson
    args: -ts_simpvi_type simpson

  # order 6 needs coarser steps, or the finest error meets round-off
  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto -dt 0.6

  # the step Jacobian assembled from the I2 Jacobian's shifts, against finite differences
  test:
    suffix: jacobian
    args: -ts_simpvi_type lobatto -dt 0.6 -snes_test_jacobian
    filter: grep "Jfd||_F/||J||_F = " | awk '/e-(0[6-9]|1[0-9])/ {good++} END {print "every Jacobian check below 1e-6:", (NR > 0 && good == NR) ? "yes" : "no"}'

  # the same program under PETSc's generalized-alpha method: order 2, energy error O(dt^2)
  test:
    suffix: alpha2
    args: -ts_type alpha2 -dt 0.1 -energy_tol 1e-4

  # every SNES type runs the tutorial (issue 21): newtonls, simpvidense and kinsol solve its steps to its default
  # output; ksponly takes one Newton step per step (the wrong answer for a nonlinear problem), so only its run counts
  test:
    suffix: snes_types
    args: -ts_simpvi_type simpson -snes_type {{newtonls simpvidense}shared output}
    output_file: output/ex3_simpson.out
  test:
    suffix: snes_kinsol
    requires: kinsol
    args: -ts_simpvi_type simpson -snes_type kinsol
    output_file: output/ex3_simpson.out
  test:
    suffix: snes_ksponly
    args: -ts_simpvi_type simpson -snes_type ksponly
    filter: awk 'END {print "ran to the end:", (NR > 0) ? "yes" : "no"}'

TEST*/
