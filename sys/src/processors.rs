//! The AMDGPU processor table: every `gfx*` processor and generic family with
//! its `EF_AMDGPU_MACH` value, the target features code object V3 can
//! express for it, and the processor its code objects are built against.
//!
//! Source: `EF_AMDGPU_MACH_AMDGCN_*` in LLVM's `llvm/include/llvm/BinaryFormat/ELF.h`
//! and the processor table of `llvm/docs/AMDGPUUsage.rst` as of LLVM 22 (main, late
//! 2025: adds gfx1250/gfx1251/gfx12-5-generic 0x049/0x05a/0x05b, gfx1170-gfx1172
//! 0x05c-0x05e and gfx1310 0x050, the same set IREE's generated `target_id_map.inl`
//! uses). LLVM 20.1 has 0x040 (gfx940) and 0x04b (gfx941) as reserved again; they
//! stay here because code objects built by LLVM 17-19 still carry them.
//! Values 0x027, 0x04d, 0x056 and 0x057 are reserved and not processors.
//!
//! Lookups are `const`: O(1) by machine value, O(log n) by name.

/// `EF_AMDGPU_MACH`: the processor bits of an AMDGPU ELF's `e_flags`.
pub const EF_AMDGPU_MACH: u32 = 0x0ff;

/// One row of the processor table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Processor {
    /// The processor name, as LLVM spells it (`gfx942`, `gfx9-4-generic`).
    pub name: &'static str,
    /// Its `EF_AMDGPU_MACH` value (the low byte of `e_flags`).
    pub mach: u8,
    /// SRAM ECC can be selected (`:sramecc+`/`:sramecc-`; LLVM's
    /// `FEATURE_SRAMECC`). For code object V3 this is also what its feature
    /// bit can represent (a clear bit then means "off").
    pub sramecc: bool,
    /// XNACK replay can be selected (`:xnack+`/`:xnack-`; `FEATURE_XNACK`).
    pub xnack: bool,
    /// The processor code objects for it are built against (IREE's target
    /// map): the generic family (`gfx942` → `gfx9-4-generic`), the processor
    /// itself (`gfx90a`), or `None` for processors the map does not cover.
    pub code_object_processor: Option<&'static str>,
}

impl Processor {
    /// True for the `gfx*-generic` families.
    pub const fn is_generic(&self) -> bool {
        let name = self.name.as_bytes();
        let suffix = b"-generic";
        if name.len() < suffix.len() {
            return false;
        }
        let mut i = 0;
        while i < suffix.len() {
            if name[name.len() - suffix.len() + i] != suffix[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The generic family whose code objects run on this processor, if any.
    pub const fn generic_family(&self) -> Option<&'static str> {
        match self.code_object_processor {
            Some(family) if !crate::str_eq(family, self.name) => Some(family),
            _ => None,
        }
    }
}

/// Neither feature.
const NO: (bool, bool) = (false, false);
/// XNACK only.
const X: (bool, bool) = (false, true);
/// SRAM ECC and XNACK.
const SX: (bool, bool) = (true, true);

const fn p(
    name: &'static str,
    mach: u8,
    (sramecc, xnack): (bool, bool),
    code_object_processor: Option<&'static str>,
) -> Processor {
    Processor {
        name,
        mach,
        sramecc,
        xnack,
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
const BY_MACH: [u8; 256] = {
    let mut table = [u8::MAX; 256];
    let mut i = 0;
    while i < PROCESSORS.len() {
        table[PROCESSORS[i].mach as usize] = i as u8;
        i += 1;
    }
    table
};

/// Byte-wise order of two strings, in a `const` context.
const fn compare(a: &str, b: &str) -> core::cmp::Ordering {
    use core::cmp::Ordering;
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] < b[i] {
            return Ordering::Less;
        }
        if a[i] > b[i] {
            return Ordering::Greater;
        }
        i += 1;
    }
    if a.len() < b.len() {
        Ordering::Less
    } else if a.len() > b.len() {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// The processor with this exact (case-sensitive) name.
pub const fn by_name(name: &str) -> Option<&'static Processor> {
    use core::cmp::Ordering;
    let (mut low, mut high) = (0, PROCESSORS.len());
    while low < high {
        let middle = low + (high - low) / 2;
        match compare(PROCESSORS[middle].name, name) {
            Ordering::Less => low = middle + 1,
            Ordering::Greater => high = middle,
            Ordering::Equal => return Some(&PROCESSORS[middle]),
        }
    }
    None
}

/// The processor with this `EF_AMDGPU_MACH` value (`e_flags & 0xff`).
pub const fn by_mach(mach: u8) -> Option<&'static Processor> {
    match BY_MACH[mach as usize] {
        u8::MAX => None,
        index => Some(&PROCESSORS[index as usize]),
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
            if let Some(family) = row.generic_family() {
                assert!(
                    by_name(family).is_some_and(Processor::is_generic),
                    "{family}"
                );
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
        assert_eq!(by_name("gfx90a").and_then(Processor::generic_family), None);
        assert_eq!(
            by_name("gfx942").and_then(Processor::generic_family),
            Some("gfx9-4-generic")
        );
    }

    /// The chips of the `r9700-4` and `mi355x-8` presets. gfx1201 is 0x04e
    /// in LLVM 19's `ELF.h` (Debian's llvm-19-dev); gfx950 is 0x04f in
    /// LLVM 20's `ELF.h` and ROCr's `amd_hsa_elf.h` (LLVM 19 has 0x04f as
    /// reserved). The target features are ROCr's (`isa.cpp`: gfx950 takes
    /// `sramecc` and `xnack`, its generic family gfx9-4-generic; gfx1201
    /// neither, gfx12-generic) and HIP's gcnArchName on MI355X
    /// (`gfx950:sramecc+:xnack-`).
    #[test]
    fn rdna4_and_cdna4_chips() {
        let gfx1201 = by_name("gfx1201").expect("gfx1201");
        assert_eq!(gfx1201.mach, 0x04e);
        assert!(!gfx1201.sramecc && !gfx1201.xnack);
        assert_eq!(gfx1201.generic_family(), Some("gfx12-generic"));
        assert_eq!(by_mach(0x04e).map(|p| p.name), Some("gfx1201"));

        let gfx950 = by_name("gfx950").expect("gfx950");
        assert_eq!(gfx950.mach, 0x04f);
        assert!(gfx950.sramecc && gfx950.xnack);
        assert_eq!(gfx950.generic_family(), Some("gfx9-4-generic"));
        assert_eq!(by_mach(0x04f).map(|p| p.name), Some("gfx950"));

        let gfx12 = by_name("gfx12-generic").expect("gfx12-generic");
        assert_eq!(gfx12.mach, 0x059);
        assert!(gfx12.is_generic() && !gfx12.sramecc && !gfx12.xnack);
        let gfx94 = by_name("gfx9-4-generic").expect("gfx9-4-generic");
        assert!(gfx94.is_generic() && gfx94.sramecc && gfx94.xnack);
    }
}
