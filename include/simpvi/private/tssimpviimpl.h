/*
   Private data of the TS type TSSIMPVI (src/ts/): the scheme chosen, the problem, the step and its solver.
*/
#ifndef SIMPVI_TSSIMPVIIMPL_H
#define SIMPVI_TSSIMPVIIMPL_H

#include <petsc/private/tsimpl.h>
#include <petscdmshell.h>
#include <simpvi/private/door.h>

/* The default -ts_simpvi_small_limit (rows of the step system): where the dense Newton stops being faster than the SNES
   on a sparse (tridiagonal) system, the worst case for a dense solve: about 30 rows, measured by
     for n in 8 12 16 24 32; do bench/stepcost -problem chain -n $n -steps 1000 -methods simpson,simpson+snes -ts_simpvi_small_limit 1000; done
   (SNES / dense per step, 5 rounds under load: 16 rows 1.66, 24 rows 1.32, 28 rows 1.28, 32 rows 0.84-1.18, 48 rows 0.66) */
#define SIMPVI_SMALL_LIMIT 32

/* How the TS state holds the step's start and end: the phase-space point U = (q, p) (src/ts/statephase.c), or the
   positions in U and their velocities in vec_dot (src/ts/statei2.c, the I2 door). Chosen once at set-up from the
   door's SimpVIStateKind; an operation that is NULL is one the layout cannot do */
typedef struct {
  const char *name;
  PetscInt    checkpointid;                                                /* a checkpoint's record of the layout: 1 phase space, 0 I2 */
  PetscErrorCode (*setup)(TS);                                             /* its work: the split of U (or U'), vi->q1 shaped like the positions */
  PetscErrorCode (*stamp)(TS, PetscObjectState *, PetscObjectState *);     /* the states of the TS vectors that hold it: U, and U' (or 0) */
  PetscErrorCode (*load)(TS, PetscBool);                                   /* (q0, p0) of the step from the TS state (PetscBool: that state is the last step's own end) */
  PetscErrorCode (*store)(TS, PetscReal);                                  /* the step's end (q1, p1) at t1 into the TS state */
  PetscErrorCode (*join)(TS, Vec, Vec, Vec);                               /* a vector shaped like U from positions and momenta (I2: the positions) */
  PetscErrorCode (*split)(TS, Vec, Vec, Vec);                              /* positions and momenta from U; NULL: U does not hold the momenta */
  PetscErrorCode (*cotangent)(TS, Vec, Vec, Vec);                          /* a gradient by U as its q and p parts (I2: none by p) */
  PetscErrorCode (*velocity)(TS, Vec *);                                   /* the start velocity the stability checks use (a zero vector: none known) */
  PetscErrorCode (*accepted)(TS);                                          /* keeps what TSRollBack() needs beyond the step's polynomial; may be NULL */
  PetscErrorCode (*rollback)(TS);                                          /* the TS state back to the start of the last step */
  PetscErrorCode (*checkpointio)(TS, PetscViewer, PetscBool);              /* the state's records of a checkpoint, written (PETSC_TRUE) or read */
  PetscErrorCode (*checkpointvecs)(TS, PetscInt *, Vec[], const char *[]); /* the state's vectors a checkpoint checks for NaN and Inf, named */
  PetscInt (*nstages)(PetscInt);                                           /* the stages of a step of degree s as TSTrajectory keeps them (TSGetStages()) */
  PetscErrorCode (*stages)(TS, PetscBool);                                 /* the step's start and increments into the stages (PETSC_TRUE) or back */
  PetscErrorCode (*lambdain)(TS);                                          /* the adjoint: ts->vecs_sensi into its q and p parts vi->lq, vi->lp */
  PetscErrorCode (*lambdaout)(TS);                                         /* and back */
} SimpVIStateLayout;

PETSC_INTERN const SimpVIStateLayout SimpVIStateLayoutPhaseSpace, SimpVIStateLayoutI2;

typedef struct {
  /* scheme */
  char         *type;
  char         *family; /* of the scheme (src/ts/registry.c), a copy */
  PetscInt      degree;
  PetscBool     degreefixed;
  SimpVIScheme *scheme;

  /* the user's problem and its door (prob->door) */
  SimpVIProblem *prob;

  /* state layout (vi->layout): U = (q, p) split by isq, isp; or q in U and v in vec_dot */
  const SimpVIStateLayout *layout;
  IS                       isq, isp;
  PetscInt                 qfirst, pfirst; /* phase space on one process: where isq and isp start in U's array when each is a range of it (-1: not) */
  Mat                      placeholder;    /* the SNES's Jacobian while the user's I2 Jacobian is the problem's (TakeUserJacobian()) */
  Vec                      q1, p1;         /* the end of the step (p1 also for TSInterpolate() at the end of the last step) */
  Vec                      vprev;          /* I2 door: the start velocity of the last step, for TSRollBack() */
  Vec                      work;
  Vec                      eq, ep; /* state split for the energy and TSInterpolate() */
  Vec                      Ustage; /* for TSPostStage(): the end of the step, shaped like the state */

  /* the step (src/core/step.c), solved by ts->snes on the step vector's DMShell */
  SimpVIStep step;
  DM         dmstep;

  /* step solver: ts->snes; the deprecated -ts_simpvi_nonlinear_solver kinsol asked for SNESKINSOL */
  PetscBool kinsolalias;
  char      reason[256];

  /* small systems: SNESSIMPVIDENSE (src/snes/dense.c) for step systems of at most smalllimit rows, on one process */
  PetscInt smalllimit;
  /* -snes_test_jacobian was given at set-up: every Jacobian is made afresh, for the test (src/ts/stepsolver.c) */
  PetscBool testjacobian;
  /* a viewer SNESSolve() looks up at every solve was asked at set-up (-snes_view, -snes_converged_reason, ...): else the
     dense SNES's solves skip those lookups (src/ts/stepsolver.c) */
  PetscBool snesviewers;
  /* the default step solver is still to be refined from the first step matrix (SimpVIDefaultSolverFromMatrix_Private());
     banded: it was, to an LU ordered by RCM */
  PetscBool solverpending, banded;
  PetscBool saddle, saddlepending; /* Vec/Mat constraints: the saddle-point default chose the step's solver; its blocks still to be set */

  /* linear stability (src/ts/stability.c) */
  PetscBool checkstability, stabilitywarn, stabilitywarned, stabilityready;
  PetscReal omega, bound; /* omega_max estimated at the first step (negative: none), the scheme's bound on h*omega */
  PetscReal omegatime;    /* where omega_max was estimated */
  PetscInt  growthsteps;  /* steps in a row with a blow-up-like growth, and the growth over them */
  PetscReal growth;
  PetscReal growthref; /* the state's norm when omega_max was last estimated (0: none yet), for a slow growth */

  /* the step's tangent and adjoint maps (src/ts/adjoint.c) */
  Vec              *stages; /* a step for TSTrajectory (TSGetStages()): its start (q0, p0), then its increments Z_a two by two, shaped like U */
  PetscInt          nstages;
  PetscReal        *steptimes; /* (t_j, h_j) of step j as the step used them: the trajectory's times differ by round-off */
  PetscInt          nsteptimes;
  Vec               zview; /* a view of one block of the step vector */
  SimpVIStepAdjoint adj;
  KSP               adjksp;   /* the tangent and transposed solves of the step Jacobian (prefix -ts_simpvi_adjoint_) */
  Vec              *lq, *lp;  /* the cost gradients split (numcost each) */
  Vec               tq[4];    /* the tangent map's dq0, dp0, dq1, dp1 */
  Vec               Uk, eth;  /* a state at a quadrature point; a unit vector in the parameters */
  PetscInt          fwdsteps; /* I2 door: the steps of the last forward run, where the adjoint starts with the momenta's adjoint zero */
  PetscInt          adjnext;  /* I2 door: the step the last adjoint step ended at (lp carries over from there) */

  /* long runs: compensated (Kahan) sums of the q, p and t updates; the low bits the last sums lost are in cq, cp, ct
     and carry on while the state is the one the last step stored (solstate, dotstate, tstored; else they restart at 0) */
  PetscBool        compensated;
  Vec              cq, cp, dq, dp; /* dq, dp: the step's increments */
  Vec              cqnext, cpnext; /* the compensations after the step being tried, if it is accepted */
  PetscReal        ct, tstored;
  PetscBool        stored;
  PetscObjectState solstate, dotstate;

  /* failed step solves retried from the last good state with a halved step (-ts_max_snes_failures) */
  PetscInt retries;

  /* rigid bodies on SO(3) (TSSimpVISetRigidBodies(), src/ts/steprigid.c): their step instead of vi->step, the last
     step's start and its time (for TSRollBack() and TSInterpolate()), whether a step was taken */
  SimpVIRigidBodies rb;
  Vec               rbU0;
  PetscReal         rbt0;
  PetscBool         rbhas;

  /* checkpoint and restart (src/ts/checkpoint.c) */
  char     *cpfile, *restartfile;
  PetscInt  cpevery, cpstep, cpcount; /* every how many steps, the step last written, how many written */
  PetscInt  restartstep;              /* the step the run restarted from (-1: none) */
  PetscBool restartevents;            /* the events' values at the restored state are still to be computed */
  PetscReal restarttime;
} TS_SimpVI;

PETSC_INTERN PetscErrorCode SimpVISchemeFind_Private(const char[], const char **, PetscInt *, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVISchemeIs_Private(const SimpVIScheme *, const char[], PetscInt, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVISchemeTable_Private(const char[], PetscInt, SimpVIScheme **);
PETSC_INTERN PetscErrorCode SimpVISchemeFamilyTitle_Private(const char[], const char **);
PETSC_INTERN PetscErrorCode SimpVISchemeFamilyId_Private(const char[], PetscInt *);
PETSC_INTERN PetscErrorCode SimpVISchemeNames_Private(PetscInt *, const char ***);
PETSC_INTERN PetscErrorCode SimpVIStepSolverSetUp_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIStepSolve_Private(TS, PetscInt *, PetscInt *, PetscBool *, const char **);
PETSC_INTERN PetscErrorCode SimpVIStepSolverView_Private(TS, PetscViewer);
PETSC_INTERN PetscErrorCode SimpVIInterpolate_Private(TS, PetscReal, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIStateIsStored_Private(TS, PetscBool *);
PETSC_INTERN void           SimpVIAdvanceTime_Private(TS, PetscReal *);
PETSC_INTERN PetscErrorCode SimpVIStepRejected_Private(TS, const char[], PetscInt *);

/* rigid bodies as the TS's problem (src/ts/steprigid.c) */
PETSC_INTERN PetscErrorCode SimpVIRigidSetUp_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIRigidStep_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIRigidInterpolate_Private(TS, PetscReal, Vec);
PETSC_INTERN PetscErrorCode SimpVIRigidRollBack_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIRigidView_Private(TS, SimpVIProblem *, PetscViewer);
/* their adjoint under TSAdjointSolve() (src/ts/adjointrigid.c) */
PETSC_INTERN PetscErrorCode SimpVIRigidGetStages_Private(TS, PetscInt *, Vec *[]);
PETSC_INTERN PetscErrorCode SimpVIRigidStagesPack_Private(TS, PetscReal, PetscReal);
PETSC_INTERN PetscErrorCode SimpVIRigidAdjointSetUp_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIRigidAdjointStep_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIRigidCostIntegral_Private(TS);

/* checkpoint and restart (src/ts/checkpoint.c); the file's length, checksum and path (src/ts/checkpointfile.c) */
#define SIMPVI_CHECKPOINT_MAGIC   1397312848 /* "SIMP" */
#define SIMPVI_CHECKPOINT_VERSION 4          /* 2: the length, the sizes of the numbers, the door, the CRC-32 trailer; 3: simplified Newton's held Jacobian; 4: the constraints' multipliers */
enum {                                       /* the first integers of a checkpoint, where checkpointfile.c reads them */
  SIMPVI_CP_MAGIC,
  SIMPVI_CP_VERSION,
  SIMPVI_CP_LENGTHHI, /* the length of the records in bytes: high bits (from bit 31), low 31 bits */
  SIMPVI_CP_LENGTHLO,
  SIMPVI_CP_SCALARSIZE,
  SIMPVI_CP_REALSIZE,
  SIMPVI_CP_NHEAD
};
PETSC_INTERN PetscErrorCode SimpVICheckpointSetFromOptions_Private(TS, SimpVIOptionItems);
PETSC_INTERN PetscErrorCode SimpVICheckpointSetUp_Private(TS);
PETSC_INTERN PetscErrorCode SimpVICheckpointWrite_Private(TS, const char[]);
PETSC_INTERN PetscErrorCode SimpVICheckpointBeginStep_Private(TS);
PETSC_INTERN PetscErrorCode SimpVICheckpointView_Private(TS, PetscViewer);
PETSC_INTERN PetscErrorCode SimpVICheckpointFileFinish_Private(MPI_Comm, const char[], const char[]);
PETSC_INTERN PetscErrorCode SimpVICheckpointFileVerify_Private(MPI_Comm, const char[]);
PETSC_INTERN PetscErrorCode SimpVICheckpointFileCheckWritable_Private(MPI_Comm, const char[]);
/* the rigid bodies' records (src/ts/checkpointrigid.c); their forms' ids in the header (the state layouts': 0 and 1) */
#define SIMPVI_CP_LAYOUT_RIGID    2
#define SIMPVI_CP_LAYOUT_RIGIDVEC 3
PETSC_INTERN PetscErrorCode SimpVIRigidCheckpointProblem_Private(TS, PetscInt *, PetscInt *, const char **);
PETSC_INTERN PetscErrorCode SimpVIRigidCheckpointStored_Private(TS, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVIRigidCheckpointNotFinite_Private(TS, const char **);
PETSC_INTERN PetscErrorCode SimpVIRigidCheckpointIO_Private(TS, PetscViewer, PetscBool, PetscBool);

PETSC_INTERN PetscErrorCode SimpVISchemeStabilityBound_Private(const SimpVIScheme *, PetscReal *);
PETSC_INTERN PetscErrorCode SimpVISchemeStabilityBoundReset_Private(void);
PETSC_INTERN PetscErrorCode SimpVIStabilityEstimate_Private(TS, PetscReal, Vec, Vec);
PETSC_INTERN PetscErrorCode SimpVIStabilityCheckStep_Private(TS, Vec, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVIStabilityCheckGrowth_Private(TS, Vec, Vec, Vec, Vec, Vec, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVIStabilityHint_Private(TS, const char[], Vec, Vec, char[], size_t);
PETSC_INTERN PetscErrorCode SimpVIStabilityReport_Private(TS, const char[], PetscBool *);

/* the adjoint and tangent maps under TSAdjointSolve() and TSForward (src/ts/adjoint.c) */
PETSC_INTERN PetscErrorCode SimpVIStagesPack_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIAdjointSetOps_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIAdjointDestroyWork_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIAdjointView_Private(TS, PetscViewer);

/* the step under SNESKINSOL and the deprecated solver choice (src/ts/stepkinsol.c) */
PETSC_INTERN PetscErrorCode SimpVIStepKINSOL_Private(TS);
PETSC_INTERN PetscErrorCode SimpVIKINSOLAliasSetFromOptions_Private(TS, SimpVIOptionItems);
PETSC_INTERN PetscErrorCode TSSimpVISetNonlinearSolverType_SimpVI(TS, TSSimpVINonlinearSolverType);
PETSC_INTERN PetscErrorCode TSSimpVIGetNonlinearSolverType_SimpVI(TS, TSSimpVINonlinearSolverType *);
#if defined(SIMPVI_HAVE_KINSOL)
PETSC_INTERN PetscErrorCode SNESCreate_KINSOL(SNES);
#endif

#endif
