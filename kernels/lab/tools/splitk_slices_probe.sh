#!/usr/bin/env bash
# On a GPU machine: stage 19b (wgmma-split-k) at a forced number of K slices over the shapes where
# the dispatcher runs it or might, each timed in turns with cuBLAS fp16, to find which slice count
# wins per shape (the dispatcher's rule is then written from the table, not from a guess).
#   OUT=out SLICES="1 2 4" bash kernels/lab/tools/splitk_slices_probe.sh
# GEMMLAB_LAB_SLICES forced the count and GEMMLAB_LAB_UNFUSED=1 chose the separate reduction over
# an in-kernel one (the tile's last block adding the slices); both lived in 19b's launch only for
# this probe and were removed with the in-kernel reduction once it lost (results:
# kernels/lab/results/shapes/splitk-slices-probe.json). To rerun, add such an override back.
# In OUT: device.txt, log.txt, slices.json ({"fused"|"unfused": {slices: {shape: ratio}}}).
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
bash kernels/lab/tools/gpu_build.sh /tmp/build.log gemmlab gpu_check || { tail -30 /tmp/build.log; exit 1; }
grep -E "warning: .*C75|spill" /tmp/build.log | head
for s in 0 3; do
  echo "gpu_check slices=$s"
  GEMMLAB_LAB_SLICES=$([ $s = 0 ] && echo "" || echo $s) timeout 120 build-gpu/kernels/tests/gpu_check \
    --stages wgmma-split-k,auto > /tmp/check.txt 2>&1
  echo "rc=$?"; cat /tmp/check.txt >> "$OUT/log.txt"; grep -vE " ok|SKIP" /tmp/check.txt | tail -8
done
SIZES=${SIZES:-16x8192x8192,128x8192x8192,512x512x16384,1024,2048,64x28672x8192}
mkdir -p /tmp/probe
run() {  # name, env...
  local name=$1; shift
  env "$@" timeout 120 build-gpu/app/gemmlab bench --stages wgmma-split-k --sizes "$SIZES" --budget 1 \
    --json "/tmp/probe/$name.json" > /tmp/probe/$name.txt 2>&1
  echo "$name rc=$?"; cat /tmp/probe/$name.txt >> "$OUT/log.txt"
}
run unfused-default GEMMLAB_LAB_UNFUSED=1
run fused-default X=1
for s in ${SLICES:-1 2 3 4 5 6 8 10 12 16}; do run "unfused-$s" GEMMLAB_LAB_SLICES=$s GEMMLAB_LAB_UNFUSED=1; done
for s in ${FUSED_SLICES:-2 4 8}; do run "fused-$s" GEMMLAB_LAB_SLICES=$s; done
python3 - "$OUT" <<'PY'
import json, glob, os, sys
table = {}
for f in sorted(glob.glob('/tmp/probe/*.json')):
    name = os.path.basename(f)[:-5]
    rows = json.load(open(f))['results']
    table[name] = {f"{r['m']}x{r['n']}x{r['k']}": [round(r['ratio_to_cublas'], 4), round(r['ms'] * 1000, 2)]
                   for r in rows if r['stage'] == 'wgmma-split-k'}
    print(name, table[name])
json.dump(table, open(sys.argv[1] + '/slices.json', 'w'), indent=1)
PY
