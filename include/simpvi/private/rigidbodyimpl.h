/*
   The rigid-body step object's data (src/doors/rigidbody.c), shared with its adjoint (src/doors/rigidbodyadjoint.c).
*/
#ifndef SIMPVI_RIGIDBODYIMPL_H
#define SIMPVI_RIGIDBODYIMPL_H

#include <simpvi/private/door.h>
#include <simpvi/private/kernel.h>
#include <petscblaslapack.h>

typedef struct _n_SimpVIRigidBodiesVec *SimpVIRigidBodiesVec; /* the Vec/Mat form's data (src/doors/rigidbodyvec.c) */

struct _p_SimpVIRigidBodies {
  PetscInt                   nb, n, s, nq, m; /* bodies, tangent entries 3k, unknown nodes, quadrature points, unknowns s n */
  SimpVIKernel               K;
  char                       type[64];
  PetscInt                   order;
  PetscReal                 *J, *Jinv; /* 9 per body */
  SimpVIRigidBodyPotentialFn V;
  void                      *ctx;
  SNES                       snes;
  DM                         dm; /* the step vector's DMShell when the SNES is a TS's (SimpVIRigidBodiesCreate_Private()) */
  Vec                        Z, F;
  Mat                        A;
  PetscReal                  h, *R0, *pi0; /* the step: its size and start */
  /* compensated ends: the rounding errors of the last step's R1 and pi1, carried into the next step while the state
     Vec is the one that step wrote (its id and state), so that the attitude and momenta do not random-walk by one
     rounding per entry and step */
  PetscReal       *Rc, *pic;
  PetscObjectId    Uid;
  PetscObjectState Ustate;
  /* per quadrature point: xi_k, u_k (chart velocity), the bodies' rotations exp(xi_k), T(xi_k), P, G, exp(xi_k) g_k,
     and the derivatives Px, Pv, Gx, Gv (n x n) and d(exp(xi_k) g_k)/dxi_k */
  PetscReal  *zero, *xi, *u, *E, *T, *P, *G, *Eg, *Px, *Pv, *Gx, *Gv, *dEg;
  PetscReal  *Rk, *g, *H, *Jd, *dfs;
  PetscReal **ptr;  /* 6 nq pointers: xi, u, P, G, Px.. for the kernel */
  PetscReal  *coef; /* the SO(3) coefficients at the quadrature point being evaluated, 9 per body */
  PetscReal  *Tinv; /* the array form's Jacobian: dexp^-1 at the end node, 9 per body */
  /* the adjoint (src/doors/rigidbodyadjoint.c): per quadrature point the derivative Hg_k of the gradient g(R_k exp(zeta))
     in zeta (n x n, H + 1/2 hat(g) on the diagonal blocks), kept by a Jacobian evaluation; its work */
  PetscReal    *Hgk, *adjwork;
  PetscBLASInt *ipiv;
  /* torques (SimpVIRigidBodiesSetTorque(), src/doors/rigidbodytorque.c): tau(t, R, Omega; theta) at t0 + tau_k h, t0 the
     step's start; per quadrature point d(E_k g_k)/du_k (n x n, the torques' Omega part) and d tau/dtheta (n x np) */
  SimpVIRigidBodyTorqueFn tau;
  void                   *tauctx;
  PetscInt                np;
  PetscBool               wanttheta; /* the adjoint's evaluation: keep d tau/dtheta */
  PetscReal               t0;
  PetscReal              *Om, *tk, *tR, *tO, *M, *dEu, *tth;
  /* the Vec/Mat form (src/doors/rigidbodyvec.c): nb of Nb bodies on this process, the step vector parallel (each
     process's block node-major as above), the Jacobian a parallel AIJ matrix; NULL for the array form */
  PetscInt             Nb;
  SimpVIRigidBodiesVec vec;
};

/* the step's Jacobian at Z (row-major in rb->Jd, and rb->A), its quadrature points evaluated with their derivatives */
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesJacobian_Private(SimpVIRigidBodies, Vec);
/* the torques at quadrature point k into g (g - tau) and H, and with jac their Omega part into Gx, Gv, dEg, dEu:
   src/doors/rigidbodytorque.c */
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesTorque_Private(SimpVIRigidBodies, PetscInt, PetscBool);
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesTorqueJacobian_Private(SimpVIRigidBodies, PetscInt);
/* lambda (and mu) back over one step: src/doors/rigidbodyadjoint.c */
typedef PetscErrorCode (*SimpVIRigidIntegrandGradientFn)(void *, PetscReal, const PetscReal[], PetscReal *[], PetscReal *[]); /* (ctx, t, U, dr/dU per cost, dr/dtheta per cost or NULL) */
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesAdjoint_Private(SimpVIRigidBodies, Vec, const PetscReal[], PetscReal, PetscReal, Vec, PetscInt, PetscReal *[], PetscInt, PetscReal *[], SimpVIRigidIntegrandGradientFn, void *);
PETSC_INTERN PetscErrorCode SimpVIRigidBodiesPointState_Private(SimpVIRigidBodies, PetscInt, PetscReal *, PetscReal[]);

#endif
