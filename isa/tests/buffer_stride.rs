//! A buffer resource with a non-zero stride is structured only for
//! accesses that index it (IDXEN): on GFX9 the range check follows the
//! instruction — an access with IDXEN checks its index against
//! NUM_RECORDS (records) and its offset against the stride, one without
//! checks its offset against NUM_RECORDS in bytes, as for a raw buffer
//! (LLVM's buffer intrinsics: "the behavior of bound checking and
//! swizzling changes depending on whether idxen is set in the
//! instruction" on gfx9+). MLIR's amdgpu dialect relies on it on gfx942:
//! its cache-swizzled resources set stride bit 14 with a cache stride of
//! 2048 in the low bits (word 1 = `base_hi | 0x48000000`) and read them
//! with offsets only; IREE's tensor-ukernel matmuls read every byte past
//! 2048 as zero when the stride bounded them.
//!
//! Lane `l` loads the dword at byte 2048·l (OFFEN) and record `l` (IDXEN,
//! 2048-byte records); the source holds 1000 + k at byte 2048·k. Expected
//! values from the rule above: NUM_RECORDS 5000 bytes covers offsets 0,
//! 2048 and 4096 (4096 + 4 <= 5000), not 6144; as records, NUM_RECORDS 3
//! covers indices 0 to 2. Words from `llvm-mc-19 --arch=amdgcn
//! --mcpu=gfx942 -show-encoding` of the text beside them.

mod handmade;

use amdgpu_isa::{Chip, Program, Regions};
use handmade::{bytes, run};

const SOURCE: u64 = 0x10_0000;
const OFFSETS: u64 = 0x20_0000;
const RECORDS: u64 = 0x30_0000;
const LANES: usize = 4;

const KERNEL: &[u32] = &[
    0x2402008b, // v_lshlrev_b32_e32 v1, 11, v0
    0xe0501000, 0x80000201, // buffer_load_dword v2, v1, s[0:3], 0 offen
    0xe0502000, 0x80000300, // buffer_load_dword v3, v0, s[0:3], 0 idxen
    0x24080082, // v_lshlrev_b32_e32 v4, 2, v0
    0xbf8c0f70, // s_waitcnt vmcnt(0)
    0xdc708000, 0x00040204, // global_store_dword v4, v2, s[4:5]
    0xdc708000, 0x00060304, // global_store_dword v4, v3, s[6:7]
    0xbf810000, // s_endpgm
];

/// The lanes' two loads through a resource whose word 1 is
/// `base_hi | stride_field << 16` and word 2 `records`.
fn loads(chip: Chip, stride_field: u32, records: u32) -> (Vec<u32>, Vec<u32>) {
    let mut source = vec![0u8; 4 * 2048];
    for k in 0..4 {
        source[k * 2048..k * 2048 + 4].copy_from_slice(&(1000 + k as u32).to_le_bytes());
    }
    let mut memory = Regions::new(vec![
        (SOURCE, source),
        (OFFSETS, vec![0xff; 4 * LANES]),
        (RECORDS, vec![0xff; 4 * LANES]),
    ]);
    let user = [
        SOURCE as u32,
        (SOURCE >> 32) as u32 | stride_field << 16,
        records,
        0x0002_7000,
        OFFSETS as u32,
        (OFFSETS >> 32) as u32,
        RECORDS as u32,
        (RECORDS >> 32) as u32,
    ];
    let program = Program::decode(chip, &bytes(KERNEL)).unwrap();
    run(&program, &user, LANES as u32, &mut memory).unwrap();
    let words = |base| -> Vec<u32> {
        memory
            .bytes(base)
            .unwrap()
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    (words(OFFSETS), words(RECORDS))
}

#[test]
fn an_offset_only_access_checks_bytes_whatever_the_stride() {
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        // The cache-swizzled form (stride bit 14, cache stride 2048) and a
        // plain stride of 2048.
        for stride_field in [0x4800, 0x0800] {
            let (offsets, _) = loads(chip, stride_field, 5000);
            assert_eq!(offsets, [1000, 1001, 1002, 0], "{chip:?} {stride_field:#x}");
        }
    }
}

#[test]
fn an_indexed_access_checks_records_and_the_stride() {
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        let (_, records) = loads(chip, 0x0800, 3);
        assert_eq!(records, [1000, 1001, 1002, 0], "{chip:?}");
    }
}
