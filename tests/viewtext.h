/* TSView()'s text of a TS (TSSIMPVI's lines are ASCII only), for a test that checks which path a run took: written to a
   file of this process (PETSc's ASCII viewer writes files, not strings), read back into view, the file removed */
#ifndef SIMPVI_TESTS_VIEWTEXT_H
#define SIMPVI_TESTS_VIEWTEXT_H

#include <petscts.h>
#include <unistd.h> /* getpid() */

static inline PetscErrorCode TSViewText(TS ts, const char prefix[], size_t size, char view[])
{
  PetscViewer viewer;
  char        name[PETSC_MAX_PATH_LEN];
  FILE       *fp;
  size_t      len;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s-%d.view", prefix, (int)getpid()));
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, name, &viewer));
  PetscCall(TSView(ts, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  fp = fopen(name, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot read %s", name);
  len       = fread(view, 1, size - 1, fp);
  view[len] = 0;
  fclose(fp);
  remove(name);
  PetscFunctionReturn(0);
}

#endif
