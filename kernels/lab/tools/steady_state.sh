#!/usr/bin/env bash
# Stages run alone at the card's power limit: for each stage (alternating, twice) one bench turn of
# REPS runs in a row, then cuBLAS's turn of as many, with nvidia-smi sampling power and SM clock
# every 20 ms; prints each kernel's median time with the mean power, SM clock and temperature over
# the middle of its turn. What a kernel does when it runs by itself for seconds, where the bench's
# turns of 2 runs compare kernels at a shared clock.
#   STAGES=warp-specialized,cluster SIZES="4096 8192" OUT=out bash kernels/lab/tools/steady_state.sh
#   (about 10 s a stage and size after the build)
# REPS: runs a turn (default 10000 at 4096^3, about 2 s; 1500 from 8192^3 up).
# Output ($OUT): runs.txt (one line a bench), smi.csv (the samples).
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader | head -1), $(date -u +%FT%H:%MZ)"
[ -x build-gpu/app/gemmlab ] || bash kernels/lab/tools/gpu_build.sh /tmp/steady_build.log gemmlab || { tail -20 /tmp/steady_build.log; exit 1; }
G=build-gpu/app/gemmlab
IFS=, read -r -a stages <<< "${STAGES:-warp-specialized,cluster}"
nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm,temperature.gpu --format=csv,noheader,nounits -lms 20 > "$OUT/smi.csv" &
smi=$!
sleep 1
: > "$OUT/runs.txt"
for size in ${SIZES:-4096}; do
  for round in 1 2; do
    for st in "${stages[@]}"; do
      reps=${REPS:-$([ "$size" -ge 8192 ] && echo 1500 || echo 10000)}
      t0=$(date +%s.%N)
      line=$("$G" bench --stages "$st" --sizes "$size" --reps "$reps" --per-turn "$reps" --budget 1000 --warmup 2 2>/dev/null |
             grep -E "^$st " | sed -E 's/ +/ /g')
      t1=$(date +%s.%N)
      echo "$st $size $t0 $t1 $line" >> "$OUT/runs.txt"
      sleep 2
    done
  done
done
kill $smi
# A bench process ends with the stage's turn, then cuBLAS's (runner.cu's time_in_turns); the
# middle 70% of each turn, placed back from the process's end by the turns' lengths, is averaged.
# nvidia-smi stamps local time: run it with TZ=UTC.
python3 - "$OUT" <<'PY'
import datetime, sys
out = sys.argv[1]
samples = []
for line in open(out + "/smi.csv"):
    f = [x.strip() for x in line.split(",")]
    try:
        t = datetime.datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc).timestamp()
        samples.append((t, float(f[1]), float(f[2]), float(f[3])))
    except (ValueError, IndexError):
        pass
def mean(xs, i):
    return sum(x[i] for x in xs) / len(xs) if xs else float("nan")
for line in open(out + "/runs.txt"):
    f = line.split()
    if len(f) < 13:
        print("no result:", line.strip())
        continue
    stage, size, t0, t1 = f[0], f[1], float(f[2]), float(f[3])
    ms, ratio, reps = float(f[6]), float(f[8].rstrip("%")) / 100, int(f[11])
    t_stage, t_cublas = reps * ms / 1e3, reps * ms * ratio / 1e3
    end_stage = t1 - 0.3 - t_cublas
    own = [s for s in samples if end_stage - 0.8 * t_stage <= s[0] <= end_stage - 0.1 * t_stage]
    cub = [s for s in samples if t1 - 0.3 - 0.8 * t_cublas <= s[0] <= t1 - 0.3 - 0.1 * t_cublas]
    print(f"{stage:17s} {size:>5s}  {ms:.4f} ms ({100 * ratio:.1f}% of cuBLAS)  alone: {mean(own, 1):.0f} W "
          f"{mean(own, 2):.0f} MHz {mean(own, 3):.0f} C ({len(own)} samples)  cuBLAS's turn: {mean(cub, 1):.0f} W "
          f"{mean(cub, 2):.0f} MHz ({len(cub)} samples)")
PY
