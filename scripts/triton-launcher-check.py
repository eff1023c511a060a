#!/usr/bin/env python3
"""Runs Triton's own HIP launcher (the pip `triton` wheel's
triton/backends/amd/driver.py and the C helper it compiles, driver.c) on the
simulated node, and checks a kernel it launches against numpy.

usage: triton-launcher-check.py LIB CHIP WAVE

LIB is the simulator's libamdgpu_sim_ffi.so; the node is the machine
AMDGPU_SIM_MACHINE names, whose GPU 0 is CHIP with waves of WAVE. The
script links LIB as `libamdhip64.so` in a temporary directory and points
TRITON_LIBHIP_PATH at it, as a user points Triton at a HIP runtime. Then,
with nothing of Triton's imitated:

- HIPUtils() compiles driver.c against the library: dlopen, the version
  check (hipDriverGetVersion, major >= 6), hipGetProcAddress of every
  function it calls;
- get_device_properties(0) reads ROCm 6's hipDeviceProp_t through
  hipGetProcAddress("hipGetDeviceProperties") (hipGetDevicePropertiesR0600);
- triton.compile compiles fixtures/triton/kernels.py's vector_add for CHIP
  (GPUTarget("hip", CHIP, WAVE)), once plainly and once with
  launch_cooperative_grid;
- the CompiledKernel loads through load_binary (hipModuleLoadDataEx,
  hipModuleGetFunction, hipFuncGetAttribute: NUM_REGS is checked against
  the code object's `.vgpr_count` as llvm-readelf-19 prints it, when it is
  installed) and launches through HIPLauncher: pointer arguments are objects
  with data_ptr(), which the launcher checks with hipPointerGetAttribute;
  the plain kernel goes through hipModuleLaunchKernel, the cooperative one
  through hipModuleLaunchCooperativeKernel;
- a host buffer passed as a pointer is refused as Triton refuses a CPU
  tensor (hipPointerGetAttribute answering hipErrorInvalidValue).

Triton's HIPDriver needs PyTorch only for the current device and stream;
the active driver here is HIPDriver with those answered (device 0, the null
stream) instead. Prints one `ok: ...` line per check and `PASS`; exits 1 on
a mismatch. Needs triton and numpy.
"""
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "fixtures", "triton"))

H2D, D2H = 1, 2


def hip(lib, name, *args):
    """Calls HIP function `name` of `lib`; raises on a failure, naming it."""
    code = getattr(lib, name)(*args)
    if code != 0:
        raise RuntimeError(f"{name} failed with hipError_t {code}")


class DeviceBuffer:
    """Device memory as Triton sees a tensor: an object with data_ptr()."""

    def __init__(self, lib, array):
        self.lib, self.array = lib, np.ascontiguousarray(array)
        self.pointer = ctypes.c_void_p()
        hip(lib, "hipMalloc", ctypes.byref(self.pointer), ctypes.c_size_t(self.array.nbytes))
        hip(lib, "hipMemcpy", self.pointer, self.array.ctypes.data_as(ctypes.c_void_p),
            ctypes.c_size_t(self.array.nbytes), H2D)

    def data_ptr(self):
        return self.pointer.value

    def read(self):
        out = np.empty_like(self.array)
        hip(self.lib, "hipMemcpy", out.ctypes.data_as(ctypes.c_void_p), self.pointer,
            ctypes.c_size_t(out.nbytes), D2H)
        return out

    def free(self):
        hip(self.lib, "hipFree", self.pointer)


class HostBuffer:
    """Host memory HIP never saw, passed where a device pointer belongs."""

    def __init__(self, array):
        self.array = array

    def data_ptr(self):
        return self.array.ctypes.data


def vgpr_count(hsaco):
    """`.vgpr_count` of the code object's one kernel, from llvm-readelf-19;
    None without it."""
    with tempfile.NamedTemporaryFile(suffix=".hsaco") as f:
        f.write(hsaco)
        f.flush()
        try:
            notes = subprocess.run(["llvm-readelf-19", "--notes", f.name], check=True,
                                   capture_output=True, text=True).stdout
        except (OSError, subprocess.CalledProcessError):
            return None
    counts = [int(line.split(":", 1)[1]) for line in notes.splitlines()
              if line.strip().startswith(".vgpr_count:")]
    return counts[0] if len(counts) == 1 else None


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    lib_path, chip, wave = os.path.abspath(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    links = tempfile.mkdtemp(prefix="triton-libhip-")
    libhip = os.path.join(links, "libamdhip64.so")
    os.symlink(lib_path, libhip)
    os.environ["TRITON_LIBHIP_PATH"] = libhip

    import triton
    from triton.backends.amd.driver import HIPDriver, HIPLauncher, HIPUtils
    from triton.backends.compiler import GPUTarget

    import kernels

    class NodeDriver(HIPDriver):
        """HIPDriver without PyTorch: device 0 and the null stream."""

        def __init__(self):
            self.utils = HIPUtils()
            self.launcher_cls = HIPLauncher
            self.get_current_device = lambda: 0
            self.set_current_device = lambda device: None
            self.get_current_stream = lambda device=None: 0

    driver = NodeDriver()
    triton.runtime.driver.set_active(driver)
    props = driver.utils.get_device_properties(0)
    lib = ctypes.CDLL(libhip)
    want_props = {"arch": chip, "warpSize": wave, "cooperativeLaunch": 1}
    got_props = {key: props[key] for key in want_props}
    got_props["arch"] = got_props["arch"].split(":")[0]
    if got_props != want_props or props["multiprocessor_count"] <= 0:
        sys.exit(f"FAIL: device properties {props}")
    print(f"ok: get_device_properties(0) {props}")
    target = GPUTarget("hip", chip, wave)
    if driver.get_current_target() != target:
        sys.exit(f"FAIL: current target {driver.get_current_target()} != {target}")
    print(f"ok: get_current_target() {target}")

    n, block = 3000, 1024
    rng = np.random.default_rng(53)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    grid = ((n + block - 1) // block, 1, 1)
    signature = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                 "BLOCK": "constexpr"}
    for cooperative in (False, True):
        source = triton.compiler.ASTSource(fn=kernels.vector_add, signature=signature,
                                           constexprs={"BLOCK": block})
        compiled = triton.compile(source, target=target,
                                  options={"num_warps": 4, "launch_cooperative_grid": cooperative})
        bx, by = DeviceBuffer(lib, x), DeviceBuffer(lib, y)
        out = DeviceBuffer(lib, np.zeros(n, np.float32))
        compiled[grid](bx, by, out, n, block)
        hip(lib, "hipDeviceSynchronize")
        got = out.read()
        how = "cooperative " if cooperative else ""
        if not np.array_equal(got, x + y):
            bad = int(np.flatnonzero(got != x + y)[0])
            sys.exit(f"FAIL: {how}vector_add[{bad}] = {got[bad]}, numpy says {(x + y)[bad]}")
        print(f"ok: {how}vector_add of {n} floats equals numpy's x + y")
        regs = vgpr_count(compiled.asm["hsaco"])
        if regs is not None and compiled.n_regs != regs:
            sys.exit(f"FAIL: n_regs {compiled.n_regs}, the code object's .vgpr_count {regs}")
        if regs is not None:
            print(f"ok: n_regs {compiled.n_regs} is the code object's .vgpr_count")
        if not cooperative:
            host = HostBuffer(np.zeros(n, np.float32))
            try:
                compiled[grid](bx, by, host, n, block)
                sys.exit("FAIL: a host buffer was launched as a device pointer")
            except ValueError as error:
                print(f"ok: a host buffer is refused: {error}")
        for buffer in (bx, by, out):
            buffer.free()
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
