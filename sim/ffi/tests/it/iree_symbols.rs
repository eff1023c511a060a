//! Every HSA symbol IREE's AMDGPU driver resolves when it loads the runtime
//! (`libhsa_tables.h`; a missing one fails device creation before any call)
//! is exported by the built library. The list is committed
//! (`iree_hsa_symbols.txt`, written by `scripts/iree-hsa-symbols.sh` from
//! IREE's source at the commit the project follows); a second test holds it
//! against IREE's own table when the source is at hand.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::rocminfo::skip;

const LIST: &str = include_str!("iree_hsa_symbols.txt");
const TABLE: &str = "runtime/src/iree/hal/drivers/amdgpu/util/libhsa_tables.h";

fn committed() -> Vec<&'static str> {
    LIST.lines().filter(|l| !l.is_empty()).collect()
}

/// `libamdgpu_sim_ffi.so` as cargo built it beside this test binary.
fn built_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent().expect("deps dir").join("libamdgpu_sim_ffi.so")
}

#[test]
fn every_hsa_symbol_iree_requires_is_exported() {
    let what = "the exported-symbol check";
    let library = built_library();
    assert!(library.exists(), "{} not built", library.display());
    let Ok(output) = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&library)
        .output()
    else {
        skip(what, "cannot run nm; needs Debian package binutils");
        return;
    };
    assert!(output.status.success(), "nm failed");
    let text = String::from_utf8_lossy(&output.stdout);
    // `ADDRESS T NAME` for every function the library defines.
    let exported: std::collections::BTreeSet<&str> = text
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let (_, kind, name) = (fields.next()?, fields.next()?, fields.next()?);
            (kind == "T").then_some(name)
        })
        .collect();
    let required = committed();
    // IREE b48a5955's table lists 118 entry points.
    assert_eq!(required.len(), 118, "iree_hsa_symbols.txt");
    let missing: Vec<&str> = required
        .iter()
        .copied()
        .filter(|s| !exported.contains(s))
        .collect();
    assert!(missing.is_empty(), "not exported: {missing:?}");
}

/// The symbols of `libhsa_tables.h`'s text, in order: the third argument
/// of each `IREE_HAL_AMDGPU_LIBHSA_PFN(`.
fn table_symbols(text: &str) -> Vec<String> {
    const ENTRY: &str = "IREE_HAL_AMDGPU_LIBHSA_PFN(";
    text.match_indices(ENTRY)
        .filter_map(|(at, _)| {
            let args = &text[at + ENTRY.len()..];
            let symbol = args.split(',').nth(2)?.trim();
            (!symbol.is_empty()
                && symbol
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .then(|| symbol.to_string())
        })
        .collect()
}

/// IREE's table: from `IREE_SOURCE_DIR`, else from the shared source
/// archive beside the repository.
fn iree_table() -> Option<String> {
    if let Some(dir) = std::env::var_os("IREE_SOURCE_DIR") {
        return std::fs::read_to_string(Path::new(&dir).join(TABLE)).ok();
    }
    let archive =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/iree/iree-b48a5955-src.tar.gz");
    if !archive.is_file() {
        return None;
    }
    let output = Command::new("tar")
        .arg("-xzOf")
        .arg(&archive)
        .args(["--wildcards", &format!("*/{TABLE}")])
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn the_committed_list_is_iree_s_table() {
    let Some(text) = iree_table() else {
        skip(
            "the check of iree_hsa_symbols.txt against IREE's libhsa_tables.h",
            "needs IREE's source: IREE_SOURCE_DIR, or ../shared/iree/iree-b48a5955-src.tar.gz",
        );
        return;
    };
    assert_eq!(
        table_symbols(&text),
        committed(),
        "rerun scripts/iree-hsa-symbols.sh --write"
    );
}

#[test]
fn table_entries_spread_over_lines_are_read() {
    let text = "IREE_HAL_AMDGPU_LIBHSA_PFN(TRACE_ALWAYS, hsa_status_t, hsa_init, DECL(), ARGS())\n\
                IREE_HAL_AMDGPU_LIBHSA_PFN(\n    TRACE_ALWAYS, uint32_t,\n    hsa_amd_signal_wait_any,\n    DECL(uint32_t n), ARGS(n))\n\
                #undef IREE_HAL_AMDGPU_LIBHSA_PFN\n";
    assert_eq!(table_symbols(text), ["hsa_init", "hsa_amd_signal_wait_any"]);
}
