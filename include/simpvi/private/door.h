/*
   The doors (src/doors/): the user's mechanics (the problem object, its setters and the choice of door in
   src/doors/problem.c), and the doors that turn them into what the step needs. Door callbacks receive the user's TS,
   an opaque handle passed on to the user's callbacks.
*/
#ifndef SIMPVI_DOOR_H
#define SIMPVI_DOOR_H

#include <petsc/private/petscimpl.h>
#include <simpvi.h>
#include <simpvi/private/compat.h>
#include <simpvi/private/step.h>

/* Calls a user callback and makes its failure collective: an error (or a bare error code) on some processes stops
   every process of the TS at this call, instead of leaving the others waiting in their next collective operation.
   One MPI_Allreduce per call in parallel; on one process nothing after a success (the check would cost more than the
   user's function of a small system). */
#define SimpVICallBack(ts, name, ...) \
  do { \
    PetscErrorCode ierr_simpvi_cb_; \
    PetscMPIInt    size_simpvi_cb_; \
    PetscStackPushExternal(name); \
    ierr_simpvi_cb_ = __VA_ARGS__; \
    PetscStackPop; \
    PetscCallMPI(MPI_Comm_size(((PetscObject)(ts))->comm, &size_simpvi_cb_)); \
    if (PetscUnlikely(ierr_simpvi_cb_) || size_simpvi_cb_ > 1) PetscCall(SimpVICallBackCheck_Private(ts, name, ierr_simpvi_cb_)); \
  } while (0)
PETSC_INTERN PetscErrorCode SimpVICallBackCheck_Private(TS, const char[], PetscErrorCode);
/* SimpVICallBack() for a door of one process only (the pointwise door; SimpVIProblemNativeDoor_Private() refuses more):
   the same effect there, without the MPI_Comm_size() of every call (150 to 300 instructions a step of the 1-DOF
   pendulum, 1 to 2%, by bench/stepinstr.sh). On more processes a failure on some would leave the others waiting. */
#define SimpVICallBackOneProcess(ts, name, ...) \
  do { \
    PetscErrorCode ierr_simpvi_cb_; \
    PetscStackPushExternal(name); \
    ierr_simpvi_cb_ = __VA_ARGS__; \
    PetscStackPop; \
    if (PetscUnlikely(ierr_simpvi_cb_)) PetscCall(SimpVICallBackCheck_Private(ts, name, ierr_simpvi_cb_)); \
  } while (0)

/* SimpVICallBack() for a door's problem set up (SimpVIProblemSetUp_Private()): on one process without the MPI_Comm_size()
   of every call */
#define SimpVICallBackProblem(ts, prob, name, ...) \
  do { \
    if ((prob)->oneprocess) SimpVICallBackOneProcess(ts, name, __VA_ARGS__); \
    else SimpVICallBack(ts, name, __VA_ARGS__); \
  } while (0)

typedef struct _SimpVIDoor        SimpVIDoor;
typedef struct _SimpVIMassMemo    SimpVIMassMemo;   /* the mechanical door's (src/doors/mechanical.c) */
typedef struct _SimpVIMechPoints  SimpVIMechPoints; /* the mechanical door's points() work (src/doors/mechanical.c) */
typedef struct _SimpVILagPoints   SimpVILagPoints;  /* the Lagrangian door's points() work (src/doors/lagrangian.c) */
typedef struct _SimpVIPhaseSpace *SimpVIPhaseSpace;
typedef struct _SimpVISplit       SimpVISplit; /* the split door's work (src/doors/split.c) */

/* The user's mechanics as given (src/doors/problem.c): callbacks, their contexts and matrices */
typedef struct {
  TSSimpVILagrangianFn          lagfn;
  TSSimpVILagrangianHessianFn   laghessfn;
  void                         *lagctx, *laghessctx;
  Mat                           Lxx, Lvx, Lvv;
  TSSimpVIPotentialFn           potfn;
  TSSimpVIPotentialHessianFn    pothessfn;
  void                         *potctx;
  Mat                           K;
  TSSimpVIMassFn                massfn;
  void                         *massctx;
  Mat                           M, Mx, Mxx;
  TSSimpVIForceFn               forcefn;
  TSSimpVIForceJacobianFn       forcejacfn;
  void                         *forcectx;
  Mat                           Fx, Fv;
  Mat                           I2P, I2A; /* the I2 (or I) Jacobian matrices given to TSSetI2Jacobian(), taken from the SNES */
  TSSimpVIParameterJacobianFn   paramfn;  /* TSSimpVISetParameterJacobian(): dP/dtheta, dG/dtheta */
  void                         *paramctx;
  Mat                           Pth, Gth;
  TSSimpVIPointwiseFn           pwfn; /* TSSimpVISetPointwiseLagrangian() */
  void                         *pwctx;
  TSSimpVIConstraintFn          confn; /* TSSimpVISetConstraints(): m holonomic constraints */
  void                         *conctx;
  PetscInt                      ncon;
  Vec                           ceq; /* TSSimpVISetEqualityConstraintsRoutine() and its Jacobian and Hessian routines: the Vec/Mat form */
  TSSimpVIEqualityConstraintsFn ceqfn;
  void                         *ceqctx;
  Mat                           ceqG;
  TSSimpVIJacobianEqualityFn    ceqjacfn;
  void                         *ceqjacctx;
  Mat                           ceqH;
  TSSimpVIHessianEqualityFn     ceqhessfn;
  void                         *ceqhessctx;
  PetscInt                      rbn; /* TSSimpVISetRigidBodies(): rbn bodies on SO(3), their inertia tensors (9 each) and potential */
  PetscReal                    *rbJ;
  SimpVIRigidBodyPotentialFn    rbV;
  void                         *rbctx;
  PetscBool                     rbvec; /* the Vec/Mat form (src/doors/rigidbodyvec.c): any of its routines given; rbnl bodies on this process of rbN */
  PetscInt                      rbnl, rbN;
  PetscReal                    *rbJl;
  TSSimpVIRigidBodyPotentialFn  rbVv;
  void                         *rbVvctx;
  Vec                           rbg;
  TSSimpVIRigidBodyHessianFn    rbHv;
  void                         *rbHvctx;
  Mat                           rbH;
  SimpVIRigidBodyTorqueFn       rbtau; /* TSSimpVISetRigidBodyTorque(): body-frame torques, their parameters' number */
  void                         *rbtauctx;
  PetscInt                      rbnp;
} SimpVIUser;

/* D = (J - K)/s in a matrix of simpvi's own, never handed to the user's code; while J and K keep the pattern they
   had when D was made, D is refilled in place */
typedef struct {
  Mat              D;
  PetscObjectState Jstate, Kstate; /* the nonzero states of J and K when D was made */
  PetscBool        inplace;        /* J, K and D share one pattern */
} SimpVIDifference;

/* Kept on the TS whatever its type (composed "SimpVIProblem"), so that TSSetType() keeps it and other TS types can be
   given its phase-space form: the user's mechanics, the door that reads them and the door's work space */
typedef struct {
  SimpVIUser user;

  /* the door and its work space, made at set-up */
  const SimpVIDoor *door;
  SimpVITerm       *terms;                    /* door->maxterms, for the callers of door->terms() outside the step */
  Vec               work, work2, zero, force; /* position-shaped */
  Vec               massg;                    /* 1/2 v' dM/dx v */
  PetscObjectId     massid[2];                /* mechanical door: the (x, v) of the last mass callback, and their states */
  PetscObjectState  massstate[2];
  PetscBool         massvalid;
  SimpVIDenseAccess massacc;          /* mechanical door: P = M v on a MATSEQDENSE M's array */
  SimpVIMassMemo   *massmemo;         /* mechanical door: the mass callback's values at its last points (src/doors/mechanical.c) */
  SimpVIMechPoints *mechpts;          /* mechanical door: its points() work, made at set-up where points() serves (NULL: not) */
  SimpVILagPoints  *lagpts;           /* Lagrangian door: the same (src/doors/lagrangian.c) */
  PetscBool         steppoints;       /* TSSIMPVI's step of this problem, as set up, is evaluated on arrays (points()) */
  PetscBool         oneprocess;       /* the TS is on one process (a user callback's success needs no check): set up with the door */
  PetscInt          nlocal;           /* the positions on this process: set up with the door */
  PetscBool         keepvalues;       /* the step may ask for the terms at the points it evaluates next (SimpVIStepDoor's keep) */
  KSP               kspv;             /* L_vv solves of the Legendre inversion */
  Mat               I2J[2];           /* I2 door: what the user's Jacobian fills (K = dF/dU at shifts 0; J at a shift): copies of I2P */
  PetscObjectState  I2Jstate[2];      /* I2 door: their nonzero states as copied (the pattern of I2P while unchanged) */
  SimpVIDifference  I2D[3];           /* I2 door: M = dF/dA, C = dF/dV, M again for the check: simpvi's own matrices */
  PetscReal         I2shift;          /* I2 door: the shift that reads M and C from the Jacobian without cancellation */
  PetscReal         I2Mnorm, I2Mtime; /* I2 door: ||M|| and the time M was read */
  Vec               I2r, I2Mr, I2f;   /* I2 door: the probe of the mass check, M r, work */
  PetscReal         I2Mrnorm;         /* I2 door: ||M r||_inf */
  Vec               I2Md;             /* I2 door: M's diagonal when M is diagonal (lumped), for P = M v; else NULL */
  PetscBool         I2fnmass;         /* I2 door: the Jacobian's dF/dA is not the function's (a preconditioner): M from F */
  PetscReal         I2Mscale;         /* I2 door: the size of M's entries */
  Vec               I2s;              /* I2 door: sigma r, for M r from the function */
  Mat               I2Mfn;            /* I2 door: M from the function, as a shell, for the velocity solves */
  KSP               I2kspm;           /* I2 door: those solves, preconditioned by the Jacobian's M */
  TS                I2ts;             /* I2 door: the shell's (t, x) and their TS (none referenced) */
  PetscReal         I2t;
  Vec               I2x, I2v;
  MatFDColoring     I2fdc; /* I2 door: no I2 Jacobian function: J by colored differences on the DM's pattern */
  Mat               I2fdJ;
  Vec               I2fdx, I2fdv; /* I2 door: the point and the shifts of that J (not referenced), work */
  Vec               I2fdw;
  PetscReal         I2fdt, I2fdsv, I2fdsa;
  PetscBool         damped;
  PetscBool         I2vdep;          /* I2 door: F has been seen to depend on v (C is read without probing first) */
  PetscBool         I2oneprocess;    /* I2 door: the TS is on one process (a user callback's success needs no check) */
  Vec               I2pt[3];         /* I2 door: x, v, F of Points_I2(), placed on its arrays (NULL: no points()) */
  PetscBool         inexactjacobian; /* the door's terms only approximate the derivatives: the step's operator is matrix-free */
  Mat               pwmat[4];        /* pointwise door: Px, Pv, Gx, Gv at one point, and their row-major values */
  PetscReal        *pwderiv;
  SimpVISplit      *split; /* split door: its sub-TSs, Jacobians, (df/dp)^{-1} and the momenta of recent velocities */

  /* shared by every TS type */
  SimpVIPhaseSpace ps;          /* the phase-space form given to other TS types */
  PetscInt         directlimit; /* -ts_simpvi_direct_limit, read with the TS's options (SimpVIDirectLimitOption_Private) */
  PetscReal        H0;          /* TSSimpVIMonitorEnergy(): the first energy seen (any TS type) */
  PetscBool        H0set;
} SimpVIProblem;

/* The TS state a door's problems come with: the phase-space point U = (q, p), or the positions in U with their
   velocities beside it (TS2SetSolution()); TSSIMPVI picks its state layout by it (src/ts/statephase.c, statei2.c) */
typedef enum {
  SIMPVI_STATE_PHASESPACE,
  SIMPVI_STATE_I2
} SimpVIStateKind;

/* A door turns the user's callbacks into the core's two needs: P, G at a point, and the terms of their derivatives.
   Beyond those it declares what it can give, so that no caller needs to know which door it has */
struct _SimpVIDoor {
  const char *name;
  PetscInt    maxterms;                                                                                  /* the most terms its terms() gives (forces included): the size of the callers' arrays */
  PetscErrorCode (*setup)(TS, SimpVIProblem *, Vec);                                                     /* Vec: positions */
  PetscErrorCode (*pg)(TS, SimpVIProblem *, PetscReal, Vec, Vec, Vec, Vec);                              /* P = L_v, G = L_x */
  PetscErrorCode (*terms)(TS, SimpVIProblem *, PetscReal, Vec, Vec, PetscInt, PetscInt *, SimpVITerm[]); /* second derivatives; PetscInt: the SIMPVI_NEED() blocks */
  PetscErrorCode (*lagrangian)(TS, SimpVIProblem *, PetscReal, Vec, Vec, PetscReal *);                   /* L (the energy needs it); may be NULL */
  PetscErrorCode (*reset)(SimpVIProblem *);
  PetscErrorCode (*check)(TS, SimpVIProblem *, PetscReal, Vec, Vec);                      /* at the end of a step (t, x, v); may be NULL */
  PetscErrorCode (*momentum)(TS, SimpVIProblem *, PetscReal, Vec, Vec, Vec);              /* P = L_v alone, where pg would also compute G for nothing; may be NULL */
  PetscErrorCode (*velocity)(TS, SimpVIProblem *, PetscReal, Vec, Vec, Vec, PetscBool *); /* v from p = L_v at (t, x) directly where the door can (PetscBool: done); may be NULL */
  /* P, G and their derivatives (or P and G only: pointspg) at many points on plain arrays in one call (the small dense
     path); const PetscInt[]: each point's SIMPVI_NEED() blocks of the derivatives (NULL: all), a block not needed may
     come back as zeros; may be NULL */
  PetscErrorCode (*points)(TS, SimpVIProblem *, PetscInt, PetscInt, const PetscInt[], const PetscReal[], const PetscReal[], const PetscReal[], PetscReal[], PetscReal[], PetscReal[], PetscReal[], PetscReal[], PetscReal[]);
  PetscBool (*haspoints)(const SimpVIProblem *);        /* whether points() serves this problem, after set-up; NULL: always */
  PetscBool pointspg;                                   /* points() gives P and G only: the dense Jacobian comes from terms() */
  PetscBool (*shares)(const SimpVIProblem *);           /* pg and terms at one point come from one user callback (the step asks for them together); may be NULL */
  PetscBool (*separable)(const SimpVIProblem *);        /* a separable Hamiltonian T(p) + V(q) with constant mass, as TSBASICSYMPLECTIC integrates; may be NULL */
  PetscBool keeps;                                      /* keeps what its user callbacks give at an iterate's points for the terms there, when prob->keepvalues says they may be asked for */
  PetscErrorCode (*view)(SimpVIProblem *, PetscViewer); /* its lines in TSView(); may be NULL */
  SimpVIStateKind state;                                /* the TS state its problems come with */
  PetscBool       userjacobian;                         /* reads the Jacobian matrix the program gave the SNES (TSSetI2Jacobian(), TSSetRHSJacobian()) */
  PetscBool       ijacobianp;                           /* gives dG/dtheta = -dF/dtheta from the program's TSSetIJacobianP() */
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
PETSC_INTERN PetscErrorCode SimpVIPhaseSpaceSplit_Private(Vec, IS, IS, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIPhaseSpaceJoin_Private(Vec, Vec, IS, IS, Vec);
PETSC_INTERN PetscErrorCode SimpVIPhaseSpaceSetParameterJacobian_Private(TS, SimpVIProblem *);
PETSC_INTERN PetscErrorCode SimpVILegendreInverse_Private(TS, SimpVIProblem *, PetscReal, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVII2MassChanged_Private(TS, SimpVIProblem *, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVICheckMatSize_Private(TS, Vec, Mat, const char[]);
PETSC_INTERN PetscErrorCode SimpVIProblemLateMats_Private(TS, SimpVIProblem *, const char[], PetscBool, PetscInt, const Mat[], const char *const[]);
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
PETSC_INTERN PetscErrorCode SimpVIMassForget_Private(SimpVIProblem *);
PETSC_INTERN PetscErrorCode SimpVILagrangianForget_Private(SimpVIProblem *);
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

PETSC_INTERN const SimpVIDoor SimpVIDoorLagrangian, SimpVIDoorMechanical, SimpVIDoorI2, SimpVIDoorPointwise, SimpVIDoorSplit;
PETSC_INTERN PetscErrorCode   SimpVISplitDetect_Private(TS, PetscBool *);
PETSC_INTERN PetscErrorCode   SimpVIProblemNativeDoor_Private(TS, SimpVIProblem *, const SimpVIDoor **);
PETSC_INTERN PetscErrorCode   SimpVIProblemChooseDoor_Private(TS, SimpVIProblem *, const SimpVIDoor **);
PETSC_INTERN PetscErrorCode   SimpVIProblemStepConstraints_Private(TS, SimpVIProblem *, const SimpVIDoor *, Vec, SimpVIStepDoor *);
PETSC_INTERN PetscErrorCode   SimpVIProblemStepConstraintsVec_Private(TS, SimpVIProblem *, const SimpVIDoor *, Vec, SimpVIStepDoor *);
PETSC_INTERN PetscErrorCode   SimpVIProblemViewConstraints_Private(SimpVIProblem *, PetscInt, PetscViewer);
PETSC_INTERN PetscErrorCode   SimpVIDirectLimitOption_Private(TS, SimpVIOptionItems, SimpVIProblem *);

/* rigid bodies on SO(3) (src/doors/rigidbody.c): their step solved apart (SimpVIRigidBodiesSolve_Private()) from its
   end written (SimpVIRigidBodiesFinish_Private()), for a TS step that checks the stage before it stores it */
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesCreate_Private(TS, PetscInt, const PetscReal[], SimpVIRigidBodyPotentialFn, void *, SNES, SimpVIRigidBodies *);
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesSolve_Private(SimpVIRigidBodies, PetscReal, Vec, SNESConvergedReason *);
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesFinish_Private(SimpVIRigidBodies, Vec, PetscBool);
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesStepRotation_Private(SimpVIRigidBodies, PetscReal *);
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesPartialStep_Private(SimpVIRigidBodies, PetscReal, Vec, Vec);
/* the Vec/Mat form of the same step, distributed by bodies (src/doors/rigidbodyvec.c) */
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesCreateVec_Private(TS, SNES, Vec, SimpVIRigidBodies *);

#endif
