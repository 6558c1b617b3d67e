static char help[] = "TSSimpVISetPointwiseLagrangian() on a problem that exercises every array it fills: a charged particle in a\n"
                     "magnetic field and a harmonic trap, L = 1/2 |v|^2 + b/2 (x0 v1 - x1 v0) - 1/2 |x|^2 (P_x is not symmetric,\n"
                     "G_v is its transpose), driven by a time-dependent force a cos(t) on x0 and damped by -c v. Checks: the dense\n"
                     "path on arrays against the SNES path (trajectory to 1e-12, Newton iterations to one), the damping given by\n"
                     "TSSimpVISetForce() instead of inside G (the Vec path: the same trajectory), RK4 on the phase-space form of the\n"
                     "same door (TSSimpVISetUpPhaseSpace(), -ts_type rk) to 1e-8, Simpson's order 4, the energy of the undriven,\n"
                     "undamped problem (TSSimpVIComputeEnergy(), from L): bounded, no drift from 1000 to 4000 steps; the gradient of\n"
                     "x0(T) in U0 by TSAdjointSolve() against central differences. -check both|ranks: the errors\n"
                     "of two sets of mechanics and of more than one process; -check view: one step (with -ts_view).\n\n";

#include <simpvi.h>

typedef struct {
  PetscReal b, a, c;  /* field, drive, damping */
  PetscBool dampingG; /* the damping inside G (else by TSSimpVISetForce()) */
} Particle;

static PetscErrorCode Pointwise(TS ts, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  const Particle *pa = (const Particle *)ctx;
  const PetscReal hb = 0.5 * pa->b, c = pa->dampingG ? pa->c : 0;

  PetscFunctionBeginUser;
  PetscCheck(n == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Two positions, not %" PetscInt_FMT, n);
  for (PetscInt k = 0; k < npts; k++) {
    const PetscReal *q = x + 2 * k, *w = v + 2 * k;

    if (L) L[k] = 0.5 * (w[0] * w[0] + w[1] * w[1]) + hb * (q[0] * w[1] - q[1] * w[0]) - 0.5 * (q[0] * q[0] + q[1] * q[1]);
    if (P) {
      P[2 * k]     = w[0] - hb * q[1];
      P[2 * k + 1] = w[1] + hb * q[0];
    }
    if (G) {
      G[2 * k]     = hb * w[1] - q[0] + pa->a * PetscCosReal(t[k]) - c * w[0];
      G[2 * k + 1] = -hb * w[0] - q[1] - c * w[1];
    }
    if (Px) { /* row-major n x n blocks: [i n + j] = d_i / d_j */
      PetscReal *px = Px + 4 * k, *pv = Pv + 4 * k, *gx = Gx + 4 * k, *gv = Gv + 4 * k;

      px[0] = 0, px[1] = -hb, px[2] = hb, px[3] = 0;
      pv[0] = 1, pv[1] = 0, pv[2] = 0, pv[3] = 1;
      gx[0] = -1, gx[1] = 0, gx[2] = 0, gx[3] = -1;
      gv[0] = -c, gv[1] = hb, gv[2] = -hb, gv[3] = -c;
    }
  }
  PetscFunctionReturn(0);
}

/* the damping -c v for TSSimpVISetForce() */
static PetscErrorCode Damping(TS ts, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(VecAXPBY(f, -((Particle *)ctx)->c, 0, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode DampingJacobian(TS ts, PetscReal t, Vec x, Vec v, Mat Fx, Mat Fv, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(MatZeroEntries(Fv));
  PetscCall(MatShift(Fv, -((Particle *)ctx)->c));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscReal u[4];
  PetscInt  its;       /* Newton iterations */
  PetscBool densetype; /* the step's SNES was SNESSIMPVIDENSE (the dense path; no fall-back on another SNES since issue 21) */
  PetscReal eH;        /* the largest relative change of the energy */
} Result;

static PetscErrorCode Run(MPI_Comm comm, const char type[], const char scheme[], Particle pa, PetscBool force, PetscInt limit, PetscReal h, PetscInt steps, Result *res)
{
  TS           ts;
  Vec          U;
  Mat          Fv = NULL;
  PetscScalar *u;
  PetscInt     n;
  PetscReal    H0, H;
  SNES         snes;
  char         value[32];

  PetscFunctionBeginUser;
  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetType(ts, type));
  PetscCall(TSSimpVISetPointwiseLagrangian(ts, Pointwise, &pa));
  if (force) {
    PetscCall(MatCreateDense(comm, PETSC_DECIDE, PETSC_DECIDE, 2, 2, NULL, &Fv));
    PetscCall(MatAssemblyBegin(Fv, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(Fv, MAT_FINAL_ASSEMBLY));
    PetscCall(TSSimpVISetForce(ts, NULL, Fv, Damping, DampingJacobian, &pa));
  }
  PetscCall(VecCreateMPI(comm, PETSC_DECIDE, 4, &U));
  PetscCall(VecGetLocalSize(U, &n));
  PetscCall(VecGetArrayWrite(U, &u));
  if (n == 4) { /* q = (1, 0), v = (0, 0.5): p = v + b/2 (-q1, q0) */
    u[0] = 1;
    u[1] = 0;
    u[2] = 0;
    u[3] = 0.5 + 0.5 * pa.b;
  }
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  if (strcmp(type, TSSIMPVI)) {
    PetscCall(TSRKSetType(ts, TSRK4));
    PetscCall(TSSimpVISetUpPhaseSpace(ts));
  } else PetscCall(TSSimpVISetType(ts, scheme));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(PetscSNPrintf(value, sizeof(value), "%" PetscInt_FMT, limit));
  PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_small_limit", value));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_small_limit"));
  PetscCall(TSSimpVIComputeEnergy(ts, 0, U, &H0));
  res->eH = 0;
  for (PetscInt j = 0; j < steps; j++) { /* step by step, the energy after each */
    PetscCall(TSSetMaxSteps(ts, j + 1));
    PetscCall(TSSolve(ts, U));
    PetscCall(TSSimpVIComputeEnergy(ts, 0, U, &H));
    res->eH = PetscMax(res->eH, PetscAbsReal(H - H0) / PetscAbsReal(H0));
  }
  PetscCall(TSGetSNESIterations(ts, &res->its));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(PetscObjectTypeCompare((PetscObject)snes, SNESSIMPVIDENSE, &res->densetype));
  PetscCall(VecGetArray(U, &u));
  for (PetscInt i = 0; i < n; i++) res->u[i] = PetscRealPart(u[i]);
  PetscCall(VecRestoreArray(U, &u));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&Fv));
  PetscFunctionReturn(0);
}

/* C = x0(T) after steps of h from U0 (lobatto); with lambda: dC/dU0 by TSAdjointSolve() */
static PetscErrorCode Cost(Particle pa, const PetscReal U0[4], PetscReal h, PetscInt steps, PetscReal *C, Vec lambda)
{
  TS           ts;
  Vec          U;
  PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, "lobatto"));
  PetscCall(TSSimpVISetPointwiseLagrangian(ts, Pointwise, &pa));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  for (PetscInt i = 0; i < 4; i++) u[i] = U0[i];
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (lambda) PetscCall(TSSetSaveTrajectory(ts));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(VecGetArray(U, &u));
  *C = PetscRealPart(u[0]);
  PetscCall(VecRestoreArray(U, &u));
  if (lambda) {
    PetscCall(VecSet(lambda, 0));
    PetscCall(VecSetValue(lambda, 0, 1, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(lambda));
    PetscCall(VecAssemblyEnd(lambda));
    PetscCall(TSSetCostGradients(ts, 1, &lambda, NULL));
    PetscCall(TSAdjointSolve(ts));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

static PetscReal Difference(const Result *a, const Result *b)
{
  PetscReal d = 0, scale = 0;

  for (PetscInt i = 0; i < 4; i++) {
    d     = PetscMax(d, PetscAbsReal(a->u[i] - b->u[i]));
    scale = PetscMax(scale, PetscAbsReal(b->u[i]));
  }
  return d / scale;
}

static PetscErrorCode Errors(const char check[])
{
  Particle pa = {1, 0, 0, PETSC_FALSE};
  TS       ts;
  Vec      U;
  Mat      M;

  PetscFunctionBeginUser;
  if (!strcmp(check, "ranks") || !strcmp(check, "view")) { /* ranks: one process only, a clear error on every rank */
    Result r;

    PetscCall(Run(!strcmp(check, "ranks") ? PETSC_COMM_WORLD : PETSC_COMM_SELF, TSSIMPVI, "simpson", pa, PETSC_FALSE, 32, 0.1, 1, &r));
  } else { /* two sets of mechanics */
    PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
    PetscCall(TSSetType(ts, TSSIMPVI));
    PetscCall(TSSimpVISetPointwiseLagrangian(ts, Pointwise, &pa));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &M));
    PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
    PetscCall(TSSetSolution(ts, U));
    PetscCall(TSSetUp(ts));
    PetscCall(TSDestroy(&ts));
    PetscCall(VecDestroy(&U));
    PetscCall(MatDestroy(&M));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const char *schemes[] = {"midpoint", "simpson", "lobatto", "gauss"};
  Particle    pa        = {1, 0.3, 0.1, PETSC_TRUE};
  char        check[16] = "";

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-check", check, sizeof(check), NULL));
  if (check[0]) {
    PetscCall(Errors(check));
    PetscCall(PetscFinalize());
    return 0;
  }
  for (PetscInt s = 0; s < 4; s++) {
    Result   dense, snes, vec;
    Particle byforce = pa;

    byforce.dampingG = PETSC_FALSE;
    PetscCall(Run(PETSC_COMM_SELF, TSSIMPVI, schemes[s], pa, PETSC_FALSE, 32, 0.1, 50, &dense));
    PetscCall(Run(PETSC_COMM_SELF, TSSIMPVI, schemes[s], pa, PETSC_FALSE, 0, 0.1, 50, &snes));
    PetscCall(Run(PETSC_COMM_SELF, TSSIMPVI, schemes[s], byforce, PETSC_TRUE, 32, 0.1, 50, &vec));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s: dense path alone: %s, same as the SNES path to 1e-12: %s, Newton iterations to one: %s; the damping by TSSimpVISetForce(): same trajectory to 1e-12: %s\n", schemes[s], dense.densetype ? "yes" : "no", Difference(&dense, &snes) < 1e-12 ? "yes" : "no",
                          PetscAbsInt(dense.its - snes.its) <= 1 ? "yes" : "no", Difference(&vec, &snes) < 1e-12 ? "yes" : "no"));
  }
  {
    Result    lob, rk4, r[3];
    PetscReal e[2];

    PetscCall(Run(PETSC_COMM_SELF, TSSIMPVI, "lobatto", pa, PETSC_FALSE, 32, 0.05, 40, &lob));
    PetscCall(Run(PETSC_COMM_SELF, TSRK, NULL, pa, PETSC_FALSE, 32, 0.001, 2000, &rk4));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "RK4 on the phase-space form of the pointwise door agrees with Lobatto to 1e-8: %s\n", Difference(&lob, &rk4) < 1e-8 ? "yes" : "no"));
    PetscCall(Run(PETSC_COMM_SELF, TSSIMPVI, "lobatto", pa, PETSC_FALSE, 32, 0.0125, 160, &lob));
    PetscCall(Run(PETSC_COMM_SELF, TSSIMPVI, "simpson", pa, PETSC_FALSE, 32, 0.1, 20, &r[0]));
    PetscCall(Run(PETSC_COMM_SELF, TSSIMPVI, "simpson", pa, PETSC_FALSE, 32, 0.05, 40, &r[1]));
    PetscCall(Run(PETSC_COMM_SELF, TSSIMPVI, "simpson", pa, PETSC_FALSE, 32, 0.025, 80, &r[2]));
    e[0] = PetscLog2Real(Difference(&r[0], &lob) / Difference(&r[1], &lob));
    e[1] = PetscLog2Real(Difference(&r[1], &lob) / Difference(&r[2], &lob));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Simpson, driven and damped, orders %.1f and %.1f: 4 within 0.3: %s\n", (double)e[0], (double)e[1], PetscAbsReal(e[0] - 4) < 0.3 && PetscAbsReal(e[1] - 4) < 0.3 ? "yes" : "no"));
  }
  { /* the adjoint through the door's matrices, against central differences */
    const PetscReal    U0[4] = {1, 0, 0, 1}, e = 1e-6;
    Vec                lambda;
    const PetscScalar *l;
    PetscReal          C, Cp, Cm, err = 0, scale = 0;

    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &lambda));
    PetscCall(Cost(pa, U0, 0.1, 30, &C, lambda));
    PetscCall(VecGetArrayRead(lambda, &l));
    for (PetscInt i = 0; i < 4; i++) {
      PetscReal Up[4], Um[4];

      for (PetscInt j = 0; j < 4; j++) Up[j] = Um[j] = U0[j];
      Up[i] += e;
      Um[i] -= e;
      PetscCall(Cost(pa, Up, 0.1, 30, &Cp, NULL));
      PetscCall(Cost(pa, Um, 0.1, 30, &Cm, NULL));
      err   = PetscMax(err, PetscAbsReal(PetscRealPart(l[i]) - (Cp - Cm) / (2 * e)));
      scale = PetscMax(scale, PetscAbsReal(PetscRealPart(l[i])));
    }
    PetscCall(VecRestoreArrayRead(lambda, &l));
    PetscCall(VecDestroy(&lambda));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TSAdjointSolve(): dx0(T)/dU0 against central differences to 1e-7: %s\n", err < 1e-7 * scale ? "yes" : "no"));
  }
  {
    Particle free = {1, 0, 0, PETSC_TRUE};
    Result   r[2];

    PetscCall(Run(PETSC_COMM_SELF, TSSIMPVI, "simpson", free, PETSC_FALSE, 32, 0.1, 1000, &r[0]));
    PetscCall(Run(PETSC_COMM_SELF, TSSIMPVI, "simpson", free, PETSC_FALSE, 32, 0.1, 4000, &r[1]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "undriven, undamped: energy from L within 1e-6 over 1000 steps: %s, no larger over 4000 (to 10%%): %s\n", r[0].eH < 1e-6 ? "yes" : "no", r[1].eH < 1.1 * r[0].eH ? "yes" : "no"));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    args: -malloc_dump

  test:
    suffix: view
    args: -check view -ts_view
    filter: grep -E "door|dense|arrays"

  test:
    suffix: both
    args: -check both
    filter: Error: grep -o "TSSimpVISetPointwiseLagrangian() and .*"

  test:
    suffix: ranks
    nsize: 2
    args: -check ranks -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep -o "TSSimpVISetPointwiseLagrangian() is for a small system on one process.*" | sort -u

TEST*/
