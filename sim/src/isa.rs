//! AMDGPU targets as the loader sees them: the code object's ISA name from
//! its ELF `e_flags` (LLVM's `EF_AMDGPU_MACH_*` table and feature bits) and
//! the compatibility rule ROCr applies between a code object's ISA and an
//! agent's ISA.

/// A target feature setting (`sramecc`, `xnack`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// The processor has no such feature.
    Unsupported,
    /// Works either way (omitted from the name).
    Any,
    /// Off (`-`).
    Off,
    /// On (`+`).
    On,
}

/// A parsed target: processor plus features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// `gfx942`, `gfx9-4-generic`, ...
    pub processor: String,
    /// `sramecc`.
    pub sramecc: Feature,
    /// `xnack`.
    pub xnack: Feature,
}

/// The HSA ISA name prefix.
pub const ISA_PREFIX: &str = "amdgcn-amd-amdhsa--";

// EF_AMDGPU_MACH values (LLVM ELF.h) with whether code object v3 can encode
// sramecc / xnack for the processor.
const MACHS: &[(u32, &str, bool, bool)] = &[
    (0x020, "gfx600", false, false),
    (0x021, "gfx601", false, false),
    (0x022, "gfx700", false, false),
    (0x023, "gfx701", false, false),
    (0x024, "gfx702", false, false),
    (0x025, "gfx703", false, false),
    (0x026, "gfx704", false, false),
    (0x028, "gfx801", false, true),
    (0x029, "gfx802", false, false),
    (0x02a, "gfx803", false, false),
    (0x02b, "gfx810", false, true),
    (0x02c, "gfx900", false, true),
    (0x02d, "gfx902", false, true),
    (0x02e, "gfx904", false, true),
    (0x02f, "gfx906", true, true),
    (0x030, "gfx908", true, true),
    (0x031, "gfx909", false, true),
    (0x032, "gfx90c", false, true),
    (0x033, "gfx1010", false, true),
    (0x034, "gfx1011", false, true),
    (0x035, "gfx1012", false, true),
    (0x036, "gfx1030", false, false),
    (0x037, "gfx1031", false, false),
    (0x038, "gfx1032", false, false),
    (0x039, "gfx1033", false, false),
    (0x03a, "gfx602", false, false),
    (0x03b, "gfx705", false, false),
    (0x03c, "gfx805", false, false),
    (0x03d, "gfx1035", false, false),
    (0x03e, "gfx1034", false, false),
    (0x03f, "gfx90a", true, true),
    (0x040, "gfx940", true, true),
    (0x041, "gfx1100", false, false),
    (0x042, "gfx1013", false, true),
    (0x043, "gfx1150", false, false),
    (0x044, "gfx1103", false, false),
    (0x045, "gfx1036", false, false),
    (0x046, "gfx1101", false, false),
    (0x047, "gfx1102", false, false),
    (0x048, "gfx1200", false, false),
    (0x049, "gfx1250", false, false),
    (0x04a, "gfx1151", false, false),
    (0x04b, "gfx941", true, true),
    (0x04c, "gfx942", true, true),
    (0x04e, "gfx1201", false, false),
    (0x04f, "gfx950", true, true),
    (0x050, "gfx1310", false, false),
    (0x051, "gfx9-generic", false, true),
    (0x052, "gfx10-1-generic", false, true),
    (0x053, "gfx10-3-generic", false, false),
    (0x054, "gfx11-generic", false, false),
    (0x055, "gfx1152", false, false),
    (0x058, "gfx1153", false, false),
    (0x059, "gfx12-generic", false, false),
    (0x05a, "gfx1251", false, false),
    (0x05b, "gfx12-5-generic", false, false),
    (0x05c, "gfx1172", false, false),
    (0x05d, "gfx1170", false, false),
    (0x05e, "gfx1171", false, false),
    (0x05f, "gfx9-4-generic", true, true),
];

// Members of each generic target (LLVM AMDGPUUsage "generic processors").
const GENERIC_MEMBERS: &[(&str, &[&str])] = &[
    (
        "gfx9-generic",
        &["gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"],
    ),
    ("gfx9-4-generic", &["gfx940", "gfx941", "gfx942", "gfx950"]),
    (
        "gfx10-1-generic",
        &["gfx1010", "gfx1011", "gfx1012", "gfx1013"],
    ),
    (
        "gfx10-3-generic",
        &[
            "gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036",
        ],
    ),
    (
        "gfx11-generic",
        &[
            "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153",
        ],
    ),
    ("gfx12-generic", &["gfx1200", "gfx1201"]),
];

impl Target {
    /// The target a code object's `e_flags` and `EI_ABIVERSION` encode, or
    /// `None` when the machine value is unknown or the ABI version is not v3..v6.
    pub fn from_elf(e_flags: u32, abi_version: u8) -> Option<Target> {
        let mach = e_flags & 0xff;
        let &(_, processor, v3_sramecc, v3_xnack) = MACHS.iter().find(|m| m.0 == mach)?;
        let (sramecc, xnack) = match abi_version {
            1 => (
                if e_flags & 0x200 != 0 {
                    Feature::On
                } else if v3_sramecc {
                    Feature::Off
                } else {
                    Feature::Unsupported
                },
                if e_flags & 0x100 != 0 {
                    Feature::On
                } else if v3_xnack {
                    Feature::Off
                } else {
                    Feature::Unsupported
                },
            ),
            2..=4 => (
                match e_flags & 0xc00 {
                    0x400 => Feature::Any,
                    0x800 => Feature::Off,
                    0xc00 => Feature::On,
                    _ => Feature::Unsupported,
                },
                match e_flags & 0x300 {
                    0x100 => Feature::Any,
                    0x200 => Feature::Off,
                    0x300 => Feature::On,
                    _ => Feature::Unsupported,
                },
            ),
            _ => return None,
        };
        Some(Target {
            processor: processor.to_string(),
            sramecc,
            xnack,
        })
    }

    /// Parses an HSA ISA name (`amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-`);
    /// the prefix is optional.
    pub fn parse(name: &str) -> Option<Target> {
        let rest = name.strip_prefix(ISA_PREFIX).unwrap_or(name);
        let mut parts = rest.split(':');
        let processor = parts.next().filter(|p| p.starts_with("gfx"))?.to_string();
        let mut target = Target {
            processor,
            sramecc: Feature::Any,
            xnack: Feature::Any,
        };
        for part in parts {
            let (feature, setting) = part.split_at(part.len().checked_sub(1)?);
            let value = match setting {
                "+" => Feature::On,
                "-" => Feature::Off,
                _ => return None,
            };
            match feature {
                "sramecc" => target.sramecc = value,
                "xnack" => target.xnack = value,
                _ => return None,
            }
        }
        Some(target)
    }

    /// The HSA ISA name ROCr gives this target: the prefix, the processor and
    /// each feature that is on or off (sramecc before xnack).
    pub fn isa_name(&self) -> String {
        let mut name = format!("{ISA_PREFIX}{}", self.processor);
        for (feature, setting) in [("sramecc", self.sramecc), ("xnack", self.xnack)] {
            match setting {
                Feature::On => name.push_str(&format!(":{feature}+")),
                Feature::Off => name.push_str(&format!(":{feature}-")),
                Feature::Any | Feature::Unsupported => {}
            }
        }
        name
    }

    /// Whether a code object built for `self` runs on an agent whose ISA is
    /// `agent`: the same processor (or a generic target the processor
    /// belongs to), and every feature the code object fixes matches the agent's.
    pub fn runs_on(&self, agent: &Target) -> bool {
        let processor_ok = self.processor == agent.processor
            || GENERIC_MEMBERS.iter().any(|(generic, members)| {
                *generic == self.processor && members.contains(&agent.processor.as_str())
            });
        let feature_ok = |code: Feature, device: Feature| match code {
            Feature::Any | Feature::Unsupported => true,
            fixed => device == fixed || device == Feature::Any,
        };
        processor_ok
            && feature_ok(self.sramecc, agent.sramecc)
            && feature_ok(self.xnack, agent.xnack)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gfx942_v5_flags_name_like_rocr() {
        // EF_AMDGPU_MACH_AMDGCN_GFX942 | sramecc on (0xc00) | xnack off (0x200).
        let target = Target::from_elf(0x04c | 0xc00 | 0x200, 3).unwrap();
        assert_eq!(
            target.isa_name(),
            "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"
        );
        assert_eq!(
            Target::from_elf(0x041, 3).unwrap().isa_name(),
            "amdgcn-amd-amdhsa--gfx1100"
        );
        assert_eq!(Target::from_elf(0x027, 3), None);
        assert_eq!(Target::from_elf(0x04c, 9), None);
    }

    #[test]
    fn compatibility_follows_features() {
        let agent = Target::parse("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-").unwrap();
        assert!(
            Target::parse("gfx942:sramecc+:xnack-")
                .unwrap()
                .runs_on(&agent)
        );
        assert!(Target::parse("gfx942").unwrap().runs_on(&agent));
        assert!(Target::parse("gfx9-4-generic").unwrap().runs_on(&agent));
        assert!(!Target::parse("gfx942:xnack+").unwrap().runs_on(&agent));
        assert!(!Target::parse("gfx90a").unwrap().runs_on(&agent));
        assert_eq!(Target::parse("gfx942:bogus+"), None);
        assert_eq!(Target::parse("sm_90"), None);
    }
}
