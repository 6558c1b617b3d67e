#!/usr/bin/env bash
# Install the build tree into a scratch prefix, check that only the public headers went in (no
# include/simpvi/private/), then build consumer.c against it twice (find_package(SimpVI), and pkg-config
# with the rpath README gives), and twice against the build tree itself (cmake -DSimpVI_DIR=<build>, and
# PKG_CONFIG_PATH=<build>, which finds simpvi-uninstalled.pc), and check that all four run, with no
# LD_LIBRARY_PATH, and print "simpvi".
# Usage: run.sh <project build dir> <scratch dir> <C compiler> <directory of the PETSc.pc simpvi was built with>
# Everything is printed: ctest shows it only when the test fails.
set -euo pipefail
build=$1 work=$2 cc=$3 petscpc=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix"

status=0
# the private headers (the TS_SimpVI struct, _Private prototypes, compat.h) are not part of the API: not installed
private=$(find "$prefix" -path '*private*')
if [ -n "$private" ]; then echo "FAIL: installed private files: $private"; status=1; else echo "ok: no private header installed"; fi
for h in simpvi.h simpviconf.h; do
  if [ -n "$(find "$prefix" -name "$h")" ]; then echo "ok: $h installed"; else echo "FAIL: $h not installed"; status=1; fi
done

cmake -S "$here" -B "$work/cmake" -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$prefix"
cmake --build "$work/cmake"

# the libdir is lib/ or lib/<multiarch>/ depending on how the build was configured
libdir=$(dirname "$(dirname "$(find "$prefix" -name simpvi.pc)")")
# prepended: simpvi.pc requires PETSc.pc, which must be the one simpvi was built with
export PKG_CONFIG_PATH=$libdir/pkgconfig:$petscpc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
# shellcheck disable=SC2046 # word splitting of the flags is intended
# pkg-config gives no rpath: a consumer adds one for simpvi's and PETSc's libdir (README, "Loading simpvi")
"$cc" -o "$work/consumer-pc" "$here/consumer.c" $(pkg-config --cflags --libs simpvi) \
  -Wl,-rpath,"$(pkg-config --variable=libdir simpvi)" -Wl,-rpath,"$(pkg-config --variable=libdir PETSc)"

# the same two against the build tree, uninstalled
cmake -S "$here" -B "$work/cmake-build-tree" -DCMAKE_C_COMPILER="$cc" -DSimpVI_DIR="$build"
cmake --build "$work/cmake-build-tree"
# shellcheck disable=SC2046 # word splitting of the flags is intended
"$cc" -o "$work/consumer-pc-build-tree" "$here/consumer.c" $(PKG_CONFIG_PATH=$build:$petscpc pkg-config --cflags --libs simpvi) \
  -Wl,-rpath,"$(pkg-config --variable=libdir PETSc)"
if [ "$(PKG_CONFIG_PATH=$build:$petscpc pkg-config --variable=libdir simpvi)" = "$build/src" ]; then echo "ok: PKG_CONFIG_PATH=<build> gives the build tree"; else echo "FAIL: PKG_CONFIG_PATH=<build> does not give $build/src"; status=1; fi

# all consumers find libsimpvi through their rpath alone (CMake sets it for imported targets)
unset LD_LIBRARY_PATH
for exe in "$work/cmake/consumer" "$work/consumer-pc" "$work/cmake-build-tree/consumer" "$work/consumer-pc-build-tree"; do
  out=$("$exe")
  if [ "$out" = simpvi ]; then echo "ok: $(basename "$exe") printed $out"; else echo "FAIL: $exe printed '$out'"; status=1; fi
done
exit $status
