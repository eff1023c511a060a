//! The decoder against the encodings the module docs cite.

use super::*;

/// Linux's `PACKET3(op, n)`: `n` is the packet's dwords less 2.
fn packet3(op: u8, dwords: u32) -> u32 {
    3 << 30 | u32::from(op) << 8 | (dwords - 2) << 16
}

#[test]
fn generations_of_the_simulated_processors() {
    assert_eq!(Generation::of_processor("gfx90a"), Some(Generation::Gfx9));
    assert_eq!(Generation::of_processor("gfx942"), Some(Generation::Gfx9));
    assert_eq!(Generation::of_processor("gfx908"), Some(Generation::Gfx9));
    assert_eq!(
        Generation::of_processor("gfx1100"),
        Some(Generation::Gfx10Plus)
    );
    assert_eq!(
        Generation::of_processor("gfx1201"),
        Some(Generation::Gfx10Plus)
    );
    assert_eq!(Generation::of_processor("gfx803"), None);
    assert_eq!(Generation::of_processor("gfx9-generic"), None);
    assert_eq!(Generation::of_processor("gfx"), None);
}

#[test]
fn the_indirect_buffer_command() {
    // ROCr's ExecutePM4: header, IB_BASE_LO (31:2), IB_BASE_HI (15:0),
    // IB_SIZE | IB_VALID.
    let jump = [packet3(0x3F, 4), 0xdead_bee0, 0x7f12, 12 | 1 << 23];
    assert_eq!(
        indirect_buffer(jump),
        Ok(IndirectBuffer {
            address: 0x7f12_dead_bee0,
            dwords: 12
        })
    );
    let bad = |jump: [u32; 4]| matches!(indirect_buffer(jump), Err(Pm4Error::Malformed(_)));
    assert!(bad([packet3(0x10, 4), 0, 0, 12 | 1 << 23]), "not an IB");
    assert!(bad([packet3(0x3F, 5), 0, 0, 12 | 1 << 23]), "length");
    assert!(bad([packet3(0x3F, 4), 0, 0, 12]), "not valid");
    assert!(bad([packet3(0x3F, 4), 0, 0, 1 << 23]), "empty");
    assert!(bad([packet3(0x3F, 4), 2, 0, 1 | 1 << 23]), "swap bits");
    assert!(bad([packet3(0x3F, 4), 0, 0x1_0000, 1 | 1 << 23]), "57 bits");
    assert!(
        bad([packet3(0x3F, 4), 0, 0, 1 | 1 << 23 | 1 << 28]),
        "policy"
    );
    assert!(bad([0x8000_0000, 0, 0, 1 | 1 << 23]), "type 2");
}

#[test]
fn memory_packets() {
    let ib = [
        // WRITE_DATA, DST_SEL 2 (L2), WR_CONFIRM, two dwords.
        packet3(0x37, 6),
        2 << 8 | 1 << 20,
        0x1003,
        0x7f00,
        11,
        22,
        // COPY_DATA 64-bit, TC_L2 to TC_L2.
        packet3(0x40, 6),
        2 | 2 << 8 | 1 << 16,
        0x2004,
        0x7f00,
        0x3000,
        0x7f00,
        // COPY_DATA of the GPU clock to memory (DST_SEL 5).
        packet3(0x40, 6) | 1 << 1,
        9 | 5 << 8 | 1 << 16 | 1 << 13 | 1 << 25,
        0,
        0,
        0x4000,
        0x7f00,
        // WAIT_REG_MEM64: FUNCTION 1 (<), MEM_SPACE 1.
        packet3(0x93, 9),
        1 | 1 << 4,
        0x5008,
        0x7f00,
        0x10,
        0,
        0xFFFF_FFFF,
        0x7FFF_FFFF,
        4 | 1 << 31,
        // NOP of 3 dwords.
        packet3(0x10, 3),
        0xffff_ffff,
        0xffff_ffff,
    ];
    let commands = decode(&ib, Generation::Gfx10Plus).expect("valid");
    assert_eq!(
        commands,
        [
            Command::Write {
                address: 0x7f00_0000_1000,
                data: vec![11, 22],
                one_address: false
            },
            Command::Copy {
                source: Source::Memory(0x7f00_0000_2000),
                destination: 0x7f00_0000_3000,
                width: Width::Qword
            },
            Command::Copy {
                source: Source::GpuClock,
                destination: 0x7f00_0000_4000,
                width: Width::Qword
            },
            Command::Wait {
                address: 0x7f00_0000_5008,
                width: Width::Qword,
                function: Compare::Less,
                reference: 0x10,
                mask: i64::MAX as u64
            },
            Command::Nothing("NOP"),
        ]
    );
}

#[test]
fn acquire_mem_takes_its_generation_s_form() {
    // Linux gfx_v9_0_emit_mem_sync: 7 dwords.
    let gfx9 = [
        packet3(0x58, 7) | 1 << 1,
        0x2cc4_0000,
        !0,
        0xff_ffff,
        0,
        0,
        10,
    ];
    // Linux gfx_v10_0_emit_mem_sync: 8 dwords, GCR_CNTL last.
    let gfx10 = [packet3(0x58, 8), 0, !0, 0xff_ffff, 0, 0, 10, 0xc3b3];
    assert_eq!(
        decode(&gfx9, Generation::Gfx9),
        Ok(vec![Command::Nothing("ACQUIRE_MEM")])
    );
    assert_eq!(
        decode(&gfx10, Generation::Gfx10Plus),
        Ok(vec![Command::Nothing("ACQUIRE_MEM")])
    );
    assert!(matches!(
        decode(&gfx9, Generation::Gfx10Plus),
        Err(Pm4Error::Malformed(_))
    ));
    assert!(matches!(
        decode(&gfx10, Generation::Gfx9),
        Err(Pm4Error::Malformed(_))
    ));
    let mut wide = gfx10;
    wide[7] = 0x8_0000;
    assert!(decode(&wide, Generation::Gfx10Plus).is_err(), "GCR_CNTL");
}

#[test]
fn release_mem_writes_its_data() {
    // EVENT_INDEX 5, DST_SEL 1, INT_SEL 2, DATA_SEL 3 (GPU counter).
    let ib = [
        packet3(0x49, 8),
        0x14 | 5 << 8,
        1 << 16 | 2 << 24 | 3 << 29,
        0x6008,
        0x7f00,
        0,
        0,
        0,
    ];
    assert_eq!(
        decode(&ib, Generation::Gfx9),
        Ok(vec![
            Command::Copy {
                source: Source::GpuClock,
                destination: 0x7f00_0000_6008,
                width: Width::Qword
            },
            Command::Interrupt
        ])
    );
}

#[test]
fn refusals_name_what_they_refuse() {
    let refused = |ib: &[u32]| match decode(ib, Generation::Gfx9) {
        Err(Pm4Error::NotModelled(s)) => s,
        other => panic!("{other:?}"),
    };
    // SET_SH_REG COMPUTE_PGM_LO (0x2E0C = 0x2C00 + 0x20C).
    let s = refused(&[packet3(0x76, 3), 0x20C, 0x1234]);
    assert!(
        s.contains("COMPUTE_PGM_LO") && s.contains("SET_SH_REG"),
        "{s}"
    );
    let s = refused(&[packet3(0x79, 3), 0x100, 1]);
    assert!(s.contains("0xc100") && s.contains("SET_UCONFIG_REG"), "{s}");
    let s = refused(&[packet3(0x15, 5) | 2, 1, 1, 1, 1]);
    assert!(s.contains("DISPATCH_DIRECT"), "{s}");
    let s = refused(&[packet3(0x40, 6), 4 | 5 << 8, 0x3400, 0, 0x1000, 0]);
    assert!(s.contains("performance counter"), "{s}");
    let s = refused(&[packet3(0x37, 5), 0, 0x2E00, 0, 1]);
    assert!(s.contains("COMPUTE_DISPATCH_INITIATOR"), "{s}");
    let s = refused(&[packet3(0x22, 4), 0, 0, 0]);
    assert!(s.contains("0x22"), "{s}");
    let s = refused(&[packet3(0x46, 2), 0x14 | 5 << 8]);
    assert!(s.contains("EVENT_WRITE"), "{s}");
}

#[test]
fn packets_before_a_refusal_come_out_and_none_after() {
    let ib = [
        packet3(0x10, 2),
        0,
        packet3(0x76, 3),
        0x240,
        7,
        packet3(0x10, 2),
        0,
    ];
    let mut it = packets(&ib, Generation::Gfx10Plus);
    assert_eq!(it.next(), Some(Ok(vec![Command::Nothing("NOP")])));
    match it.next() {
        Some(Err(Pm4Error::NotModelled(s))) => {
            assert!(
                s.contains("COMPUTE_USER_DATA") && s.contains("dword 2"),
                "{s}"
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(it.next(), None);
}

#[test]
fn malformed_streams() {
    let bad = |ib: &[u32]| matches!(decode(ib, Generation::Gfx9), Err(Pm4Error::Malformed(_)));
    assert!(bad(&[packet3(0x37, 6), 2 << 8, 0, 0]), "past the end");
    assert!(
        bad(&[packet3(0x40, 7), 5 | 5 << 8, 0, 0, 0, 0, 0]),
        "length"
    );
    assert!(
        bad(&[packet3(0x93, 9), 7 | 1 << 4, 0, 0, 0, 0, 0, 0, 0]),
        "function 7"
    );
    assert!(
        bad(&[packet3(0x93, 9), 1 | 1 << 4, 0, 0, 0, 0, 0, 0, 1 << 20]),
        "poll"
    );
    assert!(bad(&[0x4000_0000]), "type 1");
    assert!(bad(&[packet3(0x37, 4), 2 << 8, 0, 0]), "no data");
}
