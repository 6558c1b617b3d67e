/*
   Rigid bodies on SO(3) in the Vec/Mat form, on any number of processes (TSSimpVISetRigidBodyInertias(),
   TSSimpVISetRigidBodyPotentialRoutine(), TSSimpVISetRigidBodyHessianRoutine()): the step of src/doors/rigidbody.c
   distributed by bodies. Each process owns the s xi-nodes of its bodies (its block of the step vector node-major, as
   the array form's), so the residual, the end of the step, the energy and the dense output are the array form's own
   functions on each process's bodies, the potential called through the Vec routine at every quadrature point. What is
   new here is the step Jacobian: a parallel AIJ matrix of dense 3 x 3 blocks per body and node pair, made of the array
   form's per-body blocks (src/doors/rigidbody.c) and of the bodies' coupling through the user's Hessian, read block by
   block from its rows; the dexp of a neighbour on another process comes from its node values, scattered as ghosts.
*/
#include <simpvi/private/rigidbody.h> /*I "simpvi.h" I*/
#include <simpvi/private/door.h>
#include <petscdmshell.h>
#include <petsc/private/snesimpl.h> /* DMSNES, DMKSP: made before SNESSetDM() */
#include <petsc/private/kspimpl.h>

struct _n_SimpVIRigidBodiesVec {
  TS                           ts; /* not referenced: the TS owns the step */
  TSSimpVIRigidBodyPotentialFn V;
  void                        *Vctx;
  TSSimpVIRigidBodyHessianFn   Hf;
  void                        *Hctx;
  Mat                          H;      /* the user's Hessian matrix */
  Vec                          R, g;   /* 9 and 3 entries per body of this process: R placed on the step's arrays, g the user's or ours */
  PetscReal                   *gwork;  /* 3 nb: a gradient nobody reads (the energy's) */
  PetscInt                     bstart; /* this process's first body */
  /* the pattern: body b of this process sees the bodies cols[cptr[b]..cptr[b+1]) (0..nb-1 its process's, nb + j the
     ghost ghost[j]), sorted by their global numbers cglob, itself always among them; where a seen body's node 1 starts
     in the step vector and the stride of its nodes */
  PetscInt    ng, *ghost, *cptr, *cols, *cglob, *zoff, *zstride;
  VecScatter  scatter; /* the ghosts' node values, node-major (s blocks of 3 ng) */
  Vec         Zg;
  PetscReal  *zerog, *xg, *ug, *Tg, **gptr; /* the ghosts at the quadrature points: xi, u, T */
  PetscReal  *Hb;                           /* the Hessian's 3 x 3 blocks of the pattern at one point */
  PetscReal  *blk, *cpl;                    /* per point: each body's Px, Pv, Gx, Gv; each pattern block's T' Hg T and E Hg T */
  PetscReal  *vals, *dblk;                  /* a 3s x 3s block of the Jacobian; the end node's rows of it */
  PetscInt   *ridx, *cidx;
  PetscInt    nnz;        /* blocks of the pattern on this process */
  PetscBool   subpending; /* the block Jacobi's LU blocks are still to be set on the first matrix */
  PetscMPIInt size;
};

/* The array form's potential for the residual, energy and end of the step (src/doors/rigidbody.c), through the Vec
   routine: R placed in a Vec, the gradient copied out (H is never asked for: the Jacobian reads the Hessian itself) */
static PetscErrorCode VecPotential(PetscInt nb, const PetscReal R[], PetscReal *V, PetscReal g[], PetscReal H[], void *ctx)
{
  SimpVIRigidBodies    rb = (SimpVIRigidBodies)ctx;
  SimpVIRigidBodiesVec v  = rb->vec;

  PetscFunctionBegin;
  PetscCheck(!H, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The Vec/Mat form of rigid bodies has no dense Hessian");
  if (!v->V) { /* free bodies */
    *V = 0;
    for (PetscInt j = 0; g && j < 3 * nb; j++) g[j] = 0;
    PetscFunctionReturn(0);
  }
  PetscCall(VecPlaceArray(v->R, (PetscScalar *)R));
  PetscCall(VecLockReadPush(v->R)); /* the routine reads R (in a debugging build, writing it is an error) */
  PetscCall(v->V(v->ts, v->R, V, v->g, v->Vctx));
  PetscCall(VecLockReadPop(v->R));
  PetscCall(VecResetArray(v->R));
  {
    const PetscScalar *a;

    PetscCall(VecGetArrayRead(v->g, &a));
    PetscCall(PetscArraycpy(g ? g : v->gwork, a, 3 * nb));
    PetscCall(VecRestoreArrayRead(v->g, &a));
  }
  PetscFunctionReturn(0);
}

/* The user's Hessian at the attitudes R of this process's bodies, its blocks in the pattern's order (v->Hb) */
static PetscErrorCode HessianBlocks(SimpVIRigidBodies rb, const PetscReal R[])
{
  SimpVIRigidBodiesVec v = rb->vec;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(v->Hb, 9 * v->nnz));
  if (!v->Hf) PetscFunctionReturn(0);
  PetscCall(VecPlaceArray(v->R, (PetscScalar *)R));
  PetscCall(VecLockReadPush(v->R));
  PetscCall(v->Hf(v->ts, v->R, v->H, v->Hctx));
  PetscCall(VecLockReadPop(v->R));
  PetscCall(VecResetArray(v->R));
  for (PetscInt b = 0; b < rb->nb; b++)
    for (PetscInt r = 0; r < 3; r++) {
      const PetscInt    *cols;
      const PetscScalar *a;
      PetscInt           nc, row = 3 * (v->bstart + b) + r;

      PetscCall(MatGetRow(v->H, row, &nc, &cols, &a));
      for (PetscInt e = 0; e < nc; e++) {
        PetscInt slot;

        PetscCall(PetscFindInt(cols[e] / 3, v->cptr[b + 1] - v->cptr[b], v->cglob + v->cptr[b], &slot));
        PetscCheck(slot >= 0 || a[e] == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The rigid bodies' Hessian (TSSimpVISetRigidBodyHessianRoutine()) has an entry in row %" PetscInt_FMT ", column %" PetscInt_FMT " outside the nonzero pattern of its first call: its pattern must not grow", row, cols[e]);
        if (slot >= 0) v->Hb[9 * (v->cptr[b] + slot) + 3 * r + cols[e] % 3] = a[e];
      }
      PetscCall(MatRestoreRow(v->H, row, &nc, &cols, &a));
    }
  PetscFunctionReturn(0);
}

/* The blocks of the parallel default's block Jacobi, once its operator B is known: LU in PETSc's default (nested
   dissection) ordering, unless -sub_pc_type says otherwise */
static PetscErrorCode SubSolver(SNES snes, Mat B)
{
  KSP       ksp, *sub;
  PC        pc;
  PetscInt  nsub;
  PetscBool bjacobi;

  PetscFunctionBegin;
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCBJACOBI, &bjacobi));
  if (!bjacobi) PetscFunctionReturn(0);
  PetscCall(KSPSetOperators(ksp, B, B));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PCBJacobiGetSubKSP(pc, &nsub, NULL, &sub));
  for (PetscInt b = 0; b < nsub; b++) {
    PC        subpc;
    PetscBool given;

    PetscCall(KSPGetPC(sub[b], &subpc));
    PetscCall(PetscOptionsHasName(((PetscObject)subpc)->options, ((PetscObject)subpc)->prefix, "-pc_type", &given));
    if (!given) PetscCall(PCSetType(subpc, PCLU));
  }
  PetscFunctionReturn(0);
}

/* The step Jacobian: the array form's per-body blocks and the coupling through the Hessian, summed per block with the
   one coefficient formula of the kernel (src/core/kernel.c), then inserted block by block */
static PetscErrorCode Jacobian(SNES snes, Vec Zv, Mat A, Mat B, void *ctx)
{
  SimpVIRigidBodies    rb = (SimpVIRigidBodies)ctx;
  SimpVIRigidBodiesVec v  = rb->vec;
  const PetscInt       nb = rb->nb, n = rb->n, nq = rb->nq, s = rb->s, ng = v->ng, s3 = 3 * s;
  const PetscReal      h = rb->h;
  const PetscScalar   *Z, *Zg;
  PetscReal          **xk = rb->ptr, **uk = rb->ptr + nq, **xg = v->gptr, **ug = v->gptr + nq, *fs = rb->dfs, Vval;
  PetscInt             rstart;
  SimpVIScheme         sc = {.degree = s, .nq = nq, .c = rb->K->c, .tau = rb->K->tau, .w = rb->K->w, .B = rb->K->B, .D = rb->K->D};

  PetscFunctionBegin;
  PetscCall(VecScatterBegin(v->scatter, Zv, v->Zg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(v->scatter, Zv, v->Zg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetOwnershipRange(Zv, &rstart, NULL));
  PetscCall(VecGetArrayRead(Zv, &Z));
  PetscCall(VecGetArrayRead(v->Zg, &Zg));
  for (PetscInt k = 0; k < nq; k++) {
    xk[k] = rb->xi + k * n;
    uk[k] = rb->u + k * n;
    xg[k] = v->xg + k * 3 * ng;
    ug[k] = v->ug + k * 3 * ng;
  }
  PetscCall(SimpVIKernelPoints(rb->K, n, rb->zero, Z, xk, uk)); /* the ghosts' xi_k by the same sums as their owners' */
  PetscCall(SimpVIKernelPoints(rb->K, 3 * ng, v->zerog, Zg, xg, ug));
  PetscCall(VecRestoreArrayRead(v->Zg, &Zg));
  for (PetscInt k = 0; k < nq; k++) {
    PetscReal *E = rb->E + 9 * nb * k, *T = rb->T + 9 * nb * k, *Tg = v->Tg + 9 * ng * k;

    for (PetscInt b = 0; b < nb; b++) {
      PetscCall(SimpVISO3Exp(xk[k] + 3 * b, E + 9 * b));
      PetscCall(SimpVISO3Dexp(xk[k] + 3 * b, T + 9 * b, NULL));
      SimpVISO3Multiply(rb->R0 + 9 * b, E + 9 * b, rb->Rk + 9 * b);
    }
    for (PetscInt j = 0; j < ng; j++) PetscCall(SimpVISO3Dexp(xg[k] + 3 * j, Tg + 9 * j, NULL));
    PetscCall(VecPotential(nb, rb->Rk, &Vval, rb->g, NULL, rb));
    PetscCall(HessianBlocks(rb, rb->Rk));
    for (PetscInt b = 0; b < nb; b++) {
      const PetscReal *Tb = T + 9 * b, *Eb = E + 9 * b, *gb = rb->g + 3 * b;
      PetscReal       *bk = v->blk + 36 * (k * nb + b);

      PetscCall(SimpVIRigidBodyPoint_Private(xk[k] + 3 * b, uk[k] + 3 * b, Tb, Eb, rb->J + 9 * b, gb, rb->P + n * k + 3 * b, rb->G + n * k + 3 * b, rb->Eg + n * k + 3 * b));
      PetscCall(SimpVIRigidBodyPointJacobian_Private(xk[k] + 3 * b, uk[k] + 3 * b, Tb, rb->J + 9 * b, gb, bk, bk + 9, bk + 18, bk + 27));
      for (PetscInt e = v->cptr[b]; e < v->cptr[b + 1]; e++) {
        const PetscInt c = v->cols[e];

        SimpVIRigidBodyCoupling_Private(Tb, Eb, c == b ? gb : NULL, v->Hb + 9 * e, c < nb ? T + 9 * c : Tg + 9 * (c - nb), v->cpl + 18 * (k * v->nnz + e), v->cpl + 18 * (k * v->nnz + e) + 9);
      }
    }
  }
  SimpVIRigidBodiesEndDerivative_Private(rb, fs);
  for (PetscInt b = 0; b < nb; b++) {
    const PetscReal *xs = Z + (s - 1) * n + 3 * b;
    PetscReal        Tinv[9], y[3], M[9], TM[9];

    PetscCall(SimpVISO3Dexp(xs, NULL, Tinv));
    MatVec3(Tinv, fs + 3 * b, y);
    PetscCall(SimpVIRigidBodyDexpRows_Private(xs, y, PETSC_FALSE, M));
    SimpVISO3Multiply(Tinv, M, TM);
    for (PetscInt i = 0; i < s; i++)
      for (PetscInt r = 0; r < 3; r++) v->ridx[3 * i + r] = rstart + i * n + 3 * b + r;
    for (PetscInt e = v->cptr[b]; e < v->cptr[b + 1]; e++) {
      const PetscInt  c    = v->cols[e];
      const PetscBool self = (PetscBool)(c == b);

      for (PetscInt l = 1; l <= s; l++)
        for (PetscInt cc = 0; cc < 3; cc++) v->cidx[3 * (l - 1) + cc] = v->zoff[c] + (l - 1) * v->zstride[c] + cc;
      for (PetscInt j = 0; j < s3 * s3; j++) v->vals[j] = 0;
      /* rows of nodes 1..s-1 (interior) and, apart, of the end node s (d f_s/dxi_l): sum_k of the kernel's coefficients
         times the blocks; the other bodies enter through G_x's coupling alone */
      for (PetscInt i = 1; i <= s; i++)
        for (PetscInt l = 1; l <= s; l++) {
          PetscReal blk[9] = {0};

          for (PetscInt k = 0; k < nq; k++) {
            const PetscReal *bk = v->blk + 36 * (k * nb + b), *THgT = v->cpl + 18 * (k * v->nnz + e);
            const PetscReal  cgx = SimpVIKernelCoefficient_Private(&sc, h, SIMPVI_BLOCK_GX, k, i, l);

            if (self) {
              const PetscReal cpx = SimpVIKernelCoefficient_Private(&sc, h, SIMPVI_BLOCK_PX, k, i, l), cpv = SimpVIKernelCoefficient_Private(&sc, h, SIMPVI_BLOCK_PV, k, i, l);
              const PetscReal cgv = SimpVIKernelCoefficient_Private(&sc, h, SIMPVI_BLOCK_GV, k, i, l);

              for (PetscInt j = 0; j < 9; j++) blk[j] += cpx * bk[j] + cpv * bk[9 + j] + cgx * (bk[18 + j] - THgT[j]) + cgv * bk[27 + j];
            } else
              for (PetscInt j = 0; j < 9; j++) blk[j] -= cgx * THgT[j];
          }
          if (i < s) {
            for (PetscInt r = 0; r < 3; r++)
              for (PetscInt cc = 0; cc < 3; cc++) v->vals[(3 * i + r) * s3 + 3 * (l - 1) + cc] = blk[3 * r + cc];
          } else PetscCall(PetscArraycpy(v->dblk + 9 * (l - 1), blk, 9));
        }
      /* row of node 0: -h sum_k w_k B_kl d(E_k g_k)/dxi_l - T(xi_s)^-1 df_s/dxi_l (+ T^-1 M(xi_s, T^-1 f_s) at l = s) */
      for (PetscInt l = 1; l <= s; l++) {
        const PetscReal *df = v->dblk + 9 * (l - 1);

        for (PetscInt r = 0; r < 3; r++)
          for (PetscInt cc = 0; cc < 3; cc++) {
            PetscReal a = 0;

            for (PetscInt k = 0; k < nq; k++) a -= h * rb->K->w[k] * rb->K->B[k * (s + 1) + l] * v->cpl[18 * (k * v->nnz + e) + 9 + 3 * r + cc];
            a -= Tinv[3 * r] * df[cc] + Tinv[3 * r + 1] * df[3 + cc] + Tinv[3 * r + 2] * df[6 + cc];
            if (l == s && self) a += TM[3 * r + cc];
            v->vals[r * s3 + 3 * (l - 1) + cc] = a;
          }
      }
      PetscCall(MatSetValues(B, s3, v->ridx, s3, v->cidx, v->vals, INSERT_VALUES));
    }
  }
  PetscCall(VecRestoreArrayRead(Zv, &Z));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  if (A != B) {
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  if (v->subpending) { /* block Jacobi's blocks: LU, once the first matrix is known */
    PetscCall(SubSolver(snes, B));
    v->subpending = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/* The pattern of the coupling from the Hessian at the state U (its first call), the ghosts and their scatter, the
   step Jacobian preallocated on it */
static PetscErrorCode SetUpPattern(SimpVIRigidBodies rb, Vec U)
{
  SimpVIRigidBodiesVec v  = rb->vec;
  const PetscInt       nb = rb->nb, s = rb->s;
  MPI_Comm             comm = PetscObjectComm((PetscObject)rb->Z);
  PetscLayout          map;
  const PetscInt      *ranges;
  PetscInt            *all, nall = 0, *dnnz, *onnz, *idx, rstart;
  IS                   is;

  PetscFunctionBegin;
  PetscCall(PetscLayoutCreateFromSizes(comm, nb, PETSC_DECIDE, 1, &map));
  PetscCall(PetscLayoutGetRanges(map, &ranges));
  PetscCall(VecGetOwnershipRange(rb->Z, &rstart, NULL));
  /* the column bodies of each body's rows, itself included */
  PetscCall(PetscMalloc1(nb + 1, &v->cptr));
  v->cptr[0] = 0;
  {
    PetscInt          *buf, nbuf = 0, cap = 16;
    const PetscScalar *u;
    PetscBool          assembled;

    PetscCall(PetscMalloc1(cap, &buf));
    if (v->Hf) {
      PetscCall(VecGetArrayRead(U, &u));
      PetscCall(VecPlaceArray(v->R, (PetscScalar *)u));
      PetscCall(VecLockReadPush(v->R));
      PetscCall(v->Hf(v->ts, v->R, v->H, v->Hctx));
      PetscCall(VecLockReadPop(v->R));
      PetscCall(VecResetArray(v->R));
      PetscCall(VecRestoreArrayRead(U, &u));
      PetscCall(MatAssembled(v->H, &assembled));
      PetscCheck(assembled, comm, PETSC_ERR_ARG_WRONGSTATE, "The rigid bodies' Hessian routine (TSSimpVISetRigidBodyHessianRoutine()) must assemble its matrix");
    }
    for (PetscInt b = 0; b < nb; b++) {
      PetscInt start = nbuf;

      if (nbuf + 1 > cap) PetscCall(PetscRealloc(sizeof(PetscInt) * (cap *= 2), &buf));
      buf[nbuf++] = v->bstart + b;
      for (PetscInt r = 0; v->Hf && r < 3; r++) {
        const PetscInt *cols;
        PetscInt        nc;

        PetscCall(MatGetRow(v->H, 3 * (v->bstart + b) + r, &nc, &cols, NULL));
        while (nbuf + nc > cap) cap *= 2;
        PetscCall(PetscRealloc(sizeof(PetscInt) * cap, &buf));
        for (PetscInt e = 0; e < nc; e++) buf[nbuf++] = cols[e] / 3;
        PetscCall(MatRestoreRow(v->H, 3 * (v->bstart + b) + r, &nc, &cols, NULL));
      }
      {
        PetscInt m = nbuf - start;

        PetscCall(PetscSortRemoveDupsInt(&m, buf + start));
        nbuf = start + m;
      }
      v->cptr[b + 1] = nbuf;
    }
    v->nnz = nbuf;
    PetscCall(PetscMalloc2(nbuf, &v->cglob, nbuf, &v->cols));
    PetscCall(PetscMalloc1(nbuf, &all));
    PetscCall(PetscArraycpy(v->cglob, buf, nbuf));
    PetscCall(PetscFree(buf));
  }
  for (PetscInt e = 0; e < v->nnz; e++)
    if (v->cglob[e] < v->bstart || v->cglob[e] >= v->bstart + nb) all[nall++] = v->cglob[e];
  PetscCall(PetscSortRemoveDupsInt(&nall, all));
  v->ng = nall;
  PetscCall(PetscMalloc1(nall, &v->ghost));
  PetscCall(PetscArraycpy(v->ghost, all, nall));
  PetscCall(PetscFree(all));
  PetscCall(PetscMalloc2(nb + nall, &v->zoff, nb + nall, &v->zstride));
  for (PetscInt c = 0; c < nb; c++) v->zoff[c] = rstart + 3 * c, v->zstride[c] = rb->n;
  for (PetscInt j = 0; j < nall; j++) {
    PetscMPIInt q;

    PetscCall(PetscLayoutFindOwner(map, v->ghost[j], &q));
    v->zoff[nb + j]    = 3 * s * ranges[q] + 3 * (v->ghost[j] - ranges[q]);
    v->zstride[nb + j] = 3 * (ranges[q + 1] - ranges[q]);
  }
  for (PetscInt e = 0; e < v->nnz; e++) {
    const PetscInt c = v->cglob[e];
    PetscInt       j;

    if (c >= v->bstart && c < v->bstart + nb) v->cols[e] = c - v->bstart;
    else {
      PetscCall(PetscFindInt(c, nall, v->ghost, &j));
      v->cols[e] = nb + j;
    }
  }
  /* the ghosts' node values, node-major */
  PetscCall(PetscMalloc1(3 * s * nall, &idx));
  for (PetscInt l = 0; l < s; l++)
    for (PetscInt j = 0; j < nall; j++)
      for (PetscInt c = 0; c < 3; c++) idx[(l * nall + j) * 3 + c] = v->zoff[nb + j] + l * v->zstride[nb + j] + c;
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, 3 * s * nall, idx, PETSC_OWN_POINTER, &is));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 3 * s * nall, &v->Zg));
  PetscCall(VecScatterCreate(rb->Z, is, v->Zg, NULL, &v->scatter));
  PetscCall(ISDestroy(&is));
  PetscCall(PetscCalloc1(3 * nall, &v->zerog));
  PetscCall(PetscMalloc4(rb->nq * 3 * nall, &v->xg, rb->nq * 3 * nall, &v->ug, rb->nq * 9 * nall, &v->Tg, 2 * rb->nq, &v->gptr));
  PetscCall(PetscMalloc3(9 * v->nnz, &v->Hb, 36 * rb->nq * nb, &v->blk, 18 * rb->nq * v->nnz, &v->cpl));
  PetscCall(PetscMalloc4(9 * s * s, &v->vals, 9 * s, &v->dblk, 3 * s, &v->ridx, 3 * s, &v->cidx));
  /* the step Jacobian: each body's rows see 3 s columns per body of its pattern */
  PetscCall(PetscCalloc2(rb->m, &dnnz, rb->m, &onnz));
  for (PetscInt b = 0; b < nb; b++)
    for (PetscInt e = v->cptr[b]; e < v->cptr[b + 1]; e++)
      for (PetscInt i = 0; i < s; i++)
        for (PetscInt r = 0; r < 3; r++) {
          if (v->cols[e] < nb) dnnz[i * rb->n + 3 * b + r] += 3 * s;
          else onnz[i * rb->n + 3 * b + r] += 3 * s;
        }
  PetscCall(MatCreate(comm, &rb->A));
  PetscCall(MatSetSizes(rb->A, rb->m, rb->m, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(rb->A, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(rb->A, 0, dnnz));
  PetscCall(MatMPIAIJSetPreallocation(rb->A, 0, dnnz, 0, onnz));
  PetscCall(MatSetOption(rb->A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(PetscFree2(dnnz, onnz));
  PetscCall(PetscLayoutDestroy(&map));
  PetscFunctionReturn(0);
}

/* The checks of the Vec/Mat form's bodies, state, potential and Hessian */
static PetscErrorCode CheckUser(TS ts, const SimpVIUser *u, Vec U)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)ts);
  PetscInt  n, N;
  PetscBool ok;

  PetscFunctionBegin;
  PetscCheck(u->rbN > 0, comm, PETSC_ERR_USER, "Rigid bodies in the Vec/Mat form need TSSimpVISetRigidBodyInertias()");
  PetscCheck(!u->rbtau, comm, PETSC_ERR_SUP, "Rigid bodies in the Vec/Mat form (TSSimpVISetRigidBodyInertias()) take no torques (TSSimpVISetRigidBodyTorque()) yet: the array form, TSSimpVISetRigidBodies(), does");
  PetscCheck(!u->rbVv == !u->rbHv, comm, PETSC_ERR_USER, "The rigid bodies' potential needs both TSSimpVISetRigidBodyPotentialRoutine() and TSSimpVISetRigidBodyHessianRoutine(), not only %s", u->rbVv ? "the potential" : "the Hessian");
  PetscCall(VecGetSize(U, &N));
  PetscCall(VecGetLocalSize(U, &n));
  ok = (PetscBool)(n == 12 * u->rbnl);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, SIMPVI_MPI_BOOL, MPI_LAND, comm));
  PetscCheck(ok && N == 12 * u->rbN, comm, PETSC_ERR_ARG_SIZ, "The state of %" PetscInt_FMT " rigid bodies has 12 entries per body on the process that owns it (TSSimpVISetRigidBodyInertias()): R_b row-major, then pi_b; this one has %" PetscInt_FMT " entries%s", u->rbN, N, N == 12 * u->rbN ? " split over the processes unlike the bodies" : "");
  if (u->rbg) {
    PetscCall(VecGetLocalSize(u->rbg, &n));
    ok = (PetscBool)(n == 3 * u->rbnl);
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, SIMPVI_MPI_BOOL, MPI_LAND, comm));
    PetscCheck(ok, comm, PETSC_ERR_ARG_SIZ, "The gradient vector given to TSSimpVISetRigidBodyPotentialRoutine() must have 3 entries per body of each process");
  }
  if (u->rbH) {
    PetscInt  M, Nc, lo, hi;
    PetscBool sbaij;

    PetscCall(MatGetSize(u->rbH, &M, &Nc));
    PetscCall(MatGetOwnershipRange(u->rbH, &lo, &hi));
    ok = (PetscBool)(hi - lo == 3 * u->rbnl);
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, SIMPVI_MPI_BOOL, MPI_LAND, comm));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)u->rbH, &sbaij, MATSEQSBAIJ, MATMPISBAIJ, ""));
    PetscCheck(!sbaij, comm, PETSC_ERR_SUP, "The rigid bodies' Hessian is read by rows (MatGetRow()): give a matrix of type AIJ or BAIJ, not SBAIJ");
    PetscCheck(ok && M == 3 * u->rbN && Nc == M, comm, PETSC_ERR_ARG_SIZ, "The Hessian matrix given to TSSimpVISetRigidBodyHessianRoutine() must be %" PetscInt_FMT " x %" PetscInt_FMT " (3 per body) with 3 rows per body of each process, not %" PetscInt_FMT " x %" PetscInt_FMT "%s", 3 * u->rbN, 3 * u->rbN, M, Nc, M == 3 * u->rbN && Nc == M ? " split over the processes unlike the bodies" : "");
  }
  PetscFunctionReturn(0);
}

/* The rigid bodies of the Vec/Mat form given to ts, their step solved by snes (the TS's) from the state U */
PetscErrorCode SimpVIRigidBodiesCreateVec_Private(TS ts, SNES snes, Vec U, SimpVIRigidBodies *rb)
{
  MPI_Comm             comm = PetscObjectComm((PetscObject)ts);
  SimpVIProblem       *prob;
  const SimpVIUser    *u;
  SimpVIRigidBodies    R;
  SimpVIRigidBodiesVec v;
  TSSimpVIType         type;
  KSP                  ksp;
  PC                   pc;
  PetscInt             n, s, nq, m, nb, bad;
  DMSNES               sdm;
  DMKSP                kdm;

  PetscFunctionBegin;
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
  u  = &prob->user;
  nb = u->rbnl;
  PetscCall(CheckUser(ts, u, U));
  PetscCall(PetscNew(&R));
  PetscCall(PetscNew(&v));
  R->vec = v;
  v->ts  = ts;
  PetscCallMPI(MPI_Comm_size(comm, &v->size));
  PetscCall(TSSimpVICreateKernel(ts, &R->K));
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(PetscStrncpy(R->type, type, sizeof(R->type)));
  PetscCall(TSSimpVIGetOrder(ts, &R->order));
  PetscCall(SimpVIKernelGetSizes(R->K, &s, &nq));
  n     = 3 * nb;
  m     = s * n;
  R->nb = nb, R->n = n, R->s = s, R->nq = nq, R->m = m, R->Nb = u->rbN;
  R->V = VecPotential, R->ctx = R;
  PetscCall(PetscMalloc2(9 * nb, &R->J, 9 * nb, &R->Jinv));
  PetscCall(SimpVIRigidBodyInertia_Private(nb, u->rbJl, R->J, R->Jinv, &bad)); /* checked when given */
  /* the array form's work space but its dense n x n blocks */
  PetscCall(PetscMalloc6(9 * nb, &R->R0, n, &R->pi0, n, &R->zero, nq * n, &R->xi, nq * n, &R->u, nq * 9 * nb, &R->E));
  PetscCall(PetscMalloc4(nq * 9 * nb, &R->T, nq * n, &R->P, nq * n, &R->G, nq * n, &R->Eg));
  PetscCall(PetscMalloc5(9 * nb, &R->Rk, n, &R->g, 0, &R->H, 0, &R->Jd, n, &R->dfs));
  PetscCall(PetscMalloc1(6 * nq, &R->ptr));
  PetscCall(PetscCalloc2(9 * nb, &R->Rc, n, &R->pic));
  PetscCall(PetscMalloc2(9 * nb, &R->coef, 9 * nb, &R->Tinv)); /* the residual's work (src/doors/rigidbody.c) */
  PetscCall(PetscArrayzero(R->zero, n));
  PetscCall(PetscArrayzero(R->g, n));
  PetscCall(PetscMalloc1(n, &v->gwork));
  PetscCall(VecCreateMPI(comm, m, PETSC_DETERMINE, &R->Z));
  PetscCall(VecDuplicate(R->Z, &R->F));
  /* the user's routines */
  v->V = u->rbVv, v->Vctx = u->rbVvctx, v->Hf = u->rbHv, v->Hctx = u->rbHvctx;
  if (u->rbH) PetscCall(PetscObjectReference((PetscObject)u->rbH));
  v->H = u->rbH;
  PetscCall(VecCreateMPIWithArray(comm, 1, 9 * nb, PETSC_DETERMINE, NULL, &v->R));
  if (u->rbg) {
    PetscCall(PetscObjectReference((PetscObject)u->rbg));
    v->g = u->rbg;
  } else PetscCall(VecCreateMPI(comm, 3 * nb, PETSC_DETERMINE, &v->g));
  PetscCallMPI(MPI_Scan(&nb, &v->bstart, 1, MPIU_INT, MPI_SUM, comm));
  v->bstart -= nb;
  PetscCall(SetUpPattern(R, U));
  /* the TS's SNES on the step vector's DMShell */
  PetscCall(PetscObjectReference((PetscObject)snes));
  R->snes = snes;
  PetscCall(DMShellCreate(comm, &R->dm));
  PetscCall(DMGetDMSNES(R->dm, &sdm)); /* made now: SNESSetDM() would otherwise share the old DM's */
  PetscCall(DMGetDMKSP(R->dm, &kdm));
  PetscCall(DMShellSetGlobalVector(R->dm, R->Z));
  PetscCall(SNESSetDM(R->snes, R->dm));
  PetscCall(SNESSetSolution(R->snes, R->Z));
  PetscCall(SNESSetFunction(R->snes, R->F, SimpVIRigidBodiesResidual_Private, R));
  PetscCall(SNESSetJacobian(R->snes, R->A, R->A, Jacobian, R));
  /* Newton to round-off, stopped on its update as the array form's; the linear solver, as the array form's set below
     the options: LU on one process, GMRES with block Jacobi (each process's bodies factored by LU) in parallel, its
     tolerance well below Newton's test on the update. The LUs keep PETSc's default, fill-reducing, ordering (nested
     dissection): the step vector is node-major, so the nodes of one body are 3 N apart, and an LU in the natural
     order of a ring of 4000 bodies would fill its band of 12000 (measured: minutes a step, against a fraction of a
     second) */
  PetscCall(SNESSetTolerances(R->snes, PETSC_DEFAULT, 0.0, 1e-8, 50, PETSC_DEFAULT));
  PetscCall(SNESGetKSP(R->snes, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  if (v->size > 1) {
    PetscCall(KSPSetType(ksp, KSPGMRES));
    PetscCall(KSPSetTolerances(ksp, 1e-13, 1e-50, PETSC_DEFAULT, PETSC_DEFAULT));
    PetscCall(PCSetType(pc, PCBJACOBI));
    v->subpending = PETSC_TRUE;
  } else {
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(PCSetType(pc, PCLU));
  }
  PetscCall(SNESSetFromOptions(R->snes));
  *rb = R;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIRigidBodiesVecDestroy_Private(SimpVIRigidBodiesVec *vec)
{
  SimpVIRigidBodiesVec v = *vec;

  PetscFunctionBegin;
  if (!v) PetscFunctionReturn(0);
  PetscCall(MatDestroy(&v->H));
  PetscCall(VecDestroy(&v->R));
  PetscCall(VecDestroy(&v->g));
  PetscCall(PetscFree(v->gwork));
  PetscCall(PetscFree(v->cptr));
  PetscCall(PetscFree2(v->cglob, v->cols));
  PetscCall(PetscFree(v->ghost));
  PetscCall(PetscFree2(v->zoff, v->zstride));
  PetscCall(VecScatterDestroy(&v->scatter));
  PetscCall(VecDestroy(&v->Zg));
  PetscCall(PetscFree(v->zerog));
  PetscCall(PetscFree4(v->xg, v->ug, v->Tg, v->gptr));
  PetscCall(PetscFree3(v->Hb, v->blk, v->cpl));
  PetscCall(PetscFree4(v->vals, v->dblk, v->ridx, v->cidx));
  PetscCall(PetscFree(*vec));
  PetscFunctionReturn(0);
}

/* -ts_view: the bodies on all processes, the state's layout, the step's matrix */
PetscErrorCode SimpVIRigidBodiesVecView_Private(SimpVIRigidBodies rb, PetscViewer viewer)
{
  SimpVIRigidBodiesVec v   = rb->vec;
  PetscInt             nnz = v->nnz;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &nnz, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)rb->Z)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "Rigid bodies: %" PetscInt_FMT ", configuration space SO(3)^%" PetscInt_FMT " (%s), Vec/Mat form on %d process(es)\n", rb->Nb, rb->Nb, SimpVIConfigurationSO3.name, (int)v->size));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  curve of a step: R0 exp(xi(tau)), xi a polynomial in so(3) through the Gauss-Lobatto nodes (the exponential map)\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  state: on each process its bodies' rotation matrices (9 entries each, row-major), then their body angular momenta (3 entries each)\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  scheme %s: degree %" PetscInt_FMT ", %" PetscInt_FMT " quadrature points, order %" PetscInt_FMT "\n", rb->type, rb->s, rb->nq, rb->order));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  step Jacobian: parallel AIJ, %" PetscInt_FMT " x %" PetscInt_FMT " node blocks of 3 x 3 for each of %" PetscInt_FMT " pairs of coupled bodies (the Hessian's pattern, each body with itself)\n", rb->s, rb->s, nnz));
  PetscFunctionReturn(0);
}

/* The problem of ts for the setters, the array form refused */
static PetscErrorCode GetProblem(TS ts, SimpVIProblem **prob)
{
  PetscFunctionBegin;
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, prob));
  PetscCheck(!(*prob)->user.rbn, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "This TS has rigid bodies given by TSSimpVISetRigidBodies() (arrays, one process): the Vec/Mat form (TSSimpVISetRigidBodyInertias()) is the other way, call one of them");
  (*prob)->user.rbvec = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetRigidBodyInertias - Gives a `TS` rigid bodies on SO(3) in the `Vec`/`Mat` form, for any number of
  processes: the bodies of this process by their inertia tensors. A `TSSIMPVI` then integrates them with `TSSolve()`
  by the Lie-group Galerkin step of `TSSimpVISetRigidBodies()`, distributed by bodies

  Collective

  Input Parameters:
+ ts     - the `TS`
. nlocal - the number of bodies of this process (may be 0)
- J      - their inertia tensors in the body frames, 9 entries per body (row-major, symmetric positive definite); copied

  Level: intermediate

  Notes:
  The bodies are numbered through the processes in their order (process 0's first). The state `Vec` (`TSSetSolution()`)
  has 12 nlocal entries on each process: the rotation matrices (body to space) of its bodies, 9 entries each, row-major,
  then their body angular momenta pi_b = J_b Omega_b, 3 entries each; on one process this is the state of
  `TSSimpVISetRigidBodies()`. The potential is given by `TSSimpVISetRigidBodyPotentialRoutine()` with its Hessian by
  `TSSimpVISetRigidBodyHessianRoutine()` (none: free bodies).

  Each process solves for the s nodes of xi of its bodies: the step's residual is `TSSimpVISetRigidBodies()`'s, per
  body, the potential's gradient computed by the routine at every quadrature point (a collective call); the step
  Jacobian is a parallel AIJ matrix of 3 x 3 blocks per node pair of each body and of each pair of bodies the Hessian
  couples (its nonzero pattern at the initial state, which must not grow). The `TS`'s `SNES` solves it: Newton stopped
  on its update (-snes_stol 1e-8, -snes_rtol 0) with, unless the options choose otherwise, LU on one process and GMRES
  (relative tolerance 1e-13) with block Jacobi in parallel, each process's block factored by PETSc's LU; `TSView()`
  states both. Time controls, monitors, events, `TSInterpolate()`, `TSSimpVIComputeEnergy()` (collective) and the
  failure path work as with `TSSimpVISetRigidBodies()`; not supported: the same list as there (other mechanics,
  sensitivities, checkpoints). The answer is the same on any number of processes to the linear solver's round-off.

.seealso: `TSSIMPVI`, `TSSimpVISetRigidBodyPotentialRoutine()`, `TSSimpVISetRigidBodyHessianRoutine()`, `TSSimpVISetRigidBodies()`, `TSSimpVIComputeEnergy()`
@*/
PetscErrorCode TSSimpVISetRigidBodyInertias(TS ts, PetscInt nlocal, const PetscReal J[])
{
  SimpVIProblem *prob;
  PetscReal     *Jc, *Ji;
  PetscInt       N = nlocal, bad = -1;
  PetscBool      ok;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  ok = (PetscBool)(nlocal >= 0 && (J || !nlocal));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, SIMPVI_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)ts)));
  PetscCheck(ok, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "TSSimpVISetRigidBodyInertias() needs a number of bodies >= 0 on every process and their inertia tensors");
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &N, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)ts)));
  PetscCheck(N > 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "TSSimpVISetRigidBodyInertias() needs at least one body");
  PetscCall(PetscMalloc2(9 * nlocal, &Jc, 9 * nlocal, &Ji));
  PetscCall(SimpVIRigidBodyInertia_Private(nlocal, J, Jc, Ji, &bad)); /* every process learns of a bad tensor */
  ok = (PetscBool)(bad < 0);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, SIMPVI_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)ts)));
  PetscCall(PetscFree2(Jc, Ji));
  PetscCheck(ok, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONG, "An inertia tensor given to TSSimpVISetRigidBodyInertias() is not symmetric positive definite");
  PetscCall(GetProblem(ts, &prob));
  PetscCall(PetscFree(prob->user.rbJl));
  PetscCall(PetscMalloc1(9 * nlocal, &prob->user.rbJl));
  PetscCall(PetscArraycpy(prob->user.rbJl, J, 9 * nlocal));
  prob->user.rbnl = nlocal;
  prob->user.rbN  = N;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetRigidBodyPotentialRoutine - Gives the rigid bodies of `TSSimpVISetRigidBodyInertias()` a potential V(R)
  with its left-trivialised gradient on `Vec`s, as `TaoSetObjectiveAndGradient()` takes an objective

  Logically Collective

  Input Parameters:
+ ts  - the `TS`
. g   - a vector for the gradient, 3 entries per body of this process (`NULL`: one is made)
. f   - the routine (see `TSSimpVIRigidBodyPotentialFn`); `NULL`: free bodies
- ctx - its context (may be `NULL`)

  Level: intermediate

  Note:
  The routine is called collectively at every quadrature point of every Newton iteration, with R a parallel `Vec` of
  9 entries per body of this process (the attitudes, row-major). The potential needs its Hessian too
  (`TSSimpVISetRigidBodyHessianRoutine()`).

.seealso: `TSSimpVISetRigidBodyInertias()`, `TSSimpVISetRigidBodyHessianRoutine()`, `TSSimpVIRigidBodyPotentialFn`
@*/
PetscErrorCode TSSimpVISetRigidBodyPotentialRoutine(TS ts, Vec g, TSSimpVIRigidBodyPotentialFn f, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  if (g) SimpVIValidHeaderSpecific(g, VEC_CLASSID, 2);
  PetscCall(GetProblem(ts, &prob));
  if (g) PetscCall(PetscObjectReference((PetscObject)g));
  PetscCall(VecDestroy(&prob->user.rbg));
  prob->user.rbg     = g;
  prob->user.rbVv    = f;
  prob->user.rbVvctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetRigidBodyHessianRoutine - Gives the potential of `TSSimpVISetRigidBodyPotentialRoutine()` its
  left-trivialised Hessian on a parallel `Mat`, as `TaoSetHessian()` takes a Hessian

  Logically Collective

  Input Parameters:
+ ts  - the `TS`
. H   - the matrix, 3N x 3N for N bodies, its rows split over the processes as the bodies (3 per body); typically
        `MATAIJ` (or `MATBAIJ` of block size 3) preallocated for the pairs of bodies the potential couples
. f   - the routine that fills and assembles it (see `TSSimpVIRigidBodyHessianFn`)
- ctx - its context (may be `NULL`)

  Level: intermediate

  Notes:
  H is the second derivative of V(R_1 exp(hat(e_1)), .., R_N exp(hat(e_N))) in (e_1, .., e_N) at 0, as the array form's
  H (`SimpVIRigidBodyPotentialFn`), symmetric. Its nonzero pattern at the initial state (the routine's first call, in
  `TSSetUp()`) fixes which bodies the step Jacobian couples: entries outside it later are an error.

.seealso: `TSSimpVISetRigidBodyInertias()`, `TSSimpVISetRigidBodyPotentialRoutine()`, `TSSimpVIRigidBodyHessianFn`
@*/
PetscErrorCode TSSimpVISetRigidBodyHessianRoutine(TS ts, Mat H, TSSimpVIRigidBodyHessianFn f, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  if (H) SimpVIValidHeaderSpecific(H, MAT_CLASSID, 2);
  PetscCheck(!H == !f, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_NULL, "TSSimpVISetRigidBodyHessianRoutine() takes a matrix and a routine, or neither");
  PetscCall(GetProblem(ts, &prob));
  if (H) PetscCall(PetscObjectReference((PetscObject)H));
  PetscCall(MatDestroy(&prob->user.rbH));
  prob->user.rbH     = H;
  prob->user.rbHv    = f;
  prob->user.rbHvctx = ctx;
  PetscFunctionReturn(0);
}
