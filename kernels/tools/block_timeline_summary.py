#!/usr/bin/env python3
"""Summarises the per-block clocks of stages 14 and 15 (HOPPER_NOTES.md, "Each stage faster
than the one before").

A measurement build, not the shipped kernels: check out probe commit 7f41d34, build on the GPU
machine, then
    GEMMLAB_TIMELINE=tl14.txt gemmlab bench --stages wgmma --sizes 4096
    GEMMLAB_TIMELINE=tl15.txt gemmlab bench --stages warp-specialized --sizes 4096
    GEMMLAB_WS_EARLY=1 GEMMLAB_TIMELINE=tl15e.txt gemmlab bench --stages warp-specialized --sizes 4096
    python3 kernels/tools/block_timeline_summary.py tl14.txt tl15.txt tl15e.txt
Launches 3-5 of a process append one line per block: stage, problem, launch, block, then 8 values:
SM id and absolute SM clocks (clock64, comparable between blocks of one SM) at the block's entry,
after its block barrier, when its first stage has landed, after its last MMA, after each consumer
warpgroup's epilogue, and (stage 15) when the producer has issued its last box.
"""
import collections
import statistics as st
import sys


def summarise(path):
    launches = collections.defaultdict(list)
    for line in open(path):
        f = line.split()
        t = [int(v) for v in f[4:12]]
        if t[5] or t[6]:  # blocks past N return before any work
            launches[(f[0], int(f[2]))].append(t)
    for (stage, launch), rows in sorted(launches.items()):
        by_sm = collections.defaultdict(list)
        for t in rows:
            by_sm[t[0]].append(t)
        end = lambda t: max(t[5], t[6])
        gaps, spans = [], []
        for ts in by_sm.values():
            ts.sort(key=lambda t: t[1])
            gaps += [b[1] - end(a) for a, b in zip(ts, ts[1:])]
            spans.append(max(end(t) for t in ts) - ts[0][1])
        med = lambda xs: int(st.median(xs))
        print(f"{path}: {stage}, launch {launch}, {len(rows)} blocks on {len(by_sm)} SMs; medians in SM cycles:")
        print(f"  entry to block barrier {med([t[2] - t[1] for t in rows])}, "
              f"barrier to first stage {med([t[3] - t[2] for t in rows])}, "
              f"main loop {med([t[4] - t[3] for t in rows])}, epilogue {med([end(t) - t[4] for t in rows])}, "
              f"to the next block on the SM {med(gaps)}")
        print(f"  first entry to last end per SM: median {med(spans)}, max {max(spans)}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        summarise(p)
