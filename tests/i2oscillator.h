/*
   The oscillators m u_i'' = -w^2 u_i of PETSc's I2 interface (TSSetI2Function(), TSSetI2Jacobian() on an AIJ matrix),
   started at u_i = 1 + i at rest, and their exact solution: tests/interpolate_i2.c, tests/switchtype.c
*/
#ifndef SIMPVI_TESTS_I2OSCILLATOR_H
#define SIMPVI_TESTS_I2OSCILLATOR_H

#include <simpvi.h>

typedef struct {
  PetscReal w, m;
} I2Oscillator;

static PetscErrorCode I2OscillatorFunction(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  const I2Oscillator *o = (const I2Oscillator *)ctx;

  PetscFunctionBeginUser;
  PetscCall(VecAXPBYPCZ(F, o->m, o->w * o->w, 0, A, U)); /* F = m A + w^2 U */
  PetscFunctionReturn(0);
}

static PetscErrorCode I2OscillatorJacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  const I2Oscillator *o = (const I2Oscillator *)ctx;
  PetscInt            rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(P, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) PetscCall(MatSetValue(P, i, i, shiftA * o->m + o->w * o->w, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* u_i = 1 + i, v = 0 */
static PetscErrorCode I2OscillatorStart(Vec U, Vec V)
{
  PetscInt     rstart, rend;
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(U, &rstart, &rend));
  PetscCall(VecGetArrayWrite(U, &a));
  for (PetscInt i = rstart; i < rend; i++) a[i - rstart] = 1 + i;
  PetscCall(VecRestoreArrayWrite(U, &a));
  PetscCall(VecSet(V, 0));
  PetscFunctionReturn(0);
}

/* max_i |x_i - x_i(T)| / (1 + i): x the positions, u_i(T) = (1 + i) cos(W T), or the velocities (-W (1 + i) sin(W T)),
   W = w / sqrt(m) */
static PetscErrorCode I2OscillatorError(const I2Oscillator *o, Vec x, PetscReal T, PetscBool velocity, PetscReal *err)
{
  const PetscReal    W = o->w / PetscSqrtReal(o->m);
  const PetscScalar *a;
  PetscInt           rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(x, &rstart, &rend));
  PetscCall(VecGetArrayRead(x, &a));
  *err = 0;
  for (PetscInt i = rstart; i < rend; i++) *err = PetscMax(*err, PetscAbsReal(PetscRealPart(a[i - rstart]) / (1 + i) - (velocity ? -W * PetscSinReal(W * T) : PetscCosReal(W * T))));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, err, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(0);
}

#endif
