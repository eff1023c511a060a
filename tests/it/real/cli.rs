//! `--backend hsa|hip|cuda` on a machine without a GPU: each fails with the
//! vendor's exact code as a Status on stderr, nothing on stdout, exit 1.
#![cfg(feature = "real")]

use crate::support;

use assert_cmd::Command;
use predicates::prelude::*;

fn hal() -> Command {
    let mut cmd = Command::cargo_bin("amdgpu-hal").unwrap();
    for var in [
        "IREE_HAL_AMDGPU_LIBHSA_PATH",
        "IREE_HIP_DYLIB_PATH",
        "AMDGPU_HAL_CUDA_PATH",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

#[test]
fn hsa_backend_reports_hsa_init_out_of_resources() {
    if !support::requires::hsa_runtime("`--backend hsa` over ROCm 5.2 without a GPU") {
        return;
    }
    hal()
        .args(["devices", "--backend", "hsa", "--json"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "Error: RESOURCE_EXHAUSTED; [hsa_init] HSA_STATUS_ERROR_OUT_OF_RESOURCES",
        ));
}

#[test]
fn hip_backend_reports_hip_init_invalid_device() {
    if !support::requires::hip_runtime("`--backend hip --machine host` over HIP 5.2 without a GPU")
    {
        return;
    }
    for command in ["devices", "capture"] {
        hal()
            .args([command, "--backend", "hip", "--machine", "host"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(
                predicate::str::starts_with(
                    "Error: FAILED_PRECONDITION; HIP driver error 'hipErrorInvalidDevice' (101)",
                )
                .and(predicate::str::contains("; hipInit")),
            );
    }
}

#[test]
fn cuda_backend_without_a_driver_lists_what_it_tried() {
    if std::path::Path::new("/proc/driver/nvidia").exists() {
        hal()
            .args(["devices", "--backend", "cuda"])
            .assert()
            .success()
            .stdout(predicate::str::contains("(backend cuda)"));
        return;
    }
    hal()
        .args(["devices", "--backend", "cuda"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            predicate::str::starts_with(
                "Error: UNAVAILABLE; CUDA driver library 'libcuda.so.1' not available",
            )
            .and(predicate::str::contains(": Tried: libcuda.so.1; "))
            .and(predicate::str::ends_with("; opening backend 'cuda'\n")),
        );
    // `info` and `topology` run IREE's HIP driver over the same backend.
    for command in ["info", "topology"] {
        hal()
            .args([command, "--backend", "cuda"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(
                predicate::str::starts_with(
                    "Error: UNAVAILABLE; CUDA driver library 'libcuda.so.1' not available",
                )
                .and(predicate::str::contains(": Tried: libcuda.so.1; "))
                .and(predicate::str::is_match("^[^\n]*\n$").unwrap()),
            );
    }
}

#[test]
fn a_search_path_variable_is_honoured() {
    hal()
        .args(["devices", "--backend", "hip", "--machine", "host"])
        .env("IREE_HIP_DYLIB_PATH", "/nowhere;file:/also/nowhere.so")
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("HIP runtime library 'libamdhip64.so' not available")
                .and(predicate::str::contains(
                    "; Tried: /nowhere/libamdhip64.so.5; ",
                ))
                .and(predicate::str::contains("; Tried: /also/nowhere.so; "))
                .and(predicate::str::ends_with(
                    "; (candidates from the search paths given)\n",
                ))
                .and(predicate::str::is_match("^[^\n]*\n$").unwrap()),
        );
}
