//! VOP3's clamp bit on integer arithmetic saturates the result to its
//! type's range instead of wrapping (CDNA3 and RDNA3 ISA guides: an
//! unsigned result to [0, max], a signed one to [min, max]); Triton emits
//! these for saturating arithmetic. Each operation runs over the same
//! edge-case inputs with the bit clear and set; the expected results are
//! the exact results (computed here in i128 from each instruction's
//! definition) wrapped or saturated.

mod handmade;

use amdgpu_isa::Chip;
use handmade::per_lane;

/// gfx942: each operation without and with clamp.
const GFX942: &[(&str, &[u32], &[u32])] = &[
    (
        "add_u32",
        &[
            0xd1340006, 0x00020702, // v_add_u32_e64 v6, v2, v3
        ],
        &[
            0xd1348006, 0x00020702, // v_add_u32_e64 v6, v2, v3 clamp
        ],
    ),
    (
        "sub_u32",
        &[
            0xd1350006, 0x00020702, // v_sub_u32_e64 v6, v2, v3
        ],
        &[
            0xd1358006, 0x00020702, // v_sub_u32_e64 v6, v2, v3 clamp
        ],
    ),
    (
        "subrev_u32",
        &[
            0xd1360006, 0x00020702, // v_subrev_u32_e64 v6, v2, v3
        ],
        &[
            0xd1368006, 0x00020702, // v_subrev_u32_e64 v6, v2, v3 clamp
        ],
    ),
    (
        "add_i32",
        &[
            0xd29c0006, 0x00020702, // v_add_i32 v6, v2, v3
        ],
        &[
            0xd29c8006, 0x00020702, // v_add_i32 v6, v2, v3 clamp
        ],
    ),
    (
        "sub_i32",
        &[
            0xd29d0006, 0x00020702, // v_sub_i32 v6, v2, v3
        ],
        &[
            0xd29d8006, 0x00020702, // v_sub_i32 v6, v2, v3 clamp
        ],
    ),
    (
        "add_co_u32",
        &[
            0xd1196a06, 0x00020702, // v_add_co_u32_e64 v6, vcc, v2, v3
        ],
        &[
            0xd119ea06, 0x00020702, // v_add_co_u32_e64 v6, vcc, v2, v3 clamp
        ],
    ),
    (
        "sub_co_u32",
        &[
            0xd11a6a06, 0x00020702, // v_sub_co_u32_e64 v6, vcc, v2, v3
        ],
        &[
            0xd11aea06, 0x00020702, // v_sub_co_u32_e64 v6, vcc, v2, v3 clamp
        ],
    ),
    (
        "subrev_co_u32",
        &[
            0xd11b6a06, 0x00020702, // v_subrev_co_u32_e64 v6, vcc, v2, v3
        ],
        &[
            0xd11bea06, 0x00020702, // v_subrev_co_u32_e64 v6, vcc, v2, v3 clamp
        ],
    ),
    (
        "addc_co_u32",
        &[
            0x7d9a0880, // v_cmp_ne_u32_e32 vcc, 0, v4
            0xd11c6a06, 0x01aa0702, // v_addc_co_u32_e64 v6, vcc, v2, v3, vcc
        ],
        &[
            0x7d9a0880, // v_cmp_ne_u32_e32 vcc, 0, v4
            0xd11cea06, 0x01aa0702, // v_addc_co_u32_e64 v6, vcc, v2, v3, vcc clamp
        ],
    ),
    (
        "subb_co_u32",
        &[
            0x7d9a0880, // v_cmp_ne_u32_e32 vcc, 0, v4
            0xd11d6a06, 0x01aa0702, // v_subb_co_u32_e64 v6, vcc, v2, v3, vcc
        ],
        &[
            0x7d9a0880, // v_cmp_ne_u32_e32 vcc, 0, v4
            0xd11dea06, 0x01aa0702, // v_subb_co_u32_e64 v6, vcc, v2, v3, vcc clamp
        ],
    ),
    (
        "subbrev_co_u32",
        &[
            0x7d9a0880, // v_cmp_ne_u32_e32 vcc, 0, v4
            0xd11e6a06, 0x01aa0702, // v_subbrev_co_u32_e64 v6, vcc, v2, v3, vcc
        ],
        &[
            0x7d9a0880, // v_cmp_ne_u32_e32 vcc, 0, v4
            0xd11eea06, 0x01aa0702, // v_subbrev_co_u32_e64 v6, vcc, v2, v3, vcc clamp
        ],
    ),
    (
        "add_u16",
        &[
            0xd1260006, 0x00020702, // v_add_u16_e64 v6, v2, v3
        ],
        &[
            0xd1268006, 0x00020702, // v_add_u16_e64 v6, v2, v3 clamp
        ],
    ),
    (
        "sub_u16",
        &[
            0xd1270006, 0x00020702, // v_sub_u16_e64 v6, v2, v3
        ],
        &[
            0xd1278006, 0x00020702, // v_sub_u16_e64 v6, v2, v3 clamp
        ],
    ),
    (
        "subrev_u16",
        &[
            0xd1280006, 0x00020702, // v_subrev_u16_e64 v6, v2, v3
        ],
        &[
            0xd1288006, 0x00020702, // v_subrev_u16_e64 v6, v2, v3 clamp
        ],
    ),
    (
        "add_i16",
        &[
            0xd29e0006, 0x00020702, // v_add_i16 v6, v2, v3
        ],
        &[
            0xd29e8006, 0x00020702, // v_add_i16 v6, v2, v3 clamp
        ],
    ),
    (
        "sub_i16",
        &[
            0xd29f0006, 0x00020702, // v_sub_i16 v6, v2, v3
        ],
        &[
            0xd29f8006, 0x00020702, // v_sub_i16 v6, v2, v3 clamp
        ],
    ),
    (
        "pk_add_u16",
        &[
            0xd38a4006, 0x18020702, // v_pk_add_u16 v6, v2, v3
        ],
        &[
            0xd38ac006, 0x18020702, // v_pk_add_u16 v6, v2, v3 clamp
        ],
    ),
    (
        "pk_sub_u16",
        &[
            0xd38b4006, 0x18020702, // v_pk_sub_u16 v6, v2, v3
        ],
        &[
            0xd38bc006, 0x18020702, // v_pk_sub_u16 v6, v2, v3 clamp
        ],
    ),
    (
        "pk_add_i16",
        &[
            0xd3824006, 0x18020702, // v_pk_add_i16 v6, v2, v3
        ],
        &[
            0xd382c006, 0x18020702, // v_pk_add_i16 v6, v2, v3 clamp
        ],
    ),
    (
        "pk_sub_i16",
        &[
            0xd3834006, 0x18020702, // v_pk_sub_i16 v6, v2, v3
        ],
        &[
            0xd383c006, 0x18020702, // v_pk_sub_i16 v6, v2, v3 clamp
        ],
    ),
    (
        "mad_u32_u24",
        &[
            0xd1c30006, 0x04120702, // v_mad_u32_u24 v6, v2, v3, v4
        ],
        &[
            0xd1c38006, 0x04120702, // v_mad_u32_u24 v6, v2, v3, v4 clamp
        ],
    ),
    (
        "mad_i32_i24",
        &[
            0xd1c20006, 0x04120702, // v_mad_i32_i24 v6, v2, v3, v4
        ],
        &[
            0xd1c28006, 0x04120702, // v_mad_i32_i24 v6, v2, v3, v4 clamp
        ],
    ),
    (
        "mad_u64_u32",
        &[
            0xd1e81406, 0x04120702, // v_mad_u64_u32 v[6:7], s[20:21], v2, v3, v[4:5]
        ],
        &[
            0xd1e89406, 0x04120702, // v_mad_u64_u32 v[6:7], s[20:21], v2, v3, v[4:5] clamp
        ],
    ),
    (
        "mad_i64_i32",
        &[
            0xd1e91406, 0x04120702, // v_mad_i64_i32 v[6:7], s[20:21], v2, v3, v[4:5]
        ],
        &[
            0xd1e99406, 0x04120702, // v_mad_i64_i32 v[6:7], s[20:21], v2, v3, v[4:5] clamp
        ],
    ),
];
/// gfx1100: each operation without and with clamp.
const GFX1100: &[(&str, &[u32], &[u32])] = &[
    (
        "add_u32",
        &[
            0xd5250006, 0x00020702, // v_add_nc_u32_e64 v6, v2, v3
        ],
        &[
            0xd5258006, 0x00020702, // v_add_nc_u32_e64 v6, v2, v3 clamp
        ],
    ),
    (
        "sub_u32",
        &[
            0xd5260006, 0x00020702, // v_sub_nc_u32_e64 v6, v2, v3
        ],
        &[
            0xd5268006, 0x00020702, // v_sub_nc_u32_e64 v6, v2, v3 clamp
        ],
    ),
    (
        "subrev_u32",
        &[
            0xd5270006, 0x00020702, // v_subrev_nc_u32_e64 v6, v2, v3
        ],
        &[
            0xd5278006, 0x00020702, // v_subrev_nc_u32_e64 v6, v2, v3 clamp
        ],
    ),
    (
        "add_i32",
        &[
            0xd7260006, 0x00020702, // v_add_nc_i32 v6, v2, v3
        ],
        &[
            0xd7268006, 0x00020702, // v_add_nc_i32 v6, v2, v3 clamp
        ],
    ),
    (
        "sub_i32",
        &[
            0xd7250006, 0x00020702, // v_sub_nc_i32 v6, v2, v3
        ],
        &[
            0xd7258006, 0x00020702, // v_sub_nc_i32 v6, v2, v3 clamp
        ],
    ),
    (
        "add_co_u32",
        &[
            0xd7006a06, 0x00020702, // v_add_co_u32 v6, vcc_lo, v2, v3
        ],
        &[
            0xd700ea06, 0x00020702, // v_add_co_u32 v6, vcc_lo, v2, v3 clamp
        ],
    ),
    (
        "sub_co_u32",
        &[
            0xd7016a06, 0x00020702, // v_sub_co_u32 v6, vcc_lo, v2, v3
        ],
        &[
            0xd701ea06, 0x00020702, // v_sub_co_u32 v6, vcc_lo, v2, v3 clamp
        ],
    ),
    (
        "subrev_co_u32",
        &[
            0xd7026a06, 0x00020702, // v_subrev_co_u32 v6, vcc_lo, v2, v3
        ],
        &[
            0xd702ea06, 0x00020702, // v_subrev_co_u32 v6, vcc_lo, v2, v3 clamp
        ],
    ),
    (
        "addc_co_u32",
        &[
            0x7c9a0880, // v_cmp_ne_u32_e32 vcc_lo, 0, v4
            0xd5206a06, 0x01aa0702, // v_add_co_ci_u32_e64 v6, vcc_lo, v2, v3, vcc_lo
        ],
        &[
            0x7c9a0880, // v_cmp_ne_u32_e32 vcc_lo, 0, v4
            0xd520ea06, 0x01aa0702, // v_add_co_ci_u32_e64 v6, vcc_lo, v2, v3, vcc_lo clamp
        ],
    ),
    (
        "subb_co_u32",
        &[
            0x7c9a0880, // v_cmp_ne_u32_e32 vcc_lo, 0, v4
            0xd5216a06, 0x01aa0702, // v_sub_co_ci_u32_e64 v6, vcc_lo, v2, v3, vcc_lo
        ],
        &[
            0x7c9a0880, // v_cmp_ne_u32_e32 vcc_lo, 0, v4
            0xd521ea06, 0x01aa0702, // v_sub_co_ci_u32_e64 v6, vcc_lo, v2, v3, vcc_lo clamp
        ],
    ),
    (
        "subbrev_co_u32",
        &[
            0x7c9a0880, // v_cmp_ne_u32_e32 vcc_lo, 0, v4
            0xd5226a06, 0x01aa0702, // v_subrev_co_ci_u32_e64 v6, vcc_lo, v2, v3, vcc_lo
        ],
        &[
            0x7c9a0880, // v_cmp_ne_u32_e32 vcc_lo, 0, v4
            0xd522ea06, 0x01aa0702, // v_subrev_co_ci_u32_e64 v6, vcc_lo, v2, v3, vcc_lo clamp
        ],
    ),
    (
        "add_u16",
        &[
            0xd7030006, 0x00020702, // v_add_nc_u16 v6, v2, v3
        ],
        &[
            0xd7038006, 0x00020702, // v_add_nc_u16 v6, v2, v3 clamp
        ],
    ),
    (
        "sub_u16",
        &[
            0xd7040006, 0x00020702, // v_sub_nc_u16 v6, v2, v3
        ],
        &[
            0xd7048006, 0x00020702, // v_sub_nc_u16 v6, v2, v3 clamp
        ],
    ),
    (
        "add_i16",
        &[
            0xd70d0006, 0x00020702, // v_add_nc_i16 v6, v2, v3
        ],
        &[
            0xd70d8006, 0x00020702, // v_add_nc_i16 v6, v2, v3 clamp
        ],
    ),
    (
        "sub_i16",
        &[
            0xd70e0006, 0x00020702, // v_sub_nc_i16 v6, v2, v3
        ],
        &[
            0xd70e8006, 0x00020702, // v_sub_nc_i16 v6, v2, v3 clamp
        ],
    ),
    (
        "pk_add_u16",
        &[
            0xcc0a4006, 0x18020702, // v_pk_add_u16 v6, v2, v3
        ],
        &[
            0xcc0ac006, 0x18020702, // v_pk_add_u16 v6, v2, v3 clamp
        ],
    ),
    (
        "pk_sub_u16",
        &[
            0xcc0b4006, 0x18020702, // v_pk_sub_u16 v6, v2, v3
        ],
        &[
            0xcc0bc006, 0x18020702, // v_pk_sub_u16 v6, v2, v3 clamp
        ],
    ),
    (
        "pk_add_i16",
        &[
            0xcc024006, 0x18020702, // v_pk_add_i16 v6, v2, v3
        ],
        &[
            0xcc02c006, 0x18020702, // v_pk_add_i16 v6, v2, v3 clamp
        ],
    ),
    (
        "pk_sub_i16",
        &[
            0xcc034006, 0x18020702, // v_pk_sub_i16 v6, v2, v3
        ],
        &[
            0xcc03c006, 0x18020702, // v_pk_sub_i16 v6, v2, v3 clamp
        ],
    ),
    (
        "mad_u32_u24",
        &[
            0xd60b0006, 0x04120702, // v_mad_u32_u24 v6, v2, v3, v4
        ],
        &[
            0xd60b8006, 0x04120702, // v_mad_u32_u24 v6, v2, v3, v4 clamp
        ],
    ),
    (
        "mad_i32_i24",
        &[
            0xd60a0006, 0x04120702, // v_mad_i32_i24 v6, v2, v3, v4
        ],
        &[
            0xd60a8006, 0x04120702, // v_mad_i32_i24 v6, v2, v3, v4 clamp
        ],
    ),
    (
        "mad_u64_u32",
        &[
            0xd6fe7c06, 0x04120702, // v_mad_u64_u32 v[6:7], null, v2, v3, v[4:5]
        ],
        &[
            0xd6fefc06, 0x04120702, // v_mad_u64_u32 v[6:7], null, v2, v3, v[4:5] clamp
        ],
    ),
    (
        "mad_i64_i32",
        &[
            0xd6ff7c06, 0x04120702, // v_mad_i64_i32 v[6:7], null, v2, v3, v[4:5]
        ],
        &[
            0xd6fffc06, 0x04120702, // v_mad_i64_i32 v[6:7], null, v2, v3, v[4:5] clamp
        ],
    ),
];

/// The low `bits` bits of `exact`, or `exact` saturated to [lo, hi].
fn narrow(exact: i128, bits: u32, lo: i128, hi: i128, clamp: bool) -> u64 {
    let v = if clamp { exact.max(lo).min(hi) } else { exact };
    (v & ((1i128 << bits) - 1)) as u64
}

fn unsigned(exact: i128, bits: u32, clamp: bool) -> u64 {
    narrow(exact, bits, 0, (1i128 << bits) - 1, clamp)
}

fn signed(exact: i128, bits: u32, clamp: bool) -> u64 {
    let half = 1i128 << (bits - 1);
    narrow(exact, bits, -half, half - 1, clamp)
}

/// What `name` returns in v[6:7] for inputs a, b, c, d (v2-v5).
fn expected(name: &str, [a, b, c, d]: [u32; 4], clamp: bool) -> u64 {
    let (ua, ub, uc) = (i128::from(a), i128::from(b), i128::from(c));
    let (sa, sb) = (i128::from(a as i32), i128::from(b as i32));
    let carry = i128::from(c != 0);
    let lo = |x: u32| i128::from(x as u16);
    let hi = |x: u32| i128::from((x >> 16) as u16);
    let slo = |x: u32| i128::from(x as u16 as i16);
    let shi = |x: u32| i128::from((x >> 16) as u16 as i16);
    let pack = |l: u64, h: u64| l | h << 16;
    let sext24 = |x: u32| i128::from(((x << 8) as i32) >> 8);
    let c64 = i128::from(u64::from(c) | u64::from(d) << 32);
    let s64 = i128::from((u64::from(c) | u64::from(d) << 32) as i64);
    match name {
        "add_u32" | "add_co_u32" => unsigned(ua + ub, 32, clamp),
        "sub_u32" | "sub_co_u32" => unsigned(ua - ub, 32, clamp),
        "subrev_u32" | "subrev_co_u32" => unsigned(ub - ua, 32, clamp),
        "add_i32" => signed(sa + sb, 32, clamp),
        "sub_i32" => signed(sa - sb, 32, clamp),
        "addc_co_u32" => unsigned(ua + ub + carry, 32, clamp),
        "subb_co_u32" => unsigned(ua - ub - carry, 32, clamp),
        "subbrev_co_u32" => unsigned(ub - ua - carry, 32, clamp),
        "add_u16" => unsigned(lo(a) + lo(b), 16, clamp),
        "sub_u16" => unsigned(lo(a) - lo(b), 16, clamp),
        "subrev_u16" => unsigned(lo(b) - lo(a), 16, clamp),
        "add_i16" => signed(slo(a) + slo(b), 16, clamp),
        "sub_i16" => signed(slo(a) - slo(b), 16, clamp),
        "pk_add_u16" => pack(
            unsigned(lo(a) + lo(b), 16, clamp),
            unsigned(hi(a) + hi(b), 16, clamp),
        ),
        "pk_sub_u16" => pack(
            unsigned(lo(a) - lo(b), 16, clamp),
            unsigned(hi(a) - hi(b), 16, clamp),
        ),
        "pk_add_i16" => pack(
            signed(slo(a) + slo(b), 16, clamp),
            signed(shi(a) + shi(b), 16, clamp),
        ),
        "pk_sub_i16" => pack(
            signed(slo(a) - slo(b), 16, clamp),
            signed(shi(a) - shi(b), 16, clamp),
        ),
        "mad_u32_u24" => unsigned((ua & 0xff_ffff) * (ub & 0xff_ffff) + uc, 32, clamp),
        "mad_i32_i24" => signed(sext24(a) * sext24(b) + i128::from(c as i32), 32, clamp),
        "mad_u64_u32" => unsigned(ua * ub + c64, 64, clamp),
        "mad_i64_i32" => signed(sa * sb + s64, 64, clamp),
        _ => panic!("{name}"),
    }
}

/// Edge cases per lane: sums and differences past either end of the
/// unsigned and signed 32-bit and 16-bit ranges (both halves), 24-bit
/// products past 32 bits, 64-bit multiply-adds past 64 bits.
fn inputs() -> [Vec<u32>; 4] {
    let pairs: [(u32, u32); 24] = [
        (0, 0),
        (1, 0xffff_ffff),
        (0xffff_ffff, 1),
        (0x7fff_ffff, 1),
        (0x8000_0000, 0xffff_ffff),
        (5, 7),
        (0xffff_fffe, 0xffff_fffe),
        (0x1234_5678, 0x9abc_def0),
        (0x0000_8000, 0x0000_8000),
        (0x0000_7fff, 0x0000_0002),
        (0x0000_ffff, 0x0000_0001),
        (0x7fff_8000, 0x8001_7fff),
        (0x8000_7fff, 0x7fff_8000),
        (0x00ff_ffff, 0x00ff_ffff),
        (0x0080_0000, 0x0080_0000),
        (0x0080_0000, 0x007f_ffff),
        (0xffff_ffff, 0xffff_ffff),
        (0x8000_0000, 0x8000_0000),
        (0x8000_0000, 0x7fff_ffff),
        (3, 5),
        (0x0000_0001, 0x0000_0002),
        (0x0001_0000, 0x0002_0000),
        (0xffff_0000, 0x0001_0000),
        (0x7fff_ffff, 0x7fff_ffff),
    ];
    let cs = [0, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff];
    let ds = [0, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff];
    let n = pairs.len();
    [
        pairs.iter().map(|p| p.0).collect(),
        pairs.iter().map(|p| p.1).collect(),
        (0..n).map(|i| cs[i % cs.len()]).collect(),
        (0..n).map(|i| ds[i % ds.len()]).collect(),
    ]
}

#[test]
fn integer_clamp_saturates_and_its_absence_wraps() {
    let inputs = inputs();
    let refs: Vec<&[u32]> = inputs.iter().map(|v| v.as_slice()).collect();
    for (chip, table) in [(Chip::Gfx942, GFX942), (Chip::Gfx1100, GFX1100)] {
        for &(name, plain, clamped) in table {
            let mut differs = false;
            for (clamp, words) in [(false, plain), (true, clamped)] {
                let got = per_lane(chip, words, &refs);
                for (lane, &got) in got.iter().enumerate() {
                    let args = [0, 1, 2, 3].map(|i| inputs[i][lane]);
                    let want = expected(name, args, clamp);
                    differs |= want != expected(name, args, !clamp);
                    assert_eq!(
                        got, want,
                        "{chip:?} {name} clamp {clamp}, lane {lane}: {args:#x?}: got {got:#x}, want {want:#x}"
                    );
                }
            }
            assert!(differs, "{chip:?} {name}: no input where clamp matters");
        }
    }
}
