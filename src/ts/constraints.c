/*
   The constraints' multipliers as the TS gives them (src/core/constraints.c keeps them with the step)
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/

/*@C
  TSSimpVIGetConstraintMultipliers - The multipliers of the holonomic constraints at the nodes of the last step taken

  Not Collective

  Input Parameter:
. ts - the `TS` context, of type `TSSIMPVI`, with constraints (`TSSimpVISetConstraints()` or `TSSimpVISetEqualityConstraintsRoutine()`)

  Output Parameters:
+ nnodes - the nodes of a step, s + 1 (may be `NULL`)
. m      - the constraints (of this process with `TSSimpVISetEqualityConstraintsRoutine()`: its rows of g) (may be `NULL`)
- lambda - the multipliers, node-major: lambda[i m + r] is constraint r's at node i (may be `NULL`); owned by the `TS`,
           valid until its next step

  Note:
  lambda_i approximates the continuous multiplier lambda(t + c_i h) of L - g(q)' lambda: the constraint force on the
  positions is -G(q)' lambda.

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetConstraints()`, `TSSimpVISetEqualityConstraintsRoutine()`
@*/
PetscErrorCode TSSimpVIGetConstraintMultipliers(TS ts, PetscInt *nnodes, PetscInt *m, const PetscReal *lambda[])
{
  TS_SimpVI *vi;
  PetscBool  isvi;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &isvi));
  PetscCheck(isvi, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONG, "TSSimpVIGetConstraintMultipliers() needs a TSSIMPVI");
  vi = (TS_SimpVI *)ts->data;
  PetscCheck(vi->step, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "Call TSSetUp() first");
  PetscCall(SimpVIStepGetMultipliers_Private(vi->step, nnodes, m, lambda));
  PetscFunctionReturn(0);
}
