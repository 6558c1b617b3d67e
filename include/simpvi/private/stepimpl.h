/*
   The fields of the step (src/core/ only): its owner, the TS type, sees the step through the functions of
   include/simpvi/private/step.h.
*/
#ifndef SIMPVI_STEPIMPL_H
#define SIMPVI_STEPIMPL_H

#include <simpvi/private/step.h>

struct _SimpVIStep {
  const SimpVIScheme *scheme;
  SimpVIStepDoor      door;
  PetscBool           linear; /* a quadratic Lagrangian: the Jacobian does not depend on Y (kept while t and h stay) */

  /* the step */
  PetscReal        t, h;
  PetscReal        tsaved, hsaved; /* the step a partial step (dense output) stands in for */
  Vec              q0, p0;
  Vec              v;      /* a velocity at q0 */
  PetscBool        vvalid; /* v holds it (the first predictor is q0 + c h v) */
  PetscLayout      qmap;   /* layout of the positions */
  SimpVIStepLayout layout; /* the blocks of the step and the state on this process, and the configuration space */

  /* the previous solved step: its nodes (the polynomial), start momentum and time */
  Vec      *Qprev;
  Vec       pprev;
  PetscReal tprev, hprev;
  PetscBool havepoly;

  /* values at the quadrature points (nq each), and the step vector they belong to */
  Vec        *X, *V, *P, *G;
  SimpVIStamp eval;

  /* the system */
  Vec       Y, R;
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

  /* simplified Newton (src/core/newton.c): the Jacobian and its factors kept across Newton iterations and steps of the
     same h, the iteration stopped by the error estimate of its observed contraction */
  PetscBool   lagjacobian; /* -ts_simpvi_lag_jacobian (on by default) */
  PetscReal   newtonrtol;  /* -ts_simpvi_newton_rtol: theta/(1 - theta) ||dY|| <= newtonrtol ||Y|| stops */
  PetscBool   simplified;  /* this solve keeps Jacobians: lagjacobian, and the SNES and its converged test allow it */
  PetscBool   kept;        /* the last Newton iteration's Jacobian was a kept one */
  PetscBool   refresh;     /* the next Jacobian request takes a new one (contraction too slow, or a failed solve) */
  PetscBool   firstslow;   /* this solve replaced its kept Jacobian after its first iteration (by the residual's fall) */
  PetscBool   firstwas;    /* the last solve did: this one's is likely to be replaced there too (a guess, for the doors' keep) */
  PetscInt    jcalls;      /* Jacobian requests in this solve */
  PetscReal   dyprev;      /* ||dY|| of the previous iteration of this solve (0: none yet) */
  PetscReal   theta;       /* the last contraction rate observed in this solve (1: none) */
  PetscReal   thetaprev;   /* the last solve's, for this solve's first iteration */
  PetscReal   q0norm;      /* sqrt(s) ||q0|| of the solve (-1: not made yet): the size of the positions whose round-off bounds how small an update can be */
  PetscReal   p0norm;      /* ||p0||, made with q0norm: the size of a residual's first block, whose round-off bounds how small a residual can be */
  const char *snestype;    /* the SNES type name (its string) that snesnewton was made for */
  PetscBool   snesnewton;  /* that type goes on from round-off (newtonls, simpvidense, ksponly), unlike newtontr */
  PetscReal   fprev;       /* the residual norm at the solve's last iteration */
  /* the point of the Jacobian held (t, h, q0 and Y of its making), to make it again, bit for bit, where the solver has
     lost it (jremake): after a partial step of dense output, or in a run restarted from a checkpoint */
  Vec       JY, Jq0;
  PetscReal Jpt, Jph;
  PetscBool jrecorded, jremake;
  PetscBool partial; /* a partial step (dense output) is being solved: Newton, the held Jacobian's record untouched */

  /* the step's equations on arrays (src/core/kernel.c), and scratch of the scheme's size */
  SimpVIKernel        kernel;
  PetscScalar        *termcoef;
  const PetscScalar **parr; /* array pointers: P_k and G_k (or the predictor's nodes) */
  PetscScalar       **xv;   /* array pointers: X_k and V_k */
  PetscReal          *phi;
  SimpVITerm         *terms;
  PetscReal          *predx, *predphi; /* the predictor's basis at each stage's node (predx on the old polynomial) */
  PetscReal           predamp;         /* its round-off amplification (SimpVISchemePredictBasis_Private()) */

  /* the small dense path (src/core/smallstep.c), the step's residual and dense Jacobian for SNESSIMPVIDENSE: the
     m = s n rows of the system, its dense Jacobian (row-major), the last one given for a linear step (to find it
     unchanged), the step size and start it was given for, the residual norm at the last Jacobian request, scratch */
  PetscInt     dm;
  PetscScalar *dJ, *dJprev;
  PetscBool    dgiven, dassembled; /* dgiven: dJprev and dJh, dJt are set; dassembled: dJ is the Jacobian at the current iterate */
  PetscReal    dJh, dJt;
  /* how each matrix of the door is read (smallstep.c; st->door.maxterms at most), a term's nonzero coefficients and
     the offsets of their blocks in dJ (s^2 at most) */
  struct _SimpVIMatReader *dread;
  PetscInt                 ndread, *dnzoff;
  PetscScalar             *dnzc;
  /* a door with points(): the quadrature points' t, x, v, the door's P, G and derivatives (Px, Pv, Gx, Gv, nq n x n
     each) on arrays, and the step vector they belong to */
  PetscReal          *at, *ax, *av, *aP, *aG, *aD;
  PetscReal           att, ath; /* the step (start, size) whose point times are in at */
  const PetscScalar **dptr;     /* the derivative arrays of each point, for the kernel */
  SimpVIStamp         astamp;
  PetscBool           aderiv; /* aD holds the derivatives of that evaluation */
  PetscScalar        *eG;     /* Gx, Gv at the points (nq n x n each) of the Jacobian last given the SNES */
  PetscBool           eGmade; /* eG is set */
  PetscScalar        *edy;    /* the last update of a solve accepted on it alone (SimpVIStepNewtonAccept_Private()) */
  PetscScalar        *ework;  /* (2 nq + 1) n: the update's change at the quadrature points (dx, dv), a zero q0 */
  SimpVIStamp         estamp; /* the step vector after that update, whose G the arrays lack */

  /* holonomic constraints (src/core/constraints.c; m = layout.nmultiplier): the nodes' weights beta_i = sum_k w_k B_ki
     (the quadrature of the basis), the multipliers of the last finished step at its s + 1 nodes, scratch */
  PetscReal *cbeta, *clambda, *cwork;
  Vec        cY;          /* the step vector of the Jacobian being assembled (not referenced) */
  PetscBool  constrained; /* constraints on some process (layout.nmultiplier, this process's multipliers, may be 0) */
  /* the Vec/Mat form of the constraints (src/core/constraintsvec.c): the multipliers' layout; a node Q, g(Q), a
     position-shaped work vector; views of one block of a step vector (positions, multipliers); the end projection's
     vectors (pt, v, P, G, mu), its saddle-point matrix K = [Pv G'; G 0] on [positions, multipliers] per process, its
     vectors and solver, and the door's terms */
  PetscLayout cmap;
  Vec         cQ, cg, cf, cviewq, cviewl, cpt, cpv, cpP, cpG, cmu, cKx, cKb;
  Mat         cK;
  PetscBool   cKpre, cKsub;
  KSP         cksp;
  SimpVITerm *cterms;
  /* the end velocity v1 of the last projection of the end momentum (n), and the constraints' part of the step's
     linearisation (SimpVIStepConstraintLinearize_Private(): dense blocks, made on first use) with a momentum for it */
  PetscReal    *cv, *clin;
  PetscBLASInt *cpiv;
  Vec           cp1;
};

#endif
