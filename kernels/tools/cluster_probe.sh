#!/usr/bin/env bash
# Measurement (probe commit): does stage 17 need its clusters? GEMMLAB_PERSISTENT_VARIANT=4 runs
# the persistent kernel as 132 independent blocks (no cluster, each block loads its whole B box),
# alternating with the shipped kernel (clusters of 2, B multicast) and stage 15; then where stage
# 17's instructions go (ncu source counters, SASS of the consumer loop).
#   OUT=... bash kernels/tools/cluster_probe.sh   (carry .deps)
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash kernels/tools/gpu_build.sh "$OUT/build.log" gemmlab gpu_check || { tail -30 "$OUT/build.log"; exit 1; }
grep -E "C75|spill" "$OUT/build.log" | head
G=build-gpu/app/gemmlab
GEMMLAB_PERSISTENT_VARIANT=4 timeout 150 build-gpu/kernels/tests/gpu_check --stages persistent > "$OUT/check_4.log" 2>&1
echo "check variant 4 rc=$? $(grep -E 'passed' "$OUT/check_4.log" | tail -1)"
for round in ${ROUNDS:-1 2 3}; do
  GEMMLAB_PERSISTENT_VARIANT=0 timeout 150 "$G" bench --stages warp-specialized,persistent --sizes ${SIZES:-4096,8192} 2>/dev/null |
    grep -E "^(warp|persistent)" | sed "s/^/round $round shipped: /"
  GEMMLAB_PERSISTENT_VARIANT=4 timeout 150 "$G" bench --stages persistent --sizes ${SIZES:-4096,8192} 2>/dev/null |
    grep -E "^persistent" | sed "s/^/round $round no-cluster: /"
done
if [ "${NCU:-1}" = 1 ]; then
  ncu --clock-control none --section SourceCounters -k regex:persistent_kernel -c 1 -o "$OUT/src" \
    "$G" bench --check --stages persistent --sizes 4096 > "$OUT/ncu.log" 2>&1
  echo "ncu rc=$?"
  ncu -i "$OUT/src.ncu-rep" --page source --csv --print-source sass > "$OUT/sass_counts.csv" 2>"$OUT/ncu_src.err"
  echo "source page rc=$? lines $(wc -l < "$OUT/sass_counts.csv")"; head -c 600 "$OUT/sass_counts.csv"; echo
  rm -f "$OUT/src.ncu-rep"
fi
