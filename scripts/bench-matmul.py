#!/usr/bin/env python3
"""The interpreter's speed on realistic kernels, checked against IREE's CPU.

Compiles two programs with IREE's compiler (PyPI iree-base-compiler 3.13.0)
for the simulated node's GPUs (gfx942: mi300x-8, gfx1100: w7900) and for
IREE's CPU backend (llvm-cpu, `--device=local-task`), runs each with IREE's
own `iree-run-module` (PyPI iree-base-runtime 3.13.0) on the simulated node
through the C library (release build: `scripts/sim-libs.sh --release`), and
compares every result with the CPU's, bit for bit (the inputs are small
multiples of 1/2 and 1/8, so every product and partial sum is exact in f32
and the order of accumulation cannot show):

- `matmul`: an N x N x N f16 matmul with an f32 result (default N = 1,024:
  1.07 G multiply-adds; gfx942 runs it on MFMA, gfx1100 on WMMA);
- `conv`: a 3x3 NHWC f32 convolution, 1x66x66x32 input, 3x3x32x64 filter,
  1x64x64x64 output (75.5 M multiply-adds).

For each program it prints the child's CPU time (user + system, one
core: the interpreter runs work-groups on the calling thread), the median
of RUNS runs, whole process; the kernels' own CPU time, that less the
median of the same runs with AMDGPU_SIM_KERNELS=skip (process start,
module load, copies); the multiply-add rate over the kernels' time; and
that rate as a share of the host's own f32 multiply-add rate on one core,
measured in the same run by scripts/host-fma.rs built with `rustc -O -C
target-cpu=native` (fused multiply-adds; the rate for the baseline x86-64
target is printed too; the library is built for x86-64-v3). Needs rustc.

    scripts/bench-matmul.py [--n N] [--runs RUNS] [--only matmul|conv]
                            [--chips gfx942,gfx1100] [--lib DIR]

DIR holds the libraries `scripts/sim-libs.sh` links (default: it is run
with --release --no-build). Needs numpy.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MACHINES = {"gfx942": "mi300x-8", "gfx1100": "w7900"}


def run_module_binary():
    import iree._runtime_libs as libs

    return os.path.join(os.path.dirname(libs.__file__), "iree-run-module")


def matmul_source(n):
    return f"""
func.func @main(%a: tensor<{n}x{n}xf16>, %b: tensor<{n}x{n}xf16>) -> tensor<{n}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{n}x{n}xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{n}x{n}xf16>, tensor<{n}x{n}xf16>)
                     outs(%acc : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  return %r : tensor<{n}x{n}xf32>
}}
"""


CONV = dict(n=1, h=66, w=66, c=32, f=64)


def conv_source():
    n, h, w, c, f = (CONV[k] for k in "nhwcf")
    oh, ow = h - 2, w - 2
    return f"""
func.func @main(%x: tensor<{n}x{h}x{w}x{c}xf32>, %k: tensor<3x3x{c}x{f}xf32>) -> tensor<{n}x{oh}x{ow}x{f}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{n}x{oh}x{ow}x{f}xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<{n}x{oh}x{ow}x{f}xf32>) -> tensor<{n}x{oh}x{ow}x{f}xf32>
  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}}
      ins(%x, %k : tensor<{n}x{h}x{w}x{c}xf32>, tensor<3x3x{c}x{f}xf32>)
      outs(%acc : tensor<{n}x{oh}x{ow}x{f}xf32>) -> tensor<{n}x{oh}x{ow}x{f}xf32>
  return %r : tensor<{n}x{oh}x{ow}x{f}xf32>
}}
"""


def inputs(program, n, rng):
    """Inputs whose products and sums are exact in f32."""
    if program == "matmul":
        # Multiples of 1/2 in [-2, 2]: |sum| <= 4 N, on a grid of 1/4.
        a = (rng.integers(-4, 5, (n, n)) / 2).astype(np.float16)
        b = (rng.integers(-4, 5, (n, n)) / 2).astype(np.float16)
        return [a, b], 2 * n * n * n // 2
    nn, h, w, c, f = (CONV[k] for k in "nhwcf")
    x = (rng.integers(-16, 17, (nn, h, w, c)) / 8).astype(np.float32)
    k = (rng.integers(-16, 17, (3, 3, c, f)) / 8).astype(np.float32)
    return [x, k], nn * (h - 2) * (w - 2) * f * 9 * c


def host_rates(work):
    """The host's f32 multiply-add rates: (native, baseline target)."""
    rates = []
    for name, flags in (("native", ["-C", "target-cpu=native"]), ("baseline", [])):
        binary = os.path.join(work, f"host-fma-{name}")
        subprocess.run(["rustc", "-O", *flags, os.path.join(ROOT, "scripts/host-fma.rs"),
                        "-o", binary], check=True)
        rates.append(float(subprocess.run([binary], check=True, capture_output=True,
                                          text=True).stdout))
    return rates


def compile_module(source, out, target_args):
    cmd = ["iree-compile", source, *target_args, "-o", out]
    subprocess.run(cmd, check=True)


def timed(cmd, env):
    """Runs cmd; returns (child CPU seconds, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"bench-matmul.py: {' '.join(cmd)} failed:\n{result.stderr[-4000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=int(os.environ.get("RUNS", "3")))
    parser.add_argument("--only", choices=["matmul", "conv"])
    parser.add_argument("--chips", default="gfx942,gfx1100")
    parser.add_argument("--lib")
    args = parser.parse_args()

    lib = args.lib or subprocess.run(
        [os.path.join(ROOT, "scripts/sim-libs.sh"), "--release", "--no-build"],
        check=True, capture_output=True, text=True).stdout.strip()
    hip = os.path.join(lib, "libamdhip64.so")
    run_module = run_module_binary()
    chips = args.chips.split(",")
    programs = [args.only] if args.only else ["matmul", "conv"]
    rng = np.random.default_rng(52)
    work = tempfile.mkdtemp(prefix="bench-matmul-")

    native, baseline = host_rates(work)
    print(f"# bench-matmul.py ({time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}, "
          f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs, "
          f"median of {args.runs})")
    print()
    print(f"Host f32 multiply-adds/s on one core: {native / 1e9:.1f} G (native, fused), "
          f"{baseline / 1e9:.1f} G (baseline x86-64 target)")
    print()
    print("| program | device | CPU s | kernels' CPU s | multiply-adds/s (kernels) "
          "| of host's native rate | result |")
    print("|---|---|---:|---:|---:|---:|---|")
    for program in programs:
        source = os.path.join(work, f"{program}.mlir")
        with open(source, "w") as f:
            f.write(matmul_source(args.n) if program == "matmul" else conv_source())
        values, macs = inputs(program, args.n, rng)
        input_args = []
        for i, v in enumerate(values):
            path = os.path.join(work, f"{program}.in{i}.npy")
            np.save(path, v)
            input_args.append(f"--input=@{path}")
        cpu_vmfb = os.path.join(work, f"{program}.cpu.vmfb")
        compile_module(source, cpu_vmfb, [
            "--iree-hal-target-device=local",
            "--iree-hal-local-target-device-backends=llvm-cpu",
            "--iree-llvmcpu-target-cpu=host"])
        expected_path = os.path.join(work, f"{program}.cpu.npy")
        timed([run_module, "--device=local-task", f"--module={cpu_vmfb}",
               "--function=main", *input_args, f"--output=@{expected_path}"], dict(os.environ))
        expected = np.load(expected_path)
        for chip in chips:
            vmfb = os.path.join(work, f"{program}.{chip}.vmfb")
            compile_module(source, vmfb, ["--iree-hal-target-device=hip",
                                          f"--iree-rocm-target={chip}"])
            out = os.path.join(work, f"{program}.{chip}.npy")
            env = dict(os.environ, AMDGPU_SIM_MACHINE=MACHINES[chip])
            cmd = [run_module, "--device=hip", f"--hip_dylib_path=file:{hip}",
                   f"--module={vmfb}", "--function=main", *input_args, f"--output=@{out}"]
            cpus, skipped = [], []
            for _ in range(args.runs):
                cpu, _ = timed(cmd, env)
                cpus.append(cpu)
                got = np.load(out)
                if got.shape != expected.shape or got.tobytes() != expected.tobytes():
                    bad = np.argwhere(got != expected)
                    sys.exit(f"bench-matmul.py: {program} on {chip} differs from local-task "
                             f"at {len(bad)} elements, first {bad[:1].tolist()}")
                # The same run without its kernels: what the process costs besides.
                skip = [a if not a.startswith("--output=") else f"--output=@{out}.skip.npy"
                        for a in cmd]
                skipped.append(timed(skip, dict(env, AMDGPU_SIM_KERNELS="skip"))[0])
            cpu = statistics.median(cpus)
            kernels = max(cpu - statistics.median(skipped), 1e-3)
            rate = macs / kernels
            print(f"| {program} {args.n if program == 'matmul' else 'conv3x3'} | {chip} "
                  f"({MACHINES[chip]}) | {cpu:.3f} | {kernels:.3f} | {rate / 1e6:.0f} M "
                  f"| {100 * rate / native:.1f}% | identical |", flush=True)


if __name__ == "__main__":
    main()
