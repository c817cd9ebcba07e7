#!/usr/bin/env bash
# Measurement: stage 21 with its activations by the TMA's im2col mode (the default where C % 64 == 0)
# and gathered by the producer warpgroup (GEMMLAB_CONV_IM2COL=0), on ResNet-50's 3x3 layers, in
# alternating rounds, each with cuDNN and im2col + cuBLAS in the same turns (kernels/stages/conv/CONV_NOTES.md).
#   OUT=... ROUNDS="1 2 3" bash kernels/tools/conv_tiles.sh      (needs `carry: [".deps"]`, as gpu_session.sh)
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
t0=$(date +%s); stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader
bash kernels/tools/gpu_build.sh "$OUT/build.log" gemmlab gpu_check || { tail -30 "$OUT/build.log"; exit 1; }
stamp built
G=build-gpu/app/gemmlab
for im in ${CHECK:-1 0}; do
  GEMMLAB_CONV_IM2COL=$im timeout 100 build-gpu/kernels/tests/gpu_check --stages conv-wgmma > "$OUT/check_$im.log" 2>&1
  echo "check im2col=$im rc=$? $(grep -E 'passed' "$OUT/check_$im.log" | tail -1)"
  grep FAIL "$OUT/check_$im.log" | head -3
done
stamp checked
LAYERS="--conv 32,56,56,64,64,3,3,1,1 --conv 32,28,28,128,128,3,3,1,1 --conv 32,14,14,256,256,3,3,1,1 --conv 32,7,7,512,512,3,3,1,1"
for round in ${ROUNDS:-1}; do
  for im in ${CONFIGS:-1 0}; do
    GEMMLAB_CONV_IM2COL=$im timeout 100 "$G" bench --stages ${BENCH_STAGES:-conv-wgmma} ${EXTRA_LAYERS:-$LAYERS} --budget ${BUDGET:-1} 2>/dev/null |
      grep -E "^conv-" | sed "s/^/round $round im2col=$im: /" | sed -E 's/conv-hopper //; s/ +[0-9.e+-]+ +[0-9]+ ok$//'
  done
done
stamp done
