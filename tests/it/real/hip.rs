//! The real HIP path against Debian's `libamdhip64-5` (HIP 5.2) on a machine
//! without a GPU: load, every required symbol, the exact failure codes, the
//! 792-byte properties struct, and the wrong-library path.
#![cfg(feature = "real")]

use crate::real_support;
use crate::support;

use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::dylib::hip::c_chars_to_string;
use amdgpu_hal::backend::dylib::hip::{HipLibrary, HipSymbols};
use amdgpu_hal::backend::dylib::library::{DynamicLibrary, HIP};
use amdgpu_sys::hip_error::*;
use amdgpu_sys::hip_types::*;
use real_support::{build_shared_object, file_entry, stubs};

/// Debian's library by soname, or `None` (one line printed) when it is absent.
fn system_hip(what: &str) -> Option<HipLibrary> {
    if !support::requires::hip_runtime(what) {
        return None;
    }
    let library = DynamicLibrary::open_with_env(&HIP, &[], None).expect("found a moment ago");
    Some(HipLibrary::from_library(library).expect("every required HIP symbol resolves"))
}

#[test]
fn loads_by_a_versioned_name_and_resolves_every_required_symbol() {
    let Some(hip) = system_hip("loading libamdhip64 by a versioned name") else {
        return;
    };
    assert!(HIP.file_names.contains(&hip.path()), "{}", hip.path());
    assert!(
        HipSymbols::REQUIRED.len() >= 75,
        "{}",
        HipSymbols::REQUIRED.len()
    );
    // HIP 5.2 exports the old-ABI properties call but not the ROCm 6 additions.
    assert_eq!(hip.optional_symbols(), ["hipGetDeviceProperties"]);
    assert!(hip.has_device_properties());
}

#[test]
fn no_gpu_codes_are_exact() {
    let Some(hip) = system_hip("HIP 5.2's codes without a GPU") else {
        return;
    };
    assert_eq!(
        hip.init(0),
        Err(hipErrorInvalidDevice),
        "hipInit is 101, not 100"
    );
    assert_eq!(
        hip.get_device_count_raw(),
        (hipErrorNoDevice, 0),
        "count written as 0"
    );
    assert_eq!(hip.get_device_count(), Err(100));
    assert_eq!(hip.driver_get_version(), Ok(50221153));
    assert_eq!(hip.runtime_get_version(), Ok(50221153));
    assert_eq!(hip.device_get(0), Err(101));
    assert_eq!(hip.device_get_name(0, 128), Err(101));
    assert_eq!(hip.device_get_uuid(0), Err(101));
    assert_eq!(hip.device_get_attribute(87, 0), Err(101));
    assert_eq!(hip.get_device_properties(0).err(), Some(101));
    assert_eq!(hip.device_can_access_peer(0, 1), Err(101));
    assert_eq!(hip.get_error_name(100), "hipErrorNoDevice");
    assert_eq!(hip.get_error_name(101), "hipErrorInvalidDevice");
}

#[test]
fn name_buffers_are_bounded_before_the_call() {
    let Some(hip) = system_hip("bounded name buffers over HIP 5.2") else {
        return;
    };
    assert_eq!(hip.device_get_name(0, 0), Err(hipErrorInvalidValue));
    assert_eq!(hip.device_get_name(0, 1 << 20), Err(hipErrorInvalidValue));
}

#[test]
fn the_r0000_properties_struct_is_hip_5_layout() {
    assert_eq!(size_of::<hipDeviceProp_tR0000>(), 792);
    assert_eq!(std::mem::offset_of!(hipDeviceProp_tR0000, gcnArchName), 396);
    let props = hipDeviceProp_tR0000::default();
    assert_eq!(c_chars_to_string(&props.gcnArchName), "");
}

#[test]
fn the_hsa_library_is_not_a_hip_runtime() {
    if !support::requires::hsa_runtime("refusing libhsa-runtime64.so.1 as a HIP runtime") {
        return;
    }
    let err = HipLibrary::load(&["file:libhsa-runtime64.so.1".to_string()]).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert!(
        err.mentions(
            "HIP runtime library 'libhsa-runtime64.so.1' lacks required symbols 'hipInit'"
        ),
        "{err}"
    );
    assert!(
        err.mentions("'hipStreamWaitEvent'"),
        "every missing symbol is listed: {err}"
    );
}

#[test]
fn missing_library_is_unavailable_listing_every_path_tried() {
    let paths = vec![
        "/path/that/does/not/exist".to_string(),
        "file:nowhere/libamdhip64.so".to_string(),
        "filename_that_does_not_exist.dll".to_string(),
    ];
    let err = HipLibrary::load(&paths).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    let text = err.to_string();
    for tried in [
        "HIP runtime library 'libamdhip64.so' not available: please ensure installed \
         and in dynamic library search path: ",
        "\n  Tried: /path/that/does/not/exist/libamdhip64.so\n",
        "\n  Tried: /path/that/does/not/exist/libamdhip64.so.6\n",
        "\n  Tried: /path/that/does/not/exist/libamdhip64.so.5\n",
        "\n  Tried: nowhere/libamdhip64.so\n",
        // IREE's test case: a non-library name is a directory.
        "\n  Tried: filename_that_does_not_exist.dll/libamdhip64.so.5\n",
        "(candidates from the search paths given)",
    ] {
        assert!(text.contains(tried), "missing {tried:?} in {text}");
    }
}

#[test]
fn optional_symbols_may_be_absent() {
    let source = stubs(HipSymbols::REQUIRED.iter().copied(), "101");
    let Some(so) = build_shared_object("hip-required-only", "libamdhip64.so.5", &source) else {
        return;
    };
    let hip = HipLibrary::load(&[file_entry(&so)]).expect("required symbols suffice");
    assert!(hip.optional_symbols().is_empty());
    assert_eq!(
        hip.get_device_properties(0).err(),
        Some(hipErrorNotSupported)
    );
    assert_eq!(hip.init(0), Err(101));
}
