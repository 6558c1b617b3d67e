/*
   Private data of the TS type TSSIMPVI (src/ts/): the scheme chosen, the problem, the step and its solver.
*/
#ifndef SIMPVI_TSSIMPVIIMPL_H
#define SIMPVI_TSSIMPVIIMPL_H

#include <petsc/private/tsimpl.h>
#include <petscdmshell.h>
#include <simpvi/private/door.h>

typedef struct {
  /* scheme */
  char              *type;
  TSSimpVIQuadrature quadrature;
  PetscInt           degree;
  PetscBool          degreefixed;
  SimpVIScheme      *scheme;

  /* the user's problem and its door (prob->door) */
  SimpVIProblem *prob;

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

PETSC_INTERN PetscErrorCode SimpVISchemeFind_Private(const char[], TSSimpVIQuadrature *, PetscInt *, PetscBool *);
PETSC_INTERN PetscErrorCode SimpVISchemeNames_Private(PetscInt *, const char ***);
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
