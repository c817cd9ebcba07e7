#!/usr/bin/env bash
# Configure and build the GPU tree (build-gpu, sm_90a only) for the scripts that measure on a
# GPU machine, with cuDNN when PyTorch's Python packages have it (nvidia.cudnn).
#   bash kernels/lab/tools/gpu_build.sh LOG TARGET...     (needs the packages of gpu_deps.sh, installed or in .deps/)
#   GPU_CMAKE_ARGS=-DGEMMLAB_GPU_PROBES=ON bash kernels/lab/tools/gpu_build.sh LOG fp16_tune   (more options)
# The cmake output goes to LOG; the exit status is the build's.
set -uo pipefail
log=$1
shift
cd "$(dirname "$0")/../../.."
P=$(bash kernels/lab/tools/gpu_deps.sh unpack) || exit 1
CUDNN=$(python3 -c "import nvidia.cudnn; print(nvidia.cudnn.__path__[0])" 2>/dev/null || true)
echo "cuDNN folder: ${CUDNN:-none}"
# CUTLASS_DIR (optional, fp16_tune's peer variants) is set on every configure, so that a folder
# named by an earlier build and gone since does not stay in the cache.
cmake --preset gpu -DCMAKE_PREFIX_PATH="$P" -DCMAKE_CUDA_ARCHITECTURES=90a-real -DGEMMLAB_CUDNN_ROOT="$CUDNN" \
  -DGEMMLAB_CUTLASS_DIR="${CUTLASS_DIR:-}" ${GPU_CMAKE_ARGS:-} >"$log" 2>&1 &&
  cmake --build build-gpu --target "$@" -j16 >>"$log" 2>&1
