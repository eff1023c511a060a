"""Random IREE programs from an integer seed (deterministic: one seed, one
program text and one set of inputs).

A program is one `func.func @main` over tensors (arith, math, linalg named
ops and linalg.generic, tensor) of one of these kinds: element-wise
expression trees (in a linalg.generic with transposed and broadcast operands,
or as arith/math ops on whole tensors), reductions, matmul, batch matmul,
2-D convolution, data movement (transpose, broadcast, slices,
concatenation), dynamic shapes and gathers (tensor.extract at computed
in-range indices).

Every result is returned as integers: float results bitcast to the integer
of their width, i1 results extended to i8, so the comparison sees every bit.
Each result carries a tolerance: exact (bit-equal, any NaN equals any NaN)
unless it comes from a transcendental function, whose relative and absolute
bounds are in TRANSCENDENTAL.

Undefined behaviour is guarded with selects: divisors 0 (and MIN / -1)
become 1, shift amounts are masked below the width, float-to-int conversions
are clamped into range with NaN as 0. Floating-point contraction is avoided:
no mulf (or negf/extf of one) feeds an addf or subf directly, since the GPU
compiler fuses those into FMAs and the CPU does not. math.fma is generated
explicitly instead, in f32 only: IREE's CPU backend computes an f64 math.fma
as a multiply and an add (x*x+x for x = 126579875.40058117 is
16022464983006530 on local-task, the fused 16022464983006528 on the GPUs).
"""
import math
import random

import values as V

SIZES = (1, 2, 3, 5, 7, 13, 17, 31, 37, 61, 64, 65, 100, 127, 129, 257)
SMALL = (1, 2, 3, 5, 7, 9, 11, 13, 17, 19, 23, 31, 33, 37, 47)
# The most elements of one input (an --input flag must stay below the
# kernel's 128 KiB per argument, and the interpreter is slow in debug).
MAX_ELEMENTS = 3000
# Ops IREE's llvm-cpu backend (--iree-llvmcpu-target-cpu=generic) cannot
# link or legalize for a type (measured with iree-compile 3.13.0).
CPU_LACKS = {
    "f64": {"math.log2", "math.sin", "math.cos", "math.tan", "math.tanh", "math.erf",
            "math.atan", "math.cbrt", "math.ceil", "math.asin", "math.acos",
            "math.atan2", "arith.remf"},
    "f16": {"arith.minnumf", "arith.maxnumf"},
}
# Transcendental and other inexact ops: (argument domains, ulps, abs) where a
# domain is (lo, hi, positive-log-scale?) for each operand; the tolerance is
# ulps units in the last place of the op's type plus abs. IREE's CPU
# approximations set the bounds: f32 atan(0.6439017) is 31 ulps low on
# local-task (0x3f127378; correctly rounded 0x3f127397, the GPUs 0x3f127396).
TRANSCENDENTAL = {
    "math.exp": ([(-30, 30, False)], 16, 0.0), "math.exp2": ([(-30, 30, False)], 16, 0.0),
    "math.expm1": ([(-20, 20, False)], 16, 0.0), "math.log": ([(-20, 20, True)], 16, 0.0),
    "math.log2": ([(-20, 20, True)], 16, 0.0), "math.log1p": ([(-20, 20, True)], 16, 0.0),
    "math.sin": ([(-30, 30, False)], 16, 2e-6), "math.cos": ([(-30, 30, False)], 16, 2e-6),
    "math.tanh": ([(-10, 10, False)], 16, 1e-7), "math.atan": ([(-10, 10, False)], 64, 0.0),
    "math.erf": ([(-4, 4, False)], 16, 1e-7), "math.rsqrt": ([(-20, 20, True)], 16, 0.0),
    "math.cbrt": ([(-20, 20, True)], 16, 0.0), "math.sqrt": ([(-20, 20, True)], 2, 0.0),
    "math.sinh": ([(-10, 10, False)], 16, 0.0), "math.cosh": ([(-10, 10, False)], 16, 0.0),
    "math.asinh": ([(-10, 10, False)], 16, 1e-7),
    "math.powf": ([(-4, 4, True), (-4, 4, False)], 64, 0.0),
    "math.atan2": ([(-10, 10, False), (-10, 10, False)], 64, 1e-7),
}
# No infinities: IREE's CPU expansions return NaN for several infinite
# arguments where the GPU's device library returns the IEEE value
# (asinh(-inf) is -inf, cbrt(-inf) -inf, powf(-inf, -3.97) 0), so the CPU is
# no oracle there; powf and atan2 get no specials at all (powf(0, -0) is 1,
# NaN on the CPU; atan2(-0, -8.36) is -pi, +pi on the CPU).
TRANSCENDENTAL_SPECIALS = (0.0, -0.0, math.nan)
NO_SPECIALS = {"math.powf", "math.atan2"}
# Ops IREE's CPU backend expands into other ops computed in the argument's
# own precision: in f16 and bf16 they lose most bits (f16 sinh(-0.0010004)
# is -2^-10, asinh(8.695) 2.906 instead of 2.859), so no f16/bf16 oracle.
NARROW_INEXACT = {"math.sinh", "math.cosh", "math.asinh", "math.expm1", "math.log1p",
                  "math.cbrt", "math.powf", "math.atan2"}


def mlir_int(t, v):
    """An MLIR integer literal."""
    if t == "i1":
        return "true" if v & 1 else "false"
    return str(V.wrap(t, v))


class Expr:
    """SSA lines of element-wise computations over scalars (inside a
    linalg.generic) or over whole tensors (shape given), with the ops used."""

    def __init__(self, rng, leaves, shape=None, prefix="%v"):
        self.rng, self.leaves, self.shape = rng, leaves, shape
        self.lines, self.count, self.prefix = [], 0, prefix
        self.ops = set()

    def ty(self, t):
        """The MLIR type of a value of element type t."""
        if self.shape is None:
            return t
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + t + ">"

    def emit(self, text, t, op=None):
        """Appends `%vN = text : type-suffix` and returns %vN."""
        name = f"{self.prefix}{self.count}"
        self.count += 1
        self.lines.append(f"{name} = {text}")
        if op:
            self.ops.add(f"{op}:{t}")
        return name

    def const(self, t, v):
        """A constant of element type t."""
        lit = mlir_int(t, v) if t in V.INTS else V.mlir_float(t, v)
        if self.shape is None:
            if t == "i1":
                return self.emit(f"arith.constant {lit}", t)
            return self.emit(f"arith.constant {lit} : {t}", t)
        return self.emit(f"arith.constant dense<{lit}> : {self.ty(t)}", t)

    def op(self, name, args, t, arg_t=None):
        """`name args : type` (arith and math ops share this form)."""
        return self.emit(f"{name} {', '.join(args)} : {self.ty(arg_t or t)}", t, name)

    def cast(self, name, x, src, dst):
        """A conversion `name x : src to dst`."""
        return self.emit(f"{name} {x} : {self.ty(src)} to {self.ty(dst)}", dst, f"{name}.{src}")

    def select(self, c, a, b, t):
        """arith.select c, a, b."""
        if self.shape is None:
            return self.emit(f"arith.select {c}, {a}, {b} : {t}", t, "arith.select")
        return self.emit(f"arith.select {c}, {a}, {b} : {self.ty('i1')}, {self.ty(t)}", t,
                         "arith.select")

    def cmp(self, kind, pred, a, b, t):
        """arith.cmpf / arith.cmpi into i1."""
        return self.emit(f"arith.{kind} {pred}, {a}, {b} : {self.ty(t)}", "i1", f"arith.{kind}")

    # ---- expression trees -------------------------------------------------

    def leaf(self, t):
        """An input of type t, else a constant (or a conversion of an input)."""
        rng = self.rng
        if self.leaves.get(t) and rng.random() < 0.85:
            return rng.choice(self.leaves[t])
        if rng.random() < 0.5 or not any(self.leaves.values()) or t == "bf16":
            return self.const(t, V.random_int(rng, t) if t in V.INTS
                              else V.random_float(rng, t, specials=0.15))
        return self.convert(t, 0)

    def tree(self, t, depth, no_mul=False):
        """An exact expression of element type t, at most depth ops deep.
        no_mul: the result must not be a product (it feeds an add or sub)."""
        if depth <= 0 or self.rng.random() < 0.15 or t == "bf16":
            return self.leaf(t)
        if t == "i1":
            return self.bool_tree(depth)
        if t in V.INTS:
            return self.int_tree(t, depth)
        return self.float_tree(t, depth, no_mul)

    def root(self, t, depth):
        """A result's expression: tree(t, depth), except that a bf16 result
        is one op over inputs and constants. IREE's CPU backend computes
        bf16 in f32 and drops the rounding to bf16 between ops
        ((0.609375 / -0.4375) / -0.4375 is 3.1875 on local-task, 3.171875
        rounding each quotient), so no bf16 value computed by an op may
        feed another op."""
        if t == "bf16":
            return self.float_tree(t, 1, False)
        return self.tree(t, depth)

    def bool_tree(self, depth):
        """An i1 expression."""
        rng = self.rng
        r = rng.random()
        if r < 0.5:
            return self.compare(depth)
        if r < 0.8:
            op = rng.choice(("arith.andi", "arith.ori", "arith.xori"))
            return self.op(op, [self.tree("i1", depth - 1), self.tree("i1", depth - 1)], "i1")
        if r < 0.9:
            src = rng.choice(("i8", "i16", "i32", "i64"))
            return self.cast("arith.trunci", self.tree(src, depth - 1), src, "i1")
        return self.select(self.tree("i1", depth - 1), self.tree("i1", depth - 1),
                           self.tree("i1", depth - 1), "i1")

    def compare(self, depth):
        """cmpi or cmpf of two subtrees of one type."""
        rng = self.rng
        t = self.some_type()
        a, b = self.tree(t, depth - 1), self.tree(t, depth - 1)
        if t in V.INTS:
            pred = rng.choice(("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"))
            return self.cmp("cmpi", pred, a, b, t)
        pred = rng.choice(("oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
                           "uge", "ult", "ule", "une", "uno"))
        return self.cmp("cmpf", pred, a, b, t)

    def some_type(self):
        """A type of the leaves (mostly), else any."""
        have = [t for t, v in self.leaves.items() if v and t != "i1"]
        if have and self.rng.random() < 0.8:
            return self.rng.choice(have)
        return self.rng.choice(("i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"))

    def int_tree(self, t, depth):
        """An integer expression (t wider than i1), UB guarded."""
        rng = self.rng
        r = rng.random()
        sub = lambda: self.tree(t, depth - 1)  # noqa: E731
        if r < 0.35:
            op = rng.choice(("arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori",
                             "arith.xori", "arith.maxsi", "arith.minsi", "arith.maxui",
                             "arith.minui"))
            return self.op(op, [sub(), sub()], t)
        if r < 0.45:
            op = rng.choice(("arith.shli", "arith.shrsi", "arith.shrui"))
            amount = self.op("arith.andi", [sub(), self.const(t, V.WIDTH[t] - 1)], t)
            return self.op(op, [sub(), amount], t)
        if r < 0.57:
            return self.division(t, sub(), sub())
        if r < 0.65:
            op = rng.choice(("math.absi", "math.ctlz", "math.cttz", "math.ctpop"))
            return self.op(op, [sub()], t)
        if r < 0.75:
            return self.select(self.tree("i1", depth - 1), sub(), sub(), t)
        return self.convert(t, depth)

    def division(self, t, a, b):
        """A guarded integer division or remainder."""
        rng = self.rng
        op = rng.choice(("arith.divsi", "arith.divui", "arith.remsi", "arith.remui",
                         "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi"))
        bad = self.cmp("cmpi", "eq", b, self.const(t, 0), t)
        if op in ("arith.divsi", "arith.remsi", "arith.ceildivsi", "arith.floordivsi"):
            lo, _ = V.int_range(t)
            ov = self.op("arith.andi", [self.cmp("cmpi", "eq", a, self.const(t, lo), t),
                                        self.cmp("cmpi", "eq", b, self.const(t, -1), t)], "i1")
            bad = self.op("arith.ori", [bad, ov], "i1")
        return self.op(op, [a, self.select(bad, self.const(t, 1), b, t)], t)

    def float_tree(self, t, depth, no_mul):
        """A float expression of exactly defined ops."""
        rng = self.rng
        r = rng.random()
        if r < 0.3:
            op = rng.choice(("arith.addf", "arith.subf", "arith.mulf", "arith.divf"))
            if op == "arith.mulf" and no_mul:
                op = "arith.divf"
            fused = op in ("arith.addf", "arith.subf")
            return self.op(op, [self.tree(t, depth - 1, fused), self.tree(t, depth - 1, fused)], t)
        if r < 0.42:
            return self.min_max(t, depth)
        if r < 0.55:
            op = rng.choice(("arith.negf", "math.absf", "math.floor", "math.ceil",
                             "math.roundeven", "math.round"))
            if op in CPU_LACKS.get(t, ()):
                op = "math.floor"
            return self.op(op, [self.tree(t, depth - 1, no_mul and op == "arith.negf")], t)
        if r < 0.6:
            return self.op("math.copysign", [self.tree(t, depth - 1), self.tree(t, depth - 1)], t)
        if r < 0.66 and t == "f32" and not no_mul:
            return self.op("math.fma", [self.tree(t, depth - 1) for _ in range(3)], t)
        if r < 0.75:
            return self.select(self.tree("i1", depth - 1), self.tree(t, depth - 1, no_mul),
                               self.tree(t, depth - 1, no_mul), t)
        return self.convert(t, depth, no_mul)

    def min_max(self, t, depth):
        """minimumf/maximumf of NaN-free operands, or minnumf/maxnumf of
        operands that are not -0 (where both lowerings agree exactly)."""
        rng = self.rng
        a, b = self.tree(t, depth - 1), self.tree(t, depth - 1)
        if t in CPU_LACKS or rng.random() < 0.5:
            fill = self.const(t, V.random_float(rng, t, specials=0.0))
            a, b = [self.select(self.cmp("cmpf", "uno", x, x, t), fill, x, t) for x in (a, b)]
            return self.op(rng.choice(("arith.minimumf", "arith.maximumf")), [a, b], t)
        zero = self.const(t, 0.0)
        a, b = [self.op("arith.addf", [x, zero], t) for x in (a, b)]
        return self.op(rng.choice(("arith.minnumf", "arith.maxnumf")), [a, b], t)

    def convert(self, t, depth, no_mul=False):
        """t computed from another type: extension, truncation, int<->float."""
        rng = self.rng
        if t == "i1":
            return self.bool_tree(max(depth, 1))
        if t in V.INTS:
            src = self.some_type()
            if src in V.FLOATS:
                return self.float_to_int(self.tree(src, depth - 1), src, t)
            if src == t:
                return self.tree(t, depth - 1)
            x = self.tree(src, depth - 1)
            if V.WIDTH[src] > V.WIDTH[t]:
                return self.cast("arith.trunci", x, src, t)
            return self.cast(rng.choice(("arith.extsi", "arith.extui")), x, src, t)
        src = self.some_type()
        if src in V.INTS:
            if V.WIDTH[src] >= V.FLOATS[t]:
                # Only exactly representable integers: IREE's CPU backend
                # drops the rounding of uitofp/sitofp to bf16 or f16 when
                # an fptoui/fptosi follows (known.json: cpu-int-float-int-fold).
                src = "i8" if t in ("f16", "bf16") else "i16"
            return self.cast(rng.choice(("arith.sitofp", "arith.uitofp")),
                             self.tree(src, depth - 1), src, t)
        if src == t or {src, t} == {"f16", "bf16"}:
            return self.tree(t, depth - 1, no_mul)
        if V.WIDTH[src] < V.WIDTH[t]:
            return self.cast("arith.extf", self.tree(src, depth - 1, no_mul), src, t)
        return self.cast("arith.truncf", self.tree(src, depth - 1), src, t)

    def float_to_int(self, x, src, t):
        """fptosi/fptoui of x clamped into t's range (NaN -> 0)."""
        rng = self.rng
        signed = rng.random() < 0.5
        w = V.WIDTH[t]
        top = (1 << (w - 1)) if signed else (1 << w)
        p = V.FLOATS[src]
        hi = float(top - (1 << max(0, w - (1 if signed else 0) - p)))
        hi = min(hi, V.LIMITS[src][0])
        lo = -min(float(top), V.LIMITS[src][0]) if signed else 0.0
        hi_c, lo_c = self.const(src, hi), self.const(src, lo)
        x1 = self.select(self.cmp("cmpf", "ogt", x, hi_c, src), hi_c, x, src)
        x2 = self.select(self.cmp("cmpf", "olt", x1, lo_c, src), lo_c, x1, src)
        x3 = self.select(self.cmp("cmpf", "uno", x, x, src), self.const(src, 0.0), x2, src)
        return self.cast("arith.fptosi" if signed else "arith.fptoui", x3, src, t)

    def transcendental(self, t, op, args):
        """op over args (inputs drawn from its domain), then maybe a negf,
        absf or a conversion to another float type; returns (value, type)."""
        x = self.op(op, args, t)
        r = self.rng.random()
        if r < 0.2:
            return self.op(self.rng.choice(("arith.negf", "math.absf")), [x], t), t
        if r < 0.3 and t != "f64":
            wide = "f64" if t == "f32" else "f32"
            return self.cast("arith.extf", x, t, wide), wide
        if r < 0.4 and t in ("f32", "f64"):
            narrow = self.rng.choice(("f16", "bf16") if t == "f32" else ("f32", "f16"))
            return self.cast("arith.truncf", x, t, narrow), narrow
        return x, t


def transcendental_tolerance(op, t, out):
    """(rel, abs) of a transcendental op computed in t, returned as out."""
    _, ulps, absolute = TRANSCENDENTAL[op]
    rel = max(ulps * 2.0 ** (1 - V.FLOATS[t]), 2.0 ** (1 - V.FLOATS[out]))
    # Results near the smallest normal may be flushed by the device library.
    return rel, max(absolute, V.LIMITS["f32"][1] if out != "f64" else 0.0)


def domain_value(rng, t, domain, specials):
    """A value for a transcendental argument from its domain (with
    specials, and negatives for the positive log-scale domains)."""
    lo, hi, log_scale = domain
    r = rng.random()
    if r < 0.12 and specials:
        x = rng.choice(specials)
    elif log_scale:
        x = 2.0 ** rng.uniform(lo, hi) * (-1 if r < 0.17 else 1)
    else:
        x = rng.uniform(lo, hi)
    if t == "f16" and math.isfinite(x):
        x = max(-60000.0, min(60000.0, x))
    return V.from_bits(t, V.to_bits(t, x)) if t != "f64" else x


class Program:
    """One generated program: its text, inputs and per-result tolerances."""

    def __init__(self, seed):
        self.seed = seed
        self.rng = random.Random(seed)
        self.args = []        # (name, mlir type)
        self.inputs = []      # --input= flag values (without the flag)
        self.body = []        # lines of @main
        self.results = []     # (ssa name, mlir tensor type, element type)
        self.tolerances = []  # per result: None (exact) or (rel, abs)
        self.compile_flags = ["--iree-input-demote-f64-to-f32=false"]
        self.kind = self.rng.choice(
            ["elementwise"] * 8 + ["tensor_ops"] * 3 + ["reduction"] * 3 + ["matmul"] * 2
            + ["batch_matmul", "conv2d", "conv2d"] + ["movement"] * 2 + ["dynamic"] * 2
            + ["gather"] * 2)
        self.ops = set()
        getattr(self, "gen_" + self.kind)()

    # ---- inputs ------------------------------------------------------------

    def add_input(self, shape, t, values, dynamic=False):
        """A function argument of shape and element type t with values."""
        name = f"%a{len(self.args)}"
        dims = "".join("?x" if dynamic else f"{d}x" for d in shape)
        self.args.append((name, f"tensor<{dims}{t}>"))
        text = [V.float_text(x) if t in V.FLOATS else str(x) for x in values]
        self.inputs.append("".join(f"{d}x" for d in shape) + f"{t}=" + " ".join(text))
        return name

    def random_values(self, t, n):
        """n values of type t for element-wise programs."""
        if t in V.FLOATS:
            return [V.random_float(self.rng, t) for _ in range(n)]
        return [V.random_int(self.rng, t) for _ in range(n)]

    def shape(self, pools):
        """A shape with a size from each pool, at most MAX_ELEMENTS."""
        while True:
            shape = [self.rng.choice(p) for p in pools]
            if math.prod(shape) <= MAX_ELEMENTS:
                return shape

    def tensor(self, shape, t):
        """The MLIR tensor type."""
        return "tensor<" + "".join(f"{d}x" for d in shape) + t + ">"

    def some_types(self, k):
        """k element types (no i1: IREE's inputs are bytes), one often
        repeated."""
        pool = ("i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64")
        main = self.rng.choice(pool)
        return [main if self.rng.random() < 0.5 else self.rng.choice(pool) for _ in range(k)]

    def result(self, name, shape, t, tolerance=None):
        """Returns name (of shape and element type t) from @main."""
        self.results.append((name, self.tensor(shape, t), t))
        self.tolerances.append(tolerance)

    # ---- element-wise --------------------------------------------------------

    def gen_elementwise(self):
        """A linalg.generic over 1-D or 2-D shapes whose operands may be
        transposed or broadcast, yielding 1-3 expression trees."""
        rng = self.rng
        rank = rng.choice((1, 2, 2))
        shape = self.shape([SIZES] if rank == 1 else [SMALL, SIZES[:12]])
        dims = ", ".join(f"d{i}" for i in range(rank))
        maps, operands, leaves, block = [], [], {}, []
        for t in self.some_types(rng.randint(1, 4)):
            form = rng.choice(("id", "id", "transpose", "row", "col")) if rank == 2 else "id"
            in_shape, expr = {"id": (shape, dims), "transpose": (shape[::-1], "d1, d0"),
                              "row": (shape[1:], "d1"), "col": (shape[:1], "d0")}[form]
            name = self.add_input(in_shape, t, self.random_values(t, math.prod(in_shape)))
            maps.append(f"affine_map<({dims}) -> ({expr})>")
            operands.append((name, self.tensor(in_shape, t)))
            arg = f"%x{len(block)}"
            block.append(f"{arg}: {t}")
            leaves.setdefault(t, []).append(arg)
        e = Expr(rng, leaves)
        outs = []
        for _ in range(rng.randint(1, 3)):
            outs.append(self.output_expr(e, leaves, block, maps, operands, shape, dims))
        for i, (v, t, _) in enumerate(outs):
            self.body.append(f"%e{i} = tensor.empty() : {self.tensor(shape, t)}")
            maps.append(f"affine_map<({dims}) -> ({dims})>")
            block.append(f"%o{i}: {t}")
        iters = ", ".join(['"parallel"'] * rank)
        ins = ", ".join(n for n, _ in operands)
        in_types = ", ".join(ty for _, ty in operands)
        out_names = ", ".join(f"%e{i}" for i in range(len(outs)))
        out_types = ", ".join(self.tensor(shape, t) for _, t, _ in outs)
        self.body.append(f"%g:{len(outs)} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                         f"iterator_types = [{iters}]}} ins({ins} : {in_types}) "
                         f"outs({out_names} : {out_types}) {{")
        self.body.append(f"^bb0({', '.join(block)}):")
        self.body += ["  " + line for line in e.lines]
        self.body.append(f"  linalg.yield {', '.join(v for v, _, _ in outs)} : "
                         f"{', '.join(t for _, t, _ in outs)}")
        self.body.append(f"}} -> ({out_types})")
        for i, (_, t, tol) in enumerate(outs):
            self.result(f"%g#{i}", shape, t, tol)
        self.ops |= e.ops

    def output_expr(self, e, leaves, block, maps, operands, shape, dims):
        """One yielded value: an exact tree, or a transcendental function of
        fresh inputs from its domain. Returns (value, type, tolerance)."""
        rng = self.rng
        floats = [t for t in leaves if t in V.FLOATS]
        if floats and rng.random() < 0.3:
            t = rng.choice(floats)
            ops = [o for o in TRANSCENDENTAL if o not in CPU_LACKS.get(t, ())
                   and (t not in ("f16", "bf16") or o not in NARROW_INEXACT)]
            op = rng.choice(ops)
            args = []
            for domain in TRANSCENDENTAL[op][0]:
                specials = () if op in NO_SPECIALS else TRANSCENDENTAL_SPECIALS
                vals = [domain_value(rng, t, domain, specials) for _ in range(math.prod(shape))]
                name = self.add_input(shape, t, vals)
                maps.append(f"affine_map<({dims}) -> ({dims})>")
                operands.append((name, self.tensor(shape, t)))
                arg = f"%x{len(block)}"
                block.append(f"{arg}: {t}")
                args.append(arg)
            v, out = e.transcendental(t, op, args)
            return v, out, transcendental_tolerance(op, t, out)
        t = rng.choice(list(leaves) + ["i1", rng.choice(list(leaves))])
        return e.root(t, rng.randint(1, 4)), t, None

    def gen_tensor_ops(self):
        """Expression trees of arith/math ops on whole tensors (IREE turns
        them into linalg itself)."""
        rng = self.rng
        shape = self.shape([SIZES] + ([SMALL] if rng.random() < 0.4 else []))
        leaves = {}
        for t in self.some_types(rng.randint(1, 3)):
            leaves.setdefault(t, []).append(
                self.add_input(shape, t, self.random_values(t, math.prod(shape))))
        e = Expr(rng, leaves, shape=shape)
        for _ in range(rng.randint(1, 2)):
            t = rng.choice(list(leaves) + ["i1"])
            self.result(e.root(t, rng.randint(1, 3)), shape, t)
        self.body += e.lines
        self.ops |= e.ops

    # ---- reductions and contractions ---------------------------------------

    def gen_reduction(self):
        """A sum/product/min/max/bitwise reduction over rows, columns or a
        whole tensor; float sums over exact binary fractions."""
        rng = self.rng
        t = rng.choice(("i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"))
        shape = self.shape([SMALL, SIZES])
        axis = rng.choice((0, 1, None))
        n = math.prod(shape) if axis is None else shape[axis]
        if t in V.FLOATS:
            combiner = rng.choice(("arith.addf", "arith.addf", "arith.maxnumf", "arith.minnumf",
                                   "arith.maximumf", "arith.minimumf"))
            if combiner in CPU_LACKS.get(t, ()):
                combiner = "arith.addf"
            if combiner == "arith.addf":
                scale = V.exact_scale(t, n, False)
                vals = [V.exact_float(rng, scale) for _ in range(math.prod(shape))]
                for _ in range(rng.choice((0, 0, 1, 2))):
                    vals[rng.randrange(len(vals))] = rng.choice((math.inf, -math.inf, math.nan))
                init = 0.0
            else:
                # Zeros of one sign (min/max of +0 and -0 may return either);
                # minimumf/maximumf without NaN (docs/IREE-DEFECTS.md, item 5).
                nan_ok = combiner in ("arith.maxnumf", "arith.minnumf")
                vals = [x for x in self.random_values(t, 4 * math.prod(shape))
                        if not (x == 0 and math.copysign(1, x) < 0)
                        and (nan_ok or not math.isnan(x))][:math.prod(shape)]
                while len(vals) < math.prod(shape):
                    vals.append(1.0)
                init = -math.inf if "max" in combiner else math.inf
        else:
            combiner = rng.choice(("arith.addi", "arith.muli", "arith.maxsi", "arith.minsi",
                                   "arith.maxui", "arith.minui", "arith.andi", "arith.ori",
                                   "arith.xori"))
            vals = self.random_values(t, math.prod(shape))
            lo, hi = V.int_range(t)
            init = {"arith.muli": 1, "arith.maxsi": lo, "arith.minsi": hi, "arith.minui": -1,
                    "arith.andi": -1}.get(combiner, 0)
        src = self.add_input(shape, t, vals)
        out_shape = [] if axis is None else [shape[1 - axis]]
        self.reduce(src, shape, t, axis, out_shape, combiner, init)

    def reduce(self, src, shape, t, axis, out_shape, combiner, init, dynamic_dims=None):
        """Emits a fill and a reducing linalg.generic into a result."""
        lit = V.mlir_float(t, init) if t in V.FLOATS else mlir_int(t, init)
        out_ty = self.tensor(["?"] * len(out_shape) if dynamic_dims else out_shape, t)
        self.body.append(f"%init = arith.constant {lit} : {t}")
        empty_args = f"({', '.join(dynamic_dims)})" if dynamic_dims else "()"
        self.body.append(f"%re = tensor.empty{empty_args} : {out_ty}")
        self.body.append(f"%rf = linalg.fill ins(%init : {t}) outs(%re : {out_ty}) -> {out_ty}")
        out_map = "()" if axis is None else f"(d{1 - axis})"
        iters = ['"parallel"', '"reduction"'] if axis == 1 else ['"reduction"', '"parallel"']
        if axis is None:
            iters = ['"reduction"', '"reduction"']
        in_ty = self.args[[a for a, _ in self.args].index(src)][1]
        self.body.append(
            f"%r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
            f"affine_map<(d0, d1) -> {out_map}>], iterator_types = [{', '.join(iters)}]}} "
            f"ins({src} : {in_ty}) outs(%rf : {out_ty}) {{")
        self.body.append(f"^bb0(%x: {t}, %acc: {t}):")
        self.body.append(f"  %s = {combiner} %x, %acc : {t}")
        self.body.append(f"  linalg.yield %s : {t}")
        self.body.append(f"}} -> {out_ty}")
        self.ops.add(f"{combiner}:{t}:reduction")
        self.results.append(("%r", out_ty, t))
        self.tolerances.append(None)

    def contraction_types(self):
        """(input type, accumulator type) of a matmul or convolution."""
        return self.rng.choice((("f32", "f32"), ("f16", "f32"), ("f16", "f16"), ("bf16", "f32"),
                                ("f64", "f64"), ("i8", "i32"), ("i32", "i32"), ("i16", "i32"),
                                ("i64", "i64")))

    def contraction_values(self, t, acc, n, terms):
        """n inputs for a contraction of `terms` products: exact binary
        fractions for floats (with a rare inf/NaN), any integers."""
        if t in V.INTS:
            return self.random_values(t, n)
        scale = V.exact_scale(acc, terms, True)
        vals = [V.exact_float(self.rng, scale) for _ in range(n)]
        if self.rng.random() < 0.2:
            vals[self.rng.randrange(n)] = self.rng.choice((math.inf, -math.inf, math.nan))
        return vals

    def zero_fill(self, shape, acc):
        """tensor.empty + linalg.fill with zero; returns the filled value."""
        ty = self.tensor(shape, acc)
        zero = "0.0" if acc in V.FLOATS else "0"
        self.body.append(f"%zero = arith.constant {zero} : {acc}")
        self.body.append(f"%ze = tensor.empty() : {ty}")
        self.body.append(f"%zf = linalg.fill ins(%zero : {acc}) outs(%ze : {ty}) -> {ty}")
        return "%zf", ty

    def gen_matmul(self):
        """linalg.matmul with sizes tiles do not divide."""
        rng = self.rng
        t, acc = self.contraction_types()
        m, k, n = rng.choice(SMALL + (61, 65)), rng.choice(SMALL + (64,)), rng.choice(SMALL + (67,))
        a = self.add_input([m, k], t, self.contraction_values(t, acc, m * k, k))
        b = self.add_input([k, n], t, self.contraction_values(t, acc, k * n, k))
        fill, ty = self.zero_fill([m, n], acc)
        self.body.append(f"%mm = linalg.matmul ins({a}, {b} : {self.tensor([m, k], t)}, "
                         f"{self.tensor([k, n], t)}) outs({fill} : {ty}) -> {ty}")
        self.ops.add(f"linalg.matmul:{t}:{acc}")
        self.result("%mm", [m, n], acc)

    def gen_batch_matmul(self):
        """linalg.batch_matmul."""
        rng = self.rng
        t, acc = self.contraction_types()
        bs, m, k, n = self.shape([(1, 2, 3, 5), SMALL, SMALL, SMALL])
        while bs * k * n > MAX_ELEMENTS:
            n = rng.choice(SMALL[:8])
        a = self.add_input([bs, m, k], t, self.contraction_values(t, acc, bs * m * k, k))
        b = self.add_input([bs, k, n], t, self.contraction_values(t, acc, bs * k * n, k))
        fill, ty = self.zero_fill([bs, m, n], acc)
        self.body.append(f"%mm = linalg.batch_matmul ins({a}, {b} : {self.tensor([bs, m, k], t)}, "
                         f"{self.tensor([bs, k, n], t)}) outs({fill} : {ty}) -> {ty}")
        self.ops.add(f"linalg.batch_matmul:{t}:{acc}")
        self.result("%mm", [bs, m, n], acc)

    def gen_conv2d(self):
        """linalg.conv_2d_nhwc_hwcf with odd sizes, strides and dilations."""
        rng = self.rng
        t, acc = self.contraction_types()
        nb, c, f = rng.choice((1, 2)), rng.choice((1, 2, 3, 5)), rng.choice((1, 3, 4, 7))
        kh, kw = rng.choice((1, 2, 3)), rng.choice((1, 3))
        sh, dil = rng.choice((1, 1, 2)), rng.choice((1, 1, 2))
        h, w = rng.choice((5, 7, 9, 11, 13)), rng.choice((5, 6, 9, 17))
        oh, ow = (h - dil * (kh - 1) - 1) // sh + 1, (w - dil * (kw - 1) - 1) // sh + 1
        terms = kh * kw * c
        x = self.add_input([nb, h, w, c], t, self.contraction_values(t, acc, nb * h * w * c, terms))
        k = self.add_input([kh, kw, c, f], t, self.contraction_values(t, acc, kh * kw * c * f, terms))
        fill, ty = self.zero_fill([nb, oh, ow, f], acc)
        self.body.append(
            f"%cv = linalg.conv_2d_nhwc_hwcf {{dilations = dense<{dil}> : tensor<2xi64>, "
            f"strides = dense<{sh}> : tensor<2xi64>}} ins({x}, {k} : "
            f"{self.tensor([nb, h, w, c], t)}, {self.tensor([kh, kw, c, f], t)}) "
            f"outs({fill} : {ty}) -> {ty}")
        self.ops.add(f"linalg.conv_2d_nhwc_hwcf:{t}:{acc}")
        self.result("%cv", [nb, oh, ow, f], acc)

    # ---- data movement, dynamic shapes, gathers ------------------------------

    def gen_movement(self):
        """A transpose, broadcast, strided slice or concatenation, maybe
        followed by an element-wise op."""
        rng = self.rng
        t = rng.choice(("i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"))
        shape = self.shape([SMALL] * rng.choice((2, 3)))
        a = self.add_input(shape, t, self.random_values(t, math.prod(shape)))
        form = rng.choice(("transpose", "broadcast", "slice", "concat"))
        if form == "transpose":
            perm = list(range(len(shape)))
            while perm == sorted(perm):
                rng.shuffle(perm)
            out = [shape[p] for p in perm]
            self.body.append(f"%me = tensor.empty() : {self.tensor(out, t)}")
            self.body.append(f"%m = linalg.transpose ins({a} : {self.tensor(shape, t)}) "
                             f"outs(%me : {self.tensor(out, t)}) permutation = [{', '.join(map(str, perm))}]")
        elif form == "broadcast":
            at = rng.randrange(len(shape) + 1)
            out = shape[:at] + [rng.choice(SMALL[:8])] + shape[at:]
            self.body.append(f"%me = tensor.empty() : {self.tensor(out, t)}")
            self.body.append(f"%m = linalg.broadcast ins({a} : {self.tensor(shape, t)}) "
                             f"outs(%me : {self.tensor(out, t)}) dimensions = [{at}]")
        elif form == "slice":
            offs = [rng.randrange(d) for d in shape]
            strides = [rng.choice((1, 2, 3)) for _ in shape]
            out = [rng.randint(1, (d - o - 1) // s + 1) for d, o, s in zip(shape, offs, strides)]
            self.body.append(
                f"%m = tensor.extract_slice {a}[{', '.join(map(str, offs))}] "
                f"[{', '.join(map(str, out))}] [{', '.join(map(str, strides))}] : "
                f"{self.tensor(shape, t)} to {self.tensor(out, t)}")
        else:
            dim = rng.randrange(len(shape))
            other = list(shape)
            other[dim] = rng.choice(SMALL[:6])
            b = self.add_input(other, t, self.random_values(t, math.prod(other)))
            out = list(shape)
            out[dim] += other[dim]
            self.body.append(f"%m = tensor.concat dim({dim}) {a}, {b} : ({self.tensor(shape, t)}, "
                             f"{self.tensor(other, t)}) -> {self.tensor(out, t)}")
        self.ops.add(f"{form}:{t}")
        if rng.random() < 0.5:
            e = Expr(rng, {t: ["%m"]}, shape=out, prefix="%w")
            self.result(e.root(t, 2), out, t)
            self.body += e.lines
            self.ops |= e.ops
        else:
            self.result("%m", out, t)

    def gen_dynamic(self):
        """Element-wise trees or a reduction over tensor<?x?xT> arguments
        whose sizes come at run time."""
        rng = self.rng
        shape = self.shape([SIZES[:12], SMALL])
        types = self.some_types(rng.randint(1, 3))
        names = [self.add_input(shape, t, self.random_values(t, math.prod(shape)), dynamic=True)
                 for t in types]
        dyn_ty = lambda t: "tensor<?x?x" + t + ">"  # noqa: E731
        self.body.append("%c0 = arith.constant 0 : index")
        self.body.append("%c1 = arith.constant 1 : index")
        self.body.append(f"%d0 = tensor.dim {names[0]}, %c0 : {dyn_ty(types[0])}")
        self.body.append(f"%d1 = tensor.dim {names[0]}, %c1 : {dyn_ty(types[0])}")
        if rng.random() < 0.3 and types[0] in V.INTS:
            t = types[0]
            combiner = rng.choice(("arith.addi", "arith.xori", "arith.maxsi", "arith.minui"))
            lo, hi = V.int_range(t)
            init = {"arith.maxsi": lo, "arith.minui": -1}.get(combiner, 0)
            self.reduce(names[0], shape, t, 1, [shape[0]], combiner, init, dynamic_dims=["%d0"])
            return
        leaves = {}
        block = []
        for n, t in zip(names, types):
            arg = f"%x{len(block)}"
            block.append(f"{arg}: {t}")
            leaves.setdefault(t, []).append(arg)
        e = Expr(rng, leaves)
        t = rng.choice(types + ["i1"])
        v = e.root(t, rng.randint(1, 3))
        idm = "affine_map<(d0, d1) -> (d0, d1)>"
        self.body.append(f"%de = tensor.empty(%d0, %d1) : {dyn_ty(t)}")
        self.body.append(
            f"%dg = linalg.generic {{indexing_maps = [{', '.join([idm] * (len(names) + 1))}], "
            f"iterator_types = [\"parallel\", \"parallel\"]}} ins({', '.join(names)} : "
            f"{', '.join(dyn_ty(t) for t in types)}) outs(%de : {dyn_ty(t)}) {{")
        self.body.append(f"^bb0({', '.join(block)}, %o: {t}):")
        self.body += ["  " + line for line in e.lines]
        self.body.append(f"  linalg.yield {v} : {t}")
        self.body.append(f"}} -> {dyn_ty(t)}")
        self.ops |= e.ops
        self.results.append(("%dg", dyn_ty(t), t))
        self.tolerances.append(None)

    def gen_gather(self):
        """Rows of a table gathered by indices (remui'd into range) or by
        computed indices (d0 * 7 + 3 mod rows), through tensor.extract."""
        rng = self.rng
        t = rng.choice(("i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"))
        rows, cols, m = rng.choice(SMALL), rng.choice(SMALL), rng.choice(SIZES[:13])
        table = self.add_input([rows, cols], t, self.random_values(t, rows * cols))
        out_ty = self.tensor([m, cols], t)
        self.body.append(f"%ge = tensor.empty() : {out_ty}")
        if rng.random() < 0.6:
            idx = self.add_input([m], "i32", [V.random_int(rng, "i32") for _ in range(m)])
            ins = f"ins({idx} : tensor<{m}xi32>) "
            maps = "affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>"
            head = f"^bb0(%i: i32, %o: {t}):"
            index = [f"  %n = arith.constant {rows} : i32", "  %m = arith.remui %i, %n : i32",
                     "  %j = arith.index_castui %m : i32 to index"]
        else:
            ins = ""
            maps = "affine_map<(d0, d1) -> (d0, d1)>"
            head = f"^bb0(%o: {t}):"
            index = ["  %i = linalg.index 0 : index", "  %c7 = arith.constant 7 : index",
                     "  %c3 = arith.constant 3 : index", f"  %n = arith.constant {rows} : index",
                     "  %p = arith.muli %i, %c7 : index", "  %q = arith.addi %p, %c3 : index",
                     "  %j = arith.remui %q, %n : index"]
        self.body.append(f"%g = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
                         f"[\"parallel\", \"parallel\"]}} {ins}outs(%ge : {out_ty}) {{")
        self.body.append(head)
        self.body += index
        self.body.append("  %k = linalg.index 1 : index")
        self.body.append(f"  %v = tensor.extract {table}[%j, %k] : {self.tensor([rows, cols], t)}")
        self.body.append(f"  linalg.yield %v : {t}")
        self.body.append(f"}} -> {out_ty}")
        self.ops.add(f"gather:{t}")
        self.result("%g", [m, cols], t)

    # ---- text ----------------------------------------------------------------

    def returns(self):
        """Lines converting each result to integers, and the return types."""
        lines, names, types = [], [], []
        for i, (name, ty, t) in enumerate(self.results):
            if t in V.INTS and t != "i1":
                names.append(name)
                types.append(ty)
                continue
            out_ty = ty.replace(f"x{t}>", f"x{V.bits_type(t)}>").replace(f"<{t}>", f"<{V.bits_type(t)}>")
            op = "arith.extui" if t == "i1" else "arith.bitcast"
            lines.append(f"%ret{i} = {op} {name} : {ty} to {out_ty}")
            names.append(f"%ret{i}")
            types.append(out_ty)
        return lines, names, types

    def text(self):
        """The program: a header (seed, kind, inputs, result types and
        tolerances) and func.func @main."""
        lines, names, types = self.returns()
        head = [f"// iree-diff seed {self.seed}: {self.kind}"]
        head.append("// RESULTS: " + " ".join(
            f"{t}:" + ("exact" if tol is None else f"rel={tol[0]:.3g},abs={tol[1]:.3g}")
            for (_, _, t), tol in zip(self.results, self.tolerances)))
        head.append("// COMPILE-FLAGS: " + " ".join(self.compile_flags))
        for inp in self.inputs:
            head.append(f"// INPUTS: --input=\"{inp}\"")
        sig = ", ".join(f"{n}: {ty}" for n, ty in self.args)
        head.append(f"func.func @main({sig}) -> ({', '.join(types)}) {{")
        body = ["  " + line for line in self.body + lines]
        body.append(f"  return {', '.join(names)} : {', '.join(types)}")
        return "\n".join(head + body + ["}"]) + "\n"

    def input_flags(self):
        """The iree-run-module --input flags."""
        return [f"--input={inp}" for inp in self.inputs]
