//! The sums of absolute differences, `v_sad_u8`, `v_sad_hi_u8`,
//! `v_sad_u16`, `v_sad_u32` and `v_msad_u8`, on gfx942, gfx90a and
//! gfx1100. Definitions (RDNA3 ISA guide): S2 plus the unsigned absolute
//! differences of S0's and S1's bytes (`_u8`; `_hi_u8` that sum shifted
//! left 16; `v_msad_u8` leaving out the bytes whose S1 byte is 0), halves
//! (`_u16`) or dwords (`_u32`); "overflow into the upper bits is allowed",
//! so the sum wraps, and under clamp saturates as the interpreter's other
//! integer adds do. Expected values by hand per lane.

mod sixteen;

use amdgpu_isa::Chip;
use sixteen::check;

/// Each chip's first words of `v_sad_u8`, `v_sad_hi_u8`, `v_sad_u16`,
/// `v_sad_u32`, `v_msad_u8` (`v6, v2, v3, v4`).
const CHIPS: [(Chip, [u32; 5]); 3] = [
    (
        Chip::Gfx942,
        [0xd1d90006, 0xd1da0006, 0xd1db0006, 0xd1dc0006, 0xd1e40006],
    ),
    (
        Chip::Gfx90a,
        [0xd1d90006, 0xd1da0006, 0xd1db0006, 0xd1dc0006, 0xd1e40006],
    ),
    (
        Chip::Gfx1100,
        [0xd6220006, 0xd6230006, 0xd6240006, 0xd6250006, 0xd6390006],
    ),
];
const SOURCES: u32 = 0x0412_0702;

#[test]
fn sums_of_absolute_differences() {
    for (chip, [u8_, hi_u8, u16_, u32_, msad]) in CHIPS {
        let old = [0; 2];
        // |1-4| + |2-3| + |3-2| + |4-1| + 10 = 18; 4 * 255 + 0xffffff00
        // wraps to 0x2fc, or saturates.
        let a = [0x0102_0304, 0xff00_ff00];
        let b = [0x0403_0201, 0x00ff_00ff];
        let c = [10, 0xffff_ff00];
        let inputs = [&a[..], &b, &c, &old];
        check(
            chip,
            "v_sad_u8 v6, v2, v3, v4",
            &[u8_, SOURCES],
            inputs,
            &[18, 0x2fc],
        );
        let text = "v_sad_u8 v6, v2, v3, v4 clamp";
        let want = [18, 0xffff_ffff];
        check(chip, text, &[u8_ | 0x8000, SOURCES], inputs, &want);
        // (8 << 16) + 10; (1020 << 16) + 0xffffff00 wraps.
        let want = [0x0008_000a, 0x03fb_ff00];
        check(
            chip,
            "v_sad_hi_u8 v6, v2, v3, v4",
            &[hi_u8, SOURCES],
            inputs,
            &want,
        );
        // v_msad_u8 leaves out the bytes whose S1 byte is 0. Lane 0's bytes
        // (S0, S1) from byte 0: (04, 01), (03, 00) left out, (02, 03), (01,
        // 04): 3 + 1 + 3 = 7; lane 1's: (ff, 00) out, (00, ff), (ff, 00)
        // out, (00, ff): 510.
        let a = [0x0102_0304, 0x00ff_00ff];
        let b = [0x0403_0001, 0xff00_ff00];
        let c = [0, 0];
        let inputs = [&a[..], &b, &c, &old];
        check(
            chip,
            "v_msad_u8 v6, v2, v3, v4",
            &[msad, SOURCES],
            inputs,
            &[7, 510],
        );
        // Halves: |0xffff - 0| + |1 - 0xffff| + 1 = 0x1fffe.
        let (a, b, c) = ([0x0001_ffff], [0xffff_0000], [1]);
        let inputs = [&a[..], &b, &c, &old[..1]];
        check(
            chip,
            "v_sad_u16 v6, v2, v3, v4",
            &[u16_, SOURCES],
            inputs,
            &[0x1_fffe],
        );
        // |5 - MAX| + 3 = 0xfffffffd; + 7 wraps to 1 or saturates.
        let (a, b, c) = ([5, 5], [0xffff_ffff, 0xffff_ffff], [3, 7]);
        let inputs = [&a[..], &b, &c, &old];
        let want = [0xffff_fffd, 1];
        check(
            chip,
            "v_sad_u32 v6, v2, v3, v4",
            &[u32_, SOURCES],
            inputs,
            &want,
        );
        let text = "v_sad_u32 v6, v2, v3, v4 clamp";
        let want = [0xffff_fffd, 0xffff_ffff];
        check(chip, text, &[u32_ | 0x8000, SOURCES], inputs, &want);
    }
}
