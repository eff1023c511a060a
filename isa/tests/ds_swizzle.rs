//! `ds_swizzle_b32 vdst, vaddr offset:PATTERN` swizzles the register in
//! its ADDR field: the instruction has no data operand (LLVM's `DS_1A_RET`
//! form, the field LLVM's and Mesa's compilers put the value in), and its
//! DATA0 field is 0 (v0, the work-item ID). The interpreter read DATA0, so
//! IREE's gfx942 scan kernels (`swizzle(BROADCAST,8,7)`, the last lane of
//! each group of 8 to the whole group) summed work-item IDs
//! (`scan_configured.mlir` came out 28 as an f32's bits).
//!
//! The patterns, from the CDNA3 and RDNA3 ISA guides (`ds_swizzle_b32`,
//! offset[15] = 0: BitMode, within each group of 32 lanes lane `i` reads
//! lane `((i & and_mask) | or_mask) ^ xor_mask`, the masks offset[4:0],
//! [9:5], [14:10]; offset[15] = 1: QDMode, lane `i` reads lane `(i & !3) |
//! offset[2 * (i % 4) + 1 : 2 * (i % 4)]`), written out per lane below.
//! Encodings from `llvm-mc-19 --arch=amdgcn -show-encoding`.

mod handmade;

use amdgpu_isa::Chip;
use handmade::per_lane32;

/// Lane `i`'s input in v2: nothing like a work-item ID.
fn input(lanes: usize) -> Vec<u32> {
    (0..lanes as u32).map(|i| 0x1000 + i * i).collect()
}

/// Runs `swizzle` (its two words; gfx9's or gfx11's `s_waitcnt
/// lgkmcnt(0)` follows) over [`input`] on every chip and compares lane `i`
/// with the input of lane `from(i)`.
fn check(gfx9: [u32; 2], gfx11: [u32; 2], from: impl Fn(usize) -> usize) {
    for (chip, swizzle, wait, lanes) in [
        (Chip::Gfx90a, gfx9, 0xbf8cc07f, 64),
        (Chip::Gfx942, gfx9, 0xbf8cc07f, 64),
        (Chip::Gfx1100, gfx11, 0xbf89fc07, 32),
    ] {
        let v2 = input(lanes);
        let got = per_lane32(chip, &[swizzle[0], swizzle[1], wait], &[&v2]);
        let want: Vec<u32> = (0..lanes).map(|i| v2[from(i)]).collect();
        assert_eq!(got, want, "{chip:?}");
    }
}

#[test]
fn broadcast_gives_each_group_of_8_its_last_lanes_value() {
    // ds_swizzle_b32 v6, v2 offset:swizzle(BROADCAST,8,7): and_mask 0x18,
    // or_mask 7 (offset 0xf8).
    check([0xd87a00f8, 0x06000002], [0xd8d400f8, 0x06000002], |i| {
        (i & !7) | 7
    });
}

#[test]
fn swap_16_exchanges_the_halves_of_each_group_of_32() {
    // ds_swizzle_b32 v6, v2 offset:swizzle(SWAP,16): and_mask 0x1f,
    // xor_mask 0x10 (offset 0x401f); lane 40 reads lane 56, not lane 8.
    check([0xd87a401f, 0x06000002], [0xd8d4401f, 0x06000002], |i| {
        i ^ 16
    });
}

#[test]
fn quad_perm_reverses_each_quad() {
    // ds_swizzle_b32 v6, v2 offset:swizzle(QUAD_PERM,3,2,1,0) (offset 0x801b).
    check([0xd87a801b, 0x06000002], [0xd8d4801b, 0x06000002], |i| {
        (i & !3) | (3 - i % 4)
    });
}
