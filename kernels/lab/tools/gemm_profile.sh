#!/usr/bin/env bash
# Measurement: which kernels cuBLAS runs on the GEMM shapes where the dispatcher (19c) trails it
# (every launch of a short bench run, grouped by name, with grid, block, registers, shared memory,
# cluster shape and median kernel time), then ncu speed-of-light and memory sections of the first
# timed launches of cuBLAS and 19c on each.   OUT=... [SHAPES=a,b] [STAGES=ids] bash kernels/lab/tools/gemm_profile.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
bash kernels/lab/tools/gpu_build.sh "$OUT/build.log" gemmlab || { tail -30 "$OUT/build.log"; exit 1; }
G=build-gpu/app/gemmlab
export PATH=$PATH:/usr/local/cuda/bin
SHAPES=${SHAPES:-128x8192x8192,1024,16x8192x8192,512x512x16384}
STAGES=${STAGES:-auto}
LAUNCH=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__cluster_dim_x,launch__cluster_dim_y
for S in ${SHAPES//,/ }; do
  timeout 150 ncu --clock-control none --metrics $LAUNCH --csv "$G" bench --stages "$STAGES" --sizes "$S" \
    --warmup 2 --reps 6 --budget 1 > "$OUT/launches_$S.csv" 2>"$OUT/launches_$S.err"
  echo "== $S rc=$?"; tail -2 "$OUT/launches_$S.err"
  python3 kernels/lab/tools/ncu_table.py launches "$OUT/launches_$S.csv"
done 2>&1 | tee "$OUT/launches.txt"
for S in ${SHAPES//,/ }; do
  timeout 150 ncu --clock-control none --launch-skip 12 --launch-count 12 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section LaunchStats --section Occupancy "$G" bench --stages "$STAGES" --sizes "$S" --warmup 2 --reps 6 --budget 1 \
    > "$OUT/sol_$S.txt" 2>&1
  echo "== $S rc=$?"
  grep -E "^  [a-zA-Z_]|^    (Duration|DRAM Throughput|Memory Throughput|L2 Cache Throughput|Compute \(SM\)|L2 Hit Rate|Grid Size|Waves Per SM|Achieved Occupancy)" "$OUT/sol_$S.txt" | sed -E 's/ +/ /g' | cut -c1-160
done 2>&1 | tee "$OUT/sol.txt"
