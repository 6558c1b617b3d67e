/*
   PETSc second-order door: an unchanged TSSetI2Function()/TSSetI2Jacobian() program (or TSSetIFunction() on (U, A)),
   read as M a + f(t, u, v) = 0 with constant M. Then L_v = M v and the generalized force is G = -f(t, u, v), taken
   through the quadrature (discrete Lagrange-d'Alembert): damping and time dependence in f are integrated as forces.
   K = dF/dU, M = dF/dA and C = dF/dV come from the I2 Jacobian's shifts, each only where the step needs it: M once, K
   from one call per quadrature point, C only where F is seen to depend on v (one more call). K and C both at one point
   take two calls: the step needs them in different combinations there. M must
   stay constant (M(u) a + f is not a Lagrangian system in general): it is checked at the end of every step, with an
   error that points to the mechanical door, which handles M(x). The check costs two I2 function calls: F(a = r) -
   F(a = 0) = M r for a fixed pseudo-random r, against M0 r; only when these differ beyond round-off is M read again
   from the Jacobian (two more Jacobian calls) and compared entry by entry, which decides and gives the message.
*/
#include <petsc/private/tsimpl.h>  /* the user's TS: its I2 callbacks and solver flags */
#include <petsc/private/matimpl.h> /* whether a matrix type counts its entries (MatGetInfo()) */
#include <petscdm.h>
#include <petscblaslapack.h>
#include <simpvi/private/door.h>

/* relative change of M (Frobenius) beyond which the mass is taken as not constant; M itself is read to round-off */
#define SIMPVI_I2_MASS_RTOL 1e-10
/* relative change of M r beyond which M is read again: far below the test above, far above round-off */
#define SIMPVI_I2_PROBE_RTOL 1e-13

/* The user's I2 function and Jacobian are called directly when they are the whole F (no RHS part): a failure on some
   processes is then made collective right after the user's code, while TSComputeI2Function() and
   TSComputeI2Jacobian() may do collective work of their own after it (a debug PETSc's check of its log events). On one
   process a success needs no check (nor the MPI_Comm_size() of SimpVICallBack(), which the door calls at every
   quadrature point). The function is looked up once for the points of one call of Points_I2(). */
typedef struct {
  TSI2Function f;   /* called directly when not NULL */
  void        *ctx; /* its context */
} I2Callee;

static PetscErrorCode I2FunctionLookUp(TS ts, I2Callee *c)
{
  DM            dm;
  TSRHSFunction rhs;

  PetscFunctionBegin;
  PetscCall(TSGetDM(ts, &dm));
  PetscCall(DMTSGetI2Function(dm, &c->f, &c->ctx));
  PetscCall(DMTSGetRHSFunction(dm, &rhs, NULL));
  if (rhs) c->f = NULL;
  PetscFunctionReturn(0);
}

/* The user's function called directly is logged as PETSc's TSComputeI2Function() logs it (-log_view: TSFunctionEval) */
static PetscErrorCode I2FunctionCall(TS ts, SimpVIProblem *prob, const I2Callee *c, PetscReal t, Vec x, Vec v, Vec a, Vec F)
{
  PetscFunctionBegin;
  if (c->f) PetscCall(PetscLogEventBegin(TS_FunctionEval, x, ts, v, F));
  if (c->f && prob->I2oneprocess) SimpVICallBackOneProcess(ts, "TSSIMPVI I2 function", c->f(ts, t, x, v, a, F, c->ctx));
  else if (c->f) SimpVICallBack(ts, "TSSIMPVI I2 function", c->f(ts, t, x, v, a, F, c->ctx));
  else SimpVICallBack(ts, "TSSIMPVI I2 function", TSComputeI2Function(ts, t, x, v, a, F));
  if (c->f) PetscCall(PetscLogEventEnd(TS_FunctionEval, x, ts, v, F));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Function(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec a, Vec F)
{
  I2Callee c;

  PetscFunctionBegin;
  PetscCall(I2FunctionLookUp(ts, &c));
  PetscCall(I2FunctionCall(ts, prob, &c, t, x, v, a, F));
  PetscFunctionReturn(0);
}

/* g(w) = F(t, w, v + sV (w - x), sA (w - x)), whose derivative at w = x is the I2 Jacobian J = dF/dU + sV dF/dV + sA dF/dA */
static PetscErrorCode ShiftedFunction(void *unused, Vec w, Vec g, void *ctx)
{
  TS             ts   = (TS)ctx;
  SimpVIProblem *prob = NULL;

  PetscFunctionBegin;
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
  PetscCall(VecWAXPY(prob->I2s, -1, prob->I2fdx, w));                     /* w - x */
  PetscCall(VecWAXPY(prob->I2fdw, prob->I2fdsv, prob->I2s, prob->I2fdv)); /* v + sV (w - x) */
  PetscCall(VecScale(prob->I2s, prob->I2fdsa));                           /* sA (w - x) */
  PetscCall(TSComputeI2Function(ts, prob->I2fdt, w, prob->I2fdw, prob->I2s, g));
  PetscFunctionReturn(0);
}

/* J by differences colored on the pattern of the DM's matrix, for a program that gives no I2 Jacobian function (and
   runs TSALPHA2 with -snes_fd_color): to the accuracy of differences, as there */
static PetscErrorCode ColoredJacobian(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscReal shiftV, PetscReal shiftA, Mat A)
{
  PetscFunctionBegin;
  if (!prob->I2fdc) {
    DM         dm;
    ISColoring iscoloring;
    PetscBool  shell;

    PetscCall(TSGetDM(ts, &dm));
    PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMSHELL, &shell));
    PetscCheck(!shell, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI needs the Jacobian of the second-order problem, and this program gives none (no TSSetI2Jacobian() function) on a DM that cannot colour one by differences (a DMShell, the TS's own without TSSetDM()): give TSSetI2Jacobian(), or a DM that knows the coupling (DMDA, DMPlex)");
    PetscCall(DMCreateColoring(dm, IS_COLORING_GLOBAL, &iscoloring));
    PetscCall(MatDuplicate(A, MAT_DO_NOT_COPY_VALUES, &prob->I2fdJ)); /* a coloring serves one matrix */
    PetscCall(MatFDColoringCreate(prob->I2fdJ, iscoloring, &prob->I2fdc));
    PetscCall(MatFDColoringSetFunction(prob->I2fdc, SIMPVI_FDCOLORING_FN(ShiftedFunction), ts));
    PetscCall(MatFDColoringSetFromOptions(prob->I2fdc));
    PetscCall(MatFDColoringSetUp(prob->I2fdJ, iscoloring, prob->I2fdc));
    PetscCall(ISColoringDestroy(&iscoloring));
    PetscCall(PetscInfo(ts, "No I2 Jacobian function: the I2 Jacobian by colored finite differences on the DM's pattern\n"));
  }
  prob->I2fdt  = t;
  prob->I2fdx  = x;
  prob->I2fdv  = v;
  prob->I2fdsv = shiftV;
  prob->I2fdsa = shiftA;
  PetscCall(MatFDColoringApply(prob->I2fdJ, prob->I2fdc, x, NULL));
  PetscCall(MatCopy(prob->I2fdJ, A, SAME_NONZERO_PATTERN));
  PetscFunctionReturn(0);
}

/* J = dF/dU + shiftV dF/dV + shiftA dF/dA into A */
static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec x, Vec v, Vec zero, PetscReal shiftV, PetscReal shiftA, Mat A)
{
  DM             dm;
  TSI2Jacobian   jac;
  TSIJacobian    ijac;
  TSRHSJacobian  rhs;
  void          *ctx;
  SimpVIProblem *prob;

  PetscFunctionBegin;
  PetscCall(TSGetDM(ts, &dm));
  PetscCall(DMTSGetI2Jacobian(dm, &jac, &ctx));
  PetscCall(DMTSGetIJacobian(dm, &ijac, NULL));
  PetscCall(DMTSGetRHSJacobian(dm, &rhs, NULL));
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
  if (!jac && !ijac && !rhs) PetscCall(ColoredJacobian(ts, prob, t, x, v, shiftV, shiftA, A));
  else if (jac && !rhs) {
    PetscCall(PetscLogEventBegin(TS_JacobianEval, x, ts, A, A)); /* as TSComputeI2Jacobian() logs it */
    SimpVICallBack(ts, "TSSIMPVI I2 Jacobian", jac(ts, t, x, v, zero, shiftV, shiftA, A, A, ctx));
    PetscCall(PetscLogEventEnd(TS_JacobianEval, x, ts, A, A));
  } else SimpVICallBack(ts, "TSSIMPVI I2 Jacobian", TSComputeI2Jacobian(ts, t, x, v, zero, shiftV, shiftA, A, A));
  PetscFunctionReturn(0);
}

/* d = (J - K)/s, J and K as the user's Jacobian filled them, in a matrix of simpvi's own: a MatAXPY() into the user's
   matrix could replace its header (another pattern, or any MPIAIJ not told SAME_NONZERO_PATTERN), and with it the DM,
   local-to-global map and stencil that the user's MatSetValuesStencil() needs at the next call */
static PetscErrorCode Difference(SimpVIProblem *prob, PetscReal s, SimpVIDifference *d)
{
  Mat              J = prob->I2J[1], K = prob->I2J[0];
  PetscObjectState js, ks;

  PetscFunctionBegin;
  PetscCall(MatGetNonzeroState(J, &js));
  PetscCall(MatGetNonzeroState(K, &ks));
  if (d->D && d->inplace && js == d->Jstate && ks == d->Kstate) {
    PetscCall(MatCopy(J, d->D, SAME_NONZERO_PATTERN));
    PetscCall(MatAXPY(d->D, -1, K, SAME_NONZERO_PATTERN));
  } else {                                                                                  /* the first time, or a pattern the user's code changed */
    const PetscBool same = (PetscBool)(js == prob->I2Jstate[1] && ks == prob->I2Jstate[0]); /* both still have I2P's */

    PetscCall(MatDestroy(&d->D));
    PetscCall(MatDuplicate(J, MAT_COPY_VALUES, &d->D));
    PetscCall(MatAXPY(d->D, -1, K, same ? SAME_NONZERO_PATTERN : UNKNOWN_NONZERO_PATTERN));
    d->Jstate  = js;
    d->Kstate  = ks;
    d->inplace = same;
    if (!same && J->ops->getinfo && K->ops->getinfo && d->D->ops->getinfo) { /* the user's first fill of a matrix made without a pattern (MatCreateAIJ() and no assembly) makes one: J
                    and K still share it when D, which holds both, has no more entries than either; refilled in place from
                    then on (duplicated at every call, D cost more than the user's Jacobian) */
      MatInfo ji, ki, di;

      PetscCall(MatGetInfo(J, MAT_GLOBAL_SUM, &ji));
      PetscCall(MatGetInfo(K, MAT_GLOBAL_SUM, &ki));
      PetscCall(MatGetInfo(d->D, MAT_GLOBAL_SUM, &di));
      d->inplace = (PetscBool)(ji.nz_used == di.nz_used && ki.nz_used == di.nz_used);
    }
  }
  PetscCall(MatScale(d->D, 1 / s));
  PetscFunctionReturn(0);
}

/* D = (J(shift) - K)/s, with K = J(0, 0) already in prob->I2J[0]. The user's J = K + s D is rounded at the size of its
   entries; with s a power of two far above ||K||/||M|| that rounding is a round-off of s D, not of K, and the division is
   exact: D comes out to round-off (s = 1 would leave an error of eps ||K||/||M|| relative). */
static PetscErrorCode ShiftDerivative(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscBool velocity, SimpVIDifference *D)
{
  const PetscReal s = prob->I2shift;

  PetscFunctionBegin;
  PetscCall(I2Jacobian(ts, t, x, v, prob->zero, velocity ? s : 0, velocity ? 0 : s, prob->I2J[1]));
  PetscCall(Difference(prob, s, D));
  PetscFunctionReturn(0);
}

/* y = M r from the I2 function alone, (F(t, x, v, sigma r) - F(t, x, v, 0))/sigma: F is linear in a, and sigma, a power of
   two, puts sigma M r far above the rest of F, whose round-off would otherwise stay in the difference */
static PetscErrorCode MassFromFunction(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec r, Vec y)
{
  PetscReal fnorm, rnorm, sigma;

  PetscFunctionBegin;
  PetscCall(VecNorm(r, NORM_INFINITY, &rnorm));
  if (rnorm == 0) {
    PetscCall(VecSet(y, 0));
    PetscFunctionReturn(0);
  }
  PetscCall(I2Function(ts, prob, t, x, v, prob->zero, prob->I2f));
  PetscCall(VecNorm(prob->I2f, NORM_INFINITY, &fnorm));
  sigma = PetscPowReal(2, PetscCeilReal(PetscLog2Real(PetscMax(fnorm / (prob->I2Mscale * rnorm), 1))) + 20);
  PetscCall(VecAXPBY(prob->I2s, sigma, 0, r));
  PetscCall(I2Function(ts, prob, t, x, v, prob->I2s, y));
  PetscCall(VecAXPY(y, -1, prob->I2f));
  PetscCall(VecScale(y, 1 / sigma));
  PetscFunctionReturn(0);
}

static PetscErrorCode MassShellMult(Mat A, Vec r, Vec y)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &prob));
  PetscCall(MassFromFunction(prob->I2ts, prob, prob->I2t, prob->I2x, prob->I2v, r, y));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUp_I2(TS ts, SimpVIProblem *prob, Vec q)
{
  Mat          P = prob->user.I2P;
  DM           dm;
  PetscReal    knorm, mnorm;
  TSI2Function i2f;

  PetscFunctionBegin;
  PetscCall(TSGetDM(ts, &dm));
  PetscCall(DMTSGetI2Function(dm, &i2f, NULL));
  {
    PetscMPIInt size;

    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ts), &size));
    prob->I2oneprocess = (PetscBool)(size == 1);
  }
  if (!P) { /* TSSetI2Jacobian(ts, NULL, NULL, ...) on a DM that makes matrices, or a TSReset() that dropped the program's
               (PETSc's SNESReset()): the DM's matrix, as the SNES of TSALPHA2 makes it (a DMShell's from the solution's
               layout, which TSSetSolution() gave it) */
    PetscBool shell;

    PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMSHELL, &shell));
    if (!shell || ts->vec_sol) {
      PetscCall(DMCreateMatrix(dm, &prob->user.I2P));
      P = prob->user.I2P;
    }
  }
  PetscCheck(P, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI needs the Jacobian of the second-order problem: call TSSetI2Jacobian() or TSSetIJacobian() with a matrix (or TSSetDM() with a DM that creates one)");
  PetscCall(SimpVICheckMatSize_Private(ts, q, P, "I2 Jacobian"));
  PetscCall(VecDuplicate(q, &prob->I2s));
  PetscCall(VecDuplicate(q, &prob->I2fdw));
  /* the matrices the user's Jacobian fills are copies of the user's own: the same type, layout, DM, local-to-global
     map and stencil */
  for (PetscInt i = 0; i < 2; i++) {
    PetscCall(MatDuplicate(P, MAT_DO_NOT_COPY_VALUES, &prob->I2J[i]));
    PetscCall(MatGetNonzeroState(prob->I2J[i], &prob->I2Jstate[i]));
  }
  /* a first M = J(0,1) - J(0,0) gives the scale of the shift, then M again without the cancellation */
  PetscCall(I2Jacobian(ts, ts->ptime, ts->vec_sol, ts->vec_dot, prob->zero, 0, 0, prob->I2J[0]));
  PetscCall(I2Jacobian(ts, ts->ptime, ts->vec_sol, ts->vec_dot, prob->zero, 0, 1, prob->I2J[1]));
  PetscCall(Difference(prob, 1, &prob->I2D[0]));
  PetscCall(MatNorm(prob->I2J[0], NORM_FROBENIUS, &knorm));
  PetscCall(MatNorm(prob->I2D[0].D, NORM_FROBENIUS, &mnorm));
  PetscCheck(!PetscIsInfOrNanReal(knorm) && !PetscIsInfOrNanReal(mnorm), PetscObjectComm((PetscObject)ts), PETSC_ERR_FP, "TSSIMPVI: the I2 Jacobian gave Inf or NaN at t = %g, the start (its %s)", (double)ts->ptime, PetscIsInfOrNanReal(knorm) ? "dF/dU" : "dF/dA");
  {
    PetscInt N;

    PetscCall(VecGetSize(q, &N));
    if (!N) mnorm = 1; /* an empty system: nothing to check, nothing to integrate (as TSALPHA2 takes it) */
  }
  PetscCheck(mnorm > 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSIMPVI: the second-order problem has no mass (dF/dA = 0 in the I2 Jacobian's shiftA)");
  prob->I2shift = PetscPowReal(2, PetscCeilReal(PetscLog2Real(PetscMax(knorm / mnorm, 1))) + 10);
  PetscCall(ShiftDerivative(ts, prob, ts->ptime, ts->vec_sol, ts->vec_dot, PETSC_FALSE, &prob->I2D[0]));
  PetscCall(MatNorm(prob->I2D[0].D, NORM_FROBENIUS, &prob->I2Mnorm));
  prob->I2Mtime = ts->ptime;
  { /* the probe r (by global index, the same on any number of processes) and M0 r */
    PetscScalar *r;
    PetscInt     lo, hi;

    PetscCall(VecDuplicate(q, &prob->I2r));
    PetscCall(VecDuplicate(q, &prob->I2Mr));
    PetscCall(VecDuplicate(q, &prob->I2f));
    PetscCall(VecGetOwnershipRange(prob->I2r, &lo, &hi));
    PetscCall(VecGetArrayWrite(prob->I2r, &r));
    for (PetscInt i = lo; i < hi; i++) r[i - lo] = 1 + 0.5 * PetscSinReal(1 + 0.7548776662 * (PetscReal)i);
    PetscCall(VecRestoreArrayWrite(prob->I2r, &r));
    PetscCall(MatMult(prob->I2D[0].D, prob->I2r, prob->I2Mr));
  }
  { /* the Jacobian's dF/dA against the function's: a program may give a preconditioner only (a lumped mass, say, with
       -snes_mf_operator); M then comes from the function, the Jacobian's M preconditions it */
    PetscReal dnorm, mrnorm;
    PetscInt  N;

    PetscCall(VecGetSize(q, &N));
    prob->I2Mscale = prob->I2Mnorm / PetscSqrtReal((PetscReal)N);
    PetscCall(MassFromFunction(ts, prob, ts->ptime, ts->vec_sol, ts->vec_dot, prob->I2r, prob->work));
    PetscCall(VecNorm(prob->I2Mr, NORM_INFINITY, &mrnorm));
    PetscCall(VecAXPY(prob->I2Mr, -1, prob->work));
    PetscCall(VecNorm(prob->I2Mr, NORM_INFINITY, &dnorm));
    prob->I2fnmass        = (PetscBool)(dnorm > SIMPVI_I2_MASS_RTOL * mrnorm);
    prob->inexactjacobian = prob->I2fnmass;
    PetscCall(VecCopy(prob->work, prob->I2Mr));
    PetscCall(VecNorm(prob->I2Mr, NORM_INFINITY, &prob->I2Mrnorm));
    if (prob->I2fnmass) PetscCall(PetscInfo(ts, "The I2 Jacobian's dF/dA differs from the I2 function's by %g (relative): M is taken from the function, the Jacobian's M only preconditions it\n", (double)(dnorm / mrnorm)));
  }
  { /* a diagonal M (a lumped mass, the usual case) gives P = M v entry by entry, the same numbers as MatMult(), and
       v = M^{-1} p without a linear solver */
    PetscInt  lo, hi;
    PetscBool diagonal;

    PetscCall(PetscObjectTypeCompareAny((PetscObject)prob->I2D[0].D, &diagonal, MATSEQAIJ, MATMPIAIJ, "")); /* rows at hand */
    PetscCall(MatGetOwnershipRange(prob->I2D[0].D, &lo, &hi));
    for (PetscInt i = lo; i < hi && diagonal; i++) {
      PetscInt           ncols;
      const PetscInt    *cols;
      const PetscScalar *vals;
      PetscScalar        d = 0;

      PetscCall(MatGetRow(prob->I2D[0].D, i, &ncols, &cols, &vals));
      for (PetscInt j = 0; j < ncols; j++) {
        if (cols[j] == i) d = vals[j];
        else if (vals[j] != 0) diagonal = PETSC_FALSE;
      }
      PetscCall(MatRestoreRow(prob->I2D[0].D, i, &ncols, &cols, &vals));
      if (d == 0) diagonal = PETSC_FALSE; /* a singular M is left to the linear solver, which says so */
    }
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &diagonal, 1, SIMPVI_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)ts)));
    if (diagonal && !prob->I2fnmass) {
      PetscCall(VecDuplicate(q, &prob->I2Md));
      PetscCall(MatGetDiagonal(prob->I2D[0].D, prob->I2Md));
    }
  }
  { /* a lumped mass on one process, plain Vecs: the small dense path may take P and G on arrays (Points_I2()), the
       user's function called on Vecs of the program's own kind (duplicates of its state: its DM) placed on them */
    PetscBool seq;

    PetscCall(PetscObjectTypeCompare((PetscObject)q, VECSEQ, &seq));
    if (prob->I2Md && prob->I2oneprocess && seq)
      for (PetscInt i = 0; i < 3; i++) PetscCall(VecDuplicate(q, &prob->I2pt[i]));
  }
  /* damping C = dF/dV, evaluated wherever the Jacobian is and F is seen to depend on v (it may vanish at the start:
     C(t), C(v)); an IFunction on (U, A) has none */
  prob->damped = (PetscBool)(i2f != NULL);
  prob->I2vdep = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode Reset_I2(SimpVIProblem *prob)
{
  PetscFunctionBegin;
  prob->I2shift = 0; /* read again at set-up; a checkpoint records it, 0 for the other doors */
  for (PetscInt i = 0; i < 2; i++) PetscCall(MatDestroy(&prob->I2J[i]));
  for (PetscInt i = 0; i < 3; i++) PetscCall(MatDestroy(&prob->I2D[i].D));
  PetscCall(VecDestroy(&prob->I2r));
  PetscCall(VecDestroy(&prob->I2Mr));
  PetscCall(VecDestroy(&prob->I2f));
  PetscCall(VecDestroy(&prob->I2Md));
  PetscCall(VecDestroy(&prob->I2s));
  PetscCall(MatFDColoringDestroy(&prob->I2fdc));
  PetscCall(MatDestroy(&prob->I2fdJ));
  PetscCall(VecDestroy(&prob->I2fdw));
  for (PetscInt i = 0; i < 3; i++) PetscCall(VecDestroy(&prob->I2pt[i]));
  PetscCall(MatDestroy(&prob->I2Mfn));
  PetscCall(KSPDestroy(&prob->I2kspm));
  PetscFunctionReturn(0);
}

/* P = M v with M = diag(d), and G = -G when G is given, on the arrays: the products and signs of VecPointwiseMult()
   and VecScale(), without their overhead, which was a third of the door's cost at a point of a small system
   (bench/stepinstr.sh) */
static PetscErrorCode DiagonalMomentum(Vec d, Vec v, Vec P, Vec G)
{
  const PetscScalar *dd, *vv;
  PetscScalar       *pp, *gg = NULL;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(P, &n));
  PetscCall(VecGetArrayRead(d, &dd));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(P, &pp));
  if (G) PetscCall(VecGetArray(G, &gg));
  for (PetscInt i = 0; i < n; i++) pp[i] = dd[i] * vv[i];
  if (G) { /* BLAS's scal, as VecScale() (unrolled: a long chain's G costs no more than there) */
    const PetscScalar  mone = -1;
    const PetscBLASInt one  = 1;
    PetscBLASInt       bn;

    PetscCall(PetscBLASIntCast(n, &bn));
    PetscCallBLAS("BLASscal", BLASscal_(&bn, &mone, gg, &one));
    PetscCall(VecRestoreArray(G, &gg));
  }
  PetscCall(VecRestoreArrayWrite(P, &pp));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayRead(d, &dd));
  PetscFunctionReturn(0);
}

/* P = M v */
static PetscErrorCode Momentum_I2(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec P)
{
  PetscFunctionBegin;
  if (prob->I2fnmass) PetscCall(MassFromFunction(ts, prob, t, x, v, v, P));
  else if (prob->I2Md) PetscCall(DiagonalMomentum(prob->I2Md, v, P, NULL));
  else PetscCall(MatMult(prob->I2D[0].D, v, P));
  PetscFunctionReturn(0);
}

/* v = M^{-1} p entry by entry when M is diagonal; M from the function: CG on it, preconditioned by the Jacobian's M;
   otherwise the Newton iteration of SimpVILegendreInverse_Private() */
static PetscErrorCode Velocity_I2(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec p, Vec v, PetscBool *done)
{
  PetscFunctionBegin;
  *done = (PetscBool)(prob->I2Md != NULL || prob->I2fnmass);
  if (prob->I2fnmass) {
    KSPConvergedReason reason;

    if (!prob->I2kspm) {
      PetscInt n, N;

      PetscCall(VecGetLocalSize(p, &n));
      PetscCall(VecGetSize(p, &N));
      PetscCall(MatCreateShell(PetscObjectComm((PetscObject)ts), n, n, N, N, prob, &prob->I2Mfn));
      PetscCall(MatShellSetOperation(prob->I2Mfn, MATOP_MULT, (void (*)(void))MassShellMult));
      PetscCall(KSPCreate(PetscObjectComm((PetscObject)ts), &prob->I2kspm));
      PetscCall(KSPSetOptionsPrefix(prob->I2kspm, ((PetscObject)ts)->prefix));
      PetscCall(KSPAppendOptionsPrefix(prob->I2kspm, "ts_simpvi_velocity_"));
      PetscCall(SimpVIDefaultLinearSolver_Private(prob->I2kspm, N, prob->directlimit, PETSC_TRUE, PETSC_FALSE, NULL));
      PetscCall(KSPSetType(prob->I2kspm, KSPCG)); /* the factor of the Jacobian's M preconditions the true M */
      PetscCall(KSPSetTolerances(prob->I2kspm, 1e-14, 0, PETSC_DEFAULT, 1000));
      PetscCall(KSPSetInitialGuessNonzero(prob->I2kspm, PETSC_TRUE));
      PetscCall(KSPSetFromOptions(prob->I2kspm));
      PetscCall(KSPSetOperators(prob->I2kspm, prob->I2Mfn, prob->I2D[0].D));
    }
    prob->I2ts = ts;
    prob->I2t  = t;
    prob->I2x  = x;
    prob->I2v  = v; /* the solution of the solve: F's v, which cancels in the difference */
    PetscCall(KSPSolve(prob->I2kspm, p, v));
    PetscCall(KSPGetConvergedReason(prob->I2kspm, &reason));
    PetscCheck(reason > 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_NOT_CONVERGED, "TSSIMPVI I2 door: the velocity solve M v = p, M from the I2 function, preconditioned by the I2 Jacobian's dF/dA, failed: %s", KSPConvergedReasons[reason]);
  } else if (prob->I2Md) PetscCall(VecPointwiseDivide(v, p, prob->I2Md));
  PetscFunctionReturn(0);
}

static PetscErrorCode PG_I2(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec P, Vec G)
{
  PetscFunctionBegin;
  if (prob->I2Md) { /* a lumped mass (never with I2fnmass): P and -F in one pass over the arrays */
    PetscCall(I2Function(ts, prob, t, x, v, prob->zero, G));
    PetscCall(DiagonalMomentum(prob->I2Md, v, P, G));
    PetscFunctionReturn(0);
  }
  PetscCall(Momentum_I2(ts, prob, t, x, v, P));
  PetscCall(I2Function(ts, prob, t, x, v, prob->zero, G));
  PetscCall(VecScale(G, -1));
  PetscFunctionReturn(0);
}

/* Whether F sees v at (t, x): F(t, x, v + sigma r, 0) against F(t, x, v, 0), bit for bit, with sigma r as large as v
   (or 1). Where F does not see v, C = dF/dV is zero to round-off (a damping that stays below the round-off of F
   there changes the step's Jacobian by less) and is not read: that is the second Jacobian call of the point, and the
   most expensive part of an undamped problem's Jacobian. Once F has been seen to depend on v, C is read wherever the
   step needs it, with no more probes (prob->I2vdep) */
static PetscErrorCode SeesVelocity(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscBool *sees)
{
  PetscReal vnorm, sigma;

  PetscFunctionBegin;
  if (prob->I2vdep) {
    *sees = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  PetscCall(VecNorm(v, NORM_INFINITY, &vnorm));
  sigma = PetscIsInfOrNanReal(vnorm) ? 1 : PetscPowReal(2, PetscCeilReal(PetscLog2Real(PetscMax(vnorm, 1))));
  PetscCall(VecWAXPY(prob->I2s, sigma, prob->I2r, v));
  PetscCall(I2Function(ts, prob, t, x, v, prob->zero, prob->I2f));
  PetscCall(I2Function(ts, prob, t, x, prob->I2s, prob->zero, prob->I2fdw));
  PetscCall(VecEqual(prob->I2f, prob->I2fdw, sees));
  *sees        = (PetscBool) !*sees;
  prob->I2vdep = *sees;
  if (*sees) PetscCall(PetscInfo(ts, "The I2 function depends on the velocity at t = %g: C = dF/dV is read from the I2 Jacobian from now on\n", (double)t));
  PetscFunctionReturn(0);
}

/* M always (a constant term); K = dF/dU where G_x is needed (not at a Lobatto scheme's first node), C = dF/dV where
   G_v is (not for the Legendre inversion, which needs M only) and F depends on v */
static PetscErrorCode Terms_I2(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscInt need, PetscInt *n, SimpVITerm terms[])
{
  PetscBool damped = (PetscBool)(prob->damped && (need & SIMPVI_NEED(SIMPVI_BLOCK_GV)));

  PetscFunctionBegin;
  PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->I2D[0].D, 1, SIMPVI_BLOCK_PV, PETSC_FALSE, PETSC_TRUE}));
  if (damped) PetscCall(SeesVelocity(ts, prob, t, x, v, &damped));
  if ((need & SIMPVI_NEED(SIMPVI_BLOCK_GX)) || damped) PetscCall(I2Jacobian(ts, t, x, v, prob->zero, 0, 0, prob->I2J[0]));
  if (need & SIMPVI_NEED(SIMPVI_BLOCK_GX)) PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->I2J[0], -1, SIMPVI_BLOCK_GX, PETSC_FALSE, PETSC_FALSE}));
  if (damped) {
    PetscCall(ShiftDerivative(ts, prob, t, x, v, PETSC_TRUE, &prob->I2D[1]));
    PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->I2D[1].D, -1, SIMPVI_BLOCK_GV, PETSC_FALSE, PETSC_FALSE}));
  }
  PetscFunctionReturn(0);
}

/* ||f1 - f0 - sigma M0 r||_inf in one pass (a NaN counts as infinite): sigma (M - M0) r, with f1 = F(a = sigma r) and
   f0 = F(a = 0); the reduction only on more than one process (an MPI_Allreduce() costs as much as the rest) */
static PetscErrorCode ProbeDifference(SimpVIProblem *prob, Vec f1, Vec f0, Vec mr, PetscReal sigma, PetscReal *dnorm)
{
  const PetscScalar *a, *b, *c;
  PetscInt           n;
  PetscReal          d = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(f1, &n));
  PetscCall(VecGetArrayRead(f1, &a));
  PetscCall(VecGetArrayRead(f0, &b));
  PetscCall(VecGetArrayRead(mr, &c));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal e = PetscAbsScalar(a[i] - b[i] - sigma * c[i]);

    if (e > d) d = e;
    else if (e != e) d = PETSC_INFINITY; /* a NaN, tested as VecNorm() does (no call per entry) */
  }
  PetscCall(VecRestoreArrayRead(mr, &c));
  PetscCall(VecRestoreArrayRead(f0, &b));
  PetscCall(VecRestoreArrayRead(f1, &a));
  if (prob->I2oneprocess) *dnorm = d;
  else PetscCall(MPIU_Allreduce(&d, dnorm, 1, MPIU_REAL, MPIU_MAX, PetscObjectComm((PetscObject)f1)));
  PetscFunctionReturn(0);
}

/* At the end of a step: M r = F(a = sigma r) - F(a = 0) (over sigma) against M0 r; when they differ, M read again at
   (t, x, v) must be the M of the start. sigma, a power of two, puts sigma M r far above f, so that the difference is
   not lost in f's round-off. */
/* Whether the probe M r at (t, x, v) is no longer the set-up's (a program that changed its constant mass between two
   solves: SimpVII2MassChanged_Private()), by the I2 function as Check_I2() probes it */
static PetscErrorCode ProbeChanged(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscBool *changed, PetscReal *dnorm, PetscReal *sigma)
{
  PetscReal fnorm, mrnorm = prob->I2Mrnorm;

  PetscFunctionBegin;
  PetscCall(I2Function(ts, prob, t, x, v, prob->zero, prob->work));
  PetscCall(VecNorm(prob->work, NORM_INFINITY, &fnorm));
  *sigma   = PetscPowReal(2, PetscCeilReal(PetscLog2Real(PetscMax(fnorm / mrnorm, 1))) + 20);
  *changed = PETSC_TRUE;
  *dnorm   = PETSC_INFINITY;
  if (PetscIsInfOrNanReal(*sigma)) PetscFunctionReturn(0);
  PetscCall(VecAXPBY(prob->work2, *sigma, 0, prob->I2r));
  PetscCall(I2Function(ts, prob, t, x, v, prob->work2, prob->I2f));
  PetscCall(ProbeDifference(prob, prob->I2f, prob->work, prob->I2Mr, *sigma, dnorm));
  *changed = (PetscBool) !(*dnorm <= SIMPVI_I2_PROBE_RTOL * *sigma * mrnorm);
  PetscFunctionReturn(0);
}

/* A run from step 0 on a TS solved before: whether the program changed its constant mass since the set-up */
PetscErrorCode SimpVII2MassChanged_Private(TS ts, SimpVIProblem *prob, PetscBool *changed)
{
  PetscReal dnorm, sigma;

  PetscFunctionBegin;
  PetscCall(ProbeChanged(ts, prob, ts->ptime, ts->vec_sol, ts->vec_dot, changed, &dnorm, &sigma));
  PetscFunctionReturn(0);
}

static PetscErrorCode Check_I2(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v)
{
  PetscReal dnorm, mrnorm = prob->I2Mrnorm, sigma;
  PetscBool changed;

  PetscFunctionBegin;
  PetscCall(ProbeChanged(ts, prob, t, x, v, &changed, &dnorm, &sigma));
  if (!PetscIsInfOrNanReal(sigma)) {
    if (!changed) PetscFunctionReturn(0);
    if (prob->I2fnmass) { /* the Jacobian does not tell M: the probe decides */
      PetscCheck(dnorm <= SIMPVI_I2_MASS_RTOL * sigma * mrnorm, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI second-order door: the mass dF/dA changed by %g (relative) between t = %g and t = %g: this door integrates constant M only: give a configuration-dependent mass M(x) with TSSimpVISetMass()", (double)(dnorm / (sigma * mrnorm)),
                 (double)prob->I2Mtime, (double)t);
      PetscFunctionReturn(0);
    }
    PetscCall(PetscInfo(ts, "Mass probe at t = %g: M r changed by %g (relative); M read again\n", (double)t, (double)(dnorm / (sigma * mrnorm))));
  }
  PetscCall(I2Jacobian(ts, t, x, v, prob->zero, 0, 0, prob->I2J[0]));
  PetscCall(ShiftDerivative(ts, prob, t, x, v, PETSC_FALSE, &prob->I2D[2]));
  PetscCall(MatAXPY(prob->I2D[2].D, -1, prob->I2D[0].D, UNKNOWN_NONZERO_PATTERN)); /* both simpvi's */
  PetscCall(MatNorm(prob->I2D[2].D, NORM_FROBENIUS, &dnorm));
  PetscCheck(dnorm <= SIMPVI_I2_MASS_RTOL * prob->I2Mnorm, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSIMPVI second-order door: the mass dF/dA changed by %g (relative) between t = %g and t = %g. M(u) a + f = 0 is not a Lagrangian system in general, and this door integrates constant M only: give a configuration-dependent mass M(x) with TSSimpVISetMass() (and the forces with TSSimpVISetPotential() or TSSimpVISetForce())",
             (double)(dnorm / prob->I2Mnorm), (double)prob->I2Mtime, (double)t);
  PetscFunctionReturn(0);
}

/* P and G at npts points on arrays, for the small dense path's residual: the user's I2 function at each point on the
   door's Vecs placed on the arrays, then P = M v and G = -F there, the numbers of PG_I2() without a Vec of the
   step's per point. The step's Jacobian still comes from Terms_I2() (pointspg): the same Jacobian calls and matrix. */
static PetscErrorCode Points_I2(TS ts, SimpVIProblem *prob, PetscInt npts, PetscInt n, const PetscInt need[], const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[])
{
  Vec                X = prob->I2pt[0], V = prob->I2pt[1], F = prob->I2pt[2];
  const PetscScalar *d;
  I2Callee           c;

  PetscFunctionBegin;
  PetscCheck(!Px && !Pv && !Gx && !Gv, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The I2 door's points() gives P and G only");
  PetscCall(I2FunctionLookUp(ts, &c));
  PetscCall(VecGetArrayRead(prob->I2Md, &d));
  for (PetscInt k = 0; k < npts; k++) {
    const PetscReal *vk = v + k * n;
    PetscReal       *Pk = P + k * n, *Gk = G + k * n;

    PetscCall(VecPlaceArray(X, x + k * n));
    PetscCall(VecPlaceArray(V, vk));
    PetscCall(VecPlaceArray(F, Gk));
    PetscCall(I2FunctionCall(ts, prob, &c, t[k], X, V, prob->zero, F));
    PetscCall(VecResetArray(X));
    PetscCall(VecResetArray(V));
    PetscCall(VecResetArray(F));
    for (PetscInt i = 0; i < n; i++) {
      Pk[i] = d[i] * vk[i];
      Gk[i] = -Gk[i];
    }
  }
  PetscCall(VecRestoreArrayRead(prob->I2Md, &d));
  PetscFunctionReturn(0);
}

/* points() only where Points_I2() applies (set-up made its Vecs) */
static PetscBool HasPoints_I2(const SimpVIProblem *prob)
{
  return (PetscBool)(prob->I2pt[0] != NULL);
}

const SimpVIDoor SimpVIDoorI2 = {
  .name         = "second-order (I2)",
  .maxterms     = 3, /* M, K, C */
  .setup        = SetUp_I2,
  .pg           = PG_I2,
  .terms        = Terms_I2,
  .reset        = Reset_I2,
  .check        = Check_I2,
  .momentum     = Momentum_I2,
  .velocity     = Velocity_I2,
  .points       = Points_I2,
  .haspoints    = HasPoints_I2,
  .pointspg     = PETSC_TRUE,
  .state        = SIMPVI_STATE_I2,
  .userjacobian = PETSC_TRUE, /* the I2 (or I) Jacobian of TSSetI2Jacobian() */
  .ijacobianp   = PETSC_TRUE,
};
