/*
   For test programs whose expected output holds a collective error's message as rank 0 prints it: each rank prints the
   message at the error's first handler call and then aborts, and the first rank to abort makes Open MPI kill the
   others, at times before rank 0's lines are out (under load). This handler prints as PETSc's own does, then flushes
   and waits for the error's other ranks, so that every rank's message is out before any rank aborts. Only for errors
   raised collectively on a parallel communicator (PETSc's convention for such errors); push it after PetscInitialize(),
   pop it before PetscFinalize().
*/
#pragma once
#include <petscsys.h>

static PetscErrorCode CollectiveErrorHandler(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  PetscErrorCode ierr = PetscTraceBackErrorHandler(comm, line, fun, file, n, p, mess, ctx);
  PetscMPIInt    size = 1;

  if (p == PETSC_ERROR_INITIAL && comm != MPI_COMM_NULL && comm != PETSC_COMM_SELF && comm != MPI_COMM_SELF && !MPI_Comm_size(comm, &size) && size > 1) {
    fflush(stdout);
    fflush(stderr);
    MPI_Barrier(comm);
  }
  return ierr;
}
