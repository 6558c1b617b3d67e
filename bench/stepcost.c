static char help[] = "Wall time of TSSIMPVI against PETSc's own TS types on the same problems, measured side by side (issue 13).\n"
                     "Problems (-problem): pendulum (q'' = -sin q, mechanical door; PETSc's types get U = (q, p) and a hand-written\n"
                     "RHS), pendulum_i2 (the same through TSSetI2Function()/TSSetI2Jacobian() for TSSIMPVI and alpha2; rk4 and irk get\n"
                     "the pendulum's U = (q, p) and RHS, as their users write it), double (the nonlinear double pendulum,\n"
                     "mechanical door with M(q); PETSc's types get a hand-written Hamiltonian RHS), chain\n"
                     "(-n masses on linear springs with fixed ends, through the I2 door, for TSSIMPVI and alpha2; -linear declares it\n"
                     "TS_LINEAR, TSSetProblemType(), for both), fput (-n unequal masses on FPUT-beta springs, -beta, through the I2\n"
                     "door, for TSSIMPVI and alpha2: examples/models/fputchain.h), pendulum_split (the pendulum as a\n"
                     "TSBASICSYMPLECTIC program writes it: TSRHSSplitSetIS() and TSRHSSplitSetRHSFunction() for \"position\" q' = p and\n"
                     "\"momentum\" p' = -sin q; TSSIMPVI reads it through its split door, basicsymplectic as written).\n"
                     "Modes (-mode): step: every method at the same h (-h, -steps), time per step; target: for every method the\n"
                     "largest h = T/N on a geometric grid of N (ratio 2^(1/4)) whose relative energy error sup |H - H0|/|H0| over\n"
                     "[0, T] is at most -tol, then its time. Runs are interleaved (every method once per round, -rounds rounds), the\n"
                     "medians printed with their ratios to the first method of -methods.\n"
                     "Methods (-methods, comma separated): simpson, lobatto[:s], gauss[:s], midpoint, any simpvi scheme, with +snes to\n"
                     "force the SNES path (-ts_simpvi_small_limit 0), @pw for the pendulums through TSSimpVISetPointwiseLagrangian()\n"
                     "(e.g. lobatto:5@pw) and @lag through the Lagrangian door (TSSimpVISetLagrangian(), its Hessians in MATSEQDENSE\n"
                     "matrices filled by MatDenseGetArrayWrite()); rk4, theta (theta 1/2), irk (-ts_irk_nstages 3, Gauss), alpha2, bsi1..bsi4\n"
                     "(-ts_basicsymplectic_type k; pendulum_split only).\n"
                     "Speed of light (-light, default true; the pendulum and the double pendulum): each simpvi row's time per step beside\n"
                     "that of its arithmetic, timed in the same rounds: the same steps redone in plain C on arrays (bench/speedoflight.h)\n"
                     "with no PETSc object, from a trace of the run (a run of its own, not timed): per step the run's Newton iterations,\n"
                     "each a residual (the quadrature points x_k, v_k; the model's P, G there, the pointwise functions of\n"
                     "examples/models/; the residual's sums with the scheme's tables, TSSimpVIGetTableau()) and a triangular solve, and\n"
                     "the run's new Jacobians at the iterates where it made them (the model's derivatives, the Jacobian's sums, dense LU),\n"
                     "then q1 = q0 + Z_s, p1 = p0 + h sum w_k G_k. Printed: both times per step, their ratio, the run's residuals,\n"
                     "Jacobians and solves per step, the loop's flops per step (from the sizes, the model's own left out) and its end\n"
                     "state against the run's (the same arithmetic: round-off), and rk4's time over the arithmetic's.\n"
                     "The model (-model, default true; the pendulum and the double pendulum): per step, the calls of the user's\n"
                     "functions that each run made (rk4's right-hand side; the pointwise door's points without and with derivatives;\n"
                     "the mechanical door's mass, potential gradient and Hessian callbacks; the Lagrangian door's L and Hessian), each kind timed alone in a loop as the\n"
                     "library calls it, their time per step, the step's time over it, and rk4's time over it (the ratio rk4 / row if\n"
                     "the row's library cost nothing: the most any work on the library could give).\n"
                     "Example: bench/stepcost -problem pendulum -mode target -tol 1e-9 -T 1000 -methods lobatto:4,rk4,irk\n\n";

#include <simpvi.h>
#include <petsctime.h>
#include "../examples/models/pendulum.h"
#include "../examples/models/doublependulum.h"
#include "speedoflight.h"
#include "../examples/models/fputchain.h"

typedef enum {
  PENDULUM,
  PENDULUM_I2,
  DOUBLE,
  CHAIN,
  PENDULUM_SPLIT,
  FPUT
} Problem;
static const char *const Problems[] = {"pendulum", "pendulum_i2", "double", "chain", "pendulum_split", "fput", "Problem", "", NULL};

typedef struct {
  Problem   problem;
  PetscInt  n;      /* chain, fput: masses */
  PetscBool linear; /* chain, fput: declared TS_LINEAR (for every method) */
  PetscReal q0;     /* pendulum: start angle */
  Problem   run;    /* the problem as the running method takes it: pendulum_i2 is pendulum for rk4 and irk */
  PetscReal H0, eH; /* energy at t = 0, sup of the relative error */
  FPUTChain fput;   /* fput: the chain (-n, -beta) */
} Ctx;

/* ---- the double pendulum (examples/ex2.c's, m = l = 1, g = 9.81: examples/models/doublependulum.h) ---- */
static DoublePendulum dpm = {1, 1, 1, 1, 9.81};

/* ---- the trace of a simpvi run on the pendulums for the speed-of-light column (bench/speedoflight.h): per step, its
   Newton iterations (the TS's counters) and the iterates at which it made a Jacobian, seen by the model's callbacks.
   The mechanical door: the potential's gradient at every quadrature point of each new iterate x_k, its Hessian for a
   Jacobian at the last iterate evaluated. The pointwise door: the SNES's monitor after each residual evaluation, and
   the model's derivatives (Px..Gv) at the points of the last call (at x_k, monitored) or at new points (at x_k+1, the
   residual evaluation that gives them). Calls at one point (simpvi's estimate of the stiffness at the start) are no
   step's. ---- */
static struct {
  PetscBool  on, pointwise;
  Light     *light;
  PetscReal *counts;          /* the run's residuals, Jacobians, solves */
  PetscInt   nq;              /* the quadrature points */
  PetscInt   snesits, kspits; /* the TS's counters at the end of the last step */
  PetscInt   evals, potcalls; /* this step's: residual evaluations, calls of the potential's gradient */
  PetscInt64 jacat;           /* this step's: bit k, a Jacobian made at x_k */
  PetscReal  lastx[64];       /* the pointwise door: the points of the last residual evaluation */
  char       failed[256];     /* why the run could not be traced (a step the loop does not redo) */
} trace;

/* ---- the model column (the pendulums): the user's functions that each run called, counted in every run (an increment
   a call); each kind then timed alone in a loop, called as the library calls it (bench/stepcost.c's ModelTimes()) ---- */
typedef enum {
  CALL_RHS,      /* the right-hand side of U = (q, p) (rk4) */
  CALL_POINTS,   /* the pointwise door: points without derivatives */
  CALL_POINTSD,  /* the pointwise door: points with derivatives (for a Jacobian) */
  CALL_MASS,     /* the mechanical door: the mass callback (M, Mx, Mxx, g) */
  CALL_GRADIENT, /* the mechanical door: the potential and its gradient */
  CALL_HESSIAN,  /* the mechanical door: the potential's Hessian */
  CALL_LAG,      /* the Lagrangian door: L and its gradients */
  CALL_LAGHESS,  /* the Lagrangian door: L's Hessians */
  CALL_KINDS
} CallKind;
static const char *const CallNames[] = {"rhs", "points", "points+d", "mass", "grad V", "hess V", "L", "hess L"};
static PetscInt64        calls[CALL_KINDS];

/* a Jacobian at x_k */
static void TraceJacobian(PetscInt k)
{
  if (k >= 0 && k < 62) trace.jacat |= (PetscInt64)1 << k;
}

/* the pointwise door's call at the points x: derivatives at the last iterate monitored, or at a new one */
static void TracePointwise(PetscInt len, const PetscReal x[], PetscBool derivatives)
{
  PetscBool same = (PetscBool)(trace.evals > 0);

  for (PetscInt j = 0; j < len && same; j++) same = (PetscBool)(x[j] == trace.lastx[j]);
  if (derivatives) TraceJacobian(same ? trace.evals - 1 : trace.evals);
  for (PetscInt j = 0; j < len; j++) trace.lastx[j] = x[j];
}

static PetscErrorCode TraceMonitor(SNES snes, PetscInt it, PetscReal fnorm, void *ctx)
{
  PetscFunctionBeginUser;
  if (trace.on && trace.pointwise) trace.evals++;
  PetscFunctionReturn(0);
}

/* both pendulums through TSSimpVISetPointwiseLagrangian() (the models' pointwise forms), for the @pw methods */
static PetscErrorCode Pointwise(TS ts, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  PetscFunctionBeginUser;
  calls[Px ? CALL_POINTSD : CALL_POINTS] += npts;
  if (trace.on && npts == trace.nq && npts * n <= 64) TracePointwise(npts * n, x, (PetscBool)(Px != NULL));
  if (n == 1) PetscCall(PendulumPointwise(ts, npts, n, t, x, v, L, P, G, Px, Pv, Gx, Gv, NULL));
  else PetscCall(DoublePendulumPointwise(ts, npts, n, t, x, v, L, P, G, Px, Pv, Gx, Gv, &dpm));
  PetscFunctionReturn(0);
}

/* the mechanical door's potential (the double pendulum's with its context), traced */
static PetscErrorCode TracedPotential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  PetscFunctionBeginUser;
  calls[CALL_GRADIENT]++;
  if (trace.on) {
    trace.potcalls++;
    trace.evals = (trace.potcalls + trace.nq - 1) / trace.nq;
  }
  if (ctx) PetscCall(DoublePendulumPotential(ts, t, x, V, g, ctx));
  else PetscCall(Potential(ts, t, x, V, g, ctx));
  PetscFunctionReturn(0);
}

/* The matrices the library last gave the double pendulum's mass (M, Mx, Mxx) and Hessian (K) callbacks, referenced:
   ModelTimes() times the calls on them, as the runs made them (on its points path the library gives its own copies of
   the problem's matrices, whose array functions PETSc 3.18 finds faster) */
static Mat seen[7]; /* M, Mx, Mxx, K; the Lagrangian door's Lxx, Lvx, Lvv */

static PetscErrorCode SeenNew(PetscInt b, Mat A)
{
  PetscFunctionBeginUser;
  PetscCall(PetscObjectReference((PetscObject)A));
  PetscCall(MatDestroy(&seen[b]));
  seen[b] = A;
  PetscFunctionReturn(0);
}
#define Seen(b, A) ((A) == seen[b] ? 0 : SeenNew(b, A)) /* no call where nothing is new: the runs are timed */

static PetscErrorCode TracedPotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  PetscFunctionBeginUser;
  calls[CALL_HESSIAN]++;
  if (trace.on) TraceJacobian(trace.evals - 1);
  if (ctx) {
    PetscCall(Seen(3, H));
    PetscCall(DoublePendulumPotentialHessian(ts, t, x, H, ctx));
  } else PetscCall(PotentialHessian(ts, t, x, H, ctx));
  PetscFunctionReturn(0);
}

/* the double pendulum's mass callback (examples/models/doublependulum.h), counted */
static PetscErrorCode CountedMass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  PetscFunctionBeginUser;
  calls[CALL_MASS]++;
  PetscCall(Seen(0, M));
  PetscCall(Seen(1, Mx));
  PetscCall(Seen(2, Mxx));
  PetscCall(DoublePendulumMass(ts, x, v, M, Mx, g, Mxx, ctx));
  PetscFunctionReturn(0);
}

/* The Lagrangian door as a user writes it from a model's pointwise form (examples/models/): L, Lx = G, Lv = P at one
   point, and L's Hessians Lxx = Gx, Lvx = Px, Lvv = Pv through MatDenseGetArrayWrite(). d from the Vec's size: the
   pendulum (1) or the double pendulum (2) */
static PetscErrorCode PointOf(Vec x, Vec v, PetscInt *d, PetscReal q[2], PetscReal u[2])
{
  const PetscScalar *a, *b;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, d));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayRead(v, &b));
  for (PetscInt j = 0; j < *d; j++) {
    q[j] = PetscRealPart(a[j]);
    u[j] = PetscRealPart(b[j]);
  }
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(VecRestoreArrayRead(v, &b));
  PetscFunctionReturn(0);
}

static PetscErrorCode ModelPoint(PetscInt d, PetscReal t, const PetscReal q[], const PetscReal u[], PetscReal *L, PetscReal P[], PetscReal G[], PetscReal D[4][4])
{
  PetscFunctionBeginUser;
  if (d == 1) PetscCall(PendulumPointwise(NULL, 1, 1, &t, q, u, L, P, G, D ? D[0] : NULL, D ? D[1] : NULL, D ? D[2] : NULL, D ? D[3] : NULL, NULL));
  else PetscCall(DoublePendulumPointwise(NULL, 1, 2, &t, q, u, L, P, G, D ? D[0] : NULL, D ? D[1] : NULL, D ? D[2] : NULL, D ? D[3] : NULL, &dpm));
  PetscFunctionReturn(0);
}

static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  PetscInt     d;
  PetscReal    q[2], u[2], P[2], G[2], l;
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(PointOf(x, v, &d, q, u));
  PetscCall(ModelPoint(d, t, q, u, &l, P, G, NULL));
  *L = l;
  PetscCall(VecGetArrayWrite(Lx, &a));
  for (PetscInt j = 0; j < d; j++) a[j] = G[j];
  PetscCall(VecRestoreArrayWrite(Lx, &a));
  PetscCall(VecGetArrayWrite(Lv, &a));
  for (PetscInt j = 0; j < d; j++) a[j] = P[j];
  PetscCall(VecRestoreArrayWrite(Lv, &a));
  PetscFunctionReturn(0);
}

static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  const PetscInt from[3] = {2, 0, 1}; /* Lxx from Gx, Lvx from Px, Lvv from Pv */
  Mat            A[3]    = {Lxx, Lvx, Lvv};
  PetscInt       d;
  PetscReal      q[2], u[2], P[2], G[2], D[4][4];

  PetscFunctionBeginUser;
  PetscCall(PointOf(x, v, &d, q, u));
  PetscCall(ModelPoint(d, t, q, u, NULL, P, G, D));
  for (PetscInt b = 0; b < 3; b++) {
    PetscScalar *a;

    PetscCall(MatDenseGetArrayWrite(A[b], &a)); /* column-major */
    for (PetscInt r = 0; r < d; r++)
      for (PetscInt c = 0; c < d; c++) a[c * d + r] = D[from[b]][r * d + c];
    PetscCall(MatDenseRestoreArrayWrite(A[b], &a));
  }
  PetscFunctionReturn(0);
}

/* the Lagrangian door's callbacks, counted and traced as the potential's (one call a quadrature point of each residual,
   the Hessians at each point of a Jacobian) */
static PetscErrorCode TracedLagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  PetscFunctionBeginUser;
  calls[CALL_LAG]++;
  if (trace.on) {
    trace.potcalls++;
    trace.evals = (trace.potcalls + trace.nq - 1) / trace.nq;
  }
  PetscCall(Lagrangian(ts, t, x, v, L, Lx, Lv, ctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode TracedLagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  PetscFunctionBeginUser;
  calls[CALL_LAGHESS]++;
  if (trace.on) TraceJacobian(trace.evals - 1);
  PetscCall(Seen(4, Lxx));
  PetscCall(Seen(5, Lvx));
  PetscCall(Seen(6, Lvv));
  PetscCall(LagrangianHessian(ts, t, x, v, Lxx, Lvx, Lvv, ctx));
  PetscFunctionReturn(0);
}

/* U' = (dH/dp, -dH/dq) with H = 1/2 p' M(q)^-1 p + V(q), written out as a PETSc user would */
static void DPRHS(const PetscReal u[4], PetscReal f[4])
{
  PetscReal M[2][2], det, v[2], sd = PetscSinReal(u[0] - u[1]), w[2];

  DoublePendulumMassMatrix(&dpm, u[0], u[1], M);
  DoublePendulumGravity(&dpm, w);
  det  = M[0][0] * M[1][1] - M[0][1] * M[1][0];
  v[0] = (M[1][1] * u[2] - M[0][1] * u[3]) / det;
  v[1] = (-M[1][0] * u[2] + M[0][0] * u[3]) / det;
  f[0] = v[0];
  f[1] = v[1];
  /* -dH/dq_j = 1/2 v' dM/dq_j v - dV/dq_j, dM12/dq1 = -sin d = -dM12/dq2 */
  f[2] = -sd * v[0] * v[1] - w[0] * PetscSinReal(u[0]);
  f[3] = sd * v[0] * v[1] - w[1] * PetscSinReal(u[1]);
}

/* ---- PETSc-side right-hand sides on U = (q, p) ---- */
static PetscErrorCode RHSFunction(TS ts, PetscReal t, Vec U, Vec F, void *ptr)
{
  Ctx               *ctx = (Ctx *)ptr;
  const PetscScalar *u;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  calls[CALL_RHS]++;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayWrite(F, &f));
  if (ctx->run == PENDULUM) {
    f[0] = u[1];
    f[1] = -PetscSinReal(u[0]);
  } else DPRHS(u, f);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

/* the pendulum as a TSBASICSYMPLECTIC program gives it: q' = f(p) = p on the "position" split, p' = g(q) = -sin q on
   the "momentum" split, each called with the other half of U */
static PetscErrorCode SplitPosition(TS ts, PetscReal t, Vec p, Vec qdot, void *ptr)
{
  PetscFunctionBeginUser;
  PetscCall(VecCopy(p, qdot));
  PetscFunctionReturn(0);
}

static PetscErrorCode SplitMomentum(TS ts, PetscReal t, Vec q, Vec pdot, void *ptr)
{
  const PetscScalar *a;
  PetscScalar       *b;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(q, &a));
  PetscCall(VecGetArrayWrite(pdot, &b));
  b[0] = -PetscSinScalar(a[0]);
  PetscCall(VecRestoreArrayRead(q, &a));
  PetscCall(VecRestoreArrayWrite(pdot, &b));
  PetscFunctionReturn(0);
}

/* the pendulum's Jacobian exactly; the double pendulum's by central differences of DPRHS (round-off 1e-10) */
static PetscErrorCode RHSJacobian(TS ts, PetscReal t, Vec U, Mat A, Mat B, void *ptr)
{
  Ctx               *ctx = (Ctx *)ptr;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  if (ctx->run == PENDULUM) {
    const PetscInt    idx[2]  = {0, 1};
    const PetscScalar vals[4] = {0, 1, -PetscCosReal(u[0]), 0}; /* every entry: PETSc shifts this matrix in place */

    PetscCall(MatSetValues(B, 2, idx, 2, idx, vals, INSERT_VALUES));
  } else {
    PetscReal up[4], um[4], fp[4], fm[4], e = 1e-6;

    for (PetscInt j = 0; j < 4; j++) {
      for (PetscInt i = 0; i < 4; i++) up[i] = um[i] = u[i];
      up[j] += e;
      um[j] -= e;
      DPRHS(up, fp);
      DPRHS(um, fm);
      for (PetscInt i = 0; i < 4; i++) PetscCall(MatSetValue(B, i, j, (fp[i] - fm[i]) / (2 * e), INSERT_VALUES));
    }
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  if (A != B) {
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* The implicit form F = U' - f(U), J = shift I - df/dU, which implicit users write (and which spares PETSc's in-place
   shift of an RHS Jacobian) */
static PetscErrorCode IFunction(TS ts, PetscReal t, Vec U, Vec Udot, Vec F, void *ptr)
{
  PetscFunctionBeginUser;
  PetscCall(RHSFunction(ts, t, U, F, ptr));
  PetscCall(VecAYPX(F, -1, Udot));
  PetscFunctionReturn(0);
}

static PetscErrorCode IJacobian(TS ts, PetscReal t, Vec U, Vec Udot, PetscReal shift, Mat A, Mat B, void *ptr)
{
  PetscFunctionBeginUser;
  PetscCall(RHSJacobian(ts, t, U, A, B, ptr));
  PetscCall(MatScale(B, -1));
  PetscCall(MatShift(B, shift));
  PetscFunctionReturn(0);
}

/* ---- the chain M a + K u = 0: unit masses, unit springs, fixed ends ---- */
static PetscErrorCode ChainI2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ptr)
{
  Ctx               *ctx = (Ctx *)ptr;
  const PetscScalar *u, *a;
  PetscScalar       *f;
  const PetscInt     n = ctx->n;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayWrite(F, &f));
  for (PetscInt i = 0; i < n; i++) f[i] = a[i] + 2 * u[i] - (i > 0 ? u[i - 1] : 0) - (i < n - 1 ? u[i + 1] : 0);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode ChainI2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ptr)
{
  Ctx           *ctx = (Ctx *)ptr;
  const PetscInt n   = ctx->n;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt    cols[3], k = 0;
    PetscScalar vals[3];

    if (i > 0) {
      cols[k]   = i - 1;
      vals[k++] = -1;
    }
    cols[k]   = i;
    vals[k++] = 2 + shiftA;
    if (i < n - 1) {
      cols[k]   = i + 1;
      vals[k++] = -1;
    }
    PetscCall(MatSetValues(P, 1, &i, k, cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* ---- energy ---- */
static PetscErrorCode Energy(TS ts, Ctx *ctx, Vec U, PetscReal *H)
{
  const PetscScalar *u, *v;
  Vec                X, V;

  PetscFunctionBeginUser;
  switch (ctx->run) {
  case PENDULUM:
  case PENDULUM_SPLIT:
    PetscCall(VecGetArrayRead(U, &u));
    *H = 0.5 * u[1] * u[1] - PetscCosReal(u[0]);
    PetscCall(VecRestoreArrayRead(U, &u));
    break;
  case DOUBLE:
    PetscCall(VecGetArrayRead(U, &u));
    {
      PetscReal uu[4] = {u[0], u[1], u[2], u[3]};

      *H = DoublePendulumEnergy(&dpm, uu);
    }
    PetscCall(VecRestoreArrayRead(U, &u));
    break;
  case FPUT:
    PetscCall(TS2GetSolution(ts, &X, &V));
    PetscCall(FPUTChainEnergy(&ctx->fput, X, V, H));
    break;
  case PENDULUM_I2:
  case CHAIN:
    PetscCall(TS2GetSolution(ts, &X, &V));
    PetscCall(VecGetArrayRead(X, &u));
    PetscCall(VecGetArrayRead(V, &v));
    if (ctx->run == PENDULUM_I2) *H = 0.5 * v[0] * v[0] - PetscCosReal(u[0]);
    else {
      *H = 0;
      for (PetscInt i = 0; i < ctx->n; i++) *H += 0.5 * v[i] * v[i] + 0.5 * (u[i] - (i > 0 ? u[i - 1] : 0)) * (u[i] - (i > 0 ? u[i - 1] : 0));
      *H += 0.5 * u[ctx->n - 1] * u[ctx->n - 1];
    }
    PetscCall(VecRestoreArrayRead(X, &u));
    PetscCall(VecRestoreArrayRead(V, &v));
    break;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MonitorEnergy(TS ts, PetscInt step, PetscReal t, Vec U, void *ptr)
{
  Ctx      *ctx = (Ctx *)ptr;
  PetscReal H;

  PetscFunctionBeginUser;
  PetscCall(Energy(ts, ctx, U, &H));
  ctx->eH = PetscMax(ctx->eH, PetscAbsReal(H - ctx->H0) / PetscAbsReal(ctx->H0));
  PetscFunctionReturn(0);
}

/* ---- one run ---- */
typedef struct {
  char       name[64];
  char       scheme[32]; /* simpvi scheme, or "" */
  PetscInt   degree;     /* 0: the scheme's default */
  PetscBool  snes;       /* simpvi: force the SNES path */
  PetscBool  pointwise;  /* simpvi: TSSimpVISetPointwiseLagrangian() rather than the mechanical door (name@pw) */
  PetscBool  lagrangian; /* simpvi: TSSimpVISetLagrangian() (name@lag) */
  PetscInt   nsteps;     /* target mode: the chosen N */
  PetscBool  unmet;      /* target mode: not met with -Nmax steps (its time there is a lower bound) */
  PetscReal  eH;
  PetscReal *times;
  /* the speed-of-light column (simpvi on the pendulums): the trace and the arithmetic redone, its times, the run's
     counts (residuals, Jacobians, solves), its start and end states */
  Light     *light;
  PetscReal *lighttimes, counts[3], ustart[4], uend[4], lightdiff;
  PetscInt64 calls[CALL_KINDS]; /* the model column: the user's functions called by the last run */
} Method;

/* After each step of a traced run: its Newton iterations and Jacobians into the trace */
static PetscErrorCode TraceStep(TS ts)
{
  Light   *L = trace.light;
  SNES     snes;
  PetscInt step, snesits, kspits, nfuncs, its, njac = 0;

  PetscFunctionBeginUser;
  PetscCall(TSGetStepNumber(ts, &step));
  PetscCall(TSGetSNESIterations(ts, &snesits));
  PetscCall(TSGetKSPIterations(ts, &kspits));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetNumberFunctionEvals(snes, &nfuncs));
  its = snesits - trace.snesits;
  if (!trace.failed[0] && !(step >= 1 && step <= L->nsteps && its < 62 && trace.evals == nfuncs && (nfuncs == its + 1 || (its && nfuncs == its)))) /* (a line search, a failed step) */
    PetscCall(
      PetscSNPrintf(trace.failed, sizeof(trace.failed), "step %" PetscInt_FMT " of %" PetscInt_FMT ": the model saw %" PetscInt_FMT " residual evaluations, the SNES counted %" PetscInt_FMT " in %" PetscInt_FMT " iterations", step, L->nsteps, trace.evals, nfuncs, its));
  if (trace.failed[0]) PetscFunctionReturn(0);
  L->its[step - 1]   = its;
  L->jacat[step - 1] = trace.jacat & (((PetscInt64)1 << its) - 1); /* one made at the last iterate serves no solve */
  L->early[step - 1] = (PetscBool)(nfuncs == its);                 /* its last update accepted on itself */
  for (PetscInt k = 0; k < its; k++) njac += (PetscInt)(L->jacat[step - 1] >> k & 1);
  trace.counts[0] += nfuncs;
  trace.counts[1] += njac;
  trace.counts[2] += kspits - trace.kspits;
  trace.snesits = snesits;
  trace.kspits  = kspits;
  trace.evals = trace.potcalls = 0;
  trace.jacat                  = 0;
  PetscFunctionReturn(0);
}

/* Starts the trace of a simpvi run set up on the pendulum (n = 1) or the double pendulum (n = 2) with steps h */
static PetscErrorCode TraceBegin(TS ts, Method *m, PetscInt n, PetscReal h, PetscInt nsteps)
{
  SNES snes;

  PetscFunctionBeginUser;
  PetscCall(LightDestroy(&m->light));
  PetscCall(LightCreate(ts, n, h, nsteps, n == 1 ? PendulumPointwise : DoublePendulumPointwise, n == 1 ? NULL : &dpm, &m->light));
  PetscCall(PetscMemzero(&trace, sizeof(trace)));
  PetscCall(TSSimpVIGetTableau(ts, NULL, &trace.nq, NULL, NULL, NULL, NULL, NULL));
  trace.on        = PETSC_TRUE;
  trace.pointwise = m->pointwise;
  trace.light     = m->light;
  trace.counts    = m->counts;
  m->counts[0] = m->counts[1] = m->counts[2] = 0;
  PetscCall(TSSetPostStep(ts, TraceStep));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESMonitorSet(snes, TraceMonitor, NULL, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUpMethod(TS ts, Ctx *ctx, const Method *m)
{
  SNES      snes;
  KSP       ksp;
  PC        pc;
  TSAdapt   adapt;
  PetscBool simpvi = (PetscBool)(m->scheme[0] != 0), isrk4, istheta, isirk, isalpha2, isbsi;

  PetscFunctionBeginUser;
  PetscCall(PetscStrncmp(m->name, "bsi", 3, &isbsi));
  PetscCall(PetscStrcmp(m->name, "rk4", &isrk4));
  PetscCall(PetscStrcmp(m->name, "theta", &istheta));
  PetscCall(PetscStrcmp(m->name, "irk", &isirk));
  PetscCall(PetscStrcmp(m->name, "alpha2", &isalpha2));
  if (simpvi) {
    PetscCall(TSSetType(ts, TSSIMPVI));
    PetscCall(TSSimpVISetType(ts, m->scheme));
    if (m->degree) PetscCall(TSSimpVISetDegree(ts, m->degree));
  } else if (isrk4) {
    PetscCall(TSSetType(ts, TSRK));
    PetscCall(TSRKSetType(ts, TSRK4));
  } else if (istheta) {
    PetscCall(TSSetType(ts, TSTHETA));
    PetscCall(TSThetaSetTheta(ts, 0.5));
  } else if (isirk) {
    PetscCall(TSSetType(ts, TSIRK));
    PetscCall(TSIRKSetType(ts, TSIRKGAUSS));
    PetscCall(TSIRKSetNumStages(ts, 3));
  } else if (isalpha2) {
    PetscCall(TSSetType(ts, TSALPHA2));
  } else if (isbsi) {
    PetscCall(TSSetType(ts, TSBASICSYMPLECTIC));
    PetscCall(TSBasicSymplecticSetType(ts, m->name + 3)); /* "1" to "4" */
  } else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Unknown method %s", m->name);
  if (!simpvi && (istheta || isirk || isalpha2)) { /* Newton to round-off with a direct solve, as TSSIMPVI does */
    PetscCall(TSGetSNES(ts, &snes));
    PetscCall(SNESSetTolerances(snes, PETSC_DEFAULT, 1e-12, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(KSPGetPC(ksp, &pc));
    if (isirk) { /* its stage system is a MATKAIJ, which LU does not take */
      PetscCall(KSPSetType(ksp, KSPGMRES));
      PetscCall(KSPSetTolerances(ksp, 1e-14, 1e-50, PETSC_DEFAULT, PETSC_DEFAULT));
      PetscCall(PCSetType(pc, PCNONE));
    } else {
      PetscCall(KSPSetType(ksp, KSPPREONLY));
      PetscCall(PCSetType(pc, PCLU));
    }
  }
  PetscCall(TSGetAdapt(ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
  if (simpvi && m->snes) { /* -ts_simpvi_small_limit 0 for this run only: the command line's value comes back after */
    char      given[64];
    PetscBool set;

    PetscCall(PetscOptionsGetString(NULL, NULL, "-ts_simpvi_small_limit", given, sizeof(given), &set));
    PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_small_limit", "0"));
    PetscCall(TSSetFromOptions(ts));
    if (set) PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_small_limit", given));
    else PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_small_limit"));
  } else PetscCall(TSSetFromOptions(ts));
  PetscFunctionReturn(0);
}

/* Integrates over [0, T] in N steps; time of TSSolve() alone (set-up before), energy error if monitored; traced (simpvi
   on the pendulum or the double pendulum): the trace of the speed-of-light column, and the start and end states */
static PetscErrorCode Run(Ctx *ctx, Method *m, PetscReal T, PetscInt N, PetscBool monitor, PetscBool traced, PetscReal *seconds, PetscReal *eH)
{
  TS                 ts;
  Vec                U, X = NULL, V = NULL;
  Mat                J = NULL, M = NULL, Mx = NULL, Mxx = NULL, K = NULL;
  PetscScalar       *u;
  const PetscScalar *ur;
  PetscLogDouble     t0, t1;
  PetscBool          simpvi = (PetscBool)(m->scheme[0] != 0), firstorder;
  const PetscInt     dim    = ctx->problem == PENDULUM ? 1 : 2; /* traced: the positions */

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(m->name, "rk4", &firstorder));
  if (!firstorder) PetscCall(PetscStrcmp(m->name, "irk", &firstorder));
  ctx->run = ctx->problem == PENDULUM_I2 && firstorder ? PENDULUM : ctx->problem;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  switch (ctx->run) {
  case PENDULUM:
  case DOUBLE: {
    const PetscInt d = ctx->run == PENDULUM ? 1 : 2;

    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * d, &U));
    PetscCall(VecGetArrayWrite(U, &u));
    if (d == 1) {
      u[0] = ctx->q0;
      u[1] = 0;
    } else {
      u[0] = PETSC_PI / 4;
      u[1] = PETSC_PI / 3;
      u[2] = u[3] = 0;
    }
    PetscCall(VecRestoreArrayWrite(U, &u));
    if (simpvi && m->pointwise) PetscCall(TSSimpVISetPointwiseLagrangian(ts, Pointwise, NULL));
    else if (simpvi && m->lagrangian) { /* Lxx, Lvx, Lvv */ PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, d, d, NULL, &M));
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, d, d, NULL, &Mx));
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, d, d, NULL, &Mxx));
      PetscCall(TSSimpVISetLagrangian(ts, TracedLagrangian, NULL));
      PetscCall(TSSimpVISetLagrangianHessian(ts, M, Mx, Mxx, TracedLagrangianHessian, NULL));
    } else if (simpvi) {
      if (d == 1) {
        PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 1, 1, 1, NULL, &M));
        PetscCall(MatSetValue(M, 0, 0, 1, INSERT_VALUES));
        PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
        PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
        PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 1, 1, 1, NULL, &K));
        PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
        PetscCall(TSSimpVISetPotential(ts, K, TracedPotential, TracedPotentialHessian, NULL));
      } else {
        PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &M));
        PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &Mx));
        PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &Mxx));
        PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &K));
        PetscCall(TSSimpVISetMass(ts, M, Mx, Mxx, CountedMass, &dpm));
        PetscCall(TSSimpVISetPotential(ts, K, TracedPotential, TracedPotentialHessian, &dpm));
      }
    } else {
      PetscBool explicit;

      PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2 * d, 2 * d, 2 * d, NULL, &J)); /* AIJ: TSIRK needs it */
      PetscCall(PetscStrcmp(m->name, "rk4", &explicit));
      if (explicit) PetscCall(TSSetRHSFunction(ts, NULL, RHSFunction, ctx));
      else {
        PetscCall(TSSetIFunction(ts, NULL, IFunction, ctx));
        PetscCall(TSSetIJacobian(ts, J, J, IJacobian, ctx));
      }
    }
    PetscCall(TSSetSolution(ts, U));
  } break;
  case PENDULUM_SPLIT: { /* every method reads the split: simpvi through its split door */
    IS isq, isp;

    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &U));
    PetscCall(VecGetArrayWrite(U, &u));
    u[0] = ctx->q0;
    u[1] = 0;
    PetscCall(VecRestoreArrayWrite(U, &u));
    PetscCall(TSSetSolution(ts, U));
    PetscCall(ISCreateStride(PETSC_COMM_SELF, 1, 0, 1, &isq));
    PetscCall(ISCreateStride(PETSC_COMM_SELF, 1, 1, 1, &isp));
    PetscCall(TSRHSSplitSetIS(ts, "position", isq));
    PetscCall(TSRHSSplitSetIS(ts, "momentum", isp));
    PetscCall(TSRHSSplitSetRHSFunction(ts, "position", NULL, SplitPosition, ctx));
    PetscCall(TSRHSSplitSetRHSFunction(ts, "momentum", NULL, SplitMomentum, ctx));
    PetscCall(ISDestroy(&isq));
    PetscCall(ISDestroy(&isp));
  } break;
  case PENDULUM_I2:
  case CHAIN: {
    const PetscInt n = ctx->run == CHAIN ? ctx->n : 1;

    PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &X));
    PetscCall(VecDuplicate(X, &V));
    PetscCall(VecSet(V, 0));
    PetscCall(VecGetArrayWrite(X, &u));
    if (n == 1) u[0] = ctx->q0;
    else
      for (PetscInt i = 0; i < n; i++) u[i] = PetscSinReal(PETSC_PI * (i + 1) / (n + 1)) + 0.1 * PetscSinReal(7 * PETSC_PI * (i + 1) / (n + 1));
    PetscCall(VecRestoreArrayWrite(X, &u));
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 3, NULL, &J));
    if (n == 1) {
      PetscCall(TSSetI2Function(ts, NULL, I2Function, NULL));
      PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, NULL));
    } else {
      PetscCall(TSSetI2Function(ts, NULL, ChainI2Function, ctx));
      PetscCall(TSSetI2Jacobian(ts, J, J, ChainI2Jacobian, ctx));
    }
    PetscCall(TS2SetSolution(ts, X, V));
    U = X;
    PetscCall(PetscObjectReference((PetscObject)U));
  } break;
  case FPUT:
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, ctx->fput.n, &X));
    PetscCall(VecDuplicate(X, &V));
    PetscCall(FPUTChainStart(&ctx->fput, X, V));
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, ctx->fput.n, ctx->fput.n, 3, NULL, &J));
    PetscCall(TSSetI2Function(ts, NULL, FPUTChainI2Function, &ctx->fput));
    PetscCall(TSSetI2Jacobian(ts, J, J, FPUTChainI2Jacobian, &ctx->fput));
    PetscCall(TS2SetSolution(ts, X, V));
    U = X;
    PetscCall(PetscObjectReference((PetscObject)U));
    break;
  }
  PetscCall(TSSetTime(ts, 0));
  PetscCall(TSSetTimeStep(ts, T / N));
  PetscCall(TSSetMaxSteps(ts, N));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (ctx->linear) PetscCall(TSSetProblemType(ts, TS_LINEAR)); /* before SetUpMethod(): TSSetType() keeps it */
  PetscCall(SetUpMethod(ts, ctx, m));
  PetscCall(TSSetErrorIfStepFails(ts, PETSC_FALSE)); /* a failed step (too large h) is an unmet tolerance */
  PetscCall(TSSetUp(ts));
  ctx->eH = 0;
  if (monitor) {
    PetscCall(Energy(ts, ctx, U, &ctx->H0));
    PetscCall(TSMonitorSet(ts, MonitorEnergy, ctx, NULL));
  }
  if (traced) { /* U = (q, p) */
    PetscCall(VecGetArrayRead(U, &ur));
    for (PetscInt j = 0; j < 2 * dim; j++) m->ustart[j] = PetscRealPart(ur[j]);
    PetscCall(VecRestoreArrayRead(U, &ur));
    PetscCall(TraceBegin(ts, m, dim, T / N, N));
  }
  PetscCall(PetscArrayzero(calls, CALL_KINDS));
  PetscCall(PetscTime(&t0));
  PetscCall(TSSolve(ts, X ? X : U));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscArraycpy(m->calls, calls, CALL_KINDS));
  if (traced) {
    trace.on = PETSC_FALSE;
    PetscCall(VecGetArrayRead(U, &ur));
    for (PetscInt j = 0; j < 2 * dim; j++) m->uend[j] = PetscRealPart(ur[j]);
    PetscCall(VecRestoreArrayRead(U, &ur));
    if (trace.failed[0]) { /* no column for this row */
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: no speed of light, its Newton iterations not traced (%s)\n", m->name, trace.failed));
      PetscCall(LightDestroy(&m->light));
    }
  }
  *seconds = t1 - t0;
  if (eH) *eH = ctx->eH;
  {
    PetscInt          steps;
    TSConvergedReason reason;

    PetscCall(TSGetStepNumber(ts, &steps));
    PetscCall(TSGetConvergedReason(ts, &reason));
    if (eH && (reason < 0 || steps != N)) *eH = PETSC_INFINITY;
    else PetscCheck(reason >= 0 && steps == N, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s took %" PetscInt_FMT " steps, not %" PetscInt_FMT, m->name, steps, N);
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&X));
  PetscCall(VecDestroy(&V));
  PetscCall(MatDestroy(&J));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&Mx));
  PetscCall(MatDestroy(&Mxx));
  PetscCall(MatDestroy(&K));
  PetscFunctionReturn(0);
}

static PetscErrorCode ParseMethod(const char spec[], Method *m)
{
  char     *colon, *plus, *at;
  PetscBool known = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(m, sizeof(*m)));
  PetscCall(PetscStrncpy(m->name, spec, sizeof(m->name)));
  PetscCall(PetscStrncpy(m->scheme, spec, sizeof(m->scheme)));
  PetscCall(PetscStrchr(m->scheme, '@', &at));
  if (at) {
    PetscCheck(!strcmp(at, "@pw") || !strcmp(at, "@lag"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Unknown door %s in %s: @pw (pointwise), @lag (Lagrangian) or none", at, spec);
    m->pointwise  = (PetscBool)!strcmp(at, "@pw");
    m->lagrangian = (PetscBool)!strcmp(at, "@lag");
    *at           = 0;
  }
  PetscCall(PetscStrchr(m->scheme, '+', &plus));
  if (plus) {
    *plus   = 0;
    m->snes = PETSC_TRUE;
  }
  PetscCall(PetscStrchr(m->scheme, ':', &colon));
  if (colon) {
    *colon    = 0;
    m->degree = atoi(colon + 1);
  }
  for (const char *const *p = (const char *const[]){"rk4", "theta", "irk", "alpha2", "bsi1", "bsi2", "bsi3", "bsi4", NULL}; *p; p++) {
    PetscBool same;

    PetscCall(PetscStrcmp(m->scheme, *p, &same));
    known = (PetscBool)(known || same);
  }
  if (known) m->scheme[0] = 0;
  PetscFunctionReturn(0);
}

static int CompareReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : x > y;
}

static PetscReal Median(PetscInt n, const PetscReal x[])
{
  PetscReal s[256];

  for (PetscInt i = 0; i < n; i++) s[i] = x[i];
  qsort(s, (size_t)n, sizeof(PetscReal), CompareReal);
  return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* The speed-of-light column: each simpvi row's time per step beside that of its arithmetic (bench/speedoflight.h) */
static PetscErrorCode PrintLight(PetscInt nmethods, Method *m, PetscInt rounds, PetscBool target)
{
  PetscBool agree = PETSC_TRUE;
  PetscReal trk4  = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  speed of light: each simpvi run's steps redone in plain C on arrays, no PETSc object (bench/speedoflight.h),\n"
                                          "  timed in the same rounds (arith.): the run's Newton iterations, each a residual (the quadrature points, the model's\n"
                                          "  P and G there by its pointwise function, the residual's sums) and an LU solve, and the run's new Jacobians at the\n"
                                          "  iterates where it made them (the model's derivatives, the Jacobian's sums, dense LU); per step the run's residual\n"
                                          "  evaluations, Jacobians and linear solves, and the loop's flops (from the sizes, the model's own left out);\n"
                                          "  rk4/arith.: rk4's time over the arithmetic's, the ratio rk4 / row if the row's step cost only its arithmetic\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-16s %12s %13s %12s  %9s %9s %7s %10s %10s %10s\n", "method", "step [us]", "arith. [us]", "step/arith.", "residuals", "Jacobians", "solves", "flops", "end state", "rk4/arith."));
  for (PetscInt i = 0; i < nmethods; i++)
    if (target && !strcmp(m[i].name, "rk4")) trk4 = Median(rounds, m[i].times); /* at equal accuracy: the target mode's */
  for (PetscInt i = 0; i < nmethods; i++) {
    PetscReal t, tl, flops;

    if (!m[i].light) continue;
    t  = 1e6 * Median(rounds, m[i].times) / m[i].nsteps;
    tl = 1e6 * Median(rounds, m[i].lighttimes) / m[i].nsteps;
    PetscCall(LightFlops(m[i].light, &flops));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-16s %12.3f %13.3f %12.2f  %9.3f %9.3f %7.3f %10.0f %10.1e", m[i].name, (double)t, (double)tl, (double)(t / tl), (double)(m[i].counts[0] / m[i].nsteps), (double)(m[i].counts[1] / m[i].nsteps),
                          (double)(m[i].counts[2] / m[i].nsteps), (double)(flops / m[i].nsteps), (double)m[i].lightdiff));
    if (trk4 > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10.2f\n", (double)(trk4 / Median(rounds, m[i].lighttimes))));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10s\n", "-"));
  }
  for (PetscInt i = 0; i < nmethods; i++) agree = (PetscBool)(agree && (!m[i].light || m[i].lightdiff <= 10 * PETSC_MACHINE_EPSILON * m[i].nsteps));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "  end state: max |(q, p) - the run's| / max(1, |q1|, |p1|) after the N steps; the arithmetic agrees with the\n"
                        "  runs to round-off (at most 10 eps per step): %s\n",
                        agree ? "yes" : "no"));
  PetscFunctionReturn(0);
}

/* The time of one call of each kind of the user's functions (per point for the pointwise door), each called alone in a
   loop as the library calls it, on 64 points cycled through (their arguments vary, as a run's do): the median of 3
   loops of 20000 calls. The pendulums only (d positions); nq: the pointwise door's points per call */
static PetscErrorCode ModelTimes(Ctx *ctx, PetscInt d, PetscInt nq, PetscReal tcall[CALL_KINDS])
{
  enum {
    NP   = 64,
    REPS = 20000
  };
  Ctx       rctx = *ctx;
  Vec       U[NP], F, x[NP], v[NP], g;
  Mat       M = NULL, Mx = NULL, Mxx = NULL, K, Lxx, Lvx, Lvv;
  Vec       Lv;
  PetscReal px[2 * (NP + 16)], pv[2 * (NP + 16)], tk[16], P[32], G[32], D[4][64], loops[CALL_KINDS][3], V;

  PetscFunctionBeginUser;
  PetscCheck(nq <= 16, PETSC_COMM_SELF, PETSC_ERR_SUP, "At most 16 points a call");
  rctx.run = d == 1 ? PENDULUM : DOUBLE;
  for (PetscInt k = 0; k < NP + 16; k++)
    for (PetscInt j = 0; j < d; j++) {
      px[d * k + j] = 0.3 + 0.01 * k - 0.5 * j;
      pv[d * k + j] = 0.5 - 0.02 * k + 0.3 * j;
    }
  for (PetscInt k = 0; k < 16; k++) tk[k] = 0;
  for (PetscInt k = 0; k < NP; k++) {
    PetscScalar *a;

    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * d, &U[k]));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, d, &x[k]));
    PetscCall(VecDuplicate(x[k], &v[k]));
    PetscCall(VecGetArrayWrite(U[k], &a));
    for (PetscInt j = 0; j < d; j++) a[j] = px[d * k + j], a[d + j] = pv[d * k + j];
    PetscCall(VecRestoreArrayWrite(U[k], &a));
    PetscCall(VecGetArrayWrite(x[k], &a));
    for (PetscInt j = 0; j < d; j++) a[j] = px[d * k + j];
    PetscCall(VecRestoreArrayWrite(x[k], &a));
    PetscCall(VecGetArrayWrite(v[k], &a));
    for (PetscInt j = 0; j < d; j++) a[j] = pv[d * k + j];
    PetscCall(VecRestoreArrayWrite(v[k], &a));
  }
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * d, &F));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, d, &g));
  PetscCall(VecDuplicate(g, &Lv));
  { /* the Lagrangian door's Hessians: those the runs' callbacks got (Seen()), else as Run() makes them */
    Mat *A[3] = {&Lxx, &Lvx, &Lvv};

    for (PetscInt b = 0; b < 3; b++) {
      if (seen[4 + b]) PetscCall(PetscObjectReference((PetscObject)(*A[b] = seen[4 + b])));
      else PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, d, d, NULL, A[b]));
    }
  }
  if (d == 1) PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 1, 1, 1, NULL, &K)); /* as Run() makes them */
  else { /* those the runs' callbacks got (Seen()), else as Run() makes them */ Mat *A[4] = {&M, &Mx, &Mxx, &K};

    for (PetscInt b = 0; b < 4; b++) {
      if (seen[b]) PetscCall(PetscObjectReference((PetscObject)(*A[b] = seen[b])));
      else PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, A[b]));
    }
  }
  for (PetscInt l = 0; l < 3; l++)
    for (PetscInt c = 0; c < CALL_KINDS; c++) {
      PetscLogDouble t0, t1;

      loops[c][l] = 0;
      if (c == CALL_MASS && d == 1) continue; /* the pendulum's mass is constant: no callback */
      PetscCall(PetscTime(&t0));
      for (PetscInt i = 0; i < REPS; i++) {
        const PetscInt k = i % NP;

        switch ((CallKind)c) {
        case CALL_RHS:
          PetscCall(RHSFunction(NULL, 0, U[k], F, &rctx));
          break;
        case CALL_POINTS:
        case CALL_POINTSD: {
          const PetscBool deriv = (PetscBool)(c == CALL_POINTSD);

          if (d == 1) PetscCall(PendulumPointwise(NULL, nq, 1, tk, px + k, pv + k, NULL, P, G, deriv ? D[0] : NULL, deriv ? D[1] : NULL, deriv ? D[2] : NULL, deriv ? D[3] : NULL, NULL));
          else PetscCall(DoublePendulumPointwise(NULL, nq, 2, tk, px + 2 * k, pv + 2 * k, NULL, P, G, deriv ? D[0] : NULL, deriv ? D[1] : NULL, deriv ? D[2] : NULL, deriv ? D[3] : NULL, &dpm));
        } break;
        case CALL_MASS:
          PetscCall(DoublePendulumMass(NULL, x[k], v[k], M, Mx, g, Mxx, &dpm));
          break;
        case CALL_GRADIENT:
          if (d == 1) PetscCall(Potential(NULL, 0, x[k], &V, g, NULL));
          else PetscCall(DoublePendulumPotential(NULL, 0, x[k], &V, g, &dpm));
          break;
        case CALL_HESSIAN:
          if (d == 1) PetscCall(PotentialHessian(NULL, 0, x[k], K, NULL));
          else PetscCall(DoublePendulumPotentialHessian(NULL, 0, x[k], K, &dpm));
          break;
        case CALL_LAG:
          PetscCall(Lagrangian(NULL, 0, x[k], v[k], &V, g, Lv, NULL));
          break;
        case CALL_LAGHESS:
          PetscCall(LagrangianHessian(NULL, 0, x[k], v[k], Lxx, Lvx, Lvv, NULL));
          break;
        default:
          break;
        }
      }
      PetscCall(PetscTime(&t1));
      loops[c][l] = (t1 - t0) / REPS / (c == CALL_POINTS || c == CALL_POINTSD ? nq : 1);
    }
  for (PetscInt c = 0; c < CALL_KINDS; c++) tcall[c] = Median(3, loops[c]);
  for (PetscInt k = 0; k < NP; k++) {
    PetscCall(VecDestroy(&U[k]));
    PetscCall(VecDestroy(&x[k]));
    PetscCall(VecDestroy(&v[k]));
  }
  PetscCall(VecDestroy(&F));
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&Lv));
  PetscCall(MatDestroy(&Lxx));
  PetscCall(MatDestroy(&Lvx));
  PetscCall(MatDestroy(&Lvv));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&Mx));
  PetscCall(MatDestroy(&Mxx));
  PetscCall(MatDestroy(&K));
  PetscFunctionReturn(0);
}

/* The model column: per step the user's functions each row called, their time alone (ModelTimes()), and how far the
   row's step is above it; rk4 over a row's model time is the ratio rk4 / that row if the row's library cost nothing */
static PetscErrorCode PrintModel(Ctx *ctx, PetscInt nmethods, Method *m, PetscInt rounds, PetscInt nq, PetscBool target)
{
  const PetscInt d = ctx->problem == PENDULUM ? 1 : 2;
  PetscReal      tcall[CALL_KINDS], trk4 = 0;
  PetscBool      agree = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(ModelTimes(ctx, d, nq, tcall));
  for (PetscInt i = 0; i < nmethods; i++)
    if (target && !strcmp(m[i].name, "rk4")) trk4 = Median(rounds, m[i].times); /* at equal accuracy: the target mode's */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  the model alone: per step, the calls of the user's functions each run made (counted) and their time, each kind\n"
                                          "  timed alone in a loop as the library calls it (bench/stepcost.c ModelTimes(); the pointwise door per point, in\n"
                                          "  calls of 6 points);\n"
                                          "  rk4/model: rk4's time over the row's model time, the ratio rk4 / row if the row's library cost nothing\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-16s", "call [us]"));
  for (PetscInt c = 0; c < CALL_KINDS; c++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %9.4f", (double)(1e6 * tcall[c])));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n  %-16s", "method"));
  for (PetscInt c = 0; c < CALL_KINDS; c++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %9s", CallNames[c]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %11s %10s %11s %10s\n", "model [us]", "step [us]", "step/model", "rk4/model"));
  for (PetscInt i = 0; i < nmethods; i++) {
    PetscReal model = 0, t = Median(rounds, m[i].times);

    for (PetscInt c = 0; c < CALL_KINDS; c++) model += m[i].calls[c] * tcall[c];
    if (model == 0) continue; /* a method whose functions are not timed (theta, irk: their implicit functions) */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-16s", m[i].name));
    for (PetscInt c = 0; c < CALL_KINDS; c++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %9.2f", (double)m[i].calls[c] / m[i].nsteps));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %11.3f %10.3f %11.2f", (double)(1e6 * model / m[i].nsteps), (double)(1e6 * t / m[i].nsteps), (double)(t / model)));
    if (trk4 > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10.2f\n", (double)(trk4 / model)));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, " %10s\n", "-"));
  }
  for (PetscInt i = 0; i < nmethods; i++) { /* the counts against what the runs did: rk4's four stages, the trace's evaluations */
    const PetscInt64 points = m[i].calls[CALL_POINTS] + m[i].calls[CALL_POINTSD];

    if (!strcmp(m[i].name, "rk4")) agree = (PetscBool)(agree && m[i].calls[CALL_RHS] == 4 * m[i].nsteps);
    if (m[i].light && m[i].pointwise) agree = (PetscBool)(agree && points >= m[i].light->nq * m[i].counts[0] && points <= m[i].light->nq * (m[i].counts[0] + m[i].counts[1]));
    if (m[i].light && m[i].lagrangian) agree = (PetscBool)(agree && m[i].calls[CALL_LAG] == m[i].light->nq * m[i].counts[0] && m[i].calls[CALL_LAGHESS] >= m[i].light->nq * m[i].counts[1]);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "  calls as the runs made them (rk4: 4 a step; a pointwise row with the speed of light: nq points a residual\n"
                        "  evaluation of its trace, and at most one call more a Jacobian; a Lagrangian row's: L at nq points a\n"
                        "  residual evaluation, its Hessians at nq points a Jacobian at least): %s\n",
                        agree ? "yes" : "no"));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx       ctx      = {PENDULUM, 10000, PETSC_FALSE, 1.0, PENDULUM, 0, 0, {0}};
  char      mode[16] = "step", *names[16];
  PetscInt  nmethods = 16, rounds = 5, steps = 2000, Nmin = 0, Nmax = 0, warmup = 1;
  PetscReal T = 1000, h = 0.1, tol = 1e-9, beta = 1;
  Method   *m;
  PetscBool target, light = PETSC_TRUE, model = PETSC_TRUE;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "stepcost options", NULL);
  PetscCall(PetscOptionsEnum("-problem", "Problem", NULL, Problems, (PetscEnum)ctx.problem, (PetscEnum *)&ctx.problem, NULL));
  PetscCall(PetscOptionsString("-mode", "step or target", NULL, mode, mode, sizeof(mode), NULL));
  PetscCall(PetscOptionsStringArray("-methods", "Methods", NULL, names, &nmethods, NULL));
  PetscCall(PetscOptionsInt("-rounds", "Interleaved rounds", NULL, rounds, &rounds, NULL));
  PetscCall(PetscOptionsInt("-steps", "Steps per run (step mode)", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsReal("-h", "Step (step mode)", NULL, h, &h, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time (target mode)", NULL, T, &T, NULL));
  PetscCall(PetscOptionsReal("-tol", "Relative energy error (target mode)", NULL, tol, &tol, NULL));
  PetscCall(PetscOptionsInt("-Nmin", "Fewest steps tried (target mode; default T, 4 T for double)", NULL, Nmin, &Nmin, NULL));
  PetscCall(PetscOptionsInt("-Nmax", "Most steps tried (target mode; default 400 T)", NULL, Nmax, &Nmax, NULL));
  PetscCall(PetscOptionsInt("-n", "Chain, fput: masses", NULL, ctx.n, &ctx.n, NULL));
  PetscCall(PetscOptionsReal("-beta", "FPUT: the springs' cubic term", NULL, beta, &beta, NULL));
  PetscCall(PetscOptionsBool("-linear", "Chain, fput: declared TS_LINEAR (TSSetProblemType()) for every method", NULL, ctx.linear, &ctx.linear, NULL));
  PetscCall(PetscOptionsReal("-q0", "Pendulum: start angle", NULL, ctx.q0, &ctx.q0, NULL));
  PetscCall(PetscOptionsBool("-light", "The speed-of-light column of simpvi's rows (pendulum, double)", NULL, light, &light, NULL));
  PetscCall(PetscOptionsBool("-model", "The model table: the user's functions' calls and time per step (pendulum, double)", NULL, model, &model, NULL));
  PetscOptionsEnd();
  light = (PetscBool)(light && (ctx.problem == PENDULUM || ctx.problem == DOUBLE));
  model = (PetscBool)(model && (ctx.problem == PENDULUM || ctx.problem == DOUBLE));
  if (ctx.problem == FPUT) PetscCall(FPUTChainCreate(ctx.n, beta, &ctx.fput));
  if (!Nmin) Nmin = (PetscInt)PetscCeilReal(ctx.problem == DOUBLE ? 4 * T : T); /* h = 1 (1/4): within the stability bounds */
  if (!Nmax) Nmax = (PetscInt)PetscCeilReal(400 * T);
  PetscCheck(rounds >= 1 && rounds <= 256, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rounds 1..256");
  if (nmethods == 16) { /* not given */
    const char     *i2[] = {"simpson", "alpha2"}, *ps[] = {"simpson", "theta", "rk4"}, *split[] = {"simpson", "lobatto", "bsi4"};
    const PetscBool isi2 = (PetscBool)(ctx.problem == CHAIN || ctx.problem == PENDULUM_I2 || ctx.problem == FPUT);

    nmethods = isi2 ? 2 : 3;
    for (PetscInt i = 0; i < nmethods; i++) PetscCall(PetscStrallocpy(isi2 ? i2[i] : (ctx.problem == PENDULUM_SPLIT ? split[i] : ps[i]), &names[i]));
  }
  PetscCall(PetscStrcmp(mode, "target", &target));
  PetscCall(PetscCalloc1(nmethods, &m));
  for (PetscInt i = 0; i < nmethods; i++) {
    PetscCall(ParseMethod(names[i], &m[i]));
    PetscCall(PetscMalloc1(rounds, &m[i].times));
    PetscCall(PetscMalloc1(rounds, &m[i].lighttimes));
  }

  if (target) { /* the fewest steps on the grid N = Nmin 2^(j/4) meeting the tolerance */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, T = %g: relative energy error <= %g\n", Problems[ctx.problem], (double)T, (double)tol));
    if (ctx.problem == FPUT) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  (%" PetscInt_FMT " masses, beta %g, declared %s for every method)\n", ctx.n, (double)beta, ctx.linear ? "TS_LINEAR" : "TS_NONLINEAR"));
    for (PetscInt i = 0; i < nmethods; i++) {
      PetscInt  lo = -1, hi = -1; /* grid indices: lo fails, hi meets */
      PetscReal s, e;

      for (PetscInt j = 0;; j += 4) { /* doubling until met */
        PetscInt N = (PetscInt)(Nmin * PetscPowReal(2, j / 4.0) + 0.5);

        if (N > Nmax) { /* timed at Nmax: a lower bound on its cost */
          m[i].unmet = PETSC_TRUE;
          break;
        }
        PetscCall(Run(&ctx, &m[i], T, N, PETSC_TRUE, PETSC_FALSE, &s, &e));
        if (e <= tol) {
          hi = j;
          break;
        }
        lo = j;
      }
      if (m[i].unmet) {
        m[i].nsteps = Nmax;
        PetscCall(Run(&ctx, &m[i], T, Nmax, PETSC_TRUE, PETSC_FALSE, &s, &m[i].eH));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-16s N = %8" PetscInt_FMT "  h = %-10.4g energy error %.2e: not met with -Nmax steps, its time there a lower bound\n", m[i].name, m[i].nsteps, (double)(T / m[i].nsteps), (double)m[i].eH));
        continue;
      }
      while (lo >= 0 && hi - lo > 1) { /* bisection on the quarter-octave grid */
        PetscInt j = (lo + hi) / 2, N = (PetscInt)(Nmin * PetscPowReal(2, j / 4.0) + 0.5);

        PetscCall(Run(&ctx, &m[i], T, N, PETSC_TRUE, PETSC_FALSE, &s, &e));
        if (e <= tol) hi = j;
        else lo = j;
      }
      m[i].nsteps = (PetscInt)(Nmin * PetscPowReal(2, hi / 4.0) + 0.5);
      PetscCall(Run(&ctx, &m[i], T, m[i].nsteps, PETSC_TRUE, PETSC_FALSE, &s, &m[i].eH));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-16s N = %8" PetscInt_FMT "  h = %-10.4g energy error %.2e\n", m[i].name, m[i].nsteps, (double)(T / m[i].nsteps), (double)m[i].eH));
    }
  } else {
    T = h * steps;
    for (PetscInt i = 0; i < nmethods; i++) m[i].nsteps = steps;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " steps of h = %g\n", Problems[ctx.problem], steps, (double)h));
    if (ctx.problem == CHAIN || ctx.problem == FPUT) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  (%" PetscInt_FMT " masses, declared %s for every method)\n", ctx.n, ctx.linear ? "TS_LINEAR" : "TS_NONLINEAR"));
  }
  for (PetscInt i = 0; i < nmethods && light; i++) { /* the trace of each simpvi row, from a run of its own (not timed) */
    PetscReal s;

    if (m[i].scheme[0] && !m[i].snes) PetscCall(Run(&ctx, &m[i], T, m[i].nsteps, PETSC_FALSE, PETSC_TRUE, &s, NULL));
  }
  for (PetscInt r = -warmup; r < rounds; r++) /* interleaved; the warm-up round is not counted */
    for (PetscInt i = 0; i < nmethods; i++) {
      PetscReal s;

      PetscCall(Run(&ctx, &m[i], T, m[i].nsteps, PETSC_FALSE, PETSC_FALSE, &s, NULL));
      if (r >= 0) m[i].times[r] = s;
      if (m[i].light) { /* its arithmetic, timed next to it */
        const PetscInt d = m[i].light->n;
        PetscLogDouble t0, t1;
        PetscReal      q1[2], p1[2];

        PetscCall(PetscTime(&t0));
        PetscCall(LightRun(m[i].light, m[i].ustart, m[i].ustart + d, q1, p1));
        PetscCall(PetscTime(&t1));
        if (r >= 0) m[i].lighttimes[r] = t1 - t0;
        m[i].lightdiff = 0; /* the end states' difference, relative to the run's */
        for (PetscInt j = 0; j < d; j++) m[i].lightdiff = PetscMax(m[i].lightdiff, PetscMax(PetscAbsReal(q1[j] - m[i].uend[j]), PetscAbsReal(p1[j] - m[i].uend[d + j])));
        m[i].lightdiff /= PetscMax(1, PetscMax(PetscAbsReal(m[i].uend[0]), PetscAbsReal(m[i].uend[d])));
      }
    }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-16s %12s %12s %14s   (medians of %" PetscInt_FMT " interleaved rounds)\n", "method", "time [s]", "per step [us]", target ? "time / first" : "step / first", rounds));
  for (PetscInt i = 0; i < nmethods; i++) {
    const PetscReal t = Median(rounds, m[i].times), t0 = Median(rounds, m[0].times);
    const PetscReal ratio = target ? t / t0 : (t / m[i].nsteps) / (t0 / m[0].nsteps);

    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-16s %12.4e %12.3f %s%13.3f   (%s / %s)\n", m[i].name, (double)t, (double)(1e6 * t / m[i].nsteps), m[i].unmet ? ">" : " ", (double)ratio, m[i].name, m[0].name));
  }
  if (light) PetscCall(PrintLight(nmethods, m, rounds, target));
  if (model) PetscCall(PrintModel(&ctx, nmethods, m, rounds, 6, target));
  for (PetscInt i = 0; i < nmethods; i++) {
    PetscCall(LightDestroy(&m[i].light));
    PetscCall(PetscFree(m[i].lighttimes));
    PetscCall(PetscFree(m[i].times));
    PetscCall(PetscFree(names[i]));
  }
  PetscCall(PetscFree(m));
  for (PetscInt b = 0; b < 7; b++) PetscCall(MatDestroy(&seen[b]));
  PetscCall(FPUTChainDestroy(&ctx.fput));
  PetscCall(PetscFinalize());
  return 0;
}
