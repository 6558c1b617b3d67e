static char help[] = "Double pendulum by TSSIMPVI through the pointwise door (TSSimpVISetPointwiseLagrangian()): the mechanics of\n"
                     "a small system on plain arrays, every quadrature point of a Newton iteration in one call. Checks the\n"
                     "derivatives the function gives against central differences of P and G (do this for your own Lagrangian),\n"
                     "then runs a step-refinement sweep against a fine-step reference (errors at T and the observed order) and\n"
                     "reports the largest relative energy error of the coarsest run.\n"
                     "Options: -m1 <1> -m2 <1> -l1 <1> -l2 <1> -g <9.81> -T <1> -n <10> (steps of the coarsest run) -levels <3>\n\n";

/*
   Two point masses m1, m2 on massless rods l1, l2, angles q = (q1, q2) from the downward vertical:

     L = 1/2 (m1 + m2) l1^2 v1^2 + 1/2 m2 l2^2 v2^2 + k v1 v2 cos(q1 - q2) + (m1 + m2) g l1 cos q1 + m2 g l2 cos q2,
     k = m2 l1 l2.

   TSSimpVISetPointwiseLagrangian() takes one function that fills, at npoints points (t[k], x + k n, v + k n),
     L[k], P = dL/dv and G = dL/dx (n each per point), and Px = dP/dx, Pv = dP/dv, Gx = dG/dx, Gv = dG/dv as n x n
     row-major blocks: Px[k n n + i n + j] = dP_i/dx_j.
   Any output may be NULL: the step asks for P and G alone in the Newton iterations that keep their Jacobian, and for L
   alone when it measures the energy. For a Lagrangian Pv and Gx are symmetric and Gv is the transpose of Px; a
   generalized force f(t, x, v) would be added to G (and its derivatives to Gx and Gv).

   The step of a small system then works on arrays only: no Vec or Mat between the scheme and this function. Its
   Jacobian is assembled from these blocks, so a wrong block costs Newton iterations (and with -ts_simpvi_small_limit 0,
   the SNES path, -snes_test_jacobian shows it): check them as CheckDerivatives() below does.
*/
#include <simpvi.h>

typedef struct {
  PetscReal m1, m2, l1, l2, g;
} DoublePendulum;

static PetscErrorCode Mechanics(TS ts, PetscInt npoints, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  const DoublePendulum *dp = (const DoublePendulum *)ctx;
  const PetscReal       k = dp->m2 * dp->l1 * dp->l2, a = (dp->m1 + dp->m2) * dp->l1 * dp->l1, b = dp->m2 * dp->l2 * dp->l2;
  const PetscReal       g1 = (dp->m1 + dp->m2) * dp->g * dp->l1, g2 = dp->m2 * dp->g * dp->l2;

  PetscFunctionBeginUser;
  for (PetscInt p = 0; p < npoints; p++) {
    const PetscReal q1 = x[2 * p], q2 = x[2 * p + 1], v1 = v[2 * p], v2 = v[2 * p + 1];
    const PetscReal s = PetscSinReal(q1 - q2), c = PetscCosReal(q1 - q2);

    if (L) L[p] = 0.5 * a * v1 * v1 + 0.5 * b * v2 * v2 + k * v1 * v2 * c + g1 * PetscCosReal(q1) + g2 * PetscCosReal(q2);
    if (P) {
      P[2 * p]     = a * v1 + k * c * v2;
      P[2 * p + 1] = b * v2 + k * c * v1;
    }
    if (G) {
      G[2 * p]     = -k * v1 * v2 * s - g1 * PetscSinReal(q1);
      G[2 * p + 1] = k * v1 * v2 * s - g2 * PetscSinReal(q2);
    }
    if (Px) {
      PetscReal *px = Px + 4 * p, *pv = Pv + 4 * p, *gx = Gx + 4 * p, *gv = Gv + 4 * p;

      px[0] = -k * v2 * s, px[1] = k * v2 * s, px[2] = -k * v1 * s, px[3] = k * v1 * s;
      pv[0] = a, pv[1] = k * c, pv[2] = k * c, pv[3] = b;
      gx[0] = -k * v1 * v2 * c - g1 * PetscCosReal(q1), gx[1] = k * v1 * v2 * c, gx[2] = k * v1 * v2 * c, gx[3] = -k * v1 * v2 * c - g2 * PetscCosReal(q2);
      gv[0] = px[0], gv[1] = px[2], gv[2] = px[1], gv[3] = px[3]; /* Px transposed */
    }
  }
  PetscFunctionReturn(0);
}

/* Px, Pv, Gx, Gv at a point against central differences of P and G: the largest difference relative to the largest entry */
static PetscErrorCode CheckDerivatives(DoublePendulum *dp, PetscReal *err)
{
  const PetscReal x[2] = {0.3, -1.1}, v[2] = {0.7, 1.9}, t = 0, e = 1e-6;
  PetscReal       D[16], P[2], G[2];
  PetscReal       scale = 0;

  PetscFunctionBeginUser;
  PetscCall(Mechanics(NULL, 1, 2, &t, x, v, NULL, P, G, D, D + 4, D + 8, D + 12, dp));
  *err = 0;
  for (PetscInt j = 0; j < 4; j++) { /* perturb x_0, x_1, v_0, v_1 */
    PetscReal xp[2] = {x[0], x[1]}, xm[2] = {x[0], x[1]}, vp[2] = {v[0], v[1]}, vm[2] = {v[0], v[1]}, Pp[2], Pm[2], Gp[2], Gm[2];

    if (j < 2) xp[j] += e, xm[j] -= e;
    else vp[j - 2] += e, vm[j - 2] -= e;
    PetscCall(Mechanics(NULL, 1, 2, &t, xp, vp, NULL, Pp, Gp, NULL, NULL, NULL, NULL, dp));
    PetscCall(Mechanics(NULL, 1, 2, &t, xm, vm, NULL, Pm, Gm, NULL, NULL, NULL, NULL, dp));
    for (PetscInt i = 0; i < 2; i++) {
      const PetscReal *dP = D + (j < 2 ? 0 : 4), *dG = D + (j < 2 ? 8 : 12);
      const PetscInt   col = j % 2;

      *err  = PetscMax(*err, PetscAbsReal(dP[2 * i + col] - (Pp[i] - Pm[i]) / (2 * e)));
      *err  = PetscMax(*err, PetscAbsReal(dG[2 * i + col] - (Gp[i] - Gm[i]) / (2 * e)));
      scale = PetscMax(scale, PetscMax(PetscAbsReal(dP[2 * i + col]), PetscAbsReal(dG[2 * i + col])));
    }
  }
  *err /= scale;
  PetscFunctionReturn(0);
}

/* n steps to T from q = (pi/4, pi/3) at rest; the final (q, p) and the largest relative energy error */
static PetscErrorCode Solve(DoublePendulum *dp, PetscReal T, PetscInt n, PetscReal u[4], PetscReal *dH)
{
  TS           ts;
  Vec          U;
  PetscScalar *a;
  PetscReal    H0, H;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts)); /* the pointwise door is for one process */
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetPointwiseLagrangian(ts, Mechanics, dp));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U)); /* U = (q1, q2, p1, p2) */
  PetscCall(VecGetArrayWrite(U, &a));
  a[0] = PETSC_PI / 4;
  a[1] = PETSC_PI / 3;
  a[2] = a[3] = 0;
  PetscCall(VecRestoreArrayWrite(U, &a));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, T / n));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetMaxSteps(ts, n));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts)); /* -ts_simpvi_type, -ts_simpvi_degree, -snes_lag_jacobian, -ts_view, ... */
  PetscCall(TSSimpVIComputeEnergy(ts, 0, U, &H0));
  *dH = 0;
  for (PetscInt j = 1; j <= n; j++) { /* step by step, to watch the energy */
    PetscCall(TSSetMaxSteps(ts, j));
    PetscCall(TSSolve(ts, U));
    PetscCall(TSSimpVIComputeEnergy(ts, 0, U, &H));
    *dH = PetscMax(*dH, PetscAbsReal((H - H0) / H0));
  }
  PetscCall(VecGetArray(U, &a));
  for (PetscInt i = 0; i < 4; i++) u[i] = PetscRealPart(a[i]);
  PetscCall(VecRestoreArray(U, &a));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  DoublePendulum dp = {1, 1, 1, 1, 9.81};
  PetscReal      T = 1, err = 0, ref[4], u[4], e[8], dH[8], dHref;
  PetscInt       n = 10, levels = 3;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage()); /* registers TSSIMPVI (or link with -dll_append) */
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Double pendulum through the pointwise door", NULL);
  PetscCall(PetscOptionsReal("-m1", "Upper mass", NULL, dp.m1, &dp.m1, NULL));
  PetscCall(PetscOptionsReal("-m2", "Lower mass", NULL, dp.m2, &dp.m2, NULL));
  PetscCall(PetscOptionsReal("-l1", "Upper rod", NULL, dp.l1, &dp.l1, NULL));
  PetscCall(PetscOptionsReal("-l2", "Lower rod", NULL, dp.l2, &dp.l2, NULL));
  PetscCall(PetscOptionsReal("-g", "Gravity", NULL, dp.g, &dp.g, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, T, &T, NULL));
  PetscCall(PetscOptionsInt("-n", "Steps of the coarsest run", NULL, n, &n, NULL));
  PetscCall(PetscOptionsRangeInt("-levels", "Refinements", NULL, levels, &levels, NULL, 2, 8));
  PetscOptionsEnd();

  PetscCall(CheckDerivatives(&dp, &err));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Px, Pv, Gx, Gv against central differences of P and G to 1e-7: %s\n", err < 1e-7 ? "yes" : "no"));

  PetscCall(Solve(&dp, T, n << (levels + 2), ref, &dHref)); /* the reference: four times finer than the finest run */
  for (PetscInt l = 0; l < levels; l++) {
    PetscCall(Solve(&dp, T, n << l, u, &dH[l]));
    e[l] = 0;
    for (PetscInt i = 0; i < 4; i++) e[l] = PetscMax(e[l], PetscAbsReal(u[i] - ref[i]));
    if (!l) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "n = %4" PetscInt_FMT "  error %.3e\n", n << l, (double)e[l]));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "n = %4" PetscInt_FMT "  error %.3e  order %.2f\n", n << l, (double)e[l], (double)PetscLog2Real(e[l - 1] / e[l])));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "largest relative energy error of the coarsest run: %.1e\n", (double)dH[0]));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # Lobatto of degree 3 (order 6) and Simpson (order 4): the errors shrink at the scheme's order
  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto

  test:
    suffix: simpson
    args: -ts_simpvi_type simpson -n 20

  # one step Jacobian per step (PETSc's lag): the same orders
  test:
    suffix: lag
    args: -ts_simpvi_type lobatto -snes_lag_jacobian 100

  # the SNES path: PETSc's check of the step Jacobian built from the same blocks
  test:
    suffix: jacobian
    args: -ts_simpvi_type simpson -n 4 -T 0.4 -levels 2 -ts_simpvi_small_limit 0 -snes_test_jacobian
    filter: grep "Jfd||_F/||J||_F = " | awk '/e-(0[6-9]|1[0-9])/ {good++} END {print "every Jacobian check below 1e-6:", (NR > 0 && good == NR) ? "yes" : "no"}'

  # every SNES type runs the tutorial (issue 21): newtonls, simpvidense and kinsol solve its steps to its default
  # output; ksponly takes one Newton step per step (the wrong answer for a nonlinear problem), so only its run counts
  test:
    suffix: snes_types
    args: -ts_simpvi_type simpson -n 20 -snes_type {{newtonls simpvidense}shared output}
    output_file: output/ex5_simpson.out
  test:
    suffix: snes_kinsol
    requires: kinsol
    args: -ts_simpvi_type simpson -n 20 -snes_type kinsol
    output_file: output/ex5_simpson.out
  test:
    suffix: snes_ksponly
    args: -ts_simpvi_type simpson -n 20 -snes_type ksponly
    filter: awk 'END {print "ran to the end:", (NR > 0) ? "yes" : "no"}'

TEST*/
