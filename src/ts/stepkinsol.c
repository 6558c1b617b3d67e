/*
   The step under SNESKINSOL (src/snes/kinsol.c), and the deprecated way of choosing it.

   The step is solved by the TS's SNES whatever its type; when that type is kinsol the TS gives KINSOL the step's scales
   (its residual is a sum of terms much larger than itself, whose round-off sets how small it can get) and the scaled
   step test 1e-10 unless chosen. -ts_simpvi_nonlinear_solver kinsol, TSSimpVISetNonlinearSolverType() and the
   -ts_simpvi_kinsol_* options, simpvi 0.x's second solver path, are kept for one release as aliases: the first two set
   the SNES's type (and the KSP's old prefix <ts prefix>ts_simpvi_kinsol_), the options are copied to -snes_kinsol_*.
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/
#include <petsc/private/snesimpl.h>

/* The step's scaled-step test under KINSOL: Newton's next correction would be its square */
#define SIMPVI_KINSOL_SCSTEPTOL 1e-10

/* The old option names, copied to -snes_kinsol_<name> (max_iters to -snes_max_it) */
static const char *const SimpVIKINSOLOldOptions[] = {"strategy", "maa", "fnormtol", "scsteptol", "max_iters", "max_setup_calls", "max_newton_step", "print_level"};

/*
  The residual scale: the largest sum of magnitudes of the terms of a residual row at the last residual evaluation
  (the initial guess),
     fs = max_i |p_j| delta_i0 + sum_k w_k (|D_ki| max|L_v(t_k)| + h |B_ki| max|L_x(t_k)|),
  the scale of the round-off of R (about 1e-16 fs), so a relative tolerance means the same margin for every scheme.
  The increment scale: KINSOL's (max|Y0|, for fp also the first correction), else max|q_j|.
*/
static PetscErrorCode StepScales(SNES snes, Vec Y, Vec R, PetscReal *fs, PetscReal *us, void *ctx)
{
  TS         ts = (TS)ctx;
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(SimpVIStepResidualScale_Private(vi->step, fs));
  if (!(*us > 0) || PetscIsInfOrNanReal(*us)) {
    Vec q0;

    PetscCall(SimpVIStepGetStart_Private(vi->step, &q0, NULL, NULL));
    PetscCall(VecNorm(q0, NORM_INFINITY, us));
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIStepKINSOL_Private - before each step solve: the step's scales and scaled-step test for a SNESKINSOL (nothing
  for other types), and the type again if the deprecated alias chose it and TSSetFromOptions() made a TS_LINEAR's SNES
  SNESKSPONLY since
*/
PetscErrorCode SimpVIStepKINSOL_Private(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscBool  iskinsol;
  PetscReal  fnormtol = 0, scsteptol = 0;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)ts->snes, SNESKINSOL, &iskinsol));
  if (vi->kinsolalias && !iskinsol) {
    PetscCall(SNESSetType(ts->snes, SNESKINSOL));
    PetscCall(SNESSetFromOptions(ts->snes));
    iskinsol = PETSC_TRUE;
  }
  if (!iskinsol) PetscFunctionReturn(0);
  PetscTryMethod(ts->snes, "SNESKINSOLSetScaleFunction_C", (SNES, SNESKINSOLScaleFn *, void *), (ts->snes, StepScales, ts));
  PetscTryMethod(ts->snes, "SNESKINSOLGetTolerances_C", (SNES, PetscReal *, PetscReal *), (ts->snes, &fnormtol, &scsteptol));
  if (scsteptol == (PetscReal)PETSC_DEFAULT) PetscTryMethod(ts->snes, "SNESKINSOLSetTolerances_C", (SNES, PetscReal, PetscReal), (ts->snes, fnormtol, SIMPVI_KINSOL_SCSTEPTOL));
  PetscFunctionReturn(0);
}

/* The deprecated -ts_simpvi_kinsol_<name> options, copied to -snes_kinsol_<name> under the SNES's prefix */
static PetscErrorCode ForwardOldOptions(TS ts)
{
  const char *tsprefix, *snesprefix;
  char        oldname[256], newname[256], value[256];
  PetscBool   set;
  PetscReal   tol;

  PetscFunctionBegin;
  PetscCall(TSGetOptionsPrefix(ts, &tsprefix));
  PetscCall(SNESGetOptionsPrefix(ts->snes, &snesprefix));
  for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(SimpVIKINSOLOldOptions); k++) {
    const char *name = SimpVIKINSOLOldOptions[k];
    PetscBool   istol, ismaxits;

    PetscCall(PetscSNPrintf(oldname, sizeof(oldname), "-%sts_simpvi_kinsol_%s", tsprefix ? tsprefix : "", name));
    PetscCall(PetscOptionsGetString(((PetscObject)ts)->options, NULL, oldname, value, sizeof(value), &set));
    if (!set) continue;
    PetscCall(PetscStrendswith(name, "tol", &istol));
    if (istol) { /* a tolerance of 1 or more accepts the initial guess as converged: no solve at all */
      PetscCall(PetscOptionsGetReal(((PetscObject)ts)->options, NULL, oldname, &tol, NULL));
      PetscCheck(tol > 0 && tol < 1, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "The option -ts_simpvi_kinsol_%s %g must be in (0, 1)", name, (double)tol);
    }
    PetscCall(PetscStrcmp(name, "max_iters", &ismaxits));
    if (ismaxits) PetscCall(PetscSNPrintf(newname, sizeof(newname), "-%ssnes_max_it", snesprefix ? snesprefix : ""));
    else PetscCall(PetscSNPrintf(newname, sizeof(newname), "-%ssnes_kinsol_%s", snesprefix ? snesprefix : "", name));
    PetscCall(PetscOptionsSetValue(((PetscObject)ts)->options, newname, value));
    PetscCall(PetscInfo(ts, "%s is deprecated (simpvi 0.x): use %s; its value was copied\n", oldname, newname));
  }
  PetscFunctionReturn(0);
}

/* The KSP's options prefix: the deprecated alias keeps the one of simpvi 0.x's own KINSOL KSP, <ts prefix>ts_simpvi_kinsol_ */
static PetscErrorCode SetKSPPrefix(TS ts, PetscBool old)
{
  KSP         ksp;
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(SNESGetKSP(ts->snes, &ksp));
  if (old) {
    PetscCall(TSGetOptionsPrefix(ts, &prefix));
    PetscCall(KSPSetOptionsPrefix(ksp, prefix));
    PetscCall(KSPAppendOptionsPrefix(ksp, "ts_simpvi_kinsol_"));
  } else {
    PetscCall(SNESGetOptionsPrefix(ts->snes, &prefix));
    PetscCall(KSPSetOptionsPrefix(ksp, prefix));
  }
  PetscFunctionReturn(0);
}

/* The deprecated choice: kinsol sets the SNES's type, snes takes it back to the default if the alias had set it */
static PetscErrorCode SetNonlinearSolverType(TS ts, TSSimpVINonlinearSolverType nls)
{
  TS_SimpVI *vi                  = (TS_SimpVI *)ts->data;
  PetscErrorCode (*create)(SNES) = NULL;

  PetscFunctionBegin;
  PetscCall(TSGetSNES(ts, &ts->snes));
  if (nls == TSSIMPVI_NLS_KINSOL) {
    PetscCall(PetscFunctionListFind(SNESList, SNESKINSOL, &create));
    PetscCheck(create, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "simpvi was built without SUNDIALS KINSOL (no SNES type %s)", SNESKINSOL);
    PetscCall(PetscInfo(ts, "-ts_simpvi_nonlinear_solver kinsol and TSSimpVISetNonlinearSolverType() are deprecated (simpvi 0.x): use -snes_type kinsol\n"));
    PetscCall(SNESSetType(ts->snes, SNESKINSOL));
    if (!vi->kinsolalias) PetscCall(SetKSPPrefix(ts, PETSC_TRUE));
    vi->kinsolalias = PETSC_TRUE;
  } else if (vi->kinsolalias) {
    vi->kinsolalias = PETSC_FALSE;
    PetscCall(SNESSetType(ts->snes, ts->problem_type == TS_LINEAR ? SNESKSPONLY : SNESNEWTONLS));
    PetscCall(SetKSPPrefix(ts, PETSC_FALSE));
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIKINSOLAliasSetFromOptions_Private - the deprecated -ts_simpvi_nonlinear_solver and -ts_simpvi_kinsol_*, read in
  TSSetFromOptions_SimpVI(), before TSSetFromOptions() hands the SNES its options
*/
PetscErrorCode SimpVIKINSOLAliasSetFromOptions_Private(TS ts, SimpVIOptionItems PetscOptionsObject)
{
  TSSimpVINonlinearSolverType nls;
  PetscBool                   flg;

  PetscFunctionBegin;
  PetscCall(TSSimpVIGetNonlinearSolverType_SimpVI(ts, &nls));
  PetscCall(PetscOptionsEnum("-ts_simpvi_nonlinear_solver", "Deprecated: use -snes_type kinsol", "TSSimpVISetNonlinearSolverType", TSSimpVINonlinearSolverTypes, (PetscEnum)nls, (PetscEnum *)&nls, &flg));
  PetscCall(ForwardOldOptions(ts));
  if (flg) PetscCall(SetNonlinearSolverType(ts, nls));
  PetscFunctionReturn(0);
}

/* TSSimpVISetNonlinearSolverType() on a TSSIMPVI: the SNES reads its (and the old) options now, as it may come after TSSetFromOptions() */
PetscErrorCode TSSimpVISetNonlinearSolverType_SimpVI(TS ts, TSSimpVINonlinearSolverType nls)
{
  PetscFunctionBegin;
  PetscCall(SetNonlinearSolverType(ts, nls));
  PetscCall(ForwardOldOptions(ts));
  PetscCall(SNESSetFromOptions(ts->snes));
  PetscFunctionReturn(0);
}

PetscErrorCode TSSimpVIGetNonlinearSolverType_SimpVI(TS ts, TSSimpVINonlinearSolverType *nls)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscBool  iskinsol;

  PetscFunctionBegin;
  PetscCall(TSGetSNES(ts, &ts->snes));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts->snes, SNESKINSOL, &iskinsol));
  *nls = iskinsol || vi->kinsolalias ? TSSIMPVI_NLS_KINSOL : TSSIMPVI_NLS_SNES;
  PetscFunctionReturn(0);
}
