/*
   The PETSc API differences between 3.18 (Debian 12) and main that simpvi's sources meet, bridged in one place.
   Sources use the newest spelling; older PETSc gets it defined here.
*/
#ifndef SIMPVI_COMPAT_H
#define SIMPVI_COMPAT_H

#include <petscsys.h>

/* PetscOptionItems became a pointer type in 3.23 (the second argument of the setfromoptions ops) */
#if PETSC_VERSION_GE(3, 23, 0)
typedef PetscOptionItems SimpVIOptionItems;
#else
typedef PetscOptionItems *SimpVIOptionItems;
#endif

/* PetscOptionsGetViewer() became PetscOptionsCreateViewer() in 3.22, and its switch with it */
#if PETSC_VERSION_LT(3, 22, 0)
  #define PetscOptionsPushCreateViewerOff(flg) PetscOptionsPushGetViewerOff(flg)
  #define PetscOptionsPopCreateViewerOff()     PetscOptionsPopGetViewerOff()
#endif

/* PetscValid*Pointer became PetscAssertPointer in 3.20 */
#if PETSC_VERSION_LT(3, 20, 0)
  #define PetscAssertPointer(h, arg) PetscValidPointer(h, arg)
#endif

/* PetscBool's MPI datatype: MPIU_BOOL (an int) before 3.24, MPI_C_BOOL since PetscBool is a C bool */
#if PETSC_VERSION_GE(3, 24, 0)
  #define SIMPVI_MPI_BOOL MPI_C_BOOL
#else
  #define SIMPVI_MPI_BOOL MPIU_BOOL
#endif

/* A PetscContainer's destroy callback gets the context before 3.23 (PetscContainerSetUserDestroy) and the address of
   the context since (PetscContainerSetCtxDestroy; typed void ** in 3.23-3.24, PetscCtxRt = void * in 3.25). Write
   callbacks as PetscErrorCode f(SimpVICtxDestroyArg arg) and read the context with SIMPVI_CTX(arg). */
#if PETSC_VERSION_GE(3, 25, 0)
typedef PetscCtxRt SimpVICtxDestroyArg;
  #define SIMPVI_CTX(arg) (*(void **)(arg))
#elif PETSC_VERSION_GE(3, 23, 0)
typedef void            **SimpVICtxDestroyArg;
  #define SIMPVI_CTX(arg) (*(arg))
#else
typedef void *SimpVICtxDestroyArg;
  #define SIMPVI_CTX(arg)                   (arg)
  #define PetscContainerSetCtxDestroy(c, f) PetscContainerSetUserDestroy(c, f)
#endif

/* SNES_DIVERGED_FNORM_NAN became SNES_DIVERGED_FUNCTION_NANORINF in 3.25 */
#if PETSC_VERSION_LT(3, 25, 0)
  #define SNES_DIVERGED_FUNCTION_NANORINF SNES_DIVERGED_FNORM_NAN
#endif

/* MatFDColoringSetFunction() takes a MatFDColoringFn * since 3.23 */
#if PETSC_VERSION_GE(3, 23, 0)
  #define SIMPVI_FDCOLORING_FN(f) ((MatFDColoringFn *)(f))
#else
  #define SIMPVI_FDCOLORING_FN(f) ((PetscErrorCode(*)(void))(void (*)(void))(f)) /* through void (*)(void): no -Wcast-function-type */
#endif

#endif
