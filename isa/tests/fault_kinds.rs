//! A dispatch that stops says what kind of stop it is: a fault the kernel
//! would take on a GPU too (an access outside memory) is
//! `FaultKind::Device`; something only execution shows the interpreter
//! does not do (an `s_setpc_b64` into other code, a rounding mode set from
//! a register) is `FaultKind::Unsupported`, which the simulator answers as
//! a launch it cannot run. What the encoding alone shows (a rounding mode
//! set by an immediate) is refused when the kernel is decoded.

mod handmade;

use amdgpu_isa::{Chip, ExecError, FaultKind, Program, Regions};
use handmade::{bytes, run};

const SETPC_S0_GFX942: u32 = 0xbe801d00; // s_setpc_b64 s[0:1]
const SETPC_S0_GFX1100: u32 = 0xbe804800; // s_setpc_b64 s[0:1]
const ENDPGM_GFX942: u32 = 0xbf810000; // s_endpgm
const ENDPGM_GFX1100: u32 = 0xbfb00000; // s_endpgm

fn chips() -> [(Chip, u32, u32); 2] {
    [
        (Chip::Gfx942, SETPC_S0_GFX942, ENDPGM_GFX942),
        (Chip::Gfx1100, SETPC_S0_GFX1100, ENDPGM_GFX1100),
    ]
}

#[test]
fn a_jump_outside_the_code_is_unsupported_not_a_device_fault() {
    for (chip, setpc, endpgm) in chips() {
        let program = Program::decode(chip, &bytes(&[setpc, endpgm])).unwrap();
        let fault = run(&program, &[0x1000, 0], 1, &mut Regions::new(vec![])).unwrap_err();
        assert_eq!(fault.kind, FaultKind::Unsupported, "{chip:?}: {fault}");
        assert!(
            fault
                .reason
                .starts_with("s_setpc_b64 to 0x1000, outside the code decoded"),
            "{chip:?}: {fault}"
        );
    }
}

#[test]
fn a_load_outside_memory_is_a_device_fault() {
    for (chip, load, endpgm) in [
        // global_load_dword v1, v0, s[0:1]
        (Chip::Gfx942, [0xdc508000, 0x01000000], ENDPGM_GFX942),
        // global_load_b32 v1, v0, s[0:1]
        (Chip::Gfx1100, [0xdc520000, 0x01000000], ENDPGM_GFX1100),
    ] {
        let program = Program::decode(chip, &bytes(&[load[0], load[1], endpgm])).unwrap();
        let fault = run(&program, &[0x10, 0], 1, &mut Regions::new(vec![])).unwrap_err();
        assert_eq!(fault.kind, FaultKind::Device, "{chip:?}: {fault}");
        assert_eq!(
            fault.reason, "memory access fault: load of 4 bytes at 0x10 (lane 0)",
            "{chip:?}"
        );
    }
}

#[test]
fn a_rounding_mode_from_a_register_is_unsupported_at_run_time() {
    for (chip, _, endpgm) in chips() {
        let words = [
            0xbe820081, // s_mov_b32 s2, 1
            0xb9021801, // s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s2
            endpgm,
        ];
        let program = Program::decode(chip, &bytes(&words)).unwrap();
        let fault = run(&program, &[], 1, &mut Regions::new(vec![])).unwrap_err();
        assert_eq!(fault.kind, FaultKind::Unsupported, "{chip:?}: {fault}");
        assert_eq!(fault.offset, 4, "{chip:?}");
    }
}

#[test]
fn a_rounding_mode_by_immediate_is_refused_when_decoded() {
    let err = Program::decode(Chip::Gfx1100, &bytes(&[0xbf910001, ENDPGM_GFX1100])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "at entry+0x0: a rounding mode other than to nearest even is not supported by the \
         interpreter (s_round_mode: rounding mode 0x1 (MODE.FP_ROUND))"
    );
}

#[test]
fn only_what_the_interpreter_does_not_do_is_unsupported() {
    let unsupported = ExecError::OutsideCode {
        mnemonic: "s_setpc_b64",
        target: 0,
        code_bytes: 4,
        entry: 0x100,
        stopped: None,
    };
    assert!(unsupported.is_unsupported());
    assert!(!ExecError::IllegalInstruction.is_unsupported());
    assert!(!ExecError::Hung { limit: 1 }.is_unsupported());
    assert!(!ExecError::BranchMisaligned { target: 2 }.is_unsupported());
}
