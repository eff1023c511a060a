#!/usr/bin/env python3
"""Write isa/tests/scalar_half/cases.txt: inputs of GFX12's scalar f16 and
float operations and the results their definitions in AMD's RDNA4 guide
give (6.8 "SALU Floating Point": the VALU's results; an f16 result clears
the SGPR's high half), computed here with numpy's IEEE half and single
precision and exact rationals, for isa/tests/gfx12_scalar_half.rs.

One case a line, hex words: `S0 S1 S2 S3 S4 : R0 ... R23`, R the 24
results in the kernel's order (see the test); `nan16`/`nan32` where the
result is a NaN (any NaN of that width, high half clear for f16).

Rerun after editing the inputs: python3 isa/tests/scalar_half/generate.py
(numpy). Deterministic: the random inputs come from a fixed seed.
"""
import math
import random
from fractions import Fraction
from pathlib import Path

import numpy as np

OUT = Path(__file__).with_name("cases.txt")


def f16(bits):
    return np.frombuffer(np.uint16(bits).tobytes(), dtype=np.float16)[0]


def bits16(value):
    value = np.float16(value)
    return int(np.frombuffer(value.tobytes(), dtype=np.uint16)[0])


def f32(bits):
    return np.frombuffer(np.uint32(bits).tobytes(), dtype=np.float32)[0]


def bits32(value):
    value = np.float32(value)
    return int(np.frombuffer(value.tobytes(), dtype=np.uint32)[0])


def result16(value):
    return "nan16" if math.isnan(float(value)) else f"{bits16(value):08x}"


def result32(value):
    return "nan32" if math.isnan(float(value)) else f"{bits32(value):08x}"


def basic(a, b, op):
    """a op b (+, -, *) of two f16 values in f64, where it is exact (an f16
    sum spans at most 40 bits, a product 22), IEEE's zero signs and specials
    included; the caller rounds it to f16 once."""
    return op(np.float64(a), np.float64(b))


def rounded(exact, precision, emin, emax):
    """The exact rational `exact` rounded to nearest even to a binary format
    of `precision` significand bits, least normal exponent `emin` (below it
    subnormal) and greatest `emax` (past it infinite), as a float (exact in
    f64). Rounding the f64 nearest to a fused sum again would round twice,
    which differs at ties."""
    sign = -1.0 if exact < 0 else 1.0
    m = abs(exact)
    e = m.numerator.bit_length() - m.denominator.bit_length()
    if Fraction(2) ** e > m:
        e -= 1
    ulp = Fraction(2) ** (max(e, emin) - precision + 1)
    n, rest = divmod(m, ulp)
    if rest * 2 > ulp or (rest * 2 == ulp and n % 2 == 1):
        n += 1
    value = n * ulp
    if value >= Fraction(2) ** (emax + 1):
        return sign * math.inf
    return sign * float(value)


def fused(a, b, c, precision, emin, emax):
    """a * b + c rounded once to the format (f16: 11, -14, 15; f32: 24,
    -126, 127): exact rationals where all are finite, IEEE's rules (numpy
    in f64) otherwise; an exact zero is -0 only when the product and c are
    both -0."""
    if not all(math.isfinite(v) for v in (a, b, c)):
        with np.errstate(invalid="ignore"):
            return np.float64(a) * np.float64(b) + np.float64(c)
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        product_negative = (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0)
        both = product_negative and Fraction(a) * Fraction(b) == 0 and math.copysign(1, c) < 0
        return -0.0 if both else 0.0
    return rounded(exact, precision, emin, emax)


F16 = (11, -14, 15)
F32 = (24, -126, 127)


def min_num(a, b, larger=False):
    """IEEE 754-2019 minimumNumber/maximumNumber: a NaN gives the other;
    -0 below +0."""
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    if a == b:
        negative = math.copysign(1, a) < 0 or math.copysign(1, b) < 0
        positive = math.copysign(1, a) > 0 or math.copysign(1, b) > 0
        zero = -0.0 if negative and not larger else 0.0 if larger and positive else a
        return zero if a == 0 else a
    return max(a, b) if larger else min(a, b)


def minimum(a, b, larger=False):
    """IEEE 754-2019 minimum/maximum: a NaN gives a NaN; -0 below +0."""
    if math.isnan(a) or math.isnan(b):
        return math.nan
    return min_num(a, b, larger)


def to_f16_toward_zero(x):
    """f32 `x` rounded toward zero to f16 (`v_cvt_pk_rtz_f16_f32`)."""
    if math.isnan(x):
        # Quieted, the payload's top bits kept (IEEE 754's conversion of a
        # signalling NaN; numpy's keeps it signalling).
        raw = bits32(x)
        return (raw >> 16 & 0x8000) | 0x7e00 | (raw >> 13 & 0x3ff)
    if math.isinf(x):
        return bits16(x)
    exact = Fraction(float(x))
    h = bits16(np.float64(float(x)))
    while abs(Fraction(float(f16(h)))) > abs(exact) if math.isfinite(float(f16(h))) else True:
        h -= 1  # one ulp toward zero (same sign: the magnitude's bits)
    return h


F16_SPECIAL = [0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3800,
               0x3e00, 0xbe00, 0x4100, 0xc100, 0x3a00, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
               0x7e00, 0xfe00, 0x7d00, 0x3c01, 0x0ffe, 0xbc01, 0x5640, 0x6400]
F32_SPECIAL = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000,
               0x7fc00000, 0x477fe000, 0x477ff000, 0x47800000, 0xc7800000, 0x33800000,
               0x387fc000, 0x3f800001, 0x00000001, 0x7f7fffff, 0x3eaaaaab, 0xc1200000]


def case(s0, s1, s2, s3, s4):
    a, b, c, h = f16(s0 & 0xffff), f16(s1 & 0xffff), f16(s2 & 0xffff), f16(s0 >> 16)
    x, y = f32(s3), f32(s4)
    fa, fb, fc, fx, fy = float(a), float(b), float(c), float(x), float(y)
    r = []
    for op in (lambda p, q: p + q, lambda p, q: p - q, lambda p, q: p * q):
        r.append(result16(np.float16(basic(fa, fb, op))))
    r.append(result16(np.float16(fused(fa, fb, fc, *F16))))
    r.append(result16(min_num(fa, fb)))
    r.append(result16(min_num(fa, fb, larger=True)))
    r.append(result16(minimum(fa, fb)))
    r.append(result16(minimum(fa, fb, larger=True)))
    r.append(result16(np.ceil(a)))
    r.append(result16(np.floor(a)))
    r.append(result16(np.trunc(a)))
    r.append(result16(np.rint(a)))
    r.append(result32(np.float32(a)))
    r.append(result32(np.float32(h)))
    r.append(result16(np.float16(x)))
    lo, hi = to_f16_toward_zero(x), to_f16_toward_zero(y)
    r.append(f"{lo | hi << 16:08x}")
    r.append(result32(np.float32(fused(fx, fy, 1.5, *F32))))
    r.append(result32(np.float32(fused(fx, -3.0, fy, *F32))))
    r.append(result32(minimum(fx, fy)))
    r.append(result32(minimum(fx, fy, larger=True)))
    r.append(f"{(s0 >> 16) | (s1 & 0xffff) << 16:08x}")
    r.append(result16(np.float16(basic(fa, 1.0, lambda p, q: p + q))))
    r.append(result16(np.float16(basic(fa, 3.0, lambda p, q: p * q))))
    r.append(result32(np.float32(fused(1.5, fy, 1.5, *F32))))
    inputs = " ".join(f"{v:08x}" for v in (s0, s1, s2, s3, s4))
    return f"{inputs} : {' '.join(r)}"


def main():
    np.seterr(all="ignore")  # NaN and overflow are cases here, not errors
    rng = random.Random(12)
    lines = []
    for i, a in enumerate(F16_SPECIAL):
        for j, b in enumerate(F16_SPECIAL[i % 3::3]):
            c = F16_SPECIAL[(i + j) % len(F16_SPECIAL)]
            h = F16_SPECIAL[(i * 7 + j) % len(F16_SPECIAL)]
            x = F32_SPECIAL[(i + 2 * j) % len(F32_SPECIAL)]
            y = F32_SPECIAL[(3 * i + j) % len(F32_SPECIAL)]
            lines.append(case(h << 16 | a, 0xa5a5_0000 | b, 0x5a5a_0000 | c, x, y))
    for _ in range(200):
        a, b, c, h = (rng.getrandbits(16) for _ in range(4))
        x, y = rng.getrandbits(32), rng.getrandbits(32)
        lines.append(case(h << 16 | a, 0xa5a5_0000 | b, 0x5a5a_0000 | c, x, y))
    # Ties of the fused f16 multiply-add (isa/tests/fma_f16_rounding.rs).
    lines.append(case(0xbc01, 0x0ffe, 0x3c01, 0x3f800001, 0x3f800001))
    # x * -3 on an f32 tie that y, far below it, decides (s_fmamk_f32: a
    # second rounding through f64 would give the even neighbour).
    lines.append(case(0, 0, 0, 0x56459afe, 0xae729aff))
    OUT.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
