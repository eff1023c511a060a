"""Element types, their bit patterns and the input values iree-diff draws.

Floats are handled as Python floats (every f16, bf16, f32 and f64 value is
one) and as bit patterns; results are compared as bit patterns, since the
generated programs return every float result bitcast to the integer type of
its width (iree-run-module prints floats with 6 significant digits only).

No input is a denormal: IREE's CPU runtime computes with denormals flushed
(measured on local-task: f32 `subf(-2^-127, -0)` is +0, f16 `addf(2^-24,
2^-24)` is 0, f64 alike), while IREE's GPU kernels keep them
(`.amdhsa_float_denorm_mode_32 3`, `_16_64 3`) and so does the interpreter;
the CPU is no oracle for them. Results that are denormals computed from
normal inputs still occur; a mismatch where every differing element is a
denormal on the GPU and a zero on the CPU is the known class
cpu-flushes-denormals (known.json).
"""
import math
import struct

FLOATS = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}   # significand bits
WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64,
         "f16": 16, "bf16": 16, "f32": 32, "f64": 64}
INTS = ("i1", "i8", "i16", "i32", "i64")
# The largest finite value and the smallest normal of each float type.
LIMITS = {"f16": (65504.0, 2.0 ** -14), "bf16": (3.3895313892515355e38, 2.0 ** -126),
          "f32": (3.4028234663852886e38, 2.0 ** -126),
          "f64": (1.7976931348623157e308, 2.0 ** -1022)}


def bits_type(t):
    """The integer type a float result is bitcast to (i1 results become i8)."""
    return "i8" if t == "i1" else f"i{WIDTH[t]}"


def from_bits(t, bits):
    """The float value of a float type's bit pattern."""
    w = WIDTH[t]
    bits &= (1 << w) - 1
    if t == "f16":
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    if t == "bf16":
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    if t == "f32":
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def to_bits(t, x):
    """The bit pattern of x (exactly representable in t, or NaN/inf)."""
    if t == "f16":
        return struct.unpack("<H", struct.pack("<e", x))[0]
    if t == "bf16":
        return struct.unpack("<I", struct.pack("<f", x))[0] >> 16
    if t == "f32":
        return struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def float_text(x):
    """x as iree-run-module's --input parser reads it back exactly."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "-0" if math.copysign(1, x) < 0 else "0"
    return repr(x)


def mlir_float(t, x):
    """An MLIR float literal for x: decimal where short, else hex bits."""
    if math.isfinite(x) and (x == 0 or 2.0 ** -8 <= abs(x) <= 2.0 ** 12) and len(repr(x)) <= 10:
        return "-0.0" if x == 0 and math.copysign(1, x) < 0 else repr(float(x))
    return f"0x{to_bits(t, x):0{WIDTH[t] // 4}X}"


def is_denormal(t, x):
    """Whether x is a nonzero value below t's smallest normal."""
    return x != 0 and abs(x) < LIMITS[t][1]


def int_range(t):
    """(min, max) of a signed integer type."""
    w = WIDTH[t]
    return (-(1 << (w - 1)), (1 << (w - 1)) - 1) if w > 1 else (0, 1)


def wrap(t, v):
    """v as the signed value of integer type t."""
    w = WIDTH[t]
    v &= (1 << w) - 1
    return v - (1 << w) if w > 1 and v >> (w - 1) else v


def random_float(rng, t, specials=0.25):
    """A value of t: a special (±0, ±inf, NaN, extremes), a small binary
    fraction, or random bits of a finite normal value."""
    big, tiny = LIMITS[t]
    r = rng.random()
    if r < specials:
        pool = [0.0, -0.0, math.inf, -math.inf, math.nan, big, -big, tiny, -tiny,
                1.0, -1.0, 0.5, -2.0]
        return rng.choice(pool)
    if r < 0.6:
        return rng.randint(-64, 64) / rng.choice((1, 2, 4, 8, 64))
    while True:
        x = from_bits(t, rng.getrandbits(WIDTH[t]))
        if math.isfinite(x) and (x == 0 or abs(x) >= tiny):
            return x


def random_int(rng, t):
    """A value of t, often an extreme (MIN, MAX, 0, ±1, MIN+1, MAX-1)."""
    lo, hi = int_range(t)
    r = rng.random()
    if r < 0.3:
        return rng.choice([lo, hi, 0, 1, wrap(t, -1), wrap(t, lo + 1), wrap(t, hi - 1)])
    if r < 0.6:
        return wrap(t, rng.randint(-9, 9))
    return wrap(t, rng.getrandbits(WIDTH[t]))


def exact_float(rng, scale):
    """A small binary fraction k/2^s with |k| <= scale[0], s = scale[1]:
    sums and products of these stay exact whatever order a kernel uses."""
    k, s = scale
    return rng.randint(-k, k) / 2.0 ** s


def exact_scale(acc, terms, products):
    """(k, s) for exact_float such that `terms` accumulated values (products
    of two when `products`) need at most acc's significand bits (and, for
    f16, stay below its largest value)."""
    for k, s in ((8, 2), (4, 2), (2, 2), (1, 2), (1, 1)):
        units = terms * (k * k if products else k)
        magnitude = units / 2.0 ** (2 * s if products else s)
        if units <= 2 ** FLOATS[acc] and (acc != "f16" or magnitude < 60000):
            return k, s
    return 1, 0
