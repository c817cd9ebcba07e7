#!/usr/bin/env bash
# Runs every libFuzzer target of the `fuzz` preset (build it first:
#   cmake --preset fuzz && cmake --build --preset fuzz) on its seed corpus.
#   app/fuzz/run_fuzz.sh 5             each target for 5 seconds (what test.sh does)
#   app/fuzz/run_fuzz.sh --runs 1000000  the campaign README records: 1M executions each
#   TARGETS="fuzz_config fuzz_lesson" app/fuzz/run_fuzz.sh 5   some targets only
# Seeds come from the shipped course and assets; the corpus each run grows stays in
# build-fuzz/corpus. A crash stops the script with the target's report and the input saved under
# build-fuzz/crashes (turn it into a regression test).
set -euo pipefail
cd "$(dirname "$0")/../.."
B=build-fuzz
if [ "${1:-}" = --runs ]; then limit=(-runs="${2:?--runs N}"); else limit=(-max_total_time="${1:-5}"); fi
mkdir -p "$B/crashes"

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
  # 60 s per input at most (a hang is a finding; the largest launch plans the limits allow,
  # 2^20 blocks, take 10-20 s under ASan + UBSan), 2 GB of memory.
  if ! "$exe" "${limit[@]}" -timeout=60 -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$B/crashes/$t-" \
      -print_final_stats=1 "$corpus" > "$log" 2>&1; then
    tail -40 "$log"
    echo "[fuzz] $t FAILED: input saved in $B/crashes, log $log" >&2
    exit 1
  fi
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$")
  echo "[fuzz] $t: $runs executions, no finding"
done
