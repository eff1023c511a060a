#!/usr/bin/env python3
"""Which instructions each test file's kernels hold, and a subset of test
files that holds them all: the choice behind scripts/iree-e2e/new-presets-ci.txt.

usage: families.py RESULTS.json [--modules DIR] [--chip CHIP ...] [--suite-only]

RESULTS.json is a run of run.py (`--json`); each test's compiled modules
(WORK/modules/KEY.vmfb, the cache run.py keeps) hold the kernels IREE
compiled for it as an AMDGPU ELF, which `llvm-objdump-22 -d` disassembles
(LLVM 22 knows gfx950 and decodes all of gfx1201's VOP3 compares; LLVM 19
prints some as `.long`). An instruction is a mnemonic as LLVM prints it
less the encoding suffixes `_e32`, `_e64`, `_dpp`, `_sdwa` (one operation,
however encoded).

For each chip it prints the distinct instructions of all the tests that
compiled, and chooses tests greedily: first the one that adds the most
instructions not yet held per second of its cost (compile seconds from
the cache entries plus run seconds from RESULTS.json), until every
instruction is held; then, for each suite directory (the DIR of
DIR/NAME) no chosen test is from, its cheapest test. It prints the
chosen tests as run.py `--suite` patterns (DIR/NAME:SOURCE, the chips'
union), their cost against the whole, and writes nothing.

Needs llvm-objdump-22 (Debian package llvm-22); the environment variable
LLVM_OBJDUMP names another.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
from collections import defaultdict

OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-22")
ELF_MAGIC = b"\x7fELF"
# ELF64 header fields: e_shoff at 0x28 (8 bytes), e_shentsize and e_shnum
# at 0x3a and 0x3c (2 bytes each).
E_SHOFF, E_SHENTSIZE = 0x28, 0x3A
SUFFIXES = re.compile(r"_(e32|e64|dpp|sdwa)$")
INSTRUCTION = re.compile(r"^\t([a-z_0-9]+)\b")
# Outcomes whose modules compiled and ran (or were refused at launch).
RAN = {"passed", "failed", "unsupported", "fault", "hang", "crash", "error"}


def elves(blob):
    """The ELF images embedded in a module's bytes (IREE's ROCm executables
    carry the code object as is)."""
    start = blob.find(ELF_MAGIC)
    while start != -1:
        if start + 0x40 > len(blob):
            return
        (shoff,) = struct.unpack_from("<Q", blob, start + E_SHOFF)
        shentsize, shnum = struct.unpack_from("<HH", blob, start + E_SHENTSIZE)
        end = start + shoff + shentsize * shnum
        if end > len(blob) or shnum == 0:
            return
        yield blob[start:end]
        start = blob.find(ELF_MAGIC, end)


def instructions(module):
    """The distinct instructions of a module's kernels."""
    found = set()
    with open(module, "rb") as f:
        blob = f.read()
    for image in elves(blob):
        with tempfile.NamedTemporaryFile(suffix=".elf") as elf:
            elf.write(image)
            elf.flush()
            out = subprocess.run([OBJDUMP, "-d", elf.name], capture_output=True,
                                 text=True, check=True).stdout
        for line in out.splitlines():
            m = INSTRUCTION.match(line)
            if m:
                found.add(SUFFIXES.sub("", m.group(1)))
    return found


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("results")
    parser.add_argument("--modules", help="the module cache (default: beside RESULTS.json)")
    parser.add_argument("--chip", action="append", default=[])
    options = parser.parse_args()
    with open(options.results) as f:
        document = json.load(f)
    modules = options.modules or os.path.join(os.path.dirname(options.results), "modules")
    by_chip = defaultdict(list)
    for test in document["tests"]:
        if test["outcome"] not in RAN or "(generated)" in test["suite"]:
            continue
        if options.chip and test["chip"] not in options.chip:
            continue
        keys = [c["key"] for c in test.get("compile", []) if c.get("status") == "compiled"]
        held = set()
        for key in keys:
            held |= instructions(os.path.join(modules, key + ".vmfb"))
        cost = sum(c.get("seconds", 0) for c in test.get("compile", [])) + test.get("seconds", 0)
        by_chip[test["chip"]].append((test["suite"], test["source"], held, cost))
    patterns = set()
    for chip, tests in sorted(by_chip.items()):
        every = set().union(*(held for _, _, held, _ in tests))
        left, chosen = set(every), []
        while left:
            best = max(tests, key=lambda t: len(t[2] & left) / max(t[3], 0.1))
            if not best[2] & left:
                break
            chosen.append(best)
            left -= best[2]
        dirs = {suite.split("/")[0] for suite, *_ in chosen}
        for directory in sorted({suite.split("/")[0] for suite, *_ in tests} - dirs):
            chosen.append(min((t for t in tests if t[0].split("/")[0] == directory),
                              key=lambda t: t[3]))
        whole = sum(t[3] for t in tests)
        cost = sum(t[3] for t in chosen)
        print(f"{chip}: {len(every)} instructions in {len(tests)} tests ({whole:.0f} s); "
              f"{len(chosen)} tests hold them all and every directory ({cost:.0f} s)")
        for suite, source, held, seconds in chosen:
            print(f"  {suite}:{source}  {len(held)} instructions, {seconds:.1f} s")
            patterns.add(f"{suite}:{source}")
    print("\n".join(sorted(patterns)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
