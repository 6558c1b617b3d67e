static char help[] = "The Lagrangian door's points path (P, G and their derivatives on arrays at every quadrature point of the small\n"
                     "dense step): the driven double pendulum, L = 1/2 v' M(q) v - V_g(q) - a sin(w t) q1 q2, through\n"
                     "TSSimpVISetLagrangian() and TSSimpVISetLagrangianHessian() with MATSEQDENSE Hessians (the points path) against\n"
                     "the same with an AIJ Lvv (the Vec path) and through TSSimpVISetPointwiseLagrangian(). Checks that the dense run\n"
                     "takes the points path (TSView) and the Vec run does not, that the end states agree to round-off, that the\n"
                     "points path takes the pointwise door's Newton iterations (a wrong derivative block would cost iterations) and\n"
                     "calls the Hessian once per point of a Jacobian, that a domain error set by L (SNESSetFunctionDomainError())\n"
                     "rejects and retries the step as on the Vec path, that a new Lagrangian set between two solves is used, and\n"
                     "that a Hessian written into the problem's matrices rather than its arguments gives the Vec path's answer.\n"
                     "The domain error's run has no pointwise door to compare with, and its Hessian calls are not the Vec path's (the\n"
                     "points path evaluates a Jacobian's terms with the residual that fails): \"-\".\n"
                     "  -steps <n>  steps of h = -h (default 100, 0.1)\n\n";

#include <simpvi.h>
#include "viewtext.h"
#include "drivendp.h"

typedef struct {
  PetscReal         u[4];
  PetscInt          its, rejections, hcalls;
  PetscBool         points;
  TSConvergedReason reason;
} Result;

/* steps of h from the start (pi/4, pi/3), momenta (1, -0.5); twice: a second solve with a heavier second mass */
static PetscErrorCode Run(Door door, const char scheme[], PetscInt degree, PetscReal h, PetscInt steps, PetscReal tfault, PetscBool twice, PetscBool writesproblem, Result *res)
{
  Ctx c = {
    .dp = {1, 1, 1, 1, 9.81},
      .a = 0.5, .w = 1.3, .tfault = tfault, .h = h, .writesproblem = writesproblem
  };
  TS           ts;
  Vec          U;
  PetscScalar *uu;
  static char  view[1 << 16];

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < 3; b++) {
    if (door == DOOR_VEC && b == 2) PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, &c.A[b]));
    else PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 2, 2, NULL, &c.A[b]));
    for (PetscInt i = 0; i < 2; i++)
      for (PetscInt j = 0; j < 2; j++) PetscCall(MatSetValue(c.A[b], i, j, 0, INSERT_VALUES)); /* the pattern: full */
    PetscCall(MatAssemblyBegin(c.A[b], MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(c.A[b], MAT_FINAL_ASSEMBLY));
  }
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetType(ts, TSSIMPVI));
  PetscCall(TSSimpVISetType(ts, scheme));
  if (degree) PetscCall(TSSimpVISetDegree(ts, degree));
  if (door == DOOR_POINTWISE) PetscCall(TSSimpVISetPointwiseLagrangian(ts, Model, &c));
  else {
    PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, &c));
    PetscCall(TSSimpVISetLagrangianHessian(ts, c.A[0], c.A[1], c.A[2], Hessian, &c));
  }
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4, &U));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e3));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetErrorIfStepFails(ts, PETSC_FALSE));
  PetscCall(TSSetMaxSNESFailures(ts, 10)); /* a failed step is retried shorter */
  PetscCall(TSSetFromOptions(ts));
  for (PetscInt solve = 0; solve < (twice ? 2 : 1); solve++) {
    if (solve) { /* a heavier second mass and a stronger drive: a new Lagrangian for the door */
      c.dp.m2 = 2;
      c.a     = 3;
      if (door == DOOR_POINTWISE) PetscCall(TSSimpVISetPointwiseLagrangian(ts, Model, &c));
      else PetscCall(TSSimpVISetLagrangian(ts, Lagrangian, &c));
      PetscCall(TSSetTime(ts, 0));
      PetscCall(TSSetStepNumber(ts, 0));
      PetscCall(TSSetTimeStep(ts, h));
    }
    PetscCall(VecGetArrayWrite(U, &uu));
    uu[0] = PETSC_PI / 4;
    uu[1] = PETSC_PI / 3;
    uu[2] = 1;
    uu[3] = -0.5;
    PetscCall(VecRestoreArrayWrite(U, &uu));
    PetscCall(TSSolve(ts, U));
  }
  PetscCall(TSGetConvergedReason(ts, &res->reason));
  PetscCall(TSGetSNESIterations(ts, &res->its));
  PetscCall(TSGetStepRejections(ts, &res->rejections));
  res->hcalls = c.hcalls;
  PetscCall(TSViewText(ts, "lagpoints", sizeof(view), view));
  res->points = (PetscBool)(strstr(view, "the Lagrangian door's P, G and their derivatives at every quadrature point") != NULL);
  PetscCall(VecGetArrayRead(U, (const PetscScalar **)&uu));
  for (PetscInt i = 0; i < 4; i++) res->u[i] = PetscRealPart(uu[i]);
  PetscCall(VecRestoreArrayRead(U, (const PetscScalar **)&uu));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&U));
  for (PetscInt b = 0; b < 3; b++) PetscCall(MatDestroy(&c.A[b]));
  PetscFunctionReturn(0);
}

/* the largest difference of two end states, relative to the larger entry */
static PetscReal Diff(const Result *a, const Result *b)
{
  PetscReal d = 0, s = 1;

  for (PetscInt i = 0; i < 4; i++) {
    d = PetscMax(d, PetscAbsReal(a->u[i] - b->u[i]));
    s = PetscMax(s, PetscAbsReal(a->u[i]));
  }
  return d / s;
}

int main(int argc, char **argv)
{
  const char *const schemes[] = {"simpson", "lobatto", "gauss"};
  const PetscInt    degrees[] = {0, 6, 3};
  PetscInt          steps     = 100;
  PetscReal         h = 0.1, tol = 1e-12;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-h", &h, NULL));
  for (PetscInt s = 0; s < 3; s++)
    for (PetscInt fault = 0; fault < 3; fault++) { /* plain, a domain error at t = 2.05, a second solve with another L */
      Result r[3];

      for (PetscInt d = DOOR_POINTS; d <= DOOR_POINTWISE; d++) PetscCall(Run((Door)d, schemes[s], degrees[s], h, steps, fault == 1 ? 2.05 : -1, (PetscBool)(fault == 2), PETSC_FALSE, &r[d]));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %" PetscInt_FMT "%s: %s %s, %s %s; end state the Vec path's and the pointwise door's: %s %s; Newton iterations the pointwise door's: %s; a Hessian call a point of a Jacobian, as on the Vec path: %s\n", schemes[s], degrees[s],
                            fault == 1   ? ", domain error"
                            : fault == 2 ? ", solved again with another L"
                                         : "",
                            Doors[DOOR_POINTS], r[DOOR_POINTS].points ? "taken" : "NOT TAKEN", Doors[DOOR_VEC], r[DOOR_VEC].points ? "TAKEN" : "not taken", Diff(&r[DOOR_POINTS], &r[DOOR_VEC]) <= tol ? "yes" : "no",
                            fault == 1                                         ? "-"
                            : Diff(&r[DOOR_POINTS], &r[DOOR_POINTWISE]) <= tol ? "yes"
                                                                               : "no",
                            fault == 1                                    ? "-"
                            : r[DOOR_POINTS].its == r[DOOR_POINTWISE].its ? "yes"
                                                                          : "no",
                            fault == 1                                                                 ? "-"
                            : r[DOOR_POINTS].hcalls > 0 && r[DOOR_POINTS].hcalls == r[DOOR_VEC].hcalls ? "yes"
                                                                                                       : "no"));
      if (fault == 1)
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  domain error: the step rejected and retried, as on the Vec path: %s; the run converged: %s\n", r[DOOR_POINTS].rejections > 0 && r[DOOR_POINTS].rejections == r[DOOR_VEC].rejections ? "yes" : "no",
                              r[DOOR_POINTS].reason > 0 && r[DOOR_POINTS].reason == r[DOOR_VEC].reason ? "yes" : "no"));
      PetscCall(PetscInfo(NULL, "end states differ by %g, %g; iterations %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT "; Hessian calls %" PetscInt_FMT " %" PetscInt_FMT "; rejections %" PetscInt_FMT " %" PetscInt_FMT "\n", (double)Diff(&r[DOOR_POINTS], &r[DOOR_VEC]), (double)Diff(&r[DOOR_POINTS], &r[DOOR_POINTWISE]),
                          r[0].its, r[1].its, r[2].its, r[0].hcalls, r[1].hcalls, r[0].rejections, r[1].rejections));
    }
  { /* a Hessian that writes the program's own matrices: the Vec path's answer */
    Result r[2];

    PetscCall(Run(DOOR_POINTS, "lobatto", 6, h, steps, -1, PETSC_TRUE, PETSC_TRUE, &r[0]));
    PetscCall(Run(DOOR_VEC, "lobatto", 6, h, steps, -1, PETSC_TRUE, PETSC_FALSE, &r[1]));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "a Hessian that writes the problem's matrices, not its arguments, solved twice: points path %s; end state the Vec path's: %s\n", r[0].points ? "taken" : "NOT TAKEN", Diff(&r[0], &r[1]) <= tol ? "yes" : "no"));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  test:
    args: -malloc_dump

TEST*/
