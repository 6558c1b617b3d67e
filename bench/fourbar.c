static char help[] = "The four-bar linkage of tutorials/ex7.c run two ways side by side in one process: TSSIMPVI with holonomic\n"
                     "constraints (TSSimpVISetConstraints(), -scheme <simpson>) and PETSc's DAE route, the index-reduced\n"
                     "equations as an implicit TS (TSSetIFunction()/TSSetIJacobian(), options prefix dae_, by default\n"
                     "-dae_ts_type arkimex -dae_ts_arkimex_type 4 fully implicit, fixed steps). -formulation index1 (the default):\n"
                     "the acceleration-level constraint, unknowns (q, v, lambda); -formulation ggl: the stabilised index-2 form of\n"
                     "Gear, Gupta and Leimkuhler, unknowns (q, v, lambda, mu), g(q) = 0 and G(q) v = 0 both imposed.\n"
                     "Prints for each: the time, the error at t = -acc_T <10> against a fine lobatto reference, max |g(q)| and\n"
                     "|G(q) v| over the run and in its second half, the relative energy error in each half; then the ratios.\n"
                     "Options: -h <0.01> (simpvi's step) -dae_h <h> -steps <100000> (simpvi's; the DAE route runs the same time)\n"
                     "-verdicts (yes/no lines for the tests: simpvi's constraints at round-off, the DAE route's drifting)\n\n";

/*
   The linkage (examples/models/fourbar.h, the derivation in tutorials/ex7.c): q = (B, C), L = 1/2 v' M v - V(q),
   M = [a b; b c] (x) I_2, three length constraints g_r = (|P_r - Q_r|^2 - l_r^2)/2 for the bars AB, BC, CD, A and D
   fixed.

   The DAE route a PETSc user writes (Hairer and Wanner, Solving ODEs II, section VII.1; Brenan, Campbell and Petzold):
     index1:  q' = v,  M v' = -grad V - G' lambda,  0 = G M^-1 (-grad V - G' lambda) + (d/dt G) v
              (g differentiated twice: lambda is an algebraic unknown of index 1; g(q) = 0 and G v = 0 hold only
              at the start and drift by the integration error);
     ggl:     q' = v - G' mu,  M v' = -grad V - G' lambda,  0 = g(q),  0 = G(q) v
              (index 2; both constraints are equations of each step, held to the Newton tolerance).
   Neither is symplectic: the energy error of both drifts.
*/
#include <simpvi.h>
#include "../examples/models/fourbar.h" /* the linkage: FourBar, Mechanics(), Lengths(), InitialState() */

#define OMEGA0 2 /* the crank's initial angular velocity, as in tutorials/ex7.c */

/* what the DAE route's IFunction() and IJacobian() take */
typedef struct {
  const FourBar *fb;
  PetscBool      ggl; /* the GGL formulation, else index 1 */
} DAERoute;

static PetscReal Energy(const FourBar *fb, const PetscReal q[], const PetscReal v[])
{
  PetscReal Mv[NQ], H = Potential(fb, q, NULL);

  PatternMult(fb->M, v, Mv);
  for (PetscInt j = 0; j < NQ; j++) H += 0.5 * v[j] * Mv[j];
  return H;
}

/* the row vector of d(G_r(q) y)/dq = d(d_r . (y_a - y_b))/dq, for a fixed y: (y_a - y_b) on a's columns, minus on b's */
static void RowOfGy(PetscInt r, const PetscReal y[], PetscReal row[])
{
  const PetscInt a = bar_end[r][0] >= 0 ? 2 * bar_end[r][0] : -1, b = bar_end[r][1] >= 0 ? 2 * bar_end[r][1] : -1;

  for (PetscInt j = 0; j < NQ; j++) row[j] = 0;
  for (PetscInt c = 0; c < 2; c++) {
    const PetscReal dy = (a >= 0 ? y[a + c] : 0) - (b >= 0 ? y[b + c] : 0);

    if (a >= 0) row[a + c] = dy;
    if (b >= 0) row[b + c] = -dy;
  }
}

/* the multipliers consistent with the start (q, v) */
static void InitialMultipliers(const FourBar *fb, const PetscReal q[], const PetscReal v[], PetscReal lambda[])
{
  PetscReal G[NG * NQ], f[NQ], Mf[NQ], S[NG][NG], b[NG];

  /* G M^-1 G' lambda = G M^-1 f + c(v), f = -grad V, c_r = |v_a - v_b|^2: three equations, Gaussian elimination */
  (void)Lengths(NULL, NQ, NG, q, NULL, NULL, G, NULL, NULL);
  (void)Potential(fb, q, f);
  for (PetscInt j = 0; j < NQ; j++) f[j] = -f[j];
  PatternMult(fb->Minv, f, Mf);
  for (PetscInt r = 0; r < NG; r++) {
    PetscReal row[NQ];

    RowOfGy(r, v, row);
    b[r] = 0;
    for (PetscInt j = 0; j < NQ; j++) b[r] += G[r * NQ + j] * Mf[j] + row[j] * v[j];
    for (PetscInt s2 = 0; s2 < NG; s2++) {
      PetscReal MG[NQ], Gs[NQ];

      for (PetscInt j = 0; j < NQ; j++) Gs[j] = G[s2 * NQ + j];
      PatternMult(fb->Minv, Gs, MG);
      S[r][s2] = 0;
      for (PetscInt j = 0; j < NQ; j++) S[r][s2] += G[r * NQ + j] * MG[j];
    }
  }
  for (PetscInt k = 0; k < NG; k++)
    for (PetscInt r = k + 1; r < NG; r++) {
      const PetscReal l = S[r][k] / S[k][k];

      for (PetscInt c = k; c < NG; c++) S[r][c] -= l * S[k][c];
      b[r] -= l * b[k];
    }
  for (PetscInt r = NG - 1; r >= 0; r--) {
    lambda[r] = b[r];
    for (PetscInt c = r + 1; c < NG; c++) lambda[r] -= S[r][c] * lambda[c];
    lambda[r] /= S[r][r];
  }
}

/* index1: F = [q' - v; M v' + grad V + G' lambda; G M^-1 (-grad V - G' lambda) + c(q, v)], c_r = |v_a - v_b|^2
   ggl:    F = [q' - v + G' mu; M v' + grad V + G' lambda; g(q); G(q) v] */
static PetscErrorCode IFunction(TS ts, PetscReal t, Vec U, Vec Udot, Vec F, void *ctx)
{
  const DAERoute    *dae = (const DAERoute *)ctx;
  const FourBar     *fb  = dae->fb;
  const PetscScalar *u, *ud;
  PetscScalar       *f;
  PetscReal          g[NG], G[NG * NQ], dV[NQ], Mvd[NQ], w[NQ], y[NQ];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(Udot, &ud));
  PetscCall(VecGetArrayWrite(F, &f));
  {
    const PetscReal *q = u, *v = u + NQ, *lambda = u + 2 * NQ, *mu = u + 2 * NQ + NG;

    PetscCall(Lengths(ts, NQ, NG, q, NULL, g, G, NULL, NULL));
    (void)Potential(fb, q, dV);
    PatternMult(fb->M, ud + NQ, Mvd);
    for (PetscInt j = 0; j < NQ; j++) {
      w[j] = -dV[j]; /* the force -grad V - G' lambda */
      for (PetscInt r = 0; r < NG; r++) w[j] -= G[r * NQ + j] * lambda[r];
      f[j]      = ud[j] - v[j];
      f[NQ + j] = Mvd[j] - w[j];
      if (dae->ggl)
        for (PetscInt r = 0; r < NG; r++) f[j] += G[r * NQ + j] * mu[r];
    }
    PatternMult(fb->Minv, w, y);
    for (PetscInt r = 0; r < NG; r++) {
      PetscReal row[NQ], Gy = 0, Gv = 0, c = 0;

      RowOfGy(r, v, row);
      for (PetscInt j = 0; j < NQ; j++) {
        Gy += G[r * NQ + j] * y[j];
        Gv += G[r * NQ + j] * v[j];
        c += row[j] * v[j];
      }
      if (dae->ggl) {
        f[2 * NQ + r]      = g[r];
        f[2 * NQ + NG + r] = Gv;
      } else f[2 * NQ + r] = Gy + c;
    }
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(Udot, &ud));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

/* J = shift dF/dU' + dF/dU, dense */
static PetscErrorCode IJacobian(TS ts, PetscReal t, Vec U, Vec Udot, PetscReal shift, Mat A, Mat B, void *ctx)
{
  const DAERoute    *dae = (const DAERoute *)ctx;
  const FourBar     *fb  = dae->fb;
  const PetscScalar *u;
  PetscInt           N;
  PetscReal          G[NG * NQ], Kl[NQ * NQ], Km[NQ * NQ], dV[NQ], w[NQ], y[NQ], J[(2 * NQ + 2 * NG) * (2 * NQ + 2 * NG)];

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(U, &N));
  PetscCall(PetscArrayzero(J, N * N));
  PetscCall(VecGetArrayRead(U, &u));
  {
    const PetscReal *q = u, *v = u + NQ, *lambda = u + 2 * NQ, *mu = u + 2 * NQ + NG;
    const PetscInt   iv = NQ, il = 2 * NQ, im = 2 * NQ + NG;

    PetscCall(Lengths(ts, NQ, NG, q, lambda, NULL, G, Kl, NULL));
    if (dae->ggl) PetscCall(Lengths(ts, NQ, NG, q, mu, NULL, NULL, Km, NULL));
    (void)Potential(fb, q, dV);
    for (PetscInt j = 0; j < NQ; j++) {
      w[j] = -dV[j];
      for (PetscInt r = 0; r < NG; r++) w[j] -= G[r * NQ + j] * lambda[r];
    }
    PatternMult(fb->Minv, w, y);
    for (PetscInt i = 0; i < NQ; i++) {
      /* q rows */
      J[i * N + i] += shift;
      J[i * N + iv + i] = -1;
      if (dae->ggl) {
        for (PetscInt j = 0; j < NQ; j++) J[i * N + j] += Km[i * NQ + j];
        for (PetscInt r = 0; r < NG; r++) J[i * N + im + r] = G[r * NQ + i];
      }
      /* v rows: shift M, K_lambda, G' */
      for (PetscInt k = 0; k < 2; k++) J[(iv + i) * N + iv + 2 * k + i % 2] = shift * fb->M[i / 2][k];
      for (PetscInt j = 0; j < NQ; j++) J[(iv + i) * N + j] = Kl[i * NQ + j];
      for (PetscInt r = 0; r < NG; r++) J[(iv + i) * N + il + r] = G[r * NQ + i];
    }
    for (PetscInt r = 0; r < NG; r++) {
      PetscReal rowv[NQ], rowy[NQ];

      RowOfGy(r, v, rowv);
      if (dae->ggl) { /* g: G; G v: d(G v)/dq and G */
        for (PetscInt j = 0; j < NQ; j++) {
          J[(il + r) * N + j]      = G[r * NQ + j];
          J[(im + r) * N + j]      = rowv[j];
          J[(im + r) * N + iv + j] = G[r * NQ + j];
        }
      } else { /* G M^-1 w + c: d/dq = RowOfGy(y) - G M^-1 K_lambda; d/dv = 2 RowOfGy(v); d/dlambda = -G M^-1 G' */
        PetscReal GMinv[NQ], Gr[NQ];

        RowOfGy(r, y, rowy);
        for (PetscInt j = 0; j < NQ; j++) Gr[j] = G[r * NQ + j];
        PatternMult(fb->Minv, Gr, GMinv); /* M^-1 symmetric: the row G_r M^-1 */
        for (PetscInt j = 0; j < NQ; j++) {
          J[(il + r) * N + j] = rowy[j];
          for (PetscInt k = 0; k < NQ; k++) J[(il + r) * N + j] -= GMinv[k] * Kl[k * NQ + j];
          J[(il + r) * N + iv + j] = 2 * rowv[j];
        }
        for (PetscInt s = 0; s < NG; s++) {
          J[(il + r) * N + il + s] = 0;
          for (PetscInt k = 0; k < NQ; k++) J[(il + r) * N + il + s] -= GMinv[k] * G[s * NQ + k];
        }
      }
    }
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  for (PetscInt i = 0; i < N; i++) {
    PetscInt rows[1] = {i}, cols[2 * NQ + 2 * NG];

    for (PetscInt j = 0; j < N; j++) cols[j] = j;
    PetscCall(MatSetValues(B, 1, rows, N, cols, J + i * N, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  if (A != B) {
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* What a run watches at its step ends: constraints, energy, the state at t = acc_T */
typedef struct {
  FourBar  *fb;
  PetscBool phase; /* U = (q, p) (simpvi) or (q, v, ...) (the DAE route) */
  PetscInt  steps, acc_step;
  PetscReal gmax[2], hmax[2]; /* the largest |g(q)| and |G(q) v| in each half of the run */
  PetscReal H0, e[2];         /* the energy at the start, the largest relative change in each half */
  PetscReal qacc[NQ];         /* q at t = acc_T */
} Watch;

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Watch             *w = (Watch *)ctx;
  const PetscScalar *u;
  PetscReal          g[NG], G[NG * NQ], v[NQ], H;
  const PetscInt     half = 2 * step > w->steps;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  if (w->phase) PatternMult(w->fb->Minv, u + NQ, v);
  else
    for (PetscInt j = 0; j < NQ; j++) v[j] = u[NQ + j];
  PetscCall(Lengths(ts, NQ, NG, u, NULL, g, G, NULL, NULL));
  for (PetscInt r = 0; r < NG; r++) {
    PetscReal Gv = 0;

    for (PetscInt j = 0; j < NQ; j++) Gv += G[r * NQ + j] * v[j];
    w->gmax[half] = PetscMax(w->gmax[half], PetscAbsReal(g[r]));
    w->hmax[half] = PetscMax(w->hmax[half], PetscAbsReal(Gv));
  }
  H = Energy(w->fb, u, v);
  if (step == 0) w->H0 = H;
  else w->e[half] = PetscMax(w->e[half], PetscAbsReal(H - w->H0) / PetscAbsReal(w->H0));
  if (step == w->acc_step)
    for (PetscInt j = 0; j < NQ; j++) w->qacc[j] = u[j];
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

/* simpvi: steps of h with scheme; the time of TSSolve() in *time */
static PetscErrorCode RunSimpVI(FourBar *fb, const char scheme[], PetscReal h, PetscInt steps, Watch *w, PetscLogDouble *time)
{
  TS             ts;
  Vec            U;
  PetscScalar   *u;
  PetscReal      q[NQ], v[NQ];
  PetscLogDouble t0, t1;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, scheme));
  PetscCall(TSSimpVISetPointwiseLagrangian(ts, Mechanics, fb));
  PetscCall(TSSimpVISetConstraints(ts, NG, Lengths, NULL));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * NQ, &U));
  InitialState(OMEGA0, q, v);
  PetscCall(VecGetArrayWrite(U, &u));
  for (PetscInt j = 0; j < NQ; j++) u[j] = q[j];
  PatternMult(fb->M, v, u + NQ);
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e12));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (w) PetscCall(TSMonitorSet(ts, Monitor, w, NULL));
  PetscCall(PetscTime(&t0));
  PetscCall(TSSolve(ts, U));
  PetscCall(PetscTime(&t1));
  if (time) *time = t1 - t0;
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

/* the DAE route: steps of h, its TS from the options (prefix dae_) */
static PetscErrorCode RunDAE(FourBar *fb, PetscBool ggl, PetscReal h, PetscInt steps, Watch *w, PetscLogDouble *time, char type[], size_t len, PetscReal *tfail)
{
  TS             ts;
  Vec            U;
  Mat            J;
  PetscScalar   *u;
  PetscInt       N   = 2 * NQ + (ggl ? 2 : 1) * NG;
  DAERoute       dae = {fb, ggl};
  PetscLogDouble t0, t1;
  TSType         tstype;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetOptionsPrefix(ts, "dae_"));
  PetscCall(TSSetType(ts, TSARKIMEX));
  PetscCall(TSARKIMEXSetType(ts, TSARKIMEX4));
  PetscCall(TSARKIMEXSetFullyImplicit(ts, PETSC_TRUE));
  PetscCall(TSSetEquationType(ts, ggl ? TS_EQ_DAE_IMPLICIT_INDEX2 : TS_EQ_DAE_IMPLICIT_INDEX1));
  PetscCall(TSSetProblemType(ts, TS_NONLINEAR));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, N, &U));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, N, N, NULL, &J));
  PetscCall(TSSetIFunction(ts, NULL, IFunction, &dae));
  PetscCall(TSSetIJacobian(ts, J, J, IJacobian, &dae));
  PetscCall(VecZeroEntries(U));
  PetscCall(VecGetArrayWrite(U, &u));
  InitialState(OMEGA0, u, u + NQ);
  InitialMultipliers(fb, u, u + NQ, u + 2 * NQ);
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e12));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  {
    TSAdapt adapt;

    PetscCall(TSGetAdapt(ts, &adapt));
    PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
  }
  { /* a direct solve (LAPACK, pivoting) of the small saddle-point system, as a user would choose it */
    SNES snes;
    KSP  ksp;
    PC   pc;

    PetscCall(TSGetSNES(ts, &snes));
    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCLU));
  }
  if (w) PetscCall(TSMonitorSet(ts, Monitor, w, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSGetType(ts, &tstype));
  PetscCall(PetscStrncpy(type, tstype, len));
  {
    PetscBool isark, isbdf;

    PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSARKIMEX, &isark));
    PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSBDF, &isbdf));
    if (isark) {
      TSARKIMEXType at;

      PetscCall(TSARKIMEXGetType(ts, &at));
      PetscCall(PetscStrlcat(type, " ", len));
      PetscCall(PetscStrlcat(type, at, len));
    } else if (isbdf) {
      PetscInt order;
      char     o[8];

      PetscCall(TSBDFGetOrder(ts, &order));
      PetscCall(PetscSNPrintf(o, sizeof(o), " %" PetscInt_FMT, order));
      PetscCall(PetscStrlcat(type, o, len));
    }
  }
  PetscCall(TSSetErrorIfStepFails(ts, PETSC_FALSE)); /* a failed Newton solve ends the run; reported, not an error */
  PetscCall(PetscTime(&t0));
  PetscCall(TSSolve(ts, U));
  PetscCall(PetscTime(&t1));
  if (time) *time = t1 - t0;
  {
    TSConvergedReason reason;

    PetscCall(TSGetConvergedReason(ts, &reason));
    *tfail = -1;
    if (reason < 0) PetscCall(TSGetTime(ts, tfail));
  }
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

static PetscReal Distance(const PetscReal a[], const PetscReal b[])
{
  PetscReal d = 0;

  for (PetscInt j = 0; j < NQ; j++) d = PetscMax(d, PetscAbsReal(a[j] - b[j]));
  return d;
}

int main(int argc, char **argv)
{
  FourBar        fb;
  char           scheme[32] = "simpson", formulation[16] = "index1", daetype[64];
  PetscReal      h = 0.01, dae_h, acc_T = 10, eS, eD, tfail;
  PetscInt       steps    = 100000, dae_steps;
  PetscBool      verdicts = PETSC_FALSE, ggl;
  Watch          wS, wD, wR;
  PetscLogDouble tS = 0, tD = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Four-bar benchmark options", NULL);
  PetscCall(PetscOptionsString("-scheme", "simpvi's scheme", NULL, scheme, scheme, sizeof(scheme), NULL));
  PetscCall(PetscOptionsString("-formulation", "the DAE route's: index1 or ggl", NULL, formulation, formulation, sizeof(formulation), NULL));
  PetscCall(PetscOptionsReal("-h", "simpvi's step", NULL, h, &h, NULL));
  dae_h = h;
  PetscCall(PetscOptionsReal("-dae_h", "the DAE route's step", NULL, dae_h, &dae_h, NULL));
  PetscCall(PetscOptionsInt("-steps", "simpvi's steps", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsReal("-acc_T", "the time of the accuracy comparison", NULL, acc_T, &acc_T, NULL));
  PetscCall(PetscOptionsBool("-verdicts", "print yes/no verdicts", NULL, verdicts, &verdicts, NULL));
  PetscOptionsEnd();
  PetscCheck(!strcmp(formulation, "index1") || !strcmp(formulation, "ggl"), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-formulation index1 or ggl, not %s", formulation);
  PetscCheck(acc_T <= steps * h, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-acc_T %g beyond the run's end %g", (double)acc_T, (double)(steps * h));
  FourBarSetUp(&fb, 1);
  ggl       = !strcmp(formulation, "ggl") ? PETSC_TRUE : PETSC_FALSE;
  dae_steps = (PetscInt)PetscFloorReal(0.5 + steps * h / dae_h);

  /* the reference at acc_T: lobatto at h/16 */
  PetscCall(PetscMemzero(&wR, sizeof(wR)));
  wR.fb = &fb, wR.phase = PETSC_TRUE, wR.acc_step = (PetscInt)PetscFloorReal(0.5 + 16 * acc_T / h), wR.steps = wR.acc_step;
  PetscCall(RunSimpVI(&fb, "lobatto", h / 16, wR.acc_step, &wR, NULL));

  PetscCall(PetscMemzero(&wS, sizeof(wS)));
  wS.fb = &fb, wS.phase = PETSC_TRUE, wS.steps = steps, wS.acc_step = (PetscInt)PetscFloorReal(0.5 + acc_T / h);
  PetscCall(RunSimpVI(&fb, scheme, h, steps, &wS, &tS));
  PetscCall(PetscMemzero(&wD, sizeof(wD)));
  wD.fb = &fb, wD.phase = PETSC_FALSE, wD.steps = dae_steps, wD.acc_step = (PetscInt)PetscFloorReal(0.5 + acc_T / dae_h);
  PetscCall(RunDAE(&fb, ggl, dae_h, dae_steps, &wD, &tD, daetype, sizeof(daetype), &tfail));
  PetscCheck(!verdicts || tfail < 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "The DAE route's step failed at t = %g", (double)tfail);
  eS = Distance(wS.qacc, wR.qacc);
  eD = Distance(wD.qacc, wR.qacc);

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Four-bar linkage to T = %g: simpvi %s (h = %g) against the DAE route (%s formulation, %s, h = %g)\n", (double)(steps * h), scheme, (double)h, formulation, daetype, (double)dae_h));
  if (tfail >= 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the DAE route's Newton solve failed at t = %g: its columns are those of its run up to there\n", (double)tfail));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-28s %10s %12s %10s %10s %10s %10s %10s %10s\n", "method", "time (s)", "err t=acc_T", "|g| 1st", "|g| 2nd", "|Gv| 1st", "|Gv| 2nd", "dE/E 1st", "dE/E 2nd"));
  {
    char name[2][64];

    PetscCall(PetscSNPrintf(name[0], sizeof(name[0]), "simpvi %s", scheme));
    PetscCall(PetscSNPrintf(name[1], sizeof(name[1]), "%s %s", formulation, daetype));
    for (PetscInt k = 0; k < 2; k++) {
      const Watch *w = k ? &wD : &wS;

      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-28s %10.3g %12.2e %10.2e %10.2e %10.2e %10.2e %10.2e %10.2e\n", name[k], (double)(k ? tD : tS), (double)(k ? eD : eS), (double)w->gmax[0], (double)w->gmax[1], (double)w->hmax[0], (double)w->hmax[1],
                            (double)w->e[0], (double)w->e[1]));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "ratios DAE route / simpvi: time %.3g, error at t = %g %.3g, max |g(q)| %.3g, max |G(q) v| %.3g, energy error %.3g\n", (double)(tD / tS), (double)acc_T, (double)(eD / eS), (double)(PetscMax(wD.gmax[0], wD.gmax[1]) / PetscMax(wS.gmax[0], wS.gmax[1])), (double)(PetscMax(wD.hmax[0], wD.hmax[1]) / PetscMax(wS.hmax[0], wS.hmax[1])), (double)(PetscMax(wD.e[0], wD.e[1]) / PetscMax(wS.e[0], wS.e[1]))));
  if (verdicts) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verdict: simpvi's |g(q)| <= 1e-12 and |G(q) v| <= 1e-11 over the run: %s\n", PetscMax(wS.gmax[0], wS.gmax[1]) <= 1e-12 && PetscMax(wS.hmax[0], wS.hmax[1]) <= 1e-11 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verdict: simpvi's energy error bounded (second half at most twice the first): %s\n", wS.e[1] <= 2 * wS.e[0] ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verdict: the two runs agree at t = %g to 1e-3 (comparable accuracy: errors within a factor 100): %s\n", (double)acc_T, Distance(wS.qacc, wD.qacc) <= 1e-3 && eD <= 100 * eS && eS <= 100 * eD ? "yes" : "no"));
    if (!ggl) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verdict: the index-1 route's |g(q)| drifts (its second half's maximum above 1e-9 and above 1.5 times its first half's): %s\n", wD.gmax[1] > 1e-9 && wD.gmax[1] > 1.5 * wD.gmax[0] ? "yes" : "no"));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verdict: the GGL route holds |g(q)| <= 1e-10 (its equations, to the Newton tolerance): %s\n", PetscMax(wD.gmax[0], wD.gmax[1]) <= 1e-10 ? "yes" : "no"));
  }
  PetscCall(PetscFinalize());
  return 0;
}
