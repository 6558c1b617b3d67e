/*
   The linearisation of one step in its start (q0, p0) and its transpose: the tangent map and the discrete adjoint of
   the step map (q0, p0) -> (q1, p1) of src/core/step.c. With x_k = q0 + sum_l B_kl Z_l, v_k = (1/h) sum_l D_kl Z_l,
     R_i  = d_i0 p0 + sum_k w_k [D_ki P_k + h B_ki G_k]   (i = 0..s-1),   J = dR/dZ,
     q1   = q0 + Z_s,   p1 = p0 + h sum_k w_k G_k,
   so dZ = -J^{-1} (R_q0 dq0 + E_0 dp0) with R_q0 block i = sum_k w_k [D_ki P_x + h B_ki G_x](k), and the adjoint
   (lq, lp) of (q1, p1) pulls back through one transposed solve J' m = g_Z:
     g_Z block l = d_ls lq + sum_k [h w_k B_kl G_x' + w_k D_kl G_v'](k) lp,
     lq0 = lq + h sum_k w_k G_x' lp - R_q0' m,   lp0 = lp - m_0.
   The door's terms at the quadrature points (the same matrices the step Jacobian is assembled from) give every
   product; nothing here is approximated, so the adjoint is the exact transpose of the tangent map. With holonomic
   constraints the step vector carries the multipliers too and J is the whole saddle-point matrix; the constraints'
   terms in q0, the multipliers' forces in p1 and the end projection (its linearisation and transpose) come from
   src/core/constraints.c. Knows nothing of TS.
*/
#include <petsc/private/petscimpl.h>
#include <simpvi/private/stepimpl.h>

/* y += alpha op(T) x, op(T) = scale A (A' for a transposed term), or its transpose when transposed */
static PetscErrorCode TermMult(const SimpVITerm *T, PetscBool transposed, PetscScalar alpha, Vec x, Vec y, Vec work)
{
  PetscFunctionBegin;
  if (!T->A) PetscCall(VecCopy(x, work));
  else if (T->transpose != transposed) PetscCall(MatMultTranspose(T->A, x, work));
  else PetscCall(MatMult(T->A, x, work));
  PetscCall(VecAXPY(y, alpha * T->scale, work));
  PetscFunctionReturn(0);
}

/* The views of the s blocks of a step-shaped vector (on each process block a holds [a n, (a + 1) n)) */
static PetscErrorCode BlocksPlace(SimpVIStepAdjoint adj, Vec Y, Vec views[], PetscScalar **array)
{
  PetscFunctionBegin;
  PetscCall(VecGetArray(Y, array));
  for (PetscInt a = 0; a < adj->s; a++) PetscCall(VecPlaceArray(views[a], *array + a * adj->nloc));
  PetscFunctionReturn(0);
}

static PetscErrorCode BlocksReset(SimpVIStepAdjoint adj, Vec Y, Vec views[], PetscScalar **array)
{
  PetscFunctionBegin;
  for (PetscInt a = 0; a < adj->s; a++) PetscCall(VecResetArray(views[a]));
  PetscCall(VecRestoreArray(Y, array));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepAdjointCreate_Private - the work space of the step's tangent and adjoint maps for ncost adjoint vectors
  (parameter-shaped vectors are made on first use from the mu given)
*/
PetscErrorCode SimpVIStepAdjointCreate_Private(SimpVIStep st, PetscInt ncost, SimpVIStepAdjoint *adjoint)
{
  SimpVIStepAdjoint adj;
  MPI_Comm          comm;
  PetscMPIInt       size;
  PetscInt          N;

  PetscFunctionBegin;
  PetscCall(PetscNew(&adj));
  adj->s     = st->scheme->degree;
  adj->ncost = PetscMax(ncost, 1);
  PetscCall(VecGetLocalSize(st->q0, &adj->nloc));
  PetscCall(VecGetSize(st->q0, &N));
  PetscCall(PetscObjectGetComm((PetscObject)st->q0, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(VecDuplicateVecs(st->Y, adj->ncost, &adj->gZ));
  PetscCall(VecDuplicateVecs(st->Y, adj->ncost, &adj->m));
  PetscCall(VecDuplicateVecs(st->q0, adj->ncost, &adj->gq));
  PetscCall(VecDuplicateVecs(st->q0, adj->ncost, &adj->rq));
  PetscCall(VecDuplicateVecs(st->q0, adj->ncost, &adj->rp));
  PetscCall(VecDuplicate(st->q0, &adj->a));
  PetscCall(VecDuplicate(st->q0, &adj->b));
  PetscCall(VecDuplicate(st->q0, &adj->work));
  PetscCall(PetscMalloc2(adj->s, &adj->views, adj->s, &adj->mviews));
  for (PetscInt a = 0; a < adj->s; a++) {
    if (size == 1) {
      PetscCall(VecCreateSeqWithArray(comm, 1, adj->nloc, NULL, &adj->views[a]));
      PetscCall(VecCreateSeqWithArray(comm, 1, adj->nloc, NULL, &adj->mviews[a]));
    } else {
      PetscCall(VecCreateMPIWithArray(comm, 1, adj->nloc, N, NULL, &adj->views[a]));
      PetscCall(VecCreateMPIWithArray(comm, 1, adj->nloc, N, NULL, &adj->mviews[a]));
    }
  }
  PetscCall(PetscMalloc1(adj->s + 1, &adj->coef));
  *adjoint = adj;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIStepAdjointDestroy_Private(SimpVIStepAdjoint *adjoint)
{
  SimpVIStepAdjoint adj = *adjoint;

  PetscFunctionBegin;
  if (!adj) PetscFunctionReturn(0);
  PetscCall(VecDestroyVecs(adj->ncost, &adj->gZ));
  PetscCall(VecDestroyVecs(adj->ncost, &adj->m));
  PetscCall(VecDestroyVecs(adj->ncost, &adj->gq));
  PetscCall(VecDestroyVecs(adj->ncost, &adj->rq));
  PetscCall(VecDestroyVecs(adj->ncost, &adj->rp));
  if (adj->rtheta) PetscCall(VecDestroyVecs(adj->ncost, &adj->rtheta));
  PetscCall(VecDestroy(&adj->thwork));
  PetscCall(VecDestroy(&adj->a));
  PetscCall(VecDestroy(&adj->b));
  PetscCall(VecDestroy(&adj->work));
  for (PetscInt a = 0; a < adj->s; a++) {
    PetscCall(VecDestroy(&adj->views[a]));
    PetscCall(VecDestroy(&adj->mviews[a]));
  }
  PetscCall(PetscFree2(adj->views, adj->mviews));
  PetscCall(PetscFree(adj->coef));
  PetscCall(PetscFree(*adjoint));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepLinearize_Private - the door at the quadrature points of the step vector st->Y (from st->q0, st->p0 at
  st->t with step st->h) and the step Jacobian st->J there: what the tangent and adjoint maps are made of
*/
PetscErrorCode SimpVIStepLinearize_Private(SimpVIStep st)
{
  PetscFunctionBegin;
  if (st->layout.nmultiplier) PetscCall(SimpVIStepConstraintMultipliers_Private(st)); /* the stages hold no multipliers */
  PetscCall(SimpVIStepJacobian_Private(st, st->Y, st->J));
  PetscCall(SimpVIStepResidual_Private(st, st->Y, st->R)); /* after: a linear step's Jacobian probes elsewhere */
  if (st->layout.nmultiplier) PetscCall(SimpVIStepConstraintLinearize_Private(st));
  PetscFunctionReturn(0);
}

/* The door's terms at quadrature point k, all blocks (the adjoint needs G_x where the step Jacobian does not: at a
   Lobatto scheme's first node x = q0) */
static PetscErrorCode PointTerms(SimpVIStep st, PetscInt k, PetscInt *nterms)
{
  PetscFunctionBegin;
  *nterms = 0;
  PetscCall(st->door.terms(st->door.ctx, st->t + st->scheme->tau[k] * st->h, st->X[k], st->V[k], SIMPVI_NEED_ALL, nterms, st->terms));
  PetscFunctionReturn(0);
}

/* The parameter derivatives of P and G at quadrature point k, when the sensitivity has them */
static PetscErrorCode PointParameters(SimpVIStep st, const SimpVIStepSensitivity *sens, PetscInt k, Mat *Pth, Mat *Gth)
{
  PetscFunctionBegin;
  *Pth = *Gth = NULL;
  if (sens && sens->paramjac) PetscCall(sens->paramjac(sens->ctx, st->t + st->scheme->tau[k] * st->h, st->X[k], st->V[k], Pth, Gth));
  PetscFunctionReturn(0);
}

/* y += alpha A' x, or y += alpha A x (A may be NULL: nothing) */
static PetscErrorCode ParamMult(Mat A, PetscBool transposed, PetscScalar alpha, Vec x, Vec y, Vec work)
{
  PetscFunctionBegin;
  if (!A) PetscFunctionReturn(0);
  if (transposed) PetscCall(MatMultTranspose(A, x, work));
  else PetscCall(MatMult(A, x, work));
  PetscCall(VecAXPY(y, alpha, work));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepTangent_Private - the tangent map of the linearised step (SimpVIStepLinearize_Private()):
  (dq1, dp1) = d(q1, p1)/d(q0, p0, theta) (dq0, dp0, dtheta), with one solve of the step Jacobian by ksp;
  dtheta may be NULL (no parameter part)
*/
PetscErrorCode SimpVIStepTangent_Private(SimpVIStep st, SimpVIStepAdjoint adj, KSP ksp, const SimpVIStepSensitivity *sens, Vec dq0, Vec dp0, Vec dtheta, Vec dq1, Vec dp1)
{
  const SimpVIScheme *sc = st->scheme;
  const PetscInt      s = sc->degree, nq = sc->nq;
  const SimpVIKernel  K   = st->kernel;
  Vec                 rhs = adj->gZ[0], dZ = adj->m[0], *rv = adj->views, *zv = adj->mviews;
  PetscScalar        *r, *z;

  PetscFunctionBegin;
  PetscCheck(!dtheta || !st->layout.nmultiplier, PETSC_COMM_SELF, PETSC_ERR_SUP, "The tangent map in parameters of a step with holonomic constraints is not there yet");
  PetscCall(SimpVIKernelSetStepSize(K, st->h));
  /* rhs = -(R_q0 dq0 + R_theta dtheta) - E_0 dp0 */
  PetscCall(VecSet(rhs, 0));
  PetscCall(BlocksPlace(adj, rhs, rv, &r));
  for (PetscInt k = 0; k < nq; k++) {
    PetscInt nterms;
    Mat      Pth, Gth;

    PetscCall(PointTerms(st, k, &nterms));
    PetscCall(VecSet(adj->a, 0)); /* P_x dq0 (+ P_theta dtheta) */
    PetscCall(VecSet(adj->b, 0)); /* G_x dq0 (+ G_theta dtheta) */
    for (PetscInt t = 0; t < nterms; t++) {
      if (st->terms[t].block == SIMPVI_BLOCK_PX) PetscCall(TermMult(&st->terms[t], PETSC_FALSE, 1, dq0, adj->a, adj->work));
      if (st->terms[t].block == SIMPVI_BLOCK_GX) PetscCall(TermMult(&st->terms[t], PETSC_FALSE, 1, dq0, adj->b, adj->work));
    }
    if (dtheta) {
      PetscCall(PointParameters(st, sens, k, &Pth, &Gth));
      PetscCall(ParamMult(Pth, PETSC_FALSE, 1, dtheta, adj->a, adj->work));
      PetscCall(ParamMult(Gth, PETSC_FALSE, 1, dtheta, adj->b, adj->work));
    }
    for (PetscInt i = 0; i < s; i++) PetscCall(VecAXPBYPCZ(rv[i], -K->pc[i * nq + k], -K->gc[i * nq + k], 1, adj->a, adj->b));
  }
  PetscCall(VecAXPY(rv[0], -1, dp0));
  PetscCall(BlocksReset(adj, rhs, rv, &r));
  if (st->layout.nmultiplier) { /* the constraints' rows and forces in q0 */
    const PetscScalar *d;

    PetscCall(VecGetArrayRead(dq0, &d));
    PetscCall(VecGetArray(rhs, &r));
    PetscCall(SimpVIStepConstraintTangentStart_Private(st, d, r));
    PetscCall(VecRestoreArray(rhs, &r));
    PetscCall(VecRestoreArrayRead(dq0, &d));
  }
  PetscCall(KSPSetOperators(ksp, st->J, st->J));
  PetscCall(KSPSolve(ksp, rhs, dZ));

  /* dq1 = dq0 + dZ_s, dp1 = dp0 + h sum_k w_k (G_x dx_k + G_v dv_k + G_theta dtheta) */
  PetscCall(BlocksPlace(adj, dZ, zv, &z));
  PetscCall(VecWAXPY(dq1, 1, dq0, zv[s - 1]));
  PetscCall(VecCopy(dp0, dp1));
  for (PetscInt k = 0; k < nq; k++) {
    PetscInt nterms;
    Mat      Pth, Gth;

    PetscCall(VecCopy(dq0, adj->a)); /* dx_k */
    PetscCall(VecMAXPY(adj->a, s, &K->xc[k * s], zv));
    PetscCall(VecSet(adj->b, 0)); /* dv_k */
    PetscCall(VecMAXPY(adj->b, s, &K->vc[k * s], zv));
    PetscCall(PointTerms(st, k, &nterms));
    for (PetscInt t = 0; t < nterms; t++) {
      if (st->terms[t].block == SIMPVI_BLOCK_GX) PetscCall(TermMult(&st->terms[t], PETSC_FALSE, K->mc[k], adj->a, dp1, adj->work));
      if (st->terms[t].block == SIMPVI_BLOCK_GV) PetscCall(TermMult(&st->terms[t], PETSC_FALSE, K->mc[k], adj->b, dp1, adj->work));
    }
    if (dtheta) {
      PetscCall(PointParameters(st, sens, k, &Pth, &Gth));
      PetscCall(ParamMult(Gth, PETSC_FALSE, K->mc[k], dtheta, dp1, adj->work));
    }
  }
  PetscCall(BlocksReset(adj, dZ, zv, &z));
  if (st->layout.nmultiplier) { /* the multipliers' forces and the end projection */
    const PetscScalar *d, *y;
    PetscScalar       *p;

    PetscCall(VecGetArrayRead(dq0, &d));
    PetscCall(VecGetArrayRead(dZ, &y));
    PetscCall(VecGetArray(dp1, &p));
    PetscCall(SimpVIStepConstraintTangentEnd_Private(st, d, y, p));
    PetscCall(VecRestoreArray(dp1, &p));
    PetscCall(VecRestoreArrayRead(dZ, &y));
    PetscCall(VecRestoreArrayRead(dq0, &d));
  }
  PetscFunctionReturn(0);
}

/* The parameter-shaped work vectors, made like mu */
static PetscErrorCode ParameterWork(SimpVIStepAdjoint adj, Vec mu)
{
  PetscFunctionBegin;
  if (adj->thwork) PetscFunctionReturn(0);
  PetscCall(VecDuplicate(mu, &adj->thwork));
  PetscCall(VecDuplicateVecs(mu, adj->ncost, &adj->rtheta));
  PetscFunctionReturn(0);
}

/*
  SimpVIStepAdjoint_Private - the adjoint of the linearised step (SimpVIStepLinearize_Private()): (lq[n], lp[n]),
  the gradients of cost n in (q1, p1), become its gradients in (q0, p0), with one transposed solve of the step
  Jacobian by ksp per cost. sens (may be NULL) adds a cost integrand, integrated with the scheme's quadrature as
  h sum_k w_k r(t_k, x_k, P_k), and the parameter derivatives of P and G; mu[n] (NULL: none) accumulates the
  gradients in the parameters.
*/
PetscErrorCode SimpVIStepAdjoint_Private(SimpVIStep st, SimpVIStepAdjoint adj, KSP ksp, const SimpVIStepSensitivity *sens, PetscInt ncost, Vec lq[], Vec lp[], Vec mu[])
{
  const SimpVIScheme *sc = st->scheme;
  const PetscInt      s = sc->degree, nq = sc->nq;
  const PetscReal     h         = st->h;
  const SimpVIKernel  K         = st->kernel;
  const PetscBool     integrand = (PetscBool)(sens && sens->integrand);
  Vec                *gv = adj->views, *mv = adj->mviews;
  PetscScalar        *g, *m;

  PetscFunctionBegin;
  PetscCheck(ncost <= adj->ncost, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Adjoint work space for %" PetscInt_FMT " costs, not %" PetscInt_FMT, adj->ncost, ncost);
  PetscCheck(!mu || !st->layout.nmultiplier, PETSC_COMM_SELF, PETSC_ERR_SUP, "The adjoint in parameters of a step with holonomic constraints is not there yet");
  if (mu) PetscCall(ParameterWork(adj, mu[0]));
  PetscCall(SimpVIKernelSetStepSize(K, h));
  for (PetscInt n = 0; n < ncost; n++) {
    if (st->layout.nmultiplier) { /* through the end projection: lq, lp of (q1, pt) from here on */
      PetscScalar *a, *b;

      PetscCall(VecGetArray(lq[n], &a));
      PetscCall(VecGetArray(lp[n], &b));
      PetscCall(SimpVIStepConstraintAdjointEnd_Private(st, a, b));
      PetscCall(VecRestoreArray(lp[n], &b));
      PetscCall(VecRestoreArray(lq[n], &a));
    }
    PetscCall(VecSet(adj->gZ[n], 0));
    PetscCall(VecCopy(lq[n], adj->gq[n]));
  }

  /* g_Z and the direct part of lq0: from p1 = p0 + h sum_k w_k G_k and the cost integrand */
  for (PetscInt k = 0; k < nq; k++) {
    const PetscReal hw = K->mc[k];
    PetscInt        nterms;

    if (integrand) PetscCall(sens->integrand(sens->ctx, st->t + sc->tau[k] * h, st->X[k], st->P[k], adj->rq, adj->rp, mu ? adj->rtheta : NULL));
    PetscCall(PointTerms(st, k, &nterms));
    for (PetscInt n = 0; n < ncost; n++) {
      PetscCall(VecSet(adj->a, 0)); /* the coefficient of dx_k */
      PetscCall(VecSet(adj->b, 0)); /* the coefficient of dv_k */
      for (PetscInt t = 0; t < nterms; t++) {
        const SimpVITerm *T = &st->terms[t];

        if (T->block == SIMPVI_BLOCK_GX) PetscCall(TermMult(T, PETSC_TRUE, hw, lp[n], adj->a, adj->work));
        if (T->block == SIMPVI_BLOCK_GV) PetscCall(TermMult(T, PETSC_TRUE, hw, lp[n], adj->b, adj->work));
        if (integrand && T->block == SIMPVI_BLOCK_PX) PetscCall(TermMult(T, PETSC_TRUE, hw, adj->rp[n], adj->a, adj->work));
        if (integrand && T->block == SIMPVI_BLOCK_PV) PetscCall(TermMult(T, PETSC_TRUE, hw, adj->rp[n], adj->b, adj->work));
      }
      if (integrand) {
        PetscCall(VecAXPY(adj->a, hw, adj->rq[n]));
        if (mu) PetscCall(VecAXPY(mu[n], hw, adj->rtheta[n]));
      }
      /* dx_k = dq0 + sum_l B_kl dZ_l, dv_k = (1/h) sum_l D_kl dZ_l */
      PetscCall(VecAXPY(adj->gq[n], 1, adj->a));
      PetscCall(BlocksPlace(adj, adj->gZ[n], gv, &g));
      for (PetscInt l = 0; l < s; l++) PetscCall(VecAXPBYPCZ(gv[l], K->xc[k * s + l], K->vc[k * s + l], 1, adj->a, adj->b));
      PetscCall(BlocksReset(adj, adj->gZ[n], gv, &g));
    }
  }
  for (PetscInt n = 0; n < ncost; n++) {
    PetscCall(BlocksPlace(adj, adj->gZ[n], gv, &g));
    PetscCall(VecAXPY(gv[s - 1], 1, lq[n])); /* q1 = q0 + Z_s */
    PetscCall(BlocksReset(adj, adj->gZ[n], gv, &g));
    if (st->layout.nmultiplier) { /* the multipliers' forces in pt */
      const PetscScalar *l;
      PetscScalar       *q;

      PetscCall(VecGetArrayRead(lp[n], &l));
      PetscCall(VecGetArray(adj->gZ[n], &g));
      PetscCall(VecGetArray(adj->gq[n], &q));
      PetscCall(SimpVIStepConstraintAdjointMomentum_Private(st, l, g, q));
      PetscCall(VecRestoreArray(adj->gq[n], &q));
      PetscCall(VecRestoreArray(adj->gZ[n], &g));
      PetscCall(VecRestoreArrayRead(lp[n], &l));
    }
  }

  /* J' m = g_Z */
  PetscCall(KSPSetOperators(ksp, st->J, st->J));
  for (PetscInt n = 0; n < ncost; n++) PetscCall(KSPSolveTranspose(ksp, adj->gZ[n], adj->m[n]));

  /* lq0 = g_q0 - R_q0' m, lp0 = lp - m_0, mu += h sum_k w_k G_theta' lp - R_theta' m */
  for (PetscInt k = 0; k < nq; k++) {
    PetscInt nterms;
    Mat      Pth = NULL, Gth = NULL;

    PetscCall(PointTerms(st, k, &nterms));
    if (mu) PetscCall(PointParameters(st, sens, k, &Pth, &Gth));
    for (PetscInt n = 0; n < ncost; n++) {
      PetscCall(BlocksPlace(adj, adj->m[n], mv, &m));
      for (PetscInt i = 0; i < s; i++) adj->coef[i] = K->pc[i * nq + k];
      PetscCall(VecSet(adj->a, 0)); /* sum_i w_k D_ki m_i */
      PetscCall(VecMAXPY(adj->a, s, adj->coef, mv));
      for (PetscInt i = 0; i < s; i++) adj->coef[i] = K->gc[i * nq + k];
      PetscCall(VecSet(adj->b, 0)); /* sum_i h w_k B_ki m_i */
      PetscCall(VecMAXPY(adj->b, s, adj->coef, mv));
      PetscCall(BlocksReset(adj, adj->m[n], mv, &m));
      for (PetscInt t = 0; t < nterms; t++) {
        const SimpVITerm *T = &st->terms[t];

        if (T->block == SIMPVI_BLOCK_PX) PetscCall(TermMult(T, PETSC_TRUE, -1, adj->a, adj->gq[n], adj->work));
        if (T->block == SIMPVI_BLOCK_GX) PetscCall(TermMult(T, PETSC_TRUE, -1, adj->b, adj->gq[n], adj->work));
      }
      if (mu) {
        PetscCall(ParamMult(Gth, PETSC_TRUE, K->mc[k], lp[n], mu[n], adj->thwork));
        PetscCall(ParamMult(Pth, PETSC_TRUE, -1, adj->a, mu[n], adj->thwork));
        PetscCall(ParamMult(Gth, PETSC_TRUE, -1, adj->b, mu[n], adj->thwork));
      }
    }
  }
  for (PetscInt n = 0; n < ncost; n++) {
    if (st->layout.nmultiplier) { /* the constraints' part of -dF/dq0' m */
      const PetscScalar *mm;
      PetscScalar       *q;

      PetscCall(VecGetArrayRead(adj->m[n], &mm));
      PetscCall(VecGetArray(adj->gq[n], &q));
      PetscCall(SimpVIStepConstraintAdjointStart_Private(st, mm, q));
      PetscCall(VecRestoreArray(adj->gq[n], &q));
      PetscCall(VecRestoreArrayRead(adj->m[n], &mm));
    }
    PetscCall(VecCopy(adj->gq[n], lq[n]));
    PetscCall(BlocksPlace(adj, adj->m[n], mv, &m));
    PetscCall(VecAXPY(lp[n], -1, mv[0]));
    PetscCall(BlocksReset(adj, adj->m[n], mv, &m));
  }
  PetscFunctionReturn(0);
}

/*
  SimpVIStepIntegral_Private - h sum_k w_k r(t_k, x_k, P_k) of the step into Q (added), r given by integrand(ctx, t,
  x, P, r): the cost integral with the scheme's own quadrature, at the points of the step vector st->Y
*/
PetscErrorCode SimpVIStepIntegral_Private(SimpVIStep st, PetscErrorCode (*integrand)(void *, PetscReal, Vec, Vec, Vec), void *ctx, Vec r, Vec Q)
{
  const SimpVIScheme *sc = st->scheme;

  PetscFunctionBegin;
  PetscCall(SimpVIStepResidual_Private(st, st->Y, st->R)); /* the points of st->Y (no work when they are current) */
  for (PetscInt k = 0; k < sc->nq; k++) {
    PetscCall(integrand(ctx, st->t + sc->tau[k] * st->h, st->X[k], st->P[k], r));
    PetscCall(VecAXPY(Q, st->kernel->mc[k], r)); /* the residual set the kernel's step size */
  }
  PetscFunctionReturn(0);
}
