static char help[] = "Sine-Gordon u_tt = u_xx - sin u (or u_tt = u_xx + u_yy - sin u) by TSSIMPVI on a dof-1 DMDA, against the\n"
                     "exact travelling kink u = 4 arctan(exp((x cos a + y sin a - x0 - v t)/sqrt(1 - v^2))).\n"
                     "Finite differences with a lumped mass: the discrete Lagrangian is sum_i dx^d [u_t^2/2 + u (Lap_h u)/2 - (1 - cos u)],\n"
                     "Lap_h the 3-point (-order 2) or 5-point (-order 4, default) Laplacian in each direction. The Dirichlet values are\n"
                     "the exact kink's at the boundary nodes and, for the 5-point stencil, at one node beyond (the DMDA's ghost points):\n"
                     "they enter the potential V(t, u) as a time-dependent linear term, so the scheme keeps its order whatever the domain\n"
                     "size (-bc fixed freezes them at their initial values instead: then the domain must hold the kink well inside).\n"
                     "Sweeps: -sweep spacetime refines dx and the step together (h = cfl dx), error against the exact kink, observed\n"
                     "order min(time order, space order); -sweep time keeps the grid and refines the step, error against a run with a\n"
                     "4 times smaller step than the finest (the scheme's own order in time). -serial compares the run on PETSC_COMM_WORLD\n"
                     "with the same run on rank 0 alone. -native: PETSc's own types (rk, theta, ...) get the right-hand side\n"
                     "q' = p/dx^d, p' = dx^d (Lap_h q - sin q) and its Jacobian written out, as a PETSc user writes them, instead of\n"
                     "TSSimpVISetUpPhaseSpace(); -compare_native runs both and compares the trajectories.\n"
                     "Options: -dim <1> -n <199> (interior points per direction, coarsest level) -order <4> -L <20> (domain [-L,L]^d)\n"
                     "         -v <0.5> -x0 <-2> -angle <0.3> (2-D) -T <4> -cfl <0.5> (h = cfl dx on the coarsest level) -levels <3>\n"
                     "         -sweep spacetime|time -bc exact|fixed -serial <0> -native <0> -compare_native <0> -bench (a timing/memory\n"
                     "         record per level)\n\n";

#include <simpvi.h>
#include <petscdmda.h>
#include "benchmemory.h"
#include "phasesplit.h"
#include "workprecision.h"

typedef enum {
  SWEEP_SPACETIME,
  SWEEP_TIME
} Sweep;
static const char *const Sweeps[] = {"spacetime", "time", "Sweep", "SWEEP_", NULL};
typedef enum {
  BC_EXACT,
  BC_FIXED
} BC;
static const char *const BCs[] = {"exact", "fixed", "BC", "BC_", NULL};

typedef struct {
  PetscInt  dim, n, order;
  PetscReal L, vel, x0, angle, T;
  BC        bc;
  PetscBool kinsol; /* solve the steps with SUNDIALS KINSOL (TSSimpVISetNonlinearSolverType()) */
  PetscBool native; /* PETSc's types get the hand-written right-hand side, not TSSimpVISetUpPhaseSpace() */
} Params;

typedef struct {
  Params   *par;
  PetscInt  n;       /* interior points per direction */
  PetscReal dx, vol; /* grid spacing, dx^dim */
  PetscReal c[3];    /* Laplacian stencil: c0 u_i + c1 (u_{i-1} + u_{i+1}) + c2 (u_{i-2} + u_{i+2}), over dx^2 */
  PetscInt  sw;
  DM        da;
  Vec       xloc;
  PetscReal tbc;  /* time of the boundary values in xloc */
  Mat       lap;  /* -dx^d Lap0, the constant part of the Hessian */
  Vec       diag; /* dx^d cos u, its diagonal part */
  Vec       qg;   /* -native: a DMDA global vector that views the positions of U = [q_local | p_local] */
  Vec       grad; /* -native: the potential's gradient, for the energy */
  PetscInt *uidx; /* -native: the index in U of the position at each node of the ghosted local array */
} SG;

typedef struct {
  PetscInt       steps, snes_its, ksp_its;
  PetscLogDouble time;
  PetscReal      err, drift, H0;
  BenchMemory    bm; /* peak memory by phase, first-step time */
  char           tstype[64];
  SG            *native; /* the hand-written right-hand side's context, whose energy the monitor reads */
} RunStats;

static PetscLogEvent EV_Potential, EV_Hessian;

static PetscReal Coord(const SG *sg, PetscInt i)
{
  return -sg->par->L + (i + 1) * sg->dx;
}

static void Exact(const Params *par, PetscReal x, PetscReal y, PetscReal t, PetscReal *u, PetscReal *ut)
{
  const PetscReal g  = 1 / PetscSqrtReal(1 - par->vel * par->vel);
  const PetscReal s  = (par->dim == 1 ? x : x * PetscCosReal(par->angle) + y * PetscSinReal(par->angle)) - par->x0 - par->vel * t;
  const PetscReal xi = g * s;

  *u = 4 * PetscAtanReal(PetscExpReal(xi));
  if (ut) *ut = PetscAbsReal(xi) > 700 ? 0 : -2 * par->vel * g / PetscCoshReal(xi);
}

/* Boundary value at the ghost node (i, j) at time t */
static PetscReal Boundary(const SG *sg, PetscInt i, PetscInt j, PetscReal t)
{
  PetscReal u;

  Exact(sg->par, Coord(sg, i), sg->par->dim > 1 ? Coord(sg, j) : 0, sg->par->bc == BC_FIXED ? 0 : t, &u, NULL);
  return u;
}

static PetscBool Outside(const SG *sg, PetscInt i)
{
  return (PetscBool)(i < 0 || i >= sg->n);
}

/* x with the neighbours' values and, in the ghost points beyond the boundary, the Dirichlet data at time t */
static PetscErrorCode Ghosts(SG *sg, Vec x, PetscReal t)
{
  PetscInt gxs, gys, gxm, gym;

  PetscFunctionBeginUser;
  PetscCall(DMGlobalToLocalBegin(sg->da, x, INSERT_VALUES, sg->xloc));
  PetscCall(DMGlobalToLocalEnd(sg->da, x, INSERT_VALUES, sg->xloc));
  if (sg->tbc == t) PetscFunctionReturn(0); /* the scatter leaves the boundary ghosts alone: still valid */
  PetscCall(DMDAGetGhostCorners(sg->da, &gxs, &gys, NULL, &gxm, &gym, NULL));
  if (sg->par->dim == 1) {
    PetscScalar *a;

    PetscCall(DMDAVecGetArray(sg->da, sg->xloc, &a));
    for (PetscInt i = gxs; i < gxs + gxm; i++)
      if (Outside(sg, i)) a[i] = Boundary(sg, i, 0, t);
    PetscCall(DMDAVecRestoreArray(sg->da, sg->xloc, &a));
  } else {
    PetscScalar **a;

    PetscCall(DMDAVecGetArray(sg->da, sg->xloc, &a));
    for (PetscInt j = gys; j < gys + gym; j++)
      for (PetscInt i = gxs; i < gxs + gxm; i++)
        if (Outside(sg, i) != Outside(sg, j)) a[j][i] = Boundary(sg, i, j, t); /* the star stencil never reads corners */
    PetscCall(DMDAVecRestoreArray(sg->da, sg->xloc, &a));
  }
  sg->tbc = t;
  PetscFunctionReturn(0);
}

/* Lap_h at one node from its neighbours along one direction: lapB with the Dirichlet data, bc its part from them */
static inline void Line(const SG *sg, PetscInt i, const PetscScalar *val[5], PetscReal *lap, PetscReal *bc)
{
  const PetscReal h2 = sg->dx * sg->dx;

  *lap += sg->c[0] * PetscRealPart(*val[2]) / h2;
  for (PetscInt k = 1; k <= sg->sw; k++) {
    PetscReal vm = PetscRealPart(*val[2 - k]), vp = PetscRealPart(*val[2 + k]);

    *lap += sg->c[k] * (vm + vp) / h2;
    if (Outside(sg, i - k)) *bc += sg->c[k] * vm / h2;
    if (Outside(sg, i + k)) *bc += sg->c[k] * vp / h2;
  }
}

/* Lap_h u at node i of the 1-D local array a (bc: its part from the Dirichlet data) */
static inline void Laplacian1d(const SG *sg, const PetscScalar *a, PetscInt i, PetscReal *lap, PetscReal *bc)
{
  const PetscScalar *val[5] = {&a[i], &a[i], &a[i], &a[i], &a[i]};

  for (PetscInt k = 1; k <= sg->sw; k++) {
    val[2 - k] = &a[i - k];
    val[2 + k] = &a[i + k];
  }
  *lap = *bc = 0;
  Line(sg, i, val, lap, bc);
}

/* Lap_h u at node (i, j) of the 2-D local array a */
static inline void Laplacian2d(const SG *sg, const PetscScalar **a, PetscInt i, PetscInt j, PetscReal *lap, PetscReal *bc)
{
  const PetscScalar *vx[5] = {&a[j][i], &a[j][i], &a[j][i], &a[j][i], &a[j][i]}, *vy[5] = {&a[j][i], &a[j][i], &a[j][i], &a[j][i], &a[j][i]};

  for (PetscInt k = 1; k <= sg->sw; k++) {
    vx[2 - k] = &a[j][i - k];
    vx[2 + k] = &a[j][i + k];
    vy[2 - k] = &a[j - k][i];
    vy[2 + k] = &a[j + k][i];
  }
  *lap = *bc = 0;
  Line(sg, i, vx, lap, bc);
  Line(sg, j, vy, lap, bc);
}

/* V(t, u) = dx^d sum_i [ -u_i (Lap0 u)_i / 2 - u_i b_i(t) + 1 - cos u_i ], Lap0 the Laplacian with zero boundary values and
   b(t) the Dirichlet data's part of Lap_h; grad V = dx^d (-Lap_h u + sin u) with the data */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  SG          *sg = (SG *)ctx;
  PetscInt     xs, ys, xm, ym;
  PetscReal    v = 0;
  PetscScalar *gg;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(EV_Potential, 0, 0, 0, 0));
  PetscCall(Ghosts(sg, x, t));
  PetscCall(DMDAGetCorners(sg->da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(VecGetArrayWrite(g, &gg));
  if (sg->par->dim == 1) {
    const PetscScalar *a;

    PetscCall(DMDAVecGetArrayRead(sg->da, sg->xloc, (void *)&a));
    for (PetscInt i = xs; i < xs + xm; i++) {
      PetscReal lap, bc, u = PetscRealPart(a[i]);

      Laplacian1d(sg, a, i, &lap, &bc);
      gg[i - xs] = sg->vol * (-lap + PetscSinReal(u));
      v += sg->vol * (-0.5 * u * (lap - bc) - u * bc + 1 - PetscCosReal(u));
    }
    PetscCall(DMDAVecRestoreArrayRead(sg->da, sg->xloc, (void *)&a));
  } else {
    const PetscScalar **a;

    PetscCall(DMDAVecGetArrayRead(sg->da, sg->xloc, (void *)&a));
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        PetscReal lap, bc, u = PetscRealPart(a[j][i]);

        Laplacian2d(sg, a, i, j, &lap, &bc);
        gg[(j - ys) * xm + i - xs] = sg->vol * (-lap + PetscSinReal(u));
        v += sg->vol * (-0.5 * u * (lap - bc) - u * bc + 1 - PetscCosReal(u));
      }
    PetscCall(DMDAVecRestoreArrayRead(sg->da, sg->xloc, (void *)&a));
  }
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(MPIU_Allreduce(&v, V, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  PetscCall(PetscLogEventEnd(EV_Potential, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* -dx^d Lap0 into L: the constant part of the Hessian, assembled once */
static PetscErrorCode AssembleLaplacian(SG *sg, Mat L)
{
  PetscInt  xs, ys, xm, ym;
  PetscReal h2 = sg->dx * sg->dx;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(sg->da, &xs, &ys, NULL, &xm, &ym, NULL));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) {
      MatStencil  row = {0}, col[9];
      PetscScalar val[9];
      PetscInt    nc = 0;

      row.i     = i;
      row.j     = j;
      col[nc]   = row;
      val[nc++] = -sg->vol * sg->par->dim * sg->c[0] / h2;
      for (PetscInt k = 1; k <= sg->sw; k++)
        for (PetscInt s = -1; s <= 1; s += 2) {
          if (!Outside(sg, i + s * k)) {
            col[nc]   = row;
            col[nc].i = i + s * k;
            val[nc++] = -sg->vol * sg->c[k] / h2;
          }
          if (sg->par->dim > 1 && !Outside(sg, j + s * k)) {
            col[nc]   = row;
            col[nc].j = j + s * k;
            val[nc++] = -sg->vol * sg->c[k] / h2;
          }
        }
      PetscCall(MatSetValuesStencil(L, 1, &row, nc, col, val, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(L, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(L, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* d2V/du2 = dx^d (-Lap0 + diag(cos u)): the constant part copied, the diagonal added */
static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  SG                *sg = (SG *)ctx;
  const PetscScalar *xx;
  PetscScalar       *d;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(EV_Hessian, 0, 0, 0, 0));
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(sg->diag, &d));
  for (PetscInt k = 0; k < n; k++) d[k] = sg->vol * PetscCosReal(PetscRealPart(xx[k]));
  PetscCall(VecRestoreArrayWrite(sg->diag, &d));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatCopy(sg->lap, H, SAME_NONZERO_PATTERN));
  PetscCall(MatDiagonalSet(H, sg->diag, ADD_VALUES));
  PetscCall(PetscLogEventEnd(EV_Hessian, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* The kink as a PETSc user writes it for PETSc's own types (-native), no library adapter between the TS and the
   arithmetic: U = [q_local | p_local] with p = dx^d q' as under TSSIMPVI, q' = p / dx^d, p' = -grad V = dx^d (Lap_h q
   - sin q), the Dirichlet data in the ghosts (one gradient per right-hand side) */
static PetscErrorCode NativeRHS(TS ts, PetscReal t, Vec U, Vec F, void *ctx)
{
  SG                *sg = (SG *)ctx;
  const PetscScalar *u;
  PetscScalar       *f;
  PetscInt           xs, ys, xm, ym, nloc;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(sg->da, &xs, &ys, NULL, &xm, &ym, NULL));
  nloc = xm * ym;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecPlaceArray(sg->qg, u));
  PetscCall(Ghosts(sg, sg->qg, t));
  PetscCall(VecResetArray(sg->qg));
  PetscCall(VecGetArrayWrite(F, &f));
  for (PetscInt k = 0; k < nloc; k++) f[k] = u[nloc + k] / sg->vol;
  if (sg->par->dim == 1) {
    const PetscScalar *a;

    PetscCall(DMDAVecGetArrayRead(sg->da, sg->xloc, (void *)&a));
    for (PetscInt i = xs; i < xs + xm; i++) {
      PetscReal lap, bc;

      Laplacian1d(sg, a, i, &lap, &bc);
      f[nloc + i - xs] = sg->vol * (lap - PetscSinReal(PetscRealPart(a[i])));
    }
    PetscCall(DMDAVecRestoreArrayRead(sg->da, sg->xloc, (void *)&a));
  } else {
    const PetscScalar **a;

    PetscCall(DMDAVecGetArrayRead(sg->da, sg->xloc, (void *)&a));
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        PetscReal lap, bc;

        Laplacian2d(sg, a, i, j, &lap, &bc);
        f[nloc + (j - ys) * xm + i - xs] = sg->vol * (lap - PetscSinReal(PetscRealPart(a[j][i])));
      }
    PetscCall(DMDAVecRestoreArrayRead(sg->da, sg->xloc, (void *)&a));
  }
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

/* dF/dU = [0, I / dx^d; dx^d (Lap0 - diag(cos q)), 0], with explicit zeros on the diagonal for the implicit types'
   shift; the columns of the neighbours from the index map uidx */
static PetscErrorCode NativeRHSJacobian(TS ts, PetscReal t, Vec U, Mat J, Mat P, void *ctx)
{
  SG                *sg = (SG *)ctx;
  const PetscScalar *u;
  const PetscReal    h2 = sg->dx * sg->dx;
  PetscInt           xs, ys, xm, ym, gxs, gys, gxm, nloc, lo;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(sg->da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(DMDAGetGhostCorners(sg->da, &gxs, &gys, NULL, &gxm, NULL, NULL));
  PetscCall(VecGetOwnershipRange(U, &lo, NULL));
  nloc = xm * ym;
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) {
      const PetscInt k = (j - ys) * xm + i - xs, g = (j - gys) * gxm + i - gxs;
      PetscInt       rq = lo + k, rp = lo + nloc + k, cols[10], nc = 0;
      PetscScalar    vals[10], qrow[2] = {0, 1 / sg->vol};

      PetscCall(MatSetValues(P, 1, &rq, 2, (PetscInt[]){rq, rp}, qrow, INSERT_VALUES));
      cols[nc]   = rp;
      vals[nc++] = 0;
      cols[nc]   = rq;
      vals[nc++] = sg->vol * (sg->par->dim * sg->c[0] / h2 - PetscCosReal(PetscRealPart(u[k])));
      for (PetscInt m = 1; m <= sg->sw; m++)
        for (PetscInt s = -1; s <= 1; s += 2) {
          if (!Outside(sg, i + s * m)) {
            cols[nc]   = sg->uidx[g + s * m];
            vals[nc++] = sg->vol * sg->c[m] / h2;
          }
          if (sg->par->dim > 1 && !Outside(sg, j + s * m)) {
            cols[nc]   = sg->uidx[g + s * m * gxm];
            vals[nc++] = sg->vol * sg->c[m] / h2;
          }
        }
      PetscCall(MatSetValues(P, 1, &rp, nc, cols, vals, INSERT_VALUES));
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

/* H = sum p^2 / (2 dx^d) + V(q): the energy without TSSimpVIComputeEnergy(), which needs the adapter */
static PetscErrorCode NativeEnergy(TS ts, PetscReal t, Vec U, PetscReal *H, void *ctx)
{
  SG                *sg = (SG *)ctx;
  const PetscScalar *u;
  PetscInt           nloc;
  PetscReal          V, kin = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(sg->qg, &nloc));
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt k = 0; k < nloc; k++) kin += PetscSqr(PetscRealPart(u[nloc + k])) / (2 * sg->vol);
  PetscCall(VecPlaceArray(sg->qg, u));
  PetscCall(Potential(ts, t, sg->qg, &V, sg->grad, sg));
  PetscCall(VecResetArray(sg->qg));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &kin, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)U)));
  *H = kin + V;
  PetscFunctionReturn(0);
}

/* -native: the right-hand side and its Jacobian J (AIJ, 2 nloc local rows of U) on ts, and the index map */
static PetscErrorCode NativeSetUp(TS ts, SG *sg, Vec U, Mat *J)
{
  PetscInt     xs, ys, xm, ym, nloc, lo, nl, band = 2 * sg->sw * sg->par->dim;
  Vec          idx, idxloc;
  PetscScalar *a;

  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(sg->da, &xs, &ys, NULL, &xm, &ym, NULL));
  nloc = xm * ym;
  PetscCall(VecGetOwnershipRange(U, &lo, NULL));
  PetscCall(DMCreateGlobalVector(sg->da, &sg->qg));
  PetscCall(VecDuplicate(sg->qg, &sg->grad));
  /* each node's index in U, scattered to the ghosts like the solution */
  PetscCall(DMCreateGlobalVector(sg->da, &idx));
  PetscCall(DMCreateLocalVector(sg->da, &idxloc));
  PetscCall(VecGetArrayWrite(idx, &a));
  for (PetscInt k = 0; k < nloc; k++) a[k] = lo + k;
  PetscCall(VecRestoreArrayWrite(idx, &a));
  PetscCall(DMGlobalToLocalBegin(sg->da, idx, INSERT_VALUES, idxloc));
  PetscCall(DMGlobalToLocalEnd(sg->da, idx, INSERT_VALUES, idxloc));
  PetscCall(VecGetLocalSize(idxloc, &nl));
  PetscCall(PetscMalloc1(nl, &sg->uidx));
  PetscCall(VecGetArray(idxloc, &a));
  for (PetscInt k = 0; k < nl; k++) sg->uidx[k] = (PetscInt)PetscRealPart(a[k]);
  PetscCall(VecRestoreArray(idxloc, &a));
  PetscCall(VecDestroy(&idx));
  PetscCall(VecDestroy(&idxloc));

  PetscCall(MatCreate(PetscObjectComm((PetscObject)U), J));
  PetscCall(MatSetSizes(*J, 2 * nloc, 2 * nloc, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*J, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(*J, 2 + band, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*J, 2 + band, NULL, band, NULL));
  PetscCall(TSSetRHSFunction(ts, NULL, NativeRHS, sg));
  PetscCall(TSSetRHSJacobian(ts, *J, *J, NativeRHSJacobian, sg));
  PetscFunctionReturn(0);
}

static PetscErrorCode MonitorEnergy(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  RunStats *st = (RunStats *)ctx;
  PetscReal H;

  PetscFunctionBeginUser;
  if (st->native) PetscCall(NativeEnergy(ts, t, U, &H, st->native));
  else PetscCall(TSSimpVIComputeEnergy(ts, t, U, &H));
  if (step == 0) st->H0 = H;
  st->drift = PetscMax(st->drift, PetscAbsReal(H - st->H0) / PetscAbsReal(st->H0));
  PetscFunctionReturn(0);
}

/* The positions or momenta of U in the DMDA's natural ordering, gathered on rank 0 */
static PetscErrorCode GatherNatural(DM da, Vec sub, Vec *all)
{
  Vec        g, nat;
  VecScatter scatter;

  PetscFunctionBeginUser;
  PetscCall(DMGetGlobalVector(da, &g));
  PetscCall(VecCopy(sub, g));
  PetscCall(DMDACreateNaturalVector(da, &nat));
  PetscCall(DMDAGlobalToNaturalBegin(da, g, INSERT_VALUES, nat));
  PetscCall(DMDAGlobalToNaturalEnd(da, g, INSERT_VALUES, nat));
  PetscCall(DMRestoreGlobalVector(da, &g));
  PetscCall(VecScatterCreateToZero(nat, &scatter, all));
  PetscCall(VecScatterBegin(scatter, nat, *all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(scatter, nat, *all, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterDestroy(&scatter));
  PetscCall(VecDestroy(&nat));
  PetscFunctionReturn(0);
}

/* One run on comm with n interior points per direction and nsteps steps to T: the error against the exact kink at T
   and, if asked, the final (q, p) gathered on rank 0 in natural ordering */
static PetscErrorCode Run(MPI_Comm comm, Params *par, PetscInt n, PetscInt nsteps, PetscBool energy, PetscBool memory, Vec *qp, RunStats *st)
{
  SG              sg;
  TS              ts;
  Vec             U, e;
  Mat             M, K, J = NULL;
  PetscInt        xs, ys, xm, ym, nloc, N;
  PetscScalar    *u;
  IS              isq, isp;
  const PetscReal c2[3] = {-2, 1, 0}, c4[3] = {-30.0 / 12, 16.0 / 12, -1.0 / 12};
  WorkPrecision   wp;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&sg, sizeof(sg)));
  PetscCall(PetscMemzero(st, sizeof(*st)));
  sg.par = par;
  sg.n   = n;
  sg.dx  = 2 * par->L / (n + 1);
  sg.vol = par->dim == 1 ? sg.dx : sg.dx * sg.dx;
  sg.sw  = par->order / 2;
  sg.tbc = PETSC_MAX_REAL;
  PetscCall(PetscArraycpy(sg.c, par->order == 2 ? c2 : c4, 3));
  if (par->dim == 1) PetscCall(DMDACreate1d(comm, DM_BOUNDARY_GHOSTED, n, 1, sg.sw, NULL, &sg.da));
  else PetscCall(DMDACreate2d(comm, DM_BOUNDARY_GHOSTED, DM_BOUNDARY_GHOSTED, DMDA_STENCIL_STAR, n, n, PETSC_DECIDE, PETSC_DECIDE, 1, sg.sw, NULL, NULL, &sg.da));
  PetscCall(DMSetFromOptions(sg.da));
  PetscCall(DMSetUp(sg.da));
  PetscCall(DMCreateLocalVector(sg.da, &sg.xloc));
  PetscCall(DMDAGetCorners(sg.da, &xs, &ys, NULL, &xm, &ym, NULL));
  nloc = xm * ym;
  N    = par->dim == 1 ? n : n * n;

  /* lumped mass dx^d I; the Hessian on the DMDA's star stencil */
  {
    PetscInt rstart;

    PetscCall(MatCreateAIJ(comm, nloc, nloc, N, N, 1, NULL, 0, NULL, &M));
    PetscCall(MatGetOwnershipRange(M, &rstart, NULL));
    for (PetscInt k = 0; k < nloc; k++) PetscCall(MatSetValue(M, rstart + k, rstart + k, sg.vol, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(DMCreateMatrix(sg.da, &K));
  PetscCall(MatSetOption(K, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE)); /* each process sets its own rows: no messages */
  PetscCall(DMCreateMatrix(sg.da, &sg.lap));
  PetscCall(AssembleLaplacian(&sg, sg.lap));
  PetscCall(DMCreateGlobalVector(sg.da, &sg.diag));

  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetMass(ts, M, NULL, NULL, NULL, NULL));
  PetscCall(TSSimpVISetPotential(ts, K, Potential, PotentialHessian, &sg));

  /* U = [q_local | p_local] on each process (named by PhaseSplitLocalHalves()), q in the DMDA's global layout */
  PetscCall(VecCreateMPI(comm, 2 * nloc, 2 * N, &U));
  PetscCall(VecGetArrayWrite(U, &u));
  for (PetscInt j = ys; j < ys + ym; j++)
    for (PetscInt i = xs; i < xs + xm; i++) {
      PetscReal u0, ut0;

      Exact(par, Coord(&sg, i), par->dim > 1 ? Coord(&sg, j) : 0, 0, &u0, &ut0);
      u[(j - ys) * xm + i - xs]        = u0;
      u[nloc + (j - ys) * xm + i - xs] = sg.vol * ut0;
    }
  PetscCall(VecRestoreArrayWrite(U, &u));
  PetscCall(PhaseSplitLocalHalves(ts, U));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, par->T / nsteps));
  PetscCall(TSSetMaxTime(ts, par->T));
  PetscCall(TSSetMaxSteps(ts, nsteps));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (energy) PetscCall(TSMonitorSet(ts, MonitorEnergy, st, NULL));
  if (memory) PetscCall(TSMonitorSet(ts, BenchMemoryMonitor, &st->bm, NULL));
  PetscCall(TSSetFromOptions(ts));
  if (par->kinsol) PetscCall(TSSimpVISetNonlinearSolverType(ts, TSSIMPVI_NLS_KINSOL));
  {
    TSType    type;
    PetscBool issimpvi;

    PetscCall(TSGetType(ts, &type));
    PetscCall(PetscStrncpy(st->tstype, type, sizeof(st->tstype)));
    PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &issimpvi));
    if (par->native && !issimpvi) {
      PetscCall(NativeSetUp(ts, &sg, U, &J));
      st->native = &sg;
    } else PetscCall(TSSimpVISetUpPhaseSpace(ts)); /* for -ts_type theta, rk, ...: the same semi-discrete sine-Gordon in phase space */
  }
  PetscCall(TSSetUp(ts));
  PetscCall(WorkPrecisionSetUp(ts, st->native ? NativeEnergy : NULL, &sg, &wp)); /* -wp: a record for bench/workprecision.py */
  PetscCall(PetscTime(&st->time));
  PetscCall(TSSolve(ts, U));
  {
    PetscLogDouble t1;

    PetscCall(PetscTime(&t1));
    st->time      = t1 - st->time;
    st->bm.mem[2] = PeakRSS(PETSC_FALSE);
  }
  PetscCall(WorkPrecisionReport(ts, U, &wp));
  PetscCall(TSGetStepNumber(ts, &st->steps));
  PetscCall(TSGetSNESIterations(ts, &st->snes_its));
  PetscCall(TSGetKSPIterations(ts, &st->ksp_its));

  /* max-norm error at T against the exact kink */
  /* the default split, known here (TSSimpVIGetPhaseSpaceIS() is for TSSIMPVI only) */
  {
    PetscInt lo;

    PetscCall(VecGetOwnershipRange(U, &lo, NULL));
    PetscCall(ISCreateStride(comm, nloc, lo, 1, &isq));
    PetscCall(ISCreateStride(comm, nloc, lo + nloc, 1, &isp));
  }
  {
    Vec          q;
    PetscScalar *ee;
    PetscReal    tf;

    PetscCall(TSGetSolveTime(ts, &tf));
    PetscCall(VecGetSubVector(U, isq, &q));
    PetscCall(VecDuplicate(q, &e));
    PetscCall(VecGetArrayWrite(e, &ee));
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) Exact(par, Coord(&sg, i), par->dim > 1 ? Coord(&sg, j) : 0, tf, &ee[(j - ys) * xm + i - xs], NULL);
    PetscCall(VecRestoreArrayWrite(e, &ee));
    PetscCall(VecAXPY(e, -1, q));
    PetscCall(VecNorm(e, NORM_INFINITY, &st->err));
    PetscCall(VecDestroy(&e));
    if (qp) {
      Vec all[2], p;

      PetscCall(GatherNatural(sg.da, q, &all[0]));
      PetscCall(VecGetSubVector(U, isp, &p));
      PetscCall(GatherNatural(sg.da, p, &all[1]));
      PetscCall(VecRestoreSubVector(U, isp, &p));
      PetscCall(VecConcatenate(2, all, qp, NULL));
      PetscCall(VecDestroy(&all[0]));
      PetscCall(VecDestroy(&all[1]));
    }
    PetscCall(VecRestoreSubVector(U, isq, &q));
  }
  PetscCall(ISDestroy(&isq));
  PetscCall(ISDestroy(&isp));
  st->native = NULL; /* sg ends here */
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&M));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&sg.qg));
  PetscCall(VecDestroy(&sg.grad));
  PetscCall(PetscFree(sg.uidx));
  PetscCall(MatDestroy(&sg.lap));
  PetscCall(VecDestroy(&sg.diag));
  PetscCall(VecDestroy(&sg.xloc));
  PetscCall(DMDestroy(&sg.da));
  PetscFunctionReturn(0);
}

/* max |a - b| / max |b| on rank 0 */
static PetscErrorCode RelDiff(Vec a, Vec b, PetscReal *d)
{
  Vec       w;
  PetscReal nb, nd;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(a, &w));
  PetscCall(VecWAXPY(w, -1, b, a));
  PetscCall(VecNorm(w, NORM_INFINITY, &nd));
  PetscCall(VecNorm(b, NORM_INFINITY, &nb));
  *d = nd / nb;
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(0);
}

/* The same run with SUNDIALS KINSOL as the step's nonlinear solver: trajectory difference and iterations side by side */
static PetscErrorCode CompareKINSOL(Params *par, PetscInt n, PetscInt nsteps, Vec qp, const RunStats *st)
{
  RunStats    sk;
  Vec         qpk;
  PetscReal   diff = 0;
  PetscMPIInt rank;
  char        strategy[64] = "newton";

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ts_simpvi_kinsol_strategy", strategy, sizeof(strategy), NULL));
  par->kinsol = PETSC_TRUE;
  PetscCall(Run(PETSC_COMM_WORLD, par, n, nsteps, PETSC_FALSE, PETSC_FALSE, &qpk, &sk));
  par->kinsol = PETSC_FALSE;
  if (rank == 0) PetscCall(RelDiff(qpk, qp, &diff));
  PetscCallMPI(MPI_Bcast(&diff, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %" PetscInt_FMT " steps, nonlinear / linear iterations: SNES %" PetscInt_FMT " / %" PetscInt_FMT ", KINSOL %s %" PetscInt_FMT " / %" PetscInt_FMT "\n", st->steps, st->snes_its, st->ksp_its, strategy, sk.snes_its, sk.ksp_its));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  KINSOL vs SNES: relative difference %.2e; agree to 1e-12: %s\n", (double)diff, diff < 1e-12 ? "yes" : "no"));
  PetscCall(VecDestroy(&qpk));
  PetscFunctionReturn(0);
}

/* The same run with the hand-written right-hand side (-native) for PETSc's type: trajectory and initial energy against
   TSSimpVISetUpPhaseSpace()'s */
static PetscErrorCode CompareNative(Params *par, PetscInt n, PetscInt nsteps, Vec qp, const RunStats *st)
{
  RunStats    sn;
  Vec         qpn;
  PetscReal   diff = 0, dH;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  par->native = PETSC_TRUE;
  PetscCall(Run(PETSC_COMM_WORLD, par, n, nsteps, PETSC_TRUE, PETSC_FALSE, &qpn, &sn));
  par->native = PETSC_FALSE;
  if (rank == 0) PetscCall(RelDiff(qpn, qp, &diff));
  PetscCallMPI(MPI_Bcast(&diff, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
  dH = PetscAbsReal(sn.H0 - st->H0) / PetscAbsReal(st->H0);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  TS %s, hand-written right-hand side vs TSSimpVISetUpPhaseSpace(): %" PetscInt_FMT " and %" PetscInt_FMT " steps, relative difference %.2e; agree to 1e-12: %s\n", sn.tstype, sn.steps, st->steps, (double)diff, diff < 1e-12 ? "yes" : "no"));
  if (st->snes_its)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  Newton iterations (the Jacobians' check): hand-written %" PetscInt_FMT ", TSSimpVISetUpPhaseSpace() %" PetscInt_FMT "; equal: %s\n", sn.snes_its, st->snes_its, sn.snes_its == st->snes_its ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  initial energy, hand-written vs TSSimpVIComputeEnergy(): relative difference %.2e; agree to 1e-12: %s\n", (double)dH, dH < 1e-12 ? "yes" : "no"));
  PetscCall(VecDestroy(&qpn));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Params         par   = {1, 199, 4, 20, 0.5, -2, 0.3, 4, BC_EXACT, PETSC_FALSE, PETSC_FALSE};
  Sweep          sweep = SWEEP_SPACETIME;
  PetscReal      cfl = 0.5, err[16], obs = 0;
  PetscInt       levels = 3, nsteps0, torder = 0, expected;
  PetscBool      serial = PETSC_FALSE, bench = PETSC_FALSE, kinsol = PETSC_FALSE, cmpnative = PETSC_FALSE, energy, issimpvi;
  PetscMPIInt    size, rank;
  PetscLogDouble rss0;
  char           tstype[64] = "";
  TS             ts;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscLogEventRegister("SGPotential", TS_CLASSID, &EV_Potential));
  PetscCall(PetscLogEventRegister("SGHessian", TS_CLASSID, &EV_Hessian));
  rss0 = PeakRSS(PETSC_FALSE);
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Sine-Gordon kink options", NULL);
  PetscCall(PetscOptionsRangeInt("-dim", "Space dimension", NULL, par.dim, &par.dim, NULL, 1, 2));
  PetscCall(PetscOptionsInt("-n", "Interior points per direction on the coarsest level", NULL, par.n, &par.n, NULL));
  PetscCall(PetscOptionsRangeInt("-order", "Order of the finite differences: 2 or 4", NULL, par.order, &par.order, NULL, 2, 4));
  PetscCall(PetscOptionsReal("-L", "Half-width of the domain", NULL, par.L, &par.L, NULL));
  PetscCall(PetscOptionsReal("-v", "Kink velocity, |v| < 1", NULL, par.vel, &par.vel, NULL));
  PetscCall(PetscOptionsReal("-x0", "Kink position at t = 0", NULL, par.x0, &par.x0, NULL));
  PetscCall(PetscOptionsReal("-angle", "Direction of travel in 2-D (radians)", NULL, par.angle, &par.angle, NULL));
  PetscCall(PetscOptionsReal("-T", "Final time", NULL, par.T, &par.T, NULL));
  PetscCall(PetscOptionsReal("-cfl", "Time step over grid spacing on the coarsest level", NULL, cfl, &cfl, NULL));
  PetscCall(PetscOptionsRangeInt("-levels", "Number of levels of the sweep", NULL, levels, &levels, NULL, 1, 12));
  PetscCall(PetscOptionsEnum("-sweep", "What the levels refine", NULL, Sweeps, (PetscEnum)sweep, (PetscEnum *)&sweep, NULL));
  PetscCall(PetscOptionsEnum("-bc", "Dirichlet data: exact (time-dependent) or fixed at t = 0", NULL, BCs, (PetscEnum)par.bc, (PetscEnum *)&par.bc, NULL));
  PetscCall(PetscOptionsBool("-serial", "Also solve on rank 0 alone and compare", NULL, serial, &serial, NULL));
  PetscCall(PetscOptionsBool("-compare_kinsol", "Also solve with -ts_simpvi_nonlinear_solver kinsol and compare", NULL, kinsol, &kinsol, NULL));
  PetscCall(PetscOptionsBool("-native", "PETSc's types get the hand-written right-hand side and Jacobian, not TSSimpVISetUpPhaseSpace()", NULL, par.native, &par.native, NULL));
  PetscCall(PetscOptionsBool("-compare_native", "Also solve with -native and compare (a PETSc type)", NULL, cmpnative, &cmpnative, NULL));
  PetscCall(PetscOptionsBool("-bench", "Print one timing/memory record per level", NULL, bench, &bench, NULL));
  PetscOptionsEnd();
  PetscCheck(par.order == 2 || par.order == 4, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-order is 2 or 4");
  PetscCheck(PetscAbsReal(par.vel) < 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "the kink needs |v| < 1");
  energy = (PetscBool)(par.bc == BC_FIXED); /* with exact Dirichlet data the boundary does work: no conserved energy */

  /* steps on the coarsest level: h = T/nsteps0 close to cfl dx */
  nsteps0 = (PetscInt)PetscCeilReal(par.T / (cfl * 2 * par.L / (par.n + 1)) - 1e-9);

  /* the time order of the scheme the options choose */
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &issimpvi));
  if (issimpvi) PetscCall(TSSimpVIGetOrder(ts, &torder));
  PetscCall(TSDestroy(&ts));
  expected = sweep == SWEEP_TIME ? torder : PetscMin(torder, par.order);

  {
    Vec      ref  = NULL;
    PetscInt nref = 0;
    RunStats st;

    if (sweep == SWEEP_TIME) { /* reference on the same grid with a 4 times smaller step than the finest */
      nref = nsteps0 << (levels + 1);
      PetscCall(Run(PETSC_COMM_WORLD, &par, par.n, nref, PETSC_FALSE, PETSC_FALSE, &ref, &st));
    }
    if (!bench) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Sine-Gordon kink in %" PetscInt_FMT "-D, v = %g, finite differences of order %" PetscInt_FMT ", Dirichlet data %s, sweep %s\n", par.dim, (double)par.vel, par.order, BCs[par.bc], Sweeps[sweep]));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%10s %10s %12s %12s %8s\n", "points", "steps", "dx", "error", "order"));
    }
    for (PetscInt l = 0; l < levels; l++) {
      PetscInt  n = sweep == SWEEP_SPACETIME ? ((par.n + 1) << l) - 1 : par.n, nsteps = nsteps0 << l, N = par.dim == 1 ? n : n * n;
      Vec       qp   = NULL;
      PetscReal diff = 0;

      PetscCall(Run(PETSC_COMM_WORLD, &par, n, nsteps, (PetscBool)(energy || cmpnative), bench, (serial || ref || kinsol || cmpnative) ? &qp : NULL, &st));
      PetscCall(PetscStrncpy(tstype, st.tstype, sizeof(tstype)));
      err[l] = st.err;
      if (ref) {
        if (rank == 0) PetscCall(RelDiff(qp, ref, &err[l])); /* the relative error in (q, p) against the reference */
        PetscCallMPI(MPI_Bcast(&err[l], 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
      }
      if (l > 0) obs = PetscLog2Real(err[l - 1] / err[l]);
      if (!bench) {
        if (l == 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%10" PetscInt_FMT " %10" PetscInt_FMT " %12.4e %12.4e\n", N, nsteps, (double)(2 * par.L / (n + 1)), (double)err[l]));
        else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%10" PetscInt_FMT " %10" PetscInt_FMT " %12.4e %12.4e %8.2f\n", N, nsteps, (double)(2 * par.L / (n + 1)), (double)err[l], (double)obs));
      }
      if (serial) {
        if (rank == 0) {
          RunStats ss;
          Vec      qps;

          PetscCall(Run(PETSC_COMM_SELF, &par, n, nsteps, PETSC_FALSE, PETSC_FALSE, &qps, &ss));
          PetscCall(RelDiff(qp, qps, &diff));
          PetscCall(VecDestroy(&qps));
        }
        PetscCallMPI(MPI_Bcast(&diff, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
        if (!bench) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  PETSC_COMM_WORLD vs rank 0 alone: relative difference %.2e; agree to 1e-10: %s\n", (double)diff, diff < 1e-10 ? "yes" : "no"));
      }
      if (kinsol) PetscCall(CompareKINSOL(&par, n, nsteps, qp, &st));
      if (cmpnative) PetscCall(CompareNative(&par, n, nsteps, qp, &st));
      if (energy && !bench) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  largest relative energy drift %.2e; below 1e-8: %s\n", (double)st.drift, st.drift < 1e-8 ? "yes" : "no"));
      PetscCall(VecDestroy(&qp));
      if (bench) {
        PetscLogDouble loc[5] = {rss0, st.bm.mem[0], st.bm.mem[1], st.bm.mem[2], PetscMax(st.bm.mem[0], PetscMax(st.bm.mem[1], st.bm.mem[2]))}, sum[5];

        PetscCall(MPIU_Allreduce(loc, sum, 5, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH problem=sinegordon%" PetscInt_FMT "d ts=%s ranks=%d n=%" PetscInt_FMT " steps=%" PetscInt_FMT " dx=%.6e time=%.6e time_per_step=%.6e newton_per_step=%.3f krylov_per_step=%.3f", par.dim, st.tstype, size, N, st.steps,
                              (double)(2 * par.L / (n + 1)), st.time, st.time / PetscMax(st.steps, 1), (double)st.snes_its / PetscMax(st.steps, 1), (double)st.ksp_its / PetscMax(st.steps, 1)));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, " first_step_time=%.6e later_time_per_step=%.6e peak_bytes=%.6e base_bytes=%.6e bytes_per_unknown=%.1f net_bytes_per_unknown=%.1f setup_bytes_per_unknown=%.1f first_step_bytes_per_unknown=%.1f later_steps_bytes_per_unknown=%.1f error=%.6e order=%.3f\n",
                              st.bm.tstep[1] - st.bm.tstep[0], st.steps > 1 ? (st.time - (st.bm.tstep[1] - st.bm.tstep[0])) / (st.steps - 1) : st.time, sum[4], sum[0], sum[4] / N, (sum[4] - sum[0]) / N, sum[1] / N, sum[2] / N, sum[3] / N, (double)err[l], l ? (double)obs : 0.0));
      }
    }
    PetscCall(VecDestroy(&ref));
  }
  if (levels > 1 && !bench) {
    if (expected) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TS %s: order %" PetscInt_FMT " observed: %s\n", tstype, expected, PetscAbsReal(obs - expected) < 0.3 ? "yes" : "no"));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TS %s: observed order %d\n", tstype, (int)PetscFloorReal(obs + 0.5)));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: simpson
    args: -levels 3

  test:
    suffix: simpson_time
    args: -sweep time -cfl 1

  test:
    suffix: lobatto_time
    args: -ts_simpvi_type lobatto -sweep time -cfl 1

  test:
    suffix: lobatto_fd2
    args: -ts_simpvi_type lobatto -order 2 -levels 3

  test:
    suffix: energy
    args: -bc fixed -levels 2

  test:
    suffix: theta
    args: -ts_type theta -ts_theta_theta 0.5 -levels 3

  test:
    suffix: par_1
    nsize: 1
    args: -n 99 -T 2 -levels 1 -serial

  test:
    suffix: par_2
    nsize: 2
    args: -n 99 -T 2 -levels 1 -serial
    output_file: output/ex7_par_1.out

  # 4 ranks on fewer cores: a Krylov step solver, since the default parallel LU (SuperLU_DIST) spins OpenMP threads
  test:
    suffix: par_4
    nsize: 4
    args: -n 99 -T 2 -levels 1 -serial -ksp_type gmres -pc_type bjacobi -ksp_rtol 1e-14
    output_file: output/ex7_par_1.out

  test:
    suffix: 2d_1
    nsize: 1
    args: -dim 2 -n 19 -L 10 -T 1 -levels 1 -serial

  test:
    suffix: 2d_4
    nsize: 4
    args: -dim 2 -n 19 -L 10 -T 1 -levels 1 -serial -ksp_type gmres -pc_type bjacobi -ksp_rtol 1e-14
    output_file: output/ex7_2d_1.out

  # above -ts_simpvi_direct_limit rows the default step solver of a 1-D grid is the LU ordered by RCM on one process and,
  # in parallel, the exact interface LU (each rank's band by an LU ordered by RCM, the ranks' few coupling unknowns by a
  # capacitance system, src/core/interfacelu.c); of a 2-D grid BiCGStab with block Jacobi/ILU(0): the same kink, the
  # same error, and the parallel run still agrees with the serial one (on 4 ranks the middle ranks couple both ways)
  test:
    suffix: krylov_default
    nsize: 2
    args: -n 99 -T 2 -levels 1 -serial -ts_simpvi_direct_limit 100
    output_file: output/ex7_par_1.out
  test:
    suffix: interface_default_4
    nsize: 4
    args: -n 99 -T 2 -levels 1 -serial
    output_file: output/ex7_par_1.out
  test:
    suffix: krylov_default_2d_2
    nsize: 2
    args: -dim 2 -n 19 -L 10 -T 1 -levels 1 -serial
    output_file: output/ex7_2d_1.out

  test:
    suffix: krylov_default_view
    args: -dim 2 -n 15 -T 0.4 -levels 1 -ts_simpvi_direct_limit 100 -ts_view
    filter: grep -E "(KSP|PC) Object|type: (bcgs|bjacobi|preonly|ilu)$|relative=1e-12|levels of fill"

  test:
    suffix: banded_default_view
    args: -n 99 -T 0.4 -levels 1 -ts_simpvi_direct_limit 100 -ts_view
    filter: grep -E "Step's linear solver|(KSP|PC) Object|type: (bcgs|bjacobi|preonly|lu)$|matrix ordering"

  # on 2 ranks the same 1-D grid gets the interface LU (a 2-D grid keeps BiCGStab: krylov_default_2d_view_2)
  test:
    suffix: banded_default_view_2
    nsize: 2
    args: -n 99 -T 0.4 -levels 1 -ts_view
    filter: grep -E "Step's linear solver|(KSP|PC) Object|type: (bcgs|bjacobi|preonly|lu|shell)$|capacitance"
  test:
    suffix: krylov_default_2d_view_2
    nsize: 2
    args: -dim 2 -n 19 -L 10 -T 0.4 -levels 1 -ts_view
    filter: grep -E "Step's linear solver|(KSP|PC) Object|type: (bcgs|bjacobi|preonly|ilu|shell)$"

  # -native: PETSc's types with the hand-written right-hand side (and Jacobian: the same Newton iterations) against
  # TSSimpVISetUpPhaseSpace(), the same trajectory to round-off; on 2 ranks the Jacobian has off-process columns
  test:
    suffix: native_rk
    args: -n 99 -T 2 -levels 1 -ts_type rk -ts_rk_type 4 -compare_native

  test:
    suffix: native_theta
    args: -n 99 -T 2 -levels 1 -ts_type theta -ts_theta_theta 0.5 -snes_rtol 1e-12 -ksp_type preonly -pc_type lu -compare_native

  test:
    suffix: native_2d_2
    nsize: 2
    args: -dim 2 -n 19 -L 8 -T 1 -levels 1 -ts_type theta -ts_theta_theta 0.5 -snes_rtol 1e-12 -ksp_type gmres -pc_type bjacobi -ksp_rtol 1e-14 -compare_native

  # SUNDIALS KINSOL (Newton, and the fixed point with Anderson acceleration) on 2 ranks: the same kink as SNES
  testset:
    requires: kinsol
    nsize: 2
    args: -n 99 -T 2 -levels 1 -compare_kinsol
    test:
      suffix: kinsol_newton
      args: -ts_simpvi_kinsol_strategy newton
    test:
      suffix: kinsol_fp
      args: -ts_simpvi_kinsol_strategy fp -ts_simpvi_kinsol_maa 3

TEST*/
