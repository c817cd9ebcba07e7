#!/usr/bin/env bash
# Proof that a stage is one folder and one registry row: adds a scratch stage (a copy of stage 6
# under a new id), shows what that added, builds, lists it, checks it against cuBLAS and asks the
# simulator for its launch; then removes it again.
#   OUT=out bash kernels/lab/tools/scratch_stage.sh      (a GPU machine; the packages of gpu_deps.sh)
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
def=$(ls sim/*/gemmlab/stages.def | head -1)
cp "$def" "$OUT/stages.def.before"
dir=kernels/stages/fp32/06_scratch
mkdir -p $dir
sed -e 's/double_buffer_kernel/scratch_kernel/g' -e 's/launch_double_buffer/launch_scratch/g' \
    -e '1s/.*/\/\/ Scratch stage (kernels\/lab\/tools\/scratch_stage.sh): stage 6 under another id./' \
    kernels/stages/fp32/06_double_buffer/double_buffer.cu > $dir/scratch.cu
python3 - "$def" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
row = '''GEMMLAB_STAGE(launch_scratch,
  .id = "scratch", .short_name = "scratch copy of 6", .track = StageTrack::fp32,
  .lesson = "06-double-buffer", .folder = "fp32/06_scratch", .kernel = "scratch_kernel",
  .tile_m = simt_tile::kTileM, .tile_n = simt_tile::kTileN, .tile_k = simt_tile::kTileK,
  .threads = simt_tile::kThreads, .regs = 127, .smem = int(2 * sizeof(simt_tile::SmemStage)),
  .loads = GlobalLoad::Ldg, .coresident = Coresidency::OlderFirst, .math = MathOp::Ffma,
  .smem_mix = SmemMix::SimtDoubleBuffer)
'''
i = s.index('GEMMLAB_STAGE(launch_block_swizzle')
open(p, 'w').write(s[:i] + row + s[i:])
PY
{ echo "== what the scratch stage added: one folder and one row"; find $dir -type f; diff "$OUT/stages.def.before" "$def"; } | tee "$OUT/scratch.txt"
bash kernels/lab/tools/gpu_build.sh "$OUT/build.log" gemmlab sim_test_stage_desc sim_test_registry_ids >/dev/null
echo "build rc=$?" | tee -a "$OUT/scratch.txt"
grep -E "error" "$OUT/build.log" | head
{ echo "== bench --list"; build-gpu/app/gemmlab bench --list | grep -E "double|scratch|swizzle"
  echo "== bench --check"; build-gpu/app/gemmlab bench --check --stages double-buffer,scratch --sizes 1000x1500x700,4096 2>&1 | tail -6
  echo "== sim tests"; (cd build-gpu && ctest -R "sim_test_stage_desc|sim_test_registry_ids" 2>&1 | tail -4)
  echo "== sim schedule --stage scratch"; build-gpu/app/gemmlab sim schedule --device h200 --problem 4096,4096,4096 --stage scratch --json | head -c 300; echo
} 2>&1 | tee -a "$OUT/scratch.txt"
cp "$OUT/stages.def.before" "$def"; rm -rf $dir
