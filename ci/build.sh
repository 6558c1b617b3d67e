#!/usr/bin/env bash
# Configure and build into build/; extra arguments go to the cmake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build "$@"
cmake --build build -j2
