#!/usr/bin/env bash
# Measurement: where stage 20b's (fp8-block) consumer warps wait, instruction by instruction, beside
# stage 20a (fp8-tensor) on the same problem: the SASS of both kernels (cuobjdump), then one launch
# of each under ncu with the source counters (sampled stall reasons per SASS instruction), warp
# states and the tensor pipe's utilisation, printed as a table of the hottest instructions.
#   OUT=... [SIZE=4096x7168x16384] bash kernels/lab/tools/fp8_sass_profile.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
bash kernels/lab/tools/gpu_build.sh "$OUT/build.log" gemmlab || { tail -30 "$OUT/build.log"; exit 1; }
G=build-gpu/app/gemmlab
export PATH=$PATH:/usr/local/cuda/bin
SIZE=${SIZE:-4096x7168x16384}
for K in fp8_block_kernel fp8_tensor_kernel; do
  # The SASS of the TMA-epilogue instantiation (Epilogue 1), the one the bench runs at this size.
  cuobjdump -sass "$G" 2>/dev/null | awk -v k="$K" '
    /Function :/ { keep = index($0, k) > 0 && index($0, "EpilogueE1") > 0 }
    keep { print }' > "$OUT/$K.sass"
  echo "== $K: $(grep -cE '^ +/\*[0-9a-f]{4}\*/' "$OUT/$K.sass") SASS instructions"
done
for ST in fp8-block fp8-tensor; do
  K=$([ $ST = fp8-block ] && echo fp8_block_kernel || echo fp8_tensor_kernel)
  timeout 240 ncu --clock-control none --kernel-name "regex:$K" --launch-skip 2 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section ComputeWorkloadAnalysis \
    --section InstructionStats -f -o "$OUT/$ST" "$G" bench --stages "$ST" --sizes "$SIZE" --warmup 1 --reps 3 \
    --budget 1 > "$OUT/$ST.ncu.log" 2>&1
  echo "== $ST ncu rc=$?"; tail -3 "$OUT/$ST.ncu.log"
  ncu -i "$OUT/$ST.ncu-rep" --print-details all > "$OUT/$ST.details.txt" 2>&1
  grep -E "Duration|Compute \(SM\) Throughput|Issue Slots Busy|Executed Ipc Active|Warp Cycles Per Issued|Stall|Tensor|Executed Instructions " \
    "$OUT/$ST.details.txt" | sed -E 's/ +/ /g' | cut -c1-150 | head -40
  ncu -i "$OUT/$ST.ncu-rep" --page source --print-source sass --csv > "$OUT/$ST.source.csv" 2>&1
  echo "== $ST source page rc=$? ($(wc -l < "$OUT/$ST.source.csv") lines)"
  python3 kernels/lab/tools/ncu_table.py hot "$OUT/$ST.source.csv" 2>&1 | head -60
done
