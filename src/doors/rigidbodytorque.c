/*
   Torques on rigid bodies (Lagrange-d'Alembert; docs/mathematics.md, "Rigid bodies on SO(3)", "Torques"): a body-frame
   torque tau does the virtual work tau . zeta on the body-frame variation zeta = T(xi) dxi of the step's curve
   R0 exp(xi), so at each quadrature point it enters the step's equations where the potential's gradient g does, with
   the opposite sign: the step uses g - tau. Its derivative along R exp(zeta) enters with H (H - tauR, written so that
   the step's diagonal correction 1/2 hat(g - tau) gives H + 1/2 hat(g) - tauR), and its Omega part, Omega = T(xi) u,
   through M(xi, u) and T(xi) into G_xi, G_u and the start's Legendre row (src/doors/rigidbody.c).
*/
#include <simpvi/private/liegroup.h> /*I "simpvi.h" I*/
#include <simpvi/private/rigidbodyimpl.h>

/* C = A B, C = A' B (3 x 3 blocks of row-major matrices with leading dimensions) */
static inline void Block(const PetscReal *A, PetscInt lda, const PetscReal *B, PetscInt ldb, PetscBool transA, PetscReal C[9])
{
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) {
      C[i * 3 + j] = 0;
      for (PetscInt l = 0; l < 3; l++) C[i * 3 + j] += (transA ? A[l * lda + i] : A[i * lda + l]) * B[l * ldb + j];
    }
}

/* At quadrature point k (R_k, T_k, u_k evaluated, g and H the potential's): Omega_k, the torques, g -= tau and
   with jac H -= tauR - 1/2 hat(tau_b) on the diagonal blocks */
PetscErrorCode SimpVIRigidBodiesTorque_Private(SimpVIRigidBodies rb, PetscInt k, PetscBool jac)
{
  const PetscInt   nb = rb->nb, n = rb->n;
  const PetscReal *u = rb->u + k * n, *T = rb->T + 9 * nb * k, t = rb->t0 + rb->K->tau[k] * rb->h;
  PetscReal       *tth = rb->wanttheta && rb->np ? rb->tth + k * n * rb->np : NULL;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < nb; b++)
    for (PetscInt i = 0; i < 3; i++) rb->Om[3 * b + i] = T[9 * b + 3 * i] * u[3 * b] + T[9 * b + 3 * i + 1] * u[3 * b + 1] + T[9 * b + 3 * i + 2] * u[3 * b + 2];
  for (PetscInt j = 0; jac && j < n * n; j++) rb->tR[j] = rb->tO[j] = 0;
  for (PetscInt j = 0; tth && j < n * rb->np; j++) tth[j] = 0;
  PetscCall(rb->tau(nb, t, rb->Rk, rb->Om, rb->tk, jac ? rb->tR : NULL, jac ? rb->tO : NULL, tth, rb->tauctx));
  for (PetscInt j = 0; j < n; j++) rb->g[j] -= rb->tk[j];
  if (!jac) PetscFunctionReturn(0);
  for (PetscInt j = 0; j < n * n; j++) rb->H[j] -= rb->tR[j];
  for (PetscInt b = 0; b < nb; b++) {
    PetscReal *Hb = rb->H + 3 * b * n + 3 * b, *tb = rb->tk + 3 * b;

    Hb[1] -= tb[2] / 2, Hb[2] += tb[1] / 2, Hb[n] += tb[2] / 2, Hb[n + 2] -= tb[0] / 2, Hb[2 * n] -= tb[1] / 2, Hb[2 * n + 1] += tb[0] / 2;
  }
  PetscFunctionReturn(0);
}

/* The torques' Omega part at point k, Omega_c = T_c u_c: with A = dtau_b/dOmega_c, G_xi += T_b' A M_c, G_u += T_b' A T_c,
   d(E_b g_b)/dxi_c -= E_b A M_c, d(E_b g_b)/du_c = -E_b A T_c */
PetscErrorCode SimpVIRigidBodiesTorqueJacobian_Private(SimpVIRigidBodies rb, PetscInt k)
{
  const PetscInt   nb = rb->nb, n = rb->n, nn = n * n;
  const PetscReal *x = rb->xi + k * n, *u = rb->u + k * n, *T = rb->T + 9 * nb * k, *E = rb->E + 9 * nb * k;
  PetscReal       *Gx = rb->Gx + nn * k, *Gv = rb->Gv + nn * k, *dEg = rb->dEg + nn * k, *dEu = rb->dEu + nn * k;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < nb; c++)
    for (PetscInt a = 0; a < 3; a++) {
      const PetscReal e[3] = {a == 0, a == 1, a == 2};

      PetscCall(SimpVISO3DexpDerivative(x + 3 * c, e, u + 3 * c, NULL, rb->M + 9 * c + 3 * a, NULL)); /* M(xi_c, u_c), row a */
    }
  for (PetscInt j = 0; j < nn; j++) dEu[j] = 0;
  for (PetscInt b = 0; b < nb; b++)
    for (PetscInt c = 0; c < nb; c++) {
      const PetscReal *A = rb->tO + 3 * b * n + 3 * c;
      PetscReal        AM[9], AT[9], X[9];

      Block(A, n, rb->M + 9 * c, 3, PETSC_FALSE, AM);
      Block(A, n, T + 9 * c, 3, PETSC_FALSE, AT);
      Block(T + 9 * b, 3, AM, 3, PETSC_TRUE, X);
      for (PetscInt i = 0; i < 3; i++)
        for (PetscInt j = 0; j < 3; j++) Gx[(3 * b + i) * n + 3 * c + j] += X[i * 3 + j];
      Block(T + 9 * b, 3, AT, 3, PETSC_TRUE, X);
      for (PetscInt i = 0; i < 3; i++)
        for (PetscInt j = 0; j < 3; j++) Gv[(3 * b + i) * n + 3 * c + j] += X[i * 3 + j];
      Block(E + 9 * b, 3, AM, 3, PETSC_FALSE, X);
      for (PetscInt i = 0; i < 3; i++)
        for (PetscInt j = 0; j < 3; j++) dEg[(3 * b + i) * n + 3 * c + j] -= X[i * 3 + j];
      Block(E + 9 * b, 3, AT, 3, PETSC_FALSE, X);
      for (PetscInt i = 0; i < 3; i++)
        for (PetscInt j = 0; j < 3; j++) dEu[(3 * b + i) * n + 3 * c + j] = -X[i * 3 + j];
    }
  PetscFunctionReturn(0);
}

/*@C
  SimpVIRigidBodiesSetTorque - Gives rigid bodies (`TSSimpVICreateRigidBodies()`) torques tau(t, R, Omega; theta) in
  their body frames, beside their potential

  Not Collective

  Input Parameters:
+ rb      - the rigid bodies
. nparams - the number of parameters theta the torques depend on (0: none), for gradients in them (`TSSimpVISetRigidBodyTorque()`)
. tau     - the torques and their derivatives, `SimpVIRigidBodyTorqueFn`
- ctx     - its context (may be `NULL`)

  Level: intermediate

  Note:
  The step (Lagrange-d'Alembert) adds the virtual work h sum_k w_k tau_k . zeta_k of the torques at the quadrature
  points t0 + tau_k h of the step, zeta_k = T(xi_k) dxi_k the body-frame variation of the curve R0 exp(xi): the torques
  enter every equation as the potential's gradient g does, with the opposite sign, and the end momentum is
  pi1 = exp(-xi_s)(pi0 - h sum_k w_k exp(xi_k) (g_k - tau_k)), so R1 pi1 = R0 pi0 + h sum_k w_k R_k (tau_k - g_k): a
  torque fixed in space, tau_k = R_k' tau_s, changes the spatial momentum by exactly h tau_s per step. The step's
  Jacobian takes the exact derivatives tauR and tauO. The object's own steps (`SimpVIRigidBodiesStep()`) start at
  t = 0 (`SimpVIRigidBodiesSetTime()`) and advance it by h.

.seealso: `TSSimpVISetRigidBodyTorque()`, `SimpVIRigidBodyTorqueFn`, `TSSimpVICreateRigidBodies()`, `SimpVIRigidBodiesSetTime()`
@*/
PetscErrorCode SimpVIRigidBodiesSetTorque(SimpVIRigidBodies rb, PetscInt nparams, SimpVIRigidBodyTorqueFn tau, void *ctx)
{
  const PetscInt n = rb->n;

  PetscFunctionBegin;
  SimpVIAssertPointer(rb, 1);
  PetscCheck(nparams >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Number of parameters %" PetscInt_FMT " must not be negative", nparams);
  PetscCheck(!rb->vec || !tau, PETSC_COMM_SELF, PETSC_ERR_SUP, "Rigid bodies in the Vec/Mat form (TSSimpVISetRigidBodyInertias()) take no torques yet");
  PetscCall(PetscFree7(rb->Om, rb->tk, rb->tR, rb->tO, rb->M, rb->dEu, rb->tth));
  rb->tau    = tau;
  rb->tauctx = ctx;
  rb->np     = tau ? nparams : 0;
  if (!tau) PetscFunctionReturn(0);
  PetscCall(PetscMalloc7(n, &rb->Om, n, &rb->tk, n * n, &rb->tR, n * n, &rb->tO, 3 * n, &rb->M, rb->nq * n * n, &rb->dEu, rb->nq * n * PetscMax(nparams, 1), &rb->tth));
  PetscFunctionReturn(0);
}

/*@C
  SimpVIRigidBodiesSetTime - Sets the time of the start of the rigid bodies' next step (`SimpVIRigidBodiesStep()`), which
  time-dependent torques see

  Not Collective

  Input Parameters:
+ rb - the rigid bodies
- t  - the time

  Level: intermediate

.seealso: `SimpVIRigidBodiesSetTorque()`, `SimpVIRigidBodiesStep()`
@*/
PetscErrorCode SimpVIRigidBodiesSetTime(SimpVIRigidBodies rb, PetscReal t)
{
  PetscFunctionBegin;
  SimpVIAssertPointer(rb, 1);
  rb->t0 = t;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetRigidBodyTorque - Gives the rigid bodies of `TSSimpVISetRigidBodies()` torques tau(t, R, Omega; theta) in
  their body frames (Lagrange-d'Alembert), beside their potential

  Logically Collective

  Input Parameters:
+ ts      - the `TS`
. nparams - the number of parameters theta the torques depend on, for the gradients mu of `TSAdjointSolve()` (0: none)
. tau     - the torques and their derivatives, `SimpVIRigidBodyTorqueFn`
- ctx     - its context (may be `NULL`)

  Level: intermediate

  Notes:
  `SimpVIRigidBodiesSetTorque()` says how they enter the step. At each quadrature point of a step the function gets
  the time, the attitudes and the body angular velocities Omega_b = T(xi) xi' of the step's curve, and returns the
  body-frame torques with (when asked) their derivatives: along R_c exp(hat(zeta_c)) in zeta_c, in Omega_c, and in the
  parameters. A torque fixed in space tau_s on body b is R_b' tau_s, with tauR_bb = hat(R_b' tau_s).

  With nparams > 0, `TSSetCostGradients()` takes mu (vectors of nparams entries) and `TSAdjointSolve()` adds to them
  the exact gradient of the cost in theta through the torques; the `TS`'s parameter Jacobian (`TSSetIJacobianP()`,
  which `TSAdjointSetUp()` asks for) is then a placeholder set here. This does not go through `TSSimpVISetForce()`,
  whose x and v are vectors of a vector space: the torques live in the body frames of the group.

.seealso: `TSSimpVISetRigidBodies()`, `SimpVIRigidBodyTorqueFn`, `SimpVIRigidBodiesSetTorque()`, `TSSetCostGradients()`, `TSAdjointSolve()`
@*/
PetscErrorCode TSSimpVISetRigidBodyTorque(TS ts, PetscInt nparams, SimpVIRigidBodyTorqueFn tau, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ts, nparams, 2);
  PetscCheck(nparams >= 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "Number of parameters %" PetscInt_FMT " must not be negative", nparams);
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  prob->user.rbtau    = tau;
  prob->user.rbtauctx = ctx;
  prob->user.rbnp     = tau ? nparams : 0;
  if (tau && nparams) { /* TSAdjointSetUp() asks for a parameter Jacobian before it takes mu: a placeholder */
    Mat Jp;

    PetscCall(MatCreateDense(PetscObjectComm((PetscObject)ts), PETSC_DECIDE, PETSC_DECIDE, 1, nparams, NULL, &Jp));
    PetscCall(TSSetIJacobianP(ts, Jp, NULL, NULL));
    PetscCall(MatDestroy(&Jp));
  }
  PetscFunctionReturn(0);
}
