#!/usr/bin/env python3
"""Writes the committed `codeobj_elf` and `wrapped` corpora: real fixtures,
each broken in one named way, so a replay reaches the checks past the magic
numbers that random bytes never pass. Deterministic: re-running it rewrites
the same files. Run from the repository root: python3 fuzz/seed_mutations.py
"""
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "corpus"


def put(data, offset, fmt, value):
    data = bytearray(data)
    struct.pack_into(fmt, data, offset, value)
    return bytes(data)


def after(data, marker, value):
    """`data` with the byte right after the first `marker` replaced."""
    at = data.index(marker) + len(marker)
    return data[:at] + bytes([value]) + data[at + 1:]


# ELF64 header offsets (System V gABI): e_ident[EI_CLASS] 4, [EI_DATA] 5,
# e_machine 18, e_phoff 32, e_shoff 40, e_flags 48, e_phnum 56,
# e_shnum 60, e_shstrndx 62.
ELF = {
    "truncated-64": lambda d: d[:64],
    "truncated-half": lambda d: d[: len(d) // 2],
    "elfclass32": lambda d: put(d, 4, "<B", 1),
    "big-endian": lambda d: put(d, 5, "<B", 2),
    "machine-x86-64": lambda d: put(d, 18, "<H", 62),
    "phoff-past-end": lambda d: put(d, 32, "<Q", 0xFFFF_FFFF_FFFF_FF00),
    "shoff-past-end": lambda d: put(d, 40, "<Q", 0xFFFF_FFFF_FFFF_FF00),
    "mach-zero": lambda d: put(d, 48, "<I", struct.unpack_from("<I", d, 48)[0] & ~0xFF),
    "phnum-max": lambda d: put(d, 56, "<H", 0xFFFF),
    "shnum-max": lambda d: put(d, 60, "<H", 0xFFFF),
    "shstrndx-out-of-range": lambda d: put(d, 62, "<H", 0xFFFE),
    # 0xC1 is the one byte MessagePack never uses.
    "metadata-byte-c1": lambda d: after(d, b"AMDGPU\0\0", 0xC1),
}

# IREE's 64-byte header: magic 0, version 4, content size 8.
WRAPPED = {
    "truncated-64": lambda d: d[:64],
    "truncated-half": lambda d: d[: len(d) // 2],
    "version-1": lambda d: put(d, 4, "<I", 1),
    "size-past-end": lambda d: put(d, 8, "<Q", len(d)),
    "size-max": lambda d: put(d, 8, "<Q", 0xFFFF_FFFF_FFFF_FFFF),
    "root-offset-past-end": lambda d: put(d, 64, "<I", 0xFFFF_FF00),
    "embedded-elf-truncated": lambda d: d[: d.index(b"\x7fELF") + 64],
}

# IREE's bytecode module as iree-compile writes it: a ZIP local file header
# (name length at 26, extra length at 28), then the size-prefixed FlatBuffer.
def module_start(d):
    return 30 + struct.unpack_from("<H", d, 26)[0] + struct.unpack_from("<H", d, 28)[0]

VMFB = {
    "as-is": lambda d: d,
    "truncated-half": lambda d: d[: len(d) // 2],
    "zip-name-length-max": lambda d: put(d, 26, "<H", 0xFFFF),
    "size-prefix-past-end": lambda d: put(d, module_start(d), "<I", len(d)),
    "executable-truncated": lambda d: d[: d.index(b"HIP1") + 64],
}

# A compressed offload bundle (`CCOB` version 2): magic 0, version 4,
# method 6, total size 8, uncompressed size 12, hash 16, zstd data from 24.
CCOB = {
    "as-is": lambda d: d,
    "truncated-half": lambda d: d[: len(d) // 2],
    "version-3": lambda d: put(d, 4, "<H", 3),
    "method-zlib": lambda d: put(d, 6, "<H", 0),
    "total-past-end": lambda d: put(d, 8, "<I", len(d) + 1),
    "uncompressed-max": lambda d: put(d, 12, "<I", 0xFFFF_FFFF),
    "data-flipped": lambda d: d[:40] + bytes(b ^ 0xFF for b in d[40:48]) + d[48:],
}

SOURCES = {
    "codeobj_elf": [(ELF, ["fixtures/hsaco/vector_add.gfx942.cov5.hsaco"])],
    "wrapped": [(WRAPPED, ["fixtures/iree/elementwise.gfx1100.amd1",
                           "fixtures/iree/elementwise.gfx942.hip1"]),
                (VMFB, ["fixtures/iree/vmfb/dynamic.gfx942.vmfb"]),
                (CCOB, ["fixtures/hip/compressed.hip_fatbin"])],
}

for target, sources in SOURCES.items():
    (OUT / target).mkdir(parents=True, exist_ok=True)
    for mutations, fixtures in sources:
        for fixture in fixtures:
            data = (ROOT / fixture).read_bytes()
            stem = pathlib.Path(fixture).name
            for name, mutate in mutations.items():
                (OUT / target / f"{stem}.{name}").write_bytes(mutate(data))
