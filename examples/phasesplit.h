/*
   The layout these programs give U = (q, p): on each process its positions, then its momenta ([q_local | p_local]).
   TSSIMPVI must be told so on more than one process (TSRHSSplitSetIS() "position" and "momentum").
*/
#ifndef SIMPVI_EXAMPLES_PHASESPLIT_H
#define SIMPVI_EXAMPLES_PHASESPLIT_H
#include <petscts.h>

static inline PetscErrorCode PhaseSplitLocalHalves(TS ts, Vec U)
{
  IS       isq, isp;
  PetscInt lo, nloc;

  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(U, &lo, NULL));
  PetscCall(VecGetLocalSize(U, &nloc));
  PetscCall(ISCreateStride(PetscObjectComm((PetscObject)U), nloc / 2, lo, 1, &isq));
  PetscCall(ISCreateStride(PetscObjectComm((PetscObject)U), nloc / 2, lo + nloc / 2, 1, &isp));
  PetscCall(TSRHSSplitSetIS(ts, "position", isq));
  PetscCall(TSRHSSplitSetIS(ts, "momentum", isp));
  PetscCall(ISDestroy(&isq));
  PetscCall(ISDestroy(&isp));
  PetscFunctionReturn(0);
}
#endif
