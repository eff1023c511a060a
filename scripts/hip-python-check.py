#!/usr/bin/env python3
"""Runs a small HIP program written with AMD's hip-python (pip
`hip-python`, ROCm 6.3's bindings) on the simulated node and checks what it
computes.

usage: hip-python-check.py HSACO KERNEL

hip-python dlopens `libamdhip64.so` by that name: the caller puts the
simulator's library under it first on LD_LIBRARY_PATH (scripts/sim-libs.sh)
and names the machine in AMDGPU_SIM_MACHINE. The program reads the device
count, ROCm 6's properties (hip-python binds `hipGetDeviceProperties` to
`hipGetDevicePropertiesR0600`) and the runtime version, then copies 1000
floats in and out, loads HSACO with hipModuleLoadData, takes KERNEL
(`vector_add(out, lhs, rhs, n)` over 64-wide work-groups, as
fixtures/hsaco/src/vector_add.cl writes it) and launches it through
hipModuleLaunchKernel with its arguments in `extra` (hip-python packs them),
and compares the sums with the host's. Prints one `key value` line per
property and `PASS`; exits 1 on a failed call or a wrong value.
"""
import ctypes
import sys

from hip import hip


def ok(result):
    """The values of a hip-python call's result; exits naming a failure."""
    error = result[0] if isinstance(result, tuple) else result
    if error != hip.hipError_t.hipSuccess:
        sys.exit(f"FAIL: {error}")
    if not isinstance(result, tuple) or len(result) == 1:
        return None
    return result[1] if len(result) == 2 else result[1:]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    path, kernel = sys.argv[1], sys.argv[2]
    print(f"devices {ok(hip.hipGetDeviceCount())}")
    props = hip.hipDeviceProp_t()
    ok(hip.hipGetDeviceProperties(props, 0))
    print(f"name {props.name.decode()}")
    print(f"gcnArchName {props.gcnArchName.decode()}")
    print(f"warpSize {props.warpSize}")
    print(f"multiProcessorCount {props.multiProcessorCount}")
    print(f"totalGlobalMem {props.totalGlobalMem}")
    print(f"runtime {ok(hip.hipRuntimeGetVersion())}")

    n = 1000
    lhs = (ctypes.c_float * n)(*[i * 0.5 for i in range(n)])
    rhs = (ctypes.c_float * n)(*[3.0 - i for i in range(n)])
    out = (ctypes.c_float * n)()
    size = n * ctypes.sizeof(ctypes.c_float)
    d_lhs, d_rhs, d_out = (ok(hip.hipMalloc(size)) for _ in range(3))
    ok(hip.hipMemcpy(d_lhs, lhs, size, hip.hipMemcpyKind.hipMemcpyHostToDevice))
    ok(hip.hipMemcpy(d_rhs, rhs, size, hip.hipMemcpyKind.hipMemcpyHostToDevice))
    with open(path, "rb") as f:
        image = f.read()
    module = ok(hip.hipModuleLoadData(image))
    function = ok(hip.hipModuleGetFunction(module, kernel.encode()))
    groups = (n + 63) // 64
    ok(hip.hipModuleLaunchKernel(function, groups, 1, 1, 64, 1, 1, 0, None, None,
                                 (d_out, d_lhs, d_rhs, ctypes.c_uint(n))))
    ok(hip.hipDeviceSynchronize())
    ok(hip.hipMemcpy(out, d_out, size, hip.hipMemcpyKind.hipMemcpyDeviceToHost))
    for i in range(n):
        want = ctypes.c_float(lhs[i] + rhs[i]).value
        if out[i] != want:
            sys.exit(f"FAIL: {kernel}[{i}] = {out[i]}, the host says {want}")
    print(f"ok: {kernel} of {n} floats equals the host's sums")
    ok(hip.hipModuleUnload(module))
    for pointer in (d_lhs, d_rhs, d_out):
        ok(hip.hipFree(pointer))
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
