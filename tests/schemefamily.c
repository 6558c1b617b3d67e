static char help[] = "A scheme family registered from the program with one call, TSSimpVIRegisterFamily(): it runs under TSSIMPVI\n"
                     "at the order its constructor declares, -ts_view names it and TSSimpVIGetTableau() gives its quadrature.\n"
                     "The harmonic oscillator is measured against its exact solution at h and h/2. Families:\n"
                     "  gauss2     s+2 Gauss-Legendre points: exact beyond need, order 2s as the gauss family\n"
                     "  composite  the composite trapezoidal rule on s panels: order 2 whatever s (at s = 2 the points of simpson,\n"
                     "             with other weights: a scheme that ignored the constructor's weights would show order 4)\n"
                     "and constructors that give bad quadratures, which stop with an error naming the family.\n"
                     "Options: -case good|badweights|badpoints|unknownfamily|degreezero -n <steps on the coarse mesh>\n\n";

#include <simpvi.h>
#include <petscdt.h>

typedef enum {
  CASE_GOOD,
  CASE_BADWEIGHTS,
  CASE_BADPOINTS,
  CASE_UNKNOWNFAMILY,
  CASE_DEGREEZERO
} Case;
static const char *const Cases[] = {"good", "badweights", "badpoints", "unknownfamily", "degreezero", "Case", "CASE_", NULL};

/* s+2 Gauss-Legendre points on [0, 1]: the action of a degree-s polynomial is integrated exactly for the oscillator */
static PetscErrorCode Gauss2(PetscInt s, PetscInt *nq, PetscReal *tau[], PetscReal *w[], PetscInt *order)
{
  PetscFunctionBeginUser;
  *nq    = s + 2;
  *order = 2 * s;
  PetscCall(PetscMalloc1(s + 2, tau));
  PetscCall(PetscMalloc1(s + 2, w));
  PetscCall(PetscDTGaussQuadrature(s + 2, 0, 1, *tau, *w));
  PetscFunctionReturn(0);
}

/* The composite trapezoidal rule on s panels: s+1 equally spaced points, exact for degree 1 only */
static PetscErrorCode Composite(PetscInt s, PetscInt *nq, PetscReal *tau[], PetscReal *w[], PetscInt *order)
{
  PetscFunctionBeginUser;
  *nq    = s + 1;
  *order = 2;
  PetscCall(PetscMalloc1(s + 1, tau));
  PetscCall(PetscMalloc1(s + 1, w));
  for (PetscInt k = 0; k <= s; k++) {
    (*tau)[k] = (PetscReal)k / s;
    (*w)[k]   = (k == 0 || k == s ? 0.5 : 1.0) / s;
  }
  PetscFunctionReturn(0);
}

/* Mistakes a constructor can make with Gauss-Legendre on [-1, 1]: the points mapped to [0, 1] but not the weights
   (summing to 2), or the weights but not the points (outside [0, 1]) */
static PetscErrorCode BadWeights(PetscInt s, PetscInt *nq, PetscReal *tau[], PetscReal *w[], PetscInt *order)
{
  PetscFunctionBeginUser;
  PetscCall(Gauss2(s, nq, tau, w, order));
  PetscCall(PetscDTGaussQuadrature(*nq, -1, 1, *tau, *w));
  for (PetscInt k = 0; k < *nq; k++) (*tau)[k] = (1 + (*tau)[k]) / 2;
  PetscFunctionReturn(0);
}

static PetscErrorCode BadPoints(PetscInt s, PetscInt *nq, PetscReal *tau[], PetscReal *w[], PetscInt *order)
{
  PetscFunctionBeginUser;
  PetscCall(Gauss2(s, nq, tau, w, order));
  PetscCall(PetscDTGaussQuadrature(*nq, -1, 1, *tau, *w));
  for (PetscInt k = 0; k < *nq; k++) (*w)[k] /= 2;
  PetscFunctionReturn(0);
}

/* V = q^2/2 with unit mass: q = q0 cos t + p0 sin t */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  const PetscScalar *xx;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  *V    = 0.5 * PetscRealPart(xx[0] * xx[0]);
  gg[0] = xx[0];
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(MatSetValue(H, 0, 0, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* Whether the -ts_view of ts has the line that names the scheme, its family and its order */
static PetscErrorCode ViewNamesFamily(TS ts, const char expect[], PetscBool *found)
{
  PetscViewer viewer;
  FILE       *fp = tmpfile();
  char        line[4096];

  PetscFunctionBeginUser;
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "No temporary file for the view");
  PetscCall(PetscViewerASCIIOpenWithFILE(PETSC_COMM_SELF, fp, &viewer));
  PetscCall(TSView(ts, viewer));
  PetscCall(PetscViewerFlush(viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  rewind(fp);
  *found = PETSC_FALSE;
  while (!*found && fgets(line, sizeof(line), fp)) *found = (PetscBool)(strstr(line, expect) != NULL);
  fclose(fp);
  PetscFunctionReturn(0);
}

/* (q, p) at T = 2 pi after n steps of the scheme the options choose; with expect, whether -ts_view names it so */
static PetscErrorCode Solve(PetscInt n, const char expect[], PetscBool *viewok, PetscReal *q, PetscReal *p)
{
  TS                 ts;
  SNES               snes;
  Vec                U;
  Mat                M, H;
  PetscScalar       *u;
  const PetscScalar *uu;
  TSConvergedReason  reason;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &M));
  PetscCall(MatSetValue(M, 0, 0, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &H));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, H, Potential, PotentialHessian, NULL));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  u[0] = 1.0;
  u[1] = 0.5;
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, 2 * PETSC_PI / n));
  PetscCall(TSSetMaxTime(ts, 2 * PETSC_PI));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetTolerances(snes, 1e-14, 1e-14, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetConvergedReason(ts, &reason));
  PetscCheck(reason > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "TSSolve stopped with %s", TSConvergedReasons[reason]);
  if (expect) PetscCall(ViewNamesFamily(ts, expect, viewok));
  PetscCall(VecGetArrayRead(U, &uu));
  *q = PetscRealPart(uu[0]);
  *p = PetscRealPart(uu[1]);
  PetscCall(VecRestoreArrayRead(U, &uu));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&H));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Case             c = CASE_GOOD;
  PetscInt         n = 10, degree, order, nq, cnq, corder;
  PetscReal        q[2], p[2], e[2], observed, *ctau, *cw;
  const PetscReal *tau, *w;
  PetscBool        same, viewok = PETSC_FALSE;
  TS               ts;
  const char      *type;
  char             family[64] = "gauss2", expect[256];
  TSSimpVIFamilyFn create     = Gauss2;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Scheme family test options", NULL);
  PetscCall(PetscOptionsEnum("-case", "What to register", NULL, Cases, (PetscEnum)c, (PetscEnum *)&c, NULL));
  PetscCall(PetscOptionsString("-family", "The family the good case registers: gauss2 or composite", NULL, family, family, sizeof(family), NULL));
  PetscCall(PetscOptionsInt("-n", "Steps on the coarse mesh", NULL, n, &n, NULL));
  PetscOptionsEnd();

  /* the family: one call */
  switch (c) {
  case CASE_GOOD:
    PetscCall(PetscStrcmp(family, "composite", &same));
    create = same ? Composite : Gauss2;
    PetscCall(TSSimpVIRegisterFamily(family, create));
    break;
  case CASE_BADWEIGHTS:
    create = BadWeights;
    PetscCall(TSSimpVIRegisterFamily("badweights", create));
    break;
  case CASE_BADPOINTS:
    create = BadPoints;
    PetscCall(TSSimpVIRegisterFamily("badpoints", create));
    break;
  case CASE_UNKNOWNFAMILY:
    PetscCall(TSSimpVIRegisterScheme("orphan", "nofamily", 2, PETSC_FALSE));
    break;
  case CASE_DEGREEZERO:
    PetscCall(TSSimpVIRegisterFamily("gauss2", create));
    PetscCall(TSSimpVIRegisterScheme("flat", "gauss2", 0, PETSC_FALSE));
    break;
  }
  /* a named scheme of the family: its degree fixed at 3 */
  if (c == CASE_GOOD) PetscCall(TSSimpVIRegisterScheme("cubic", family, 3, PETSC_TRUE));

  /* the scheme as the options set it (-ts_simpvi_type <family or cubic> -ts_simpvi_degree); a bad family stops here */
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(TSSimpVIGetDegree(ts, &degree));
  PetscCall(TSSimpVIGetOrder(ts, &order));
  PetscCall(TSSimpVIGetTableau(ts, NULL, &nq, NULL, &tau, &w, NULL, NULL));

  /* the table holds the constructor's quadrature, and the order is the one it declares */
  PetscCall(create(degree, &cnq, &ctau, &cw, &corder));
  same = (PetscBool)(cnq == nq && corder == order);
  for (PetscInt k = 0; same && k < nq; k++) same = (PetscBool)(tau[k] == ctau[k] && w[k] == cw[k]);
  PetscCall(PetscFree(ctau));
  PetscCall(PetscFree(cw));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "scheme %s of family %s, degree %" PetscInt_FMT ": TSSimpVIGetTableau() gives its constructor's %" PetscInt_FMT " points and weights, TSSimpVIGetOrder() its order %" PetscInt_FMT ": %s\n", type, family, degree, nq, order, same ? "yes" : "no"));

  /* errors at h and h/2 against the exact solution: the observed order is the declared one (a wrong order, even by one,
     is outside this window) */
  PetscCall(PetscSNPrintf(expect, sizeof(expect), "Variational integrator %s: degree %" PetscInt_FMT ", %" PetscInt_FMT "-point %s quadrature, order %" PetscInt_FMT "\n", type, degree, nq, family, order));
  PetscCall(Solve(n, expect, &viewok, &q[0], &p[0]));
  PetscCall(Solve(2 * n, NULL, NULL, &q[1], &p[1]));
  for (PetscInt l = 0; l < 2; l++) e[l] = PetscMax(PetscAbsReal(q[l] - 1.0), PetscAbsReal(p[l] - 0.5));
  observed = PetscLog2Real(e[0] / e[1]);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "errors %.3e %.3e, observed order %.2f\n", (double)e[0], (double)e[1], (double)observed));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "declared order %" PetscInt_FMT " observed: %s\n", order, PetscAbsReal(observed - order) < 0.4 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "-ts_view names the scheme, its family and order: %s\n", viewok ? "yes" : "no"));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # registered from the program, chosen by the family's name and -ts_simpvi_degree, or by a named scheme of it
  testset:
    args: -case good
    test:
      suffix: gauss2
      args: -family gauss2 -ts_simpvi_type gauss2 -ts_simpvi_degree 2 -n 10
    test:
      suffix: gauss2_cubic
      args: -family gauss2 -ts_simpvi_type cubic -n 6
    test:
      suffix: composite
      args: -family composite -ts_simpvi_type composite -ts_simpvi_degree 2 -n 20

  # bad constructors and registrations stop with an error that names the family
  testset:
    args: -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep "PETSC ERROR" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"
    test:
      suffix: badweights
      args: -case badweights -ts_simpvi_type badweights
    test:
      suffix: badpoints
      args: -case badpoints -ts_simpvi_type badpoints -ts_simpvi_degree 3
    test:
      suffix: unknownfamily
      args: -case unknownfamily
    test:
      suffix: degreezero
      args: -case degreezero

TEST*/
