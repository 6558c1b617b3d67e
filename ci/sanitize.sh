#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer build of the library, tutorials, examples and tests (build-asan/,
# Debian's PETSc), then the whole suite but for valgrind (which cannot run sanitized programs), the install test (its
# consumer is not built with the sanitizers) and Python (an unsanitized interpreter cannot load the sanitized library;
# the C tests cover the same library code). Timeouts are scaled for the sanitizers' slowdown.
# Any report fails the run: UBSan aborts on the first finding, ASan on the first error. Leaks are -malloc_dump's job
# (the harness adds it): LeakSanitizer would report OpenMPI's own allocations. Extra arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
export SIMPVI_TIMEOUT_SCALE=3 # read by the harness when listing (CTest's TIMEOUT) and when running (MPIEXEC_TIMEOUT)
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSIMPVI_WERROR=ON -DCMAKE_C_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined"
cmake --build build-asan -j2
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# The sanitizers must be live: an out-of-bounds write and a signed overflow built with the same flags must abort
canary=$(mktemp -d)
printf '#include <stdlib.h>\nint main(int c, char **v) { int *a = malloc(4 * sizeof(int)); a[c + 3] = 1; free(a); return 0; }\n' > "$canary/oob.c"
printf '#include <limits.h>\nint main(int c, char **v) { int i = INT_MAX - 1 + c; return i + 1 > 0; }\n' > "$canary/ovf.c"
for t in oob ovf; do
  cc $flags -o "$canary/$t" "$canary/$t.c"
  if "$canary/$t" 2>/dev/null; then echo "ci/sanitize.sh: the $t canary ran clean: sanitizers not active" >&2; exit 1; fi
done
rm -rf "$canary"

# Left out here, each with its reason:
# - bench-soak-quick: its check is that resident memory stays flat, and under ASan the resident set also holds ASan's
#   quarantine of freed blocks (up to 256 MB), which grows with any allocation; leaks are -malloc_dump's to find.
# - bench-workprecision-quick: a smoke test of the benchmark's command lines (some 150 runs of PETSc's types and
#   simpvi's schemes through the examples); the library code they call (the mechanical, phase-space and I2 doors)
#   runs sanitized in tutorials-*, examples-* and tests-i2_*; here it would take minutes.
# - tests-brouwer_*: 32000 steps each of the step every other test takes (the verdict is the round-off's statistics,
#   which the sanitizers do not change); compensated summation runs sanitized in every other simpvi test.
# - examples-sweep_flip_{kinsol,static,ts,ranks_per_run}: the flip study's variants (KINSOL, static shares, one TS per
#   task, groups of ranks); examples-sweep_flip and tests-ensemble_object_* run the ensemble's code sanitized, and
#   tests-sneskinsol* and the KINSOL tutorials run KINSOL's.
# - tests-rigidbody_top_long*, _top_orthogonality: 5000 and 1e5 steps of the rigid-body step that tests-rigidbody_* run sanitized (the verdict
#   is the round-off's drift, which the sanitizers do not change).
# - bench-fourbar-*, bench-rigidtop-*: mostly PETSc's TS types (TSBDF, TSARKIMEX; rk 4, irk); simpvi's code runs sanitized in
#   tests-constraints_*, tutorials-ex7_* and tests-rigidbody*.
# - tests-adjoint_pairing_double: the adjoint's pairing on the double pendulum; tests-adjoint_pairing runs the same code
#   sanitized on the pendulum.
# - docs (Python on the source tree) and conformance-outside-pristine (a file comparison): they run no compiled code,
#   so the unsanitized run's verdict is theirs.
bash ci/test.sh --test-dir build-asan -LE 'valgrind|install|python|docs' \
  -E 'bench-soak-quick|bench-workprecision-quick|bench-fourbar-|bench-rigidtop-|tests-brouwer_|conformance-outside-pristine|examples-sweep_flip_(kinsol|static|ts|ranks_per_run)$|tests-rigidbody_top_long|tests-rigidbody_top_orthogonality$|tests-adjoint_pairing_double$' "$@"
