/*
   Comparison door: the same Lagrangian (or mass and potential) given to PETSc's other integrators in phase space,
   U = (q, p), so one program runs under -ts_type simpvi, rk, theta, bdf, ... and basicsymplectic:
     implicit types:  F(t, U, U') = ( L_v(t, q, q') - p ,  p' - L_x(t, q, q') ) = 0       (IFunction, IJacobian)
     explicit types:  U' = ( v , L_x(t, q, v) ),  v = L_v^{-1}(q, p)                       (RHSFunction)
     basicsymplectic: q' = M^{-1} p and p' = -grad V(q) as the "position" and "momentum" splits (constant M)
*/
#include <petsc/private/tsimpl.h> /* the user's TS: its I2 callbacks and solver flags */
#include <simpvi/private/door.h>  /*I "simpvi.h" I*/

static PetscErrorCode IFunction_PhaseSpace(TS ts, PetscReal t, Vec U, Vec Udot, Vec F, void *ctx)
{
  SimpVIPhaseSpace ps = (SimpVIPhaseSpace)ctx;

  PetscFunctionBegin;
  PetscCall(SimpVIPhaseSpaceSplit_Private(U, ps->isq, ps->isp, ps->q, ps->p));
  PetscCall(SimpVIPhaseSpaceSplit_Private(Udot, ps->isq, ps->isp, ps->qdot, ps->pdot));
  PetscCall(ps->prob->door->pg(ps->ts, ps->prob, t, ps->q, ps->qdot, ps->P, ps->G));
  PetscCall(VecAXPY(ps->P, -1, ps->p));    /* L_v - p */
  PetscCall(VecAYPX(ps->G, -1, ps->pdot)); /* p' - L_x */
  PetscCall(SimpVIPhaseSpaceJoin_Private(ps->P, ps->G, ps->isq, ps->isp, F));
  PetscFunctionReturn(0);
}

/* Adds scale * A (or A') into the rows rows[] and columns cols[] of U, both indexed by position */
static PetscErrorCode AddBlock(Mat J, Mat A, PetscBool transpose, PetscScalar scale, const PetscInt rowidx[], const PetscInt colidx[])
{
  PetscInt rstart, rend;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; r++) {
    PetscInt           ncols;
    const PetscInt    *cols;
    const PetscScalar *vals;

    PetscCall(MatGetRow(A, r, &ncols, &cols, &vals));
    for (PetscInt j = 0; j < ncols; j++) {
      PetscScalar val = scale * vals[j];

      if (!transpose) PetscCall(MatSetValue(J, rowidx[r], colidx[cols[j]], val, ADD_VALUES));
      else PetscCall(MatSetValue(J, rowidx[cols[j]], colidx[r], val, ADD_VALUES));
    }
    PetscCall(MatRestoreRow(A, r, &ncols, &cols, &vals));
  }
  PetscFunctionReturn(0);
}

/* Whether U = (q, p) is split as the local q block followed by the local p block on every process (the default) */
static PetscErrorCode IsBlockMajor(Vec U, IS isq, IS isp, PetscBool *blockmajor)
{
  PetscBool stride[2];
  PetscInt  lo, nloc, first[2], step[2], n[2];
  IS        is[2] = {isq, isp};

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(U, &lo, NULL));
  PetscCall(VecGetLocalSize(U, &nloc));
  for (PetscInt b = 0; b < 2; b++) {
    PetscCall(PetscObjectTypeCompare((PetscObject)is[b], ISSTRIDE, &stride[b]));
    if (stride[b]) PetscCall(ISStrideGetInfo(is[b], &first[b], &step[b]));
    PetscCall(ISGetLocalSize(is[b], &n[b]));
  }
  *blockmajor = (PetscBool)(stride[0] && stride[1] && 2 * n[0] == nloc && n[1] == n[0] && first[0] == lo && step[0] == 1 && first[1] == lo + n[0] && step[1] == 1);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, blockmajor, 1, SIMPVI_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)U)));
  PetscFunctionReturn(0);
}

/* dF/dU + a dF/dU' = [ L_vx + a L_vv , -I ; -L_xx - a L_xv , a I ] at (t, a) = (ps->t, ps->shift) */
static PetscErrorCode Assemble(void *ctx, Mat J)
{
  SimpVIPhaseSpace ps = (SimpVIPhaseSpace)ctx;
  const PetscReal  t = ps->t, a = ps->shift;
  SimpVITerm      *terms  = ps->prob->terms;
  PetscInt         nterms = 0, lo, hi;
  PetscLayout      map;

  PetscFunctionBegin;
  PetscCall(VecGetLayout(ps->q, &map));
  PetscCall(ps->prob->door->terms(ps->ts, ps->prob, t, ps->q, ps->qdot, SIMPVI_NEED_ALL, &nterms, terms));
  for (PetscInt k = 0; k < nterms; k++) {
    const PetscBool onq   = (PetscBool)(terms[k].block == SIMPVI_BLOCK_PX || terms[k].block == SIMPVI_BLOCK_PV);
    const PetscBool byvel = (PetscBool)(terms[k].block == SIMPVI_BLOCK_PV || terms[k].block == SIMPVI_BLOCK_GV);
    PetscScalar     scale = terms[k].scale * (onq ? 1 : -1) * (byvel ? a : 1);

    if (ps->blockmajor) { /* U = (q, p) is the 2-block layout of the positions: the shared block assembly */
      PetscScalar coef[4] = {0, 0, 0, 0};

      coef[onq ? 0 : 2] = scale; /* rows q or p, columns q */
      PetscCall(SimpVIMatAddBlocks_Private(J, map, terms[k].A, terms[k].transpose, 2, coef));
    } else PetscCall(AddBlock(J, terms[k].A, terms[k].transpose, scale, onq ? ps->qidx : ps->pidx, ps->qidx));
  }
  if (ps->blockmajor) {
    const PetscScalar coef[4] = {0, -1, 0, a};

    PetscCall(SimpVIMatAddBlocks_Private(J, map, NULL, PETSC_FALSE, 2, coef));
  } else {
    PetscCall(VecGetOwnershipRange(ps->q, &lo, &hi));
    for (PetscInt i = lo; i < hi; i++) {
      PetscCall(MatSetValue(J, ps->qidx[i], ps->pidx[i], -1, ADD_VALUES));
      PetscCall(MatSetValue(J, ps->pidx[i], ps->pidx[i], a, ADD_VALUES));
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode IJacobian_PhaseSpace(TS ts, PetscReal t, Vec U, Vec Udot, PetscReal a, Mat A, Mat B, void *ctx)
{
  SimpVIPhaseSpace ps = (SimpVIPhaseSpace)ctx;

  PetscFunctionBegin;
  PetscCall(SimpVIPhaseSpaceSplit_Private(U, ps->isq, ps->isp, ps->q, ps->p));
  PetscCall(SimpVIPhaseSpaceSplit_Private(Udot, ps->isq, ps->isp, ps->qdot, ps->pdot));
  ps->t     = t;
  ps->shift = a;
  PetscCall(SimpVIMatFill_Private(B, &ps->Jpreallocated, Assemble, ps));
  if (A != B) {
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* Adds scale * A (positions x parameters) into the rows of U that idx[] gives for the local positions */
static PetscErrorCode AddParameterRows(Mat J, Mat A, const PetscInt idx[], PetscScalar scale)
{
  PetscInt rstart, rend;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; r++) {
    PetscInt           ncols;
    const PetscInt    *cols;
    const PetscScalar *vals;

    PetscCall(MatGetRow(A, r, &ncols, &cols, &vals));
    for (PetscInt j = 0; j < ncols; j++) PetscCall(MatSetValue(J, idx[r - rstart], cols[j], scale * vals[j], ADD_VALUES));
    PetscCall(MatRestoreRow(A, r, &ncols, &cols, &vals));
  }
  PetscFunctionReturn(0);
}

/* dF/dtheta of the implicit form F = (P(t, q, q') - p, p' - G(t, q, q')): the door's dP/dtheta in the rows of q and
   -dG/dtheta in the rows of p (TSSimpVISetParameterJacobian()), shaped like U as TSSetIJacobianP() wants */
static PetscErrorCode IJacobianP_PhaseSpace(TS ts, PetscReal t, Vec U, Vec Udot, PetscReal shift, Mat A, void *ctx)
{
  SimpVIPhaseSpace ps = (SimpVIPhaseSpace)ctx;
  SimpVIUser      *u  = &ps->prob->user;
  const PetscInt  *qi, *pi;

  PetscFunctionBegin;
  PetscCall(SimpVIPhaseSpaceSplit_Private(U, ps->isq, ps->isp, ps->q, ps->p));
  PetscCall(SimpVIPhaseSpaceSplit_Private(Udot, ps->isq, ps->isp, ps->qdot, ps->pdot));
  SimpVICallBack(ps->ts, "TSSIMPVI parameter Jacobian (phase-space form)", u->paramfn(ps->ts, t, ps->q, ps->qdot, u->Pth, u->Gth, u->paramctx));
  PetscCall(MatZeroEntries(A));
  PetscCall(ISGetIndices(ps->isq, &qi));
  PetscCall(ISGetIndices(ps->isp, &pi));
  if (u->Pth) PetscCall(AddParameterRows(A, u->Pth, qi, 1));
  if (u->Gth) PetscCall(AddParameterRows(A, u->Gth, pi, -1));
  PetscCall(ISRestoreIndices(ps->isq, &qi));
  PetscCall(ISRestoreIndices(ps->isp, &pi));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* dF/dtheta of the explicit form U' = (v, G(t, q, v)), v = L_v^{-1}(q, p): (0, dG/dtheta) when P does not depend on
   theta (dv/dtheta = 0), in the layout TSSetRHSJacobianP() wants */
static PetscErrorCode RHSJacobianP_PhaseSpace(TS ts, PetscReal t, Vec U, Mat A, void *ctx)
{
  SimpVIPhaseSpace ps = (SimpVIPhaseSpace)ctx;
  SimpVIUser      *u  = &ps->prob->user;
  const PetscInt  *pi;

  PetscFunctionBegin;
  PetscCheck(!u->Pth, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "The explicit phase-space form of TSSimpVISetUpPhaseSpace() (TS type %s) has no parameter Jacobian when P = dL/dv depends on the parameters (dP/dtheta given to TSSimpVISetParameterJacobian()): use an implicit type (-ts_type theta, cn, beuler) or give dF/dtheta yourself with TSSetRHSJacobianP()",
             ((PetscObject)ts)->type_name);
  PetscCall(SimpVIPhaseSpaceSplit_Private(U, ps->isq, ps->isp, ps->q, ps->p));
  PetscCall(SimpVILegendreInverse_Private(ps->ts, ps->prob, t, ps->q, ps->p, ps->v));
  SimpVICallBack(ps->ts, "TSSIMPVI parameter Jacobian (phase-space form)", u->paramfn(ps->ts, t, ps->q, ps->v, u->Pth, u->Gth, u->paramctx));
  PetscCall(MatZeroEntries(A));
  PetscCall(ISGetIndices(ps->isp, &pi));
  PetscCall(AddParameterRows(A, u->Gth, pi, 1));
  PetscCall(ISRestoreIndices(ps->isp, &pi));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/*
  SimpVIPhaseSpaceSetParameterJacobian_Private - registers the parameter Jacobian of TSSimpVISetParameterJacobian()
  in the shape of the phase-space form (rows of U = (q, p), not of the positions), as TSSetIJacobianP() for the
  implicit form and TSSetRHSJacobianP() for the explicit one, so that theta's (or rk's) adjoint gets mu. Does nothing
  without a phase-space form or a parameter Jacobian.
*/
PetscErrorCode SimpVIPhaseSpaceSetParameterJacobian_Private(TS ts, SimpVIProblem *prob)
{
  SimpVIPhaseSpace ps = prob->ps;
  SimpVIUser      *u  = &prob->user;
  Mat              A, Th = u->Gth ? u->Gth : u->Pth;
  PetscInt         nloc, N, ncloc, Nc, nq;
  PetscBool        isbsymp, issimpvi;

  PetscFunctionBegin;
  if (!ps || !u->paramfn) PetscFunctionReturn(0);
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSBASICSYMPLECTIC, &isbsymp));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &issimpvi));
  if (isbsymp || issimpvi) PetscFunctionReturn(0); /* no adjoint; simpvi's own */
  PetscCall(VecGetLocalSize(ps->q, &nq));
  for (PetscInt k = 0; k < 2; k++) {
    Mat      B = k ? u->Gth : u->Pth;
    PetscInt rloc;

    if (!B) continue;
    PetscCall(MatGetLocalSize(B, &rloc, NULL));
    PetscCheck(rloc == nq, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_SIZ, "The %s matrix of TSSimpVISetParameterJacobian() has %" PetscInt_FMT " local rows, the positions %" PetscInt_FMT, k ? "dG/dtheta" : "dP/dtheta", rloc, nq);
  }
  nloc = 2 * nq;
  PetscCall(VecGetSize(ps->q, &N));
  N *= 2;
  PetscCall(MatGetLocalSize(Th, NULL, &ncloc));
  PetscCall(MatGetSize(Th, NULL, &Nc));
  PetscCall(MatCreateDense(PetscObjectComm((PetscObject)ts), nloc, ncloc, N, Nc, NULL, &A));
  /* the other form's, of an earlier call for another type: gone, or an implicit type's adjoint adds both */
  if (ts->usessnes && ts->rhsjacobianp == RHSJacobianP_PhaseSpace) {
    ts->rhsjacobianp = NULL;
    PetscCall(MatDestroy(&ts->Jacprhs));
  }
  if (!ts->usessnes && ts->ijacobianp == IJacobianP_PhaseSpace) {
    ts->ijacobianp = NULL;
    PetscCall(MatDestroy(&ts->Jacp));
  }
  if (ts->usessnes) PetscCall(TSSetIJacobianP(ts, A, IJacobianP_PhaseSpace, ps));
  else {
    PetscCall(TSSetRHSJacobianP(ts, A, RHSJacobianP_PhaseSpace, ps));
    if (ts->Jacp == u->Pth || ts->Jacp == u->Gth) PetscCall(MatDestroy(&ts->Jacp)); /* the positions-shaped one of TSSimpVISetParameterJacobian() */
  }
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(0);
}

static PetscErrorCode RHSFunction_PhaseSpace(TS ts, PetscReal t, Vec U, Vec F, void *ctx)
{
  SimpVIPhaseSpace ps = (SimpVIPhaseSpace)ctx;

  PetscFunctionBegin;
  PetscCall(SimpVIPhaseSpaceSplit_Private(U, ps->isq, ps->isp, ps->q, ps->p));
  PetscCall(SimpVILegendreInverse_Private(ps->ts, ps->prob, t, ps->q, ps->p, ps->v)); /* warm start: last v */
  PetscCall(ps->prob->door->pg(ps->ts, ps->prob, t, ps->q, ps->v, ps->P, ps->G));
  PetscCall(SimpVIPhaseSpaceJoin_Private(ps->v, ps->G, ps->isq, ps->isp, F));
  PetscFunctionReturn(0);
}

/* The explicit form's Jacobian, a shell: F = (v, G(t, q, v)) with v = P_v^{-1}(q, p) solved for, so
     J (dq, dp) = (dv, G_x dq + G_v dv),   dv = P_v^{-1} (dp - P_x dq),
     J' (a, b)  = (G_x' b - P_x' z, z),    z  = P_v^{-T} (a + G_v' b),
   from the door's terms at (t, q, v), copied (the door's own matrices are overwritten by the next velocity solve,
   which rk's adjoint makes between computing J and applying it) */
typedef struct {
  SimpVIPhaseSpace ps;
  PetscInt         nterms;
  SimpVITerm      *terms; /* copies of the door's terms, door->maxterms of them */
  Mat              Pv;    /* the copy of the P_v term */
  KSP              ksp;   /* P_v, own solver (prefix -ts_simpvi_velocity_) */
  Vec              a, b, w, z, y;
} ExplicitJacobian;

/* y += sum over the terms of block blk of scale A x (or A' x when transpose) */
static PetscErrorCode ApplyBlock(ExplicitJacobian *ej, SimpVIBlock blk, PetscBool transpose, Vec x, Vec y)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < ej->nterms; k++) {
    SimpVITerm *tm = &ej->terms[k];

    if (tm->block != blk) continue;
    if ((PetscBool)(tm->transpose != transpose)) PetscCall(MatMultTranspose(tm->A, x, ej->w));
    else PetscCall(MatMult(tm->A, x, ej->w));
    PetscCall(VecAXPY(y, tm->scale, ej->w));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMult_ExplicitJacobian(Mat J, Vec X, Vec Y)
{
  ExplicitJacobian *ej;
  SimpVIPhaseSpace  ps;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(J, &ej));
  ps = ej->ps;
  PetscCall(SimpVIPhaseSpaceSplit_Private(X, ps->isq, ps->isp, ej->a, ej->b)); /* (dq, dp) */
  PetscCall(VecScale(ej->b, -1));
  PetscCall(ApplyBlock(ej, SIMPVI_BLOCK_PX, PETSC_FALSE, ej->a, ej->b)); /* P_x dq - dp */
  PetscCall(VecScale(ej->b, -1));
  PetscCall(KSPSolve(ej->ksp, ej->b, ej->z)); /* dv */
  PetscCall(VecSet(ej->y, 0));
  PetscCall(ApplyBlock(ej, SIMPVI_BLOCK_GX, PETSC_FALSE, ej->a, ej->y));
  PetscCall(ApplyBlock(ej, SIMPVI_BLOCK_GV, PETSC_FALSE, ej->z, ej->y));
  PetscCall(SimpVIPhaseSpaceJoin_Private(ej->z, ej->y, ps->isq, ps->isp, Y));
  PetscFunctionReturn(0);
}

static PetscErrorCode MatMultTranspose_ExplicitJacobian(Mat J, Vec X, Vec Y)
{
  ExplicitJacobian *ej;
  SimpVIPhaseSpace  ps;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(J, &ej));
  ps = ej->ps;
  PetscCall(SimpVIPhaseSpaceSplit_Private(X, ps->isq, ps->isp, ej->a, ej->b)); /* (a, b) */
  PetscCall(ApplyBlock(ej, SIMPVI_BLOCK_GV, PETSC_TRUE, ej->b, ej->a));        /* a + G_v' b */
  PetscCall(KSPSolveTranspose(ej->ksp, ej->a, ej->z));
  PetscCall(VecSet(ej->y, 0));
  PetscCall(ApplyBlock(ej, SIMPVI_BLOCK_PX, PETSC_TRUE, ej->z, ej->y));
  PetscCall(VecScale(ej->y, -1));
  PetscCall(ApplyBlock(ej, SIMPVI_BLOCK_GX, PETSC_TRUE, ej->b, ej->y));
  PetscCall(SimpVIPhaseSpaceJoin_Private(ej->y, ej->z, ps->isq, ps->isp, Y));
  PetscFunctionReturn(0);
}

static PetscErrorCode ExplicitJacobianResetTerms(ExplicitJacobian *ej)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < ej->nterms; k++) PetscCall(MatDestroy(&ej->terms[k].A));
  ej->nterms = 0;
  ej->Pv     = NULL;
  PetscFunctionReturn(0);
}

static PetscErrorCode MatDestroy_ExplicitJacobian(Mat J)
{
  ExplicitJacobian *ej;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(J, &ej));
  PetscCall(ExplicitJacobianResetTerms(ej));
  PetscCall(PetscFree(ej->terms));
  PetscCall(KSPDestroy(&ej->ksp));
  PetscCall(VecDestroy(&ej->a));
  PetscCall(VecDestroy(&ej->b));
  PetscCall(VecDestroy(&ej->w));
  PetscCall(VecDestroy(&ej->z));
  PetscCall(VecDestroy(&ej->y));
  PetscCall(PetscFree(ej));
  PetscFunctionReturn(0);
}

/* dF/dU of the explicit form at (t, U): the door's terms at (t, q, v(q, p)), copied into the shell */
static PetscErrorCode RHSJacobian_PhaseSpace(TS ts, PetscReal t, Vec U, Mat A, Mat B, void *ctx)
{
  SimpVIPhaseSpace  ps   = (SimpVIPhaseSpace)ctx;
  SimpVIProblem    *prob = ps->prob;
  ExplicitJacobian *ej;
  PetscInt          nterms = 0, N;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &ej));
  PetscCall(SimpVIPhaseSpaceSplit_Private(U, ps->isq, ps->isp, ps->q, ps->p));
  PetscCall(SimpVILegendreInverse_Private(ps->ts, prob, t, ps->q, ps->p, ps->v));
  PetscCall(prob->door->terms(ps->ts, prob, t, ps->q, ps->v, SIMPVI_NEED_ALL, &nterms, prob->terms));
  PetscCall(ExplicitJacobianResetTerms(ej));
  for (PetscInt k = 0; k < nterms; k++) {
    ej->terms[k] = prob->terms[k];
    PetscCall(MatDuplicate(prob->terms[k].A, MAT_COPY_VALUES, &ej->terms[k].A));
    if (prob->terms[k].block == SIMPVI_BLOCK_PV) ej->Pv = ej->terms[k].A; /* one P_v term, as the velocity solve reads it */
  }
  ej->nterms = nterms;
  PetscCheck(ej->Pv, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "The Lagrangian has no L_vv block: no Jacobian of the explicit phase-space form");
  if (!ej->ksp) {
    PetscCall(KSPCreate(PetscObjectComm((PetscObject)ts), &ej->ksp));
    PetscCall(KSPSetOptionsPrefix(ej->ksp, ((PetscObject)ps->ts)->prefix));
    PetscCall(KSPAppendOptionsPrefix(ej->ksp, "ts_simpvi_velocity_"));
    PetscCall(MatGetSize(ej->Pv, &N, NULL));
    PetscCall(SimpVIDefaultLinearSolver_Private(ej->ksp, N, prob->directlimit, PETSC_TRUE, PETSC_FALSE, NULL));
    PetscCall(KSPSetTolerances(ej->ksp, 1e-14, 1e-50, PETSC_DEFAULT, PETSC_DEFAULT)); /* an adjoint as exact as the map */
    PetscCall(KSPSetFromOptions(ej->ksp));
  }
  PetscCall(KSPSetOperators(ej->ksp, ej->Pv, ej->Pv));
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  if (B != A) {
    PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* The shell of RHSJacobian_PhaseSpace() for the explicit types' adjoints (rk, euler, ...) */
static PetscErrorCode ExplicitJacobianCreate(SimpVIPhaseSpace ps, Vec U, Mat *J)
{
  ExplicitJacobian *ej;
  PetscInt          nloc, N;

  PetscFunctionBegin;
  PetscCall(PetscNew(&ej));
  ej->ps = ps;
  PetscCall(PetscMalloc1(ps->prob->door->maxterms, &ej->terms));
  PetscCall(VecDuplicate(ps->q, &ej->a));
  PetscCall(VecDuplicate(ps->q, &ej->b));
  PetscCall(VecDuplicate(ps->q, &ej->w));
  PetscCall(VecDuplicate(ps->q, &ej->z));
  PetscCall(VecDuplicate(ps->q, &ej->y));
  PetscCall(VecGetLocalSize(U, &nloc));
  PetscCall(VecGetSize(U, &N));
  PetscCall(MatCreateShell(PetscObjectComm((PetscObject)U), nloc, nloc, N, N, ej, J));
  PetscCall(MatShellSetOperation(*J, MATOP_MULT, (void (*)(void))MatMult_ExplicitJacobian));
  PetscCall(MatShellSetOperation(*J, MATOP_MULT_TRANSPOSE, (void (*)(void))MatMultTranspose_ExplicitJacobian));
  PetscCall(MatShellSetOperation(*J, MATOP_DESTROY, (void (*)(void))MatDestroy_ExplicitJacobian));
  PetscFunctionReturn(0);
}

/* basicsymplectic's splits: q' = M^{-1} p from the momenta, p' = -grad V(q) from the positions */
static PetscErrorCode PositionRate(TS sub, PetscReal t, Vec p, Vec qdot, void *ctx)
{
  SimpVIPhaseSpace ps = (SimpVIPhaseSpace)ctx;

  PetscFunctionBegin;
  PetscCall(VecCopy(ps->v, qdot));
  PetscCall(SimpVILegendreInverse_Private(ps->ts, ps->prob, t, ps->prob->zero, p, qdot));
  PetscCall(VecCopy(qdot, ps->v));
  PetscFunctionReturn(0);
}

static PetscErrorCode MomentumRate(TS sub, PetscReal t, Vec q, Vec pdot, void *ctx)
{
  SimpVIPhaseSpace ps = (SimpVIPhaseSpace)ctx;

  PetscFunctionBegin;
  PetscCall(ps->prob->door->pg(ps->ts, ps->prob, t, q, ps->prob->zero, ps->P, pdot));
  PetscFunctionReturn(0);
}

/*@
  TSSimpVISetUpPhaseSpace - Gives a `TS` of any type the phase-space form U = (q, p) of the mechanics set with
  `TSSimpVISetLagrangian()` or `TSSimpVISetMass()`/`TSSimpVISetPotential()`, so the same program runs under
  `TSSIMPVI` and PETSc's own integrators

  Collective

  Input Parameter:
. ts - the `TS`, its type chosen (call after `TSSetFromOptions()`) and its solution U = (q, p) set

  Notes:
  `TSSIMPVI` needs nothing: the call returns at once. Types that use a nonlinear solver (theta, bdf, arkimex, ...)
  get an IFunction F = (L_v(q, q') - p, p' - L_x(q, q')) with its analytic IJacobian; explicit types (rk, euler,
  ssp, ...) get U' = (v, L_x(q, v)) with v from p by the Legendre transform; `TSBASICSYMPLECTIC` gets the
  "position" and "momentum" splits q' = M^{-1} p, p' = -grad V(q), which need a constant mass. `TSALPHA2` needs the
  second-order form instead (see tutorials/ex3.c).

  For `TSAdjointSolve()` under the type's own adjoint: explicit types also get the Jacobian of U' (a shell matrix whose
  products go through solves with L_vv, unless a `TSSetRHSJacobian()` of the user's is there), and with
  `TSSimpVISetParameterJacobian()` the form gets its parameter Jacobian dF/dtheta (rows of U = (q, p)):
  `TSSetIJacobianP()` for the implicit types (theta, cn, beuler), `TSSetRHSJacobianP()` for the explicit ones (rk;
  they need dP/dtheta NULL, an error says so otherwise).

  The IFunction's dF/dU' = [L_vv 0; -L_xv I] is not the identity, so the `TS` is marked `TS_EQ_ODE_IMPLICIT`.
  `TSIRK` builds its stage Jacobian as if dF/dU' = I and does not check that its Newton iteration converged: on this
  form it stops with an error in its Jacobian; run it matrix-free (-snes_mf -pc_type none), which never calls that.

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVISetLagrangian()`, `TSSimpVISetMass()`, `TSSimpVIComputeEnergy()`
@*/
PetscErrorCode TSSimpVISetUpPhaseSpace(TS ts)
{
  SimpVIProblem    *prob;
  SimpVIPhaseSpace  ps;
  PetscBool         issimpvi, isbsymp, isalpha2;
  const SimpVIDoor *door;
  Vec               U, sub;
  PetscInt          nloc, N;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &issimpvi));
  if (issimpvi) PetscFunctionReturn(0);
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSBASICSYMPLECTIC, &isbsymp));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSALPHA2, &isalpha2));
  PetscCheck(!isalpha2, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSALPHA2 integrates the second-order form M a + f = 0: set it with TSSetI2Function() (see tutorials/ex3.c)");
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
  PetscCheck(!prob || !prob->user.rbn, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "Rigid bodies (TSSimpVISetRigidBodies()) are stepped by TSSIMPVI only (-ts_type simpvi): the phase-space form that PETSc's other TS types integrate has no rotations");
  door = NULL;
  if (prob) PetscCall(SimpVIProblemNativeDoor_Private(ts, prob, &door));
  PetscCheck(door, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "No mechanics to put in phase space: call TSSimpVISetLagrangian(), TSSimpVISetPointwiseLagrangian() or TSSimpVISetMass()/TSSimpVISetPotential()");
  PetscCheck(!prob->user.confn && !prob->user.ceqfn, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "The phase-space form has no holonomic constraints (TSSimpVISetConstraints(), TSSimpVISetEqualityConstraintsRoutine()): they are TSSIMPVI's");
  { /* TSTHETA's endpoint form (cn) evaluates F at the step's start as F(t0, U0, 0) plus dF/dU' U': right where dF/dU' is
       constant only, which the form's P(t, q, q') - p is for a constant mass alone */
    PetscBool cn, theta, endpoint = PETSC_FALSE;

    PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSCN, &cn));
    PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSTHETA, &theta));
    if (theta) PetscCall(TSThetaGetEndpoint(ts, &endpoint));
    PetscCheck(!(cn || endpoint) || (door->separable && door->separable(prob)), PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TS %s (TSTHETA's endpoint form) takes F(t, U, U') affine in U' with a constant dF/dU', and the phase-space form of the %s door has dF/dq' = dP/dv, which depends on the state (a configuration-dependent mass, or a Lagrangian; only a constant mass through TSSimpVISetMass() qualifies): use theta (its midpoint form), beuler, bdf or rk", cn ? "cn" : "theta with -ts_theta_endpoint",
               door->name);
  }
  PetscObjectOptionsBegin((PetscObject)ts); /* the one option of this form: the default solver of the velocity solves */
  PetscCall(SimpVIDirectLimitOption_Private(ts, PetscOptionsObject, prob));
  PetscOptionsEnd();
  PetscCall(TSGetSolution(ts, &U));
  PetscCheck(U, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "Call TSSetSolution() with U = (q, p) first");

  PetscCall(SimpVIPhaseSpaceDestroy_Private(&prob->ps));
  PetscCall(PetscNew(&ps));
  prob->ps = ps;
  ps->ts   = ts;
  ps->prob = prob;
  PetscCall(SimpVIProblemSplit_Private(ts, U, &ps->isq, &ps->isp));
  PetscCall(VecGetSubVector(U, ps->isq, &sub));
  PetscCall(VecDuplicate(sub, &ps->q));
  PetscCall(VecRestoreSubVector(U, ps->isq, &sub));
  PetscCall(VecDuplicate(ps->q, &ps->p));
  PetscCall(VecDuplicate(ps->q, &ps->qdot));
  PetscCall(VecDuplicate(ps->q, &ps->pdot));
  PetscCall(VecDuplicate(ps->q, &ps->v));
  PetscCall(VecDuplicate(ps->q, &ps->P));
  PetscCall(VecDuplicate(ps->q, &ps->G));
  PetscCall(SimpVIProblemSetUp_Private(ts, prob, door, ps->q));

  { /* the form an earlier call gave another type (rk's right-hand side, theta's implicit function): gone, or the next
       type would take both (theta's Jacobian then reads rk's shell Jacobian row by row: a crash) */
    DM            dm;
    TSRHSFunction rhs;
    TSRHSJacobian rhsjac;
    TSIFunction   ifn;
    TSIJacobian   ijac;

    PetscCall(TSGetDM(ts, &dm));
    PetscCall(DMTSGetRHSFunction(dm, &rhs, NULL));
    PetscCall(DMTSGetRHSJacobian(dm, &rhsjac, NULL));
    PetscCall(DMTSGetIFunction(dm, &ifn, NULL));
    PetscCall(DMTSGetIJacobian(dm, &ijac, NULL));
    if (rhs == RHSFunction_PhaseSpace || rhsjac == RHSJacobian_PhaseSpace || ifn == IFunction_PhaseSpace || ijac == IJacobian_PhaseSpace) {
      DMTS tsdm; /* (DMTSSet...() keep a function given NULL) */

      PetscCall(DMGetDMTSWrite(dm, &tsdm));
      if (rhs == RHSFunction_PhaseSpace) tsdm->ops->rhsfunction = NULL;
      if (rhsjac == RHSJacobian_PhaseSpace) tsdm->ops->rhsjacobian = NULL;
      if (ifn == IFunction_PhaseSpace) tsdm->ops->ifunction = NULL;
      if (ijac == IJacobian_PhaseSpace) tsdm->ops->ijacobian = NULL;
    }
  }
  if (isbsymp) {
    PetscCheck(door->separable && door->separable(prob) && !prob->user.forcefn, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSBASICSYMPLECTIC needs a separable Hamiltonian: a constant mass (TSSimpVISetMass() without a callback), a potential and no force");
    PetscCall(TSRHSSplitSetIS(ts, "position", ps->isq));
    PetscCall(TSRHSSplitSetIS(ts, "momentum", ps->isp));
    PetscCall(TSRHSSplitSetRHSFunction(ts, "position", NULL, PositionRate, ps));
    PetscCall(TSRHSSplitSetRHSFunction(ts, "momentum", NULL, MomentumRate, ps));
  } else if (!ts->usessnes) {
    TSRHSJacobian rhsjac;
    DM            dm;

    PetscCall(TSSetRHSFunction(ts, NULL, RHSFunction_PhaseSpace, ps));
    PetscCall(TSGetDM(ts, &dm));
    PetscCall(DMTSGetRHSJacobian(dm, &rhsjac, NULL));
    if (!rhsjac || rhsjac == RHSJacobian_PhaseSpace) { /* one of the user's own stays; ours of an earlier call goes with its ps */
      Mat J;

      PetscCall(ExplicitJacobianCreate(ps, U, &J));
      PetscCall(TSSetRHSJacobian(ts, J, J, RHSJacobian_PhaseSpace, ps));
      PetscCall(MatDestroy(&J));
    }
  } else {
    PetscCall(VecGetLocalSize(U, &nloc));
    PetscCall(VecGetSize(U, &N));
    PetscCall(IsBlockMajor(U, ps->isq, ps->isp, &ps->blockmajor));
    if (!ps->blockmajor) { /* any other split: the U index of every position, gathered */
      PetscCall(ISAllGather(ps->isq, &ps->allq));
      PetscCall(ISAllGather(ps->isp, &ps->allp));
      PetscCall(ISGetIndices(ps->allq, &ps->qidx));
      PetscCall(ISGetIndices(ps->allp, &ps->pidx));
    }
    PetscCall(MatCreate(PetscObjectComm((PetscObject)ts), &ps->J));
    PetscCall(MatSetSizes(ps->J, nloc, nloc, N, N));
    PetscCall(MatSetType(ps->J, MATAIJ));
    /* dF/dU' = [L_vv 0; -L_xv I] is not the identity: say so, or TSIRK (which builds its stage Jacobian as if it
       were, and steps over a diverged SNES) returns a wrong answer silently; with it TSIRK stops with an error */
    PetscCall(TSSetEquationType(ts, TS_EQ_ODE_IMPLICIT));
    PetscCall(TSSetIFunction(ts, NULL, IFunction_PhaseSpace, ps));
    PetscCall(TSSetIJacobian(ts, ps->J, ps->J, IJacobian_PhaseSpace, ps));
  }
  PetscCall(SimpVIPhaseSpaceSetParameterJacobian_Private(ts, prob)); /* theta's adjoint gets mu in U's shape */
  PetscFunctionReturn(0);
}
