static char help[] = "The discrete adjoint of TSSIMPVI (TSAdjointSolve()) against central finite differences, theta 0.5's own\n"
                     "adjoint and its own tangent-linear run (TSForwardSetSensitivities()). The cost is\n"
                     "  C = sum_i a_i sin(q_i) + 1/2 b_i p_i^2 at the end  (+ the integral of sum_i 1/2 q_i^2 + 0.1 q_i p_i with -integral)\n"
                     "Problems (-problem): pendulum (mechanical door, or -door lagrangian; -force adds f = -gamma v + A cos t),\n"
                     "  double (the double pendulum, mass M(q)), chain (a sine-Gordon chain on a DMDA, any number of processes).\n"
                     "Checks (-check): fd (dC/dU0 and dC/dg, g the potential's strength, against central differences),\n"
                     "  theta (midpoint scheme vs TSTHETA 0.5 on the phase-space form: the same map, so the same adjoint),\n"
                     "  pairing (lambda_j' dU_j along the run: constant, the adjoint being the transpose of the tangent map),\n"
                     "  forward (dC/dg by the tangent-linear run of the parameter against the adjoint's mu),\n"
                     "  costintegrand (PETSc's deprecated TSSetCostIntegrand(): must stop with an error),\n"
                     "  thetafd (PETSc theta 0.5's own adjoint against central differences of theta's own forward map; -mass m sets\n"
                     "  the constant mass of the pendulum and the chain),\n"
                     "  phasespace (another type's adjoint, theta 0.5 unless -ts_type says, on the phase-space form with the parameter\n"
                     "  Jacobian it builds from TSSimpVISetParameterJacobian(), against central differences of that type's map).\n\n";

#include <simpvi.h>
#include <petscdmda.h>
#include "../examples/models/doublependulum.h"
#include "fdgradient.h"

typedef enum {
  PENDULUM,
  DOUBLE,
  CHAIN
} Problem;
static const char *const Problems[] = {"pendulum", "double", "chain", "Problem", "", NULL};

typedef struct {
  Problem   problem;
  PetscBool lagrangian, force, integral, verbose, nomu, formjacp; /* formjacp: another type keeps the phase-space form's mu */
  PetscBool late;                                                 /* TSSimpVISetParameterJacobian() after TSSimpVISetUpPhaseSpace() */
  PetscBool twice;                                                /* TSSimpVISetUpPhaseSpace() called twice */
  char      firsttype[64];                                        /* -first_type: the phase-space form set up for this type first */
  PetscReal g, gamma, amp, k, h, mass;                            /* mass: the constant mass of the pendulum and the chain */
  PetscInt  steps, n;                                             /* steps; positions (chain) */
  DM        da;                                                   /* chain */
  Vec       xloc;                                                 /* chain: positions with ghosts */
  IS        isq, isp;                                             /* chain: the split */
  PetscInt  nloc, rstart;
  /* pairing */
  PetscReal *S;
  PetscReal  pair0, pairdev;
  Vec        lam, mu; /* the cost gradients: TSSetCostGradients() keeps the address of these */
  /* double: m = l = 1 and g */
  DoublePendulum dp;
} Ctx;

/* ---------------------------------------------------------------- the mechanics */

/* V of the chain and of the pendulum, -g cos q (the double pendulum's is DoublePendulumPotential()) */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec gradV, void *ptr)
{
  Ctx               *c = (Ctx *)ptr;
  const PetscScalar *q;
  PetscScalar       *gv;

  PetscFunctionBeginUser;
  if (c->problem == CHAIN) {
    const PetscScalar *ql;
    PetscReal          Vloc = 0;
    PetscInt           xs, xm;

    PetscCall(DMGlobalToLocalBegin(c->da, x, INSERT_VALUES, c->xloc));
    PetscCall(DMGlobalToLocalEnd(c->da, x, INSERT_VALUES, c->xloc));
    PetscCall(DMDAGetCorners(c->da, &xs, NULL, NULL, &xm, NULL, NULL));
    PetscCall(DMDAVecGetArrayRead(c->da, c->xloc, &ql));
    PetscCall(VecGetArray(gradV, &gv));
    for (PetscInt i = xs; i < xs + xm; i++) {
      PetscScalar l = i > 0 ? ql[i - 1] : 0, r = i < c->n - 1 ? ql[i + 1] : 0; /* fixed ends */

      gv[i - xs] = c->k * (2 * ql[i] - l - r) + c->g * PetscSinScalar(ql[i]);
      Vloc += 0.5 * c->k * PetscRealPart((ql[i] - l) * (ql[i] - l)) + c->g * (1 - PetscCosReal(PetscRealPart(ql[i])));
      if (i == c->n - 1) Vloc += 0.5 * c->k * PetscRealPart(ql[i] * ql[i]);
    }
    PetscCall(VecRestoreArray(gradV, &gv));
    PetscCall(DMDAVecRestoreArrayRead(c->da, c->xloc, &ql));
    PetscCall(MPIU_Allreduce(&Vloc, V, 1, MPIU_REAL, MPI_SUM, PetscObjectComm((PetscObject)ts)));
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArray(gradV, &gv));
  *V    = -c->g * PetscCosReal(q[0]);
  gv[0] = c->g * PetscSinReal(q[0]);
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscCall(VecRestoreArray(gradV, &gv));
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ptr)
{
  Ctx               *c = (Ctx *)ptr;
  const PetscScalar *q;

  PetscFunctionBeginUser;
  if (c->problem == CHAIN) {
    const PetscScalar *ql;
    PetscInt           xs, xm;

    PetscCall(DMGlobalToLocalBegin(c->da, x, INSERT_VALUES, c->xloc));
    PetscCall(DMGlobalToLocalEnd(c->da, x, INSERT_VALUES, c->xloc));
    PetscCall(DMDAGetCorners(c->da, &xs, NULL, NULL, &xm, NULL, NULL));
    PetscCall(DMDAVecGetArrayRead(c->da, c->xloc, &ql));
    for (PetscInt i = xs; i < xs + xm; i++) {
      PetscInt    cols[3] = {i - 1, i, i + 1};
      PetscScalar vals[3] = {-c->k, 2 * c->k + c->g * PetscCosScalar(ql[i]), -c->k};

      if (i == 0) PetscCall(MatSetValues(H, 1, &i, 2, cols + 1, vals + 1, INSERT_VALUES));
      else if (i == c->n - 1) PetscCall(MatSetValues(H, 1, &i, 2, cols, vals, INSERT_VALUES));
      else PetscCall(MatSetValues(H, 1, &i, 3, cols, vals, INSERT_VALUES));
    }
    PetscCall(DMDAVecRestoreArrayRead(c->da, c->xloc, &ql));
  } else {
    PetscCall(VecGetArrayRead(x, &q));
    PetscCall(MatSetValue(H, 0, 0, c->g * PetscCosReal(q[0]), INSERT_VALUES));
    PetscCall(VecRestoreArrayRead(x, &q));
  }
  PetscCall(MatAssemblyBegin(H, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(H, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* the pendulum's Lagrangian L = 1/2 v^2 + g cos q */
static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ptr)
{
  Ctx               *c = (Ctx *)ptr;
  const PetscScalar *q, *w;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayRead(v, &w));
  *L = 0.5 * PetscRealPart(w[0] * w[0]) + c->g * PetscCosReal(q[0]);
  PetscCall(VecSetValue(Lx, 0, -c->g * PetscSinReal(q[0]), INSERT_VALUES));
  PetscCall(VecSetValue(Lv, 0, w[0], INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscCall(VecRestoreArrayRead(v, &w));
  PetscCall(VecAssemblyBegin(Lx));
  PetscCall(VecAssemblyEnd(Lx));
  PetscCall(VecAssemblyBegin(Lv));
  PetscCall(VecAssemblyEnd(Lv));
  PetscFunctionReturn(0);
}

static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ptr)
{
  Ctx               *c = (Ctx *)ptr;
  const PetscScalar *q;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(MatSetValue(Lxx, 0, 0, -c->g * PetscCosReal(q[0]), INSERT_VALUES));
  PetscCall(MatSetValue(Lvv, 0, 0, 1, INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscCall(MatAssemblyBegin(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Lvv, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Lvv, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* f = -gamma v + A cos t on every position */
static PetscErrorCode Force(TS ts, PetscReal t, Vec x, Vec v, Vec f, void *ptr)
{
  Ctx *c = (Ctx *)ptr;

  PetscFunctionBeginUser;
  PetscCall(VecSet(f, c->amp * PetscCosReal(t)));
  PetscCall(VecAXPY(f, -c->gamma, v));
  PetscFunctionReturn(0);
}

static PetscErrorCode ForceJacobian(TS ts, PetscReal t, Vec x, Vec v, Mat Fx, Mat Fv, void *ptr)
{
  Ctx *c = (Ctx *)ptr;

  PetscFunctionBeginUser;
  PetscCall(MatZeroEntries(Fv));
  PetscCall(MatShift(Fv, -c->gamma));
  PetscFunctionReturn(0);
}

/* dG/dg = -d(grad V)/dg (the pendulum's Lagrangian door: d(L_x)/dg, the same) */
static PetscErrorCode ParameterJacobian(TS ts, PetscReal t, Vec x, Vec v, Mat Pth, Mat Gth, void *ptr)
{
  Ctx               *c = (Ctx *)ptr;
  const PetscScalar *q;
  PetscInt           lo, hi;
  PetscScalar        gs;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    gs = (c->problem == DOUBLE && i == 0 ? -2 : -1) * PetscSinScalar(q[i - lo]);
    PetscCall(MatSetValue(Gth, i, 0, gs, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscCall(MatAssemblyBegin(Gth, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Gth, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* theta on the phase-space form F = (M q' - p, p' + grad V): dF/dg = (0, d(grad V)/dg), rows shaped like U */
static PetscErrorCode ThetaParameterJacobian(TS ts, PetscReal t, Vec U, Vec Udot, PetscReal shift, Mat A, void *ptr)
{
  Ctx               *c = (Ctx *)ptr;
  const PetscScalar *u;
  PetscInt           lo, nloc;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(U, &lo, NULL));
  PetscCall(VecGetLocalSize(U, &nloc));
  nloc /= 2;
  PetscCall(MatZeroEntries(A));
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt i = 0; i < nloc; i++) PetscCall(MatSetValue(A, lo + nloc + i, 0, (c->problem == DOUBLE && lo + i == 0 ? 2 : 1) * PetscSinScalar(u[i]), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the cost */

/* the local parts of U = (q, p) are [q_local, p_local] in every problem here */
static PetscErrorCode Weights(Ctx *c, PetscInt iq, PetscReal *a, PetscReal *b)
{
  PetscFunctionBeginUser;
  *a = 1 + 0.1 * (PetscReal)(iq % 7);
  *b = 1 - 0.05 * (PetscReal)(iq % 5);
  PetscFunctionReturn(0);
}

/* phi(U) and its gradient (grad may be NULL) */
static PetscErrorCode Terminal(Ctx *c, Vec U, PetscReal *phi, Vec grad)
{
  const PetscScalar *u;
  PetscScalar       *gr = NULL;
  PetscInt           nloc, lo;
  PetscReal          loc = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(U, &nloc));
  PetscCall(VecGetOwnershipRange(U, &lo, NULL));
  nloc /= 2;
  PetscCall(VecGetArrayRead(U, &u));
  if (grad) PetscCall(VecGetArray(grad, &gr));
  for (PetscInt i = 0; i < nloc; i++) {
    PetscReal a, b;

    PetscCall(Weights(c, lo / 2 + i, &a, &b));
    loc += a * PetscSinReal(PetscRealPart(u[i])) + 0.5 * b * PetscRealPart(u[nloc + i] * u[nloc + i]);
    if (gr) {
      gr[i]        = a * PetscCosReal(PetscRealPart(u[i]));
      gr[nloc + i] = b * u[nloc + i];
    }
  }
  PetscCall(VecRestoreArrayRead(U, &u));
  if (grad) PetscCall(VecRestoreArray(grad, &gr));
  PetscCall(MPIU_Allreduce(&loc, phi, 1, MPIU_REAL, MPI_SUM, PetscObjectComm((PetscObject)U)));
  PetscFunctionReturn(0);
}

static PetscErrorCode Integrand(TS quadts, PetscReal t, Vec U, Vec r, void *ptr)
{
  const PetscScalar *u;
  PetscInt           nloc;
  PetscReal          loc = 0, all;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(U, &nloc));
  nloc /= 2;
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt i = 0; i < nloc; i++) loc += PetscRealPart(0.5 * u[i] * u[i] + 0.1 * u[i] * u[nloc + i]);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MPIU_Allreduce(&loc, &all, 1, MPIU_REAL, MPI_SUM, PetscObjectComm((PetscObject)U)));
  PetscCall(VecSet(r, all));
  PetscFunctionReturn(0);
}

/* the gradient as the column of an N x 1 dense matrix (PETSc's convention for the quadrature TS) */
static PetscErrorCode IntegrandGradient(TS quadts, PetscReal t, Vec U, Mat A, Mat B, void *ptr)
{
  const PetscScalar *u;
  PetscScalar       *a;
  PetscInt           nloc;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(U, &nloc));
  nloc /= 2;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(MatDenseGetColumn(A, 0, &a));
  for (PetscInt i = 0; i < nloc; i++) {
    a[i]        = u[i] + 0.1 * u[nloc + i];
    a[nloc + i] = 0.1 * u[i];
  }
  PetscCall(MatDenseRestoreColumn(A, &a));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- the runs */

static PetscErrorCode InitialState(Ctx *c, Vec U)
{
  PetscScalar *u;
  PetscInt     nloc, lo;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(U, &nloc));
  PetscCall(VecGetOwnershipRange(U, &lo, NULL));
  nloc /= 2;
  PetscCall(VecGetArray(U, &u));
  for (PetscInt i = 0; i < nloc; i++) {
    PetscInt iq = lo / 2 + i;

    u[i]        = c->problem == CHAIN ? 0.8 * PetscSinReal(PETSC_PI * (iq + 1) / (c->n + 1)) : 0.9 - 0.4 * iq;
    u[nloc + i] = c->problem == CHAIN ? 0.1 * PetscCosReal(0.7 * iq) : 0.2 + 0.3 * iq;
  }
  PetscCall(VecRestoreArray(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode CreateState(Ctx *c, Vec *U)
{
  PetscFunctionBeginUser;
  if (c->problem == CHAIN) PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 2 * c->nloc, 2 * c->n, U));
  else PetscCall(VecCreateSeq(PETSC_COMM_SELF, c->problem == PENDULUM ? 2 : 4, U));
  PetscFunctionReturn(0);
}

/* a TS of the problem from U (kept), with the cost integral when asked; the matrices go to mats[] (destroyed by the
   caller); sensi: cost gradients and a saved trajectory */
static PetscErrorCode CreateTS(Ctx *c, const char type[], PetscReal g, Vec U, PetscBool sensi, Mat mats[8], TS *out)
{
  TS       ts;
  MPI_Comm comm = PetscObjectComm((PetscObject)U);
  PetscInt n = c->problem == CHAIN ? c->n : (c->problem == PENDULUM ? 1 : 2), nloc = c->problem == CHAIN ? c->nloc : n;

  PetscFunctionBeginUser;
  c->g = g;
  for (PetscInt i = 0; i < 8; i++) mats[i] = NULL;
  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetType(ts, type));
  if (c->problem == CHAIN) {
    PetscCall(TSRHSSplitSetIS(ts, "position", c->isq));
    PetscCall(TSRHSSplitSetIS(ts, "momentum", c->isp));
  }
  if (c->lagrangian) {
    PetscCall(MatCreateDense(comm, 1, 1, 1, 1, NULL, &mats[0]));
    PetscCall(MatCreateDense(comm, 1, 1, 1, 1, NULL, &mats[1]));
    PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, c));
    PetscCall(TSSimpVISetLagrangianHessian(ts, mats[0], NULL, mats[1], LagrangianHessian, c));
  } else {
    if (c->problem == CHAIN) {
      PetscCall(DMCreateMatrix(c->da, &mats[0]));
      PetscCall(DMCreateMatrix(c->da, &mats[1]));
      PetscCall(MatZeroEntries(mats[1]));
      PetscCall(MatShift(mats[1], c->mass));
    } else {
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &mats[0]));
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &mats[1]));
      PetscCall(MatZeroEntries(mats[1]));
      PetscCall(MatShift(mats[1], c->mass));
    }
    if (c->problem == DOUBLE) {
      c->dp = (DoublePendulum){1, 1, 1, 1, g};
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &mats[2]));
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &mats[3]));
      PetscCall(TSSimpVISetPotential(ts, mats[0], DoublePendulumPotential, DoublePendulumPotentialHessian, &c->dp));
      PetscCall(TSSimpVISetMass(ts, mats[1], mats[2], mats[3], DoublePendulumMass, &c->dp));
    } else {
      PetscCall(TSSimpVISetPotential(ts, mats[0], Potential, PotentialHessian, c));
      PetscCall(TSSimpVISetMass(ts, mats[1], NULL, NULL, NULL, NULL));
    }
  }
  if (c->force) {
    PetscCall(MatCreateAIJ(comm, nloc, nloc, n, n, 1, NULL, 0, NULL, &mats[4]));
    PetscCall(MatSetOption(mats[4], MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    PetscCall(MatAssemblyBegin(mats[4], MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(mats[4], MAT_FINAL_ASSEMBLY));
    PetscCall(MatShift(mats[4], 1));
    PetscCall(TSSimpVISetForce(ts, NULL, mats[4], Force, ForceJacobian, c));
  }
  PetscCall(MatCreateDense(comm, nloc, PETSC_DECIDE, n, 1, NULL, &mats[5]));
  if (!c->nomu && !c->late) PetscCall(TSSimpVISetParameterJacobian(ts, NULL, mats[5], ParameterJacobian, c));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, c->h));
  PetscCall(TSSetMaxSteps(ts, c->steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (sensi) {
    PetscCall(TSSetSaveTrajectory(ts));
    PetscCall(VecDuplicate(U, &c->lam));
    PetscCall(MatCreateVecs(mats[5], &c->mu, NULL));
  }
  if (c->integral) {
    TS       quadts;
    PetscInt Nloc;

    if (sensi) PetscCall(TSSetCostGradients(ts, 1, &c->lam, c->nomu ? NULL : &c->mu)); /* the number of costs before the quadrature TS sizes its integral */
    PetscCall(TSCreateQuadratureTS(ts, PETSC_TRUE, &quadts));
    PetscCall(TSSetRHSFunction(quadts, NULL, Integrand, c));
    PetscCall(VecGetLocalSize(U, &Nloc));
    PetscCall(MatCreateDense(comm, Nloc, PETSC_DECIDE, PETSC_DETERMINE, 1, NULL, &mats[6]));
    PetscCall(TSSetRHSJacobian(quadts, mats[6], mats[6], IntegrandGradient, c));
  }
  PetscCall(TSSetFromOptions(ts));
  {
    PetscBool issimpvi;

    PetscCall(PetscObjectTypeCompare((PetscObject)ts, TSSIMPVI, &issimpvi));
    if (!issimpvi && c->firsttype[0]) { /* the form of another type first (an explicit one's for an implicit, say) */
      TSType type;
      char   keep[64];

      PetscCall(TSGetType(ts, &type));
      PetscCall(PetscStrncpy(keep, type, sizeof(keep)));
      PetscCall(TSSetType(ts, c->firsttype));
      PetscCall(TSSimpVISetUpPhaseSpace(ts));
      PetscCall(TSSetType(ts, keep));
    }
    if (!issimpvi) PetscCall(TSSimpVISetUpPhaseSpace(ts));             /* theta: the phase-space form */
    if (!issimpvi && c->twice) PetscCall(TSSimpVISetUpPhaseSpace(ts)); /* anew: nothing of the first form left */
    if (!c->nomu && c->late) PetscCall(TSSimpVISetParameterJacobian(ts, NULL, mats[5], ParameterJacobian, c));
    if (!issimpvi && !c->nomu && !c->formjacp) { /* and its own parameter Jacobian */
      PetscInt Nloc;

      PetscCall(VecGetLocalSize(U, &Nloc));
      PetscCall(MatCreateDense(comm, Nloc, PETSC_DECIDE, PETSC_DETERMINE, 1, NULL, &mats[7]));
      PetscCall(TSSetIJacobianP(ts, mats[7], ThetaParameterJacobian, c));
    }
  }
  *out = ts;
  PetscFunctionReturn(0);
}

static PetscErrorCode DestroyTS(Ctx *c, TS *ts, Mat mats[8])
{
  PetscFunctionBeginUser;
  PetscCall(TSDestroy(ts));
  for (PetscInt i = 0; i < 8; i++) PetscCall(MatDestroy(&mats[i]));
  PetscCall(VecDestroy(&c->lam));
  PetscCall(VecDestroy(&c->mu));
  PetscFunctionReturn(0);
}

/* C(U0, g) of a forward run */
static PetscErrorCode Cost(Ctx *c, const char type[], Vec U0, PetscReal g, PetscReal *C)
{
  TS  ts;
  Mat mats[8];
  Vec U;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U0, &U));
  PetscCall(VecCopy(U0, U));
  PetscCall(CreateTS(c, type, g, U, PETSC_FALSE, mats, &ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(Terminal(c, U, C, NULL));
  if (c->integral) {
    Vec                Q;
    const PetscScalar *q;

    PetscCall(TSGetCostIntegral(ts, &Q));
    PetscCall(VecGetArrayRead(Q, &q));
    *C += PetscRealPart(q[0]);
    PetscCall(VecRestoreArrayRead(Q, &q));
  }
  PetscCall(DestroyTS(c, &ts, mats));
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

/* dC/dU0 into lambda and dC/dg into *dg by TSAdjointSolve() */
static PetscErrorCode Gradient(Ctx *c, const char type[], Vec U0, PetscReal g, Vec lambda, PetscReal *dg)
{
  TS  ts;
  Mat mats[8];
  Vec U, lam, mu;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U0, &U));
  PetscCall(VecCopy(U0, U));
  PetscCall(CreateTS(c, type, g, U, PETSC_TRUE, mats, &ts));
  lam = c->lam;
  mu  = c->nomu ? NULL : c->mu;
  if (!c->integral) PetscCall(TSSetCostGradients(ts, 1, &c->lam, mu ? &c->mu : NULL));
  PetscCall(TSSolve(ts, U));
  PetscCall(Terminal(c, U, &c->pair0, lam));
  if (mu) PetscCall(VecSet(mu, 0));
  PetscCall(TSAdjointSolve(ts));
  PetscCall(VecCopy(lam, lambda));
  if (mu) {
    PetscScalar sum;

    PetscCall(VecSum(mu, &sum)); /* its one entry, on every process */
    *dg = PetscRealPart(sum);
  }
  PetscCall(DestroyTS(c, &ts, mats));
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

/* C(U0) of a run of the type being checked, for FDGradientError() */
typedef struct {
  Ctx        *c;
  const char *type;
} CostRun;

static PetscErrorCode CostOfU0(Vec U0, PetscReal *C, void *ptr)
{
  CostRun *run = (CostRun *)ptr;

  PetscFunctionBeginUser;
  PetscCall(Cost(run->c, run->type, U0, run->c->g, C));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckFD(Ctx *c, Vec U0)
{
  Vec       lambda;
  PetscReal dg, worst, Cp, Cm, eps = 1e-5, gerr;
  PetscInt  ndir;
  CostRun   run = {c, TSSIMPVI};

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U0, &lambda));
  PetscCall(Gradient(c, TSSIMPVI, U0, c->g, lambda, &dg));
  PetscCall(FDGradientError(U0, lambda, (PetscBool)(c->problem == CHAIN), eps, CostOfU0, &run, c->verbose, "adjoint", "central difference", &ndir, &worst));
  {
    PetscReal g0 = c->g;

    PetscCall(Cost(c, TSSIMPVI, U0, g0 * (1 + eps), &Cp));
    PetscCall(Cost(c, TSSIMPVI, U0, g0 * (1 - eps), &Cm));
    c->g = g0;
    gerr = PetscAbsReal(dg - (Cp - Cm) / (2 * eps * g0)) / PetscMax(PetscAbsReal(dg), 1e-300);
    if (c->verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  dC/dg: adjoint %.12e, central difference %.12e, relative error %.2e\n", (double)dg, (double)((Cp - Cm) / (2 * eps * g0)), (double)gerr));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dC/dU0 against central differences in %" PetscInt_FMT " directions, relative error < 1e-7: %s\n", ndir, worst < 1e-7 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dC/dg (mu) against central differences, relative error < 1e-7: %s\n", gerr < 1e-7 ? "yes" : "no"));
  PetscCall(VecDestroy(&lambda));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckTheta(Ctx *c, Vec U0)
{
  Vec       l1, l2;
  PetscReal dg1, dg2, diff, norm;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U0, &l1));
  PetscCall(VecDuplicate(U0, &l2));
  PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_type", "midpoint"));
  PetscCall(Gradient(c, TSSIMPVI, U0, c->g, l1, &dg1));
  PetscCall(PetscOptionsSetValue(NULL, "-ts_theta_theta", "0.5"));
  PetscCall(PetscOptionsSetValue(NULL, "-snes_rtol", "1e-15")); /* theta's trajectory as converged as simpvi's */
  PetscCall(PetscOptionsSetValue(NULL, "-snes_atol", "1e-15"));
  PetscCall(PetscOptionsSetValue(NULL, "-ksp_rtol", "1e-15")); /* and its (transposed) linear solves */
  PetscCall(PetscOptionsSetValue(NULL, "-ksp_atol", "1e-50"));
  c->nomu = PETSC_TRUE; /* theta's parameter gradients need its own IJacobianP */
  PetscCall(Gradient(c, TSTHETA, U0, c->g, l2, &dg2));
  c->nomu = PETSC_FALSE;
  PetscCall(VecNorm(l1, NORM_INFINITY, &norm));
  PetscCall(VecAXPY(l2, -1, l1));
  PetscCall(VecNorm(l2, NORM_INFINITY, &diff));
  if (c->verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  |lambda_simpvi - lambda_theta| / |lambda| = %.2e\n", (double)(diff / norm)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "midpoint's dC/dU0 equals theta 0.5's to 1e-12 (relative): %s\n", diff <= 1e-12 * norm ? "yes" : "no"));
  PetscCall(VecDestroy(&l1));
  PetscCall(VecDestroy(&l2));
  PetscFunctionReturn(0);
}

/* theta 0.5's own adjoint (PETSc's theta.c, on the phase-space form F = (M(q) q' - p, p' + grad V)) against central
   differences of theta's own forward map: what PETSc's adjoint gives when dF/dU' is not the identity. A second adjoint
   run asks for mu too (theta.c then recomputes its stage derivative Xdot inside each adjoint step): the same lambda
   if theta's adjoint does not depend on that left-over state */
static PetscErrorCode CheckThetaFD(Ctx *c, Vec U0)
{
  Vec       lambda, lambda2;
  PetscReal dg, lnorm, worst, dmu;
  PetscInt  ndir;
  CostRun   run = {c, TSTHETA};

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U0, &lambda));
  PetscCall(VecDuplicate(U0, &lambda2));
  PetscCall(PetscOptionsSetValue(NULL, "-ts_theta_theta", "0.5"));
  PetscCall(PetscOptionsSetValue(NULL, "-snes_rtol", "1e-15")); /* theta's forward map converged to round-off */
  PetscCall(PetscOptionsSetValue(NULL, "-snes_atol", "1e-15"));
  PetscCall(PetscOptionsSetValue(NULL, "-ksp_rtol", "1e-15"));
  PetscCall(PetscOptionsSetValue(NULL, "-ksp_atol", "1e-50"));
  c->nomu = PETSC_TRUE;
  PetscCall(Gradient(c, TSTHETA, U0, c->g, lambda, &dg));
  PetscCall(VecNorm(lambda, NORM_2, &lnorm));
  PetscCall(FDGradientError(U0, lambda, (PetscBool)(c->problem == CHAIN), 1e-5, CostOfU0, &run, c->verbose, "theta's adjoint", "central difference of theta", &ndir, &worst));
  c->nomu = PETSC_FALSE; /* theta's own dF/dg (ThetaParameterJacobian()) */
  PetscCall(Gradient(c, TSTHETA, U0, c->g, lambda2, &dg));
  PetscCall(VecAXPY(lambda2, -1, lambda));
  PetscCall(VecNorm(lambda2, NORM_2, &dmu));
  if (c->verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  |lambda (with mu) - lambda (without)| / |lambda| = %.2e\n", (double)(dmu / lnorm)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "theta 0.5's own adjoint dC/dU0 against central differences of theta's forward map in %" PetscInt_FMT " directions, relative error < 1e-7: %s\n", ndir, worst < 1e-7 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "theta 0.5's lambda the same (1e-12) whether mu is asked for or not: %s\n", dmu <= 1e-12 * lnorm ? "yes" : "no"));
  PetscCall(VecDestroy(&lambda));
  PetscCall(VecDestroy(&lambda2));
  PetscFunctionReturn(0);
}

/* the pairing: S_j stored by the forward monitor, lambda_j' S_j compared in the adjoint monitor */
static PetscErrorCode StoreTangent(TS ts, PetscInt step, PetscReal t, Vec U, void *ptr)
{
  Ctx               *c = (Ctx *)ptr;
  Mat                S;
  const PetscScalar *s;
  PetscInt           N, np;

  PetscFunctionBeginUser;
  if (step < 0) PetscFunctionReturn(0);
  PetscCall(TSForwardGetSensitivities(ts, &np, &S));
  PetscCall(VecGetSize(U, &N));
  PetscCall(MatDenseGetArrayRead(S, &s));
  for (PetscInt i = 0; i < N; i++) c->S[step * N + i] = PetscRealPart(s[i]);
  PetscCall(MatDenseRestoreArrayRead(S, &s));
  PetscFunctionReturn(0);
}

static PetscErrorCode PairAdjoint(TS ts, PetscInt step, PetscReal t, Vec U, PetscInt ncost, Vec *lambda, Vec *mu, void *ptr)
{
  Ctx               *c = (Ctx *)ptr;
  const PetscScalar *l;
  PetscInt           N;
  PetscReal          pair = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(U, &N));
  PetscCall(VecGetArrayRead(lambda[0], &l));
  for (PetscInt i = 0; i < N; i++) pair += PetscRealPart(l[i]) * c->S[step * N + i];
  PetscCall(VecRestoreArrayRead(lambda[0], &l));
  if (step == c->steps) c->pair0 = pair;
  c->pairdev = PetscMax(c->pairdev, PetscAbsReal(pair - c->pair0) / PetscAbsReal(c->pair0));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckPairing(Ctx *c, Vec U0)
{
  TS        ts;
  Mat       mats[8], S;
  Vec       U, lam;
  PetscInt  N;
  PetscReal dummy;

  PetscFunctionBeginUser;
  PetscCall(VecGetSize(U0, &N));
  PetscCall(PetscMalloc1(N * (c->steps + 1), &c->S));
  PetscCall(VecDuplicate(U0, &U));
  PetscCall(VecCopy(U0, U));
  c->nomu = PETSC_TRUE; /* the columns of S are then perturbations of U0, not parameter sensitivities */
  PetscCall(CreateTS(c, TSSIMPVI, c->g, U, PETSC_TRUE, mats, &ts));
  lam = c->lam;
  PetscCall(TSSetCostGradients(ts, 1, &c->lam, NULL));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, N, 1, NULL, &S));
  for (PetscInt i = 0; i < N; i++) PetscCall(MatSetValue(S, i, 0, i % 2 ? -0.7 : 0.3, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(S, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(S, MAT_FINAL_ASSEMBLY));
  PetscCall(TSForwardSetSensitivities(ts, 1, S));
  PetscCall(TSMonitorSet(ts, StoreTangent, c, NULL));
  PetscCall(TSAdjointMonitorSet(ts, PairAdjoint, c, NULL));
  PetscCall(TSSolve(ts, U));
  PetscCall(Terminal(c, U, &dummy, lam));
  c->pairdev = 0;
  PetscCall(TSAdjointSolve(ts));
  if (c->verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  max_j |lambda_j' dU_j - lambda_N' dU_N| / |lambda_N' dU_N| = %.2e over %" PetscInt_FMT " steps\n", (double)c->pairdev, c->steps));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "lambda_j' dU_j constant over %" PetscInt_FMT " steps to 1e-11 (relative): %s\n", c->steps, c->pairdev < 1e-11 ? "yes" : "no"));
  PetscCall(DestroyTS(c, &ts, mats));
  PetscCall(MatDestroy(&S));
  PetscCall(VecDestroy(&U));
  PetscCall(PetscFree(c->S));
  PetscFunctionReturn(0);
}

/* Another TS type (theta 0.5 unless -ts_type says otherwise) on the phase-space form, whose parameter Jacobian is the
   one TSSimpVISetUpPhaseSpace() builds from TSSimpVISetParameterJacobian() (rows of U, not of the positions): lambda
   and mu of that type's adjoint against central differences of its own forward map */
static PetscErrorCode CheckPhaseSpaceMu(Ctx *c, Vec U0)
{
  Vec       lambda;
  PetscReal dg, worst, Cp, Cm, g0 = c->g, eps = 1e-5, fd, gerr;
  PetscInt  ndir;
  CostRun   run = {c, TSTHETA};

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U0, &lambda));
  PetscCall(PetscOptionsSetValue(NULL, "-snes_rtol", "1e-15")); /* the forward map converged to round-off */
  PetscCall(PetscOptionsSetValue(NULL, "-snes_atol", "1e-15"));
  PetscCall(PetscOptionsSetValue(NULL, "-ksp_rtol", "1e-15"));
  PetscCall(PetscOptionsSetValue(NULL, "-ksp_atol", "1e-50"));
  c->formjacp = PETSC_TRUE;
  PetscCall(Gradient(c, TSTHETA, U0, g0, lambda, &dg));
  PetscCall(FDGradientError(U0, lambda, (PetscBool)(c->problem == CHAIN), eps, CostOfU0, &run, c->verbose, "adjoint", "central difference", &ndir, &worst));
  PetscCall(Cost(c, TSTHETA, U0, g0 * (1 + eps), &Cp));
  PetscCall(Cost(c, TSTHETA, U0, g0 * (1 - eps), &Cm));
  c->g = g0;
  fd   = (Cp - Cm) / (2 * eps * g0);
  gerr = PetscAbsReal(dg - fd) / PetscMax(PetscAbsReal(fd), 1e-300);
  if (c->verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  dC/dg: adjoint %.12e, central difference %.12e, relative error %.2e\n", (double)dg, (double)fd, (double)gerr));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "phase-space form: dC/dU0 against central differences in %" PetscInt_FMT " directions, relative error < 1e-7: %s\n", ndir, worst < 1e-7 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "phase-space form: dC/dg (mu of TSSimpVISetParameterJacobian()) against central differences, relative error < 1e-7: %s\n", gerr < 1e-7 ? "yes" : "no"));
  PetscCall(VecDestroy(&lambda));
  PetscFunctionReturn(0);
}

/* the tangent-linear run of the parameter g (TSForwardSetSensitivities() with a parameter Jacobian: S_0 = 0, forced by
   dG/dg) against the adjoint's mu: dC/dg = lambda_N' S_N for the terminal cost */
static PetscErrorCode CheckForwardParameter(Ctx *c, Vec U0)
{
  TS          ts;
  Mat         mats[8], S;
  Vec         U, col;
  PetscInt    nloc;
  PetscScalar lS, mu;
  PetscReal   dummy, err;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U0, &U));
  PetscCall(VecCopy(U0, U));
  PetscCall(CreateTS(c, TSSIMPVI, c->g, U, PETSC_TRUE, mats, &ts));
  PetscCall(TSSetCostGradients(ts, 1, &c->lam, &c->mu));
  PetscCall(VecGetLocalSize(U, &nloc));
  PetscCall(MatCreateDense(PetscObjectComm((PetscObject)U), nloc, PETSC_DECIDE, PETSC_DETERMINE, 1, NULL, &S));
  PetscCall(MatZeroEntries(S));
  PetscCall(TSForwardSetSensitivities(ts, 1, S));
  PetscCall(TSSolve(ts, U));
  PetscCall(Terminal(c, U, &dummy, c->lam));
  PetscCall(MatDenseGetColumnVecRead(S, 0, &col));
  PetscCall(VecDot(c->lam, col, &lS));
  PetscCall(MatDenseRestoreColumnVecRead(S, 0, &col));
  PetscCall(VecSet(c->mu, 0));
  PetscCall(TSAdjointSolve(ts));
  PetscCall(VecSum(c->mu, &mu));
  err = PetscAbsScalar(mu - lS) / PetscAbsScalar(mu);
  if (c->verbose) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  dC/dg: adjoint %.15e, tangent-linear %.15e, relative difference %.2e\n", (double)PetscRealPart(mu), (double)PetscRealPart(lS), (double)err));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dC/dg of the adjoint equals the tangent-linear run's to 1e-10 (relative; Krylov solves to 1e-12 in parallel): %s\n", err < 1e-10 ? "yes" : "no"));
  PetscCall(DestroyTS(c, &ts, mats));
  PetscCall(MatDestroy(&S));
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

/* r(t, U) for PETSc's deprecated TSSetCostIntegrand() */
static PetscErrorCode DeprecatedIntegrand(TS ts, PetscReal t, Vec U, Vec r, void *ptr)
{
  PetscFunctionBeginUser;
  PetscCall(Integrand(ts, t, U, r, ptr));
  PetscFunctionReturn(0);
}

/* a cost integral given by the deprecated TSSetCostIntegrand() (which makes no quadrature TS): TSAdjointSolve() must stop
   with an error that names TSCreateQuadratureTS(), not give gradients without the integral */
static PetscErrorCode CheckDeprecatedIntegrand(Ctx *c, Vec U0)
{
  TS        ts;
  Mat       mats[8];
  Vec       U;
  PetscReal dummy;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(U0, &U));
  PetscCall(VecCopy(U0, U));
  c->nomu = PETSC_TRUE;
  PetscCall(CreateTS(c, TSSIMPVI, c->g, U, PETSC_TRUE, mats, &ts));
  PetscCall(TSSetCostGradients(ts, 1, &c->lam, NULL));
#if defined(__GNUC__)
  #pragma GCC diagnostic push
  #pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
  PetscCall(TSSetCostIntegrand(ts, 1, NULL, DeprecatedIntegrand, NULL, NULL, PETSC_FALSE, c));
#if defined(__GNUC__)
  #pragma GCC diagnostic pop
#endif
  PetscCall(TSSolve(ts, U));
  PetscCall(Terminal(c, U, &dummy, c->lam));
  PetscCall(TSAdjointSolve(ts));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TSAdjointSolve() with TSSetCostIntegrand() gave gradients without the integral\n"));
  PetscCall(DestroyTS(c, &ts, mats));
  PetscCall(VecDestroy(&U));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx  c = {0};
  Vec  U0;
  char check[16] = "fd", door[16] = "mechanical";

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  c.g     = 9.81;
  c.gamma = 0.3;
  c.amp   = 0.5;
  c.k     = 4;
  c.h     = 0.05;
  c.steps = 40;
  c.n     = 12;
  c.mass  = 1;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Adjoint checks", NULL);
  PetscCall(PetscOptionsEnum("-problem", "Problem", NULL, Problems, (PetscEnum)c.problem, (PetscEnum *)&c.problem, NULL));
  PetscCall(PetscOptionsString("-check", "fd, theta, pairing, forward, costintegrand, thetafd or phasespace", NULL, check, check, sizeof(check), NULL));
  PetscCall(PetscOptionsString("-door", "mechanical or lagrangian (pendulum)", NULL, door, door, sizeof(door), NULL));
  PetscCall(PetscOptionsBool("-force", "Add a damping and driving force", NULL, c.force, &c.force, NULL));
  PetscCall(PetscOptionsBool("-integral", "Add the cost integral", NULL, c.integral, &c.integral, NULL));
  PetscCall(PetscOptionsBool("-verbose", "Print the numbers", NULL, c.verbose, &c.verbose, NULL));
  PetscCall(PetscOptionsInt("-steps", "Steps", NULL, c.steps, &c.steps, NULL));
  PetscCall(PetscOptionsInt("-n", "Positions of the chain", NULL, c.n, &c.n, NULL));
  PetscCall(PetscOptionsReal("-h", "Time step", NULL, c.h, &c.h, NULL));
  PetscCall(PetscOptionsReal("-mass", "Constant mass of the pendulum and the chain", NULL, c.mass, &c.mass, NULL));
  PetscCall(PetscOptionsBool("-setup_twice", "TSSimpVISetUpPhaseSpace() twice", NULL, c.twice, &c.twice, NULL));
  PetscCall(PetscOptionsString("-first_type", "The phase-space form set up for this TS type first", NULL, c.firsttype, c.firsttype, sizeof(c.firsttype), NULL));
  PetscCall(PetscOptionsBool("-late_parameter_jacobian", "TSSimpVISetParameterJacobian() after TSSimpVISetUpPhaseSpace() (no -integral)", NULL, c.late, &c.late, NULL));
  PetscOptionsEnd();
  c.lagrangian = (PetscBool)!strcmp(door, "lagrangian");
  if (c.problem == CHAIN) {
    PetscInt lo, hi;

    PetscCall(DMDACreate1d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, c.n, 1, 1, NULL, &c.da));
    PetscCall(DMSetUp(c.da));
    PetscCall(DMCreateLocalVector(c.da, &c.xloc));
    PetscCall(DMDAGetCorners(c.da, &c.rstart, NULL, NULL, &c.nloc, NULL, NULL));
    lo = 2 * c.rstart;
    hi = lo + c.nloc;
    PetscCall(ISCreateStride(PETSC_COMM_WORLD, c.nloc, lo, 1, &c.isq));
    PetscCall(ISCreateStride(PETSC_COMM_WORLD, c.nloc, hi, 1, &c.isp));
  }
  PetscCall(CreateState(&c, &U0));
  PetscCall(InitialState(&c, U0));
  if (!strcmp(check, "fd")) PetscCall(CheckFD(&c, U0));
  else if (!strcmp(check, "theta")) PetscCall(CheckTheta(&c, U0));
  else if (!strcmp(check, "pairing")) PetscCall(CheckPairing(&c, U0));
  else if (!strcmp(check, "forward")) PetscCall(CheckForwardParameter(&c, U0));
  else if (!strcmp(check, "costintegrand")) PetscCall(CheckDeprecatedIntegrand(&c, U0));
  else if (!strcmp(check, "thetafd")) PetscCall(CheckThetaFD(&c, U0));
  else if (!strcmp(check, "phasespace")) PetscCall(CheckPhaseSpaceMu(&c, U0));
  else SETERRQ(PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "Unknown -check %s", check);
  PetscCall(VecDestroy(&U0));
  PetscCall(VecDestroy(&c.xloc));
  PetscCall(ISDestroy(&c.isq));
  PetscCall(ISDestroy(&c.isp));
  PetscCall(DMDestroy(&c.da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  # dC/dU0 and dC/dg against central differences: the mechanical and Lagrangian doors, forces, the cost integral
  test:
    suffix: pendulum
    args: -problem pendulum -integral -force -ts_simpvi_type {{simpson lobatto gauss trapezoid midpoint}shared output}
  test:
    suffix: pendulum_lagrangian
    args: -problem pendulum -door lagrangian -integral -force -ts_simpvi_type {{simpson lobatto}shared output}
  test:
    suffix: double
    args: -problem double -integral -ts_simpvi_type {{simpson lobatto}shared output}
  test:
    suffix: double_force
    args: -problem double -force -ts_simpvi_type lobatto -ts_simpvi_degree 4
  test:
    suffix: chain
    nsize: {{1 2}}
    args: -problem chain -integral -force -ts_simpvi_type {{simpson lobatto}shared output}
    output_file: output/adjoint_chain_1.out

  # -ts_view says what the adjoint supports (on the runs that save their trajectory)
  test:
    suffix: view
    args: -problem pendulum -ts_view
    filter: grep -e "Adjoint" -e "against"

  # the trajectory types: memory (default), basic (disk), memory recomputing the steps (solution only)
  test:
    suffix: trajectory
    args: -problem double -integral -ts_trajectory_type {{basic memory}shared output}
  test:
    suffix: trajectory_recompute
    args: -problem double -integral -ts_trajectory_type memory -ts_trajectory_solution_only
    output_file: output/adjoint_trajectory.out

  # the midpoint scheme with a constant mass is implicit midpoint on (q, p): theta 0.5's adjoint
  test:
    suffix: theta
    args: -check theta -problem pendulum -integral
  test:
    suffix: theta_chain
    nsize: {{1 2}}
    args: -check theta -problem chain -integral
    output_file: output/adjoint_theta.out

  # lambda_j' dU_j along 2000 steps with the tangent-linear run (TSForwardSetSensitivities()): an adjoint that is not
  # the transpose of the tangent map breaks it in any step, so 2000 fail as 10^4 did
  test:
    suffix: pairing
    args: -check pairing -steps 2000 -problem pendulum -ts_simpvi_type simpson
  test:
    suffix: pairing_double
    args: -check pairing -steps 2000 -problem double -force -ts_simpvi_type lobatto
    output_file: output/adjoint_pairing.out


  # the parameter's tangent-linear run (TSForwardSetSensitivities() forced by dG/dg) against mu
  test:
    suffix: forward
    nsize: {{1 2}}
    args: -check forward -problem chain -force -ts_simpvi_type lobatto
  test:
    suffix: forward_double
    args: -check forward -problem double -steps 400
    output_file: output/adjoint_forward.out

  # PETSc theta 0.5's own adjoint against central differences of its own forward map (docs/adjoint.md): exact with a
  # constant mass (not the identity), not with M(q), where asking for mu also changes its lambda
  test:
    suffix: thetafd_mass
    args: -check thetafd -problem pendulum -mass 1.5 -force
  test:
    suffix: thetafd_chain
    nsize: {{1 2}}
    args: -check thetafd -problem chain -mass 0.7
    output_file: output/adjoint_thetafd_chain_1.out
  test:
    suffix: thetafd_double
    args: -check thetafd -problem double

  # the same program under theta 0.5, Crank-Nicolson, backward Euler and rk on the phase-space form, whose parameter
  # Jacobian TSSimpVISetUpPhaseSpace() builds from TSSimpVISetParameterJacobian() (issue 20): lambda and mu against
  # central differences of that type's map
  test:
    suffix: phasespace
    args: -check phasespace -problem pendulum -mass 1.5 -force -integral -ts_type {{theta cn beuler}shared output}
  # Crank-Nicolson (theta's endpoint form, which evaluates F at the step's start as if dF/dU' were constant) on the
  # double pendulum's M(q): refused, where it ran to an O(1) error that did not fall with the step
  test:
    suffix: phasespace_cn_massq
    args: -check phasespace -problem double -ts_type {{cn theta}separate output} -ts_theta_endpoint -petsc_ci_portable_error_output -error_output_stdout
    filter: grep -e "PETSC ERROR: TS " -e "^lambda" -e "^mu"
  test:
    suffix: phasespace_late
    args: -check phasespace -problem pendulum -mass 1.5 -force -late_parameter_jacobian
    output_file: output/adjoint_phasespace.out
  test:
    suffix: phasespace_lagrangian
    args: -check phasespace -problem pendulum -door lagrangian -force -integral
    output_file: output/adjoint_phasespace.out
  test:
    suffix: phasespace_chain
    nsize: {{1 2}}
    args: -check phasespace -problem chain -mass 0.7 -force -integral
    output_file: output/adjoint_phasespace_chain_1.out
  # rk on the explicit form (its Jacobian a shell through P_v^{-1}; fixed steps, no cost integral: PETSc's rk adjoint
  # with mu needs the quadrature TS's own TSSetRHSJacobianP()); exact for M(q) too (the double pendulum)
  test:
    suffix: phasespace_rk
    args: -check phasespace -problem pendulum -force -ts_type rk -ts_adapt_type none -ts_rk_type {{4 3bs}shared output}
    output_file: output/adjoint_phasespace.out
  test:
    suffix: phasespace_twice
    args: -check phasespace -problem pendulum -force -setup_twice -ts_type rk -ts_rk_type 4
    output_file: output/adjoint_phasespace.out
  # the form set up for another type first (rk's explicit form before theta's implicit one, and the other way): that
  # form's functions gone (theta took rk's shell Jacobian too, and crashed in MatAXPY(); rk refused an IFunction)
  test:
    suffix: phasespace_switch
    args: -check phasespace -problem pendulum -force -first_type rk
    output_file: output/adjoint_phasespace.out
  test:
    suffix: phasespace_switch_rk
    args: -check phasespace -problem pendulum -force -first_type theta -ts_type rk -ts_adapt_type none -ts_rk_type 4
    output_file: output/adjoint_phasespace.out
  test:
    suffix: phasespace_twice_theta
    args: -check phasespace -problem pendulum -force -setup_twice
    output_file: output/adjoint_phasespace.out
  test:
    suffix: phasespace_rk_chain
    nsize: 2
    args: -check phasespace -problem chain -mass 0.7 -force -ts_type rk -ts_rk_type 4
    output_file: output/adjoint_phasespace_chain_1.out
  test:
    suffix: phasespace_rk_double
    args: -check phasespace -problem double -ts_type rk -ts_rk_type 4

  # a cost integral by the deprecated TSSetCostIntegrand() stops with an error naming TSCreateQuadratureTS()
  test:
    suffix: costintegrand
    args: -check costintegrand -problem pendulum -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep "PETSC ERROR" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"

TEST*/
