/*
   Package plumbing: registration of TSSIMPVI with PETSc, log events, and the hook that -dll_append looks for.
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/
#include <simpvi/private/snesdense.h>
#include <simpvi/private/ensembleimpl.h>

static PetscBool SimpVIPackageInitialized = PETSC_FALSE;

/*@C
  SimpVIFinalizePackage - Frees what `SimpVIInitializePackage()` made; called by `PetscFinalize()`

  Not Collective

  Level: developer

.seealso: `SimpVIInitializePackage()`
@*/
PetscErrorCode SimpVIFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(SimpVISchemeStabilityBoundReset_Private());
  SimpVIPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIInitializePackage - Registers `TSSIMPVI`, its schemes, `SNESSIMPVIDENSE`, `SNESKINSOL` and `SimpVIEnsemble`; programs that link simpvi call it after `PetscInitialize()`

  Not Collective

  Level: beginner

  Note:
  Programs that load the library with -dll_append <prefix>/lib/libsimpvi.so need not call it.

.seealso: `TSSIMPVI`, `PetscDLLibraryRegister_simpvi()`, `SimpVIFinalizePackage()`
@*/
PetscErrorCode SimpVIInitializePackage(void)
{
  PetscFunctionBegin;
  if (SimpVIPackageInitialized) PetscFunctionReturn(0);
  SimpVIPackageInitialized = PETSC_TRUE;
  PetscCall(TSInitializePackage());
  PetscCall(TSRegister(TSSIMPVI, TSCreate_SimpVI));
  PetscCall(TSSimpVIRegisterAll());
  PetscCall(SNESInitializePackage());
  PetscCall(SNESRegister(SNESSIMPVIDENSE, SNESCreate_SimpVIDense));
#if defined(SIMPVI_HAVE_KINSOL)
  PetscCall(SNESRegister(SNESKINSOL, SNESCreate_KINSOL));
#endif
  PetscCall(PetscLogEventRegister("SimpVIResidual", TS_CLASSID, &SIMPVI_Residual));
  PetscCall(PetscLogEventRegister("SimpVIJacobian", TS_CLASSID, &SIMPVI_Jacobian));
  PetscCall(PetscClassIdRegister("SimpVIEnsemble", &SIMPVIENSEMBLE_CLASSID));
  PetscCall(PetscLogEventRegister("SimpVIEnsSolve", SIMPVIENSEMBLE_CLASSID, &SIMPVI_EnsembleSolve));
  PetscCall(PetscLogEventRegister("SimpVIEnsStep", SIMPVIENSEMBLE_CLASSID, &SIMPVI_EnsembleStep));
  PetscCall(PetscRegisterFinalize(SimpVIFinalizePackage));
  PetscFunctionReturn(0);
}

#if defined(PETSC_HAVE_DYNAMIC_LIBRARIES)
/*@C
  PetscDLLibraryRegister_simpvi - The hook PETSc calls when it loads libsimpvi.so through -dll_append

  Not Collective

  Options Database Key:
. -dll_append <prefix>/lib/libsimpvi.so - load simpvi into any PETSc program, which can then use -ts_type simpvi and -snes_type kinsol

  Level: developer

.seealso: `SimpVIInitializePackage()`
@*/
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_simpvi(void)
{
  PetscFunctionBegin;
  PetscCall(SimpVIInitializePackage());
  PetscFunctionReturn(0);
}
#endif
