#!/usr/bin/env bash
# Regenerates assets/screenshots/ (the README's pictures, and the images the fixture course
# shows) from the shipped course with `gemmlab shot`. Needs a display or Xvfb.
#   app/tools/make_screenshots.sh [path/to/gemmlab]
set -euo pipefail
cd "$(dirname "$0")/../.."
exe=${1:-build/app/gemmlab}
out=assets/screenshots
mkdir -p "$out"
run() { "$exe" shot --size 1600x1000 "$@"; }
if [[ -z "${DISPLAY:-}" ]]; then
  exec xvfb-run -a -s "-screen 0 1920x1200x24" env LIBGL_ALWAYS_SOFTWARE=1 "$0" "$@"
fi
run --lesson 04-thread-maps --step 3 --out "$out/thread-map.png"
run --lesson 08-ldmatrix --step 2 --out "$out/fragments.png"
run --lesson 09-swizzle --step 3 --out "$out/banks-swizzle.png"
run --lesson 11-block-swizzle --step 4 --out "$out/grid-l2.png"
run --lesson 13-split-k-stream-k --step 5 --out "$out/stream-k.png"
run --lesson 10-multistage --step 4 --out "$out/pipeline.png"
run --lesson 05-register-tiling --step 7 --out "$out/kernels.png"
run --lesson 14-implicit-gemm --step 4 --out "$out/conv.png"
run --lesson 14-implicit-gemm --step 9 --out "$out/conv-kernels.png"
run --lesson 15-tma --step 4 --out "$out/tma-gmma.png"
run --lesson 17-warp-specialized --step 3 --out "$out/warp-specialized.png"
run --lesson 19-persistent --step 6 --out "$out/kernels-roofline.png"
run --lesson 19-persistent --step 3 --out "$out/persistent-tail.png"
run --lesson 18-cluster --step 7 --out "$out/cluster-grid.png"
run --lesson 18-cluster --step 8 --out "$out/cluster-streaming.png"
run --lesson 06-double-buffer --step 7 --out "$out/code.png"
run --lesson 05-register-tiling --step 3 --out "$out/block-detail.png"
# A predict step with the question open: the views leave out what gives the answer away.
run --lesson 01-problem --step 4 --out "$out/predict-open.png"
run --lesson 09-swizzle --step 3 --lang zh --out "$out/banks-swizzle-zh.png"
run --lesson 09-swizzle --step 2 --lang zh --out "$out/predict-open-zh.png"
# A small picture for Markdown image tests: the thread map alone.
"$exe" shot --lesson 04-thread-maps --step 3 --view-only --size 1000x640 --out "$out/thread-map-view.png"
ls -l "$out"
