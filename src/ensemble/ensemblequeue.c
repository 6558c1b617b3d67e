/*
   Who runs which member of a SimpVIEnsemble: a counter of the member ids handed out so far, on process 0, which every
   process (0 too) advances by a chunk with MPI_Fetch_and_op() when it runs out of members. A process that draws cheap
   members comes back sooner and takes more: no process waits on another until the counter passes the last member.
   Then the results, recorded by the process that ran each member, are gathered in member order on every process, so
   that they do not depend on the number of processes nor on who ran what.
*/
#include <simpvi/private/ensembleimpl.h>

/* The chunk: the user's, or the members over 16 times the processes (at least 1, at most a batch) */
static PetscInt ChunkSize(SimpVIEnsemble ens, PetscMPIInt size)
{
  if (ens->chunk != PETSC_DECIDE) return ens->chunk;
  return PetscMax(1, PetscMin(ens->batchsize, ens->nmembers / (16 * size)));
}

/* SimpVIEnsembleQueueBegin_Private - the counter at 0, on process 0 (a window) or locally on one process */
PetscErrorCode SimpVIEnsembleQueueBegin_Private(SimpVIEnsemble ens)
{
  SimpVIEnsembleQueue *Q = &ens->queue;
  MPI_Comm             comm;
  PetscMPIInt          size, rank;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)ens, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  Q->local   = 0;
  Q->seen    = 0;
  Q->next    = 0;
  Q->end     = 0;
  Q->nchunks = 0;
  if (size == 1) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Win_allocate(rank ? 0 : (MPI_Aint)sizeof(PetscInt), sizeof(PetscInt), MPI_INFO_NULL, comm, &Q->counter, &Q->win));
  if (!rank) {
    PetscCallMPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, Q->win));
    *Q->counter = 0;
    PetscCallMPI(MPI_Win_unlock(0, Q->win));
  }
  PetscCallMPI(MPI_Barrier(comm));
  PetscCallMPI(MPI_Win_lock_all(0, Q->win));
  PetscFunctionReturn(0);
}

/*
  SimpVIEnsembleQueueLimit_Private - the most members this process holds (started, or its chunk's not yet started) now:
  the batch, less as the counter nears the last member (a quarter of the members left per process). A process holds
  its members until they end, so the work it holds when the counter passes the last member is the study's tail: a
  batch of long members started late would keep it busy while the others wait (bench/ensemblemodel.py).
*/
PetscErrorCode SimpVIEnsembleQueueLimit_Private(SimpVIEnsemble ens, PetscInt *limit)
{
  MPI_Comm    comm;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)ens, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  *limit = ens->batchsize;
  if (size > 1) *limit = PetscMax(1, PetscMin(ens->batchsize, (ens->nmembers - ens->queue.seen) / (4 * size)));
  PetscFunctionReturn(0);
}

/* SimpVIEnsembleQueueNext_Private - the next member for this process, from its chunk or a new one of at most limit
   members; -1: none left */
PetscErrorCode SimpVIEnsembleQueueNext_Private(SimpVIEnsemble ens, PetscInt limit, PetscInt *id)
{
  SimpVIEnsembleQueue *Q = &ens->queue;
  MPI_Comm             comm;
  PetscMPIInt          size;

  PetscFunctionBegin;
  *id = -1;
  if (Q->next >= Q->end) { /* a new chunk */
    PetscInt chunk, first;

    PetscCall(PetscObjectGetComm((PetscObject)ens, &comm));
    PetscCallMPI(MPI_Comm_size(comm, &size));
    chunk = PetscMax(1, PetscMin(ChunkSize(ens, size), limit));
    if (size == 1) {
      first = Q->local;
      Q->local += chunk;
    } else if (Q->end >= 0) {
      PetscCallMPI(MPI_Fetch_and_op(&chunk, &first, MPIU_INT, 0, 0, MPI_SUM, Q->win));
      PetscCallMPI(MPI_Win_flush(0, Q->win));
    } else first = ens->nmembers; /* this process has seen the counter past the end: it asks no more */
    if (first >= ens->nmembers) {
      Q->end  = -1;
      Q->seen = ens->nmembers;
      PetscFunctionReturn(0);
    }
    Q->next = first;
    Q->end  = PetscMin(first + chunk, ens->nmembers);
    Q->seen = first + chunk;
    Q->nchunks++;
  }
  *id = Q->next++;
  PetscFunctionReturn(0);
}

/* SimpVIEnsembleQueueEnd_Private - frees the counter (collective) */
PetscErrorCode SimpVIEnsembleQueueEnd_Private(SimpVIEnsemble ens)
{
  SimpVIEnsembleQueue *Q = &ens->queue;
  MPI_Comm             comm;
  PetscMPIInt          size;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)ens, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size == 1) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Win_unlock_all(Q->win));
  PetscCallMPI(MPI_Win_free(&Q->win));
  Q->counter = NULL;
  PetscFunctionReturn(0);
}

/* Frees the results of a solve */
PetscErrorCode SimpVIEnsembleResultsFree_Private(SimpVIEnsemble ens)
{
  PetscFunctionBegin;
  PetscCall(PetscFree5(ens->out, ens->tend, ens->steps, ens->its, ens->reason));
  PetscCall(PetscFree2(ens->mineid, ens->minerec));
  ens->nmine   = 0;
  ens->maxmine = 0;
  ens->solved  = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/*
  SimpVIEnsembleGather_Private - every process's records (ids and records) to every process, placed in member order;
  and each process's members, chunks and busy time (seconds) for the view
*/
PetscErrorCode SimpVIEnsembleGather_Private(SimpVIEnsemble ens, PetscReal busy)
{
  const PetscInt rec = SIMPVI_ENSEMBLE_RECORD(ens), N = ens->nmembers;
  MPI_Comm       comm;
  PetscMPIInt    size, *counts, *displs, *rcounts, *rdispls, nmine;
  PetscInt      *ids, total = 0;
  PetscReal     *recs;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)ens, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMPIIntCast(ens->nmine, &nmine));
  PetscCall(PetscMalloc4(size, &counts, size, &displs, size, &rcounts, size, &rdispls));
  PetscCallMPI(MPI_Allgather(&nmine, 1, MPI_INT, counts, 1, MPI_INT, comm));
  for (PetscMPIInt r = 0; r < size; r++) {
    displs[r]  = (PetscMPIInt)total;
    rcounts[r] = counts[r] * (PetscMPIInt)rec;
    rdispls[r] = displs[r] * (PetscMPIInt)rec;
    total += counts[r];
  }
  PetscCheck(total == N, comm, PETSC_ERR_PLIB, "The processes ran %" PetscInt_FMT " members, not %" PetscInt_FMT, total, N);
  PetscCall(PetscMalloc2(N, &ids, N * rec, &recs));
  PetscCallMPI(MPI_Allgatherv(ens->mineid, nmine, MPIU_INT, ids, counts, displs, MPIU_INT, comm));
  PetscCallMPI(MPI_Allgatherv(ens->minerec, nmine * (PetscMPIInt)rec, MPIU_REAL, recs, rcounts, rdispls, MPIU_REAL, comm));
  PetscCall(PetscFree5(ens->out, ens->tend, ens->steps, ens->its, ens->reason));
  PetscCall(PetscMalloc5(N * ens->nout, &ens->out, N, &ens->tend, N, &ens->steps, N, &ens->its, N, &ens->reason));
  for (PetscInt k = 0; k < N; k++) {
    const PetscInt   i = ids[k];
    const PetscReal *r = recs + k * rec;

    ens->reason[i] = (SimpVIEnsembleMemberReason)r[0];
    ens->steps[i]  = (PetscInt)r[1];
    ens->its[i]    = (PetscInt)r[2];
    ens->tend[i]   = r[3];
    for (PetscInt j = 0; j < ens->nout; j++) ens->out[i * ens->nout + j] = r[4 + j];
  }
  for (PetscMPIInt r = 0; r < size; r++) ens->rankmembers[r] = counts[r];
  PetscCallMPI(MPI_Allgather(&busy, 1, MPIU_REAL, ens->rankbusy, 1, MPIU_REAL, comm));
  PetscCallMPI(MPI_Allgather(&ens->queue.nchunks, 1, MPIU_INT, ens->rankchunks, 1, MPIU_INT, comm));
  ens->wall = 0;
  for (PetscMPIInt r = 0; r < size; r++) ens->wall = PetscMax(ens->wall, ens->rankbusy[r]);
  PetscCall(PetscFree2(ids, recs));
  PetscCall(PetscFree4(counts, displs, rcounts, rdispls));
  ens->solved = PETSC_TRUE;
  PetscFunctionReturn(0);
}
