//! The RCCL slot: RCCL is not packaged for Debian 12, so its UNAVAILABLE
//! path is real; the version check and table run against fake libraries.
#![cfg(feature = "real")]

use crate::real_support;

use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::dylib::library::{DynamicLibrary, NCCL, RCCL};
use amdgpu_hal::backend::dylib::nccl::{NcclLibrary, NcclSymbols};
use real_support::{build_shared_object, file_entry, stubs};

fn fake_nccl(name: &str, version: i32, omit: Option<&str>) -> Option<std::path::PathBuf> {
    let mut source = format!(
        "int ncclGetVersion(int* v) {{ *v = {version}; return 0; }}\n\
         const char* ncclGetErrorString(int r) {{ return r == 2 ? \"unhandled system error\" : \"?\"; }}\n\
         int ncclGetUniqueId(char* id) {{ for (int i = 0; i < 128; ++i) id[i] = (char)i; return 0; }}\n"
    );
    let typed = ["ncclGetVersion", "ncclGetErrorString", "ncclGetUniqueId"];
    source.push_str(&stubs(
        NcclSymbols::REQUIRED
            .iter()
            .copied()
            .filter(|s| !typed.contains(s) && Some(*s) != omit),
        "0",
    ));
    build_shared_object(name, "libnccl.so.2", &source)
}

#[test]
fn rccl_is_unavailable_on_debian_12() {
    let err = DynamicLibrary::open_with_env(&RCCL, &[], None).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert!(
        err.mentions("RCCL runtime library version 2.18 and greater not available"),
        "{err}"
    );
    assert!(err.mentions("\n  Tried: librccl.so\n"), "{err}");
    assert!(err.mentions("\n  Tried: librccl.so.1\n"), "{err}");
}

#[test]
fn a_current_nccl_loads() {
    let Some(so) = fake_nccl("nccl-2.27", 22703, None) else {
        return;
    };
    let nccl = NcclLibrary::load(&NCCL, &[file_entry(&so)]).unwrap();
    assert_eq!(nccl.version(), 22703);
    assert_eq!(nccl.get_version(), Ok(22703));
    assert_eq!(nccl.get_error_string(2), "unhandled system error");
    assert_eq!(nccl.get_unique_id().map(|id| id[127]), Ok(127));
}

#[test]
fn an_old_nccl_is_unavailable() {
    let Some(so) = fake_nccl("nccl-2.17", 21700, None) else {
        return;
    };
    let err = NcclLibrary::load(&NCCL, &[file_entry(&so)]).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert!(
        err.mentions("NCCL version is 2.17.0, but >=2.18 and <3 is required"),
        "{err}"
    );
}

#[test]
fn a_missing_symbol_after_a_good_version_is_unavailable_and_named() {
    let Some(so) = fake_nccl("nccl-no-split", 21803, Some("ncclCommSplit")) else {
        return;
    };
    let err = NcclLibrary::load(&NCCL, &[file_entry(&so)]).unwrap_err();
    assert_eq!(
        err.code(),
        StatusCode::Unavailable,
        "optional library stays optional"
    );
    assert!(
        err.mentions("lacks required symbol 'ncclCommSplit'"),
        "{err}"
    );
    assert!(err.mentions("NCCL 2.18.3"), "{err}");
}
