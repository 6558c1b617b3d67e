/*
   Peak memory and first-step time of a TS run, for the -bench records of examples/ex6.c and ex7.c (bench/scaling.sh)
*/
#ifndef BENCHMEMORY_H
#define BENCHMEMORY_H
#include <petscts.h>
#include <sys/resource.h>

typedef struct {
  PetscLogDouble mem[3];   /* peak resident memory of this process: set-up, first step, later steps */
  PetscLogDouble tstep[2]; /* clock at the start and at the end of the first step */
} BenchMemory;

/* Peak resident memory of this process in bytes since the last reset (Linux VmHWM; getrusage's lifetime peak
   elsewhere); reset starts a new peak (Linux: /proc/self/clear_refs) */
static inline PetscLogDouble PeakRSS(PetscBool reset)
{
  PetscLogDouble peak = 0;
  char           line[256];
  FILE          *f = fopen("/proc/self/status", "r");

  if (f) {
    while (fgets(line, sizeof(line), f))
      if (!strncmp(line, "VmHWM:", 6)) {
        peak = 1024.0 * atof(line + 6);
        break;
      }
    fclose(f);
  }
  if (peak == 0) {
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    peak = 1024.0 * (PetscLogDouble)ru.ru_maxrss;
  }
  if (reset && (f = fopen("/proc/self/clear_refs", "w"))) {
    fputs("5", f);
    fclose(f);
  }
  return peak;
}

/* Peaks of the set-up (before the first step), of the first step (Jacobian preallocation, first factorization) and of
   the later steps; the time of the first step */
static inline PetscErrorCode BenchMemoryMonitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ctx)
{
  BenchMemory *st = (BenchMemory *)ctx;

  PetscFunctionBeginUser;
  if (step == 0) {
    st->mem[0] = PeakRSS(PETSC_TRUE);
    PetscCall(PetscTime(&st->tstep[0]));
  } else if (step == 1) {
    st->mem[1] = PeakRSS(PETSC_TRUE);
    PetscCall(PetscTime(&st->tstep[1]));
  }
  PetscFunctionReturn(0);
}
#endif
