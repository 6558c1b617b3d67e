/*
   The closed four-bar linkage of tutorials/ex7.c (its comment has the derivation) for bench/fourbar.c; the tutorial
   keeps its own copy, to be read in one file. The
   crank AB (length 1), the coupler BC (2.5) and the rocker CD (2) between the ground pivots A = (0,0) and D = (2,0),
   three uniform bars under gravity, in the joints' coordinates q = (B_x, B_y, C_x, C_y):

     L = 1/2 v' M v - V(q),   M = [a b; b c] (x) I_2,  a = (m1 + m2)/3, b = m2/6, c = (m2 + m3)/3,
     V = g ((m1 + m2)/2 B_y + (m2 + m3)/2 C_y),
     g_1 = (|B - A|^2 - 1)/2,   g_2 = (|C - B|^2 - 2.5^2)/2,   g_3 = (|C - D|^2 - 2^2)/2.

   Mechanics() is its pointwise door (TSSimpVISetPointwiseLagrangian()), Lengths() its constraints
   (TSSimpVISetConstraints()), InitialState() the start.
*/
#ifndef FOURBAR_H
#define FOURBAR_H
#include <simpvi.h>

#define NQ 4 /* B_x, B_y, C_x, C_y */
#define NG 3 /* the bars AB, BC, CD */

typedef struct {
  PetscReal m[3], g;    /* the bars' masses, gravity */
  PetscReal M[2][2];    /* the mass matrix's 2 x 2 pattern (times I_2) */
  PetscReal Minv[2][2]; /* its inverse */
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

/* unit masses, gravity g */
static inline void FourBarSetUp(FourBar *fb, PetscReal g)
{
  PetscReal det;

  for (PetscInt i = 0; i < 3; i++) fb->m[i] = 1;
  fb->g       = g;
  fb->M[0][0] = (fb->m[0] + fb->m[1]) / 3;
  fb->M[0][1] = fb->M[1][0] = fb->m[1] / 6;
  fb->M[1][1]               = (fb->m[1] + fb->m[2]) / 3;
  det                       = fb->M[0][0] * fb->M[1][1] - fb->M[0][1] * fb->M[1][0];
  fb->Minv[0][0]            = fb->M[1][1] / det;
  fb->Minv[1][1]            = fb->M[0][0] / det;
  fb->Minv[0][1] = fb->Minv[1][0] = -fb->M[0][1] / det;
}

/* V and its (constant) gradient */
static inline PetscReal Potential(const FourBar *fb, const PetscReal q[], PetscReal dV[])
{
  const PetscReal wB = fb->g * (fb->m[0] + fb->m[1]) / 2, wC = fb->g * (fb->m[1] + fb->m[2]) / 2;

  if (dV) {
    dV[0] = 0, dV[1] = wB;
    dV[2] = 0, dV[3] = wC;
  }
  return wB * q[1] + wC * q[3];
}

/* y = A x for A = M or M^-1 (a 2 x 2 pattern times I_2) */
static inline void PatternMult(const PetscReal A[2][2], const PetscReal x[], PetscReal y[])
{
  for (PetscInt i = 0; i < 2; i++)
    for (PetscInt c = 0; c < 2; c++) y[2 * i + c] = A[i][0] * x[c] + A[i][1] * x[2 + c];
}

/* the pointwise door: L = 1/2 v' M v - V(q) at npts points */
static inline PetscErrorCode Mechanics(TS ts, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  const FourBar *fb = (const FourBar *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < npts; k++) {
    const PetscReal *q = x + k * n, *w = v + k * n;
    PetscReal        Mw[NQ], dV[NQ], V = Potential(fb, q, dV);

    PatternMult(fb->M, w, Mw);
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
static inline const PetscReal *BarEnd(const PetscReal q[], PetscInt r, PetscInt e, PetscInt *col)
{
  const PetscInt j = bar_end[r][e];

  *col = j >= 0 ? 2 * j : -1;
  return j >= 0 ? q + 2 * j : pivot[-j - 1];
}

/* g_r = (|P - Q|^2 - l_r^2)/2, G_r = (P - Q) on P's columns and -(P - Q) on Q's, H = sum_r lambda_r [I -I; -I I] */
static inline PetscErrorCode Lengths(TS ts, PetscInt n, PetscInt m, const PetscReal q[], const PetscReal lambda[], PetscReal g[], PetscReal G[], PetscReal H[], void *ctx)
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

/* The start q, v: the crank upright (B = (0,1)), C on the circles about B and D on the left of B -> D, the crank turning
   at omega0 and the joints' velocities on the hidden constraint: (C - B).(C' - B') = 0, (C - D).C' = 0 */
static inline void InitialState(PetscReal omega0, PetscReal q[], PetscReal v[])
{
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
}
#endif
