#!/usr/bin/env python3
"""Plots target/perf/scaling.tsv (from scripts/scaling.sh) into
docs/scaling-time.png and docs/scaling-memory.png: wall time and peak
memory of `inspect --json` and `load --json` against the kernel count, with
the file size for reference and, on the time plot, the cost per kernel.

    python3 scripts/plot_scaling.py [TSV] [OUT_DIR]   # needs matplotlib
"""
import csv
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

root = Path(__file__).resolve().parent.parent
tsv = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "target/perf/scaling.tsv"
out = Path(sys.argv[2]) if len(sys.argv) > 2 else root / "docs"
rows = list(csv.DictReader(tsv.open(), delimiter="\t"))
n = [int(r["kernels"]) for r in rows]

fig, (ax, per) = plt.subplots(1, 2, figsize=(11, 4.2))
for key, label, style in [("inspect_cpu_s", "inspect --json", "o-"), ("load_cpu_s", "load --json (8 GPUs)", "s-")]:
    t = [float(r[key]) for r in rows]
    ax.plot(n, t, style, label=label)
    per.plot(n, [s / k * 1e6 for s, k in zip(t, n)], style, label=label)
ax.set(xscale="log", yscale="log", xlabel="kernels", ylabel="CPU time, user + system (s)",
       title="CPU time vs kernel count")
per.set(xscale="log", xlabel="kernels", ylabel="µs per kernel", title="Cost per kernel (flat = linear)")
per.set_ylim(bottom=0)
for a in (ax, per):
    a.grid(True, which="both", alpha=0.3)
    a.legend()
fig.tight_layout()
fig.savefig(out / "scaling-time.png", dpi=110)

fig, ax = plt.subplots(figsize=(6.5, 4.2))
ax.plot(n, [int(r["bytes"]) / 1e6 for r in rows], "k--", label="file size")
ax.plot(n, [2 * int(r["bytes"]) / 1e6 for r in rows], "k:", label="2 × file size (inspect target)")
for key, label, style in [("inspect_rss_kb", "inspect --json", "o-"), ("load_rss_kb", "load --json (8 GPUs)", "s-")]:
    ax.plot(n, [int(r[key]) * 1024 / 1e6 for r in rows], style, label=label)
ax.set(xscale="log", yscale="log", xlabel="kernels", ylabel="peak resident memory (MB)",
       title="Peak memory vs kernel count")
ax.grid(True, which="both", alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(out / "scaling-memory.png", dpi=110)
print(f"wrote {out / 'scaling-time.png'} and {out / 'scaling-memory.png'}")
