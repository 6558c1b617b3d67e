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

typedef enum {
  METHOD_SIMPVI,
  METHOD_RK,
  METHOD_THETA,
  METHOD_OTHER
} MethodKind;

/* After TSSetFromOptions(): which kind of TS runs, its own name for the method (the TSSIMPVI scheme, the RK type,
   "theta" or the TS type) and the order it promises (0 when unknown). Each example labels it its own way. */
static inline PetscErrorCode GetMethod(TS ts, MethodKind *kind, const char **name, PetscInt *order)
{
  PetscBool issimpvi, isrk, istheta;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &issimpvi));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSRK, &isrk));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSTHETA, &istheta));
  *order = 0;
  if (issimpvi) {
    *kind = METHOD_SIMPVI;
    PetscCall(TSSimpVIGetType(ts, name));
    PetscCall(TSSimpVIGetOrder(ts, order));
  } else if (isrk) {
    *kind = METHOD_RK;
    PetscCall(TSRKGetType(ts, name));
    PetscCall(TSRKGetOrder(ts, order));
  } else if (istheta) {
    PetscReal theta;

    *kind = METHOD_THETA;
    *name = TSTHETA;
    PetscCall(TSThetaGetTheta(ts, &theta));
    *order = PetscAbsReal(theta - 0.5) < 1e-12 ? 2 : 1;
  } else {
    *kind = METHOD_OTHER;
    PetscCall(TSGetType(ts, name));
  }
  PetscFunctionReturn(0);
}

#endif
