/*
   Lagrangian door: the user's L(t, x, v), its gradient and Hessian blocks, as the core's P, G and their derivatives.
*/
#include <simpvi/private/door.h>

static PetscErrorCode SetUp_Lagrangian(TS ts, SimpVIProblem *prob, Vec q)
{
  PetscFunctionBegin;
  PetscCheck(prob->user.laghessfn && prob->user.Lxx && prob->user.Lvv, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI needs the Hessian of the Lagrangian: call TSSimpVISetLagrangianHessian()");
  PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Lxx, "Lxx"));
  PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Lvv, "Lvv"));
  if (prob->user.Lvx) PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Lvx, "Lvx"));
  PetscFunctionReturn(0);
}

static PetscErrorCode PG_Lagrangian(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec P, Vec G)
{
  PetscReal L;

  PetscFunctionBegin;
  SimpVICallBack(ts, "TSSIMPVI Lagrangian", prob->user.lagfn(ts, t, x, v, &L, G, P, prob->user.lagctx));
  PetscCall(SimpVIForceAdd_Private(ts, prob, t, x, v, G));
  PetscFunctionReturn(0);
}

static PetscErrorCode Terms_Lagrangian(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscInt need, PetscInt *n, SimpVITerm terms[])
{
  PetscFunctionBegin;
  SimpVICallBack(ts, "TSSIMPVI Lagrangian Hessian", prob->user.laghessfn(ts, t, x, v, prob->user.Lxx, prob->user.Lvx, prob->user.Lvv, prob->user.laghessctx));
  PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Lvv, 1, SIMPVI_BLOCK_PV, PETSC_FALSE, PETSC_FALSE}));
  PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Lxx, 1, SIMPVI_BLOCK_GX, PETSC_FALSE, PETSC_FALSE}));
  if (prob->user.Lvx) {
    PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Lvx, 1, SIMPVI_BLOCK_PX, PETSC_FALSE, PETSC_FALSE}));
    PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Lvx, 1, SIMPVI_BLOCK_GV, PETSC_TRUE, PETSC_FALSE}));
  }
  PetscCall(SimpVIForceTerms_Private(ts, prob, t, x, v, n, terms));
  PetscFunctionReturn(0);
}

static PetscErrorCode L_Lagrangian(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscReal *L)
{
  PetscFunctionBegin;
  SimpVICallBack(ts, "TSSIMPVI Lagrangian", prob->user.lagfn(ts, t, x, v, L, prob->work, prob->work2, prob->user.lagctx));
  PetscFunctionReturn(0);
}

const SimpVIDoor SimpVIDoorLagrangian = {
  .name       = "Lagrangian",
  .maxterms   = 6, /* Lvv, Lxx, Lvx twice, Fx, Fv */
  .setup      = SetUp_Lagrangian,
  .pg         = PG_Lagrangian,
  .terms      = Terms_Lagrangian,
  .lagrangian = L_Lagrangian,
  .state      = SIMPVI_STATE_PHASESPACE,
};
