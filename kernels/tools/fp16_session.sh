#!/usr/bin/env bash
# One GPU session for the FP16 stages (8-12): build, correctness, timings and variants, ncu
# shared-memory counters, compute-sanitizer. Run from the repo root on the GPU machine:
#   bash kernels/tools/fp16_session.sh [steps]     steps: any of build,sass,check,bench,time,ncu,
#                                                  explore,sanitize (default: all but explore)
# FP16_TUNE_ONLY=id,id,... limits the time step to those stages / variants (fp16_tune/main.cu).
# Needs the carried .deps (`bash kernels/tools/gpu_deps.sh fetch`). Logs and tables are written to a work folder
# and packed into $OUT/fp16_logs.tgz at exit (the device tool returns at most 8 files).
# Each step has its own time limit so that a slow one cannot eat the whole call.
set -u
FINAL=${OUT:-/tmp/fp16}
OUT=/tmp/fp16_work
rm -rf "$OUT"
mkdir -p "$OUT" "$FINAL"
trap 'tar czf "$FINAL/fp16_logs.tgz" -C "$OUT" . 2>/dev/null' EXIT
STEPS=${1:-build,sass,check,bench,time,ncu,sanitize}
STAGES=mma-sync,ldmatrix,smem-swizzle,multistage,epilogue
NVCC=/usr/local/cuda/bin/nvcc
SIZES_TIME=${SIZES_TIME:-"4096 8192"}
has() { [[ ",$STEPS," == *",$1,"* ]]; }
say() { echo "[$(date +%T)] $*"; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv | tee "$OUT/gpu.txt"

if has build; then
  say build
  P=$(bash kernels/tools/gpu_deps.sh unpack) || exit 1
  cmake --preset gpu -DCMAKE_PREFIX_PATH="$P" -DCMAKE_CUDA_ARCHITECTURES=90a-real \
    >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
  cmake --build build-gpu --target gpu_check -j16 >>"$OUT/build.log" 2>&1 ||
    { grep -E "error|Error" -A3 "$OUT/build.log" | head -60; exit 1; }
  # `gemmlab bench` also needs the sim CLI; not needed by the steps below.
  cmake --build build-gpu --target gemmlab -j16 >>"$OUT/build.log" 2>&1 || echo "gemmlab did not build"

  grep -E "spill|warning" "$OUT/build.log" | grep -v "^--" | head -20
  # The tuning tool: variants of the stages, checked and timed through the runner.
  for f in variants_sync variants_multistage variants_epilogue main; do
    $NVCC -std=c++20 --expt-relaxed-constexpr -O3 -gencode=arch=compute_90a,code=sm_90a \
      -I kernels -I kernels/tools -I sim/include -c kernels/tools/fp16_tune/$f.cu \
      -o build-gpu/fp16_tune_$f.o >>"$OUT/build.log" 2>&1 &
  done
  wait
  $NVCC -o build-gpu/fp16_tune build-gpu/fp16_tune_*.o build-gpu/kernels/libgemmlab_runner.a \
    -Xlinker --whole-archive build-gpu/kernels/libgemmlab_kernels.a -Xlinker --no-whole-archive \
    -lcublas >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
  say built
fi
GPU_CHECK=$(find build-gpu -name gpu_check -type f -perm -u+x | head -1)

if has sass; then
  # Registers / shared memory per kernel, and the instructions each stage is meant to have.
  for s in ${STAGES//,/ }; do
    o=$(find build-gpu -name "$s.cu.o" | head -1)
    /usr/local/cuda/bin/cuobjdump -res-usage "$o" 2>/dev/null | grep -E "Function|REG" |
      sed -E 's/Function (_Z[^:]*kernel[^:]*):/\1/' >>"$OUT/resources.txt"
    /usr/local/cuda/bin/cuobjdump -sass "$o" >"$OUT/sass_$s.txt" 2>&1
    printf "%-13s " "$s"
    for op in HMMA.16816.F32 LDSM.16.M88.4 'LDS ' LDS.128 'STS ' STS.128 LDGSTS.E.BYPASS.128 \
              LDG.E.128 STG.E.128 'STG.E '; do
      printf "%s=%s " "$(echo $op | tr -d ' ')" "$(grep -c -- "$op" "$OUT/sass_$s.txt")"
    done
    echo
  done | tee "$OUT/sass_summary.txt"
fi

if has check; then
  say "check (gpu_check, fp16 stages)"
  timeout 240 "$GPU_CHECK" --stages $STAGES >"$OUT/check.txt" 2>&1
  echo "gpu_check exit $?"
  grep -E "FAIL|SKIP|passed" "$OUT/check.txt" | head -30
fi

if has bench; then
  say "bench (gemmlab bench, the registered stages, 4096 and 8192)"
  GEMMLAB=$(find build-gpu -name gemmlab -type f -perm -u+x | head -1)
  timeout 240 "$GEMMLAB" bench --stages $STAGES --sizes 4096,8192 --json "$OUT/bench.json" \
    2>"$OUT/bench.err" | tee "$OUT/bench.txt"
fi

if has time; then
  say "time (cuBLAS, stages, variants)"
  timeout 300 build-gpu/fp16_tune time $SIZES_TIME 2>&1 | tee "$OUT/time.txt"
fi

if has ncu; then
  say "ncu (one launch of each stage at 4096^3, --clock-control none --cache-control all)"
  M=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  M=$M,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
  M=$M,smsp__sass_inst_executed_op_ldsm.sum,gpu__time_duration.sum,launch__registers_per_thread
  M=$M,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,launch__occupancy_limit_registers
  M2=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_tensor_op_hmma.sum
  M2=$M2,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active
  M3=lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum.per_second,sm__cycles_elapsed.avg.per_second
  M3=$M3,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum
  for s in ${STAGES//,/ } ${NCU_EXTRA:-}; do
    f="$OUT/ncu_${s//\//_}"
    # All metrics in one run; if a name is refused, the task's own counters alone.
    timeout 90 ncu --clock-control none --cache-control all --csv \
      -k regex:"sync_tile_kernel|multistage_kernel|staged_epilogue_kernel" -c 1 \
      --metrics "$M,$M2,$M3" build-gpu/fp16_tune run "$s" 4096 >"$f.csv" 2>"$f.err" ||
      { tail -3 "$f.err"; timeout 90 ncu --clock-control none --cache-control all --csv \
          -k regex:"sync_tile_kernel|multistage_kernel|staged_epilogue_kernel" -c 1 \
          --metrics "$M" build-gpu/fp16_tune run "$s" 4096 >"$f.csv" 2>"$f.err" || tail -3 "$f.err"; }
  done
  NCU_EXTRA="${NCU_EXTRA:-}" python3 - "$OUT" "$STAGES" <<'EOF' | tee "$OUT/ncu_table.txt"
import csv, io, sys, os
out, stages = sys.argv[1], sys.argv[2].split(",")
import os
def metrics(path):
    if not os.path.exists(path): return {}
    text = open(path).read()
    start = text.find('"ID"')
    if start < 0: return {}
    return {r["Metric Name"]: r["Metric Value"] for r in csv.DictReader(io.StringIO(text[start:]))}
def num(v):
    try: return float(str(v).replace(",", ""))
    except ValueError: return float("nan")
stages += os.environ.get("NCU_EXTRA", "").split()
# ldmatrix has no wavefront counter of its own: its wavefronts are in _op_ld (hardware_rules.md),
# so wavefronts per load instruction = op_ld wavefronts / (LDS + LDSM instructions).
print(f"{'stage':13} {'regs':>4} {'smem':>6} {'us':>8} {'ld_W/inst':>9} {'ldsm':>9} {'lds':>9} {'st_W/inst':>9} {'sts':>9} {'ld_conf':>10} {'st_conf':>10} {'hmma%':>6} {'L2hit':>6} {'dramMB':>7}")
for s in stages:
    m = metrics(f"{out}/ncu_{s.replace('/', '_')}.csv")
    if not m: print(s, "no ncu data"); continue
    ld_w = num(m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"))
    st_w = num(m.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"))
    ld_i = num(m.get("smsp__sass_inst_executed_op_shared_ld.sum"))
    st_i = num(m.get("smsp__sass_inst_executed_op_shared_st.sum"))
    ldsm = num(m.get("smsp__sass_inst_executed_op_ldsm.sum"))
    smem = num(m.get("launch__shared_mem_per_block_dynamic", 0)) + num(m.get("launch__shared_mem_per_block_static", 0))
    print(f"{s:13} {m.get('launch__registers_per_thread','?'):>4} {smem:6.0f} {num(m.get('gpu__time_duration.sum'))/1e3:8.1f} "
          f"{ld_w/max(ld_i+ldsm,1):9.3f} {ldsm:9.0f} {ld_i:9.0f} {st_w/max(st_i,1):9.3f} {st_i:9.0f} "
          f"{num(m.get('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum')):10.0f} {num(m.get('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum')):10.0f} "
          f"{num(m.get('sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active')):6.1f} {num(m.get('lts__t_sector_hit_rate.pct')):6.1f} {num(m.get('dram__bytes_read.sum'))/1e6:7.0f}")
    print(f"   L2 busy {num(m.get('lts__throughput.avg.pct_of_peak_sustained_elapsed')):.1f}%  L2 {num(m.get('lts__t_bytes.sum.per_second'))/1e12:.2f} TB/s  "
          f"smem busy {num(m.get('l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed')):.1f}%  "
          f"SM clock {num(m.get('sm__cycles_elapsed.avg.per_second'))/1e6:.0f} MHz  warp inst {num(m.get('smsp__inst_executed.sum')):.3g}")
EOF
fi

if has explore; then
  say "explore: stall reasons of stage 12, cuBLAS clock, clocks and throttling while timing"
  timeout 90 ncu --clock-control none --section WarpStateStats --section SchedulerStats \
    --section ComputeWorkloadAnalysis -k regex:staged_epilogue_kernel -c 1 \
    build-gpu/fp16_tune run epilogue 4096 >"$OUT/ncu_stalls.txt" 2>&1
  grep -E "Stall|Warp Cycles|Issued|Eligible|Active Warps|No Eligible|Pipe" "$OUT/ncu_stalls.txt" | head -30
  timeout 90 ncu --clock-control none -k regex:"nvjet|xmma|cutlass|sm90_|gemm" -c 1 \
    --metrics sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,launch__grid_size,launch__block_size \
    build-gpu/fp16_tune run epilogue 4096 >"$OUT/ncu_cublas.txt" 2>&1
  grep -E "^\s+[a-z]+__|nvjet|xmma|sm90" "$OUT/ncu_cublas.txt" | head -12
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv,noheader -lms 100 >"$OUT/smi.csv" 2>&1 &
  smi=$!
  timeout 120 build-gpu/fp16_tune time 8192 2>&1 | grep -E "cublas|^epilogue" | tee "$OUT/time_explore.txt"
  kill $smi
  python3 - "$OUT/smi.csv" <<'EOF'
import sys, collections
rows = [l.strip().split(", ") for l in open(sys.argv[1]) if l.count(",") >= 4]
busy = [r for r in rows if float(r[2].split()[0]) > 300]
if busy:
    clocks = sorted(int(r[1].split()[0]) for r in busy)
    print(f"under load: {len(busy)} samples, SM clock median {clocks[len(clocks)//2]} MHz (min {clocks[0]}, max {clocks[-1]}), "
          f"power max {max(float(r[2].split()[0]) for r in busy):.0f} W, throttle reasons {collections.Counter(r[4] for r in busy).most_common(3)}")
EOF
fi

if has sanitize; then
  say "compute-sanitizer (fp16_tune sanitize: small sizes, host reference, both load paths)"
  for tool in memcheck racecheck synccheck initcheck; do
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 --print-limit 10 \
      build-gpu/fp16_tune sanitize >"$OUT/sanitize_$tool.txt" 2>&1
    rc=$?
    echo "$tool exit $rc: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize_$tool.txt" | head -2 | tr '\n' ' ') $(grep -c FAIL "$OUT/sanitize_$tool.txt") FAIL lines"
  done
fi
say done
