//! Each field the decoder reads, at the edges of its range and with every
//! value its source lists, and the names messages give: the encodings of
//! Linux's `nvd.h` (opcodes, `WAIT_REG_MEM_FUNCTION`, `ACQUIRE_MEM`'s field
//! widths, `RELEASE_MEM_DST_SEL`, `PACKET3_SET_SH_REG_END`), ROCr's
//! `amd_gpu_pm4.h` (`IB_BASE_HI`) and IREE's `util/pm4_emitter.h`
//! (`COPY_DATA`'s selects, the compute registers and initiator bits).

use super::tests::{INITIATOR, iree_dispatch, launch_of, packet3};
use super::*;

fn refusal(ib: &[u32], generation: Generation) -> Pm4Error {
    match decode(ib, generation) {
        Err(e) => e,
        Ok(commands) => panic!("decoded {commands:?}"),
    }
}

#[test]
fn errors_show_their_kind_and_reason() {
    let malformed = Pm4Error::Malformed("a reason".into()).to_string();
    let not_modelled = Pm4Error::NotModelled("another".into()).to_string();
    assert!(
        malformed.contains("malformed") && malformed.contains("a reason"),
        "{malformed}"
    );
    assert!(
        not_modelled.contains("not modelled") && not_modelled.contains("another"),
        "{not_modelled}"
    );
}

#[test]
fn opcodes_are_named_as_linux_names_them() {
    // nvd.h's PACKET3_* values.
    for (op, linux) in [
        (0x10, "NOP"),
        (0x15, "DISPATCH_DIRECT"),
        (0x16, "DISPATCH_INDIRECT"),
        (0x37, "WRITE_DATA"),
        (0x3C, "WAIT_REG_MEM"),
        (0x3F, "INDIRECT_BUFFER"),
        (0x40, "COPY_DATA"),
        (0x46, "EVENT_WRITE"),
        (0x49, "RELEASE_MEM"),
        (0x58, "ACQUIRE_MEM"),
        (0x76, "SET_SH_REG"),
        (0x79, "SET_UCONFIG_REG"),
        (0x93, "WAIT_REG_MEM64"),
    ] {
        assert_eq!(name(op), format!("{linux} ({op:#04x})"));
    }
    // PACKET3_COND_EXEC: not one the node decodes.
    assert_eq!(name(0x22), "opcode 0x22");
}

#[test]
fn compute_registers_are_named_as_iree_names_them() {
    // pm4_emitter.h's *_REGISTER dword addresses; the Y and Z registers
    // follow X (Mesa's R_00B810/4/8, R_00B81C/20/24, R_00B86C/70/74).
    for (register, iree) in [
        (0x2E00, "COMPUTE_DISPATCH_INITIATOR"),
        (0x2E04, "COMPUTE_START_X"),
        (0x2E05, "COMPUTE_START_Y"),
        (0x2E06, "COMPUTE_START_Z"),
        (0x2E07, "COMPUTE_NUM_THREAD_X"),
        (0x2E09, "COMPUTE_NUM_THREAD_Z"),
        (0x2E0C, "COMPUTE_PGM_LO"),
        (0x2E0D, "COMPUTE_PGM_HI"),
        (0x2E12, "COMPUTE_PGM_RSRC1"),
        (0x2E13, "COMPUTE_PGM_RSRC2"),
        (0x2E15, "COMPUTE_RESOURCE_LIMITS"),
        (0x2E18, "COMPUTE_TMPRING_SIZE"),
        (0x2E1B, "COMPUTE_RESTART_X"),
        (0x2E1D, "COMPUTE_RESTART_Z"),
        (0x2E28, "COMPUTE_PGM_RSRC3"),
        (0x2E40, "COMPUTE_USER_DATA_0"),
        (0x2E4F, "COMPUTE_USER_DATA_15"),
    ] {
        assert_eq!(
            register_name(register).as_deref(),
            Some(iree),
            "{register:#x}"
        );
    }
    assert_eq!(register_name(0x2E50), None);
}

#[test]
fn copy_data_immediates_take_the_count_s_width() {
    // SRC_SEL_IMMEDIATE_DATA (5), DST_SEL_MEM (5 << 8); COUNT_SEL_64_BITS
    // (1 << 16) clear: only the low dword of the source is the value.
    let narrow = [
        packet3(0x40, 6),
        5 | 5 << 8,
        0xAABB_CCDD,
        0x1122_3344,
        0x3004,
        0x7f00,
    ];
    assert_eq!(
        decode(&narrow, Generation::Gfx9),
        Ok(vec![Command::Copy {
            source: Source::Immediate(0xAABB_CCDD),
            destination: 0x7f00_0000_3004,
            width: Width::Dword
        }])
    );
    let mut wide = narrow;
    wide[1] |= 1 << 16;
    wide[4] = 0x3008;
    assert_eq!(
        decode(&wide, Generation::Gfx9),
        Ok(vec![Command::Copy {
            source: Source::Immediate(0x1122_3344_AABB_CCDD),
            destination: 0x7f00_0000_3008,
            width: Width::Qword
        }])
    );
}

#[test]
fn write_data_to_one_address() {
    // WRITE_DATA_DST_SEL 5 (memory), WR_ONE_ADDR (1 << 16).
    let ib = [packet3(0x37, 6), 5 << 8 | 1 << 16, 0x1000, 0x7f00, 1, 2];
    assert_eq!(
        decode(&ib, Generation::Gfx10Plus),
        Ok(vec![Command::Write {
            address: 0x7f00_0000_1000,
            data: vec![1, 2],
            one_address: true
        }])
    );
}

#[test]
fn wait_functions_are_linux_s() {
    // WAIT_REG_MEM_FUNCTION: 0 always, 1 <, 2 <=, 3 ==, 4 !=, 5 >=, 6 >;
    // MEM_SPACE 1 (memory). Each against a value below, at and above the
    // reference 10.
    let table = [
        (Compare::Always, [true, true, true]),
        (Compare::Less, [true, false, false]),
        (Compare::LessEqual, [true, true, false]),
        (Compare::Equal, [false, true, false]),
        (Compare::NotEqual, [true, false, true]),
        (Compare::GreaterEqual, [false, true, true]),
        (Compare::Greater, [false, false, true]),
    ];
    for (function, (compare, holds)) in (0u32..).zip(table) {
        let ib = [
            packet3(0x3C, 7),
            function | 1 << 4,
            0x5004,
            0x7f00,
            10,
            0xFF,
            4,
        ];
        assert_eq!(
            decode(&ib, Generation::Gfx9),
            Ok(vec![Command::Wait {
                address: 0x7f00_0000_5004,
                width: Width::Dword,
                function: compare,
                reference: 10,
                mask: 0xFF
            }]),
            "function {function}"
        );
        let seen = [9, 10, 11].map(|value| compare.holds(value, 10));
        assert_eq!(seen, holds, "{compare:?}");
    }
    // WAIT_REG_MEM_OPERATION 1 (write, wait, write a register).
    let ib = [
        packet3(0x3C, 7),
        3 | 1 << 4 | 1 << 6,
        0x5004,
        0x7f00,
        10,
        0xFF,
        4,
    ];
    assert!(matches!(
        refusal(&ib, Generation::Gfx9),
        Pm4Error::NotModelled(s) if s.contains("operation 1")
    ));
}

#[test]
fn event_write_of_a_compute_partial_flush() {
    // EVENT_TYPE(CS_PARTIAL_FLUSH = 7) | EVENT_INDEX(4), as IREE emits it.
    let ib = [packet3(0x46, 2), 7 | 4 << 8];
    assert_eq!(
        decode(&ib, Generation::Gfx10Plus),
        Ok(vec![Command::Nothing("EVENT_WRITE CS_PARTIAL_FLUSH")])
    );
    assert!(matches!(
        refusal(&[packet3(0x46, 3), 7 | 4 << 8, 0], Generation::Gfx9),
        Pm4Error::Malformed(_)
    ));
}

#[test]
fn set_uconfig_reg_needs_a_value() {
    assert!(matches!(
        refusal(&[packet3(0x79, 2), 0x240], Generation::Gfx9),
        Pm4Error::Malformed(_)
    ));
    assert!(matches!(
        refusal(&[packet3(0x79, 4), 0x240, 1, 2], Generation::Gfx9),
        Pm4Error::NotModelled(s) if s.contains("SET_UCONFIG_REG")
    ));
}

#[test]
fn set_sh_reg_reaches_the_last_sh_register() {
    // PACKET3_SET_SH_REG_START 0x2C00, _END 0x3000 (exclusive): offset
    // 0x3FF is the last register.
    for (offset, values) in [(0x3FF, vec![7]), (0x3FE, vec![7, 8])] {
        let mut ib = vec![packet3(0x76, 2 + values.len() as u32), offset];
        ib.extend(&values);
        assert_eq!(
            decode(&ib, Generation::Gfx9),
            Ok(vec![Command::SetShRegisters {
                first: 0x2C00 + offset,
                values
            }])
        );
    }
}

#[test]
fn acquire_mem_fields_at_their_widths() {
    // COHER_CNTL [30:0] (gfx9), POLL_INTERVAL [15:0], GCR_CNTL [18:0].
    let gfx9 = |coher: u32, poll: u32| [packet3(0x58, 7), coher, !0, 0xff_ffff, 0, 0, poll];
    let gfx10 = |gcr: u32, poll: u32| [packet3(0x58, 8), 1 << 31, !0, 0xff_ffff, 0, 0, poll, gcr];
    let done = Ok(vec![Command::Nothing("ACQUIRE_MEM")]);
    assert_eq!(decode(&gfx9(0x7FFF_FFFF, 0xFFFF), Generation::Gfx9), done);
    assert_eq!(decode(&gfx10(0x7FFFF, 0xFFFF), Generation::Gfx10Plus), done);
    for ib in [gfx9(1 << 31, 10), gfx9(0, 0x1_0000)] {
        assert!(matches!(
            refusal(&ib, Generation::Gfx9),
            Pm4Error::Malformed(_)
        ));
    }
    assert!(matches!(
        refusal(&gfx10(0, 0x1_0000), Generation::Gfx10Plus),
        Pm4Error::Malformed(_)
    ));
}

#[test]
fn release_mem_destinations() {
    // DST_SEL 0 (MC) and 1 (TC/L2) are the ones nvd.h lists; DATA_SEL 1
    // (the low 32 bits of the data).
    for dst_sel in [0, 1] {
        let ib = [
            packet3(0x49, 8),
            0x14 | 5 << 8,
            dst_sel << 16 | 1 << 29,
            0x6004,
            0x7f00,
            0x1234_5678,
            0x9abc_def0,
            0,
        ];
        assert_eq!(
            decode(&ib, Generation::Gfx9),
            Ok(vec![Command::Copy {
                source: Source::Immediate(0x1234_5678),
                destination: 0x7f00_0000_6004,
                width: Width::Dword
            }])
        );
    }
    let ib = [
        packet3(0x49, 8),
        0x14 | 5 << 8,
        2 << 16 | 1 << 29,
        0x6004,
        0x7f00,
        1,
        0,
        0,
    ];
    assert!(matches!(
        refusal(&ib, Generation::Gfx9),
        Pm4Error::Malformed(_)
    ));
}

#[test]
fn an_indirect_buffer_at_the_top_of_48_bits() {
    // ROCr's PM4_INDIRECT_BUFFER_DW2_IB_BASE_HI: 16 bits.
    let jump = [packet3(0x3F, 4), 0xffff_fffc, 0xFFFF, 4 | 1 << 23];
    assert_eq!(
        indirect_buffer(jump),
        Ok(IndirectBuffer {
            address: 0xffff_ffff_fffc,
            dwords: 4
        })
    );
}

#[test]
fn a_program_at_the_top_of_40_bits_launches() {
    // COMPUTE_PGM_HI holds address bits 39:32 of the 256-byte-aligned
    // program: 0xFF is the last value, a program at 2^48 does not fit.
    let ib = iree_dispatch(0xFF12_3456_7800, [0; 3], [64, 1, 1], &[], [1; 3], INITIATOR);
    let launch = launch_of(&ib, Generation::Gfx9).unwrap().unwrap();
    assert_eq!(launch.entry, 0xFF12_3456_7800);
    let ib = iree_dispatch(1 << 48, [0; 3], [64, 1, 1], &[], [1; 3], INITIATOR);
    assert!(matches!(
        launch_of(&ib, Generation::Gfx9),
        Err(Pm4Error::NotModelled(s)) if s.contains("COMPUTE_PGM_HI")
    ));
}

#[test]
fn all_sixteen_user_data_registers_seed_user_sgprs() {
    // USER_SGPR_COUNT 16 (RSRC2 bits 5:1): COMPUTE_USER_DATA_0 to _15.
    let user: Vec<u32> = (100..116).collect();
    let ib = iree_dispatch(
        0x1000,
        [0, 16 << 1, 0],
        [64, 1, 1],
        &user,
        [1; 3],
        INITIATOR,
    );
    let launch = launch_of(&ib, Generation::Gfx9).unwrap().unwrap();
    assert_eq!(launch.user_data, user);
}

#[test]
fn order_mode_launches() {
    // DISPATCH_INITIATOR_ORDER_MODE (1 << 6), which IREE's pm4_dispatch.c
    // sets on request.
    let ib = iree_dispatch(
        0x1000,
        [0; 3],
        [64, 1, 1],
        &[],
        [2, 1, 1],
        INITIATOR | 1 << 6,
    );
    let launch = launch_of(&ib, Generation::Gfx10Plus).unwrap().unwrap();
    assert_eq!(launch.grid_size, [128, 1, 1]);
}
