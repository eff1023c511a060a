//! Arbitrary bytes and mutated real executables through parsing, verification,
//! format inference and inspection: errors are fine, panics are not.

use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::wrapped::{
    Amd1Executable, DataExtent, DeviceLimits, Hip1Executable, HipLimits, PackOptions, infer_format,
    pack,
};
use proptest::prelude::*;

const REAL: &[&[u8]] = &[
    include_bytes!("../../../fixtures/iree/elementwise.gfx942.amd1"),
    include_bytes!("../../../fixtures/iree/multi_dispatch.gfx1100.amd1"),
    include_bytes!("../../../fixtures/iree/dynamic.gfx90a.amd1"),
    include_bytes!("../../../fixtures/iree/elementwise.spirv.amd1"),
    include_bytes!("../../../fixtures/iree/matmul.gfx942.hip1"),
    include_bytes!("../../../fixtures/iree/matmul.gfx90a.hsaco"),
    include_bytes!("../../../fixtures/hsaco/vector_add.gfx1100.cov5.hsaco"),
];

/// Everything a caller can do with untrusted wrapped bytes.
fn exercise(data: &[u8]) {
    for extent in [DataExtent::Known, DataExtent::Infer] {
        if let Ok(exe) = Amd1Executable::parse(data, extent) {
            let _ = exe.verify(&DeviceLimits::AMDGPU);
            let _ = exe.single_module_image();
            assert!(exe.size() <= data.len() as u64);
        }
        if let Ok(exe) = Hip1Executable::parse(data, extent) {
            let _ = exe.verify(&HipLimits::AMDGPU);
            let _ = exe.module_images();
        }
        if let Ok(inferred) = infer_format(data, extent) {
            assert!(inferred.size <= data.len());
        }
    }
    let _ = inspect(data, &DeviceLimits::AMDGPU, &());
    if let Ok(packed) = pack(data, &PackOptions::default()) {
        // Whatever pack accepts, inspect reads back.
        inspect(&packed, &DeviceLimits::AMDGPU, &()).unwrap();
    }
}

fn mutated() -> impl Strategy<Value = Vec<u8>> {
    (
        0..REAL.len(),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..12),
        prop::option::of(any::<prop::sample::Index>()),
    )
        .prop_map(|(which, edits, cut)| {
            let mut data = REAL[which].to_vec();
            for (at, value) in edits {
                let at = at.index(data.len());
                data[at] = value;
            }
            if let Some(cut) = cut {
                data.truncate(cut.index(data.len() + 1));
            }
            data
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(tail in prop::collection::vec(any::<u8>(), 0..2048), magic in 0..3u8) {
        let mut data = match magic {
            0 => b"AMD1".to_vec(),
            1 => b"HIP1".to_vec(),
            _ => vec![],
        };
        data.extend_from_slice(&tail);
        exercise(&data);
    }

    #[test]
    fn mutated_real_executables_never_panic(data in mutated()) {
        exercise(&data);
    }
}
