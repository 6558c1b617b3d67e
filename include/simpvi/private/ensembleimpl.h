/*
   The private side of SimpVIEnsemble (src/ensemble/): a parameter study of small systems, each member's steps those of
   a lone TSSIMPVI with the pointwise door, many members per batch, members dealt out to the processes on request.

   ensemble.c       the object: create, destroy, setters, options
   ensemblesetup.c  what it reads from its TS (scheme, time control, Newton tolerances) and the batch's work space
   ensemblestep.c   one step of every member of a batch: predictor, Newton (the dense SNES's, member by member), end
   ensemblequeue.c  who runs which member: chunks of member ids from a shared counter; the results gathered in order
   ensemblesolve.c  the study: the batch refilled from the queue until no member is left; results and member info
   ensembleview.c   ASCII summary (rank utilisation) and the results as CSV
*/
#ifndef SIMPVI_ENSEMBLEIMPL_H
#define SIMPVI_ENSEMBLEIMPL_H

#include <simpvi.h>
#include <simpvi/private/kernel.h>
#include <petsc/private/petscimpl.h>

struct _SimpVIEnsembleOps {
  PetscErrorCode (*unused)(void);
};

/* What the ensemble takes from its TS at set-up: where members start, how they step and stop, and the Newton's test
   (SNESConvergedDefault() on the TS's SNES tolerances) */
typedef struct {
  PetscReal              t0, h, tmax;
  PetscInt               maxsteps;
  TSExactFinalTimeOption eftopt;
  PetscBool              compensated; /* -ts_simpvi_compensated_summation */
  PetscReal              atol, rtol, stol, divtol;
  PetscInt               maxit, maxf;
  PetscBool              forceiteration;
  char                   type[64]; /* the scheme's name and degree, for the view */
  PetscInt               degree, order;
} SimpVIEnsembleControl;

/* The members in progress on this process: B slots, nb of them taken; per slot its state, its time control, the
   last step's polynomial (the predictor) and its Newton's state. The points of the live slots are packed for one call
   of the pointwise function per Newton iteration. */
typedef struct {
  PetscInt B, nb;
  /* per slot */
  PetscInt                   *member, *steps, *its, *iter, *nfuncs;
  PetscReal                  *t, *ct, *h, *hnext, *tprev, *hprev, *ttol, *rnorm0, *xnorm, *ynorm;
  PetscBool                  *havepoly, *live;
  SimpVIEnsembleMemberReason *reason;                  /* once the member has ended, else SIMPVI_ENSEMBLE_ITERATING */
  PetscReal                  *param, *q, *p, *cq, *cp; /* B nparam, B n, B n, and the compensations of q and p: B n, B n */
  PetscReal                  *Qprev, *Z;               /* B (s+1) n, B m */
  /* packed points of the live slots (slot of packed j: slot[j]) */
  PetscInt   nlive, *slot, *pmember;
  PetscReal *pt, *pparam, *px, *pv, *pP, *pG, *pD; /* B nq, B nq nparam, B nq n (x4), 4 B nq n n */
  PetscInt  *packed;                               /* B: the member whose parameters and point times (at packedt, packedh) are packed at j; -1: none */
  PetscReal *packedt, *packedh;
  PetscInt  *pstep; /* B: the steps of the members the batch stop function gets */
  PetscBool *pstop; /* B: its verdicts */
  /* one member's Newton step at a time */
  PetscReal    *R, *J, *LU, *dy, *dq, *dp; /* m, m m (row-major), m m (column-major), m, n, n */
  PetscBLASInt *piv;
  PetscReal    *predx, *predphi, *farphi, *dphi; /* the predictor's basis per stage, kept while x stays; scratch */
  PetscReal     predamp;                         /* its round-off amplification (SimpVISchemePredictBasis_Private()) */
  PetscScalar **ptr;                             /* 4 nq array pointers for the kernel's sums */
} SimpVIEnsembleBatch;

/* Who runs which member: a counter of handed-out member ids (on process 0, or local on one process) */
typedef struct {
  MPI_Win   win;
  PetscInt *counter;
  PetscInt  local, next, end; /* the local counter (one process); this process's chunk [next, end) */
  PetscInt  seen;             /* the counter after this process's last request */
  PetscInt  nchunks;
} SimpVIEnsembleQueue;

struct _p_SimpVIEnsemble {
  PETSCHEADER(struct _SimpVIEnsembleOps);
  TS       ts;
  PetscInt nmembers, n, nparam, nout, batchsize, chunk;
  char   **outnames;

  SimpVIEnsembleMemberFn    memberfn;
  void                     *memberctx;
  SimpVIEnsemblePointwiseFn pointwise;
  void                     *pointwisectx;
  SimpVIEnsembleStopFn      stopfn;
  void                     *stopctx;
  SimpVIEnsembleBatchStopFn batchstopfn;
  void                     *batchstopctx;
  SimpVIEnsembleOutputFn    outputfn;
  void                     *outputctx;

  PetscBool             setupcalled;
  SimpVIEnsembleControl ctl;
  SimpVIKernel          kernel;
  SimpVIScheme          scheme; /* the kernel's tables, for the predictor's basis */
  PetscInt              s, nq, m;
  SimpVIEnsembleBatch   batch;
  SimpVIEnsembleQueue   queue;

  /* this process's finished members during a solve: id and record (reason, steps, its, t, nout values) */
  PetscInt   nmine, maxmine, *mineid;
  PetscReal *minerec;

  /* the results, in member order, on every process after a solve */
  PetscBool                   solved;
  PetscReal                  *out, *tend;
  PetscInt                   *steps, *its;
  SimpVIEnsembleMemberReason *reason;

  /* the balance of the last solve: per process its members, chunks and busy time; the solve's wall time */
  PetscInt      *rankmembers, *rankchunks;
  PetscReal     *rankbusy;
  PetscLogDouble wall;
};

#define SIMPVI_ENSEMBLE_RECORD(ens) (4 + (ens)->nout) /* reason, steps, its, t, values */

PETSC_INTERN PetscLogEvent SIMPVI_EnsembleSolve, SIMPVI_EnsembleStep;

PETSC_INTERN PetscErrorCode SimpVIEnsembleBatchCreate_Private(SimpVIEnsemble);
PETSC_INTERN PetscErrorCode SimpVIEnsembleBatchDestroy_Private(SimpVIEnsemble);
PETSC_INTERN PetscErrorCode SimpVIEnsembleBatchStart_Private(SimpVIEnsemble, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode SimpVIEnsembleBatchStep_Private(SimpVIEnsemble);
PETSC_INTERN PetscErrorCode SimpVIEnsembleBatchMove_Private(SimpVIEnsemble, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode SimpVIEnsembleQueueBegin_Private(SimpVIEnsemble);
PETSC_INTERN PetscErrorCode SimpVIEnsembleQueueLimit_Private(SimpVIEnsemble, PetscInt *);
PETSC_INTERN PetscErrorCode SimpVIEnsembleQueueNext_Private(SimpVIEnsemble, PetscInt, PetscInt *);
PETSC_INTERN PetscErrorCode SimpVIEnsembleQueueEnd_Private(SimpVIEnsemble);
PETSC_INTERN PetscErrorCode SimpVIEnsembleGather_Private(SimpVIEnsemble, PetscReal);
PETSC_INTERN PetscErrorCode SimpVIEnsembleResultsFree_Private(SimpVIEnsemble);

#endif
