//! Which processors the interpreter runs, and what follows from each: the
//! instruction-set family (encodings and opcode tables), the default wave
//! size and the register files.

/// An instruction-set family: one set of encodings and opcode tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// GFX9: Vega and CDNA (gfx90a, gfx942, gfx950).
    Gfx9,
    /// GFX11: RDNA3 (gfx1100).
    Gfx11,
    /// GFX12: RDNA4 (gfx1201).
    Gfx12,
}

impl Family {
    /// True for the RDNA families (GFX11 and GFX12): wave32 by default,
    /// `NULL` at source code 124 and `M0` at 125, VOPD, DPP8.
    pub fn rdna(self) -> bool {
        matches!(self, Family::Gfx11 | Family::Gfx12)
    }
}

/// A processor the interpreter executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chip {
    /// CDNA2 (MI210, MI250X).
    Gfx90a,
    /// CDNA3 (MI300X).
    Gfx942,
    /// CDNA4 (MI350X, MI355X).
    Gfx950,
    /// RDNA3 (W7900, RX 7900 XTX).
    Gfx1100,
    /// RDNA4 (Radeon AI PRO R9700, RX 9070 XT).
    Gfx1201,
}

impl Chip {
    /// The chip of a processor name (`gfx942`, or a target ID such as
    /// `gfx942:sramecc+:xnack-` or `amdgcn-amd-amdhsa--gfx90a`, or an ISA
    /// name as HSA gives it, `amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-`).
    pub fn from_name(name: &str) -> Option<Chip> {
        // The processor follows the triple's `--` and precedes the features
        // (whose `xnack-` ends in the triple's separator).
        let target = name.rsplit_once("--").map_or(name, |(_, target)| target);
        let processor = target.split(':').next()?;
        match processor {
            "gfx90a" => Some(Chip::Gfx90a),
            "gfx940" | "gfx941" | "gfx942" => Some(Chip::Gfx942),
            "gfx950" => Some(Chip::Gfx950),
            "gfx1100" => Some(Chip::Gfx1100),
            "gfx1201" => Some(Chip::Gfx1201),
            _ => None,
        }
    }

    /// The processor's name.
    pub fn name(self) -> &'static str {
        match self {
            Chip::Gfx90a => "gfx90a",
            Chip::Gfx942 => "gfx942",
            Chip::Gfx950 => "gfx950",
            Chip::Gfx1100 => "gfx1100",
            Chip::Gfx1201 => "gfx1201",
        }
    }

    /// The instruction-set family.
    pub fn family(self) -> Family {
        match self {
            Chip::Gfx90a | Chip::Gfx942 | Chip::Gfx950 => Family::Gfx9,
            Chip::Gfx1100 => Family::Gfx11,
            Chip::Gfx1201 => Family::Gfx12,
        }
    }

    /// True where the VGPR file has accumulation registers (AGPRs) after
    /// the architectural VGPRs (CDNA).
    pub fn has_agprs(self) -> bool {
        self.family() == Family::Gfx9
    }

    /// True where the 8-bit floats ("fp8", "bf8") are OCP's E4M3FN and
    /// E5M2 (gfx950, GFX12: AMD's CDNA4 and RDNA4 ISA guides; MLIR's
    /// `Chipset::hasOcpFp8`), not gfx942's E4M3FNUZ and E5M2FNUZ.
    pub fn ocp_fp8(self) -> bool {
        matches!(self, Chip::Gfx950 | Chip::Gfx1201)
    }

    /// True from gfx940 on (gfx942, gfx950): the cache-policy bits are
    /// `sc0`/`nt`/`sc1`, a scratch access's bit 13 is `sve`, and the BLGP
    /// bits of an f64 MFMA negate its sources.
    pub fn gfx940_or_later(self) -> bool {
        matches!(self, Chip::Gfx942 | Chip::Gfx950)
    }

    /// True where work-item IDs arrive packed in v0 (10 bits each): gfx90a,
    /// gfx940+, GFX11 and GFX12 (AMDGPUUsage, "Initial Kernel Execution State").
    pub fn packed_workitem_ids(self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_a_processor_names_its_chip() {
        // As ROCr names ISAs (rocminfo's "Name:" of an ISA), as LLVM names
        // target IDs, and bare processors.
        for (name, chip) in [
            (
                "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
                Some(Chip::Gfx942),
            ),
            (
                "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
                Some(Chip::Gfx90a),
            ),
            ("amdgcn-amd-amdhsa--gfx90a:xnack+", Some(Chip::Gfx90a)),
            ("amdgcn-amd-amdhsa--gfx1100", Some(Chip::Gfx1100)),
            ("gfx942:sramecc+:xnack-", Some(Chip::Gfx942)),
            ("gfx940", Some(Chip::Gfx942)),
            (
                "amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-",
                Some(Chip::Gfx950),
            ),
            ("gfx950", Some(Chip::Gfx950)),
            ("gfx1100", Some(Chip::Gfx1100)),
            ("amdgcn-amd-amdhsa--gfx1201", Some(Chip::Gfx1201)),
            ("gfx1201", Some(Chip::Gfx1201)),
            ("amdgcn-amd-amdhsa--gfx12-generic", None),
            ("amdgcn-amd-amdhsa--gfx908:sramecc+:xnack-", None),
            ("amdgcn-amd-amdhsa--gfx11-generic", None),
            ("", None),
        ] {
            assert_eq!(Chip::from_name(name), chip, "{name}");
        }
    }
}
