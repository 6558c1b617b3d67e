#!/usr/bin/env bash
# The flip map's CSV, byte for byte the same on 1 and 2 ranks (and with a batch small enough that members are refilled
# and the system compacted): the ensemble's rows do not depend on which members share a batch. ctest: examples-sweep_csv.
# Usage: sweep_csv.sh <mpiexec> <sweep executable> <scratch dir>
set -euo pipefail
MPIEXEC=$1 EXE=$2 DIR=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$DIR"
ARGS="-study flip -grid 16 -flip_tmax 100 -flip_dt 0.1 -sweep_progress 0 -malloc_dump"
"$MPIEXEC" -n 1 "$EXE" $ARGS -sweep_csv "$DIR/np1.csv" > "$DIR/np1.txt"
"$MPIEXEC" -n 2 "$EXE" $ARGS -sweep_csv "$DIR/np2.csv" > "$DIR/np2.txt"
"$MPIEXEC" -n 2 "$EXE" $ARGS -sweep_csv "$DIR/np2b7.csv" -ensemble_batch 7 > "$DIR/np2b7.txt"
rows=$(($(wc -l < "$DIR/np1.csv") - 1))
same=yes
cmp -s "$DIR/np1.csv" "$DIR/np2.csv" || same=no
cmp -s "$DIR/np1.csv" "$DIR/np2b7.csv" || same=no
echo "flip map 16 x 16: $rows rows; CSV identical on 1 rank, 2 ranks and 2 ranks with -ensemble_batch 7: $same"
[ "$same" = yes ]
