#!/usr/bin/env bash
# Every colour-coded view says what its colours mean (label "gui", under Xvfb): one step per view
# is rendered with `gemmlab shot`, and the legend widgets it drew (ui_util.h legend_*, traced to
# $GEMMLAB_UI_TRACE) must include that view's own (the first frame also draws the thread map).
# Usage: gui_legends.sh GEMMLAB_EXE
set -euo pipefail
exe=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
# lesson step view legend: a step of the shipped course that shows the view, and the start of
# the title of a legend only that view draws
while read -r lesson step view legend; do
  trace=$work/$view.jsonl
  GEMMLAB_UI_TRACE=$trace "$exe" shot --lesson "$lesson" --step "$step" --out "$work/$view.png" --size 1280x800 \
    >"$work/$view.log" 2>&1 || { echo "FAIL: shot of $lesson step $step: $(tail -2 "$work/$view.log")"; fails=1; continue; }
  if grep -q "\"widget\":\"legend $legend" "$trace" 2>/dev/null; then
    echo "ok: $view ($lesson step $step): $(grep -o '"widget":"legend [^"]*"' "$trace" | sed 's/"widget":"//; s/"$//' | sort -u | paste -sd ';' -)"
  else
    echo "FAIL: the $view view ($lesson step $step) drew no legend '$legend...'"
    fails=1
  fi
done <<'LIST'
04-thread-maps 1 threadmap thread
07-tensor-cores 2 fragments lanes
09-swizzle 1 banks words
11-block-swizzle 4 grid DRAM sectors
19-persistent 1 grid wave
11-block-swizzle 1 grid launch order
17-warp-specialized 2 pipeline timeline
20-fp8 3 fp8accum lines
19-persistent 6 kernels bars
19-persistent 7 kernels % of cuBLAS
14-implicit-gemm 2 conv window
15-tma 2 gmma bank group
06-double-buffer 7 code lines
LIST
exit $fails
