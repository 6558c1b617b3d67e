static char help[] = "The mechanical door's mass memo on the dense path of small systems: the values the mass callback gave at the\n"
                     "quadrature points of an iterate are written back into the user's matrices for the terms of a Jacobian\n"
                     "made there, instead of a second call. The nonlinear double pendulum (M(q)) with MATSEQDENSE M, Mx, Mxx\n"
                     "(the memo's), filled by MatDenseGetArrayWrite() or by MatSetValues(), against the same with MATSEQAIJ\n"
                     "(no memo: the callback is called again at each point of a Jacobian; the same sums on the dense path):\n"
                     "the same trajectory bit for bit, as many Newton iterations and Jacobians, and fewer mass calls by whole\n"
                     "sets of quadrature points (a Jacobian's points served from the memo). The potential's Hessian is AIJ in\n"
                     "every run: with it dense too, the dense runs would take the points path (tests/mechpoints.c) instead.\n\n";

#include <simpvi.h>
#include "../examples/models/doublependulum.h"

typedef enum {
  FILL_DENSE_ARRAY,
  FILL_DENSE_SETVALUES,
  FILL_AIJ
} Fill;
static const char *const Fills[] = {"dense, MatDenseGetArrayWrite()", "dense, MatSetValues()", "AIJ, MatSetValues()"};

typedef struct {
  DoublePendulum dp;
  Fill           fill;
  PetscInt       calls, hcalls; /* of the mass callback, of the potential's Hessian (once per point of a Jacobian) */
} Ctx;

/* A into the matrix, as the context's fill says */
static PetscErrorCode Fill2x2(Ctx *c, Mat A, const PetscReal a[2][2])
{
  PetscInt    idx[2] = {0, 1};
  PetscScalar v[4]   = {a[0][0], a[0][1], a[1][0], a[1][1]}, *x;

  PetscFunctionBeginUser;
  if (c->fill == FILL_DENSE_ARRAY) {
    PetscCall(MatDenseGetArrayWrite(A, &x)); /* column-major */
    for (PetscInt r = 0; r < 2; r++)
      for (PetscInt col = 0; col < 2; col++) x[r + 2 * col] = a[r][col];
    PetscCall(MatDenseRestoreArrayWrite(A, &x));
  } else {
    PetscCall(MatSetValues(A, 2, idx, 2, idx, v, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* DoublePendulumMass()'s values, filled as the context says, counted */
static PetscErrorCode Mass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *xx, *vv;
  PetscReal          q[2], w[2], Mq[2][2], Mxq[2][2], gq[2], Mxxq[2][2];
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  c->calls++;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  for (PetscInt i = 0; i < 2; i++) {
    q[i] = PetscRealPart(xx[i]);
    w[i] = PetscRealPart(vv[i]);
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  DoublePendulumMassTerms(&c->dp, q, w, Mq, Mxq, gq, Mxxq);
  PetscCall(Fill2x2(c, M, Mq));
  PetscCall(Fill2x2(c, Mx, Mxq));
  PetscCall(Fill2x2(c, Mxx, Mxxq));
  PetscCall(VecGetArrayWrite(g, &gg));
  gg[0] = gq[0];
  gg[1] = gq[1];
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

/* DoublePendulumPotentialHessian()'s values into the AIJ H, counted */
static PetscErrorCode Hessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *xx;
  PetscReal          w[2];

  PetscFunctionBeginUser;
  c->hcalls++;
  DoublePendulumGravity(&c->dp, w);
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(MatSetValue(H, 0, 0, w[0] * PetscCosReal(PetscRealPart(xx[0])), INSERT_VALUES));
  PetscCall(MatSetValue(H, 1, 1, w[1] * PetscCosReal(PetscRealPart(xx[1])), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* steps of h from (pi/4, pi/3) with momenta (1, -0.5): the end state, the mass calls, the Hessian calls (as many per
   Jacobian), Newton iterations, the quadrature points of the scheme */
static PetscErrorCode Run(Fill fill, const char scheme[], PetscInt degree, PetscReal h, PetscInt steps, PetscReal u[4], PetscInt *calls, PetscInt *hcalls, PetscInt *its, PetscInt *nq)
{
  TS   ts;
  SNES snes;
  Vec  U;
  Mat  A[3], K;
  Ctx  c = {
     .dp = {1, 1, 1, 1, 9.81},
       .fill = fill
  };
  PetscScalar *uu;
  PetscBool    dense;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, scheme));
  if (degree > 0) PetscCall(TSSimpVISetDegree(ts, degree));
  for (PetscInt j = 0; j < 3; j++) {
    if (fill == FILL_AIJ) PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, &A[j]));
    else {
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &A[j]));
      PetscCall(MatAssemblyBegin(A[j], MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A[j], MAT_FINAL_ASSEMBLY));
    }
  }
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 1, NULL, &K)); /* (a MATSEQDENSE K with a dense mass takes the points path, tests/mechpoints.c) */
  PetscCall(TSSimpVISetMass(ts, A[0], A[1], A[2], Mass, &c));
  PetscCall(TSSimpVISetPotential(ts, K, DoublePendulumPotential, Hessian, &c));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  PetscCall(VecGetArrayWrite(U, &uu));
  uu[0] = PETSC_PI / 4;
  uu[1] = PETSC_PI / 3;
  uu[2] = 1;
  uu[3] = -0.5;
  PetscCall(VecRestoreArrayWrite(U, &uu));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(PetscObjectTypeCompare((PetscObject)snes, SNESSIMPVIDENSE, &dense));
  PetscCheck(dense, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Not the dense path");
  PetscCall(TSGetSNESIterations(ts, its));
  PetscCall(TSSimpVIGetTableau(ts, NULL, nq, NULL, NULL, NULL, NULL, NULL));
  *calls  = c.calls;
  *hcalls = c.hcalls;
  PetscCall(VecGetArrayRead(U, (const PetscScalar **)&uu));
  for (PetscInt i = 0; i < 4; i++) u[i] = PetscRealPart(uu[i]);
  PetscCall(VecRestoreArrayRead(U, (const PetscScalar **)&uu));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  for (PetscInt j = 0; j < 3; j++) PetscCall(MatDestroy(&A[j]));
  PetscCall(MatDestroy(&K));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const char    *schemes[] = {"lobatto", "lobatto", "gauss", "simpson"};
  const PetscInt degrees[] = {6, 3, 3, 0};
  PetscReal      h         = 0.1;
  PetscInt       steps     = 60;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-h", &h, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  for (PetscInt s = 0; s < 4; s++) {
    PetscReal ref[4];
    PetscInt  refcalls, refhcalls, refits, nq;

    PetscCall(Run(FILL_AIJ, schemes[s], degrees[s], h, steps, ref, &refcalls, &refhcalls, &refits, &nq));
    for (PetscInt f = FILL_DENSE_ARRAY; f <= FILL_DENSE_SETVALUES; f++) {
      PetscReal u[4];
      PetscInt  calls, hcalls, its;
      PetscBool same = PETSC_TRUE;

      PetscCall(Run((Fill)f, schemes[s], degrees[s], h, steps, u, &calls, &hcalls, &its, &nq));
      for (PetscInt i = 0; i < 4; i++) same = (PetscBool)(same && u[i] == ref[i]);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %" PetscInt_FMT ", %-30s: the AIJ run's end state bit for bit: %s, its Newton iterations and Jacobians: %s, fewer mass calls by whole sets of the %" PetscInt_FMT " points: %s\n", schemes[s], degrees[s], Fills[f], same ? "yes" : "no", its == refits && hcalls == refhcalls ? "yes" : "no", nq, calls < refcalls && (refcalls - calls) % nq == 0 ? "yes" : "no"));
      PetscCall(PetscInfo(NULL, "mass calls %" PetscInt_FMT " against %" PetscInt_FMT " (AIJ), Hessian calls %" PetscInt_FMT "\n", calls, refcalls, hcalls));
    }
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    args: -malloc_dump

TEST*/
