//! The committed opcode tables are exactly what `isa/tables/generate.py`
//! writes from LLVM's disassembler and `isa/tables/operations.txt`: each
//! opcode's full mnemonic and the operation the interpreter runs for it;
//! the per-encoding rows (`tests/encodings/rows.txt`) are exactly what
//! `tests/encodings/generate.py` gets from `llvm-mc-19 -show-encoding`;
//! gfx950's rows (`src/tables/gfx950.rs`) are what it gets from LLVM 22,
//! which alone knows gfx950.

mod requires;

use std::process::Command;

/// Runs `SCRIPT --check ARGS` (relative to the crate), which exits 1 when
/// the committed file is not what the script writes from LLVM 19.
fn check(what: &str, script: &str, args: &[&str]) {
    if !requires::requires(what, "llvm-19", requires::program("llvm-mc-19")) {
        return;
    }
    let script = format!("{}/{script}", env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("python3")
        .args([script.as_str(), "--check"])
        .args(args)
        .output()
        .expect("run python3");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_opcode_tables_are_what_the_generator_writes() {
    check(
        "regenerating the opcode tables",
        "tables/generate.py",
        &["--only", "llvm19"],
    );
}

/// gfx950's differences from gfx942 (and, with every table made, that
/// each line of `operations.txt` names a mnemonic of some table).
#[test]
fn the_gfx950_rows_are_what_llvm_22_decodes() {
    let what = "regenerating gfx950's opcode rows";
    if !requires::requires(what, "llvm-22", requires::program("llvm-mc-22")) {
        return;
    }
    check(what, "tables/generate.py", &[]);
}

#[test]
fn the_encoding_rows_are_what_llvm_mc_writes() {
    check(
        "regenerating the encoding rows",
        "tests/encodings/generate.py",
        &[],
    );
}
