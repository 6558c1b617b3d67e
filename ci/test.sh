#!/usr/bin/env bash
# Run every CTest test of build/; extra arguments go to ctest (e.g. -L tutorials).
set -euo pipefail
cd "$(dirname "$0")/.."
# OpenMPI refuses to run as root (CI containers) and with more ranks than cores unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# SuperLU_DIST (the parallel direct solve) would start OpenMP threads on every rank of an oversubscribed machine
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
ctest --test-dir build --output-on-failure -j2 "$@"
