//! The C library's HSA values and layouts against the vendor headers
//! themselves: every `(enumerator, value)` of `headers::HEADER_VALUES`, every
//! `sizeof` of `headers::HEADER_SIZES` and every `offsetof` of
//! `headers::HEADER_OFFSETS` becomes a `_Static_assert` compiled against
//! Debian's `hsa.h`, `hsa_ext_amd.h` and `hsa_ven_amd_loader.h` (package
//! libhsa-runtime-dev). Without the headers or a C compiler the test prints
//! one line and passes, unless `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::path::Path;
use std::process::Command;

use amdgpu_sim_ffi::headers::{HEADER_OFFSETS, HEADER_SIZES, HEADER_VALUES};

const HEADER_DIR: &str = "/usr/include/hsa";

/// One line saying what is skipped and why, or a failure when CI requires
/// every optional dependency.
fn skip(what: &str, reason: &str) {
    let line = format!("skipped: {what} ({reason})");
    if std::env::var("AMDGPU_HAL_REQUIRE_ALL").as_deref() == Ok("1") {
        panic!("{line}, and AMDGPU_HAL_REQUIRE_ALL=1");
    }
    eprintln!("{line}");
}

fn assertions() -> String {
    let mut c = String::from(
        "#include <stddef.h>\n#include <hsa/hsa.h>\n#include <hsa/hsa_ext_amd.h>\n\
         #include <hsa/hsa_ven_amd_loader.h>\n",
    );
    for (name, value) in HEADER_VALUES {
        c.push_str(&format!(
            "_Static_assert((unsigned long long)({name}) == {value}ULL, \"{name} is {value}\");\n"
        ));
    }
    for (ty, size) in HEADER_SIZES {
        c.push_str(&format!(
            "_Static_assert(sizeof({ty}) == {size}, \"sizeof({ty}) is {size}\");\n"
        ));
    }
    for (ty, field, offset) in HEADER_OFFSETS {
        c.push_str(&format!(
            "_Static_assert(offsetof({ty}, {field}) == {offset}, \"{ty}.{field} at {offset}\");\n"
        ));
    }
    c
}

#[test]
fn values_sizes_and_offsets_match_the_hsa_headers() {
    let what = "the HSA header check";
    if !Path::new(HEADER_DIR).join("hsa_ext_amd.h").exists() {
        skip(
            what,
            "no /usr/include/hsa; needs Debian package libhsa-runtime-dev",
        );
        return;
    }
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hsa-headers");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let source = dir.join("check.c");
    std::fs::write(&source, assertions()).expect("write check.c");
    let output = match Command::new(&compiler)
        .args(["-std=c11", "-fsyntax-only", "-I", "/usr/include"])
        .arg(&source)
        .output()
    {
        Ok(output) => output,
        Err(e) => {
            skip(
                what,
                &format!("cannot run '{compiler}': {e}; needs a C compiler"),
            );
            return;
        }
    };
    assert!(
        output.status.success(),
        "the headers disagree:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The table is not empty and covers what rocminfo asks for.
    for needed in [
        "HSA_AGENT_INFO_FEATURE",
        "HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE",
        "HSA_ISA_INFO_GRID_MAX_SIZE",
        "HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT",
    ] {
        assert!(HEADER_VALUES.iter().any(|(n, _)| *n == needed), "{needed}");
    }
}

#[test]
fn a_wrong_value_is_caught() {
    // The check itself can fail: a deliberately wrong enumerator value must
    // not compile (guards against a compiler that ignores _Static_assert).
    if !Path::new(HEADER_DIR).join("hsa.h").exists() {
        skip(
            "the HSA header self-check",
            "no /usr/include/hsa; needs Debian package libhsa-runtime-dev",
        );
        return;
    }
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hsa-headers");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let source = dir.join("wrong.c");
    std::fs::write(
        &source,
        "#include <hsa/hsa.h>\n_Static_assert(HSA_AGENT_INFO_FEATURE == 3, \"wrong\");\n",
    )
    .expect("write wrong.c");
    let Ok(output) = Command::new(&compiler)
        .args(["-std=c11", "-fsyntax-only"])
        .arg(&source)
        .output()
    else {
        skip("the HSA header self-check", "no C compiler");
        return;
    };
    assert!(!output.status.success(), "a wrong value compiled");
}
