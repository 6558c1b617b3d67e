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

   Values:
+  `TSSIMPVI_QUADRATURE_LOBATTO` - degree+1 Gauss-Lobatto points (nodes and quadrature points coincide)
-  `TSSIMPVI_QUADRATURE_GAUSS`   - degree Gauss-Legendre points (the interpolation nodes stay Gauss-Lobatto)

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIRegister()`
E*/
typedef enum {
  TSSIMPVI_QUADRATURE_LOBATTO,
  TSSIMPVI_QUADRATURE_GAUSS
} TSSimpVIQuadrature;
PETSC_EXTERN const char *const TSSimpVIQuadratures[];

/*S
   TSSimpVIFamilyFn - A constructor of a family of `TSSIMPVI` schemes: for the degree s of the step polynomial, the
   quadrature of the discrete action over one step and the order of the scheme it makes

   Calling Sequence:
+  degree - s, at least 1; the step polynomial goes through the s+1 Gauss-Lobatto points of [0, 1]
.  nq     - on output, the number of quadrature points, at least 1
.  tau    - on output, the nq points on [0, 1]: an array the function allocates with `PetscMalloc1()`, freed by `TSSIMPVI`
.  w      - on output, the nq weights, summing to 1 (the length of [0, 1]), allocated likewise
-  order  - on output, the order of accuracy of the scheme (2s when the quadrature is exact for polynomials of degree 2s-1)

   Level: advanced

   Note:
   The function is registered with `TSSimpVIRegisterFamily()` and called at set-up with the degree chosen; what it gives
   is checked (points inside [0, 1], weights summing to 1) and the Lagrange basis of the nodes at the points is computed
   from it. Too few points for the degree leave the step's equations singular.

.seealso: `TSSIMPVI`, `TSSimpVIRegisterFamily()`, `TSSimpVIGetTableau()`
S*/
typedef PetscErrorCode (*TSSimpVIFamilyFn)(PetscInt degree, PetscInt *nq, PetscReal *tau[], PetscReal *w[], PetscInt *order);

/*E
   TSSimpVINonlinearSolverType - The solver of the per-step nonlinear system of `TSSIMPVI` (deprecated: the step is
   solved by the `TS`'s `SNES`, choose its type, e.g. -snes_type kinsol)

   Values:
+  `TSSIMPVI_NLS_SNES`   - the `SNES` type the options choose (default `SNESNEWTONLS`)
-  `TSSIMPVI_NLS_KINSOL` - `SNESKINSOL` (SUNDIALS KINSOL, when simpvi is built with it)

   Level: deprecated

.seealso: `TSSIMPVI`, `TSSimpVISetNonlinearSolverType()`, `SNESKINSOL`
E*/
typedef enum {
  TSSIMPVI_NLS_SNES,
  TSSIMPVI_NLS_KINSOL
} TSSimpVINonlinearSolverType;
PETSC_EXTERN const char *const TSSimpVINonlinearSolverTypes[];

/* the SUNDIALS KINSOL SNES type that simpvi registers when built with KINSOL (manual page in src/snes/kinsol.c) */
#define SNESKINSOL "kinsol"

/* the dense Newton SNES type for small systems that simpvi registers (manual page in src/snes/dense.c) */
#define SNESSIMPVIDENSE "simpvidense"
PETSC_EXTERN PetscErrorCode SNESSimpVIDenseSetLinear(SNES snes, PetscBool linear);
PETSC_EXTERN PetscErrorCode SNESSimpVIDenseGetLinear(SNES snes, PetscBool *linear);

/*E
   SNESKINSOLStrategy - The KINSOL strategy of a `SNESKINSOL`

   Values:
+  `SNES_KINSOL_NEWTON`     - Newton (KIN_NONE)
.  `SNES_KINSOL_LINESEARCH` - Newton with KINSOL's line search (KIN_LINESEARCH, default)
.  `SNES_KINSOL_PICARD`     - Picard with L = J at the initial guess (KIN_PICARD)
-  `SNES_KINSOL_FP`         - the fixed point x = x - J0^-1 F(x), J0 at the initial guess (KIN_FP)

   Level: intermediate

.seealso: `SNESKINSOL`, `SNESKINSOLSetStrategy()`
E*/
typedef enum {
  SNES_KINSOL_NEWTON,
  SNES_KINSOL_LINESEARCH,
  SNES_KINSOL_PICARD,
  SNES_KINSOL_FP
} SNESKINSOLStrategy;
PETSC_EXTERN const char *const SNESKINSOLStrategies[];

/*S
   SNESKINSOLScaleFn - A function that gives a `SNESKINSOL` its residual and increment scales at the start of a solve

   Calling Sequence:
+  snes - the `SNES` context
.  x    - the initial guess
.  F    - the function at x
.  fs   - on input the default residual scale max|F|, on output the scale of F's terms (KINSOL's function tolerance is
          relative to it)
.  us   - on input the default increment scale (max|x|, for fp also max|J0^-1 F|), on output the increment scale
-  ctx  - the context given to `SNESKINSOLSetScaleFunction()`

   Level: advanced

.seealso: `SNESKINSOL`, `SNESKINSOLSetScaleFunction()`
S*/
typedef PetscErrorCode SNESKINSOLScaleFn(SNES snes, Vec x, Vec F, PetscReal *fs, PetscReal *us, void *ctx);

PETSC_EXTERN PetscErrorCode SNESKINSOLSetStrategy(SNES snes, SNESKINSOLStrategy strategy);
PETSC_EXTERN PetscErrorCode SNESKINSOLSetMAA(SNES snes, PetscInt maa);
PETSC_EXTERN PetscErrorCode SNESKINSOLSetTolerances(SNES snes, PetscReal fnormtol, PetscReal scsteptol);
PETSC_EXTERN PetscErrorCode SNESKINSOLGetTolerances(SNES snes, PetscReal *fnormtol, PetscReal *scsteptol);
PETSC_EXTERN PetscErrorCode SNESKINSOLSetScaleFunction(SNES snes, SNESKINSOLScaleFn *scale, void *ctx);
PETSC_EXTERN PetscErrorCode SNESKINSOLGetReturnFlag(SNES snes, int *flag, const char **desc);

/*S
   TSSimpVILagrangianFn - A function that computes the Lagrangian L(t, x, v) of a `TSSIMPVI` problem and its gradient

   Calling Sequence:
+  ts  - the `TS` context
.  t   - the time
.  x   - the position
.  v   - the velocity
.  L   - on output, L(t, x, v)
.  Lx  - on output, dL/dx
.  Lv  - on output, dL/dv
-  ctx - the user context given to `TSSimpVISetLagrangian()`

   Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVISetLagrangian()`, `TSSimpVILagrangianHessianFn`
S*/
typedef PetscErrorCode (*TSSimpVILagrangianFn)(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx);

/*S
   TSSimpVILagrangianHessianFn - A function that fills the second derivatives of the Lagrangian of a `TSSIMPVI` problem

   Calling Sequence:
+  ts  - the `TS` context
.  t   - the time
.  x   - the position
.  v   - the velocity
.  Lxx - on output, d2L/dx2
.  Lvx - on output, entry (i,j) = d2L/dv_i dx_j (L_xv is its transpose); NULL when it was declared identically zero
.  Lvv - on output, d2L/dv2
-  ctx - the user context given to `TSSimpVISetLagrangianHessian()`

   Note:
   The function assembles the matrices it fills.

   Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVISetLagrangianHessian()`, `TSSimpVILagrangianFn`
S*/
typedef PetscErrorCode (*TSSimpVILagrangianHessianFn)(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx);

/*S
   TSSimpVIPotentialFn - A function that computes the potential V(t, x) of a mechanical `TSSIMPVI` problem,
   L = 1/2 v' M(x) v - V(t, x), and its gradient

   Calling Sequence:
+  ts    - the `TS` context
.  t     - the time
.  x     - the position
.  V     - on output, V(t, x)
.  gradV - on output, dV/dx
-  ctx   - the user context given to `TSSimpVISetPotential()`

   Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVISetPotential()`, `TSSimpVIPotentialHessianFn`, `TSSimpVIMassFn`
S*/
typedef PetscErrorCode (*TSSimpVIPotentialFn)(TS ts, PetscReal t, Vec x, PetscReal *V, Vec gradV, void *ctx);

/*S
   TSSimpVIPotentialHessianFn - A function that fills the Hessian of the potential of a mechanical `TSSIMPVI` problem

   Calling Sequence:
+  ts  - the `TS` context
.  t   - the time
.  x   - the position
.  H   - on output, d2V/dx2, assembled
-  ctx - the user context given to `TSSimpVISetPotential()`

   Level: beginner

.seealso: `TSSIMPVI`, `TSSimpVISetPotential()`, `TSSimpVIPotentialFn`
S*/
typedef PetscErrorCode (*TSSimpVIPotentialHessianFn)(TS ts, PetscReal t, Vec x, Mat H, void *ctx);

/*S
   TSSimpVIMassFn - A function that fills a configuration-dependent mass matrix M(x) of a mechanical `TSSIMPVI` problem,
   L = 1/2 v' M(x) v - V(t, x), and the derivative terms the step needs

   Calling Sequence:
+  ts  - the `TS` context
.  x   - the position
.  v   - the velocity
.  M   - on output, M(x), assembled
.  Mx  - on output, entry (i,j) = d(M(x) v)_i/dx_j = sum_l dM_il/dx_j v_l, assembled
.  g   - on output, g_j = 1/2 v' (dM/dx_j) v
.  Mxx - on output, entry (j,k) = 1/2 v' (d2M/dx_j dx_k) v, assembled
-  ctx - the user context given to `TSSimpVISetMass()`

   Note:
   Only for a mass that depends on x: a constant mass is given assembled to `TSSimpVISetMass()` with no function.
   Then L_v = M v, L_x = g - grad V, L_vv = M, L_vx = Mx and L_xx = Mxx - d2V/dx2.

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetMass()`, `TSSimpVIPotentialFn`
S*/
typedef PetscErrorCode (*TSSimpVIMassFn)(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx);

/*S
   TSSimpVIForceFn - A function that computes a force f(t, x, v) beyond the Lagrangian (damping, driving) of a
   `TSSIMPVI` problem: the equations of motion become d/dt L_v - L_x = f

   Calling Sequence:
+  ts  - the `TS` context
.  t   - the time
.  x   - the position
.  v   - the velocity
.  f   - on output, the generalized force
-  ctx - the user context given to `TSSimpVISetForce()`

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetForce()`, `TSSimpVIForceJacobianFn`
S*/
typedef PetscErrorCode (*TSSimpVIForceFn)(TS ts, PetscReal t, Vec x, Vec v, Vec f, void *ctx);

/*S
   TSSimpVIForceJacobianFn - A function that fills the derivatives of a `TSSIMPVI` force f(t, x, v)

   Calling Sequence:
+  ts  - the `TS` context
.  t   - the time
.  x   - the position
.  v   - the velocity
.  Fx  - on output, df/dx, assembled; NULL when it was not given to `TSSimpVISetForce()`
.  Fv  - on output, df/dv, assembled; NULL when it was not given to `TSSimpVISetForce()`
-  ctx - the user context given to `TSSimpVISetForce()`

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetForce()`, `TSSimpVIForceFn`
S*/
typedef PetscErrorCode (*TSSimpVIForceJacobianFn)(TS ts, PetscReal t, Vec x, Vec v, Mat Fx, Mat Fv, void *ctx);

/*S
   TSSimpVIParameterJacobianFn - A function that fills the derivatives in the parameters theta of the two quantities a
   `TSSIMPVI` step is made of, P = dL/dv and G = dL/dx + f, for the parameter gradients of `TSAdjointSolve()`

   Calling Sequence:
+  ts     - the `TS` context
.  t      - the time
.  x      - the position
.  v      - the velocity
.  Ptheta - on output, dP/dtheta (positions x parameters), assembled; NULL when it was not given
.  Gtheta - on output, dG/dtheta (positions x parameters), assembled; NULL when it was not given
-  ctx    - the user context given to `TSSimpVISetParameterJacobian()`

   Note:
   For the mechanical door P = M v and G = -grad V + 1/2 v' dM/dx v + f: dP/dtheta = (dM/dtheta) v, dG/dtheta =
   -d(grad V)/dtheta + ... + df/dtheta. For the Lagrangian door dP/dtheta = d(L_v)/dtheta, dG/dtheta = d(L_x)/dtheta +
   df/dtheta.

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetParameterJacobian()`, `TSSetCostGradients()`, `TSAdjointSolve()`
S*/
typedef PetscErrorCode (*TSSimpVIParameterJacobianFn)(TS ts, PetscReal t, Vec x, Vec v, Mat Ptheta, Mat Gtheta, void *ctx);

/*S
   TSSimpVIPointwiseFn - A function that evaluates the mechanics of a small `TSSIMPVI` problem at many points at once,
   on plain arrays: the Lagrangian L(t, x, v), P = dL/dv, G = dL/dx + f (f a generalized force, if any) and their
   derivatives

   Calling Sequence:
+  ts      - the `TS` context
.  npoints - the number of points
.  n       - the number of positions (the length of x at one point)
.  t       - the times, npoints of them
.  x       - the positions, point k at x + k n
.  v       - the velocities, point k at v + k n
.  L       - on output, L at each point (npoints); NULL when not wanted
.  P       - on output, dL/dv (npoints n); NULL when not wanted
.  G       - on output, dL/dx + f (npoints n); NULL when not wanted
.  Px      - on output, dP/dx at each point, an n x n row-major block per point: Px[k n n + i n + j] = dP_i/dx_j;
             NULL when not wanted
.  Pv      - on output, dP/dv, likewise; NULL together with Px
.  Gx      - on output, dG/dx, likewise; NULL together with Px
.  Gv      - on output, dG/dv, likewise; NULL together with Px
-  ctx     - the user context given to `TSSimpVISetPointwiseLagrangian()`

   Note:
   For a Lagrangian without forces Pv and Gx are symmetric and Gv is the transpose of Px. The function is called with
   every point of a step at once (the quadrature points of a Newton iteration), so that its cost is its arithmetic.

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetPointwiseLagrangian()`, `TSSimpVILagrangianFn`
S*/
typedef PetscErrorCode (*TSSimpVIPointwiseFn)(TS ts, PetscInt npoints, PetscInt n, const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx);

/*S
   TSSimpVIConstraintFn - The holonomic constraints g(q) = 0 of a `TSSIMPVI` problem, their Jacobian G = dg/dq and the
   contraction of their second derivatives with multipliers, on plain arrays of one process

   Calling Sequence:
+  ts     - the `TS` context
.  n      - the number of positions
.  m      - the number of constraints
.  q      - the positions (n)
.  lambda - the multipliers (m); `NULL` unless H is wanted
.  g      - on output, g(q) (m); `NULL` when not wanted
.  G      - on output, dg/dq, m x n row-major: G[r n + j] = dg_r/dq_j; `NULL` when not wanted
.  H      - on output, sum_r lambda_r d2 g_r/dq2, n x n row-major (symmetric); `NULL` when not wanted
-  ctx    - the user context given to `TSSimpVISetConstraints()`

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetConstraints()`, `TSSimpVIGetConstraintMultipliers()`
S*/
typedef PetscErrorCode (*TSSimpVIConstraintFn)(TS ts, PetscInt n, PetscInt m, const PetscReal q[], const PetscReal lambda[], PetscReal g[], PetscReal G[], PetscReal H[], void *ctx);

/*S
   TSSimpVIEqualityConstraintsFn - The holonomic constraints g(q) = 0 of a `TSSIMPVI` problem on `Vec`s, as
   `TaoSetEqualityConstraintsRoutine()` takes equality constraints

   Calling Sequence:
+  ts  - the `TS` context
.  q   - the positions
.  g   - on output, g(q), in the vector given to `TSSimpVISetEqualityConstraintsRoutine()` (its layout is the multipliers')
-  ctx - the user context

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetEqualityConstraintsRoutine()`, `TSSimpVIJacobianEqualityFn`, `TSSimpVIHessianEqualityFn`
S*/
typedef PetscErrorCode (*TSSimpVIEqualityConstraintsFn)(TS ts, Vec q, Vec g, void *ctx);

/*S
   TSSimpVIJacobianEqualityFn - The Jacobian G = dg/dq (m x n) of a `TSSIMPVI` problem's equality constraints, as
   `TaoSetJacobianEqualityRoutine()` takes it

   Calling Sequence:
+  ts  - the `TS` context
.  q   - the positions
.  G   - on output, dg/dq, in the matrix given to `TSSimpVISetJacobianEqualityRoutine()`
-  ctx - the user context

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetJacobianEqualityRoutine()`, `TSSimpVIEqualityConstraintsFn`
S*/
typedef PetscErrorCode (*TSSimpVIJacobianEqualityFn)(TS ts, Vec q, Mat G, void *ctx);

/*S
   TSSimpVIHessianEqualityFn - The contraction sum_r lambda_r d2 g_r/dq2 (n x n, symmetric) of the second derivatives
   of a `TSSIMPVI` problem's equality constraints with multipliers lambda

   Calling Sequence:
+  ts     - the `TS` context
.  q      - the positions
.  lambda - the multipliers (the layout of g)
.  H      - on output, sum_r lambda_r d2 g_r/dq2, in the matrix given to `TSSimpVISetHessianEqualityRoutine()`
-  ctx    - the user context

   Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetHessianEqualityRoutine()`, `TSSimpVIEqualityConstraintsFn`
S*/
typedef PetscErrorCode (*TSSimpVIHessianEqualityFn)(TS ts, Vec q, Vec lambda, Mat H, void *ctx);

PETSC_EXTERN PetscErrorCode SimpVIInitializePackage(void);
PETSC_EXTERN PetscErrorCode SimpVIFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_simpvi(void);
PETSC_EXTERN PetscErrorCode TSCreate_SimpVI(TS ts);

PETSC_EXTERN PetscErrorCode TSSimpVIRegisterFamily(const char name[], TSSimpVIFamilyFn create);
PETSC_EXTERN PetscErrorCode TSSimpVIRegisterScheme(const char name[], const char family[], PetscInt degree, PetscBool degreefixed);
PETSC_EXTERN PetscErrorCode TSSimpVIRegister(const char name[], TSSimpVIQuadrature quadrature, PetscInt degree, PetscBool degreefixed);
PETSC_EXTERN PetscErrorCode TSSimpVIRegisterAll(void);
PETSC_EXTERN PetscErrorCode TSSimpVIRegisterDestroy(void);

PETSC_EXTERN PetscErrorCode TSSimpVISetType(TS ts, TSSimpVIType type);
PETSC_EXTERN PetscErrorCode TSSimpVIGetType(TS ts, TSSimpVIType *type);
PETSC_EXTERN PetscErrorCode TSSimpVISetDegree(TS ts, PetscInt degree);
PETSC_EXTERN PetscErrorCode TSSimpVIGetDegree(TS ts, PetscInt *degree);
PETSC_EXTERN PetscErrorCode TSSimpVIGetOrder(TS ts, PetscInt *order);
PETSC_EXTERN PetscErrorCode TSSimpVIGetTableau(TS ts, PetscInt *degree, PetscInt *nq, const PetscReal *c[], const PetscReal *tau[], const PetscReal *w[], const PetscReal *B[], const PetscReal *D[]);
PETSC_EXTERN PetscErrorCode TSSimpVISetNonlinearSolverType(TS ts, TSSimpVINonlinearSolverType nls);
PETSC_EXTERN PetscErrorCode TSSimpVIGetNonlinearSolverType(TS ts, TSSimpVINonlinearSolverType *nls);

/* The step's equations on plain arrays (developer level): what a program needs to take the same steps outside a TS */
typedef struct _p_SimpVIKernel *SimpVIKernel;
PETSC_EXTERN PetscErrorCode     TSSimpVICreateKernel(TS ts, SimpVIKernel *kernel);
PETSC_EXTERN PetscErrorCode     SimpVIKernelDestroy(SimpVIKernel *kernel);
PETSC_EXTERN PetscErrorCode     SimpVIKernelGetSizes(SimpVIKernel kernel, PetscInt *s, PetscInt *nq);
PETSC_EXTERN PetscErrorCode     SimpVIKernelSetStepSize(SimpVIKernel kernel, PetscReal h);
PETSC_EXTERN PetscErrorCode     SimpVIKernelTimes(SimpVIKernel kernel, PetscReal t, PetscReal tk[]);
PETSC_EXTERN PetscErrorCode     SimpVIKernelPoints(SimpVIKernel kernel, PetscInt n, const PetscScalar q0[], const PetscScalar Z[], PetscScalar *const X[], PetscScalar *const V[]);
PETSC_EXTERN PetscErrorCode     SimpVIKernelResidual(SimpVIKernel kernel, PetscInt n, const PetscScalar p0[], const PetscScalar *const P[], const PetscScalar *const G[], PetscScalar R[]);
PETSC_EXTERN PetscErrorCode     SimpVIKernelMomentum(SimpVIKernel kernel, PetscInt n, const PetscScalar p0[], const PetscScalar *const G[], PetscScalar p1[]);
PETSC_EXTERN PetscErrorCode     SimpVIKernelJacobian(SimpVIKernel kernel, PetscInt n, const PetscScalar *const Px[], const PetscScalar *const Pv[], const PetscScalar *const Gx[], const PetscScalar *const Gv[], PetscInt ld, PetscScalar J[]);

/*S
   SimpVIRigidBodyPotentialFn - The potential V(R) of rigid bodies on SO(3) (`TSSimpVICreateRigidBodies()`) with its
   derivatives on the group

   Calling Sequence:
+  nbodies - the number of bodies k
.  R       - their attitudes: k rotation matrices (body to space), 9 entries each, row-major
.  V       - on output, V(R)
.  g       - on output (unless `NULL`), 3k entries: the left-trivialised gradient, g_b . eta = d/de V(.., R_b exp(e hat(eta)), ..) at e = 0
.  H       - on output (unless `NULL`), 3k x 3k row-major, symmetric: the second derivative of V(R_1 exp(hat(e_1)), .., R_k exp(hat(e_k))) in (e_1, .., e_k) at 0
-  ctx     - the context given to `TSSimpVICreateRigidBodies()`

   Level: intermediate

.seealso: `TSSimpVICreateRigidBodies()`
S*/
typedef PetscErrorCode (*SimpVIRigidBodyPotentialFn)(PetscInt nbodies, const PetscReal R[], PetscReal *V, PetscReal g[], PetscReal H[], void *ctx);

/*S
   TSSimpVIRigidBodyPotentialFn - The potential V(R) of rigid bodies on SO(3) in the `Vec`/`Mat` form
   (`TSSimpVISetRigidBodyPotentialRoutine()`), with its left-trivialised gradient, as `TaoSetObjectiveAndGradient()`
   takes an objective

   Calling Sequence:
+  ts  - the `TS`
.  R   - the attitudes of this process's bodies: 9 entries per body (a rotation matrix, body to space, row-major), in the
         order of `TSSimpVISetRigidBodyInertias()`; read only, valid during the call
.  V   - on output, V(R) of all bodies (the same on every process)
.  g   - on output, the left-trivialised gradient, 3 entries per body of this process: g_b . eta = d/de V(.., R_b exp(e hat(eta)), ..) at e = 0
-  ctx - the context given to `TSSimpVISetRigidBodyPotentialRoutine()`

   Level: intermediate

.seealso: `TSSimpVISetRigidBodyPotentialRoutine()`, `TSSimpVIRigidBodyHessianFn`, `SimpVIRigidBodyPotentialFn`
S*/
typedef PetscErrorCode (*TSSimpVIRigidBodyPotentialFn)(TS ts, Vec R, PetscReal *V, Vec g, void *ctx);

/*S
   TSSimpVIRigidBodyHessianFn - The left-trivialised Hessian of the potential of rigid bodies in the `Vec`/`Mat` form
   (`TSSimpVISetRigidBodyHessianRoutine()`), as `TaoSetHessian()` takes a Hessian

   Calling Sequence:
+  ts  - the `TS`
.  R   - the attitudes of this process's bodies, 9 entries per body (as `TSSimpVIRigidBodyPotentialFn`'s)
.  H   - on output, the 3N x 3N second derivative of V(R_1 exp(hat(e_1)), .., R_N exp(hat(e_N))) in (e_1, .., e_N) at 0
         (symmetric; 3 x 3 blocks per pair of bodies, rows 3b..3b+2 of body b on the process that owns it), assembled, in
         the matrix given to `TSSimpVISetRigidBodyHessianRoutine()`; its nonzero pattern must not grow after the first call
-  ctx - the context given to `TSSimpVISetRigidBodyHessianRoutine()`

   Level: intermediate

.seealso: `TSSimpVISetRigidBodyHessianRoutine()`, `TSSimpVIRigidBodyPotentialFn`
S*/
typedef PetscErrorCode (*TSSimpVIRigidBodyHessianFn)(TS ts, Vec R, Mat H, void *ctx);

/*S
   SimpVIRigidBodyTorqueFn - Body-frame torques tau(t, R, Omega; theta) on rigid bodies on SO(3) (`TSSimpVISetRigidBodyTorque()`),
   with their derivatives

   Calling Sequence:
+  nbodies - the number of bodies k
.  t       - the time
.  R       - their attitudes: k rotation matrices (body to space), 9 entries each, row-major
.  Omega   - their body angular velocities, 3k entries
.  tau     - on output, the torques in the body frames, 3k entries (a torque tau_s fixed in space is R_b' tau_s)
.  tauR    - on output (unless `NULL`), 3k x 3k row-major: d tau_b / d zeta_c, the derivative along R_c exp(hat(zeta_c)) (body frame)
.  tauO    - on output (unless `NULL`), 3k x 3k row-major: d tau_b / d Omega_c
.  tauth   - on output (unless `NULL`; only with parameters), 3k x np row-major: d tau / d theta
-  ctx     - the context given to `TSSimpVISetRigidBodyTorque()`

   Level: intermediate

.seealso: `TSSimpVISetRigidBodyTorque()`, `SimpVIRigidBodyPotentialFn`
S*/
typedef PetscErrorCode (*SimpVIRigidBodyTorqueFn)(PetscInt nbodies, PetscReal t, const PetscReal R[], const PetscReal Omega[], PetscReal tau[], PetscReal tauR[], PetscReal tauO[], PetscReal tauth[], void *ctx);

/* Rigid bodies on SO(3): the step on the group (src/doors/rigidbody.c) and the maps of so(3) it uses (src/core/liegroup.c) */
typedef struct _p_SimpVIRigidBodies *SimpVIRigidBodies;
PETSC_EXTERN PetscErrorCode          TSSimpVICreateRigidBodies(TS ts, PetscInt nbodies, const PetscReal J[], SimpVIRigidBodyPotentialFn V, void *ctx, SimpVIRigidBodies *rb);
PETSC_EXTERN PetscErrorCode          SimpVIRigidBodiesDestroy(SimpVIRigidBodies *rb);
PETSC_EXTERN PetscErrorCode          TSSimpVISetRigidBodies(TS ts, PetscInt nbodies, const PetscReal J[], SimpVIRigidBodyPotentialFn V, void *ctx);
PETSC_EXTERN PetscErrorCode          TSSimpVIGetRigidBodies(TS ts, SimpVIRigidBodies *rb);
PETSC_EXTERN PetscErrorCode          TSSimpVISetRigidBodyInertias(TS ts, PetscInt nlocal, const PetscReal J[]);
PETSC_EXTERN PetscErrorCode          TSSimpVISetRigidBodyPotentialRoutine(TS ts, Vec g, TSSimpVIRigidBodyPotentialFn f, void *ctx);
PETSC_EXTERN PetscErrorCode          TSSimpVISetRigidBodyHessianRoutine(TS ts, Mat H, TSSimpVIRigidBodyHessianFn f, void *ctx);
PETSC_EXTERN PetscErrorCode          TSSimpVISetRigidBodyTorque(TS ts, PetscInt nparams, SimpVIRigidBodyTorqueFn tau, void *ctx);
PETSC_EXTERN PetscErrorCode          SimpVIRigidBodiesSetTorque(SimpVIRigidBodies rb, PetscInt nparams, SimpVIRigidBodyTorqueFn tau, void *ctx);
PETSC_EXTERN PetscErrorCode          SimpVIRigidBodiesSetTime(SimpVIRigidBodies rb, PetscReal t);
PETSC_EXTERN PetscErrorCode          SimpVIRigidBodiesCreateState(SimpVIRigidBodies rb, Vec *U);
PETSC_EXTERN PetscErrorCode          SimpVIRigidBodiesSetStep(SimpVIRigidBodies rb, PetscReal h, Vec U);
PETSC_EXTERN PetscErrorCode          SimpVIRigidBodiesStep(SimpVIRigidBodies rb, PetscReal h, Vec U);
PETSC_EXTERN PetscErrorCode          SimpVIRigidBodiesGetSNES(SimpVIRigidBodies rb, SNES *snes);
PETSC_EXTERN PetscErrorCode          SimpVIRigidBodiesComputeEnergy(SimpVIRigidBodies rb, Vec U, PetscReal *E);
PETSC_EXTERN PetscErrorCode          SimpVIRigidBodiesView(SimpVIRigidBodies rb, PetscViewer viewer);
PETSC_EXTERN PetscErrorCode          SimpVISO3Exp(const PetscReal xi[], PetscReal E[]);
PETSC_EXTERN PetscErrorCode          SimpVISO3Log(const PetscReal E[], PetscReal xi[]);
PETSC_EXTERN PetscErrorCode          SimpVISO3Dexp(const PetscReal xi[], PetscReal T[], PetscReal Tinv[]);
PETSC_EXTERN PetscErrorCode          SimpVISO3DexpDerivative(const PetscReal xi[], const PetscReal a[], const PetscReal b[], PetscReal *phi, PetscReal grad[], PetscReal hess[]);

PETSC_EXTERN PetscErrorCode TSSimpVISetLagrangian(TS ts, TSSimpVILagrangianFn f, void *ctx);
PETSC_EXTERN PetscErrorCode TSSimpVISetLagrangianHessian(TS ts, Mat Lxx, Mat Lvx, Mat Lvv, TSSimpVILagrangianHessianFn f, void *ctx);
PETSC_EXTERN PetscErrorCode TSSimpVISetPotential(TS ts, Mat H, TSSimpVIPotentialFn V, TSSimpVIPotentialHessianFn hess, void *ctx);
PETSC_EXTERN PetscErrorCode TSSimpVISetMass(TS ts, Mat M, Mat Mx, Mat Mxx, TSSimpVIMassFn f, void *ctx);
PETSC_EXTERN PetscErrorCode TSSimpVISetForce(TS ts, Mat Fx, Mat Fv, TSSimpVIForceFn f, TSSimpVIForceJacobianFn jac, void *ctx);
PETSC_EXTERN PetscErrorCode TSSimpVISetParameterJacobian(TS ts, Mat Ptheta, Mat Gtheta, TSSimpVIParameterJacobianFn f, void *ctx);
PETSC_EXTERN PetscErrorCode TSSimpVISetPointwiseLagrangian(TS ts, TSSimpVIPointwiseFn f, void *ctx);
PETSC_EXTERN PetscErrorCode TSSimpVISetConstraints(TS ts, PetscInt m, TSSimpVIConstraintFn f, void *ctx);
PETSC_EXTERN PetscErrorCode TSSimpVIGetConstraintMultipliers(TS ts, PetscInt *nnodes, PetscInt *m, const PetscReal *lambda[]);
PETSC_EXTERN PetscErrorCode TSSimpVISetEqualityConstraintsRoutine(TS ts, Vec g, TSSimpVIEqualityConstraintsFn f, void *ctx);
PETSC_EXTERN PetscErrorCode TSSimpVISetJacobianEqualityRoutine(TS ts, Mat G, TSSimpVIJacobianEqualityFn f, void *ctx);
PETSC_EXTERN PetscErrorCode TSSimpVISetHessianEqualityRoutine(TS ts, Mat H, TSSimpVIHessianEqualityFn f, void *ctx);

PETSC_EXTERN PetscErrorCode TSSimpVIGetPhaseSpaceIS(TS ts, IS *isq, IS *isp);
PETSC_EXTERN PetscErrorCode TSSimpVISetUpPhaseSpace(TS ts);
PETSC_EXTERN PetscErrorCode TSSimpVIComputeEnergy(TS ts, PetscReal t, Vec U, PetscReal *H);
PETSC_EXTERN PetscErrorCode TSSimpVIMonitorEnergy(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx);

/*S
   SimpVIEnsemble - A parameter study: many small mechanical systems ("members"), each given by its parameters and
   initial state, integrated with the scheme of a `TSSIMPVI` on any number of processes, members dealt out dynamically

   Level: intermediate

.seealso: `SimpVIEnsembleCreate()`, `SimpVIEnsembleSetTS()`, `SimpVIEnsembleSolve()`, `SimpVIEnsembleGetResults()`
S*/
typedef struct _p_SimpVIEnsemble *SimpVIEnsemble;
PETSC_EXTERN PetscClassId         SIMPVIENSEMBLE_CLASSID;

/*E
   SimpVIEnsembleMemberReason - How the run of a member of a `SimpVIEnsemble` ended

   Values:
+  `SIMPVI_ENSEMBLE_CONVERGED_TIME`           - it reached the final time of the `TS` (`TSSetMaxTime()`)
.  `SIMPVI_ENSEMBLE_CONVERGED_ITS`            - it took the most steps of the `TS` (`TSSetMaxSteps()`)
.  `SIMPVI_ENSEMBLE_CONVERGED_USER`           - the stop function ended it (`SimpVIEnsembleSetStopFunction()`)
.  `SIMPVI_ENSEMBLE_ITERATING`                - not run (yet)
-  `SIMPVI_ENSEMBLE_DIVERGED_NONLINEAR_SOLVE` - the Newton solve of a step failed; its state is that step's start

   Level: intermediate

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleGetMemberInfo()`
E*/
typedef enum {
  SIMPVI_ENSEMBLE_DIVERGED_NONLINEAR_SOLVE = -1,
  SIMPVI_ENSEMBLE_ITERATING                = 0,
  SIMPVI_ENSEMBLE_CONVERGED_TIME           = 1,
  SIMPVI_ENSEMBLE_CONVERGED_ITS            = 2,
  SIMPVI_ENSEMBLE_CONVERGED_USER           = 3
} SimpVIEnsembleMemberReason;
PETSC_EXTERN const char *const *SimpVIEnsembleMemberReasons;

/*S
   SimpVIEnsembleMemberFn - A function that gives a member of a `SimpVIEnsemble` its parameters and initial state

   Calling Sequence:
+  ens    - the ensemble
.  member - the member, 0 <= member < the ensemble's size
.  nparam - the number of parameters of a member
.  param  - on output, its nparam parameters
.  n      - the number of positions
.  q      - on output, its initial positions (n)
.  p      - on output, its initial momenta (n)
-  ctx    - the context given to `SimpVIEnsembleSetMemberFunction()`

   Level: intermediate

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetMemberFunction()`
S*/
typedef PetscErrorCode (*SimpVIEnsembleMemberFn)(SimpVIEnsemble ens, PetscInt member, PetscInt nparam, PetscReal param[], PetscInt n, PetscReal q[], PetscReal p[], void *ctx);

/*S
   SimpVIEnsemblePointwiseFn - The mechanics of the members of a `SimpVIEnsemble` at many points at once, on plain
   arrays: `TSSimpVIPointwiseFn` with the member and its parameters at each point

   Calling Sequence:
+  ens     - the ensemble
.  npoints - the number of points (of one or several members)
.  n       - the number of positions
.  member  - the member of each point (npoints)
.  nparam  - the number of parameters of a member
.  param   - the parameters of each point's member, point k's at param + k nparam
.  t       - the times (npoints)
.  x       - the positions, point k at x + k n
.  v       - the velocities, point k at v + k n
.  L       - on output, L at each point; NULL when not wanted
.  P       - on output, dL/dv (npoints n); NULL when not wanted
.  G       - on output, dL/dx + f (npoints n); NULL when not wanted
.  Px      - on output, dP/dx at each point, an n x n row-major block per point; NULL when not wanted
.  Pv      - on output, dP/dv, likewise
.  Gx      - on output, dG/dx, likewise
.  Gv      - on output, dG/dv, likewise
-  ctx     - the context given to `SimpVIEnsembleSetPointwiseLagrangian()`

   Note:
   Each point's values must depend on that point alone (its member, parameters, t, x, v): the points of every member
   of a batch come in one call, and a member's result must not depend on which members share its batch.

   Level: intermediate

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetPointwiseLagrangian()`, `TSSimpVIPointwiseFn`
S*/
typedef PetscErrorCode (*SimpVIEnsemblePointwiseFn)(SimpVIEnsemble ens, PetscInt npoints, PetscInt n, const PetscInt member[], PetscInt nparam, const PetscReal param[], const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx);

/*S
   SimpVIEnsembleStopFn - A function called after each step of a member of a `SimpVIEnsemble` that may end its run
   (an event: a flip, a crossing)

   Calling Sequence:
+  ens    - the ensemble
.  member - the member
.  nparam - the number of parameters
.  param  - its parameters
.  step   - the steps it has taken
.  t      - its time
.  n      - the number of positions
.  q      - its positions
.  p      - its momenta
.  stop   - on output, `PETSC_TRUE` to end its run here (it comes in `PETSC_FALSE`)
-  ctx    - the context given to `SimpVIEnsembleSetStopFunction()`

   Level: intermediate

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetStopFunction()`
S*/
typedef PetscErrorCode (*SimpVIEnsembleStopFn)(SimpVIEnsemble ens, PetscInt member, PetscInt nparam, const PetscReal param[], PetscInt step, PetscReal t, PetscInt n, const PetscReal q[], const PetscReal p[], PetscBool *stop, void *ctx);

/*S
   SimpVIEnsembleBatchStopFn - A function called once after each step of a batch of a `SimpVIEnsemble` with every
   member whose step just ended, that may end their runs: `SimpVIEnsembleStopFn` on arrays, for vectorised code

   Calling Sequence:
+  ens      - the ensemble
.  nmembers - the number of members (those of the batch whose step succeeded)
.  member   - their ids (nmembers)
.  nparam   - the number of parameters
.  param    - their parameters, member k's at param + k nparam
.  step     - the steps each has taken (nmembers)
.  t        - their times (nmembers)
.  n        - the number of positions
.  q        - their positions, member k's at q + k n
.  p        - their momenta, likewise
.  stop     - on output, `PETSC_TRUE` for each member whose run ends here (they come in `PETSC_FALSE`)
-  ctx      - the context given to `SimpVIEnsembleSetBatchStopFunction()`

   Level: intermediate

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetBatchStopFunction()`, `SimpVIEnsembleStopFn`
S*/
typedef PetscErrorCode (*SimpVIEnsembleBatchStopFn)(SimpVIEnsemble ens, PetscInt nmembers, const PetscInt member[], PetscInt nparam, const PetscReal param[], const PetscInt step[], const PetscReal t[], PetscInt n, const PetscReal q[], const PetscReal p[], PetscBool stop[], void *ctx);

/*S
   SimpVIEnsembleOutputFn - A function that gives the result values of a member of a `SimpVIEnsemble` at the end of
   its run

   Calling Sequence:
+  ens    - the ensemble
.  member - the member
.  nparam - the number of parameters
.  param  - its parameters
.  reason - how its run ended
.  step   - the steps it took
.  t      - its final time
.  n      - the number of positions
.  q      - its final positions
.  p      - its final momenta
.  nout   - the number of result values
.  out    - on output, its nout result values
-  ctx    - the context given to `SimpVIEnsembleSetOutputFunction()`

   Level: intermediate

.seealso: `SimpVIEnsemble`, `SimpVIEnsembleSetOutputFunction()`, `SimpVIEnsembleGetResults()`
S*/
typedef PetscErrorCode (*SimpVIEnsembleOutputFn)(SimpVIEnsemble ens, PetscInt member, PetscInt nparam, const PetscReal param[], SimpVIEnsembleMemberReason reason, PetscInt step, PetscReal t, PetscInt n, const PetscReal q[], const PetscReal p[], PetscInt nout, PetscReal out[], void *ctx);

PETSC_EXTERN PetscErrorCode SimpVIEnsembleCreate(MPI_Comm comm, SimpVIEnsemble *ens);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleDestroy(SimpVIEnsemble *ens);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSetTS(SimpVIEnsemble ens, TS ts);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSetSize(SimpVIEnsemble ens, PetscInt nmembers);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleGetSize(SimpVIEnsemble ens, PetscInt *nmembers);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSetMemberFunction(SimpVIEnsemble ens, PetscInt n, PetscInt nparam, SimpVIEnsembleMemberFn f, void *ctx);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSetPointwiseLagrangian(SimpVIEnsemble ens, SimpVIEnsemblePointwiseFn f, void *ctx);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSetStopFunction(SimpVIEnsemble ens, SimpVIEnsembleStopFn f, void *ctx);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSetBatchStopFunction(SimpVIEnsemble ens, SimpVIEnsembleBatchStopFn f, void *ctx);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSetOutputFunction(SimpVIEnsemble ens, PetscInt nout, const char *const names[], SimpVIEnsembleOutputFn f, void *ctx);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSetBatchSize(SimpVIEnsemble ens, PetscInt batch);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSetChunkSize(SimpVIEnsemble ens, PetscInt chunk);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSetFromOptions(SimpVIEnsemble ens);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSetUp(SimpVIEnsemble ens);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleSolve(SimpVIEnsemble ens);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleGetResults(SimpVIEnsemble ens, PetscInt *nout, const PetscReal *out[]);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleGetMemberInfo(SimpVIEnsemble ens, const SimpVIEnsembleMemberReason *reason[], const PetscInt *steps[], const PetscInt *its[], const PetscReal *t[]);
PETSC_EXTERN PetscErrorCode SimpVIEnsembleView(SimpVIEnsemble ens, PetscViewer viewer);

#endif
