#!/usr/bin/env python3
"""Runs IREE's AMDGPU driver tests (built by build.sh) against an HSA
library and tabulates the outcome of every test.

usage: run_amdgpu.py [options] LIBDIR

LIBDIR holds the libhsa-runtime64.so.1 to test (scripts/sim-libs.sh's
directory for the simulator), handed to IREE's AMDGPU driver as
IREE_HAL_AMDGPU_LIBHSA_PATH (a directory or a path ending in .so; IREE
takes no file: prefix there).

  --kfd PATH          the /dev/kfd stand-in to LD_PRELOAD (default:
                      LIBDIR/libamdgpu_sim_kfd.so); "none" on a real node
  --bin DIR           the binaries (default target/iree-cts/bin-amdgpu)
  --out DIR           results (default target/iree-cts/results-amdgpu)
  --preset P=CHIP     a simulated machine and the chip of its GPUs' testdata
                      (AMDGPU_SIM_MACHINE=P); repeatable (default:
                      mi300x-8=gfx942 mi250x-4=gfx90a w7900=gfx1100
                      r9700-4=gfx1201 mi355x-8=gfx950)
  --suites S          cts | device | both (default both)
  --jobs N            processes at once (default: the cores)
  --hang-after S      a test silent this long is killed and counted hung (default 60)
  --filter GLOB       gtest filter for every run (default: none)

Suites: "cts" is IREE's HAL CTS for the driver, each category binary run
whole with IREE's own list (HAL events unsupported), the executable
categories with testdata for the preset's chip; "device" is every test of
the driver that opens HSA (system_test, allocator_test, the host-queue
tests, util_vmem_test, ...; host_queue_command_buffer_test with the
preset's chip's testdata). Hung and crashed tests are recorded and the
binary run again without them (gtest_runs.py).

Outcomes: passed, failed, skipped, hung, crashed. OUT/<preset>/<suite>/
keeps gtest's JSON and output of every run; OUT/results.json every test's
outcome and first failure message; the table goes to stdout.

Exit status: 0 whatever the tests did (a caller judges the results), 2 on a
usage error or a missing binary.
"""
import argparse
import concurrent.futures
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness_progress import Progress  # noqa: E402
from gtest_runs import MESSAGE_BYTES, OUTCOMES, run_binary

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
KFD_NAME = "libamdgpu_sim_kfd.so"
SUITES = ["cts", "device"]


def binaries(bin_dir, suite, chip):
    """(category, path) of every binary of `suite` for `chip`."""
    if suite == "cts":
        names = [(c, f"cts_{c}_tests") for c in PLAIN]
        names += [(c, f"cts_{c}_{chip}_tests") for c in EXECUTABLE]
    else:
        # The driver's tests; those built per chip (<chip>_<name>) for the
        # preset's chip only, under their own name.
        names = []
        for n in sorted(os.listdir(bin_dir)):
            if n.startswith("cts_"):
                continue
            if n.startswith("gfx"):
                if n.startswith(chip + "_"):
                    names.append((n[len(chip) + 1 :], n))
                continue
            names.append((n, n))
    return [(category, os.path.join(bin_dir, name)) for category, name in names]


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("libdir")
    parser.add_argument("--kfd")
    parser.add_argument("--bin", default=os.path.join(ROOT, "target/iree-cts/bin-amdgpu"))
    parser.add_argument("--out", default=os.path.join(ROOT, "target/iree-cts/results-amdgpu"))
    parser.add_argument("--preset", action="append")
    parser.add_argument("--suites", default="both", choices=["cts", "device", "both"])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--hang-after", type=float, default=60)
    parser.add_argument("--filter")
    options = parser.parse_args()
    libdir = os.path.realpath(options.libdir)
    if not os.path.isfile(os.path.join(libdir, "libhsa-runtime64.so.1")):
        parser.error(f"no libhsa-runtime64.so.1 in {libdir}")
    kfd = options.kfd or os.path.join(libdir, KFD_NAME)
    if kfd != "none" and not os.path.isfile(kfd):
        parser.error(f"no /dev/kfd stand-in at {kfd} (--kfd none on a real node)")
    if not os.path.isdir(options.bin):
        print(f"run_amdgpu.py: no {options.bin} (run scripts/iree-cts/build.sh)", file=sys.stderr)
        sys.exit(2)
    presets = [p.split("=", 1) for p in options.preset or DEFAULT_PRESETS]
    if any(len(p) != 2 for p in presets):
        parser.error("--preset takes MACHINE=CHIP")
    suites = SUITES if options.suites == "both" else [options.suites]

    jobs = []
    for machine, chip in presets:
        env = dict(os.environ, AMDGPU_SIM_MACHINE=machine, IREE_HAL_AMDGPU_LIBHSA_PATH=libdir)
        env.pop("AMDGPU_SIM_FAULTS", None)
        if kfd != "none":
            env["LD_PRELOAD"] = os.path.realpath(kfd)
        for suite in suites:
            out_dir = os.path.join(options.out, machine, suite)
            os.makedirs(out_dir, exist_ok=True)
            for category, binary in binaries(options.bin, suite, chip):
                if not os.path.isfile(binary):
                    print(f"run_amdgpu.py: no binary {binary} (run scripts/iree-cts/build.sh)", file=sys.stderr)
                    sys.exit(2)
                key = (machine, suite, category)
                jobs.append((key, binary, options.filter, env, out_dir, category))

    results = {}
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        futures = {
            pool.submit(run_binary, binary, [], filt, env, out_dir, stem, options.hang_after): key
            for key, binary, filt, env, out_dir, stem in jobs
        }
        # One line on stderr every few finished processes (stdout is the table).
        progress = Progress("run_amdgpu.py", len(futures), "test processes")
        for future in concurrent.futures.as_completed(futures):
            key = futures[future]
            outcomes = future.result()
            for test, (outcome, message) in outcomes.items():
                results.setdefault(key, {})[test] = (outcome, message[:MESSAGE_BYTES])
            progress.done(1, int(any(o not in ("passed", "skipped") for o, _ in outcomes.values())))
    elapsed = time.monotonic() - started

    document = {"libdir": libdir, "kfd": kfd, "seconds": round(elapsed, 1), "runs": []}
    print(f"{'preset':10} {'suite':7} " + " ".join(f"{o:>8}" for o in OUTCOMES) + f" {'total':>6}")
    for machine, _ in presets:
        for suite in suites:
            tests = {}
            for (m, s, category), values in results.items():
                if (m, s) == (machine, suite):
                    for test, value in values.items():
                        tests[f"{category}:{test}"] = value
            counts = {o: sum(1 for v in tests.values() if v[0] == o) for o in OUTCOMES}
            print(f"{machine:10} {suite:7} " + " ".join(f"{counts[o]:>8}" for o in OUTCOMES) + f" {len(tests):>6}")
            document["runs"].append({
                "preset": machine, "suite": suite, "counts": counts,
                "tests": {t: {"outcome": o, "message": m} for t, (o, m) in sorted(tests.items())},
            })
    print(f"({elapsed:.0f} s, {len(jobs)} processes; results: {options.out}/results.json)")
    with open(os.path.join(options.out, "results.json"), "w") as f:
        json.dump(document, f, indent=1)


if __name__ == "__main__":
    main()
