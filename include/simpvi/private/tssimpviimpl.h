/*
   Private data of TSSIMPVI: the scheme table, the door that gives the Lagrangian data, and the step work space.
*/
#ifndef SIMPVI_TSSIMPVIIMPL_H
#define SIMPVI_TSSIMPVIIMPL_H

#include <petsc/private/tsimpl.h>
#include <petscdmshell.h>
#include <simpvi.h>
#include <simpvi/private/compat.h>

/* A scheme: a degree-s polynomial through Gauss-Lobatto nodes c_0..c_s and a quadrature (tau_k, w_k), k < nq.
   B[k*(s+1)+i] = phi_i(tau_k), D[k*(s+1)+i] = phi_i'(tau_k) on [0,1]. */
typedef struct {
  PetscInt   degree, nq, order;
  PetscReal *c, *tau, *w, *B, *D;
} SimpVIScheme;

PETSC_INTERN PetscErrorCode SimpVISchemeCreate_Private(TSSimpVIQuadrature, PetscInt, SimpVIScheme **);
PETSC_INTERN PetscErrorCode SimpVISchemeDestroy_Private(SimpVIScheme **);
PETSC_INTERN PetscErrorCode SimpVISchemeBasis_Private(const SimpVIScheme *, PetscReal, PetscReal[], PetscReal[]);
PETSC_INTERN PetscErrorCode SimpVISchemeFind_Private(const char[], TSSimpVIQuadrature *, PetscInt *, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVISchemeNames_Private(PetscInt *, const char ***);

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

typedef struct _SimpVIDoor        SimpVIDoor;
typedef struct _SimpVIPhaseSpace *SimpVIPhaseSpace;

/* The user's mechanics, kept on the TS whatever its type (composed "SimpVIProblem"), so that TSSetType() keeps it
   and other TS types can be given its phase-space form; with the door that reads it and the door's work space */
typedef struct {
  TSSimpVILagrangianFn        lagfn;
  TSSimpVILagrangianHessianFn laghessfn;
  void                       *lagctx, *laghessctx;
  Mat                         Lxx, Lvx, Lvv;
  TSSimpVIPotentialFn         potfn;
  TSSimpVIPotentialHessianFn  pothessfn;
  void                       *potctx;
  Mat                         K;
  TSSimpVIMassFn              massfn;
  void                       *massctx;
  Mat                         M, Mx, Mxx;
  TSSimpVIForceFn             forcefn;
  TSSimpVIForceJacobianFn     forcejacfn;
  void                       *forcectx;
  Mat                         Fx, Fv;

  const SimpVIDoor *door;
  SimpVITerm       *terms;                    /* door->maxterms, for the callers of door->terms() outside the step */
  Vec               work, work2, zero, force; /* position-shaped */
  Vec               massg;                    /* 1/2 v' dM/dx v */
  KSP               kspv;                     /* L_vv solves of the Legendre inversion */
  Mat               I2P, I2A;                 /* I2 door: the user's I2 (or I) Jacobian matrices (preconditioning, operator) */
  Mat               I2J[4];                   /* I2 door: K = dF/dU, M = dF/dA, C = dF/dV, work */
  PetscReal         I2shift;                  /* I2 door: the shift that reads M and C from the Jacobian without cancellation */
  PetscReal         I2Mnorm, I2Mtime;         /* I2 door: ||M|| and the time M was read */
  PetscBool         damped;
  SimpVIPhaseSpace  ps;          /* the phase-space form given to other TS types */
  PetscInt          directlimit; /* -ts_simpvi_direct_limit, read with the TS's options (SimpVIDirectLimitOption_Private) */
  PetscReal         H0;          /* TSSimpVIMonitorEnergy(): the first energy seen (any TS type) */
  PetscBool         H0set;
} SimpVIProblem;

/* A door turns the user's callbacks into the core's two needs: P, G at a point, and the terms of their derivatives */
struct _SimpVIDoor {
  const char *name;
  PetscInt    maxterms;                                                                                  /* the most terms its terms() gives (forces included): the size of the callers' arrays */
  PetscErrorCode (*setup)(TS, SimpVIProblem *, Vec);                                                     /* Vec: positions */
  PetscErrorCode (*pg)(TS, SimpVIProblem *, PetscReal, Vec, Vec, Vec, Vec);                              /* P = L_v, G = L_x */
  PetscErrorCode (*terms)(TS, SimpVIProblem *, PetscReal, Vec, Vec, PetscInt, PetscInt *, SimpVITerm[]); /* second derivatives; PetscInt: the SIMPVI_NEED() blocks */
  PetscErrorCode (*lagrangian)(TS, SimpVIProblem *, PetscReal, Vec, Vec, PetscReal *);                   /* L; may be NULL */
  PetscErrorCode (*reset)(SimpVIProblem *);
  PetscErrorCode (*check)(TS, SimpVIProblem *, PetscReal, Vec, Vec); /* at the end of a step (t, x, v); may be NULL */
};

/* The phase-space form of a problem for other TS types (src/doors/phasespace.c) */
struct _SimpVIPhaseSpace {
  TS              ts;
  SimpVIProblem  *prob;
  IS              isq, isp;
  Vec             q, p, qdot, pdot, v, P, G;
  PetscBool       blockmajor;  /* U = (q_local, p_local) on every process: J by SimpVIMatAddBlocks_Private() */
  const PetscInt *qidx, *pidx; /* otherwise the U index of every position and momentum, all processes (gathered) */
  IS              allq, allp;
  Mat             J;
  PetscBool       Jpreallocated;
  PetscReal       t, shift; /* of the IJacobian being assembled */
};

PETSC_INTERN PetscErrorCode SimpVIGetProblem_Private(TS, PetscBool, SimpVIProblem **);
PETSC_INTERN PetscErrorCode SimpVIProblemSetUp_Private(TS, SimpVIProblem *, const SimpVIDoor *, Vec);
PETSC_INTERN PetscErrorCode SimpVIProblemReset_Private(SimpVIProblem *);
PETSC_INTERN PetscErrorCode SimpVIPhaseSpaceDestroy_Private(SimpVIPhaseSpace *);
PETSC_INTERN PetscErrorCode SimpVIProblemSplit_Private(TS, Vec, IS *, IS *);
PETSC_INTERN PetscErrorCode SimpVILegendreInverse_Private(TS, SimpVIProblem *, PetscReal, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVICheckMatSize_Private(TS, Vec, Mat, const char[]);
PETSC_INTERN PetscErrorCode SimpVICheckVecSize_Private(TS, Vec, PetscInt, PetscInt, const char[]);

/* The object checks of the public functions, made also where PETSc is built without debugging (Debian's), in which
   PetscValidHeaderSpecific() does nothing: a NULL or wrong-class object stops with an error, not a crash later (the
   messages are PETSc's, so that both builds say the same) */
#define SimpVIValidHeaderSpecific(h, ck, arg) \
  do { \
    PetscValidHeaderSpecific(h, ck, arg); \
    PetscCheck((h) != NULL, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null Object: Parameter # %d", (int)(arg)); \
    PetscCheck(((PetscObject)(h))->classid == (ck), PetscObjectComm((PetscObject)(h)), PETSC_ERR_ARG_WRONG, "Wrong type of object: Parameter # %d", (int)(arg)); \
  } while (0)
#define SimpVIAssertPointer(p, arg) \
  do { \
    PetscAssertPointer(p, arg); \
    PetscCheck((p) != NULL, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null Pointer: Parameter # %d", (int)(arg)); \
  } while (0)
PETSC_INTERN PetscErrorCode SimpVIForceAdd_Private(TS, SimpVIProblem *, PetscReal, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIForceTerms_Private(TS, SimpVIProblem *, PetscReal, Vec, Vec, PetscInt *, SimpVITerm[]);
/* terms[(*n)++] = term, within the door's declared maxterms */
static inline PetscErrorCode SimpVITermPush(const SimpVIProblem *prob, PetscInt *n, SimpVITerm terms[], SimpVITerm term)
{
  PetscFunctionBegin;
  PetscCheck(*n < prob->door->maxterms, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The %s door gives more than the %" PetscInt_FMT " terms it declares", prob->door->name, prob->door->maxterms);
  terms[(*n)++] = term;
  PetscFunctionReturn(0);
}

PETSC_INTERN const SimpVIDoor SimpVIDoorLagrangian, SimpVIDoorMechanical, SimpVIDoorI2;

/* Calls a user callback and makes its failure collective: an error (or a bare error code) on some processes stops
   every process of the TS at this call, instead of leaving the others waiting in their next collective operation.
   One MPI_Allreduce per call in parallel. */
#define SimpVICallBack(ts, name, ...) \
  do { \
    PetscErrorCode ierr_simpvi_cb_; \
    PetscStackPushExternal(name); \
    ierr_simpvi_cb_ = __VA_ARGS__; \
    PetscStackPop; \
    PetscCall(SimpVICallBackCheck_Private(ts, name, ierr_simpvi_cb_)); \
  } while (0)
PETSC_INTERN PetscErrorCode SimpVICallBackCheck_Private(TS, const char[], PetscErrorCode);

typedef struct {
  /* scheme */
  char              *type;
  TSSimpVIQuadrature quadrature;
  PetscInt           degree;
  PetscBool          degreefixed;
  SimpVIScheme      *scheme;

  /* door and user data */
  const SimpVIDoor *door;
  SimpVIProblem    *prob;

  /* state layout: native problems carry U = (q, p); I2 problems carry q in U and v in vec_dot */
  PetscBool   native;
  IS          isq, isp;
  Vec         q0, p0, q1, p1; /* start and end of the step (n) */
  Vec         v;              /* a velocity for the Legendre inversion and the I2 door */
  Vec        *Qprev;          /* the previous step's nodes, for the predictor and TSInterpolate */
  Vec         pprev, vprev;   /* its start momentum (and velocity, I2 door): for TSInterpolate and TSRollBack */
  PetscReal   tprev, hprev;
  PetscBool   havepoly;
  Vec        *X, *V, *P, *G; /* quadrature point values (nq each) */
  Vec         work, work2;
  Vec         eq, ep; /* state split for the energy */
  Vec         Ustage; /* for TSPostStage(): the end of the step, shaped like the state */
  PetscBool   vvalid; /* v holds a velocity consistent with q0 (for the first predictor) */
  PetscLayout qmap;   /* layout of the positions */

  /* step system in the positions Q_1..Q_s: local block-major layout, s*nlocal entries per rank */
  Vec              Y, R, *Yv, *Rv;  /* Yv/Rv: views of the stage blocks of Y/R */
  PetscScalar     *coef, *termcoef; /* scratch of the scheme's size (SimpVIStepSetUp_Private) */
  Vec             *vecs;
  PetscReal       *phi;
  SimpVITerm      *terms;
  Mat              J;
  PetscBool        Jpreallocated;
  PetscObjectId    evalid; /* the step vector (id, state, h, t, q0 state) at which P and G were last evaluated */
  PetscObjectState evalstate, evalq0;
  PetscReal        evalh, evalt;
  DM               dmstep;
  PetscReal        stage_time, h;
  PetscReal        Jh, Jt;  /* step size and start of the step of the assembled Jacobian (TS_LINEAR) */
  Mat              Jlinear; /* TS_LINEAR: the next step's Jacobian, compared with J before J is replaced */

  /* step solver: ts->snes; the deprecated -ts_simpvi_nonlinear_solver kinsol asked for SNESKINSOL */
  PetscBool kinsolalias;
  char      reason[256];

  /* linear stability (src/ts/stability.c) */
  PetscBool checkstability, stabilitywarn, stabilitywarned, stabilityready;
  PetscReal omega, bound; /* omega_max estimated at the first step (negative: none), the scheme's bound on h*omega */
  PetscReal omegatime;    /* where omega_max was estimated */
  PetscInt  growthsteps;  /* steps in a row with a blow-up-like growth, and the growth over them */
  PetscReal growth;

} TS_SimpVI;

PETSC_INTERN PetscErrorCode SimpVIMatAddBlocks_Private(Mat, PetscLayout, Mat, PetscBool, PetscInt, const PetscScalar[]);
PETSC_INTERN PetscErrorCode SimpVIMatFill_Private(Mat, PetscBool *, PetscErrorCode (*)(void *, Mat), void *);
PETSC_INTERN PetscErrorCode SimpVIStepResidual_Private(TS, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepJacobian_Private(TS, Vec, Mat);
PETSC_INTERN PetscErrorCode SimpVIStepJacobianUpdate_Private(TS, Vec, Mat);
PETSC_INTERN PetscErrorCode SimpVIStepMomentum_Private(TS, Vec);
PETSC_INTERN PetscErrorCode SimpVIStepSetUp_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIStepReset_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIStepPredict_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIStepAccept_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIStepSolve_Private(TS, PetscInt *, PetscInt *, PetscBool *, const char **);
PETSC_INTERN PetscErrorCode SimpVIInterpolate_Private(TS, PetscReal, Vec, Vec);
/* step systems (and mass matrices) with more rows than this get a Krylov solver by default, fewer a direct one */
#define SIMPVI_DIRECT_LIMIT 100000
PETSC_INTERN PetscErrorCode SimpVIDefaultLinearSolver_Private(TS, KSP, PetscInt, PetscBool, PetscBool);
PETSC_INTERN PetscErrorCode SimpVIStepPlaceholderSolver_Private(KSP);
PETSC_INTERN PetscErrorCode SimpVIDirectLimitOption_Private(TS, SimpVIOptionItems, SimpVIProblem *);
PETSC_INTERN PetscLogEvent  SIMPVI_Residual, SIMPVI_Jacobian;

PETSC_INTERN PetscErrorCode SimpVISchemeStabilityBound_Private(const SimpVIScheme *, PetscReal *);
PETSC_INTERN PetscErrorCode SimpVIStabilityEstimate_Private(TS, PetscReal, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIStabilityCheckStep_Private(TS, Vec, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVIStabilityCheckGrowth_Private(TS, Vec, Vec, Vec, Vec, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVIStabilityHint_Private(TS, const char[], Vec, Vec, char[], size_t);

/* the step under SNESKINSOL and the deprecated solver choice (src/ts/stepkinsol.c) */
PETSC_INTERN PetscErrorCode SimpVIStepKINSOL_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIKINSOLAliasSetFromOptions_Private(TS, SimpVIOptionItems);
PETSC_INTERN PetscErrorCode TSSimpVISetNonlinearSolverType_SimpVI(TS, TSSimpVINonlinearSolverType);
PETSC_INTERN PetscErrorCode TSSimpVIGetNonlinearSolverType_SimpVI(TS, TSSimpVINonlinearSolverType *);
#if defined(SIMPVI_HAVE_KINSOL)
PETSC_INTERN PetscErrorCode SNESCreate_KINSOL(SNES);
#endif

#endif
