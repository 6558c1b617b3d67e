/*
   A chain of N point masses (masses 1, 1.25, 1.5, 1, ...) joined by rigid links of length 1, the first link hung from
   a fixed pivot at the origin, under gravity along the last coordinate, in 2-D or 3-D, on a plain parallel Vec: each
   process holds its share of the masses and of the links that end at them. The constraints are given the way TAO takes
   equality constraints (TSSimpVISetEqualityConstraintsRoutine() and its Jacobian and Hessian routines). Shared by
   tests/chainvec.c and bench/chaindae.c.

     L = 1/2 sum_a m_a |v_a|^2 - V,   V = grav sum_a m_a x_a[d-1],   g_a = (|x_a - x_{a-1}|^2 - 1)/2   (x_{-1} = 0)
*/
#ifndef LINKCHAIN_H
#define LINKCHAIN_H
#include <simpvi.h>

typedef struct {
  PetscInt   N, d;        /* masses (= links), dimension */
  PetscReal  grav;        /* gravity, along the last coordinate */
  PetscReal  drag;        /* a linear drag -drag v on every mass (0: none; tests/chainvec.c's force) */
  PetscInt   first, nloc; /* this process's masses */
  PetscInt   prev;        /* 1 when xl starts with the mass before the first (the other end of the first link) */
  Vec        xl;          /* the positions of the masses of this process's links */
  VecScatter scatter;     /* q -> xl */
} Chain;

static PetscReal Mass(PetscInt a)
{
  return 1 + 0.25 * (PetscReal)(a % 3);
}

/* The chain at rest position and motion: link a from mass a-1 (the pivot for a = 0) to mass a, at polar angle th_a
   (from the downward vertical) and azimuth ph_a, turning at omega_a; positions and velocities of every mass */
static void Initial(const Chain *ch, PetscReal x[], PetscReal v[])
{
  const PetscInt d = ch->d;

  for (PetscInt a = 0; a < ch->N; a++) {
    const PetscReal th = 0.5 + 0.3 * PetscSinReal((PetscReal)a), ph = 0.7 * (PetscReal)a, w = 0.6 * PetscCosReal(1.3 * (PetscReal)a);
    PetscReal       e[3], u[3];

    if (d == 2) {
      e[0] = PetscSinReal(th), e[1] = -PetscCosReal(th);
      u[0] = w * PetscCosReal(th), u[1] = w * PetscSinReal(th); /* w (e rotated by 90 degrees): u . e = 0 */
    } else {
      const PetscReal om[3] = {0.3 * w, -0.2 + 0.1 * w, 0.5};

      e[0] = PetscSinReal(th) * PetscCosReal(ph), e[1] = PetscSinReal(th) * PetscSinReal(ph), e[2] = -PetscCosReal(th);
      u[0] = om[1] * e[2] - om[2] * e[1], u[1] = om[2] * e[0] - om[0] * e[2], u[2] = om[0] * e[1] - om[1] * e[0]; /* omega x e */
    }
    for (PetscInt c = 0; c < d; c++) {
      x[a * d + c] = (a ? x[(a - 1) * d + c] : 0) + e[c];
      v[a * d + c] = (a ? v[(a - 1) * d + c] : 0) + u[c];
    }
  }
}

/* This process's masses (PETSc's default split of N), and the scatter of a position Vec to its links' ends */
static PetscErrorCode ChainCreate(MPI_Comm comm, PetscInt N, PetscInt d, Chain *ch)
{
  PetscInt lo, hi;
  Vec      g, q;
  IS       is;

  PetscFunctionBeginUser;
  ch->N    = N;
  ch->d    = d;
  ch->grav = 9.81;
  PetscCall(VecCreateMPI(comm, PETSC_DECIDE, N, &g));
  PetscCall(VecGetOwnershipRange(g, &lo, &hi));
  PetscCall(VecDestroy(&g));
  ch->first = lo;
  ch->nloc  = hi - lo;
  ch->prev  = lo > 0;
  PetscCall(VecCreateMPI(comm, d * ch->nloc, d * N, &q));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, d * (ch->nloc + ch->prev), &ch->xl));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, d * (ch->nloc + ch->prev), d * (lo - ch->prev), 1, &is));
  PetscCall(VecScatterCreate(q, is, ch->xl, NULL, &ch->scatter));
  PetscCall(ISDestroy(&is));
  PetscCall(VecDestroy(&q));
  PetscFunctionReturn(0);
}

static PetscErrorCode ChainDestroy(Chain *ch)
{
  PetscFunctionBeginUser;
  PetscCall(VecDestroy(&ch->xl));
  PetscCall(VecScatterDestroy(&ch->scatter));
  PetscFunctionReturn(0);
}

/* The mass matrix M (diagonal), the potential's Hessian K (0), and the layouts of G (N x dN: 2d entries a row, d of
   them maybe on the previous process) and of the constraints' Hessian H (3 entries a row) */
static PetscErrorCode ChainMatrices(MPI_Comm comm, const Chain *ch, Mat *M, Mat *K, Mat *G, Mat *H)
{
  const PetscInt d = ch->d, n = d * ch->nloc, N = d * ch->N;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(comm, n, n, N, N, 1, NULL, 0, NULL, M));
  PetscCall(MatCreateAIJ(comm, n, n, N, N, 1, NULL, 0, NULL, K));
  for (PetscInt j = d * ch->first; j < d * (ch->first + ch->nloc); j++) {
    PetscCall(MatSetValue(*M, j, j, Mass(j / d), INSERT_VALUES));
    PetscCall(MatSetValue(*K, j, j, 0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(*K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateAIJ(comm, ch->nloc, n, ch->N, N, 2 * d, NULL, d, NULL, G));
  PetscCall(MatCreateAIJ(comm, n, n, N, N, 3, NULL, 2, NULL, H));
  PetscFunctionReturn(0);
}

/* V = grav sum_a m_a x_a[d-1] */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec gradV, void *ctx)
{
  const Chain       *ch = (const Chain *)ctx;
  const PetscScalar *q;
  PetscScalar       *g;
  PetscReal          Vloc = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayWrite(gradV, &g));
  for (PetscInt a = 0; a < ch->nloc; a++)
    for (PetscInt c = 0; c < ch->d; c++) {
      const PetscReal f = c == ch->d - 1 ? ch->grav * Mass(ch->first + a) : 0;

      g[a * ch->d + c] = f;
      Vloc += f * q[a * ch->d + c];
    }
  PetscCall(VecRestoreArrayWrite(gradV, &g));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscCall(MPIU_Allreduce(&Vloc, V, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  PetscFunctionBeginUser; /* gravity: H = 0, as assembled */
  PetscFunctionReturn(0);
}

/* The positions (or velocities) at both ends of this process's links: xl = (mass first-1 if any, masses
   first..first+nloc-1) */
static PetscErrorCode Links(Chain *ch, Vec q, const PetscScalar **xl)
{
  PetscFunctionBeginUser;
  PetscCall(VecScatterBegin(ch->scatter, q, ch->xl, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(ch->scatter, q, ch->xl, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(ch->xl, xl));
  PetscFunctionReturn(0);
}

/* link a (local index la) as the vector dvec = x_a - x_{a-1} */
static void LinkVector(const Chain *ch, const PetscScalar xl[], PetscInt la, PetscReal dvec[])
{
  const PetscInt   d = ch->d, a = ch->first + la;
  const PetscReal *xa = xl + (la + ch->prev) * d, *xb = a ? xl + (la + ch->prev - 1) * d : NULL;

  for (PetscInt c = 0; c < d; c++) dvec[c] = xa[c] - (xb ? xb[c] : 0);
}

/* g_a = (|x_a - x_{a-1}|^2 - 1)/2 */
static PetscErrorCode Equality(TS ts, Vec q, Vec g, void *ctx)
{
  Chain             *ch = (Chain *)ctx;
  const PetscScalar *xl;
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  PetscCall(Links(ch, q, &xl));
  PetscCall(VecGetArrayWrite(g, &gg));
  for (PetscInt la = 0; la < ch->nloc; la++) {
    PetscReal e[3], n2 = 0;

    LinkVector(ch, xl, la, e);
    for (PetscInt c = 0; c < ch->d; c++) n2 += e[c] * e[c];
    gg[la] = 0.5 * (n2 - 1);
  }
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(VecRestoreArrayRead(ch->xl, &xl));
  PetscFunctionReturn(0);
}

/* G row a: (x_a - x_{a-1})' at x_a, its negative at x_{a-1}; with q the velocities, the derivative of G(q) v in q */
static PetscErrorCode JacobianEquality(TS ts, Vec q, Mat G, void *ctx)
{
  Chain             *ch = (Chain *)ctx;
  const PetscInt     d  = ch->d;
  const PetscScalar *xl;

  PetscFunctionBeginUser;
  PetscCall(Links(ch, q, &xl));
  for (PetscInt la = 0; la < ch->nloc; la++) {
    const PetscInt a = ch->first + la;
    PetscInt       cols[6];
    PetscReal      e[3], vals[6];

    LinkVector(ch, xl, la, e);
    for (PetscInt c = 0; c < d; c++) {
      cols[c] = a * d + c;
      vals[c] = e[c];
      if (a) {
        cols[d + c] = (a - 1) * d + c;
        vals[d + c] = -e[c];
      }
    }
    PetscCall(MatSetValues(G, 1, &a, a ? 2 * d : d, cols, vals, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(ch->xl, &xl));
  PetscCall(MatAssemblyBegin(G, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(G, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* H = sum_a lambda_a [I -I; -I I] on (x_a, x_{a-1}) (rows of x_{a-1} may be another process's) */
static PetscErrorCode HessianEquality(TS ts, Vec q, Vec lambda, Mat H, void *ctx)
{
  Chain             *ch = (Chain *)ctx;
  const PetscInt     d  = ch->d;
  const PetscScalar *l;

  PetscFunctionBeginUser;
  PetscCall(MatZeroEntries(H));
  PetscCall(VecGetArrayRead(lambda, &l));
  for (PetscInt la = 0; la < ch->nloc; la++) {
    const PetscInt a = ch->first + la;

    for (PetscInt c = 0; c < d; c++) {
      const PetscInt i = a * d + c, j = (a - 1) * d + c;

      PetscCall(MatSetValue(H, i, i, l[la], ADD_VALUES));
      if (a) {
        PetscCall(MatSetValue(H, j, j, l[la], ADD_VALUES));
        PetscCall(MatSetValue(H, i, j, -l[la], ADD_VALUES));
        PetscCall(MatSetValue(H, j, i, -l[la], ADD_VALUES));
      }
    }
  }
  PetscCall(VecRestoreArrayRead(lambda, &l));
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}
#endif
