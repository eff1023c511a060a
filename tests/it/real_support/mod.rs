//! Helpers for the real-backend tests: fake vendor libraries built with the
//! system C compiler, so the missing-symbol and mapping paths run anywhere.
//! It uses `crate::support` (the skip rule), declared beside it in main.rs.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

/// Fakes built by this test process: tests run in parallel threads and
/// must not rewrite a library another thread has just opened.
static BUILT: Mutex<Option<HashMap<String, PathBuf>>> = Mutex::new(None);

/// Compiles `source` into `<tmp>/<name>/<file_name>` as a shared object and
/// returns its path; `None` (one line printed) without a C compiler.
pub fn build_shared_object(name: &str, file_name: &str, source: &str) -> Option<PathBuf> {
    let mut built = BUILT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let built = built.get_or_insert_with(HashMap::new);
    if let Some(path) = built.get(name) {
        return Some(path.clone());
    }
    let compiler = crate::support::requires::c_compiler(&format!("fake vendor library {name}"))?;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("real-fakes")
        .join(name);
    std::fs::create_dir_all(&dir).expect("create fake library dir");
    let c_path = dir.join("fake.c");
    std::fs::write(&c_path, source).expect("write fake library source");
    let so_path = dir.join(file_name);
    let output = Command::new(&compiler)
        .args(["-shared", "-fPIC", "-O0", "-o"])
        .arg(&so_path)
        .arg(&c_path)
        .output()
        .expect("run the C compiler");
    assert!(
        output.status.success(),
        "{compiler} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    built.insert(name.to_string(), so_path.clone());
    Some(so_path)
}

/// C stubs `int <name>(void) { return <value>; }` for each symbol name.
pub fn stubs<'a>(names: impl IntoIterator<Item = &'a str>, value: &str) -> String {
    names
        .into_iter()
        .map(|name| format!("int {name}(void) {{ return {value}; }}\n"))
        .collect()
}

/// `file:<path>` search entry.
pub fn file_entry(path: &std::path::Path) -> String {
    format!("file:{}", path.display())
}
