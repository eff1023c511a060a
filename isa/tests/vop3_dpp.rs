//! GFX11's VOP3 DPP16 and DPP8 forms (`v_add_co_u32_e64_dpp` and the
//! like, as IREE's i64 reductions for gfx1100 use them): the first source
//! is read from another lane as the DPP word says (RDNA3 ISA guide, DPP16
//! and DPP8; LLVM's `VOP3_DPP` encodings), every other operand and
//! modifier is VOP3's. Each expected value below names the lane it reads:
//! DPP16 within rows of 16 lanes, DPP8 within groups of eight; a lane
//! whose source is outside its row (or inactive, without `fi`) is not
//! written, or reads 0 with `bound_ctrl:1`; lanes of rows or banks off in
//! the masks are not written. Encodings and text are `llvm-mc-19
//! --arch=amdgcn --mcpu=gfx1100 -show-encoding`'s.

mod handmade;

use amdgpu_isa::{Chip, Program, disassemble};
use handmade::per_lane;

const LANES: usize = 32;

fn inputs() -> [Vec<u32>; 4] {
    let a = (0..LANES as u32)
        .map(|l| 0xffff_fff0u32.wrapping_add(l * 3))
        .collect();
    let b = (0..LANES as u32).map(|l| 7 + l * 5).collect();
    let c = (0..LANES as u32).map(|l| 1000 + l * 11).collect();
    let d = (0..LANES as u32).map(|l| 0xdead_0000 | l).collect();
    [a, b, c, d]
}

/// v6 and v7 of each of 32 lanes after `code`, with a, b, c, d in v2-v5.
fn run(code: &[u32]) -> Vec<(u32, u32)> {
    let [a, b, c, d] = inputs();
    per_lane(Chip::Gfx1100, code, &[&a, &b, &c, &d])
        .into_iter()
        .map(|q| (q as u32, (q >> 32) as u32))
        .collect()
}

/// `v_mov_b32_e32 v6, v5`: v6 starts as d, so an unwritten lane shows d.
const V6_IS_D: u32 = 0x7e0c0305;
/// `v_cndmask_b32_e64 v7, 0, 1, s10`: the lane's bit of s10 in v7.
const V7_IS_S10: [u32; 2] = [0xd5010007, 0x00290280];

fn quad_perm(lane: usize, sel: [usize; 4]) -> usize {
    (lane & !3) | sel[lane & 3]
}

#[test]
fn add_co_u32_reads_src0_through_quad_perm_and_writes_its_carry() {
    // v_add_co_u32_e64_dpp v6, s10, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
    let got = run(&[&[0xd7000a06, 0x000206fa, 0xff00b102][..], &V7_IS_S10].concat());
    let [a, b, ..] = inputs();
    for (lane, &(v6, v7)) in got.iter().enumerate() {
        let from = quad_perm(lane, [1, 0, 3, 2]);
        let (sum, carry) = a[from].overflowing_add(b[lane]);
        assert_eq!(v6, sum, "lane {lane}: a[{from}] + b");
        assert_eq!(v7, u32::from(carry), "lane {lane}: carry of a[{from}] + b");
    }
}

#[test]
fn row_shr_leaves_a_rows_first_lane_unless_bound_ctrl_zeroes_it() {
    let [a, b, _, d] = inputs();
    // v_add_co_u32_e64_dpp v6, s10, v2, v3 row_shr:1 row_mask:0xf bank_mask:0xf
    let got = run(&[
        &[V6_IS_D, 0xd7000a06, 0x000206fa, 0xff011102][..],
        &V7_IS_S10,
    ]
    .concat());
    for (lane, &(v6, v7)) in got.iter().enumerate() {
        if lane % 16 == 0 {
            assert_eq!((v6, v7), (d[lane], 0), "lane {lane}: disabled, no carry");
        } else {
            let (sum, carry) = a[lane - 1].overflowing_add(b[lane]);
            assert_eq!(
                (v6, v7),
                (sum, u32::from(carry)),
                "lane {lane}: a[{}] + b",
                lane - 1
            );
        }
    }
    // ... bound_ctrl:1
    let got = run(&[
        &[V6_IS_D, 0xd7000a06, 0x000206fa, 0xff091102][..],
        &V7_IS_S10,
    ]
    .concat());
    for (lane, &(v6, _)) in got.iter().enumerate() {
        let src0 = if lane % 16 == 0 { 0 } else { a[lane - 1] };
        assert_eq!(v6, src0.wrapping_add(b[lane]), "lane {lane}");
    }
}

#[test]
fn dpp8_selects_within_groups_of_eight() {
    let [a, b, c, _] = inputs();
    // v_add3_u32_e64_dpp v6, v2, v3, v4 dpp8:[7,6,5,4,3,2,1,0]
    let got = run(&[0xd6550006, 0x041206e9, 0x05397702]);
    for (lane, &(v6, _)) in got.iter().enumerate() {
        let from = (lane & !7) | (7 - (lane & 7));
        assert_eq!(
            v6,
            a[from].wrapping_add(b[lane]).wrapping_add(c[lane]),
            "lane {lane}"
        );
    }
    // v_sub_co_u32_e64_dpp v6, s10, v2, v3 dpp8:[0,0,0,0,7,7,7,7]
    let got = run(&[&[0xd7010a06, 0x000206e9, 0xfff00002][..], &V7_IS_S10].concat());
    for (lane, &(v6, v7)) in got.iter().enumerate() {
        let from = (lane & !7) | if lane & 7 < 4 { 0 } else { 7 };
        let (diff, borrow) = a[from].overflowing_sub(b[lane]);
        assert_eq!(
            (v6, v7),
            (diff, u32::from(borrow)),
            "lane {lane}: a[{from}] - b"
        );
    }
}

#[test]
fn row_and_bank_masks_leave_lanes_unwritten() {
    let [a, b, c, d] = inputs();
    // v_add3_u32_e64_dpp v6, v2, v3, v4 row_shl:3 row_mask:0x1 bank_mask:0x5
    let got = run(&[V6_IS_D, 0xd6550006, 0x041206fa, 0x15010302]);
    for (lane, &(v6, _)) in got.iter().enumerate() {
        let (row, bank, i) = (lane / 16, (lane % 16) / 4, lane % 16);
        let written = row == 0 && (bank == 0 || bank == 2) && i + 3 < 16;
        let want = if written {
            a[lane + 3].wrapping_add(b[lane]).wrapping_add(c[lane])
        } else {
            d[lane]
        };
        assert_eq!(v6, want, "lane {lane}");
    }
}

#[test]
fn float_modifiers_apply_to_the_moved_source() {
    let bits = |x: Vec<f32>| x.into_iter().map(f32::to_bits).collect::<Vec<u32>>();
    let a: Vec<f32> = (0..LANES).map(|l| l as f32 * 0.25 - 3.0).collect();
    let b: Vec<f32> = (0..LANES).map(|l| 2.0 - l as f32 * 0.5).collect();
    let (ab, bb) = (bits(a.clone()), bits(b.clone()));
    let go = |code: &[u32]| -> Vec<f32> {
        per_lane(Chip::Gfx1100, code, &[&ab, &bb])
            .into_iter()
            .map(|q| f32::from_bits(q as u32))
            .collect()
    };
    // v_add_f32_e64_dpp v6, -v2, |v3| clamp row_mirror row_mask:0xf bank_mask:0xf
    for (lane, v6) in go(&[0xd5038206, 0x200206fa, 0xff014002])
        .into_iter()
        .enumerate()
    {
        let from = (lane & !15) | (15 - (lane & 15));
        let want = (-a[from] + b[lane].abs()).clamp(0.0, 1.0);
        assert_eq!(v6, want, "lane {lane}: clamp(-a[{from}] + |b|)");
    }
    // v_add_f32_e64_dpp v6, -v2, |v3| mul:2 row_half_mirror row_mask:0xf bank_mask:0xf
    for (lane, v6) in go(&[0xd5030206, 0x280206fa, 0xff014102])
        .into_iter()
        .enumerate()
    {
        let from = (lane & !7) | (7 - (lane & 7));
        assert_eq!(v6, (-a[from] + b[lane].abs()) * 2.0, "lane {lane}");
    }
}

#[test]
fn row_share_xmask_and_ror() {
    let [a, b, c, _] = inputs();
    // v_max3_u32_e64_dpp v6, v2, v3, v4 row_share:5 row_mask:0xf bank_mask:0xf
    for (lane, (v6, _)) in run(&[0xd61e0006, 0x041206fa, 0xff015502])
        .into_iter()
        .enumerate()
    {
        let from = (lane & !15) | 5;
        assert_eq!(v6, a[from].max(b[lane]).max(c[lane]), "lane {lane}");
    }
    // v_med3_i32_e64_dpp v6, v2, v3, v4 row_xmask:6 row_mask:0xf bank_mask:0xf
    for (lane, (v6, _)) in run(&[0xd6200006, 0x041206fa, 0xff016602])
        .into_iter()
        .enumerate()
    {
        let from = (lane & !15) | ((lane & 15) ^ 6);
        let mut v = [a[from] as i32, b[lane] as i32, c[lane] as i32];
        v.sort();
        assert_eq!(v6 as i32, v[1], "lane {lane}");
    }
    // v_mad_u32_u24_e64_dpp v6, v2, v3, v4 row_ror:4 row_mask:0xf bank_mask:0xf
    for (lane, (v6, _)) in run(&[0xd60b0006, 0x041206fa, 0xff012402])
        .into_iter()
        .enumerate()
    {
        let from = (lane & !15) | ((lane + 16 - 4) & 15);
        let want = (a[from] & 0xff_ffff)
            .wrapping_mul(b[lane] & 0xff_ffff)
            .wrapping_add(c[lane]);
        assert_eq!(v6, want, "lane {lane}: a[{from}] * b + c");
    }
}

#[test]
fn fetch_inactive_reads_lanes_exec_leaves_off() {
    let [a, b, c, d] = inputs();
    let with_exec = |dpp: [u32; 3]| {
        let code = [
            &[V6_IS_D, 0xbefe00ff, 0x5555_5555][..], // s_mov_b32 exec_lo, 0x55555555
            &dpp,
            &[0xbefe00c1], // s_mov_b32 exec_lo, -1
        ]
        .concat();
        run(&code)
    };
    let add3 = |from: usize, lane: usize| a[from].wrapping_add(b[lane]).wrapping_add(c[lane]);
    let cases: [([u32; 3], Option<bool>); 4] = [
        // quad_perm:[1,0,3,2] ... fi:1
        ([0xd6550006, 0x041206fa, 0xff04b102], Some(true)),
        // quad_perm:[1,0,3,2] ... bound_ctrl:1
        ([0xd6550006, 0x041206fa, 0xff08b102], None),
        // dpp8:[1,0,3,2,5,4,7,6] fi:1
        ([0xd6550006, 0x041206ea, 0xde54c102], Some(true)),
        // dpp8:[1,0,3,2,5,4,7,6]
        ([0xd6550006, 0x041206e9, 0xde54c102], Some(false)),
    ];
    for (dpp, fi) in cases {
        for (lane, &(v6, _)) in with_exec(dpp).iter().enumerate() {
            // Odd lanes are inactive; even ones read the odd lane after.
            let want = match (lane % 2, fi) {
                (1, _) => d[lane],
                (_, Some(true)) => add3(lane + 1, lane),
                (_, Some(false)) => d[lane],
                (_, None) => b[lane].wrapping_add(c[lane]),
            };
            assert_eq!(v6, want, "lane {lane}, {dpp:08x?}");
        }
    }
}

#[test]
fn compares_write_their_mask_from_moved_sources() {
    let [a, b, ..] = inputs();
    // v_cmp_gt_u32_e64_dpp s10, v2, v3 row_ror:4 row_mask:0xf bank_mask:0xf
    let got = run(&[&[0xd44c000a, 0x000206fa, 0xff012402][..], &V7_IS_S10].concat());
    for (lane, &(_, v7)) in got.iter().enumerate() {
        let from = (lane & !15) | ((lane + 16 - 4) & 15);
        assert_eq!(v7, u32::from(a[from] > b[lane]), "lane {lane}");
    }
}

#[test]
fn carry_in_sixteen_bit_halves_and_mov() {
    let [a, b, c, _] = inputs();
    // v_add_co_u32_e64_dpp v6, s10, v2, v3 quad_perm:[1,0,3,2] ..., then
    // v_add_co_ci_u32_e64_dpp v6, s12, v2, v3, s10 quad_perm:[0,0,0,0] ...
    let got = run(&[
        0xd7000a06, 0x000206fa, 0xff00b102, 0xd5200c06, 0x002a06fa, 0xff000002,
    ]);
    for (lane, &(v6, _)) in got.iter().enumerate() {
        let carry = a[quad_perm(lane, [1, 0, 3, 2])].overflowing_add(b[lane]).1;
        let want = a[lane & !3]
            .wrapping_add(b[lane])
            .wrapping_add(u32::from(carry));
        assert_eq!(v6, want, "lane {lane}");
    }
    // v_add_nc_u16_e64_dpp v6, v2, v3 op_sel:[1,0,0] quad_perm:[3,2,1,0] ...
    let got = run(&[0xd7030806, 0x000206fa, 0xff001b02]);
    for (lane, &(v6, _)) in got.iter().enumerate() {
        let from = quad_perm(lane, [3, 2, 1, 0]);
        let sum = ((a[from] >> 16) as u16).wrapping_add(b[lane] as u16);
        assert_eq!(
            v6 & 0xffff,
            u32::from(sum),
            "lane {lane}: a[{from}].h + b.l"
        );
    }
    // v_mad_u16_e64_dpp v6, sext(v2), v3, v4 quad_perm:[1,0,3,2] ...
    let got = run(&[0xd6410006, 0x241206fa, 0xff00b102]);
    for (lane, &(v6, _)) in got.iter().enumerate() {
        let from = quad_perm(lane, [1, 0, 3, 2]);
        let want = (a[from] as u16)
            .wrapping_mul(b[lane] as u16)
            .wrapping_add(c[lane] as u16);
        assert_eq!(v6 & 0xffff, u32::from(want), "lane {lane}");
    }
    // v_mov_b32_e64_dpp v6, v2 row_shl:15 row_mask:0xf bank_mask:0xf bound_ctrl:1
    let got = run(&[0xd5810006, 0x000000fa, 0xff090f02]);
    for (lane, &(v6, _)) in got.iter().enumerate() {
        let want = if lane % 16 == 0 { a[lane + 15] } else { 0 };
        assert_eq!(v6, want, "lane {lane}");
    }
}

#[test]
fn cmpx_writes_exec_from_the_moved_source() {
    let [a, b, ..] = inputs();
    // v_cmpx_lt_u32_e64_dpp v2, v3 quad_perm:[1,0,3,2] ...; then
    // v_mov_b32_e32 v6, v5 runs on the lanes left on.
    let got = run(&[0xd4c9007e, 0x000206fa, 0xff00b102, V6_IS_D, 0xbefe00c1]);
    let [.., d] = inputs();
    for (lane, &(v6, _)) in got.iter().enumerate() {
        let on = a[quad_perm(lane, [1, 0, 3, 2])] < b[lane];
        assert_eq!(v6, if on { d[lane] } else { 0 }, "lane {lane}");
    }
}

/// (words, `llvm-objdump-19 -d --mcpu=gfx1100`'s text)
const TEXT: &[(&[u32], &str)] = &[
    (
        &[0xd7000001, 0x000206fa, 0xff00b102],
        "v_add_co_u32_e64_dpp v1, s0, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
    ),
    (
        &[0xd7000001, 0x000206ea, 0x05397702],
        "v_add_co_u32_e64_dpp v1, s0, v2, v3 dpp8:[7,6,5,4,3,2,1,0] fi:1",
    ),
    (
        &[0xd6550005, 0x040e04fa, 0xa50d0101],
        "v_add3_u32_e64_dpp v5, v1, v2, v3 row_shl:1 row_mask:0xa bank_mask:0x5 bound_ctrl:1 fi:1",
    ),
    (
        &[0xd5038205, 0x280204fa, 0xff011301],
        "v_add_f32_e64_dpp v5, -v1, |v2| clamp mul:2 row_shr:3 row_mask:0xf bank_mask:0xf",
    ),
    (
        &[0xd44a0005, 0x000204fa, 0xff014001],
        "v_cmp_eq_u32_e64_dpp s5, v1, v2 row_mirror row_mask:0xf bank_mask:0xf",
    ),
    (
        &[0xd4ca007e, 0x000204fa, 0xff014101],
        "v_cmpx_eq_u32_e64_dpp v1, v2 row_half_mirror row_mask:0xf bank_mask:0xf",
    ),
    (
        &[0xd5810005, 0x000000fa, 0xff015301],
        "v_mov_b32_e64_dpp v5, v1 row_share:3 row_mask:0xf bank_mask:0xf",
    ),
    (
        &[0xd5010005, 0x000e04fa, 0xff016301],
        "v_cndmask_b32_e64_dpp v5, v1, v2, s3 row_xmask:3 row_mask:0xf bank_mask:0xf",
    ),
    (
        &[0xd7030805, 0x000204fa, 0xff012301],
        "v_add_nc_u16_e64_dpp v5, v1, v2 op_sel:[1,0,0] row_ror:3 row_mask:0xf bank_mask:0xf",
    ),
    (
        &[0xd7030005, 0x600204e9, 0x05397701],
        "v_add_nc_u16_e64_dpp v5, sext(v1), sext(v2) dpp8:[7,6,5,4,3,2,1,0]",
    ),
    (
        &[0xd5d20005, 0x200000fa, 0xff012301],
        "v_cvt_u16_f16_e64_dpp v5, -v1 row_ror:3 row_mask:0xf bank_mask:0xf",
    ),
    (
        &[0xd7016a01, 0x000206fa, 0xff00b102],
        "v_sub_co_u32_e64_dpp v1, vcc_lo, v2, v3 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
    ),
];

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn disassembles_as_llvm_does() {
    for &(code, want) in TEXT {
        let program = Program::decode(Chip::Gfx1100, &words(code)).unwrap();
        let inst = &program.instructions()[0];
        assert_eq!(inst.len, 12, "{want}");
        assert_eq!(disassemble(inst, Chip::Gfx1100), want);
    }
}

#[test]
fn forms_llvm_rejects_do_not_decode() {
    for code in [
        // v_add_f64 (64-bit operands) with a DPP16 word.
        [0xd7270005, 0x000204fa, 0xff012301],
        // v_add3_u32 with a `neg` bit: integer DPP forms take none.
        [0xd6550005, 0x240e04fa, 0xa50d0101],
        // v_mul_lo_u32: LLVM has no DPP form of it.
        [0xd72c0005, 0x000204fa, 0xff012301],
    ] {
        assert!(
            Program::decode(Chip::Gfx1100, &words(&code)).is_err(),
            "{code:08x?}"
        );
    }
}
