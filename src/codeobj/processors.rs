//! The AMDGPU processor table: every `gfx*` processor and generic family with
//! its `EF_AMDGPU_MACH` value, its generic code-object family and the target
//! features it supports.
//!
//! Source: `EF_AMDGPU_MACH_AMDGCN_*` in LLVM's `llvm/include/llvm/BinaryFormat/ELF.h`
//! and the processor table of `llvm/docs/AMDGPUUsage.rst` as of LLVM 22 (main, late
//! 2025: adds gfx1250/gfx1251/gfx12-5-generic 0x049/0x05a/0x05b, gfx1170-gfx1172
//! 0x05c-0x05e and gfx1310 0x050, the same set IREE's generated `target_id_map.inl`
//! uses). LLVM 20.1 has 0x040 (gfx940) and 0x04b (gfx941) as reserved again; they
//! stay here because code objects built by LLVM 17-19 still carry them.
//! Values 0x027, 0x04d, 0x056 and 0x057 are reserved and not processors.
//!
//! Lookups are `match`/binary-search based: O(1) by machine value, O(log n) by name.

use bitflags::bitflags;

bitflags! {
    /// Target features a processor supports (LLVM's `FEATURE_SRAMECC`/`FEATURE_XNACK`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct FeatureSupport: u8 {
        /// SRAM ECC can be selected (`:sramecc+`/`:sramecc-`).
        const SRAMECC = 1 << 0;
        /// XNACK replay can be selected (`:xnack+`/`:xnack-`).
        const XNACK = 1 << 1;
    }
}

/// One row of the processor table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Processor {
    /// The processor name, as LLVM spells it (`gfx942`, `gfx9-4-generic`).
    pub name: &'static str,
    /// Its `EF_AMDGPU_MACH` value (the low byte of `e_flags`).
    pub mach: u8,
    /// Features this processor supports. For code object V3 this is also what the
    /// two feature bits can represent (a clear bit then means "off").
    pub features: FeatureSupport,
    /// The processor code objects for it are built against: the generic family
    /// (`gfx942` → `gfx9-4-generic`), the processor itself (`gfx90a`), or `None`
    /// for processors IREE's map does not cover, which fall back to version
    /// comparison in [`crate::codeobj::target_id::check_compatible`].
    pub code_object_processor: Option<&'static str>,
}

impl Processor {
    /// True for the `gfx*-generic` families.
    pub fn is_generic(&self) -> bool {
        self.name.ends_with("-generic")
    }
}

const X: FeatureSupport = FeatureSupport::XNACK;
const SX: FeatureSupport = FeatureSupport::SRAMECC.union(FeatureSupport::XNACK);
const NO: FeatureSupport = FeatureSupport::empty();

const fn p(
    name: &'static str,
    mach: u8,
    features: FeatureSupport,
    code_object_processor: Option<&'static str>,
) -> Processor {
    Processor {
        name,
        mach,
        features,
        code_object_processor,
    }
}

const G9: Option<&str> = Some("gfx9-generic");
const G94: Option<&str> = Some("gfx9-4-generic");
const G101: Option<&str> = Some("gfx10-1-generic");
const G103: Option<&str> = Some("gfx10-3-generic");
const G11: Option<&str> = Some("gfx11-generic");
const G12: Option<&str> = Some("gfx12-generic");
const G125: Option<&str> = Some("gfx12-5-generic");

/// Every processor, sorted by name (byte order) for binary search.
pub const PROCESSORS: &[Processor] = &[
    p("gfx10-1-generic", 0x052, X, None),
    p("gfx10-3-generic", 0x053, NO, None),
    p("gfx1010", 0x033, X, G101),
    p("gfx1011", 0x034, X, G101),
    p("gfx1012", 0x035, X, G101),
    p("gfx1013", 0x042, X, G101),
    p("gfx1030", 0x036, NO, G103),
    p("gfx1031", 0x037, NO, G103),
    p("gfx1032", 0x038, NO, G103),
    p("gfx1033", 0x039, NO, G103),
    p("gfx1034", 0x03e, NO, G103),
    p("gfx1035", 0x03d, NO, G103),
    p("gfx1036", 0x045, NO, G103),
    p("gfx11-generic", 0x054, NO, None),
    p("gfx1100", 0x041, NO, G11),
    p("gfx1101", 0x046, NO, G11),
    p("gfx1102", 0x047, NO, G11),
    p("gfx1103", 0x044, NO, G11),
    p("gfx1150", 0x043, NO, G11),
    p("gfx1151", 0x04a, NO, G11),
    p("gfx1152", 0x055, NO, G11),
    p("gfx1153", 0x058, NO, G11),
    p("gfx1170", 0x05d, NO, G11),
    p("gfx1171", 0x05e, NO, G11),
    p("gfx1172", 0x05c, NO, G11),
    p("gfx12-5-generic", 0x05b, NO, None),
    p("gfx12-generic", 0x059, NO, None),
    p("gfx1200", 0x048, NO, G12),
    p("gfx1201", 0x04e, NO, G12),
    p("gfx1250", 0x049, NO, G125),
    p("gfx1251", 0x05a, NO, G125),
    p("gfx1310", 0x050, NO, None),
    p("gfx600", 0x020, NO, None),
    p("gfx601", 0x021, NO, None),
    p("gfx602", 0x03a, NO, None),
    p("gfx700", 0x022, NO, None),
    p("gfx701", 0x023, NO, None),
    p("gfx702", 0x024, NO, None),
    p("gfx703", 0x025, NO, None),
    p("gfx704", 0x026, NO, None),
    p("gfx705", 0x03b, NO, None),
    p("gfx801", 0x028, X, None),
    p("gfx802", 0x029, NO, None),
    p("gfx803", 0x02a, NO, None),
    p("gfx805", 0x03c, NO, None),
    p("gfx810", 0x02b, X, None),
    p("gfx9-4-generic", 0x05f, SX, None),
    p("gfx9-generic", 0x051, X, None),
    p("gfx900", 0x02c, X, G9),
    p("gfx902", 0x02d, X, G9),
    p("gfx904", 0x02e, X, G9),
    p("gfx906", 0x02f, SX, G9),
    p("gfx908", 0x030, SX, Some("gfx908")),
    p("gfx909", 0x031, X, G9),
    p("gfx90a", 0x03f, SX, Some("gfx90a")),
    p("gfx90c", 0x032, X, G9),
    p("gfx940", 0x040, SX, G94),
    p("gfx941", 0x04b, SX, G94),
    p("gfx942", 0x04c, SX, G94),
    p("gfx950", 0x04f, SX, G94),
];

/// Number of processors in the table.
pub const PROCESSOR_COUNT: usize = 60;

/// Index into [`PROCESSORS`] by `EF_AMDGPU_MACH` value (`u8::MAX` = none).
// Evaluated at compile time: an out-of-range index here fails the build.
#[allow(clippy::indexing_slicing)]
static BY_MACH: [u8; 256] = {
    let mut table = [u8::MAX; 256];
    let mut i = 0;
    while i < PROCESSORS.len() {
        table[PROCESSORS[i].mach as usize] = i as u8;
        i += 1;
    }
    table
};

/// The processor with this exact (case-sensitive) name.
pub fn by_name(name: &str) -> Option<&'static Processor> {
    PROCESSORS
        .binary_search_by(|row| row.name.cmp(name))
        .ok()
        .and_then(|index| PROCESSORS.get(index))
}

/// The processor with this `EF_AMDGPU_MACH` value (`e_flags & 0xff`).
pub fn by_mach(mach: u8) -> Option<&'static Processor> {
    match BY_MACH.get(usize::from(mach)) {
        None | Some(&u8::MAX) => None,
        Some(&index) => PROCESSORS.get(usize::from(index)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_unique_and_counted() {
        assert_eq!(PROCESSORS.len(), PROCESSOR_COUNT);
        for pair in PROCESSORS.windows(2) {
            assert!(
                pair[0].name < pair[1].name,
                "{} >= {}",
                pair[0].name,
                pair[1].name
            );
        }
        let mut seen = [false; 256];
        for row in PROCESSORS {
            assert!(!seen[row.mach as usize], "duplicate mach {:#x}", row.mach);
            seen[row.mach as usize] = true;
            assert_eq!(by_name(row.name), Some(row));
            assert_eq!(by_mach(row.mach), Some(row));
            if let Some(family) = row.code_object_processor {
                assert!(by_name(family).is_some(), "{family} is not in the table");
            }
        }
    }

    #[test]
    fn values_match_llvm_elf_h() {
        let mach = |name| by_name(name).map(|row| row.mach);
        assert_eq!(mach("gfx600"), Some(0x020));
        assert_eq!(mach("gfx90a"), Some(0x03f));
        assert_eq!(mach("gfx942"), Some(0x04c));
        assert_eq!(mach("gfx1100"), Some(0x041));
        assert_eq!(mach("gfx1200"), Some(0x048));
        assert_eq!(mach("gfx9-4-generic"), Some(0x05f));
        for reserved in [0x027, 0x04d, 0x056, 0x057, 0x000, 0x01f, 0x060, 0xff] {
            assert_eq!(by_mach(reserved), None, "{reserved:#x}");
        }
        assert_eq!(by_name("GFX942"), None);
    }
}
