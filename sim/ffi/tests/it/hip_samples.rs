//! Public HIP sample programs, built unmodified (`fixtures/hip/samples`:
//! the twelve applications of AMD's HIP-Examples at tag rocm-6.1.2, built
//! by `fixtures/hip/samples/build.sh` with clang-19 for gfx942 + gfx1100
//! and Debian's hipcc for gfx90a), run against this library on every
//! preset whose chip they carry code for. Each sample's own success
//! criterion: with `-e` it checks its GPU results against its CPU
//! reference, prints "Passed!" for each check and exits 0 (a mismatch
//! prints "Failed" and exits 1). Each must also have executed its launches
//! and its registration left nothing alive at exit.

use std::path::Path;
use std::process::Command;

use crate::program_run::library_dir;

/// The samples and how many checks each prints `Passed!` for.
const SAMPLES: [(&str, usize); 12] = [
    ("BinomialOption", 1),
    ("BitonicSort", 1),
    ("FastWalshTransform", 1),
    ("FloydWarshall", 1),
    ("HelloWorld", 1),
    ("Histogram", 1),
    ("MatrixMultiplication", 1),
    ("PrefixSum", 1),
    ("RecursiveGaussian", 1),
    ("SimpleConvolution", 2),
    ("dct", 1),
    ("dwtHaar1D", 1),
];

/// Each preset and the file-name suffix of the build carrying its chip's code.
const PRESETS: [(&str, &str); 3] = [("mi300x-8", ""), ("w7900", ""), ("mi250x-4", ".gfx90a")];

fn value(report: &str, key: &str) -> Option<u64> {
    report
        .lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix(' ')?.parse().ok())
}

#[test]
fn every_sample_passes_its_own_check_on_every_preset_it_has_code_for() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hip/samples");
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hip-samples");
    let mut ran = 0;
    for (name, checks) in SAMPLES {
        for (machine, suffix) in PRESETS {
            // Each run in a folder of its own: RecursiveGaussian reads its
            // input image from, and writes its output image to, its
            // working folder.
            let dir = scratch.join(format!("{name}-{machine}"));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::copy(
                samples.join("RecursiveGaussian_Input.bmp"),
                dir.join("RecursiveGaussian_Input.bmp"),
            )
            .unwrap();
            let report = dir.join("report");
            let output = Command::new(samples.join(format!("{name}{suffix}")))
                .args(["-e", "-q"])
                .current_dir(&dir)
                .env_remove("AMDGPU_SIM_FAULTS")
                .env_remove("AMDGPU_SIM_KERNELS")
                .env("LD_LIBRARY_PATH", library_dir())
                .env("AMDGPU_SIM_MACHINE", machine)
                .env("AMDGPU_SIM_REPORT", &report)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&output.stdout);
            let report = std::fs::read_to_string(&report).unwrap_or_default();
            let what = format!(
                "{name}{suffix} on {machine}: {:?}\nstdout:\n{stdout}\nstderr:\n{}\nreport:\n{report}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            );
            assert!(output.status.success(), "{what}");
            assert_eq!(stdout.matches("Passed!").count(), checks, "{what}");
            assert!(!stdout.contains("Failed"), "{what}");
            let launches = value(&report, "launches").unwrap_or(0);
            assert!(launches >= 1, "{what}");
            assert_eq!(
                value(&report, "launches_executed"),
                Some(launches),
                "{what}"
            );
            assert_eq!(value(&report, "launches_faulted"), Some(0), "{what}");
            // What the registration made is released at exit (the samples'
            // own events and buffers are theirs to leak, and some do).
            for key in ["hip_modules", "hip_fat_binaries"] {
                assert_eq!(value(&report, key), Some(0), "{key}: {what}");
            }
            ran += 1;
        }
    }
    assert_eq!(ran, 36);
}
