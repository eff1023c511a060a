//! Replays the committed fuzz seeds (`fuzz/corpus/*`) through the same calls
//! as the fuzz targets, so plain `cargo test` covers them without a fuzzer.

use std::path::Path;

use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;
use amdgpu_hal::codeobj::target_id::{ParseFlags, TargetId};

fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .map(|path| (path.display().to_string(), std::fs::read(&path).unwrap()))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no seeds for {target}");
    out
}

#[test]
fn metadata_seeds_are_real_metadata() {
    for (name, data) in corpus("codeobj_metadata") {
        let metadata =
            CodeObjectMetadata::from_msgpack(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!metadata.kernels.is_empty(), "{name}");
        for kernel in &metadata.kernels {
            let _ = kernel.default_export_parameters();
        }
    }
}

#[test]
fn target_id_seeds_replay() {
    let mut parsed = 0;
    for (_, data) in corpus("target_id") {
        let Some((&flags, text)) = data.split_first() else {
            continue;
        };
        let text = std::str::from_utf8(text).unwrap();
        let flags = ParseFlags::from_bits_retain(u32::from(flags & 0x0f));
        if let Ok(target) = TargetId::parse(text, flags) {
            parsed += 1;
            assert_eq!(
                TargetId::parse(&target.to_string(), ParseFlags::all()).unwrap(),
                target
            );
        }
    }
    assert_eq!(parsed, 3, "three seeds are valid, `gfx942::xnack+` is not");
}
