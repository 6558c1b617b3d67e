/*
   The core's step (src/core/): what the residual and Jacobian of one step need from a door (P, G and the terms of
   their derivatives), the step matrix's block assembly, and default linear solvers. Knows nothing of TS.
*/
#ifndef SIMPVI_STEP_H
#define SIMPVI_STEP_H

#include <petsc/private/petscimpl.h> /* SimpVIDenseAccessCurrent() reads the object header */
#include <petscsnes.h>
#include <simpvi/private/compat.h>
#include <simpvi/private/scheme.h>
#include <simpvi/private/kernel.h>

typedef struct {
  Mat         A;
  PetscScalar scale;
  SimpVIBlock block;
  PetscBool   transpose; /* insert A' (L_xv = L_vx') */
  PetscBool   constant;  /* A does not depend on (t, x, v): the core may sum its coefficients over the quadrature */
} SimpVITerm;

/* What the step asks of a door: P = L_v and G = L_x (plus forces) at a point, and the terms of their derivatives
   (at most maxterms; int: the SIMPVI_NEED() blocks), each called with ctx, which the step's owner sets */
typedef struct {
  PetscInt maxterms;
  PetscErrorCode (*pg)(void *, PetscReal, Vec, Vec, Vec, Vec);
  PetscErrorCode (*terms)(void *, PetscReal, Vec, Vec, PetscInt, PetscInt *, SimpVITerm[]);
  void     *ctx;
  PetscBool shared; /* pg and terms share a user callback (a mass M(x)): the dense path calls them together, point by point */
  /* whether the step may ask for the terms at the points of its next evaluation (a Jacobian there), so that a door may
     keep what its user callbacks give there (the mechanical door's mass memo) or not bother; NULL: never told */
  PetscErrorCode (*keep)(void *, PetscBool);
  /* P, G and their derivatives Px, Pv, Gx, Gv (n x n row-major each) at npts points (t, x, v) on arrays, one process:
     the small dense path then calls it once per Newton iteration, with no Vec or Mat; NULL when the door has none.
     const PetscInt[]: each point's SIMPVI_NEED() blocks (NULL: all); a block a point does not need may come back as
     zeros (the Hessian of a potential at a Lobatto scheme's first node is not computed) */
  PetscErrorCode (*points)(void *, PetscInt, PetscInt, const PetscInt[], const PetscReal[], const PetscReal[], const PetscReal[], PetscReal[], PetscReal[], PetscReal[], PetscReal[], PetscReal[], PetscReal[]);
  PetscBool pointspg; /* points() gives P and G only (never asked for derivatives): the dense Jacobian from terms() */
  /* holonomic constraints (src/core/constraints.c): nmultiplier of them, g(q), G = dg/dq (m x n row-major) and
     sum_r lambda_r d2 g_r/dq2 (n x n) at a configuration on arrays (lambda, g, G, H: NULL when not wanted); 0 and NULL
     without. They need points() (the end momentum's Legendre inversion onto the hidden constraint) and one process */
  PetscInt nmultiplier;
  PetscErrorCode (*constraint)(void *, PetscInt, PetscInt, const PetscReal[], const PetscReal[], PetscReal[], PetscReal[], PetscReal[]);
  /* or the same constraints on Vecs and Mats, any number of processes (src/core/constraintsvec.c): g(q) into a Vec of
     the multipliers' layout (nmultiplier local rows of it), G = dg/dq into the Mat cG (m x n), sum_r lambda_r d2 g_r
     into cH (n x n); the end projection then needs pg and the PV terms only. NULL without */
  Vec cg;
  Mat cG, cH;
  PetscErrorCode (*vconstraint)(void *, Vec, Vec);
  PetscErrorCode (*vjacobian)(void *, Vec, Mat);
  PetscErrorCode (*vhessian)(void *, Vec, Vec, Mat);
} SimpVIStepDoor;

/* Which step vector (id and state), start q0 (state), t and h an evaluation at the quadrature points belongs to */
typedef struct {
  PetscObjectId    id;
  PetscObjectState state, q0state;
  PetscReal        h, t;
} SimpVIStamp;

/*
  One step of a Galerkin variational integrator from (q0, p0) at t with step h (src/core/step.c): the unknowns are
  the increments Z_a = Q_a - q0 of the nodes Q_1..Q_s in the step vector Y (block-major on each process), R(Y) and
  dR/dY its system, q1 = q0 + Z_s and p1 its end. The previous solved step's nodes give the predictor and the
  interpolation's partial step.
*/
typedef struct _SimpVIStep *SimpVIStep;

PETSC_INTERN PetscErrorCode SimpVIStepCreate_Private(SimpVIStep *);
PETSC_INTERN PetscErrorCode SimpVIStepSetUp_Private(SimpVIStep, const SimpVIScheme *, const SimpVIStepDoor *, PetscBool, Vec, const char[]);
PETSC_INTERN PetscErrorCode SimpVIStepReset_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepDestroy_Private(SimpVIStep *);
PETSC_INTERN PetscErrorCode SimpVIStepPredict_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepResidual_Private(SimpVIStep, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepJacobian_Private(SimpVIStep, Vec, Mat);
PETSC_INTERN PetscErrorCode SimpVIStepMomentum_Private(SimpVIStep, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepFinish_Private(SimpVIStep, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepAccept_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepEvaluate_Private(SimpVIStep, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepSolverJacobian_Private(SimpVIStep, Vec, Mat);
/* simplified Newton (src/core/newton.c) */
PETSC_INTERN PetscErrorCode SimpVIStepNewtonBegin_Private(SimpVIStep, PetscBool, PetscBool);
PETSC_INTERN PetscErrorCode SimpVIStepNewtonKeep_Private(SimpVIStep, PetscBool, PetscBool *, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVIStepNewtonRecord_Private(SimpVIStep, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepNewtonAtRecord_Private(SimpVIStep, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepNewtonForget_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepNewtonGetState_Private(SimpVIStep, PetscBool *, PetscBool *, PetscReal[3]);
PETSC_INTERN PetscErrorCode SimpVIStepNewtonSetState_Private(SimpVIStep, PetscBool, PetscBool, const PetscReal[3]);
PETSC_INTERN PetscErrorCode SimpVIStepNewtonRecordIO_Private(SimpVIStep, PetscViewer, PetscBool);
PETSC_INTERN PetscErrorCode SimpVIStepMultipliersIO_Private(SimpVIStep, PetscViewer, PetscBool);
PETSC_INTERN PetscErrorCode SimpVIStepNewtonConverged_Private(SNES, PetscInt, PetscReal, PetscReal, PetscReal, SNESConvergedReason *, void *);
PETSC_INTERN PetscErrorCode SimpVIStepNewtonAccept_Private(SNES, PetscInt, PetscReal, PetscReal, const PetscScalar[], PetscBool *, void *);
/* the step as its owner sees it (src/core/step.c) */
PETSC_INTERN PetscErrorCode SimpVIStepSetTime_Private(SimpVIStep, PetscReal, PetscReal);
PETSC_INTERN PetscErrorCode SimpVIStepGetTime_Private(SimpVIStep, PetscReal *, PetscReal *);
PETSC_INTERN PetscErrorCode SimpVIStepGetStart_Private(SimpVIStep, Vec *, Vec *, Vec *);
PETSC_INTERN PetscErrorCode SimpVIStepSetVelocity_Private(SimpVIStep, PetscBool);
PETSC_INTERN PetscErrorCode SimpVIStepGetPrevious_Private(SimpVIStep, PetscBool *, PetscReal *, PetscReal *, Vec *, Vec *);
PETSC_INTERN PetscErrorCode SimpVIStepBeginPartial_Private(SimpVIStep, PetscReal);
PETSC_INTERN PetscErrorCode SimpVIStepEndPartial_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepGetSystem_Private(SimpVIStep, Vec *, Vec *, Mat *);
PETSC_INTERN PetscErrorCode SimpVIStepGetSizes_Private(SimpVIStep, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode SimpVIStepSetLagJacobian_Private(SimpVIStep, PetscBool, PetscReal);
PETSC_INTERN PetscErrorCode SimpVIStepGetLagJacobian_Private(SimpVIStep, PetscBool *, PetscReal *);
PETSC_INTERN PetscErrorCode SimpVIStepResidualScale_Private(SimpVIStep, PetscReal *);
PETSC_INTERN PetscErrorCode SimpVIStepHasPoints_Private(SimpVIStep, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVIStepGetPolynomial_Private(SimpVIStep, Vec **, Vec *);
PETSC_INTERN PetscErrorCode SimpVIStepSetPrevious_Private(SimpVIStep, PetscBool, PetscReal, PetscReal);
/* Simplified Newton (src/core/newton.c): a kept Jacobian is made again when the iteration contracts slower than this;
   the default tolerance of its error estimate, relative to ||Y||; a step at round-off of ||Y|| stops it */
#define SIMPVI_NEWTON_THETA_MAX 1e-2
#define SIMPVI_NEWTON_RTOL      1e-16
#define SIMPVI_NEWTON_ROUNDOFF  (16 * PETSC_MACHINE_EPSILON)
/* A linear step's kept Jacobian serves again while J r, probed with residuals, stays the same to this (relative) */
#define SIMPVI_LINEAR_PROBE_RTOL 1e-12
PETSC_INTERN PetscErrorCode SimpVIStepAssembleTerms_Private(SimpVIStep, PetscErrorCode (*)(SimpVIStep, void *, Mat, PetscBool, const PetscScalar[]), void *);
PETSC_INTERN PetscErrorCode SimpVIStepResidualAndTerms_Private(SimpVIStep, Vec, Vec, PetscErrorCode (*)(SimpVIStep, void *, Mat, PetscBool, const PetscScalar[]), void *);
PETSC_INTERN PetscErrorCode SimpVIStepIncrements_Private(SimpVIStep, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepStamp_Private(SimpVIStep, Vec, SimpVIStamp *);
PETSC_INTERN PetscErrorCode SimpVIStepStampMatch_Private(SimpVIStep, Vec, const SimpVIStamp *, PetscBool *);

/* The step's tangent and adjoint maps (src/core/steptangent.c): their work space, for ncost adjoint vectors */
typedef struct _SimpVIStepAdjoint *SimpVIStepAdjoint;
struct _SimpVIStepAdjoint {
  PetscInt     s, nloc, ncost;
  Vec         *gZ, *m;         /* step-shaped: the right sides g_Z and the solutions m of J' m = g_Z */
  Vec         *gq, *rq, *rp;   /* position-shaped: lq0 being built, the integrand's dr/dq and dr/dp */
  Vec         *rtheta, thwork; /* parameter-shaped (made on first use): dr/dtheta, work */
  Vec          a, b, work;     /* position-shaped work */
  Vec         *views, *mviews; /* the blocks of a step-shaped vector */
  PetscScalar *coef;
};

/* What a sensitivity adds to the step's maps (either may be NULL): the gradients of a cost integrand r(t, U) at a
   quadrature point, U = (x, P), for every cost (dr/dq, dr/dp; dr/dtheta when its array is not NULL), and the
   derivatives of P and G in the parameters at a point (n x np matrices; either may be NULL) */
typedef struct {
  PetscErrorCode (*integrand)(void *, PetscReal, Vec, Vec, Vec[], Vec[], Vec[]);
  PetscErrorCode (*paramjac)(void *, PetscReal, Vec, Vec, Mat *, Mat *);
  void *ctx;
} SimpVIStepSensitivity;

PETSC_INTERN PetscErrorCode SimpVIStepAdjointCreate_Private(SimpVIStep, PetscInt, SimpVIStepAdjoint *);
PETSC_INTERN PetscErrorCode SimpVIStepAdjointDestroy_Private(SimpVIStepAdjoint *);
PETSC_INTERN PetscErrorCode SimpVIStepLinearize_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepTangent_Private(SimpVIStep, SimpVIStepAdjoint, KSP, const SimpVIStepSensitivity *, Vec, Vec, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepAdjoint_Private(SimpVIStep, SimpVIStepAdjoint, KSP, const SimpVIStepSensitivity *, PetscInt, Vec[], Vec[], Vec[]);
PETSC_INTERN PetscErrorCode SimpVIStepIntegral_Private(SimpVIStep, PetscErrorCode (*)(void *, PetscReal, Vec, Vec, Vec), void *, Vec, Vec);

/* Block assembly of the step matrix (src/core/blockmat.c) */
PETSC_INTERN PetscErrorCode SimpVIMatAddBlocks_Private(Mat, PetscLayout, Mat, PetscBool, PetscInt, const PetscScalar[]);
PETSC_INTERN PetscErrorCode SimpVIMatFill_Private(Mat, PetscBool *, PetscErrorCode (*)(void *, Mat), void *);

/* Default linear solvers (src/core/linearsolver.c): systems (and mass matrices) with more rows than the limit get a
   Krylov solver, fewer a direct one */
#define SIMPVI_DIRECT_LIMIT 100000
PETSC_INTERN PetscErrorCode SimpVIDefaultLinearSolver_Private(KSP, PetscInt, PetscInt, PetscBool, PetscBool, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVIStepPlaceholderSolver_Private(KSP);
PETSC_INTERN PetscErrorCode SimpVIDefaultSolverFromMatrix_Private(KSP, Mat, PetscBool, PetscBool *);
/* the exact parallel solve of a matrix nearly banded on each process, coupled through few unknowns (src/core/interfacelu.c) */
PETSC_INTERN PetscErrorCode SimpVIPCSetInterfaceLU_Private(PC);
PETSC_INTERN PetscErrorCode SimpVIInterfaceCount_Private(Mat, PetscInt *, PetscInt *);

/* The step's residual and dense Jacobian on arrays for SNESSIMPVIDENSE (src/core/smallstep.c; the functions of
   include/simpvi/private/snesdense.h, their context the step) */
PETSC_INTERN PetscErrorCode SimpVIStepDenseFunction_Private(SNES, Vec, Vec, PetscBool, void *);
PETSC_INTERN PetscErrorCode SimpVIStepDenseJacobian_Private(SNES, Vec, PetscScalar[], PetscBool *, void *);
PETSC_INTERN PetscErrorCode SimpVIStepSmallReset_Private(SimpVIStep);

/* Holonomic constraints in the step (src/core/constraints.c): the multipliers' blocks of the step vector after the s
   position blocks (lambda_0..lambda_{s-1}), the constraints' rows after the s residual blocks (g at nodes 1..s), and
   the end momentum put on the hidden constraint by lambda_s */
PETSC_INTERN PetscErrorCode SimpVIStepConstraintsSetUp_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintsReset_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintResidual_Private(SimpVIStep, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintJacobian_Private(SimpVIStep, Vec, Mat);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintDenseJacobian_Private(SimpVIStep, Vec, PetscInt, PetscScalar[]);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintMomentum_Private(SimpVIStep, const PetscScalar[], PetscScalar[]);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintStart_Private(SimpVIStep, PetscReal);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintStartVec_Private(SimpVIStep, PetscReal *);
PETSC_INTERN PetscErrorCode SimpVIStepGetMultipliers_Private(SimpVIStep, PetscInt *, PetscInt *, const PetscReal *[]);
/* the same on Vecs and Mats (src/core/constraintsvec.c), called by the functions above for a door with vconstraint */
PETSC_INTERN PetscErrorCode SimpVIStepConstraintsVecSetUp_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintsVecReset_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintResidualVec_Private(SimpVIStep, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintJacobianVec_Private(SimpVIStep, Vec, Mat);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintMomentumVec_Private(SimpVIStep, const PetscScalar[], PetscScalar[]);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintsView_Private(SimpVIStep, PetscViewer);
PETSC_INTERN PetscErrorCode SimpVIStepIsConstrained_Private(SimpVIStep, PetscBool *);
/* the default solver of a saddle-point step system (the constraints' multipliers): src/core/linearsolver.c */
PETSC_INTERN PetscErrorCode SimpVISaddlePointSolver_Private(KSP, PetscBool, PetscBool *, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVISaddlePointSubSolver_Private(KSP, Mat);
/* and in the step's tangent and adjoint maps (src/core/steptangent.c): the multipliers rebuilt from the increments, the
   constraints' blocks in the start and the end projection linearised, their products */
PETSC_INTERN PetscErrorCode SimpVIStepConstraintMultipliers_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintLinearize_Private(SimpVIStep);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintTangentStart_Private(SimpVIStep, const PetscScalar[], PetscScalar[]);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintTangentEnd_Private(SimpVIStep, const PetscScalar[], const PetscScalar[], PetscScalar[]);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintAdjointEnd_Private(SimpVIStep, PetscScalar[], PetscScalar[]);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintAdjointMomentum_Private(SimpVIStep, const PetscScalar[], PetscScalar[], PetscScalar[]);
PETSC_INTERN PetscErrorCode SimpVIStepConstraintAdjointStart_Private(SimpVIStep, const PetscScalar[], PetscScalar[]);

PETSC_INTERN PetscLogEvent SIMPVI_Residual, SIMPVI_Jacobian;

/* A MATSEQDENSE read on its array through the functions it composes, looked up by name once and kept while the matrix
   is the same object (its id: not a new matrix at a freed one's address) of the same type (its type name and function
   list, which MatSetType() and MatConvert() in place replace) (src/core/smallstep.c). MatDenseGetArrayRead(),
   MatGetValues() and MatCopy() look them up by name at each call, and MatMult()'s checks and logging cost more than
   the arithmetic of a small system at one quadrature point. */
typedef struct {
  Mat               A;
  PetscObjectId     id;
  const char       *type;
  PetscFunctionList qlist;
  PetscBool         dense; /* A is a MATSEQDENSE with the functions below; else they are not set */
  PetscBool         aij;   /* A is a MATSEQAIJ, read on its CSR arrays: the row starts and columns of its nonzero state */
  PetscObjectState  nzstate;
  PetscInt          nrows;
  PetscInt          mloc, nloc; /* A's local sizes */
  const PetscInt   *ai, *aj;
  PetscErrorCode (*getarray)(Mat, const PetscScalar **);
  PetscErrorCode (*restorearray)(Mat, const PetscScalar **);
  PetscErrorCode (*getlda)(Mat, PetscInt *);
  PetscErrorCode (*getwrite)(Mat, PetscScalar **); /* write access, when the type composes it (may be NULL) */
  PetscErrorCode (*restorewrite)(Mat, PetscScalar **);
} SimpVIDenseAccess;
PETSC_INTERN PetscErrorCode SimpVIDenseAccessSet_Private(SimpVIDenseAccess *, Mat);
/* whether acc is A's as A is now (SimpVIDenseAccessSet_Private() then does nothing) */
static inline PetscBool SimpVIDenseAccessCurrent(const SimpVIDenseAccess *acc, Mat A)
{
  PetscObject obj = (PetscObject)A;

  return (PetscBool)(acc->A == A && acc->id == obj->id && acc->type == obj->type_name && acc->qlist == obj->qlist);
}
PETSC_INTERN PetscErrorCode SimpVIDenseMult_Private(SimpVIDenseAccess *, Mat, Vec, Vec);

#endif
