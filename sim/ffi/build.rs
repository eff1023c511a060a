//! Links the shared library `-z nodelete`: the simulated node lives in the
//! library's statics for the whole process (as a vendor runtime's state
//! does), so `dlclose` must not unmap it — an unmapped node would both lose
//! the state a later `dlopen` expects and show up as a leak under valgrind.
//!
//! And with the symbol version nodes of the libraries it stands in for: a
//! program linked against ROCm's `libamdhip64` (Debian's `.so.5` or ROCm
//! 6's `.so.6`) or `libhsa-runtime64.so.1` asks the loader for versioned
//! symbols (`hipMalloc@hip_4.2`, `hsa_init@ROCR_1`) and names every version
//! it needs; a library that defines none of those versions draws the
//! loader's "no version information available" warning, one missing a
//! needed version fails to load. The nodes are defined here with no
//! symbols of their own, so the exports stay unversioned (global), which
//! the loader binds to a versioned reference once the library defines
//! versions (glibc's `check_match`); `hipGetProcAddress`'s `dlsym` and
//! `dlopen` clients see the same symbols.
use std::path::PathBuf;

/// ROCm's HIP version nodes, each inheriting the one before:
/// ROCm/clr `hipamd/src/hip_hcc.map.in` at commit f9f995c6d (ROCm 6.3);
/// Debian's `libamdhip64.so.5` (5.2.3) defines hip_4.2 to hip_5.2 of them.
const HIP_VERSION_NODES: &[&str] = &[
    "hip_4.2", "hip_4.3", "hip_4.4", "hip_4.5", "hip_5.0", "hip_5.1", "hip_5.2", "hip_5.3",
    "hip_5.5", "hip_5.6", "hip_6.0", "hip_6.1", "hip_6.2", "hip_6.3",
];
/// ROCr's one version node (`libhsa-runtime64.so.1`, Debian's and ROCm 6's).
const HSA_VERSION_NODE: &str = "ROCR_1";

fn version_script() -> String {
    let mut script = format!("{HSA_VERSION_NODE} {{ }};\n");
    let mut previous: Option<&str> = None;
    for node in HIP_VERSION_NODES {
        match previous {
            None => script.push_str(&format!("{node} {{ }};\n")),
            Some(p) => script.push_str(&format!("{node} {{ }} {p};\n")),
        }
        previous = Some(node);
    }
    script
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let script = out.join("symbol_versions.map");
    std::fs::write(&script, version_script()).expect("writing the version script");
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,--version-script={}",
        script.display()
    );
}
