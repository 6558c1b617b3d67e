static char help[] = "Hostile input: the public API and options of TSSIMPVI under abuse. Every case must end in a named, collective\n"
                     "PETSc error (or, where PETSc's convention is a diverged reason, TSSolve() returning TS_DIVERGED_*): no crash,\n"
                     "no hang, no silent answer. The problem: Duffing oscillators q'' + k q + c q^3 = 0, two positions per process.\n"
                     "  -case <name>  run one case; its error ends the program as a user's would (see the list with -case list)\n"
                     "  -case all     run every case in this process, catching each error, and print how many were handled\n"
                     "  -skip a,b     leave these cases out of -case all\n\n";

#include <simpvi.h>
#include <petscdmshell.h>

/* ------------------------------------------------------------------ the problem, through any of four doors */

typedef enum {
  DOOR_MECHANICAL, /* constant mass, potential, optional damping force */
  DOOR_MASSFN,     /* M(x) = diag(1 + x_i^2) with its derivative terms */
  DOOR_LAGRANGIAN,
  DOOR_I2 /* TSSetI2Function(): a + k u + c u^3 = 0 */
} Door;

/* The callbacks a fault can be injected into */
typedef enum {
  CB_NONE,
  CB_POTENTIAL,
  CB_POTENTIAL_HESSIAN,
  CB_FORCE,
  CB_FORCE_JACOBIAN,
  CB_MASS,
  CB_LAGRANGIAN,
  CB_LAGRANGIAN_HESSIAN,
  CB_I2FUNCTION,
  CB_I2JACOBIAN
} Callback;

typedef enum {
  FAULT_NONE,
  FAULT_NAN,  /* a NaN in the callback's output */
  FAULT_ERROR /* the callback returns PETSC_ERR_USER, a bare code, after its collective work (assembly, reductions):
                 a callback that stops before a collective call of its own hangs the others, which no library can undo */
} Fault;

typedef struct {
  PetscReal   k, c, gamma; /* stiffness, cubic term, damping */
  Callback    cb;          /* fault injection: in this callback, from this step on, on this rank */
  Fault       fault;
  PetscInt    step;
  PetscMPIInt rank;
} AppCtx;

/* Whether the callback cb runs into the injected fault now */
static PetscBool Faulty(TS ts, AppCtx *user, Callback cb)
{
  PetscInt    step = 0;
  PetscMPIInt rank;

  if (user->cb != cb) return PETSC_FALSE;
  MPI_Comm_rank(PetscObjectComm((PetscObject)ts), &rank);
  TSGetStepNumber(ts, &step);
  return (PetscBool)(rank == user->rank && step >= user->step);
}

/* A NaN in the first local entry of a vector */
static PetscErrorCode PoisonVec(Vec x)
{
  PetscScalar *xx;

  PetscFunctionBeginUser;
  PetscCall(VecGetArray(x, &xx));
  xx[0] = NAN;
  PetscCall(VecRestoreArray(x, &xx));
  PetscFunctionReturn(0);
}

/* A diagonal matrix assembled from d(x_i) for the local rows */
static PetscErrorCode SetDiagonal(Mat A, Vec x, PetscReal (*d)(PetscReal, void *), void *ctx, PetscBool poison)
{
  const PetscScalar *xx;
  PetscInt           lo, hi;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArrayRead(x, &xx));
  for (PetscInt i = lo; i < hi; i++) PetscCall(MatSetValue(A, i, i, poison && i == lo ? NAN : d(PetscRealPart(xx[i - lo]), ctx), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscReal Curvature(PetscReal q, void *ctx)
{
  AppCtx *user = (AppCtx *)ctx;

  return user->k + 3 * user->c * q * q;
}

static PetscReal One(PetscReal q, void *ctx)
{
  return 1;
}

static PetscReal MassOf(PetscReal q, void *ctx)
{
  return 1 + q * q;
}

/* V = sum k q^2/2 + c q^4/4 and its gradient */
static PetscErrorCode Energy(AppCtx *user, Vec x, PetscReal *V, Vec g)
{
  const PetscScalar *xx;
  PetscScalar       *gg;
  PetscInt           n;
  PetscReal          Vloc = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayWrite(g, &gg));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal q = PetscRealPart(xx[i]);

    Vloc += user->k * q * q / 2 + user->c * q * q * q * q / 4;
    gg[i] = user->k * q + user->c * q * q * q;
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCallMPI(MPI_Allreduce(&Vloc, V, 1, MPIU_REAL, MPI_SUM, PetscObjectComm((PetscObject)x)));
  PetscFunctionReturn(0);
}

static PetscErrorCode Potential(TS ts, PetscReal t, Vec x, PetscReal *V, Vec g, void *ctx)
{
  AppCtx *user = (AppCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(Energy(user, x, V, g));
  if (Faulty(ts, user, CB_POTENTIAL) && user->fault == FAULT_NAN) PetscCall(PoisonVec(g));
  if (Faulty(ts, user, CB_POTENTIAL) && user->fault == FAULT_ERROR) PetscFunctionReturn(PETSC_ERR_USER);
  PetscFunctionReturn(0);
}

static PetscErrorCode PotentialHessian(TS ts, PetscReal t, Vec x, Mat H, void *ctx)
{
  AppCtx *user = (AppCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SetDiagonal(H, x, Curvature, user, Faulty(ts, user, CB_POTENTIAL_HESSIAN) && user->fault == FAULT_NAN));
  if (Faulty(ts, user, CB_POTENTIAL_HESSIAN) && user->fault == FAULT_ERROR) PetscFunctionReturn(PETSC_ERR_USER);
  PetscFunctionReturn(0);
}

/* Damping f = -gamma v, df/dv = -gamma I */
static PetscErrorCode Force(TS ts, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  AppCtx *user = (AppCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(VecAXPBY(f, -user->gamma, 0, v));
  if (Faulty(ts, user, CB_FORCE) && user->fault == FAULT_NAN) PetscCall(PoisonVec(f));
  if (Faulty(ts, user, CB_FORCE) && user->fault == FAULT_ERROR) PetscFunctionReturn(PETSC_ERR_USER);
  PetscFunctionReturn(0);
}

static PetscReal MinusGamma(PetscReal q, void *ctx)
{
  return -((AppCtx *)ctx)->gamma;
}

static PetscErrorCode ForceJacobian(TS ts, PetscReal t, Vec x, Vec v, Mat Fx, Mat Fv, void *ctx)
{
  AppCtx *user = (AppCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SetDiagonal(Fv, x, MinusGamma, user, Faulty(ts, user, CB_FORCE_JACOBIAN) && user->fault == FAULT_NAN));
  if (Faulty(ts, user, CB_FORCE_JACOBIAN) && user->fault == FAULT_ERROR) PetscFunctionReturn(PETSC_ERR_USER);
  PetscFunctionReturn(0);
}

/* M(x) = diag(1 + x_i^2): Mx = diag(2 x_i v_i), g_i = x_i v_i^2, Mxx = diag(v_i^2) */
static PetscErrorCode Mass(TS ts, Vec x, Vec v, Mat M, Mat Mx, Vec g, Mat Mxx, void *ctx)
{
  AppCtx            *user = (AppCtx *)ctx;
  const PetscScalar *xx, *vv;
  PetscScalar       *gg;
  PetscInt           lo, hi;

  PetscFunctionBeginUser;
  PetscCall(SetDiagonal(M, x, MassOf, NULL, Faulty(ts, user, CB_MASS) && user->fault == FAULT_NAN));
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArrayRead(x, &xx));
  PetscCall(VecGetArrayRead(v, &vv));
  PetscCall(VecGetArrayWrite(g, &gg));
  for (PetscInt i = lo; i < hi; i++) {
    PetscScalar xi = xx[i - lo], vi = vv[i - lo];

    PetscCall(MatSetValue(Mx, i, i, 2 * xi * vi, INSERT_VALUES));
    PetscCall(MatSetValue(Mxx, i, i, vi * vi, INSERT_VALUES));
    gg[i - lo] = xi * vi * vi;
  }
  PetscCall(VecRestoreArrayRead(x, &xx));
  PetscCall(VecRestoreArrayRead(v, &vv));
  PetscCall(VecRestoreArrayWrite(g, &gg));
  PetscCall(MatAssemblyBegin(Mx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Mx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(Mxx, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Mxx, MAT_FINAL_ASSEMBLY));
  if (Faulty(ts, user, CB_MASS) && user->fault == FAULT_ERROR) PetscFunctionReturn(PETSC_ERR_USER);
  PetscFunctionReturn(0);
}

/* L = |v|^2/2 - V(x) */
static PetscErrorCode Lagrangian(TS ts, PetscReal t, Vec x, Vec v, PetscReal *L, Vec Lx, Vec Lv, void *ctx)
{
  AppCtx     *user = (AppCtx *)ctx;
  PetscReal   V;
  PetscScalar vv;

  PetscFunctionBeginUser;
  PetscCall(Energy(user, x, &V, Lx));
  PetscCall(VecScale(Lx, -1));
  PetscCall(VecCopy(v, Lv));
  PetscCall(VecDot(v, v, &vv));
  *L = PetscRealPart(vv) / 2 - V;
  if (Faulty(ts, user, CB_LAGRANGIAN) && user->fault == FAULT_NAN) PetscCall(PoisonVec(Lx));
  if (Faulty(ts, user, CB_LAGRANGIAN) && user->fault == FAULT_ERROR) PetscFunctionReturn(PETSC_ERR_USER);
  PetscFunctionReturn(0);
}

static PetscReal MinusCurvature(PetscReal q, void *ctx)
{
  return -Curvature(q, ctx);
}

static PetscErrorCode LagrangianHessian(TS ts, PetscReal t, Vec x, Vec v, Mat Lxx, Mat Lvx, Mat Lvv, void *ctx)
{
  AppCtx *user = (AppCtx *)ctx;

  PetscFunctionBeginUser;
  PetscCall(SetDiagonal(Lxx, x, MinusCurvature, user, Faulty(ts, user, CB_LAGRANGIAN_HESSIAN) && user->fault == FAULT_NAN));
  PetscCall(SetDiagonal(Lvv, x, One, NULL, PETSC_FALSE));
  if (Faulty(ts, user, CB_LAGRANGIAN_HESSIAN) && user->fault == FAULT_ERROR) PetscFunctionReturn(PETSC_ERR_USER);
  PetscFunctionReturn(0);
}

/* F = a + k u + c u^3 */
static PetscErrorCode I2Function(TS ts, PetscReal t, Vec u, Vec v, Vec a, Vec F, void *ctx)
{
  AppCtx   *user = (AppCtx *)ctx;
  PetscReal V;

  PetscFunctionBeginUser;
  PetscCall(Energy(user, u, &V, F));
  PetscCall(VecAXPY(F, 1, a));
  if (Faulty(ts, user, CB_I2FUNCTION) && user->fault == FAULT_NAN) PetscCall(PoisonVec(F));
  if (Faulty(ts, user, CB_I2FUNCTION) && user->fault == FAULT_ERROR) PetscFunctionReturn(PETSC_ERR_USER);
  PetscFunctionReturn(0);
}

typedef struct {
  AppCtx   *user;
  PetscReal shiftA;
} ShiftCtx;

static PetscReal ShiftedCurvature(PetscReal q, void *ctx)
{
  ShiftCtx *s = (ShiftCtx *)ctx;

  return s->shiftA + Curvature(q, s->user);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec u, Vec v, Vec a, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  AppCtx  *user = (AppCtx *)ctx;
  ShiftCtx s    = {user, shiftA};

  PetscFunctionBeginUser;
  PetscCall(SetDiagonal(P, u, ShiftedCurvature, &s, Faulty(ts, user, CB_I2JACOBIAN) && user->fault == FAULT_NAN));
  if (Faulty(ts, user, CB_I2JACOBIAN) && user->fault == FAULT_ERROR) PetscFunctionReturn(PETSC_ERR_USER);
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------ the cases */

typedef enum {
  ABUSE_NONE,
  ABUSE_NULL_TS,            /* TSSimpVISetType(NULL, ...) */
  ABUSE_DM_AS_TS,           /* TSSimpVISetDegree((TS)dm, ...) */
  ABUSE_VEC_AS_MAT,         /* TSSimpVISetMass(ts, (Mat)vec, ...) */
  ABUSE_NULL_MASS,          /* TSSimpVISetMass(ts, NULL, ...) */
  ABUSE_NULL_ENERGY,        /* TSSimpVIComputeEnergy(ts, t, U, NULL) */
  ABUSE_ENERGY_NO_SOLUTION, /* TSSimpVIComputeEnergy() before TSSetSolution() */
  ABUSE_ENERGY_SIZE,        /* TSSimpVIComputeEnergy() on a Vec of another size */
  ABUSE_MASS_SIZE,          /* a mass matrix with one row too many */
  ABUSE_HESSIAN_SIZE,       /* a potential Hessian with one row too few */
  ABUSE_LAGHESSIAN_SIZE,    /* a Lagrangian Hessian block of the wrong size */
  ABUSE_MASS_SPLIT,         /* the right global size, rows split over the processes unlike the positions */
  ABUSE_MASS_SINGULAR,      /* a mass matrix with a zero on its diagonal (the first position's) */
  ABUSE_ENERGY_OTHER,       /* TSSimpVIComputeEnergy() on an rk TS without TSSimpVISetUpPhaseSpace() */
  ABUSE_MONITOR_OTHER,      /* TSSimpVIMonitorEnergy() on an rk TS */
  ABUSE_PHASESPACE_OTHER,   /* TSSimpVIGetPhaseSpaceIS() on an rk TS */
  ABUSE_TABLEAU_OTHER,      /* TSSimpVIGetTableau() on an rk TS */
  ABUSE_MASSFN_NOMX,        /* a mass callback without the matrices Mx, Mxx */
  ABUSE_SPLIT_UNNAMED       /* U = (q, p) on several processes without TSRHSSplitSetIS() */
} Abuse;

typedef struct {
  const char    *name;
  Door           door;
  Abuse          abuse;
  const char    *options; /* inserted before TSSetFromOptions(), removed after the case */
  Callback       cb;      /* fault injection (on the last rank, from step 3 on) */
  Fault          fault;
  PetscErrorCode expect; /* the error class, or 0 for a TS_DIVERGED_* reason */
  const char    *needs;  /* "kinsol", "!kinsol", "parallel" or NULL */
  PetscBool      alone;  /* run only as a program of its own: an error inside TSSetFromOptions() leaves PETSc's
                            options state allocated (-malloc_dump would report it), so -case all leaves it out */
  PetscReal      dt;     /* the time step, set in code */
} Case;

/* clang-format off */
/* the cases whose fault is in a Jacobian callback: a new Jacobian at every Newton iteration, as before simplified Newton */
#define JACOBIAN_EVERY_ITERATION "-ts_simpvi_lag_jacobian false"

static const Case cases[] = {
  /* objects: NULL and wrong types */
  {"null_ts",            DOOR_MECHANICAL, ABUSE_NULL_TS,          NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_NULL,  NULL, PETSC_FALSE, 0.1},
  {"dm_as_ts",           DOOR_MECHANICAL, ABUSE_DM_AS_TS,         NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_WRONG, NULL, PETSC_FALSE, 0.1},
  {"vec_as_mat",         DOOR_MECHANICAL, ABUSE_VEC_AS_MAT,       NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_WRONG, NULL, PETSC_FALSE, 0.1},
  {"null_mass",          DOOR_MECHANICAL, ABUSE_NULL_MASS,        NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_NULL,  NULL, PETSC_FALSE, 0.1},
  {"null_energy",        DOOR_MECHANICAL, ABUSE_NULL_ENERGY,      NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_NULL,  NULL, PETSC_FALSE, 0.1},
  {"energy_no_solution", DOOR_MECHANICAL, ABUSE_ENERGY_NO_SOLUTION, NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ORDER, NULL, PETSC_FALSE, 0.1},
  {"massfn_without_mx",  DOOR_MASSFN,     ABUSE_MASSFN_NOMX,      NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_NULL,  NULL, PETSC_FALSE, 0.1},
  {"energy_other_type",  DOOR_MECHANICAL, ABUSE_ENERGY_OTHER,     NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_WRONGSTATE, NULL, PETSC_FALSE, 0.1},
  {"monitor_other_type", DOOR_MECHANICAL, ABUSE_MONITOR_OTHER,    NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_WRONGSTATE, NULL, PETSC_FALSE, 0.1},
  {"phasespace_other_type", DOOR_MECHANICAL, ABUSE_PHASESPACE_OTHER, NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_WRONGSTATE, NULL, PETSC_FALSE, 0.1},
  {"tableau_other_type", DOOR_MECHANICAL, ABUSE_TABLEAU_OTHER,    NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_WRONG, NULL, PETSC_FALSE, 0.1},
  /* sizes */
  {"energy_size",        DOOR_MECHANICAL, ABUSE_ENERGY_SIZE,      NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_SIZ, NULL, PETSC_FALSE, 0.1},
  {"mass_size",          DOOR_MECHANICAL, ABUSE_MASS_SIZE,        NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_SIZ, NULL, PETSC_FALSE, 0.1},
  {"hessian_size",       DOOR_MECHANICAL, ABUSE_HESSIAN_SIZE,     NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_SIZ, NULL, PETSC_FALSE, 0.1},
  {"lagrangian_hessian_size", DOOR_LAGRANGIAN, ABUSE_LAGHESSIAN_SIZE, NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_SIZ, NULL, PETSC_FALSE, 0.1},
  {"mass_split",         DOOR_MECHANICAL, ABUSE_MASS_SPLIT,       NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_SIZ, "parallel", PETSC_FALSE, 0.1},
  {"split_unnamed",      DOOR_MECHANICAL, ABUSE_SPLIT_UNNAMED,    NULL, CB_NONE, FAULT_NONE, PETSC_ERR_ARG_WRONGSTATE, "parallel", PETSC_FALSE, 0.1},
  {"mass_singular",      DOOR_MECHANICAL, ABUSE_MASS_SINGULAR,    NULL, CB_NONE, FAULT_NONE, PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 0.1},
  /* time steps */
  {"dt_zero",            DOOR_MECHANICAL, ABUSE_NONE, NULL,      CB_NONE, FAULT_NONE, PETSC_ERR_ARG_OUTOFRANGE, NULL, PETSC_FALSE, 0},
  {"dt_negative",        DOOR_MECHANICAL, ABUSE_NONE, NULL,   CB_NONE, FAULT_NONE, PETSC_ERR_ARG_OUTOFRANGE, NULL, PETSC_FALSE, -0.1},
  {"dt_nan",             DOOR_MECHANICAL, ABUSE_NONE, NULL,    CB_NONE, FAULT_NONE, PETSC_ERR_ARG_OUTOFRANGE, NULL, PETSC_FALSE, NAN},
  {"dt_inf",             DOOR_MECHANICAL, ABUSE_NONE, NULL,    CB_NONE, FAULT_NONE, PETSC_ERR_ARG_OUTOFRANGE, NULL, PETSC_FALSE, INFINITY},
  {"dt_huge",            DOOR_MECHANICAL, ABUSE_NONE, NULL,  CB_NONE, FAULT_NONE, PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 1e300},
  {"dt_tiny",            DOOR_MECHANICAL, ABUSE_NONE, NULL, CB_NONE, FAULT_NONE, PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 1e-300},
  /* degrees, schemes and solver options */
  {"degree_zero",        DOOR_MECHANICAL, ABUSE_NONE, "-ts_simpvi_type lobatto -ts_simpvi_degree 0",       CB_NONE, FAULT_NONE, PETSC_ERR_ARG_OUTOFRANGE, NULL, PETSC_TRUE, 0.1},
  {"degree_negative",    DOOR_MECHANICAL, ABUSE_NONE, "-ts_simpvi_type gauss -ts_simpvi_degree -1",        CB_NONE, FAULT_NONE, PETSC_ERR_ARG_OUTOFRANGE, NULL, PETSC_TRUE, 0.1},
  {"degree_huge",        DOOR_MECHANICAL, ABUSE_NONE, "-ts_simpvi_type lobatto -ts_simpvi_degree 1000000", CB_NONE, FAULT_NONE, PETSC_ERR_ARG_OUTOFRANGE, NULL, PETSC_TRUE, 0.1},
  {"degree_fixed",       DOOR_MECHANICAL, ABUSE_NONE, "-ts_simpvi_type trapezoid -ts_simpvi_degree 2",     CB_NONE, FAULT_NONE, PETSC_ERR_ARG_INCOMP, NULL, PETSC_TRUE, 0.1},
  {"scheme_unknown",     DOOR_MECHANICAL, ABUSE_NONE, "-ts_simpvi_type simpsons",                          CB_NONE, FAULT_NONE, PETSC_ERR_ARG_UNKNOWN_TYPE, NULL, PETSC_TRUE, 0.1},
  {"solver_unknown",     DOOR_MECHANICAL, ABUSE_NONE, "-ts_simpvi_nonlinear_solver newton",                CB_NONE, FAULT_NONE, PETSC_ERR_USER, NULL, PETSC_TRUE, 0.1},
  {"direct_limit",       DOOR_MECHANICAL, ABUSE_NONE, "-ts_simpvi_direct_limit -1",                        CB_NONE, FAULT_NONE, PETSC_ERR_ARG_OUTOFRANGE, NULL, PETSC_TRUE, 0.1},
  {"newton_rtol",        DOOR_MECHANICAL, ABUSE_NONE, "-ts_simpvi_newton_rtol 2",                          CB_NONE, FAULT_NONE, PETSC_ERR_ARG_OUTOFRANGE, NULL, PETSC_TRUE, 0.1},
  {"small_limit",        DOOR_MECHANICAL, ABUSE_NONE, "-ts_simpvi_small_limit -1",                         CB_NONE, FAULT_NONE, PETSC_ERR_ARG_OUTOFRANGE, NULL, PETSC_TRUE, 0.1},
  {"mat_sbaij",          DOOR_MECHANICAL, ABUSE_NONE, "-ts_simpvi_mat_type sbaij",                         CB_NONE, FAULT_NONE, PETSC_ERR_SUP, NULL, PETSC_TRUE, 0.1},
  {"adapt",              DOOR_MECHANICAL, ABUSE_NONE, "-ts_adapt_type basic",                              CB_NONE, FAULT_NONE, PETSC_ERR_SUP, NULL, PETSC_FALSE, 0.1},
  {"kinsol_missing",     DOOR_MECHANICAL, ABUSE_NONE, "-ts_simpvi_nonlinear_solver kinsol",                CB_NONE, FAULT_NONE, PETSC_ERR_SUP, "!kinsol", PETSC_TRUE, 0.1},
  {"kinsol_missing_snes", DOOR_MECHANICAL, ABUSE_NONE, "-snes_type kinsol",                                 CB_NONE, FAULT_NONE, PETSC_ERR_ARG_UNKNOWN_TYPE, "!kinsol", PETSC_TRUE, 0.1},
  {"kinsol_fnormtol",    DOOR_MECHANICAL, ABUSE_NONE, "-snes_type kinsol -snes_kinsol_fnormtol 1e300", CB_NONE, FAULT_NONE, PETSC_ERR_ARG_OUTOFRANGE, "kinsol", PETSC_TRUE, 0.1},
  /* callbacks: NaN or an error code on one rank, from step 3 on */
  {"nan_potential",          DOOR_MECHANICAL, ABUSE_NONE, NULL, CB_POTENTIAL,          FAULT_NAN,   PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 0.1},
  {"error_potential",        DOOR_MECHANICAL, ABUSE_NONE, NULL, CB_POTENTIAL,          FAULT_ERROR, PETSC_ERR_USER, NULL, PETSC_FALSE, 0.1},
  /* a Jacobian callback's fault from step 3 on: simplified Newton (the default) would make no Jacobian there */
  {"nan_potential_hessian",  DOOR_MECHANICAL, ABUSE_NONE, JACOBIAN_EVERY_ITERATION, CB_POTENTIAL_HESSIAN,  FAULT_NAN,   PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 0.1},
  {"error_potential_hessian",DOOR_MECHANICAL, ABUSE_NONE, JACOBIAN_EVERY_ITERATION, CB_POTENTIAL_HESSIAN,  FAULT_ERROR, PETSC_ERR_USER, NULL, PETSC_FALSE, 0.1},
  {"nan_force",              DOOR_MECHANICAL, ABUSE_NONE, NULL, CB_FORCE,              FAULT_NAN,   PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 0.1},
  {"error_force",            DOOR_MECHANICAL, ABUSE_NONE, NULL, CB_FORCE,              FAULT_ERROR, PETSC_ERR_USER, NULL, PETSC_FALSE, 0.1},
  {"nan_force_jacobian",     DOOR_MECHANICAL, ABUSE_NONE, JACOBIAN_EVERY_ITERATION, CB_FORCE_JACOBIAN,     FAULT_NAN,   PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 0.1},
  {"error_force_jacobian",   DOOR_MECHANICAL, ABUSE_NONE, JACOBIAN_EVERY_ITERATION, CB_FORCE_JACOBIAN,     FAULT_ERROR, PETSC_ERR_USER, NULL, PETSC_FALSE, 0.1},
  {"nan_mass",               DOOR_MASSFN,     ABUSE_NONE, NULL, CB_MASS,               FAULT_NAN,   PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 0.1},
  {"error_mass",             DOOR_MASSFN,     ABUSE_NONE, NULL, CB_MASS,               FAULT_ERROR, PETSC_ERR_USER, NULL, PETSC_FALSE, 0.1},
  {"nan_lagrangian",         DOOR_LAGRANGIAN, ABUSE_NONE, NULL, CB_LAGRANGIAN,         FAULT_NAN,   PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 0.1},
  {"error_lagrangian",       DOOR_LAGRANGIAN, ABUSE_NONE, NULL, CB_LAGRANGIAN,         FAULT_ERROR, PETSC_ERR_USER, NULL, PETSC_FALSE, 0.1},
  {"nan_lagrangian_hessian", DOOR_LAGRANGIAN, ABUSE_NONE, JACOBIAN_EVERY_ITERATION, CB_LAGRANGIAN_HESSIAN, FAULT_NAN,   PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 0.1},
  {"error_lagrangian_hessian",DOOR_LAGRANGIAN,ABUSE_NONE, JACOBIAN_EVERY_ITERATION, CB_LAGRANGIAN_HESSIAN, FAULT_ERROR, PETSC_ERR_USER, NULL, PETSC_FALSE, 0.1},
  {"nan_i2function",         DOOR_I2,         ABUSE_NONE, NULL, CB_I2FUNCTION,         FAULT_NAN,   PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 0.1},
  {"error_i2function",       DOOR_I2,         ABUSE_NONE, NULL, CB_I2FUNCTION,         FAULT_ERROR, PETSC_ERR_USER, NULL, PETSC_FALSE, 0.1},
  {"nan_i2jacobian",         DOOR_I2,         ABUSE_NONE, JACOBIAN_EVERY_ITERATION, CB_I2JACOBIAN,         FAULT_NAN,   PETSC_ERR_NOT_CONVERGED, NULL, PETSC_FALSE, 0.1},
  {"error_i2jacobian",       DOOR_I2,         ABUSE_NONE, JACOBIAN_EVERY_ITERATION, CB_I2JACOBIAN,         FAULT_ERROR, PETSC_ERR_USER, NULL, PETSC_FALSE, 0.1},
  {"nan_kinsol",             DOOR_MECHANICAL, ABUSE_NONE, "-snes_type kinsol", CB_POTENTIAL, FAULT_NAN,   PETSC_ERR_NOT_CONVERGED, "kinsol", PETSC_FALSE, 0.1},
  {"error_kinsol",           DOOR_MECHANICAL, ABUSE_NONE, "-snes_type kinsol", CB_POTENTIAL, FAULT_ERROR, PETSC_ERR_USER, "kinsol", PETSC_FALSE, 0.1},
  /* PETSc's convention for a failed step without -ts_error_if_step_fails: TSSolve() returns, the reason says why */
  {"nan_reason",             DOOR_MECHANICAL, ABUSE_NONE, "-ts_error_if_step_fails 0", CB_POTENTIAL, FAULT_NAN, 0, NULL, PETSC_FALSE, 0.1},
  {"error_reason",           DOOR_MECHANICAL, ABUSE_NONE, "-ts_error_if_step_fails 0", CB_POTENTIAL, FAULT_ERROR, PETSC_ERR_USER, NULL, PETSC_FALSE, 0.1},
};
/* clang-format on */
static const PetscInt ncases = (PetscInt)(sizeof(cases) / sizeof(cases[0]));

/* The objects of a case, destroyed whatever happened */
typedef struct {
  TS  ts;
  DM  dm;
  Vec U, u, v, W;
  Mat M, Mx, Mxx, H, Lvv, Fv, J;
  IS  isq, isp;
} Objects;

static PetscErrorCode ObjectsDestroy(Objects *o)
{
  PetscFunctionBeginUser;
  PetscCall(TSDestroy(&o->ts));
  PetscCall(DMDestroy(&o->dm));
  PetscCall(VecDestroy(&o->U));
  PetscCall(VecDestroy(&o->u));
  PetscCall(VecDestroy(&o->v));
  PetscCall(VecDestroy(&o->W));
  PetscCall(MatDestroy(&o->M));
  PetscCall(MatDestroy(&o->Mx));
  PetscCall(MatDestroy(&o->Mxx));
  PetscCall(MatDestroy(&o->H));
  PetscCall(MatDestroy(&o->Lvv));
  PetscCall(MatDestroy(&o->Fv));
  PetscCall(MatDestroy(&o->J));
  PetscCall(ISDestroy(&o->isq));
  PetscCall(ISDestroy(&o->isp));
  PetscFunctionReturn(0);
}

/* An n x n diagonal AIJ matrix with nloc local rows, assembled with d on the diagonal */
static PetscErrorCode DiagonalMat(PetscInt nloc, PetscInt n, PetscReal d, Mat *A)
{
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, nloc, nloc, n, n, 1, NULL, 0, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(MatSetValue(*A, i, i, d, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* Inserts or removes the case's options */
static PetscErrorCode CaseOptions(const Case *c, PetscBool insert)
{
  char **argv;
  int    argc;

  PetscFunctionBeginUser;
  if (!c->options) PetscFunctionReturn(0);
  if (insert) {
    PetscCall(PetscOptionsInsertString(NULL, c->options));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrToArray(c->options, ' ', &argc, &argv));
  for (int i = 0; i < argc; i++)
    if (argv[i][0] == '-' && !(argv[i][1] >= '0' && argv[i][1] <= '9')) PetscCall(PetscOptionsClearValue(NULL, argv[i]));
  PetscCall(PetscStrToArrayDestroy(argc, argv));
  PetscFunctionReturn(0);
}

/* Builds and runs a case; its error, if any, is returned. Two positions per process. */
static PetscErrorCode RunCase(const Case *c, AppCtx *user, Objects *o, TSConvergedReason *reason)
{
  const PetscInt nloc = 2;
  PetscInt       n, lo;
  PetscMPIInt    size, rank;
  PetscScalar   *u;
  PetscReal      H;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  n           = nloc * size;
  user->cb    = c->cb;
  user->fault = c->fault;
  user->step  = 3;
  user->rank  = size - 1; /* the last rank: only rank 0 prints, so an error that stays on this rank shows as a
                             missing message and a hang */
  user->gamma = c->cb == CB_FORCE || c->cb == CB_FORCE_JACOBIAN ? 0.1 : 0;

  PetscCall(TSCreate(PETSC_COMM_WORLD, &o->ts));
  PetscCall(TSSetType(o->ts, TSSIMPVI));
  /* the state: U = (q, p) with [q_local | p_local] on each process, named; the I2 door carries u and v */
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 2 * nloc, 2 * n, &o->U));
  PetscCall(VecGetOwnershipRange(o->U, &lo, NULL));
  PetscCall(ISCreateStride(PETSC_COMM_WORLD, nloc, lo, 1, &o->isq));
  PetscCall(ISCreateStride(PETSC_COMM_WORLD, nloc, lo + nloc, 1, &o->isp));
  PetscCall(VecGetArrayWrite(o->U, &u));
  for (PetscInt i = 0; i < nloc; i++) {
    u[i]        = 1.0 - 0.25 * i - 0.1 * rank; /* q */
    u[nloc + i] = 0.3 * i;                     /* p */
  }
  PetscCall(VecRestoreArrayWrite(o->U, &u));

  switch (c->door) {
  case DOOR_MECHANICAL:
  case DOOR_MASSFN:
    if (c->abuse == ABUSE_MASS_SIZE) PetscCall(DiagonalMat(PETSC_DECIDE, n + 1, 1, &o->M));
    else if (c->abuse == ABUSE_MASS_SPLIT) PetscCall(DiagonalMat(size == 1 ? nloc : rank == 0 && size > 2 ? nloc : rank == 0 ? nloc - 1 : rank == size - 1 ? nloc + 1 : rank == 1 ? nloc - 1 : nloc, n, 1, &o->M));
    else PetscCall(DiagonalMat(nloc, n, 1, &o->M));
    if (c->abuse == ABUSE_MASS_SINGULAR) {
      if (!rank) PetscCall(MatSetValue(o->M, 0, 0, 0, INSERT_VALUES));
      PetscCall(MatAssemblyBegin(o->M, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(o->M, MAT_FINAL_ASSEMBLY));
    }
    PetscCall(c->abuse == ABUSE_HESSIAN_SIZE ? DiagonalMat(PETSC_DECIDE, n - 1, 1, &o->H) : DiagonalMat(nloc, n, 1, &o->H));
    if (c->door == DOOR_MASSFN) {
      PetscCall(DiagonalMat(nloc, n, 0, &o->Mx));
      PetscCall(DiagonalMat(nloc, n, 0, &o->Mxx));
    }
    switch (c->abuse) {
    case ABUSE_VEC_AS_MAT:
      PetscCall(TSSimpVISetMass(o->ts, (Mat)o->U, NULL, NULL, NULL, NULL));
      break;
    case ABUSE_NULL_MASS:
      PetscCall(TSSimpVISetMass(o->ts, NULL, NULL, NULL, NULL, NULL));
      break;
    case ABUSE_MASSFN_NOMX:
      PetscCall(TSSimpVISetMass(o->ts, o->M, NULL, NULL, Mass, user));
      break;
    default:
      PetscCall(TSSimpVISetMass(o->ts, o->M, o->Mx, o->Mxx, c->door == DOOR_MASSFN ? Mass : NULL, user));
    }
    PetscCall(TSSimpVISetPotential(o->ts, o->H, Potential, PotentialHessian, user));
    if (user->gamma > 0) {
      PetscCall(DiagonalMat(nloc, n, -user->gamma, &o->Fv));
      PetscCall(TSSimpVISetForce(o->ts, NULL, o->Fv, Force, ForceJacobian, user));
    }
    break;
  case DOOR_LAGRANGIAN:
    PetscCall(DiagonalMat(nloc, n, 1, &o->H));
    PetscCall(c->abuse == ABUSE_LAGHESSIAN_SIZE ? DiagonalMat(PETSC_DECIDE, n + 2, 1, &o->Lvv) : DiagonalMat(nloc, n, 1, &o->Lvv));
    PetscCall(TSSimpVISetLagrangian(o->ts, Lagrangian, user));
    PetscCall(TSSimpVISetLagrangianHessian(o->ts, o->H, NULL, o->Lvv, LagrangianHessian, user));
    break;
  case DOOR_I2:
    PetscCall(DiagonalMat(nloc, n, 1, &o->J));
    PetscCall(TSSetI2Function(o->ts, NULL, I2Function, user));
    PetscCall(TSSetI2Jacobian(o->ts, o->J, o->J, I2Jacobian, user));
    PetscCall(VecGetSubVector(o->U, o->isq, &o->W));
    PetscCall(VecDuplicate(o->W, &o->u));
    PetscCall(VecCopy(o->W, o->u));
    PetscCall(VecRestoreSubVector(o->U, o->isq, &o->W));
    PetscCall(VecDuplicate(o->u, &o->v));
    PetscCall(VecSet(o->v, 0.1));
    break;
  }

  /* abuse of the objects */
  switch (c->abuse) {
  case ABUSE_NULL_TS:
    PetscCall(TSSimpVISetType(NULL, TSSIMPVILOBATTO));
    break;
  case ABUSE_DM_AS_TS:
    PetscCall(DMShellCreate(PETSC_COMM_WORLD, &o->dm));
    PetscCall(TSSimpVISetDegree((TS)o->dm, 3));
    break;
  case ABUSE_ENERGY_NO_SOLUTION:
    PetscCall(TSSimpVIComputeEnergy(o->ts, 0, o->U, &H));
    break;
  case ABUSE_ENERGY_OTHER:
  case ABUSE_MONITOR_OTHER:
  case ABUSE_PHASESPACE_OTHER:
  case ABUSE_TABLEAU_OTHER:
    PetscCall(TSSetType(o->ts, TSRK));
    PetscCall(TSSetSolution(o->ts, o->U));
    if (c->abuse == ABUSE_ENERGY_OTHER) PetscCall(TSSimpVIComputeEnergy(o->ts, 0, o->U, &H));
    if (c->abuse == ABUSE_MONITOR_OTHER) PetscCall(TSSimpVIMonitorEnergy(o->ts, 0, 0, o->U, NULL));
    if (c->abuse == ABUSE_PHASESPACE_OTHER) {
      IS isq, isp;

      PetscCall(TSSimpVIGetPhaseSpaceIS(o->ts, &isq, &isp));
    }
    if (c->abuse == ABUSE_TABLEAU_OTHER) {
      PetscInt s;

      PetscCall(TSSimpVIGetTableau(o->ts, &s, NULL, NULL, NULL, NULL, NULL, NULL));
    }
    break;
  default:
    break;
  }

  if (c->door == DOOR_I2) PetscCall(TS2SetSolution(o->ts, o->u, o->v));
  else {
    if (c->abuse != ABUSE_SPLIT_UNNAMED) {
      PetscCall(TSRHSSplitSetIS(o->ts, "position", o->isq));
      PetscCall(TSRHSSplitSetIS(o->ts, "momentum", o->isp));
    }
    PetscCall(TSSetSolution(o->ts, o->U));
  }
  PetscCall(TSSetTimeStep(o->ts, 0.1));
  PetscCall(TSSetMaxSteps(o->ts, 6));
  PetscCall(TSSetMaxTime(o->ts, 1e10));
  PetscCall(TSSetExactFinalTime(o->ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetFromOptions(o->ts));
  if (c->dt != 0.1) PetscCall(TSSetTimeStep(o->ts, c->dt)); /* after: PETSc main's TSSetFromOptions() refuses inf itself */

  if (c->abuse == ABUSE_NULL_ENERGY) PetscCall(TSSimpVIComputeEnergy(o->ts, 0, o->U, NULL));
  if (c->abuse == ABUSE_ENERGY_SIZE) {
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 2 * nloc + 2, PETSC_DETERMINE, &o->W));
    PetscCall(VecSet(o->W, 1));
    PetscCall(TSSimpVIComputeEnergy(o->ts, 0, o->W, &H));
  }
  PetscCall(TSSolve(o->ts, c->door == DOOR_I2 ? o->u : o->U));
  PetscCall(TSGetConvergedReason(o->ts, reason));
  PetscFunctionReturn(0);
}

/* Prints as PETSc's default handler does on rank 0; the other ranks return the error instead of exiting from the
   handler, so that every rank comes back to main() after a collective error and the program ends cleanly (an
   MPI_Abort() may lose rank 0's message), while an error on some ranks only still shows as a hang */
static PetscErrorCode RankZeroErrorHandler(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (PetscGlobalRank == 0) return PetscTraceBackErrorHandler(comm, line, fun, file, n, p, mess, ctx);
  return n;
}

static PetscBool Applies(const Case *c, PetscMPIInt size)
{
#if defined(SIMPVI_HAVE_KINSOL)
  PetscBool kinsol = PETSC_TRUE;
#else
  PetscBool kinsol = PETSC_FALSE;
#endif

  if (!c->needs) return PETSC_TRUE;
  if (!strcmp(c->needs, "kinsol")) return kinsol;
  if (!strcmp(c->needs, "!kinsol")) return (PetscBool)!kinsol;
  return (PetscBool)(size > 1); /* "parallel" */
}

/* Every case in this process: each must end in its error on every process, or in a TS_DIVERGED_* reason */
static PetscErrorCode RunAll(AppCtx *user, char *skip[], PetscInt nskip)
{
  PetscInt    handled = 0, total = 0, alone = 0;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  for (PetscInt i = 0; i < ncases; i++) {
    const Case       *c      = &cases[i];
    Objects           o      = {0};
    TSConvergedReason reason = TS_CONVERGED_ITERATING;
    PetscErrorCode    err;
    int               codes[2];
    PetscBool         ok;

    PetscBool skipped = PETSC_FALSE;

    for (PetscInt j = 0; j < nskip; j++) skipped = (PetscBool)(skipped || !strcmp(skip[j], c->name));
    if (!Applies(c, size) || skipped) continue;
    if (c->alone) {
      alone++;
      continue;
    }
    total++;
    PetscCall(CaseOptions(c, PETSC_TRUE));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    err = RunCase(c, user, &o, &reason);
    PetscCall(PetscPopErrorHandler());
    PetscCall(CaseOptions(c, PETSC_FALSE));
    PetscCall(ObjectsDestroy(&o));
    /* the same error class on every process */
    codes[0] = (int)err;
    codes[1] = -(int)err;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, codes, 2, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
    ok = (PetscBool)(codes[0] == -codes[1] && (c->expect ? codes[0] == (int)c->expect : codes[0] == 0 && reason < 0));
    if (ok) handled++;
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "case %s: not handled: error %d (expected %d) on some process, %d on another, reason %s\n", c->name, codes[0], (int)c->expect, -codes[1], TSConvergedReasons[reason]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hostile inputs handled: %" PetscInt_FMT " of %" PetscInt_FMT "\n", handled, total));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "run only as programs of their own (an error inside TSSetFromOptions()): %" PetscInt_FMT "\n", alone));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  AppCtx            user     = {1.0, 1.0, 0, CB_NONE, FAULT_NONE, 3, 0};
  char              name[64] = "all", *skip[64];
  PetscInt          nskip    = 64;
  Objects           o        = {0};
  TSConvergedReason reason;
  PetscMPIInt       size;
  PetscInt          i;
  PetscErrorCode    err;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(SimpVIInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Hostile input options", NULL);
  PetscCall(PetscOptionsString("-case", "The case to run: all, list or one name", NULL, name, name, sizeof(name), NULL));
  PetscCall(PetscOptionsStringArray("-skip", "Cases left out of -case all", NULL, skip, &nskip, NULL));
  PetscOptionsEnd();
  if (!strcmp(name, "all")) PetscCall(RunAll(&user, skip, nskip));
  else if (!strcmp(name, "list")) {
    for (i = 0; i < ncases; i++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s%s", cases[i].name, i + 1 < ncases ? " " : "\n"));
  } else {
    for (i = 0; i < ncases; i++)
      if (!strcmp(name, cases[i].name)) break;
    PetscCheck(i < ncases, PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "No case %s (-case list)", name);
    PetscCheck(Applies(&cases[i], size), PETSC_COMM_WORLD, PETSC_ERR_SUP, "Case %s needs %s", name, cases[i].needs);
    PetscCall(CaseOptions(&cases[i], PETSC_TRUE));
    PetscCall(PetscPushErrorHandler(RankZeroErrorHandler, NULL));
    err = RunCase(&cases[i], &user, &o, &reason);
    PetscCall(PetscPopErrorHandler());
    /* PETSc leaves its options state allocated after an error inside TSSetFromOptions(): not this program's leak, and
       its report would interleave with the message of rank 0 */
    if (err && cases[i].alone) PetscCall(PetscOptionsClearValue(NULL, "-malloc_dump"));
    PetscCall(CaseOptions(&cases[i], PETSC_FALSE));
    PetscCall(ObjectsDestroy(&o));
    if (!err) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "TSSolve() returned with reason %s\n", TSConvergedReasons[reason]));
  }
  for (i = 0; i < nskip; i++) PetscCall(PetscFree(skip[i]));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

  build:
    requires: !complex

  # one case per program on 2 processes (the faults are on the last one), the error's message lines only: no stack
  # (function names and files change), no option table
  testset:
    nsize: 2
    args: -petsc_ci_portable_error_output -error_output_stdout
    filter: Error: grep "PETSC ERROR" | grep -v -e "() at " -e "----" -e "See https" -e "Option Table" -e "PETSC ERROR: -"
    test:
      suffix: objects
      args: -case {{null_ts dm_as_ts vec_as_mat null_mass null_energy energy_no_solution massfn_without_mx energy_other_type monitor_other_type phasespace_other_type tableau_other_type}separate output}
    test:
      suffix: sizes
      args: -case {{energy_size mass_size hessian_size lagrangian_hessian_size split_unnamed mass_singular}separate output}
    test:
      suffix: dt
      args: -case {{dt_zero dt_negative dt_nan dt_inf dt_huge dt_tiny}separate output}
    test:
      suffix: options
      args: -case {{degree_zero degree_negative degree_huge degree_fixed scheme_unknown solver_unknown direct_limit newton_rtol small_limit mat_sbaij adapt}separate output}
    test:
      suffix: callback
      args: -case {{nan_potential error_potential nan_potential_hessian error_potential_hessian nan_force error_force nan_force_jacobian error_force_jacobian nan_mass error_mass nan_lagrangian error_lagrangian nan_lagrangian_hessian error_lagrangian_hessian nan_i2function error_i2function nan_i2jacobian error_i2jacobian error_reason}separate output}
    test:
      suffix: kinsol
      requires: kinsol
      args: -case {{kinsol_fnormtol nan_kinsol error_kinsol}separate output}
    test:
      suffix: kinsol_missing
      requires: !kinsol
      args: -case {{kinsol_missing kinsol_missing_snes}separate output}
    # rows split unlike the positions on 2 of 3 processes: the third must stop too
    test:
      suffix: mass_split
      nsize: 3
      args: -case mass_split

  # PETSc's convention with -ts_error_if_step_fails 0: TSSolve() returns, and the reason says the step failed
  test:
    suffix: nan_reason
    nsize: 2
    args: -case nan_reason

  # every case whose error a program can catch and go on from, in one process: the count
  test:
    suffix: all
    nsize: 2
    requires: kinsol
    args: -case all
  test:
    suffix: all_nokinsol
    nsize: 2
    requires: !kinsol
    args: -case all

TEST*/
