/*
   The exact discrete adjoint of the rigid-body step (src/doors/rigidbody.c) on SO(3) (docs/mathematics.md, "Rigid
   bodies on SO(3)", "The adjoint on the group"). The step maps (R0, pi0) to (R1, pi1) through its unknowns Z = (xi_1, ..,
   xi_s), F(Z; R0, pi0) = 0. A perturbation R0 exp(eta), pi0 + dpi moves the end to R1 exp(eta1), pi1 + dpi1; the adjoint
   takes the cotangent (nu1, l1) of the end (nu1 . eta1 + l1 . dpi1) to that of the start by the implicit function
   theorem: J' y = (dOut/dZ)' (nu1, l1) with J = dF/dZ (the step's Jacobian), then (nu0, l0) = (dOut/d(eta, pi0))' (nu1, l1)
   - (dF/d(eta, pi0))' y. The start's attitude enters the residual only through the forces at the quadrature points:
   R_k = R0 exp(xi_k) moves by the body-frame zeta_k = exp(xi_k)' eta, so g_k moves by Hg_k exp(xi_k)' eta (Hg_k the
   left-trivialised derivative of the gradient, as the Jacobian's). Every term is then a sum over the quadrature points
   of the force's derivative dg_k against a vector c_k (below), which the parameter gradients share.
*/
#include <simpvi/private/liegroup.h>
#include <simpvi/private/rigidbodyimpl.h>

static inline void MatVec3(const PetscReal A[9], const PetscReal x[3], PetscReal y[3])
{
  for (PetscInt i = 0; i < 3; i++) y[i] = A[i * 3] * x[0] + A[i * 3 + 1] * x[1] + A[i * 3 + 2] * x[2];
}
static inline void MatTVec3(const PetscReal A[9], const PetscReal x[3], PetscReal y[3])
{
  for (PetscInt i = 0; i < 3; i++) y[i] = A[i] * x[0] + A[3 + i] * x[1] + A[6 + i] * x[2];
}

/*
  SimpVIRigidBodiesAdjoint_Private - lambda_j from lambda_{j+1} over one step of the rigid bodies

  Input: the step's start U0, its solution Z (3 s k entries), size h and start time t0, its end U1; ncost cost
  gradients lam[c] (12 k entries: dC/dR ambient, 9 per body, then dC/dpi), replaced by the gradients at U0: the R part
  the tangent matrix R0 hat(nu0)/2 (the projection of an ambient gradient onto T_R0 SO(3)), so that
  <lam_R, R0 hat(eta)> = nu0 . eta. With np > 0 and mu, mu[c] (np entries) gets the parameter part (the torques').
*/
PetscErrorCode SimpVIRigidBodiesAdjoint_Private(SimpVIRigidBodies rb, Vec U0, const PetscReal Zs[], PetscReal h, PetscReal t0, Vec U1, PetscInt ncost, PetscReal *lam[], PetscInt np, PetscReal *mu[], SimpVIRigidIntegrandGradientFn integrand, void *ictx)
{
  const PetscInt     nb = rb->nb, n = rb->n, s = rb->s, nq = rb->nq, m = rb->m, nn = n * n, s1 = s + 1;
  const PetscReal   *w = rb->K->w, *B = rb->K->B, *D = rb->K->D;
  const PetscScalar *u0;
  PetscReal         *gU = NULL, *gth = NULL, *nuI; /* the cost integrand's gradients at the points: nq x ncost x 12 k (and x np) */
  PetscScalar       *z;
  PetscReal         *LU, *a, *y, *c, *nu1, *l1, *Esl, *Es, *Ts, *Tsinv, *nu0, *u1;
  PetscBLASInt       bm, one = 1, info = 0;

  PetscFunctionBegin;
  PetscCheck(np == rb->np || !mu, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%" PetscInt_FMT " parameters, the torques have %" PetscInt_FMT, np, rb->np);
  if (!rb->adjwork) PetscCall(PetscMalloc2(m * m + 2 * m + nq * n + 5 * n + 27 * nb + 24 * nb, &rb->adjwork, m, &rb->ipiv));
  LU = rb->adjwork, a = LU + m * m, y = a + m, c = y + m, nu1 = c + nq * n, l1 = nu1 + n, Esl = l1 + n, nu0 = Esl + n, Es = nu0 + n, Ts = Es + 9 * nb, Tsinv = Ts + 9 * nb, u1 = Tsinv + 9 * nb, nuI = u1 + 12 * nb;
  /* the step at its solution: the quadrature points and J = dF/dZ (rb->Jd, row-major: as a column-major array J') */
  PetscCall(SimpVIRigidBodiesSetStep(rb, h, U0));
  rb->t0        = t0;
  rb->wanttheta = (PetscBool)(mu && np > 0); /* the Jacobian's evaluation keeps d tau/dtheta */
  PetscCall(VecGetArray(rb->Z, &z));
  PetscCall(PetscArraycpy(z, Zs, m));
  PetscCall(VecRestoreArray(rb->Z, &z));
  PetscCall(SimpVIRigidBodiesJacobian_Private(rb, rb->Z));
  rb->wanttheta = PETSC_FALSE;
  PetscCall(PetscArraycpy(LU, rb->Jd, m * m));
  PetscCall(PetscBLASIntCast(m, &bm));
  PetscCallBLAS("LAPACKgetrf", LAPACKgetrf_(&bm, &bm, LU, &bm, rb->ipiv, &info));
  PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "The rigid-body step's Jacobian is singular (LAPACK getrf info %d): no adjoint", (int)info);
  for (PetscInt b = 0; b < nb; b++) {
    PetscCall(SimpVISO3Exp(Zs + (s - 1) * n + 3 * b, Es + 9 * b));
    PetscCall(SimpVISO3Dexp(Zs + (s - 1) * n + 3 * b, Ts + 9 * b, Tsinv + 9 * b));
  }
  PetscCall(VecGetArrayRead(U0, &u0));
  /* the end (R1, pi1) from the step itself, not from a TSTrajectory's state (a recomputing one may hold another step's) */
  (void)U1;
  for (PetscInt b = 0; b < nb; b++) {
    PetscReal mu[3];

    SimpVISO3Multiply(u0 + 9 * b, Es + 9 * b, u1 + 9 * b);
    for (PetscInt j = 0; j < 3; j++) {
      mu[j] = u0[9 * nb + 3 * b + j];
      for (PetscInt k = 0; k < nq; k++) mu[j] -= h * w[k] * rb->Eg[k * n + 3 * b + j];
    }
    MatTVec3(Es + 9 * b, mu, u1 + 9 * nb + 3 * b);
  }
  if (integrand) { /* r(t_k, U_k) of a cost integral h sum_k w_k r: its ambient gradients at the step's points */
    PetscReal **gUk, **gthk;

    PetscCall(PetscCalloc2(nq * ncost * 12 * nb, &gU, mu ? nq * ncost * np : 0, &gth));
    PetscCall(PetscMalloc2(ncost, &gUk, ncost, &gthk));
    for (PetscInt k = 0; k < nq; k++) {
      PetscReal t, *Uk = nuI + n; /* the 12 k entries past nuI, the work's end */

      PetscCall(SimpVIRigidBodiesPointState_Private(rb, k, &t, Uk));
      for (PetscInt ic = 0; ic < ncost; ic++) {
        gUk[ic]  = gU + (k * ncost + ic) * 12 * nb;
        gthk[ic] = mu ? gth + (k * ncost + ic) * np : NULL;
      }
      PetscCall(integrand(ictx, t, Uk, gUk, mu ? gthk : NULL));
    }
    PetscCall(PetscFree2(gUk, gthk));
  }
  for (PetscInt ic = 0; ic < ncost; ic++) {
    PetscReal *lc = lam[ic];

    /* the end's cotangent: nu1 = vee(A - A'), A = R1' dC/dR1 (the tangent part of the ambient gradient), l1 = dC/dpi1 */
    for (PetscInt b = 0; b < nb; b++) {
      const PetscScalar *R1 = u1 + 9 * b;
      const PetscReal   *G  = lc + 9 * b;
      PetscReal          A[9];

      for (PetscInt i = 0; i < 3; i++)
        for (PetscInt j = 0; j < 3; j++) A[i * 3 + j] = R1[i] * G[j] + R1[3 + i] * G[3 + j] + R1[6 + i] * G[6 + j];
      nu1[3 * b] = A[7] - A[5], nu1[3 * b + 1] = A[2] - A[6], nu1[3 * b + 2] = A[3] - A[1];
      for (PetscInt j = 0; j < 3; j++) l1[3 * b + j] = lc[9 * nb + 3 * b + j];
      MatVec3(Es + 9 * b, l1 + 3 * b, Esl + 3 * b); /* exp(xi_s) l1: pi1 = exp(xi_s)' mu */
    }
    /* a = (dOut/dZ)' (nu1, l1): eta1 = T_s dxi_s; dpi1 = hat(pi1) T_s dxi_s - exp(xi_s)' h sum_k w_k d(E_k g_k)/dZ */
    for (PetscInt j = 0; j < m; j++) a[j] = 0;
    for (PetscInt b = 0; b < nb; b++) {
      const PetscScalar *p1   = u1 + 9 * nb + 3 * b;
      const PetscReal   *l    = l1 + 3 * b;
      PetscReal          v[3] = {nu1[3 * b] + l[1] * p1[2] - l[2] * p1[1], nu1[3 * b + 1] + l[2] * p1[0] - l[0] * p1[2], nu1[3 * b + 2] + l[0] * p1[1] - l[1] * p1[0]}, Tv[3];

      MatTVec3(Ts + 9 * b, v, Tv);
      for (PetscInt j = 0; j < 3; j++) a[(s - 1) * n + 3 * b + j] += Tv[j];
    }
    for (PetscInt k = 0; k < nq; k++) {
      const PetscReal *dEg = rb->dEg + nn * k;

      for (PetscInt l = 1; l <= s; l++) {
        const PetscReal cb = h * w[k] * B[k * s1 + l], cd = rb->tau ? w[k] * D[k * s1 + l] : 0; /* u_k = sum_l D_kl xi_l / h: the torques' Omega */

        for (PetscInt col = 0; col < n; col++) {
          PetscReal t = 0;

          for (PetscInt r = 0; cb != 0 && r < n; r++) t += cb * dEg[r * n + col] * Esl[r];
          for (PetscInt r = 0; cd != 0 && r < n; r++) t += cd * rb->dEu[nn * k + r * n + col] * Esl[r];
          a[(l - 1) * n + col] -= t;
        }
      }
    }
    /* the cost integral: r's attitude gradient rho_k (tangent part at R_k = R0 E_k, moved by T_k dxi_k + E_k' eta) and
       momentum gradient sigma_k (Pi_k = J T_k u_k: dPi = J (M(xi_k, u_k) dxi_k + T_k du_k)) */
    for (PetscInt j = 0; j < n; j++) nuI[j] = 0;
    for (PetscInt k = 0; gU && k < nq; k++) {
      const PetscReal *G = gU + (k * ncost + ic) * 12 * nb;

      for (PetscInt b = 0; b < nb; b++) {
        const PetscReal *Ek = rb->E + 9 * nb * k + 9 * b, *Tk = rb->T + 9 * nb * k + 9 * b, *x = rb->xi + k * n + 3 * b, *u = rb->u + k * n + 3 * b;
        PetscReal        Rk[9], A[9], rho[3], Js[3], vx[3], vu[3], M[9], Er[3];

        SimpVISO3Multiply(u0 + 9 * b, Ek, Rk);
        for (PetscInt i = 0; i < 3; i++)
          for (PetscInt j = 0; j < 3; j++) A[i * 3 + j] = Rk[i] * G[9 * b + j] + Rk[3 + i] * G[9 * b + 3 + j] + Rk[6 + i] * G[9 * b + 6 + j];
        rho[0] = A[7] - A[5], rho[1] = A[2] - A[6], rho[2] = A[3] - A[1];
        MatVec3(rb->J + 9 * b, G + 9 * nb + 3 * b, Js);
        for (PetscInt i = 0; i < 3; i++) {
          const PetscReal e[3] = {i == 0, i == 1, i == 2};

          PetscCall(SimpVISO3DexpDerivative(x, e, u, NULL, M + 3 * i, NULL)); /* row i of M(xi, u) = d(T u)/dxi */
        }
        MatTVec3(Tk, rho, vx);
        MatTVec3(M, Js, vu);
        for (PetscInt i = 0; i < 3; i++) vx[i] += vu[i];
        MatTVec3(Tk, Js, vu);
        for (PetscInt l = 1; l <= s; l++)
          for (PetscInt i = 0; i < 3; i++) a[(l - 1) * n + 3 * b + i] += h * w[k] * B[k * s1 + l] * vx[i] + w[k] * D[k * s1 + l] * vu[i];
        MatVec3(Ek, rho, Er);
        for (PetscInt i = 0; i < 3; i++) nuI[3 * b + i] += h * w[k] * Er[i];
      }
      for (PetscInt p = 0; mu && p < np; p++) mu[ic][p] += h * w[k] * gth[(k * ncost + ic) * np + p];
    }
    /* J' y = a */
    PetscCall(PetscArraycpy(y, a, m));
    PetscCallBLAS("LAPACKgetrs", LAPACKgetrs_("N", &bm, &one, LU, &bm, rb->ipiv, y, &bm, &info));
    PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK getrs info %d", (int)info);
    /* c_k = h w_k [-E_k' E_s l1 + T_k sum_{i>=1} B_ki y_i + E_k' y_0 - B_ks T_k T_s^-T y_0]: the gradient by dg_k */
    for (PetscInt k = 0; k < nq; k++) {
      for (PetscInt b = 0; b < nb; b++) {
        const PetscReal *Ek = rb->E + 9 * nb * k + 9 * b, *Tk = rb->T + 9 * nb * k + 9 * b, *y0 = y + 3 * b;
        PetscReal        v[3], Ty[3], x[3], r[3], *ck = c + n * k + 3 * b;

        MatTVec3(Tsinv + 9 * b, y0, Ty); /* T_s^-T y_0 */
        for (PetscInt j = 0; j < 3; j++) {
          v[j] = -B[k * s1 + s] * Ty[j];
          x[j] = y0[j] - Esl[3 * b + j];
        }
        for (PetscInt i = 1; i < s; i++)
          for (PetscInt j = 0; j < 3; j++) v[j] += B[k * s1 + i] * y[i * n + 3 * b + j];
        MatVec3(Tk, v, r);
        MatTVec3(Ek, x, v);
        for (PetscInt j = 0; j < 3; j++) ck[j] = h * w[k] * (r[j] + v[j]);
      }
    }
    /* nu0 = exp(xi_s) nu1 + sum_k E_k Hg_k' c_k; l0 = exp(xi_s) l1 - y_0 */
    for (PetscInt b = 0; b < nb; b++) MatVec3(Es + 9 * b, nu1 + 3 * b, nu0 + 3 * b);
    for (PetscInt j = 0; j < n; j++) nu0[j] += nuI[j];
    for (PetscInt k = 0; k < nq; k++) {
      const PetscReal *Hg = rb->Hgk + nn * k, *ck = c + n * k;

      for (PetscInt b = 0; b < nb; b++) {
        PetscReal t[3], Et[3];

        for (PetscInt i = 0; i < 3; i++) {
          t[i] = 0;
          for (PetscInt r = 0; r < n; r++) t[i] += Hg[r * n + 3 * b + i] * ck[r];
        }
        MatVec3(rb->E + 9 * nb * k + 9 * b, t, Et);
        for (PetscInt i = 0; i < 3; i++) nu0[3 * b + i] += Et[i];
      }
    }
    /* mu += (d g_k/dtheta)' c_k = -sum_k (d tau_k/dtheta)' c_k */
    for (PetscInt p = 0; mu && p < np; p++)
      for (PetscInt k = 0; k < nq; k++)
        for (PetscInt r = 0; r < n; r++) mu[ic][p] -= rb->tth[(k * n + r) * np + p] * c[n * k + r];
    /* lambda at U0: R0 hat(nu0)/2, then l0 */
    for (PetscInt b = 0; b < nb; b++) {
      const PetscScalar *R0   = u0 + 9 * b;
      const PetscReal   *e    = nu0 + 3 * b;
      const PetscReal    X[9] = {0, -e[2] / 2, e[1] / 2, e[2] / 2, 0, -e[0] / 2, -e[1] / 2, e[0] / 2, 0};

      SimpVISO3Multiply(R0, X, lc + 9 * b);
      for (PetscInt j = 0; j < 3; j++) lc[9 * nb + 3 * b + j] = Esl[3 * b + j] - y[3 * b + j];
    }
  }
  PetscCall(VecRestoreArrayRead(U0, &u0));
  PetscCall(PetscFree2(gU, gth));
  PetscFunctionReturn(0);
}

/*
  SimpVIRigidBodiesPointState_Private - the state at quadrature point k of the step last evaluated: t_k = t0 + tau_k h
  and U_k = (R0 exp(xi_k), J Omega_k), Omega_k = T(xi_k) u_k, in the state's layout (for a cost integral)
*/
PetscErrorCode SimpVIRigidBodiesPointState_Private(SimpVIRigidBodies rb, PetscInt k, PetscReal *t, PetscReal U[])
{
  const PetscInt nb = rb->nb, n = rb->n;

  PetscFunctionBegin;
  *t = rb->t0 + rb->K->tau[k] * rb->h;
  for (PetscInt b = 0; b < nb; b++) {
    PetscReal Om[3];

    SimpVISO3Multiply(rb->R0 + 9 * b, rb->E + 9 * nb * k + 9 * b, U + 9 * b);
    MatVec3(rb->T + 9 * nb * k + 9 * b, rb->u + k * n + 3 * b, Om);
    MatVec3(rb->J + 9 * b, Om, U + 9 * nb + 3 * b);
  }
  PetscFunctionReturn(0);
}
