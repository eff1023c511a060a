//! The program counter holds absolute addresses: `s_getpc_b64` returns the
//! address of the next instruction (CDNA3 and RDNA3 ISA guides:
//! `D0.i64 = PC + 4`), which kernels offset to reach constant tables placed
//! after their code (LLVM's `s_getpc_b64` then `s_add_u32 sN, sN,
//! sym@rel32@lo+4`, IREE's fft and rng kernels), and `s_setpc_b64` /
//! `s_swappc_b64` jump to an absolute address (`s_swappc_b64` writing the
//! address after it first). The code is placed at an address whose low
//! dword carries into the high one when the tables are reached.

mod handmade;

use amdgpu_isa::{Chip, Program, Regions};
use handmade::{bytes, run};

/// Where the code is: 0x100 bytes below a 4 GiB boundary.
const ENTRY: u64 = 0x7ffe_ffff_ff00;
const OUT: u64 = 0x10_0000;

fn program(chip: Chip, words: &[u32]) -> Program {
    Program::decode(chip, &bytes(words)).unwrap().at(ENTRY)
}

/// One lane of `program`, with s[0:1] = OUT (16 bytes) and the code's own
/// bytes (`image`) in memory at ENTRY; OUT's bytes after it.
fn run_one(program: &Program, image: Vec<u8>) -> Result<Vec<u8>, String> {
    let mut memory = Regions::new(vec![(OUT, vec![0; 16]), (ENTRY, image)]);
    run(program, &[OUT as u32, (OUT >> 32) as u32], 1, &mut memory).map_err(|e| e.to_string())?;
    Ok(memory.bytes(OUT).unwrap().to_vec())
}

fn qword(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().unwrap())
}

#[test]
fn getpc_returns_the_absolute_address_of_the_next_instruction() {
    let gfx942: &[u32] = &[
        0xbe841c00, // s_getpc_b64 s[4:5]
        0x7e000204, // v_mov_b32_e32 v0, s4
        0x7e020205, // v_mov_b32_e32 v1, s5
        0x7e040280, // v_mov_b32_e32 v2, 0
        0xdc748000, 0x00000002, // global_store_dwordx2 v2, v[0:1], s[0:1]
        0xbf810000, // s_endpgm
    ];
    let gfx1100: &[u32] = &[
        0xbe844700, // s_getpc_b64 s[4:5]
        0x7e000204, // v_mov_b32_e32 v0, s4
        0x7e020205, // v_mov_b32_e32 v1, s5
        0x7e040280, // v_mov_b32_e32 v2, 0
        0xdc6e0000, 0x00000002, // global_store_b64 v2, v[0:1], s[0:1]
        0xbfb00000, // s_endpgm
    ];
    for (chip, words) in [(Chip::Gfx942, gfx942), (Chip::Gfx1100, gfx1100)] {
        let out = run_one(&program(chip, words), bytes(words)).unwrap();
        assert_eq!(qword(&out), ENTRY + 4, "{chip:?}");
    }
}

#[test]
fn a_pc_relative_constant_table_is_read_from_behind_the_code() {
    // s4 = ENTRY + 4 + 0x12c: the table is at entry+0x130, past a 4 GiB
    // boundary (the s_addc_u32 carries).
    let gfx942: &[u32] = &[
        0xbe841c00, // s_getpc_b64 s[4:5]
        0x8004ff04, 0x0000012c, // s_add_u32 s4, s4, 0x12c
        0x82058005, // s_addc_u32 s5, s5, 0
        0xc0020182, 0x00000000, // s_load_dword s6, s[4:5], 0x0
        0xbf8cc07f, // s_waitcnt lgkmcnt(0)
        0x7e000206, // v_mov_b32_e32 v0, s6
        0x7e020280, // v_mov_b32_e32 v1, 0
        0xdc708000, 0x00000001, // global_store_dword v1, v0, s[0:1]
        0xbf810000, // s_endpgm
    ];
    let gfx1100: &[u32] = &[
        0xbe844700, // s_getpc_b64 s[4:5]
        0x8004ff04, 0x0000012c, // s_add_u32 s4, s4, 0x12c
        0x82058005, // s_addc_u32 s5, s5, 0
        0xf4000182, 0xf8000000, // s_load_b32 s6, s[4:5], 0x0
        0xbf89fc07, // s_waitcnt lgkmcnt(0)
        0x7e000206, // v_mov_b32_e32 v0, s6
        0x7e020280, // v_mov_b32_e32 v1, 0
        0xdc6a0000, 0x00000001, // global_store_b32 v1, v0, s[0:1]
        0xbfb00000, // s_endpgm
    ];
    for (chip, words) in [(Chip::Gfx942, gfx942), (Chip::Gfx1100, gfx1100)] {
        // The code, then zeros, then the table's one entry (outside the
        // decoded code, as in a code object's .rodata).
        let mut image = bytes(words);
        image.resize(0x130, 0);
        image.extend(0xcafe_f00du32.to_le_bytes());
        let out = run_one(&program(chip, words), image).unwrap();
        assert_eq!(&out[..4], &0xcafe_f00du32.to_le_bytes(), "{chip:?}");
    }
}

#[test]
fn swappc_calls_into_the_program_and_setpc_returns() {
    // The function at entry+48 sets v3 = 42 and returns through s[30:31],
    // which s_swappc_b64 (at entry+12) set to entry+16.
    let gfx942: &[u32] = &[
        0xbe841c00, // s_getpc_b64 s[4:5]
        0x8004ac04, // s_add_u32 s4, s4, 44
        0x82058005, // s_addc_u32 s5, s5, 0
        0xbe9e1e04, // s_swappc_b64 s[30:31], s[4:5]
        0x7e00021e, // v_mov_b32_e32 v0, s30
        0x7e02021f, // v_mov_b32_e32 v1, s31
        0x7e040280, // v_mov_b32_e32 v2, 0
        0xdc748000, 0x00000002, // global_store_dwordx2 v2, v[0:1], s[0:1]
        0xdc708008, 0x00000302, // global_store_dword v2, v3, s[0:1] offset:8
        0xbf810000, // s_endpgm
        0x7e0602aa, // v_mov_b32_e32 v3, 42
        0xbe801d1e, // s_setpc_b64 s[30:31]
    ];
    let gfx1100: &[u32] = &[
        0xbe844700, // s_getpc_b64 s[4:5]
        0x8004ac04, // s_add_u32 s4, s4, 44
        0x82058005, // s_addc_u32 s5, s5, 0
        0xbe9e4904, // s_swappc_b64 s[30:31], s[4:5]
        0x7e00021e, // v_mov_b32_e32 v0, s30
        0x7e02021f, // v_mov_b32_e32 v1, s31
        0x7e040280, // v_mov_b32_e32 v2, 0
        0xdc6e0000, 0x00000002, // global_store_b64 v2, v[0:1], s[0:1]
        0xdc6a0008, 0x00000302, // global_store_b32 v2, v3, s[0:1] offset:8
        0xbfb00000, // s_endpgm
        0x7e0602aa, // v_mov_b32_e32 v3, 42
        0xbe80481e, // s_setpc_b64 s[30:31]
    ];
    for (chip, words) in [(Chip::Gfx942, gfx942), (Chip::Gfx1100, gfx1100)] {
        let out = run_one(&program(chip, words), bytes(words)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(qword(&out), ENTRY + 16, "{chip:?}: return address");
        assert_eq!(
            &out[8..12],
            &42u32.to_le_bytes(),
            "{chip:?}: the callee ran"
        );
    }
}

#[test]
fn setpc_outside_the_program_is_a_fault_naming_the_target() {
    let gfx942: &[u32] = &[
        0xbe841c00, // s_getpc_b64 s[4:5]
        0x8004ff04, 0x00001000, // s_add_u32 s4, s4, 0x1000
        0x82058005, // s_addc_u32 s5, s5, 0
        0xbe801d04, // s_setpc_b64 s[4:5]
        0xbf810000, // s_endpgm
    ];
    let gfx1100: &[u32] = &[
        0xbe844700, // s_getpc_b64 s[4:5]
        0x8004ff04, 0x00001000, // s_add_u32 s4, s4, 0x1000
        0x82058005, // s_addc_u32 s5, s5, 0
        0xbe804804, // s_setpc_b64 s[4:5]
        0xbfb00000, // s_endpgm
    ];
    for (chip, words) in [(Chip::Gfx942, gfx942), (Chip::Gfx1100, gfx1100)] {
        let err = run_one(&program(chip, words), bytes(words)).unwrap_err();
        let target = ENTRY + 4 + 0x1000;
        assert!(
            err.contains(&format!("s_setpc_b64 to {target:#x}"))
                && err.contains("outside the code decoded")
                && err.contains("entry+0x10"),
            "{chip:?}: {err}"
        );
    }
}

/// The gfx942 kernel of `swappc_calls_into_the_program_and_setpc_returns`:
/// its own code is the first 11 dwords (to `s_endpgm`); the function at
/// entry+48 follows it.
const CALLER_GFX942: &[u32] = &[
    0xbe841c00, // s_getpc_b64 s[4:5]
    0x8004ac04, // s_add_u32 s4, s4, 44
    0x82058005, // s_addc_u32 s5, s5, 0
    0xbe9e1e04, // s_swappc_b64 s[30:31], s[4:5]
    0x7e00021e, // v_mov_b32_e32 v0, s30
    0x7e02021f, // v_mov_b32_e32 v1, s31
    0x7e040280, // v_mov_b32_e32 v2, 0
    0xdc748000, 0x00000002, // global_store_dwordx2 v2, v[0:1], s[0:1]
    0xdc708008, 0x00000302, // global_store_dword v2, v3, s[0:1] offset:8
    0xbf810000, // s_endpgm
];
const CALLEE_GFX942: &[u32] = &[
    0x7e0602aa, // v_mov_b32_e32 v3, 42
    0xbe801d1e, // s_setpc_b64 s[30:31]
];

#[test]
fn a_call_into_the_code_after_the_kernel_runs_when_decoded_with_it() {
    let kernel_len = CALLER_GFX942.len() * 4;
    let words: Vec<u32> = CALLER_GFX942.iter().chain(CALLEE_GFX942).copied().collect();
    let program = Program::decode_with_callees(Chip::Gfx942, &bytes(&words), kernel_len)
        .unwrap()
        .at(ENTRY);
    assert!(program.callees_end().is_none());
    let out = run_one(&program, bytes(&words)).unwrap();
    assert_eq!(qword(&out), ENTRY + 16, "return address");
    assert_eq!(&out[8..12], &42u32.to_le_bytes(), "the callee ran");
    // The kernel's bytes alone: the same call is outside the program.
    let alone = Program::decode(Chip::Gfx942, &bytes(CALLER_GFX942))
        .unwrap()
        .at(ENTRY);
    let err = run_one(&alone, bytes(&words)).unwrap_err();
    assert!(err.contains("outside the code decoded"), "{err}");
}

#[test]
fn code_after_the_kernel_that_does_not_decode_ends_the_program_there() {
    let kernel_len = CALLER_GFX942.len() * 4;
    // An invalid word between the kernel and its callee: the callee is
    // past where decoding stopped (the call's target moved by 4).
    let mut words: Vec<u32> = CALLER_GFX942.to_vec();
    words[1] = 0x8004b004; // s_add_u32 s4, s4, 48
    words.push(0xffff_ffff);
    words.extend(CALLEE_GFX942);
    let program = Program::decode_with_callees(Chip::Gfx942, &bytes(&words), kernel_len)
        .unwrap()
        .at(ENTRY);
    let stopped = program.callees_end().expect("decoding stopped");
    assert_eq!(stopped.offset, kernel_len as u32);
    let err = run_one(&program, bytes(&words)).unwrap_err();
    assert!(
        err.contains("outside the code decoded") && err.contains("decoding stopped at entry+0x30"),
        "{err}"
    );
    // An invalid word inside the kernel's own bytes is still refused.
    let mut bad = CALLER_GFX942.to_vec();
    bad[4] = 0xffff_ffff;
    assert!(Program::decode_with_callees(Chip::Gfx942, &bytes(&bad), kernel_len).is_err());
}

#[test]
fn a_kernel_without_a_jump_through_a_register_decodes_nothing_after_it() {
    let kernel: &[u32] = &[
        0x7e0602aa, // v_mov_b32_e32 v3, 42
        0xbf810000, // s_endpgm
    ];
    let mut words = kernel.to_vec();
    words.push(0xffff_ffff);
    let program = Program::decode_with_callees(Chip::Gfx942, &bytes(&words), 8).unwrap();
    assert_eq!(program.code_bytes(), 8);
    assert!(program.callees_end().is_none());
}
