//! On a machine with an NVIDIA GPU (the device machine): HIP on CUDA against
//! the real `libcuda.so.1` and `libnccl.so.2`, checked against `nvidia-smi`.
//! Ignored by default (CI has no GPU); run with
//! `cargo test --release --features real --test it real::gpu:: -- --ignored`.
#![cfg(feature = "real")]

use std::process::Command;

use amdgpu_hal::backend::dylib::cuda::CudaHip;
use amdgpu_hal::backend::dylib::library::NCCL;
use amdgpu_hal::backend::dylib::nccl::NcclLibrary;
use amdgpu_hal::backend::{Hip, HipDeviceAttribute, HipP2pAttribute};

fn nvidia_smi(args: &[&str]) -> String {
    let out = Command::new("nvidia-smi")
        .args(args)
        .output()
        .expect("nvidia-smi runs");
    assert!(out.status.success(), "nvidia-smi {args:?} failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
#[ignore = "needs an NVIDIA GPU and driver"]
fn hip_on_cuda_agrees_with_nvidia_smi() {
    let hip = CudaHip::load(&[]).expect("libcuda.so.1 loads");
    hip.init(0).expect("cuInit");
    let csv = nvidia_smi(&[
        "--query-gpu=uuid,name,memory.total,pci.bus_id,compute_cap,memory.reserved",
        "--format=csv,noheader,nounits",
    ]);
    let rows: Vec<Vec<String>> = csv
        .lines()
        .map(|l| l.split(',').map(|f| f.trim().to_string()).collect())
        .collect();
    let count = Hip::get_device_count(&hip).expect("hipGetDeviceCount");
    assert_eq!(count as usize, rows.len(), "{csv}");
    for (ordinal, row) in rows.iter().enumerate() {
        let device = Hip::device_get(&hip, ordinal as i32).unwrap();
        let path = Hip::device_get_uuid(&hip, device).unwrap().device_path();
        assert_eq!(path, row[0], "UUID of device {ordinal}");
        assert_eq!(Hip::device_get_name(&hip, device, 128).unwrap(), row[1]);
        let props = Hip::get_device_properties(&hip, ordinal as i32).unwrap();
        // nvidia-smi's memory.total (MiB) includes what the driver reserves
        // for itself; `cuDeviceTotalMem` (HIP's totalGlobalMem) does not.
        let total: u64 = row[2].parse().unwrap();
        let reserved: u64 = row[5].parse().unwrap();
        println!(
            "memory: cuDeviceTotalMem {} B, nvidia-smi total {total} MiB, reserved {reserved} MiB",
            props.total_global_mem
        );
        assert_eq!(props.total_global_mem / (1024 * 1024), total - reserved);
        assert_eq!(format!("{}.{}", props.major, props.minor), row[4]);
        let bus = i64::from_str_radix(row[3].split(':').nth(1).unwrap(), 16).unwrap();
        assert_eq!(i64::from(props.pci_bus_id), bus, "{}", row[3]);
        let warp = Hip::device_get_attribute(&hip, HipDeviceAttribute::WarpSize, ordinal as i32);
        assert_eq!(warp, Ok(32));
        for peer in 0..count {
            let rank = Hip::device_get_p2p_attribute(
                &hip,
                HipP2pAttribute::PerformanceRank,
                ordinal as i32,
                peer,
            );
            if peer == ordinal as i32 {
                assert!(rank.is_err(), "a device has no P2P link to itself");
            } else {
                assert!(rank.is_ok(), "{rank:?}");
            }
        }
        println!("device {ordinal}: {path} {props:?}");
    }
    println!("driver {:?}", Hip::driver_get_version(&hip));
}

#[test]
#[ignore = "needs NCCL (the NVIDIA device machine has libnccl.so.2)"]
fn nccl_fills_the_rccl_slot() {
    let nccl = NcclLibrary::load(&NCCL, &[]).expect("libnccl.so.2 loads");
    assert!(nccl.version() >= 21800, "{}", nccl.version());
    println!("NCCL {} at {}", nccl.version(), nccl.path());
}
