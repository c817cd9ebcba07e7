#!/usr/bin/env bash
# On a GPU machine: the fp16 stages against cuBLAS over the shapes users run (issue 51's table:
# LLM-layer GEMMs, small M for decode, long K, small squares), ROUNDS times, each round a results
# JSON the Kernels view's shape sweep reads (assets/results/<device>-shapes.json after review).
#   OUT=out ROUNDS=3 bash kernels/lab/tools/shape_sweep.sh
# Needs the packages of gpu_deps.sh (installed, or .deps/ from `gpu_deps.sh fetch`).
set -uo pipefail
OUT=${OUT:-/tmp/out}
ROUNDS=${ROUNDS:-3}
mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
bash kernels/lab/tools/gpu_build.sh "$OUT/build.log" gemmlab || { tail -30 "$OUT/build.log"; exit 1; }
shapes=4096x8192x8192,4096x28672x8192,4096x8192x28672,4096x10240x8192,16384x8192x8192,8192x1024x8192
shapes+=,2048,1024,128x8192x8192,64x28672x8192,16x8192x8192,512x512x16384
for r in $(seq 1 "$ROUNDS"); do
  timeout 170 build-gpu/app/gemmlab bench --stages epilogue,wgmma,warp-specialized,cluster,persistent \
    --sizes "$shapes" --budget 1 --json "$OUT/shapes-$r.json" > "$OUT/shapes-$r.txt" 2>&1
  echo "round $r rc=$?"; tail -3 "$OUT/shapes-$r.txt"
done
