static char help[] = "PETSc's second-order door with a mass or damping that changes along the motion, each against its exact\n"
                     "solution (u(0) = 1, u'(0) = 0, one unknown):\n"
                     "  mass     (1 + u^2) u'' + u = 0: not a Lagrangian system with constant mass, so TSSIMPVI must stop with an\n"
                     "           error that points to TSSimpVISetMass() rather than integrate a frozen M = 1 + u(0)^2 (the\n"
                     "           reference u(3) comes from PETSc's alpha2 with a fine step)\n"
                     "  mass_t   (1 + t^2/10) u'' + u = 0: a mass that depends on time, the same error\n"
                     "  damping  u'' + t u' + u = 0, damping that vanishes at t = 0: u = exp(-t^2/2). The damping is a force\n"
                     "           (Lagrange-d'Alembert) with its derivative dF/dV in the step Jacobian at every point: one linear\n"
                     "           solve per step (SNESKSPONLY) gives Newton's answer only if that Jacobian is exact\n"
                     "Options: -case mass|mass_t|damping -steps <300>\n\n";

#include <simpvi.h>

typedef enum {
  CASE_MASS,
  CASE_MASS_T,
  CASE_DAMPING
} Case;
static const char *const Cases[] = {"mass", "mass_t", "damping", "Case", "CASE_", NULL};

static PetscErrorCode Coefficients(Case c, PetscReal t, PetscScalar u, PetscScalar *m, PetscScalar *dm, PetscScalar *damp)
{
  PetscFunctionBeginUser;
  *m    = c == CASE_MASS ? 1 + u * u : c == CASE_MASS_T ? 1 + t * t / 10 : 1;
  *dm   = c == CASE_MASS ? 2 * u : 0; /* dm/du */
  *damp = c == CASE_DAMPING ? t : 0;
  PetscFunctionReturn(0);
}

/* F = m(t, u) a + damp(t) v + u */
static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  Case               c = *(Case *)ctx;
  const PetscScalar *u, *v, *a;
  PetscScalar       *f, m, dm, damp;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(V, &v));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayWrite(F, &f));
  PetscCall(Coefficients(c, t, u[0], &m, &dm, &damp));
  f[0] = m * a[0] + damp * v[0] + u[0];
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(V, &v));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  Case               c = *(Case *)ctx;
  const PetscScalar *u, *a;
  PetscScalar        m, dm, damp;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(Coefficients(c, t, u[0], &m, &dm, &damp));
  PetscCall(MatSetValue(P, 0, 0, dm * a[0] + 1 + shiftV * damp + shiftA * m, INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* u(T) from u(0) = 1, v(0) = 0 through the I2 interface: by TSSIMPVI (Simpson, Newton or one linear solve per step, the
   options read), or by TSALPHA2 (order 2) with a fine step as the reference where there is no closed form */
static PetscErrorCode Solve(Case c, TSType type, PetscReal T, PetscInt steps, PetscBool ksponly, PetscReal *uT)
{
  PetscBool          reference;
  TS                 ts;
  SNES               snes;
  Vec                U, V;
  Mat                J;
  const PetscScalar *u;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(type, TSALPHA2, &reference));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 1, 1, NULL, &J));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 1, &U));
  PetscCall(VecDuplicate(U, &V));
  PetscCall(VecSet(U, 1));
  PetscCall(VecSet(V, 0));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  if (reference) PetscCall(TSSetOptionsPrefix(ts, "ref_"));
  PetscCall(TSSetType(ts, type));
  PetscCall(TSSetI2Function(ts, NULL, I2Function, &c));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, &c));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, T / steps));
  PetscCall(TSSetMaxTime(ts, T));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  if (!reference) {
    PetscCall(TSSetFromOptions(ts));
    PetscCall(TSGetSNES(ts, &snes));
    if (ksponly) PetscCall(SNESSetType(snes, SNESKSPONLY));
  }
  PetscCall(TSSolve(ts, U));
  PetscCall(VecGetArrayRead(U, &u));
  *uT = PetscRealPart(u[0]);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscCall(MatDestroy(&J));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  Case      c     = CASE_MASS;
  PetscInt  steps = 300;
  PetscReal T     = 3, uref, uT, ulin;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-case", Cases, (PetscEnum *)&c, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  if (c == CASE_DAMPING) uref = PetscExpReal(-T * T / 2);
  else PetscCall(Solve(c, TSALPHA2, T, 20000, PETSC_FALSE, &uref));
  PetscCall(Solve(c, TSSIMPVI, T, steps, PETSC_FALSE, &uT));
  PetscCall(PetscInfo(NULL, "u(3) = %g, reference %g\n", (double)uT, (double)uref));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "u(3) matches the reference to 1e-6: %s\n", PetscAbsReal(uT - uref) < 1e-6 ? "yes" : "no"));
  if (c == CASE_DAMPING) { /* a linear problem: one linear solve per step must give Newton's answer */
    PetscCall(Solve(c, TSSIMPVI, T, steps, PETSC_TRUE, &ulin));
    PetscCall(PetscInfo(NULL, "u(3) with one linear solve per step %g, Newton %g\n", (double)ulin, (double)uT));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "one linear solve per step gives Newton's u(3) to 1e-12: %s\n", PetscAbsReal(ulin - uT) < 1e-12 ? "yes" : "no"));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  testset:
    args: -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep "PETSC ERROR" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"
    test:
      suffix: mass
      args: -case mass
    test:
      suffix: mass_t
      args: -case mass_t

  test:
    suffix: damping
    args: -case damping

TEST*/
