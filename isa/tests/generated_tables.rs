//! The committed opcode tables are exactly what `isa/tables/generate.py`
//! writes from LLVM's disassembler and `isa/tables/operations.txt`: each
//! opcode's full mnemonic and the operation the interpreter runs for it;
//! the per-encoding rows (`tests/encodings/rows.txt`) are exactly what
//! `tests/encodings/generate.py` gets from `llvm-mc-19 -show-encoding`.

mod requires;

use std::process::Command;

/// Runs `SCRIPT --check` (relative to the crate), which exits 1 when the
/// committed file is not what the script writes from LLVM 19.
fn check(what: &str, script: &str) {
    if !requires::requires(what, "llvm-19", requires::program("llvm-mc-19")) {
        return;
    }
    let script = format!("{}/{script}", env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("python3")
        .args([&script, "--check"])
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
    check("regenerating the opcode tables", "tables/generate.py");
}

#[test]
fn the_encoding_rows_are_what_llvm_mc_writes() {
    check(
        "regenerating the encoding rows",
        "tests/encodings/generate.py",
    );
}
