#!/usr/bin/env python3
"""Summarises stage 17's per-block timelines (HOPPER_NOTES.md, "A timeline of stage 17").

The timeline is a measurement build, not the shipped kernel: check out probe commit 40c2fe6, build
on the GPU machine, then
    GEMMLAB_PERSISTENT_VARIANT=6 GEMMLAB_TIMELINE=tl.txt gemmlab bench --stages persistent \
        --sizes 4096 --warmup 2 --reps 3
    python3 kernels/lab/tools/timeline_summary.py tl.txt
Each launch appends one line per block: problem, launch, block, globaltimer start and end (ns),
then per segment 7 clock64 values relative to the block's start (main loop begin, last MMA done,
epilogue done, k-tiles 4 / 8 / 16 / 32 done), then '|' and the 8 chunks of segment 1's epilogue
(slot free, chunk written, stores issued). The summary covers the last launch.
"""
import statistics as st
import sys


def main(path):
    lines = [line.split() for line in open(path)]
    last = max(int(l[1]) for l in lines)
    rows = [l for l in lines if int(l[1]) == last]
    t0 = min(int(r[3]) for r in rows)
    main_loop, epilogue, gap, first, ends = [], [], [], [], []
    chunks = [[[] for _ in range(3)] for _ in range(8)]
    for r in rows:
        bar = r.index("|")
        v = list(map(int, r[5:bar]))
        c = list(map(int, r[bar + 1:]))
        n = len(v) // 7
        for s in range(n):
            main_loop.append(v[7 * s + 1] - v[7 * s])
            epilogue.append(v[7 * s + 2] - v[7 * s + 1])
            if s > 0:
                gap.append(v[7 * s] - v[7 * (s - 1) + 2])
        first.append(v[0])
        ends.append((int(r[4]) - t0, n))
        if n > 1:
            for q in range(8):
                for j in range(3):
                    chunks[q][j].append(c[3 * q + j] - v[7 + 1])
    print(f"{rows[0][0]}, launch {last}, {len(rows)} blocks (cycles, medians)")
    print(f"  main loop per tile {st.median(main_loop):.0f} (min {min(main_loop)}, max {max(main_loop)})")
    print(f"  epilogue {st.median(epilogue):.0f} (max {max(epilogue)}), between tiles {st.median(gap):.0f}, "
          f"first main loop begins at {st.median(first):.0f}")
    full = sorted(e for e, n in ends if n == max(m for _, m in ends))
    print(f"  blocks with the most segments end at {full[0]} / {full[len(full) // 2]} / {full[-1]} ns "
          "(first / median / last)")
    print("  segment 1's epilogue chunks, cycles after its last MMA: slot free, written, stores issued")
    for q in range(8):
        print(f"    chunk {q}: " + " ".join(f"{st.median(chunks[q][j]):6.0f}" for j in range(3)))


if __name__ == "__main__":
    main(sys.argv[1])
