#!/usr/bin/env python3
"""Runs IREE's HIP CTS binaries (built by build.sh) against a HIP library
and tabulates the outcome of every test.

usage: run.py [options] LIBRARY

LIBRARY is the libamdhip64 to test, handed to IREE's HIP driver as
--hip_dylib_path=file:LIBRARY (the simulator's libamdgpu_sim_ffi.so, or a
real one).

  --bin DIR           the binaries (default target/iree-cts/bin)
  --out DIR           results (default target/iree-cts/results)
  --preset P=CHIP     a simulated machine and the chip of its GPUs' testdata
                      (AMDGPU_SIM_MACHINE=P); repeatable (default:
                      mi300x-8=gfx942 mi250x-4=gfx90a w7900=gfx1100
                      r9700-4=gfx1201 mi355x-8=gfx950)
  --lists L           shipped | all | both (default both)
  --modes M           stream | graph | both (default both)
  --jobs N            processes at once (default: the cores)
  --hang-after S      a test silent this long is killed and counted hung (default 60)
  --filter GLOB       gtest filter added to every run (default: none)

Lists: "shipped" runs each binary whole, as IREE's ctest does, with IREE's
unsupported/expected-failure lists (and, in graph mode, the gtest filter
IREE's CMakeLists gives that suite); "all" runs every test in a process of
its own with both lists emptied. A test that hangs (silent for
--hang-after) or kills its process is recorded as hung or crashed; a whole
binary is then run again without the tests already recorded.

Outcomes: passed, failed, skipped (gtest's SKIPPED: the shipped lists, or a
test's own GTEST_SKIP), hung, crashed. Every run keeps gtest's JSON and its
output under OUT/<preset>/<lists>-<mode>/; OUT/results.json holds every
test's outcome and first failure message; the table goes to stdout.

Exit status: 0 whatever the tests did (a caller judges the results), 2 on a
usage error or a missing binary.
"""
import argparse
import concurrent.futures
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness_progress import Progress  # noqa: E402
from gtest_runs import MESSAGE_BYTES, OUTCOMES, list_tests, run_binary

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLAIN = ["buffer", "command_buffer", "core", "file", "queue"]
EXECUTABLE = ["dispatch", "executable", "queue_dispatch"]
DEFAULT_PRESETS = [
    "mi300x-8=gfx942",
    "mi250x-4=gfx90a",
    "w7900=gfx1100",
    "r9700-4=gfx1201",
    "mi355x-8=gfx950",
]
# IREE's graph suite (drivers/hip/cts/CMakeLists.txt) runs with this filter.
GRAPH_FILTER = "-CTS/QueueTransferTest.*:CTS/AsyncTransientBufferTest.*:CTS/TransientBufferTest.*"


def binary_name(lists, category, chip):
    if category in EXECUTABLE:
        return f"{lists}_{category}_{chip}_tests"
    return f"{lists}_{category}_tests"


def mode_args(mode, lists):
    if mode == "stream":
        return ["--hip_use_streams=true"], None
    return ["--hip_use_streams=false"], (GRAPH_FILTER if lists == "shipped" else None)


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("library")
    parser.add_argument("--bin", default=os.path.join(ROOT, "target/iree-cts/bin"))
    parser.add_argument("--out", default=os.path.join(ROOT, "target/iree-cts/results"))
    parser.add_argument("--preset", action="append")
    parser.add_argument("--lists", default="both", choices=["shipped", "all", "both"])
    parser.add_argument("--modes", default="both", choices=["stream", "graph", "both"])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--hang-after", type=float, default=60)
    parser.add_argument("--filter")
    options = parser.parse_args()
    library = os.path.realpath(options.library)
    if not os.path.isfile(library):
        parser.error(f"no library at {library}")
    presets = [p.split("=", 1) for p in options.preset or DEFAULT_PRESETS]
    if any(len(p) != 2 for p in presets):
        parser.error("--preset takes MACHINE=CHIP")
    lists = ["shipped", "all"] if options.lists == "both" else [options.lists]
    modes = ["stream", "graph"] if options.modes == "both" else [options.modes]

    # One job per (preset, lists, mode, binary) for whole-binary runs, per
    # test for isolated ones.
    jobs = []
    for machine, chip in presets:
        env = dict(os.environ, AMDGPU_SIM_MACHINE=machine)
        env.pop("AMDGPU_SIM_FAULTS", None)
        for lst in lists:
            for mode in modes:
                args, gtest_filter = mode_args(mode, lst)
                if options.filter:
                    gtest_filter = options.filter if not gtest_filter else gtest_filter
                out_dir = os.path.join(options.out, machine, f"{lst}-{mode}")
                os.makedirs(out_dir, exist_ok=True)
                for category in PLAIN + EXECUTABLE:
                    binary = os.path.join(options.bin, binary_name(lst, category, chip))
                    if not os.path.isfile(binary):
                        print(f"run.py: no binary {binary} (run scripts/iree-cts/build.sh)", file=sys.stderr)
                        sys.exit(2)
                    key = (machine, lst, mode, category)
                    full_args = [f"--hip_dylib_path=file:{library}", *args]
                    if lst == "shipped":
                        jobs.append((key, binary, full_args, gtest_filter, env, out_dir, category))
                    else:
                        for test in list_tests(binary, full_args, gtest_filter, env):
                            stem = f"{category}.{re.sub(r'[^A-Za-z0-9_.-]', '_', test)}"
                            jobs.append((key, binary, full_args, test, env, out_dir, stem))

    results = {}
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        futures = {
            pool.submit(run_binary, binary, args, filt, env, out_dir, stem, options.hang_after): key
            for key, binary, args, filt, env, out_dir, stem in jobs
        }
        # One line on stderr every few finished processes (stdout is the table).
        progress = Progress("run.py", len(futures), "test processes")
        for future in concurrent.futures.as_completed(futures):
            key = futures[future]
            outcomes = future.result()
            for test, (outcome, message) in outcomes.items():
                results.setdefault(key, {})[test] = (outcome, message[:MESSAGE_BYTES])
            progress.done(1, int(any(o not in ("passed", "skipped") for o, _ in outcomes.values())))
    elapsed = time.monotonic() - started

    document = {"library": library, "seconds": round(elapsed, 1), "runs": []}
    print(f"{'preset':10} {'lists':8} {'mode':7} " + " ".join(f"{o:>8}" for o in OUTCOMES) + f" {'total':>6}")
    for machine, _ in presets:
        for lst in lists:
            for mode in modes:
                tests = {}
                for category in PLAIN + EXECUTABLE:
                    for test, value in results.get((machine, lst, mode, category), {}).items():
                        tests[f"{category}:{test}"] = value
                counts = {o: sum(1 for v in tests.values() if v[0] == o) for o in OUTCOMES}
                print(f"{machine:10} {lst:8} {mode:7} " + " ".join(f"{counts[o]:>8}" for o in OUTCOMES) + f" {len(tests):>6}")
                document["runs"].append({
                    "preset": machine, "lists": lst, "mode": mode, "counts": counts,
                    "tests": {t: {"outcome": o, "message": m} for t, (o, m) in sorted(tests.items())},
                })
    print(f"({elapsed:.0f} s, {len(jobs)} processes; results: {options.out}/results.json)")
    with open(os.path.join(options.out, "results.json"), "w") as f:
        json.dump(document, f, indent=1)


if __name__ == "__main__":
    main()
