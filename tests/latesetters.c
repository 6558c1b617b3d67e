static char help[] = "The problem changed between two TSSolve() of a TSSIMPVI (its setters after the set-up). The driven double pendulum of\n"
                     "tests/lagpoints.c through the Lagrangian door, 10 steps without a force, then a damping force f = -c v for 10\n"
                     "more (TSSimpVISetForce()); and through the mechanical door, 10 steps without a potential, or with a constant\n"
                     "mass, then 10 with the potential (TSSimpVISetPotential()), or with M(q) (TSSimpVISetMass()). Each second solve\n"
                     "must end where a second TS given the whole problem before its set-up ends, started where the first stopped:\n"
                     "on the Vec path and, for the mechanical door, on the array path of small systems (MATSEQDENSE matrices). A\n"
                     "force, which the array path takes none of, an AIJ matrix, which it cannot read, mechanics that call for another\n"
                     "door than the one set up, and a number of constraints the step was not laid out for, are errors that say so\n"
                     "(PETSC_ERR_ORDER), never mechanics silently left out or an error inside a step.\n\n";

#include <simpvi.h>
#include "drivendp.h"
#include "viewtext.h"

/* f = -c v, df/dv = -c I */
static PetscErrorCode Damping(TS ts, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(VecCopy(v, f));
  PetscCall(VecScale(f, -0.3));
  PetscFunctionReturn(0);
}

static PetscErrorCode DampingJacobian(TS ts, PetscReal t, Vec x, Vec v, Mat Fx, Mat Fv, void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(MatZeroEntries(Fv));
  PetscCall(MatShift(Fv, -0.3));
  PetscFunctionReturn(0);
}

/* A TS of the door from (t0, u) with steps h: the Lagrangian's matrices in A (AIJ Lvv on the Vec path) */
static PetscErrorCode Create(Door door, Ctx *c, PetscReal t0, TS *ts)
{
  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < 3; b++) {
    if (door == DOOR_VEC && b == 2) PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, &c->A[b]));
    else PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &c->A[b]));
    for (PetscInt i = 0; i < 2; i++)
      for (PetscInt j = 0; j < 2; j++) PetscCall(MatSetValue(c->A[b], i, j, 0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(c->A[b], MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(c->A[b], MAT_FINAL_ASSEMBLY));
  }
  PetscCall(TSCreate(PETSC_COMM_SELF, ts));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(*ts, "lobatto"));
  if (door == DOOR_POINTWISE) PetscCall(TSSimpVISetPointwiseLagrangian(*ts, Model, c));
  else {
    PetscCall(TSSimpVISetLagrangian(*ts, Lagrangian, c));
    PetscCall(TSSimpVISetLagrangianHessian(*ts, c->A[0], c->A[1], c->A[2], Hessian, c));
  }
  PetscCall(TSSetTime(*ts, t0));
  PetscCall(TSSetTimeStep(*ts, c->h));
  PetscCall(TSSetMaxTime(*ts, 1e3));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(*ts));
  PetscFunctionReturn(0);
}

static PetscErrorCode Destroy(Ctx *c, TS *ts)
{
  PetscFunctionBeginUser;
  PetscCall(TSDestroy(ts));
  for (PetscInt b = 0; b < 3; b++) PetscCall(MatDestroy(&c->A[b]));
  PetscFunctionReturn(0);
}

/* g(q) = q1 - q2: never evaluated, the call that gives it is refused */
static PetscErrorCode Constraint(TS ts, PetscInt n, PetscInt m, const PetscReal q[], const PetscReal lambda[], PetscReal g[], PetscReal G[], PetscReal H[], void *ctx)
{
  PetscFunctionBeginUser;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "Not to be called");
}

/* The mechanical door from (t0, u): the mass M(q) (mass) or the constant one of its start (else), the potential
   (potential) or none; every matrix MATSEQDENSE, the step on arrays (dense) or the SNES path (-ts_simpvi_small_limit 0) */
static PetscErrorCode CreateMechanical(PetscBool dense, PetscBool mass, PetscBool potential, PetscReal t0, Ctx *c, Mat A[4], TS *ts)
{
  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < 4; b++) {
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &A[b]));
    for (PetscInt i = 0; i < 2; i++)
      for (PetscInt j = 0; j < 2; j++) PetscCall(MatSetValue(A[b], i, j, i == j ? 2.0 : 0.5, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A[b], MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A[b], MAT_FINAL_ASSEMBLY));
  }
  PetscCall(TSCreate(PETSC_COMM_SELF, ts));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(*ts, "lobatto"));
  if (mass) PetscCall(TSSimpVISetMass(*ts, A[0], A[1], A[2], DoublePendulumMass, &c->dp));
  else PetscCall(TSSimpVISetMass(*ts, A[0], NULL, NULL, NULL, NULL));
  if (potential) PetscCall(TSSimpVISetPotential(*ts, A[3], DoublePendulumPotential, DoublePendulumPotentialHessian, &c->dp));
  PetscCall(TSSetTime(*ts, t0));
  PetscCall(TSSetTimeStep(*ts, c->h));
  PetscCall(TSSetMaxTime(*ts, 1e3));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (!dense) PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_small_limit", "0"));
  PetscCall(TSSetFromOptions(*ts));
  PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_small_limit"));
  PetscFunctionReturn(0);
}

/* ref 10 steps from Uref (given the mechanics before its set-up), ts 10 more after its first 10 (given them between
   its solves): max |Uref - U| of the two end states */
static PetscErrorCode SolveBoth(TS ref, Vec Uref, TS ts, Vec U, PetscReal *diff)
{
  PetscFunctionBeginUser;
  PetscCall(TSSetMaxSteps(ref, 10));
  PetscCall(TSSolve(ref, Uref));
  PetscCall(TSSetMaxSteps(ts, 20));
  PetscCall(TSSolve(ts, U));
  PetscCall(VecAXPY(Uref, -1, U));
  PetscCall(VecNorm(Uref, NORM_INFINITY, diff));
  PetscFunctionReturn(0);
}

static PetscErrorCode MechanicalLate(PetscBool dense, PetscBool latemass)
{
  Ctx c = {
    .dp = {1, 1, 1, 1, 9.81},
      .h = 0.1
  };
  TS           ts, ref;
  Mat          A[4], B[4], K;
  Vec          U, Uref;
  PetscScalar *u;
  PetscReal    t, diff;
  const char  *what = latemass ? "M(q) after a constant mass" : "the potential after none";

  PetscFunctionBeginUser;
  PetscCall(CreateMechanical(dense, (PetscBool)!latemass, latemass, 0, &c, A, &ts));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  u[0] = 0.7;
  u[1] = 1;
  u[2] = 1;
  u[3] = -0.5;
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(TSSetMaxSteps(ts, 10));
  PetscCall(TSSolve(ts, U));
  if (latemass) PetscCall(TSSimpVISetMass(ts, A[0], A[1], A[2], DoublePendulumMass, &c.dp));
  else PetscCall(TSSimpVISetPotential(ts, A[3], DoublePendulumPotential, DoublePendulumPotentialHessian, &c.dp));
  PetscCall(TSGetTime(ts, &t));
  PetscCall(VecDuplicate(U, &Uref));
  PetscCall(VecCopy(U, Uref));
  PetscCall(CreateMechanical(dense, PETSC_TRUE, PETSC_TRUE, t, &c, B, &ref));
  PetscCall(SolveBoth(ref, Uref, ts, U, &diff));
  {
    static char view[1 << 16];

    PetscCall(TSViewText(ts, "latesetters", sizeof(view), view));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "mechanical door, %s (%s): %s given between the solves taken, the end state that of a TS given it before (to 1e-12): %s\n", dense ? "array path" : "SNES path", strstr(view, "P, G and their derivatives at every quadrature point") ? "on arrays" : "not on arrays", what, diff <= 1e-12 ? "yes" : "no"));
  }
  PetscCall(PetscInfo(NULL, "end states differ by %g\n", (double)diff));
  if (dense && !latemass) { /* an AIJ Hessian, which the array path cannot read: refused at the call */
    PetscErrorCode ierr;

    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, &K));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = TSSimpVISetPotential(ts, K, DoublePendulumPotential, DoublePendulumPotentialHessian, &c.dp);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "mechanical door, array path: an AIJ potential Hessian between the solves refused with PETSC_ERR_ORDER: %s\n", ierr == PETSC_ERR_ORDER ? "yes" : "no"));
    /* a Lagrangian beside the mass and potential: two sets of mechanics, refused, not left out */
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = TSSimpVISetLagrangian(ts, Lagrangian, &c);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "mechanical door: a Lagrangian given between the solves (beside the mass and potential) refused with PETSC_ERR_USER: %s\n", ierr == PETSC_ERR_USER ? "yes" : "no"));
    /* a constraint, for which the step has no multiplier: refused */
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = TSSimpVISetConstraints(ts, 1, Constraint, NULL);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "mechanical door: a constraint given between the solves (the step laid out without one) refused with PETSC_ERR_ORDER: %s\n", ierr == PETSC_ERR_ORDER ? "yes" : "no"));
    PetscCall(MatDestroy(&K));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(TSDestroy(&ref));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&Uref));
  for (PetscInt b = 0; b < 4; b++) {
    PetscCall(MatDestroy(&A[b]));
    PetscCall(MatDestroy(&B[b]));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx c = {
    .dp = {1, 1, 1, 1, 9.81},
      .a = 0.5, .w = 1.3, .tfault = -1, .h = 0.1
  };
  TS           ts, ref;
  Vec          U, Uref;
  Mat          Fv;
  PetscScalar *u;
  PetscReal    t, diff;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 1, NULL, &Fv));
  for (PetscInt i = 0; i < 2; i++) PetscCall(MatSetValue(Fv, i, i, 0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(Fv, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Fv, MAT_FINAL_ASSEMBLY));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  for (PetscInt d = DOOR_POINTS; d <= DOOR_POINTWISE; d++) {
    PetscErrorCode ierr;

    PetscCall(Create((Door)d, &c, 0, &ts));
    PetscCall(VecGetArrayWrite(U, &u));
    u[0] = PETSC_PI / 4;
    u[1] = PETSC_PI / 3;
    u[2] = 1;
    u[3] = -0.5;
    PetscCall(VecRestoreArrayWrite(U, &u));
    PetscCall(TSSetMaxSteps(ts, 10));
    PetscCall(TSSolve(ts, U));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = TSSimpVISetForce(ts, NULL, Fv, Damping, DampingJacobian, NULL);
    PetscCall(PetscPopErrorHandler());
    if (d != DOOR_VEC) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: the force after the set-up refused with PETSC_ERR_ORDER: %s\n", Doors[d], ierr == PETSC_ERR_ORDER ? "yes" : "no"));
      PetscCall(Destroy(&c, &ts));
      continue;
    }
    PetscCheck(!ierr, PETSC_COMM_SELF, ierr, "TSSimpVISetForce() failed on the Vec path");
    /* the reference: a second TS given the force before its set-up, from where the first stopped */
    PetscCall(TSGetTime(ts, &t));
    PetscCall(VecDuplicate(U, &Uref));
    PetscCall(VecCopy(U, Uref));
    {
      Ctx cr = c;

      PetscCall(Create(DOOR_VEC, &cr, t, &ref));
      PetscCall(TSSimpVISetForce(ref, NULL, Fv, Damping, DampingJacobian, NULL));
      PetscCall(SolveBoth(ref, Uref, ts, U, &diff));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: the force after the set-up taken, the end state that of a TS given it before (to 1e-12): %s\n", Doors[d], diff <= 1e-12 ? "yes" : "no"));
      PetscCall(PetscInfo(NULL, "end states differ by %g\n", (double)diff));
      PetscCall(Destroy(&cr, &ref));
    }
    PetscCall(VecDestroy(&Uref));
    PetscCall(Destroy(&c, &ts));
  }
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&Fv));
  for (PetscInt dense = 0; dense < 2; dense++)
    for (PetscInt latemass = 0; latemass < 2; latemass++) PetscCall(MechanicalLate((PetscBool)dense, (PetscBool)latemass));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    args: -malloc_dump

TEST*/
