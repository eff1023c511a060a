//! The decoder against the encodings the module docs cite.

use super::*;

/// Linux's `PACKET3(op, n)`: `n` is the packet's dwords less 2.
pub(super) fn packet3(op: u8, dwords: u32) -> u32 {
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
    let s = refused(&[packet3(0x79, 3), 0x100, 1]);
    assert!(s.contains("0xc100") && s.contains("SET_UCONFIG_REG"), "{s}");
    let s = refused(&[packet3(0x16, 4), 0x1000, 0, 1]);
    assert!(s.contains("DISPATCH_INDIRECT"), "{s}");
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
        packet3(0x79, 3),
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
                s.contains("SET_UCONFIG_REG") && s.contains("dword 2"),
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
    assert!(
        bad(&[packet3(0x15, 6), 1, 1, 1, 1, 0]),
        "DISPATCH_DIRECT length"
    );
    assert!(bad(&[packet3(0x76, 2), 0x20C]), "SET_SH_REG of nothing");
    // The SH space ends at 0x2FFF (offset 0x3FF): two values from 0x3FF.
    assert!(bad(&[packet3(0x76, 4), 0x3FF, 1, 2]), "past the SH space");
    assert!(bad(&[packet3(0x76, 3), 0x1_020C, 1]), "offset bits past 15");
}

/// IREE's PM4 dispatch as `util/pm4_dispatch.c` lays it out (its setup
/// of 36 dwords, then the user data, then `DISPATCH_DIRECT`), with the
/// register offsets from the SH space's start of Mesa's `sid.h`
/// (`R_00B830_COMPUTE_PGM_LO` = dword 0x2E0C = 0x2C00 + 0x20C, and so on).
pub(super) fn iree_dispatch(
    entry: u64,
    rsrc: [u32; 3],
    block: [u32; 3],
    user_data: &[u32],
    groups: [u32; 3],
    initiator: u32,
) -> Vec<u32> {
    let set = |offset: u32, values: &[u32]| {
        let mut p = vec![packet3(0x76, 2 + values.len() as u32), offset];
        p.extend_from_slice(values);
        p
    };
    let program = entry >> 8;
    let mut ib = set(0x20C, &[program as u32, (program >> 32) as u32, 0, 0, 0, 0]);
    ib.extend(set(0x212, &rsrc[..2]));
    ib.extend(set(0x228, &rsrc[2..]));
    ib.extend(set(0x218, &[0]));
    ib.extend(set(0x21B, &[0, 0, 0]));
    ib.extend(set(0x215, &[0]));
    ib.extend(set(0x204, &[0, 0, 0, block[0], block[1], block[2], 0, 0]));
    assert_eq!(
        ib.len(),
        36,
        "IREE_HAL_AMDGPU_PM4_DISPATCH_SETUP_DWORD_COUNT"
    );
    if !user_data.is_empty() {
        ib.extend(set(0x240, user_data));
    }
    ib.extend([packet3(0x15, 5), groups[0], groups[1], groups[2], initiator]);
    ib
}

/// Runs an indirect buffer's register writes and returns its dispatch's
/// launch.
pub(super) fn launch_of(
    ib: &[u32],
    generation: Generation,
) -> Result<Option<ComputeLaunch>, Pm4Error> {
    let mut registers = ComputeRegisters::default();
    let mut launch = None;
    for command in decode(ib, generation)? {
        match command {
            Command::SetShRegisters { first, values } => registers.set(first, &values),
            Command::DispatchDirect {
                dimensions,
                initiator,
            } => launch = Some(registers.launch(dimensions, initiator, generation)),
            other => panic!("{other:?}"),
        }
    }
    launch.expect("a dispatch")
}

/// `COMPUTE_DISPATCH_INITIATOR`: `COMPUTE_SHADER_EN` | `FORCE_START_AT_000`
/// (IREE's every dispatch), and `CS_W32_EN` for wave32.
pub(super) const INITIATOR: u32 = 1 | 1 << 2;
const W32: u32 = 1 << 15;

#[test]
fn iree_s_dispatch_launches_from_the_registers_it_wrote() {
    // A wave32 kernel at 0x7f12_3456_7800 with USER_SGPR_COUNT 4 (bits
    // 5:1 of RSRC2), work-group ids X and Y (bits 7, 8) and 66 LDS
    // granules (23:15): the kernarg pointer and two preloaded dwords.
    let rsrc2 = 4 << 1 | 1 << 7 | 1 << 8 | 66 << 15;
    let ib = iree_dispatch(
        0x7f12_3456_7800,
        [0x60af_0040, rsrc2, 0x10],
        [32, 4, 1],
        &[0x2000_0000, 0x7f00, 0xaa, 0xbb],
        [5, 3, 1],
        INITIATOR | W32,
    );
    let launch = launch_of(&ib, Generation::Gfx10Plus)
        .expect("modelled")
        .expect("launched");
    assert_eq!(
        launch,
        ComputeLaunch {
            entry: 0x7f12_3456_7800,
            resources: [0x60af_0040, rsrc2, 0x10],
            block: [32, 4, 1],
            grid_size: [160, 12, 1],
            user_data: vec![0x2000_0000, 0x7f00, 0xaa, 0xbb],
            lds_bytes: 66 * 512,
            wave32: true,
        }
    );
}

#[test]
fn thread_dimensions_count_work_items() {
    // USE_THREAD_DIMENSIONS (bit 5): 100 work-items of groups of 64.
    let ib = iree_dispatch(
        0x1000,
        [0, 2 << 1, 0],
        [64, 1, 1],
        &[1, 2],
        [100, 1, 1],
        INITIATOR | 1 << 5,
    );
    let launch = launch_of(&ib, Generation::Gfx9).unwrap().unwrap();
    assert_eq!(launch.grid_size, [100, 1, 1]);
    assert!(!launch.wave32);
    // A dimension of 0 launches nothing.
    let ib = iree_dispatch(0x1000, [0, 0, 0], [64, 1, 1], &[], [0, 1, 1], INITIATOR);
    assert_eq!(launch_of(&ib, Generation::Gfx9), Ok(None));
}

#[test]
fn a_dispatch_reads_only_registers_written_since_the_last_aql_dispatch() {
    let ib = iree_dispatch(
        0x1000,
        [0, 2 << 1, 0],
        [64, 1, 1],
        &[1, 2],
        [1, 1, 1],
        INITIATOR,
    );
    let (setup, dispatch) = ib.split_at(ib.len() - 5);
    let mut registers = ComputeRegisters::default();
    for command in decode(setup, Generation::Gfx9).unwrap() {
        if let Command::SetShRegisters { first, values } = command {
            registers.set(first, &values);
        }
    }
    let [dimensions, initiator] = [[dispatch[1], dispatch[2], dispatch[3]], [dispatch[4]; 3]];
    let initiator = initiator[0];
    assert_eq!(
        decode(dispatch, Generation::Gfx9),
        Ok(vec![Command::DispatchDirect {
            dimensions,
            initiator
        }])
    );
    assert!(matches!(
        registers.launch(dimensions, initiator, Generation::Gfx9),
        Ok(Some(_))
    ));
    registers.forget();
    match registers.launch(dimensions, initiator, Generation::Gfx9) {
        Err(Pm4Error::Malformed(s)) => assert!(s.contains("COMPUTE_PGM_HI"), "{s}"),
        other => panic!("{other:?}"),
    }
    // One user-data register short of USER_SGPR_COUNT 3.
    let ib = iree_dispatch(
        0x1000,
        [0, 3 << 1, 0],
        [64, 1, 1],
        &[1, 2],
        [1, 1, 1],
        INITIATOR,
    );
    match launch_of(&ib, Generation::Gfx9) {
        Err(Pm4Error::Malformed(s)) => assert!(s.contains("COMPUTE_USER_DATA_2"), "{s}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn dispatches_the_node_does_not_run_are_refused_by_name() {
    let run = |rsrc2: u32, block: [u32; 3], initiator: u32, generation: Generation| {
        let user: Vec<u32> = (0..(rsrc2 >> 1) & 0x1F).collect();
        launch_of(
            &iree_dispatch(0x1000, [0, rsrc2, 0], block, &user, [1, 1, 1], initiator),
            generation,
        )
    };
    let refusal = |result: Result<Option<ComputeLaunch>, Pm4Error>| match result {
        Err(Pm4Error::Malformed(s)) => ("malformed", s),
        Err(Pm4Error::NotModelled(s)) => ("not modelled", s),
        other => panic!("{other:?}"),
    };
    let (kind, s) = refusal(run(0, [64, 1, 1], INITIATOR | W32, Generation::Gfx9));
    assert!(kind == "malformed" && s.contains("CS_W32_EN"), "{s}");
    // PARTIAL_TG_EN (bit 1).
    let (kind, s) = refusal(run(0, [64, 1, 1], INITIATOR | 2, Generation::Gfx9));
    assert!(kind == "not modelled" && s.contains("0x2"), "{s}");
    let (kind, s) = refusal(run(0, [64, 1, 1], 1 << 2, Generation::Gfx9));
    assert!(
        kind == "malformed" && s.contains("COMPUTE_SHADER_EN"),
        "{s}"
    );
    // SCRATCH_EN (RSRC2 bit 0).
    let (kind, s) = refusal(run(1, [64, 1, 1], INITIATOR, Generation::Gfx9));
    assert!(kind == "not modelled" && s.contains("scratch"), "{s}");
    let (kind, s) = refusal(run(17 << 1, [64, 1, 1], INITIATOR, Generation::Gfx9));
    assert!(
        kind == "malformed" && s.contains("USER_SGPR_COUNT 17"),
        "{s}"
    );
    // 0xFFFF³ and 0x8000 × 0x8000 × 4 (2^32) do not fit 32 bits.
    for block in [[0, 1, 1], [64, 32, 1], [0xFFFF; 3], [0x8000, 0x8000, 4]] {
        let (kind, s) = refusal(run(0, block, INITIATOR, Generation::Gfx9));
        assert!(kind == "malformed" && s.contains("NUM_THREAD"), "{s}");
    }
    // Without FORCE_START_AT_000, COMPUTE_START_X/Y/Z count: IREE's 0s
    // launch; another start is refused.
    assert!(matches!(
        run(0, [64, 1, 1], 1, Generation::Gfx9),
        Ok(Some(_))
    ));
    let mut ib = iree_dispatch(0x1000, [0, 0, 0], [64, 1, 1], &[], [1, 1, 1], 1);
    ib[29] = 2; // COMPUTE_START_Y (the START_X packet is at dword 26)
    let (kind, s) = refusal(launch_of(&ib, Generation::Gfx9));
    assert!(
        kind == "not modelled" && s.contains("COMPUTE_START_Y"),
        "{s}"
    );
    // Work-items past 32 bits in a dimension.
    let ib = iree_dispatch(
        0x1000,
        [0, 0, 0],
        [1024, 1, 1],
        &[],
        [1 << 23, 1, 1],
        INITIATOR,
    );
    let (kind, _) = refusal(launch_of(&ib, Generation::Gfx9));
    assert_eq!(kind, "not modelled");
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    /// A dword that is often a type-3 header of an opcode the decoder
    /// knows, with a short count, so that streams reach the packets' own
    /// checks rather than stopping at the first header.
    fn dword() -> impl Strategy<Value = u32> {
        let opcodes = prop::sample::select(vec![
            0x10u8, 0x15, 0x16, 0x37, 0x3C, 0x3F, 0x40, 0x46, 0x49, 0x58, 0x76, 0x79, 0x93,
        ]);
        prop_oneof![
            any::<u32>(),
            (opcodes, 0u32..12, any::<bool>()).prop_map(|(op, count, odd)| 3 << 30
                | count << 16
                | u32::from(op) << 8
                | u32::from(odd)),
            0x2C00u32..0x3000,
            0u32..4,
        ]
    }

    proptest! {
        /// An indirect buffer is client memory: whatever it holds, decoding
        /// it and launching from the registers it sets ends in commands or
        /// a refusal, never a panic, and register writes stay inside the SH
        /// space.
        #[test]
        fn any_stream_decodes_or_is_refused(
            ib in prop::collection::vec(dword(), 0..64),
            gfx9 in any::<bool>(),
        ) {
            let generation = if gfx9 { Generation::Gfx9 } else { Generation::Gfx10Plus };
            let mut registers = ComputeRegisters::default();
            for commands in packets(&ib, generation) {
                let Ok(commands) = commands else { break };
                for command in commands {
                    match command {
                        Command::SetShRegisters { first, values } => {
                            prop_assert!(first >= 0x2C00);
                            prop_assert!(u64::from(first) + values.len() as u64 - 1 <= u64::from(SH_REG_END));
                            registers.set(first, &values);
                        }
                        Command::DispatchDirect { dimensions, initiator } => {
                            if let Ok(Some(launch)) = registers.launch(dimensions, initiator, generation) {
                                prop_assert!(launch.user_data.len() <= MAX_USER_DATA as usize);
                                prop_assert!(launch.block.iter().product::<u32>() <= 1024);
                                prop_assert_eq!(launch.entry % 256, 0);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }
}

#[test]
fn registers_past_the_last_address_are_not_written() {
    // The decoder keeps writes inside the SH space; the register file
    // itself must not wrap past u32::MAX either (a caller's first register).
    let mut registers = ComputeRegisters::default();
    registers.set(u32::MAX, &[7, 8]);
    registers.set(0x2E12, &[1, 2]);
    let launch = registers.launch([1, 1, 1], INITIATOR, Generation::Gfx9);
    match launch {
        Err(Pm4Error::Malformed(s)) => assert!(s.contains("COMPUTE_PGM_HI"), "{s}"),
        other => panic!("{other:?}"),
    }
}
