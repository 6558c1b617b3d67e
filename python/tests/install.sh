#!/usr/bin/env bash
# Install the build tree into a scratch prefix and import the installed Python module there, with neither
# SIMPVI_LIBRARY nor a build tree to fall back on: it must load the installed libsimpvi through its _install.py.
# Usage: install.sh <project build dir> <scratch dir> <python3> <module dir relative to the prefix>
set -euo pipefail
build=$1 work=$2 python=$3 moddir=$4
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
cd "$work" # nothing of the source tree on the path
unset SIMPVI_LIBRARY
PYTHONPATH=$prefix/$moddir "$python" - "$prefix" <<'PY'
import os, sys
from petsc4py import PETSc
import simpvi
prefix = os.path.realpath(sys.argv[1])
ts = PETSc.TS().create()
ts.setType(simpvi.TSSIMPVI)
simpvi.setType(ts, simpvi.Type.LOBATTO)
order = simpvi.getOrder(ts)
ts.destroy()
inside = os.path.realpath(simpvi.library).startswith(prefix + os.sep) and os.path.realpath(simpvi.__file__).startswith(prefix + os.sep)
print('installed module loads the installed library %s: %s; lobatto order %d' % (simpvi.library, 'yes' if inside else 'no', order))
sys.exit(0 if inside and order == 6 else 1)
PY
