static char help[] = "Final times and continued solves of TSSIMPVI, beside TSRK on the same mechanics (TSSimpVISetUpPhaseSpace()):\n"
                     "oscillators q_i'' = -w_i^2 q_i through the mechanical door, any number of processes, a final time that is\n"
                     "not a multiple of the step. Each run's end time, step count and reason against TSRK's (PETSc's own logic of\n"
                     "-ts_exact_final_time and TSSetMaxSteps()), and its state against the exact solution.\n"
                     "-case matchstep|interpolate|stepover|maxsteps|continue|newdt|restart|poststep (a post-step reverses p once, at t = 0.25)\n"
                     "-dt <0.025> -T <1.23> -error_tol <1e-6>\n\n";

#include <simpvi.h>

typedef struct {
  PetscInt  n, rstart; /* this process's oscillators */
  PetscReal m, *w;
  PetscReal tkick; /* -case poststep: the post-step reverses p after the step that ends at tkick */
  PetscBool kicked;
} Ctx;

static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  for (PetscInt i = 0; i < c->n; i++) gg[i] = c->m * c->w[i] * c->w[i] * xx[i];
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(VecDot(x, g, V)); /* V of all the oscillators */
  *V *= 0.5;
  PetscFunctionReturn(0);
}

static PetscErrorCode Hessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Ctx *c = (Ctx *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < c->n; i++) PetscCall(MatSetValue(H, c->rstart + i, c->rstart + i, c->m * c->w[i] * c->w[i], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* U = (q, p), on each process its q then its p; q(0) = 1 + i/10, p(0) = 0. After the post-step reversed p at tkick, the
   motion is the exact one run backwards: q(t) = q_ex(2 tkick - t), p(t) = -p_ex(2 tkick - t) */
static PetscErrorCode Exact(Ctx *c, PetscReal t, Vec U)
{
  PetscScalar    *u;
  const PetscReal s = c->kicked ? -1 : 1;

  PetscFunctionBeginUser;
  if (c->kicked) t = 2 * c->tkick - t;
  PetscCall(VecGetArrayWrite(U, &u));
  for (PetscInt i = 0; i < c->n; i++) {
    const PetscReal q0 = 1 + 0.1 * (c->rstart + i), w = c->w[i];

    u[i]        = q0 * PetscCosReal(w * t);
    u[c->n + i] = -s * c->m * w * q0 * PetscSinReal(w * t);
  }
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscFunctionReturn(0);
}

/* -case poststep: the user's post-step reverses the momenta (TSRHSSplitGetIS() "momentum") once, after the step that
   ends nearest tkick */
static PetscErrorCode PostStep(TS ts)
{
  Ctx      *c;
  PetscReal t, h;
  Vec       U, P;
  IS        isp;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &c));
  PetscCall(TSGetTime(ts, &t));
  PetscCall(TSGetTimeStep(ts, &h));
  if (c->tkick < 0 || c->kicked || PetscAbsReal(t - c->tkick) > h / 2) PetscFunctionReturn(0);
  c->tkick  = t;
  c->kicked = PETSC_TRUE;
  PetscCall(PetscInfo(ts, "post-step: p reversed at t = %g\n", (double)t));
  PetscCall(TSGetSolution(ts, &U));
  PetscCall(TSRHSSplitGetIS(ts, "momentum", &isp));
  PetscCall(VecGetSubVector(U, isp, &P));
  PetscCall(VecScale(P, -1));
  PetscCall(VecRestoreSubVector(U, isp, &P));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscReal         t, solvetime, err;
  PetscInt          steps;
  TSConvergedReason reason;
} Outcome;

static PetscErrorCode Measure(TS ts, Ctx *c, Vec U, Outcome *o)
{
  Vec E;

  PetscFunctionBeginUser;
  PetscCall(TSGetTime(ts, &o->t));
  PetscCall(TSGetSolveTime(ts, &o->solvetime));
  PetscCall(TSGetStepNumber(ts, &o->steps));
  PetscCall(TSGetConvergedReason(ts, &o->reason));
  PetscCall(VecDuplicate(U, &E));
  PetscCall(Exact(c, o->solvetime, E));
  PetscCall(VecAXPY(E, -1, U));
  PetscCall(VecNorm(E, NORM_INFINITY, &o->err));
  PetscCall(VecDestroy(&E));
  PetscFunctionReturn(0);
}

/* The case under the TS type (TSSIMPVI or TSRK 4); out[0] after the first TSSolve(), out[1] after the second */
static PetscErrorCode Run(Ctx *c, PetscInt N, TSType type, const char *kase, PetscReal dt, PetscReal T, Outcome out[2], PetscInt *nsolves)
{
  TS        ts;
  Vec       U, U1;
  Mat       M, H;
  IS        isq, isp;
  PetscInt  ustart;
  PetscBool is;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, c->n, c->n, N, N, 1, NULL, 0, NULL, &M));
  for (PetscInt i = 0; i < c->n; i++) PetscCall(MatSetValue(M, c->rstart + i, c->rstart + i, c->m, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDuplicate(M, MAT_DO_NOT_COPY_VALUES, &H));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 2 * c->n, 2 * N, &U));
  PetscCall(VecGetOwnershipRange(U, &ustart, NULL));
  PetscCall(ISCreateStride(PETSC_COMM_WORLD, c->n, ustart, 1, &isq));
  PetscCall(ISCreateStride(PETSC_COMM_WORLD, c->n, ustart + c->n, 1, &isp));
  c->kicked = PETSC_FALSE;
  PetscCall(Exact(c, 0, U));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, H, Potential, Hessian, c));
  PetscCall(TSRHSSplitSetIS(ts, "position", isq));
  PetscCall(TSRHSSplitSetIS(ts, "momentum", isp));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetMaxSteps(ts, 10000)); /* a run that crawls by ulps stops here, with TS_CONVERGED_ITS */
  PetscCall(PetscStrcmp(kase, "interpolate", &is));
  PetscCall(TSSetExactFinalTime(ts, is ? TS_EXACTFINALTIME_INTERPOLATE : TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(PetscStrcmp(kase, "stepover", &is));
  if (is) PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_STEPOVER));
  PetscCall(PetscStrcmp(kase, "maxsteps", &is));
  if (is) PetscCall(TSSetMaxSteps(ts, 7));
  PetscCall(PetscStrcmp(kase, "poststep", &is));
  c->tkick = is ? 0.25 : -1;
  PetscCall(TSSetApplicationContext(ts, c));
  PetscCall(TSSetPostStep(ts, PostStep));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSetType(ts, type));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSRK, &is));
  if (is) {
    TSAdapt adapt;

    PetscCall(TSRKSetType(ts, TSRK4));
    PetscCall(TSGetAdapt(ts, &adapt));
    PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
  }
  PetscCall(TSSimpVISetUpPhaseSpace(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(Measure(ts, c, U, &out[0]));
  *nsolves = 1;

  PetscCall(PetscStrcmp(kase, "continue", &is));
  if (is) { /* on to twice the final time */
    PetscCall(TSSetMaxTime(ts, 2 * T));
    PetscCall(TSSolve(ts, U));
    PetscCall(Measure(ts, c, U, &out[1]));
    *nsolves = 2;
  }
  PetscCall(PetscStrcmp(kase, "newdt", &is));
  if (is) { /* on to twice the final time, with half the step */
    PetscCall(TSSetTimeStep(ts, dt / 2));
    PetscCall(TSSetMaxTime(ts, 2 * T));
    PetscCall(TSSolve(ts, U));
    PetscCall(Measure(ts, c, U, &out[1]));
    *nsolves = 2;
  }
  PetscCall(PetscStrcmp(kase, "restart", &is));
  if (is) { /* again from t = 0: the same run, bit for bit */
    PetscReal d;

    PetscCall(VecDuplicate(U, &U1));
    PetscCall(VecCopy(U, U1));
    PetscCall(Exact(c, 0, U));
    PetscCall(TSSetTime(ts, 0));
    PetscCall(TSSetStepNumber(ts, 0));
    PetscCall(TSSetTimeStep(ts, dt));
    PetscCall(TSSolve(ts, U));
    PetscCall(Measure(ts, c, U, &out[1]));
    PetscCall(VecAXPY(U1, -1, U));
    PetscCall(VecNorm(U1, NORM_INFINITY, &d));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: the second solve from t = 0 repeats the first bit for bit: %s\n", type, d == 0 ? "yes" : "no"));
    PetscCall(VecDestroy(&U1));
    *nsolves = 2;
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscCall(ISDestroy(&isq));
  PetscCall(ISDestroy(&isp));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx       c  = {0, 0, 1.5, NULL, -1, PETSC_FALSE};
  PetscInt  N  = 4, nvi, nrk;
  PetscReal dt = 0.025, T = 1.23, tol = 1e-6;
  char      kase[32] = "matchstep";
  Outcome   vi[2], rk[2];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Final times", NULL);
  PetscCall(PetscOptionsInt("-N", "Oscillators", NULL, N, &N, NULL));
  PetscCall(PetscOptionsReal("-dt", "Step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-error_tol", "Bound on the error against the exact solution", NULL, tol, &tol, NULL));
  PetscCall(PetscOptionsString("-case", "matchstep, interpolate, stepover, maxsteps, continue, newdt, restart or poststep", NULL, kase, kase, sizeof(kase), NULL));
  PetscOptionsEnd();
  c.n = PETSC_DECIDE;
  PetscCall(PetscSplitOwnership(PETSC_COMM_WORLD, &c.n, &N));
  PetscCallMPI(MPI_Scan(&c.n, &c.rstart, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  c.rstart -= c.n;
  PetscCall(PetscMalloc1(c.n, &c.w));
  for (PetscInt i = 0; i < c.n; i++) c.w[i] = 1 + 0.5 * (c.rstart + i);

  PetscCall(Run(&c, N, TSSIMPVI, kase, dt, T, vi, &nvi));
  PetscCall(Run(&c, N, TSRK, kase, dt, T, rk, &nrk));
  for (PetscInt s = 0; s < nvi; s++) {
    PetscCall(PetscInfo(NULL, "solve %" PetscInt_FMT ": simpvi t %.17g solvetime %.17g steps %" PetscInt_FMT " %s error %g; rk t %.17g solvetime %.17g steps %" PetscInt_FMT " %s error %g\n", s, (double)vi[s].t, (double)vi[s].solvetime, vi[s].steps,
                        TSConvergedReasons[vi[s].reason], (double)vi[s].err, (double)rk[s].t, (double)rk[s].solvetime, rk[s].steps, TSConvergedReasons[rk[s].reason], (double)rk[s].err));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solve %" PetscInt_FMT ": TSSIMPVI ends as TSRK does (time, solve time to 1e-14, steps, reason): %s\n", s + 1,
                          PetscAbsReal(vi[s].t - rk[s].t) <= 1e-14 && PetscAbsReal(vi[s].solvetime - rk[s].solvetime) <= 1e-14 && vi[s].steps == rk[s].steps && vi[s].reason == rk[s].reason ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "solve %" PetscInt_FMT ": error at the solve time below %g: %s\n", s + 1, (double)tol, vi[s].err <= tol ? "yes" : "no"));
  }
  if (!strcmp(kase, "matchstep") || !strcmp(kase, "interpolate") || !strcmp(kase, "continue") || !strcmp(kase, "newdt"))
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "The solve time is the final time exactly: %s\n", vi[nvi - 1].solvetime == (nvi > 1 ? 2 * T : T) ? "yes" : "no"));
  PetscCall(PetscFree(c.w));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex !single

  # T = 1.23 is not a multiple of h = 0.025: PETSc's matchstep halves the last two steps (0.015 each), whose
  # compensated sum fell an ulp short of T (an extra step of 2e-16), and a continued solve crawled by such steps
  test:
    suffix: matchstep
    nsize: {{1 2}}
    args: -case matchstep
  test:
    suffix: continue
    nsize: {{1 2}}
    args: -case {{continue newdt}separate output}
  test:
    suffix: continue_lobatto
    args: -case continue -ts_simpvi_type lobatto -error_tol 1e-11
    output_file: output/finaltime_continue_case-continue.out
  test:
    suffix: interpolate
    nsize: {{1 2}}
    args: -case interpolate
  test:
    suffix: others
    args: -case {{stepover maxsteps restart}separate output}
  # a post-step that changes the state: the next step starts from it (compensations and all), on 1 and 2 ranks
  test:
    suffix: poststep
    nsize: {{1 2}}
    args: -case poststep -ts_simpvi_type {{simpson lobatto}} -error_tol 2e-7
    output_file: output/finaltime_poststep.out
  # other final times and steps
  test:
    suffix: sweep_matchstep
    args: -case matchstep -dt {{0.01 0.007 0.0011}} -T {{0.77 3.1}} -error_tol 1e-5
    output_file: output/finaltime_matchstep.out
  test:
    suffix: sweep_continue
    args: -case continue -dt {{0.01 0.007 0.0011}} -T {{0.77 3.1}} -error_tol 1e-5
    output_file: output/finaltime_continue_case-continue.out

TEST*/
