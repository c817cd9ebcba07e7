#!/usr/bin/env bash
# Runs every libFuzzer target of the `fuzz` preset (build it first:
#   cmake --preset fuzz && cmake --build --preset fuzz) on its seed corpus.
#   app/fuzz/run_fuzz.sh 5             each target for 5 seconds (what test.sh does)
#   app/fuzz/run_fuzz.sh --runs 1000000  the campaign README records: 1M executions each
#   TARGETS="fuzz_config fuzz_lesson" app/fuzz/run_fuzz.sh 5   some targets only
#   JOBS=2 app/fuzz/run_fuzz.sh --runs 500000   two processes on one corpus, each 500000 runs
# Seeds come from the shipped course and assets; the corpus each run grows stays in
# build-fuzz/corpus. A crash stops the script with the target's report and the input saved under
# build-fuzz/crashes (turn it into a regression test).
set -euo pipefail
cd "$(dirname "$0")/../.."
B=build-fuzz
if [ "${1:-}" = --runs ]; then limit=(-runs="${2:?--runs N}"); else limit=(-max_total_time="${1:-5}"); fi
mkdir -p "$B/crashes"
jobs=${JOBS:-1}
# The targets' scratch files (settings saved with fsync, course folders) go to memory where the
# system has a tmpfs: on a disk, fsync made fuzz_config 25 times slower.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi

seeds() {  # target -> its seed files
  case $1 in
    fuzz_lesson) ls lessons/*/lesson.toml ;;
    fuzz_markdown) ls lessons/*/*.md lessons/FORMAT.md ;;
    fuzz_ncu_csv) ls assets/results/*.csv sim/tests/data/*.csv ;;
    fuzz_results_json) ls assets/results/*.json ;;
    fuzz_config) ls app/fuzz/seeds/config*.json ;;
    fuzz_ui_text) ls app/fuzz/seeds/ui_*.txt ;;
    fuzz_render) ls lessons/0[1-4]-*/en.md app/tests/fixtures/course/*/en.md ;;
    fuzz_sim_cli) ls sim/fuzz/seeds/*.txt ;;
  esac
}

for t in ${TARGETS:-fuzz_lesson fuzz_markdown fuzz_ncu_csv fuzz_results_json fuzz_config fuzz_ui_text fuzz_sim_cli fuzz_render}; do
  exe=$B/app/$t
  [ -x "$exe" ] || exe=$B/sim/$t
  corpus=$B/corpus/$t
  mkdir -p "$corpus"
  for f in $(seeds $t); do cp -f "$f" "$corpus/seed-$(echo "$f" | tr '/' '_')"; done
  log=$B/$t.log
  # fuzz_render keeps one App across inputs (its caches outlive an input, and libFuzzer's leak
  # check then runs most inputs twice): leaks are the ASan test build's to find.
  extra=(); [ $t = fuzz_render ] && extra=(-detect_leaks=0)
  # 60 s per input at most (a hang is a finding; the largest launch plans the limits allow,
  # 2^20 blocks, take 10-20 s under ASan + UBSan), 2 GB of memory.
  flags=("${limit[@]}" "${extra[@]}" -timeout=60 -rss_limit_mb=2048 -max_len=65536
         -artifact_prefix="$B/crashes/$t-" -print_final_stats=1)
  ok=true
  if [ "$jobs" -gt 1 ]; then
    rm -f "$B"/$t-job*.log
    for j in $(seq 1 "$jobs"); do "$exe" "${flags[@]}" "$corpus" > "$B/$t-job$j.log" 2>&1 & done
    for j in $(seq 1 "$jobs"); do wait -n || ok=false; done
    cat "$B"/$t-job*.log > "$log"
  else
    "$exe" "${flags[@]}" "$corpus" > "$log" 2>&1 || ok=false
  fi
  if ! $ok; then
    tail -40 "$log"
    echo "[fuzz] $t FAILED: input saved in $B/crashes, log $log" >&2
    exit 1
  fi
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$" | paste -sd+ | bc)
  echo "[fuzz] $t: $runs executions in $jobs process(es), no finding"
done
