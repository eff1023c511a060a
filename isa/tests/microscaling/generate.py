#!/usr/bin/env python3
"""Writes cases.txt beside this script: the expected values of gfx950's
microscaling formats and scaled conversions, from ml_dtypes (the OCP MX
types float4_e2m1fn, float6_e2m3fn, float6_e3m2fn, float8_e8m0fnu) and
numpy, for isa/tests/scaled_convert.rs and isa/tests/mfma_f8f6f4.rs.

    python3 isa/tests/microscaling/generate.py     # needs numpy, ml_dtypes

Lines (hex unless said):
  value FMT CODE F32BITS            every code of FP4/FP6/BF6, and of OCP's
                                    fp8 (E4M3FN) and bf8 (E5M2), as f32
  scale E8M0 F32BITS                every E8M0 scale but the NaN, as f32
  encode FMT WIDE INPUT SCALE NEAREST TRUNCATE CEILING
                                    WIDE bits / 2^(SCALE-127) as a code:
                                    NEAREST rounded to nearest even
                                    (ml_dtypes' cast from the exact f64
                                    quotient; it saturates); TRUNCATE
                                    toward zero: the code of largest
                                    magnitude not above the quotient's
                                    (from the value table); CEILING
                                    stochastic rounding with every random
                                    bit set: away from zero (saturating)
                                    when the quotient's remainder below
                                    the kept bits reaches the top W of the
                                    source's dropped bits (W: the source's
                                    mantissa bits minus the format's; a
                                    remainder below 2^-W of a quantum, which
                                    only a denormal result has, truncates)
  decode FMT WIDE CODE SCALE BITS   the code times 2^(SCALE-127) in WIDE
                                    (numpy's float64 to float32/float16,
                                    ml_dtypes' to bfloat16)

FMT is fp4, fp6 or bf6; WIDE f32, f16 or bf16. NaN inputs and the NaN
scale are not here: ml_dtypes maps a NaN to zero of a flipped sign, while
AMD's model saturates (the tests write those cases out).
"""

import random
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import numpy as np

FORMATS = {
    "fp4": ml_dtypes.float4_e2m1fn,
    "fp6": ml_dtypes.float6_e2m3fn,
    "bf6": ml_dtypes.float6_e3m2fn,
}
BITS = {"fp4": 4, "fp6": 6, "bf6": 6}
WIDE = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
WIDE_UINT = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16}
# Scales for each wide format: f16's range is narrow.
SCALES = {
    "f32": [0, 120, 127, 130, 254],
    "f16": [120, 127, 130],
    "bf16": [1, 127, 200],
}


def values(fmt):
    """Every code's value (float64), code order."""
    n = 1 << BITS[fmt]
    return np.arange(n, dtype=np.uint8).view(FORMATS[fmt]).astype(np.float64)


def wide_bits(wide, x):
    return int(np.array([x], dtype=np.float64).astype(WIDE[wide]).view(WIDE_UINT[wide])[0])


def wide_value(wide, bits):
    return float(np.array([bits], dtype=WIDE_UINT[wide]).view(WIDE[wide]).astype(np.float64)[0])


def inputs(fmt, wide, scale, rng):
    """Wide values around the format's codes at this scale: each code,
    between codes, ties, and random values, and past the largest."""
    table = values(fmt)
    factor = 2.0 ** (scale - 127)
    out = []
    for v in table:
        for f in (1.0, 1.0 + 2.0**-9, 1.25, 0.75):
            out.append(v * f * factor)
    for a, b in zip(table[:-1], table[1:]):
        if a >= 0 and b > a:
            out.append((a + b) / 2 * factor)
    for _ in range(6):
        out.append(rng.uniform(-40, 40) * factor)
    out.append(1e6 * factor)
    bits = set()
    for x in out:
        with np.errstate(over="ignore"):
            b = wide_bits(wide, x)
        v = wide_value(wide, b)
        if np.isfinite(v):
            bits.add(b)
    return sorted(bits)


def encode(fmt, quotient):
    return int(np.array([quotient], dtype=np.float64).astype(FORMATS[fmt]).view(np.uint8)[0])


MANTISSA = {"fp4": 1, "fp6": 3, "bf6": 2}
MIN_EXPONENT = {"fp4": 0, "fp6": 0, "bf6": -2}
SOURCE_MANTISSA = {"f32": 23, "f16": 10, "bf16": 7}


def reaches(fmt, wide, quotient):
    """Whether the remainder of |quotient| below its quantum is at least
    2^-W of the quantum (exact, in fractions)."""
    a = Fraction(abs(quotient))
    if a == 0:
        return False
    e = MIN_EXPONENT[fmt]
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    units = a / Fraction(2) ** (e - MANTISSA[fmt])
    rest = units - (units.numerator // units.denominator)
    w = SOURCE_MANTISSA[wide] - MANTISSA[fmt]
    return rest * 2**w >= 1


def directed(fmt, quotient, up):
    """Toward zero (`up` False) or away from it (True), saturating."""
    table = values(fmt)
    sign = 1 << (BITS[fmt] - 1)
    negative = quotient < 0 or (quotient == 0 and np.signbit(quotient))
    a = abs(quotient)
    magnitudes = [(float(table[c]), c) for c in range(sign)]
    below = max((m, c) for m, c in magnitudes if m <= a)
    if up and below[0] != a:
        above = [(m, c) for m, c in magnitudes if m > a]
        pick = min(above) if above else max(magnitudes)
    else:
        pick = below
    return pick[1] | (sign if negative else 0)


def main():
    rng = random.Random(950)
    lines = []
    for fmt in FORMATS:
        for code, v in enumerate(values(fmt)):
            lines.append(f"value {fmt} {code:x} {wide_bits('f32', v):08x}")
    for fmt, t in (("fp8", ml_dtypes.float8_e4m3fn), ("bf8", ml_dtypes.float8_e5m2)):
        for code in range(256):
            v = np.array([code], dtype=np.uint8).view(t).astype(np.float32)
            lines.append(f"value {fmt} {code:x} {int(v.view(np.uint32)[0]):08x}")
    for e in range(255):
        s = np.array([e], dtype=np.uint8).view(ml_dtypes.float8_e8m0fnu).astype(np.float32)
        lines.append(f"scale {e:x} {int(s.view(np.uint32)[0]):08x}")
    for fmt in FORMATS:
        for wide in WIDE:
            for scale in SCALES[wide]:
                for b in inputs(fmt, wide, scale, rng):
                    q = wide_value(wide, b) * 2.0 ** (127 - scale)
                    up = reaches(fmt, wide, q)
                    lines.append(f"encode {fmt} {wide} {b:x} {scale:x} {encode(fmt, q):x} "
                                 f"{directed(fmt, q, False):x} {directed(fmt, q, up):x}")
                for code, v in enumerate(values(fmt)):
                    x = v * 2.0 ** (scale - 127)
                    lines.append(f"decode {fmt} {wide} {code:x} {scale:x} {wide_bits(wide, x):x}")
    path = Path(__file__).with_name("cases.txt")
    path.write_text("\n".join(lines) + "\n")
    print(f"{path}: {len(lines)} lines")


if __name__ == "__main__":
    main()
