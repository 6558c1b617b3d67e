/*
   Default linear solvers for the systems simpvi meets (the step system, the mass matrix): a direct solve up to a size
   limit, a Krylov method beyond, set only where the user chose nothing.
*/
#include <petsc/private/petscimpl.h>
#include <simpvi/private/step.h>

/* Whether the user left the type of a KSP or PC (obj) to simpvi: none set and no option given, or still simpvi's
   placeholder (placeholder != NULL, the type TSCreate_SimpVI() put on the step KSP) */
static PetscErrorCode TypeUnchosen(PetscObject obj, const char option[], const char placeholder[], PetscBool *unchosen)
{
  PetscBool given, same = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(obj->options, obj->prefix, option, &given));
  if (obj->type_name && placeholder) PetscCall(PetscObjectTypeCompare(obj, placeholder, &same));
  *unchosen = (PetscBool)(!given && (!obj->type_name || same));
  PetscFunctionReturn(0);
}

/*
  SimpVIDefaultLinearSolver_Private - the default solver of a linear system of N rows met by the TS (the step system,
  or the mass matrix when spd): on one process a direct solve up to limit rows (-ts_simpvi_direct_limit), where a
  factorization is cheap and blind to conditioning; above it, and in parallel at every size, a Krylov method
  (BiCGStab, or CG for the SPD mass matrix) with block Jacobi/ILU(0), whose memory grows like the matrix's rather than
  like a factor's (BiCGStab keeps a few vectors where GMRES keeps its basis). In parallel a direct solve
  (SuperLU_DIST) was measured 1.2 to 5 times slower than the Krylov solve on every size of bench/crossover.sh (50 to
  2 10^5 masses on 2 processes, docs/crossover.md), with the Jacobian and its factors kept or not. Only the types the
  user left unchosen (TypeUnchosen) are set; placeholder: the KSP carries the step placeholders of
  SimpVIStepPlaceholderSolver_Private().
*/
PetscErrorCode SimpVIDefaultLinearSolver_Private(KSP ksp, PetscInt N, PetscInt limit, PetscBool spd, PetscBool placeholder)
{
  PC          pc;
  PetscMPIInt size;
  PetscBool   kspfree, pcfree, direct;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ksp), &size));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(TypeUnchosen((PetscObject)ksp, "-ksp_type", placeholder ? KSPPREONLY : NULL, &kspfree));
  PetscCall(TypeUnchosen((PetscObject)pc, "-pc_type", placeholder ? PCNONE : NULL, &pcfree));
  if (pcfree) PetscCall(PCSetType(pc, N > limit || size > 1 ? PCBJACOBI : PCLU));
  if (!kspfree) PetscFunctionReturn(0);
  PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &direct, PCLU, PCCHOLESKY, PCQR, ""));
  if (direct) PetscCall(KSPSetType(ksp, KSPPREONLY));
  else {
    PetscCall(KSPSetType(ksp, spd ? KSPCG : KSPBCGS));
    /* the Newton test is on the update (stol): linear solves must be accurate well below it */
    PetscCall(KSPSetTolerances(ksp, 1e-12, 1e-50, PETSC_DEFAULT, PETSC_DEFAULT));
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIStepPlaceholderSolver_Private - types for the step KSP before set-up that build nothing: options processing
  hands the SNES's matrix (the user's I2 Jacobian) to its KSP, and a factorization PC would factor it there (with
  SuperLU_DIST, an unused factor that cannot even be destroyed). Kept where the user already chose a type.
*/
PetscErrorCode SimpVIStepPlaceholderSolver_Private(KSP ksp)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPGetPC(ksp, &pc));
  if (!((PetscObject)ksp)->type_name) PetscCall(KSPSetType(ksp, KSPPREONLY));
  if (!((PetscObject)pc)->type_name) PetscCall(PCSetType(pc, PCNONE));
  PetscFunctionReturn(0);
}
