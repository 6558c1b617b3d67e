/*
   simpvi: Galerkin variational integrators (midpoint, trapezoid, Simpson, Lobatto, ...) as the PETSc TS type TSSIMPVI.
*/
#ifndef SIMPVI_H
#define SIMPVI_H

#include <petscts.h>
#include <simpviconf.h>

/*J
   TSSimpVIType - String with the name of a `TSSIMPVI` scheme

   Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVISetType()`, `TSSimpVIRegister()`
J*/
typedef const char *TSSimpVIType;
#define TSSIMPVI          "simpvi"
#define TSSIMPVIMIDPOINT  "midpoint"
#define TSSIMPVITRAPEZOID "trapezoid"
#define TSSIMPVISIMPSON   "simpson"
#define TSSIMPVILOBATTO   "lobatto"
#define TSSIMPVIGAUSS     "gauss"

/*E
   TSSimpVIQuadrature - Quadrature family used on each step by a `TSSIMPVI` scheme

$  TSSIMPVI_QUADRATURE_LOBATTO - degree+1 Gauss-Lobatto points (nodes and quadrature points coincide)
$  TSSIMPVI_QUADRATURE_GAUSS   - degree Gauss-Legendre points (the interpolation nodes stay Gauss-Lobatto)

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIRegister()`
E*/
typedef enum {
  TSSIMPVI_QUADRATURE_LOBATTO,
  TSSIMPVI_QUADRATURE_GAUSS
} TSSimpVIQuadrature;
PETSC_EXTERN const char *const TSSimpVIQuadratures[];

/*E
   TSSimpVINonlinearSolverType - the solver of the per-step nonlinear system of `TSSIMPVI`

   Values:
+  `TSSIMPVI_NLS_SNES`   - PETSc's `SNES` (default), options `-snes_*`, `-ksp_*`, `-pc_*`
-  `TSSIMPVI_NLS_KINSOL` - SUNDIALS KINSOL (when simpvi is built with it), options `-ts_simpvi_kinsol_*`

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetNonlinearSolverType()`
E*/
typedef enum {
  TSSIMPVI_NLS_SNES,
  TSSIMPVI_NLS_KINSOL
} TSSimpVINonlinearSolverType;
PETSC_EXTERN const char *const TSSimpVINonlinearSolverTypes[];

/* Lagrangian door: L(t, x, v) with its gradient and Hessian blocks.
   TSSimpVILagrangianFn(ts, t, x, v, &L, Lx, Lv, ctx):   L(t,x,v), Lx = dL/dx, Lv = dL/dv
   TSSimpVILagrangianHessianFn(ts, t, x, v, Lxx, Lvx, Lvv, ctx): Lxx = d2L/dx2, Lvx(i,j) = d2L/dv_i dx_j (Lxv = Lvx'), Lvv = d2L/dv2;
   Lvx is NULL when the user declared it identically zero */
typedef PetscErrorCode (*TSSimpVILagrangianFn)(TS, PetscReal, Vec, Vec, PetscReal *, Vec, Vec, void *);
typedef PetscErrorCode (*TSSimpVILagrangianHessianFn)(TS, PetscReal, Vec, Vec, Mat, Mat, Mat, void *);

/* Mechanical door: L = 1/2 v' M(x) v - V(t, x).
   TSSimpVIPotentialFn(ts, t, x, &V, gradV, ctx);  TSSimpVIPotentialHessianFn(ts, t, x, H = d2V/dx2, ctx)
   TSSimpVIMassFn(ts, x, v, M, Mx, g, Mxx, ctx): M = M(x); Mx(i,j) = d(M(x) v)_i/dx_j; g_j = 1/2 v' (dM/dx_j) v;
   Mxx(j,k) = 1/2 v' (d2M/dx_j dx_k) v; only for configuration-dependent mass */
typedef PetscErrorCode (*TSSimpVIPotentialFn)(TS, PetscReal, Vec, PetscReal *, Vec, void *);
typedef PetscErrorCode (*TSSimpVIPotentialHessianFn)(TS, PetscReal, Vec, Mat, void *);
typedef PetscErrorCode (*TSSimpVIMassFn)(TS, Vec, Vec, Mat, Mat, Vec, Mat, void *);

/* Forces beyond the Lagrangian (discrete Lagrange-d'Alembert): f(t, x, v) with Fx = df/dx, Fv = df/dv */
typedef PetscErrorCode (*TSSimpVIForceFn)(TS, PetscReal, Vec, Vec, Vec, void *);
typedef PetscErrorCode (*TSSimpVIForceJacobianFn)(TS, PetscReal, Vec, Vec, Mat, Mat, void *);

PETSC_EXTERN PetscErrorCode SimpVIInitializePackage(void);
PETSC_EXTERN PetscErrorCode SimpVIFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_simpvi(void);
PETSC_EXTERN PetscErrorCode TSCreate_SimpVI(TS);

PETSC_EXTERN PetscErrorCode TSSimpVIRegister(const char[], TSSimpVIQuadrature, PetscInt, PetscBool);
PETSC_EXTERN PetscErrorCode TSSimpVIRegisterAll(void);
PETSC_EXTERN PetscErrorCode TSSimpVIRegisterDestroy(void);

PETSC_EXTERN PetscErrorCode TSSimpVISetType(TS, TSSimpVIType);
PETSC_EXTERN PetscErrorCode TSSimpVIGetType(TS, TSSimpVIType *);
PETSC_EXTERN PetscErrorCode TSSimpVISetDegree(TS, PetscInt);
PETSC_EXTERN PetscErrorCode TSSimpVIGetDegree(TS, PetscInt *);
PETSC_EXTERN PetscErrorCode TSSimpVIGetOrder(TS, PetscInt *);
PETSC_EXTERN PetscErrorCode TSSimpVISetNonlinearSolverType(TS, TSSimpVINonlinearSolverType);
PETSC_EXTERN PetscErrorCode TSSimpVIGetNonlinearSolverType(TS, TSSimpVINonlinearSolverType *);

PETSC_EXTERN PetscErrorCode TSSimpVISetLagrangian(TS, TSSimpVILagrangianFn, void *);
PETSC_EXTERN PetscErrorCode TSSimpVISetLagrangianHessian(TS, Mat, Mat, Mat, TSSimpVILagrangianHessianFn, void *);
PETSC_EXTERN PetscErrorCode TSSimpVISetPotential(TS, Mat, TSSimpVIPotentialFn, TSSimpVIPotentialHessianFn, void *);
PETSC_EXTERN PetscErrorCode TSSimpVISetMass(TS, Mat, Mat, Mat, TSSimpVIMassFn, void *);
PETSC_EXTERN PetscErrorCode TSSimpVISetForce(TS, Mat, Mat, TSSimpVIForceFn, TSSimpVIForceJacobianFn, void *);

PETSC_EXTERN PetscErrorCode TSSimpVIGetPhaseSpaceIS(TS, IS *, IS *);
PETSC_EXTERN PetscErrorCode TSSimpVISetUpPhaseSpace(TS);
PETSC_EXTERN PetscErrorCode TSSimpVIComputeEnergy(TS, PetscReal, Vec, PetscReal *);
PETSC_EXTERN PetscErrorCode TSSimpVIMonitorEnergy(TS, PetscInt, PetscReal, Vec, void *);

#endif
