#!/usr/bin/env bash
# `gemmlab shot --exercise-solution` (label "gui", under Xvfb): an exercise step of the shipped
# course graded with its stub and with its reference: two different pictures, neither written
# into the learner's exercise files. On a step that is no exercise, or with another value, the
# shot is refused with exit code 2 and a message.
# Usage: gui_shot_exercise.sh GEMMLAB_EXE COURSE
set -euo pipefail
exe=$1
course=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export XDG_CONFIG_HOME=$work/config

for sol in stub reference; do
  "$exe" shot --course "$course" --lesson 15-tma --step 7 --size 1280x800 --lang zh --exercise-solution $sol \
    --out "$work/$sol.png"
  [ -s "$work/$sol.png" ] || fail "--exercise-solution $sol wrote no PNG"
done
cmp -s "$work/stub.png" "$work/reference.png" && fail "the stub's verdict looks the same as the reference's"
[ ! -e "$XDG_CONFIG_HOME/gemmlab/exercises" ] || fail "a shot wrote the learner's exercise files: $(find "$XDG_CONFIG_HOME")"

# A refused shot: exit 2, the message, no PNG.
refused() {  # STEP VALUE MESSAGE
  local png="$work/refused-$1-$2.png" out rc
  set +e
  out=$("$exe" shot --course "$course" --lesson 15-tma --step "$1" --out "$png" --exercise-solution "$2" 2>&1)
  rc=$?
  set -e
  [ "$rc" = 2 ] || fail "step $1, --exercise-solution $2: exit $rc, want 2 ($out)"
  echo "$out" | grep -q "$3" || fail "message: $out"
  [ ! -e "$png" ] || fail "step $1, --exercise-solution $2: refused but still wrote a PNG"
}
refused 1 stub "step 1 of 15-tma is no exercise step"
refused 7 mine "must be reference or stub, got 'mine'"
echo "ok: shot --exercise-solution"
