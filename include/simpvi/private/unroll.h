/*
   SIMPVI_UNROLL_FOR (init; test; step): a for loop unrolled completely where its trip count is a constant (the small
   systems' kernels, inlined with their sizes as constants). GCC's -O2 keeps such loops rolled when unrolling grows
   the code, and their overhead was 40 % of the step Jacobian's sums at n = s = 2 and of the LU of 4 rows.
*/
#ifndef SIMPVI_UNROLL_H
#define SIMPVI_UNROLL_H

#if defined(__clang__)
  #define SIMPVI_UNROLL_FOR _Pragma("unroll 16") for
#elif defined(__GNUC__)
  #define SIMPVI_UNROLL_FOR _Pragma("GCC unroll 16") for
#else
  #define SIMPVI_UNROLL_FOR for
#endif

/* SIMPVI_SMALL_N(n, CALL): CALL(1), CALL(2) or CALL(3) where n is 1, 2 or 3, else CALL(n): an inlined kernel given its
   size as a constant for the smallest systems (one position to three), so that SIMPVI_UNROLL_FOR unrolls it */
#define SIMPVI_SMALL_N(n, CALL) \
  do { \
    switch (n) { \
    case 1: \
      CALL(1); \
      break; \
    case 2: \
      CALL(2); \
      break; \
    case 3: \
      CALL(3); \
      break; \
    default: \
      CALL(n); \
    } \
  } while (0)

#endif
