/*
   The nonlinear double pendulum (Rojas-Quintero, Dubois, Jourdan 2025, section 3): point masses m1, m2 on massless rods
   of lengths l1, l2, absolute angles q = (q1, q2) from the downward vertical, momenta p = M(q) q'. Shared by
   examples/ex2.c (the paper's Table 2), examples/armcontrol.c (a two-link arm: unit masses and lengths in a horizontal
   plane, g = 0), tests/adjoint.c and tests/smallpath.c (m = l = 1, g = 9.81):
     M(q) = [[(m1 + m2) l1^2, a cos(q1 - q2)], [a cos(q1 - q2), m2 l2^2]],  a = m2 l1 l2,
     V(q) = -(m1 + m2) g l1 cos q1 - m2 g l2 cos q2,
     H(q, p) = 1/2 p' M(q)^-1 p + V(q).
   Every callback takes a DoublePendulum as its context. Those of the mechanical door write their 2 x 2 MATSEQDENSE
   matrices (MatCreateSeqDense()) through their arrays, as a user minding speed would: one array access per matrix, not
   a MatSetValue() per entry and an assembly, so that a benchmark of the step times the library rather than the
   callbacks; DoublePendulumPointwise() gives the same mechanics on plain arrays (TSSimpVISetPointwiseLagrangian()).
   Only petscts.h, so that a plain PETSc right-hand side (a benchmark's, for PETSc's own types) can use the mass matrix,
   its derivative terms and the energy too.
*/
#ifndef DOUBLEPENDULUM_H
#define DOUBLEPENDULUM_H
#include <petscts.h>

typedef struct {
  PetscReal m1, m2, l1, l2, g;
} DoublePendulum;

/* the weights of V = -w_1 cos q1 - w_2 cos q2: (m1 + m2) g l1 and m2 g l2 */
static inline void DoublePendulumGravity(const DoublePendulum *dp, PetscReal w[2])
{
  w[0] = (dp->m1 + dp->m2) * dp->g * dp->l1;
  w[1] = dp->m2 * dp->g * dp->l2;
}

/* M(q): only the off-diagonal entries depend on q */
static inline void DoublePendulumMassMatrix(const DoublePendulum *dp, PetscReal q1, PetscReal q2, PetscReal M[2][2])
{
  M[0][0] = (dp->m1 + dp->m2) * dp->l1 * dp->l1;
  M[0][1] = M[1][0] = dp->m2 * dp->l1 * dp->l2 * PetscCosReal(q1 - q2);
  M[1][1]           = dp->m2 * dp->l2 * dp->l2;
}

static inline PetscReal DoublePendulumPotentialEnergy(const DoublePendulum *dp, PetscReal q1, PetscReal q2)
{
  PetscReal w[2];

  DoublePendulumGravity(dp, w);
  return -w[0] * PetscCosReal(q1) - w[1] * PetscCosReal(q2);
}

/* H at U = (q1, q2, p1, p2) from the state alone, independent of the library: v = M^-1 p by Cramer's rule */
static inline PetscReal DoublePendulumEnergy(const DoublePendulum *dp, const PetscReal u[4])
{
  PetscReal M[2][2], det, v[2];

  DoublePendulumMassMatrix(dp, u[0], u[1], M);
  det  = M[0][0] * M[1][1] - M[0][1] * M[1][0];
  v[0] = (M[1][1] * u[2] - M[0][1] * u[3]) / det;
  v[1] = (-M[1][0] * u[2] + M[0][0] * u[3]) / det;
  return 0.5 * (u[2] * v[0] + u[3] * v[1]) + DoublePendulumPotentialEnergy(dp, u[0], u[1]);
}

/* M and the derivative terms of the kinetic energy at (q, v). With a = m2 l1 l2, d = q1 - q2 and s = (1, -1) = grad d,
   only M12 = M21 = a cos d depends on q:
     Mx(i,j)  = d(M v)_i/dq_j           = -a sin d (v2, v1)_i s_j
     g_j      = 1/2 v' (dM/dq_j) v       = -a sin d v1 v2 s_j
     Mxx(j,k) = 1/2 v' (d2M/dq_j dq_k) v = -a cos d v1 v2 s_j s_k
   M is DoublePendulumMassMatrix()'s, from the one cosine of d computed here */
static inline void DoublePendulumMassTerms(const DoublePendulum *dp, const PetscReal q[2], const PetscReal v[2], PetscReal M[2][2], PetscReal Mx[2][2], PetscReal g[2], PetscReal Mxx[2][2])
{
  const PetscReal a = dp->m2 * dp->l1 * dp->l2, d = q[0] - q[1], sd = PetscSinReal(d), cd = PetscCosReal(d), s[2] = {1, -1};

  M[0][0] = (dp->m1 + dp->m2) * dp->l1 * dp->l1;
  M[0][1] = M[1][0] = a * cd;
  M[1][1]           = dp->m2 * dp->l2 * dp->l2;
  for (PetscInt i = 0; i < 2; i++) {
    g[i] = -a * sd * v[0] * v[1] * s[i];
    for (PetscInt j = 0; j < 2; j++) {
      Mx[i][j]  = -a * sd * v[1 - i] * s[j];
      Mxx[i][j] = -a * cd * v[0] * v[1] * s[i] * s[j];
    }
  }
}

/* For TSSimpVISetMass(); the dense arrays are column-major: entry (i, j) at i + 2 j */
static inline PetscErrorCode DoublePendulumMass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  const PetscScalar *xx, *vv;
  PetscScalar       *gg, *m, *mx, *mxx;
  PetscReal          q[2], w[2], Mq[2][2], Mxq[2][2], gq[2], Mxxq[2][2];

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  for (PetscInt i = 0; i < 2; i++) {
    q[i] = PetscRealPart(xx[i]);
    w[i] = PetscRealPart(vv[i]);
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  DoublePendulumMassTerms((const DoublePendulum *)ctx, q, w, Mq, Mxq, gq, Mxxq);
  PetscCall(VecGetArrayWrite(g, &gg));
  PetscCall(MatDenseGetArrayWrite(M, &m));
  PetscCall(MatDenseGetArrayWrite(Mx, &mx));
  PetscCall(MatDenseGetArrayWrite(Mxx, &mxx));
  for (PetscInt i = 0; i < 2; i++) {
    gg[i] = gq[i];
    for (PetscInt j = 0; j < 2; j++) {
      m[i + 2 * j]   = Mq[i][j];
      mx[i + 2 * j]  = Mxq[i][j];
      mxx[i + 2 * j] = Mxxq[i][j];
    }
  }
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(MatDenseRestoreArrayWrite(M, &m));
  PetscCall(MatDenseRestoreArrayWrite(Mx, &mx));
  PetscCall(MatDenseRestoreArrayWrite(Mxx, &mxx));
  PetscFunctionReturn(0);
}

/* V and grad V for TSSimpVISetPotential() */
static inline PetscErrorCode DoublePendulumPotential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  const DoublePendulum *dp = (const DoublePendulum *)ctx;
  const PetscScalar    *xx;
  PetscScalar          *gg;
  PetscReal             w[2];

  PetscFunctionBeginUser;
  DoublePendulumGravity(dp, w);
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  *V    = DoublePendulumPotentialEnergy(dp, PetscRealPart(xx[0]), PetscRealPart(xx[1]));
  gg[0] = w[0] * PetscSinReal(PetscRealPart(xx[0]));
  gg[1] = w[1] * PetscSinReal(PetscRealPart(xx[1]));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

/* the Hessian of V: diagonal, each angle's gravity term alone */
static inline PetscErrorCode DoublePendulumPotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  const PetscScalar *xx;
  PetscScalar       *h;
  PetscReal          w[2];

  PetscFunctionBeginUser;
  DoublePendulumGravity((const DoublePendulum *)ctx, w);
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(MatDenseGetArrayWrite(H, &h));
  h[0] = w[0] * PetscCosReal(PetscRealPart(xx[0]));
  h[1] = h[2] = 0;
  h[3]        = w[1] * PetscCosReal(PetscRealPart(xx[1]));
  PetscCall(MatDenseRestoreArrayWrite(H, &h));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscFunctionReturn(0);
}

/* The same mechanics for TSSimpVISetPointwiseLagrangian() (n = 2), at every point of the call: L = 1/2 v' M v - V,
   P = M v, G = g - grad V, Px = Mx, Pv = M, Gx = Mxx - hess V and Gv = Mx' (row-major blocks) */
static inline PetscErrorCode DoublePendulumPointwise(TS ts, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  const DoublePendulum *dp = (const DoublePendulum *)ctx;
  PetscReal             w[2];

  PetscFunctionBeginUser;
  PetscCheck(n == 2, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_SIZ, "The double pendulum has 2 positions, not %" PetscInt_FMT, n);
  DoublePendulumGravity(dp, w);
  for (PetscInt k = 0; k < npts; k++) {
    const PetscReal *q = x + 2 * k, *u = v + 2 * k;
    PetscReal        M[2][2], Mx[2][2], g[2], Mxx[2][2];

    DoublePendulumMassTerms(dp, q, u, M, Mx, g, Mxx);
    if (L) L[k] = 0.5 * (M[0][0] * u[0] * u[0] + 2 * M[0][1] * u[0] * u[1] + M[1][1] * u[1] * u[1]) + w[0] * PetscCosReal(q[0]) + w[1] * PetscCosReal(q[1]);
    for (PetscInt i = 0; i < 2; i++) {
      if (P) P[2 * k + i] = M[i][0] * u[0] + M[i][1] * u[1];
      if (G) G[2 * k + i] = g[i] - w[i] * PetscSinReal(q[i]);
      if (Px)
        for (PetscInt j = 0; j < 2; j++) {
          Px[4 * k + 2 * i + j] = Mx[i][j];
          Gv[4 * k + 2 * i + j] = Mx[j][i];
          Pv[4 * k + 2 * i + j] = M[i][j];
          Gx[4 * k + 2 * i + j] = Mxx[i][j] - (i == j ? w[i] * PetscCosReal(q[i]) : 0);
        }
    }
  }
  PetscFunctionReturn(0);
}
#endif
