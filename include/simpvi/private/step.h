/*
   The core's step (src/core/): what the residual and Jacobian of one step need from a door (P, G and the terms of
   their derivatives), the step matrix's block assembly, and default linear solvers. Knows nothing of TS.
*/
#ifndef SIMPVI_STEP_H
#define SIMPVI_STEP_H

#include <petscsnes.h>
#include <simpvi/private/compat.h>
#include <simpvi/private/scheme.h>

/* Which block of the step Jacobian a term of the Lagrangian's second derivatives feeds:
   P = dL/dv and G = dL/dx (plus forces) are differentiated in x (X) and v (V). */
typedef enum {
  SIMPVI_BLOCK_PX,
  SIMPVI_BLOCK_PV,
  SIMPVI_BLOCK_GX,
  SIMPVI_BLOCK_GV
} SimpVIBlock;
/* A set of blocks, for a door to skip callbacks whose terms would all have zero coefficients */
#define SIMPVI_NEED(block) (1 << (block))
#define SIMPVI_NEED_ALL    (SIMPVI_NEED(SIMPVI_BLOCK_PX) | SIMPVI_NEED(SIMPVI_BLOCK_PV) | SIMPVI_NEED(SIMPVI_BLOCK_GX) | SIMPVI_NEED(SIMPVI_BLOCK_GV))

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
  /* P, G and their derivatives Px, Pv, Gx, Gv (n x n row-major each) at npts points (t, x, v) on arrays, one process:
     the small dense path then calls it once per Newton iteration, with no Vec or Mat; NULL when the door has none */
  PetscErrorCode (*points)(void *, PetscInt, PetscInt, const PetscReal[], const PetscReal[], const PetscReal[], PetscReal[], PetscReal[], PetscReal[], PetscReal[], PetscReal[], PetscReal[]);
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
struct _SimpVIStep {
  const SimpVIScheme *scheme;
  SimpVIStepDoor      door;
  PetscBool           linear; /* a quadratic Lagrangian: the Jacobian does not depend on Y (kept while t and h stay) */

  /* the step */
  PetscReal   t, h;
  Vec         q0, p0;
  Vec         v;      /* a velocity at q0 */
  PetscBool   vvalid; /* v holds it (the first predictor is q0 + c h v) */
  PetscLayout qmap;   /* layout of the positions */

  /* the previous solved step: its nodes (the polynomial), start momentum and time */
  Vec      *Qprev;
  Vec       pprev;
  PetscReal tprev, hprev;
  PetscBool havepoly;

  /* values at the quadrature points (nq each), and the step vector they belong to */
  Vec        *X, *V, *P, *G;
  SimpVIStamp eval;

  /* the system */
  Vec       Y, R, *Yv, *Rv; /* Yv/Rv: views of the stage blocks of Y/R */
  Mat       J;
  PetscBool Jpreallocated;
  PetscReal Jh, Jt;          /* step size and start of the step of the Jacobian in J (linear: the last step it was found to be) */
  PetscBool Jvalid;          /* J holds a Jacobian of this step size (for lagging) */
  Vec       Jr, JJr;         /* linear: the probe r (step-shaped) and J r at J's assembly, made on first use */
  Vec       Jy, Jry;         /* linear: Y + sigma r and R there */
  PetscReal JJrnorm, Jsigma; /* linear: ||J r||_inf, the probe's scale sigma (0: to be found) */

  /* what the last residual was computed at (Y's stamp, p0's state) and R's id and state after */
  SimpVIStamp      res;
  PetscObjectId    resrid;
  PetscObjectState resrstate, resp0;

  /* Jacobian lagging (-ts_simpvi_lag_jacobian): Jacobian requests in this step, the residual norm at the last one */
  PetscBool lagjacobian;
  PetscInt  jcalls;
  PetscReal jfnorm;

  /* scratch of the scheme's size */
  PetscScalar        *coef, *termcoef;
  Vec                *vecs;
  const PetscScalar **parr; /* array pointers: P_k and G_k, then the terms of a node gradient (or the stages) */
  PetscReal          *phi;
  SimpVITerm         *terms;
  PetscScalar        *ctab;  /* unit term coefficients per point and block, for the step size ctabh */
  PetscInt           *cneed; /* the blocks each point needs */
  PetscReal           ctabh;
  PetscReal          *predx, *predphi; /* the predictor's basis at each stage's node (predx on the old polynomial) */

  /* the small dense path (src/core/smallstep.c), the step's residual and dense Jacobian for SNESSIMPVIDENSE: the
     m = s n rows of the system, its dense Jacobian (row-major), the last one given for a linear step (to find it
     unchanged), the step size and start it was given for, the residual norm at the last Jacobian request, scratch */
  PetscInt     dm, *didx;
  PetscScalar *dJ, *dJprev, *dvals;
  PetscBool    dgiven, dassembled; /* dgiven: dJprev and dJh, dJt are set; dassembled: dJ is the Jacobian at the current iterate */
  PetscReal    dJh, dJt, dfnorm;
  /* a door with points(): the quadrature points' t, x, v, the door's P, G and derivatives (Px, Pv, Gx, Gv, nq n x n
     each) on arrays, and the step vector they belong to */
  PetscReal  *at, *ax, *av, *aP, *aG, *aD, *aT; /* aT: the Jacobian's partial sums */
  SimpVIStamp astamp;
  PetscBool   aderiv; /* aD holds the derivatives of that evaluation */
};

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
PETSC_INTERN PetscErrorCode SimpVIStepLagJacobian_Private(SimpVIStep, Vec, PetscBool *);
/* A lagged Jacobian serves again while each Newton step cuts the residual by this factor at least */
#define SIMPVI_LAG_CONTRACTION 1e-2
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
PETSC_INTERN PetscErrorCode SimpVIDefaultLinearSolver_Private(KSP, PetscInt, PetscInt, PetscBool, PetscBool);
PETSC_INTERN PetscErrorCode SimpVIStepPlaceholderSolver_Private(KSP);

/* The small dense path (src/core/smallstep.c): the step's residual and dense Jacobian, the array functions of
   SNESSIMPVIDENSE (include/simpvi/private/snesdense.h), the context the step */
PETSC_INTERN PetscErrorCode SimpVIStepDenseFunction_Private(SNES, Vec, Vec, PetscBool, void *);
PETSC_INTERN PetscErrorCode SimpVIStepDenseJacobian_Private(SNES, Vec, PetscScalar[], PetscBool *, void *);
PETSC_INTERN PetscErrorCode SimpVIStepSmallReset_Private(SimpVIStep);

PETSC_INTERN PetscLogEvent SIMPVI_Residual, SIMPVI_Jacobian;

#endif
