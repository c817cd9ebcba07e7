#!/usr/bin/env bash
# On a GPU machine: the L2 counters of the stages whose block orders differ, to
# hold the simulator's L2 model (sim/src/l2_*.cpp) to the hardware (kernels/lab/L2_VALIDATION.md).
#   bash kernels/lab/tools/l2_session.sh [counters]   (about 7 minutes)
#   bash kernels/lab/tools/l2_session.sh probe        block timing (l2_probe/block_timing.cu) and the
#                                                 L2 request coalescer (lrc__) counters
#   bash kernels/lab/tools/l2_session.sh lrc          l2_probe/lrc_probe.cu: SMs reading the same
#                                                 sectors at controlled offsets, under ncu
#   RUNS="stage kernel size|..." bash kernels/lab/tools/l2_session.sh runs
#                                                 look-up and coalescer counters of any stage x size
# counters: builds `gemmlab` for sm_90a, then for each stage x size runs ncu on ONE launch of the stage
# (`gemmlab bench --check` runs the stage once, beta = 0, after the cuBLAS reference):
#   ncu --clock-control none --cache-control all --launch-count 1 -k regex:<kernel>
# --cache-control all flushes the L2 before the profiled launch (and before each replay pass),
# so every kernel starts cold, as the model does.
# Output ($OUT, at most 8 files): device.txt, ncu_l2.csv (all runs, one CSV with a header per
# run, each after a "# stage=S size=N" line), ncu_l2.err, metrics_available.txt, build_tail.log.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
cd "$(dirname "$0")/../../.."
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }

# The coalescer and tag-stage counters of kernels/lab/L2_VALIDATION.md's probes (modes lrc and runs).
LOOKUP_METRICS=l1tex__m_xbar2l1tex_read_sectors.sum,lrc__request_sectors_op_read_coalescable.sum
LOOKUP_METRICS+=,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__lrc2xbar_sectors_op_read_replayed.sum
LOOKUP_METRICS+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
LOOKUP_METRICS+=,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric_op_read.sum
LOOKUP_METRICS+=,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_miss.sum
LOOKUP_METRICS+=,dram__sectors_read.sum,lts__t_requests_srcunit_tex_op_read.sum,gpu__time_duration.sum

stamp "device"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; ncu --version | tail -1;
  date -u +%Y-%m-%dT%H:%M:%SZ; } | tee "$OUT/device.txt"

if [ "${1:-counters}" = lrc ]; then
  stamp "lrc probe"
  GPU_CMAKE_ARGS=-DGEMMLAB_GPU_PROBES=ON bash kernels/lab/tools/gpu_build.sh /tmp/build.log lrc_probe ||
    { tail -30 /tmp/build.log; exit 1; }
  M=$LOOKUP_METRICS
  : > "$OUT/lrc_probe_ncu.csv"
  : > "$OUT/lrc_probe_timing.csv"
  # share delay_ns bytes chunk [warm], '|'-separated (LRC_CONFIGS overrides the list)
  CFGS=${LRC_CONFIGS:-"1 0 2097152 128|1 0 2097152 64|132 0 2097152 128|132 20 2097152 128|132 100 2097152 128|132 1000 2097152 128|132 0 2097152 128 1|132 0 2097152 64|2 0 2097152 128|2 300 2097152 128|2 3000 2097152 128|2 30000 2097152 128|2 0 2097152 64|4 0 2097152 128|33 0 2097152 128|132 0 262144 128"}
  IFS='|' read -ra CFG_LIST <<< "$CFGS"
  for cfg in "${CFG_LIST[@]}"; do
    echo "# probe=$cfg" >> "$OUT/lrc_probe_ncu.csv"
    timeout 60 ncu --clock-control none --cache-control all --metrics "$M" --csv --print-units base \
      build-gpu/kernels/lab/tools/lrc_probe $cfg > /tmp/lrcp.csv 2>>"$OUT/lrc_probe.err"
    echo "ncu $cfg rc=$?"
    grep -E '^"' /tmp/lrcp.csv >> "$OUT/lrc_probe_ncu.csv"
    echo "# probe=$cfg" >> "$OUT/lrc_probe_timing.csv"
    timeout 20 build-gpu/kernels/lab/tools/lrc_probe $cfg >> "$OUT/lrc_probe_timing.csv" 2>>"$OUT/lrc_probe.err"
  done
  stamp "done"
  exit 0
fi

stamp "configure + build"
GPU_CMAKE_ARGS=-DGEMMLAB_GPU_PROBES=ON bash kernels/lab/tools/gpu_build.sh /tmp/build.log gemmlab block_timing
build_rc=$?
tail -30 /tmp/build.log > "$OUT/build_tail.log"
if [ $build_rc -ne 0 ]; then tail -40 /tmp/build.log; exit 1; fi
G=build-gpu/app/gemmlab
stamp "built"

if [ "${1:-counters}" = runs ]; then
  # RUNS="stage kernel-regex size|..." (size N or MxNxK): the look-up and coalescer counters of
  # one launch each, for shapes the 8-row table does not have (e.g. one block: no sharing).
  M=$LOOKUP_METRICS,dram__bytes_read.sum,launch__grid_size,launch__registers_per_thread
  M=$M,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
  : > "$OUT/ncu_runs.csv"
  IFS='|' read -ra RUN_LIST <<< "${RUNS:?RUNS=\"stage kernel-regex size|...\"}"
  for run in "${RUN_LIST[@]}"; do
    set -- $run
    echo "# stage=$1 size=$3" >> "$OUT/ncu_runs.csv"
    timeout 120 ncu --clock-control none --cache-control all --launch-count 1 -k "regex:$2" \
      --metrics "$M" --csv --print-units base "$G" bench --check --stages "$1" --sizes "$3" \
      > /tmp/run.csv 2>>"$OUT/ncu_runs.err"
    echo "ncu $run rc=$? $(grep -cE '^"' /tmp/run.csv) rows; $(grep -E 'ok|FAIL' /tmp/run.csv | head -1)"
    grep -E '^"' /tmp/run.csv >> "$OUT/ncu_runs.csv"
  done
  stamp "done"
  exit 0
fi

if [ "${1:-counters}" = probe ]; then
  stamp "block timing probe"
  timeout 120 build-gpu/kernels/lab/tools/block_timing > "$OUT/block_timing.csv"
  echo "probe rc=$? lines=$(wc -l < "$OUT/block_timing.csv")"
  stamp "lrc counters"
  ncu --query-metrics > /tmp/query.txt 2>&1
  grep -iE "lrc__|ltcfabric" /tmp/query.txt > "$OUT/lrc_query.txt"
  : > "$OUT/ncu_lrc.csv"
  lrc() {  # stage kernel size metrics
    echo "# stage=$1 size=$3 metrics=${4:0:40}" >> "$OUT/ncu_lrc.csv"
    timeout 90 ncu --clock-control none --cache-control all --launch-count 1 -k "regex:$2" \
      --metrics "$4" --csv --print-units base "$G" bench --check --stages "$1" --sizes "$3" \
      > /tmp/lrc.csv 2>>"$OUT/ncu_probe.log"
    echo "ncu $1 $3 rc=$?" | tee -a "$OUT/ncu_probe.log"
    grep -E '^"' /tmp/lrc.csv >> "$OUT/ncu_lrc.csv"; grep -E "PROF.*pass" /tmp/lrc.csv >> "$OUT/ncu_probe.log"
  }
  NAMES=$(grep -oE "\blrc__[a-z0-9_]+" /tmp/query.txt | sort -u | grep -vE "_(rate|pct|ratio)$" | sed 's/$/.sum/' | paste -sd,)
  for cfg in "multistage multistage_kernel 4096" "double-buffer double_buffer_kernel 4096" "epilogue staged_epilogue_kernel 8192"; do
    set -- $cfg
    lrc $1 $2 $3 "regex:^lrc__" || true
    [ -n "$NAMES" ] && lrc $1 $2 $3 "$NAMES"
    # The three counters of lookup_hit / read, and the sectors the SMs received, in one pass.
    lrc $1 $2 $3 "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum"
  done
  stamp "done"
  exit 0
fi

# Metric names differ between ncu versions: keep the wanted ones this ncu knows (a single unknown
# name makes ncu refuse the whole run). The launch__/gpu__/sm__ ones are always present.
WANTED="lts__t_sectors_srcunit_tex_op_read_lookup_hit lts__t_sectors_srcunit_tex_op_read_lookup_miss
lts__t_sectors_srcunit_tex_op_read lts__t_requests_srcunit_tex_op_read lts__t_sector_hit_rate
lts__t_sector_op_read_hit_rate lts__t_sectors_op_read lts__t_sectors_op_read_lookup_hit
lts__t_sectors_op_read_lookup_miss lts__t_sectors_srcunit_ltcfabric
lts__t_sectors_srcunit_ltcfabric_op_read lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit
lts__t_sectors_srcunit_ltcfabric_op_read_lookup_miss lts__t_sectors_srcunit_tex_op_write
lts__t_sectors_srcunit_tex_op_write_lookup_hit lts__t_sectors_srcunit_tex_op_write_lookup_miss
lts__t_sectors_srcunit_tex lts__t_sectors_srcunit_tex_lookup_hit lts__t_sectors_srcunit_tex_lookup_miss
dram__bytes_read dram__bytes_write dram__sectors_read lts__t_sectors_srcunit_tex_op_atom
l1tex__t_sectors_pipe_lsu_mem_global_op_ld l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit
l1tex__t_requests_pipe_lsu_mem_global_op_ld l1tex__m_xbar2l1tex_read_sectors
lts__t_sectors_srcnode_gpc_op_read lts__t_sectors_srcunit_tex_aperture_device_op_read"
ncu --query-metrics > /tmp/query.txt 2>&1
grep -oE "\b(lts|dram|l1tex)__[a-z0-9_]+" /tmp/query.txt | sort -u > "$OUT/metrics_available.txt"
# If the query's format hides the names, ask for them all (the CORE fallback below still holds).
known() { grep -qx "$1" "$OUT/metrics_available.txt" ||
  ! grep -qx lts__t_sectors_srcunit_tex_op_read_lookup_hit "$OUT/metrics_available.txt"; }
METRICS=""
for m in $WANTED; do
  if known "$m"; then
    case $m in *_rate) METRICS+="$m.pct," ;; *) METRICS+="$m.sum," ;; esac
  else
    echo "ncu does not know $m: left out"
  fi
done
METRICS+="gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread"
METRICS+=",launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic"
METRICS+=",launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem"
METRICS+=",launch__occupancy_limit_blocks,launch__occupancy_limit_warps,launch__waves_per_multiprocessor"
METRICS+=",sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct"
# Fallback if the long list is refused: the metrics the comparison needs.
CORE="lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum,launch__grid_size,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active"

: > "$OUT/ncu_l2.csv"
: > "$OUT/ncu_l2.err"
profile() {  # stage kernel-regex size
  local csv=/tmp/ncu_$1_$3.csv
  for list in "$METRICS" "$CORE"; do
    timeout 120 ncu --clock-control none --cache-control all --launch-count 1 -k "regex:$2" \
      --metrics "$list" --csv --print-units base "$G" bench --check --stages "$1" --sizes "$3" >"$csv" 2>>"$OUT/ncu_l2.err"
    local rc=$?
    if grep -q '"Metric Value"' "$csv"; then break; fi
    echo "ncu $1 $3 rc=$rc, no rows with this metric list" | tee -a "$OUT/ncu_l2.err"
  done
  echo "# stage=$1 size=$3" >> "$OUT/ncu_l2.csv"
  grep -E '^"' "$csv" >> "$OUT/ncu_l2.csv"
  grep -E "ok|FAIL" "$csv" | head -2
}

for n in 4096 8192; do
  stamp "ncu $n"
  profile double-buffer double_buffer_kernel $n
  profile block-swizzle block_swizzle_kernel $n
  profile multistage multistage_kernel $n
  profile epilogue staged_epilogue_kernel $n
done
stamp "done"

python3 kernels/lab/tools/ncu_table.py l2 "$OUT/ncu_l2.csv"
