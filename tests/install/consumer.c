/* Install consumer: builds against an installed simpvi and checks that TSSIMPVI is registered. */
#include <simpvi.h>

int main(int argc, char **argv)
{
  TS     ts;
  TSType type;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(SimpVIInitializePackage());
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSGetType(ts, &type));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", type));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFinalize());
  return 0;
}
