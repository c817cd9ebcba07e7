#!/usr/bin/env bash
# One GPU session for the FP16 stages (8-12): build, correctness, timings and variants, ncu
# shared-memory counters, compute-sanitizer. Run from the repo root on the GPU machine:
#   bash kernels/lab/tools/fp16_session.sh [steps]     steps: any of build,sass,check,bench,time,turns,
#                                                  ncu,explore,sanitize (default: all but explore
#                                                  and turns)
# FP16_TUNE_ONLY=id,id,... limits the time and turns steps to those stages / variants
# (fp16_tune/main.cu). turns: the selected ones and cuBLAS timed in turns, TURNS_ROUNDS rounds
# (default 3) at SIZES_TIME.
# CUTLASS_DIR=<CUTLASS checkout> adds CUTLASS 2.x's sm80 kernels as variants (epilogue/cutlass-*,
# fp16_tune/variants_cutlass.cu), the peer of stage 12, and CUTLASS 3.x's sm90 ones
# (persistent/cutlass3-*, variants_cutlass3.cu), the peer of stage 17: e.g.
#   CUTLASS_DIR=~/cutlass FP16_TUNE_ONLY=epilogue,epilogue/cutlass-256x128s3 \
#     bash kernels/lab/tools/fp16_session.sh build,turns
# Needs the packages of gpu_deps.sh, installed or in .deps/ (`bash kernels/lab/tools/gpu_deps.sh fetch`). Logs and tables are written to a work folder
# and packed into $OUT/fp16_logs.tgz at exit.
# Each step has its own time limit so that a slow one cannot eat the whole call.
set -u
FINAL=${OUT:-/tmp/fp16}
OUT=/tmp/fp16_work
rm -rf "$OUT"
mkdir -p "$OUT" "$FINAL"
trap 'tar czf "$FINAL/fp16_logs.tgz" -C "$OUT" . 2>/dev/null' EXIT
STEPS=${1:-build,sass,check,bench,time,ncu,sanitize}
STAGES=mma-sync,ldmatrix,smem-swizzle,multistage,epilogue
SIZES_TIME=${SIZES_TIME:-"4096 8192"}
has() { [[ ",$STEPS," == *",$1,"* ]]; }
say() { echo "[$(date +%T)] $*"; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv | tee "$OUT/gpu.txt"

if has build; then
  say build
  # gpu_check, and the tuning tool (variants of the stages, checked and timed through the runner).
  GPU_CMAKE_ARGS=-DGEMMLAB_GPU_PROBES=ON bash kernels/lab/tools/gpu_build.sh "$OUT/build.log" gpu_check fp16_tune ||
    { grep -E "error|Error" -A3 "$OUT/build.log" | head -60; tail -30 "$OUT/build.log"; exit 1; }
  # `gemmlab bench` also needs the sim CLI; not needed by the steps below.
  cmake --build build-gpu --target gemmlab -j16 >>"$OUT/build.log" 2>&1 || echo "gemmlab did not build"
  grep -E "spill|warning" "$OUT/build.log" | grep -v "^--" | head -20
  say built
fi
GPU_CHECK=$(find build-gpu -name gpu_check -type f -perm -u+x | head -1)

if has sass; then
  # Registers / shared memory per kernel, and the instructions each stage is meant to have.
  for o in $(find build-gpu/kernels \( -path "*stages/fp16/*/*.cu.o" -o -name variants_cutlass.cu.o \) | sort); do
    s=$(basename "$o" .cu.o)
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
  timeout 300 build-gpu/kernels/lab/tools/fp16_tune time $SIZES_TIME 2>&1 | tee "$OUT/time.txt"
fi

if has turns; then
  say "turns (cuBLAS and the selected stages / variants timed in turns, ${TURNS_ROUNDS:-3} rounds)"
  timeout 400 build-gpu/kernels/lab/tools/fp16_tune turns "${TURNS_ROUNDS:-3}" $SIZES_TIME 2>&1 | tee "$OUT/turns.txt"
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
      --metrics "$M,$M2,$M3" build-gpu/kernels/lab/tools/fp16_tune run "$s" 4096 >"$f.csv" 2>"$f.err" ||
      { tail -3 "$f.err"; timeout 90 ncu --clock-control none --cache-control all --csv \
          -k regex:"sync_tile_kernel|multistage_kernel|staged_epilogue_kernel" -c 1 \
          --metrics "$M" build-gpu/kernels/lab/tools/fp16_tune run "$s" 4096 >"$f.csv" 2>"$f.err" || tail -3 "$f.err"; }
  done
  NCU_EXTRA="${NCU_EXTRA:-}" python3 kernels/lab/tools/ncu_table.py fp16 "$OUT" "$STAGES" | tee "$OUT/ncu_table.txt"

fi

if has explore; then
  say "explore: stall reasons of stage 12, cuBLAS clock, clocks and throttling while timing"
  timeout 90 ncu --clock-control none --section WarpStateStats --section SchedulerStats \
    --section ComputeWorkloadAnalysis -k regex:staged_epilogue_kernel -c 1 \
    build-gpu/kernels/lab/tools/fp16_tune run epilogue 4096 >"$OUT/ncu_stalls.txt" 2>&1
  grep -E "Stall|Warp Cycles|Issued|Eligible|Active Warps|No Eligible|Pipe" "$OUT/ncu_stalls.txt" | head -30
  timeout 90 ncu --clock-control none -k regex:"nvjet|xmma|cutlass|sm90_|gemm" -c 1 \
    --metrics sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,launch__grid_size,launch__block_size \
    build-gpu/kernels/lab/tools/fp16_tune run epilogue 4096 >"$OUT/ncu_cublas.txt" 2>&1
  grep -E "^\s+[a-z]+__|nvjet|xmma|sm90" "$OUT/ncu_cublas.txt" | head -12
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv,noheader -lms 100 >"$OUT/smi.csv" 2>&1 &
  smi=$!
  timeout 120 build-gpu/kernels/lab/tools/fp16_tune time 8192 2>&1 | grep -E "cublas|^epilogue" | tee "$OUT/time_explore.txt"
  kill $smi
  python3 kernels/lab/tools/ncu_table.py clock "$OUT/smi.csv"

fi

if has sanitize; then
  say "compute-sanitizer (fp16_tune sanitize: small sizes, host reference, both load paths)"
  for tool in memcheck racecheck synccheck initcheck; do
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 --print-limit 10 \
      build-gpu/kernels/lab/tools/fp16_tune sanitize >"$OUT/sanitize_$tool.txt" 2>&1
    rc=$?
    echo "$tool exit $rc: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize_$tool.txt" | head -2 | tr '\n' ' ') $(grep -c FAIL "$OUT/sanitize_$tool.txt") FAIL lines"
  done
fi
say done
