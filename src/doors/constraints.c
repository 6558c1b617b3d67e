/*
   Holonomic constraints g(q) = 0 given by the user (TSSimpVISetConstraints()), and their place in the step's door: the
   step (src/core/constraints.c) calls them on arrays at the nodes. Milestone one of constraints: the pointwise door
   alone (one process, P and its derivatives on arrays, which the end momentum's projection needs), no forces.
*/
#include <simpvi/private/door.h> /*I "simpvi.h" I*/

/*@C
  TSSimpVISetConstraints - Gives a `TSSIMPVI` problem m holonomic constraints g(q) = 0, enforced at the nodes of every
  step with multipliers there (the Lobatto IIIA-IIIB (SPARK) form of Jay 1996, written as a discrete action)

  Logically Collective

  Input Parameters:
+ ts  - the `TS` context
. m   - the number of constraints (0 removes them)
. f   - computes g(q), G = dg/dq and sum_r lambda_r d2 g_r/dq2 on plain arrays; see `TSSimpVIConstraintFn`
- ctx - user context for f

  Notes:
  The multipliers are unknowns of the step beside the positions: the step solves for the positions at the nodes Q_1..Q_s
  and the multipliers lambda_0..lambda_{s-1} together, with the constraints at Q_1..Q_s; the end multiplier lambda_s
  puts the end momentum on the hidden constraint G(q1) v1 = 0 (v1 the velocity of p1). The state stays U = (q, p); the
  initial q should satisfy g(q) = 0 and p the hidden constraint: a start off them is taken onto them by the first step (q onto g = 0, the momentum normal to the manifold dropped; -info says so). `TSSimpVIGetConstraintMultipliers()` gives the last
  step's multipliers. See docs/mathematics.md, "Holonomic constraints".

  This array form needs the pointwise door (`TSSimpVISetPointwiseLagrangian()`) on one process, without
  `TSSimpVISetForce()`, and m smaller than the number of positions; the other doors, and more than one process, take
  the same constraints on `Vec`s and `Mat`s (`TSSimpVISetEqualityConstraintsRoutine()`). The step is solved as any other: `SNESSIMPVIDENSE`
  for small systems by default, else newtonls with an LU in the natural order (the multipliers' zero diagonal block
  last); `TSInterpolate()` solves a partial constrained step. `TSAdjointSolve()` and `TSForwardSetSensitivities()` give
  the exact gradients in the initial state (the step's tangent map with the multipliers and the end projection);
  parameter gradients with constraints and the phase-space form of other `TS` types do not take them yet (an error
  says so).

  Example (a mass on a rod of length 1 in the plane, q = (x, y)):
.vb
  static PetscErrorCode Rod(TS ts, PetscInt n, PetscInt m, const PetscReal q[], const PetscReal lambda[], PetscReal g[], PetscReal G[], PetscReal H[], void *ctx)
  {
    PetscFunctionBeginUser;
    if (g) g[0] = 0.5 * (q[0] * q[0] + q[1] * q[1] - 1);
    if (G) { G[0] = q[0]; G[1] = q[1]; }
    if (H) { H[0] = lambda[0]; H[1] = 0; H[2] = 0; H[3] = lambda[0]; }
    PetscFunctionReturn(0);
  }
  TSSimpVISetConstraints(ts, 1, Rod, NULL);
.ve
  (tests/constraints.c: the pendulum and double pendulum in Cartesian coordinates).

  Level: intermediate

.seealso: `TSSIMPVI`, `TSSimpVIConstraintFn`, `TSSimpVIGetConstraintMultipliers()`, `TSSimpVISetPointwiseLagrangian()`, `TSSimpVISetEqualityConstraintsRoutine()`
@*/
PetscErrorCode TSSimpVISetConstraints(TS ts, PetscInt m, TSSimpVIConstraintFn f, void *ctx)
{
  SimpVIProblem *prob;

  PetscFunctionBegin;
  SimpVIValidHeaderSpecific(ts, TS_CLASSID, 1);
  PetscCheck(m >= 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "The number of constraints must be nonnegative, not %" PetscInt_FMT, m);
  PetscCheck(!m || f, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_NULL, "%" PetscInt_FMT " constraints need a function", m);
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_TRUE, &prob));
  /* after the set-up (between two TSSolve()) the step's unknowns are laid out for the constraints it saw */
  PetscCheck(!prob->door || m == prob->user.ncon, PetscObjectComm((PetscObject)ts), PETSC_ERR_ORDER, "TSSimpVISetConstraints() after TSSetUp() changes the number of constraints from %" PetscInt_FMT " to %" PetscInt_FMT ": the step's unknowns were laid out for the first; give the constraints before TSSetUp() or the first TSSolve()",
             prob->user.ncon, m);
  prob->user.ncon   = m;
  prob->user.confn  = m ? f : NULL;
  prob->user.conctx = ctx;
  PetscFunctionReturn(0);
}

/* The user's constraints at one configuration, for the step (its door context is the TS) */
static PetscErrorCode StepConstraint(void *ctx, PetscInt n, PetscInt m, const PetscReal q[], const PetscReal lambda[], PetscReal g[], PetscReal G[], PetscReal H[])
{
  TS             ts = (TS)ctx;
  SimpVIProblem *prob;

  PetscFunctionBegin;
  PetscCall(SimpVIGetProblem_Private(ts, PETSC_FALSE, &prob));
  SimpVICallBack(ts, "TSSIMPVI constraints", prob->user.confn(ts, n, m, q, lambda, g, G, H, prob->user.conctx));
  PetscFunctionReturn(0);
}

/*
  SimpVIProblemStepConstraints_Private - the constraints in the step's door (none without TSSimpVISetConstraints()),
  checked against the door and the positions q
*/
PetscErrorCode SimpVIProblemStepConstraints_Private(TS ts, SimpVIProblem *prob, const SimpVIDoor *door, Vec q, SimpVIStepDoor *stepdoor)
{
  PetscInt n;

  PetscFunctionBegin;
  stepdoor->nmultiplier = 0;
  stepdoor->constraint  = NULL;
  stepdoor->vconstraint = NULL;
  if (prob->user.ceqfn) { /* the Vec/Mat form (src/doors/constraintsvec.c) */
    PetscCall(SimpVIProblemStepConstraintsVec_Private(ts, prob, door, q, stepdoor));
    PetscFunctionReturn(0);
  }
  if (!prob->user.confn) PetscFunctionReturn(0);
  PetscCheck(door == &SimpVIDoorPointwise, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSimpVISetConstraints() needs the pointwise door (TSSimpVISetPointwiseLagrangian()) for now, not the %s door", door->name);
  PetscCheck(!prob->user.forcefn, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "TSSimpVISetConstraints() does not take TSSimpVISetForce() yet: put the force in the pointwise Lagrangian's G");
  PetscCall(VecGetSize(q, &n));
  PetscCheck(prob->user.ncon < n, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " constraints on %" PetscInt_FMT " positions: give fewer constraints than positions", prob->user.ncon, n);
  stepdoor->nmultiplier = prob->user.ncon;
  stepdoor->constraint  = StepConstraint;
  PetscFunctionReturn(0);
}

/* SimpVIProblemViewConstraints_Private - the constraints' line of TSView() (none without them), for a scheme of degree s */
PetscErrorCode SimpVIProblemViewConstraints_Private(SimpVIProblem *prob, PetscInt s, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (prob->user.ceqfn) {
    PetscInt M;

    PetscCall(VecGetSize(prob->user.ceq, &M));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  Holonomic constraints on Vecs (TSSimpVISetEqualityConstraintsRoutine()): %" PetscInt_FMT ", enforced at the %" PetscInt_FMT " nodes of a step with multipliers there (Lobatto IIIA-IIIB/SPARK); %" PetscInt_FMT " x %" PetscInt_FMT " multipliers in the step system, the end momentum on the hidden constraint\n", M, s + 1, s, M));
  }
  if (!prob->user.confn) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  Holonomic constraints: %" PetscInt_FMT ", enforced at the %" PetscInt_FMT " nodes of a step with multipliers there (Lobatto IIIA-IIIB/SPARK); %" PetscInt_FMT " x %" PetscInt_FMT " multipliers in the step system, the end momentum on the hidden constraint\n",
                                   prob->user.ncon, s + 1, s, prob->user.ncon));
  PetscFunctionReturn(0);
}
