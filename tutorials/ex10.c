static char help[] = "A ring of N rigid bodies joined by springs, on any number of processes: TSSIMPVI's rigid bodies in the Vec/Mat\n"
                     "form (TSSimpVISetRigidBodyInertias(), TSSimpVISetRigidBodyPotentialRoutine(), TSSimpVISetRigidBodyHessianRoutine()).\n"
                     "Prints the drift of the total angular momentum and of the energy and how far the attitudes stay from rotations.\n"
                     "Options: -n <16> (bodies) -T <5> -dt <0.05> and the TS's options (-ts_simpvi_type, -ts_monitor, -ts_view, ...)\n\n";

/*
   N rigid bodies turn about one common fixed point (think of the rigid fragments of a molecule, or nested shells). Body
   b carries two body-fixed points, a on its "right" and p on its "left"; a spring of zero rest length and stiffness k
   joins body b's point a to body b+1's point p, round the ring:

     V(R_1, .., R_N) = sum_b k/2 |d_b|^2,   d_b = R_b a - R_{b+1} p.

   V depends only on the relative attitudes, so the total spatial angular momentum sum_b R_b pi_b is conserved (the
   variational integrator keeps it to round-off), and the energy has a bounded error.

   The Vec/Mat form takes V on Vecs, like TaoSetObjectiveAndGradient() and TaoSetHessian(): each process owns a block of
   bodies, R holds their attitudes (9 entries each, row-major) and g their left-trivialised gradients (3 each),
   g_b . eta = d/de V(.., R_b exp(e hat(eta)), ..) at e = 0; H is the 3N x 3N Hessian of V(R_1 exp(hat(e_1)), ..) at 0.
   For one spring, with w = R_b' d and w' = -R_{b+1}' d (d in the frames of the two bodies):

     g_b += k a x w,   g_{b+1} += k p x w',
     H_bb += k (-hat(a)^2 + (w a' + a w')/2 - (a.w) I),   H_{b+1,b+1} += the same with p, w',
     H_{b,b+1} = k hat(a) R_b' R_{b+1} hat(p) = H_{b+1,b}'.

   A body's spring terms need its neighbours' attitudes, which may live on another process: a VecScatter gathers the
   attitudes of bodies lo-1 .. hi (round the ring) for the bodies lo .. hi-1 of this process, as a DMDA's ghost points would.
*/
#include <simpvi.h>

typedef struct {
  PetscInt   N, lo, hi; /* bodies; this process's are lo .. hi-1 */
  PetscReal  k, a[3], p[3];
  VecScatter scatter; /* R -> the attitudes of lo-1 .. hi */
  Vec        Rloc;
} Ring;

/* C = A B and C = A' B, 3 x 3 row-major */
static void Mul(const PetscReal A[9], const PetscReal B[9], PetscReal C[9], PetscBool transA)
{
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) {
      C[3 * i + j] = 0;
      for (PetscInt l = 0; l < 3; l++) C[3 * i + j] += (transA ? A[3 * l + i] : A[3 * i + l]) * B[3 * l + j];
    }
}

static void Hat(const PetscReal v[3], PetscReal A[9])
{
  A[0] = 0, A[1] = -v[2], A[2] = v[1], A[3] = v[2], A[4] = 0, A[5] = -v[0], A[6] = -v[1], A[7] = v[0], A[8] = 0;
}

/* One spring from Rb (point a) to Rc (point p): V, the gradients of both ends (optional) and the Hessian blocks Hbb, Hbc, Hcc (optional) */
static void Spring(const Ring *ring, const PetscReal Rb[9], const PetscReal Rc[9], PetscReal *V, PetscReal gb[3], PetscReal gc[3], PetscReal Hbb[9], PetscReal Hbc[9], PetscReal Hcc[9])
{
  const PetscReal *a = ring->a, *p = ring->p, k = ring->k;
  PetscReal        d[3], w[3], wc[3], A[9], P[9], RR[9], T[9], aw = 0, pw = 0, aa = 0, pp = 0;

  for (PetscInt i = 0; i < 3; i++) d[i] = Rb[3 * i] * a[0] + Rb[3 * i + 1] * a[1] + Rb[3 * i + 2] * a[2] - Rc[3 * i] * p[0] - Rc[3 * i + 1] * p[1] - Rc[3 * i + 2] * p[2];
  for (PetscInt i = 0; i < 3; i++) w[i] = Rb[i] * d[0] + Rb[3 + i] * d[1] + Rb[6 + i] * d[2];
  for (PetscInt i = 0; i < 3; i++) wc[i] = -(Rc[i] * d[0] + Rc[3 + i] * d[1] + Rc[6 + i] * d[2]);
  *V += k / 2 * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (gb) gb[0] += k * (a[1] * w[2] - a[2] * w[1]), gb[1] += k * (a[2] * w[0] - a[0] * w[2]), gb[2] += k * (a[0] * w[1] - a[1] * w[0]);
  if (gc) gc[0] += k * (p[1] * wc[2] - p[2] * wc[1]), gc[1] += k * (p[2] * wc[0] - p[0] * wc[2]), gc[2] += k * (p[0] * wc[1] - p[1] * wc[0]);
  if (!Hbb) return;
  for (PetscInt i = 0; i < 3; i++) aw += a[i] * w[i], pw += p[i] * wc[i], aa += a[i] * a[i], pp += p[i] * p[i];
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) { /* -hat(v)^2 = |v|^2 I - v v' */
      Hbb[3 * i + j] += k * (aa * (i == j) - a[i] * a[j] + (w[i] * a[j] + a[i] * w[j]) / 2 - aw * (i == j));
      Hcc[3 * i + j] += k * (pp * (i == j) - p[i] * p[j] + (wc[i] * p[j] + p[i] * wc[j]) / 2 - pw * (i == j));
    }
  Hat(a, A);
  Hat(p, P);
  Mul(Rb, Rc, RR, PETSC_TRUE);
  Mul(A, RR, T, PETSC_FALSE);
  Mul(T, P, RR, PETSC_FALSE);
  for (PetscInt j = 0; j < 9; j++) Hbc[j] += k * RR[j];
}

/* The terms of this process's bodies: V of the springs to their right, their gradients and Hessian rows (both springs) */
static PetscErrorCode Terms(TS ts, Vec R, Ring *ring, PetscReal *V, Vec g, Mat H)
{
  const PetscScalar *Rl; /* the attitudes of lo-1 .. hi */
  PetscScalar       *ga = NULL;

  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(ring->scatter, R, ring->Rloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(ring->scatter, R, ring->Rloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(ring->Rloc, &Rl));
  if (g) PetscCall(VecGetArray(g, &ga));
  if (H) PetscCall(MatZeroEntries(H));
  *V = 0;
  for (PetscInt b = ring->lo; b < ring->hi; b++) {
    const PetscScalar *Rprev = Rl + 9 * (b - ring->lo), *Rb = Rprev + 9, *Rnext = Rb + 9;
    PetscReal          gb[3] = {0, 0, 0}, Hbb[9] = {0}, Hbn[9] = {0}, Hnn[9] = {0}, Hpp[9] = {0}, Hpb[9] = {0}, Hbp[9], Vleft = 0;
    PetscInt           rows[3], next[3], prev[3];

    Spring(ring, Rb, Rnext, V, gb, NULL, H ? Hbb : NULL, Hbn, Hnn);      /* its spring to the right: V counted here */
    Spring(ring, Rprev, Rb, &Vleft, NULL, gb, H ? Hpp : NULL, Hpb, Hbb); /* and to the left (counted by the left body) */
    for (PetscInt i = 0; ga && i < 3; i++) ga[3 * (b - ring->lo) + i] = gb[i];
    if (!H) continue;
    for (PetscInt i = 0; i < 3; i++) {
      rows[i] = 3 * b + i;
      next[i] = 3 * ((b + 1) % ring->N) + i;
      prev[i] = 3 * ((b - 1 + ring->N) % ring->N) + i;
      for (PetscInt j = 0; j < 3; j++) Hbp[3 * i + j] = Hpb[3 * j + i];
    }
    PetscCall(MatSetValues(H, 3, rows, 3, rows, Hbb, ADD_VALUES));
    PetscCall(MatSetValues(H, 3, rows, 3, next, Hbn, ADD_VALUES));
    PetscCall(MatSetValues(H, 3, rows, 3, prev, Hbp, ADD_VALUES));
  }
  if (g) PetscCall(VecRestoreArray(g, &ga));
  PetscCall(VecRestoreArrayRead(ring->Rloc, &Rl));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, V, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)R)));
  if (H) {
    PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Potential(TS ts, Vec R, PetscReal *V, Vec g, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(Terms(ts, R, (Ring *)ctx, V, g, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode Hessian(TS ts, Vec R, Mat H, void *ctx)
{
  PetscReal V;

  PetscFunctionBeginUser;
  PetscCall(Terms(ts, R, (Ring *)ctx, &V, NULL, H));
  PetscFunctionReturn(0);
}

/* The total spatial angular momentum sum_b R_b pi_b, the sum of the |pi_b| (its scale) and the largest |R'R - I| of a
   state (this process's bodies: their R, then their pi) */
static PetscErrorCode Watch(Vec U, PetscReal m[4], PetscReal *orth)
{
  const PetscScalar *u;
  PetscInt           nl;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(U, &nl));
  nl /= 12;
  m[0] = m[1] = m[2] = m[3] = 0, *orth = 0;
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt b = 0; b < nl; b++) {
    PetscReal RtR[9];

    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) m[i] += u[9 * b + 3 * i + j] * u[9 * nl + 3 * b + j];
    m[3] += PetscSqrtReal(PetscSqr(u[9 * nl + 3 * b]) + PetscSqr(u[9 * nl + 3 * b + 1]) + PetscSqr(u[9 * nl + 3 * b + 2]));
    Mul(u + 9 * b, u + 9 * b, RtR, PETSC_TRUE);
    for (PetscInt j = 0; j < 9; j++) *orth = PetscMax(*orth, PetscAbsReal(RtR[j] - (j % 4 == 0)));
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, m, 4, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)U)));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, orth, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)U)));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ring ring = {
    .N = 16, .k = 2.0, .a = {0.5,  0.1, 0  },
            .p = {-0.5, 0,   0.1}
  };
  PetscInt     nl = PETSC_DECIDE, *idx;
  PetscReal    T = 5, dt = 0.05, *J, m0[4], m1[4], E0, E1, orth, dm;
  TS           ts;
  Vec          U, R;
  Mat          H;
  IS           is;
  PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &ring.N, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-T", &T, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-dt", &dt, NULL));
  PetscCall(PetscSplitOwnership(PETSC_COMM_WORLD, &nl, &ring.N));
  PetscCheck(ring.N >= 3 && nl >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "Take at least 3 bodies and one per process");
  PetscCallMPI(MPI_Scan(&nl, &ring.hi, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  ring.lo = ring.hi - nl;

  /* the gather of the neighbours' attitudes: from an R of the routines' layout (9 entries per body of this process) */
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 9 * nl, PETSC_DETERMINE, &R));
  PetscCall(PetscMalloc1(9 * (nl + 2), &idx));
  for (PetscInt j = 0; j < nl + 2; j++)
    for (PetscInt i = 0; i < 9; i++) idx[9 * j + i] = 9 * ((ring.lo - 1 + j + ring.N) % ring.N) + i;
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, 9 * (nl + 2), idx, PETSC_OWN_POINTER, &is));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 9 * (nl + 2), &ring.Rloc));
  PetscCall(VecScatterCreate(R, is, ring.Rloc, NULL, &ring.scatter));
  PetscCall(ISDestroy(&is));
  PetscCall(VecDestroy(&R));

  /* the state: this process's bodies' attitudes (a twist round the ring), then their body angular momenta; inertias */
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 12 * nl, PETSC_DETERMINE, &U));
  PetscCall(PetscCalloc1(9 * nl, &J));
  PetscCall(VecGetArray(U, &u));
  for (PetscInt b = ring.lo; b < ring.hi; b++) {
    const PetscInt  l  = b - ring.lo;
    const PetscReal th = 2 * PETSC_PI * b / ring.N, xi[3] = {0.3 * PetscCosReal(th), 0.2 * PetscSinReal(th), 0.5 * PetscSinReal(2 * th)};

    PetscCall(SimpVISO3Exp(xi, u + 9 * l));
    u[9 * nl + 3 * l] = 0.2 * PetscSinReal(th), u[9 * nl + 3 * l + 1] = 0, u[9 * nl + 3 * l + 2] = 0.5;
    J[9 * l] = 1, J[9 * l + 4] = 1.5, J[9 * l + 8] = 2;
  }
  PetscCall(VecRestoreArray(U, &u));

  /* the Hessian: 3 rows per body of this process, each body coupled to itself and its two neighbours */
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, 3 * nl, 3 * nl, PETSC_DETERMINE, PETSC_DETERMINE, 9, NULL, 6, NULL, &H));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetRigidBodyInertias(ts, nl, J));
  PetscCall(TSSimpVISetRigidBodyPotentialRoutine(ts, NULL, Potential, &ring));
  PetscCall(TSSimpVISetRigidBodyHessianRoutine(ts, H, Hessian, &ring));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));

  PetscCall(Watch(U, m0, &orth));
  PetscCall(TSSimpVIComputeEnergy(ts, 0, U, &E0));
  PetscCall(TSSolve(ts, U));
  PetscCall(Watch(U, m1, &orth));
  PetscCall(TSSimpVIComputeEnergy(ts, T, U, &E1));
  dm = PetscSqrtReal(PetscSqr(m1[0] - m0[0]) + PetscSqr(m1[1] - m0[1]) + PetscSqr(m1[2] - m0[2]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " bodies on a ring of springs\n", ring.N));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "total angular momentum kept to 1e-15 of sum_b |pi_b|: %s\n", dm < 1e-15 * m0[3] ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "relative energy error below 1e-4: %s\n", PetscAbsReal(E1 - E0) < 1e-4 * PetscAbsReal(E0) ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "attitudes rotations to 1e-13: %s\n", orth < 1e-13 ? "yes" : "no"));

  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&H));
  PetscCall(PetscFree(J));
  PetscCall(VecScatterDestroy(&ring.scatter));
  PetscCall(VecDestroy(&ring.Rloc));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: simpson
    nsize: 2

  test:
    suffix: lobatto
    nsize: 2
    args: -n 24 -ts_simpvi_type lobatto -dt 0.1

  # many bodies: the step's LUs in a fill-reducing order
  test:
    suffix: many
    nsize: 2
    args: -n 2000 -T 0.25

  test:
    suffix: view
    nsize: 2
    args: -n 8 -T 0.1 -ts_view
    filter: grep -E "Rigid|state:|step Jacobian|KSP Object|PC Object|type: (gmres|bjacobi|lu)|bodies on"

TEST*/
