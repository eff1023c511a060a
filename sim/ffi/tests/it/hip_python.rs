//! AMD's hip-python (pip `hip-python`, ROCm 6.3's bindings) on the node:
//! `scripts/hip-python-check.py` dlopens `libamdhip64.so` by name (this
//! build's library, linked by `scripts/sim-libs.sh`, first on
//! LD_LIBRARY_PATH), reads ROCm 6's properties through
//! `hipGetDevicePropertiesR0600`, copies, loads a code object and launches
//! `vector_add` with its arguments packed in `extra` (HIP's
//! `HIP_LAUNCH_PARAM_BUFFER_POINTER` layout), checking the sums itself.
//! The properties must be the MI300X's published values
//! (fixtures/machines/mi300x-8.toml cites them). Skips in one line without
//! pip `hip-python`.

use std::path::Path;
use std::process::Command;

use crate::iree_built::sim_lib_dir;
use crate::rocminfo::skip;

const VECTOR_ADD_GFX942: &str = "fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco";

#[test]
fn a_hip_python_program_reads_rocm6_properties_and_launches_a_kernel() {
    let what = "a hip-python program on the node";
    let has_hip_python = Command::new("python3")
        .args(["-c", "from hip import hip"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_hip_python {
        return skip(what, "needs pip package hip-python");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let libs = sim_lib_dir("hip-python-libs");
    let output = Command::new("python3")
        .arg(root.join("scripts/hip-python-check.py"))
        .arg(root.join(VECTOR_ADD_GFX942))
        .arg("vector_add")
        .env("LD_LIBRARY_PATH", &libs)
        .env("AMDGPU_SIM_MACHINE", "mi300x-8")
        .env_remove("AMDGPU_SIM_FAULTS")
        .output()
        .expect("python3");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.ends_with("PASS\n"),
        "{stdout}{stderr}"
    );
    let value = |key: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{key} ")))
            .unwrap_or_else(|| panic!("no {key} in {stdout}"))
            .to_string()
    };
    // AMD's MI300X data sheet and rocminfo of an MI300X node.
    assert_eq!(value("devices"), "8");
    assert_eq!(value("name"), "AMD Instinct MI300X");
    assert_eq!(value("gcnArchName"), "gfx942:sramecc+:xnack-");
    assert_eq!(value("warpSize"), "64");
    assert_eq!(value("multiProcessorCount"), "304");
    assert_eq!(value("totalGlobalMem"), (201_310_208u64 * 1024).to_string());
    assert_eq!(value("runtime").parse::<i32>().unwrap() / 100_000, 603);
    assert!(stdout.contains("ok: vector_add of 1000 floats equals the host's sums"));
}
