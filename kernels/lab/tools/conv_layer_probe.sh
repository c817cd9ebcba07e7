#!/usr/bin/env bash
# Measurement: stage 14e (or STAGES) against cuDNN's fused graph on chosen convolutions, ROUNDS
# rounds, then (NCU="spec ...") the kernels cuDNN and 14e launch on each (name, grid, block, shared memory,
# cluster, duration, DRAM throughput). Used to tell a layer's wave quantization from its per-SM speed:
# the same layer at a batch whose tiles fill the SMs evenly, the same GEMM without the stride.
#   OUT=out ROUNDS=3 [VARIANTS="X=0 X=1"] LAYERS="32,14,14,256,256,3,3,1,1 43,14,14,256,256,3,3,1,1" bash kernels/lab/tools/conv_layer_probe.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
bash kernels/lab/tools/gpu_build.sh /tmp/build.log gemmlab gpu_check || { tail -30 /tmp/build.log; exit 1; }
G=build-gpu/app/gemmlab
STAGES=${STAGES:-conv-wgmma-fused}
args=()
for L in $LAYERS; do args+=(--conv "$L"); done
if [ -n "${CHECK:-}" ]; then
  timeout 200 build-gpu/kernels/tests/gpu_check --stages "$CHECK" > /tmp/gpu_check.txt 2>&1
  echo "gpu_check rc=$?"; cat /tmp/gpu_check.txt >> "$OUT/log.txt"; grep -vE " ok|SKIP" /tmp/gpu_check.txt | tail -8
fi
# VARIANTS="A=0 A=1": each round runs the bench once per variant, under those environment settings
# (a lab switch of a kernel), in turns.
for r in $(seq 1 "${ROUNDS:-3}"); do
  i=0
  for v in ${VARIANTS:-GEMMLAB_NONE=0}; do
    i=$((i + 1))
    env "$v" timeout 200 "$G" bench --stages "$STAGES" "${args[@]}" --budget 1 --json "$OUT/probe-$r-$i.json" \
      > /tmp/probe.txt 2>&1
    echo "round $r $v rc=$?"; cat /tmp/probe.txt >> "$OUT/log.txt"; grep -E "^$STAGES" /tmp/probe.txt | tr -s " " | cut -c1-100 | tail -24
  done
done
[ -n "${NCU:-}" ] || exit 0
export PATH=$PATH:/usr/local/cuda/bin
for L in $NCU; do
  f="$OUT/ncu_${L//,/_}.csv"
  timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__cluster_dim_x,launch__cluster_dim_y,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed \
    --csv "$G" bench --stages "$STAGES" --conv "$L" --budget 1 --warmup 1 --reps 3 > "$f" 2>"$f.err"
  echo "ncu $L rc=$?"; python3 kernels/lab/tools/ncu_table.py launches "$f"
done
