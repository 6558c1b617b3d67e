/*
   Lagrangian door: the user's L(t, x, v), its gradient and Hessian blocks, as the core's P, G and their derivatives.
*/
#include <simpvi/private/tssimpviimpl.h>

static PetscErrorCode SetUp_Lagrangian(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCheck(vi->prob->laghessfn && vi->prob->Lxx && vi->prob->Lvv, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI needs the Hessian of the Lagrangian: call TSSimpVISetLagrangianHessian()");
  PetscCall(SimpVICheckMatSize_Private(ts, vi->prob->Lxx, "Lxx"));
  PetscCall(SimpVICheckMatSize_Private(ts, vi->prob->Lvv, "Lvv"));
  if (vi->prob->Lvx) PetscCall(SimpVICheckMatSize_Private(ts, vi->prob->Lvx, "Lvx"));
  PetscFunctionReturn(0);
}

static PetscErrorCode PG_Lagrangian(TS ts, PetscReal t, Vec x, Vec v, Vec P, Vec G)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscReal  L;

  PetscFunctionBegin;
  PetscCallBack("TSSIMPVI Lagrangian", vi->prob->lagfn(ts, t, x, v, &L, G, P, vi->prob->lagctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode Terms_Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscInt *n, SimpVITerm terms[])
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCallBack("TSSIMPVI Lagrangian Hessian", vi->prob->laghessfn(ts, t, x, v, vi->prob->Lxx, vi->prob->Lvx, vi->prob->Lvv, vi->prob->laghessctx));
  terms[(*n)++] = (SimpVITerm){vi->prob->Lvv, 1, SIMPVI_BLOCK_PV, PETSC_FALSE};
  terms[(*n)++] = (SimpVITerm){vi->prob->Lxx, 1, SIMPVI_BLOCK_GX, PETSC_FALSE};
  if (vi->prob->Lvx) {
    terms[(*n)++] = (SimpVITerm){vi->prob->Lvx, 1, SIMPVI_BLOCK_PX, PETSC_FALSE};
    terms[(*n)++] = (SimpVITerm){vi->prob->Lvx, 1, SIMPVI_BLOCK_GV, PETSC_TRUE};
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode L_Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCallBack("TSSIMPVI Lagrangian", vi->prob->lagfn(ts, t, x, v, L, vi->work, vi->work2, vi->prob->lagctx));
  PetscFunctionReturn(0);
}

const SimpVIDoor SimpVIDoorLagrangian = {"Lagrangian", SetUp_Lagrangian, PG_Lagrangian, Terms_Lagrangian, L_Lagrangian, NULL};
