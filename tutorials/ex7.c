static char help[] = "A closed four-bar linkage in Cartesian coordinates by TSSIMPVI with holonomic constraints\n"
                     "(TSSimpVISetConstraints()): three uniform bars, the ground pivots A = (0,0) and D = (2,0) fixed, the joints\n"
                     "B and C free in the plane, under gravity: q = (B, C), three length constraints, one degree of freedom.\n"
                     "-check drift (the default): over -steps <10000> steps of -h <0.01> (the scheme from -ts_simpvi_type,\n"
                     "simpson by default) prints whether |g(q)| and the hidden constraint |G(q) M^-1 p| stay at round-off and\n"
                     "whether the energy error is bounded (the second half of the run against the first); -steps 1000000 is the\n"
                     "long run. -check order: the observed orders of simpson and lobatto against a fine-step lobatto reference.\n"
                     "Options: -omega0 <2> (the crank's initial angular velocity; it turns full circles) -T <1> (order check)\n\n";

/*
   The linkage: the crank AB (length 1), the coupler BC (2.5) and the rocker CD (2) between the ground pivots A = (0,0)
   and D = (2,0). 1 + 2.5 < 2 + 2 (Grashof, strictly): the crank turns full circles and the three bars are never
   aligned, so G(q) has full rank on the whole motion. The loop closes: no choice of angles writes this as an ODE
   (the rocker's angle is a two-valued function of the crank's, and the coupler's too), while in the joints'
   coordinates q = (B_x, B_y, C_x, C_y) it is a Lagrangian with constant mass and three constraints

     g_1 = (|B - A|^2 - 1)/2,   g_2 = (|C - B|^2 - 2.5^2)/2,   g_3 = (|C - D|^2 - 2^2)/2.

   A uniform bar of mass m between points P and Q has kinetic energy m/6 (|P'|^2 + P'.Q' + |Q'|^2) and its weight at
   its middle, so with the pivots at rest

     L = 1/2 v' M v - V(q),   M = [a b; b c] (x) I_2,  a = (m1 + m2)/3, b = m2/6, c = (m2 + m3)/3,
     V = g ((m1 + m2)/2 B_y + (m2 + m3)/2 C_y).

   The pointwise door (TSSimpVISetPointwiseLagrangian()) takes P = M v, the force -grad V and the constant derivative
   blocks; TSSimpVISetConstraints() takes g, G = dg/dq and sum_r lambda_r d2g_r/dq2. The state is U = (q, p), p = M v.
   Both callbacks, Mechanics() and Lengths(), and the start are in examples/models/fourbar.h, which bench/fourbar.c
   shares; this file runs them and watches the constraints and the energy.
*/
#include <simpvi.h>
#include "../examples/models/fourbar.h" /* the linkage: FourBar, Mechanics(), Lengths(), InitialState() */

/* v = M^-1 p (Cramer's rule on the 2 x 2 pattern) */
static void MassSolve(const FourBar *fb, const PetscReal p[], PetscReal v[])
{
  const PetscReal det = fb->M[0][0] * fb->M[1][1] - fb->M[0][1] * fb->M[1][0];

  for (PetscInt c = 0; c < 2; c++) {
    v[c]     = (fb->M[1][1] * p[c] - fb->M[0][1] * p[2 + c]) / det;
    v[2 + c] = (fb->M[0][0] * p[2 + c] - fb->M[1][0] * p[c]) / det;
  }
}

typedef struct {
  FourBar  *fb;
  PetscReal gmax, hmax; /* the largest |g(q)| and |G(q) M^-1 p| at the step ends */
  PetscReal H0, e[2];   /* the energy at the start, the largest relative change in each half of the run */
  PetscReal angle;      /* the crank's angle, unwrapped */
  PetscInt  steps;
} Watch;

static PetscReal Energy(const FourBar *fb, const PetscReal u[])
{
  PetscReal v[NQ], H = Potential(fb, u, NULL);

  MassSolve(fb, u + NQ, v);
  for (PetscInt j = 0; j < NQ; j++) H += 0.5 * v[j] * u[NQ + j];
  return H;
}

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Watch             *w = (Watch *)ctx;
  const PetscScalar *u;
  PetscReal          g[NG], G[NG * NQ], v[NQ], H;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(Lengths(ts, NQ, NG, u, NULL, g, G, NULL, NULL));
  MassSolve(w->fb, u + NQ, v);
  for (PetscInt r = 0; r < NG; r++) {
    PetscReal Gv = 0;

    for (PetscInt j = 0; j < NQ; j++) Gv += G[r * NQ + j] * v[j];
    w->gmax = PetscMax(w->gmax, PetscAbsReal(g[r]));
    w->hmax = PetscMax(w->hmax, PetscAbsReal(Gv));
  }
  H = Energy(w->fb, u);
  if (step == 0) {
    w->H0    = H;
    w->angle = PetscAtan2Real(u[1], u[0]);
  } else {
    const PetscReal a = PetscAtan2Real(u[1], u[0]), da = PetscAtan2Real(PetscSinReal(a - w->angle), PetscCosReal(a - w->angle));

    w->angle += da; /* the crank turns by less than half a turn per step */
    w->e[2 * step > w->steps] = PetscMax(w->e[2 * step > w->steps], PetscAbsReal(H - w->H0) / PetscAbsReal(w->H0));
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

/* steps steps of h from the start with the scheme (NULL: the options' choice, simpson by default), the other options
   applying to every run; the end in uend */
static PetscErrorCode Run(FourBar *fb, PetscReal omega0, const char scheme[], PetscReal h, PetscInt steps, Watch *w, PetscReal uend[])
{
  TS                 ts;
  Vec                U;
  PetscScalar       *u;
  const PetscScalar *uu;
  PetscReal          v[NQ];

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, "simpson"));
  PetscCall(TSSimpVISetPointwiseLagrangian(ts, Mechanics, fb));
  PetscCall(TSSimpVISetConstraints(ts, NG, Lengths, NULL));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * NQ, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  InitialState(omega0, u, v);
  PatternMult(fb->M, v, u + NQ); /* p = M v */
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e12));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (w) PetscCall(TSMonitorSet(ts, Monitor, w, NULL));
  PetscCall(TSSetFromOptions(ts));
  if (scheme) PetscCall(TSSimpVISetType(ts, scheme)); /* the order check's schemes, whatever -ts_simpvi_type says */
  PetscCall(TSSolve(ts, U));
  PetscCall(VecGetArrayRead(U, &uu));
  for (PetscInt j = 0; j < 2 * NQ; j++) uend[j] = PetscRealPart(uu[j]);
  PetscCall(VecRestoreArrayRead(U, &uu));
  PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscFunctionReturn(0);
}

static PetscReal Distance(PetscInt n, const PetscReal a[], const PetscReal b[])
{
  PetscReal d = 0;

  for (PetscInt j = 0; j < n; j++) d = PetscMax(d, PetscAbsReal(a[j] - b[j]));
  return d;
}

int main(int argc, char **argv)
{
  char      check[16] = "drift";
  FourBar   fb;
  PetscReal omega0 = 2, h = 0.01, uend[2 * NQ];
  PetscInt  steps = 10000;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Four-bar linkage options", NULL);
  PetscCall(PetscOptionsString("-check", "drift or order", NULL, check, check, sizeof(check), NULL));
  PetscCall(PetscOptionsReal("-omega0", "the crank's initial angular velocity", NULL, omega0, &omega0, NULL));
  PetscCall(PetscOptionsReal("-h", "the time step (drift)", NULL, h, &h, NULL));
  PetscCall(PetscOptionsInt("-steps", "the number of steps (drift)", NULL, steps, &steps, NULL));
  PetscOptionsEnd();
  FourBarSetUp(&fb, 1.0);
  if (!strcmp(check, "drift")) {
    Watch w = {
      &fb, 0, 0, 0, {0, 0},
          0, steps
    };
    PetscLogDouble t0, t1;
    char           scheme[64] = "simpson";

    PetscCall(PetscOptionsGetString(NULL, NULL, "-ts_simpvi_type", scheme, sizeof(scheme), NULL));
    PetscCall(PetscTime(&t0));
    PetscCall(Run(&fb, omega0, NULL, h, steps, &w, uend));
    PetscCall(PetscTime(&t1));
    PetscCall(PetscInfo(NULL, "%s, %" PetscInt_FMT " steps of %g in %g s: max |g(q)| %g, max |G(q) M^-1 p| %g, relative energy error in the first and second halves %g %g, crank turns %g\n", scheme, steps, (double)h, (double)(t1 - t0), (double)w.gmax,
                        (double)w.hmax, (double)w.e[0], (double)w.e[1], (double)(w.angle / (2 * PETSC_PI))));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "Four-bar linkage, %s, %" PetscInt_FMT " steps of h = %g\n", scheme, steps, (double)h));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "the crank turns full circles (more than 1 turn per 10 time units): %s\n", PetscAbsReal(w.angle) / (2 * PETSC_PI) > steps * h / 10 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "|g(q)| <= 1e-12 at every step: %s\n", w.gmax <= 1e-12 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "hidden constraint |G(q) M^-1 p| <= 1e-11 at every step: %s\n", w.hmax <= 1e-11 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "energy error below 1e-5 and bounded (second half at most twice the first): %s\n", w.e[0] <= 1e-5 && w.e[1] <= 1e-5 && w.e[1] <= 2 * w.e[0] ? "yes" : "no"));
  } else if (!strcmp(check, "order")) { /* T/N for N = 20, 40, 80 against lobatto at T/1280 */
    const char     *schemes[2] = {"simpson", "lobatto"};
    const PetscReal least[2]   = {3.9, 5.8};
    PetscReal       T          = 1, ref[2 * NQ];

    PetscCall(PetscOptionsGetReal(NULL, NULL, "-T", &T, NULL));
    PetscCall(Run(&fb, omega0, "lobatto", T / 1280, 1280, NULL, ref));
    for (PetscInt sc = 0; sc < 2; sc++) {
      PetscReal e[3], p0, p1;

      for (PetscInt l = 0; l < 3; l++) {
        PetscCall(Run(&fb, omega0, schemes[sc], T / (20 << l), 20 << l, NULL, uend));
        e[l] = Distance(2 * NQ, uend, ref);
      }
      p0 = PetscLog2Real(e[0] / e[1]);
      p1 = PetscLog2Real(e[1] / e[2]);
      PetscCall(PetscInfo(NULL, "%s: errors %g %g %g, orders %g %g\n", schemes[sc], (double)e[0], (double)e[1], (double)e[2], (double)p0, (double)p1));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: observed order >= %g against the fine-step reference: %s\n", schemes[sc], (double)least[sc], PetscMin(p0, p1) >= least[sc] ? "yes" : "no"));
    }
  } else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Unknown -check %s: drift or order", check);
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: simpson
    args: -ts_simpvi_type simpson

  test:
    suffix: lobatto
    args: -ts_simpvi_type lobatto

  test:
    suffix: order
    args: -check order

TEST*/
