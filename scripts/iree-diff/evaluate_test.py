#!/usr/bin/env python3
"""evaluate.py against values worked out by hand from IEEE 754 and MLIR's
arith semantics (not from the evaluator, IREE or the simulator).
Run: python3 scripts/iree-diff/evaluate_test.py (tests/it/sim/iree_diff.rs
does)."""
import math
import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evaluate as E  # noqa: E402
import values as V  # noqa: E402

# Seed 888's element [4, 6] (docs/IREE-DIFF.md), cut to the ops on its path:
# the quotient 6.54e-25 / 1.4378e14 = 4.5493e-39 is an f32 denormal; kept,
# fma(-6.1722e36, q, -13.5) is -13.528079 and the product with 6.1722e36 is
# -8.34981e37 (0xfe7b449a); flushed, the fma is -13.5 and the product
# -8.33248e37 (0xfe7abf17), what IREE's CPU printed.
SEED_888 = """func.func @main(%a0: tensor<1xf32>, %a1: tensor<1xf32>) -> (tensor<1xi32>) {
  %g:1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, \
affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a0, %a1 : tensor<1xf32>, \
tensor<1xf32>) outs(%e0 : tensor<1xf32>) {
  ^bb0(%x0: f32, %x1: f32, %o0: f32):
    %v1 = arith.constant 0x5702D286 : f32
    %v8 = arith.divf %x1, %v1 : f32
    %v9 = arith.constant -13.5 : bf16
    %v10 = arith.extf %v9 : bf16 to f32
    %v11 = math.fma %x0, %v8, %v10 : f32
    %v13 = arith.negf %x0 : f32
    %v14 = arith.mulf %v11, %v13 : f32
    linalg.yield %v14 : f32
  } -> (tensor<1xf32>)
}
"""


def bits32(x):
    return V.to_bits("f32", x)


class Rounding(unittest.TestCase):
    def test_ties_go_to_even(self):
        one = 1.0
        self.assertEqual(E.round_to("f32", E.Fraction(1) + E.Fraction(1, 2**24)), one)
        self.assertEqual(E.round_to("f32", E.Fraction(1) + E.Fraction(3, 2**25)), 1 + 2**-23)
        # 1.5 units of f32's smallest denormal: a tie, to the even 2 units.
        self.assertEqual(E.round_to("f32", E.Fraction(3, 2**150)), 2.0**-148)
        # f16: 2^-25 is half its smallest denormal, a tie to 0; 3 * 2^-26 rounds up.
        self.assertEqual(E.round_to("f16", E.Fraction(1, 2**25)), 0.0)
        self.assertEqual(E.round_to("f16", E.Fraction(3, 2**26)), 2.0**-24)

    def test_overflow_and_the_largest_finite(self):
        self.assertEqual(E.round_to("f16", E.Fraction(65519)), 65504.0)
        self.assertEqual(E.round_to("f16", E.Fraction(65520)), math.inf)
        self.assertEqual(E.round_to("bf16", E.Fraction(-(2**128))), -math.inf)

    def test_a_product_that_underflows_keeps_its_sign(self):
        tiny = 2.0**-100
        self.assertEqual(math.copysign(1, E.float_op("arith.mulf", "f32", [-tiny, tiny])), -1)


class Operations(unittest.TestCase):
    def test_signed_divisions_round_as_named(self):
        t, seven, two = "i8", E.wrap("i8", -7), 2
        self.assertEqual(E.signed(t, E.int_op("arith.divsi", t, [seven, two])), -3)
        self.assertEqual(E.signed(t, E.int_op("arith.remsi", t, [seven, two])), -1)
        self.assertEqual(E.signed(t, E.int_op("arith.floordivsi", t, [seven, two])), -4)
        self.assertEqual(E.signed(t, E.int_op("arith.ceildivsi", t, [seven, two])), -3)
        self.assertEqual(E.int_op("arith.ceildivsi", t, [7, 2]), 4)
        self.assertEqual(E.int_op("arith.ceildivui", t, [E.wrap(t, -7), 2]), 125)

    def test_bit_counts_and_abs(self):
        self.assertEqual(E.int_op("math.ctlz", "i16", [1]), 15)
        self.assertEqual(E.int_op("math.cttz", "i16", [0]), 16)
        self.assertEqual(E.int_op("math.ctpop", "i32", [0xF0F0]), 8)
        self.assertEqual(E.signed("i8", E.int_op("math.absi", "i8", [0x80])), -128)
        self.assertEqual(E.signed("i8", E.int_op("arith.shrsi", "i8", [0x80, 7])), -1)

    def test_zero_signs_of_min_max_and_rounding(self):
        self.assertEqual(math.copysign(1, E.float_op("arith.minimumf", "f32", [0.0, -0.0])), -1)
        self.assertEqual(math.copysign(1, E.float_op("arith.maximumf", "f32", [0.0, -0.0])), 1)
        self.assertTrue(math.isnan(E.float_op("arith.maximumf", "f32", [math.nan, 1.0])))
        self.assertEqual(E.float_op("arith.maxnumf", "f32", [math.nan, 1.0]), 1.0)
        self.assertEqual(math.copysign(1, E.float_op("math.ceil", "f32", [-0.5])), -1)
        self.assertEqual(E.float_op("math.round", "f32", [-2.5]), -3.0)
        self.assertEqual(E.float_op("math.roundeven", "f32", [-2.5]), -2.0)
        self.assertEqual(E.float_op("arith.subf", "f32", [1.0, 1.0]), 0.0)
        self.assertEqual(math.copysign(1, E.float_op("arith.addf", "f32", [-0.0, -0.0])), -1)

    def test_fma_rounds_once(self):
        # (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24: exact in one rounding, lost
        # (2^-11) when the product is rounded to f32 first.
        x = 1 + 2.0**-12
        self.assertEqual(E.float_op("math.fma", "f32", [x, x, -1.0]), 2.0**-11 + 2.0**-24)

    def test_unordered_comparisons(self):
        self.assertEqual(E.compare("arith.cmpf", "une", "f32", math.nan, 1.0), 1)
        self.assertEqual(E.compare("arith.cmpf", "one", "f32", math.nan, 1.0), 0)
        self.assertEqual(E.compare("arith.cmpi", "ult", "i8", 0xFF, 1), 0)
        self.assertEqual(E.compare("arith.cmpi", "slt", "i8", 0xFF, 1), 1)


class Programs(unittest.TestCase):
    INPUTS = ["1xf32=-6.172207251969052e+36", "1xf32=6.543791028463612e-25"]

    def test_seed_888_keeps_the_denormal_quotient(self):
        values, denormal = E.Generic(SEED_888, self.INPUTS).element([0])
        self.assertTrue(denormal)
        self.assertEqual(bits32(values[0][0]), 0xFE7B449A)

    def test_the_verdict_names_the_gpu_right_only_where_it_is(self):
        class Printed:
            def __init__(self, bits):
                self.tokens, self.shape = [str(E.signed("i32", bits))], [1]
        gpu, cpu = Printed(0xFE7B449A), Printed(0xFE7ABF17)
        self.assertIs(E.flushed_intermediate(SEED_888, self.INPUTS, [gpu], [cpu]), True)
        self.assertIs(E.flushed_intermediate(SEED_888, self.INPUTS, [cpu], [gpu]), False)
        self.assertIsNone(E.flushed_intermediate(SEED_888.replace("math.fma", "math.tan"),
                                                 self.INPUTS, [gpu], [cpu]))

    def test_only_the_failing_result_is_computed(self):
        # result 0 is exact; result 1 a function the evaluator lacks (tan)
        text = SEED_888.replace("linalg.yield %v14 : f32", "%v15 = math.tan %x0 : f32\n"
                                "    linalg.yield %v14, %v15 : f32, f32")
        values, denormal = E.Generic(text, self.INPUTS).element([0], [0])
        self.assertEqual(bits32(values[0][0]), 0xFE7B449A)
        self.assertIsNone(values[1][0])
        self.assertTrue(denormal)
        with self.assertRaises(E.Decline):
            E.Generic(text, self.INPUTS).element([0])

    def test_a_select_computes_only_its_chosen_operand(self):
        text = SEED_888.replace("linalg.yield %v14 : f32",
                                "%c = arith.constant true\n    %s = math.tan %x0 : f32\n"
                                "    %r = arith.select %c, %v14, %s : f32\n    linalg.yield %r : f32")
        values, _ = E.Generic(text, self.INPUTS).element([0])
        self.assertEqual(bits32(values[0][0]), 0xFE7B449A)


# Seed 1029's form (movement, f16): (m * m) / m of the transpose m. For
# 2^-10 the square 2^-20 is an f16 denormal (the smallest normal is
# 2^-14); kept, the quotient is 2^-10 again (0x1400); flushed, 0.
TRANSPOSE = """func.func @main(%a0: tensor<2x3xf16>) -> (tensor<3x2xi16>) {
  %me = tensor.empty() : tensor<3x2xf16>
  %m = linalg.transpose ins(%a0 : tensor<2x3xf16>) outs(%me : tensor<3x2xf16>) permutation = [1, 0]
  %w0 = arith.mulf %m, %m : tensor<3x2xf16>
  %w1 = arith.divf %w0, %m : tensor<3x2xf16>
  %ret0 = arith.bitcast %w1 : tensor<3x2xf16> to tensor<3x2xi16>
  return %ret0 : tensor<3x2xi16>
}
"""

# Seed 7364's form (movement, broadcast): truncf f32 -> f16 of 2^-20, an
# f16 denormal held exactly, extended back to f32 (0x35800000).
BROADCAST = """func.func @main(%a0: tensor<2xf32>) -> (tensor<2x3xi32>) {
  %me = tensor.empty() : tensor<2x3xf32>
  %m = linalg.broadcast ins(%a0 : tensor<2xf32>) outs(%me : tensor<2x3xf32>) dimensions = [1]
  %w0 = arith.truncf %m : tensor<2x3xf32> to tensor<2x3xf16>
  %w1 = arith.extf %w0 : tensor<2x3xf16> to tensor<2x3xf32>
  %ret0 = arith.bitcast %w1 : tensor<2x3xf32> to tensor<2x3xi32>
  return %ret0 : tensor<2x3xi32>
}
"""


class TensorPrograms(unittest.TestCase):
    def test_transpose_maps_the_index_and_keeps_the_denormal_square(self):
        inputs = ["2x3xf16=1 2 3 4 5 0.0009765625"]
        t = E.evaluator("movement", TRANSPOSE, inputs)
        values, denormal = t.element([2, 1])   # the input's [1, 2]
        self.assertEqual(V.to_bits("f16", values[0][0]), 0x1400)
        self.assertTrue(denormal)
        values, denormal = t.element([1, 0])   # the input's [0, 1] = 2
        self.assertEqual(values[0][0], 2.0)
        self.assertFalse(denormal)

    def test_broadcast_and_a_narrow_denormal(self):
        t = E.evaluator("movement", BROADCAST, ["2xf32=1.0 9.5367431640625e-07"])
        values, denormal = t.element([1, 2])
        self.assertEqual(bits32(values[0][0]), 0x35800000)
        self.assertTrue(denormal)
        self.assertEqual(t.element([0, 1])[0][0][0], 1.0)

    def test_tensor_ops_and_odd_input_decline_quietly(self):
        text = TRANSPOSE.replace("%m = linalg.transpose", "%m = linalg.frobnicate")
        self.assertIsNone(E.evaluator("movement", text, ["2x3xf16=1 2 3 4 5 6"]))
        self.assertIsNone(E.evaluator("tensor_ops", "garbage", []))
        self.assertIsNone(E.flushed_intermediate("garbage", [], [], [], None, "movement"))


class Verdicts(unittest.TestCase):
    INPUTS = Programs.INPUTS

    @staticmethod
    def printed(bits):
        class Printed:
            tokens, shape = [str(E.signed("i32", bits))], [1]
        return Printed

    def test_a_denormal_the_cpu_flushed_and_a_wrong_gpu(self):
        gpu, cpu = self.printed(0xFE7B449A), self.printed(0xFE7ABF17)
        self.assertEqual(E.verdict(SEED_888, self.INPUTS, [gpu], [cpu], [None], 0),
                         "evaluator-agrees-denormal-on-the-way")
        self.assertEqual(E.verdict(SEED_888, self.INPUTS, [cpu], [gpu], [None], 0),
                         "evaluator-disagrees-with-gpu")
        self.assertIsNone(E.verdict(SEED_888.replace("math.fma", "math.tan"), self.INPUTS,
                                    [gpu], [cpu], [None], 0))

    def test_a_transcendental_the_cpu_computed_less_accurately(self):
        # Seed 953: asinh(-8.075872) is -2.7858394261 (Python's double
        # asinh), f32 0xc0324b31, which the GPUs printed; IREE's CPU printed
        # 0xc0324b06, 43 units in the last place away. Tolerance 16 ulps of
        # f32 at 2.8 (rel 1.91e-6), as gen.py gives asinh.
        text = SEED_888.replace("%v14 = arith.mulf %v11, %v13 : f32",
                                "%v14 = math.asinh %x0 : f32")
        inputs = ["1xf32=-8.075872421264648", "1xf32=1.0"]
        gpu, cpu = self.printed(0xC0324B31), self.printed(0xC0324B06)
        tolerance = [(1.91e-6, 1e-7)]
        self.assertEqual(E.verdict(text, inputs, [gpu], [cpu], tolerance, 0),
                         "evaluator-agrees-cpu-transcendental-off")
        self.assertEqual(E.verdict(text, inputs, [cpu], [gpu], tolerance, 0),
                         "evaluator-disagrees-with-gpu")

    def test_a_sign_copied_from_a_nan_is_left_open(self):
        # copysign(x1, x0 - x0) with x0 = NaN: IEEE 754 does not say the
        # NaN's sign, so -x1 and +x1 are both right; a different magnitude
        # is not.
        text = SEED_888.replace("%v14 = arith.mulf %v11, %v13 : f32",
                                "%n = arith.subf %x0, %x0 : f32\n"
                                "    %v14 = math.copysign %x1, %n : f32")
        inputs = ["1xf32=nan", "1xf32=2.0"]
        minus, plus, other = self.printed(0xC0000000), self.printed(0x40000000), self.printed(0x40400000)
        for gpu, cpu in ((minus, plus), (plus, minus)):
            self.assertEqual(E.verdict(text, inputs, [gpu], [cpu], [None], 0),
                             "evaluator-agrees-but-a-nan-sign")
        self.assertEqual(E.verdict(text, inputs, [other], [plus], [None], 0),
                         "evaluator-disagrees-with-gpu")

    def test_ieee_answers_where_python_raises(self):
        self.assertEqual(E.float_op("math.log", "f32", [0.0]), -math.inf)
        self.assertTrue(math.isnan(E.float_op("math.log", "f32", [-1.0])))
        self.assertEqual(E.float_op("math.rsqrt", "f32", [-0.0]), -math.inf)
        self.assertEqual(E.float_op("math.powf", "f32", [-0.0, -3.0]), -math.inf)
        self.assertEqual(E.float_op("math.powf", "f32", [-0.0, -2.0]), math.inf)
        self.assertEqual(E.float_op("math.exp", "f32", [1000.0]), math.inf)


if __name__ == "__main__":
    unittest.main()
