/*
   The self-checks of the user-style conformance programs (tests/conformance/userstyle/): the programs themselves are
   written as a PETSc user writes them for TSALPHA2, with PETSc only; these helpers only judge their final states.

   -write <file>              the final state, PETSc binary (a DMDA vector in natural ordering: the same file on any
                              number of processes)
   -compare <file>[,<file>]   the final state against the one in each file: max |x - y| <= tol max(1, max |y|)
   -compare_tol <1e-10>[,..]  tol for each file (the last one given for the files after it)
*/
#include <petscviewer.h>

static inline PetscErrorCode CheckWriteCompare(Vec X)
{
  char      name[PETSC_MAX_PATH_LEN];
  PetscBool flg;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-write", name, sizeof(name), &flg));
  if (flg) {
    PetscViewer viewer;

    PetscCall(PetscViewerBinaryOpen(PetscObjectComm((PetscObject)X), name, FILE_MODE_WRITE, &viewer));
    PetscCall(VecView(X, viewer));
    PetscCall(PetscViewerDestroy(&viewer));
  }
  {
    char     *files[4];
    PetscReal tols[4] = {1e-10, 1e-10, 1e-10, 1e-10};
    PetscInt  nfiles = 4, ntols = 4;

    PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-compare", files, &nfiles, NULL));
    PetscCall(PetscOptionsGetRealArray(NULL, NULL, "-compare_tol", tols, &ntols, NULL));
    for (PetscInt i = 0; i < nfiles; i++) {
      const PetscReal tol = tols[PetscMin(i, PetscMax(ntols, 1) - 1)];
      PetscViewer     viewer;
      Vec             Y;
      PetscReal       ynorm, dnorm;

      PetscCall(VecDuplicate(X, &Y));
      PetscCall(PetscViewerBinaryOpen(PetscObjectComm((PetscObject)X), files[i], FILE_MODE_READ, &viewer));
      PetscCall(VecLoad(Y, viewer));
      PetscCall(PetscViewerDestroy(&viewer));
      PetscCall(VecNorm(Y, NORM_INFINITY, &ynorm));
      PetscCall(VecAXPY(Y, -1, X));
      PetscCall(VecNorm(Y, NORM_INFINITY, &dnorm));
      PetscCall(PetscInfo(X, "Final state against %s: %g (max norm)\n", files[i], (double)dnorm));
      PetscCall(PetscPrintf(PetscObjectComm((PetscObject)X), "Final state agrees with %s to %g: %s\n", files[i], (double)tol, dnorm <= tol * PetscMax(1, ynorm) ? "yes" : "no"));
      PetscCall(VecDestroy(&Y));
      PetscCall(PetscFree(files[i]));
    }
  }
  PetscFunctionReturn(0);
}

/* err[0..n-1]: errors at steps h, h/2, h/4, ...; the order observed between the last two must be at least order - 0.3
   (-order <p>, 0: no check), and the error at the finest step below -error_tol (0: no check) */
static inline PetscErrorCode CheckErrors(MPI_Comm comm, const char *what, PetscInt n, const PetscReal err[])
{
  PetscReal order = 0, tol = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-order", &order, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-error_tol", &tol, NULL));
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscInfo(NULL, "%s at level %" PetscInt_FMT ": %g\n", what, i, (double)err[i]));
  if (tol > 0) PetscCall(PetscPrintf(comm, "At the finest step, %s below %g: %s\n", what, (double)tol, err[n - 1] <= tol ? "yes" : "no"));
  if (order > 0 && n > 1) {
    const PetscReal observed = PetscLog2Real(err[n - 2] / err[n - 1]);

    PetscCall(PetscInfo(NULL, "%s: observed order %g\n", what, (double)observed));
    PetscCall(PetscPrintf(comm, "Observed order of the %s at least %g: %s\n", what, (double)(order - 0.3), observed >= order - 0.3 ? "yes" : "no"));
  }
  PetscFunctionReturn(0);
}
