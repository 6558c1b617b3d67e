#!/usr/bin/env bash
# Install the Debian 12 packages simpvi's build, tests and demo need, then check that every file they read is there.
# Does nothing (quickly) when all is present. Packages are installed without their "Recommends", so each one the
# build reads is named here (PETSc's test harness and tutorials are only recommended by petsc-dev).
set -euo pipefail
pkgs=(
  petsc-dev libpetsc3.18-dev-examples # PETSc 3.18; its testparse.py and ts/tutorials/ex43.c (test harness)
  libsundials-dev                     # KINSOL and nvector_petsc
  libopenmpi-dev openmpi-bin libblas-dev liblapack-dev
  cmake make gcc pkg-config libgsl-dev
  python3 python3-petsc4py python3-numpy gnuplot-nox python3-matplotlib valgrind
  libasan8 libubsan1          # the AddressSanitizer/UBSan build (ci/sanitize.sh)
  xz-utils                    # unpacks the prebuilt PETSc main (ci/petsc-main.sh)
  clang-format git            # ci/format.sh
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo=
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  apt_install() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; }
  echo "ci/deps.sh: installing ${missing[*]}"
  # Update the package lists only when installing from the current ones fails (absent or stale).
  apt_install || { $sudo apt-get update && apt_install; }
fi

# Every file the build and the tests read, with the package that ships it.
petsc=/usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real
examples=/usr/share/petsc/3.18/share/petsc/examples
checks=(
  "$petsc/include/petscts.h:petsc-dev"
  "/usr/lib/x86_64-linux-gnu/pkgconfig/PETSc.pc:petsc-dev"
  "$examples/config/testparse.py:libpetsc3.18-dev-examples"
  "$examples/src/ts/tutorials/ex43.c:libpetsc3.18-dev-examples"
  "/usr/share/petsc/3.18/lib/petsc/bin/petscdiff:libpetsc3.18-dev-common"
  "/usr/include/kinsol/kinsol.h:libsundials-dev"
  "/usr/include/nvector/nvector_petsc.h:libsundials-dev"
  "/usr/lib/x86_64-linux-gnu/cmake/sundials/SUNDIALSConfig.cmake:libsundials-dev"
  "/usr/include/gsl/gsl_odeiv2.h:libgsl-dev"
  "/usr/bin/mpiexec:openmpi-bin"
  "/usr/lib/petsc/lib/python3/dist-packages/petsc4py/__init__.py:python3-petsc4py-real3.18"
)
fail=0
for c in "${checks[@]}"; do
  f=${c%%:*} pkg=${c##*:}
  if [ ! -e "$f" ]; then
    echo "ci/deps.sh: $f is missing: install the Debian package $pkg (apt-get install $pkg)" >&2
    fail=1
  fi
done
/usr/bin/python3 -c 'import petsc4py, numpy' 2>/dev/null || {
  echo "ci/deps.sh: /usr/bin/python3 cannot import petsc4py and numpy: install python3-petsc4py python3-numpy" >&2
  fail=1
}
exit $fail
