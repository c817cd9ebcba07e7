#!/usr/bin/env bash
# run_sanitizer.sh SANITIZER TOOL PROGRAM ARGS...: PROGRAM under `compute-sanitizer --tool TOOL`,
# failing on any report. Exit 77 (ctest: Skipped) when there is no GPU or no compute-sanitizer.
set -u
sanitizer=$1 tool=$2
shift 2
"$1" --probe
probe=$?
if [ "$probe" -eq 77 ]; then exit 77; fi  # the program printed "skipped: no GPU ..."
if [ "$probe" -ne 0 ]; then echo "probe failed ($probe)"; exit 1; fi
if ! command -v "$sanitizer" >/dev/null 2>&1; then
  echo "skipped: compute-sanitizer not found (it comes with the CUDA toolkit, next to nvcc)"
  exit 77
fi
exec "$sanitizer" --tool "$tool" --error-exitcode 1 --print-limit 20 "$@"
