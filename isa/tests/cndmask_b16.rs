//! GFX11's `v_cndmask_b16` (VOP3, which true16 code uses for 16-bit
//! selects): source 1's half where the condition mask is set, else source
//! 0's, `op_sel` picking each source's half and the destination's (the
//! other half kept), `neg`/`abs` acting on the chosen half's sign bit.
//! The condition is v4 != 0; v2, v3 the sources, v5 what v6 held before
//! where a kernel sets it.

mod handmade;

use amdgpu_isa::Chip;
use handmade::per_lane32;

const A: [u32; 4] = [0x1111_2222, 0x1111_2222, 0x5555_a666, 0x9999_0001];
const B: [u32; 4] = [0x3333_4444, 0x3333_c444, 0x7777_8888, 0xbbbb_7fff];
const COND: [u32; 4] = [0, 1, 0, 5];
const OLD: [u32; 4] = [0xaaaa_bbbb; 4];

fn run(op: &[u32]) -> Vec<u32> {
    let code = [&[0x7c9a0880u32][..], op].concat(); // v_cmp_ne_u32_e32 vcc_lo, 0, v4
    per_lane32(Chip::Gfx1100, &code, &[&A, &B, &COND, &OLD])
}

#[test]
fn cndmask_b16_selects_a_half_by_the_mask() {
    let plain = run(&[0xd65d0006, 0x01aa0702]); // v_cndmask_b16 v6, v2, v3, vcc_lo
    assert_eq!(plain, [0x2222, 0xc444, 0xa666, 0x7fff]);
    let modified = run(&[0xd65d0206, 0x21aa0702]); // v_cndmask_b16 v6, -v2, |v3|, vcc_lo
    assert_eq!(modified, [0xa222, 0x4444, 0x2666, 0x7fff]);
    let constants = run(&[
        0x7e0c0305, // v_mov_b32_e32 v6, v5
        0xd65d0006, 0x01a982f2, // v_cndmask_b16 v6, 1.0, -1, vcc_lo
    ]);
    assert_eq!(
        constants,
        [0xaaaa_3c00, 0xaaaa_ffff, 0xaaaa_3c00, 0xaaaa_ffff]
    );
    // op_sel:[1,1,0,1] (sources' and destination's high halves), which
    // LLVM 19 cannot assemble: the encoding above with bits 14, 12, 11.
    let high = run(&[
        0x7e0c0305, // v_mov_b32_e32 v6, v5
        0xd65d5806, 0x01aa0702, // v_cndmask_b16 v6, v2, v3, vcc_lo op_sel:[1,1,0,1]
    ]);
    assert_eq!(high, [0x1111_bbbb, 0x3333_bbbb, 0x5555_bbbb, 0xbbbb_bbbb]);
}
