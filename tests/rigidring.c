static char help[] = "Rigid bodies in the Vec/Mat form (TSSimpVISetRigidBodyInertias()) on any number of processes: a ring of N bodies\n"
                     "joined by springs (examples/models/rigidring.h), against the same form on one process and the array form\n"
                     "(TSSimpVISetRigidBodies()); the spatial angular momentum, the energy, the step Jacobian by differences.\n"
                     "Options: -n <16> bodies, -steps <40>, -dt <0.05>, -chain (open), -gravity <mgl>, -events, -empty, -free, -scheme <simpson>,\n"
                     "         -check <ranks|jacobian|errors|restart>\n\n";

#include <simpvi.h>
#include "../examples/models/rigidring.h"

typedef struct {
  PetscInt  n, steps;
  PetscReal dt, T;
  char      scheme[64];
  RigidRing rr;
  PetscBool free;   /* no potential: free bodies (no routines given) */
  PetscBool events; /* each body's axis height R_b[2][2] crossing its start's minus 0.05: an event of its process */
} Setup;

/* the events found (on this process) and the sum of their times */
typedef struct {
  PetscInt  nl, count;
  PetscReal level[64], tsum;
} Events;

static PetscErrorCode Indicator(TS ts, PetscReal t, Vec U, PetscScalar f[], void *ctx)
{
  Events            *ev = (Events *)ctx;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt b = 0; b < ev->nl; b++) f[b] = u[9 * b + 8] - ev->level[b];
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode PostEvent(TS ts, PetscInt nevents, PetscInt list[], PetscReal t, Vec U, PetscBool forward, void *ctx)
{
  Events *ev = (Events *)ctx;

  PetscFunctionBeginUser;
  ev->count += nevents;
  ev->tsum += nevents * t;
  PetscFunctionReturn(0);
}

/* A TS of type simpvi on comm with the scheme and the time controls (the final time inside the last step: interpolated) */
static PetscErrorCode CreateTS(MPI_Comm comm, const Setup *su, TS *ts)
{
  PetscFunctionBeginUser;
  PetscCall(TSCreate(comm, ts));
  PetscCall(TSSetType(*ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(*ts, su->scheme));
  PetscCall(TSSetTimeStep(*ts, su->dt));
  PetscCall(TSSetMaxTime(*ts, su->T));
  PetscCall(TSSetMaxSteps(*ts, 10 * su->steps)); /* events shorten some */
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_INTERPOLATE));
  PetscFunctionReturn(0);
}

/* Events of each process's own bodies (TSInterpolate() and TSRollBack() locate them) */
static PetscErrorCode SetEvents(TS ts, Vec U, PetscInt nl, Events *ev)
{
  PetscInt          *dir;
  PetscBool         *term;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc2(nl, &dir, nl, &term));
  ev->nl = nl, ev->count = 0, ev->tsum = 0;
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt b = 0; b < nl; b++) ev->level[b] = u[9 * b + 8] - 0.05;
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(TSSetEventHandler(ts, nl, dir, term, Indicator, PostEvent, ev));
  PetscCall(TSSetEventTolerances(ts, 1e-10, NULL));
  PetscCall(PetscFree2(dir, term));
  PetscFunctionReturn(0);
}

/* sum_b R_b pi_b (the total spatial angular momentum about the common centre) over the bodies of a state in the Vec/Mat layout with nl bodies on this process */
static PetscErrorCode Momentum(Vec U, PetscReal m[3])
{
  const PetscScalar *u;
  PetscInt           nl;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(U, &nl));
  nl /= 12;
  m[0] = m[1] = m[2] = 0;
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt b = 0; b < nl; b++)
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) m[i] += u[9 * b + 3 * i + j] * u[9 * nl + 3 * b + j];
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, m, 3, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)U)));
  PetscFunctionReturn(0);
}

/* The Vec/Mat form on comm with nl bodies here: the final state gathered on rank 0 in the bodies' order (all R, then
   all pi: the array form's layout), the largest drift of the momentum and of the energy; ts kept if asked */
static PetscErrorCode RunVec(MPI_Comm comm, Setup *su, PetscInt nl, PetscReal *final, PetscReal *dm, PetscReal *dE, Events *ev, TS *tsout)
{
  RigidRing  *rrp, rr;
  TS          ts;
  Vec         U, Uz;
  Mat         H;
  PetscReal  *J, m0[3], m1[3], E0, E1, t;
  VecScatter  toz;
  PetscMPIInt rank, size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscNew(&rrp)); /* the context of the routines, kept by the TS */
  *rrp = su->rr;
  PetscCall(RigidRingSetUpVec(rrp, comm, nl));
  rr = *rrp;
  PetscCall(PetscMalloc1(9 * nl, &J));
  PetscCall(VecCreateMPI(comm, 12 * nl, 12 * rr.N, &U));
  PetscCall(RigidRingSetState(&rr, rr.lo, rr.hi, U, J));
  PetscCall(RigidRingCreateHessian(&rr, comm, &H));
  PetscCall(CreateTS(comm, su, &ts));
  PetscCall(TSSimpVISetRigidBodyInertias(ts, nl, J));
  if (!su->free) {
    PetscCall(TSSimpVISetRigidBodyPotentialRoutine(ts, NULL, RigidRingPotentialVec, rrp));
    PetscCall(TSSimpVISetRigidBodyHessianRoutine(ts, H, RigidRingHessianVec, rrp));
  }
  PetscCall(TSSetSolution(ts, U));
  if (su->events) PetscCall(SetEvents(ts, U, nl, ev));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(Momentum(U, m0));
  PetscCall(TSSimpVIComputeEnergy(ts, 0, U, &E0));
  if (tsout) { /* the caller takes the step's system apart */
    *tsout = ts;
    PetscCall(PetscObjectCompose((PetscObject)ts, "U", (PetscObject)U));
    PetscCall(PetscObjectCompose((PetscObject)ts, "H", (PetscObject)H));
    PetscCall(VecDestroy(&U));
    PetscCall(MatDestroy(&H));
    PetscCall(PetscFree(J));
    {
      PetscContainer c;

      PetscCall(PetscContainerCreate(comm, &c));
      PetscCall(PetscContainerSetPointer(c, rrp));
      PetscCall(PetscObjectCompose((PetscObject)ts, "rr", (PetscObject)c));
      PetscCall(PetscContainerDestroy(&c));
    }
    PetscFunctionReturn(0);
  }
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSolveTime(ts, &t));
  PetscCheck(PetscAbsReal(t - su->T) < 1e-12, comm, PETSC_ERR_PLIB, "The run ended at t = %g, not %g", (double)t, (double)su->T);
  PetscCall(Momentum(U, m1));
  PetscCall(TSSimpVIComputeEnergy(ts, t, U, &E1));
  if (su->events) {
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ev->count, 1, MPIU_INT, MPI_SUM, comm));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ev->tsum, 1, MPIU_REAL, MPIU_SUM, comm));
  }
  /* gravity leaves the vertical component */
  *dm = su->rr.mgl != 0 ? PetscAbsReal(m1[2] - m0[2]) : PetscSqrtReal(PetscSqr(m1[0] - m0[0]) + PetscSqr(m1[1] - m0[1]) + PetscSqr(m1[2] - m0[2]));
  *dE = PetscAbsReal(E1 - E0) / PetscAbsReal(E0);
  /* to rank 0, then from each process's block (its bodies' R, then their pi) to the bodies' order */
  PetscCall(VecScatterCreateToZero(U, &toz, &Uz));
  PetscCall(VecScatterBegin(toz, U, Uz, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(toz, U, Uz, INSERT_VALUES, SCATTER_FORWARD));
  {
    PetscInt *counts, lo = 0;

    PetscCall(PetscMalloc1(size, &counts));
    PetscCallMPI(MPI_Gather(&nl, 1, MPIU_INT, counts, 1, MPIU_INT, 0, comm));
    if (!rank) {
      const PetscScalar *u;

      PetscCall(VecGetArrayRead(Uz, &u));
      for (PetscMPIInt q = 0; q < size; q++) {
        const PetscScalar *blk = u + 12 * lo;

        for (PetscInt b = 0; b < counts[q]; b++) {
          for (PetscInt i = 0; i < 9; i++) final[9 * (lo + b) + i] = blk[9 * b + i];
          for (PetscInt i = 0; i < 3; i++) final[9 * rr.N + 3 * (lo + b) + i] = blk[9 * counts[q] + 3 * b + i];
        }
        lo += counts[q];
      }
      PetscCall(VecRestoreArrayRead(Uz, &u));
    }
    PetscCall(PetscFree(counts));
  }
  PetscCall(VecScatterDestroy(&toz));
  PetscCall(VecDestroy(&Uz));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&H));
  PetscCall(PetscFree(J));
  PetscCall(RigidRingDestroyVec(rrp));
  PetscCall(PetscFree(rrp));
  PetscFunctionReturn(0);
}

/* The array form on one process: the final state */
static PetscErrorCode RunArray(Setup *su, PetscReal *final, Events *ev)
{
  const PetscInt     N = su->rr.N;
  TS                 ts;
  Vec                U;
  PetscReal         *J;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(9 * N, &J));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12 * N, &U));
  PetscCall(RigidRingSetState(&su->rr, 0, N, U, J));
  PetscCall(CreateTS(PETSC_COMM_SELF, su, &ts));
  PetscCall(TSSimpVISetRigidBodies(ts, N, J, su->free ? NULL : RigidRingPotential, &su->rr));
  PetscCall(TSSetSolution(ts, U));
  if (su->events) PetscCall(SetEvents(ts, U, N, ev));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(PetscArraycpy(final, u, 12 * N));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(PetscFree(J));
  PetscFunctionReturn(0);
}

/* The model's gradient and Hessian against central differences of V and g along R_b exp(e hat(eta)) */
static PetscErrorCode CheckModel(Setup *su, PetscBool *ok)
{
  const PetscInt  N = su->rr.N, n = 3 * N;
  PetscReal      *R, *Rp, *g, *gp, *gm, *H, V, Vp, Vm, eg = 0, eh = 0, sg = 0, sh = 0;
  const PetscReal e = 1e-5;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc6(9 * N, &R, 9 * N, &Rp, n, &g, n, &gp, n, &gm, n * n, &H));
  for (PetscInt b = 0; b < N; b++) {
    PetscReal pi[3];

    PetscCall(RigidRingStart(b, R + 9 * b, pi));
  }
  PetscCall(RigidRingPotential(N, R, &V, g, H, &su->rr));
  for (PetscInt j = 0; j < n; j++) {
    for (PetscInt sgn = -1; sgn <= 1; sgn += 2) {
      PetscReal xi[3] = {0, 0, 0}, E[9];

      PetscCall(PetscArraycpy(Rp, R, 9 * N));
      xi[j % 3] = sgn * e;
      PetscCall(SimpVISO3Exp(xi, E));
      Mul(R + 9 * (j / 3), E, Rp + 9 * (j / 3));
      PetscCall(RigidRingPotential(N, Rp, sgn > 0 ? &Vp : &Vm, sgn > 0 ? gp : gm, NULL, &su->rr));
    }
    eg = PetscMax(eg, PetscAbsReal((Vp - Vm) / (2 * e) - g[j]));
    sg = PetscMax(sg, PetscAbsReal(g[j]));
    /* d g_i / d e_j is H_ij minus the left-trivialisation's 1/2 hat(g) on the diagonal block */
    for (PetscInt i = 0; i < n; i++) {
      PetscReal fd = (gp[i] - gm[i]) / (2 * e), corr = 0;

      if (i / 3 == j / 3) {
        const PetscReal *gb = g + 3 * (i / 3);
        const PetscInt   a = i % 3, c = j % 3;
        PetscReal        hat[9];

        Hat(gb, hat);
        corr = hat[3 * a + c] / 2;
      }
      eh = PetscMax(eh, PetscAbsReal(fd - (H[i * n + j] + corr)));
      sh = PetscMax(sh, PetscAbsReal(H[i * n + j]));
    }
  }
  *ok = (PetscBool)(eg < 1e-8 * sg && eh < 1e-7 * sh);
  if (!*ok) PetscCall(PetscPrintf(PETSC_COMM_SELF, "gradient error %g (of %g), Hessian error %g (of %g)\n", (double)eg, (double)sg, (double)eh, (double)sh));
  PetscCall(PetscFree6(R, Rp, g, gp, gm, H));
  PetscFunctionReturn(0);
}

/* The Vec form's step Jacobian at a perturbed predictor against differences of its residual */
static PetscErrorCode CheckJacobian(Setup *su, PetscInt nl)
{
  TS                ts;
  SimpVIRigidBodies rb;
  SNES              snes;
  Vec               U, Z, F;
  Mat               A, Ad, Jfd;
  PetscReal         nrm, err;
  PetscRandom       rnd;

  PetscFunctionBeginUser;
  PetscCall(RunVec(PETSC_COMM_WORLD, su, nl, NULL, NULL, NULL, NULL, &ts));
  PetscCall(PetscObjectQuery((PetscObject)ts, "U", (PetscObject *)&U));
  PetscCall(TSSimpVIGetRigidBodies(ts, &rb));
  PetscCall(SimpVIRigidBodiesSetStep(rb, su->dt, U));
  PetscCall(SimpVIRigidBodiesGetSNES(rb, &snes));
  PetscCall(SNESGetSolution(snes, &Z));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -0.01, 0.01));
  {
    Vec dz;

    PetscCall(VecDuplicate(Z, &dz));
    PetscCall(VecSetRandom(dz, rnd));
    PetscCall(VecAXPY(Z, 1.0, dz));
    PetscCall(VecDestroy(&dz));
  }
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(SNESGetJacobian(snes, &A, NULL, NULL, NULL));
  PetscCall(VecDuplicate(Z, &F));
  PetscCall(SNESComputeFunction(snes, Z, F));
  PetscCall(SNESComputeJacobian(snes, Z, A, A));
  PetscCall(MatConvert(A, MATDENSE, MAT_INITIAL_MATRIX, &Ad));
  PetscCall(MatDuplicate(Ad, MAT_DO_NOT_COPY_VALUES, &Jfd));
  PetscCall(SNESComputeJacobianDefault(snes, Z, Jfd, Jfd, NULL));
  PetscCall(MatNorm(Ad, NORM_FROBENIUS, &nrm));
  PetscCall(MatAXPY(Jfd, -1.0, Ad, SAME_NONZERO_PATTERN));
  PetscCall(MatNorm(Jfd, NORM_FROBENIUS, &err));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "step Jacobian (parallel AIJ) against differences of the residual, relative error < 1e-6: %s\n", err < 1e-6 * nrm ? "yes" : "no"));
  if (err >= 1e-6 * nrm) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  |J - J_fd| / |J| = %g\n", (double)(err / nrm)));
  PetscCall(MatDestroy(&Ad));
  PetscCall(MatDestroy(&Jfd));
  PetscCall(VecDestroy(&F));
  {
    PetscContainer c;
    RigidRing     *rr;

    PetscCall(PetscObjectQuery((PetscObject)ts, "rr", (PetscObject *)&c));
    PetscCall(PetscContainerGetPointer(c, (void **)&rr));
    PetscCall(TSDestroy(&ts));
    PetscCall(RigidRingDestroyVec(rr));
    PetscCall(PetscFree(rr));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode NoTorque(PetscInt nb, PetscReal t, const PetscReal R[], const PetscReal Omega[], PetscReal tau[], PetscReal tauR[], PetscReal tauO[], PetscReal tauth[], void *ctx)
{
  for (PetscInt j = 0; j < 3 * nb; j++) tau[j] = 0;
  return 0;
}

/* Misuse: each an error of the expected class, at the call or at set-up, on every process, the objects destroyed after */
static PetscErrorCode Errors(Setup *su, PetscInt nl)
{
  const char *names[]  = {"the array form, then the Vec/Mat form", "the Vec/Mat form, then the array form", "a state split unlike the bodies", "a Hessian of the wrong size", "a gradient of the wrong size",
                          "a potential without its Hessian",       "a potential without inertias",          "an inertia tensor not symmetric", "torques (not yet)",           "the adjoint (not yet)"};
  const int   expect[] = {PETSC_ERR_ARG_WRONGSTATE, PETSC_ERR_ARG_WRONGSTATE, PETSC_ERR_ARG_SIZ, PETSC_ERR_ARG_SIZ, PETSC_ERR_ARG_SIZ, PETSC_ERR_USER, PETSC_ERR_USER, PETSC_ERR_ARG_WRONG, PETSC_ERR_SUP, PETSC_ERR_SUP};
  RigidRing   rr       = su->rr;
  PetscReal   J[9 * 64];

  PetscFunctionBeginUser;
  PetscCall(RigidRingSetUpVec(&rr, PETSC_COMM_WORLD, nl));
  for (PetscInt c = 0; c < 10; c++) {
    TS             ts;
    Vec            U, g = NULL;
    Mat            H;
    PetscErrorCode err = 0;

    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 12 * nl + (c == 2 ? 1 : 0), PETSC_DETERMINE, &U));
    if (c != 2) PetscCall(RigidRingSetState(&rr, rr.lo, rr.hi, U, J));
    if (c == 7) J[1] += 1;
    if (c == 3) PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, 3 * rr.N + 3, 3 * rr.N + 3, 9, NULL, 6, NULL, &H));
    else PetscCall(RigidRingCreateHessian(&rr, PETSC_COMM_WORLD, &H));
    if (c == 4) PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 3 * nl + 1, PETSC_DETERMINE, &g));
    PetscCall(CreateTS(PETSC_COMM_WORLD, su, &ts));
    PetscCall(TSSetSolution(ts, U));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    if (c == 0) err = TSSimpVISetRigidBodies(ts, nl, J, RigidRingPotential, &rr);
    if (!err && c != 6) err = TSSimpVISetRigidBodyInertias(ts, nl, J);
    if (!err) err = TSSimpVISetRigidBodyPotentialRoutine(ts, g, RigidRingPotentialVec, &rr);
    if (!err && c != 5) err = TSSimpVISetRigidBodyHessianRoutine(ts, H, RigidRingHessianVec, &rr);
    if (!err && c == 1) err = TSSimpVISetRigidBodies(ts, nl, J, RigidRingPotential, &rr);
    if (!err && c == 8) err = TSSimpVISetRigidBodyTorque(ts, 0, NoTorque, NULL);
    if (!err && c == 9) err = TSSetSaveTrajectory(ts);
    if (!err) err = c == 9 ? TSSolve(ts, U) : TSSetUp(ts);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: the expected error: %s\n", names[c], err == (PetscErrorCode)expect[c] ? "yes" : "no"));
    if (err != (PetscErrorCode)expect[c]) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  error %d, expected %d\n", (int)err, expect[c]));
    PetscCall(TSDestroy(&ts));
    PetscCall(VecDestroy(&U));
    PetscCall(VecDestroy(&g));
    PetscCall(MatDestroy(&H));
  }
  PetscCall(RigidRingDestroyVec(&rr));
  PetscFunctionReturn(0);
}

/* A run to step `steps` (no final time) in the Vec/Mat form on comm with nl bodies here, or in the array form (array,
   one process): a checkpoint at its end to cp, or restarted from rs (NULL: none); its final state in *Uout, or with
   err the error of TSSolve() (returned, not raised) and no state */
static PetscErrorCode CheckpointRun(MPI_Comm comm, const Setup *su, PetscInt nl, PetscBool array, PetscInt steps, const char cp[], const char rs[], Vec *Uout, PetscErrorCode *err)
{
  RigidRing *rrp;
  TS         ts;
  Vec        U;
  Mat        H = NULL;
  PetscReal *J;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&rrp)); /* the context of the routines, kept by the TS */
  *rrp = su->rr;
  if (array) nl = su->rr.N;
  PetscCall(PetscMalloc1(9 * nl, &J));
  if (array) {
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 12 * nl, &U));
    PetscCall(RigidRingSetState(rrp, 0, nl, U, J));
    PetscCall(CreateTS(PETSC_COMM_SELF, su, &ts));
    PetscCall(TSSimpVISetRigidBodies(ts, nl, J, su->free ? NULL : RigidRingPotential, rrp));
  } else {
    PetscCall(RigidRingSetUpVec(rrp, comm, nl));
    PetscCall(VecCreateMPI(comm, 12 * nl, 12 * rrp->N, &U));
    PetscCall(RigidRingSetState(rrp, rrp->lo, rrp->hi, U, J));
    PetscCall(RigidRingCreateHessian(rrp, comm, &H));
    PetscCall(CreateTS(comm, su, &ts));
    PetscCall(TSSimpVISetRigidBodyInertias(ts, nl, J));
    if (!su->free) {
      PetscCall(TSSimpVISetRigidBodyPotentialRoutine(ts, NULL, RigidRingPotentialVec, rrp));
      PetscCall(TSSimpVISetRigidBodyHessianRoutine(ts, H, RigidRingHessianVec, rrp));
    }
  }
  PetscCall(TSSetSolution(ts, U));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e6));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (cp) PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_checkpoint", cp));
  if (rs) PetscCall(PetscOptionsSetValue(NULL, "-ts_simpvi_restart", rs));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_checkpoint"));
  PetscCall(PetscOptionsClearValue(NULL, "-ts_simpvi_restart"));
  if (err) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    *err = TSSolve(ts, U);
    PetscCall(PetscPopErrorHandler());
  } else PetscCall(TSSolve(ts, U));
  if (Uout) *Uout = U;
  else PetscCall(VecDestroy(&U));
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&H));
  PetscCall(PetscFree(J));
  if (!array) PetscCall(RigidRingDestroyVec(rrp));
  PetscCall(PetscFree(rrp));
  PetscFunctionReturn(0);
}

/* Checkpoint and restart: steps in one run against steps/2, a checkpoint, and steps/2 restarted from it, bit for bit;
   on more processes, the checkpoint restarted on one (the bodies' order of one process in the file) against a run
   there; the array form restarted from the Vec/Mat form's checkpoint: an error */
static PetscErrorCode CheckRestart(Setup *su, PetscInt nl)
{
  const char    *file = "rigidring_restart.cp";
  const PetscInt S    = su->steps;
  Vec            Ua, Uc;
  PetscReal      d;
  PetscBool      same;
  PetscMPIInt    rank, size;
  PetscInt       verdict[2] = {0, 0};

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(CheckpointRun(PETSC_COMM_WORLD, su, nl, PETSC_FALSE, S, NULL, NULL, &Ua, NULL));
  PetscCall(CheckpointRun(PETSC_COMM_WORLD, su, nl, PETSC_FALSE, S / 2, file, NULL, NULL, NULL));
  PetscCall(CheckpointRun(PETSC_COMM_WORLD, su, nl, PETSC_FALSE, S, NULL, file, &Uc, NULL));
  PetscCall(VecEqual(Ua, Uc, &same));
  PetscCall(VecAXPY(Uc, -1, Ua));
  PetscCall(VecNorm(Uc, NORM_INFINITY, &d));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Vec/Mat form (%s) on %d process(es): %" PetscInt_FMT " steps against %" PetscInt_FMT " + %" PetscInt_FMT " restarted from the checkpoint: max |difference| %g, the same bit for bit: %s\n", su->scheme, (int)size, S, S / 2, S - S / 2, (double)d, same && d == 0 ? "yes" : "no"));
  PetscCall(VecDestroy(&Ua));
  PetscCall(VecDestroy(&Uc));
  if (!rank) {
    PetscErrorCode err;

    if (size > 1) { /* the file of `size` processes, on one */
      Vec Ue, Ud;

      PetscCall(CheckpointRun(PETSC_COMM_SELF, su, su->n, PETSC_FALSE, S, NULL, NULL, &Ue, NULL));
      PetscCall(CheckpointRun(PETSC_COMM_SELF, su, su->n, PETSC_FALSE, S, NULL, file, &Ud, NULL));
      PetscCall(VecAXPY(Ud, -1, Ue));
      PetscCall(VecNorm(Ud, NORM_INFINITY, &d));
      verdict[0] = d < 1e-12;
      PetscCall(PetscInfo(NULL, "restarted on one process: max |difference| from a run there %g\n", (double)d));
      PetscCall(VecDestroy(&Ue));
      PetscCall(VecDestroy(&Ud));
    }
    PetscCall(CheckpointRun(PETSC_COMM_SELF, su, su->n, PETSC_TRUE, S, NULL, file, NULL, &err));
    verdict[1] = err == PETSC_ERR_ARG_INCOMP;
  }
  PetscCallMPI(MPI_Bcast(verdict, 2, MPIU_INT, 0, PETSC_COMM_WORLD));
  if (size > 1) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the checkpoint of %d processes restarted on one: as a run on one to 1e-12: %s\n", (int)size, verdict[0] ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the array form restarted from the Vec/Mat form's checkpoint: an error (PETSC_ERR_ARG_INCOMP): %s\n", verdict[1] ? "yes" : "no"));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Setup su = {
    .n = 16, .steps = 40, .dt = 0.05, .scheme = "simpson", .rr = {.ring = PETSC_TRUE, .k = 2.0}
  };
  char        check[32] = "ranks";
  PetscBool   chain = PETSC_FALSE, empty = PETSC_FALSE, ok;
  PetscMPIInt rank, size;
  PetscInt    nl;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Rigid ring", NULL);
  PetscCall(PetscOptionsInt("-n", "bodies", NULL, su.n, &su.n, NULL));
  PetscCall(PetscOptionsInt("-steps", "steps", NULL, su.steps, &su.steps, NULL));
  PetscCall(PetscOptionsReal("-dt", "step size", NULL, su.dt, &su.dt, NULL));
  PetscCall(PetscOptionsReal("-gravity", "m g l of each body", NULL, su.rr.mgl, &su.rr.mgl, NULL));
  PetscCall(PetscOptionsBool("-chain", "an open chain", NULL, chain, &chain, NULL));
  PetscCall(PetscOptionsBool("-events", "events on the bodies' axes", NULL, su.events, &su.events, NULL));
  PetscCall(PetscOptionsBool("-free", "free bodies (no potential)", NULL, su.free, &su.free, NULL));
  PetscCall(PetscOptionsBool("-empty", "the last process without bodies", NULL, empty, &empty, NULL));
  PetscCall(PetscOptionsString("-scheme", "TSSIMPVI scheme", NULL, su.scheme, su.scheme, sizeof(su.scheme), NULL));
  PetscCall(PetscOptionsString("-check", "ranks, jacobian, errors, restart", NULL, check, check, sizeof(check), NULL));
  PetscOptionsEnd();
  su.rr.N    = su.n;
  su.rr.ring = (PetscBool)!chain;
  su.T       = (su.steps - 1.0 / 3) * su.dt; /* the last step interpolated */
  nl         = PETSC_DECIDE;
  PetscCall(PetscSplitOwnership(PETSC_COMM_WORLD, &nl, &su.n));
  if (empty) nl = rank == size - 1 ? 0 : (rank < su.n % (size - 1) ? su.n / (size - 1) + 1 : su.n / (size - 1)); /* the last process without bodies */
  PetscCheck(su.n >= 3 && su.n <= 64 && (empty || nl >= 1), PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "Take 3 to 64 bodies, at least one per process (but with -empty)");

  PetscCall(PetscStrcmp(check, "errors", &ok));
  if (ok) {
    PetscCall(Errors(&su, nl));
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCall(PetscStrcmp(check, "restart", &ok));
  if (ok) {
    PetscCall(CheckRestart(&su, nl));
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCall(PetscStrcmp(check, "jacobian", &ok));
  if (ok) {
    PetscCall(CheckJacobian(&su, nl));
    PetscCall(PetscFinalize());
    return 0;
  }
  {
    PetscReal *uw, *us = NULL, *ua = NULL, dm, dE, dms, dEs, dsw = 0, dsa = 0;
    Events     ew = {0}, es = {0}, ea = {0};

    if (!rank) {
      PetscCall(CheckModel(&su, &ok));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "model: gradient and Hessian agree with differences: %s\n", ok ? "yes" : "no"));
    }
    PetscCall(PetscMalloc1(12 * su.n, &uw));
    PetscCall(RunVec(PETSC_COMM_WORLD, &su, nl, uw, &dm, &dE, &ew, NULL));
    if (!rank) { /* the same form on one process, and the array form */
      PetscCall(PetscMalloc2(12 * su.n, &us, 12 * su.n, &ua));
      PetscCall(RunVec(PETSC_COMM_SELF, &su, su.n, us, &dms, &dEs, &es, NULL));
      PetscCall(RunArray(&su, ua, &ea));
      for (PetscInt j = 0; j < 12 * su.n; j++) {
        dsw = PetscMax(dsw, PetscAbsReal(uw[j] - us[j]));
        dsa = PetscMax(dsa, PetscAbsReal(ua[j] - us[j]));
      }
      PetscCall(PetscFree2(us, ua));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " bodies (%s%s), %" PetscInt_FMT " steps, the last interpolated, on %d process(es)\n", su.n, su.free ? "free" : (su.rr.ring ? "ring" : "chain"), su.rr.mgl != 0 ? ", gravity" : "", su.steps, (int)size));
    PetscCallMPI(MPI_Bcast(&dsw, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Bcast(&dsa, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Vec/Mat form on %d process(es) vs on one: max difference %.2e < 1e-12: %s\n", (int)size, (double)dsw, dsw < 1e-12 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Vec/Mat form vs array form on one process: max difference %.2e < 1e-13 (round-off): %s\n", (double)dsa, dsa < 1e-13 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: drift %.2e < 1e-13: %s\n", su.rr.mgl != 0 ? "vertical spatial angular momentum" : "spatial angular momentum", (double)dm, dm < 1e-13 ? "yes" : "no"));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "relative energy error < 1e-4: %s\n", dE < 1e-4 ? "yes" : "no"));
    if (su.events) {
      PetscMPIInt same = (PetscMPIInt)(ew.count == es.count && PetscAbsReal(ew.tsum - es.tsum) < 1e-9 && ea.count == es.count && PetscAbsReal(ea.tsum - es.tsum) < 1e-9);

      PetscCallMPI(MPI_Bcast(&same, 1, MPI_INT, 0, PETSC_COMM_WORLD));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "events: %" PetscInt_FMT " axis crossings, the same at the same times (1e-9) on one process and in the array form: %s\n", ew.count, same ? "yes" : "no"));
    }
    PetscCall(PetscFree(uw));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: one
    args: -n 8

  test:
    suffix: ranks
    nsize: 2
    args: -n 32 -steps 100

  test:
    suffix: ranks_lobatto_chain
    nsize: 2
    args: -n 9 -chain -scheme lobatto -steps 30

  test:
    suffix: ranks_gravity
    nsize: 2
    args: -n 12 -gravity 0.5

  test:
    suffix: ranks_events
    nsize: 2
    args: -n 10 -events -steps 60

  # free bodies: no routines
  test:
    suffix: ranks_free
    nsize: 2
    args: -n 5 -free

  # a process without bodies
  test:
    suffix: ranks_empty
    nsize: 2
    args: -n 7 -empty -events

  test:
    suffix: jacobian
    nsize: {{1 2}}
    args: -check jacobian -n 7 -gravity 0.3
    output_file: output/rigidring_jacobian.out

  test:
    suffix: view
    nsize: 2
    args: -n 6 -steps 2 -ts_view
    # (the dense SNES's line search of full steps is "basic" on PETSc 3.18, "none" on main, and main views its solution Vec: left out)
    filter: grep -E "Rigid|SO\\(3\\)|state:|step Jacobian|KSP Object|PC Object|type:|agree|difference" | grep -v -E "^      type: (basic|none|seq)$"

  test:
    suffix: errors
    nsize: 2
    args: -check errors -n 6

  # checkpoint and restart: bit for bit on 1 and 2 processes; the file of 2 restarted on 1
  test:
    suffix: restart
    nsize: {{1 2}separate output}
    args: -check restart -n 9 -steps 30 -gravity 0.3 -scheme {{simpson lobatto}separate output}

TEST*/
