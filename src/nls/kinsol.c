/*
   SUNDIALS KINSOL as the second solver of the TSSIMPVI step system (issue 5): not written yet.
*/
#include <simpvi/private/tssimpviimpl.h>

PetscErrorCode SimpVIKINSOLSetFromOptions_Private(TS ts, PetscOptionItems *PetscOptionsObject)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "The KINSOL back end of TSSIMPVI is not implemented yet");
}

PetscErrorCode SimpVIKINSOLView_Private(TS ts, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIKINSOLSolve_Private(TS ts, Vec Y, PetscInt *its, PetscInt *lits, PetscBool *converged, const char **reason)
{
  PetscFunctionBegin;
  SETERRQ(PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "The KINSOL back end of TSSIMPVI is not implemented yet");
}

PetscErrorCode SimpVIKINSOLDestroy_Private(TS ts)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}
