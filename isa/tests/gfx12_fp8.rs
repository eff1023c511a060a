//! GFX12's 8-bit float conversions take OCP's E4M3FN and E5M2 formats
//! (AMD's RDNA4 instruction set guide; MLIR's `Chipset::hasOcpFp8` holds
//! for gfx12 as for gfx950), which have a `-0` and NaNs 0x7f/0xff where
//! gfx942's FNUZ formats have neither (0x80 is FNUZ's NaN). The
//! interpreter models only the FNUZ ones, so gfx1201 refuses the
//! conversions when the kernel is decoded, as gfx950 does, instead of
//! computing FNUZ bytes (IREE's `linalg/small_float_arith.mlir` found the
//! wrong `-0` and NaN results). Words from `llvm-mc-19 --arch=amdgcn
//! --mcpu=gfx1201 -show-encoding` of the text beside each.

mod handmade;

use amdgpu_isa::{Chip, Program};
use handmade::bytes;

const ENDPGM: u32 = 0xbfb00000; // s_endpgm

#[test]
fn gfx1201_refuses_its_ocp_eight_bit_float_conversions() {
    for (words, mnemonic) in [
        // v_cvt_pk_fp8_f32 v0, v1, v2
        (&[0xd7690000, 0x00020501][..], "v_cvt_pk_fp8_f32"),
        // v_cvt_f32_fp8_e32 v0, v1
        (&[0x7e00d901][..], "v_cvt_f32_fp8"),
        // v_cvt_pk_f32_bf8_e32 v[0:1], v1
        (&[0x7e00df01][..], "v_cvt_pk_f32_bf8"),
    ] {
        let code = [words, &[ENDPGM]].concat();
        let err = Program::decode(Chip::Gfx1201, &bytes(&code)).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains(mnemonic) && text.contains("not supported"),
            "{mnemonic}: {text}"
        );
    }
    // Not a refusal of VOP1 as such: v_mov_b32_e32 v0, v1 decodes.
    Program::decode(Chip::Gfx1201, &bytes(&[0x7e000301, ENDPGM])).unwrap();
}
