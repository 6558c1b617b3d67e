/*
   Measures the accuracy of simpvi's Gauss-Lobatto and Gauss-Legendre tables (the static GaussLobatto() and
   GaussLegendre() of src/core/scheme.c, included here) against PETSc's PetscDTGaussLobattoLegendreQuadrature() /
   PetscDTGaussQuadrature(), both on [0,1], over degrees 1..32, with a __float128 reference. It decided that scheme.c keeps its own tables.
     mpicc -I/usr/include/petsc -Iinclude tools/quadrature_accuracy.c -o /tmp/qa -lpetsc -lquadmath -lm && /tmp/qa
*/
#include <petscdt.h>
#include "../src/core/scheme.c"
#include <quadmath.h>
typedef __float128 Q;
static void        LegQ(int n, Q x, Q *Pn, Q *Pn1)
{
  Q p0 = 1, p1 = x, p2;
  if (n == 0) {
    *Pn  = 1;
    *Pn1 = 0;
    return;
  }
  for (int k = 2; k <= n; k++) {
    p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  *Pn  = p1;
  *Pn1 = p0;
}
static void GLQ(int s, Q x[], Q w[])
{
  for (int i = 0; i <= s; i++) {
    Q xi = -cosq(M_PIq * i / s), Pn, Pn1, dx = 1;
    for (int it = 0; it < 200 && fabsq(dx) > 1e-32Q; it++) {
      LegQ(s, xi, &Pn, &Pn1);
      dx = (xi * Pn - Pn1) / ((s + 1) * Pn);
      xi -= dx;
    }
    LegQ(s, xi, &Pn, &Pn1);
    x[i] = (1 + xi) / 2;
    w[i] = 1.0Q / (s * (s + 1) * Pn * Pn);
  }
  x[0] = 0;
  x[s] = 1;
}
static void GGQ(int n, Q x[], Q w[])
{
  for (int i = 0; i < n; i++) {
    Q xi = -cosq(M_PIq * (i + 0.75Q) / (n + 0.5Q)), Pn, Pn1, dP = 1, dx = 1;
    for (int it = 0; it < 200 && fabsq(dx) > 1e-32Q; it++) {
      LegQ(n, xi, &Pn, &Pn1);
      dP = n * (xi * Pn - Pn1) / (xi * xi - 1);
      dx = Pn / dP;
      xi -= dx;
    }
    LegQ(n, xi, &Pn, &Pn1);
    dP   = n * (xi * Pn - Pn1) / (xi * xi - 1);
    x[i] = (1 + xi) / 2;
    w[i] = 1.0Q / ((1 - xi * xi) * dP * dP);
  }
}
int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  double lo_own = 0, lo_dt = 0, g_own = 0, g_dt = 0;
  for (int s = 1; s <= 32; s++) {
    PetscReal x[40], w[40], y[40], v[40];
    Q         xq[40], wq[40];
    double    eo = 0, ed = 0;
    PetscCall(GaussLobatto(s, x, w));
    GLQ(s, xq, wq);
    PetscCall(PetscDTGaussLobattoLegendreQuadrature(s + 1, PETSCGAUSSLOBATTOLEGENDRE_VIA_NEWTON, y, v));
    for (int i = 0; i <= s; i++) {
      Q yy = ((Q)y[i] + 1) / 2, vv = (Q)v[i] / 2;
      eo = fmax(eo, fmax((double)fabsq(x[i] - xq[i]), (double)fabsq(w[i] - wq[i])));
      ed = fmax(ed, fmax((double)fabsq(yy - xq[i]), (double)fabsq(vv - wq[i])));
    }
    lo_own = fmax(lo_own, eo);
    lo_dt  = fmax(lo_dt, ed);
    eo = ed = 0;
    PetscCall(GaussLegendre(s, x, w));
    GGQ(s, xq, wq);
    PetscCall(PetscDTGaussQuadrature(s, -1, 1, y, v));
    for (int i = 0; i < s; i++) {
      Q yy = ((Q)y[i] + 1) / 2, vv = (Q)v[i] / 2;
      eo = fmax(eo, fmax((double)fabsq(x[i] - xq[i]), (double)fabsq(w[i] - wq[i])));
      ed = fmax(ed, fmax((double)fabsq(yy - xq[i]), (double)fabsq(vv - wq[i])));
    }
    g_own = fmax(g_own, eo);
    g_dt  = fmax(g_dt, ed);
  }
  printf("Lobatto s=1..32 max error on [0,1]: own %.2e  PetscDT(+mapping) %.2e\n", lo_own, lo_dt);
  printf("Gauss   s=1..32 max error on [0,1]: own %.2e  PetscDT(+mapping) %.2e\n", g_own, g_dt);
  PetscCall(PetscFinalize());
}
