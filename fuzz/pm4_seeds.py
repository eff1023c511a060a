#!/usr/bin/env python3
"""Writes fuzz/corpus/pm4/: the indirect buffers IREE's own AMDGPU driver
code emits, as the `pm4` fuzz target reads them (byte 0 the generation,
0 gfx9 and 1 gfx10+, then the buffer's dwords, little-endian).

The emitter is sim/ffi/tests/it/iree_packets.c, compiled against IREE's
source (IREE_SOURCE_DIR, or ../shared/iree/iree-b48a5955-src.tar.gz) as the
C library's tests compile it, run for each simulated target (gfx90a, gfx942,
gfx1100) and each buffer it writes there: the epoch wait, the profiling
timestamps, the PM4 fill and copy, the command-buffer barrier, a counter
readback, and PM4 command-buffer dispatches of the kernels of
fixtures/iree/elementwise.CHIP.hsaco and fixtures/isa/lds_reverse.CHIP.hsaco
(their descriptors read from the code objects' `.kd` symbols). A buffer IREE
does not emit on a target is not written. Addresses are fixed and
arbitrary: the emitters only encode them.

  fuzz/pm4_seeds.py        (needs cc and tar)
"""

import os
import struct
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "corpus", "pm4")
TARGETS = [("9.0.10", "gfx90a", 0), ("9.4.2", "gfx942", 0), ("11.0.0", "gfx1100", 1)]
IB, DATA, SIGNAL, DONE = 0x7F20_0000_0000, 0x7F30_0000_0000, 0x7F40_0000_0040, 0x7F40_0000_0080
KERNARGS, OBJECT = 0x7F10_0000_0000, 0x7F00_0000_1000


def iree_source(work):
    if os.environ.get("IREE_SOURCE_DIR"):
        return os.environ["IREE_SOURCE_DIR"]
    archive = os.path.join(ROOT, "..", "shared", "iree", "iree-b48a5955-src.tar.gz")
    if not os.path.isfile(archive):
        sys.exit("pm4_seeds.py: needs IREE's source: IREE_SOURCE_DIR, or " + archive)
    wanted = ["/runtime/src/iree/" + d + "/" for d in ("base", "async", "hal", "io")]
    wanted.append("/third_party/hsa-runtime-headers/include/")
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if any(w in m.name for w in wanted)]
        tar.extractall(work, members=members, filter="data")
    top = [d for d in os.listdir(work) if os.path.isdir(os.path.join(work, d))]
    return os.path.join(work, top[0])


def build(work):
    source = iree_source(work)
    program = os.path.join(work, "iree_packets")
    amdgpu = os.path.join(source, "runtime/src/iree/hal/drivers/amdgpu")
    subprocess.run(
        [os.environ.get("CC", "cc"), "-std=gnu11", "-D_GNU_SOURCE", "-w",
         "-I", os.path.join(source, "runtime/src"), "-I", source,
         os.path.join(ROOT, "sim/ffi/tests/it/iree_packets.c"),
         os.path.join(amdgpu, "physical_device_capabilities.c"),
         os.path.join(amdgpu, "util/pm4_dispatch.c"), "-o", program],
        check=True)
    return program


def descriptor(path, name):
    """The 64 bytes at the ELF64 symbol `name` of the code object at path."""
    data = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for at in range(sh[4], sh[4] + sh[5], 24):
            st_name, _, _, st_shndx, st_value, _ = struct.unpack_from("<IBBHQQ", data, at)
            end = data.index(b"\0", strtab[4] + st_name)
            if data[strtab[4] + st_name:end].decode() == name:
                home = sections[st_shndx]
                offset = home[4] + st_value - home[3]
                return data[offset:offset + 64]
    sys.exit(f"pm4_seeds.py: no symbol {name} in {path}")


def ib(program, gfx, args):
    """The indirect buffer the emitter writes, or None where IREE writes none."""
    out = subprocess.run([program, gfx, *args], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("ib "):
            return [int(word, 16) for word in line.split()[1:]]
    return None


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        program = build(work)
        written = 0
        for gfx, chip, generation in TARGETS:
            h = hex
            buffers = {
                "wait": ["wait", h(SIGNAL), "2", h(IB), h(DONE)],
                "timestamps": ["timestamps", h(DATA), h(DATA + 8), h(IB), h(DONE)],
                "fill4": ["fill", h(DATA), "0x11223344", "4", h(IB), h(DONE)],
                "fill8": ["fill", h(DATA), "0x5566778899aabbcc", "8", h(IB), h(DONE)],
                "copy4": ["copy", h(DATA), h(DATA + 8), "4", h(IB), h(DONE)],
                "copy8": ["copy", h(DATA), h(DATA + 8), "8", h(IB), h(DONE)],
                "barrier": ["barrier", h(IB), h(DONE)],
                "perfcounter": ["perfcounter", "0x3400", h(DATA), h(IB), h(DONE)],
            }
            kernels = [
                ("elementwise", f"fixtures/iree/elementwise.{chip}.hsaco",
                 "elementwise_dispatch_0_elementwise_4096_f32.kd", 32 if generation else 64, 32, 24),
                ("lds_reverse", f"fixtures/isa/lds_reverse.{chip}.hsaco", "lds_reverse.kd", 64, 4, 16),
            ]
            for name, path, symbol, block, groups, kernarg_bytes in kernels:
                kd = descriptor(os.path.join(ROOT, path), symbol).hex()
                args = ("00" * kernarg_bytes, h(OBJECT), str(block), "1", "1", str(groups), "1", "1",
                        h(KERNARGS), h(IB), h(DONE))
                buffers[f"dispatch.{name}"] = ["dispatch", kd, *args]
                buffers[f"dispatch_alone.{name}"] = ["dispatch_alone", kd, *args]
            for name, args in buffers.items():
                dwords = ib(program, gfx, args)
                if dwords is None:
                    continue
                with open(os.path.join(OUT, f"{chip}.{name}"), "wb") as f:
                    f.write(bytes([generation]) + struct.pack(f"<{len(dwords)}I", *dwords))
                written += 1
        print(f"pm4_seeds.py: {written} indirect buffers in {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
