/*
   The arithmetic of a TSSIMPVI run's steps on plain arrays (bench/speedoflight.h): what bench/stepcost times beside
   the run, as the cost a step cannot go below.
*/
#include "speedoflight.h"

/* The loops of a step are inlined with the number of positions n a constant for the pendulums (n = 1, 2), as simpvi's
   kernel inlines its sums (include/simpvi/private/kernel.h): the compiler then unrolls the loops over n */
#if defined(__GNUC__)
  #define LIGHT_INLINE static inline __attribute__((always_inline))
#else
  #define LIGHT_INLINE static inline
#endif

/* The scheme's coefficients for steps of size h (the sums of include/simpvi/private/kernel.h, made here from the
   public tables), the predictor's basis, and the work arrays */
PetscErrorCode LightCreate(TS ts, PetscInt n, PetscReal h, PetscInt nsteps, TSSimpVIPointwiseFn model, void *mctx, Light **light)
{
  Light           *L;
  PetscInt         s, nq, m;
  const PetscReal *c, *tau, *w, *B, *D;

  PetscFunctionBeginUser;
  PetscCall(TSSimpVIGetTableau(ts, &s, &nq, &c, &tau, &w, &B, &D));
  PetscCall(PetscNew(&L));
  m         = s * n;
  L->n      = n;
  L->s      = s;
  L->nq     = nq;
  L->m      = m;
  L->h      = h;
  L->model  = model;
  L->mctx   = mctx;
  L->nsteps = nsteps;
  PetscCall(PetscCalloc3(nsteps, &L->its, nsteps, &L->jacat, nsteps, &L->early));
  PetscCall(PetscMalloc7(nq, &L->tau, nq * s, &L->xc, nq * s, &L->vc, s * nq, &L->pc, s * nq, &L->gc, nq, &L->mc, s * (s + 1), &L->phi));
  PetscCall(PetscMalloc7(m, &L->Z, m, &L->R, m * m, &L->J, nq, &L->tk, nq * n, &L->x, nq * n, &L->v, m, &L->piv));
  PetscCall(PetscMalloc7(nq * n, &L->P, nq * n, &L->G, nq * n * n, &L->Px, nq * n * n, &L->Pv, nq * n * n, &L->Gx, nq * n * n, &L->Gv, (s + 1) * n, &L->Q));
  PetscCall(PetscMalloc2(n * m, &L->T, n * m, &L->U));
  for (PetscInt k = 0; k < nq; k++) {
    L->tau[k] = tau[k];
    L->mc[k]  = h * w[k];
    for (PetscInt l = 1; l <= s; l++) {
      L->xc[k * s + l - 1] = B[k * (s + 1) + l];
      L->vc[k * s + l - 1] = D[k * (s + 1) + l] / h;
    }
    for (PetscInt i = 0; i < s; i++) {
      L->pc[i * nq + k] = w[k] * D[k * (s + 1) + i];
      L->gc[i * nq + k] = h * w[k] * B[k * (s + 1) + i];
    }
  }
  for (PetscInt a = 0; a < s; a++) /* the Lagrange basis of the nodes at 1 + c_a: the next node a + 1 of steps of equal size */
    for (PetscInt i = 0; i <= s; i++) {
      PetscReal phi = 1;

      for (PetscInt j = 0; j <= s; j++)
        if (j != i) phi *= (1 + c[a + 1] - c[j]) / (c[i] - c[j]);
      L->phi[a * (s + 1) + i] = phi;
    }
  *light = L;
  PetscFunctionReturn(0);
}

PetscErrorCode LightDestroy(Light **light)
{
  Light *L = *light;

  PetscFunctionBeginUser;
  if (!L) PetscFunctionReturn(0);
  PetscCall(PetscFree3(L->its, L->jacat, L->early));
  PetscCall(PetscFree7(L->tau, L->xc, L->vc, L->pc, L->gc, L->mc, L->phi));
  PetscCall(PetscFree7(L->Z, L->R, L->J, L->tk, L->x, L->v, L->piv));
  PetscCall(PetscFree7(L->P, L->G, L->Px, L->Pv, L->Gx, L->Gv, L->Q));
  PetscCall(PetscFree2(L->T, L->U));
  PetscCall(PetscFree(*light));
  PetscFunctionReturn(0);
}

/* x_k = q0 + sum_l B_kl Z_l, v_k = sum_l D_kl / h Z_l; the model's P, G there (and its derivatives) */
LIGHT_INLINE PetscErrorCode Evaluate(Light *L, const PetscInt n, PetscReal t, const PetscReal q0[], PetscBool derivatives)
{
  const PetscInt s = L->s, nq = L->nq;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nq; k++) {
    PetscReal *x = L->x + k * n, *v = L->v + k * n;

    L->tk[k] = t + L->tau[k] * L->h;
    for (PetscInt j = 0; j < n; j++) {
      x[j] = q0[j];
      v[j] = 0;
    }
    for (PetscInt l = 0; l < s; l++)
      for (PetscInt j = 0; j < n; j++) {
        x[j] += L->xc[k * s + l] * L->Z[l * n + j];
        v[j] += L->vc[k * s + l] * L->Z[l * n + j];
      }
  }
  if (derivatives) PetscCall(L->model(NULL, nq, n, L->tk, L->x, L->v, NULL, L->P, L->G, L->Px, L->Pv, L->Gx, L->Gv, L->mctx));
  else PetscCall(L->model(NULL, nq, n, L->tk, L->x, L->v, NULL, L->P, L->G, NULL, NULL, NULL, NULL, L->mctx));
  PetscFunctionReturn(0);
}

/* R_i = delta_i0 p0 + sum_k [w_k D_ki P_k + h w_k B_ki G_k] */
LIGHT_INLINE void Residual(Light *L, const PetscInt n, const PetscReal p0[])
{
  const PetscInt s = L->s, nq = L->nq;

  for (PetscInt i = 0; i < s; i++)
    for (PetscInt j = 0; j < n; j++) {
      PetscReal r = i ? 0 : p0[j];

      for (PetscInt k = 0; k < nq; k++) r += L->gc[i * nq + k] == 0 ? L->pc[i * nq + k] * L->P[k * n + j] : L->pc[i * nq + k] * L->P[k * n + j] + L->gc[i * nq + k] * L->G[k * n + j];
      L->R[i * n + j] = r;
    }
}

/* dR_i/dZ_l = sum_k [w_k D_ki T_kl + h w_k B_ki U_kl], T_kl = B_kl Px + D_kl/h Pv, U_kl = B_kl Gx + D_kl/h Gv (row-major
   n x n blocks, the model's), then its LU factors in place with partial pivoting */
LIGHT_INLINE PetscErrorCode JacobianFactor(Light *L, const PetscInt n)
{
  const PetscInt s = L->s, nq = L->nq, m = s * n, nn = n * n;
  PetscReal     *J = L->J;

  PetscFunctionBeginUser;
  for (PetscInt r = 0; r < m * m; r++) J[r] = 0;
  for (PetscInt k = 0; k < nq; k++) {
    for (PetscInt l = 0; l < s; l++)
      for (PetscInt r = 0; r < n; r++)
        for (PetscInt c = 0; c < n; c++) {
          const PetscReal b = L->xc[k * s + l], d = L->vc[k * s + l];

          L->T[r * m + l * n + c] = b * L->Px[k * nn + r * n + c] + d * L->Pv[k * nn + r * n + c];
          L->U[r * m + l * n + c] = b * L->Gx[k * nn + r * n + c] + d * L->Gv[k * nn + r * n + c];
        }
    for (PetscInt i = 0; i < s; i++) {
      const PetscReal a = L->pc[i * nq + k], g = L->gc[i * nq + k];

      for (PetscInt r = 0; r < n; r++) { /* no product with a zero coefficient: a Lobatto scheme's B_ki but at i = k */
        if (g == 0)
          for (PetscInt c = 0; c < m; c++) J[(i * n + r) * m + c] += a * L->T[r * m + c];
        else
          for (PetscInt c = 0; c < m; c++) J[(i * n + r) * m + c] += a * L->T[r * m + c] + g * L->U[r * m + c];
      }
    }
  }
  for (PetscInt j = 0; j < m; j++) {
    PetscInt p = j;

    for (PetscInt i = j + 1; i < m; i++)
      if (PetscAbsReal(J[i * m + j]) > PetscAbsReal(J[p * m + j])) p = i;
    PetscCheck(J[p * m + j] != 0, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "Singular step Jacobian");
    L->piv[j] = p;
    if (p != j)
      for (PetscInt c = 0; c < m; c++) {
        const PetscReal a = J[j * m + c];

        J[j * m + c] = J[p * m + c];
        J[p * m + c] = a;
      }
    for (PetscInt i = j + 1; i < m; i++) {
      const PetscReal f = J[i * m + j] /= J[j * m + j];

      for (PetscInt c = j + 1; c < m; c++) J[i * m + c] -= f * J[j * m + c];
    }
  }
  PetscFunctionReturn(0);
}

/* Z -= J^-1 R by the factors */
LIGHT_INLINE void SolveUpdate(Light *L, const PetscInt n)
{
  const PetscInt m = L->s * n;
  PetscReal     *b = L->R, *J = L->J;

  for (PetscInt j = 0; j < m; j++) {
    const PetscReal a = b[j];

    b[j]         = b[L->piv[j]];
    b[L->piv[j]] = a;
  }
  for (PetscInt i = 1; i < m; i++)
    for (PetscInt c = 0; c < i; c++) b[i] -= J[i * m + c] * b[c];
  for (PetscInt i = m - 1; i >= 0; i--) {
    for (PetscInt c = i + 1; c < m; c++) b[i] -= J[i * m + c] * b[c];
    b[i] /= J[i * m + i];
  }
  for (PetscInt j = 0; j < m; j++) L->Z[j] -= b[j];
}

/* The trace's steps from (q, p) at t = 0: q1, p1 at their end */
LIGHT_INLINE PetscErrorCode Steps(Light *L, const PetscInt n, const PetscReal q[], const PetscReal p[], PetscReal q1[], PetscReal p1[])
{
  const PetscInt s = L->s, nq = L->nq;
  PetscReal      q0[8], p0[8]; /* the step's start */

  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < n; j++) {
    q0[j] = q[j];
    p0[j] = p[j];
  }
  for (PetscInt step = 0; step < L->nsteps; step++) {
    const PetscReal  t     = step * L->h;
    const PetscInt   its   = L->its[step];
    const PetscInt64 jacat = L->jacat[step];

    for (PetscInt a = 0; a < s; a++) /* the predictor: the last step's polynomial (Q_0..Q_s) at 1 + c_a; zero at the first */
      for (PetscInt j = 0; j < n; j++) {
        PetscReal z = 0;

        if (step)
          for (PetscInt i = 0; i <= s; i++) z += L->phi[a * (s + 1) + i] * L->Q[i * n + j];
        L->Z[a * n + j] = step ? z - q0[j] : 0;
      }
    PetscCall(Evaluate(L, n, t, q0, (PetscBool)(jacat & 1)));
    Residual(L, n, p0);
    for (PetscInt k = 0; k < its; k++) {
      if (jacat >> k & 1) PetscCall(JacobianFactor(L, n));
      SolveUpdate(L, n);
      if (k + 1 == its && L->early[step]) break; /* accepted on the update (R holds it): no residual after it */
      PetscCall(Evaluate(L, n, t, q0, (PetscBool)(k + 1 < its && (jacat >> (k + 1) & 1))));
      Residual(L, n, p0);
    }
    for (PetscInt j = 0; j < n; j++) { /* the end, and the nodes of this step's polynomial for the next predictor */
      L->Q[j] = q0[j];
      for (PetscInt a = 0; a < s; a++) L->Q[(a + 1) * n + j] = q0[j] + L->Z[a * n + j];
      q0[j] = L->Q[s * n + j];
      for (PetscInt k = 0; k < nq; k++) p0[j] += L->mc[k] * L->G[k * n + j];
    }
    if (its && L->early[step]) /* G's first-order change over the update Z_new - Z = -R, by the last derivatives */
      for (PetscInt k = 0; k < nq; k++) {
        PetscReal dx[8], dv[8];

        for (PetscInt j = 0; j < n; j++) dx[j] = dv[j] = 0;
        for (PetscInt l = 0; l < s; l++)
          for (PetscInt j = 0; j < n; j++) {
            dx[j] += L->xc[k * s + l] * -L->R[l * n + j];
            dv[j] += L->vc[k * s + l] * -L->R[l * n + j];
          }
        for (PetscInt r = 0; r < n; r++) {
          PetscReal sum = 0;

          for (PetscInt j = 0; j < n; j++) sum += L->Gx[k * n * n + r * n + j] * dx[j] + L->Gv[k * n * n + r * n + j] * dv[j];
          p0[r] += L->mc[k] * sum;
        }
      }
  }
  for (PetscInt j = 0; j < n; j++) {
    q1[j] = q0[j];
    p1[j] = p0[j];
  }
  PetscFunctionReturn(0);
}

/* The trace's steps from (q, p) at t = 0: q1, p1 at their end (may be q, p) */
PetscErrorCode LightRun(Light *L, const PetscReal q[], const PetscReal p[], PetscReal q1[], PetscReal p1[])
{
  PetscFunctionBeginUser;
  PetscCheck(L->n <= 8, PETSC_COMM_SELF, PETSC_ERR_SUP, "At most 8 positions");
  PetscCheck(!L->nsteps || (L->its[0] && L->jacat[0] & 1), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The trace makes no Jacobian before its first solve");
  switch (L->n) {
  case 1:
    PetscCall(Steps(L, 1, q, p, q1, p1));
    break;
  case 2:
    PetscCall(Steps(L, 2, q, p, q1, p1));
    break;
  default:
    PetscCall(Steps(L, L->n, q, p, q1, p1));
  }
  PetscFunctionReturn(0);
}

/* The floating-point operations of LightRun() counted from the sizes (additions and multiplications; the model's own
   not counted, nor the pivot search) */
PetscErrorCode LightFlops(const Light *L, PetscReal *flops)
{
  const PetscReal n = L->n, s = L->s, nq = L->nq, m = L->m;
  PetscReal       residual = nq * n * 4 * s;                           /* the points, then the sums (as the Jacobian's) */
  PetscReal       jacobian = nq * s * n * n * 6;                       /* T, U, then the rows (no product with a zero gc) */
  const PetscReal lu = 2.0 / 3 * m * m * m, solve = 2 * m * m + m;     /* LU, triangular solves and the update */
  const PetscReal start = s * n * 2 * (s + 1), end = n * (s + 2 * nq); /* the predictor, the end */
  PetscReal       total = 0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < L->nq; k++)
    for (PetscInt i = 0; i < L->s; i++) {
      jacobian += n * m * (L->gc[i * L->nq + k] == 0 ? 2 : 4);
      residual += n * (L->gc[i * L->nq + k] == 0 ? 2 : 4);
    }
  for (PetscInt step = 0; step < L->nsteps; step++) {
    PetscInt njac = 0;

    for (PetscInt k = 0; k < L->its[step]; k++) njac += (PetscInt)(L->jacat[step] >> k & 1);
    total += start + end + (L->its[step] + 1) * residual + njac * (jacobian + lu) + L->its[step] * solve;
    if (L->early[step]) total += nq * (4 * s * n + 4 * n * n) - residual; /* the momentum's change for the last residual */
  }
  *flops = total;
  PetscFunctionReturn(0);
}
