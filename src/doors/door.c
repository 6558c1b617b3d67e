/*
   What every door shares: the work space on the problem, the state split U = (q, p) and its copies in and out, the
   Legendre inversion v = L_v^{-1}(q, p), forces, the collective callback check and the size check of user matrices.
   Used by TSSIMPVI and by the phase-space form. The problem object itself and the choice of door: problem.c.
*/
#include <petsc/private/tsimpl.h> /* the user's TS: its step and time in the callback errors */
#include <simpvi/private/pointsvecmat.h>

/* The phase-space form's objects (src/doors/phasespace.c makes them) */
PetscErrorCode SimpVIPhaseSpaceDestroy_Private(SimpVIPhaseSpace *ps)
{
  PetscFunctionBegin;
  if (!*ps) PetscFunctionReturn(0);
  PetscCall(ISDestroy(&(*ps)->isq));
  PetscCall(ISDestroy(&(*ps)->isp));
  if ((*ps)->qidx) PetscCall(ISRestoreIndices((*ps)->allq, &(*ps)->qidx));
  if ((*ps)->pidx) PetscCall(ISRestoreIndices((*ps)->allp, &(*ps)->pidx));
  PetscCall(ISDestroy(&(*ps)->allq));
  PetscCall(ISDestroy(&(*ps)->allp));
  PetscCall(VecDestroy(&(*ps)->q));
  PetscCall(VecDestroy(&(*ps)->p));
  PetscCall(VecDestroy(&(*ps)->qdot));
  PetscCall(VecDestroy(&(*ps)->pdot));
  PetscCall(VecDestroy(&(*ps)->v));
  PetscCall(VecDestroy(&(*ps)->P));
  PetscCall(VecDestroy(&(*ps)->G));
  PetscCall(MatDestroy(&(*ps)->J));
  PetscCall(PetscFree(*ps));
  PetscFunctionReturn(0);
}

/* A user matrix must be n x n with the row layout of the positions q; checked on all processes together */
PetscErrorCode SimpVICheckMatSize_Private(TS ts, Vec q, Mat A, const char name[])
{
  PetscInt  m, n, M, N, nq, Nq;
  PetscBool ok;

  PetscFunctionBegin;
  PetscCall(VecGetSize(q, &Nq));
  PetscCall(VecGetLocalSize(q, &nq));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetLocalSize(A, &m, &n));
  ok = (PetscBool)(m == nq);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, SIMPVI_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)ts)));
  PetscCheck(M == Nq && N == Nq, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_SIZ, "TSSIMPVI %s is %" PetscInt_FMT " x %" PetscInt_FMT " but the problem has %" PetscInt_FMT " positions", name, M, N, Nq);
  PetscCheck(ok, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_SIZ, "TSSIMPVI %s has %" PetscInt_FMT " x %" PetscInt_FMT " entries as the problem has positions, but its rows are split over the processes unlike the positions", name, M, N);
  PetscFunctionReturn(0);
}

/* A user vector must have n local and N global entries; checked on all processes together */
PetscErrorCode SimpVICheckVecSize_Private(TS ts, Vec U, PetscInt n, PetscInt N, const char name[])
{
  PetscInt  nu, Nu;
  PetscBool ok;

  PetscFunctionBegin;
  PetscCall(VecGetSize(U, &Nu));
  PetscCall(VecGetLocalSize(U, &nu));
  ok = (PetscBool)(nu == n);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, SIMPVI_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)ts)));
  PetscCheck(Nu == N, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_SIZ, "%s has %" PetscInt_FMT " entries but the phase-space state U = (q, p) has %" PetscInt_FMT, name, Nu, N);
  PetscCheck(ok, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_SIZ, "%s has the %" PetscInt_FMT " entries of the phase-space state U = (q, p), split over the processes unlike it", name, Nu);
  PetscFunctionReturn(0);
}

/* The door's work space, shaped on the positions q, then the door's own checks */
PetscErrorCode SimpVIProblemSetUp_Private(TS ts, SimpVIProblem *prob, const SimpVIDoor *door, Vec q)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(SimpVIProblemReset_Private(prob));
  prob->door = door;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ts), &size));
  prob->oneprocess = (PetscBool)(size == 1);
  prob->keepvalues = PETSC_TRUE; /* until the step says otherwise */
  PetscCall(VecGetLocalSize(q, &prob->nlocal));
  PetscCall(PetscMalloc1(door->maxterms, &prob->terms));
  PetscCall(VecDuplicate(q, &prob->work));
  PetscCall(VecDuplicate(q, &prob->work2));
  PetscCall(VecDuplicate(q, &prob->zero));
  PetscCall(VecSet(prob->zero, 0));
  if (prob->user.forcefn) {
    PetscCall(VecDuplicate(q, &prob->force));
    if (prob->user.Fx) PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Fx, "force Jacobian Fx"));
    if (prob->user.Fv) PetscCall(SimpVICheckMatSize_Private(ts, q, prob->user.Fv, "force Jacobian Fv"));
    PetscCheck(!(prob->user.Fx || prob->user.Fv) || prob->user.forcejacfn, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "TSSimpVISetForce() was given Jacobian matrices but no function to fill them");
  }
  PetscCall(door->setup(ts, prob, q));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIProblemReset_Private(SimpVIProblem *prob)
{
  PetscFunctionBegin;
  if (prob->door && prob->door->reset) PetscCall(prob->door->reset(prob));
  prob->door       = NULL;
  prob->steppoints = PETSC_FALSE;
  PetscCall(PetscFree(prob->terms));
  PetscCall(VecDestroy(&prob->work));
  PetscCall(VecDestroy(&prob->work2));
  PetscCall(VecDestroy(&prob->zero));
  PetscCall(VecDestroy(&prob->force));
  PetscCall(KSPDestroy(&prob->kspv));
  PetscFunctionReturn(0);
}

/* -ts_simpvi_direct_limit into the problem, checked: read with the TS's other options (TSSetFromOptions() of TSSIMPVI,
   TSSimpVISetUpPhaseSpace() for other types), used by every default linear solver after */
PetscErrorCode SimpVIDirectLimitOption_Private(TS ts, SimpVIOptionItems PetscOptionsObject, SimpVIProblem *prob)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsInt("-ts_simpvi_direct_limit", "Largest linear system (rows) given a direct solver by default on one process; larger, and every size in parallel: BiCGStab (CG for the mass) with block Jacobi ILU(0)", "TSSIMPVI", prob->directlimit,
                            &prob->directlimit, NULL));
  PetscCheck(prob->directlimit >= 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "The option -ts_simpvi_direct_limit %" PetscInt_FMT " must be 0 or more (rows)", prob->directlimit);
  PetscFunctionReturn(0);
}

/* The positions and momenta inside U: TSRHSSplitSetIS() "position"/"momentum"; on one process, by default, the first
   half of U is q and the second p. On more processes U's layout says nothing about which entries are positions (the
   halves of U are not each process's halves), so the split must be named: never guessed. New references. */
PetscErrorCode SimpVIProblemSplit_Private(TS ts, Vec U, IS *isq, IS *isp)
{
  IS          q, p;
  PetscInt    N;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(TSRHSSplitGetIS(ts, "position", &q));
  PetscCall(TSRHSSplitGetIS(ts, "momentum", &p));
  if (q && p) {
    PetscInt  nq, np;
    PetscBool same;

    /* the step keeps q and p in one layout */
    PetscCall(ISGetLocalSize(q, &nq));
    PetscCall(ISGetLocalSize(p, &np));
    same = (PetscBool)(nq == np);
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &same, 1, SIMPVI_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)ts)));
    PetscCheck(same, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_INCOMP, "TSSIMPVI needs as many positions as momenta on each process in the TSRHSSplitSetIS() index sets");
    PetscCall(PetscObjectReference((PetscObject)q));
    PetscCall(PetscObjectReference((PetscObject)p));
    *isq = q;
    *isp = p;
    PetscFunctionReturn(0);
  }
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ts), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "TSSIMPVI on %d processes needs to be told which entries of U = (q, p) are positions and momenta: call TSRHSSplitSetIS(ts, \"position\", isq) and TSRHSSplitSetIS(ts, \"momentum\", isp) (on one process the default is the first and second half of U)", (int)size);
  PetscCall(VecGetSize(U, &N));
  PetscCheck(N % 2 == 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_SIZ, "TSSIMPVI state U = (q, p) has odd size %" PetscInt_FMT "; set the split with TSRHSSplitSetIS(ts, \"position\", ...) and \"momentum\"", N);
  PetscCall(ISCreateStride(PetscObjectComm((PetscObject)ts), N / 2, 0, 1, isq));
  PetscCall(ISCreateStride(PetscObjectComm((PetscObject)ts), N / 2, N / 2, 1, isp));
  PetscFunctionReturn(0);
}

/* x = U[is] (or U[is] = x when join). On one process, an index set of consecutive entries of U (the default split,
   and every split the user gives as such) is copied on the arrays: VecGetSubVector() makes a Vec at each call,
   which cost more than the rest of a small step. Other splits go through VecGetSubVector(). */
static PetscErrorCode CopySub(Vec U, IS is, Vec x, PetscBool join)
{
  PetscBool   stride;
  PetscInt    first = 0, step = 0, n, lo, hi;
  PetscMPIInt size;
  Vec         sub;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)U), &size));
  PetscCall(PetscObjectTypeCompare((PetscObject)is, ISSTRIDE, &stride));
  stride = (PetscBool)(stride && size == 1); /* in parallel VecGetSubVector() is collective: every process takes it */
  if (stride) {
    PetscCall(ISStrideGetInfo(is, &first, &step));
    PetscCall(ISGetLocalSize(is, &n));
    PetscCall(VecGetOwnershipRange(U, &lo, &hi));
  }
  if (stride && (step == 1 || n <= 1) && first >= lo && first + n <= hi) {
    const PetscScalar *from;
    PetscScalar       *to;

    /* read access to the source (U may be locked read-only, as in a monitor), write access to the target */
    PetscCall(VecGetArrayRead(join ? x : U, &from));
    PetscCall(VecGetArray(join ? U : x, &to));
    if (join) PetscCall(PetscArraycpy(to + first - lo, from, n));
    else PetscCall(PetscArraycpy(to, from + first - lo, n));
    PetscCall(VecRestoreArray(join ? U : x, &to));
    PetscCall(VecRestoreArrayRead(join ? x : U, &from));
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetSubVector(U, is, &sub));
  if (join) PetscCall(VecCopy(x, sub));
  else PetscCall(VecCopy(sub, x));
  PetscCall(VecRestoreSubVector(U, is, &sub));
  PetscFunctionReturn(0);
}

/* (q, p) copied out of U and into U, through the index sets of the split */
PetscErrorCode SimpVIPhaseSpaceSplit_Private(Vec U, IS isq, IS isp, Vec q, Vec p)
{
  PetscFunctionBegin;
  PetscCall(CopySub(U, isq, q, PETSC_FALSE));
  PetscCall(CopySub(U, isp, p, PETSC_FALSE));
  PetscFunctionReturn(0);
}

PetscErrorCode SimpVIPhaseSpaceJoin_Private(Vec q, Vec p, IS isq, IS isp, Vec U)
{
  PetscFunctionBegin;
  PetscCall(CopySub(U, isq, q, PETSC_TRUE));
  PetscCall(CopySub(U, isp, p, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*
  SimpVILegendreInverse_Private - solves L_v(t, x, v) = p for v by Newton with the door's L_vv (one step when L is
  quadratic in v); v holds the initial guess on entry
*/
PetscErrorCode SimpVILegendreInverse_Private(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec p, Vec v)
{
  PetscReal pnorm, rnorm;

  PetscFunctionBegin;
  if (prob->door->velocity) {
    PetscBool done;

    PetscCall(prob->door->velocity(ts, prob, t, x, p, v, &done));
    if (done) PetscFunctionReturn(0);
  }
  PetscCall(VecNorm(p, NORM_INFINITY, &pnorm));
  for (PetscInt it = 0; it < 20; it++) {
    SimpVITerm *terms  = prob->terms;
    PetscInt    nterms = 0;
    Mat         Pv     = NULL;

    if (prob->door->momentum) PetscCall(prob->door->momentum(ts, prob, t, x, v, prob->work));
    else PetscCall(prob->door->pg(ts, prob, t, x, v, prob->work, prob->work2));
    PetscCall(VecAXPY(prob->work, -1, p));
    PetscCall(VecNorm(prob->work, NORM_INFINITY, &rnorm));
    PetscCheck(!PetscIsInfOrNanReal(rnorm), PetscObjectComm((PetscObject)ts), PETSC_ERR_FP, "Legendre transform gives %g: Inf or NaN from the Lagrangian at t = %g", (double)rnorm, (double)t);
    if (rnorm <= 1e-14 * pnorm || rnorm == 0) break;
    PetscCall(prob->door->terms(ts, prob, t, x, v, SIMPVI_NEED(SIMPVI_BLOCK_PV), &nterms, terms));
    for (PetscInt k = 0; k < nterms; k++)
      if (terms[k].block == SIMPVI_BLOCK_PV) Pv = terms[k].A;
    PetscCheck(Pv, PetscObjectComm((PetscObject)ts), PETSC_ERR_USER, "The Lagrangian has no L_vv block: cannot recover velocities");
    if (!prob->kspv) {
      PetscInt N;

      PetscCall(KSPCreate(PetscObjectComm((PetscObject)ts), &prob->kspv));
      PetscCall(KSPSetOptionsPrefix(prob->kspv, ((PetscObject)ts)->prefix));
      PetscCall(KSPAppendOptionsPrefix(prob->kspv, "ts_simpvi_velocity_"));
      PetscCall(MatGetSize(Pv, &N, NULL));
      PetscCall(SimpVIDefaultLinearSolver_Private(prob->kspv, N, prob->directlimit, PETSC_TRUE, PETSC_FALSE, NULL));
      PetscCall(KSPSetFromOptions(prob->kspv));
    }
    PetscCall(KSPSetOperators(prob->kspv, Pv, Pv));
    PetscCall(KSPSolve(prob->kspv, prob->work, prob->work2));
    PetscCall(VecAXPY(v, -1, prob->work2));
  }
  PetscFunctionReturn(0);
}

/* G += f(t, x, v): forces enter the discrete action's variation through the same quadrature (Lagrange-d'Alembert) */
PetscErrorCode SimpVIForceAdd_Private(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, Vec G)
{
  PetscFunctionBegin;
  if (!prob->user.forcefn) PetscFunctionReturn(0);
  if (!prob->force) PetscCall(VecDuplicate(G, &prob->force)); /* a force given after the set-up (TSSimpVISetForce()) */
  SimpVICallBack(ts, "TSSIMPVI force", prob->user.forcefn(ts, t, x, v, prob->force, prob->user.forcectx));
  PetscCall(VecAXPY(G, 1, prob->force));
  PetscFunctionReturn(0);
}

/* A setter's matrices given after the problem's set-up (TSSimpVISetMass() between two TSSolve(), say): sized as the
   positions, and MATSEQDENSE where the step runs on arrays (steppoints), which reads them so (onarrays: the setter's
   matrices are read there): otherwise an error that says to give them before the set-up, not an error inside a step */
PetscErrorCode SimpVIProblemLateMats_Private(TS ts, SimpVIProblem *prob, const char setter[], PetscBool onarrays, PetscInt k, const Mat A[], const char *const names[])
{
  PetscBool dense;

  PetscFunctionBegin;
  if (!prob->door) PetscFunctionReturn(0);
  for (PetscInt b = 0; b < k; b++)
    if (A[b]) PetscCall(SimpVICheckMatSize_Private(ts, prob->work, A[b], names[b]));
  if (!prob->steppoints || !onarrays) PetscFunctionReturn(0);
  PetscCall(SimpVIPointMatsDense_Private(k, A, &dense));
  PetscCheck(dense, PetscObjectComm((PetscObject)ts), PETSC_ERR_ORDER, "%s() after TSSetUp(): this TS's small step is evaluated on arrays, which read MATSEQDENSE matrices; give MATSEQDENSE ones, or call %s() before TSSetUp() or the first TSSolve()", setter, setter);
  PetscFunctionReturn(0);
}

/* The force's derivatives as Jacobian terms: df/dx feeds G_x, df/dv feeds G_v */
PetscErrorCode SimpVIForceTerms_Private(TS ts, SimpVIProblem *prob, PetscReal t, Vec x, Vec v, PetscInt *n, SimpVITerm terms[])
{
  PetscFunctionBegin;
  if (!prob->user.forcefn || !(prob->user.Fx || prob->user.Fv)) PetscFunctionReturn(0);
  SimpVICallBack(ts, "TSSIMPVI force Jacobian", prob->user.forcejacfn(ts, t, x, v, prob->user.Fx, prob->user.Fv, prob->user.forcectx));
  if (prob->user.Fx) PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Fx, 1, SIMPVI_BLOCK_GX, PETSC_FALSE, PETSC_FALSE}));
  if (prob->user.Fv) PetscCall(SimpVITermPush(prob, n, terms, (SimpVITerm){prob->user.Fv, 1, SIMPVI_BLOCK_GV, PETSC_FALSE, PETSC_FALSE}));
  PetscFunctionReturn(0);
}

/* The collective end of SimpVICallBack(): every process learns whether the callback failed anywhere. The failing
   processes pass their error on (its own message was printed when it was raised); the others raise one that names
   the first failing rank. */
PetscErrorCode SimpVICallBackCheck_Private(TS ts, const char name[], PetscErrorCode ierr)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)ts);
  PetscMPIInt size, rank, fail[2];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) {
    if (ierr) return PetscError(comm, __LINE__, PETSC_FUNCTION_NAME, __FILE__, ierr, PETSC_ERROR_REPEAT, "%s callback returned error code %d in step %" PetscInt_FMT " at t = %g", name, (int)ierr, ts->steps, (double)ts->ptime);
    PetscFunctionReturn(0);
  }
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  fail[0] = (PetscMPIInt)ierr;      /* the largest code */
  fail[1] = ierr ? size - rank : 0; /* size minus the first failing rank */
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, fail, 2, MPI_INT, MPI_MAX, comm));
  if (!fail[0]) PetscFunctionReturn(0);
  if (ierr) return PetscError(comm, __LINE__, PETSC_FUNCTION_NAME, __FILE__, ierr, PETSC_ERROR_REPEAT, "%s callback returned error code %d in step %" PetscInt_FMT " at t = %g", name, (int)ierr, ts->steps, (double)ts->ptime);
  SETERRQ(comm, (PetscErrorCode)fail[0], "%s callback failed on rank %d (error code %d) in step %" PetscInt_FMT " at t = %g: all %d processes stop; that rank's message says why", name, size - fail[1], fail[0], ts->steps, (double)ts->ptime, size);
}
