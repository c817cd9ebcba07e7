#!/usr/bin/env bash
# On a GPU machine, after a change that must not change the kernels: build (sm_90a), the `gpu`
# tests (correctness + compute-sanitizer), the app's Run through the bench session, the bench of
# every GEMM stage at SIZES, and the ratios next to the committed results of the same GPU.
#   OUT=out SIZES=4096 bash kernels/lab/tools/ladder_check.sh
# Needs the packages of gpu_deps.sh (installed, or .deps/ from `gpu_deps.sh fetch`).
set -uo pipefail
OUT=${OUT:-/tmp/out}
SIZES=${SIZES:-4096}
mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
stamp build
bash kernels/lab/tools/gpu_build.sh "$OUT/build.log" gemmlab gpu_check app_kernel_run stream_hold_test fp8_gpu_test
rc=$?
grep -E "error|warning: .*C75" "$OUT/build.log" | head -20
if [ $rc -ne 0 ]; then tail -30 "$OUT/build.log"; exit 1; fi
stamp "ctest -L gpu"
(cd build-gpu && timeout ${CTEST_S:-250} ctest -L gpu -j5 --output-on-failure --timeout 240) > "$OUT/ctest.log" 2>&1
echo "ctest rc=$?"; grep -E "Test +#|tests passed|FAIL|ERROR SUMMARY" "$OUT/ctest.log" | head -20
stamp bench
timeout ${BENCH_S:-150} build-gpu/app/gemmlab bench --sizes "$SIZES" --json "$OUT/bench.json" > "$OUT/bench.txt" 2>&1
echo "bench rc=$?"; tail -30 "$OUT/bench.txt"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z-')
ref=assets/results/$name.json
[ -f "$ref" ] || ref=assets/results/nvidia-h200.json
python3 - "$ref" "$OUT/bench.json" <<'PY' | tee "$OUT/compare.txt"
import json, sys
def rows(f):
    return {(r["stage"], r["m"], r["n"], r["k"]): r for r in json.load(open(f))["results"]}
a, b = rows(sys.argv[1]), rows(sys.argv[2])
print("stage size committed-ratio now-ratio")
for k in sorted(set(a) & set(b)):
    ra, rb = a[k].get("ratio_to_cublas", 1), b[k].get("ratio_to_cublas", 1)
    print(k[0], "x".join(map(str, k[1:])), round(ra, 3), round(rb, 3), "ok" if b[k].get("ok") else "WRONG")
print("only in the committed file:", sorted(k for k in set(a) - set(b) if k[1:] in {x[1:] for x in b}))
PY
stamp done
