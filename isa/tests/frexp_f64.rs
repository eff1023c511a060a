//! `v_frexp_exp_i32_f64` and `v_frexp_mant_f64`: an f64 as a mantissa in
//! [0.5, 1) times 2 to an exponent (0 for zero, infinity and NaN, which
//! keep their value as the mantissa; a denormal's exponent as if
//! normalized), as C's `frexp`, which LLVM lowers `llvm.frexp` to these
//! for. Expected values from Python's `math.frexp`.

mod handmade;

use amdgpu_isa::Chip;
use handmade::per_lane;

/// Per lane: the input's bits, its exponent, its mantissa's bits.
const LANES: [(u64, i32, u64); 12] = [
    (0x3ff0000000000000, 1, 0x3fe0000000000000), // 1.0: 0.5 * 2^1
    (0x4020000000000000, 4, 0x3fe0000000000000), // 8.0: 0.5 * 2^4
    (0x3fe8000000000000, 0, 0x3fe8000000000000), // 0.75: 0.75 * 2^0
    (0xc008000000000000, 2, 0xbfe8000000000000), // -3.0: -0.75 * 2^2
    (0x7e37e43c8800759c, 997, 0x3fe7e43c8800759c), // 1e+300: 0.7466108948025751 * 2^997
    (0x0000000000000001, -1073, 0x3fe0000000000000), // 5e-324: 0.5 * 2^-1073
    (0x0000000000000000, 0, 0x0000000000000000), // 0.0
    (0x8000000000000000, 0, 0x8000000000000000), // -0.0
    (0x7ff0000000000000, 0, 0x7ff0000000000000), // inf
    (0xfff0000000000000, 0, 0xfff0000000000000), // -inf
    (0x7ff8000000000000, 0, 0x7ff8000000000000), // nan
    (0x0000300000000000, -1028, 0x3fe8000000000000), // 2.6e-310: 0.75 * 2^-1028
];

#[test]
fn frexp_f64_splits_mantissa_and_exponent() {
    let lo: Vec<u32> = LANES.iter().map(|l| l.0 as u32).collect();
    let hi: Vec<u32> = LANES.iter().map(|l| (l.0 >> 32) as u32).collect();
    for (chip, exp, mant, exp_neg_abs) in [
        (
            Chip::Gfx942,
            &[0x7e0c6102u32][..], // v_frexp_exp_i32_f64_e32 v6, v[2:3]
            &[0x7e0c6302u32][..], // v_frexp_mant_f64_e32 v[6:7], v[2:3]
            &[0xd1700106u32, 0x20000102][..], // v_frexp_exp_i32_f64_e64 v6, -|v[2:3]|
        ),
        (
            Chip::Gfx1100,
            &[0x7e0c7902u32][..], // v_frexp_exp_i32_f64_e32 v6, v[2:3]
            &[0x7e0c7b02u32][..], // v_frexp_mant_f64_e32 v[6:7], v[2:3]
            &[0xd5bc0106u32, 0x20000102][..], // v_frexp_exp_i32_f64_e64 v6, -|v[2:3]|
        ),
    ] {
        let exps = per_lane(chip, exp, &[&lo, &hi]);
        let mants = per_lane(chip, mant, &[&lo, &hi]);
        let signless = per_lane(chip, exp_neg_abs, &[&lo, &hi]);
        for (lane, &(x, e, m)) in LANES.iter().enumerate() {
            assert_eq!(exps[lane] as u32 as i32, e, "{chip:?} exponent of {x:#x}");
            assert_eq!(
                signless[lane] as u32 as i32, e,
                "{chip:?} exponent of -|{x:#x}|"
            );
            assert_eq!(mants[lane], m, "{chip:?} mantissa of {x:#x}");
        }
    }
}
