/*
   -compare_kinsol for the examples: SNES against SUNDIALS KINSOL on the example's own TSSIMPVI runs.

   KINSOLCompareSolve() takes the place of TSSolve(ts, U). Without -compare_kinsol it is TSSolve(). With it, the run is
   made as configured (the reference: SNES unless the options say otherwise, with the example's monitors), then made
   again on the same TS from the same initial state with -ts_simpvi_nonlinear_solver kinsol for each strategy of
   -compare_kinsol_strategies, with the example's monitors cancelled. Each rerun is compared step by step with the
   reference: the largest difference of each component of U over the run, relative to the largest value of that
   component over the run (a stricter test than relative to max |U|, which lets small momenta of a fast-spinning top
   differ a lot), and must make the same steps at the same times. One line per run prints the nonlinear/linear
   iteration counts side by side; KINSOLCompareFinalize() prints a verdict per strategy at -compare_kinsol_tol, with
   the largest differences per component and relative to max |U| (the measure of tests/ex10_kinsol.c).
   The strategy "snes" reruns with SNES: a control of the restart, which must give a difference of exactly 0.
   Afterwards U and the TS's time, step and solver are those of the reference run, but the example's monitors are
   gone: the TS is not meant to be solved again.

   Runs that are not TSSIMPVI are solved once and not compared. The differences are reduced over PETSC_COMM_WORLD, so
   every process must call KINSOLCompareSolve() for the same runs (true of examples that run the same TS on every
   process, on PETSC_COMM_SELF or PETSC_COMM_WORLD).

   Options: -compare_kinsol -compare_kinsol_strategies newton,fp -compare_kinsol_maa <3> -compare_kinsol_tol <1e-12>
   (-ts_simpvi_kinsol_* options, e.g. the tolerances or the KSP, apply to the reruns as usual)
*/
#ifndef KINSOLCOMPARE_H
#define KINSOLCOMPARE_H
#include <simpvi.h>

#define KINSOLCOMPARE_MAX 8

typedef struct {
  /* options */
  PetscBool active;
  char     *strategies[KINSOLCOMPARE_MAX];
  PetscInt  nstrategies, maa;
  PetscReal tol;

  /* over all runs */
  PetscInt  nruns;
  PetscReal worst[KINSOLCOMPARE_MAX], worstmax[KINSOLCOMPARE_MAX]; /* per component, and relative to max |U| */
  PetscBool agree[KINSOLCOMPARE_MAX];

  /* the run being compared: the reference trajectory, then the rerun's differences from it */
  PetscBool  store;
  Vec       *U, scale, dmax, work;
  PetscReal *t;
  PetscInt   nU, mU, nsteps;
  PetscBool  mismatch;
} KINSOLCompare;

static inline PetscErrorCode KINSOLCompareSetFromOptions(KINSOLCompare *cmp)
{
  PetscBool flg;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(cmp, sizeof(*cmp)));
  cmp->nstrategies = KINSOLCOMPARE_MAX;
  cmp->maa         = 3;
  cmp->tol         = 1e-12;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "SNES against KINSOL on the example's runs", NULL);
  PetscCall(PetscOptionsBool("-compare_kinsol", "Repeat each TSSIMPVI run with KINSOL, compare the trajectories and print the iteration counts", NULL, cmp->active, &cmp->active, NULL));
  PetscCall(PetscOptionsStringArray("-compare_kinsol_strategies", "KINSOL strategies: newton, linesearch, picard, fp (snes: a control rerun with SNES)", NULL, cmp->strategies, &cmp->nstrategies, &flg));
  if (!flg) {
    cmp->nstrategies = 2;
    PetscCall(PetscStrallocpy("newton", &cmp->strategies[0]));
    PetscCall(PetscStrallocpy("fp", &cmp->strategies[1]));
  }
  PetscCall(PetscOptionsInt("-compare_kinsol_maa", "Anderson depth of the picard and fp reruns", NULL, cmp->maa, &cmp->maa, NULL));
  PetscCall(PetscOptionsReal("-compare_kinsol_tol", "Largest relative difference of the trajectories accepted", NULL, cmp->tol, &cmp->tol, NULL));
  PetscOptionsEnd();
#if !defined(SIMPVI_HAVE_KINSOL)
  PetscCheck(!cmp->active, PETSC_COMM_WORLD, PETSC_ERR_SUP, "-compare_kinsol: simpvi was built without SUNDIALS KINSOL");
#endif
  for (PetscInt s = 0; s < cmp->nstrategies; s++) cmp->agree[s] = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* The reference run stores U(t_j) and max_j |U(t_j)| componentwise; a rerun accumulates max_j |U(t_j) - U_ref(t_j)| */
static inline PetscErrorCode KINSOLCompareMonitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  KINSOLCompare *cmp = (KINSOLCompare *)ctx;

  PetscFunctionBeginUser;
  if (step < 0) PetscFunctionReturn(0); /* the interpolated final state of TS_EXACTFINALTIME_INTERPOLATE */
  if (cmp->store) {
    if (step >= cmp->mU) {
      const PetscInt m = PetscMax(2 * cmp->mU, step + 64);
      Vec           *V;
      PetscReal     *tt;

      PetscCall(PetscMalloc2(m, &V, m, &tt));
      PetscCall(PetscArraycpy(V, cmp->U, cmp->mU));
      PetscCall(PetscArraycpy(tt, cmp->t, cmp->mU));
      for (PetscInt j = cmp->mU; j < m; j++) PetscCall(VecDuplicate(U, &V[j]));
      PetscCall(PetscFree2(cmp->U, cmp->t));
      cmp->U  = V;
      cmp->t  = tt;
      cmp->mU = m;
    }
    PetscCall(VecCopy(U, cmp->U[step]));
    cmp->t[step] = t;
    cmp->nU      = PetscMax(cmp->nU, step + 1);
    PetscCall(VecPointwiseMaxAbs(cmp->scale, cmp->scale, U));
  } else if (step >= cmp->nU || PetscAbsReal(t - cmp->t[step]) > 1e-12 * PetscMax(1, PetscAbsReal(t))) cmp->mismatch = PETSC_TRUE;
  else {
    PetscCall(VecWAXPY(cmp->work, -1, cmp->U[step], U));
    PetscCall(VecPointwiseMaxAbs(cmp->dmax, cmp->dmax, cmp->work));
    cmp->nsteps = PetscMax(cmp->nsteps, step + 1);
  }
  PetscFunctionReturn(0);
}

/* Over all processes of PETSC_COMM_WORLD: rel[0] = max_i dmax_i / scale_i (a component that stays 0 in the reference
   is measured against max |U|), rel[1] = max_i dmax_i / max |U| (the measure of tests/ex10_kinsol.c) */
static inline PetscErrorCode KINSOLCompareRelativeDifference(KINSOLCompare *cmp, PetscReal rel[2])
{
  const PetscScalar *d, *s;
  PetscReal          smax, dnrm, r[2] = {0, 0};
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecNorm(cmp->scale, NORM_INFINITY, &smax));
  PetscCall(VecNorm(cmp->dmax, NORM_INFINITY, &dnrm));
  if (dnrm > 0) r[1] = smax > 0 ? dnrm / smax : PETSC_INFINITY;
  PetscCall(VecGetLocalSize(cmp->scale, &n));
  PetscCall(VecGetArrayRead(cmp->dmax, &d));
  PetscCall(VecGetArrayRead(cmp->scale, &s));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal si = PetscRealPart(s[i]) > 0 ? PetscRealPart(s[i]) : smax;

    if (PetscRealPart(d[i]) > 0) r[0] = PetscMax(r[0], si > 0 ? PetscRealPart(d[i]) / si : PETSC_INFINITY);
  }
  PetscCall(VecRestoreArrayRead(cmp->dmax, &d));
  PetscCall(VecRestoreArrayRead(cmp->scale, &s));
  PetscCall(MPIU_Allreduce(r, rel, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

/* Sets (value) or clears (NULL) an option of the TS's prefix */
static inline PetscErrorCode KINSOLCompareSetOption(TS ts, const char name[], const char value[])
{
  const char *prefix;
  char        opt[256];

  PetscFunctionBeginUser;
  PetscCall(TSGetOptionsPrefix(ts, &prefix));
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s%s", prefix ? prefix : "", name));
  if (value) PetscCall(PetscOptionsSetValue(NULL, opt, value));
  else PetscCall(PetscOptionsClearValue(NULL, opt));
  PetscFunctionReturn(0);
}

/* The rerun's solver through the options database; the options the example was given are saved in old[] first */
static const char *const KINSOLCompareOptions[] = {"ts_simpvi_nonlinear_solver", "ts_simpvi_kinsol_strategy", "ts_simpvi_kinsol_maa"};

static inline PetscErrorCode KINSOLCompareUseSolver(KINSOLCompare *cmp, TS ts, const char strategy[])
{
  PetscBool issnes, isfp, ispicard;
  char      maa[32];

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(strategy, "snes", &issnes));
  PetscCall(PetscStrcmp(strategy, "fp", &isfp));
  PetscCall(PetscStrcmp(strategy, "picard", &ispicard));
  PetscCall(PetscSNPrintf(maa, sizeof(maa), "%" PetscInt_FMT, cmp->maa));
  PetscCall(KINSOLCompareSetOption(ts, KINSOLCompareOptions[0], issnes ? "snes" : "kinsol"));
  PetscCall(KINSOLCompareSetOption(ts, KINSOLCompareOptions[1], issnes ? NULL : strategy));
  PetscCall(KINSOLCompareSetOption(ts, KINSOLCompareOptions[2], isfp || ispicard ? maa : NULL));
  PetscFunctionReturn(0);
}

static inline PetscErrorCode KINSOLCompareSolve(KINSOLCompare *cmp, TS ts, Vec U, const char label[])
{
  PetscBool   issimpvi, has[3];
  char        old[3][64], row[1024], col[64];
  const char *prefix;
  PetscReal   t0, h0, tend;
  PetscInt    step0, stepend, its, lits;
  Vec         U0, Uend;
  size_t      len;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &issimpvi));
  if (!cmp->active || !issimpvi) {
    PetscCall(TSSolve(ts, U));
    PetscFunctionReturn(0);
  }
  PetscCall(TSGetTime(ts, &t0));
  PetscCall(TSGetTimeStep(ts, &h0));
  PetscCall(TSGetStepNumber(ts, &step0));
  PetscCheck(step0 == 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "-compare_kinsol: the run must start at step 0, not %" PetscInt_FMT, step0);
  PetscCall(VecDuplicate(U, &U0));
  PetscCall(VecCopy(U, U0));
  PetscCall(VecDuplicate(U, &Uend));
  PetscCall(VecDuplicate(U, &cmp->scale));
  PetscCall(VecDuplicate(U, &cmp->dmax));
  PetscCall(VecDuplicate(U, &cmp->work));
  PetscCall(VecSet(cmp->scale, 0));

  /* the reference, with the example's monitors */
  cmp->store = PETSC_TRUE;
  cmp->nU    = 0;
  PetscCall(TSMonitorSet(ts, KINSOLCompareMonitor, cmp, NULL));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSNESIterations(ts, &its)); /* TSSolve() zeroes the counts when it starts at step 0 */
  PetscCall(TSGetKSPIterations(ts, &lits));
  PetscCall(VecCopy(U, Uend));
  PetscCall(TSGetTime(ts, &tend));
  PetscCall(TSGetStepNumber(ts, &stepend));
  PetscCall(PetscSNPrintf(col, sizeof(col), "%" PetscInt_FMT "/%" PetscInt_FMT, its, lits));
  PetscCall(PetscSNPrintf(row, sizeof(row), "%-36s %13s", label, col));

  /* the reruns */
  PetscCall(TSGetOptionsPrefix(ts, &prefix));
  for (PetscInt k = 0; k < 3; k++) {
    char opt[256];

    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s%s", prefix ? prefix : "", KINSOLCompareOptions[k]));
    PetscCall(PetscOptionsGetString(NULL, NULL, opt, old[k], sizeof(old[k]), &has[k]));
  }
  cmp->store = PETSC_FALSE;
  for (PetscInt s = 0; s < cmp->nstrategies; s++) {
    PetscReal rel[2];

    PetscCall(KINSOLCompareUseSolver(cmp, ts, cmp->strategies[s]));
    PetscCall(TSSetFromOptions(ts));
    PetscCall(TSMonitorCancel(ts)); /* the example's monitors (and -ts_monitor) saw the reference run */
    PetscCall(TSMonitorSet(ts, KINSOLCompareMonitor, cmp, NULL));
    PetscCall(VecCopy(U0, U));
    PetscCall(TSSetTime(ts, t0));
    PetscCall(TSSetStepNumber(ts, step0));
    PetscCall(TSSetTimeStep(ts, h0));
    PetscCall(VecSet(cmp->dmax, 0));
    cmp->nsteps   = 0;
    cmp->mismatch = PETSC_FALSE;
    PetscCall(TSSolve(ts, U));
    PetscCall(TSGetSNESIterations(ts, &its));
    PetscCall(TSGetKSPIterations(ts, &lits));
    PetscCall(KINSOLCompareRelativeDifference(cmp, rel));
    if (cmp->mismatch || cmp->nsteps != cmp->nU) rel[0] = rel[1] = PETSC_INFINITY; /* other steps or times: no comparison */
    cmp->worst[s]    = PetscMax(cmp->worst[s], rel[0]);
    cmp->worstmax[s] = PetscMax(cmp->worstmax[s], rel[1]);
    if (!(rel[0] <= cmp->tol)) cmp->agree[s] = PETSC_FALSE;
    PetscCall(PetscSNPrintf(col, sizeof(col), "%" PetscInt_FMT "/%" PetscInt_FMT " (%.0e)", its, lits, (double)rel[0]));
    PetscCall(PetscStrlen(row, &len));
    PetscCall(PetscSNPrintf(row + len, sizeof(row) - len, " %18s", col));
  }
  for (PetscInt k = 0; k < 3; k++) PetscCall(KINSOLCompareSetOption(ts, KINSOLCompareOptions[k], has[k] ? old[k] : NULL));

  /* leave the TS (its solver, with the options restored) and U as the reference run left them */
  PetscCall(TSSetFromOptions(ts));
  PetscCall(VecCopy(Uend, U));
  PetscCall(TSSetTime(ts, tend));
  PetscCall(TSSetStepNumber(ts, stepend));
  if (!cmp->nruns++) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "SNES against KINSOL (-compare_kinsol): nonlinear/linear iterations of each run, and the largest difference from\n"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the SNES trajectory over the steps, per component relative to its largest value\n%-36s %13s", "run", "SNES"));
    for (PetscInt s = 0; s < cmp->nstrategies; s++) {
      PetscBool isfp, ispicard;

      PetscCall(PetscStrcmp(cmp->strategies[s], "fp", &isfp));
      PetscCall(PetscStrcmp(cmp->strategies[s], "picard", &ispicard));
      if (isfp || ispicard) PetscCall(PetscSNPrintf(col, sizeof(col), "%s(m=%" PetscInt_FMT ")", cmp->strategies[s], cmp->maa));
      else PetscCall(PetscSNPrintf(col, sizeof(col), "%s", cmp->strategies[s]));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %18s", col));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", row));
  PetscCall(VecDestroy(&U0));
  PetscCall(VecDestroy(&Uend));
  PetscCall(VecDestroy(&cmp->scale));
  PetscCall(VecDestroy(&cmp->dmax));
  PetscCall(VecDestroy(&cmp->work));
  for (PetscInt j = 0; j < cmp->mU; j++) PetscCall(VecDestroy(&cmp->U[j]));
  PetscCall(PetscFree2(cmp->U, cmp->t));
  cmp->mU = cmp->nU = 0;
  PetscFunctionReturn(0);
}

/* The verdicts, then frees the options */
static inline PetscErrorCode KINSOLCompareFinalize(KINSOLCompare *cmp)
{
  PetscFunctionBeginUser;
  if (cmp->active && !cmp->nruns) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "-compare_kinsol: no TSSIMPVI run to compare\n"));
  if (cmp->active && cmp->nruns) {
    for (PetscInt s = 0; s < cmp->nstrategies; s++) {
      PetscBool issnes;

      PetscCall(PetscStrcmp(cmp->strategies[s], "snes", &issnes));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s gives the SNES trajectories to %g relative, per component, over %" PetscInt_FMT " run(s): %s (largest difference %.1e; relative to max|U| %.1e)\n", issnes ? "rerun with" : "KINSOL",
                            issnes ? "SNES" : cmp->strategies[s], (double)cmp->tol, cmp->nruns, cmp->agree[s] ? "yes" : "no", (double)cmp->worst[s], (double)cmp->worstmax[s]));
    }
  }
  for (PetscInt s = 0; s < cmp->nstrategies; s++) PetscCall(PetscFree(cmp->strategies[s]));
  PetscFunctionReturn(0);
}
#endif
