/*
   The step's equations, once (src/core/kernel.c): for a scheme (nodes, quadrature w, Lagrange basis B and D at the
   quadrature points) and a step size h, the coefficients of
     x_k = q0 + sum_l B_kl Z_l,  v_k = (1/h) sum_l D_kl Z_l                        the quadrature points
     R_i = delta_i0 p0 + sum_k [w_k D_ki P_k + h w_k B_ki G_k]                   the residual (i = 0..s-1)
     dR_i/dZ_l = sum_k [w_k D_ki B_kl Px + (w_k/h) D_ki D_kl Pv + h w_k B_ki B_kl Gx + w_k B_ki D_kl Gv]
     p1 = p0 + sum_k h w_k G_k                                                   the end momentum
   and these sums on plain arrays of one process's block. Every path of the step (the Vec path on local arrays, the
   dense path, the tangent and adjoint maps, KINSOL's scales, the stability bound, ensembles) reads them here.
*/
#ifndef SIMPVI_KERNEL_H
#define SIMPVI_KERNEL_H

#include <simpvi.h>
#include <simpvi/private/scheme.h>
#include <simpvi/private/unroll.h>

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

/* A configuration space: how a step moves a configuration q along a tangent vector xi and back. The step's unknowns
   and velocities are tangent vectors (Z_l, v_k); its positions are configurations x_k = q0 (+) sum_l B_kl Z_l and
   q1 = q0 (+) Z_s. The vector space (q + xi) is the instance today; a Lie group (q exp(xi), stored as rotation
   matrices or quaternions) is another instance with other sizes, not edits across the step. */
typedef struct {
  const char *name;
  /* out = q (+) xi; out may be xi (the vector space works in place) */
  PetscErrorCode (*retract)(PetscInt, const PetscScalar[], const PetscScalar[], PetscScalar[]);
  /* xi = q1 (-) q, the inverse */
  PetscErrorCode (*local)(PetscInt, const PetscScalar[], const PetscScalar[], PetscScalar[]);
  /* dq = d(q (+) xi)/dxi dxi, and dxi = its transpose dq (q, xi, in, out) */
  PetscErrorCode (*tangent)(PetscInt, const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscScalar[]);
  PetscErrorCode (*tangenttranspose)(PetscInt, const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscScalar[]);
} SimpVIConfigurationSpace;
PETSC_INTERN const SimpVIConfigurationSpace SimpVIConfigurationVectorSpace;

/* The layout of a step on one process: the configuration's stored numbers and tangent directions (the step vector
   holds s blocks of ntangent; the state holds nstored positions and ntangent momenta) and the multipliers of each node
   (holonomic constraints: none yet) */
typedef struct {
  PetscInt                        nstored, ntangent, nmultiplier;
  const SimpVIConfigurationSpace *space;
} SimpVIStepLayout;

struct _p_SimpVIKernel {
  PetscInt                        s, nq;
  PetscReal                      *c, *tau, *w, *B, *D; /* copies of the scheme's tables (B, D: nq x (s + 1)) */
  const SimpVIConfigurationSpace *space;               /* where the positions live */
  PetscReal                       h;                   /* the step size of the tables below (0: none yet) */
  PetscReal                      *xc, *vc;             /* nq x s: B_kl and D_kl / h, l = 1..s */
  PetscReal                      *pc, *gc;             /* s x nq: w_k D_ki and h w_k B_ki */
  PetscReal                      *rc;                  /* s x 2nq: row i's nonzero terms of pc and gc, in the points' order */
  PetscInt                       *rsrc, *rcount;       /* s x 2nq: their sources (k: P_k, nq + k: G_k); s: their numbers */
  PetscReal                      *mc;                  /* nq: h w_k */
  PetscReal                      *jc;                  /* nq x 4 x s x s: a unit term's coefficients per point and block */
  PetscInt                       *need;                /* nq: the blocks each point needs (a Lobatto scheme's first node needs no G_x) */
  PetscInt                       *pneed;               /* nq: those and the end momentum's (G_x, G_v at a Lobatto scheme's last node) */
  /* scratch: array pointers of the sums; the Jacobian's per-point sums (nwork entries) */
  const PetscScalar **ptr;
  PetscScalar        *work;
  PetscInt            nwork;
};

/* x[j] = (zero ? 0 : x[j]) + sum_t a[t] y[t][j] for j < n, summed as PETSc's VecMAXPY_Seq() does (the remainder of
   nv mod 4 first, then groups of four, each group's products summed before they are added to x): the sums of the
   step's Vec path, to the last bit, whatever path computes them. zero (a constant where it is inlined) starts from 0
   without a separate pass to clear x. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
SimpVIMAXPYFrom(PetscBool zero, PetscInt n, PetscScalar *x, PetscInt nv, const PetscScalar a[], const PetscScalar *const y[])
{
  PetscInt t = nv & 0x3;

  switch (t) {
  case 3:
    for (PetscInt j = 0; j < n; j++) x[j] = (zero ? 0 : x[j]) + (a[0] * y[0][j] + a[1] * y[1][j] + a[2] * y[2][j]);
    break;
  case 2:
    for (PetscInt j = 0; j < n; j++) x[j] = (zero ? 0 : x[j]) + (a[0] * y[0][j] + a[1] * y[1][j]);
    break;
  case 1:
    for (PetscInt j = 0; j < n; j++) x[j] = (zero ? 0 : x[j]) + a[0] * y[0][j];
    break;
  default:
    if (zero && nv) {
      for (PetscInt j = 0; j < n; j++) x[j] = 0 + (a[0] * y[0][j] + a[1] * y[1][j] + a[2] * y[2][j] + a[3] * y[3][j]);
      t = 4;
    } else if (zero)
      for (PetscInt j = 0; j < n; j++) x[j] = 0;
  }
  for (; t < nv; t += 4)
    for (PetscInt j = 0; j < n; j++) x[j] += a[t] * y[t][j] + a[t + 1] * y[t + 1][j] + a[t + 2] * y[t + 2][j] + a[t + 3] * y[t + 3][j];
}

/* x[j] += sum_t a[t] y[t][j], as VecMAXPY_Seq() sums it (SimpVIMAXPYFrom()) */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
SimpVIMAXPY(PetscInt n, PetscScalar *x, PetscInt nv, const PetscScalar a[], const PetscScalar *const y[])
{
  SimpVIMAXPYFrom(PETSC_FALSE, n, x, nv, a, y);
}

PETSC_INTERN PetscErrorCode SimpVIKernelCreate_Private(const SimpVIScheme *, SimpVIKernel *);
PETSC_INTERN PetscReal      SimpVIKernelCoefficient_Private(const SimpVIScheme *, PetscReal, SimpVIBlock, PetscInt, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode SimpVIKernelJacobianTerm_Private(SimpVIKernel, PetscInt, SimpVIBlock, PetscScalar, PetscScalar[]);
PETSC_INTERN PetscErrorCode SimpVIKernelMomentumUpdate_Private(SimpVIKernel, PetscInt, PetscReal, const PetscScalar *const[], const PetscScalar *const[], const PetscScalar *const[], const PetscScalar *const[], PetscScalar[]);

#endif
