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
*/
#include <simpvi.h>

#define NQ 4 /* B_x, B_y, C_x, C_y */
#define NG 3 /* the bars AB, BC, CD */

typedef struct {
  PetscReal m[3], g; /* the bars' masses, gravity */
  PetscReal M[2][2]; /* the mass matrix's 2 x 2 pattern (times I_2) */
} FourBar;

/* the bars: their ends (-1: pivot A, -2: pivot D, 0: B, 1: C) and lengths */
static const PetscInt bar_end[NG][2] = {
  {0, -1},
  {1, 0 },
  {1, -2}
};
static const PetscReal bar_len[NG] = {1.0, 2.5, 2.0};
static const PetscReal pivot[2][2] = {
  {0.0, 0.0},
  {2.0, 0.0}
};

static void FourBarSetUp(FourBar *fb, PetscReal g)
{
  for (PetscInt i = 0; i < 3; i++) fb->m[i] = 1;
  fb->g       = g;
  fb->M[0][0] = (fb->m[0] + fb->m[1]) / 3;
  fb->M[0][1] = fb->m[1] / 6;
  fb->M[1][0] = fb->m[1] / 6;
  fb->M[1][1] = (fb->m[1] + fb->m[2]) / 3;
}

/* V and its (constant) gradient */
static PetscReal Potential(const FourBar *fb, const PetscReal q[], PetscReal dV[])
{
  const PetscReal wB = fb->g * (fb->m[0] + fb->m[1]) / 2, wC = fb->g * (fb->m[1] + fb->m[2]) / 2;

  if (dV) {
    dV[0] = 0, dV[1] = wB;
    dV[2] = 0, dV[3] = wC;
  }
  return wB * q[1] + wC * q[3];
}

static void MassMult(const FourBar *fb, const PetscReal v[], PetscReal p[])
{
  for (PetscInt i = 0; i < 2; i++)
    for (PetscInt c = 0; c < 2; c++) p[2 * i + c] = fb->M[i][0] * v[c] + fb->M[i][1] * v[2 + c];
}

static void MassSolve(const FourBar *fb, const PetscReal p[], PetscReal v[])
{
  const PetscReal det = fb->M[0][0] * fb->M[1][1] - fb->M[0][1] * fb->M[1][0];

  for (PetscInt c = 0; c < 2; c++) {
    v[c]     = (fb->M[1][1] * p[c] - fb->M[0][1] * p[2 + c]) / det;
    v[2 + c] = (fb->M[0][0] * p[2 + c] - fb->M[1][0] * p[c]) / det;
  }
}

/* the pointwise door: L = 1/2 v' M v - V(q) at npts points */
static PetscErrorCode Mechanics(TS ts, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  const FourBar *fb = (const FourBar *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < npts; k++) {
    const PetscReal *q = x + k * n, *w = v + k * n;
    PetscReal        Mw[NQ], dV[NQ], V = Potential(fb, q, dV);

    MassMult(fb, w, Mw);
    if (L) {
      L[k] = -V;
      for (PetscInt j = 0; j < n; j++) L[k] += 0.5 * w[j] * Mw[j];
    }
    for (PetscInt j = 0; j < n; j++) {
      if (P) P[k * n + j] = Mw[j];
      if (G) G[k * n + j] = -dV[j];
    }
    if (Px) {
      PetscCall(PetscArrayzero(Px + k * n * n, n * n));
      PetscCall(PetscArrayzero(Gx + k * n * n, n * n));
      PetscCall(PetscArrayzero(Gv + k * n * n, n * n));
      PetscCall(PetscArrayzero(Pv + k * n * n, n * n));
      for (PetscInt i = 0; i < 2; i++)
        for (PetscInt l = 0; l < 2; l++)
          for (PetscInt c = 0; c < 2; c++) Pv[k * n * n + (2 * i + c) * n + 2 * l + c] = fb->M[i][l];
    }
  }
  PetscFunctionReturn(0);
}

/* the end e of bar r: a joint's coordinates in q, or a pivot (index -1 in q) */
static const PetscReal *BarEnd(const PetscReal q[], PetscInt r, PetscInt e, PetscInt *col)
{
  const PetscInt j = bar_end[r][e];

  *col = j >= 0 ? 2 * j : -1;
  return j >= 0 ? q + 2 * j : pivot[-j - 1];
}

/* g_r = (|P - Q|^2 - l_r^2)/2, G_r = (P - Q) on P's columns and -(P - Q) on Q's, H = sum_r lambda_r [I -I; -I I] */
static PetscErrorCode Lengths(TS ts, PetscInt n, PetscInt m, const PetscReal q[], const PetscReal lambda[], PetscReal g[], PetscReal G[], PetscReal H[], void *ctx)
{
  PetscFunctionBeginUser;
  if (G) PetscCall(PetscArrayzero(G, m * n));
  if (H) PetscCall(PetscArrayzero(H, n * n));
  for (PetscInt r = 0; r < m; r++) {
    PetscInt         a, b;
    const PetscReal *P = BarEnd(q, r, 0, &a), *Q = BarEnd(q, r, 1, &b);
    const PetscReal  d[2] = {P[0] - Q[0], P[1] - Q[1]};

    if (g) g[r] = 0.5 * (d[0] * d[0] + d[1] * d[1] - bar_len[r] * bar_len[r]);
    for (PetscInt c = 0; c < 2; c++) {
      if (G) {
        if (a >= 0) G[r * n + a + c] = d[c];
        if (b >= 0) G[r * n + b + c] = -d[c];
      }
      if (H) {
        if (a >= 0) H[(a + c) * n + a + c] += lambda[r];
        if (b >= 0) H[(b + c) * n + b + c] += lambda[r];
        if (a >= 0 && b >= 0) {
          H[(a + c) * n + b + c] -= lambda[r];
          H[(b + c) * n + a + c] -= lambda[r];
        }
      }
    }
  }
  PetscFunctionReturn(0);
}

/* The start: the crank upright (B = (0,1)), C on the circles about B and D on the left of B -> D, the crank turning at
   omega0 and the joints' velocities on the hidden constraint: (C - B).(C' - B') = 0, (C - D).C' = 0 */
static void InitialState(const FourBar *fb, PetscReal omega0, PetscReal u[])
{
  PetscReal      *q = u, *p = u + NQ, v[NQ];
  const PetscReal B[2] = {0, 1}, *D = pivot[1], dx = D[0] - B[0], dy = D[1] - B[1], dd = PetscSqrtReal(dx * dx + dy * dy);
  const PetscReal l2 = bar_len[1], l3 = bar_len[2], s = (l2 * l2 - l3 * l3 + dd * dd) / (2 * dd), hgt = PetscSqrtReal(l2 * l2 - s * s);
  PetscReal       a[2][2], rhs[2], det;

  q[0] = B[0], q[1] = B[1];
  q[2] = B[0] + (s * dx - hgt * dy) / dd;
  q[3] = B[1] + (s * dy + hgt * dx) / dd;
  v[0] = -omega0 * B[1], v[1] = omega0 * B[0];
  a[0][0] = q[2] - q[0], a[0][1] = q[3] - q[1], rhs[0] = a[0][0] * v[0] + a[0][1] * v[1];
  a[1][0] = q[2] - D[0], a[1][1] = q[3] - D[1], rhs[1] = 0;
  det  = a[0][0] * a[1][1] - a[0][1] * a[1][0];
  v[2] = (rhs[0] * a[1][1] - a[0][1] * rhs[1]) / det;
  v[3] = (a[0][0] * rhs[1] - a[1][0] * rhs[0]) / det;
  MassMult(fb, v, p);
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

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, "simpson"));
  PetscCall(TSSimpVISetPointwiseLagrangian(ts, Mechanics, fb));
  PetscCall(TSSimpVISetConstraints(ts, NG, Lengths, NULL));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * NQ, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  InitialState(fb, omega0, u);
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
