#!/usr/bin/env bash
# GEMM Lab, first command: install what is missing, build, and open the app on lesson 1.
set -euo pipefail
cd "$(dirname "$0")"
.ci/install-deps.sh
cmake --preset default
cmake --build --preset default
exec ./build/app/gemmlab "$@"
