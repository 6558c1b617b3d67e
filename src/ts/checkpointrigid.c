/*
   The rigid bodies' records of a checkpoint (src/ts/checkpoint.c writes the header and calls these): the state and
   the step's round-off compensations (the low parts of R1 and pi1 that the next step adds, carried while U is the Vec
   the last step wrote: src/doors/rigidbody.c). The step's predictor is made from the start's momenta alone, its Newton
   keeps nothing between steps and the torques' time is the TS's: nothing else carries. Both vectors go in the order
   of one process (all R_b, then all pi_b, bodies numbered through the processes), so that a checkpoint of the Vec/Mat
   form loads on any number of processes.
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/
#include <simpvi/private/rigidbodyimpl.h>

/* The bodies in all: this process's in the Vec/Mat form, else all */
static PetscInt Bodies(SimpVIRigidBodies rb)
{
  return rb->vec ? rb->Nb : rb->nb;
}

/* The scatter from the state's layout (on each process its bodies' R_b, then their pi_b) to the order of one process */
static PetscErrorCode OrderScatter(TS ts, Vec *canon, VecScatter *sc)
{
  SimpVIRigidBodies rb = ((TS_SimpVI *)ts->data)->rb;
  const PetscInt    nb = rb->nb, N = Bodies(rb);
  PetscInt          b0 = 0, *idx;
  MPI_Comm          comm;
  PetscMPIInt       rank;
  IS                is;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)ts->vec_sol, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Exscan(&nb, &b0, 1, MPIU_INT, MPI_SUM, comm));
  if (!rank) b0 = 0; /* MPI_Exscan leaves rank 0's undefined */
  PetscCall(PetscMalloc1(12 * nb, &idx));
  for (PetscInt j = 0; j < 9 * nb; j++) idx[j] = 9 * b0 + j;
  for (PetscInt j = 0; j < 3 * nb; j++) idx[9 * nb + j] = 9 * N + 3 * b0 + j;
  PetscCall(ISCreateGeneral(comm, 12 * nb, idx, PETSC_OWN_POINTER, &is));
  PetscCall(VecCreate(comm, canon));
  PetscCall(VecSetSizes(*canon, 12 * nb, 12 * N));
  PetscCall(VecSetType(*canon, VECSTANDARD));
  PetscCall(VecScatterCreate(ts->vec_sol, NULL, *canon, is, sc));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(0);
}

/* The form's id in the checkpoint's header (2 the array form, 3 the Vec/Mat form; the vector space's layouts are 0
   and 1), the number of bodies and a name for the messages */
PetscErrorCode SimpVIRigidCheckpointProblem_Private(TS ts, PetscInt *id, PetscInt *nbodies, const char **name)
{
  SimpVIRigidBodies rb = ((TS_SimpVI *)ts->data)->rb;

  PetscFunctionBegin;
  *id      = rb->vec ? SIMPVI_CP_LAYOUT_RIGIDVEC : SIMPVI_CP_LAYOUT_RIGID;
  *nbodies = Bodies(rb);
  *name    = rb->vec ? "rigid bodies, Vec/Mat form (TSSimpVISetRigidBodyInertias())" : "rigid bodies, array form (TSSimpVISetRigidBodies())";
  PetscFunctionReturn(0);
}

/* Collective: U is the Vec the last step wrote, unchanged since, so that the next step adds its compensations */
PetscErrorCode SimpVIRigidCheckpointStored_Private(TS ts, PetscBool *stored)
{
  SimpVIRigidBodies rb = ((TS_SimpVI *)ts->data)->rb;
  PetscObjectId     id;
  PetscObjectState  state;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)ts->vec_sol, &id));
  PetscCall(PetscObjectStateGet((PetscObject)ts->vec_sol, &state));
  *stored = (PetscBool)(id == rb->Uid && state == rb->Ustate);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, stored, 1, SIMPVI_MPI_BOOL, MPI_LAND, PetscObjectComm((PetscObject)ts)));
  PetscFunctionReturn(0);
}

/* Collective: the record with NaN or Inf, named, or NULL */
PetscErrorCode SimpVIRigidCheckpointNotFinite_Private(TS ts, const char **which)
{
  SimpVIRigidBodies rb = ((TS_SimpVI *)ts->data)->rb;
  PetscReal         nrm, c = 0;

  PetscFunctionBegin;
  *which = NULL;
  PetscCall(VecNorm(ts->vec_sol, NORM_1, &nrm));
  for (PetscInt j = 0; j < 9 * rb->nb; j++) c += PetscAbsReal(rb->Rc[j]);
  for (PetscInt j = 0; j < rb->n; j++) c += PetscAbsReal(rb->pic[j]);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &c, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)ts)));
  if (PetscIsInfOrNanReal(nrm)) *which = "the state (R, pi)";
  else if (PetscIsInfOrNanReal(c)) *which = "the compensation of R and pi";
  PetscFunctionReturn(0);
}

/* The records, written (write) or read into U and the compensations; read, the compensations carry into the next
   step only if the writer's U was stored (else they start at zero, as the writer's next step would have) */
PetscErrorCode SimpVIRigidCheckpointIO_Private(TS ts, PetscViewer viewer, PetscBool write, PetscBool stored)
{
  SimpVIRigidBodies rb = ((TS_SimpVI *)ts->data)->rb;
  const PetscInt    nb = rb->nb;
  Vec               canon, comp;
  VecScatter        sc;
  PetscScalar      *c;

  PetscFunctionBegin;
  PetscCall(OrderScatter(ts, &canon, &sc));
  PetscCall(VecDuplicate(ts->vec_sol, &comp)); /* the compensations in the state's layout: Rc, then pic */
  if (write) {
    PetscCall(VecGetArray(comp, &c));
    PetscCall(PetscArraycpy(c, rb->Rc, 9 * nb));
    PetscCall(PetscArraycpy(c + 9 * nb, rb->pic, 3 * nb));
    PetscCall(VecRestoreArray(comp, &c));
    PetscCall(VecScatterBegin(sc, ts->vec_sol, canon, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, ts->vec_sol, canon, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecView(canon, viewer));
    PetscCall(VecScatterBegin(sc, comp, canon, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, comp, canon, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecView(canon, viewer));
  } else {
    PetscCall(VecLoad(canon, viewer));
    PetscCall(VecScatterBegin(sc, canon, ts->vec_sol, INSERT_VALUES, SCATTER_REVERSE));
    PetscCall(VecScatterEnd(sc, canon, ts->vec_sol, INSERT_VALUES, SCATTER_REVERSE));
    PetscCall(VecLoad(canon, viewer));
    PetscCall(VecScatterBegin(sc, canon, comp, INSERT_VALUES, SCATTER_REVERSE));
    PetscCall(VecScatterEnd(sc, canon, comp, INSERT_VALUES, SCATTER_REVERSE));
    PetscCall(VecGetArray(comp, &c));
    if (stored) {
      PetscCall(PetscArraycpy(rb->Rc, c, 9 * nb));
      PetscCall(PetscArraycpy(rb->pic, c + 9 * nb, 3 * nb));
    } else {
      PetscCall(PetscArrayzero(rb->Rc, 9 * nb));
      PetscCall(PetscArrayzero(rb->pic, 3 * nb));
    }
    PetscCall(VecRestoreArray(comp, &c));
    /* U as the last step wrote it: its id and state, last of all (the scatter above changed the state) */
    if (stored) {
      PetscCall(PetscObjectGetId((PetscObject)ts->vec_sol, &rb->Uid));
      PetscCall(PetscObjectStateGet((PetscObject)ts->vec_sol, &rb->Ustate));
    } else rb->Uid = 0;
  }
  PetscCall(VecDestroy(&comp));
  PetscCall(VecDestroy(&canon));
  PetscCall(VecScatterDestroy(&sc));
  PetscFunctionReturn(0);
}
