//! A raw buffer's range check judges each dword of a multi-dword access on
//! its own: dword `i` of an access at byte offset `o` is inside when
//! `o + 4 * i + 4 <= num_records`, so a `buffer_load_dwordx4` across the
//! end returns the dwords before it and zeros after, and a store writes
//! only those before it (LLVM's default, "strict" buffer bounds, which
//! MLIR's amdgpu dialect and IREE rely on for vector loads at a tensor's
//! edge). The expected values follow from that rule, lane by lane.

mod handmade;

use amdgpu_isa::{Chip, Program, Regions};
use handmade::{bytes, run};

const SOURCE: u64 = 0x10_0000;
const DEST: u64 = 0x20_0000;
const OUT4: u64 = 0x30_0000;
const OUT2: u64 = 0x40_0000;
const LANES: usize = 8;
/// What the destination holds where nothing was stored.
const UNTOUCHED: u32 = 0xdead_beef;

/// Lane `l` loads 16 and 8 bytes at byte 16·l of the source buffer
/// (s[0:3]), stores dwords 4·l+1 .. 4·l+4 at byte 16·l of the destination
/// buffer (s[4:7]), and writes what it loaded to OUT4 (s[8:9]) and OUT2
/// (s[10:11]). gfx90a and gfx942 share the encoding.
const GFX9: &[u32] = &[
    0x24020084, // v_lshlrev_b32_e32 v1, 4, v0
    0xe05c1000, 0x80000201, // buffer_load_dwordx4 v[2:5], v1, s[0:3], 0 offen
    0xe0541000, 0x80000601, // buffer_load_dwordx2 v[6:7], v1, s[0:3], 0 offen
    0xd1fd000a, 0x02050500, // v_lshl_add_u32 v10, v0, 2, 1
    0x68161481, // v_add_u32_e32 v11, 1, v10
    0x68181482, // v_add_u32_e32 v12, 2, v10
    0x681a1483, // v_add_u32_e32 v13, 3, v10
    0xe07c1000, 0x80010a01, // buffer_store_dwordx4 v[10:13], v1, s[4:7], 0 offen
    0xbf8c0f70, // s_waitcnt vmcnt(0)
    0xdc7c8000, 0x00080201, // global_store_dwordx4 v1, v[2:5], s[8:9]
    0x24020083, // v_lshlrev_b32_e32 v1, 3, v0
    0xdc748000, 0x000a0601, // global_store_dwordx2 v1, v[6:7], s[10:11]
    0xbf810000, // s_endpgm
];
const GFX11: &[u32] = &[
    0x30020084, // v_lshlrev_b32_e32 v1, 4, v0
    0xe05c0000, 0x80400201, // buffer_load_b128 v[2:5], v1, s[0:3], 0 offen
    0xe0540000, 0x80400601, // buffer_load_b64 v[6:7], v1, s[0:3], 0 offen
    0xd646000a, 0x02050500, // v_lshl_add_u32 v10, v0, 2, 1
    0x4a161481, // v_add_nc_u32_e32 v11, 1, v10
    0x4a181482, // v_add_nc_u32_e32 v12, 2, v10
    0x4a1a1483, // v_add_nc_u32_e32 v13, 3, v10
    0xe0740000, 0x80410a01, // buffer_store_b128 v[10:13], v1, s[4:7], 0 offen
    0xbf8903f7, // s_waitcnt vmcnt(0)
    0xdc760000, 0x00080201, // global_store_b128 v1, v[2:5], s[8:9]
    0x30020083, // v_lshlrev_b32_e32 v1, 3, v0
    0xdc6e0000, 0x000a0601, // global_store_b64 v1, v[6:7], s[10:11]
    0xbfb00000, // s_endpgm
];

/// A raw buffer resource (stride 0) of `records` bytes at `base`.
fn resource(base: u64, records: u32) -> [u32; 4] {
    [
        base as u32,
        (base >> 32) as u32 & 0xffff,
        records,
        0x0002_7000,
    ]
}

fn words(memory: &Regions, base: u64) -> Vec<u32> {
    memory
        .bytes(base)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Dword `i` of an access at byte `offset` is inside a range of `records`.
fn inside(offset: usize, i: usize, records: usize) -> bool {
    offset + 4 * i + 4 <= records
}

#[test]
fn each_dword_of_a_raw_buffer_access_is_range_checked_on_its_own() {
    for (chip, code) in [
        (Chip::Gfx90a, GFX9),
        (Chip::Gfx942, GFX9),
        (Chip::Gfx1100, GFX11),
    ] {
        let program = Program::decode(chip, &bytes(code)).unwrap();
        // 48: lane 3 wholly outside; 52 and 54: its first dword inside
        // (54 not a multiple of 4); 56: two; 60: three; 64: all.
        for records in [48usize, 52, 54, 56, 60, 64] {
            let source: Vec<u32> = (0..4 * LANES as u32).map(|k| 0x1000 + k).collect();
            let mut memory = Regions::new(vec![
                (SOURCE, bytes(&source)),
                (DEST, bytes(&[UNTOUCHED; 4 * LANES])),
                (OUT4, vec![0; 16 * LANES]),
                (OUT2, vec![0; 8 * LANES]),
            ]);
            let mut user = Vec::new();
            user.extend(resource(SOURCE, records as u32));
            user.extend(resource(DEST, records as u32));
            user.extend([
                OUT4 as u32,
                (OUT4 >> 32) as u32,
                OUT2 as u32,
                (OUT2 >> 32) as u32,
            ]);
            run(&program, &user, LANES as u32, &mut memory)
                .unwrap_or_else(|e| panic!("{chip:?}: {e}"));
            let (out4, out2, dest) = (
                words(&memory, OUT4),
                words(&memory, OUT2),
                words(&memory, DEST),
            );
            for lane in 0..LANES {
                let offset = 16 * lane;
                for i in 0..4 {
                    let k = 4 * lane + i;
                    let what = format!("{chip:?}, {records} records, lane {lane}, dword {i}");
                    let (loaded, stored) = if inside(offset, i, records) {
                        (0x1000 + k as u32, k as u32 + 1)
                    } else {
                        (0, UNTOUCHED)
                    };
                    assert_eq!(out4[k], loaded, "x4 load: {what}");
                    assert_eq!(dest[k], stored, "x4 store: {what}");
                    if i < 2 {
                        assert_eq!(out2[2 * lane + i], loaded, "x2 load: {what}");
                    }
                }
            }
        }
    }
}
