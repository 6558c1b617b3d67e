/*
   The speed of light of a TSSIMPVI run (bench/stepcost's -light column, issue 22): the arithmetic of its steps redone on
   plain arrays, with no PETSc object and no call into the library: the model's function and the sums of the step. For
   each step of the run, the same Newton iterations (residual evaluations, linear solves) and the same new Jacobians
   that the run's trace counted, in this order:
     the predictor   the last step's polynomial at the new nodes (the first step: zero increments, as TSSIMPVI's start
                     from a phase-space state)
     a residual      the quadrature points x_k, v_k from the increments, the model's P, G there (one call for all
                     points, with the derivatives when a Jacobian is made at this iterate), the sums of R
     a Jacobian      the sums of dR/dZ from the model's derivatives, and its dense LU with partial pivoting
     a solve         the two triangular solves, Z -= dZ
     the end         q1 = q0 + Z_s, p1 = p0 + h sum_k w_k G_k
   with the scheme's tables (TSSimpVIGetTableau()) and the model's function on arrays (a TSSimpVIPointwiseFn). The new
   Jacobians are made at the iterates where the run made them, so that the iterates, and the end state, are the run's
   to round-off.
*/
#ifndef SPEEDOFLIGHT_H
#define SPEEDOFLIGHT_H
#include <simpvi.h>

typedef struct {
  PetscInt            n, s, nq, m; /* positions, degree, quadrature points, rows s n */
  PetscReal           h, *tau;     /* step, quadrature points on [0, 1] */
  PetscReal          *xc, *vc;     /* nq x s: B_kl and D_kl / h (l = 1..s), the points' coefficients */
  PetscReal          *pc, *gc;     /* s x nq: w_k D_ki and h w_k B_ki (i = 0..s-1), the residual's */
  PetscReal          *mc, *phi;    /* nq: h w_k, the end momentum's; s x (s + 1): the predictor's basis */
  TSSimpVIPointwiseFn model;
  void               *mctx;
  PetscInt            nsteps, *its; /* the trace: per step, Newton iterations, and the iterates x_k whose Jacobian */
  PetscInt64         *jacat;        /* was made (bit k: for the solve from x_k), and whether its last update was */
  PetscBool          *early;        /* accepted on itself, without the residual after it */
  /* work: increments, residual, Jacobian (row-major) and its factors, the points and the model there, the polynomial */
  PetscReal *Z, *R, *J, *tk, *x, *v, *P, *G, *Px, *Pv, *Gx, *Gv, *T, *U, *Q;
  PetscInt  *piv;
} Light;

PetscErrorCode LightCreate(TS, PetscInt, PetscReal, PetscInt, TSSimpVIPointwiseFn, void *, Light **);
PetscErrorCode LightRun(Light *, const PetscReal[], const PetscReal[], PetscReal[], PetscReal[]);
PetscErrorCode LightFlops(const Light *, PetscReal *);
PetscErrorCode LightDestroy(Light **);
#endif
