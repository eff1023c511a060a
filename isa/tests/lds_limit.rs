//! The most LDS a work-group may have: 64 KiB on gfx942 (and every chip
//! but gfx950), 160 KiB on gfx950 (LLVM's
//! `FeatureAddressableLocalMemorySize163840` for gfx950, the CDNA4 white
//! paper's 160 KB per CU), whose mxfp4 matmuls from IREE take 157,184
//! bytes. A dispatch past the limit is refused before it runs, naming the
//! sizes.

mod handmade;

use amdgpu_isa::{Chip, Dispatch, FaultKind, Inputs, Program, Regions, run_dispatch};

/// Runs `s_endpgm` as one wave of a work-group with `lds` bytes of LDS.
fn run(chip: Chip, lds: u32) -> Result<(), String> {
    let program = Program::decode(chip, &handmade::bytes(&[0xbf81_0000])).unwrap();
    let mut descriptor = handmade::descriptor(0, false);
    descriptor.group_segment_fixed_size = lds;
    let dispatch = Dispatch {
        program: &program,
        descriptor,
        grid_size: [64, 1, 1],
        block: [64, 1, 1],
        dynamic_lds: 0,
        inputs: Inputs::UserData(&[]),
        instruction_limit: 1000,
    };
    match run_dispatch(&dispatch, &mut Regions::new(Vec::new())) {
        Ok(_) => Ok(()),
        Err(fault) => {
            assert_eq!(fault.kind, FaultKind::Device);
            Err(fault.reason)
        }
    }
}

#[test]
fn gfx950_has_160_kib() {
    assert_eq!(run(Chip::Gfx950, 157_184), Ok(()));
    assert_eq!(run(Chip::Gfx950, 163_840), Ok(()));
    assert_eq!(
        run(Chip::Gfx950, 163_841),
        Err("163841 LDS bytes (at most 163840)".to_string())
    );
}

#[test]
fn gfx942_has_64_kib() {
    assert_eq!(run(Chip::Gfx942, 65_536), Ok(()));
    assert_eq!(
        run(Chip::Gfx942, 157_184),
        Err("157184 LDS bytes (at most 65536)".to_string())
    );
}
