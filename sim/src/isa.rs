//! AMDGPU targets as the loader sees them: the code object's ISA name from
//! its ELF `e_flags` (the `EF_AMDGPU_MACH` table of `amdgpu-sys` and the
//! feature bits) and the compatibility rule ROCr applies between a code
//! object's ISA and an agent's ISA (a generic target runs on the members of
//! its family).

use amdgpu_sys::processors;

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

impl Target {
    /// The target a code object's `e_flags` and `EI_ABIVERSION` encode, or
    /// `None` when the machine value is unknown or the ABI version is not v3..v6.
    pub fn from_elf(e_flags: u32, abi_version: u8) -> Option<Target> {
        let row = processors::by_mach((e_flags & processors::EF_AMDGPU_MACH) as u8)?;
        let (processor, v3_sramecc, v3_xnack) = (row.name, row.sramecc, row.xnack);
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
            || processors::by_name(&agent.processor)
                .and_then(|row| row.generic_family())
                .is_some_and(|family| family == self.processor);
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
