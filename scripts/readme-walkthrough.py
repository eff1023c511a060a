#!/usr/bin/env python3
"""Rewrites the outputs of README.md's `console` blocks from the binary.

Usage: scripts/readme-walkthrough.py [BIN]   (default target/debug/amdgpu-hal)

Each `$ amdgpu-hal ...` line is run from a scratch directory holding a
`fixtures` link (as tests/it/cli/readme_walkthrough.rs does) and the lines after it
are replaced by what it prints (stdout, then stderr). A step ending in `...`
keeps that many lines (12 when it showed none). Read the diff before
committing: tests/it/cli/readme_walkthrough.rs then checks the README stays true.
"""
import os, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target/debug/amdgpu-hal"))
scratch = tempfile.mkdtemp(prefix="readme-walkthrough-")
os.symlink(os.path.join(root, "fixtures"), os.path.join(scratch, "fixtures"))
env = {k: v for k, v in os.environ.items() if k != "RUST_LOG"}

lines = open(os.path.join(root, "README.md")).read().split("\n")
out, i, in_console = [], 0, False
while i < len(lines):
    line = lines[i]
    if not in_console:
        out.append(line); in_console = line.rstrip() == "```console"; i += 1; continue
    if line.rstrip() == "```":
        out.append(line); in_console = False; i += 1; continue
    assert line.startswith("$ amdgpu-hal "), f"README.md:{i+1}: {line}"
    out.append(line); i += 1
    shown = []
    while i < len(lines) and not lines[i].startswith("$ ") and lines[i].rstrip() != "```":
        shown.append(lines[i]); i += 1
    cut = shown[-1:] == ["..."]
    keep = (len(shown) - 1 or 12) if cut else None
    run = subprocess.run([binary] + line[len("$ amdgpu-hal "):].split(), cwd=scratch, env=env, capture_output=True)
    printed = (run.stdout + run.stderr).decode().splitlines()
    if keep is not None and keep < len(printed):
        printed = printed[:keep] + ["..."]
    out.extend(printed)
open(os.path.join(root, "README.md"), "w").write("\n".join(out))
