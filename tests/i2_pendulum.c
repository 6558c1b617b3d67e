static char help[] = "The nonlinear pendulum m u'' + m omega^2 sin u = 0 (omega = 2 pi, u(0) = pi/2, u'(0) = 0) as an unchanged\n"
                     "PETSc second-order program (TSSetI2Function()) run by TSSIMPVI, against its exact solution by Jacobi elliptic\n"
                     "functions (GSL). Prints the largest errors over all steps of the state u and the momentum p = m u' over\n"
                     "-periods periods at -steps steps per period, beside the Lobatto slides' (p. 35) values at 200 steps per period,\n"
                     "where the scheme's truncation is at round-off. The error is measured at the TS's own time t: the sum t += h\n"
                     "loses digits over many steps unless it is compensated, as the q and p updates are (on by default,\n"
                     "-ts_simpvi_compensated_summation 0 shows the uncompensated run: u 4.3e-13, p 1.8e-12).\n"
                     "Options: -periods <5> -steps <200> -tol <0.15>\n\n";

#include <simpvi.h>
#include <gsl/gsl_sf_elljac.h>
#include <gsl/gsl_sf_ellint.h>

typedef struct {
  PetscReal omega, mass, theta0, k, K, period, dt;
  PetscReal eq, ep;
} Pendulum;

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  Pendulum          *pen = (Pendulum *)ctx;
  const PetscScalar *u, *a;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayWrite(F, &f));
  f[0] = pen->mass * a[0] + pen->mass * pen->omega * pen->omega * PetscSinReal(u[0]);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  Pendulum          *pen = (Pendulum *)ctx;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(MatSetValue(P, 0, 0, shiftA * pen->mass + pen->mass * pen->omega * pen->omega * PetscCosReal(u[0]), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* sin(q/2) = k sn(K - omega t, k^2), p = -2 m omega k cn(K - omega t, k^2) */
static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  Pendulum          *pen = (Pendulum *)ctx;
  Vec                u, v;
  const PetscScalar *uu, *vv;
  double             sn, cn, dn;

  PetscFunctionBeginUser;
  gsl_sf_elljac_e(pen->K - pen->omega * t, pen->k * pen->k, &sn, &cn, &dn);
  PetscCall(TS2GetSolution(ts, &u, &v));
  PetscCall(VecGetArrayRead(u, &uu));
  PetscCall(VecGetArrayRead(v, &vv));
  pen->eq = PetscMax(pen->eq, PetscAbsReal(uu[0] - 2 * PetscAsinReal(pen->k * sn)));
  pen->ep = PetscMax(pen->ep, PetscAbsReal(pen->mass * vv[0] + 2 * pen->mass * pen->omega * pen->k * cn));
  PetscCall(VecRestoreArrayRead(u, &uu));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Pendulum  pen     = {2 * PETSC_PI, 1, PETSC_PI / 2, 0, 0, 0, 0, 0, 0};
  PetscReal periods = 5, tol = 0.15, slides_q = 1.057e-13, slides_p = 7.070e-13;
  PetscInt  steps = 200;
  TS        ts;
  Vec       u, v;
  Mat       J;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-periods", &periods, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  pen.k      = PetscSinReal(pen.theta0 / 2);
  pen.K      = gsl_sf_ellint_Kcomp(pen.k, GSL_PREC_DOUBLE);
  pen.period = 4 * pen.K / pen.omega;
  pen.dt     = pen.period / steps;

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, TSSIMPVILOBATTO));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 1, &u));
  PetscCall(VecDuplicate(u, &v));
  PetscCall(VecSet(u, pen.theta0));
  PetscCall(VecSet(v, 0));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &J));
  PetscCall(TSSetI2Function(ts, NULL, I2Function, &pen));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, &pen));
  PetscCall(TS2SetSolution(ts, u, v));
  PetscCall(TSSetTimeStep(ts, pen.dt));
  PetscCall(TSSetMaxSteps(ts, (PetscInt)(periods * steps + 0.5)));
  PetscCall(TSSetMaxTime(ts, 1e10));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSMonitorSet(ts, Monitor, &pen, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "pendulum through the I2 door, Lobatto, %g periods of %" PetscInt_FMT " steps: max error u %.2e, p %.2e (slides, N = %" PetscInt_FMT ": %.3e, %.3e)\n", (double)periods, steps, (double)pen.eq, (double)pen.ep, steps, (double)slides_q, (double)slides_p));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "within %g%% of the slides' state and momentum errors: %s\n", (double)(100 * tol), PetscAbsReal(pen.eq / slides_q - 1) <= tol && PetscAbsReal(pen.ep / slides_p - 1) <= tol ? "yes" : "no"));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscCall(MatDestroy(&J));
  PetscCall(TSDestroy(&ts));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    suffix: lobatto_5periods

TEST*/
