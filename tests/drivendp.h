/* The driven double pendulum of tests/lagpoints.c and tests/latesetters.c, L = 1/2 v' M(q) v - V_g(q) - a sin(w t) q1 q2,
   as a program gives it to each door: the pointwise form (Model()), and the Lagrangian door's L (Lagrangian()) and
   Hessians filled by MatSetValues() (Hessian()), into the matrices given or the program's own (writesproblem) */
#ifndef SIMPVI_TESTS_DRIVENDP_H
#define SIMPVI_TESTS_DRIVENDP_H

#include <simpvi.h>
#include "../examples/models/doublependulum.h"

typedef enum {
  DOOR_POINTS,   /* MATSEQDENSE Hessians: the points path */
  DOOR_VEC,      /* an AIJ Lvv: the Vec path */
  DOOR_POINTWISE /* TSSimpVISetPointwiseLagrangian() */
} Door;
static const char *const Doors[] = {"points path", "Vec path", "pointwise door"};

typedef struct {
  DoublePendulum dp;
  PetscReal      a, w;          /* the drive a sin(w t) q1 q2 */
  PetscReal      tfault, h;     /* an L call at t in [tfault, tfault + h) in a step of size h sets a domain error (tfault < 0: none) */
  PetscBool      writesproblem; /* the Hessian writes A[] (the program's matrices), not its arguments */
  Mat            A[3];          /* Lxx, Lvx, Lvv */
  PetscInt       hcalls;        /* of the Hessian */
} Ctx;

/* The model's pointwise form at npts points with the drive added: the pointwise door's function, and L's */
static PetscErrorCode Model(TS ts, PetscInt npts, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  Ctx *c = (Ctx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(DoublePendulumPointwise(ts, npts, n, t, x, v, L, P, G, Px, Pv, Gx, Gv, &c->dp));
  for (PetscInt k = 0; k < npts; k++) {
    const PetscReal d = c->a * PetscSinReal(c->w * t[k]), *q = x + 2 * k;

    if (L) L[k] -= d * q[0] * q[1];
    if (G) {
      G[2 * k] -= d * q[1];
      G[2 * k + 1] -= d * q[0];
    }
    if (Gx) {
      Gx[4 * k + 1] -= d;
      Gx[4 * k + 2] -= d;
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Point(Vec x, Vec v, PetscReal q[2], PetscReal u[2])
{
  const PetscScalar *a, *b;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayRead(v, &b));
  for (PetscInt j = 0; j < 2; j++) {
    q[j] = PetscRealPart(a[j]);
    u[j] = PetscRealPart(b[j]);
  }
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(VecRestoreArrayRead(v, &b));
  PetscFunctionReturn(0);
}

static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  Ctx         *c = (Ctx *)ctx;
  PetscReal    q[2], u[2], P[2], G[2], l;
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(Point(x, v, q, u));
  PetscCall(Model(ts, 1, 2, &t, q, u, &l, P, G, NULL, NULL, NULL, NULL, c));
  *L = l;
  PetscCall(VecGetArrayWrite(Lx, &a));
  a[0] = G[0];
  a[1] = G[1];
  PetscCall(VecRestoreArrayWrite(Lx, &a));
  PetscCall(VecGetArrayWrite(Lv, &a));
  a[0] = P[0];
  a[1] = P[1];
  PetscCall(VecRestoreArrayWrite(Lv, &a));
  if (c->tfault >= 0 && t >= c->tfault && t < c->tfault + c->h) {
    SNES      snes;
    PetscReal dt;

    PetscCall(TSGetTimeStep(ts, &dt));
    PetscCall(TSGetSNES(ts, &snes));
    if (dt >= c->h) PetscCall(SNESSetFunctionDomainError(snes));
  }
  PetscFunctionReturn(0);
}

/* Lxx = Gx, Lvx = Px, Lvv = Pv by MatSetValues() into the matrices given, or into the program's own */
static PetscErrorCode Hessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  Ctx           *c      = (Ctx *)ctx;
  const PetscInt idx[2] = {0, 1}, from[3] = {2, 0, 1};
  Mat            B[3] = {Lxx, Lvx, Lvv};
  PetscReal      q[2], u[2], P[2], G[2], D[4][4];

  PetscFunctionBeginUser;
  c->hcalls++;
  PetscCall(Point(x, v, q, u));
  PetscCall(Model(ts, 1, 2, &t, q, u, NULL, P, G, D[0], D[1], D[2], D[3], c));
  for (PetscInt b = 0; b < 3; b++) {
    Mat         A = c->writesproblem ? c->A[b] : B[b];
    PetscScalar a[4];

    for (PetscInt j = 0; j < 4; j++) a[j] = D[from[b]][j];
    PetscCall(MatSetValues(A, 2, idx, 2, idx, a, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

#endif
