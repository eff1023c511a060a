//! IREE's `target_id_test.cc` cases with the same values, plus the parse edge
//! cases and property tests.

use amdgpu_hal::StatusCode;
use amdgpu_hal::codeobj::target_id::{
    FeatureState, GfxipVersion, Mismatch, ParseFlags, TargetId, TargetKind, check_compatible,
    lookup_code_object_target,
};
use proptest::prelude::*;

const AF: ParseFlags = ParseFlags::ALLOW_ARCH_ONLY.union(ParseFlags::ALLOW_FEATURE_SUFFIXES);

fn parse(value: &str) -> TargetId {
    TargetId::parse(value, ParseFlags::empty()).unwrap()
}

fn parse_af(value: &str) -> TargetId {
    TargetId::parse(value, AF).unwrap()
}

fn version(major: u32, minor: u32, stepping: u32) -> GfxipVersion {
    GfxipVersion {
        major,
        minor,
        stepping,
    }
}

#[test]
fn parses_exact_and_generic_processors() {
    let t = parse("gfx1100");
    assert_eq!(t.kind, TargetKind::Exact);
    assert_eq!(t.version, version(11, 0, 0));
    assert_eq!(t.processor, "gfx1100");
    assert_eq!(t.sramecc, FeatureState::Unsupported);
    assert_eq!(t.xnack, FeatureState::Unsupported);
    assert_eq!(parse("gfx90a").version, version(9, 0, 10));
    let g = parse("gfx9-4-generic");
    assert_eq!((g.kind, g.version), (TargetKind::Generic, version(9, 4, 0)));
    assert_eq!(g.processor, "gfx9-4-generic");
    let g = parse("gfx11-generic");
    assert_eq!(
        (g.kind, g.version),
        (TargetKind::Generic, version(11, 0, 0))
    );
}

#[test]
fn applies_known_feature_support() {
    let t = parse("gfx942");
    assert_eq!((t.sramecc, t.xnack), (FeatureState::Any, FeatureState::Any));
    let t = parse("gfx1030");
    assert_eq!(
        (t.sramecc, t.xnack),
        (FeatureState::Unsupported, FeatureState::Unsupported)
    );
    let t = parse("gfx1013");
    assert_eq!(
        (t.sramecc, t.xnack),
        (FeatureState::Unsupported, FeatureState::Any)
    );
    // Explicit features are kept even where the processor lacks them.
    let t = parse_af("gfx1100:xnack+");
    assert_eq!(t.xnack, FeatureState::On);
}

#[test]
fn parses_hsa_isa_name_and_formats_canonically() {
    let t = TargetId::parse_hsa_isa_name("amdgcn-amd-amdhsa--gfx942:xnack-:sramecc+").unwrap();
    assert_eq!(t.kind, TargetKind::Exact);
    assert_eq!(t.version, version(9, 4, 2));
    assert_eq!((t.sramecc, t.xnack), (FeatureState::On, FeatureState::Off));
    assert_eq!(t.to_string(), "gfx942:sramecc+:xnack-");
    assert_eq!(t.to_string().len(), 22);
    assert_eq!(
        t.to_hsa_isa_name(),
        "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"
    );
    // Features are optional; the prefix is not.
    assert!(TargetId::parse_hsa_isa_name("amdgcn-amd-amdhsa--gfx90a").is_ok());
    let err = TargetId::parse_hsa_isa_name("gfx90a").unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("bare processor name not accepted"));
}

#[test]
fn rejects_what_iree_rejects() {
    let cases: &[(&str, ParseFlags, &str)] = &[
        (
            "amdgcn-amd-amdhsa--gfx942",
            ParseFlags::empty(),
            "HSA ISA prefix not accepted",
        ),
        (
            "gfx942:xnack+",
            ParseFlags::empty(),
            "feature suffixes not accepted",
        ),
        (
            "gfx942foo",
            ParseFlags::empty(),
            "unsupported AMDGPU target processor syntax",
        ),
        (
            "gfx942:xnack+:xnack-",
            AF,
            "duplicate AMDGPU target feature suffix",
        ),
        (
            "gfx942:wavefrontsize64+",
            AF,
            "unsupported AMDGPU target feature suffix",
        ),
        ("gfx942:", AF, "feature suffix is empty"),
        ("gfx942:xnack+:", AF, "feature suffix is empty"),
        ("gfx942::xnack+", AF, "feature suffix is empty"),
        ("gfx942:xnack", AF, "missing +/-"),
        ("gfx942:+", AF, "missing +/-"),
        ("", ParseFlags::empty(), "empty processor name"),
        (":xnack+", AF, "empty processor name"),
        ("gfx9-4-4-generic", ParseFlags::empty(), "processor syntax"),
        (
            "gfx99999999999-generic",
            ParseFlags::empty(),
            "processor syntax",
        ),
        ("GFX942", ParseFlags::empty(), "processor syntax"),
    ];
    for (value, flags, needle) in cases {
        let err = TargetId::parse(value, *flags).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument, "{value}");
        assert!(err.message().contains(needle), "{value}: {err}");
    }
    let long = "gfx942".repeat(100);
    let err = TargetId::parse(&long, ParseFlags::empty()).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
}

#[test]
fn looks_up_code_object_targets() {
    let t = lookup_code_object_target(&parse_af("gfx942:sramecc+:xnack-")).unwrap();
    assert_eq!(t.kind, TargetKind::Generic);
    assert_eq!(t.processor, "gfx9-4-generic");
    assert_eq!((t.sramecc, t.xnack), (FeatureState::On, FeatureState::Off));
    assert_eq!(t.generic_version, 0);
    let t = lookup_code_object_target(&parse("gfx908")).unwrap();
    assert_eq!(
        (t.kind, t.processor.as_str()),
        (TargetKind::Exact, "gfx908")
    );
    let t = lookup_code_object_target(&parse("gfx1300")).unwrap();
    assert_eq!(
        (t.kind, t.processor.as_str()),
        (TargetKind::Exact, "gfx1300")
    );
    let err = lookup_code_object_target(&parse("gfx11-generic")).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("requires an exact processor"));
}

#[test]
fn checks_compatibility_like_iree() {
    let check = |code: &str, agent: &str| check_compatible(&parse_af(code), &parse_af(agent));
    assert_eq!(check("gfx1100", "gfx1100"), Mismatch::empty());
    assert_eq!(check("gfx1100", "gfx1101"), Mismatch::PROCESSOR);
    assert_eq!(check("gfx11-generic", "gfx1100"), Mismatch::empty());
    assert_eq!(check("gfx9-4-generic", "gfx942"), Mismatch::empty());
    assert_eq!(check("gfx9-generic", "gfx942"), Mismatch::GENERIC_FAMILY);
    assert_eq!(check("gfx9-4-generic", "gfx940"), Mismatch::empty());
    assert_eq!(check("gfx9-generic", "gfx940"), Mismatch::GENERIC_FAMILY);
    assert_eq!(check("gfx12-5-generic", "gfx1250"), Mismatch::empty());
    assert_eq!(check("gfx12-generic", "gfx1250"), Mismatch::GENERIC_FAMILY);
    assert_eq!(check("gfx942:xnack+", "gfx942:xnack-"), Mismatch::XNACK);
    assert_eq!(check("gfx942", "gfx942:xnack-"), Mismatch::empty());
    // More: generic vs generic, unmapped agents, explicit vs ANY.
    assert_eq!(check("gfx9-generic", "gfx908"), Mismatch::GENERIC_FAMILY);
    assert_eq!(check("gfx11-generic", "gfx11-generic"), Mismatch::empty());
    assert_eq!(
        check("gfx11-generic", "gfx12-generic"),
        Mismatch::GENERIC_FAMILY
    );
    assert_eq!(check("gfx13-generic", "gfx1301"), Mismatch::empty());
    assert_eq!(
        check("gfx13-1-generic", "gfx1301"),
        Mismatch::GENERIC_FAMILY
    );
    assert_eq!(check("gfx942:xnack+", "gfx942"), Mismatch::XNACK);
    assert_eq!(check("gfx1100", "gfx11-generic"), Mismatch::PROCESSOR);
    assert_eq!(
        check("gfx942:sramecc+:xnack+", "gfx90a:sramecc-:xnack-"),
        Mismatch::PROCESSOR | Mismatch::SRAMECC | Mismatch::XNACK
    );
}

#[test]
fn formats_mismatch_reasons() {
    let mask = Mismatch::GENERIC_FAMILY | Mismatch::SRAMECC | Mismatch::XNACK;
    assert_eq!(mask.to_string(), "generic family, sramecc, xnack");
    assert_eq!(Mismatch::empty().to_string(), "compatible");
    assert_eq!(
        Mismatch::all().to_string(),
        "processor, generic family, generic version, sramecc, xnack"
    );
    assert_eq!(Mismatch::from_bits_retain(1 << 9).to_string(), "");
    assert_eq!(
        Mismatch::from_bits_retain(1 | (1 << 9)).to_string(),
        "processor"
    );
}

#[test]
fn target_ids_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync + 'static>() {}
    assert_send_sync::<TargetId>();
}

fn feature() -> impl Strategy<Value = FeatureState> {
    prop_oneof![
        Just(FeatureState::Any),
        Just(FeatureState::On),
        Just(FeatureState::Off)
    ]
}

fn processor() -> impl Strategy<Value = String> {
    let table = amdgpu_hal::codeobj::processors::PROCESSORS
        .iter()
        .map(|row| row.name.to_owned())
        .collect::<Vec<_>>();
    prop_oneof![
        proptest::sample::select(table),
        "gfx[0-9][0-9][0-9a-fA-F]",
        "gfx1[0-9][0-9][0-9a-f]",
        "gfx[0-9]{1,3}(-[0-9]{1,3})?-generic",
    ]
}

proptest! {
    #[test]
    fn parse_of_format_round_trips(processor in processor(), sramecc in feature(), xnack in feature()) {
        let mut text = processor.clone();
        for (name, state) in [("sramecc", sramecc), ("xnack", xnack)] {
            match state {
                FeatureState::On => text.push_str(&format!(":{name}+")),
                FeatureState::Off => text.push_str(&format!(":{name}-")),
                _ => {}
            }
        }
        let target = parse_af(&text);
        let formatted = target.to_string();
        prop_assert_eq!(&formatted, &text);
        prop_assert_eq!(parse_af(&formatted), target.clone());
        prop_assert_eq!(TargetId::parse_hsa_isa_name(&target.to_hsa_isa_name()).unwrap(), target);
    }

    #[test]
    fn arbitrary_strings_never_panic(value in ".{0,80}", bits in 0u32..16) {
        let flags = ParseFlags::from_bits_retain(bits);
        if let Ok(target) = TargetId::parse(&value, flags) {
            prop_assert!(!target.processor.is_empty());
            prop_assert_eq!(TargetId::parse(&target.to_string(), AF).unwrap().processor, target.processor);
        }
    }
}

/// Compatible means no mismatch bit at all (IREE's compatibility mask of 0).
#[test]
fn compatible_is_an_empty_mismatch() {
    assert!(Mismatch::empty().is_compatible());
    for bit in Mismatch::all().iter() {
        assert!(!bit.is_compatible(), "{bit:?}");
    }
    let check = |code: &str, agent: &str| check_compatible(&parse_af(code), &parse_af(agent));
    assert!(check("gfx942", "gfx942:sramecc+:xnack-").is_compatible());
    assert!(!check("gfx942:xnack+", "gfx942:xnack-").is_compatible());
}

/// The length cap (`MAX_TARGET_ID_LENGTH`, 256 bytes: HSA ISA names are at
/// most 64) is checked first and refuses only what is longer: 256 bytes get
/// the syntax error, 257 the length one.
#[test]
fn only_ids_longer_than_256_bytes_are_refused_for_length() {
    let at_cap = format!("gfx{}", "9".repeat(253));
    let err = TargetId::parse(&at_cap, ParseFlags::empty()).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.mentions("unsupported AMDGPU target processor syntax"),
        "{err}"
    );
    let past = format!("gfx{}", "9".repeat(254));
    let err = TargetId::parse(&past, ParseFlags::empty()).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.mentions("is 257 bytes long, more than the 256 accepted"),
        "{err}"
    );
}
