static char help[] = "Work-precision row of the heavy top of the seed's Table 3 (issue 23): TSSIMPVI on SO(3) (TSSimpVISetRigidBodies(),\n"
                     "TSSolve()), TSSIMPVI on the same top in ZXZ Euler angles q = (phi, theta, psi) through the mechanical door\n"
                     "(TSSimpVISetMass(), TSSimpVISetPotential(); methods euler-simpson, euler-lobatto; R = Rz(phi) Rx(theta) Rz(psi)\n"
                     "and Pi = J Omega built from the state, so the same errors are measured) against PETSc's rk 4\n"
                     "(TSSetRHSFunction()) and irk Gauss (TSSetIFunction(), TSSetIJacobian(), AIJ as TSIRK needs)\n"
                     "on the rotation-matrix ODE a PETSc user writes (12 unknowns):\n"
                     "  R' = R hat(Omega),  Pi' = Pi x Omega - m g l e3 x (R' e3),  Omega = J^-1 Pi.\n"
                     "For every method the smallest N = T/h on the grid -Nmin 2^(k/4) (doubling, then quarter octaves) whose error is\n"
                     "at most -tol: -target energy, sup |E - E0|/|E0| over [0, T]; -target state, ||R(T) - Rref||_max against -Nref\n"
                     "steps of lobatto. Then its wall time, the runs interleaved (every method once per round, -rounds rounds,\n"
                     "medians). Prints steps, energy error, R(T) error, sup ||R'R - I||_max over the run, time, the time ratios.\n"
                     "Gauss keeps E and R'R (quadratic invariants of the ODE) to its Newton tolerance at any h: the energy target\n"
                     "does not bind it (-target state does).\n"
                     "Options: -T 2 -tol 1e-9 -target energy -Nmin 50 -Nmax 4000000 -Nref 20000 -rounds 3\n"
                     "         -methods simpson,lobatto,euler-simpson,euler-lobatto,rk4,irk -irk_stages 3\n";

#include <simpvi.h>
#include <petsctime.h>
#include "../examples/models/so3top.h" /* the top of Table 3 (SO3TopTable3): its potential on the group, its start */
#define LAGRANGETOP_MECHANICS_ONLY     /* the same top in Euler angles: its mechanics, without the exact nutation (GSL) */
#include "../examples/models/lagrangetop.h"

typedef struct {
  PetscReal E0, eE, orth; /* energy at 0, sup of the relative energy error, sup ||R'R - I||_max */
  PetscReal eR;           /* ||R(T) - Rref(T)||_max against the reference run */
  PetscReal thmin;        /* the smallest tilt theta over the run (Euler angles are singular at 0) */
} Ctx;

static PetscReal Rref[9];     /* R(T) of -Nref steps of lobatto */
static PetscBool targetstate; /* -target state: the search on eR instead of the energy error */
static PetscReal Measure(const Ctx *c)
{
  return targetstate ? c->eR : c->eE;
}

/* the rotation-matrix ODE: U = (R row-major, Pi); ctx is the SO3Top */
static PetscErrorCode RHS(TS ts, PetscReal t, Vec U, Vec F, void *ctx)
{
  const SO3Top      *top   = (const SO3Top *)ctx;
  const PetscReal    Jd[3] = {top->I1, top->I1, top->I3}, MGL = top->mgl;
  const PetscScalar *u;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayWrite(F, &f));
  {
    const PetscReal *R = u, *P = u + 9, W[3] = {P[0] / Jd[0], P[1] / Jd[1], P[2] / Jd[2]};
    const PetscReal  Wh[9] = {0, -W[2], W[1], W[2], 0, -W[0], -W[1], W[0], 0};

    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) f[i * 3 + j] = R[i * 3] * Wh[j] + R[i * 3 + 1] * Wh[3 + j] + R[i * 3 + 2] * Wh[6 + j];
    f[9]  = P[1] * W[2] - P[2] * W[1] + MGL * R[7];
    f[10] = P[2] * W[0] - P[0] * W[2] - MGL * R[6];
    f[11] = P[0] * W[1] - P[1] * W[0];
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

/* dF/dU: dR'_ij/dR_ik = hat(W)_kj, dR'_ij/dPi_m = (R hat(e_m))_ij / J_m, dPi'/dPi = hat(Pi) J^-1 - hat(W), and the torque's
   dPi'_0/dR_7 = m g l, dPi'_1/dR_6 = -m g l */
static PetscErrorCode RHSJacobian(TS ts, PetscReal t, Vec U, Mat A, Mat B, void *ctx)
{
  const SO3Top      *top   = (const SO3Top *)ctx;
  const PetscReal    Jd[3] = {top->I1, top->I1, top->I3}, MGL = top->mgl;
  const PetscScalar *u;
  PetscScalar        a[12][12] = {{0}};
  PetscInt           idx[12];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  {
    const PetscReal *R = u, *P = u + 9, W[3] = {P[0] / Jd[0], P[1] / Jd[1], P[2] / Jd[2]};
    const PetscReal  Wh[9] = {0, -W[2], W[1], W[2], 0, -W[0], -W[1], W[0], 0}, Ph[9] = {0, -P[2], P[1], P[2], 0, -P[0], -P[1], P[0], 0};

    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) {
        for (PetscInt k = 0; k < 3; k++) a[i * 3 + j][i * 3 + k] = Wh[k * 3 + j];
        for (PetscInt m = 0; m < 3; m++) { /* (R hat(e_m))_ij = sum_k R_ik hat(e_m)_kj, hat(e_m)_kj = -eps_mkj */
          PetscReal s = 0;

          for (PetscInt k = 0; k < 3; k++) {
            const PetscInt e = (m == k || k == j || m == j) ? 0 : ((k - m + 3) % 3 == 1 ? 1 : -1); /* eps_mkj */
            s -= R[i * 3 + k] * e;
          }
          a[i * 3 + j][9 + m] = s / Jd[m];
        }
        a[9 + i][9 + j] = Ph[i * 3 + j] / Jd[j] - Wh[i * 3 + j];
      }
    a[9][7]  = MGL;
    a[10][6] = -MGL;
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  for (PetscInt i = 0; i < 12; i++) idx[i] = i;
  PetscCall(MatSetValues(B, 12, idx, 12, idx, &a[0][0], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  if (A != B) {
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* the implicit form an irk user writes: F = U' - f(U), dF/dU + shift dF/dU' = shift I - df/dU */
static PetscErrorCode IFunction(TS ts, PetscReal t, Vec U, Vec Udot, Vec F, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(RHS(ts, t, U, F, ctx));
  PetscCall(VecAYPX(F, -1, Udot));
  PetscFunctionReturn(0);
}

static PetscErrorCode IJacobian(TS ts, PetscReal t, Vec U, Vec Udot, PetscReal shift, Mat A, Mat B, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(RHSJacobian(ts, t, U, B, B, ctx));
  PetscCall(MatScale(B, -1));
  PetscCall(MatShift(B, shift));
  if (A != B) {
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* the rigid-body state (R row-major, Pi) of U: U itself on SO(3) and for the matrix ODE; from U = (q, p) in Euler angles
   R = Rz(phi) Rx(theta) Rz(psi) and Pi = J Omega, Omega = (phi' s sin psi + theta' cos psi, phi' s cos psi - theta' sin psi,
   phi' c + psi') with theta' = p_theta / I1, phi' s = (p_phi - p_psi c) / (I1 s) and I3 (phi' c + psi') = p_psi */
static PetscErrorCode GetRigidState(Vec U, PetscReal x[12])
{
  const SO3Top      *top = &SO3TopTable3;
  const PetscScalar *u;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(U, &n));
  PetscCall(VecGetArrayRead(U, &u));
  if (n == 12)
    for (PetscInt j = 0; j < 12; j++) x[j] = PetscRealPart(u[j]);
  else {
    const PetscReal cf = PetscCosReal(PetscRealPart(u[0])), sf = PetscSinReal(PetscRealPart(u[0])), c = PetscCosReal(PetscRealPart(u[1]));
    const PetscReal s = PetscSinReal(PetscRealPart(u[1])), cp = PetscCosReal(PetscRealPart(u[2])), sp = PetscSinReal(PetscRealPart(u[2]));
    const PetscReal dth = PetscRealPart(u[4]) / top->I1, dphis = (PetscRealPart(u[3]) - PetscRealPart(u[5]) * c) / (top->I1 * s);
    const PetscReal Rzx[9] = {cf, -sf * c, sf * s, sf, cf * c, -cf * s, 0, s, c}; /* Rz(phi) Rx(theta) */

    for (PetscInt i = 0; i < 3; i++) { /* times Rz(psi) */
      x[i * 3]     = Rzx[i * 3] * cp + Rzx[i * 3 + 1] * sp;
      x[i * 3 + 1] = -Rzx[i * 3] * sp + Rzx[i * 3 + 1] * cp;
      x[i * 3 + 2] = Rzx[i * 3 + 2];
    }
    x[9]  = top->I1 * (dphis * sp + dth * cp);
    x[10] = top->I1 * (dphis * cp - dth * sp);
    x[11] = PetscRealPart(u[5]);
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

/* E = 1/2 Pi' J^-1 Pi + m g l R_33 and ||R'R - I||_max, from the state alone (the same for every method) */
static void EnergyAndOrthogonality(const SO3Top *top, const PetscReal u[12], PetscReal *E, PetscReal *orth)
{
  const PetscReal *R = u;

  *E    = 0.5 * (u[9] * u[9] / top->I1 + u[10] * u[10] / top->I1 + u[11] * u[11] / top->I3) + top->mgl * R[8];
  *orth = 0;
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) *orth = PetscMax(*orth, PetscAbsReal(R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j] - (i == j)));
}

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Ctx      *c = (Ctx *)ctx;
  PetscReal x[12], E, orth;

  PetscFunctionBeginUser;
  PetscCall(GetRigidState(U, x));
  EnergyAndOrthogonality(&SO3TopTable3, x, &E, &orth);
  c->eE    = PetscMax(c->eE, PetscAbsReal(E - c->E0) / PetscAbsReal(c->E0));
  c->orth  = PetscMax(c->orth, orth);
  c->thmin = PetscMin(c->thmin, PetscAcosReal(PetscMin(1, PetscMax(-1, x[8])))); /* R_33 = cos theta */
  PetscFunctionReturn(0);
}

/* N steps of T/N by method m; the time of TSSolve() alone; with ctx, the energy error and orthogonality monitored and the
   error of R(T); with Rend, R(T) */
static PetscErrorCode Run(const char m[], PetscInt stages, PetscReal T, PetscInt N, Ctx *ctx, PetscReal *seconds, PetscReal Rend[])
{
  const SO3Top     *top = &SO3TopTable3;
  TS                ts;
  Vec               U;
  Mat               A = NULL, Me[4] = {NULL, NULL, NULL, NULL};
  Top               etop = {.mass = 1, .g = top->mgl, .l = 1, .I1 = top->I1, .I3 = top->I3}; /* m g l = top->mgl */
  PetscBool         simpson, lobatto, esimpson, elobatto, rk4, irk;
  PetscLogDouble    t0, t1;
  PetscInt          steps;
  TSConvergedReason reason;
  TSAdapt           adapt;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(m, "simpson", &simpson));
  PetscCall(PetscStrcmp(m, "lobatto", &lobatto));
  PetscCall(PetscStrcmp(m, "euler-simpson", &esimpson));
  PetscCall(PetscStrcmp(m, "euler-lobatto", &elobatto));
  PetscCall(PetscStrcmp(m, "rk4", &rk4));
  PetscCall(PetscStrcmp(m, "irk", &irk));
  PetscCheck(simpson || lobatto || esimpson || elobatto || rk4 || irk, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Unknown method %s: simpson, lobatto, euler-simpson, euler-lobatto, rk4 or irk", m);
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, esimpson || elobatto ? 6 : 12, &U));
  if (!esimpson && !elobatto) PetscCall(SO3TopSetState(top, U));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  if (esimpson || elobatto) { /* U = (q, p): q0 = (0, theta0, 0), p = M(theta0) q0' (as tests/rigidbody.c -case euler) */
    PetscReal    M[3][3];
    PetscScalar *u;

    MassMatrix(&etop, top->theta0, M);
    PetscCall(VecGetArrayWrite(U, &u));
    u[0] = 0, u[1] = top->theta0, u[2] = 0;
    for (PetscInt i = 0; i < 3; i++) u[3 + i] = M[i][0] * top->rates[0] + M[i][1] * top->rates[1] + M[i][2] * top->rates[2];
    PetscCall(VecRestoreArrayWrite(U, &u));
    for (PetscInt i = 0; i < 4; i++) PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 3, 3, NULL, &Me[i]));
    PetscCall(TSSetType(ts, TSSIMPVI));
    PetscCall(TSSimpVISetType(ts, esimpson ? TSSIMPVISIMPSON : TSSIMPVILOBATTO));
    PetscCall(TSSimpVISetMass(ts, Me[0], Me[1], Me[2], Mass, &etop));
    PetscCall(TSSimpVISetPotential(ts, Me[3], Potential, PotentialHessian, &etop));
  } else if (simpson || lobatto) {
    PetscReal J[9];

    SO3TopInertia(top, J);
    PetscCall(TSSetType(ts, TSSIMPVI));
    PetscCall(TSSimpVISetType(ts, simpson ? TSSIMPVISIMPSON : TSSIMPVILOBATTO)); /* lobatto: order 6 */
    PetscCall(TSSimpVISetRigidBodies(ts, 1, J, SO3TopPotential, (void *)top));
  } else if (rk4) {
    PetscCall(TSSetRHSFunction(ts, NULL, RHS, (void *)top));
    PetscCall(TSSetType(ts, TSRK));
    PetscCall(TSRKSetType(ts, TSRK4));
  } else {
    {
      SNES snes;
      KSP  ksp;
      PC   pc;

      PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 12, 12, 12, NULL, &A));
      PetscCall(TSSetIFunction(ts, NULL, IFunction, (void *)top));
      PetscCall(TSSetIJacobian(ts, A, A, IJacobian, (void *)top));
      PetscCall(TSSetType(ts, TSIRK));
      PetscCall(TSIRKSetNumStages(ts, stages)); /* before the type: set after it, the Gauss tableau keeps its old size */
      PetscCall(TSIRKSetType(ts, TSIRKGAUSS));
      /* Newton to round-off (as TSSIMPVI's); the stage system is a MATKAIJ, which LU does not take */
      PetscCall(TSGetSNES(ts, &snes));
      PetscCall(SNESSetTolerances(snes, PETSC_DEFAULT, 1e-12, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
      PetscCall(SNESGetKSP(snes, &ksp));
      PetscCall(KSPSetType(ksp, KSPGMRES));
      PetscCall(KSPSetTolerances(ksp, 1e-14, 1e-50, PETSC_DEFAULT, PETSC_DEFAULT));
      PetscCall(KSPGetPC(ksp, &pc));
      PetscCall(PCSetType(pc, PCNONE));
    }
  }
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTime(ts, 0));
  PetscCall(TSSetTimeStep(ts, T / N));
  PetscCall(TSSetMaxSteps(ts, N));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSGetAdapt(ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
  PetscCall(TSSetErrorIfStepFails(ts, PETSC_FALSE)); /* a failed step (too large h) is an unmet tolerance */
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSetUp(ts));
  if (ctx) {
    PetscReal x[12];

    PetscCall(GetRigidState(U, x));
    EnergyAndOrthogonality(top, x, &ctx->E0, &ctx->orth);
    ctx->eE    = 0;
    ctx->thmin = top->theta0;
    PetscCall(TSMonitorSet(ts, Monitor, ctx, NULL));
  }
  PetscCall(PetscTime(&t0));
  PetscCall(TSSolve(ts, U));
  PetscCall(PetscTime(&t1));
  *seconds = t1 - t0;
  PetscCall(TSGetStepNumber(ts, &steps));
  PetscCall(TSGetConvergedReason(ts, &reason));
  if (ctx) PetscCall(PetscInfo(NULL, "%s: %" PetscInt_FMT " of %" PetscInt_FMT " steps, %s, energy error %g, %g s\n", m, steps, N, TSConvergedReasons[reason], (double)ctx->eE, (double)*seconds));
  if (ctx || Rend) {
    PetscReal x[12];

    PetscCall(GetRigidState(U, x));
    if (ctx) {
      ctx->eR = 0;
      for (PetscInt j = 0; j < 12; j++)
        if (PetscIsInfOrNanReal(x[j])) ctx->eR = PETSC_INFINITY; /* a run that blew up misses both targets */
      for (PetscInt j = 0; j < 9; j++) ctx->eR = PetscMax(ctx->eR, PetscAbsReal(x[j] - Rref[j]));
      if (ctx->eR == PETSC_INFINITY) ctx->eE = PETSC_INFINITY;
    }
    if (Rend)
      for (PetscInt j = 0; j < 9; j++) Rend[j] = x[j];
  }
  if (ctx && (reason < 0 || steps != N)) ctx->eE = ctx->eR = PETSC_INFINITY;
  else PetscCheck(reason >= 0 && steps == N, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s took %" PetscInt_FMT " steps, not %" PetscInt_FMT, m, steps, N);
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&A));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatDestroy(&Me[i]));
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

/* the smallest N on the grid Nmin 2^(k/4) with energy error <= tol: doubling, then the quarter octaves below */
static PetscErrorCode Target(const char m[], PetscInt stages, PetscReal T, PetscReal tol, PetscInt Nmin, PetscInt Nmax, PetscInt *N, Ctx *best)
{
  Ctx       c = {0, PETSC_INFINITY, 0, PETSC_INFINITY, 0};
  PetscReal s;
  PetscInt  k = 0;

  PetscFunctionBeginUser;
  for (;; k += 4) {
    *N = (PetscInt)PetscCeilReal(Nmin * PetscPowReal(2, k / 4.0));
    PetscCheck(*N <= Nmax, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "%s: %s error %g > %g at %" PetscInt_FMT " steps (-Nmax)", m, targetstate ? "R(T)" : "energy", (double)Measure(&c), (double)tol, Nmax);
    PetscCall(Run(m, stages, T, *N, &c, &s, NULL));
    if (Measure(&c) <= tol) break;
  }
  *best = c;
  for (PetscInt j = (k ? k - 3 : k); j < k; j++) { /* the first quarter octave below that meets it */
    const PetscInt n = (PetscInt)PetscCeilReal(Nmin * PetscPowReal(2, j / 4.0));

    PetscCall(Run(m, stages, T, n, &c, &s, NULL));
    if (Measure(&c) <= tol) {
      *N    = n;
      *best = c;
      break;
    }
  }
  PetscFunctionReturn(0);
}

static int CompareReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
  char     *names[8];
  PetscInt  nmethods = 8, rounds = 3, Nmin = 50, Nmax = 4000000, stages = 3, Nref = 20000, N[8];
  PetscReal T = 2, tol = 1e-9, times[8][64], med[8];
  Ctx       c[8];
  PetscBool set, simpvi[8], euler[8];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-T", &T, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-Nmin", &Nmin, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-Nmax", &Nmax, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-rounds", &rounds, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-irk_stages", &stages, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-Nref", &Nref, NULL));
  {
    char      target[16] = "energy";
    PetscBool energy;

    PetscCall(PetscOptionsGetString(NULL, NULL, "-target", target, sizeof(target), NULL));
    PetscCall(PetscStrcmp(target, "state", &targetstate));
    PetscCall(PetscStrcmp(target, "energy", &energy));
    PetscCheck(targetstate || energy, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-target energy or state, not %s", target);
  }
  { /* the reference R(T): -Nref steps of lobatto (order 6) */
    PetscReal s;

    PetscCall(Run("lobatto", stages, T, Nref, NULL, &s, Rref));
  }
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-methods", names, &nmethods, &set));
  PetscCheck(rounds >= 1 && rounds <= 64, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-rounds 1..64");
  if (!set) {
    const char *def[] = {"simpson", "lobatto", "euler-simpson", "euler-lobatto", "rk4", "irk"};

    nmethods = 6;
    for (PetscInt i = 0; i < nmethods; i++) PetscCall(PetscStrallocpy(def[i], &names[i]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "heavy top (Table 3), T = %g s, %s error <= %g (R(T) against %" PetscInt_FMT " steps of lobatto); simpvi on SO(3) (TSSimpVISetRigidBodies) and in Euler angles (euler-*, TSSimpVISetMass), rk4 and irk (gauss, %" PetscInt_FMT " stages) on the rotation-matrix ODE\n", (double)T, targetstate ? "R(T)" : "energy", (double)tol, Nref, stages));
  for (PetscInt i = 0; i < nmethods; i++) {
    PetscBool a, b, ea, eb;

    PetscCall(PetscStrcmp(names[i], "simpson", &a));
    PetscCall(PetscStrcmp(names[i], "lobatto", &b));
    PetscCall(PetscStrcmp(names[i], "euler-simpson", &ea));
    PetscCall(PetscStrcmp(names[i], "euler-lobatto", &eb));
    euler[i]  = (PetscBool)(ea || eb);
    simpvi[i] = (PetscBool)(a || b || euler[i]);
    PetscCall(Target(names[i], stages, T, tol, Nmin, Nmax, &N[i], &c[i]));
  }
  for (PetscInt r = -1; r < rounds; r++) /* interleaved; the warm-up round is not counted */
    for (PetscInt i = 0; i < nmethods; i++) {
      PetscReal s;

      PetscCall(Run(names[i], stages, T, N[i], NULL, &s, NULL));
      if (r >= 0) times[i][r] = s;
    }
  for (PetscInt i = 0; i < nmethods; i++) {
    qsort(times[i], (size_t)rounds, sizeof(PetscReal), CompareReal);
    med[i] = rounds % 2 ? times[i][rounds / 2] : 0.5 * (times[i][rounds / 2 - 1] + times[i][rounds / 2]);
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-13s %9s %12s %12s %12s %12s %11s %14s   (time: median of %" PetscInt_FMT " interleaved rounds)\n", "method", "steps", "h [s]", "energy err", "R(T) err", "||R'R - I||", "time [s]", "time / first", rounds));
  for (PetscInt i = 0; i < nmethods; i++)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-13s %9" PetscInt_FMT " %12.4e %12.3e %12.3e %12.3e %11.4f %14.2f%s\n", names[i], N[i], (double)(T / N[i]), (double)c[i].eE, (double)c[i].eR, (double)c[i].orth, (double)med[i], (double)(med[i] / med[0]), N[i] == Nmin ? "  (met at -Nmin: the target does not bind)" : ""));
  for (PetscInt i = 0; i < nmethods; i++) /* the ratios of PETSc's types to simpvi's schemes */
    for (PetscInt j = 0; j < nmethods; j++)
      if (!simpvi[i] && simpvi[j]) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  time %s / %s: %.2f\n", names[i], names[j], (double)(med[i] / med[j])));
  for (PetscInt i = 0; i < nmethods; i++) /* the same scheme in Euler angles and on SO(3) */
    for (PetscInt j = 0; j < nmethods; j++) {
      PetscBool same;

      PetscCall(PetscStrcmp(names[i] + (euler[i] ? 6 : 0), names[j], &same)); /* euler-X and X */
      if (euler[i] && !euler[j] && same)
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "  time %s / %s: %.2f (%s is cheaper at equal error; %" PetscInt_FMT " / %" PetscInt_FMT " steps; smallest tilt theta %.3g rad)\n", names[i], names[j], (double)(med[i] / med[j]), med[i] < med[j] ? "the Euler-angle form" : "SO(3)", N[i], N[j],
                              (double)c[i].thmin));
    }
  for (PetscInt i = 0; i < nmethods; i++)
    if (simpvi[i])
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s on the group (||R'R - I|| <= 1e-13 over the run%s): %s\n", names[i], euler[i] ? ", R = Rz Rx Rz built from the angles: round-off by construction" : "", c[i].orth <= 1e-13 ? "yes" : "no"));
  for (PetscInt i = 0; i < nmethods; i++) PetscCall(PetscFree(names[i]));
  PetscCall(PetscFinalize());
  return 0;
}
