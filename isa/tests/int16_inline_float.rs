//! An inline float constant (0.5: code 240) as a 16-bit integer operand.
//! GFX9 reads the f32 constant and the operation takes its low 16 bits
//! (0x0000 for 0.5); GFX11 reads the f16 constant (0x3800). LLVM:
//! `isInlinableLiteralI16` accepts only the f32 bit patterns, its
//! assembler truncates a float for an i16 operand from its f32 bits
//! (llvm/llvm-project pull request 84106, citing the ISA specification's
//! "OPF_INV2PI_16"), and its AMDGPU maintainer measured inline 1.0 as
//! "0x0000 on gfx8/gfx9, 0x3c00 on gfx10-gfx12" (pull request 198005).
//! LLVM 19's disassembler still prints the constant as the f16 literal
//! `0x3800` (its text is what these tests check, from `llvm-mc-19
//! --arch=amdgcn --mcpu=CHIP --disassemble`; the words from `llvm-mc-19
//! -show-encoding` of `..., 0.5, ...`).
//!
//! Lanes: v3 = 1, 2 (v3's high half 0xffff in lane 1, never read), v4 =
//! 5, 3; v6 starts as 0xaaaa_bbbb.

mod sixteen;

use amdgpu_isa::Chip;
use sixteen::check;

const B: [u32; 2] = [0x0000_0001, 0xffff_0002];
const C: [u32; 2] = [0x0000_0005, 0x1111_0003];
const OLD: [u32; 2] = [0xaaaa_bbbb; 2];
const INPUTS: [&[u32]; 4] = [&[], &B, &C, &OLD];

#[test]
fn gfx9_reads_the_low_half_of_the_f32_constant() {
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        // 0 + b, the high half zeroed (GFX9's VOP2-born 16-bit operations).
        check(
            chip,
            "v_add_u16_e64 v6, 0x3800, v3",
            &[0xd126_0006, 0x0002_06f0],
            INPUTS,
            &[0x0000_0001, 0x0000_0002],
        );
        // 0 * b + c, the high half kept.
        check(
            chip,
            "v_mad_u16 v6, 0x3800, v3, v4",
            &[0xd204_0006, 0x0412_06f0],
            INPUTS,
            &[0xaaaa_0005, 0xaaaa_0003],
        );
    }
}

#[test]
fn gfx11_reads_the_f16_constant() {
    let chip = Chip::Gfx1100;
    // 0x3800 + b.
    check(
        chip,
        "v_add_nc_u16 v6, 0x3800, v3",
        &[0xd703_0006, 0x0002_06f0],
        INPUTS,
        &[0xaaaa_3801, 0xaaaa_3802],
    );
    // 0x3800 * b + c: 0x3805; 0x7000 + 3 = 0x7003.
    check(
        chip,
        "v_mad_u16 v6, 0x3800, v3, v4",
        &[0xd641_0006, 0x0412_06f0],
        INPUTS,
        &[0xaaaa_3805, 0xaaaa_7003],
    );
}
