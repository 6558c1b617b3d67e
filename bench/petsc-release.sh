#!/usr/bin/env bash
# An optimized (release) PETSc built from a PETSc source checkout, and simpvi built against it in build-mainopt/, so
# that timings and instruction counts on current PETSc can be measured (ci/petsc-main.sh's /opt/petsc-main is a debug
# build: right for correctness, wrong for speed). Not part of CI.
#   bash bench/petsc-release.sh PETSC_SRC [PREFIX, default /opt/petsc-main-opt]
# PETSC_SRC is a PETSc checkout (e.g. `git clone https://gitlab.com/petsc/petsc.git`, or
# `git --git-dir=<mirror> archive HEAD | tar -x -C PETSC_SRC`). PETSc is configured as /opt/petsc-main was (see
# /work/shared/petsc-main/README.md: Debian's OpenMPI, BLAS and LAPACK, no Fortran, no C++, no X, no downloads), but
# with --with-debugging=0 COPTFLAGS="-O2 -g". PETSc is built and installed once (skipped when PREFIX/lib/pkgconfig/
# PETSc.pc exists; SIMPVI_PETSC_REBUILD=1 forces it), niced, with at most 2 make jobs; its log is PREFIX.log.
# Then simpvi's build-mainopt/ (Release, like build/) is configured against it and bench/stepcost is built. Measure:
#   build-mainopt/bench/stepcost -problem double -mode target -T 1000 -tol 1e-9 -Nmax 2000000 \
#     -methods lobatto:5@pw,lobatto:6@pw,lobatto:6,rk4 -rounds 3
#   bash bench/stepinstr.sh build-mainopt/bench double:lobatto:6
set -euo pipefail
src=$(cd "${1:?usage: bash bench/petsc-release.sh PETSC_SRC [PREFIX]}" && pwd)
prefix=${2:-/opt/petsc-main-opt}
cd "$(dirname "$0")/.."
root=$(pwd)

if [ ! -f "$prefix/lib/pkgconfig/PETSc.pc" ] || [ "${SIMPVI_PETSC_REBUILD:-0}" = 1 ]; then
  log=$prefix.log
  echo "bench/petsc-release.sh: building PETSc from $src into $prefix (log $log)"
  (
    cd "$src"
    unset PETSC_DIR PETSC_ARCH
    arch=arch-simpvi-opt
    nice -n 19 ./configure PETSC_ARCH=$arch --prefix="$prefix" --with-cc=mpicc --with-cxx=0 --with-fc=0 \
      --with-debugging=0 --with-shared-libraries=1 --with-blaslapack-lib="-llapack -lblas" --with-x=0 \
      COPTFLAGS="-O2 -g"
    nice -n 19 make PETSC_DIR="$src" PETSC_ARCH=$arch MAKE_NP=2 all
    nice -n 19 make PETSC_DIR="$src" PETSC_ARCH=$arch install
  ) > "$log" 2>&1 || { echo "bench/petsc-release.sh: PETSc build failed, see $log" >&2; exit 1; }
fi
grep -q -- "--with-debugging=0" "$prefix/lib/petsc/conf/reconfigure-"*.py ||
  { echo "bench/petsc-release.sh: $prefix is not a release build" >&2; exit 1; }

PKG_CONFIG_PATH=$prefix/lib/pkgconfig cmake -S "$root" -B "$root/build-mainopt" -DCMAKE_BUILD_TYPE=Release \
  -DSIMPVI_WERROR=ON
nice -n 19 cmake --build "$root/build-mainopt" -j1 --target bench-stepcost
echo "bench/petsc-release.sh: $root/build-mainopt/bench/stepcost built against PETSc \
  $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --modversion PETSc) ($prefix)"
