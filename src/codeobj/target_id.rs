//! AMDGPU target IDs: `gfx942:sramecc+:xnack-`, `gfx9-4-generic`,
//! `amdgcn-amd-amdhsa--gfx90a:xnack-`. Parsing (with IREE's parse flags), the
//! canonical format, the code-object processor of an exact target and the
//! compatibility of code built for one target with an agent's ISA.

use std::fmt;

use bitflags::bitflags;

use super::processors;
use crate::{Result, status};

/// The HSA ISA name prefix (`hsa_isa_get_info(HSA_ISA_INFO_NAME)`).
pub const HSA_ISA_PREFIX: &str = "amdgcn-amd-amdhsa--";

/// Longest target ID string accepted, in bytes (HSA ISA names are at most 64).
pub const MAX_TARGET_ID_LENGTH: usize = 256;

/// Whether a target names one processor or a generic family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TargetKind {
    /// One processor (`gfx942`).
    Exact,
    /// A generic family (`gfx9-4-generic`) whose code runs on several processors.
    Generic,
}

/// The state of one target feature (sramecc or xnack).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureState {
    /// Not specified: code runs either way.
    Any,
    /// The processor does not have the feature.
    Unsupported,
    /// Explicitly off (`-`).
    Off,
    /// Explicitly on (`+`).
    On,
}

impl FeatureState {
    /// True for an explicit `+`/`-`.
    pub fn is_explicit(self) -> bool {
        matches!(self, FeatureState::On | FeatureState::Off)
    }
}

bitflags! {
    /// Which spellings [`TargetId::parse`] accepts. The empty set accepts a bare
    /// processor only (IREE's `NONE`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct ParseFlags: u32 {
        /// Accept the `amdgcn-amd-amdhsa--` prefix. Without `ARCH_ONLY` it is required.
        const ALLOW_HSA_PREFIX = 1 << 0;
        /// Accept a processor without the HSA prefix.
        const ALLOW_ARCH_ONLY = 1 << 1;
        /// Accept `:sramecc±`/`:xnack±` suffixes.
        const ALLOW_FEATURE_SUFFIXES = 1 << 2;
    }
}

/// A graphics IP version `major.minor.stepping` (`gfx90a` = 9.0.10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GfxipVersion {
    /// Major version (`gfx1100` → 11).
    pub major: u32,
    /// Minor version.
    pub minor: u32,
    /// Stepping (the hex digit; `gfx90a` → 10).
    pub stepping: u32,
}

/// A parsed AMDGPU target ID. Owns its processor name, so it can be stored and
/// sent across threads.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TargetId {
    /// Exact processor or generic family.
    pub kind: TargetKind,
    /// The version encoded in the processor name.
    pub version: GfxipVersion,
    /// The code object V6 generic version (`e_flags >> 24`); 0 = unspecified.
    /// Only set when read from an ELF.
    pub generic_version: u32,
    /// SRAM ECC state.
    pub sramecc: FeatureState,
    /// XNACK state.
    pub xnack: FeatureState,
    /// The processor without prefix or features (`gfx942`, `gfx11-generic`).
    pub processor: String,
}

bitflags! {
    /// Why code for one target cannot run on an agent (IREE's compatibility mask).
    /// Empty means compatible.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Mismatch: u32 {
        /// Exact code for a different processor version.
        const PROCESSOR = 1 << 0;
        /// Generic code for a family the agent is not in.
        const GENERIC_FAMILY = 1 << 1;
        /// Generic code newer than the agent supports.
        const GENERIC_VERSION = 1 << 2;
        /// The code's explicit sramecc setting differs from the agent's.
        const SRAMECC = 1 << 3;
        /// The code's explicit xnack setting differs from the agent's.
        const XNACK = 1 << 4;
    }
}

impl Mismatch {
    /// True when no mismatch bit is set.
    pub fn is_compatible(self) -> bool {
        self.is_empty()
    }
}

impl fmt::Display for Mismatch {
    /// `"compatible"`, or the reasons joined with `", "` in bit order
    /// (`"generic family, sramecc, xnack"`). Unknown bits are ignored.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bits() == 0 {
            return f.write_str("compatible");
        }
        let names = [
            (Mismatch::PROCESSOR, "processor"),
            (Mismatch::GENERIC_FAMILY, "generic family"),
            (Mismatch::GENERIC_VERSION, "generic version"),
            (Mismatch::SRAMECC, "sramecc"),
            (Mismatch::XNACK, "xnack"),
        ];
        let mut first = true;
        for (flag, name) in names {
            if self.contains(flag) {
                if !first {
                    f.write_str(", ")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

fn decimal_digit(byte: u8) -> Option<u32> {
    byte.is_ascii_digit().then(|| u32::from(byte - b'0'))
}

fn hex_digit(byte: u8) -> Option<u32> {
    (byte as char).to_digit(16)
}

/// Decimal without sign, at most `u32::MAX`; the empty string is not a number.
fn decimal_number(text: &str) -> Option<u32> {
    if text.is_empty() {
        return None;
    }
    text.bytes().try_fold(0u32, |acc, byte| {
        acc.checked_mul(10)?.checked_add(decimal_digit(byte)?)
    })
}

/// `gfx` + `MAJOR[-MINOR]` + `-generic`.
fn parse_generic_processor(processor: &str) -> Option<GfxipVersion> {
    let body = processor.strip_prefix("gfx")?.strip_suffix("-generic")?;
    let (major, minor) = match body.split_once('-') {
        None => (body, ""),
        Some((_, minor)) if minor.contains('-') => return None,
        Some(split) => split,
    };
    let major = decimal_number(major)?;
    // An empty minor (`gfx9--generic`) reads as 0, as IREE does.
    let minor = if minor.is_empty() {
        0
    } else {
        decimal_number(minor)?
    };
    Some(GfxipVersion {
        major,
        minor,
        stepping: 0,
    })
}

/// `gfx` + `D D H` or `gfx` + `1 D D H`.
fn parse_exact_processor(processor: &str) -> Option<GfxipVersion> {
    match *processor.strip_prefix("gfx")?.as_bytes() {
        [b'1', major, minor, stepping] => Some(GfxipVersion {
            major: 10 + decimal_digit(major)?,
            minor: decimal_digit(minor)?,
            stepping: hex_digit(stepping)?,
        }),
        [major, minor, stepping] => Some(GfxipVersion {
            major: decimal_digit(major)?,
            minor: decimal_digit(minor)?,
            stepping: hex_digit(stepping)?,
        }),
        _ => None,
    }
}

impl TargetId {
    /// Parses a target ID under `flags` (see [`ParseFlags`]). Every failure is
    /// `INVALID_ARGUMENT`. For a known exact processor, a feature left unspecified
    /// becomes [`FeatureState::Unsupported`] when the processor lacks it; explicit
    /// `+`/`-` are kept as written.
    pub fn parse(value: &str, flags: ParseFlags) -> Result<TargetId> {
        if !ParseFlags::all().contains(flags) {
            return Err(status!(
                InvalidArgument,
                "unknown AMDGPU target ID parse flags: {:#x}",
                flags.bits()
            ));
        }
        if value.len() > MAX_TARGET_ID_LENGTH {
            return Err(status!(
                InvalidArgument,
                "AMDGPU target ID is {} bytes long, more than the {MAX_TARGET_ID_LENGTH} accepted",
                value.len()
            ));
        }
        let allow_arch_only = flags.is_empty() || flags.contains(ParseFlags::ALLOW_ARCH_ONLY);
        let rest = match value.strip_prefix(HSA_ISA_PREFIX) {
            Some(rest) if flags.contains(ParseFlags::ALLOW_HSA_PREFIX) => rest,
            Some(_) => {
                return Err(status!(
                    InvalidArgument,
                    "HSA ISA prefix not accepted in AMDGPU target ID: {value}"
                ));
            }
            None if allow_arch_only => value,
            None => {
                return Err(status!(
                    InvalidArgument,
                    "bare processor name not accepted in AMDGPU target ID: {value}"
                ));
            }
        };
        let (processor, features) = match rest.split_once(':') {
            None => (rest, None),
            Some(_) if !flags.contains(ParseFlags::ALLOW_FEATURE_SUFFIXES) => {
                return Err(status!(
                    InvalidArgument,
                    "AMDGPU target feature suffixes not accepted in target ID: {value}"
                ));
            }
            Some((_, "")) => {
                return Err(status!(
                    InvalidArgument,
                    "AMDGPU target feature suffix is empty"
                ));
            }
            Some((processor, features)) => (processor, Some(features)),
        };
        if processor.is_empty() {
            return Err(status!(
                InvalidArgument,
                "AMDGPU target ID has an empty processor name"
            ));
        }
        let (kind, version) = if let Some(version) = parse_generic_processor(processor) {
            (TargetKind::Generic, version)
        } else if let Some(version) = parse_exact_processor(processor) {
            (TargetKind::Exact, version)
        } else {
            return Err(status!(
                InvalidArgument,
                "unsupported AMDGPU target processor syntax: {processor}"
            ));
        };
        let mut target = TargetId {
            kind,
            version,
            generic_version: 0,
            sramecc: FeatureState::Any,
            xnack: FeatureState::Any,
            processor: processor.to_owned(),
        };
        for feature in features.into_iter().flat_map(|list| list.split(':')) {
            target.apply_feature(feature)?;
        }
        target.apply_known_feature_support();
        Ok(target)
    }

    /// Parses an HSA ISA name: the `amdgcn-amd-amdhsa--` prefix is required and
    /// feature suffixes are optional.
    pub fn parse_hsa_isa_name(value: &str) -> Result<TargetId> {
        TargetId::parse(
            value,
            ParseFlags::ALLOW_HSA_PREFIX | ParseFlags::ALLOW_FEATURE_SUFFIXES,
        )
    }

    /// The processor's row in the processor table, if it has one.
    pub fn processor_info(&self) -> Option<&'static processors::Processor> {
        processors::by_name(&self.processor)
    }

    /// The target as an HSA ISA name (`amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-`).
    pub fn to_hsa_isa_name(&self) -> String {
        format!("{HSA_ISA_PREFIX}{self}")
    }

    fn apply_feature(&mut self, feature: &str) -> Result<()> {
        if feature.is_empty() {
            return Err(status!(
                InvalidArgument,
                "AMDGPU target feature suffix is empty"
            ));
        }
        let on = feature
            .strip_suffix('+')
            .map(|name| (name, FeatureState::On));
        let off = feature
            .strip_suffix('-')
            .map(|name| (name, FeatureState::Off));
        let (name, state) = match on.or(off) {
            Some((name, state)) if !name.is_empty() => (name, state),
            _ => {
                return Err(status!(
                    InvalidArgument,
                    "AMDGPU target feature suffix missing +/-: {feature}"
                ));
            }
        };
        let slot = match name {
            "sramecc" => &mut self.sramecc,
            "xnack" => &mut self.xnack,
            _ => {
                return Err(status!(
                    InvalidArgument,
                    "unsupported AMDGPU target feature suffix: {feature}"
                ));
            }
        };
        if *slot != FeatureState::Any {
            return Err(status!(
                InvalidArgument,
                "duplicate AMDGPU target feature suffix: {feature}"
            ));
        }
        *slot = state;
        Ok(())
    }

    /// Unspecified features a known exact processor lacks become `Unsupported`.
    pub(crate) fn apply_known_feature_support(&mut self) {
        if self.kind != TargetKind::Exact {
            return;
        }
        let Some(row) = self.processor_info().filter(|row| !row.is_generic()) else {
            return;
        };
        if row.code_object_processor.is_none() {
            // Processors outside IREE's map get no fill-in, as in IREE.
            return;
        }
        if self.sramecc == FeatureState::Any && !row.sramecc {
            self.sramecc = FeatureState::Unsupported;
        }
        if self.xnack == FeatureState::Any && !row.xnack {
            self.xnack = FeatureState::Unsupported;
        }
    }
}

impl fmt::Display for TargetId {
    /// IREE's canonical form: the processor, then `:sramecc±`, then `:xnack±`,
    /// each only when explicit. Never the HSA prefix.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.processor)?;
        for (name, state) in [("sramecc", self.sramecc), ("xnack", self.xnack)] {
            match state {
                FeatureState::On => write!(f, ":{name}+")?,
                FeatureState::Off => write!(f, ":{name}-")?,
                FeatureState::Any | FeatureState::Unsupported => {}
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for TargetId {
    type Err = crate::Status;

    /// Parses any accepted spelling: with or without the HSA prefix, with or
    /// without feature suffixes.
    fn from_str(value: &str) -> Result<TargetId> {
        TargetId::parse(value, ParseFlags::all())
    }
}

/// The target a code object for `exact` is built against: the generic family
/// for processors that have one (`gfx942` → `gfx9-4-generic`), else the exact
/// target itself. The input's feature states are kept. A generic input is
/// `INVALID_ARGUMENT`.
pub fn lookup_code_object_target(exact: &TargetId) -> Result<TargetId> {
    if exact.kind != TargetKind::Exact {
        return Err(status!(
            InvalidArgument,
            "AMDGPU code-object target lookup requires an exact processor target ID"
        ));
    }
    let family = exact
        .processor_info()
        .and_then(|row| row.code_object_processor)
        .filter(|family| *family != exact.processor);
    let Some(family) = family else {
        return Ok(exact.clone());
    };
    let mut target = TargetId::parse(family, ParseFlags::empty())?;
    target.sramecc = exact.sramecc;
    target.xnack = exact.xnack;
    Ok(target)
}

/// Whether code built for `code` runs on an agent whose ISA is `agent`. The
/// empty mask means compatible. Exact code needs the same version triple;
/// generic code needs the agent to be in its family; an explicit feature in the
/// code needs the identical state on the agent.
pub fn check_compatible(code: &TargetId, agent: &TargetId) -> Mismatch {
    let mut mismatch = Mismatch::empty();
    match code.kind {
        TargetKind::Exact => {
            if agent.kind != TargetKind::Exact || code.version != agent.version {
                mismatch |= Mismatch::PROCESSOR;
            }
        }
        TargetKind::Generic => {
            let family_ok = match agent.kind {
                TargetKind::Exact => match agent
                    .processor_info()
                    .and_then(|row| row.code_object_processor)
                {
                    Some(family) => code.processor == family,
                    None => {
                        code.version.major == agent.version.major
                            && code.version.minor == agent.version.minor
                            && code.version.stepping <= agent.version.stepping
                    }
                },
                TargetKind::Generic => code.processor == agent.processor,
            };
            if !family_ok {
                mismatch |= Mismatch::GENERIC_FAMILY;
            }
            // LLVM's minimum generic version is 1, so IREE's check (`v != 0 && v < 1`)
            // can never fire; with no agent-side generic version to compare there is
            // nothing stricter to check either.
        }
    }
    if code.sramecc.is_explicit() && code.sramecc != agent.sramecc {
        mismatch |= Mismatch::SRAMECC;
    }
    if code.xnack.is_explicit() && code.xnack != agent.xnack {
        mismatch |= Mismatch::XNACK;
    }
    mismatch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_flag_bits_are_rejected() {
        assert_eq!(ParseFlags::from_bits(1 << 3), None);
        let err = TargetId::parse("gfx942", ParseFlags::from_bits_retain(1 << 3)).unwrap_err();
        assert_eq!(err.code(), crate::StatusCode::InvalidArgument);
        assert!(err.message().contains("parse flags: 0x8"), "{err}");
    }

    #[test]
    fn empty_minor_and_case_are_iree_compatible() {
        let t = TargetId::parse("gfx9--generic", ParseFlags::empty()).unwrap();
        assert_eq!(
            (t.kind, t.version.major, t.version.minor),
            (TargetKind::Generic, 9, 0)
        );
        let t = TargetId::parse("gfx90A", ParseFlags::empty()).unwrap();
        assert_eq!(t.version.stepping, 10);
        assert_eq!((t.sramecc, t.xnack), (FeatureState::Any, FeatureState::Any));
        assert!(TargetId::parse("GFX942", ParseFlags::empty()).is_err());
    }
}
