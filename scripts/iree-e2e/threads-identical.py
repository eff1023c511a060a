#!/usr/bin/env python3
"""Shows that IREE's e2e suites read back the same bits whatever the number
of kernel threads (AMDGPU_SIM_THREADS): runs scripts/iree-e2e/run.py once
per thread count, each with the same arguments, and compares every test
file's run across the counts -- its outcome, the kernel launches executed,
and the digest of every byte the client copied back from the devices (the
report's read_back_copies, read_back_bytes and read_back_digest lines: a
sum of per-copy hashes, so the order of IREE's own threads' copies does not
matter; docs/SIMULATOR.md, "Environment", AMDGPU_SIM_REPORT).

The suites' check modules compare results with tolerances, so a passing
test alone does not show that two thread counts computed the same bits; the
digest does.

usage: threads-identical.py LIB [--threads N ...] [--work DIR] [RUN.PY-ARGS...]

LIB is the library run.py tests; --threads (repeatable, default 1 and 4) the
counts, the first the reference; --work run.py's work folder (its module
cache: default target/iree-e2e), each count's results going to
WORK/threads-N.json. Every other argument goes to run.py as it is
(--suite, --preset, --generated, --tools, --iree-src, --jobs ...).

Prints one line per test that differs and a count; exits 1 if any test
differs, if a test ran at one count and not at another, or if no test read
anything back (nothing would have been compared).
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_PY = os.path.join(ROOT, "scripts", "iree-e2e", "run.py")


def run(lib, threads, work, extra):
    """run.py at one thread count: its results, by (chip, suite, source),
    of the tests that ran."""
    results = os.path.join(work, f"threads-{threads}.json")
    env = dict(os.environ, AMDGPU_SIM_THREADS=str(threads))
    for variable in ("AMDGPU_SIM_FAULTS", "AMDGPU_SIM_ON_FAULT", "AMDGPU_SIM_KERNELS"):
        env.pop(variable, None)
    child = subprocess.run([sys.executable, RUN_PY, lib, "--work", work, "--json", results, *extra],
                           env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if child.returncode != 0:
        sys.exit(f"run.py with AMDGPU_SIM_THREADS={threads} failed ({child.returncode}):\n"
                 f"{child.stdout}\n{child.stderr}")
    with open(results) as f:
        tests = json.load(f)["tests"]
    return {(t["chip"], t["suite"], t["source"]): t for t in tests if "log" in t}


def what_counts(test):
    """What must be the same at every thread count."""
    return (test.get("outcome"), test.get("launches", {}).get("launches_executed"),
            test.get("read_back"))


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("library")
    parser.add_argument("--threads", action="append", type=int)
    parser.add_argument("--work", default=os.path.join(ROOT, "target", "iree-e2e"))
    args, extra = parser.parse_known_args()
    counts = args.threads or [1, 4]
    if len(counts) < 2 or any(n < 1 for n in counts):
        parser.error("give at least two --threads counts, each at least 1")
    lib = os.path.realpath(args.library)
    runs = [(n, run(lib, n, args.work, extra)) for n in counts]
    (first, reference), differ = runs[0], 0
    for threads, tests in runs[1:]:
        if tests.keys() != reference.keys():
            differ += 1
            print(f"not the same tests ran on {first} and {threads} threads: "
                  f"{sorted(tests.keys() ^ reference.keys())}")
        for key in sorted(tests.keys() & reference.keys()):
            if what_counts(tests[key]) != what_counts(reference[key]):
                differ += 1
                print(f"differs on {first} and {threads} threads: {' '.join(key)}: "
                      f"{what_counts(reference[key])} / {what_counts(tests[key])}")
    read = [t for t in reference.values() if t.get("read_back", {}).get("bytes")]
    copies = sum(t["read_back"]["copies"] for t in read)
    size = sum(t["read_back"]["bytes"] for t in read)
    print(f"{len(reference)} test files on {', '.join(map(str, counts))} threads: "
          f"{len(read)} read back ({copies} copies, {size} bytes), {differ} differ")
    if not read:
        print("no test read anything back: nothing was compared")
        return 1
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
