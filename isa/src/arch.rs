//! Which processors the interpreter runs, and what follows from each: the
//! instruction-set family (encodings and opcode tables), the default wave
//! size and the register files.

/// An instruction-set family: one set of encodings and opcode tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// GFX9: Vega and CDNA (gfx90a, gfx942).
    Gfx9,
    /// GFX11: RDNA3 (gfx1100).
    Gfx11,
}

/// A processor the interpreter executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chip {
    /// CDNA2 (MI210, MI250X).
    Gfx90a,
    /// CDNA3 (MI300X).
    Gfx942,
    /// RDNA3 (W7900, RX 7900 XTX).
    Gfx1100,
}

impl Chip {
    /// The chip of a processor name (`gfx942`, or a target ID such as
    /// `gfx942:sramecc+:xnack-` or `amdgcn-amd-amdhsa--gfx90a`). The
    /// features go first: `xnack-` ends in the `-` the triple is split on.
    pub fn from_name(name: &str) -> Option<Chip> {
        let processor = name.split(':').next()?.rsplit('-').next()?;
        match processor {
            "gfx90a" => Some(Chip::Gfx90a),
            "gfx940" | "gfx941" | "gfx942" => Some(Chip::Gfx942),
            "gfx1100" => Some(Chip::Gfx1100),
            _ => None,
        }
    }

    /// The processor's name.
    pub fn name(self) -> &'static str {
        match self {
            Chip::Gfx90a => "gfx90a",
            Chip::Gfx942 => "gfx942",
            Chip::Gfx1100 => "gfx1100",
        }
    }

    /// The instruction-set family.
    pub fn family(self) -> Family {
        match self {
            Chip::Gfx90a | Chip::Gfx942 => Family::Gfx9,
            Chip::Gfx1100 => Family::Gfx11,
        }
    }

    /// True where the VGPR file has accumulation registers (AGPRs) after
    /// the architectural VGPRs (CDNA).
    pub fn has_agprs(self) -> bool {
        self.family() == Family::Gfx9
    }

    /// True where work-item IDs arrive packed in v0 (10 bits each): gfx90a,
    /// gfx940+ and GFX11 (AMDGPUUsage, "Initial Kernel Execution State").
    pub fn packed_workitem_ids(self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Chip;

    #[test]
    fn processors_and_full_isa_names_with_features() {
        for (name, chip) in [
            ("gfx942", Some(Chip::Gfx942)),
            ("gfx942:sramecc+:xnack-", Some(Chip::Gfx942)),
            (
                "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
                Some(Chip::Gfx942),
            ),
            ("amdgcn-amd-amdhsa--gfx90a:xnack-", Some(Chip::Gfx90a)),
            ("amdgcn-amd-amdhsa--gfx1100", Some(Chip::Gfx1100)),
            ("amdgcn-amd-amdhsa--gfx908:xnack-", None),
        ] {
            assert_eq!(Chip::from_name(name), chip, "{name}");
        }
    }
}
