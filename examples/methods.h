/*
   The methods the examples compare, by name (-methods): a TSSIMPVI scheme (midpoint = Newmark, trapezoid, simpson,
   lobatto, gauss), rk4 (PETSc's classical RK4), theta (PETSc's implicit midpoint, theta = 1/2), or "default" (the TS
   type and scheme the options choose). Every method takes fixed steps.
*/
#ifndef METHODS_H
#define METHODS_H
#include <simpvi.h>

static inline PetscErrorCode SetMethod(TS ts, const char method[])
{
  PetscBool isrk4, istheta, isdefault;
  TSAdapt   adapt;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(method, "rk4", &isrk4));
  PetscCall(PetscStrcmp(method, "theta", &istheta));
  PetscCall(PetscStrcmp(method, "default", &isdefault));
  if (isrk4) {
    PetscCall(TSSetType(ts, TSRK));
    PetscCall(TSRKSetType(ts, TSRK4));
  } else if (istheta) {
    SNES snes;
    KSP  ksp;
    PC   pc;

    PetscCall(TSSetType(ts, TSTHETA));
    PetscCall(TSThetaSetTheta(ts, 0.5));
    PetscCall(TSGetSNES(ts, &snes)); /* solve each step to round-off, as TSSIMPVI does by default */
    PetscCall(SNESSetTolerances(snes, PETSC_DEFAULT, 1e-12, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCLU));
  } else {
    PetscCall(TSSetType(ts, TSSIMPVI));
    if (!isdefault) PetscCall(TSSimpVISetType(ts, method));
  }
  PetscCall(TSGetAdapt(ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTNONE)); /* fixed steps for every method */
  PetscFunctionReturn(0);
}

#endif
