#!/usr/bin/env python3
"""Summarises the per-block clocks of stages 14, 15 and 16 (HOPPER_NOTES.md, "Each stage faster
than the one before" and "The clusters' barriers").

A measurement build, not the shipped kernels: check out a probe commit, build on the GPU machine,
run, then summarise:
    7f41d34 (14, 15; GEMMLAB_WS_EARLY=1: stage 15 issuing its first boxes before the block barrier)
    9cdfe62 (14, 15, 16 with its full cluster barriers)
    b41b220 (the same; GEMMLAB_CLUSTER_LIGHT=1: stage 16 as shipped since 3c303e8)
    GEMMLAB_TIMELINE=tl16.txt gemmlab bench --stages cluster --sizes 4096
    python3 kernels/lab/tools/block_timeline_summary.py tl16.txt ...
Launches 3-5 of a process append one line per block: stage, problem, launch, block, then 8 values:
SM id and absolute SM clocks (clock64, comparable between blocks of one SM) at the block's entry,
after its block (stage 16: cluster) barrier, when its first stage has landed, after its last MMA,
after each consumer warpgroup's epilogue, and then stage 15: when the producer has issued its last
box; stage 16: when the block passed its exit (after the last cluster barrier).
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
        cluster = stage == "cluster"
        end = (lambda t: t[7]) if cluster else (lambda t: max(t[5], t[6]))
        gaps, spans = [], []
        for ts in by_sm.values():
            ts.sort(key=lambda t: t[1])
            gaps += [b[1] - end(a) for a, b in zip(ts, ts[1:])]
            spans.append(max(end(t) for t in ts) - ts[0][1])
        med = lambda xs: int(st.median(xs))
        print(f"{path}: {stage}, launch {launch}, {len(rows)} blocks on {len(by_sm)} SMs; medians in SM cycles:")
        print(f"  entry to block barrier {med([t[2] - t[1] for t in rows])}, "
              f"barrier to first stage {med([t[3] - t[2] for t in rows])}, "
              f"main loop {med([t[4] - t[3] for t in rows])}, epilogue {med([max(t[5], t[6]) - t[4] for t in rows])}, "
              f"to the next block on the SM {med(gaps)}")
        if cluster:
            print(f"  exit after the epilogues (waiting for the peer): {med([t[7] - max(t[5], t[6]) for t in rows])}")
        print(f"  first entry to last end per SM: median {med(spans)}, max {max(spans)}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        summarise(p)
