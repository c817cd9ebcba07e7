#!/usr/bin/env bash
# Measurement (HOPPER_NOTES.md, 2026-11-26): L2 cache hints on the C stores / A, B loads (variants
# 9-11): checks, ncu DRAM bytes and L2 hit rate, alternating rounds. carry .deps.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PATH=$PATH:/usr/local/cuda/bin
bash kernels/tools/gpu_build.sh "$OUT/build.log" gemmlab gpu_check || { tail -30 "$OUT/build.log"; exit 1; }
G=build-gpu/app/gemmlab
for v in 9 10 11; do
  GEMMLAB_PERSISTENT_VARIANT=$v timeout 120 build-gpu/kernels/tests/gpu_check --stages persistent > "$OUT/check_$v.log" 2>&1
  echo "check variant $v rc=$? $(grep -E 'passed' "$OUT/check_$v.log" | tail -1)"
done
for v in 0 9 10; do
GEMMLAB_PERSISTENT_VARIANT=$v timeout 200 ncu --clock-control none -k regex:persistent_kernel -c 1 --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum "$G" bench --check --stages persistent --sizes 4096 2>&1 | grep -E "dram__|lts__|gpu__time" | sed "s/^/v$v /"
done
for round in 1 2 3; do
  for v in ${VARIANTS:-0 9 10 11}; do
    GEMMLAB_PERSISTENT_VARIANT=$v timeout 120 "$G" bench --stages persistent --sizes ${SIZES:-4096,8192} 2>/dev/null |
      grep -E "^persistent" | cut -c1-80 | sed "s/^/round $round variant $v: /"
  done
done
