#!/usr/bin/env python3
"""Shows that two builds of the simulator's C library give a client the same
outputs: every program of the kernel corpus (fixtures/kernels) on each
preset, run by IREE's iree-run-module on --device=hip, compared byte for
byte between the two libraries -- its stdout (the results, every element),
its exit status, its stderr and the simulator's report (AMDGPU_SIM_REPORT:
live objects, launches executed, skipped and faulted).

The report's `hsa_calls`/`hip_calls` lines are left out of the comparison:
IREE's HIP driver polls events from its own threads, so how often it calls
varies from run to run of one library. The `read_back_*` lines (the digest
of what the client copied back) are compared when both reports have them
(a library older than the digest has none).

usage: sim-outputs-identical.py BASE_LIB HEAD_LIB [--program NAME ...]
                                [--jobs N] [--keep DIR]

BASE_LIB and HEAD_LIB are two libamdgpu_sim_ffi.so files (for a revision's:
`git worktree add`, then `cargo build --release -p amdgpu-sim-ffi` there).
Prints one line per run that differs and a count; exits 1 if any differs.
"""
import argparse
import concurrent.futures
import importlib.util
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRESETS = (("mi300x-8", "gfx942"), ("mi250x-4", "gfx90a"), ("w7900", "gfx1100"))
VARIABLE_REPORT_LINES = ("hsa_calls ", "hip_calls ")


def kernels_check():
    spec = importlib.util.spec_from_file_location(
        "kernels_check", os.path.join(ROOT, "scripts", "kernels-check.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def outputs(lib, program, machine, chip, tool, corpus):
    """One run's outputs: (stdout, rc, stderr, report) as text."""
    module = os.path.join(corpus, "vmfb", f"{program.name}.{chip}.vmfb")
    fd, report = tempfile.mkstemp(prefix="sim-outputs-")
    os.close(fd)
    os.unlink(report)
    env = dict(os.environ, AMDGPU_SIM_MACHINE=machine, AMDGPU_SIM_REPORT=report)
    for variable in ("AMDGPU_SIM_FAULTS", "AMDGPU_SIM_TRACE"):
        env.pop(variable, None)
    child = subprocess.run(
        [tool, "--device=hip", f"--hip_dylib_path=file:{lib}", f"--module={module}",
         f"--function={program.name}", "--output_max_element_count=1000000",
         *program.inputs],
        env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        errors="replace", timeout=600)
    try:
        with open(report) as f:
            text = "".join(line for line in f if not line.startswith(VARIABLE_REPORT_LINES))
        os.unlink(report)
    except FileNotFoundError:
        text = "(no report)"
    return child.stdout, child.returncode, child.stderr, text


def without_read_back(run):
    """A run's outputs with the report's read-back lines left out."""
    stdout, rc, stderr, report = run
    lines = report.splitlines(keepends=True)
    return stdout, rc, stderr, "".join(l for l in lines if not l.startswith("read_back_"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("head")
    parser.add_argument("--program", action="append")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    args = parser.parse_args()
    kc = kernels_check()
    corpus = os.path.join(ROOT, "fixtures", "kernels")
    names = args.program or sorted(
        n[:-5] for n in os.listdir(os.path.join(corpus, "src")) if n.endswith(".mlir"))
    tool = kc.default_iree_run_module()
    runs = [(kc.Program(corpus, name), machine, chip)
            for name in names for machine, chip in PRESETS]

    def compare(run):
        program, machine, chip = run
        base = outputs(args.base, program, machine, chip, tool, corpus)
        head = outputs(args.head, program, machine, chip, tool, corpus)
        if ("read_back_" in base[3]) != ("read_back_" in head[3]):
            base, head = (without_read_back(o) for o in (base, head))
        parts = ("stdout", "exit status", "stderr", "report")
        return run, [p for p, b, h in zip(parts, base, head) if b != h], base[1]

    differ = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for (program, machine, chip), parts, rc in pool.map(compare, runs):
            if parts:
                differ += 1
                print(f"differs ({', '.join(parts)}): {program.name} on {machine} ({chip})")
            elif rc != 0:
                print(f"same, exit status {rc}: {program.name} on {machine} ({chip})")
    print(f"{len(runs)} runs, {len(runs) - differ} identical, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
