#!/usr/bin/env bash
# Drives the real window (label "gui", under Xvfb): click Next, press Right, press Space, and
# check from the window title that the step changed and the view started playing; then quit
# with Ctrl+Q and check the last lesson and step were saved in the per-user config file. On the
# way, an edit of the open lesson's lesson.toml must reload it by itself (an author's loop).
# Usage: gui_xdotool.sh GEMMLAB_EXE FIXTURE_COURSE
set -euo pipefail
exe=$1
work=$(mktemp -d)
cp -r "$2" "$work/course"  # the test edits it
course=$work/course
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config
export GEMMLAB_UI_TRACE=$work/trace.jsonl

fail() { echo "FAIL: $*"; echo "--- title: $(title)"; echo "--- app log:"; cat "$work/log" || true; exit 1; }
title() { xdotool getwindowname "$wid" 2>/dev/null || true; }
wait_title() {  # wait_title PATTERN: up to 20 s for the title to match
  for _ in $(seq 1 100); do
    [[ "$(title)" == *"$1"* ]] && return 0
    sleep 0.2
  done
  fail "title never showed '$1'"
}
widget_centre() {  # the last rect the app traced for a widget, as "x y"
  grep "\"widget\":\"$1\"" "$GEMMLAB_UI_TRACE" | tail -1 |
    sed -E 's/.*"x0":([0-9.]+),"y0":([0-9.]+),"x1":([0-9.]+),"y1":([0-9.]+).*/\1 \2 \3 \4/' |
    awk '{printf "%d %d\n", ($1+$3)/2, ($2+$4)/2}'
}

"$exe" --course "$course" --lesson 01-threads --step 1 --size 1400x900 >"$work/log" 2>&1 &
pid=$!
wid=""
for _ in $(seq 1 100); do
  wid=$(xdotool search --name "^GEMM Lab - " 2>/dev/null | head -1 || true)
  [[ -n "$wid" ]] && break
  kill -0 "$pid" 2>/dev/null || fail "the app exited early"
  sleep 0.2
done
[[ -n "$wid" ]] || fail "no window appeared"
wait_title "01-threads - step 1/3"
xdotool windowfocus --sync "$wid" 2>/dev/null || xdotool windowfocus "$wid"

# 1. Click the Next button where the app drew it.
for _ in $(seq 1 50); do grep -q '"widget":"next"' "$GEMMLAB_UI_TRACE" 2>/dev/null && break; sleep 0.2; done
read -r x y < <(widget_centre next)
xdotool mousemove --window "$wid" "$x" "$y"
sleep 0.3
xdotool click 1
wait_title "01-threads - step 2/3"
echo "ok: clicking Next went to step 2"

# 2. Right arrow: the next step (move the mouse off the buttons first).
xdotool mousemove --window "$wid" 5 300
xdotool key Right
wait_title "01-threads - step 3/3"
echo "ok: Right went to step 3"

# 3. Space: the thread map plays its iterations.
xdotool key space
wait_title "[playing]"
echo "ok: Space started the animation"
xdotool key space
for _ in $(seq 1 50); do [[ "$(title)" != *"[playing]"* ]] && break; sleep 0.2; done
[[ "$(title)" != *"[playing]"* ]] || fail "Space did not pause"
echo "ok: Space paused it"

# 4. Left arrow goes back.
xdotool key Left
wait_title "01-threads - step 2/3"
echo "ok: Left went back to step 2"

# 5. An author edits the open lesson: a fourth step appears without a restart.
sleep 1.1  # a new modification time even on file systems with 1-second stamps
printf '\n[[step]]\nview = "threadmap"\n' >> "$course/01-threads/lesson.toml"
wait_title "01-threads - step 2/4"
echo "ok: editing lesson.toml reloaded the lesson"

# 6. Ctrl+Q quits and the position is remembered.
xdotool key ctrl+q
for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
kill -0 "$pid" 2>/dev/null && fail "Ctrl+Q did not quit"
wait "$pid" || fail "the app exited with an error"
cfg=$XDG_CONFIG_HOME/gemmlab/config.json
[[ -f "$cfg" ]] || fail "no config file at $cfg"
grep -q '"last_lesson": "01-threads"' "$cfg" || fail "last lesson not saved: $(cat "$cfg")"
grep -q '"last_step": 1' "$cfg" || fail "last step not saved: $(cat "$cfg")"
grep -qi "error:" "$work/log" && fail "the app logged an error"
echo "ok: quit with Ctrl+Q, config saved"
