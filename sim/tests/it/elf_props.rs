//! The code-object reader never panics: arbitrary bytes and mutations of a
//! real HSACO parse or fail cleanly.

use amdgpu_sim::elf::CodeObject;
use proptest::prelude::*;

const GFX942: &[u8] =
    include_bytes!("../../../fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");

#[test]
fn the_fixture_parses() {
    let code = CodeObject::parse(GFX942).unwrap();
    assert_eq!(code.e_flags & 0xff, 0x4c);
    assert_eq!(code.abi_version, 3);
    let names: Vec<&str> = code.symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["vector_add.kd", "counter", "bump.kd"]);
    assert_eq!(code.max_vaddr(), 0x3f2c);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = CodeObject::parse(&bytes);
    }

    #[test]
    fn mutated_fixture_never_panics(edits in proptest::collection::vec((0..GFX942.len(), any::<u8>()), 1..16),
                                    cut in 0..GFX942.len() + 1) {
        let mut bytes = GFX942.to_vec();
        for (at, value) in edits {
            bytes[at] = value;
        }
        bytes.truncate(cut);
        if let Ok(code) = CodeObject::parse(&bytes) {
            for segment in &code.segments {
                prop_assert!(segment.filesz <= segment.memsz);
            }
        }
    }

    #[test]
    fn header_words_at_extremes_never_panic(word in prop_oneof![Just(u64::MAX), Just(u64::MAX - 7), any::<u64>()],
                                            at in prop_oneof![Just(32usize), Just(40usize)]) {
        let mut bytes = GFX942.to_vec();
        bytes[at..at + 8].copy_from_slice(&word.to_le_bytes());
        let _ = CodeObject::parse(&bytes);
    }
}
