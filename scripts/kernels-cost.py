#!/usr/bin/env python3
"""Each kernel-corpus program's wall time on the simulated node against the
same program on IREE's CPU device: `iree-run-module` of
fixtures/kernels/vmfb/NAME.CHIP.vmfb with --device=hip on the C library
(kernels executed by the ISA interpreter) and of NAME.cpu.vmfb with
--device=local-task, with the program's inputs, the two interleaved round
by round (scripts/interleaved.py: the ratio is the median of the per-round
ratios). Prints a Markdown table and the median ratio over the corpus.

usage: scripts/kernels-cost.py LIB [--preset MACHINE=CHIP] [--runs N]
                               [--program NAME ...]

LIB is the library to test (build it with `cargo build --release -p
amdgpu-sim-ffi`: target/release/libamdgpu_sim_ffi.so). Needs python3 with
iree-base-runtime 3.13.0.
"""
import argparse
import importlib.util
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


interleaved = load("interleaved", os.path.join(ROOT, "scripts", "interleaved.py"))
checker = load("kernels_check", os.path.join(ROOT, "scripts", "kernels-check.py"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lib")
    parser.add_argument("--preset", default="mi300x-8=gfx942")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--program", action="append")
    args = parser.parse_args()
    machine, chip = args.preset.split("=", 1)
    corpus = os.path.join(ROOT, "fixtures", "kernels")
    names = args.program or sorted(f[:-5] for f in os.listdir(os.path.join(corpus, "src")))
    tool = checker.default_iree_run_module()
    os.environ["AMDGPU_SIM_MACHINE"] = machine
    print(f"# iree-run-module, kernel corpus: {machine} ({chip}) vs local-task, "
          f"{args.runs} rounds, load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs\n")
    print("| program | local-task (ms) | simulated (ms) | ratio |")
    print("|---|---:|---:|---:|")
    ratios = []
    for name in names:
        program = checker.Program(corpus, name)
        common = [f"--function={name}", "--output_max_element_count=100000", *program.inputs]
        cpu = [tool, "--device=local-task",
               f"--module={os.path.join(corpus, 'vmfb', name + '.cpu.vmfb')}", *common]
        sim = [tool, "--device=hip", f"--hip_dylib_path=file:{args.lib}",
               f"--module={os.path.join(corpus, 'vmfb', f'{name}.{chip}.vmfb')}", *common]
        times = [[], []]
        for round_index in range(1 + args.runs):
            order = [(0, cpu), (1, sim)]
            if round_index % 2:
                order.reverse()
            for index, argv in order:
                elapsed = interleaved.run_once(argv)
                if round_index:
                    times[index].append(elapsed)
        ratio = statistics.median(s / c for c, s in zip(*times))
        ratios.append(ratio)
        print(f"| {name} | {statistics.median(times[0]) * 1e3:.1f} | "
              f"{statistics.median(times[1]) * 1e3:.1f} | {ratio:.2f} |")
    print(f"\nmedian ratio over {len(ratios)} programs: {statistics.median(ratios):.2f} "
          f"(max {max(ratios):.2f})")


if __name__ == "__main__":
    sys.exit(main())
