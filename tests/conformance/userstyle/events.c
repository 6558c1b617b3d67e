static char help[] = "Events, written for TSALPHA2 as a PETSc user writes it: -N oscillators u_i'' + w_i^2 u_i = 0 (TSSetI2Function(),\n"
                     "MatCreateAIJ(), global MatSetValues()) on any number of processes, each process with its own event functions\n"
                     "(TSSetEventHandler()): every zero of each of its u_i (both directions, not terminal) and, on the first process, a\n"
                     "terminal event when u_0 first falls through -0.5. Checks: the events found against the zeros of the exact\n"
                     "motion before the stop, each event time against the exact one (-event_error_tol), the stop at the terminal\n"
                     "event, the final state (-write, -compare). Options: -N <4> -dt <0.05>\n\n";

#include <petscts.h>
#include "check.h"

typedef struct {
  PetscInt   n, N, rstart;
  PetscReal *w, *a; /* local frequencies, amplitudes: u_i = a_i cos(w_i t) */
  PetscInt   nfound, nwrong, *count;
  PetscReal  maxerr, tstop;
} Ctx;

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *u, *a;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayWrite(F, &f));
  for (PetscInt i = 0; i < c->n; i++) f[i] = a[i] + c->w[i] * c->w[i] * u[i];
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  Ctx *c = (Ctx *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < c->n; i++) PetscCall(MatSetValue(P, c->rstart + i, c->rstart + i, shiftA + c->w[i] * c->w[i], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* local events: u_i for each local i, then (on the first rank) u_0 + 0.5 */
static PetscErrorCode Indicator(TS ts, PetscReal t, Vec U, PetscScalar *fv, void *ctx)
{
  Ctx               *c = (Ctx *)ctx;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt i = 0; i < c->n; i++) fv[i] = u[i];
  if (!c->rstart) fv[c->n] = u[0] + 0.5;
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscFunctionReturn(0);
}

static PetscErrorCode PostEvent(TS ts, PetscInt nz, PetscInt ev[], PetscReal t, Vec U, PetscBool fwd, void *ctx)
{
  Ctx *c = (Ctx *)ctx;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nz; k++) {
    PetscInt  i = ev[k];
    PetscReal texact;

    if (i < c->n) { /* the count-th zero of a_i cos(w_i t): (count + 1/2) pi / w_i */
      texact = (c->count[i] + 0.5) * PETSC_PI / c->w[i];
      c->count[i]++;
    } else { /* the first time u_0 falls through -0.5: a cos(w t) = -0.5 */
      texact   = PetscAcosReal(-0.5 / c->a[0]) / c->w[0];
      c->tstop = t;
    }
    c->nfound++;
    c->maxerr = PetscMax(c->maxerr, PetscAbsReal(t - texact));
    PetscCall(PetscInfo(ts, "event %" PetscInt_FMT " at %.12g, exact %.12g\n", i, (double)t, (double)texact));
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Ctx       c = {0};
  PetscInt  dir[64], steps;
  PetscBool term[64];
  PetscReal T = 10, dt = 0.05, t, maxerr, tstop, tol = 1e-6;
  PetscInt  nfound, nexpected = 0, nexp;
  TS        ts;
  Vec       U, V;
  Mat       J;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  c.N = 4;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Event options", NULL);
  PetscCall(PetscOptionsInt("-N", "Oscillators", NULL, c.N, &c.N, NULL));
  PetscCall(PetscOptionsReal("-dt", "Time step", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-event_error_tol", "Bound on the error of the event times", NULL, tol, &tol, NULL));
  PetscOptionsEnd();
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, c.N, &U));
  PetscCall(VecGetLocalSize(U, &c.n));
  PetscCall(VecGetOwnershipRange(U, &c.rstart, NULL));
  PetscCheck(c.n > 0 && c.n < 63, PETSC_COMM_SELF, PETSC_ERR_SUP, "1 to 62 oscillators per rank");
  PetscCall(VecDuplicate(U, &V));
  PetscCall(PetscCalloc3(c.n, &c.w, c.n, &c.a, c.n, &c.count));
  for (PetscInt i = 0; i < c.n; i++) {
    PetscInt gi = c.rstart + i;
    c.w[i]      = 1 + 0.37 * gi;
    c.a[i]      = 1 + 0.1 * gi;
    PetscCall(VecSetValue(U, gi, c.a[i], INSERT_VALUES));
    dir[i]  = 0;
    term[i] = PETSC_FALSE;
  }
  dir[c.n]  = -1;
  term[c.n] = PETSC_TRUE;
  PetscCall(VecAssemblyBegin(U));
  PetscCall(VecAssemblyEnd(U));
  PetscCall(VecSet(V, 0));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, c.n, c.n, c.N, c.N, 1, NULL, 0, NULL, &J));

  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSALPHA2));
  PetscCall(TSSetI2Function(ts, NULL, I2Function, &c));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, &c));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetEventHandler(ts, c.n + (c.rstart == 0), dir, term, Indicator, PostEvent, &c));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, U));

  PetscCall(TSGetTime(ts, &t));
  PetscCall(TSGetStepNumber(ts, &steps));
  PetscCallMPI(MPI_Allreduce(&c.nfound, &nfound, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(&c.maxerr, &maxerr, 1, MPIU_REAL, MPI_MAX, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allreduce(&c.tstop, &tstop, 1, MPIU_REAL, MPI_MAX, PETSC_COMM_WORLD));
  /* zeros of every oscillator before the stop: (k + 1/2) pi / w_i < tstop */
  for (PetscInt i = 0; i < c.n; i++) nexpected += (PetscInt)PetscFloorReal(tstop * c.w[i] / PETSC_PI + 0.5);
  PetscCallMPI(MPI_Allreduce(&nexpected, &nexp, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCall(PetscInfo(NULL, "stopped at t = %.10g (terminal event at %.10g) after %" PetscInt_FMT " steps; %" PetscInt_FMT " events, %" PetscInt_FMT " zeros expected; event time error %g\n", (double)t, (double)tstop, steps, nfound, nexp, (double)maxerr));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Every zero before the stop found, and the stop: %s\n", nfound == nexp + 1 ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Event times within %g of the exact ones: %s\n", (double)tol, maxerr <= tol ? "yes" : "no"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "The run stopped at the terminal event: %s\n", tstop > 0 && t == tstop ? "yes" : "no"));
  PetscCall(CheckWriteCompare(U));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscCall(MatDestroy(&J));
  PetscCall(PetscFree3(c.w, c.a, c.count));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex !single

  # the program and the exact event times under the type it was written for
  test:
    suffix: alpha2
    args: -event_error_tol 1e-3
    test:
    test:
      nsize: 2

  # under simpvi, with a tight event tolerance: the events located to the scheme's accuracy; 1 process, then 2
  # against its final state (at the stop)
  test:
    suffix: simpson
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -ts_event_tol 1e-10 -event_error_tol 1e-7
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -compare final.bin
      output_file: output/events_simpson_2.out
  test:
    suffix: lobatto
    args: -dll_append ${SIMPVI_LIBRARY} -ts_type simpvi -ts_simpvi_type lobatto -ts_event_tol 1e-10 -event_error_tol 1e-9
    test:
      args: -write final.bin
    test:
      nsize: 2
      args: -compare final.bin
      output_file: output/events_lobatto_2.out

TEST*/
