//! Each machine preset's TOML (`fixtures/machines/*.toml`) as JSON, in
//! `OUT_DIR/machines/NAME.json`: a process loads its preset from the JSON
//! (`presets::load_preset`), which parses in about a third of the
//! instructions the TOML takes, at the start of every process that runs a
//! node (docs/PERFORMANCE.md, "Serial start-up"). The TOML stays the one
//! source; a test holds both forms to the same machine.

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/machines");
    println!("cargo:rerun-if-changed={}", dir.display());
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("machines");
    std::fs::create_dir_all(&out).expect("OUT_DIR/machines");
    let entries = std::fs::read_dir(&dir).expect("fixtures/machines");
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let (Some(stem), Some("toml")) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|e| e.to_str()),
        ) else {
            continue;
        };
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("a preset's TOML");
        let value: toml::Value =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let json = serde_json::to_string(&value).expect("TOML values have JSON forms");
        std::fs::write(out.join(format!("{stem}.json")), json).expect("OUT_DIR/machines/NAME.json");
    }
}
