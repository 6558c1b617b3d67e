static char help[] = "The user's matrices of the mechanical and Lagrangian doors filled every way a program may fill them, on the\n"
                     "dense path of small systems (which reads them on their arrays, with the array functions of a MATSEQDENSE\n"
                     "looked up once) and on newtonls: the nonlinear double pendulum (M(q)), whose mass, its derivative terms and\n"
                     "the potential's Hessian change their values at every call, written into MATSEQDENSE by MatDenseGetArray(), by\n"
                     "MatSetValues() and into an array of the program's own placed by MatDensePlaceArray() (another one at each\n"
                     "call), and into MATSEQAIJ by MatSetValues(), preallocated or with entries that appear after the first steps.\n"
                     "Each against the same mechanics through TSSimpVISetPointwiseLagrangian() on the dense path: the same\n"
                     "trajectory to 1e-12, and as many Newton iterations (to one: a Jacobian read from stale values would take\n"
                     "more, or fail).\n\n";

#include <simpvi.h>
#include "../examples/models/doublependulum.h"

typedef enum {
  FILL_DENSE_ARRAY,
  FILL_DENSE_SETVALUES,
  FILL_DENSE_PLACE,
  FILL_AIJ_SETVALUES,
  FILL_AIJ_GROWING
} Fill;
static const char *const Fills[] = {"dense, MatDenseGetArray()", "dense, MatSetValues()", "dense, MatDensePlaceArray()", "AIJ, MatSetValues()", "AIJ, entries appearing"};

typedef enum {
  DOOR_MECHANICAL,
  DOOR_LAGRANGIAN,
  DOOR_POINTWISE
} Door;
static const char *const Doors[] = {"mechanical", "Lagrangian", "pointwise"};

typedef struct {
  DoublePendulum dp;
  Fill           fill;
  Mat            A[4];           /* mechanical: M, Mx, Mxx, K; Lagrangian: Lxx, Lvx, Lvv */
  PetscScalar    place[4][2][4]; /* FILL_DENSE_PLACE: two arrays of the program's own per matrix, used in turn */
  PetscInt       calls[4];
} Ctx;

/* a = the 2 x 2 values (row-major) into matrix j of the context, as the context's fill says */
static PetscErrorCode Fill2x2(Ctx *c, PetscInt j, const PetscReal a[2][2])
{
  Mat         A      = c->A[j];
  PetscInt    idx[2] = {0, 1}, call = c->calls[j]++;
  PetscScalar v[4] = {a[0][0], a[0][1], a[1][0], a[1][1]};

  PetscFunctionBeginUser;
  switch (c->fill) {
  case FILL_DENSE_ARRAY: {
    PetscScalar *x;

    PetscCall(MatDenseGetArray(A, &x)); /* column-major */
    for (PetscInt r = 0; r < 2; r++)
      for (PetscInt col = 0; col < 2; col++) x[r + 2 * col] = a[r][col];
    PetscCall(MatDenseRestoreArray(A, &x));
  } break;
  case FILL_DENSE_PLACE: {
    PetscScalar *x = c->place[j][call % 2];

    if (call > 0) PetscCall(MatDenseResetArray(A));
    for (PetscInt r = 0; r < 2; r++)
      for (PetscInt col = 0; col < 2; col++) x[r + 2 * col] = a[r][col];
    PetscCall(MatDensePlaceArray(A, x));
  } break;
  case FILL_DENSE_SETVALUES:
  case FILL_AIJ_SETVALUES:
    PetscCall(MatSetValues(A, 2, idx, 2, idx, v, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    break;
  case FILL_AIJ_GROWING: /* the nonzero entries only, and the zero ones too from the 40th call on: the pattern grows */
    PetscCall(MatZeroEntries(A));
    for (PetscInt r = 0; r < 2; r++)
      for (PetscInt col = 0; col < 2; col++)
        if (a[r][col] != 0 || call >= 40) PetscCall(MatSetValue(A, r, col, a[r][col], INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    break;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode GetPoint(Vec x, Vec v, PetscReal q[2], PetscReal w[2])
{
  const PetscScalar *xx, *vv;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  for (PetscInt i = 0; i < 2; i++) {
    q[i] = PetscRealPart(xx[i]);
    w[i] = PetscRealPart(vv[i]);
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscFunctionReturn(0);
}

/* the mechanical door's mass callback (DoublePendulumMass()'s values, filled as the context says) */
static PetscErrorCode Mass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  Ctx         *c = (Ctx *)ctx;
  PetscReal    q[2], w[2], Mq[2][2], Mxq[2][2], gq[2], Mxxq[2][2];
  PetscScalar *gg;

  PetscFunctionBeginUser;
  PetscCall(GetPoint(x, v, q, w));
  DoublePendulumMassTerms(&c->dp, q, w, Mq, Mxq, gq, Mxxq);
  PetscCall(Fill2x2(c, 0, Mq));
  PetscCall(Fill2x2(c, 1, Mxq));
  PetscCall(Fill2x2(c, 2, Mxxq));
  PetscCall(VecGetArrayWrite(g, &gg));
  gg[0] = gq[0];
  gg[1] = gq[1];
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

/* the potential's Hessian: diagonal, its values change at every call */
static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *xx;
  PetscReal          w[2], h[2][2] = {
                             {0, 0},
                             {0, 0}
  };

  PetscFunctionBeginUser;
  DoublePendulumGravity(&c->dp, w);
  PetscCall(VecGetArrayRead(x, &xx));
  h[0][0] = w[0] * PetscCosReal(PetscRealPart(xx[0]));
  h[1][1] = w[1] * PetscCosReal(PetscRealPart(xx[1]));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(Fill2x2(c, 3, h));
  PetscFunctionReturn(0);
}

/* the Lagrangian door: L = 1/2 v' M v - V, L_x = g - grad V, L_v = M v */
static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  Ctx         *c = (Ctx *)ctx;
  PetscReal    q[2], u[2], P[2], G[2], Lk[1];
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(GetPoint(x, v, q, u));
  PetscCall(DoublePendulumPointwise(ts, 1, 2, &t, q, u, Lk, P, G, NULL, NULL, NULL, NULL, &c->dp));
  *L = Lk[0];
  PetscCall(VecGetArrayWrite(Lx, &a));
  a[0] = G[0];
  a[1] = G[1];
  PetscCall(VecRestoreArrayWrite(Lx, &a));
  PetscCall(VecGetArrayWrite(Lv, &a));
  a[0] = P[0];
  a[1] = P[1];
  PetscCall(VecRestoreArrayWrite(Lv, &a));
  PetscFunctionReturn(0);
}

/* L_xx = Mxx - hess V, L_vx = d(M v)/dx, L_vv = M: the pointwise form's Gx, Px and Pv */
static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  Ctx      *c = (Ctx *)ctx;
  PetscReal q[2], u[2], P[2], G[2], D[4][4], a[2][2];

  PetscFunctionBeginUser;
  PetscCall(GetPoint(x, v, q, u));
  PetscCall(DoublePendulumPointwise(ts, 1, 2, &t, q, u, NULL, P, G, D[0], D[1], D[2], D[3], &c->dp));
  for (PetscInt b = 0; b < 3; b++) { /* Lxx from Gx, Lvx from Px, Lvv from Pv */
    const PetscInt from[3] = {2, 0, 1};

    for (PetscInt r = 0; r < 2; r++)
      for (PetscInt col = 0; col < 2; col++) a[r][col] = D[from[b]][2 * r + col];
    PetscCall(Fill2x2(c, b, a));
  }
  PetscFunctionReturn(0);
}

/* 40 steps of h = 0.05 of the double pendulum from (pi/4, pi/3) with momenta (1, -0.5); newtonls: -snes_type newtonls
   (else the dense path, SNESSIMPVIDENSE, the default of small systems) */
static PetscErrorCode Run(Door door, Fill fill, const char scheme[], PetscBool newtonls, PetscReal u[4], PetscInt *its, PetscBool *dense)
{
  TS   ts;
  SNES snes;
  Vec  U;
  Ctx  c = {
     .dp = {1, 1, 1, 1, 9.81},
       .fill = fill
  };
  PetscScalar *uu;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, scheme));
  for (PetscInt j = 0; j < 4; j++) {
    if (fill == FILL_AIJ_SETVALUES) PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, &c.A[j])); /* filled by the callbacks only */
    else if (fill == FILL_AIJ_GROWING) {
      PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 1, NULL, &c.A[j]));
      PetscCall(MatSetOption(c.A[j], MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    } else {
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &c.A[j]));
      PetscCall(MatAssemblyBegin(c.A[j], MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(c.A[j], MAT_FINAL_ASSEMBLY));
    }
  }
  if (door == DOOR_MECHANICAL) {
    PetscCall(TSSimpVISetMass(ts, c.A[0], c.A[1], c.A[2], Mass, &c));
    PetscCall(TSSimpVISetPotential(ts, c.A[3], DoublePendulumPotential, PotentialHessian, &c));
  } else if (door == DOOR_LAGRANGIAN) {
    PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, &c));
    PetscCall(TSSimpVISetLagrangianHessian(ts, c.A[0], c.A[1], c.A[2], LagrangianHessian, &c));
  } else PetscCall(TSSimpVISetPointwiseLagrangian(ts, DoublePendulumPointwise, &c.dp));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  PetscCall(VecGetArrayWrite(U, &uu));
  uu[0] = PETSC_PI / 4;
  uu[1] = PETSC_PI / 3;
  uu[2] = 1;
  uu[3] = -0.5;
  PetscCall(VecRestoreArrayWrite(U, &uu));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, 0.05));
  PetscCall(TSSetMaxSteps(ts, 40));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (newtonls) PetscCall(PetscOptionsSetValue(NULL, "-snes_type", "newtonls"));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  if (newtonls) PetscCall(PetscOptionsClearValue(NULL, "-snes_type"));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(PetscObjectTypeCompare((PetscObject)snes, SNESSIMPVIDENSE, dense));
  PetscCall(TSGetSNESIterations(ts, its));
  PetscCall(VecGetArrayRead(U, (const PetscScalar **)&uu));
  for (PetscInt i = 0; i < 4; i++) u[i] = PetscRealPart(uu[i]);
  PetscCall(VecRestoreArrayRead(U, (const PetscScalar **)&uu));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  for (PetscInt j = 0; j < 4; j++) {
    if (fill == FILL_DENSE_PLACE && c.calls[j] > 0) PetscCall(MatDenseResetArray(c.A[j]));
    PetscCall(MatDestroy(&c.A[j]));
  }
  PetscFunctionReturn(0);
}

static PetscReal Difference(const PetscReal a[4], const PetscReal b[4])
{
  PetscReal d = 0, scale = 0;

  for (PetscInt i = 0; i < 4; i++) {
    d     = PetscMax(d, PetscAbsReal(a[i] - b[i]));
    scale = PetscMax(scale, PetscAbsReal(b[i]));
  }
  return d / scale;
}

int main(int argc, char **argv)
{
  const char *schemes[] = {"simpson", "lobatto"};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  for (PetscInt s = 0; s < 2; s++) {
    PetscReal ref[4];
    PetscInt  refits;
    PetscBool refdense;

    PetscCall(Run(DOOR_POINTWISE, FILL_DENSE_ARRAY, schemes[s], PETSC_FALSE, ref, &refits, &refdense));
    for (PetscInt d = DOOR_MECHANICAL; d <= DOOR_LAGRANGIAN; d++)
      for (PetscInt f = FILL_DENSE_ARRAY; f <= FILL_AIJ_GROWING; f++) {
        PetscReal u[2][4];
        PetscInt  its[2];
        PetscBool dense[2];

        for (PetscInt ls = 0; ls < 2; ls++) PetscCall(Run((Door)d, (Fill)f, schemes[s], (PetscBool)ls, u[ls], &its[ls], &dense[ls]));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-7s %-10s %-27s: the dense path (this run, the newtonls run, the pointwise door): %s %s %s, its trajectory and the newtonls one the pointwise door's to 1e-12: %s %s, Newton iterations to one: %s %s\n", schemes[s], Doors[d], Fills[f], dense[0] ? "yes" : "no", dense[1] ? "yes" : "no", refdense ? "yes" : "no", Difference(u[0], ref) < 1e-12 ? "yes" : "no", Difference(u[1], ref) < 1e-12 ? "yes" : "no", PetscAbsInt(its[0] - refits) <= 1 ? "yes" : "no", PetscAbsInt(its[1] - refits) <= 1 ? "yes" : "no"));
      }
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    args: -malloc_dump

TEST*/
