#!/usr/bin/env bash
# Measurement: which kernels cuDNN (and cuBLAS, im2col) run on three 3x3 layers (every launch of a
# bench run, grouped by name, with grid, block, registers, shared memory and cluster shape), then ncu
# sections (speed of light, memory, warp stalls) of stage 21 on them. OUT=... bash kernels/lab/tools/conv_profile.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
bash kernels/lab/tools/gpu_build.sh "$OUT/build.log" gemmlab gpu_check || { tail -30 "$OUT/build.log"; exit 1; }
G=build-gpu/app/gemmlab
export PATH=$PATH:/usr/local/cuda/bin
for L in 32,56,56,64,64,3,3,1,1 32,7,7,512,512,3,3,1,1 32,28,28,128,128,3,3,1,1; do
  timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__cluster_dim_x,launch__cluster_dim_y,launch__cluster_dim_z \
    --csv "$G" bench --stages conv-wgmma --conv $L --budget 1 > "$OUT/all_${L//,/_}.csv" 2>"$OUT/all_${L//,/_}.err"
  echo "layer $L rc=$?"; tail -3 "$OUT/all_${L//,/_}.err"
  python3 kernels/lab/tools/ncu_table.py launches "$OUT/all_${L//,/_}.csv"
done
for L in 32,56,56,64,64,3,3,1,1 32,7,7,512,512,3,3,1,1 32,28,28,128,128,3,3,1,1; do
  timeout 120 ncu --clock-control none -k regex:conv_wgmma --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio" --section SchedulerStats --section Occupancy --section LaunchStats \
    "$G" bench --check --stages conv-wgmma --conv $L > "$OUT/ncu_${L//,/_}.txt" 2>&1
  echo "ncu $L rc=$?"
  grep -E "^    (Duration|L2 Cache Throughput|DRAM Throughput|Compute \(SM\)|L1/TEX Cache Throughput|Issued Warp|No Eligible|Achieved Occupancy|SM Frequency|Grid Size|Registers Per)" "$OUT/ncu_${L//,/_}.txt" | sort -u | tr -s " " | tr "\n" ";"; echo; grep -E "issue_stalled" "$OUT/ncu_${L//,/_}.txt" | sort -u | sort -k3 -g -r | head -5 | sed -E "s/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//" | tr -s " " | tr "\n" ";"; echo
done
