/*
   A ring (or open chain) of N rigid bodies on SO(3) joined by springs between body-fixed attachment points, shared by
   tests/rigidring.c and bench/ (tutorials/ex10.c keeps its own copy, to read on its own). The bodies turn about one
   common fixed point (nested shells, or the rigid fragments of a molecule about its centre, held only by each other):
   body b's point a_b (its "right" end) is joined to body b+1's point p_{b+1} (its "left" end) by a spring of zero rest
   length and stiffness k_b,

     V = sum_b k_b/2 |R_b a_b - R_{b+1} p_{b+1}|^2  (+ optionally gravity, m g l R_b[2][2] per body),

   a function of the bodies' relative attitudes only: without gravity the total spatial angular momentum sum_b R_b pi_b
   is conserved (with gravity its vertical component). With d = R_b a - R_c p (c = b + 1), w = R_b' d, w' = -R_c' d,
   the left-trivialised gradient and Hessian of one spring are
     g_b = k a x w,  g_c = k p x w',
     H_bb = k (-hat(a)^2 + (w a' + a w')/2 - (a.w) I),  H_cc = k (-hat(p)^2 + (w' p' + p w'')/2 - (p.w') I),
     H_bc = k hat(a) R_b' R_c hat(p) = H_cb'.
   The array form (TSSimpVISetRigidBodies(), one process) and the Vec/Mat form (TSSimpVISetRigidBodyInertias() and the
   routines, any number of processes; each process gathers its bodies' two neighbours by a VecScatter) compute the same
   sums. The bodies' parameters and the initial state depend only on their global numbers, so the runs are the same on
   any number of processes.
*/
#ifndef RIGIDRING_H
#define RIGIDRING_H
#include <simpvi.h>

typedef struct {
  PetscInt  N;    /* bodies */
  PetscBool ring; /* a closed ring (N springs) or an open chain (N - 1) */
  PetscReal k;    /* the springs' mean stiffness */
  PetscReal mgl;  /* gravity (0: none) */
  /* the Vec/Mat form: this process's bodies [lo, hi) and the attitudes of lo - 1 .. hi (wrapped round the ring) */
  PetscInt   lo, hi;
  VecScatter scatter;
  Vec        Rloc;
} RigidRing;

/* body b's inertia (diagonal, 9 entries), its attachment points a (right) and p (left), the stiffness of spring b */
static inline void RigidRingBody(const RigidRing *rr, PetscInt b, PetscReal J[9], PetscReal a[3], PetscReal p[3], PetscReal *k)
{
  const PetscReal x = (PetscReal)b;

  for (PetscInt i = 0; i < 9; i++) J[i] = 0;
  J[0] = 1.0 + 0.3 * PetscSinReal(x), J[4] = 1.2 + 0.2 * PetscCosReal(2 * x), J[8] = 0.8 + 0.1 * (PetscReal)(b % 3);
  a[0] = 0.5, a[1] = 0.1 * PetscSinReal(x), a[2] = 0.1 * PetscCosReal(x);
  p[0] = -0.5, p[1] = 0.1 * PetscCosReal(3 * x), p[2] = 0.05;
  *k = rr->k * (1 + 0.1 * PetscSinReal(1.7 * x));
}

/* its start: R_b = exp(xi_b), pi_b */
static inline PetscErrorCode RigidRingStart(PetscInt b, PetscReal R[9], PetscReal pi[3])
{
  const PetscReal x = (PetscReal)b, xi[3] = {0.3 * PetscSinReal(1.3 * x), 0.2 * PetscCosReal(0.7 * x), 0.4 * PetscSinReal(0.5 * x + 1)};

  PetscFunctionBeginUser;
  PetscCall(SimpVISO3Exp(xi, R));
  pi[0] = 0.5 * PetscCosReal(x), pi[1] = 0.3 * PetscSinReal(2 * x), pi[2] = 0.2 + 0.1 * PetscCosReal(x);
  PetscFunctionReturn(0);
}

static inline void Hat(const PetscReal v[3], PetscReal A[9])
{
  A[0] = 0, A[1] = -v[2], A[2] = v[1];
  A[3] = v[2], A[4] = 0, A[5] = -v[0];
  A[6] = -v[1], A[7] = v[0], A[8] = 0;
}

/* C = A' B (3 x 3) */
static inline void TMul(const PetscReal A[9], const PetscReal B[9], PetscReal C[9])
{
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) C[i * 3 + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
}

static inline void Mul(const PetscReal A[9], const PetscReal B[9], PetscReal C[9])
{
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) C[i * 3 + j] = A[i * 3] * B[j] + A[i * 3 + 1] * B[3 + j] + A[i * 3 + 2] * B[6 + j];
}

/* One spring between body b (attitude Rb, point a) and body c (Rc, point p): adds to V, gb, gc (if not NULL) and to
   Hbb, Hbc, Hcc (if not NULL) */
static inline void RigidRingSpring(const PetscReal Rb[9], const PetscReal Rc[9], const PetscReal a[3], const PetscReal p[3], PetscReal k, PetscReal *V, PetscReal gb[3], PetscReal gc[3], PetscReal Hbb[9], PetscReal Hbc[9], PetscReal Hcc[9])
{
  PetscReal d[3], w[3], wc[3], A[9], P[9], RR[9], T[9], Hx[9];

  for (PetscInt i = 0; i < 3; i++) d[i] = Rb[3 * i] * a[0] + Rb[3 * i + 1] * a[1] + Rb[3 * i + 2] * a[2] - (Rc[3 * i] * p[0] + Rc[3 * i + 1] * p[1] + Rc[3 * i + 2] * p[2]);
  for (PetscInt i = 0; i < 3; i++) w[i] = Rb[i] * d[0] + Rb[3 + i] * d[1] + Rb[6 + i] * d[2];
  for (PetscInt i = 0; i < 3; i++) wc[i] = -(Rc[i] * d[0] + Rc[3 + i] * d[1] + Rc[6 + i] * d[2]);
  *V += k / 2 * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (gb) gb[0] += k * (a[1] * w[2] - a[2] * w[1]), gb[1] += k * (a[2] * w[0] - a[0] * w[2]), gb[2] += k * (a[0] * w[1] - a[1] * w[0]);
  if (gc) gc[0] += k * (p[1] * wc[2] - p[2] * wc[1]), gc[1] += k * (p[2] * wc[0] - p[0] * wc[2]), gc[2] += k * (p[0] * wc[1] - p[1] * wc[0]);
  if (!Hbb) return;
  Hat(a, A);
  Hat(p, P);
  {
    const PetscReal aw = a[0] * w[0] + a[1] * w[1] + a[2] * w[2], pw = p[0] * wc[0] + p[1] * wc[1] + p[2] * wc[2];

    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) {
        const PetscReal aa = a[i] * a[j] - (i == j) * (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); /* hat(a)^2 */
        const PetscReal pp = p[i] * p[j] - (i == j) * (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);

        Hbb[i * 3 + j] += k * (-aa + (w[i] * a[j] + a[i] * w[j]) / 2 - aw * (i == j));
        Hcc[i * 3 + j] += k * (-pp + (wc[i] * p[j] + p[i] * wc[j]) / 2 - pw * (i == j));
      }
  }
  TMul(Rb, Rc, RR); /* Rb' Rc */
  Mul(A, RR, T);
  Mul(T, P, Hx);
  for (PetscInt j = 0; j < 9; j++) Hbc[j] += k * Hx[j];
}

/* gravity on one body: V = mgl R[8], g = mgl (e3 x z), H = mgl ((z e3' + e3 z')/2 - z3 I), z = R' e3 */
static inline void RigidRingGravity(PetscReal mgl, const PetscReal R[9], PetscReal *V, PetscReal g[3], PetscReal H[9])
{
  const PetscReal z[3] = {R[6], R[7], R[8]};

  *V += mgl * z[2];
  if (g) g[0] += -mgl * z[1], g[1] += mgl * z[0];
  if (H)
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) H[i * 3 + j] += mgl * ((z[i] * (j == 2) + (i == 2) * z[j]) / 2 - z[2] * (i == j));
}

/* The array form (SimpVIRigidBodyPotentialFn): all N bodies */
static inline PetscErrorCode RigidRingPotential(PetscInt nb, const PetscReal R[], PetscReal *V, PetscReal g[], PetscReal H[], void *ctx)
{
  const RigidRing *rr = (const RigidRing *)ctx;
  const PetscInt   N  = rr->N;

  PetscFunctionBeginUser;
  *V = 0;
  if (g)
    for (PetscInt j = 0; j < 3 * N; j++) g[j] = 0;
  if (H)
    for (PetscInt j = 0; j < 9 * N * N; j++) H[j] = 0;
  for (PetscInt b = 0; b < N; b++) {
    const PetscInt c = (b + 1) % N;
    PetscReal      J[9], a[3], p[3], k, Jc[9], ac[3], pc[3], kc, Hbb[9] = {0}, Hbc[9] = {0}, Hcc[9] = {0};

    if (rr->mgl != 0) {
      PetscReal Hg[9] = {0};

      RigidRingGravity(rr->mgl, R + 9 * b, V, g ? g + 3 * b : NULL, H ? Hg : NULL);
      for (PetscInt i = 0; H && i < 3; i++)
        for (PetscInt j = 0; j < 3; j++) H[(3 * b + i) * 3 * N + 3 * b + j] += Hg[i * 3 + j];
    }
    if (!rr->ring && b == N - 1) continue;
    RigidRingBody(rr, b, J, a, p, &k);
    RigidRingBody(rr, c, Jc, ac, pc, &kc);
    RigidRingSpring(R + 9 * b, R + 9 * c, a, pc, k, V, g ? g + 3 * b : NULL, g ? g + 3 * c : NULL, H ? Hbb : NULL, Hbc, Hcc);
    for (PetscInt i = 0; H && i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) {
        H[(3 * b + i) * 3 * N + 3 * b + j] += Hbb[i * 3 + j];
        H[(3 * c + i) * 3 * N + 3 * c + j] += Hcc[i * 3 + j];
        H[(3 * b + i) * 3 * N + 3 * c + j] += Hbc[i * 3 + j];
        H[(3 * c + j) * 3 * N + 3 * b + i] += Hbc[i * 3 + j];
      }
  }
  PetscFunctionReturn(0);
}

/* The Vec/Mat form: this process's bodies lo..hi-1 (at least one), the scatter of the attitudes of lo - 1 .. hi */
static inline PetscErrorCode RigidRingSetUpVec(RigidRing *rr, MPI_Comm comm, PetscInt nlocal)
{
  PetscInt nl = nlocal + 2, *idx;
  Vec      R;
  IS       is;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Scan(&nlocal, &rr->hi, 1, MPIU_INT, MPI_SUM, comm));
  rr->lo = rr->hi - nlocal;
  PetscCall(VecCreateMPI(comm, 9 * nlocal, 9 * rr->N, &R)); /* the layout of the R the routines get */
  PetscCall(PetscMalloc1(9 * nl, &idx));
  for (PetscInt j = 0; j < nl; j++) {
    const PetscInt b = (rr->lo - 1 + j + rr->N) % rr->N;

    for (PetscInt i = 0; i < 9; i++) idx[9 * j + i] = 9 * b + i;
  }
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, 9 * nl, idx, PETSC_OWN_POINTER, &is));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 9 * nl, &rr->Rloc));
  PetscCall(VecScatterCreate(R, is, rr->Rloc, NULL, &rr->scatter));
  PetscCall(ISDestroy(&is));
  PetscCall(VecDestroy(&R));
  PetscFunctionReturn(0);
}

static inline PetscErrorCode RigidRingDestroyVec(RigidRing *rr)
{
  PetscFunctionBeginUser;
  PetscCall(VecScatterDestroy(&rr->scatter));
  PetscCall(VecDestroy(&rr->Rloc));
  PetscFunctionReturn(0);
}

/* This process's bodies' springs and gravity: V (of its own springs, those to the right of its bodies), and with
   g or H their rows (both springs of each body). Rl: the attitudes of lo - 1 .. hi */
static inline PetscErrorCode RigidRingLocal(const RigidRing *rr, const PetscReal Rl[], PetscReal *V, PetscReal g[], Mat H)
{
  const PetscInt N = rr->N;

  PetscFunctionBeginUser;
  *V = 0;
  for (PetscInt b = rr->lo; b < rr->hi; b++) {
    const PetscInt   j  = b - rr->lo + 1; /* body b in Rl */
    const PetscReal *Rb = Rl + 9 * j;
    PetscReal        Vd = 0, J[9], a[3], p[3], k, Jn[9], an[3], pn[3], kn, Hbb[9] = {0}, Hbn[9] = {0}, Hbp[9] = {0}, Hnn[9] = {0}, gb[3] = {0, 0, 0};
    PetscInt         rows[3], cols[3];

    if (rr->mgl != 0) RigidRingGravity(rr->mgl, Rb, V, gb, Hbb);
    RigidRingBody(rr, b, J, a, p, &k);
    if (rr->ring || b < N - 1) { /* the spring to the right: its energy counted here */
      RigidRingBody(rr, (b + 1) % N, Jn, an, pn, &kn);
      RigidRingSpring(Rb, Rl + 9 * (j + 1), a, pn, k, V, gb, NULL, Hbb, Hbn, Hnn);
    }
    if (rr->ring || b > 0) { /* the spring to the left, body b its right end */
      const PetscInt prev   = (b - 1 + N) % N;
      PetscReal      Hpp[9] = {0}, Hpb[9] = {0};

      RigidRingBody(rr, prev, Jn, an, pn, &kn);
      RigidRingSpring(Rl + 9 * (j - 1), Rb, an, p, kn, &Vd, NULL, gb, Hpp, Hpb, Hbb);
      for (PetscInt r = 0; r < 3; r++)
        for (PetscInt c = 0; c < 3; c++) Hbp[r * 3 + c] = Hpb[c * 3 + r];
    }
    if (g)
      for (PetscInt i = 0; i < 3; i++) g[3 * (b - rr->lo) + i] = gb[i];
    if (!H) continue;
    for (PetscInt i = 0; i < 3; i++) rows[i] = 3 * b + i;
    PetscCall(MatSetValues(H, 3, rows, 3, rows, Hbb, ADD_VALUES));
    if (rr->ring || b < N - 1) {
      for (PetscInt i = 0; i < 3; i++) cols[i] = 3 * ((b + 1) % N) + i;
      PetscCall(MatSetValues(H, 3, rows, 3, cols, Hbn, ADD_VALUES));
    }
    if (rr->ring || b > 0) {
      for (PetscInt i = 0; i < 3; i++) cols[i] = 3 * ((b - 1 + N) % N) + i;
      PetscCall(MatSetValues(H, 3, rows, 3, cols, Hbp, ADD_VALUES));
    }
  }
  PetscFunctionReturn(0);
}

/* TSSimpVIRigidBodyPotentialFn */
static inline PetscErrorCode RigidRingPotentialVec(TS ts, Vec R, PetscReal *V, Vec g, void *ctx)
{
  RigidRing         *rr = (RigidRing *)ctx;
  const PetscScalar *Rl;
  PetscScalar       *ga;

  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(rr->scatter, R, rr->Rloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(rr->scatter, R, rr->Rloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(rr->Rloc, &Rl));
  PetscCall(VecGetArray(g, &ga));
  PetscCall(RigidRingLocal(rr, Rl, V, ga, NULL));
  PetscCall(VecRestoreArray(g, &ga));
  PetscCall(VecRestoreArrayRead(rr->Rloc, &Rl));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, V, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)R)));
  PetscFunctionReturn(0);
}

/* TSSimpVIRigidBodyHessianFn */
static inline PetscErrorCode RigidRingHessianVec(TS ts, Vec R, Mat H, void *ctx)
{
  RigidRing         *rr = (RigidRing *)ctx;
  const PetscScalar *Rl;
  PetscReal          V;

  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(rr->scatter, R, rr->Rloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(rr->scatter, R, rr->Rloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(MatZeroEntries(H));
  PetscCall(VecGetArrayRead(rr->Rloc, &Rl));
  PetscCall(RigidRingLocal(rr, Rl, &V, NULL, H));
  PetscCall(VecRestoreArrayRead(rr->Rloc, &Rl));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* The Hessian's matrix: 3 rows per body of this process, preallocated for a body and its two neighbours */
static inline PetscErrorCode RigidRingCreateHessian(const RigidRing *rr, MPI_Comm comm, Mat *H)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(comm, 3 * (rr->hi - rr->lo), 3 * (rr->hi - rr->lo), 3 * rr->N, 3 * rr->N, 9, NULL, 6, NULL, H));
  PetscFunctionReturn(0);
}

/* The state of bodies lo..hi-1 (the Vec/Mat form's layout: their R, then their pi), and their inertias */
static inline PetscErrorCode RigidRingSetState(const RigidRing *rr, PetscInt lo, PetscInt hi, Vec U, PetscReal J[])
{
  PetscScalar   *u;
  const PetscInt nl = hi - lo;

  PetscFunctionBeginUser;
  PetscCall(VecGetArray(U, &u));
  for (PetscInt b = lo; b < hi; b++) {
    PetscReal a[3], p[3], k;

    PetscCall(RigidRingStart(b, u + 9 * (b - lo), u + 9 * nl + 3 * (b - lo)));
    if (J) RigidRingBody(rr, b, J + 9 * (b - lo), a, p, &k);
  }
  PetscCall(VecRestoreArray(U, &u));
  PetscFunctionReturn(0);
}
#endif
