#!/usr/bin/env python3
"""Tables from Nsight Compute CSVs (`ncu --csv`), for the GPU session scripts (kernels/lab/tools/*.sh).

  ncu_table.py smem  NCU.csv            per kernel: registers, shared memory, shared wavefronts and
                                        conflicts per instruction, time (gpu_session.sh)
  ncu_table.py fp16  DIR STAGE[,STAGE]  one DIR/ncu_<stage>.csv per stage: the FP16 table of
                                        kernels/lab/FP16_NOTES.md (fp16_session.sh)
  ncu_table.py l2    NCU.csv            sections after "# stage=S size=N" lines: lookup_hit / read,
                                        sector hit rate, DRAM, time, occupancy limits (l2_session.sh)
  ncu_table.py launches NCU.csv      every launch grouped by kernel name, grid, block, registers, shared
                                        memory and cluster shape, with the median time (conv_profile.sh,
                                        gemm_profile.sh)
  ncu_table.py clock SMI.csv            `nvidia-smi -lms` samples under load: SM clock, power,
                                        throttle reasons (fp16_session.sh explore)
  ncu_table.py hot SOURCE.csv           `ncu -i R --page source --print-source sass --csv`: stall samples
                                        by opcode, then the 40 SASS instructions with the most
                                        (fp8_sass_profile.sh)

ldmatrix has no wavefront counter of its own: its wavefronts are in ..._op_ld
(sim/tests/data/hardware_rules.md), so wavefronts per load instruction = op_ld wavefronts /
(LDS + LDSM instructions). Numbers keep ncu's thousands separators out; a missing metric is "?".
"""
import collections
import csv
import io
import os
import sys

SMEM_LD_W = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
SMEM_ST_W = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
SMEM_LD_I = "smsp__sass_inst_executed_op_shared_ld.sum"
SMEM_ST_I = "smsp__sass_inst_executed_op_shared_st.sum"
LDSM_I = "smsp__sass_inst_executed_op_ldsm.sum"
LD_CONF = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
ST_CONF = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"


def num(v):
    try:
        return float(str(v).replace(",", ""))
    except (TypeError, ValueError):
        return float("nan")


def rows(text):
    """The CSV rows of an ncu --csv output, whatever it printed before the header."""
    start = text.find('"ID"')
    if start < 0:
        return []
    return list(csv.DictReader(io.StringIO(text[start:])))


def kernels(text):
    """(id, kernel name) -> {metric: value} in launch order."""
    out = collections.OrderedDict()
    for r in rows(text):
        out.setdefault((r["ID"], r["Kernel Name"]), {})[r["Metric Name"]] = r["Metric Value"]
    return out


def per_inst(w, i):
    return w / i if i and i == i else 0.0


def smem(path):
    ks = kernels(open(path).read())
    if not ks:
        sys.exit(f"{path}: no ncu rows")
    print(f"{'kernel':48s} {'regs':>4s} {'smem':>6s} {'ld wf/inst':>10s} {'st wf/inst':>10s} "
          f"{'ld conf':>10s} {'st conf':>10s} {'ms':>8s}")
    for (_, name), m in ks.items():
        smem_b = num(m.get("launch__shared_mem_per_block_static", 0)) + num(m.get("launch__shared_mem_per_block_dynamic", 0))
        ld_i = num(m.get(SMEM_LD_I, 0)) + num(m.get(LDSM_I, 0))
        print(f"{name[:48]:48s} {m.get('launch__registers_per_thread', '?'):>4s} {smem_b:6.0f} "
              f"{per_inst(num(m.get(SMEM_LD_W)), ld_i):10.3f} {per_inst(num(m.get(SMEM_ST_W)), num(m.get(SMEM_ST_I))):10.3f} "
              f"{m.get(LD_CONF, '?'):>10s} {m.get(ST_CONF, '?'):>10s} {num(m.get('gpu__time_duration.sum')) / 1e6:8.3f}")


def fp16(folder, stages):
    print(f"{'stage':13} {'regs':>4} {'smem':>6} {'us':>8} {'ld_W/inst':>9} {'ldsm':>9} {'lds':>9} {'st_W/inst':>9} "
          f"{'sts':>9} {'ld_conf':>10} {'st_conf':>10} {'hmma%':>6} {'L2hit':>6} {'dramMB':>7}")
    for s in stages:
        path = os.path.join(folder, f"ncu_{s.replace('/', '_')}.csv")
        ks = kernels(open(path).read()) if os.path.exists(path) else {}
        if not ks:
            print(s, "no ncu data")
            continue
        m = next(iter(ks.values()))
        ld_i, st_i, ldsm = num(m.get(SMEM_LD_I)), num(m.get(SMEM_ST_I)), num(m.get(LDSM_I))
        smem_b = num(m.get("launch__shared_mem_per_block_dynamic", 0)) + num(m.get("launch__shared_mem_per_block_static", 0))
        print(f"{s:13} {m.get('launch__registers_per_thread', '?'):>4} {smem_b:6.0f} "
              f"{num(m.get('gpu__time_duration.sum')) / 1e3:8.1f} {per_inst(num(m.get(SMEM_LD_W)), ld_i + ldsm):9.3f} "
              f"{ldsm:9.0f} {ld_i:9.0f} {per_inst(num(m.get(SMEM_ST_W)), st_i):9.3f} {st_i:9.0f} "
              f"{num(m.get(LD_CONF)):10.0f} {num(m.get(ST_CONF)):10.0f} "
              f"{num(m.get('sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active')):6.1f} "
              f"{num(m.get('lts__t_sector_hit_rate.pct')):6.1f} {num(m.get('dram__bytes_read.sum')) / 1e6:7.0f}")
        print(f"   L2 busy {num(m.get('lts__throughput.avg.pct_of_peak_sustained_elapsed')):.1f}%  "
              f"L2 {num(m.get('lts__t_bytes.sum.per_second')) / 1e12:.2f} TB/s  "
              f"smem busy {num(m.get('l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed')):.1f}%  "
              f"SM clock {num(m.get('sm__cycles_elapsed.avg.per_second')) / 1e6:.0f} MHz  "
              f"warp inst {num(m.get('smsp__inst_executed.sum')):.3g}")


def sections(text, prefix="# stage="):
    """Sections of a file where each ncu CSV follows a '# stage=S size=N' line: key -> metrics."""
    out = collections.OrderedDict()
    key, header = None, None
    for line in text.splitlines():
        if line.startswith(prefix):
            key, header = line[2:].strip(), None
            continue
        if not line.startswith('"') or key is None:
            continue
        r = next(csv.reader([line]))
        if header is None:
            header = r
            continue
        m = dict(zip(header, r))
        out.setdefault(key, {})[m["Metric Name"]] = m["Metric Value"]
    return out


def l2(path):
    for key, m in sections(open(path).read()).items():
        kv = dict(part.split("=", 1) for part in key.split() if "=" in part)
        hit = num(m.get("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"))
        read = num(m.get("lts__t_sectors_srcunit_tex_op_read.sum"))
        print(f"{kv.get('stage', '?'):14s} {kv.get('size', '?'):5s} lookup_hit/read {100 * hit / read if read else float('nan'):6.2f}%  "
              f"sector_hit {m.get('lts__t_sector_hit_rate.pct', '?'):>6s}%  dram_read {m.get('dram__bytes_read.sum', '?')}  "
              f"time {m.get('gpu__time_duration.sum', '?')}  occ reg/smem "
              f"{m.get('launch__occupancy_limit_registers', '?')}/{m.get('launch__occupancy_limit_shared_mem', '?')}")


LAUNCH_KEYS = ("launch__grid_size", "launch__block_size", "launch__registers_per_thread",
               "launch__shared_mem_per_block_dynamic", "launch__cluster_dim_x", "launch__cluster_dim_y")
LAUNCH_RATES = ("dram__throughput.avg.pct_of_peak_sustained_elapsed",
                "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed")


def launches(path):
    groups = collections.OrderedDict()
    for (_, name), m in kernels(open(path).read()).items():
        key = (name[:150],) + tuple(m.get(k, "?") for k in LAUNCH_KEYS)
        groups.setdefault(key, []).append((num(m.get("gpu__time_duration.sum")),) +
                                          tuple(num(m.get(k, "nan")) for k in LAUNCH_RATES))
    for key, ts in sorted(groups.items(), key=lambda kv: sorted(kv[1])[len(kv[1]) // 2]):
        ts.sort()
        med = ts[len(ts) // 2]
        # Where the profile asked for them: DRAM and tensor-pipe busy, % of peak, of the median launch.
        rates = "".join(f" {label}={v:.0f}%" for label, v in zip(("dram", "tensor"), med[1:]) if v == v)
        print(f"n={len(ts):4d} med={med[0] / 1000:8.2f}us grid={key[1]} blk={key[2]} regs={key[3]} "
              f"smem={key[4]} cl={key[5]}x{key[6]}{rates} {key[0]}")


def clock(path):
    samples = [l.strip().split(", ") for l in open(path) if l.count(",") >= 4]
    busy = [r for r in samples if num(r[2].split()[0]) > 300]
    if not busy:
        print("no samples under load")
        return
    clocks = sorted(int(num(r[1].split()[0])) for r in busy)
    reasons = collections.Counter(r[4] for r in busy).most_common(3)
    print(f"under load: {len(busy)} samples, SM clock median {clocks[len(clocks) // 2]} MHz "
          f"(min {clocks[0]}, max {clocks[-1]}), power max {max(num(r[2].split()[0]) for r in busy):.0f} W, "
          f"throttle reasons {reasons}")



def hot(path):
    """Where a kernel's warps were sampled: per opcode and per instruction (the source page's
    "Warp Stall Sampling (All Samples)" column; the stall-reason columns beside it where present)."""
    lines = open(path, errors="replace").read().splitlines()
    start = next((i for i, l in enumerate(lines) if "Source" in l and "Address" in l), None)
    if start is None:
        print("no source table in", path)
        return
    table = list(csv.reader(io.StringIO("\n".join(lines[start:]))))
    head, body = table[0], [r for r in table[1:] if len(r) == len(table[0])]
    col = {h: i for i, h in enumerate(head)}
    samples = next((h for h in head if h.startswith("Warp Stall Sampling (All")), None)
    if samples is None:
        print("columns:", head)
        return
    reasons = [h for h in head if h.lower().startswith("stall_") or h.lower().startswith("smsp__pcsamp")]
    total = sum(num(r[col[samples]]) for r in body) or 1.0
    by_op = collections.Counter()
    for r in body:
        words = [w for w in r[col["Source"]].split() if not w.startswith("@")]  # past the predicate
        by_op[words[0] if words else "?"] += num(r[col[samples]])
    print(f"{len(body)} instructions, {total:.0f} samples; by opcode:")
    for op, n in by_op.most_common(14):
        print(f"  {op:<24} {100 * n / total:5.1f} %")
    print("hottest instructions (address, % of samples, top stall reasons, SASS):")
    for r in sorted(body, key=lambda r: -num(r[col[samples]]))[:40]:
        why = sorted(((num(r[col[h]]), h) for h in reasons if num(r[col[h]]) > 0), reverse=True)[:3]
        print(f"  {r[col['Address']]:>6} {100 * num(r[col[samples]]) / total:5.1f} %  "
              f"{' '.join(f'{h}={n:.0f}' for n, h in why):<60} {r[col['Source']][:70]}")


def main(argv):
    if len(argv) >= 3 and argv[1] == "smem":
        smem(argv[2])
    elif len(argv) >= 4 and argv[1] == "fp16":
        fp16(argv[2], [s for s in argv[3].split(",") + os.environ.get("NCU_EXTRA", "").split() if s])
    elif len(argv) >= 3 and argv[1] == "l2":
        l2(argv[2])
    elif len(argv) >= 3 and argv[1] == "launches":
        launches(argv[2])
    elif len(argv) >= 3 and argv[1] == "clock":
        clock(argv[2])
    elif len(argv) >= 3 and argv[1] == "hot":
        hot(argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
