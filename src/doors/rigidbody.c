/*
   Rigid bodies on SO(3): the Galerkin step on the group (docs/mathematics.md, "Rigid bodies on SO(3)"). On a step from
   (R0, pi0) the attitude of each body is R(tau) = R0 exp(xi(tau)), xi a polynomial in so(3) = R^3 through the scheme's
   Gauss-Lobatto nodes with xi(0) = 0; the unknowns are its node values xi_1..xi_s (the step vector: s blocks of 3k, as
   the kernel's Z_l). In the chart xi the Lagrangian is l(xi, u) = 1/2 (T(xi) u)' J T(xi) u - V(R0 exp(xi)), T = dexp_{-xi},
   and the kernel's sums (src/core/kernel.c) give the stationarity of the discrete action in the interior nodes; the
   first block row is the discrete Legendre transform at R0 instead, and the end momentum is pi1 = exp(-xi_s) (pi0 -
   h sum_k w_k exp(xi_k) g_k). The step is solved by a SNES with the exact Jacobian; it is an object of its own
   (TSSimpVICreateRigidBodies()) and, given by TSSimpVISetRigidBodies(), a TSSIMPVI's step (src/ts/steprigid.c).
*/
#include <simpvi/private/rigidbody.h> /*I "simpvi.h" I*/
#include <simpvi/private/door.h>
#include <simpvi/private/rigidbodyimpl.h>
#include <petscdmshell.h>
#include <petsc/private/snesimpl.h> /* DMSNES, DMKSP: made before SNESSetDM() */
#include <petsc/private/kspimpl.h>
#include <simpvi/private/snesdense.h>
#include <math.h>

/* the line search of full steps: "none" from PETSc 3.25 ("basic" before), as src/snes/dense.c */
#if PETSC_VERSION_LT(3, 25, 0)
  #define SIMPVI_LINESEARCH_FULL SNESLINESEARCHBASIC
#else
  #define SIMPVI_LINESEARCH_FULL SNESLINESEARCHNONE
#endif

/* M(xi, y) = d(T(xi) y)/dxi, rows a = grad of e_a' T y (transpose false); N(xi, m) = d(T(xi)' m)/dxi, rows c = grad
   of m' T e_c (transpose true) */
static void DexpRowsAt(const PetscReal xi[3], const PetscReal coef[9], const PetscReal y[3], PetscBool transpose, PetscReal M[9])
{
  for (PetscInt a = 0; a < 3; a++) {
    const PetscReal e[3] = {a == 0, a == 1, a == 2};

    SimpVISO3DexpDerivativeAt_Private(xi, coef, transpose ? y : e, transpose ? e : y, NULL, M + 3 * a, NULL);
  }
}

static PetscErrorCode DexpRows(const PetscReal xi[3], const PetscReal y[3], PetscBool transpose, PetscReal M[9])
{
  PetscReal coef[9];

  PetscFunctionBegin;
  SimpVISO3Coefficients_Private(xi, coef); /* once for the three rows */
  DexpRowsAt(xi, coef, y, transpose, M);
  PetscFunctionReturn(0);
}

/* One body at a quadrature point: P = dl/du = T' J Omega, G = dl/dxi = M' J Omega - T' g, and E g (Omega = T u, the body
   angular velocity) */
static void PointAt(const PetscReal x[3], const PetscReal coef[9], const PetscReal u[3], const PetscReal Tb[9], const PetscReal Eb[9], const PetscReal Jb[9], const PetscReal gb[3], PetscReal P[3], PetscReal G[3], PetscReal Eg[3])
{
  PetscReal Om[3], mom[3], Mtm[3], Tg[3];

  MatVec3(Tb, u, Om); /* Omega = T u, the body angular velocity */
  MatVec3(Jb, Om, mom);
  MatTVec3(Tb, mom, P);                                                /* P = dl/du = T' J Omega */
  SimpVISO3DexpDerivativeAt_Private(x, coef, mom, u, NULL, Mtm, NULL); /* d(m' T u)/dxi = M' m */
  MatTVec3(Tb, gb, Tg);
  for (PetscInt j = 0; j < 3; j++) G[j] = Mtm[j] - Tg[j]; /* G = dl/dxi = M' J Omega - T' g */
  MatVec3(Eb, gb, Eg);
}

PetscErrorCode SimpVIRigidBodyPoint_Private(const PetscReal x[3], const PetscReal u[3], const PetscReal Tb[9], const PetscReal Eb[9], const PetscReal Jb[9], const PetscReal gb[3], PetscReal P[3], PetscReal G[3], PetscReal Eg[3])
{
  PetscReal coef[9];

  PetscFunctionBegin;
  SimpVISO3Coefficients_Private(x, coef);
  PointAt(x, coef, u, Tb, Eb, Jb, gb, P, G, Eg);
  PetscFunctionReturn(0);
}

/* Its derivatives in 3 x 3 blocks, the potential's coupling apart (SimpVIRigidBodyCoupling_Private()) */
static void PointJacobianAt(const PetscReal x[3], const PetscReal coef[9], const PetscReal u[3], const PetscReal Tb[9], const PetscReal Jb[9], const PetscReal gb[3], PetscReal Px[9], PetscReal Pv[9], PetscReal Gx[9], PetscReal Gv[9])
{
  PetscReal Om[3], mom[3], M[9], N[9], Ng[9], Hphi[9], JT[9], JM[9], TJT[9], TJM[9], MJM[9];

  MatVec3(Tb, u, Om);
  MatVec3(Jb, Om, mom);
  DexpRowsAt(x, coef, u, PETSC_FALSE, M);
  DexpRowsAt(x, coef, mom, PETSC_TRUE, N);
  DexpRowsAt(x, coef, gb, PETSC_TRUE, Ng);
  SimpVISO3DexpDerivativeAt_Private(x, coef, mom, u, NULL, NULL, Hphi);
  SimpVISO3Multiply(Jb, Tb, JT);
  SimpVISO3Multiply(Jb, M, JM);
  MatTMat3(Tb, JT, TJT);
  MatTMat3(Tb, JM, TJM);
  MatTMat3(M, JM, MJM);
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) {
      Pv[i * 3 + j] = TJT[i * 3 + j];
      Px[i * 3 + j] = N[i * 3 + j] + TJM[i * 3 + j];
      Gv[j * 3 + i] = N[i * 3 + j] + TJM[i * 3 + j];
      Gx[i * 3 + j] = MJM[i * 3 + j] + Hphi[i * 3 + j] - Ng[i * 3 + j];
    }
}

PetscErrorCode SimpVIRigidBodyPointJacobian_Private(const PetscReal x[3], const PetscReal u[3], const PetscReal Tb[9], const PetscReal Jb[9], const PetscReal gb[3], PetscReal Px[9], PetscReal Pv[9], PetscReal Gx[9], PetscReal Gv[9])
{
  PetscReal coef[9];

  PetscFunctionBegin;
  SimpVISO3Coefficients_Private(x, coef); /* once for the ten derivatives of dexp at x */
  PointJacobianAt(x, coef, u, Tb, Jb, gb, Px, Pv, Gx, Gv);
  PetscFunctionReturn(0);
}

/* the potential's part: d(T_b' g_b)/dxi_c = [T_b' Hg_bc T_c], Hg = H + 1/2 hat(g_b) on the diagonal (the
   left-trivialised derivative of the gradient); d(E_b g_b)/dxi_c = E_b (Hg_bc - delta_bc hat(g_b)) T_c. gb: g_b if
   c = b, else NULL */
void SimpVIRigidBodyCoupling_Private(const PetscReal Tb[9], const PetscReal Eb[9], const PetscReal gb[3], const PetscReal H[9], const PetscReal Tc[9], PetscReal THgT[9], PetscReal EHT[9])
{
  PetscReal Hg[9], HgT[9];

  for (PetscInt j = 0; j < 9; j++) Hg[j] = H[j];
  if (gb) { Hg[1] -= gb[2] / 2, Hg[2] += gb[1] / 2, Hg[3] += gb[2] / 2, Hg[5] -= gb[0] / 2, Hg[6] -= gb[1] / 2, Hg[7] += gb[0] / 2; }
  SimpVISO3Multiply(Hg, Tc, HgT);
  MatTMat3(Tb, HgT, THgT);
  if (gb) { /* Hg - hat(g) = H - 1/2 hat(g) */
    Hg[1] += gb[2], Hg[2] -= gb[1], Hg[3] -= gb[2], Hg[5] += gb[0], Hg[6] += gb[1], Hg[7] -= gb[0];
  }
  SimpVISO3Multiply(Hg, Tc, HgT);
  SimpVISO3Multiply(Eb, HgT, EHT);
}

PetscErrorCode SimpVIRigidBodyDexpRows_Private(const PetscReal xi[3], const PetscReal y[3], PetscBool transpose, PetscReal M[9])
{
  PetscFunctionBegin;
  PetscCall(DexpRows(xi, y, transpose, M));
  PetscFunctionReturn(0);
}

/* Everything at the quadrature points of the step vector Z: P, G, exp(xi_k) g_k, and with jac their derivatives */
static PetscErrorCode Evaluate(SimpVIRigidBodies rb, const PetscReal Z[], PetscBool jac)
{
  const PetscInt nb = rb->nb, n = rb->n, nq = rb->nq, nn = n * n;
  PetscReal    **xk = rb->ptr, **uk = rb->ptr + nq, Vval;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nq; k++) {
    xk[k] = rb->xi + k * n;
    uk[k] = rb->u + k * n;
  }
  PetscCall(SimpVIKernelPoints(rb->K, n, rb->zero, Z, xk, uk)); /* xi_k = sum_l B_kl xi_l, u_k = sum_l D_kl xi_l / h */
  for (PetscInt k = 0; k < nq; k++) {
    PetscReal *E = rb->E + 9 * nb * k, *T = rb->T + 9 * nb * k, *P = rb->P + n * k, *G = rb->G + n * k, *Eg = rb->Eg + n * k;

    for (PetscInt b = 0; b < nb; b++) {
      SimpVISO3Coefficients_Private(xk[k] + 3 * b, rb->coef + 9 * b); /* once for every map of dexp at xi_k */
      SimpVISO3ExpDexpAt_Private(xk[k] + 3 * b, rb->coef + 9 * b, E + 9 * b, T + 9 * b);
      SimpVISO3Multiply(rb->R0 + 9 * b, E + 9 * b, rb->Rk + 9 * b);
    }
    PetscCall(rb->V(nb, rb->Rk, &Vval, rb->g, jac ? rb->H : NULL, rb->ctx));
    if (rb->tau) PetscCall(SimpVIRigidBodiesTorque_Private(rb, k, jac)); /* g - tau, and H with tau's R part */
    for (PetscInt b = 0; b < nb; b++) PointAt(xk[k] + 3 * b, rb->coef + 9 * b, uk[k] + 3 * b, T + 9 * b, E + 9 * b, rb->J + 9 * b, rb->g + 3 * b, P + 3 * b, G + 3 * b, Eg + 3 * b);
    if (!jac) continue;
    {
      PetscReal *Px = rb->Px + nn * k, *Pv = rb->Pv + nn * k, *Gx = rb->Gx + nn * k, *Gv = rb->Gv + nn * k, *dEg = rb->dEg + nn * k;

      for (PetscInt j = 0; j < nn; j++) Px[j] = Pv[j] = Gx[j] = Gv[j] = dEg[j] = 0;
      for (PetscInt j = 0; j < nn; j++) rb->Hgk[nn * k + j] = rb->H[j]; /* Hg_k for the adjoint: H + 1/2 hat(g_b) on the diagonal */
      for (PetscInt b = 0; b < nb; b++) {
        PetscReal *Hb = rb->Hgk + nn * k + 3 * b * n + 3 * b, *gb = rb->g + 3 * b;

        Hb[1] -= gb[2] / 2, Hb[2] += gb[1] / 2, Hb[n] += gb[2] / 2, Hb[n + 2] -= gb[0] / 2, Hb[2 * n] -= gb[1] / 2, Hb[2 * n + 1] += gb[0] / 2;
      }
      for (PetscInt b = 0; b < nb; b++) {
        const PetscReal *Tb = T + 9 * b, *gb = rb->g + 3 * b, *Eb = E + 9 * b;
        PetscReal        px[9], pv[9], gx[9], gv[9];
        const PetscInt   o = 3 * b;

        PointJacobianAt(xk[k] + 3 * b, rb->coef + 9 * b, uk[k] + 3 * b, Tb, rb->J + 9 * b, gb, px, pv, gx, gv);
        for (PetscInt i = 0; i < 3; i++)
          for (PetscInt j = 0; j < 3; j++) {
            Pv[(o + i) * n + o + j] = pv[i * 3 + j];
            Px[(o + i) * n + o + j] = px[i * 3 + j];
            Gv[(o + i) * n + o + j] = gv[i * 3 + j];
            Gx[(o + i) * n + o + j] = gx[i * 3 + j];
          }
        for (PetscInt c = 0; c < nb; c++) {
          PetscReal Hbc[9], THgT[9], EHT[9];

          for (PetscInt i = 0; i < 3; i++)
            for (PetscInt j = 0; j < 3; j++) Hbc[i * 3 + j] = rb->H[(o + i) * n + 3 * c + j];
          SimpVIRigidBodyCoupling_Private(Tb, Eb, c == b ? gb : NULL, Hbc, T + 9 * c, THgT, EHT);
          for (PetscInt i = 0; i < 3; i++)
            for (PetscInt j = 0; j < 3; j++) {
              Gx[(o + i) * n + 3 * c + j] -= THgT[i * 3 + j];
              dEg[(o + i) * n + 3 * c + j] = EHT[i * 3 + j];
            }
        }
      }
      if (rb->tau) PetscCall(SimpVIRigidBodiesTorqueJacobian_Private(rb, k)); /* the torques' Omega part */
    }
  }
  PetscFunctionReturn(0);
}

/* f_s = dF/dxi_s = sum_k w_k [D_ks P_k + h B_ks G_k], the derivative of the discrete action in the end node */
void SimpVIRigidBodiesEndDerivative_Private(SimpVIRigidBodies rb, PetscReal fs[])
{
  const PetscInt s = rb->s, n = rb->n;

  for (PetscInt j = 0; j < n; j++) fs[j] = 0;
  for (PetscInt k = 0; k < rb->nq; k++) {
    const PetscReal a = rb->K->w[k] * rb->K->D[k * (s + 1) + s], c = rb->h * rb->K->w[k] * rb->K->B[k * (s + 1) + s];

    for (PetscInt j = 0; j < n; j++) fs[j] += a * rb->P[k * n + j] + c * rb->G[k * n + j];
  }
}

/* rows 1..s-1: the kernel's residual (stationarity in the interior nodes); row 0: pi0 - h sum_k w_k E_k g_k - T(xi_s)^-1 f_s
   (the Vec/Mat form's too, on each process's bodies) */
PetscErrorCode SimpVIRigidBodiesResidual_Private(SNES snes, Vec Zv, Vec Fv, void *ctx)
{
  SimpVIRigidBodies  rb = (SimpVIRigidBodies)ctx;
  const PetscInt     n = rb->n, nq = rb->nq, s = rb->s;
  const PetscScalar *Z;
  PetscScalar       *F;
  PetscReal        **P = rb->ptr + 2 * nq, **G = rb->ptr + 3 * nq, *fs = rb->dfs;

  PetscFunctionBegin;
  (void)snes;
  PetscCall(VecGetArrayRead(Zv, &Z));
  PetscCall(VecGetArray(Fv, &F));
  PetscCall(Evaluate(rb, Z, PETSC_FALSE));
  for (PetscInt k = 0; k < nq; k++) {
    P[k] = rb->P + k * n;
    G[k] = rb->G + k * n;
  }
  PetscCall(SimpVIKernelResidual(rb->K, n, NULL, (const PetscScalar *const *)P, (const PetscScalar *const *)G, F));
  SimpVIRigidBodiesEndDerivative_Private(rb, fs);
  for (PetscInt b = 0; b < rb->nb; b++) {
    PetscReal Tinv[9], y[3];

    PetscCall(SimpVISO3Dexp(Z + (s - 1) * n + 3 * b, NULL, Tinv));
    MatVec3(Tinv, fs + 3 * b, y);
    for (PetscInt j = 0; j < 3; j++) {
      F[3 * b + j] = rb->pi0[3 * b + j] - y[j];
      for (PetscInt k = 0; k < nq; k++) F[3 * b + j] -= rb->h * rb->K->w[k] * rb->Eg[k * n + 3 * b + j];
    }
  }
  PetscCall(VecRestoreArray(Fv, &F));
  PetscCall(VecRestoreArrayRead(Zv, &Z));
  PetscFunctionReturn(0);
}

/* the step's Jacobian at Zv into rb->Jd (row-major) */
static PetscErrorCode JacobianRows(SimpVIRigidBodies rb, Vec Zv)
{
  const PetscInt     n = rb->n, nq = rb->nq, s = rb->s, m = rb->m, nn = n * n;
  const PetscScalar *Z;
  PetscReal         *Jd = rb->Jd, *fs = rb->dfs, *dfs = rb->dfs + n;
  const PetscReal  **Px = (const PetscReal **)rb->ptr, **Pv = Px + nq, **Gx = Px + 2 * nq, **Gv = Px + 3 * nq;
  SimpVIScheme       sc = {.degree = s, .nq = nq, .c = rb->K->c, .tau = rb->K->tau, .w = rb->K->w, .B = rb->K->B, .D = rb->K->D};

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(Zv, &Z));
  PetscCall(Evaluate(rb, Z, PETSC_TRUE));
  SimpVIRigidBodiesEndDerivative_Private(rb, fs);
  for (PetscInt k = 0; k < nq; k++) {
    Px[k] = rb->Px + k * nn;
    Pv[k] = rb->Pv + k * nn;
    Gx[k] = rb->Gx + k * nn;
    Gv[k] = rb->Gv + k * nn;
  }
  PetscCall(SimpVIKernelJacobian(rb->K, n, Px, Pv, Gx, Gv, m, Jd)); /* rows 1..s-1 are the interior equations' */
  for (PetscInt l = 1; l <= s; l++) {
    /* df_s/dxi_l by the kernel's one coefficient formula, with the end node as the row */
    for (PetscInt j = 0; j < nn; j++) dfs[j] = 0;
    for (PetscInt k = 0; k < nq; k++) {
      const PetscReal cpx = SimpVIKernelCoefficient_Private(&sc, rb->h, SIMPVI_BLOCK_PX, k, s, l), cpv = SimpVIKernelCoefficient_Private(&sc, rb->h, SIMPVI_BLOCK_PV, k, s, l);
      const PetscReal cgx = SimpVIKernelCoefficient_Private(&sc, rb->h, SIMPVI_BLOCK_GX, k, s, l), cgv = SimpVIKernelCoefficient_Private(&sc, rb->h, SIMPVI_BLOCK_GV, k, s, l);
      const PetscReal bkl = rb->K->B[k * (s + 1) + l];

      for (PetscInt j = 0; j < nn; j++) dfs[j] += cpx * Px[k][j] + cpv * Pv[k][j] + cgx * Gx[k][j] + cgv * Gv[k][j];
      for (PetscInt r = 0; r < n; r++) /* the potential's moment: -h w_k B_kl d(E_k g_k)/dxi_k */
        for (PetscInt c = 0; c < n; c++) Jd[r * m + (l - 1) * n + c] = (k ? Jd[r * m + (l - 1) * n + c] : 0) - rb->h * rb->K->w[k] * bkl * rb->dEg[k * nn + r * n + c];
      if (rb->tau) { /* and the torques' Omega part: -h w_k (D_kl / h) d(E_k g_k)/du_k */
        const PetscReal dkl = rb->K->D[k * (s + 1) + l];

        for (PetscInt r = 0; r < n; r++)
          for (PetscInt c = 0; c < n; c++) Jd[r * m + (l - 1) * n + c] -= rb->K->w[k] * dkl * rb->dEu[k * nn + r * n + c];
      }
    }
    for (PetscInt b = 0; b < rb->nb; b++) { /* - T_b^-1 df_s/dxi_l, and at l = s + T^-1 M(xi_s, T^-1 f_s) */
      const PetscReal *xs = Z + (s - 1) * n + 3 * b, *Tinv = rb->Tinv + 9 * b;
      PetscReal        y[3], M[9], TM[9];

      if (l == 1) PetscCall(SimpVISO3Dexp(xs, NULL, rb->Tinv + 9 * b)); /* the end node's, once for every l */
      for (PetscInt i = 0; i < 3; i++)
        for (PetscInt c = 0; c < n; c++) Jd[(3 * b + i) * m + (l - 1) * n + c] -= Tinv[i * 3] * dfs[(3 * b) * n + c] + Tinv[i * 3 + 1] * dfs[(3 * b + 1) * n + c] + Tinv[i * 3 + 2] * dfs[(3 * b + 2) * n + c];
      if (l < s) continue;
      MatVec3(Tinv, fs + 3 * b, y);
      PetscCall(DexpRows(xs, y, PETSC_FALSE, M));
      SimpVISO3Multiply(Tinv, M, TM);
      for (PetscInt i = 0; i < 3; i++)
        for (PetscInt j = 0; j < 3; j++) Jd[(3 * b + i) * m + (s - 1) * n + 3 * b + j] += TM[i * 3 + j];
    }
  }
  PetscCall(VecRestoreArrayRead(Zv, &Z));
  PetscFunctionReturn(0);
}

static PetscErrorCode Jacobian(SNES snes, Vec Zv, Mat A, Mat B, void *ctx)
{
  SimpVIRigidBodies rb = (SimpVIRigidBodies)ctx;
  const PetscInt    m  = rb->m;
  const PetscReal  *Jd = rb->Jd;
  PetscScalar      *a;

  PetscFunctionBegin;
  (void)snes;
  (void)A;
  PetscCall(JacobianRows(rb, Zv));
  PetscCall(MatDenseGetArrayWrite(B, &a)); /* column-major */
  for (PetscInt r = 0; r < m; r++)
    for (PetscInt c = 0; c < m; c++) a[c * m + r] = Jd[r * m + c];
  PetscCall(MatDenseRestoreArrayWrite(B, &a));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* SNESSIMPVIDENSE's array functions (src/snes/dense.c): the same residual, and the Jacobian straight into its LU
   array (column-major) without the dense Mat's assembly */
static PetscErrorCode DenseFunction(SNES snes, Vec Zv, Vec Fv, PetscBool jacobiannext, void *ctx)
{
  PetscFunctionBegin;
  (void)jacobiannext;
  PetscCall(SimpVIRigidBodiesResidual_Private(snes, Zv, Fv, ctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode DenseJacobian(SNES snes, Vec Zv, PetscScalar J[], PetscBool *keep, void *ctx)
{
  SimpVIRigidBodies rb = (SimpVIRigidBodies)ctx;
  const PetscInt    m  = rb->m;

  PetscFunctionBegin;
  (void)snes;
  PetscCall(JacobianRows(rb, Zv));
  for (PetscInt r = 0; r < m; r++)
    for (PetscInt c = 0; c < m; c++) J[c * m + r] = rb->Jd[r * m + c];
  *keep = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIRigidBodiesJacobian_Private(SimpVIRigidBodies rb, Vec Z)
{
  PetscFunctionBegin;
  PetscCall(Jacobian(NULL, Z, rb->A, rb->A, rb));
  PetscFunctionReturn(0);
}

/* free bodies */
static PetscErrorCode FreePotential(PetscInt nb, const PetscReal R[], PetscReal *V, PetscReal g[], PetscReal H[], void *ctx)
{
  (void)R;
  (void)ctx;
  *V = 0;
  for (PetscInt j = 0; g && j < 3 * nb; j++) g[j] = 0;
  for (PetscInt j = 0; H && j < 9 * nb * nb; j++) H[j] = 0;
  return 0;
}

/*@C
  TSSimpVICreateRigidBodies - Makes the Galerkin step of a `TSSIMPVI`'s scheme for k rigid bodies on SO(3): attitudes
  R_b (rotation matrices, body to space) and body angular momenta pi_b, moved by a potential V(R)

  Collective on ts

  Input Parameters:
+ ts      - a `TS` of type `TSSIMPVI`: its scheme (e.g. -ts_simpvi_type simpson, lobatto) and options prefix are taken
. nbodies - the number of bodies k
. J       - the inertia tensors in the body frames, 9 entries per body (row-major, symmetric positive definite)
. V       - the potential with its left-trivialised gradient and Hessian (`NULL`: free bodies)
- ctx     - its context (may be `NULL`)

  Output Parameter:
. rb - the rigid bodies; destroy them with `SimpVIRigidBodiesDestroy()`

  Level: intermediate

  Notes:
  The state `Vec` (`SimpVIRigidBodiesCreateState()`) holds U = (R_1, .., R_k, pi_1, .., pi_k): k rotation matrices of
  9 entries, row-major, then k body momenta pi_b = J_b Omega_b of 3 entries. A step (`SimpVIRigidBodiesStep()`) moves
  each body along R0 exp(xi(tau)) with xi a polynomial in so(3) through the scheme's Gauss-Lobatto nodes; R1 = R0 exp(xi_s)
  is a product of rotations, orthogonal to round-off with no projection, and the spatial angular momentum R pi of free
  bodies is kept to round-off whatever the solver's tolerance. The step's system (3 s k unknowns, the node values of xi)
  is solved by a `SNES` (`SimpVIRigidBodiesGetSNES()`, the options of the `TS`'s prefix, e.g. -snes_test_jacobian)
  with the exact Jacobian: `SNESSIMPVIDENSE` by default (Newton with full steps and an LU on arrays; -snes_type newtonls
  gives Newton on a dense `Mat` with preonly LU, the same steps to round-off); it stops on the size of Newton's update (-snes_stol, 1e-8: the iterate after
  it is at round-off), not on the residual's reduction (-snes_rtol 0 by default; a relative tolerance set in code on the
  `SNES` stays). The program calls it step by step; `TSSimpVISetRigidBodies()` makes the same step the `TS`'s own, for
  `TSSolve()`. The start's attitudes must be rotations to 1e-10 (max(||R'R - I||, |det R - 1|)): anything else is an
  error, not a state to integrate.

.seealso: `SimpVIRigidBodyPotentialFn`, `SimpVIRigidBodiesStep()`, `SimpVIRigidBodiesComputeEnergy()`, `SimpVISO3Exp()`, `TSSimpVISetRigidBodies()`
@*/
PetscErrorCode TSSimpVICreateRigidBodies(TS ts, PetscInt nbodies, const PetscReal J[], SimpVIRigidBodyPotentialFn V, void *ctx, SimpVIRigidBodies *rb)
{
  PetscFunctionBegin;
  SimpVIAssertPointer(rb, 6);
  PetscCall(SimpVIRigidBodiesCreate_Private(ts, nbodies, J, V, ctx, NULL, rb));
  PetscFunctionReturn(0);
}

/* The inertia tensors J of nb bodies copied to Jc, with their inverses Jinv; *bad: the first that is not symmetric
   positive definite, or -1 */
PetscErrorCode SimpVIRigidBodyInertia_Private(PetscInt nb, const PetscReal J[], PetscReal Jc[], PetscReal Jinv[], PetscInt *bad)
{
  PetscFunctionBegin;
  *bad = -1;
  for (PetscInt b = 0; b < nb; b++) {
    const PetscReal *A  = J + 9 * b;
    PetscReal       *Ai = Jinv + 9 * b, det;

    PetscCall(PetscArraycpy(Jc + 9 * b, A, 9));
    Ai[0] = A[4] * A[8] - A[5] * A[7], Ai[1] = A[2] * A[7] - A[1] * A[8], Ai[2] = A[1] * A[5] - A[2] * A[4];
    Ai[3] = A[5] * A[6] - A[3] * A[8], Ai[4] = A[0] * A[8] - A[2] * A[6], Ai[5] = A[2] * A[3] - A[0] * A[5];
    Ai[6] = A[3] * A[7] - A[4] * A[6], Ai[7] = A[1] * A[6] - A[0] * A[7], Ai[8] = A[0] * A[4] - A[1] * A[3];
    det = A[0] * Ai[0] + A[1] * Ai[3] + A[2] * Ai[6];
    if (!(det > 0 && A[1] == A[3] && A[2] == A[6] && A[5] == A[7])) {
      *bad = b;
      break;
    }
    for (PetscInt j = 0; j < 9; j++) Ai[j] /= det;
  }
  PetscFunctionReturn(0);
}

/* The rigid bodies' step solved by snes (a TSSIMPVI's own, on a DMShell of the step vector) or, with NULL, by a SNES
   of their own with the TS's options prefix */
PetscErrorCode SimpVIRigidBodiesCreate_Private(TS ts, PetscInt nbodies, const PetscReal J[], SimpVIRigidBodyPotentialFn V, void *ctx, SNES snes, SimpVIRigidBodies *rb)
{
  SimpVIRigidBodies R;
  TSSimpVIType      type;
  const char       *prefix;
  KSP               ksp;
  PC                pc;
  PetscInt          n, s, nq, m, bad;

  PetscFunctionBegin;
  PetscCheck(nbodies > 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "Number of bodies %" PetscInt_FMT " must be positive", nbodies);
  SimpVIAssertPointer(J, 3);
  PetscCall(PetscNew(&R));
  PetscCall(TSSimpVICreateKernel(ts, &R->K)); /* checks ts */
  PetscCall(TSSimpVIGetType(ts, &type));
  PetscCall(PetscStrncpy(R->type, type, sizeof(R->type)));
  PetscCall(TSSimpVIGetOrder(ts, &R->order));
  PetscCall(SimpVIKernelGetSizes(R->K, &s, &nq));
  n     = 3 * nbodies;
  m     = s * n;
  R->nb = nbodies, R->n = n, R->s = s, R->nq = nq, R->m = m;
  R->V = V ? V : FreePotential, R->ctx = ctx;
  PetscCall(PetscMalloc2(9 * nbodies, &R->J, 9 * nbodies, &R->Jinv));
  PetscCall(SimpVIRigidBodyInertia_Private(nbodies, J, R->J, R->Jinv, &bad));
  PetscCheck(bad < 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONG, "Inertia tensor of body %" PetscInt_FMT " is not symmetric positive definite", bad);
  PetscCall(PetscMalloc6(9 * nbodies, &R->R0, n, &R->pi0, n, &R->zero, nq * n, &R->xi, nq * n, &R->u, nq * 9 * nbodies, &R->E));
  PetscCall(PetscMalloc4(nq * 9 * nbodies, &R->T, nq * n, &R->P, nq * n, &R->G, nq * n, &R->Eg));
  PetscCall(PetscMalloc5(nq * n * n, &R->Px, nq * n * n, &R->Pv, nq * n * n, &R->Gx, nq * n * n, &R->Gv, nq * n * n, &R->dEg));
  PetscCall(PetscMalloc5(9 * nbodies, &R->Rk, n, &R->g, n * n, &R->H, m * m, &R->Jd, n + n * n, &R->dfs));
  PetscCall(PetscMalloc1(6 * nq, &R->ptr));
  PetscCall(PetscCalloc1(nq * n * n, &R->Hgk));
  PetscCall(PetscCalloc2(9 * nbodies, &R->Rc, n, &R->pic));
  PetscCall(PetscMalloc2(9 * nbodies, &R->coef, 9 * nbodies, &R->Tinv));
  PetscCall(PetscArrayzero(R->zero, n));
  PetscCall(PetscArrayzero(R->g, n));
  PetscCall(PetscArrayzero(R->H, n * n));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, m, &R->Z));
  PetscCall(VecDuplicate(R->Z, &R->F));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, m, m, NULL, &R->A));
  if (snes) { /* the TS's SNES on the step vector's DMShell, as src/ts/stepsolver.c puts the vector-space step's */
    DMSNES sdm;
    DMKSP  kdm;

    PetscCall(PetscObjectReference((PetscObject)snes));
    R->snes = snes;
    PetscCall(DMShellCreate(PETSC_COMM_SELF, &R->dm));
    PetscCall(DMGetDMSNES(R->dm, &sdm)); /* made now: SNESSetDM() would otherwise share the old DM's */
    PetscCall(DMGetDMKSP(R->dm, &kdm));
    PetscCall(DMShellSetGlobalVector(R->dm, R->Z));
    PetscCall(SNESSetDM(R->snes, R->dm));
  } else {
    PetscCall(SNESCreate(PETSC_COMM_SELF, &R->snes));
    PetscCall(TSGetOptionsPrefix(ts, &prefix));
    PetscCall(SNESSetOptionsPrefix(R->snes, prefix));
  }
  PetscCall(SNESSetSolution(R->snes, R->Z)); /* the predictor's place, SNESGetSolution() before a solve */
  PetscCall(SNESSetFunction(R->snes, R->F, SimpVIRigidBodiesResidual_Private, R));
  PetscCall(SNESSetJacobian(R->snes, R->A, R->A, Jacobian, R));
  /* Newton to round-off: the body momenta of symmetric bodies are kept to the solver's tolerance. It stops on the size
     of its update (stol 1e-8 ~ sqrt(eps): the iterate after it is at round-off, Newton converging quadratically), not
     on the residual's reduction (rtol 0): a residual reduced by 1e-13 is not yet at round-off, and what Newton leaves
     of it is a smooth function of the state, the same sign step after step, which drifted Table 3's top's axial
     momentum linearly (1.7e-18 per step) when three steps in four stopped after two iterations. Defaults only: a
     relative tolerance other than PETSc's (1e-8) or TSSIMPVI's (1e-14) was the user's, set in code, and stays */
  {
    PetscReal rtol;

    PetscCall(SNESGetTolerances(R->snes, NULL, &rtol, NULL, NULL, NULL));
    if (rtol == 1e-8 || rtol == 1e-14) PetscCall(SNESSetTolerances(R->snes, PETSC_DEFAULT, 0.0, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
  }
  PetscCall(SNESGetKSP(R->snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  /* SNESSIMPVIDENSE unless a SNES type is asked for (-snes_type, or in code other than newtonls): the same Newton with
     full steps and an LU, on the residual and Jacobian as arrays, without the Mat, KSP and PC that cost most of a step
     of a few bodies (a system of 3 s k rows) */
  {
    PetscBool given, deflt = PETSC_TRUE;

    PetscCall(PetscOptionsHasName(((PetscObject)R->snes)->options, ((PetscObject)R->snes)->prefix, "-snes_type", &given));
    if (((PetscObject)R->snes)->type_name) PetscCall(PetscObjectTypeCompare((PetscObject)R->snes, SNESNEWTONLS, &deflt));
    if (!given && deflt) {
      SNESLineSearch ls;

      PetscCall(SNESSetType(R->snes, SNESSIMPVIDENSE));
      PetscCall(SNESGetLineSearch(R->snes, &ls));
      PetscCall(SNESLineSearchSetType(ls, SIMPVI_LINESEARCH_FULL)); /* newtonls's bt takes these full steps too; -snes_linesearch_type below */
    }
  }
  PetscCall(SNESSetFromOptions(R->snes));
  PetscCall(SNESSimpVIDenseSetArrayFunctions_Private(R->snes, DenseFunction, DenseJacobian, NULL, R)); /* a no-op for other types */
  *rb = R;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVISetRigidBodies - Gives a `TS` k rigid bodies on SO(3) moved by a potential V(R): a `TSSIMPVI` then integrates
  them with `TSSolve()` by the Lie-group Galerkin step of `TSSimpVICreateRigidBodies()`

  Logically Collective

  Input Parameters:
+ ts      - the `TS` (its type may be set before or after)
. nbodies - the number of bodies k
. J       - the inertia tensors in the body frames, 9 entries per body (row-major, symmetric positive definite); copied
. V       - the potential with its left-trivialised gradient and Hessian (`NULL`: free bodies)
- ctx     - its context (may be `NULL`)

  Level: intermediate

  Notes:
  The state `Vec` (`TSSetSolution()`, sequential, on one process) holds U = (R_1, .., R_k, pi_1, .., pi_k): k rotation
  matrices (body to space) of 9 entries, row-major, then k body angular momenta pi_b = J_b Omega_b of 3 entries.
  Each step is `SimpVIRigidBodiesStep()`'s, its system solved by the `TS`'s `SNES` (`TSGetSNES()`; Newton with the exact
  Jacobian and LU, `SNESSIMPVIDENSE` unless -snes_type or code chooses another type, stopped on the size of its update: -snes_stol 1e-8, -snes_rtol 0, set in
  `TSSetUp()` below the -snes_ options, so that other choices go through options or after `TSSetUp()`), so the time
  controls (-ts_dt, -ts_max_time, -ts_max_steps, -ts_exact_final_time), monitors, `TSSetPreStage()`,
  `TSSetPostStage()`, `TSAdaptSetCheckStage()`, `TSSetEventHandler()`, `TSInterpolate()` and the failure path of
  other problems (a step whose Newton fails ends the run with `TS_DIVERGED_NONLINEAR_SOLVE`, or is retried with a
  halved step under -ts_max_snes_failures) work as they do there. `TSSimpVIComputeEnergy()` gives
  sum_b 1/2 pi_b' J_b^-1 pi_b + V(R) and `TSSimpVIGetRigidBodies()` the step object after `TSSetUp()`.

  Dense output (`TSInterpolate()`) at t inside the last step [t_j, t_j + h] is the step of length t - t_j from its start:
  R(t) = R_j exp(xi) is on the group to round-off and keeps the scheme's order, like the dense output of `TSSIMPVI`'s
  other problems.

  The adjoint (`TSSetSaveTrajectory()` before `TSSolve()`, then `TSSetCostGradients()` and `TSAdjointSolve()`) is the
  exact discrete adjoint of the step map on the group, for every scheme. lambda is a gradient of a cost C(U(T)) in the
  ambient coordinates of U: give lambda(T) = dC/dU, 9 entries dC/dR_b per body (row-major) then 3 dC/dpi_b. Only the part
  of dC/dR_b tangent to SO(3) matters (R stays a rotation): it is nu_b = vee(A - A'), A = R_b' dC/dR_b, vee(X) = (X_32,
  X_13, X_21), the gradient in the body-frame perturbation R_b exp(hat(eta)) (nu_b . eta = dC). The adjoint carries nu in
  the Lie algebra and returns lambda(0) with the R part R0_b hat(nu0_b)/2, the orthogonal (Frobenius) projection of
  an ambient gradient onto the tangent space at R0_b: <lambda_R, R0 hat(eta)> = nu0 . eta, so the gradient in the
  perturbation R0_b exp(hat(eta)) of the initial attitude is nu0_b = vee(A - A') with A = R0_b' lambda_R (the same
  formula), and the pi part is dC/dpi0. Gradients in the parameters of the torques (`TSSimpVISetRigidBodyTorque()`)
  come in mu of `TSSetCostGradients()`. A cost integral int r(t, U) dt of a quadrature `TS` (`TSCreateQuadratureTS()`,
  forward or in the adjoint) is taken with the scheme's quadrature, h sum_k w_k r(t_k, U_k), at the step's points
  U_k = (R_k, J_b Omega_k) (the body momentum of the step's curve there); its `TSSetRHSJacobian()` gives dr/dU
  (ambient, a column per cost, of which only the tangent part of dr/dR counts) and its `TSSetRHSJacobianP()` dr/dtheta.

  Torques on the bodies (body-frame, functions of t, R, Omega and parameters; Lagrange-d'Alembert) are given by
  `TSSimpVISetRigidBodyTorque()`.

  Not supported with rigid bodies (each an error at set-up or at the first step): other mechanics on the same `TS`
  (a Lagrangian, a mass, `TSSimpVISetForce()`, constraints, an I2 or split problem), more than one process (the `Vec`/`Mat`
  form below runs on any number), forward sensitivities (`TSForwardSetSensitivities()`).

  Checkpoints (-ts_simpvi_checkpoint, -ts_simpvi_restart; docs/longruns.md) hold the state and the step's round-off
  compensations of R and pi, and a restarted run goes on bit for bit; the header checks the scheme, the form and the
  number of bodies. Torques and the potential are the program's: give the same ones to the restarted run.
  For many bodies on any number of processes, the same step takes the bodies in the `Vec`/`Mat` form instead
  (`TSSimpVISetRigidBodyInertias()`, `TSSimpVISetRigidBodyPotentialRoutine()`, `TSSimpVISetRigidBodyHessianRoutine()`).

.seealso: `TSSIMPVI`, `TSSimpVISetRigidBodyInertias()`, `TSSimpVICreateRigidBodies()`, `SimpVIRigidBodyPotentialFn`, `TSSimpVISetRigidBodyTorque()`, `TSSimpVIGetRigidBodies()`, `TSSimpVIComputeEnergy()`
@*/
PetscErrorCode TSSimpVISetRigidBodies(TS ts, PetscInt nbodies, const PetscReal J[], SimpVIRigidBodyPotentialFn V, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscCheck(nbodies > 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "Number of bodies %" PetscInt_FMT " must be positive", nbodies);
  SimpVIAssertPointer(J, 3);
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  PetscCall(PetscFree(prob->user.rbJ));
  PetscCall(PetscMalloc1(9 * nbodies, &prob->user.rbJ));
  PetscCall(PetscArraycpy(prob->user.rbJ, J, 9 * nbodies));
  prob->user.rbn   = nbodies;
  prob->user.rbV   = V;
  prob->user.rbctx = ctx;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIRigidBodiesDestroy - Destroys rigid bodies made by `TSSimpVICreateRigidBodies()`

  Collective

  Input Parameter:
. rb - the rigid bodies

  Level: intermediate

.seealso: `TSSimpVICreateRigidBodies()`
@*/
PetscErrorCode SimpVIRigidBodiesDestroy(SimpVIRigidBodies *rb)
{
  SimpVIRigidBodies R;

  PetscFunctionBegin;
  if (!rb || !*rb) PetscFunctionReturn(0);
  R = *rb;
  PetscCall(SimpVIKernelDestroy(&R->K));
  PetscCall(PetscFree2(R->J, R->Jinv));
  PetscCall(PetscFree6(R->R0, R->pi0, R->zero, R->xi, R->u, R->E));
  PetscCall(PetscFree4(R->T, R->P, R->G, R->Eg));
  PetscCall(PetscFree5(R->Px, R->Pv, R->Gx, R->Gv, R->dEg));
  PetscCall(PetscFree5(R->Rk, R->g, R->H, R->Jd, R->dfs));
  PetscCall(PetscFree(R->ptr));
  PetscCall(PetscFree(R->Hgk));
  PetscCall(PetscFree2(R->adjwork, R->ipiv));
  PetscCall(PetscFree7(R->Om, R->tk, R->tR, R->tO, R->M, R->dEu, R->tth));
  PetscCall(PetscFree2(R->Rc, R->pic));
  PetscCall(PetscFree2(R->coef, R->Tinv));
  PetscCall(VecDestroy(&R->Z));
  PetscCall(VecDestroy(&R->F));
  PetscCall(MatDestroy(&R->A));
  PetscCall(SNESDestroy(&R->snes));
  PetscCall(DMDestroy(&R->dm));
  PetscCall(SimpVIRigidBodiesVecDestroy_Private(&R->vec));
  PetscCall(PetscFree(*rb));
  PetscFunctionReturn(0);
}

/*@C
  SimpVIRigidBodiesCreateState - Makes a state `Vec` of the rigid bodies: U = (R_1, .., R_k, pi_1, .., pi_k), 12 k entries

  Not Collective

  Input Parameter:
. rb - the rigid bodies

  Output Parameter:
. U - the state (sequential; for the `Vec`/`Mat` form of `TSSimpVISetRigidBodyInertias()` parallel, this process's bodies), zero

  Level: intermediate

.seealso: `TSSimpVICreateRigidBodies()`, `SimpVIRigidBodiesStep()`
@*/
PetscErrorCode SimpVIRigidBodiesCreateState(SimpVIRigidBodies rb, Vec *U)
{
  PetscFunctionBegin;
  SimpVIAssertPointer(rb, 1);
  SimpVIAssertPointer(U, 2);
  if (rb->vec) PetscCall(VecCreateMPI(PetscObjectComm((PetscObject)rb->Z), 12 * rb->nb, PETSC_DETERMINE, U)); /* the Vec/Mat form: this process's bodies */
  else PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12 * rb->nb, U));
  PetscFunctionReturn(0);
}

/* The start's attitudes must be rotations (orthonormal, det 1) to round-off: the step keeps R on SO(3) only from a
   start on it, and a matrix that is not a rotation (unset, scaled, a reflection) is otherwise integrated without
   complaint. Every process together in the Vec/Mat form. */
#define SIMPVI_RIGIDBODY_ATTITUDE_TOL 1e-10
static PetscErrorCode CheckAttitudes(SimpVIRigidBodies rb)
{
  PetscReal worst = 0;
  PetscInt  which = -1;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < rb->nb; b++) {
    const PetscReal *R   = rb->R0 + 9 * b;
    const PetscReal  det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6]);
    PetscReal        bad = PetscAbsReal(det - 1);

    for (PetscInt i = 0; i < 3; i++) /* ||R'R - I||_max */
      for (PetscInt j = 0; j < 3; j++) bad = PetscMax(bad, PetscAbsReal(R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j] - (i == j)));
    if (!(bad <= worst)) worst = bad, which = b; /* (a NaN counts) */
  }
  if (rb->vec) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &worst, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)rb->snes)));
  if (rb->vec)
    PetscCheck(worst <= SIMPVI_RIGIDBODY_ATTITUDE_TOL, PetscObjectComm((PetscObject)rb->snes), PETSC_ERR_ARG_WRONG, "A body's attitude R is not a rotation: max(||R'R - I||, |det R - 1|) = %g > %g (orthonormalize R, e.g. by its polar decomposition)", (double)worst, (double)SIMPVI_RIGIDBODY_ATTITUDE_TOL);
  PetscCheck(worst <= SIMPVI_RIGIDBODY_ATTITUDE_TOL, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The attitude R of body %" PetscInt_FMT " is not a rotation: max(||R'R - I||, |det R - 1|) = %g > %g (orthonormalize R, e.g. by its polar decomposition)", which, (double)worst, (double)SIMPVI_RIGIDBODY_ATTITUDE_TOL);
  PetscFunctionReturn(0);
}

/*@C
  SimpVIRigidBodiesSetStep - Sets the start (R0, pi0) and the size h of the next step and puts the predictor in the
  `SNES`'s solution, without solving (for a program that examines the step's system)

  Not Collective

  Input Parameters:
+ rb - the rigid bodies
. h  - the step size
- U  - the state at the step's start

  Level: developer

  Note:
  The predictor is xi_l = c_l h J^-1 pi0 for each body (a uniform rotation at the start's angular velocity).

.seealso: `SimpVIRigidBodiesStep()`, `SimpVIRigidBodiesGetSNES()`
@*/
PetscErrorCode SimpVIRigidBodiesSetStep(SimpVIRigidBodies rb, PetscReal h, Vec U)
{
  const PetscScalar *u;
  PetscScalar       *z;
  PetscInt           nu;

  PetscFunctionBegin;
  SimpVIAssertPointer(rb, 1);
  PetscValidHeaderSpecific(U, VEC_CLASSID, 3);
  PetscCheck(h > 0 && !PetscIsInfOrNanReal(h), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Step size %g must be positive", (double)h);
  PetscCall(VecGetLocalSize(U, &nu));
  PetscCheck(nu == 12 * rb->nb, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "The state has %" PetscInt_FMT " entries; %" PetscInt_FMT " bodies need 12 x %" PetscInt_FMT " (R_b row-major, then pi_b)", nu, rb->nb, rb->nb);
  PetscCall(SimpVIKernelSetStepSize(rb->K, h));
  rb->h = h;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(PetscArraycpy(rb->R0, u, 9 * rb->nb));
  PetscCall(PetscArraycpy(rb->pi0, u + 9 * rb->nb, rb->n));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(CheckAttitudes(rb));
  PetscCall(VecGetArray(rb->Z, &z));
  for (PetscInt b = 0; b < rb->nb; b++) {
    PetscReal Om[3];

    MatVec3(rb->Jinv + 9 * b, rb->pi0 + 3 * b, Om);
    for (PetscInt l = 1; l <= rb->s; l++)
      for (PetscInt j = 0; j < 3; j++) z[(l - 1) * rb->n + 3 * b + j] = rb->K->c[l] * h * Om[j];
  }
  PetscCall(VecRestoreArray(rb->Z, &z));
  PetscFunctionReturn(0);
}

/* sum_i x_i w_i as if in twice the working precision, then rounded (Ogita, Rump and Oishi's Dot2, with fma's exact
   products) */
static PetscReal Dot2(PetscInt m, const PetscReal x[], const PetscReal w[], PetscReal *lo)
{
  PetscReal p = x[0] * w[0], s = fma(x[0], w[0], -p), hi;

  for (PetscInt i = 1; i < m; i++) {
    const PetscReal h = x[i] * w[i], r = fma(x[i], w[i], -h);
    PetscReal       q;

    SimpVITwoSum(p, h, &p, &q);
    s += q + r;
  }
  hi = p + s;
  if (lo) *lo = (p - hi) + s; /* |s| is far below |p|: what rounding p + s lost (Fast2Sum) */
  return hi;
}

/*@C
  SimpVIRigidBodiesStep - Takes one step of size h of the rigid bodies, in place

  Not Collective

  Input Parameters:
+ rb - the rigid bodies
. h  - the step size
- U  - the state (R_1, .., R_k, pi_1, .., pi_k) at the step's start; on output at its end

  Level: intermediate

  Notes:
  R1 = R0 exp(xi_s) and pi1 = exp(-xi_s) (pi0 - h sum_k w_k exp(xi_k) g(R_k)), the discrete Legendre transform at the
  end, written so that the spatial momentum balance R1 pi1 = R0 pi0 - h sum_k w_k R_k g(R_k) holds to round-off.
  Both are added as increments to R0 and pi0 with their rounding errors kept for the next step while U is the `Vec`
  the last step wrote, unchanged since (so that long runs do not random-walk by a rounding per step). A step whose
  `SNES` does not converge is an error.

.seealso: `TSSimpVICreateRigidBodies()`, `SimpVIRigidBodiesSetStep()`
@*/
PetscErrorCode SimpVIRigidBodiesStep(SimpVIRigidBodies rb, PetscReal h, Vec U)
{
  SNESConvergedReason reason;

  PetscFunctionBegin;
  SimpVIAssertPointer(rb, 1);
  PetscCall(SimpVIRigidBodiesSolve_Private(rb, h, U, &reason));
  PetscCheck(reason > 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "The rigid-body step did not converge: %s", SNESConvergedReasons[reason]);
  PetscCall(SimpVIRigidBodiesFinish_Private(rb, U, PETSC_TRUE));
  rb->t0 += h; /* the time the torques see */
  PetscFunctionReturn(0);
}

/* The largest rotation |xi_l| of a body over the nodes of the step just solved (every process together in the Vec/Mat
   form). At 2 pi the step's exponential coordinates are singular (dexp), and a step that follows the motion turns each
   body far less than pi */
PetscErrorCode SimpVIRigidBodiesStepRotation_Private(SimpVIRigidBodies rb, PetscReal *theta)
{
  const PetscScalar *z;

  PetscFunctionBegin;
  *theta = 0;
  PetscCall(VecGetArrayRead(rb->Z, &z));
  for (PetscInt l = 0; l < rb->s; l++)
    for (PetscInt b = 0; b < rb->nb; b++) {
      const PetscScalar *x = z + l * rb->n + 3 * b;

      *theta = PetscMax(*theta, PetscSqrtReal(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]));
    }
  PetscCall(VecRestoreArrayRead(rb->Z, &z));
  if (rb->vec) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, theta, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)rb->snes)));
  PetscFunctionReturn(0);
}

/* The step's system from U solved (U unchanged), its convergence in reason; converged, the quadrature points are
   evaluated at the solution for SimpVIRigidBodiesFinish_Private(). The compensations restart at zero unless U is the
   state the last committed step wrote */
PetscErrorCode SimpVIRigidBodiesSolve_Private(SimpVIRigidBodies rb, PetscReal h, Vec U, SNESConvergedReason *reason)
{
  const PetscScalar *Z;
  PetscObjectId      id;
  PetscObjectState   state;

  PetscFunctionBegin;
  PetscCall(SimpVIRigidBodiesSetStep(rb, h, U));
  PetscCall(SNESSolve(rb->snes, NULL, rb->Z));
  PetscCall(SNESGetConvergedReason(rb->snes, reason));
  PetscCall(PetscObjectGetId((PetscObject)U, &id));
  PetscCall(PetscObjectStateGet((PetscObject)U, &state));
  if (id != rb->Uid || state != rb->Ustate) { /* not the state the last step wrote: no compensation to carry */
    PetscCall(PetscArrayzero(rb->Rc, 9 * rb->nb));
    PetscCall(PetscArrayzero(rb->pic, rb->n));
  }
  if (*reason <= 0) PetscFunctionReturn(0);
  PetscCall(VecGetArrayRead(rb->Z, &Z));
  PetscCall(Evaluate(rb, Z, PETSC_FALSE));
  PetscCall(VecRestoreArrayRead(rb->Z, &Z));
  PetscFunctionReturn(0);
}

/* The end (R1, pi1) of the step SimpVIRigidBodiesSolve_Private() solved, into U1 (the start's Vec or another); commit:
   the rounding errors it leaves are carried into the next step from U1, else the compensations stay as they were
   (a stage that may yet be rejected, a partial step) */
PetscErrorCode SimpVIRigidBodiesFinish_Private(SimpVIRigidBodies rb, Vec U1, PetscBool commit)
{
  const PetscInt     n = rb->n, nb = rb->nb, s = rb->s;
  const PetscReal    h = rb->h;
  const PetscScalar *Z;
  PetscScalar       *u;
  PetscInt           nu;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(U1, &nu));
  PetscCheck(nu == 12 * nb, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "State of size %" PetscInt_FMT ", not 12 x %" PetscInt_FMT " bodies", nu, nb);
  PetscCall(VecGetArrayRead(rb->Z, &Z));
  PetscCall(VecGetArray(U1, &u));
  for (PetscInt b = 0; b < nb; b++) {
    PetscReal  D[9], F[9], dD[9], mu[3], y[3], *R1 = u + 9 * b, *p1 = u + 9 * nb + 3 * b, Rcnew[9], pcnew[3];
    PetscReal *Rc = rb->Rc + 9 * b, *pc = rb->pic + 3 * b;

    /* D = exp(xi_s) - I to round-off of its own size; its rounded coefficients leave I + D orthogonal only to about
       eps |xi|^2, with the same sign step after step (a drift linear in the steps): F = (I + D)'(I + D) - I, summed in
       twice the working precision, and the first-order correction dD = -(I + D) F / 2 make (I + D + dD) orthogonal to
       eps^2; dD is far below D's rounding, so it enters the compensated sums on its own */
    PetscCall(SimpVISO3ExpIncrement_Private(Z + (s - 1) * n + 3 * b, D));
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) {
        const PetscReal x[5] = {D[3 * i + j], D[3 * j + i], D[i], D[3 + i], D[6 + i]}, w[5] = {1, 1, D[j], D[3 + j], D[6 + j]};

        F[3 * i + j] = Dot2(5, x, w, NULL);
      }
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) dD[3 * i + j] = -(F[3 * i + j] + D[3 * i] * F[j] + D[3 * i + 1] * F[3 + j] + D[3 * i + 2] * F[6 + j]) / 2;
    /* R1 = (R0 + Rc)(I + D + dD) = R0 + [R0 D + R0 dD + Rc], the bracket in twice the working precision and what
       rounding it and the sum lose kept for the next step: a rounded R0 D, of the same sign step after step when the
       motion is regular, drifted R'R from I linearly (1.8e-13 after 1e6 steps of Table 3's top) */
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) {
        const PetscReal *r    = rb->R0 + 9 * b + 3 * i;
        const PetscReal  x[7] = {r[0], r[1], r[2], r[0], r[1], r[2], Rc[3 * i + j]}, w[7] = {D[j], D[3 + j], D[6 + j], dD[j], dD[3 + j], dD[6 + j], 1};
        PetscReal        lo, e;
        const PetscReal  d = Dot2(7, x, w, &lo);

        SimpVITwoSum(r[j], d, &R1[3 * i + j], &e);
        Rcnew[3 * i + j] = e + lo;
      }
    /* pi1 = (I + D + dD)' mu, mu = pi0 + pc - h sum_k w_k E_k g_k: pi1 = pi0 + [y + (D + dD)' (pi0 + y)], y = pc - h sum..., compensated */
    for (PetscInt j = 0; j < 3; j++) {
      y[j] = pc[j];
      for (PetscInt k = 0; k < rb->nq; k++) y[j] -= h * rb->K->w[k] * rb->Eg[k * n + 3 * b + j];
      mu[j] = rb->pi0[3 * b + j] + y[j];
    }
    for (PetscInt j = 0; j < 3; j++) {
      const PetscReal d = y[j] + D[j] * mu[0] + D[3 + j] * mu[1] + D[6 + j] * mu[2] + (dD[j] * mu[0] + dD[3 + j] * mu[1] + dD[6 + j] * mu[2]);

      SimpVITwoSum(rb->pi0[3 * b + j], d, &p1[j], &pcnew[j]);
    }
    if (commit) {
      PetscCall(PetscArraycpy(Rc, Rcnew, 9));
      PetscCall(PetscArraycpy(pc, pcnew, 3));
    }
  }
  PetscCall(VecRestoreArray(U1, &u));
  PetscCall(VecRestoreArrayRead(rb->Z, &Z));
  if (commit) {
    PetscCall(PetscObjectGetId((PetscObject)U1, &rb->Uid));
    PetscCall(PetscObjectStateGet((PetscObject)U1, &rb->Ustate));
  }
  PetscFunctionReturn(0);
}

/* A step of size h from U0 into U (dense output), which leaves the compensations of the run's own steps as they were */
PetscErrorCode SimpVIRigidBodiesPartialStep_Private(SimpVIRigidBodies rb, PetscReal h, Vec U0, Vec U)
{
  SNESConvergedReason reason;
  PetscReal          *Rc, *pic;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(9 * rb->nb, &Rc, rb->n, &pic));
  PetscCall(PetscArraycpy(Rc, rb->Rc, 9 * rb->nb));
  PetscCall(PetscArraycpy(pic, rb->pic, rb->n));
  PetscCall(PetscArrayzero(rb->Rc, 9 * rb->nb));
  PetscCall(PetscArrayzero(rb->pic, rb->n));
  PetscCall(SimpVIRigidBodiesSolve_Private(rb, h, U0, &reason));
  if (reason > 0) PetscCall(SimpVIRigidBodiesFinish_Private(rb, U, PETSC_FALSE));
  PetscCall(PetscArraycpy(rb->Rc, Rc, 9 * rb->nb));
  PetscCall(PetscArraycpy(rb->pic, pic, rb->n));
  PetscCall(PetscFree2(Rc, pic));
  PetscCheck(reason > 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "The rigid-body step of the interpolation (h = %g) did not converge: %s", (double)h, SNESConvergedReasons[reason]);
  PetscFunctionReturn(0);
}

/*@C
  SimpVIRigidBodiesGetSNES - The `SNES` that solves the rigid bodies' steps

  Not Collective

  Input Parameter:
. rb - the rigid bodies

  Output Parameter:
. snes - the `SNES` (its unknowns: s blocks of 3k, the values of xi at the nodes c_1..c_s)

  Level: advanced

.seealso: `TSSimpVICreateRigidBodies()`, `SimpVIRigidBodiesSetStep()`
@*/
PetscErrorCode SimpVIRigidBodiesGetSNES(SimpVIRigidBodies rb, SNES *snes)
{
  PetscFunctionBegin;
  SimpVIAssertPointer(rb, 1);
  SimpVIAssertPointer(snes, 2);
  *snes = rb->snes;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIRigidBodiesComputeEnergy - The energy H(R, pi) = sum_b 1/2 pi_b' J_b^-1 pi_b + V(R) of a state

  Not Collective

  Input Parameters:
+ rb - the rigid bodies
- U  - the state

  Output Parameter:
. E - the energy

  Level: intermediate

  Note:
  Collective for the bodies of the `Vec`/`Mat` form (`TSSimpVISetRigidBodyInertias()`, `TSSimpVIGetRigidBodies()`).

.seealso: `TSSimpVICreateRigidBodies()`
@*/
PetscErrorCode SimpVIRigidBodiesComputeEnergy(SimpVIRigidBodies rb, Vec U, PetscReal *E)
{
  const PetscScalar *u;
  PetscReal          V, T = 0;

  PetscFunctionBegin;
  SimpVIAssertPointer(rb, 1);
  SimpVIAssertPointer(E, 3);
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt b = 0; b < rb->nb; b++) {
    const PetscReal *pi = u + 9 * rb->nb + 3 * b;
    PetscReal        Om[3];

    MatVec3(rb->Jinv + 9 * b, pi, Om);
    T += (pi[0] * Om[0] + pi[1] * Om[1] + pi[2] * Om[2]) / 2;
  }
  if (rb->vec) PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &T, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)rb->Z))); /* the Vec/Mat form: collective */
  PetscCall(rb->V(rb->nb, u, &V, NULL, NULL, rb->ctx));
  PetscCall(VecRestoreArrayRead(U, &u));
  *E = T + V;
  PetscFunctionReturn(0);
}

/*@C
  SimpVIRigidBodiesView - Shows the group, the map, the state's layout and the scheme of the rigid bodies' step (its
  `SNES`: -snes_view)

  Collective on viewer

  Input Parameters:
+ rb     - the rigid bodies
- viewer - an ASCII viewer

  Level: intermediate

.seealso: `TSSimpVICreateRigidBodies()`
@*/
PetscErrorCode SimpVIRigidBodiesView(SimpVIRigidBodies rb, PetscViewer viewer)
{
  PetscBool iascii;

  PetscFunctionBegin;
  SimpVIAssertPointer(rb, 1);
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  if (rb->vec) {
    PetscCall(SimpVIRigidBodiesVecView_Private(rb, viewer));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "Rigid bodies: %" PetscInt_FMT ", configuration space SO(3)^%" PetscInt_FMT " (%s)\n", rb->nb, rb->nb, SimpVIConfigurationSO3.name));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  curve of a step: R0 exp(xi(tau)), xi a polynomial in so(3) through the Gauss-Lobatto nodes (the exponential map)\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  state: %" PetscInt_FMT " rotation matrix(es) (9 entries each, row-major), then the body angular momenta (3 entries each)\n", rb->nb));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  scheme %s: degree %" PetscInt_FMT ", %" PetscInt_FMT " quadrature points, order %" PetscInt_FMT "\n", rb->type, rb->s, rb->nq, rb->order));
  if (rb->tau) PetscCall(PetscViewerASCIIPrintf(viewer, "  body-frame torques (Lagrange-d'Alembert) with %" PetscInt_FMT " parameters\n", rb->np));
  PetscFunctionReturn(0);
}
