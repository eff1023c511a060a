#!/usr/bin/env python3
"""Prints the expected results of `isa/tests/ocp8_convert.rs` (gfx950's and
gfx1201's 8-bit float conversions, OCP's formats) from `ml_dtypes` 0.7:
bytes to f32 (`float8 -> float32`), f32 to bytes to nearest even
(`float32 -> float8`), and stochastic rounding by `generate.py`'s
exact-fraction rule. Run: python3 isa/tests/ocp8/expected.py
"""

import os
import sys

import ml_dtypes
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import stochastic  # noqa: E402

T = {"fp8": ml_dtypes.float8_e4m3fn, "bf8": ml_dtypes.float8_e5m2}
NAME = {"fp8": "e4m3fn", "bf8": "e5m2"}

# The test's inputs (keep in step with ocp8_convert.rs).
WORDS = [0x017F3840, 0x7C7EC480, 0x087DFBFF, 0x83FC0400]
PK_A = [0x3F800000, 0x3F880000, 0x80000000, 0x43E00000, 0x43E84000,
        0x7FC00000, 0x7F800000, 0x47600000, 0x3B000000, 0xC0400000]
PK_B = [0x3F000000, 0x3F980000, 0xB0897E3A, 0x43E80000, 0x43F00000,
        0xFFC00000, 0xFF800000, 0x47700000, 0x37C00000, 0x49742400]
SR_X = [0x3F840000, 0x3F840000, 0x3F840000, 0x3F840000, 0x3B200000,
        0x43E08000, 0x80000000, 0x7FC00000, 0x3F880000, 0xBF880000]
SR_R = [0x00000000, 0xC0000000, 0xBFFFFFFF, 0x00000FFF, 0xC0000000,
        0xFFFFFFFF, 0xFFFFFFFF, 0x00000000, 0xC0000000, 0xBFFFFFFF]
INIT = 0xA5A5A5A5


def f32(bits):
    return np.array([bits], np.uint32).view(np.float32)[0]


def bits(x):
    return int(np.array([x], np.float32).view(np.uint32)[0])


def to_f32(byte, t):
    return bits(np.array([byte], np.uint8).view(T[t])[0].astype(np.float32))


def rne(x, t):
    return int(np.array([x], np.float32).astype(T[t]).view(np.uint8)[0])


def sr(x, r, t):
    if np.isnan(x):
        return rne(x, t)
    b = stochastic(x, r, NAME[t])
    if b is None:  # overflow: the NaN (E4M3FN) or infinity (E5M2), signed
        b = (0x80 if np.signbit(x) else 0) | (0x7F if t == "fp8" else 0x7C)
    return b


def show(name, values):
    print(f"{name}: [" + ", ".join(f"{v:#010x}" for v in values) + "]")


def from_bytes():
    for t in T:
        for byte in range(4):
            show(f"{t} byte {byte}", [to_f32(w >> 8 * byte & 0xFF, t) for w in WORDS])


def to_bytes():
    for t in T:
        for neg_a, abs_b in [(False, False), (True, True)]:
            for hi in [False, True]:
                out = []
                for a, b in zip(PK_A, PK_B):
                    x, y = f32(a), f32(b)
                    if neg_a:
                        x = -x
                    if abs_b:
                        y = abs(y)
                    word = rne(x, t) | rne(y, t) << 8
                    out.append((INIT & 0xFFFF) | word << 16 if hi else (INIT & 0xFFFF0000) | word)
                show(f"pk {t} neg_a={neg_a} abs_b={abs_b} hi={hi}", out)
        for neg in [False, True]:
            for byte in range(4):
                out = []
                for x, r in zip(SR_X, SR_R):
                    x = f32(x)
                    if neg:
                        x = -x
                    b = sr(x, r, t)
                    out.append((INIT & ~(0xFF << 8 * byte) & 0xFFFFFFFF) | b << 8 * byte)
                show(f"sr {t} neg={neg} byte {byte}", out)


from_bytes()
to_bytes()
