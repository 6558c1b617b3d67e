/*
   Pointwise door: the user's TSSimpVIPointwiseFn, which evaluates L, P = L_v, G = L_x + f and their derivatives on
   plain arrays, at many points per call. Here it serves the Vec interface of every door (one point per call, the
   derivatives copied into dense matrices), for the SNES path and the phase-space form; the small dense path of the
   step calls it with all quadrature points at once on arrays (its points operation, Points_Pointwise()), without a Vec or a Mat.
   A small system's door: one process.
*/
#include <simpvi/private/door.h>

static PetscErrorCode SetUp_Pointwise(TS ts, SimpVIProblem *prob, Vec q)
{
  PetscInt n;

  PetscFunctionBegin; /* one process: SimpVIProblemNativeDoor_Private() checked */
  PetscCall(VecGetLocalSize(q, &n));
  for (PetscInt b = 0; b < 4; b++) {
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &prob->pwmat[b]));
    PetscCall(MatAssemblyBegin(prob->pwmat[b], MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(prob->pwmat[b], MAT_FINAL_ASSEMBLY));
  }
  PetscCall(PetscMalloc1(4 * n * n, &prob->pwderiv));
  PetscFunctionReturn(0);
}

static PetscErrorCode Reset_Pointwise(SimpVIProblem *prob)
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < 4; b++) PetscCall(MatDestroy(&prob->pwmat[b]));
  PetscCall(PetscFree(prob->pwderiv));
  PetscFunctionReturn(0);
}

/* The user's function at one point of the Vec interface */
static PetscErrorCode Evaluate(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscReal *L, Vec P, Vec G, PetscReal *deriv)
{
  const PetscScalar *xx, *vv;
  PetscScalar       *pp = NULL, *gg = NULL;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  if (P) PetscCall(VecGetArrayWrite(P, &pp));
  if (G) PetscCall(VecGetArrayWrite(G, &gg));
  SimpVICallBackOneProcess(ts, "TSSIMPVI pointwise Lagrangian", prob->user.pwfn(ts, 1, n, &t, xx, vv, L, pp, gg, deriv, deriv ? deriv + n * n : NULL, deriv ? deriv + 2 * n * n : NULL, deriv ? deriv + 3 * n * n : NULL, prob->user.pwctx));
  if (G) PetscCall(VecRestoreArrayWrite(G, &gg));
  if (P) PetscCall(VecRestoreArrayWrite(P, &pp));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscFunctionReturn(0);
}

static PetscErrorCode PG_Pointwise(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec P, Vec G)
{
  PetscFunctionBegin;
  PetscCall(Evaluate(ts, prob, t, x, v, NULL, P, G, NULL));
  PetscCall(SimpVIForceAdd_Private(ts, prob, t, x, v, G));
  PetscFunctionReturn(0);
}

/* Px, Pv, Gx, Gv (row-major) into the dense matrices (column-major), each a term of its own block */
static PetscErrorCode Terms_Pointwise(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscInt need, PetscInt *nterms, SimpVITerm terms[])
{
  const SimpVIBlock block[4] = {SIMPVI_BLOCK_PX, SIMPVI_BLOCK_PV, SIMPVI_BLOCK_GX, SIMPVI_BLOCK_GV};
  PetscInt          n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(Evaluate(ts, prob, t, x, v, NULL, NULL, NULL, prob->pwderiv));
  for (PetscInt b = 0; b < 4; b++) {
    const PetscReal *d = prob->pwderiv + b * n * n;
    PetscScalar     *a;

    PetscCall(MatDenseGetArrayWrite(prob->pwmat[b], &a));
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = 0; j < n; j++) a[i + j * n] = d[i * n + j];
    PetscCall(MatDenseRestoreArrayWrite(prob->pwmat[b], &a));
    PetscCall(SimpVITermPush(prob, nterms, terms, (SimpVITerm){prob->pwmat[b], 1, block[b], PETSC_FALSE, PETSC_FALSE}));
  }
  PetscCall(SimpVIForceTerms_Private(ts, prob, t, x, v, nterms, terms));
  PetscFunctionReturn(0);
}

static PetscErrorCode L_Pointwise(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscReal *L)
{
  PetscFunctionBegin;
  PetscCall(Evaluate(ts, prob, t, x, v, L, NULL, NULL, NULL));
  PetscFunctionReturn(0);
}

/* P, G and their derivatives at npts points on arrays, for the small dense path (no forces: those come through Vecs) */
static PetscErrorCode Points_Pointwise(TS ts, SimpVIProblem *prob, PetscInt npts, PetscInt n, const PetscInt need[], const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[])
{
  PetscFunctionBegin;
  SimpVICallBackOneProcess(ts, "TSSIMPVI pointwise Lagrangian", prob->user.pwfn(ts, npts, n, t, x, v, NULL, P, G, Px, Pv, Gx, Gv, prob->user.pwctx));
  PetscFunctionReturn(0);
}

const SimpVIDoor SimpVIDoorPointwise = {
  .name       = "pointwise Lagrangian",
  .maxterms   = 6, /* Px, Pv, Gx, Gv, Fx, Fv */
  .setup      = SetUp_Pointwise,
  .pg         = PG_Pointwise,
  .terms      = Terms_Pointwise,
  .lagrangian = L_Pointwise,
  .reset      = Reset_Pointwise,
  .points     = Points_Pointwise,
  .state      = SIMPVI_STATE_PHASESPACE,
};
