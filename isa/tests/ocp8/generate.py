#!/usr/bin/env python3
"""Writes `table.txt`, the oracle of `isa/src/exec/ocp8.rs`'s unit tests:
OCP's 8-bit floats E4M3FN and E5M2 as `ml_dtypes` (0.7) computes them.

Lines (hex, no prefix):
  decode FORMAT BYTE F32            every byte as f32 (`float8 -> float32`)
  rne FORMAT F32 BYTE               f32 -> byte to nearest even (`float32 ->
                                    float8`: NaN keeps its sign, overflow is
                                    NaN (E4M3FN) or infinity (E5M2))
  sat FORMAT F32 BYTE               the same after `np.clip` to +-max (OCP's
                                    saturating mode: overflow and infinity
                                    to +-max, NaN stays NaN)
  sr FORMAT F32 RANDOM BYTE         stochastic rounding, computed here with
                                    exact fractions: the random word's high
                                    23 - m bits (m: mantissa bits) as a
                                    fraction of the quantum at x, added to
                                    x's distance above the magnitude below
                                    it, a whole quantum rounding up

FORMAT is e4m3fn or e5m2. Inputs: every byte's value, the midpoints of
neighbours and one f32 ulp either side, values past the largest, f32
denormals, and seeded random f32s over the formats' ranges.

Run: python3 isa/tests/ocp8/generate.py > isa/tests/ocp8/table.txt
(`--check` compares with the committed table).
"""

import sys
from fractions import Fraction

import ml_dtypes
import numpy as np

FORMATS = {"e4m3fn": ml_dtypes.float8_e4m3fn, "e5m2": ml_dtypes.float8_e5m2}
MANTISSA = {"e4m3fn": 3, "e5m2": 2}


def f32_bits(x):
    return int(np.array([x], np.float32).view(np.uint32)[0])


def from_bits(b):
    return np.array([b], np.uint32).view(np.float32)[0]


def to_byte(x, t):
    return int(np.array([x], np.float32).astype(t).view(np.uint8)[0])


def value(byte, t):
    return np.array([byte], np.uint8).view(t)[0].astype(np.float32)


def stochastic(x, random, name):
    """The byte x rounds to with these random bits (finite, non-NaN x)."""
    t = FORMATS[name]
    m = MANTISSA[name]
    mags = [(Fraction(float(value(b, t))), b) for b in range(0x80) if np.isfinite(value(b, t))]
    a = Fraction(float(x))
    sign = 0x80 if np.signbit(x) else 0
    a = abs(a)
    top = mags[-1]
    if a > top[0] * 2:  # far past the largest: overflow whatever the bits
        return None
    below = max((v, b) for v, b in mags if v <= a)
    # The quantum at x: the step above `below` (above the largest, the step
    # below it, which continues the binade).
    if below[1] < top[1]:
        quantum = mags[below[1] + 1][0] - below[0]
    else:
        quantum = top[0] - mags[top[1] - 1][0]
    d = 23 - m
    bits = random >> (32 - d)
    steps = (a - below[0]) / quantum  # in [0, 1)
    up = int(steps * 2**d) + bits >= 2**d
    b = below[1] + up
    if b > top[1]:
        return None
    return sign | b


def lines():
    rng = np.random.default_rng(49)
    for name, t in FORMATS.items():
        for byte in range(256):
            yield f"decode {name} {byte:02x} {f32_bits(value(byte, t)):08x}"
        finite = sorted(
            {float(value(b, t)) for b in range(256) if np.isfinite(value(b, t))}
        )
        xs = set()
        for v in finite:
            xs.add(np.float32(v))
        for lo, hi in zip(finite, finite[1:]):
            mid = np.float32((lo + hi) / 2)
            xs.update([mid, np.nextafter(mid, np.float32(-np.inf)), np.nextafter(mid, np.float32(np.inf))])
        top = finite[-1]
        for k in [1.0001, 1.03125, 1.0625, 1.0626, 1.2, 2, 1e3]:
            xs.update([np.float32(top * k), np.float32(-top * k)])
        xs.update([np.float32(np.inf), np.float32(-np.inf), np.float32(0), np.float32(-0.0)])
        xs.update([from_bits(1), from_bits(0x80000001), from_bits(0x007fffff)])
        for e in rng.uniform(-22, 17, 600):
            s = rng.choice([-1.0, 1.0])
            xs.add(np.float32(s * 2.0**e))
        xs = sorted(xs, key=f32_bits)
        for x in xs:
            yield f"rne {name} {f32_bits(x):08x} {to_byte(x, t):02x}"
        for x in list(xs) + [np.float32(np.nan), -np.float32(np.nan)]:
            clipped = np.clip(x, -top, top) if not np.isnan(x) else x
            yield f"sat {name} {f32_bits(x):08x} {to_byte(clipped, t):02x}"
        yield f"rne {name} {f32_bits(np.float32(np.nan)):08x} {to_byte(np.float32(np.nan), t):02x}"
        yield f"rne {name} {f32_bits(-np.float32(np.nan)):08x} {to_byte(-np.float32(np.nan), t):02x}"
        m = MANTISSA[name]
        for x in xs[::3]:
            if not np.isfinite(x):
                continue
            for random in [0, 0xFFFFFFFF, int(rng.integers(0, 2**32)), int(rng.integers(0, 2**32))]:
                b = stochastic(x, random, name)
                if b is not None:
                    yield f"sr {name} {f32_bits(x):08x} {random:08x} {b:02x}"


def main():
    text = "\n".join(lines()) + "\n"
    if "--check" in sys.argv:
        path = __file__.rsplit("/", 1)[0] + "/table.txt"
        with open(path) as f:
            if f.read() != text:
                sys.exit("isa/tests/ocp8/table.txt is not what generate.py writes")
        return
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
