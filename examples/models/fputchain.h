/*
   An FPUT-beta chain of n unequal masses between two walls, tests/conformance/outside/fput_dmda_chain.c's on a plain
   Vec of one process (bench/stepcost -problem fput):
     m_i u_i'' + S(u_i - u_{i-1}) - S(u_{i+1} - u_i) = 0,  u_{-1} = u_n = 0,  S(d) = d + beta d^3,
   the force of the springs' potential d^2/2 + beta d^4/4, with m_i = 1 + sin^2(0.37 i)/2 in [1, 1.5]. Written as a
   TSALPHA2 user writes it (TSSetI2Function()/TSSetI2Jacobian()), with its energy and its start: a pulse of width 20
   in the middle of the chain, moving, over a small wave of 7 periods along it.
*/
#ifndef FPUTCHAIN_H
#define FPUTCHAIN_H
#include <petscts.h>

typedef struct {
  PetscInt   n;
  PetscReal  beta;
  PetscReal *m; /* the masses */
} FPUTChain;

static inline PetscErrorCode FPUTChainCreate(PetscInt n, PetscReal beta, FPUTChain *c)
{
  PetscFunctionBeginUser;
  c->n    = n;
  c->beta = beta;
  PetscCall(PetscMalloc1(n, &c->m));
  for (PetscInt i = 0; i < n; i++) c->m[i] = 1.0 + 0.5 * PetscSinReal(0.37 * i) * PetscSinReal(0.37 * i);
  PetscFunctionReturn(0);
}

static inline PetscErrorCode FPUTChainDestroy(FPUTChain *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(c->m));
  PetscFunctionReturn(0);
}

static inline PetscReal FPUTChainSpring(const FPUTChain *c, PetscReal d)
{
  return d + c->beta * d * d * d;
}

static inline PetscReal FPUTChainStiffness(const FPUTChain *c, PetscReal d)
{
  return 1 + 3 * c->beta * d * d;
}

/* F = M a + S(u_i - u_{i-1}) - S(u_{i+1} - u_i) */
static inline PetscErrorCode FPUTChainI2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  const FPUTChain   *c = (const FPUTChain *)ctx;
  const PetscScalar *u, *a;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayWrite(F, &f));
  for (PetscInt i = 0; i < c->n; i++) {
    const PetscReal ul = i > 0 ? u[i - 1] : 0, ur = i < c->n - 1 ? u[i + 1] : 0;

    f[i] = c->m[i] * a[i] + FPUTChainSpring(c, u[i] - ul) - FPUTChainSpring(c, ur - u[i]);
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

/* J = dF/dU + shiftA M: tridiagonal, preallocated for 3 entries a row */
static inline PetscErrorCode FPUTChainI2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  const FPUTChain   *c = (const FPUTChain *)ctx;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt i = 0; i < c->n; i++) {
    const PetscReal ul = i > 0 ? u[i - 1] : 0, ur = i < c->n - 1 ? u[i + 1] : 0;
    const PetscReal kl = FPUTChainStiffness(c, u[i] - ul), kr = FPUTChainStiffness(c, ur - u[i]);
    PetscScalar     vals[3];
    PetscInt        cols[3], k;

    k = 0;
    if (i > 0) {
      cols[k]   = i - 1;
      vals[k++] = -kl;
    }
    cols[k]   = i;
    vals[k++] = shiftA * c->m[i] + kl + kr;
    if (i < c->n - 1) {
      cols[k]   = i + 1;
      vals[k++] = -kr;
    }
    PetscCall(MatSetValues(P, 1, &i, k, cols, vals, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* H = sum m v^2/2 + the n + 1 springs' d^2/2 + beta d^4/4 */
static inline PetscErrorCode FPUTChainEnergy(const FPUTChain *c, Vec U, Vec V, PetscReal *H)
{
  const PetscScalar *u, *v;
  PetscReal          h = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(V, &v));
  for (PetscInt i = 0; i <= c->n; i++) {
    const PetscReal d = (i < c->n ? u[i] : 0) - (i > 0 ? u[i - 1] : 0);

    if (i < c->n) h += 0.5 * c->m[i] * v[i] * v[i];
    h += 0.5 * d * d + 0.25 * c->beta * d * d * d * d;
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(V, &v));
  *H = h;
  PetscFunctionReturn(0);
}

/* fput_dmda_chain.c's start */
static inline PetscErrorCode FPUTChainStart(const FPUTChain *c, Vec U, Vec V)
{
  PetscScalar *u, *v;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayWrite(U, &u));
  PetscCall(VecGetArrayWrite(V, &v));
  for (PetscInt i = 0; i < c->n; i++) {
    const PetscReal y = (i - 0.5 * c->n) / 20.0;

    u[i] = 0.8 * PetscExpReal(-y * y) + 0.01 * PetscSinReal(2 * PETSC_PI * i * 7.0 / c->n);
    v[i] = 0.3 * PetscExpReal(-y * y) * PetscCosReal(0.5 * i);
  }
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(VecRestoreArrayWrite(V, &v));
  PetscFunctionReturn(0);
}
#endif
