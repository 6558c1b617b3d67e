/*
   Mechanical door: L = 1/2 v' M(x) v - V(t, x). Builds L_v = M v, L_x = g - grad V with g = 1/2 v' dM/dx v, and the
   second derivatives L_vv = M, L_vx = d(Mv)/dx, L_xx = Mxx - hess V; constant M makes the mass-derivative terms vanish.
*/
#include <simpvi/private/tssimpviimpl.h>

static PetscErrorCode SetUp_Mechanical(TS ts)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCheck(vi->prob->M, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI mechanical problem without a mass matrix: call TSSimpVISetMass()");
  PetscCall(SimpVICheckMatSize_Private(ts, vi->prob->M, "mass matrix"));
  if (vi->prob->potfn) {
    PetscCheck(vi->prob->K && vi->prob->pothessfn, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI needs the Hessian of the potential (TSSimpVISetPotential())");
    PetscCall(SimpVICheckMatSize_Private(ts, vi->prob->K, "potential Hessian"));
  }
  if (vi->prob->massfn) {
    PetscCall(SimpVICheckMatSize_Private(ts, vi->prob->Mx, "Mx"));
    PetscCall(SimpVICheckMatSize_Private(ts, vi->prob->Mxx, "Mxx"));
    PetscCall(VecDuplicate(vi->q0, &vi->massg));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Reset_Mechanical(TS ts)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&((TS_SimpVI *)ts->data)->massg));
  PetscFunctionReturn(0);
}

static PetscErrorCode Mass(TS ts, Vec x, Vec v)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  if (vi->prob->massfn) PetscCallBack("TSSIMPVI mass", vi->prob->massfn(ts, x, v, vi->prob->M, vi->prob->Mx, vi->massg, vi->prob->Mxx, vi->prob->massctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode PG_Mechanical(TS ts, PetscReal t, Vec x, Vec v, Vec P, Vec G)
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;
  PetscReal  V;

  PetscFunctionBegin;
  PetscCall(Mass(ts, x, v));
  PetscCall(MatMult(vi->prob->M, v, P));
  if (vi->prob->potfn) {
    PetscCallBack("TSSIMPVI potential", vi->prob->potfn(ts, t, x, &V, G, vi->prob->potctx));
    PetscCall(VecScale(G, -1));
  } else PetscCall(VecSet(G, 0));
  if (vi->prob->massfn) PetscCall(VecAXPY(G, 1, vi->massg));
  PetscFunctionReturn(0);
}

static PetscErrorCode Terms_Mechanical(TS ts, PetscReal t, Vec x, Vec v, PetscInt *n, SimpVITerm terms[])
{
  TS_SimpVI *vi = (TS_SimpVI *)ts->data;

  PetscFunctionBegin;
  PetscCall(Mass(ts, x, v));
  terms[(*n)++] = (SimpVITerm){vi->prob->M, 1, SIMPVI_BLOCK_PV, PETSC_FALSE};
  if (vi->prob->potfn) {
    PetscCallBack("TSSIMPVI potential Hessian", vi->prob->pothessfn(ts, t, x, vi->prob->K, vi->prob->potctx));
    terms[(*n)++] = (SimpVITerm){vi->prob->K, -1, SIMPVI_BLOCK_GX, PETSC_FALSE};
  }
  if (vi->prob->massfn) {
    terms[(*n)++] = (SimpVITerm){vi->prob->Mxx, 1, SIMPVI_BLOCK_GX, PETSC_FALSE};
    terms[(*n)++] = (SimpVITerm){vi->prob->Mx, 1, SIMPVI_BLOCK_PX, PETSC_FALSE};
    terms[(*n)++] = (SimpVITerm){vi->prob->Mx, 1, SIMPVI_BLOCK_GV, PETSC_TRUE};
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode L_Mechanical(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L)
{
  TS_SimpVI  *vi = (TS_SimpVI *)ts->data;
  PetscReal   V = 0;
  PetscScalar vMv;

  PetscFunctionBegin;
  PetscCall(Mass(ts, x, v));
  PetscCall(MatMult(vi->prob->M, v, vi->work));
  PetscCall(VecDot(v, vi->work, &vMv));
  if (vi->prob->potfn) PetscCallBack("TSSIMPVI potential", vi->prob->potfn(ts, t, x, &V, vi->work2, vi->prob->potctx));
  *L = 0.5 * PetscRealPart(vMv) - V;
  PetscFunctionReturn(0);
}

const SimpVIDoor SimpVIDoorMechanical = {"mechanical", SetUp_Mechanical, PG_Mechanical, Terms_Mechanical, L_Mechanical, Reset_Mechanical};
