//! HIP on the simulated node, through the `Hip` trait: devices, names,
//! UUIDs, properties (everything the HIP driver's device-info dump prints),
//! attributes, peer access, P2P attributes, versions and error names.

use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::{
    Backend, CallResultExt, HIP_MAX_DEVICE_NAME_LENGTH, HipDevice, HipDeviceAttribute, HipError,
    HipP2pAttribute,
};

fn backend(machine: &str) -> Backend {
    Backend::sim(machine).unwrap()
}

#[test]
fn devices_names_uuids_and_versions() {
    let b = backend("mi300x-8");
    let hip = b.hip();
    hip.init(0).unwrap();
    assert_eq!(hip.init(1), Err(HipError::InvalidValue));
    assert_eq!(hip.get_device_count(), Ok(8));
    let device = hip.device_get(3).unwrap();
    assert_eq!(device, HipDevice(3));
    assert_eq!(hip.device_get(8), Err(HipError::InvalidDevice));
    assert_eq!(hip.device_get(-1), Err(HipError::InvalidDevice));
    assert_eq!(
        hip.device_get_name(device, HIP_MAX_DEVICE_NAME_LENGTH)
            .unwrap(),
        "AMD Instinct MI300X"
    );
    // The name is cut to fit the buffer with its NUL.
    assert_eq!(hip.device_get_name(device, 4).unwrap(), "AMD");
    assert_eq!(hip.device_get_name(device, 0), Err(HipError::InvalidValue));
    // ROCm's hipUUID holds the ASCII of the agent UUID's 16 hex digits.
    let uuid = hip.device_get_uuid(HipDevice(0)).unwrap();
    assert_eq!(uuid.bytes(), b"8af705259683161c");
    assert_eq!(
        uuid.device_path(),
        "GPU-38616637-3035-3235-3936-383331363163"
    );
    assert_eq!(hip.driver_get_version(), Ok(60_342_134));
    assert_eq!(hip.runtime_get_version(), Ok(60_342_134));
    assert_eq!(hip.get_error_name(HipError::NoDevice), "hipErrorNoDevice");
    assert_eq!(
        hip.get_error_string(HipError::InvalidDevice),
        "invalid device ordinal"
    );
    assert_eq!(b.ccl().map(|c| c.get_version()), Some(Ok(22105)));
    assert!(backend("w7900").ccl().is_none());
}

#[test]
fn properties_hold_every_field_the_device_info_dump_prints() {
    let b = backend("mi300x-8");
    let props = b.hip().get_device_properties(0).unwrap();
    assert_eq!((props.major, props.minor), (9, 4));
    assert_eq!(props.gcn_arch_name, "gfx942:sramecc+:xnack-");
    assert_eq!(props.max_threads_dim, [1024, 1024, 1024]);
    assert_eq!(props.max_threads_per_block, 1024);
    assert_eq!(props.regs_per_block, 65536);
    assert_eq!(props.shared_mem_per_block / 1024, 64);
    assert_eq!(props.integrated, 0);
    assert_eq!(props.managed_memory, 1);
    assert_eq!(props.total_const_mem / 1024 / 1024, 2047);
    assert_eq!(props.total_global_mem / 1024 / 1024, 196592);
    assert_eq!(props.l2_cache_size, 4 << 20);
    assert_eq!(props.multi_processor_count, 304);
    assert_eq!(props.clock_rate / 1000, 2100);
    assert_eq!(props.memory_clock_rate / 1000, 1300);
    assert_eq!(props.warp_size, 64);
    assert_eq!(props.pci_bus_id, 0x05);
    let w7900 = backend("w7900").hip().get_device_properties(0).unwrap();
    assert_eq!((w7900.major, w7900.minor, w7900.warp_size), (11, 0, 32));
    assert_eq!(w7900.gcn_arch_name, "gfx1100");
    assert_eq!(
        backend("w7900").hip().get_device_properties(1),
        Err(HipError::InvalidDevice)
    );
}

#[test]
fn attributes_match_the_properties() {
    let b = backend("mi250x-4");
    let hip = b.hip();
    let props = hip.get_device_properties(5).unwrap();
    let attr = |a| hip.device_get_attribute(a, 5).unwrap();
    assert_eq!(
        attr(HipDeviceAttribute::MultiprocessorCount),
        props.multi_processor_count
    );
    assert_eq!(attr(HipDeviceAttribute::WarpSize), 64);
    assert_eq!(attr(HipDeviceAttribute::ComputeCapabilityMajor), 9);
    assert_eq!(attr(HipDeviceAttribute::ComputeCapabilityMinor), 0);
    assert_eq!(attr(HipDeviceAttribute::MaxBlockDimZ), 1024);
    assert_eq!(attr(HipDeviceAttribute::PciBusId), props.pci_bus_id);
    assert_eq!(attr(HipDeviceAttribute::IsMultiGpuBoard), 1);
    for &attribute in HipDeviceAttribute::ALL {
        assert!(
            hip.device_get_attribute(attribute, 0).is_ok(),
            "{attribute:?}"
        );
    }
    assert_eq!(
        hip.device_get_attribute(HipDeviceAttribute::WarpSize, 8),
        Err(HipError::InvalidDevice)
    );
}

#[test]
fn peer_access_and_p2p_attributes_follow_links() {
    let b = backend("mixed-isa");
    let hip = b.hip();
    // 0-1 share an xGMI bridge, 0-2 reach each other over PCIe.
    assert_eq!(hip.device_can_access_peer(0, 1), Ok(true));
    assert_eq!(hip.device_can_access_peer(0, 2), Ok(true));
    assert_eq!(hip.device_can_access_peer(0, 0), Ok(false));
    assert_eq!(
        hip.device_can_access_peer(0, 9),
        Err(HipError::InvalidDevice)
    );
    let rank = |s, d| {
        hip.device_get_p2p_attribute(HipP2pAttribute::PerformanceRank, s, d)
            .unwrap()
    };
    assert!(rank(0, 1) < rank(0, 2));
    assert_eq!(
        hip.device_get_p2p_attribute(HipP2pAttribute::NativeAtomicSupported, 0, 1),
        Ok(1)
    );
    assert_eq!(
        hip.device_get_p2p_attribute(HipP2pAttribute::NativeAtomicSupported, 0, 2),
        Ok(0)
    );
    assert_eq!(
        hip.device_get_p2p_attribute(HipP2pAttribute::AccessSupported, 2, 3),
        Ok(1)
    );
    assert_eq!(
        hip.device_get_p2p_attribute(HipP2pAttribute::AccessSupported, 1, 1),
        Err(HipError::InvalidDevice)
    );
    hip.set_device(0).unwrap();
    hip.device_enable_peer_access(1, 0).unwrap();
    let status = hip
        .device_enable_peer_access(1, 0)
        .call_status("hipDeviceEnablePeerAccess")
        .unwrap_err();
    assert_eq!(status.code(), StatusCode::AlreadyExists);
    assert_eq!(
        hip.device_enable_peer_access(0, 0),
        Err(HipError::InvalidDevice)
    );
    assert_eq!(
        hip.device_enable_peer_access(1, 7),
        Err(HipError::InvalidValue)
    );
    assert_eq!(hip.set_device(4), Err(HipError::InvalidDevice));
}

#[test]
fn a_node_without_gpus_has_no_hip_device() {
    let b = backend("cpu-only");
    let status = b
        .hip()
        .get_device_count()
        .call_status("hipGetDeviceCount")
        .unwrap_err();
    assert_eq!(status.code(), StatusCode::FailedPrecondition);
    assert!(status.mentions("hipErrorNoDevice"));
    assert_eq!(b.hip().device_get(0), Err(HipError::InvalidDevice));
}
