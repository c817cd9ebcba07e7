#!/usr/bin/env bash
# Measurement: stage 17's variants (GEMMLAB_PERSISTENT_VARIANT, 17_persistent.cu) in alternating
# rounds against cuBLAS at 4096^3 and 8192^3, after gpu_check of each (HOPPER_NOTES.md).
#   OUT=... VARIANTS="0 3" ROUNDS="1 2 3" bash kernels/tools/persistent_variants.sh   (carry .deps)
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash kernels/tools/gpu_build.sh "$OUT/build.log" gemmlab gpu_check || { tail -30 "$OUT/build.log"; exit 1; }
G=build-gpu/app/gemmlab
for v in ${VARIANTS:-0 3}; do
  GEMMLAB_PERSISTENT_VARIANT=$v timeout 120 build-gpu/kernels/tests/gpu_check --stages persistent > "$OUT/check_$v.log" 2>&1
  echo "check variant $v rc=$? $(grep -E 'passed' "$OUT/check_$v.log" | tail -1)"
done
for round in ${ROUNDS:-1 2 3}; do
  for v in ${VARIANTS:-0 3}; do
    GEMMLAB_PERSISTENT_VARIANT=$v timeout 120 "$G" bench --stages persistent --sizes ${SIZES:-4096,8192} 2>/dev/null |
      grep -E "^persistent" | sed "s/^/round $round variant $v: /"
  done
done
