#!/usr/bin/env bash
# GEMM Lab, second command: the same set-up as run.sh, then every test.
#  1. default build: all tests but the `gpu` label (GUI tests run under xvfb-run);
#  2. ASan + UBSan build of the simulator and its tests;
#  3. the libFuzzer targets of every reader (clang, ASan + UBSan), 5 seconds each on their seeds;
#  4. the `gpu` label, only where a GPU is present.
set -euo pipefail
cd "$(dirname "$0")"
.ci/install-deps.sh

jobs=$(nproc)
cmake --preset default
cmake --build --preset default -j "$jobs"
ctest --preset default -j "$jobs"

cmake --preset asan
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs"

cmake --preset fuzz
cmake --build --preset fuzz -j "$jobs"
app/fuzz/run_fuzz.sh 5

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && [ -d build/kernels ]; then
  ctest --test-dir build -L gpu --output-on-failure
else
  echo "skipped: no GPU (the 'gpu' test label needs an NVIDIA GPU and a build with nvcc)"
fi
