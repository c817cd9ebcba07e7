#!/usr/bin/env bash
# Measurement (probe commit): stage 17 with the B multicast first (variant 7) and other L2 promotions
# of the operand maps: ncu L2 traffic and alternating timings. OUT=... bash this (carry .deps).
set -uo pipefail
bash kernels/tools/gpu_build.sh $OUT/build.log gemmlab gpu_check >/dev/null 2>&1; echo build $?
G=build-gpu/app/gemmlab
GEMMLAB_PERSISTENT_VARIANT=7 timeout 150 build-gpu/kernels/tests/gpu_check --stages persistent > $OUT/check7.log 2>&1; echo "check 7: $(grep passed $OUT/check7.log | tail -1)"
M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__m_xbar2l1tex_read_sectors.sum,dram__bytes_read.sum,sm__cycles_elapsed.avg
for cfg in "0 256" "7 256" "0 128" "0 0"; do set -- $cfg
  GEMMLAB_PERSISTENT_VARIANT=$1 GEMMLAB_L2_PROMOTION=$2 ncu --clock-control none --metrics $M -k regex:persistent_kernel -c 1 --csv $G bench --check --stages persistent --sizes 4096 2>/dev/null | grep -E '"(lts|l1tex|dram|sm__)' | awk -F'","' -v c="$cfg" '{print "v/promo " c ": " $(NF-2) " " $NF}'
done
for r in 1 2 3; do for cfg in "0 256" "7 256" "0 128" "0 0"; do set -- $cfg
  GEMMLAB_PERSISTENT_VARIANT=$1 GEMMLAB_L2_PROMOTION=$2 timeout 100 $G bench --stages persistent --sizes 4096,8192 2>/dev/null | grep "^persistent" | sed "s/^/round $r v\/promo $cfg: /"
done; done
