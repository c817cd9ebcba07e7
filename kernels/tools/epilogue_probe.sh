#!/usr/bin/env bash
# Measurement (HOPPER_NOTES.md, 2026-11-26): SASS + ncu source counters of stage 17 at 4096^3, then
# alternating rounds of GEMMLAB_PERSISTENT_VARIANT (17_persistent.cu) against cuBLAS. carry .deps.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PATH=$PATH:/usr/local/cuda/bin
bash kernels/tools/gpu_build.sh "$OUT/build.log" gemmlab gpu_check || { tail -30 "$OUT/build.log"; exit 1; }
G=build-gpu/app/gemmlab
O=build-gpu/kernels/CMakeFiles/gemmlab_kernels.dir/stages/hopper/17_persistent.cu.o
cuobjdump -sass "$O" > "$OUT/sass17_all.txt"; ls -la "$OUT/sass17_all.txt"
grep -n "Function" "$OUT/sass17_all.txt" | head -20
timeout 200 ncu --clock-control none -k regex:persistent_kernel -c 1 --section SourceCounters --section WarpStateStats -o "$OUT/p17" "$G" bench --check --stages persistent --sizes 4096 > "$OUT/ncu.log" 2>&1; echo "ncu rc=$?"
ncu -i "$OUT/p17.ncu-rep" --page source --csv --print-source sass > "$OUT/src.csv" 2>&1; echo "src rc=$? $(wc -l < $OUT/src.csv)"
head -3 "$OUT/src.csv" | cut -c1-600
for round in 1 2 3; do
  for v in ${VARIANTS:-0 5 7 8}; do
    GEMMLAB_PERSISTENT_VARIANT=$v timeout 120 "$G" bench --stages persistent --sizes ${SIZES:-4096} 2>/dev/null |
      grep -E "^persistent" | cut -c1-80 | sed "s/^/round $round variant $v: /"
  done
done
