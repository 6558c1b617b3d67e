/*
   PETSc second-order door: an unchanged TSSetI2Function()/TSSetI2Jacobian() program (or TSSetIFunction() on (U, A)),
   read as M a + f(t, u, v) = 0 with constant M. Then L_v = M v and the generalized force is G = -f(t, u, v), taken
   through the quadrature (discrete Lagrange-d'Alembert); M = dF/dA, K = dF/dU and C = dF/dV come from the I2 Jacobian's
   shifts.
*/
#include <simpvi/private/tssimpviimpl.h>

/* J = dF/dU + shiftV dF/dV + shiftA dF/dA into A */
static PetscErrorCode I2Jacobian(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscReal shiftV, PetscReal shiftA, Mat A)
{

  PetscFunctionBegin;
  PetscCall(TSComputeI2Jacobian(ts, t, x, v, prob->zero, shiftV, shiftA, A, A));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUp_I2(TS ts, SimpVIProblem *prob, Vec q)
{
  Mat        P = prob->I2P;
  DM         dm;
  PetscReal  cnorm;
  TSI2Function i2f;

  PetscFunctionBegin;
  PetscCall(TSGetDM(ts, &dm));
  PetscCall(DMTSGetI2Function(dm, &i2f, NULL));
  PetscCheck(P, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI needs the Jacobian of the second-order problem: call TSSetI2Jacobian() or TSSetIJacobian()");
  PetscCall(SimpVICheckMatSize_Private(ts, q, P, "I2 Jacobian"));
  for (PetscInt i = 0; i < 3; i++) PetscCall(MatDuplicate(P, MAT_DO_NOT_COPY_VALUES, &prob->I2J[i]));
  /* constant mass M = J(0,1) - J(0,0) at the initial state */
  PetscCall(I2Jacobian(ts, prob, ts->ptime, ts->vec_sol, ts->vec_dot, 0, 0, prob->I2J[0]));
  PetscCall(I2Jacobian(ts, prob, ts->ptime, ts->vec_sol, ts->vec_dot, 0, 1, prob->I2J[1]));
  PetscCall(MatAXPY(prob->I2J[1], -1, prob->I2J[0], DIFFERENT_NONZERO_PATTERN));
  prob->damped = PETSC_FALSE;
  if (i2f) { /* damping C = J(1,0) - J(0,0); an IFunction on (U, A) has none */
    PetscCall(I2Jacobian(ts, prob, ts->ptime, ts->vec_sol, ts->vec_dot, 1, 0, prob->I2J[2]));
    PetscCall(MatAXPY(prob->I2J[2], -1, prob->I2J[0], DIFFERENT_NONZERO_PATTERN));
    PetscCall(MatNorm(prob->I2J[2], NORM_FROBENIUS, &cnorm));
    prob->damped = (PetscBool)(cnorm > 0);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Reset_I2(SimpVIProblem *prob)
{

  PetscFunctionBegin;
  for (PetscInt i = 0; i < 3; i++) PetscCall(MatDestroy(&prob->I2J[i]));
  PetscFunctionReturn(0);
}

static PetscErrorCode PG_I2(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec P, Vec G)
{

  PetscFunctionBegin;
  PetscCall(MatMult(prob->I2J[1], v, P));
  PetscCall(TSComputeI2Function(ts, t, x, v, prob->zero, G));
  PetscCall(VecScale(G, -1));
  PetscFunctionReturn(0);
}

static PetscErrorCode Terms_I2(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscInt need, PetscInt *n, SimpVITerm terms[])
{

  PetscFunctionBegin;
  PetscCall(I2Jacobian(ts, prob, t, x, v, 0, 0, prob->I2J[0]));
  terms[(*n)++] = (SimpVITerm){prob->I2J[1], 1, SIMPVI_BLOCK_PV, PETSC_FALSE, PETSC_TRUE};
  terms[(*n)++] = (SimpVITerm){prob->I2J[0], -1, SIMPVI_BLOCK_GX, PETSC_FALSE, PETSC_FALSE};
  if (prob->damped) {
    PetscCall(I2Jacobian(ts, prob, t, x, v, 1, 0, prob->I2J[2]));
    PetscCall(MatAXPY(prob->I2J[2], -1, prob->I2J[0], DIFFERENT_NONZERO_PATTERN));
    terms[(*n)++] = (SimpVITerm){prob->I2J[2], -1, SIMPVI_BLOCK_GV, PETSC_FALSE, PETSC_FALSE};
  }
  PetscFunctionReturn(0);
}

const SimpVIDoor SimpVIDoorI2 = {"second-order (I2)", SetUp_I2, PG_I2, Terms_I2, NULL, Reset_I2};
