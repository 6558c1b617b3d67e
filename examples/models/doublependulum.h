/*
   The nonlinear double pendulum (Rojas-Quintero, Dubois, Jourdan 2025, section 3): point masses m1, m2 on massless rods
   of lengths l1, l2, absolute angles q = (q1, q2) from the downward vertical, momenta p = M(q) q'. Shared by
   examples/ex2.c (the paper's Table 2), examples/armcontrol.c (a two-link arm: unit masses and lengths in a horizontal
   plane, g = 0), tests/adjoint.c and tests/smallpath.c (m = l = 1, g = 9.81):
     M(q) = [[(m1 + m2) l1^2, a cos(q1 - q2)], [a cos(q1 - q2), m2 l2^2]],  a = m2 l1 l2,
     V(q) = -(m1 + m2) g l1 cos q1 - m2 g l2 cos q2,
     H(q, p) = 1/2 p' M(q)^-1 p + V(q).
   Every callback takes a DoublePendulum as its context and writes its 2 x 2 MATSEQDENSE matrices (MatCreateSeqDense())
   through their arrays, as a user minding speed would: one array access per matrix, not a MatSetValue() per entry and
   an assembly, so that a benchmark of the step times the library rather than the callbacks. Only petscts.h, so that a
   plain PETSc right-hand side (a benchmark's, for PETSc's own types) can use the mass matrix and the energy too.
*/
#ifndef DOUBLEPENDULUM_H
#define DOUBLEPENDULUM_H
#include <petscts.h>

typedef struct {
  PetscReal m1, m2, l1, l2, g;
} DoublePendulum;

/* M(q): only the off-diagonal entries depend on q */
static inline void DoublePendulumMassMatrix(const DoublePendulum *dp, PetscReal q1, PetscReal q2, PetscReal M[2][2])
{
  M[0][0] = (dp->m1 + dp->m2) * dp->l1 * dp->l1;
  M[0][1] = M[1][0] = dp->m2 * dp->l1 * dp->l2 * PetscCosReal(q1 - q2);
  M[1][1]           = dp->m2 * dp->l2 * dp->l2;
}

static inline PetscReal DoublePendulumPotentialEnergy(const DoublePendulum *dp, PetscReal q1, PetscReal q2)
{
  return -(dp->m1 + dp->m2) * dp->g * dp->l1 * PetscCosReal(q1) - dp->m2 * dp->g * dp->l2 * PetscCosReal(q2);
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

/* For TSSimpVISetMass(). With d = q1 - q2 and s = (1, -1) = grad d, only M12 = M21 = a cos d depends on q:
     Mx(i,j)  = d(M v)_i/dq_j           = -a sin d (v2, v1)_i s_j
     g_j      = 1/2 v' (dM/dq_j) v       = -a sin d v1 v2 s_j
     Mxx(j,k) = 1/2 v' (d2M/dq_j dq_k) v = -a cos d v1 v2 s_j s_k
   The arrays are column-major: entry (i, j) at i + 2 j */
static inline PetscErrorCode DoublePendulumMass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  const DoublePendulum *dp = (const DoublePendulum *)ctx;
  const PetscScalar    *xx, *vv;
  PetscScalar          *gg, *m, *mx, *mxx;
  PetscReal             Mq[2][2], a = dp->m2 * dp->l1 * dp->l2, d, sd, cd, v1, v2;
  const PetscReal       s[2] = {1, -1};

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(g, &gg));
  PetscCall(MatDenseGetArrayWrite(M, &m));
  PetscCall(MatDenseGetArrayWrite(Mx, &mx));
  PetscCall(MatDenseGetArrayWrite(Mxx, &mxx));
  DoublePendulumMassMatrix(dp, PetscRealPart(xx[0]), PetscRealPart(xx[1]), Mq);
  d  = PetscRealPart(xx[0] - xx[1]);
  sd = PetscSinReal(d);
  cd = PetscCosReal(d);
  v1 = PetscRealPart(vv[0]);
  v2 = PetscRealPart(vv[1]);
  for (PetscInt i = 0; i < 2; i++) {
    const PetscReal vo = i ? v1 : v2; /* the other velocity */

    gg[i] = -a * sd * v1 * v2 * s[i];
    for (PetscInt j = 0; j < 2; j++) {
      m[i + 2 * j]   = Mq[i][j];
      mx[i + 2 * j]  = -a * sd * vo * s[j];
      mxx[i + 2 * j] = -a * cd * v1 * v2 * s[i] * s[j];
    }
  }
  PetscCall(MatDenseRestoreArrayWrite(M, &m));
  PetscCall(MatDenseRestoreArrayWrite(Mx, &mx));
  PetscCall(MatDenseRestoreArrayWrite(Mxx, &mxx));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

/* V and grad V for TSSimpVISetPotential() */
static inline PetscErrorCode DoublePendulumPotential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  const DoublePendulum *dp = (const DoublePendulum *)ctx;
  const PetscScalar    *xx;
  PetscScalar          *gg;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  *V    = DoublePendulumPotentialEnergy(dp, PetscRealPart(xx[0]), PetscRealPart(xx[1]));
  gg[0] = (dp->m1 + dp->m2) * dp->g * dp->l1 * PetscSinReal(PetscRealPart(xx[0]));
  gg[1] = dp->m2 * dp->g * dp->l2 * PetscSinReal(PetscRealPart(xx[1]));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

/* the Hessian of V: diagonal, each angle's gravity term alone */
static inline PetscErrorCode DoublePendulumPotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  const DoublePendulum *dp = (const DoublePendulum *)ctx;
  const PetscScalar    *xx;
  PetscScalar          *h;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(MatDenseGetArrayWrite(H, &h));
  h[0] = (dp->m1 + dp->m2) * dp->g * dp->l1 * PetscCosReal(PetscRealPart(xx[0]));
  h[1] = h[2] = 0;
  h[3]        = dp->m2 * dp->g * dp->l2 * PetscCosReal(PetscRealPart(xx[1]));
  PetscCall(MatDenseRestoreArrayWrite(H, &h));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscFunctionReturn(0);
}
#endif
