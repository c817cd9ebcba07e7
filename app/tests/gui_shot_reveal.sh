#!/usr/bin/env bash
# `gemmlab shot --reveal` (label "gui", under Xvfb): a predict step rendered before and after
# Reveal. Before, the views draw none of the facts that give the answer away; after, they draw the
# answer's facts (here the thread map's iterations), and the meta file says revealed. --reveal on a
# step without a predict question is refused with exit code 2 and a message naming the step.
# Usage: gui_shot_reveal.sh GEMMLAB_EXE FIXTURE_COURSE
set -euo pipefail
exe=$1
course=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$exe" shot --course "$course" --lesson 01-threads --step 3 --out "$work/before.png" --meta --size 1280x800
"$exe" shot --course "$course" --lesson 01-threads --step 3 --out "$work/after.png" --meta --reveal --size 1280x800
grep -q '"revealed": false' "$work/before.png.json" || fail "before: not marked unrevealed: $(cat "$work/before.png.json")"
grep -q '"revealed": true' "$work/after.png.json" || fail "after: not marked revealed: $(cat "$work/after.png.json")"
if grep -q '"threadmap.iterations"' "$work/before.png.json"; then fail "before Reveal the view drew threadmap.iterations"; fi
grep -q '"threadmap.iterations"' "$work/after.png.json" || fail "after Reveal the view did not draw threadmap.iterations: $(cat "$work/after.png.json")"
cmp -s "$work/before.png" "$work/after.png" && fail "the revealed step looks the same as the unrevealed one"

set +e
out=$("$exe" shot --course "$course" --lesson 01-threads --step 1 --out "$work/x.png" --reveal 2>&1)
rc=$?
set -e
[ "$rc" = 2 ] || fail "--reveal on a step without predict: exit $rc, want 2 ($out)"
echo "$out" | grep -q "step 1 of 01-threads asks no predict question" || fail "message: $out"
[ ! -e "$work/x.png" ] || fail "--reveal on a step without predict still wrote a PNG"
echo "ok: shot --reveal"
