#!/usr/bin/env bash
# Build simpvi with -Werror against PETSc main (3.25 development: debug build, no external packages, so no parallel
# LU and no SUNDIALS of its own) into build-main/, and run the whole suite there. Extra arguments go to ctest.
# The prebuilt PETSc is unpacked to /opt/petsc-main from $SIMPVI_PETSC_MAIN_TARBALL when not there yet.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/opt/petsc-main
tarball=${SIMPVI_PETSC_MAIN_TARBALL:-/work/shared/petsc-main/petsc-main.tar.xz}
if [ ! -f $prefix/lib/pkgconfig/PETSc.pc ]; then
  [ -f "$tarball" ] || { echo "ci/petsc-main.sh: no $prefix and no $tarball (set SIMPVI_PETSC_MAIN_TARBALL)" >&2; exit 1; }
  echo "ci/petsc-main.sh: unpacking $tarball into /opt"
  sudo=
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo tar -xJf "$tarball" -C /opt # not relocatable: it must land in /opt/petsc-main
fi
for f in $prefix/include/petscts.h $prefix/share/petsc/examples/config/testparse.py $prefix/lib/petsc/bin/petscdiff \
  $prefix/share/petsc/examples/src/ts/tutorials/ex43.c; do
  [ -e "$f" ] || { echo "ci/petsc-main.sh: $f is missing from the PETSc main install" >&2; exit 1; }
done

log=$(mktemp)
PKG_CONFIG_PATH=$prefix/lib/pkgconfig cmake -S . -B build-main -DSIMPVI_WERROR=ON | tee "$log"
# Debian's SUNDIALS links PETSc 3.18: configure must have left KINSOL out, and said so
grep -q "KINSOL left out: .*libpetsc_real.so.3.18" "$log" || { echo "ci/petsc-main.sh: KINSOL not detected as foreign" >&2; exit 1; }
grep -q "PETSc 3.25" "$log" || { echo "ci/petsc-main.sh: configured against the wrong PETSc" >&2; exit 1; }
rm -f "$log"
cmake --build build-main -j2
# docs-* and conformance-outside-pristine read the source tree only (no PETSc): the 3.18 run's verdict is theirs
# Long numerical runs whose code paths shorter tests exercise here too run on 3.18 only (PETSc main is a debug build):
# the work-precision bench, Brouwer's 1e6-step drift, the split door's Lobatto orders, the flip study's variants, the
# four-bar's DAE route and the rigid top's rk 4 and irk rows (PETSc's own TS types), the rigid top's 1e5-step orthogonality.
long='bench-workprecision-quick|bench-fourbar-|bench-rigidtop-|tests-rigidbody_top_orthogonality$|tests-brouwer_|tests-splitdoor_order_lobatto$|examples-sweep_flip_(static|ts|ranks_per_run)$'
bash ci/test.sh --test-dir build-main -LE docs -E "conformance-outside-pristine|$long" "$@"
