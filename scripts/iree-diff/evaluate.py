"""A third opinion on an element-wise program: its `linalg.generic` body
evaluated in Python, element by element, with IEEE arithmetic that keeps
denormals.

IREE's CPU runtime flushes denormals (values.py); a program whose inputs are
all normal can still pass through a denormal on the way to a normal result
(a quotient of 4.5e-39 multiplied back up by 1e36), where the CPU computes
with 0 and the GPU with the denormal. When the GPU and the CPU disagree on
an element-wise program, run.py asks this evaluator: where it computes the
GPU's value at every element that differs, and a denormal occurred on the
way, the CPU's flushing explains the disagreement (the known class
cpu-flushes-denormals); anything else stays a disagreement.

Every exact operation is computed on exact rationals and rounded once to its
type (round to nearest even, with the type's denormals and overflow to
infinity); the evaluator shares no code with IREE or the simulator. It
reads only what gen.py writes: one linalg.generic whose block holds
arith/math scalar ops. A transcendental function, or any op it does not
know, makes it decline (None).
"""
import math
import re
from fractions import Fraction

import values as V

# Exponent of the smallest normal and of the largest binade, per float type.
EXPONENTS = {"f16": (-14, 15), "bf16": (-126, 127), "f32": (-126, 127), "f64": (-1022, 1023)}

GENERIC = re.compile(r"linalg\.generic \{indexing_maps = \[(.*?)\], iterator_types.*? ins\((.*?) :")
MAP = re.compile(r"affine_map<\(([^)]*)\) -> \(([^)]*)\)>")
ARG = re.compile(r"(%a\d+): tensor<([^>]*)>")
LINE = re.compile(r"(%\w+) = ([\w.]+) (.*?)(?: : (\w+)(?: to (\w+))?)?$")


class Decline(Exception):
    """The program holds something the evaluator does not compute."""


def round_to(t, x, negative=False):
    """The value of type t nearest the exact rational x (ties to even), as a
    Python float; a result that rounds to zero keeps the sign `negative`."""
    if t not in V.FLOATS:
        raise Decline(t)
    if x == 0:
        return -0.0 if negative else 0.0
    p = V.FLOATS[t]
    emin, emax = EXPONENTS[t]
    a = abs(Fraction(x))
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    scale = p - 1 - max(e, emin)
    scaled = a * Fraction(2) ** scale
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    value = Fraction(n) / Fraction(2) ** scale
    if value >= Fraction(2) ** (emax + 1):
        result = math.inf
    else:
        result = float(value)
    return -result if x < 0 else (result if n else (-0.0 if negative else 0.0))


def logarithm(function, pole):
    """A logarithm with IEEE's answers where Python raises: -inf at its
    pole, NaN below it."""
    def log(x):
        if x == pole:
            return -math.inf
        return math.nan if x < pole else function(x)
    return log


def rsqrt(x):
    """1/sqrt(x): +-inf at +-0, NaN below zero."""
    if x == 0:
        return math.copysign(math.inf, x)
    return math.nan if x < 0 else 1.0 / math.sqrt(x)


def power(x, y):
    """pow(x, y) with IEEE's infinities where Python raises for a zero base
    and a negative exponent."""
    if x == 0 and y < 0:
        odd = y == math.floor(y) and math.fmod(y, 2) != 0
        return math.copysign(math.inf, x) if odd else math.inf
    return math.pow(x, y)


# Python's double-precision libm, within an ulp of the exact value, rounded
# once more to the op's type: the reference for inexact functions, judged
# within the program's tolerance.
TRANSCENDENTAL = {
    "math.exp": math.exp, "math.exp2": lambda x: 2.0 ** x, "math.expm1": math.expm1,
    "math.log": logarithm(math.log, 0.0), "math.log2": logarithm(math.log2, 0.0),
    "math.log1p": logarithm(math.log1p, -1.0),
    "math.sin": math.sin, "math.cos": math.cos, "math.tanh": math.tanh,
    "math.atan": math.atan, "math.erf": math.erf, "math.sqrt": math.sqrt,
    "math.rsqrt": rsqrt, "math.cbrt": math.cbrt,
    "math.sinh": math.sinh, "math.cosh": math.cosh, "math.asinh": math.asinh,
    "math.powf": power, "math.atan2": math.atan2,
}


def signbit(x):
    return math.copysign(1.0, x) < 0


def float_op(op, t, args):
    """An exact float operation of type t."""
    a = args[0]
    if op in ("arith.addf", "arith.subf"):
        b = args[1] if op == "arith.addf" else -args[1]
        if not (math.isfinite(a) and math.isfinite(b)):
            return a + b
        exact = Fraction(a) + Fraction(b)
        return a + b if exact == 0 else round_to(t, exact)
    if op == "arith.mulf":
        b = args[1]
        if not (math.isfinite(a) and math.isfinite(b)):
            return a * b
        return round_to(t, Fraction(a) * Fraction(b), signbit(a) != signbit(b))
    if op == "arith.divf":
        b = args[1]
        negative = signbit(a) != signbit(b)
        if math.isnan(a) or math.isnan(b) or (a == 0 and b == 0) or (math.isinf(a) and math.isinf(b)):
            return math.nan
        if b == 0 or math.isinf(a):
            return -math.inf if negative else math.inf
        if math.isinf(b):
            return -0.0 if negative else 0.0
        return round_to(t, Fraction(a) / Fraction(b), negative)
    if op == "math.fma":
        b, c = args[1], args[2]
        if not all(math.isfinite(v) for v in args):
            return a * b + c
        product = Fraction(a) * Fraction(b)
        exact = product + Fraction(c)
        if exact == 0:
            both_negative = product == 0 and signbit(a) != signbit(b) and signbit(c)
            return -0.0 if both_negative else 0.0
        return round_to(t, exact)
    if op == "arith.negf":
        return -a
    if op == "math.absf":
        return abs(a)
    if op == "math.copysign":
        return math.copysign(a, args[1])
    if op in ("math.floor", "math.ceil", "math.roundeven", "math.round"):
        if not math.isfinite(a):
            return a
        x = Fraction(a)
        if op == "math.floor":
            n = math.floor(x)
        elif op == "math.ceil":
            n = math.ceil(x)
        elif op == "math.roundeven":
            n = round(x)
        else:
            n = math.floor(abs(x) + Fraction(1, 2)) * (1 if x >= 0 else -1)
        return math.copysign(float(n), a) if n == 0 else float(n)
    if op in ("arith.minimumf", "arith.maximumf"):
        b = args[1]
        if math.isnan(a) or math.isnan(b):
            return math.nan
        if a == b == 0:
            if op == "arith.minimumf":
                return -0.0 if signbit(a) or signbit(b) else 0.0
            return -0.0 if signbit(a) and signbit(b) else 0.0
        return min(a, b) if op == "arith.minimumf" else max(a, b)
    if op in ("arith.minnumf", "arith.maxnumf"):
        b = args[1]
        if math.isnan(a):
            return b
        if math.isnan(b):
            return a
        return min(a, b) if op == "arith.minnumf" else max(a, b)
    if op in TRANSCENDENTAL:
        try:
            value = TRANSCENDENTAL[op](*args)
        except ValueError:
            value = math.nan
        except OverflowError:
            value = math.inf
        if not math.isfinite(value):
            return value
        return round_to(t, Fraction(value), signbit(value))
    raise Decline(op)


def signed(t, x):
    """x (held as its unsigned bits) read as a signed integer of type t."""
    w = V.WIDTH[t]
    return x - (1 << w) if x >> (w - 1) else x


def wrap(t, x):
    return x & ((1 << V.WIDTH[t]) - 1)


def int_op(op, t, args):
    """An integer operation of type t on unsigned bit patterns."""
    w = V.WIDTH[t]
    a = args[0]
    b = args[1] if len(args) > 1 else 0
    sa, sb = signed(t, a), signed(t, b)
    simple = {
        "arith.addi": lambda: a + b, "arith.subi": lambda: a - b, "arith.muli": lambda: a * b,
        "arith.andi": lambda: a & b, "arith.ori": lambda: a | b, "arith.xori": lambda: a ^ b,
        "arith.maxsi": lambda: max(sa, sb), "arith.minsi": lambda: min(sa, sb),
        "arith.maxui": lambda: max(a, b), "arith.minui": lambda: min(a, b),
        "arith.shli": lambda: a << b, "arith.shrsi": lambda: sa >> b, "arith.shrui": lambda: a >> b,
        "arith.divui": lambda: a // b, "arith.remui": lambda: a % b,
        "arith.ceildivui": lambda: -(-a // b),
        "arith.divsi": lambda: int(Fraction(sa, sb)),
        "arith.remsi": lambda: sa - int(Fraction(sa, sb)) * sb,
        "arith.ceildivsi": lambda: math.ceil(Fraction(sa, sb)),
        "arith.floordivsi": lambda: math.floor(Fraction(sa, sb)),
        "math.absi": lambda: abs(sa),
        "math.ctlz": lambda: w - a.bit_length(),
        "math.cttz": lambda: w if a == 0 else (a & -a).bit_length() - 1,
        "math.ctpop": lambda: bin(a).count("1"),
    }
    if op not in simple:
        raise Decline(op)
    return wrap(t, simple[op]())


INT_PREDICATES = {
    "eq": lambda a, b, sa, sb: a == b, "ne": lambda a, b, sa, sb: a != b,
    "slt": lambda a, b, sa, sb: sa < sb, "sle": lambda a, b, sa, sb: sa <= sb,
    "sgt": lambda a, b, sa, sb: sa > sb, "sge": lambda a, b, sa, sb: sa >= sb,
    "ult": lambda a, b, sa, sb: a < b, "ule": lambda a, b, sa, sb: a <= b,
    "ugt": lambda a, b, sa, sb: a > b, "uge": lambda a, b, sa, sb: a >= b,
}
FLOAT_PREDICATES = {"eq": lambda a, b: a == b, "gt": lambda a, b: a > b,
                    "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b,
                    "le": lambda a, b: a <= b, "ne": lambda a, b: a != b}


def compare(kind, pred, t, a, b):
    """arith.cmpi / arith.cmpf as 0 or 1."""
    if kind == "arith.cmpi":
        return int(INT_PREDICATES[pred](a, b, signed(t, a), signed(t, b)))
    unordered = math.isnan(a) or math.isnan(b)
    if pred == "ord":
        return int(not unordered)
    if pred == "uno":
        return int(unordered)
    if unordered:
        return int(pred[0] == "u")
    return int(FLOAT_PREDICATES[pred[1:]](a, b))


def convert(op, x, src, dst):
    """A conversion of x from src to dst."""
    if op == "arith.extf":
        return x
    if op == "arith.truncf":
        return x if not math.isfinite(x) else round_to(dst, Fraction(x), signbit(x))
    if op in ("arith.sitofp", "arith.uitofp"):
        n = signed(src, x) if op == "arith.sitofp" else x
        return round_to(dst, Fraction(n))
    if op in ("arith.fptosi", "arith.fptoui"):
        if not math.isfinite(x):
            raise Decline(f"{op} of {x}")
        return wrap(dst, int(Fraction(x)))
    if op == "arith.extsi":
        return wrap(dst, signed(src, x))
    if op in ("arith.extui", "arith.trunci"):
        return wrap(dst, x)
    raise Decline(op)


def constant(literal, t):
    """An arith.constant's value."""
    if literal in ("true", "false"):
        return int(literal == "true")
    if t in V.INTS:
        return wrap(t, int(literal))
    if literal.startswith("0x"):
        return V.from_bits(t, int(literal, 16))
    return float(literal)


class Generic:
    """The linalg.generic of an element-wise program: its operands' values,
    indexing maps and block, ready to evaluate at any index."""

    def __init__(self, text, inputs):
        m = GENERIC.search(text)
        if not m or "^bb0(" not in text:
            raise Decline("no linalg.generic")
        if '"reduction"' in text.split("^bb0(", 1)[0]:
            raise Decline("a reduction")
        self.maps = [[e.strip() for e in expr.split(",")] for _, expr in MAP.findall(m.group(1))]
        self.dims = [d.strip() for d in MAP.findall(m.group(1))[0][0].split(",")]
        args = dict(ARG.findall(text.split("func.func @", 1)[1].split("{", 1)[0]))
        flags = dict(zip(args, inputs))
        self.operands = []
        for name in [n.strip() for n in m.group(2).split(",")]:
            shape, values = flags[name].split("=", 1)
            *dims, t = shape.split("x")
            parse = float if t in V.FLOATS else (lambda v, t=t: wrap(t, int(v)))
            self.operands.append(([int(d) for d in dims], t, [parse(v) for v in values.split()]))
        block = text.split("^bb0(", 1)[1]
        self.block_args = [a.split(":")[0].strip() for a in block.split(")", 1)[0].split(",")]
        self.lines = []
        for line in block.split(")", 1)[1].splitlines()[1:]:
            line = line.strip()
            if line.startswith("linalg.yield"):
                self.yields = [v.strip() for v in line.split(" ", 1)[1].split(":")[0].split(",")]
                break
            self.lines.append(line)

    def element(self, index, results=None):
        """The yielded values at index (a list of ints, one per dim), and
        whether a float value on the way was a denormal. Only what the
        yields named by `results` (indices; all when None) depend on is
        computed, and of a select only the operand it selects, so a
        transcendental function elsewhere in the block does not make the
        evaluator decline; the values of the other yields are None."""
        at = dict(zip(self.dims, index))
        env, types = {}, {}
        for k, (shape, t, values) in enumerate(self.operands):
            flat = 0
            for dim, size in zip(self.maps[k], shape):
                flat = flat * size + at[dim]
            env[self.block_args[k]], types[self.block_args[k]] = values[flat], t
        defs = {}
        for line in self.lines:
            m = LINE.match(line)
            if not m:
                raise Decline(line)
            defs[m.group(1)] = m.groups()[1:]
        state = {"denormal": False, "inexact": False, "nan_sign": False}

        def value(name):
            if name in env:
                return env[name]
            if name not in defs:
                raise Decline(f"undefined {name}")
            op, rest, t, dst = defs[name]
            operands = [o.strip() for o in rest.split(",")]
            if op == "arith.constant":
                v, t = constant(operands[0], t or "i1"), t or "i1"
            elif op == "arith.select":
                v = value(operands[1]) if value(operands[0]) else value(operands[2])
            elif op in ("arith.cmpi", "arith.cmpf"):
                v = compare(op, operands[0], t, value(operands[1]), value(operands[2]))
                t = "i1"
            elif dst is not None:
                v, t = convert(op, value(operands[0]), t, dst), dst
            elif t in V.FLOATS:
                args = [value(o) for o in operands]
                v = float_op(op, t, args)
                state["inexact"] |= op in TRANSCENDENTAL
                # IEEE 754 leaves the sign of a NaN an operation returns
                # unspecified: copysign from one reads what the
                # implementation chose.
                state["nan_sign"] |= op == "math.copysign" and math.isnan(args[1])
            else:
                v = int_op(op, t, [value(o) for o in operands])
            env[name], types[name] = v, t
            if t in V.FLOATS and V.is_denormal(t, v):
                state["denormal"] = True
            return v

        out = []
        for r, y in enumerate(self.yields):
            if results is not None and r not in results:
                out.append((None, None))
                continue
            v = value(y)
            out.append((v, types.get(y)))
        self.inexact, self.nan_sign = state["inexact"], state["nan_sign"]
        return out, state["denormal"]


TENSOR = re.compile(r"tensor<((?:[\d?]+x)*)(\w+)>")
ARG_ANY = re.compile(r"(%a\d+): tensor<([^>]*)>")
INTS = re.compile(r"-?\d+")


def unflatten(flat, shape):
    index = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return index[::-1]


def flatten(index, shape):
    flat = 0
    for i, size in zip(index, shape):
        flat = flat * size + i
    return flat


class Tensors(Generic):
    """A tensor_ops or movement program (gen.py): whole-tensor arith/math
    ops, all of the result's shape, after at most one movement op
    (`linalg.transpose`, `linalg.broadcast`, `tensor.extract_slice`,
    `tensor.concat`) defining %m. The movement is materialized element by
    element, then every op is a scalar op on one element, as in a generic's
    block; the yields are the returned values (bitcasts and i1 extensions
    read through)."""

    def __init__(self, text, inputs):  # pylint: disable=super-init-not-called
        head = text.split("func.func @", 1)[1]
        args = ARG_ANY.findall(head.split("{", 1)[0])
        flags = dict(zip([a for a, _ in args], inputs))
        tensors = {}
        for name, _ in args:
            shape, values = flags[name].split("=", 1)
            *dims, t = shape.split("x")
            parse = float if t in V.FLOATS else (lambda v, t=t: wrap(t, int(v)))
            tensors[name] = ([int(d) for d in dims], t, [parse(v) for v in values.split()])
        body = [l.strip() for l in head.split("{", 1)[1].splitlines()]
        self.lines, aliases, returned = [], {}, None
        for line in body:
            if not line or line.startswith("//") or line == "}":
                continue
            if line.startswith("return "):
                returned = [v.strip() for v in line[7:].split(":")[0].split(",")]
                continue
            if "tensor.empty" in line:
                continue
            m = re.match(r"(%\w+) = (linalg\.transpose|linalg\.broadcast|tensor\.extract_slice|"
                         r"tensor\.concat)\b(.*)$", line)
            if m:
                tensors[m.group(1)] = self.movement(m.group(2), m.group(3), tensors)
                continue
            m = re.match(r"(%\w+) = arith\.(bitcast|extui) (%\w+) : tensor<[^>]*x(\w+)> to", line)
            if m and (m.group(2) == "bitcast" or m.group(4) == "i1"):
                aliases[m.group(1)] = m.group(3)
                continue
            if not line.startswith("%") or "linalg." in line or "tensor." in line:
                raise Decline(line)
            line = re.sub(r"dense<([^>]*)>", r"\1", line)
            line = re.sub(r" : tensor<[^>]*>, (tensor<[^>]*>)$", r" : \1", line)  # select
            self.lines.append(TENSOR.sub(lambda m: m.group(2), line))
        if returned is None:
            raise Decline("no return")
        self.yields = [aliases.get(v, v) for v in returned]
        signature = head.split("{", 1)[0]
        if "->" not in signature:
            raise Decline("no result type")
        result = TENSOR.search(signature.split("->", 1)[1])
        if not result:
            raise Decline("no result type")
        out = [int(d) for d in result.group(1).split("x") if d]
        names = [n for n, (shape, _, _) in tensors.items() if tuple(shape) == tuple(out)]
        self.dims = [f"d{k}" for k in range(len(out))]
        self.maps = [list(self.dims) for _ in names]
        self.operands = [tensors[n] for n in names]
        self.block_args = names

    @staticmethod
    def movement(op, rest, tensors):
        """The tensor a movement op defines, materialized."""
        sources = re.findall(r"%a\d+", rest)
        types = TENSOR.findall(rest)
        if not sources or not types:
            raise Decline(op)
        shape, t, values = tensors[sources[0]]
        out = [int(d) for d in types[-1][0].split("x") if d]
        nums = [[int(n) for n in INTS.findall(g)] for g in re.findall(r"\[([^\]]*)\]", rest)]
        result = []
        for flat in range(math.prod(out)):
            index = unflatten(flat, out)
            src = (shape, values)
            if op == "linalg.transpose":
                perm = nums[-1]
                at = [0] * len(perm)
                for k, p in enumerate(perm):
                    at[p] = index[k]
            elif op == "linalg.broadcast":
                at = [i for k, i in enumerate(index) if k not in nums[-1]]
            elif op == "tensor.extract_slice":
                offs, _, strides = nums[:3]
                at = [o + i * s for o, i, s in zip(offs, index, strides)]
            else:
                dim = int(re.search(r"dim\((\d+)\)", rest).group(1))
                at = list(index)
                if at[dim] >= shape[dim]:
                    other = tensors[sources[1]]
                    at[dim] -= shape[dim]
                    src = (other[0], other[2])
            if len(at) != len(src[0]) or any(not 0 <= i < n for i, n in zip(at, src[0])):
                raise Decline(f"{op} index {at}")
            result.append(src[1][flatten(at, src[0])])
        return out, t, result


def evaluator(kind, text, inputs):
    """The evaluator for a program of gen.py's kind, or None."""
    try:
        if kind in ("elementwise", "dynamic"):
            return Generic(text, inputs)
        if kind in ("tensor_ops", "movement"):
            return Tensors(text, inputs)
    except (Decline, KeyError, ValueError, IndexError, TypeError, AttributeError):
        return None
    return None


def printed(value, t):
    """value as run.py's results print it: a float's bits as a signed
    integer of its width, an integer as itself."""
    if t in V.FLOATS:
        return signed(V.bits_type(t), V.to_bits(t, value)), True
    return (value if t == "i1" else signed(t, value)), False


def flushed_intermediate(text, inputs, got, want, results=None, kind="elementwise"):
    """True when, at every element where the GPU's results (got) and the
    CPU's (want) differ, the evaluator computes the GPU's value (any NaN
    equal) and a denormal occurred on the way; False when it computes
    something else or no denormal occurred; None when it declines.
    `results` (indices) limits the judgement to those results (the ones
    that failed the comparison); None judges all. `kind` is gen.py's:
    elementwise and dynamic programs hold a generic, tensor_ops and
    movement programs whole-tensor ops (Tensors)."""
    try:
        generic = evaluator(kind, text, inputs)
        if generic is None:
            return None
        denormal = False
        for r, (g, w) in enumerate(zip(got, want)):
            if results is not None and r not in results:
                continue
            for k, (a, b) in enumerate(zip(g.tokens, w.tokens)):
                if a == b:
                    continue
                index, flat = [], k
                for size in reversed(w.shape):
                    index.append(flat % size)
                    flat //= size
                values, saw = generic.element(index[::-1], [r])
                value, t = values[r]
                expected, is_float = printed(value, t)
                if is_float and math.isnan(value):
                    if not math.isnan(V.from_bits(t, int(a))):
                        return False
                elif int(a) != expected:
                    return False
                denormal |= saw
        return denormal
    except (Decline, KeyError, ValueError, IndexError, ZeroDivisionError, TypeError,
            OverflowError, RecursionError, AttributeError):
        return None


def close(token, value, t, tolerance):
    """Whether a printed result element (token) is the evaluator's value:
    the same bits (any NaN equal), or within tolerance (rel, abs) of it."""
    expected, is_float = printed(value, t)
    if not is_float:
        return int(token) == expected
    got = V.from_bits(t, int(token))
    if math.isnan(value) or math.isnan(got):
        return math.isnan(value) and math.isnan(got)
    if tolerance is None or math.isinf(value) or math.isinf(got):
        return int(token) == expected
    rel, absolute = tolerance
    return abs(got - value) <= absolute + rel * abs(value)


def verdict(text, inputs, got, want, tolerances, result, kind="elementwise"):
    """The third opinion on one failing result (index `result`) where the
    GPU's results (got) and the CPU's (want) differ, over every differing
    element: None when the evaluator declines; else
    "evaluator-agrees-denormal-on-the-way" (it computes the GPU's value and
    a denormal occurred on the way: the CPU flushed it),
    "evaluator-agrees-cpu-transcendental-off" (it computes the GPU's value,
    within the result's tolerance, through a transcendental function the
    CPU computed beyond it), "evaluator-agrees-but-a-nan-sign" (it computes
    the GPU's value but for signs a copysign took from a NaN, which IEEE
    754 leaves unspecified), "evaluator-agrees-with-gpu" (no such reason),
    or "evaluator-disagrees-with-gpu"."""
    try:
        generic = evaluator(kind, text, inputs)
        if generic is None:
            return None
        g, w, tolerance = got[result], want[result], tolerances[result]
        denormal = inexact = nan_sign = False
        for k, (a, b) in enumerate(zip(g.tokens, w.tokens)):
            if a == b:
                continue
            values, saw = generic.element(unflatten(k, w.shape), [result])
            value, t = values[result]
            magnitude = int(a) & ((1 << (V.WIDTH.get(t, 1) - 1)) - 1)
            if generic.nan_sign and t in V.FLOATS and close(str(magnitude), abs(value), t,
                                                            tolerance):
                nan_sign = True
                continue
            if not close(a, value, t, tolerance):
                return "evaluator-disagrees-with-gpu"
            if tolerance is not None and close(b, value, t, tolerance):
                continue
            denormal |= saw
            inexact |= generic.inexact
        if denormal:
            return "evaluator-agrees-denormal-on-the-way"
        if inexact:
            return "evaluator-agrees-cpu-transcendental-off"
        return "evaluator-agrees-but-a-nan-sign" if nan_sign else "evaluator-agrees-with-gpu"
    except (Decline, KeyError, ValueError, IndexError, ZeroDivisionError, TypeError,
            OverflowError, RecursionError, AttributeError):
        return None
