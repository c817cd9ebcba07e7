#!/usr/bin/env bash
# On a GPU machine: does one wave of 64-row tiles with a deep pipeline (one block per SM, about
# 192 KB of stages in flight, no K split) beat stage 19b's split K where M is small? cuBLAS runs
# such kernels there (kernels/lab/results/shapes/cublas-kernels.txt: 64x128 tiles with 8 stages at
# 128x8192x8192, 16x64 tiles with 16 stages at 16x8192x8192, one wave of 128 blocks, no split).
# Adds three scratch stages (19b's kernel, stages/hopper/split_k_wgmma.cuh, on other shapes),
# checks them, benches them in turns with cuBLAS beside 19b and the dispatcher, then removes them.
#   OUT=out [ROUNDS=2] [PROBES=name:M:N:stages:regs,...] [SIZES=a,b] bash kernels/lab/tools/deep_pipeline_probe.sh
# PROBES: the scratch shapes, each a tile of M x N (M 64 or 128, N 64 or 128) on `stages` stages,
# with ptxas's register count (nvcc --resource-usage); the default is the first probe's three.
# Since that probe, deep_128x8 is stage 19e and deep_r128x6 stage 19f (results:
# kernels/lab/results/shapes/deep-probe-round*.json).
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
def=sim/device/gemmlab/stages.def
cp $def /tmp/stages.def.before
dir=kernels/stages/hopper/19x_deep
mkdir -p $dir
PROBES=${PROBES:-deep_128x8:64:128:8:92,deep_64x12:64:64:12:58,deep_r128x6:128:128:6:92}
python3 - $def $dir/deep.cu "$PROBES" <<'PY'
import sys
p, cu, probes = sys.argv[1], sys.argv[2], [x.split(':') for x in sys.argv[3].split(',')]
s = open(p).read()
rows, fns = "", ""
for name, m, n, st, regs in probes:
    shape = f"kernels::hopper::WgmmaShape<{m}, {n}, {st}, false>"
    fns += f"StageLaunch launch_{name}() {{ return SplitKWgmma<hopper::WgmmaShape<{m}, {n}, {st}, false>>::launch(); }}\n"
    rows += f'''GEMMLAB_STAGE(launch_{name},
  .id = "{name.replace('_', '-')}", .short_name = "scratch {name}", .track = StageTrack::hopper,
  .lesson = "19-persistent", .folder = "hopper/19x_deep", .kernel = "split_k_wgmma_kernel<WgmmaShape<{m}, {n}, {st},",
  .tile_m = {m}, .tile_n = {n}, .tile_k = 64, .threads = {shape}::kThreads,
  .regs = {regs}, .smem = int({shape}::kSmemBytes), .loads = GlobalLoad::Tma,
  .partition = Partition::SplitKParallel, .slice_rule = SliceRule::OneWave, .coresident = Coresidency::Even,
  .math = MathOp::WgmmaF16, .smem_mix = SmemMix::Unmodelled)
'''
open(cu, 'w').write("// Scratch stages of kernels/lab/tools/deep_pipeline_probe.sh: 19b's kernel on other shapes.\n"
                    '#include "stages/hopper/split_k_wgmma.cuh"\nnamespace gemmlab::kernels {\n' + fns + "}\n")
i = s.index('GEMMLAB_STAGE(launch_conv_fp16')
open(p, 'w').write(s[:i] + rows + s[i:])
print(",".join(x[0].replace('_', '-') for x in probes))
PY
bash kernels/lab/tools/gpu_build.sh "$OUT/build.log" gemmlab gpu_check
echo "build rc=$?"; grep -E "error|C75|spill" "$OUT/build.log" | head
S=$(echo "$PROBES" | python3 -c "import sys; print(','.join(x.split(':')[0].replace('_', '-') for x in sys.stdin.read().strip().split(',')))")
timeout 200 build-gpu/kernels/tests/gpu_check --stages $S > "$OUT/check.txt" 2>&1
echo "gpu_check rc=$?"; grep -vE " ok|SKIP" "$OUT/check.txt" | tail -8
SIZES=${SIZES:-16x8192x8192,128x8192x8192,1024,64x28672x8192,512x512x16384,96x8192x8192,2048,32x8192x8192}
for r in $(seq 1 ${ROUNDS:-2}); do
  timeout 200 build-gpu/app/gemmlab bench --stages wgmma-split-k,auto,$S --sizes "$SIZES" --budget 1 \
    --json "$OUT/deep-$r.json" > "$OUT/bench-$r.txt" 2>&1
  echo "round $r rc=$?"; grep -vE "^cublas|^ *$" "$OUT/bench-$r.txt" | tail -44
done
cp /tmp/stages.def.before $def; rm -rf $dir
