/*
   The step Jacobian of TSSIMPVI against finite differences: examples/sweep.c, tests/ex3.c and tests/ex4.c
*/
#ifndef STEPJACOBIAN_H
#define STEPJACOBIAN_H
#include <simpvi.h>
#include <petscdmshell.h>

/* ||J - Jfd||_F / ||J||_F for the step system of snes at Y perturbed by uniform noise in [-amp, amp], so that no entry
   is special (serial: both Jacobians are made dense) */
static inline PetscErrorCode StepJacobianError(SNES snes, Vec Y, PetscReal amp, PetscReal *relerr)
{
  Vec         Yp;
  Mat         J, Jd, Jfd;
  PetscInt    n;
  PetscReal   nJ, nD;
  PetscRandom rand;

  PetscFunctionBeginUser;
  PetscCall(SNESGetJacobian(snes, &J, NULL, NULL, NULL));
  PetscCall(VecDuplicate(Y, &Yp));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rand));
  PetscCall(PetscRandomSetInterval(rand, -amp, amp));
  PetscCall(VecSetRandom(Yp, rand));
  PetscCall(VecAXPY(Yp, 1, Y));
  PetscCall(SNESComputeJacobian(snes, Yp, J, J));
  PetscCall(MatConvert(J, MATSEQDENSE, MAT_INITIAL_MATRIX, &Jd));
  PetscCall(VecGetSize(Y, &n));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &Jfd));
  PetscCall(SNESComputeJacobianDefault(snes, Yp, Jfd, Jfd, NULL));
  PetscCall(MatNorm(Jd, NORM_FROBENIUS, &nJ));
  PetscCall(MatAXPY(Jfd, -1, Jd, SAME_NONZERO_PATTERN));
  PetscCall(MatNorm(Jfd, NORM_FROBENIUS, &nD));
  *relerr = nD / nJ;
  PetscCall(PetscRandomDestroy(&rand));
  PetscCall(VecDestroy(&Yp));
  PetscCall(MatDestroy(&Jd));
  PetscCall(MatDestroy(&Jfd));
  PetscFunctionReturn(0);
}

/* The error of the step Jacobian of the last step, at its solution perturbed by up to 0.05 */
static inline PetscErrorCode CheckJacobian(TS ts, PetscReal *relerr)
{
  SNES snes;
  Vec  Y;

  PetscFunctionBeginUser;
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetSolution(snes, &Y));
  if (!Y) { /* -ts_simpvi_nonlinear_solver kinsol: no SNESSolve(); the step vector is the template of the step DM (a DMShell) */
    DM dm;

    PetscCall(SNESGetDM(snes, &dm));
    PetscCall(DMShellGetGlobalVector(dm, &Y));
    PetscCheck(Y, PetscObjectComm((PetscObject)ts), PETSC_ERR_PLIB, "No step vector: neither SNES nor the step DM holds one");
  }
  PetscCall(StepJacobianError(snes, Y, 0.05, relerr));
  PetscFunctionReturn(0);
}
#endif
