//! The HIP driver on the simulated node: every preset, RCCL presence, and
//! every HIP call failed in turn during multi-device creation and grouping.

use std::sync::Arc;

use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::{Backend, HipDevice};
use amdgpu_hal::device::{FrontierTracker, FrontierTrackerOptions};
use amdgpu_hal::hip::{DeviceId, HipDriver, HipOptions};
use amdgpu_hal::topology::LinkClass;
use amdgpu_sim::{Fault, HipCode, Sim};

const PRESETS: [&str; 5] = ["mi300x-8", "mi250x-4", "w7900", "mixed-isa", "cpu-only"];

fn sim(preset: &str) -> Arc<Sim> {
    Arc::new(Sim::preset(preset).unwrap().unwrap())
}

fn driver_on(sim: &Arc<Sim>, preset: &str) -> HipDriver {
    let backend = Backend::from_sim(Arc::clone(sim), preset);
    HipDriver::from_backend(&backend, HipOptions::default()).unwrap()
}

fn tracker() -> Arc<FrontierTracker> {
    Arc::new(FrontierTracker::new(FrontierTrackerOptions::default()))
}

#[test]
fn every_preset_enumerates_and_every_path_selects_its_device() {
    for preset in PRESETS {
        let s = sim(preset);
        let driver = driver_on(&s, preset);
        let infos = driver.query_available_devices().unwrap();
        for (i, info) in infos.iter().enumerate() {
            assert_eq!(info.ordinal as usize, i);
            assert_eq!(info.device_id, DeviceId(i as u64 + 1));
            assert_eq!(info.path.len(), 40, "{preset}");
            assert_eq!(
                driver.resolve_path(&info.path).unwrap(),
                [info.device],
                "{preset}"
            );
            let dump = driver.dump_device_info(info.device_id).unwrap();
            assert!(dump.contains("\n- gpu-arch-name: gfx"), "{preset}: {dump}");
        }
        if infos.is_empty() {
            let err = driver.resolve_path("").unwrap_err();
            assert_eq!(err.code(), StatusCode::Unavailable, "{preset}");
            assert_eq!(err.message(), "no compatible HIP devices were found");
        } else {
            let all: Vec<String> = infos.iter().map(|i| i.path.clone()).collect();
            let device = driver.create_device_by_path(&all.join(","), &[]).unwrap();
            assert_eq!(device.physical_devices().len(), infos.len());
        }
        assert!(s.live_objects().is_empty(), "{preset}");
    }
}

#[test]
fn rccl_follows_the_machine() {
    let s = sim("mi300x-8");
    assert_eq!(
        driver_on(&s, "mi300x-8")
            .collectives()
            .require()
            .unwrap()
            .to_string(),
        "2.21.5"
    );
    let s = sim("w7900");
    let err = driver_on(&s, "w7900").collectives().require().unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert!(
        err.message()
            .starts_with("RCCL runtime library version 2.18 and greater not available")
    );
}

#[test]
fn mi300x_links_are_infinity_fabric() {
    let s = sim("mi300x-8");
    let group = driver_on(&s, "mi300x-8")
        .group_all_devices(tracker())
        .unwrap();
    assert_eq!(group.device_count(), 8);
    let t = group.topology();
    for i in 0..8 {
        for j in 0..8 {
            if i != j {
                assert_eq!(
                    t.edge(i, j).unwrap().link_class(),
                    LinkClass::NvlinkIf,
                    "[{i},{j}]"
                );
            }
        }
    }
}

/// Fails the n-th HIP call for n = 1, 2, ... until the operation succeeds:
/// every failure is a clean status naming a HIP call, and nothing leaks.
#[test]
fn every_hip_call_of_device_creation_can_fail_cleanly() {
    let preset = "mi300x-8";
    // Calls: "0,3" resolves each index (count + get), then per device UUID,
    // name and two attributes, then per direction set-device, can-access,
    // three P2P attributes and enable-peer: 4 + 8 + 12. The group over 8
    // devices enumerates (1 + 8 * 3), creates 8 * 4 and refines 56 edges
    // with 4 calls each. The dump checks the id (count) and reads the props.
    for (what, run, calls) in [
        (
            "create 0,3",
            (|d: &HipDriver| d.create_device_by_path("0,3", &[]).map(|_| ()))
                as fn(&HipDriver) -> _,
            24,
        ),
        (
            "group",
            |d: &HipDriver| d.group_all_devices(tracker()).map(|_| ()),
            1 + 24 + 32 + 224,
        ),
        (
            "dump",
            |d: &HipDriver| d.dump_device_info(DeviceId(2)).map(|_| ()),
            2,
        ),
    ] {
        let mut n = 1;
        loop {
            let s = sim(preset);
            let driver = driver_on(&s, preset);
            let base = s.hip_call_count();
            s.inject_hip(Fault::nth_call(base + n, HipCode::INVALID_VALUE));
            match run(&driver) {
                Ok(()) => break,
                Err(err) => {
                    assert_eq!(
                        err.code(),
                        StatusCode::InvalidArgument,
                        "{what} call {n}: {err}"
                    );
                    assert!(
                        err.mentions("HIP driver error 'hipErrorInvalidValue' (1)"),
                        "{what} call {n}: {err}"
                    );
                    assert!(
                        err.to_string().contains("; hip"),
                        "{what} call {n} names no call: {err}"
                    );
                }
            }
            assert!(s.live_objects().is_empty());
            n += 1;
            assert!(n < 10_000, "{what} never succeeded");
        }
        assert_eq!(n - 1, calls, "{what}: HIP calls made");
    }
}

#[test]
fn creation_faults_name_the_call() {
    let s = sim("mi250x-4");
    s.inject_hip(Fault::every("hipInit", HipCode::NO_DEVICE));
    let backend = Backend::from_sim(Arc::clone(&s), "mi250x-4");
    let err = HipDriver::from_backend(&backend, HipOptions::default()).unwrap_err();
    assert_eq!(err.code(), StatusCode::FailedPrecondition);
    assert_eq!(err.annotations(), ["hipInit"]);
    let _ = HipDevice(0);
}
