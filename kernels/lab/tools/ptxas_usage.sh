#!/usr/bin/env bash
# ptxas_usage.sh [ARCH] [FILES...]: registers, shared memory and spills of each kernel, from
# ptxas -v (no GPU needed). Default: sm_90a, every stage file.
set -euo pipefail
cd "$(dirname "$0")/../../.."
arch=${1:-sm_90a}
shift || true
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(kernels/stages/*/*/*.cu)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
for f in "${files[@]}"; do
  "$nvcc" -std=c++20 --expt-relaxed-constexpr -O3 -arch="$arch" -Ikernels -Isim/device \
    -Xptxas -v -c "$f" -o /dev/null 2>&1 |
    awk -v file="$(basename "$f")" '
      /Compiling entry function/ { match($0, /_Z[A-Za-z0-9_]+/); fn = substr($0, RSTART, RLENGTH) }
      /bytes stack frame/ { spill = $0; sub(/^.*ptxas info *: */, "", spill) }
      /Used [0-9]+ registers/ {
        line = $0; sub(/^.*Used /, "", line)
        n = split(fn, parts, /kernel/)
        short = fn; if (match(fn, /[a-z_0-9]*_kernel/)) short = substr(fn, RSTART, RLENGTH)
        printf "%-22s %-34s %s | %s\n", file, short, line, spill
      }'
done
