#!/usr/bin/env bash
# On a GPU machine: correctness and timing of the stages added to the registry — the FP8 stages
# (20a, 20b) against cuBLASLt with the same scaling and the fp16 dispatcher (19c) over issue 51's
# shapes — each bench ROUNDS times, one results JSON per round (the spread is the noise).
#   OUT=out ROUNDS=3 bash kernels/lab/tools/new_stages_check.sh
#   CHECK=ids SWEEP=ids  (defaults: fp8-tensor,fp8-block,auto,wgmma-split-k and auto) narrow the
#   correctness run and the stages benched over the shapes; SKIP_FP8=1 / SKIP_AUTO=1 skip a bench.
#   CONV=ids benches those conv stages over ResNet-50's layers each round (conv-r.json).
#   ROWS=ids ROW_SIZES=shapes benches those stages at those shapes each round (rows-r.json).
# Needs the packages of gpu_deps.sh (installed, or .deps/ from `gpu_deps.sh fetch`).
# In OUT: device.txt, log.txt (every step's output) and the results JSON of each round.
set -uo pipefail
OUT=${OUT:-/tmp/out}
ROUNDS=${ROUNDS:-3}
mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
stamp build
bash kernels/lab/tools/gpu_build.sh /tmp/build.log gemmlab gpu_check fp8_gpu_test
rc=$?
grep -E "error|warning: .*C75" /tmp/build.log | head -20
if [ $rc -ne 0 ]; then tail -30 /tmp/build.log; exit 1; fi
CHECK=${CHECK:-fp8-tensor,fp8-block,auto,wgmma-split-k}
SWEEP=${SWEEP:-auto}
stamp "gpu_check $CHECK"
timeout ${CHECK_TIMEOUT:-120} build-gpu/kernels/tests/gpu_check --stages "$CHECK" > /tmp/gpu_check.txt 2>&1
echo "gpu_check rc=$?"; cat /tmp/gpu_check.txt >> "$OUT/log.txt"; grep -vE " ok|SKIP" /tmp/gpu_check.txt | tail -15
[ "${SKIP_FP8:-}" ] || { stamp fp8_gpu_test; timeout 150 build-gpu/kernels/tests/fp8_gpu_test > /tmp/fp8_gpu_test.txt 2>&1
echo "fp8_gpu_test rc=$?"; cat /tmp/fp8_gpu_test.txt >> "$OUT/log.txt"; grep -E "FAILED|PASSED|tests ran|refused" /tmp/fp8_gpu_test.txt | tail -12; }
shapes=4096x8192x8192,4096x28672x8192,4096x8192x28672,4096x10240x8192,16384x8192x8192,8192x1024x8192
shapes+=,2048,1024,128x8192x8192,64x28672x8192,16x8192x8192,512x512x16384
for r in $(seq 1 "$ROUNDS"); do
  stamp "round $r"
  if [ -z "${SKIP_FP8:-}" ]; then
    timeout 100 build-gpu/app/gemmlab bench --stages fp8-tensor,fp8-block --sizes 4096,8192,4096x7168x16384 \
      --json "$OUT/fp8-$r.json" > /tmp/fp8.txt 2>&1
    echo "fp8 rc=$?"; cat /tmp/fp8.txt >> "$OUT/log.txt"; grep -E "fp8" /tmp/fp8.txt | tail -12
  fi
  if [ -n "${CONV:-}" ]; then
    timeout 200 build-gpu/app/gemmlab bench --conv resnet50 --stages "$CONV" --json "$OUT/conv-$r.json" > /tmp/conv.txt 2>&1
    echo "conv rc=$?"; cat /tmp/conv.txt >> "$OUT/log.txt"; tail -60 /tmp/conv.txt
  fi
  if [ -n "${ROWS:-}" ]; then
    timeout 120 build-gpu/app/gemmlab bench --stages "$ROWS" --sizes "$ROW_SIZES" --budget 1 --json "$OUT/rows-$r.json" \
      > /tmp/rows.txt 2>&1
    echo "rows rc=$?"; cat /tmp/rows.txt >> "$OUT/log.txt"; grep -vE "^cublas|^ *$|^\[" /tmp/rows.txt | tail -16
  fi
  [ "${SKIP_AUTO:-}" ] && continue
  timeout 150 build-gpu/app/gemmlab bench --stages "$SWEEP" --sizes "$shapes" --budget 1 \
    --json "$OUT/auto-$r.json" > /tmp/auto.txt 2>&1
  echo "auto rc=$?"; cat /tmp/auto.txt >> "$OUT/log.txt"; grep -vE "^cublas|^ *$" /tmp/auto.txt | tail -30
done
stamp done
