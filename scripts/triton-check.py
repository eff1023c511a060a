#!/usr/bin/env python3
"""Runs the Triton corpus (fixtures/triton) on the simulated GPUs and checks
every output against numpy (fixtures/triton/cases.py).

usage: triton-check.py LIB --preset MACHINE=CHIP [--preset ...]
                       [--case NAME ...] [--json OUT] [--timeout S]
                       [--outputs DIR]

LIB is the libamdhip64 to test (the simulator's libamdgpu_sim_ffi.so). Each
case runs in a process of its own with AMDGPU_SIM_MACHINE=MACHINE: this
script, with --run-one, loads LIB with ctypes and does what Triton's HIP
launcher does — hipModuleLoadData of the case's hsaco for CHIP,
hipModuleGetFunction, the inputs copied to hipMalloc'd buffers,
hipModuleLaunchKernel over the case's grid with num_warps x wave work-items
per work-group, the dynamic LDS Triton asks for and a NULL pointer for each
argument Triton adds (its scratch pointers), hipDeviceSynchronize — and
prints the outputs' comparison as one JSON line.

With --outputs DIR, each run also writes every output's bytes as the
kernel left them to DIR/CASE.MACHINE.ARG.bin, for the caller to compare
runs bit for bit (as tests/it/sim/thread_counts.rs does across
AMDGPU_SIM_THREADS).

Tolerances: `exact` (equal values, NaN equal to NaN) or `rel=R abs=A`
(|got - want| <= A + R*|want|, the reference computed in float64).

Statuses: pass; mismatch (the output, the first differing index, both
values, how many differ); unsupported (the library refused an instruction
the interpreter lacks); fault (a kernel's memory fault: the library aborts
the process); error (a HIP call failed, or the process ended otherwise);
timeout; refused (Triton's backend refused the case for the chip when the
corpus was built: not run, not a failure).

Exit status: 0 when every run passed or was refused, 1 otherwise, 2 on a
usage error. Needs numpy.
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fixtures", "triton")
sys.path.insert(0, CORPUS)
import cases  # noqa: E402  (the corpus's own module, found through CORPUS)

H2D, D2H = 1, 2


def hip(lib, name, *args):
    """Calls HIP function `name`; raises on a failure, naming it."""
    code = getattr(lib, name)(*args)
    if code != 0:
        raise RuntimeError(f"{name} failed with hipError_t {code}")


def compare(got, want, tolerance):
    """None when `got` matches `want` under `tolerance`, else the mismatch."""
    want = np.asarray(want).reshape(got.shape)
    if tolerance == "exact":
        if np.issubdtype(got.dtype, np.floating):
            bad = ~((got == want.astype(got.dtype)) | (np.isnan(got) & np.isnan(want)))
        else:
            bad = got != want.astype(got.dtype)
    else:
        fields = dict(part.split("=") for part in tolerance.split())
        g, w = got.astype(np.float64), want.astype(np.float64)
        bad = ~((np.abs(g - w) <= float(fields["abs"]) + float(fields["rel"]) * np.abs(w))
                | (np.isnan(g) & np.isnan(w)))
    if not bad.any():
        return None
    first = int(np.flatnonzero(bad)[0])
    return {"index": first, "got": got.flat[first].item(), "want": want.flat[first].item(),
            "differing": int(bad.sum()), "of": int(bad.size)}


def run_one(lib_path, name, chip, outputs=None):
    """Launches case `name`'s kernel for `chip` through LIB; its record.
    `outputs`: a path prefix the outputs' bytes are written under."""
    spec = cases.case(name)
    entry = manifest()["cases"][name][chip]
    lib = ctypes.CDLL(lib_path)
    hip(lib, "hipSetDevice", 0)
    with open(os.path.join(CORPUS, "hsaco", entry["file"]), "rb") as f:
        image = f.read()
    module, function = ctypes.c_void_p(), ctypes.c_void_p()
    hip(lib, "hipModuleLoadData", ctypes.byref(module), image)
    hip(lib, "hipModuleGetFunction", ctypes.byref(function), module, entry["symbol"].encode())
    values, buffers = [], {}
    for arg, kind, value in spec["args"]:
        if kind in ("in", "out"):
            pointer = ctypes.c_void_p()
            hip(lib, "hipMalloc", ctypes.byref(pointer), ctypes.c_size_t(max(value.nbytes, 1)))
            data = np.ascontiguousarray(value)
            hip(lib, "hipMemcpy", pointer, data.ctypes.data_as(ctypes.c_void_p),
                ctypes.c_size_t(data.nbytes), H2D)
            buffers[arg] = (pointer, value)
            values.append(pointer)
        else:
            values.append(ctypes.c_int32(value) if kind == "i32" else ctypes.c_float(value))
    values += [ctypes.c_void_p(0) for _ in range(entry["extra_args"])]
    params = (ctypes.c_void_p * len(values))(
        *[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values])
    gx, gy, gz = spec["grid"]
    block = entry["num_warps"] * entry["wave"]
    u32 = ctypes.c_uint32
    hip(lib, "hipModuleLaunchKernel", function, u32(gx), u32(gy), u32(gz), u32(block), u32(1),
        u32(1), u32(entry["shared"]), ctypes.c_void_p(0), params, ctypes.c_void_p(0))
    hip(lib, "hipDeviceSynchronize")
    expected = spec["expect"]()
    mismatches = {}
    for arg, want in expected.items():
        pointer, value = buffers[arg]
        got = np.empty_like(value)
        hip(lib, "hipMemcpy", got.ctypes.data_as(ctypes.c_void_p), pointer,
            ctypes.c_size_t(got.nbytes), D2H)
        if outputs:
            got.tofile(f"{outputs}.{arg}.bin")
        mismatch = compare(got, want, spec["tolerance"][arg])
        if mismatch:
            mismatches[arg] = mismatch
    for pointer, _ in buffers.values():
        hip(lib, "hipFree", pointer)
    hip(lib, "hipModuleUnload", module)
    return {"status": "mismatch", "mismatches": mismatches} if mismatches else {"status": "pass"}


def manifest():
    """fixtures/triton/manifest.json, parsed."""
    with open(os.path.join(CORPUS, "manifest.json")) as f:
        return json.load(f)


def classify(process):
    """The record of a --run-one child that failed: what the library said
    on stderr, and the HIP call that failed."""
    said = [line for line in process.stderr.splitlines() if line.startswith("amdgpu-sim")]
    tail = (said or process.stderr.strip().splitlines())[-2:] + [
        line for line in process.stdout.splitlines() if line.startswith("{")]
    if "cannot execute" in process.stderr:
        status = "unsupported"
    elif "faulted" in process.stderr:
        status = "fault"
    else:
        status = "error"
    return {"status": status, "returncode": process.returncode, "stderr": tail}


def run(lib, machine, chip, name, timeout, outputs=None):
    """Case `name` on `machine` in a child process; its record (`outputs`:
    the directory its outputs' bytes go to)."""
    entry = manifest()["cases"][name][chip]
    record = {"case": name, "machine": machine, "chip": chip}
    if "refused" in entry:
        return dict(record, status="refused", reason=entry["refused"])
    env = dict(os.environ, AMDGPU_SIM_MACHINE=machine)
    try:
        process = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--run-one", name, chip, lib]
            + (["--outputs", os.path.join(outputs, f"{name}.{machine}")] if outputs else []),
            env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return dict(record, status="timeout")
    lines = [line for line in process.stdout.splitlines() if line.startswith("{")]
    if process.returncode == 0 and lines:
        result = json.loads(lines[-1])
        if result["status"] != "error":
            return dict(record, **result)
    return dict(record, **classify(process))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lib", nargs="?")
    parser.add_argument("--preset", action="append", default=[])
    parser.add_argument("--case", action="append", default=[])
    parser.add_argument("--json")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--run-one", nargs=3, metavar=("CASE", "CHIP", "LIB"))
    parser.add_argument("--outputs", metavar="DIR")
    args = parser.parse_args()
    if args.run_one:
        name, chip, lib = args.run_one
        try:
            print(json.dumps(run_one(lib, name, chip, args.outputs)))
        except RuntimeError as error:
            print(json.dumps({"status": "error", "reason": str(error)}))
        return 0
    if not args.lib or not args.preset:
        parser.error("LIB and at least one --preset are needed")
    if args.outputs:
        os.makedirs(args.outputs, exist_ok=True)
    names = args.case or sorted(manifest()["cases"])
    records = []
    for preset in args.preset:
        machine, chip = preset.split("=")
        for name in names:
            record = run(os.path.abspath(args.lib), machine, chip, name, args.timeout,
                         args.outputs)
            records.append(record)
            detail = record.get("mismatches") or record.get("reason") or record.get("stderr") or ""
            print(f"{machine:10} {name:20} {record['status']:11} {detail}")
    failed = [r for r in records if r["status"] not in ("pass", "refused")]
    passed = sum(r["status"] == "pass" for r in records)
    print(f"{len(records)} runs: {passed} pass, {len(records) - passed - len(failed)} refused, "
          f"{len(failed)} fail")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"runs": records}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
