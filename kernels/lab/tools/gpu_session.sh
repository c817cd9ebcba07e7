#!/usr/bin/env bash
# On a GPU machine: build, then the steps of MODE, logs and results under $OUT.
#   kernels/lab/tools/gpu_session.sh dev      build, gpu_check (fp32), bench 4096 + 512x512x16384,
#                                         SASS + resource usage, ncu shared-memory counters
#   kernels/lab/tools/gpu_session.sh full     build, ctest -L gpu (correctness + 4 sanitizers),
#                                         full bench -> $OUT/results.json, ncu counters
#   kernels/lab/tools/gpu_session.sh hopper   build, SASS of the Hopper stages (HGMMA, UTMALDG counts),
#                                         gpu_check + sanitizers of $STAGES (default: the hopper
#                                         track; CHECK_STAGES: only those), bench with stage 12 and
#                                         cuBLAS at 4096 and 8192,
#                                         ncu of stage 12 and the Hopper stages (SM clock, tensor pipe)
#   kernels/lab/tools/gpu_session.sh bench    build, ctest -L gpu (verbose), full bench ->
#                                         $OUT/results.json, ncu counters of every stage (NCU=0: not)
#   kernels/lab/tools/gpu_session.sh ncu      build, ncu counters of every stage -> $OUT/ncu.csv
#   kernels/lab/tools/gpu_session.sh conv     build, gpu_check + sanitizers of the conv stages, bench
#                                         --conv resnet50 -> $OUT/conv.json, ncu shared-memory
#                                         counters of the conv kernels at a 4096^3 implicit GEMM
# cuDNN: when PyTorch's Python packages have it (nvidia.cudnn), the build gets
# -DGEMMLAB_CUDNN_ROOT=<that folder> and the conv bench times cuDNN beside the conv stages.
# Needs the packages of gpu_deps.sh (installed, or .deps/ from `bash kernels/lab/tools/gpu_deps.sh fetch`). Builds sm_90a only, in build-gpu.
set -uo pipefail
mode=${1:-dev}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }

FP32=naive-uncoalesced,naive,sliced-k,simt-tile,double-buffer,block-swizzle,split-k,stream-k
KERNELS='regex:naive_kernel|sliced_k_kernel|simt_tile_kernel|double_buffer_kernel|block_swizzle_kernel|split_k_kernel|stream_k_kernel|mma|ldmatrix|swizzle|multistage|epilogue|wgmma_kernel|warp_specialized_kernel|cluster_kernel|persistent_kernel'
HOPPER_KERNELS='regex:staged_epilogue_kernel|tma_mma_sync_kernel|wgmma_kernel|warp_specialized_kernel|cluster_kernel|persistent_kernel|nvjet'

stamp "device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv | tee "$OUT/device.txt"

stamp "configure + build"
bash kernels/lab/tools/gpu_build.sh "$OUT/build.log" gemmlab gpu_check
build_rc=$?
grep -E "error|spill" "$OUT/build.log" | head -20
if [ $build_rc -ne 0 ]; then tail -40 "$OUT/build.log"; exit 1; fi
G=build-gpu/app/gemmlab

resources() {
  stamp "SASS resource usage"
  for o in build-gpu/kernels/CMakeFiles/gemmlab_kernels.dir/stages/*/*/*.o; do
    cuobjdump --dump-resource-usage "$o" 2>/dev/null | grep -E "Function|REG" |
      sed -E 's/^ *Function ([^:]*):.*/\1/' | paste - - | c++filt | sed -E 's/\(anonymous namespace\):://g'
  done | awk '{print}' > "$OUT/resources.txt"
  cut -c1-220 "$OUT/resources.txt"
}

ncu_counters() {  # shared-memory wavefronts and instructions, one check run per stage at 4096
  stamp "ncu (--clock-control none --cache-control all)"
  ncu --clock-control none --cache-control all -k "$KERNELS" \
    --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__occupancy_limit_registers,gpu__time_duration.sum \
    --csv "$G" bench --check --stages "$1" --sizes 4096 >"$OUT/ncu.csv" 2>"$OUT/ncu.err"
  echo "ncu rc=$?"; tail -3 "$OUT/ncu.err"
  python3 kernels/lab/tools/ncu_table.py smem "$OUT/ncu.csv"
}

check_stages() {  # gpu_check of the stages $1, then the four sanitizers (each at most $2 seconds)
  stamp "gpu_check $1"
  timeout 300 build-gpu/kernels/tests/gpu_check --stages "$1" > "$OUT/gpu_check.log" 2>&1
  echo "gpu_check rc=$?"; grep -E "FAIL|passed|SKIP" "$OUT/gpu_check.log" | head -30
  stamp "sanitizers"
  export PATH=$PATH:/usr/local/cuda/bin
  for tool in memcheck racecheck synccheck initcheck; do
    timeout "$2" compute-sanitizer --tool $tool --error-exitcode 9 build-gpu/kernels/tests/gpu_check --sanitizer --stages "$1" > "$OUT/san_$tool.log" 2>&1
    echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|passed' "$OUT/san_$tool.log" | tr '\n' ' ')"
  done
}

hopper_ncu() {  # tensor-pipe activity, SM clock, gmma bank conflicts: one check run per stage at 4096
  # (stage 12 beside the Hopper stages, and cuBLAS's kernel, nvjet, as the checks run it).
  # sm__pipe_tensor_cycles_active is the tensor pipe's busy share (its _realtime variant reads n/a
  # on driver 580); beside it the share of the dense-f16 peak the kernel reached, derived: the
  # GEMM's flops over 4096 flops per clock per SM for the cycles it ran. The two agree for wgmma
  # kernels (H200, 2026-11-26: 82.23% / 82.2% for stage 14); an mma.sync kernel keeps the pipe
  # 75-78% busy for 50-52% of the peak.
  stamp "ncu hopper"
  ncu --clock-control none -k "$HOPPER_KERNELS" \
    --metrics sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.avg,device__attribute_multiprocessor_count,sm__inst_executed_pipe_tensor_op_gmma.sum,sm__inst_executed_pipe_tensor_op_hmma.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,gpu__time_duration.sum \
    --csv "$G" bench --check --stages "$1" --sizes 4096 >"$OUT/ncu_hopper.csv" 2>"$OUT/ncu_hopper.err"
  echo "ncu rc=$?"
  python3 - "$OUT/ncu_hopper.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; i = {k: h.index(k) for k in ("Kernel Name", "Metric Name", "Metric Value", "Metric Unit")}
m = collections.OrderedDict()
for r in rows[1:]:
    m.setdefault(r[i["Kernel Name"]].split("<")[0].split("(")[0][-28:], {})[r[i["Metric Name"]]] = r[i["Metric Value"]] + " " + r[i["Metric Unit"]]
def number(text):
    try: return float(text.split()[0].replace(",", ""))
    except (ValueError, IndexError): return 0.0
for k, v in m.items():
    cycles = number(v.get("sm__cycles_elapsed.avg", "0")); sms = number(v.get("device__attribute_multiprocessor_count", "0"))
    flops = 2 * 4096**3  # the check run's 4096^3 GEMM
    peak_per_clock = 4096  # dense f16 flops per clock per SM (wgmma)
    tensor = f" | share of the dense peak (derived) {100 * flops / (peak_per_clock * sms * cycles):.1f}%" if cycles and sms else ""
    print(k, "|", " | ".join(f"{n.split('.')[0].replace('sm__','').replace('launch__','')}={v[n]}" for n in v) + tensor)
PY
}

case "$mode" in
  dev)
    resources
    for st in fp32/06_double_buffer/double_buffer fp32/13b_stream_k/stream_k; do
      cuobjdump -sass build-gpu/kernels/CMakeFiles/gemmlab_kernels.dir/stages/$st.cu.o > "$OUT/$(basename $st).sass" 2>&1
    done
    stamp "gpu_check fp32"
    timeout 300 build-gpu/kernels/tests/gpu_check --stages "${STAGES:-$FP32}" > "$OUT/gpu_check.log" 2>&1
    echo "gpu_check rc=$?"; grep -E "FAIL|passed" "$OUT/gpu_check.log" | head -20
    stamp "bench"
    timeout 300 "$G" bench --stages "${STAGES:-$FP32}" --sizes "${SIZES:-4096,512x512x16384}" --json "$OUT/bench.json" > "$OUT/bench.txt" 2>"$OUT/bench.err"
    echo "bench rc=$?"; tail -3 "$OUT/bench.err"
    ncu_counters "$FP32"
    stamp "done"; cat "$OUT/bench.txt"
    ;;
  full)
    resources
    stamp "ctest -L gpu"
    cmake --build build-gpu -j16 >>"$OUT/build.log" 2>&1
    (cd build-gpu && timeout 480 ctest -L gpu -j5 --output-on-failure --timeout 470) > "$OUT/ctest.log" 2>&1
    echo "ctest rc=$?"; grep -E "Test +#|tests passed|FAIL|ERROR SUMMARY|passed, " "$OUT/ctest.log" | head -40
    if [ -n "${STAGES:-}" ]; then
      "$G" bench --stages "$STAGES" --sizes "${SIZES:-4096}" > "$OUT/bench.txt" 2>"$OUT/bench.err"
      cat "$OUT/bench.txt"
    fi
    ;;
  bench)
    # The committed results: correctness + sanitizers (verbose log), the full bench (all built
    # stages, both tracks), ncu counters of every stage at 4096.
    resources
    cmake --build build-gpu -j16 >>"$OUT/build.log" 2>&1
    mv "$OUT/build.log" /tmp/build.log
    stamp "ctest -L gpu"
    (cd build-gpu && timeout 300 ctest -L gpu -j5 -V --timeout 290) > "$OUT/ctest.log" 2>&1
    echo "ctest rc=$?"; grep -E "Test +#|tests passed|passed, " "$OUT/ctest.log" | head -20
    stamp "bench"
    timeout 480 "$G" bench --sizes "${SIZES:-4096,8192,1000x1500x700,512x512x16384,32768x1024x1024,512x512x32768,256x32768x8192}" \
      --json "$OUT/results.json" > "$OUT/bench.txt" 2>"$OUT/bench.err"
    echo "bench rc=$?"; tail -2 "$OUT/bench.err"
    # NCU=0 leaves the counters to a second run (keeps each run under 10 minutes).
    [ "${NCU:-1}" = 1 ] && ncu_counters all
    stamp "done"; cat "$OUT/bench.txt"
    ;;
  ncu)
    ncu_counters all
    hopper_ncu epilogue,hopper
    ;;
  hopper)
    resources
    H=${STAGES:-hopper}
    for o in build-gpu/kernels/CMakeFiles/gemmlab_kernels.dir/stages/hopper/1*/*.o; do
      sass=/tmp/$(basename "$o" .cu.o).sass
      cuobjdump -sass "$o" > "$sass" 2>&1
      echo "$(basename "$o"): $(grep -oE 'HGMMA[.0-9A-Zx]*|UTMALDG[.0-9A-Z]*|UTMASTG[.0-9A-Z]*|HMMA[.0-9A-Z]*|LDSM[.0-9A-Z]*|SYNCS[.A-Z]*|WARPGROUP[.A-Z]*|MEMBAR[.A-Z]*|USETMAXREG[.A-Z]*|LDL|STL' "$sass" | sort | uniq -c | tr '\n' ' ')"
    done
    check_stages "${CHECK_STAGES:-$H}" 200  # CHECK_STAGES: only these (a change to one stage)
    stamp "bench"
    # The SM clock and power while the bench runs (the H100 lowers its clock at its power limit),
    # sampled every 20 ms: a bench of a few seconds gave only 4-13 samples under load at 100 ms.
    # ncu's per-kernel clock (hopper_ncu, below) is the one to quote for a kernel; these samples
    # say what the card did over the whole bench.
    nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 20 > "$OUT/clocks.csv" &
    smi=$!
    timeout 200 "$G" bench --stages "epilogue,$H" --sizes "${SIZES:-4096,8192}" --json "$OUT/bench.json" > "$OUT/bench.txt" 2>"$OUT/bench.err"
    echo "bench rc=$?"; tail -3 "$OUT/bench.err"; cat "$OUT/bench.txt"
    kill $smi
    hopper_ncu "epilogue,$H"
    awk -F', ' '{gsub(/ MHz/,"",$2); gsub(/ W/,"",$3); if ($3 + 0 > 300) print $2 + 0, $3 + 0}' "$OUT/clocks.csv" | sort -n |
      awk '{c[NR]=$1; p+=$2} END {if (NR) printf "nvidia-smi under load (%d samples of 20 ms above 300 W): SM clock median %d MHz (%d-%d), power mean %.0f W\n", NR, c[int((NR+1)/2)], c[1], c[NR], p/NR; else print "nvidia-smi: no sample above 300 W"}'
    stamp "done"
    ;;
  conv)
    C=${STAGES:-conv-fp16,conv-int8,conv-int4,conv-wgmma}
    resources >/dev/null
    grep conv_fprop "$OUT/resources.txt" | sed -E 's/.*conv_fprop_kernel<([0-9]+), [a-z:0-9]*MultistageShape<([0-9, ]+)>.*REG:([0-9]+).*/bits \1 tile \2 regs \3/'
    check_stages "$C" 120
    stamp "bench --conv resnet50"
    timeout 240 "$G" bench --stages "$C" --conv resnet50 --json "$OUT/conv.json" > "$OUT/conv.txt" 2>"$OUT/conv.err"
    echo "bench rc=$?"; head -1 "$OUT/conv.err"; tail -2 "$OUT/conv.err"; cat "$OUT/conv.txt"
    if [ "${NCU:-1}" = 1 ]; then
      # Shared-memory counters at a 4096^3 implicit GEMM in 16-bit units (the simulator's problem):
      # a 1x1 convolution of 64x64 pixels, K = 4096 filters of C = 4096 fp16, 8192 int8, 16384 int4.
      stamp "ncu conv"
      : > "$OUT/ncu_conv.csv"
      for sc in conv-fp16:4096 conv-int8:8192 conv-int4:16384; do
        ncu --clock-control none --cache-control all -k regex:conv_fprop_kernel \
          --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,launch__registers_per_thread,launch__grid_size,gpu__time_duration.sum \
          --csv "$G" bench --check --stages "${sc%%:*}" --conv "1,64,64,${sc##*:},4096,1,1" >>"$OUT/ncu_conv.csv" 2>>"$OUT/ncu_conv.err"
        echo "ncu ${sc%%:*} rc=$?"
      done
      python3 - "$OUT/ncu_conv.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10 and r[0] != "ID"]
for r in rows:
    print(r[4][:48], r[-3], r[-1])
PY
    fi
    stamp "done"
    ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
