static char help[] = "The mechanical door's points path (P, G and their derivatives on arrays at every quadrature point of the small\n"
                     "dense step): the driven double pendulum (M(q), V(t, q) = V_g(q) + a sin(w t) q1 q2) and a constant-mass\n"
                     "chain of four (V_g with four weights, the same drive), with MATSEQDENSE matrices (the points path) against the same with an AIJ\n"
                     "potential Hessian (the Vec path, which the points path must agree with) and with every matrix AIJ. Checks\n"
                     "that the dense run takes the points path (TSView) and the others do not, that the end states agree to\n"
                     "round-off, that the Newton iterations and the Hessian calls are the Vec path's (a wrong derivative block\n"
                     "would cost iterations), that the mass callback is never called twice at the inputs of one of its last nq\n"
                     "calls (the Jacobian at an iterate reuses the residual's values there), that a new potential or mass set\n"
                     "between solves is used, that a domain error set by the potential (SNESSetFunctionDomainError()) fails\n"
                     "the step and retries it as on the Vec path, and that callbacks writing the problem's matrices rather than\n"
                     "their arguments, or only some entries of them, get the Vec path's answer.\n"
                     "  -steps <n>  steps of h = -h (default 100, 0.1)\n\n";

#include <simpvi.h>
#include "viewtext.h"
#include "../examples/models/doublependulum.h"

typedef enum {
  PATH_POINTS, /* every matrix MATSEQDENSE: the points path */
  PATH_VEC,    /* the Hessian AIJ: the Vec path, the mass memo on the dense M */
  PATH_AIJ     /* every matrix AIJ */
} Path;

#define RING 16

/* what the callbacks write */
typedef enum {
  WRITES_ARGUMENTS, /* the matrices they are given */
  WRITES_PROBLEM,   /* the problem's own (the program's, from its context), whatever they are given */
  WRITES_VARYING    /* the mass: only M's off-diagonal entries, its diagonal the program's (SetDiagonal()) */
} Writes;

typedef struct {
  DoublePendulum dp;
  PetscBool      massfn; /* M(q) (the double pendulum, n = 2), or a constant M (n = 4) */
  PetscInt       n;
  PetscReal      a, w;    /* the drive a sin(w t) q1 q2 */
  PetscInt       calls;   /* of the mass callback */
  PetscInt       repeats; /* sets of nq calls at the (x, v) of the nq before (a Jacobian's points after its residual's) */
  PetscBool      setsame; /* the calls of this set so far are */
  PetscInt       hcalls;  /* of the potential's Hessian */
  PetscInt       nq;      /* the scheme's quadrature points */
  PetscReal      ring[RING][4];
  PetscInt       nring;
  PetscReal      tfault, h; /* a potential call at t in [tfault, tfault + h) in a step of size h sets a domain error (tfault < 0: none) */
  Writes         writes;
  Mat            A[3], K; /* the problem's matrices (WRITES_PROBLEM writes these) */
} Ctx;

/* A (n x n, row-major) into the matrix: on its array when dense, by MatSetValues() otherwise */
static PetscErrorCode FillN(Mat A, PetscInt n, const PetscReal a[])
{
  PetscInt    idx[4] = {0, 1, 2, 3};
  PetscScalar v[16], *x;
  PetscBool   dense;

  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < n * n; j++) v[j] = a[j];
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQDENSE, &dense));
  if (dense) {
    PetscCall(MatDenseGetArrayWrite(A, &x)); /* column-major */
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt col = 0; col < n; col++) x[r + n * col] = a[r * n + col];
    PetscCall(MatDenseRestoreArrayWrite(A, &x));
  } else {
    PetscCall(MatSetValues(A, n, idx, n, idx, v, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* The double pendulum's mass terms, counted; a call at the (x, v) of the call nq before is a repeat: the step
   evaluating the same set of quadrature points again (the Vec path's Jacobian after its residual, without the memo) */
static PetscErrorCode Mass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *xx, *vv;
  PetscReal          q[2], w[2], Mq[2][2], Mxq[2][2], gq[2], Mxxq[2][2], in[4];
  PetscScalar       *gg;

  PetscFunctionBeginUser;
  c->calls++;
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  for (PetscInt i = 0; i < 2; i++) {
    in[i] = q[i] = PetscRealPart(xx[i]);
    in[2 + i] = w[i] = PetscRealPart(vv[i]);
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  if (in[2] != 0 || in[3] != 0) { /* (the Vec path's Legendre inversion at the start calls it at v = 0 several times) */
    PetscBool same = PETSC_FALSE; /* the inputs of the call nq before: its point evaluated again */

    if (c->nring >= c->nq) PetscCall(PetscArraycmp(c->ring[(c->nring - c->nq) % RING], in, 4, &same));
    /* a set of points evaluated again: every point of a call's nq (one point alone may be unchanged by an update at
       round-off, the first node's x always is) */
    if (c->nring % c->nq == 0) c->setsame = PETSC_TRUE;
    c->setsame = (PetscBool)(c->setsame && same);
    if (c->nring % c->nq == c->nq - 1 && c->setsame) c->repeats++;
    PetscCall(PetscArraycpy(c->ring[c->nring++ % RING], in, 4));
  }
  DoublePendulumMassTerms(&c->dp, q, w, Mq, Mxq, gq, Mxxq);
  if (c->writes == WRITES_PROBLEM) {
    M   = c->A[0];
    Mx  = c->A[1];
    Mxx = c->A[2];
  }
  if (c->writes == WRITES_VARYING) {
    PetscScalar *a;

    PetscCall(MatDenseGetArray(M, &a));
    a[1] = Mq[1][0];
    a[2] = Mq[0][1];
    PetscCall(MatDenseRestoreArray(M, &a));
  } else PetscCall(FillN(M, 2, &Mq[0][0]));
  PetscCall(FillN(Mx, 2, &Mxq[0][0]));
  PetscCall(FillN(Mxx, 2, &Mxxq[0][0]));
  PetscCall(VecGetArrayWrite(g, &gg));
  gg[0] = gq[0];
  gg[1] = gq[1];
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscFunctionReturn(0);
}

/* the chain's gravity weights (n = 4) */
static const PetscReal ChainW[4] = {19.62, 9.81, 5, 3};

/* V = V_g(q) + a sin(w t) q1 q2 (V_g: the double pendulum's, or sum_i w_i (1 - cos q_i) for the chain); a call at t in [tfault, tfault + h) in a step of the full size h sets a domain error:
   the solve fails (simplified Newton, then Newton) and the step is retried with a smaller one */
static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *xx;
  PetscScalar       *gg;
  PetscReal          d = c->a * PetscSinReal(c->w * t), q0, q1;

  PetscFunctionBeginUser;
  if (c->n == 2) PetscCall(DoublePendulumPotential(ts, t, x, V, g, &c->dp));
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArray(g, &gg));
  if (c->n != 2) {
    *V = 0;
    for (PetscInt i = 0; i < c->n; i++) {
      *V += ChainW[i] * (1 - PetscCosReal(PetscRealPart(xx[i])));
      gg[i] = ChainW[i] * PetscSinReal(PetscRealPart(xx[i]));
    }
  }
  q0 = PetscRealPart(xx[0]);
  q1 = PetscRealPart(xx[1]);
  PetscCall(VecRestoreArrayRead(x, &xx));
  *V += d * q0 * q1;
  gg[0] += d * q1;
  gg[1] += d * q0;
  PetscCall(VecRestoreArray(g, &gg));
  if (c->tfault >= 0 && t >= c->tfault && t < c->tfault + c->h) {
    SNES      snes;
    PetscReal dt;

    PetscCall(TSGetTimeStep(ts, &dt));
    PetscCall(TSGetSNES(ts, &snes));
    if (dt >= c->h) PetscCall(SNESSetFunctionDomainError(snes));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Hessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *xx;
  PetscReal          w[4], d = c->a * PetscSinReal(c->w * t), h[16] = {0};
  const PetscInt     n = c->n;

  PetscFunctionBeginUser;
  c->hcalls++;
  if (n == 2) DoublePendulumGravity(&c->dp, w);
  else
    for (PetscInt i = 0; i < n; i++) w[i] = ChainW[i];
  PetscCall(VecGetArrayRead(x, &xx));
  for (PetscInt i = 0; i < n; i++) h[i * n + i] = w[i] * PetscCosReal(PetscRealPart(xx[i]));
  h[1] = h[n] = d;
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(FillN(c->writes == WRITES_PROBLEM ? c->K : H, n, h));
  PetscFunctionReturn(0);
}

typedef struct {
  PetscReal         u[8];
  PetscInt          n, its, calls, repeats, hcalls, rejections;
  PetscBool         points;
  TSConvergedReason reason;
} Result;

static PetscErrorCode NewMat(PetscBool dense, PetscInt n, Mat *A)
{
  PetscFunctionBeginUser;
  if (dense) {
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, A));
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  } else PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, n, NULL, A));
  PetscFunctionReturn(0);
}

/* M's diagonal, which does not depend on q, into M (WRITES_VARYING: the callback writes only the rest) */
static PetscErrorCode SetDiagonal(Ctx *c, Mat M)
{
  PetscReal Mq[2][2];

  PetscFunctionBeginUser;
  DoublePendulumMassMatrix(&c->dp, 0, 0, Mq);
  PetscCall(MatSetValue(M, 0, 0, Mq[0][0], INSERT_VALUES));
  PetscCall(MatSetValue(M, 1, 1, Mq[1][1], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* steps of h from (pi/4, pi/3) with momenta (1, -0.5) (the chain: from (pi/4, pi/3, 0.2, -0.1), (1, -0.5, 0.3, 0)). again: a second solve from the start after TSSimpVISetMass()
   and TSSimpVISetPotential() with other parameters (a heavier second bob, a stronger drive), whose answer must be
   theirs, not the first solve's kept values */
static PetscErrorCode Run(Path path, PetscBool massfn, const char scheme[], PetscInt degree, PetscReal h, PetscInt steps, PetscReal tfault, PetscBool again, Writes writes, Result *res)
{
  TS   ts;
  SNES snes;
  Vec  U;
  Mat  A[3], K;
  Ctx  c = {
     .dp     = {1, 1, 1, 1, 9.81},
     .massfn = massfn,
     .n      = massfn ? 2 : 4,
     .a      = 2,
     .w      = 3,
     .tfault = tfault,
     .h      = h,
     .writes = writes,
  };
  PetscScalar    *uu;
  static char     view[1 << 16];
  const PetscReal u0[2][8] = {
    {PETSC_PI / 4, PETSC_PI / 3, 0.2, -0.1, 1, -0.5, 0.3, 0},
    {PETSC_PI / 4,        PETSC_PI / 3,                 1,                   -0.5                      }
  };
  const PetscInt n = c.n;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, scheme));
  if (degree > 0) PetscCall(TSSimpVISetDegree(ts, degree));
  for (PetscInt j = 0; j < 3; j++) PetscCall(NewMat((PetscBool)(path != PATH_AIJ), n, &A[j]));
  PetscCall(NewMat((PetscBool)(path == PATH_POINTS), n, &K));
  for (PetscInt j = 0; j < 3; j++) c.A[j] = A[j];
  c.K = K;
  if (writes == WRITES_VARYING) PetscCall(SetDiagonal(&c, A[0]));
  if (massfn) PetscCall(TSSimpVISetMass(ts, A[0], A[1], A[2], Mass, &c));
  else {
    const PetscReal M[16] = {2, 0.5, 0, 0, 0.5, 2, 0.5, 0, 0, 0.5, 2, 0.5, 0, 0, 0.5, 1};

    PetscCall(FillN(A[0], n, M));
    PetscCall(TSSimpVISetMass(ts, A[0], NULL, NULL, NULL, NULL));
  }
  PetscCall(TSSimpVISetPotential(ts, K, Potential, Hessian, &c));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * n, &U));
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetMaxSNESFailures(ts, 10));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSetUp(ts));
  PetscCall(TSSimpVIGetTableau(ts, NULL, &c.nq, NULL, NULL, NULL, NULL, NULL));
  for (PetscInt pass = 0; pass < (again ? 2 : 1); pass++) {
    if (pass == 1) { /* other parameters, given again: nothing of the first solve's may stand */
      c.dp.m2 = 2;
      c.a     = 3;
      if (writes == WRITES_VARYING) PetscCall(SetDiagonal(&c, A[0])); /* the program's new constant entries; nothing given again */
      else if (massfn) PetscCall(TSSimpVISetMass(ts, A[0], A[1], A[2], Mass, &c));
      else {
        const PetscReal M[16] = {3, 0.5, 0, 0, 0.5, 3, 0.5, 0, 0, 0.5, 3, 0.5, 0, 0, 0.5, 2};

        PetscCall(FillN(A[0], n, M));
        PetscCall(TSSimpVISetMass(ts, A[0], NULL, NULL, NULL, NULL));
      }
      if (writes != WRITES_VARYING) PetscCall(TSSimpVISetPotential(ts, K, Potential, Hessian, &c));
      PetscCall(TSSetTime(ts, 0));
      PetscCall(TSSetStepNumber(ts, 0));
      PetscCall(TSSetMaxSteps(ts, steps));
    }
    PetscCall(VecGetArrayWrite(U, &uu));
    for (PetscInt i = 0; i < 2 * n; i++) uu[i] = u0[n == 2][i];
    PetscCall(VecRestoreArrayWrite(U, &uu));
    PetscCall(TSSolve(ts, U));
  }
  PetscCall(TSGetConvergedReason(ts, &res->reason));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(TSGetSNESIterations(ts, &res->its));
  PetscCall(TSGetStepRejections(ts, &res->rejections));
  PetscCall(TSViewText(ts, "mechpoints", sizeof(view), view));
  res->points  = (PetscBool)(strstr(view, "P, G and their derivatives at every quadrature point") != NULL);
  res->calls   = c.calls;
  res->repeats = c.repeats;
  res->hcalls  = c.hcalls;
  PetscCall(VecGetArrayRead(U, (const PetscScalar **)&uu));
  for (PetscInt i = 0; i < 2 * n; i++) res->u[i] = PetscRealPart(uu[i]);
  res->n = n;
  PetscCall(VecRestoreArrayRead(U, (const PetscScalar **)&uu));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  for (PetscInt j = 0; j < 3; j++) PetscCall(MatDestroy(&A[j]));
  PetscCall(MatDestroy(&K));
  PetscFunctionReturn(0);
}

/* the largest difference of two end states, relative to the larger entry */
static PetscReal Diff(const Result *a, const Result *b)
{
  PetscReal d = 0, s = 1;

  for (PetscInt i = 0; i < 2 * a->n; i++) {
    d = PetscMax(d, PetscAbsReal(a->u[i] - b->u[i]));
    s = PetscMax(s, PetscAbsReal(b->u[i]));
  }
  return d / s;
}

int main(int argc, char **argv)
{
  const char     *schemes[] = {"lobatto", "gauss", "simpson"};
  const PetscInt  degrees[] = {6, 3, 0};
  const PetscReal tol       = 1e-12;
  PetscReal       h         = 0.1; /* end states agree to round-off (1e-14 seen); a wrong derivative block moves them by the Newton tolerance, 1e-10 */
  PetscInt        steps     = 100;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-h", &h, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  for (PetscInt mf = 1; mf >= 0; mf--) {
    for (PetscInt s = 0; s < 3; s++) {
      for (PetscInt fault = 0; fault < 3; fault++) { /* plain, a domain error at t = 2.05, a second solve with other parameters */
        Result    r[3];
        PetscReal tfault = fault == 1 ? 2.05 : -1;

        for (PetscInt p = PATH_POINTS; p <= PATH_AIJ; p++) PetscCall(Run((Path)p, (PetscBool)mf, schemes[s], degrees[s], h, steps, tfault, (PetscBool)(fault == 2), WRITES_ARGUMENTS, &r[p]));
        /* the Newton iterations: round-off moves a convergence test now and then (a few in hundreds); a wrong
           derivative block costs iterations at every step (a Gv without its transpose: 616 against 478) */
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, %s %" PetscInt_FMT "%s: points path %s, Vec paths %s; end states agree: %s; Newton iterations the Vec path's (2%%, 3): %s\n", mf ? "M(q)" : "constant M (n = 4)", schemes[s], degrees[s],
                              fault == 1   ? ", domain error"
                              : fault == 2 ? ", solved again"
                                           : "",
                              r[PATH_POINTS].points ? "taken" : "NOT TAKEN", r[PATH_VEC].points || r[PATH_AIJ].points ? "NOT TAKEN" : "not taken", Diff(&r[PATH_POINTS], &r[PATH_VEC]) <= tol && Diff(&r[PATH_POINTS], &r[PATH_AIJ]) <= tol ? "yes" : "no",
                              PetscAbsInt(r[PATH_POINTS].its - r[PATH_VEC].its) <= PetscMax(3, r[PATH_VEC].its / 50) ? "yes" : "no"));
        /* the points path's Jacobians also have G_x at a Lobatto or Simpson scheme's last node, for the end momentum of
           an update accepted without the residual after it (SimpVIStepNewtonAccept_Private()): a Hessian call more per
           Jacobian, Simpson's two against one; one per residual would be many more */
        if (fault != 1)
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  Hessian calls the Vec path's, and at most as many again (the last node's): %s\n", r[PATH_POINTS].hcalls >= r[PATH_VEC].hcalls && r[PATH_POINTS].hcalls <= 2 * r[PATH_VEC].hcalls ? "yes" : "no"));
        /* (a failed solve is solved again from the same start: its points evaluated again, as on the Vec path) */
        if (mf && fault != 1)
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  mass calls: a set of points evaluated again: %s, fewer than without the memo: %s\n", r[PATH_POINTS].repeats == 0 ? "never" : "YES", r[PATH_POINTS].calls < r[PATH_AIJ].calls ? "yes" : "no"));
        if (fault == 1)
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  domain error: the step rejected and retried, as on the Vec path: %s; the run converged: %s\n",
                                r[PATH_POINTS].rejections > 0 && r[PATH_POINTS].rejections == r[PATH_VEC].rejections && r[PATH_POINTS].rejections == r[PATH_AIJ].rejections ? "yes" : "no",
                                r[PATH_POINTS].reason > 0 && r[PATH_POINTS].reason == r[PATH_VEC].reason ? "yes" : "no"));
        PetscCall(PetscInfo(NULL, "end states differ by %g, %g; iterations %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT "; Hessian calls %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT "; mass calls %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT ", repeats %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT "; rejections %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT "\n", (double)Diff(&r[PATH_POINTS], &r[PATH_VEC]), (double)Diff(&r[PATH_POINTS], &r[PATH_AIJ]),
                            r[0].its, r[1].its, r[2].its, r[0].hcalls, r[1].hcalls, r[2].hcalls, r[0].calls, r[1].calls, r[2].calls, r[0].repeats, r[1].repeats, r[2].repeats, r[0].rejections, r[1].rejections, r[2].rejections));
      }
    }
  }
  /* the points path gives the callbacks its own copies of the problem's matrices (their array functions found faster on
     PETSc 3.18): a program whose callbacks write the problem's own matrices, or write only some entries of the
     matrix given (the rest the program's, which it changes between solves), gets the Vec path's answer */
  for (PetscInt w = WRITES_PROBLEM; w <= WRITES_VARYING; w++) {
    Result r[2];

    PetscCall(Run(PATH_POINTS, PETSC_TRUE, "lobatto", 6, h, steps, -1, PETSC_TRUE, (Writes)w, &r[0]));
    PetscCall(Run(PATH_VEC, PETSC_TRUE, "lobatto", 6, h, steps, -1, PETSC_TRUE, WRITES_ARGUMENTS, &r[1]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "callbacks that write %s, solved twice: points path %s; end state the Vec path's: %s\n", w == WRITES_PROBLEM ? "the problem's matrices, not their arguments" : "only M's varying entries (its diagonal the program's, changed between the solves)", r[0].points ? "taken" : "NOT TAKEN", Diff(&r[0], &r[1]) <= tol ? "yes" : "no"));
    PetscCall(PetscInfo(NULL, "end states differ by %g\n", (double)Diff(&r[0], &r[1])));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    args: -malloc_dump

TEST*/
