static char help[] = "The double pendulum's time-to-first-flip map as a SimpVIEnsemble (the study of examples/sweep.c through the\n"
                     "library's ensemble): m1 = m2 = l1 = l2 = 1, g = 9.81, released at rest from the centres of a grid of\n"
                     "[-pi, pi]^2, steps of -flip_dt sqrt(l/g) to -flip_tmax sqrt(l/g), a member stopped at its first flip (an angle past\n"
                     "pi) or, where energy forbids a flip (2 cos q1 + cos q2 > 1), after its first step. Prints one BENCH record (wall\n"
                     "time, steps, Newton iterations, the processes' busy share); -ensemble_view :file.csv:ascii_csv writes each\n"
                     "member's steps and Newton iterations, the per-member costs bench/ensemblemodel.py models the balance from.\n"
                     "Options: -grid <64> -flip_dt <0.1> -flip_tmax <1000> (and -ts_simpvi_type, -ensemble_batch, -ensemble_chunk)\n\n";

#include <simpvi.h>

static PetscErrorCode Member(SimpVIEnsemble ens, PetscInt i, PetscInt nparam, PetscReal param[], PetscInt n, PetscReal q[], PetscReal p[], void *ctx)
{
  const PetscInt grid = *(PetscInt *)ctx;

  PetscFunctionBeginUser;
  q[0] = param[0] = -PETSC_PI + (i / grid + 0.5) * 2 * PETSC_PI / grid;
  q[1] = param[1] = -PETSC_PI + (i % grid + 0.5) * 2 * PETSC_PI / grid;
  p[0] = p[1] = 0;
  PetscFunctionReturn(0);
}

/* L = v1^2 + 1/2 v2^2 + v1 v2 cos(q1 - q2) + 2 g cos q1 + g cos q2 */
static PetscErrorCode Mechanics(SimpVIEnsemble ens, PetscInt npoints, PetscInt n, const PetscInt member[], PetscInt nparam, const PetscReal param[], const PetscReal t[], const PetscReal x[], const PetscReal v[], PetscReal L[], PetscReal P[], PetscReal G[], PetscReal Px[], PetscReal Pv[], PetscReal Gx[], PetscReal Gv[], void *ctx)
{
  const PetscReal g = 9.81;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < npoints; k++) {
    const PetscReal q1 = x[2 * k], q2 = x[2 * k + 1], v1 = v[2 * k], v2 = v[2 * k + 1];
    const PetscReal s = PetscSinReal(q1 - q2), c = PetscCosReal(q1 - q2);

    if (L) L[k] = v1 * v1 + 0.5 * v2 * v2 + v1 * v2 * c + 2 * g * PetscCosReal(q1) + g * PetscCosReal(q2);
    if (P) {
      P[2 * k]     = 2 * v1 + c * v2;
      P[2 * k + 1] = v2 + c * v1;
      G[2 * k]     = -v1 * v2 * s - 2 * g * PetscSinReal(q1);
      G[2 * k + 1] = v1 * v2 * s - g * PetscSinReal(q2);
    }
    if (Px) {
      PetscReal *px = Px + 4 * k, *pv = Pv + 4 * k, *gx = Gx + 4 * k, *gv = Gv + 4 * k;

      px[0] = -v2 * s, px[1] = v2 * s, px[2] = -v1 * s, px[3] = v1 * s;
      pv[0] = 2, pv[1] = c, pv[2] = c, pv[3] = 1;
      gx[0] = -v1 * v2 * c - 2 * g * PetscCosReal(q1), gx[1] = v1 * v2 * c, gx[2] = v1 * v2 * c, gx[3] = -v1 * v2 * c - g * PetscCosReal(q2);
      gv[0] = px[0], gv[1] = px[2], gv[2] = px[1], gv[3] = px[3];
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Stop(SimpVIEnsemble ens, PetscInt member, PetscInt nparam, const PetscReal param[], PetscInt step, PetscReal t, PetscInt n, const PetscReal q[], const PetscReal p[], PetscBool *stop, void *ctx)
{
  PetscFunctionBeginUser;
  *stop = (PetscBool)(PetscAbsReal(q[0]) > PETSC_PI || PetscAbsReal(q[1]) > PETSC_PI || 2 * PetscCosReal(param[0]) + PetscCosReal(param[1]) > 1);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  TS                                ts;
  SimpVIEnsemble                    ens;
  PetscInt                          grid = 64, steps = 0, its = 0, flipped = 0;
  PetscReal                         dt = 0.1, tmax = 1000, scale = 1 / PetscSqrtReal(9.81);
  PetscLogDouble                    t0, t1;
  PetscMPIInt                       size;
  const PetscInt                   *st, *it;
  const SimpVIEnsembleMemberReason *reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-grid", &grid, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-flip_dt", &dt, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-flip_tmax", &tmax, NULL));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, TSSIMPVISIMPSON));
  PetscCall(TSSetTimeStep(ts, dt * scale));
  PetscCall(TSSetMaxTime(ts, tmax * scale));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_STEPOVER));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(SimpVIEnsembleCreate(PETSC_COMM_WORLD, &ens));
  PetscCall(SimpVIEnsembleSetTS(ens, ts));
  PetscCall(SimpVIEnsembleSetSize(ens, grid * grid));
  PetscCall(SimpVIEnsembleSetMemberFunction(ens, 2, 2, Member, &grid));
  PetscCall(SimpVIEnsembleSetPointwiseLagrangian(ens, Mechanics, NULL));
  PetscCall(SimpVIEnsembleSetStopFunction(ens, Stop, NULL));
  PetscCall(SimpVIEnsembleSetFromOptions(ens));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  PetscCall(PetscTime(&t0));
  PetscCall(SimpVIEnsembleSolve(ens));
  PetscCall(PetscTime(&t1));
  PetscCall(SimpVIEnsembleGetMemberInfo(ens, &reason, &st, &it, NULL));
  for (PetscInt i = 0; i < grid * grid; i++) {
    steps += st[i];
    its += it[i];
    if (reason[i] == SIMPVI_ENSEMBLE_CONVERGED_USER && st[i] > 1) flipped++;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "BENCH ranks=%d grid=%" PetscInt_FMT " wall=%.3f steps=%" PetscInt_FMT " newton_its=%" PetscInt_FMT " flipped=%" PetscInt_FMT " us_per_step_rank=%.3f\n", (int)size, grid, (double)(t1 - t0), steps, its, flipped, (double)(1e6 * (t1 - t0) * size / steps)));
  PetscCall(SimpVIEnsembleDestroy(&ens));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFinalize());
  return 0;
}
