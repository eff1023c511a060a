//! ROCm 5's HIP ABI beside ROCm 6's: a C program compiled against Debian's
//! ROCm 5.2 headers and linked against Debian's `libamdhip64.so.5` asks
//! the loader for versioned symbols (`hipGetDeviceProperties@hip_4.2`)
//! and reads ROCm 5's 792-byte `hipDeviceProp_t`; run on the node under
//! that library name (`scripts/sim-libs.sh`), it loads without the
//! loader's "no version information available" warning and reads the
//! MI300X's published values (fixtures/machines/mi300x-8.toml cites
//! them). ROCm 6's layout is read in `hip_runtime_api.rs`. Needs a C
//! compiler and Debian's libamdhip64-dev; skips in one line without them.

use std::path::Path;
use std::process::Command;

use crate::iree_built::sim_lib_dir;
use crate::rocminfo::skip;

const HEADER: &str = "/usr/include/hip/hip_runtime_api.h";
const DEBIAN_LIBRARY: &str = "/usr/lib/x86_64-linux-gnu/libamdhip64.so";

#[test]
fn a_program_linked_against_rocm5_reads_rocm5_properties_from_the_node() {
    let what = "a ROCm 5.2 program on the node";
    if !Path::new(HEADER).is_file() || !Path::new(DEBIAN_LIBRARY).exists() {
        return skip(what, "needs Debian package libamdhip64-dev");
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hip-abi");
    std::fs::create_dir_all(&out).unwrap();
    let binary = out.join("rocm5_props");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/rocm5_props.c");
    let Ok(built) = Command::new("cc")
        .args(["-D__HIP_PLATFORM_AMD__", "-o"])
        .arg(&binary)
        .arg(&source)
        .arg("-lamdhip64")
        // Debian's libamdhip64 needs libhsa-runtime64 at link time only
        // for itself; the program calls HIP alone.
        .arg("-Wl,--allow-shlib-undefined")
        .output()
    else {
        return skip(what, "needs a C compiler (cc)");
    };
    assert!(
        built.status.success(),
        "cc: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    // The program asks for ROCm's symbol versions (binutils' objdump).
    if let Ok(symbols) = Command::new("objdump").arg("-T").arg(&binary).output() {
        let symbols = String::from_utf8_lossy(&symbols.stdout);
        assert!(
            symbols
                .lines()
                .any(|l| l.contains("(hip_4.2)") && l.ends_with(" hipGetDeviceProperties")),
            "{symbols}"
        );
    }
    let libs = sim_lib_dir("hip-abi-libs");
    let run = Command::new(&binary)
        .env("LD_LIBRARY_PATH", &libs)
        .env("AMDGPU_SIM_MACHINE", "mi300x-8")
        .env_remove("AMDGPU_SIM_FAULTS")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}{stderr}");
    assert!(!stderr.contains("version information"), "{stderr}");
    let value = |key: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{key} ")))
            .unwrap_or_else(|| panic!("no {key} in {stdout}"))
            .to_string()
    };
    // ROCm 5.2's struct, as Debian's header lays it out.
    assert_eq!(value("sizeof"), "792");
    // The preset claims ROCm 6.3 (hipRuntimeGetVersion's 6.3.42134).
    assert_eq!(value("runtime").parse::<i32>().unwrap() / 100_000, 603);
    // AMD's MI300X data sheet and rocminfo of an MI300X node: 8 GPUs of
    // 304 CUs, wave 64, gfx942:sramecc+:xnack-, 2100 MHz, L2 4096 KB,
    // 8192-bit HBM3 bus at 1300 MHz, a 201310208 KB coarse-grained pool.
    assert_eq!(value("devices"), "8");
    assert_eq!(value("name"), "AMD Instinct MI300X");
    assert_eq!(value("gcnArchName"), "gfx942:sramecc+:xnack-");
    assert_eq!(value("warpSize"), "64");
    assert_eq!(value("multiProcessorCount"), "304");
    assert_eq!(value("clockRate"), "2100000");
    assert_eq!(value("l2CacheSize"), (4096 * 1024).to_string());
    assert_eq!(value("memoryBusWidth"), "8192");
    assert_eq!(value("memoryClockRate"), "1300000");
    assert_eq!(value("totalGlobalMem"), (201_310_208u64 * 1024).to_string());
    assert_eq!((value("major"), value("minor")), ("9".into(), "4".into()));
    assert_eq!(value("maxThreadsPerBlock"), "1024");
}
