//! The C library's process-wide state lives in one place: the `Runtime`
//! (`src/core/runtime.rs`, behind the one accessor) owns every registry,
//! and HIP's per-thread state is the thread locals of `src/hip/context.rs`.
//! A `static` holding a lock, a cell or a registry anywhere else would be
//! state no test can make a fresh copy of; this scan refuses one.

use std::path::{Path, PathBuf};

/// The one file allowed the process's `static`, and the one allowed
/// `thread_local!` (HIP's state is per thread by definition).
const RUNTIME: &str = "core/runtime.rs";
const PER_THREAD: &str = "hip/context.rs";

/// Types that make a `static` mutable state.
const STATEFUL: [&str; 9] = [
    "OnceLock", "LazyLock", "Mutex", "RwLock", "Cell", "Atomic", "Condvar", "Once", "Registry",
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `(file, line)` of every stateful `static` and `thread_local!` outside
/// the places allowed them.
fn offenders(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let mut found = Vec::new();
    for file in files {
        let name = file
            .strip_prefix(src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&file).expect("read a source file");
        // A `static` declaration may span lines: judge the text up to its `;`.
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if code.contains("thread_local!") && name != PER_THREAD {
                found.push(format!("{name}:{}: thread_local!", i + 1));
            }
            let is_static = code.starts_with("static ")
                || code.starts_with("pub static ")
                || code.starts_with("pub(crate) static ");
            if !is_static {
                continue;
            }
            let declaration: String = lines[i..]
                .iter()
                .take_while(|l| !l.contains(';'))
                .chain(lines[i..].iter().find(|l| l.contains(';')))
                .copied()
                .collect();
            let stateful = STATEFUL.iter().any(|t| declaration.contains(t));
            let allowed =
                name == RUNTIME || (name == PER_THREAD && declaration.contains("RefCell"));
            if stateful && !allowed {
                found.push(format!("{name}:{}: {}", i + 1, code));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn no_process_wide_state_outside_the_runtime() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = offenders(&src);
    assert!(
        found.is_empty(),
        "process-wide state outside {RUNTIME} (own it in `Runtime`):\n{}",
        found.join("\n")
    );
}

/// The scan sees what it is there to refuse: a registry static, a lazily
/// made lock and a `thread_local!` in a file not allowed them.
#[test]
fn the_scan_finds_a_registry_static() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("process-state-scan");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("hsa")).expect("make a scratch source tree");
    std::fs::write(
        dir.join("hsa/signal.rs"),
        "fn registry() -> &'static Registry {\n    static REGISTRY: OnceLock<Registry> =\n        OnceLock::new();\n    todo()\n}\n\
         static NEXT: AtomicU64 = AtomicU64::new(0);\nstatic NAME: &str = \"fine\";\n\
         thread_local! { static X: RefCell<u8> = const { RefCell::new(0) }; }\n",
    )
    .expect("write a scratch source");
    let found = offenders(&dir);
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(
        found[0].starts_with("hsa/signal.rs:2: static REGISTRY"),
        "{found:#?}"
    );
    assert!(
        found[1].starts_with("hsa/signal.rs:6: static NEXT"),
        "{found:#?}"
    );
    assert!(
        found[2].starts_with("hsa/signal.rs:8: thread_local!"),
        "{found:#?}"
    );
}
