//! Writes to MODE (`s_setreg_b32`, `s_setreg_imm32_b32`, GFX11's
//! `s_denorm_mode` and `s_round_mode`): the denormal and other bits are
//! accepted (the interpreter keeps denormals whatever they say, as LLVM's
//! compiler expects around f32 division), a rounding mode other than to
//! nearest even is a fault naming it, and a write to another hardware
//! register refuses the kernel when it is decoded.

mod handmade;

use amdgpu_isa::{Chip, Program, Regions};
use handmade::{bytes, per_lane32, run};

/// Writes to MODE's denormal, clamp and rounding (to nearest) fields,
/// then v6 = v2 + v3.
const ACCEPTED_GFX9: &[u32] = &[
    0xba000901, 0x00000003, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
    0xbe8c008f, // s_mov_b32 s12, 15
    0xb90c1901, // s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s12
    0xba001801, 0x00000000, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0
    0xba000a01, 0x00000003, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 2), 3
    0xba00f801, 0x000000f0, // s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0xf0
    0x020c0702, // v_add_f32_e32 v6, v2, v3
];
const ACCEPTED_GFX11: &[u32] = &[
    0xb9800901, 0x00000003, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
    0xbe8c008f, // s_mov_b32 s12, 15
    0xb90c1901, // s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s12
    0xb9801801, 0x00000000, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0
    0xb9800a01, 0x00000003, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 2), 3
    0xb980f801, 0x000000f0, // s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0xf0
    0xbf92000f, // s_denorm_mode 15
    0xbf910000, // s_round_mode 0x0
    0x060c0702, // v_add_f32_e32 v6, v2, v3
];

#[test]
fn writes_to_modes_denormal_and_other_fields_are_accepted() {
    let (a, b) = ([1.5f32, -2.0], [0.25f32, 8.0]);
    for (chip, code) in [
        (Chip::Gfx942, ACCEPTED_GFX9),
        (Chip::Gfx1100, ACCEPTED_GFX11),
    ] {
        let got = per_lane32(chip, code, &[&a.map(f32::to_bits), &b.map(f32::to_bits)]);
        assert_eq!(got, vec![1.75f32.to_bits(), 6.0f32.to_bits()], "{chip:?}");
    }
}

fn outcome(chip: Chip, words: &[u32]) -> Result<(), String> {
    let program = Program::decode(chip, &bytes(words)).map_err(|e| e.to_string())?;
    run(&program, &[], 1, &mut Regions::new(vec![]))
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn a_rounding_mode_other_than_nearest_is_a_fault() {
    for (chip, words) in [
        (
            Chip::Gfx942,
            &[
                0xba001801u32,
                0x00000003, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3
                0xbf810000, // s_endpgm
            ][..],
        ),
        (
            Chip::Gfx1100,
            &[
                0xb9801801u32,
                0x00000003, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3
                0xbfb00000, // s_endpgm
            ][..],
        ),
        (
            Chip::Gfx1100,
            &[
                0xbf910003u32, // s_round_mode 0x3
                0xbfb00000,    // s_endpgm
            ][..],
        ),
    ] {
        let err = outcome(chip, words).unwrap_err();
        assert!(
            err.contains("rounding mode 0x3") && err.contains("entry+0x0"),
            "{chip:?}: {err}"
        );
    }
}

#[test]
fn a_write_to_another_hardware_register_is_refused_at_decode() {
    for (chip, words) in [
        (
            Chip::Gfx942,
            &[
                0xba001803u32,
                0x00000000, // s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS, 0, 4), 0
                0xbf810000, // s_endpgm
            ][..],
        ),
        (
            Chip::Gfx1100,
            &[
                0xb9801803u32,
                0x00000000, // s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS, 0, 4), 0
                0xbfb00000, // s_endpgm
            ][..],
        ),
    ] {
        let err = Program::decode(chip, &bytes(words))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("other than MODE") && err.contains("hardware register 3"),
            "{chip:?}: {err}"
        );
    }
}
