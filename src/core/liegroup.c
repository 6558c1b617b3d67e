/*
   The rotation group SO(3) for the step on a Lie group (docs/mathematics.md, "Rigid bodies on SO(3)"): the exponential
   map (Rodrigues), its inverse, dexp_{-xi} (the map from the chart velocity xi' to the body angular velocity) with its
   inverse and the first and second derivatives of a' dexp_{-xi} b in xi, and the configuration space R (+) xi = R exp(xi)
   beside the vector space of src/core/kernel.c. Rotations are 3 x 3 matrices, row-major.
*/
#include <simpvi/private/liegroup.h> /*I "simpvi.h" I*/

/* f_j(s) = sum_k (-1)^k s^k / (2k + j)!, j = 1, 2, 3, with s = theta^2, and their first two derivatives in s:
   f_1 = sin(theta)/theta, f_2 = (1 - cos(theta))/theta^2, f_3 = (theta - sin(theta))/theta^3. The series below
   theta = 2 (terms below 4^k/(2k+1)!, no cancellation worth the name), the closed forms above it. */
/* (2k + j + 1)!, j = 0, 1, 2, k < 22, as the products (2k + j + 1)(2k + j) from (j + 1)! round them (the series
   below divided by them term by term before; the same doubles, so the same coefficients bit for bit) */
static const PetscReal SO3Factorial[3][22] = {
  {1.0, 6.0,   120.0,  5040.0,   362880.0,   39916800.0,   6227020800.0,    1307674368000.0,   355687428096000.0,    1.21645100408832e+17,  5.109094217170944e+19,  2.585201673888498e+22,  1.5511210043330986e+25, 1.0888869450418352e+28, 8.841761993739702e+30,  8.222838654177922e+33,  8.683317618811886e+36,  1.0333147966386144e+40, 1.3763753091226343e+43, 2.0397882081197442e+46, 3.3452526613163803e+49, 6.041526306337382e+52 },
  {2.0, 24.0,  720.0,  40320.0,  3628800.0,  479001600.0,  87178291200.0,   20922789888000.0,  6402373705728000.0,   2.43290200817664e+18,  1.1240007277776077e+21, 6.204484017332394e+23,  4.0329146112660565e+26, 3.0488834461171387e+29, 2.6525285981219107e+32, 2.6313083693369355e+35, 2.9523279903960416e+38, 3.7199332678990125e+41, 5.230226174666012e+44,  8.159152832478978e+47,  1.4050061177528801e+51, 2.6582715747884492e+54},
  {6.0, 120.0, 5040.0, 362880.0, 39916800.0, 6227020800.0, 1307674368000.0, 355687428096000.0, 1.21645100408832e+17, 5.109094217170944e+19, 2.585201673888498e+22,  1.5511210043330986e+25, 1.0888869450418352e+28, 8.841761993739702e+30,  8.222838654177922e+33,  8.683317618811886e+36,  1.0333147966386144e+40, 1.3763753091226343e+43, 2.0397882081197442e+46, 3.3452526613163803e+49, 6.041526306337382e+52,  1.1962222086548017e+56}
};

static void SO3Coefficients(PetscReal s, PetscReal f[3], PetscReal df[3], PetscReal ddf[3])
{
  if (s < 4) { /* the terms of the three series and their derivatives, k outermost: the powers of s and signs once */
    PetscReal sk = 1, skm1 = 0, skm2 = 0;

    for (PetscInt j = 0; j < 3; j++) f[j] = df[j] = ddf[j] = 0; /* f[j] is f_{j+1} */
    for (PetscInt k = 0; k < 22; k++) {
      const PetscReal sign = (k % 2) ? -1 : 1, a = sign * sk, b = sign * k * skm1, c = sign * k * (k - 1) * skm2;

      for (PetscInt j = 0; j < 3; j++) {
        f[j] += a / SO3Factorial[j][k];
        df[j] += b / SO3Factorial[j][k];
        ddf[j] += c / SO3Factorial[j][k];
      }
      skm2 = skm1;
      skm1 = sk;
      sk *= s;
    }
  } else {
    const PetscReal t = PetscSqrtReal(s), c = PetscCosReal(t), sn = PetscSinReal(t);
    const PetscReal n1 = t * sn / 2 - 1 + c, n2 = -2 * t - c * t + 3 * sn, dn2 = -2 + 2 * c + t * sn;

    f[0]   = sn / t;
    df[0]  = (t * c - sn) / (2 * t * s);
    ddf[0] = (-sn / s - 3 * (t * c - sn) / (s * s)) / (4 * t);
    f[1]   = (1 - c) / s;
    df[1]  = n1 / (s * s);
    ddf[1] = (t * c - sn) / (4 * t * s * s) - 2 * n1 / (s * s * s);
    f[2]   = (t - sn) / (t * s);
    df[2]  = n2 / (2 * s * s * t);
    ddf[2] = (t * dn2 - 5 * n2) / (4 * s * s * s * t);
  }
}

static void Hat(const PetscReal x[3], PetscReal X[9])
{
  X[0] = 0, X[1] = -x[2], X[2] = x[1];
  X[3] = x[2], X[4] = 0, X[5] = -x[0];
  X[6] = -x[1], X[7] = x[0], X[8] = 0;
}

/* A = I + a X + b X^2 (identity 1) or a X + b X^2 (identity 0), X = hat(xi) */
static void Polynomial(const PetscReal xi[3], PetscReal identity, PetscReal a, PetscReal b, PetscReal A[9])
{
  PetscReal X[9];

  Hat(xi, X);
  for (PetscInt i = 0; i < 3; i++)
    for (PetscInt j = 0; j < 3; j++) {
      PetscReal x2 = 0;

      for (PetscInt l = 0; l < 3; l++) x2 += X[i * 3 + l] * X[l * 3 + j];
      A[i * 3 + j] = identity * (i == j) + a * X[i * 3 + j] + b * x2;
    }
}

/* exp(hat(xi)) - I, to round-off relative to its own size |xi| (not to 1): what a step adds to an attitude */
PetscErrorCode SimpVISO3ExpIncrement_Private(const PetscReal xi[], PetscReal D[])
{
  PetscReal f[3], df[3], ddf[3];

  PetscFunctionBegin;
  SO3Coefficients(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2], f, df, ddf);
  Polynomial(xi, 0, f[0], f[1], D);
  PetscFunctionReturn(0);
}

/*@C
  SimpVISO3Exp - The exponential map of SO(3): the rotation exp(hat(xi)) by the angle |xi| about xi (Rodrigues' formula)

  Not Collective

  Input Parameter:
. xi - 3 entries, a vector of so(3) = R^3

  Output Parameter:
. E - the rotation, 3 x 3 row-major

  Level: advanced

.seealso: `SimpVISO3Log()`, `SimpVISO3Dexp()`, `TSSimpVICreateRigidBodies()`
@*/
PetscErrorCode SimpVISO3Exp(const PetscReal xi[], PetscReal E[])
{
  PetscReal f[3], df[3], ddf[3];

  PetscFunctionBegin;
  SO3Coefficients(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2], f, df, ddf);
  Polynomial(xi, 1, f[0], f[1], E);
  PetscFunctionReturn(0);
}

/*@C
  SimpVISO3Log - The inverse of `SimpVISO3Exp()`: the vector xi, |xi| <= pi, with exp(hat(xi)) = E

  Not Collective

  Input Parameter:
. E - a rotation, 3 x 3 row-major

  Output Parameter:
. xi - 3 entries

  Level: advanced

.seealso: `SimpVISO3Exp()`
@*/
PetscErrorCode SimpVISO3Log(const PetscReal E[], PetscReal xi[])
{
  const PetscReal v[3] = {(E[7] - E[5]) / 2, (E[2] - E[6]) / 2, (E[3] - E[1]) / 2}; /* sin(theta) n */
  const PetscReal c = (E[0] + E[4] + E[8] - 1) / 2, sn = PetscSqrtReal(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  const PetscReal t = PetscAtan2Real(sn, c);

  PetscFunctionBegin;
  if (c > -0.9) { /* xi = v theta / sin(theta), well conditioned away from theta = pi */
    PetscReal f[3], df[3], ddf[3];

    SO3Coefficients(t * t, f, df, ddf);
    for (PetscInt j = 0; j < 3; j++) xi[j] = v[j] / f[0];
  } else { /* near pi: the axis from (E + E')/2 - cos(theta) I = (1 - cos(theta)) n n', its largest column */
    PetscInt  j = 0;
    PetscReal n[3], norm, sign;

    for (PetscInt i = 1; i < 3; i++)
      if (E[i * 4] > E[j * 4]) j = i;
    for (PetscInt i = 0; i < 3; i++) n[i] = (E[i * 3 + j] + E[j * 3 + i]) / 2 - (i == j) * c;
    norm = PetscSqrtReal(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    sign = (n[0] * v[0] + n[1] * v[1] + n[2] * v[2] < 0) ? -1 : 1;
    for (PetscInt i = 0; i < 3; i++) xi[i] = sign * t * n[i] / norm;
  }
  PetscFunctionReturn(0);
}

/*@C
  SimpVISO3Dexp - The matrix T(xi) of dexp_{-xi}, which maps the derivative xi' of a curve R exp(xi(t)) to its body
  angular velocity, hat(Omega) = R(t)' R'(t) with Omega = T(xi) xi', and its inverse

  Not Collective

  Input Parameter:
. xi - 3 entries

  Output Parameters:
+ T    - 3 x 3 row-major: I - (1 - cos t)/t^2 hat(xi) + (t - sin t)/t^3 hat(xi)^2, t = |xi| (may be `NULL`)
- Tinv - its inverse, dexp_{-xi}^{-1} (may be `NULL`; singular at |xi| = 2 pi)

  Level: advanced

  Note:
  T(xi)' = T(-xi) = dexp_{xi} and exp(hat(xi)) T(xi) = T(xi)': the identities behind the conservation of the spatial
  angular momentum.

.seealso: `SimpVISO3Exp()`, `SimpVISO3DexpDerivative()`
@*/
PetscErrorCode SimpVISO3Dexp(const PetscReal xi[], PetscReal T[], PetscReal Tinv[])
{
  PetscReal f[3], df[3], ddf[3], A[9];

  PetscFunctionBegin;
  SO3Coefficients(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2], f, df, ddf);
  Polynomial(xi, 1, -f[1], f[2], A);
  if (T) PetscCall(PetscArraycpy(T, A, 9));
  if (Tinv) { /* the adjugate over the determinant: T is within a factor of 2 pi / |xi| of orthogonal */
    PetscReal det;

    Tinv[0] = A[4] * A[8] - A[5] * A[7];
    Tinv[1] = A[2] * A[7] - A[1] * A[8];
    Tinv[2] = A[1] * A[5] - A[2] * A[4];
    Tinv[3] = A[5] * A[6] - A[3] * A[8];
    Tinv[4] = A[0] * A[8] - A[2] * A[6];
    Tinv[5] = A[2] * A[3] - A[0] * A[5];
    Tinv[6] = A[3] * A[7] - A[4] * A[6];
    Tinv[7] = A[1] * A[6] - A[0] * A[7];
    Tinv[8] = A[0] * A[4] - A[1] * A[3];
    det     = A[0] * Tinv[0] + A[1] * Tinv[3] + A[2] * Tinv[6];
    PetscCheck(det != 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "dexp is singular at |xi| = %g (a multiple of 2 pi)", (double)PetscSqrtReal(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2]));
    for (PetscInt j = 0; j < 9; j++) Tinv[j] /= det;
  }
  PetscFunctionReturn(0);
}

/*@C
  SimpVISO3DexpDerivative - The function phi(xi) = a' T(xi) b of `SimpVISO3Dexp()`'s T and its gradient and Hessian in xi:
  all the derivatives of dexp the step's Jacobian needs

  Not Collective

  Input Parameters:
+ xi - 3 entries
. a  - 3 entries
- b  - 3 entries

  Output Parameters:
+ phi  - a' T(xi) b (may be `NULL`)
. grad - 3 entries (may be `NULL`)
- hess - 3 x 3, symmetric (may be `NULL`)

  Level: advanced

  Note:
  With alpha = (1 - cos t)/t^2, beta = (t - sin t)/t^3 as functions of s = t^2,
  phi = a.b - alpha xi.(b x a) + beta [(a.xi)(b.xi) - s a.b]; the derivatives of alpha and beta in s come from their
  series below t = 2 and from their closed forms above.

.seealso: `SimpVISO3Dexp()`
@*/
PetscErrorCode SimpVISO3DexpDerivative(const PetscReal xi[], const PetscReal a[], const PetscReal b[], PetscReal *phi, PetscReal grad[], PetscReal hess[])
{
  PetscReal coef[9];

  PetscFunctionBegin;
  SimpVISO3Coefficients_Private(xi, coef);
  SimpVISO3DexpDerivativeAt_Private(xi, coef, a, b, phi, grad, hess);
  PetscFunctionReturn(0);
}

/* The series or closed forms f, df, ddf (coef[0..2], [3..5], [6..8]) at |xi|^2, for the maps below at one xi: they
   cost far more than the maps' arithmetic (the rigid-body step's Jacobian wants a dozen maps at each point) */
void SimpVISO3Coefficients_Private(const PetscReal xi[], PetscReal coef[])
{
  SO3Coefficients(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2], coef, coef + 3, coef + 6);
}

/* SimpVISO3DexpDerivative() with the coefficients at xi given */
void SimpVISO3DexpDerivativeAt_Private(const PetscReal xi[], const PetscReal coef[], const PetscReal a[], const PetscReal b[], PetscReal *phi, PetscReal grad[], PetscReal hess[])
{
  const PetscReal  s = xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2], ab = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const PetscReal  c[3] = {b[1] * a[2] - b[2] * a[1], b[2] * a[0] - b[0] * a[2], b[0] * a[1] - b[1] * a[0]};
  const PetscReal  axi = a[0] * xi[0] + a[1] * xi[1] + a[2] * xi[2], bxi = b[0] * xi[0] + b[1] * xi[1] + b[2] * xi[2];
  const PetscReal  p = c[0] * xi[0] + c[1] * xi[1] + c[2] * xi[2], q = axi * bxi - s * ab;
  const PetscReal *f = coef, *df = coef + 3, *ddf = coef + 6;
  PetscReal        gq[3];

  for (PetscInt j = 0; j < 3; j++) gq[j] = a[j] * bxi + b[j] * axi - 2 * ab * xi[j];
  if (phi) *phi = ab - f[1] * p + f[2] * q;
  if (grad)
    for (PetscInt j = 0; j < 3; j++) grad[j] = -2 * df[1] * p * xi[j] - f[1] * c[j] + 2 * df[2] * q * xi[j] + f[2] * gq[j];
  if (hess)
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) {
        const PetscReal xx = xi[i] * xi[j], d = (i == j);

        hess[i * 3 + j] = -4 * ddf[1] * p * xx - 2 * df[1] * (p * d + xi[i] * c[j] + c[i] * xi[j]) + 4 * ddf[2] * q * xx + 2 * df[2] * (q * d + xi[i] * gq[j] + gq[i] * xi[j]) + f[2] * (a[i] * b[j] + b[i] * a[j] - 2 * ab * d);
      }
}

/* SimpVISO3Exp() and SimpVISO3Dexp()'s T with the coefficients at xi given */
void SimpVISO3ExpDexpAt_Private(const PetscReal xi[], const PetscReal coef[], PetscReal E[], PetscReal T[])
{
  Polynomial(xi, 1, coef[0], coef[1], E);
  Polynomial(xi, 1, -coef[1], coef[2], T);
}

/* The configuration space SO(3)^k: n = 3k tangent entries, configurations of 9 per body; out = R exp(xi) */
static PetscErrorCode SO3Retract(PetscInt n, const PetscScalar R[], const PetscScalar xi[], PetscScalar out[])
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < n / 3; b++) {
    PetscReal E[9];

    PetscCall(SimpVISO3Exp(xi + 3 * b, E));
    SimpVISO3Multiply(R + 9 * b, E, out + 9 * b);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode SO3Local(PetscInt n, const PetscScalar R[], const PetscScalar R1[], PetscScalar xi[])
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < n / 3; b++) {
    PetscReal E[9];

    for (PetscInt i = 0; i < 3; i++) /* E = R' R1 */
      for (PetscInt j = 0; j < 3; j++) E[i * 3 + j] = R[9 * b + i] * R1[9 * b + j] + R[9 * b + 3 + i] * R1[9 * b + 3 + j] + R[9 * b + 6 + i] * R1[9 * b + 6 + j];
    PetscCall(SimpVISO3Log(E, xi + 3 * b));
  }
  PetscFunctionReturn(0);
}

/* A = R exp(xi) and T(xi), what the tangent map and its transpose need of one body */
static PetscErrorCode SO3Frame(const PetscScalar R[], const PetscScalar xi[], PetscReal A[9], PetscReal T[9])
{
  PetscReal E[9];

  PetscFunctionBegin;
  PetscCall(SimpVISO3Exp(xi, E));
  PetscCall(SimpVISO3Dexp(xi, T, NULL));
  SimpVISO3Multiply(R, E, A);
  PetscFunctionReturn(0);
}

/* d(R exp(xi)) = R exp(xi) hat(T(xi) dxi): 3 entries in, 9 out */
static PetscErrorCode SO3Tangent(PetscInt n, const PetscScalar R[], const PetscScalar xi[], const PetscScalar in[], PetscScalar out[])
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < n / 3; b++) {
    PetscReal A[9], T[9], w[3], W[9];

    PetscCall(SO3Frame(R + 9 * b, xi + 3 * b, A, T));
    for (PetscInt i = 0; i < 3; i++) w[i] = T[i * 3] * in[3 * b] + T[i * 3 + 1] * in[3 * b + 1] + T[i * 3 + 2] * in[3 * b + 2];
    Hat(w, W);
    SimpVISO3Multiply(A, W, out + 9 * b);
  }
  PetscFunctionReturn(0);
}

/* its transpose: 9 entries in (dR), 3 out, T' w with N = A' dR, A = R exp(xi), from the pairing
   <N, hat(w)> = w . (N32 - N23, N13 - N31, N21 - N12) */
static PetscErrorCode SO3TangentTranspose(PetscInt n, const PetscScalar R[], const PetscScalar xi[], const PetscScalar in[], PetscScalar out[])
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < n / 3; b++) {
    PetscReal A[9], T[9], N[9], w[3];

    PetscCall(SO3Frame(R + 9 * b, xi + 3 * b, A, T));
    for (PetscInt i = 0; i < 3; i++) /* N = A' dR */
      for (PetscInt j = 0; j < 3; j++) N[i * 3 + j] = A[i] * in[9 * b + j] + A[3 + i] * in[9 * b + 3 + j] + A[6 + i] * in[9 * b + 6 + j];
    w[0] = N[7] - N[5];
    w[1] = N[2] - N[6];
    w[2] = N[3] - N[1];
    for (PetscInt i = 0; i < 3; i++) out[3 * b + i] = T[i] * w[0] + T[3 + i] * w[1] + T[6 + i] * w[2];
  }
  PetscFunctionReturn(0);
}

const SimpVIConfigurationSpace SimpVIConfigurationSO3 = {"SO(3), rotation matrices, R exp(xi)", SO3Retract, SO3Local, SO3Tangent, SO3TangentTranspose};
