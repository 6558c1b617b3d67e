/*
   Scheme tables, computed rather than typed in: Gauss-Lobatto nodes carry the step polynomial, and a family's
   constructor gives the quadrature (the built-in ones: the same Lobatto points, or Gauss-Legendre points). The families
   and named schemes are the TS type's (src/ts/registry.c).
*/
#include <simpvi/private/scheme.h>

/* Legendre P_n(x) and P_{n-1}(x) by the three-term recurrence */
static void Legendre(PetscInt n, PetscReal x, PetscReal *Pn, PetscReal *Pn1)
{
  PetscReal p0 = 1, p1 = x, p2;

  if (n == 0) {
    *Pn  = 1;
    *Pn1 = 0;
    return;
  }
  for (PetscInt k = 2; k <= n; k++) {
    p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  *Pn  = p1;
  *Pn1 = p0;
}

/* The s+1 Gauss-Lobatto points and weights on [0,1]: endpoints and the roots of P_s' (Newton from Chebyshev points).
   Kept rather than PETSc's PetscDT tables, measured more accurate on degrees 1..32 against a __float128 reference
   (tools/quadrature_accuracy.c): 9.6e-17 against 1.9e-15 for PetscDTGaussLobattoLegendreQuadrature() (Newton) mapped
   to [0,1]; Gauss-Legendre 1.7e-16 against 2.1e-16 for PetscDTGaussQuadrature() */
static PetscErrorCode GaussLobatto(PetscInt s, PetscReal x[], PetscReal w[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i <= s; i++) {
    PetscReal xi = -PetscCosReal(PETSC_PI * i / s), Pn, Pn1, dx = 1;

    for (PetscInt it = 0; it < 100 && PetscAbsReal(dx) > 1e-15; it++) {
      Legendre(s, xi, &Pn, &Pn1);
      dx = (xi * Pn - Pn1) / ((s + 1) * Pn);
      xi -= dx;
    }
    Legendre(s, xi, &Pn, &Pn1);
    x[i] = (1 + xi) / 2;
    w[i] = 1.0 / (s * (s + 1) * Pn * Pn);
  }
  x[0] = 0;
  x[s] = 1;
  PetscFunctionReturn(0);
}

/* The n Gauss-Legendre points and weights on [0,1] */
static PetscErrorCode GaussLegendre(PetscInt n, PetscReal x[], PetscReal w[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    PetscReal xi = -PetscCosReal(PETSC_PI * (i + 0.75) / (n + 0.5)), Pn, Pn1, dP = 1, dx = 1;

    for (PetscInt it = 0; it < 100 && PetscAbsReal(dx) > 1e-15; it++) {
      Legendre(n, xi, &Pn, &Pn1);
      dP = n * (xi * Pn - Pn1) / (xi * xi - 1);
      dx = Pn / dP;
      xi -= dx;
    }
    Legendre(n, xi, &Pn, &Pn1);
    dP   = n * (xi * Pn - Pn1) / (xi * xi - 1);
    x[i] = (1 + xi) / 2;
    w[i] = 1.0 / ((1 - xi * xi) * dP * dP);
  }
  PetscFunctionReturn(0);
}

/*
  SimpVISchemePredictBasis_Private - the basis of the last step's polynomial (of step hprev) at the next step's nodes
  x_a = start + c_{a+1} h / hprev (h: the new step), phi[a (s + 1) + i], made again only where x_a is not xk[a] (kept while
  steps keep their size); amp: the largest sum_i |phi_i(x_a)|, the factor by which extrapolating there amplifies the
  round-off of the polynomial's nodal values (SIMPVI_PREDICT_MAX_AMPLIFICATION), made again with the basis (the caller
  keeps it beside xk)
*/
PetscErrorCode SimpVISchemePredictBasis_Private(const SimpVIScheme *sc, PetscReal start, PetscReal h, PetscReal hprev, PetscReal xk[], PetscReal phi[], PetscReal *amp)
{
  const PetscInt s       = sc->degree;
  PetscBool      changed = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < s; a++) {
    const PetscReal x = start + sc->c[a + 1] * h / hprev;

    if (xk[a] != x) {
      PetscCall(SimpVISchemeBasis_Private(sc, x, phi + a * (s + 1), NULL));
      xk[a]   = x;
      changed = PETSC_TRUE;
    }
  }
  if (!changed) PetscFunctionReturn(0); /* *amp is still that of these nodes */
  *amp = 0;
  for (PetscInt a = 0; a < s; a++) {
    PetscReal sum = 0;

    for (PetscInt i = 0; i <= s; i++) sum += PetscAbsReal(phi[a * (s + 1) + i]);
    *amp = PetscMax(*amp, sum);
  }
  PetscFunctionReturn(0);
}

/*
  SimpVISchemeBasis_Private - values phi_i(tau) and derivatives phi_i'(tau) of the Lagrange basis on the nodes c_0..c_s
*/
PetscErrorCode SimpVISchemeBasis_Private(const SimpVIScheme *sc, PetscReal tau, PetscReal phi[], PetscReal dphi[])
{
  const PetscInt   s = sc->degree;
  const PetscReal *c = sc->c;

  PetscFunctionBegin;
  for (PetscInt i = 0; i <= s; i++) {
    PetscReal val = 1, der = 0;

    for (PetscInt m = 0; m <= s; m++)
      if (m != i) val *= (tau - c[m]) / (c[i] - c[m]);
    for (PetscInt j = 0; j <= s; j++) {
      PetscReal prod;

      if (j == i) continue;
      prod = 1 / (c[i] - c[j]);
      for (PetscInt m = 0; m <= s; m++)
        if (m != i && m != j) prod *= (tau - c[m]) / (c[i] - c[m]);
      der += prod;
    }
    if (phi) phi[i] = val;
    if (dphi) dphi[i] = der;
  }
  PetscFunctionReturn(0);
}

/* The built-in families (registered in src/ts/registry.c): the constructor allocates, the core frees */
PetscErrorCode SimpVIFamilyLobatto_Private(PetscInt s, PetscInt *nq, PetscReal **tau, PetscReal **w, PetscInt *order)
{
  PetscFunctionBegin;
  *nq    = s + 1;
  *order = 2 * s;
  PetscCall(PetscMalloc1(s + 1, tau));
  PetscCall(PetscMalloc1(s + 1, w));
  PetscCall(GaussLobatto(s, *tau, *w));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIFamilyGauss_Private(PetscInt s, PetscInt *nq, PetscReal **tau, PetscReal **w, PetscInt *order)
{
  PetscFunctionBegin;
  *nq    = s;
  *order = 2 * s;
  PetscCall(PetscMalloc1(s, tau));
  PetscCall(PetscMalloc1(s, w));
  PetscCall(GaussLegendre(s, *tau, *w));
  PetscFunctionReturn(0);
}

/* What a constructor gave must be a quadrature of [0,1]: points inside it, weights summing to its length (NaN fails
   every test below). The fault is put in msg (code 0: none), so that the caller frees the arrays before it stops. */
static PetscErrorCode CheckQuadrature(const char family[], PetscInt s, PetscInt nq, const PetscReal tau[], const PetscReal w[], PetscInt order, PetscErrorCode *code, char msg[], size_t len)
{
  const PetscReal tol = 100 * PETSC_MACHINE_EPSILON;
  PetscReal       sum = 0;

  PetscFunctionBegin;
  *code = 0;
  if (nq < 1) {
    *code = PETSC_ERR_ARG_WRONG;
    PetscCall(PetscSNPrintf(msg, len, "TSSIMPVI family %s gave %" PetscInt_FMT " quadrature points for degree %" PetscInt_FMT ": it must give at least 1", family, nq, s));
  } else if (!tau || !w) {
    *code = PETSC_ERR_ARG_NULL;
    PetscCall(PetscSNPrintf(msg, len, "TSSIMPVI family %s gave no quadrature points or weights for degree %" PetscInt_FMT ": it must allocate them with PetscMalloc1()", family, s));
  } else if (order < 1) {
    *code = PETSC_ERR_ARG_WRONG;
    PetscCall(PetscSNPrintf(msg, len, "TSSIMPVI family %s declared order %" PetscInt_FMT " for degree %" PetscInt_FMT ": it must be at least 1", family, order, s));
  } else {
    for (PetscInt k = 0; k < nq && !*code; k++) {
      if (!(tau[k] >= -tol && tau[k] <= 1 + tol)) {
        *code = PETSC_ERR_ARG_OUTOFRANGE;
        PetscCall(PetscSNPrintf(msg, len, "TSSIMPVI family %s at degree %" PetscInt_FMT ": quadrature point %" PetscInt_FMT " is %g, outside [0, 1]", family, s, k, (double)tau[k]));
      }
      sum += w[k];
    }
    if (!*code && !(PetscAbsReal(sum - 1) <= nq * tol)) {
      *code = PETSC_ERR_ARG_WRONG;
      PetscCall(PetscSNPrintf(msg, len, "TSSIMPVI family %s at degree %" PetscInt_FMT ": its %" PetscInt_FMT " quadrature weights sum to %g, not 1 (the length of [0, 1])", family, s, nq, (double)sum));
    }
  }
  PetscFunctionReturn(0);
}

/*
  SimpVISchemeCreate_Private - builds the table (nodes, quadrature, B, D) of the degree-s scheme of a family, from its
  constructor's quadrature
*/
PetscErrorCode SimpVISchemeCreate_Private(const char family[], SimpVIFamilyFn create, PetscInt s, SimpVIScheme **scheme)
{
  SimpVIScheme  *sc;
  PetscReal     *cw, *tau = NULL, *w = NULL;
  PetscInt       nq = 0, order = 0;
  PetscErrorCode code;
  char           msg[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCheck(s >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "TSSIMPVI degree %" PetscInt_FMT " must be at least 1", s);
  PetscCheck(s <= 32, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "TSSIMPVI degree %" PetscInt_FMT " is above the supported 32", s);
  PetscCall((*create)(s, &nq, &tau, &w, &order));
  PetscCall(CheckQuadrature(family, s, nq, tau, w, order, &code, msg, sizeof(msg)));
  if (code) {
    PetscCall(PetscFree(tau));
    PetscCall(PetscFree(w));
  }
  PetscCheck(!code, PETSC_COMM_SELF, code, "%s", msg);
  PetscCall(PetscNew(&sc));
  PetscCall(PetscStrallocpy(family, &sc->family));
  sc->degree = s;
  sc->nq     = nq;
  sc->order  = order;
  PetscCall(PetscMalloc5(s + 1, &sc->c, sc->nq, &sc->tau, sc->nq, &sc->w, sc->nq * (s + 1), &sc->B, sc->nq * (s + 1), &sc->D));
  PetscCall(PetscMalloc1(s + 1, &cw));
  PetscCall(GaussLobatto(s, sc->c, cw));
  PetscCall(PetscFree(cw));
  PetscCall(PetscArraycpy(sc->tau, tau, nq));
  PetscCall(PetscArraycpy(sc->w, w, nq));
  PetscCall(PetscFree(tau));
  PetscCall(PetscFree(w));
  for (PetscInt k = 0; k < sc->nq; k++) PetscCall(SimpVISchemeBasis_Private(sc, sc->tau[k], &sc->B[k * (s + 1)], &sc->D[k * (s + 1)]));
  *scheme = sc;
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVISchemeDestroy_Private(SimpVIScheme **scheme)
{
  PetscFunctionBegin;
  if (!*scheme) PetscFunctionReturn(0);
  PetscCall(PetscFree((*scheme)->family));
  PetscCall(PetscFree5((*scheme)->c, (*scheme)->tau, (*scheme)->w, (*scheme)->B, (*scheme)->D));
  PetscCall(PetscFree(*scheme));
  PetscFunctionReturn(0);
}
