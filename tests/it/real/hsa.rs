//! The real HSA path against Debian's `libhsa-runtime64-1` (ROCm 5.2) on a
//! machine without a GPU: load, every required symbol, the exact failure
//! codes, and the missing-library / missing-symbol paths.
#![cfg(feature = "real")]

use crate::real_support;
use crate::support;

use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::dylib::hsa::{HsaLibrary, HsaSymbols};
use amdgpu_hal::backend::dylib::library::{DynamicLibrary, HSA};
use amdgpu_hal::backend::{AgentInfo, IsaInfo};
use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::hsa_agent_t;
use real_support::{build_shared_object, file_entry, stubs};

/// Debian's library by soname, or `None` (one line printed) when it is absent.
fn system_hsa(what: &str) -> Option<HsaLibrary> {
    if !support::requires::hsa_runtime(what) {
        return None;
    }
    let library = DynamicLibrary::open_with_env(&HSA, &[], None).expect("found a moment ago");
    Some(HsaLibrary::from_library(library).expect("every required HSA symbol resolves"))
}

#[test]
fn loads_by_soname_and_resolves_every_required_symbol() {
    let Some(hsa) = system_hsa("loading libhsa-runtime64.so.1 by soname") else {
        return;
    };
    assert_eq!(hsa.path(), "libhsa-runtime64.so.1");
    assert!(
        HsaSymbols::REQUIRED.len() >= 60,
        "{}",
        HsaSymbols::REQUIRED.len()
    );
    for name in [
        "hsa_init",
        "hsa_iterate_agents",
        "hsa_isa_get_info_alt",
        "hsa_system_get_major_extension_table",
    ] {
        assert!(HsaSymbols::REQUIRED.contains(&name), "{name}");
    }
    // The AMD loader is reached only through the extension table.
    assert!(
        !HsaSymbols::REQUIRED
            .iter()
            .any(|s| s.starts_with("hsa_ven_amd_loader"))
    );
}

#[test]
fn init_without_kfd_is_out_of_resources_and_everything_else_not_initialized() {
    let Some(hsa) = system_hsa("ROCm 5.2's hsa_init codes without a GPU") else {
        return;
    };
    assert_eq!(hsa.init(), Err(HSA_STATUS_ERROR_OUT_OF_RESOURCES));
    assert_eq!(hsa.init(), Err(0x1008), "a second init fails the same way");
    assert_eq!(hsa.iterate_agents(), Err(HSA_STATUS_ERROR_NOT_INITIALIZED));
    assert_eq!(hsa.system_version(), Err(0x100B));
    assert_eq!(hsa.loader().err(), Some(0x100B));
    assert_eq!(hsa.shut_down(), Err(0x100B));
}

#[test]
fn status_string_works_before_init_and_rejects_unknown_codes() {
    let Some(hsa) = system_hsa("ROCm 5.2's hsa_status_string") else {
        return;
    };
    let text = hsa
        .status_string(HSA_STATUS_ERROR_OUT_OF_RESOURCES)
        .expect("known code");
    assert!(text.contains("HSA_STATUS_ERROR_OUT_OF_RESOURCES"), "{text}");
    assert_eq!(hsa.status_string(0x7777), None);
}

#[test]
fn wrappers_reject_buffers_too_small_for_the_attribute_without_calling() {
    let Some(hsa) = system_hsa("HSA attribute buffers over ROCm 5.2") else {
        return;
    };
    // Before `hsa_init` a call would answer NOT_INITIALIZED: INVALID_ARGUMENT
    // says the buffer was refused before the runtime was asked.
    let agent = hsa_agent_t { handle: 1 };
    assert_eq!(
        hsa.agent_get_info(agent, AgentInfo::Name, &mut [0u8; 4]),
        Err(HSA_STATUS_ERROR_INVALID_ARGUMENT)
    );
    assert_eq!(
        hsa.agent_get_info(agent, AgentInfo::Node, &mut []),
        Err(HSA_STATUS_ERROR_INVALID_ARGUMENT)
    );
    // A counted attribute asks its count first (here: refused, not initialized).
    let isa = amdgpu_sys::hsa_types::hsa_isa_t { handle: 1 };
    assert_eq!(
        hsa.isa_get_info_alt(isa, IsaInfo::Name, &mut [0u8; 8]),
        Err(HSA_STATUS_ERROR_NOT_INITIALIZED)
    );
    // Copies only inside allocations this library made.
    assert_eq!(
        hsa.memory_copy_to_device(0x1000, &[1, 2, 3]),
        Err(HSA_STATUS_ERROR_INVALID_ARGUMENT)
    );
    assert_eq!(
        hsa.memory_pool_free(0x1000),
        Err(HSA_STATUS_ERROR_INVALID_ARGUMENT)
    );
}

#[test]
fn missing_library_is_unavailable_listing_every_path_tried() {
    let paths = vec![
        "/path/that/does/not/exist".to_string(),
        "file:/nowhere/libhsa-runtime64.so.1".to_string(),
    ];
    let err = HsaLibrary::load(&paths).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    let text = err.to_string();
    for tried in [
        "HSA/ROCR-Runtime library not found; ensure it is installed and on a valid search path \
         (or specified with IREE_HAL_AMDGPU_LIBHSA_PATH): ",
        "\n  Tried: /path/that/does/not/exist/libhsa-runtime64.so.1\n    /path/that/does/not/exist/libhsa-runtime64.so.1: cannot open shared object file",
        "\n  Tried: /path/that/does/not/exist/libhsa-runtime64.so\n",
        "\n  Tried: /nowhere/libhsa-runtime64.so.1\n",
        "(candidates from the search paths given)",
    ] {
        assert!(text.contains(tried), "missing {tried:?} in {text}");
    }
}

#[test]
fn environment_variable_is_used_when_no_paths_are_given() {
    let err = DynamicLibrary::open_with_env(&HSA, &[], Some("/env/one;/env/two")).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert!(
        err.mentions("Tried: /env/one/libhsa-runtime64.so.1\n"),
        "{err}"
    );
    assert!(
        err.mentions("Tried: /env/two/libhsa-runtime64.so\n"),
        "{err}"
    );
    assert!(
        err.mentions("(candidates from IREE_HAL_AMDGPU_LIBHSA_PATH)"),
        "{err}"
    );
    let err = DynamicLibrary::open_with_env(&HSA, &[], Some("/env/one;;/env/two")).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.mentions("empty entry 2 in IREE_HAL_AMDGPU_LIBHSA_PATH"),
        "{err}"
    );
}

#[test]
fn a_library_missing_one_required_symbol_is_named() {
    let missing = "hsa_executable_symbol_get_info";
    let source = stubs(
        HsaSymbols::REQUIRED
            .iter()
            .copied()
            .filter(|s| *s != missing),
        "0x1008",
    );
    let Some(so) = build_shared_object("hsa-missing-one", "libhsa-runtime64.so.1", &source) else {
        return;
    };
    let err = HsaLibrary::load(&[file_entry(&so)]).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert!(
        err.mentions(&format!("lacks required symbol '{missing}'")),
        "{err}"
    );
    assert!(
        err.mentions("undefined symbol"),
        "the loader's reason is kept: {err}"
    );
    // A directory entry finds the same file by its SONAME.
    let dir = so.parent().unwrap().display().to_string();
    assert!(HsaLibrary::load(&[dir]).unwrap_err().mentions(missing));
}

#[test]
fn a_complete_fake_library_loads_and_its_codes_pass_through() {
    let Some(so) = build_shared_object(
        "hsa-complete",
        "libhsa-runtime64.so.1",
        &stubs(HsaSymbols::REQUIRED.iter().copied(), "0x1008"),
    ) else {
        return;
    };
    let hsa = HsaLibrary::load(&[file_entry(&so)]).expect("all symbols present");
    assert!(hsa.path().ends_with("hsa-complete/libhsa-runtime64.so.1"));
    assert_eq!(hsa.init(), Err(0x1008));
}
