//! GFX9's `v_fma_f16` (VOP3 opcode 0x206 on gfx90a and gfx942, the form
//! GFX9 introduced with op_sel) writes its f16 result to the half
//! `op_sel[3]` picks and keeps the other half: the CDNA2 and CDNA3 ISA
//! guides' V_FMA_F16 ("If op_sel[3] is 0 Result is written to 16 LSBs of
//! destination VGPR and hi 16 bits are preserved"), and LLVM's
//! `GCNSubtarget::zeroesHigh16BitsOfDest`, which names only GFX8's opcode
//! (`v_fma_legacy_f16` on GFX9) as zeroing the high half on GFX9.
//!
//! f16 bits from `numpy.float16(x).view(numpy.uint16)`: 1*3 + 0.5 = 3.5
//! 0x4300, -2*2 - 0.5 = -4.5 0xc480, 2*3 + 4 = 10 0x4900, -1*3 + |-0.5|
//! = -2.5 0xc100, 2*2 + |-0.5| = 4.5 0x4480. Encodings and text from
//! `llvm-mc-19 --arch=amdgcn --mcpu=gfx90a|gfx942 -show-encoding`.

mod sixteen;

use amdgpu_isa::Chip;
use sixteen::check;

/// Lane 0: v2 = 2 | 1, v3 = 3 (low), v4 = 4 | 0.5; lane 1: v2 = -2, v3 =
/// 2, v4 = -0.5 (low halves; high halves 0).
const A: [u32; 2] = [0x4000_3c00, 0x0000_c000];
const B: [u32; 2] = [0x5555_4200, 0x0000_4000];
const C: [u32; 2] = [0x4400_3800, 0x0000_b800];
const OLD: [u32; 2] = [0xaaaa_bbbb; 2];

#[test]
fn fma_f16_keeps_the_high_half() {
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        let inputs: [&[u32]; 4] = [&A, &B, &C, &OLD];
        check(
            chip,
            "v_fma_f16 v6, v2, v3, v4",
            &[0xd206_0006, 0x0412_0702],
            inputs,
            &[0xaaaa_4300, 0xaaaa_c480],
        );
        // The high half written, the low half kept.
        check(
            chip,
            "v_fma_f16 v6, v2, v3, v4 op_sel:[1,0,1,1]",
            &[0xd206_6806, 0x0412_0702],
            inputs,
            &[0x4900_bbbb, 0x0000_bbbb],
        );
        let inputs: [&[u32]; 4] = [&A, &B, &[0x0000_b800, 0x0000_b800], &OLD];
        check(
            chip,
            "v_fma_f16 v6, -v2, v3, |v4|",
            &[0xd206_0406, 0x2412_0702],
            inputs,
            &[0xaaaa_c100, 0xaaaa_4480],
        );
    }
}
