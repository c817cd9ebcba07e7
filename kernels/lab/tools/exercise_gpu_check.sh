#!/usr/bin/env bash
# On a GPU machine: an exercise graded on the GPU (kernels/exercise/), end to end. Builds the GPU
# tree, runs the `gpu` tests (the exercise grades among them), grades the shipped references of the
# exercises with a GPU harness with `gemmlab exercise --json`, and benches the stages whose kernels
# the harnesses rebuild at 4096^3 beside the committed ratios.
#   OUT=out bash kernels/lab/tools/exercise_gpu_check.sh
#   QUICK=1 ...   the exercise's own test and grades only (no sanitizers, no bench)
# Needs the packages of gpu_deps.sh (installed, or .deps/ from `gpu_deps.sh fetch`).
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
stamp build
bash kernels/lab/tools/gpu_build.sh "$OUT/build.log" gemmlab gpu_check app_kernel_run stream_hold_test exercise_gpu_grade
rc=$?
grep -E "error|warning: .*C75" "$OUT/build.log" | head -20
if [ $rc -ne 0 ]; then tail -40 "$OUT/build.log"; exit 1; fi
stamp "ctest -L gpu"
only=(); [ -n "${QUICK:-}" ] && only=(-R gpu_exercise_grade)
(cd build-gpu && timeout ${CTEST_S:-300} ctest -L gpu "${only[@]}" -j5 --output-on-failure --timeout 280) > "$OUT/ctest.log" 2>&1
echo "ctest rc=$?"; grep -E "Test +#|tests passed|FAIL|ERROR SUMMARY|Failure|Expected|reason" "$OUT/ctest.log" | head -30
stamp exercise
for e in 09-swizzle/smem-offset 11-block-swizzle/block-order 04-thread-maps/coalesced-map 15-tma/box-coords 14-implicit-gemm/im2col \
         17-warp-specialized/mbarrier-parity 20-fp8/quantize; do
  f="$OUT/exercise-$(basename $e).json"
  timeout 120 build-gpu/app/gemmlab exercise $e --solution reference --json > "$f" 2>&1
  echo "exercise $e rc=$?"; python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['device'])" "$f"
done
[ -n "${QUICK:-}" ] && { stamp done; exit 0; }
stamp bench
timeout 240 build-gpu/app/gemmlab bench --stages mma-sync,ldmatrix,smem-swizzle,double-buffer,block-swizzle,simt-tile,tma,warp-specialized --sizes 4096 --json "$OUT/bench.json" > "$OUT/bench.txt" 2>&1
echo "bench rc=$?"; tail -8 "$OUT/bench.txt"
stamp done
