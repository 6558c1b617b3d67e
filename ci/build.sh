#!/usr/bin/env bash
# Configure and build into build/; extra arguments go to the cmake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DSIMPVI_WERROR="${SIMPVI_WERROR:-ON}" "$@" # CI: warnings are errors
cmake --build build -j2
