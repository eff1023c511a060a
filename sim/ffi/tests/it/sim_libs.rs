//! `scripts/sim-libs.sh`: the loader file names of the vendor runtimes as
//! links to the library this build made, and the `/dev/kfd` stand-in's link
//! to the stand-in built beside it.

use std::path::Path;
use std::process::Command;

#[test]
fn sim_libs_links_every_loader_name_to_the_built_library() {
    let exe = std::env::current_exe().expect("test binary path");
    // <target>/<profile>/deps/<this test>: cargo builds the library beside it.
    let built = exe.parent().expect("deps dir").join("libamdgpu_sim_ffi.so");
    assert!(built.exists(), "{} not built", built.display());
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sim-lib");
    let _ = std::fs::remove_dir_all(&out);
    let mut command =
        Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/sim-libs.sh"));
    command.arg(format!("--lib={}", built.display())).arg(&out);
    let output = command.output().expect("run scripts/sim-libs.sh");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        Path::new(printed.trim()),
        out.canonicalize().expect("out dir")
    );
    let expected = built.canonicalize().expect("library path");
    for name in [
        "libhsa-runtime64.so.1",
        "libhsa-runtime64.so",
        "libamdhip64.so",
        "libamdhip64.so.5",
        "libamdhip64.so.6",
    ] {
        let link = out.join(name);
        let target = std::fs::read_link(&link).expect(name);
        assert!(target.is_relative(), "{name} -> {}", target.display());
        assert_eq!(link.canonicalize().expect(name), expected, "{name}");
    }
    let stand_in = out.join("libamdgpu_sim_kfd.so");
    assert!(
        std::fs::read_link(&stand_in)
            .expect("stand-in link")
            .is_relative()
    );
    assert_eq!(
        stand_in.canonicalize().expect("stand-in"),
        built
            .with_file_name("libamdgpu_sim_kfd.so")
            .canonicalize()
            .expect("the stand-in, built beside the library")
    );

    // A missing library is named, not linked.
    let empty = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-target");
    let output =
        Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/sim-libs.sh"))
            .arg("--no-build")
            .arg(empty.join("out"))
            .env("CARGO_TARGET_DIR", &empty)
            .output()
            .expect("run scripts/sim-libs.sh");
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("is not built"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
