#!/usr/bin/env bash
# Measurement: ncu's speed-of-light, memory, warp-state and scheduler sections of stage 14e and of
# cuDNN's fused sm90 kernel side by side on one convolution (default: ResNet-50's conv4_x 3x3, where
# cuDNN runs 98 blocks of 128 x 128 and 14e 196 of 64 x 128).
#   OUT=out [LAYER=32,14,14,256,256,3,3,1,1] [KERNELS=regex] [COUNT=n] bash kernels/lab/tools/conv_vs_cudnn_ncu.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
bash kernels/lab/tools/gpu_build.sh /tmp/build.log gemmlab || { tail -30 /tmp/build.log; exit 1; }
export PATH=$PATH:/usr/local/cuda/bin
L=${LAYER:-32,14,14,256,256,3,3,1,1}
timeout 400 ncu --clock-control none -k "regex:${KERNELS:-conv_wgmma|knob_21}" --launch-count ${COUNT:-6} \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
  --section Occupancy --section LaunchStats \
  --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum" \
  build-gpu/app/gemmlab bench --stages conv-wgmma-fused --conv "$L" --budget 1 --warmup 1 --reps 3 > "$OUT/ncu.txt" 2>&1
echo "ncu rc=$?"
grep -E "^  [a-z_:<>, 0-9A-Z()]+\(|^    (Duration|L2 Cache Throughput|DRAM Throughput|Compute \(SM\)|Memory Throughput|L1/TEX Cache Throughput|Issued Warp|No Eligible|Achieved Occupancy|SM Frequency|Grid Size|Cluster Size|Registers Per|Dynamic Shared)|tensor_op_hmma|xbar2l1tex|srcunit_tex" "$OUT/ncu.txt" | tr -s " " | cut -c1-160 | head -150
