//! Every IREE-produced executable in `fixtures/iree/` passes the structural
//! and semantic verification, and holds exactly the code object IREE dumped.

use std::path::PathBuf;

use amdgpu_hal::wrapped::{Amd1Executable, DataExtent, DeviceLimits, Hip1Executable, HipLimits};

fn fixtures(ext: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/iree");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect()
}

#[test]
fn every_amd1_fixture_verifies_and_wraps_the_dumped_hsaco() {
    let all = fixtures("amd1");
    assert!(all.len() >= 17, "{} AMD1 fixtures", all.len());
    for (name, data) in &all {
        let exe = Amd1Executable::parse(data, DataExtent::Known)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        exe.verify(&DeviceLimits::AMDGPU)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(exe.size(), data.len() as u64, "{name}");
        assert_eq!(
            exe.header.content_size % 4,
            0,
            "{name}: IREE pads content to 4 bytes"
        );
        let image = exe.single_module_image().unwrap();
        let hsaco = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/iree")
            .join(name.replace(".amd1", ".hsaco"));
        if name.contains(".spirv.") {
            assert!(image.starts_with(b"__CLANG_OFFLOAD_BUNDLE__"), "{name}");
        } else {
            assert_eq!(image, std::fs::read(&hsaco).unwrap(), "{name}");
        }
        // IREE's compiler marks every binding INDIRECT.
        for export in exe.def.exports().unwrap() {
            for flags in export.binding_flags().unwrap() {
                assert!(
                    flags.contains(amdgpu_hal::wrapped::amd1_fb::BindingBits::INDIRECT),
                    "{name}"
                );
            }
        }
    }
}

#[test]
fn every_hip1_fixture_verifies() {
    let all = fixtures("hip1");
    assert!(all.len() >= 5, "{} HIP1 fixtures", all.len());
    for (name, data) in &all {
        let exe = Hip1Executable::parse(data, DataExtent::Known)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        exe.verify(&HipLimits::AMDGPU)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(exe.header.total_size(), data.len() as u64, "{name}");
    }
}
