//! This crate's values and layouts against the vendor headers themselves:
//! every HSA status, info attribute and attribute value, every `sizeof` and
//! `offsetof` of the HSA structs becomes a `_Static_assert` compiled
//! against Debian's `hsa.h`, `hsa_ext_amd.h` and `hsa_ven_amd_loader.h`
//! (package libhsa-runtime-dev); every `hipError_t`, device and P2P
//! attribute and `hipDeviceProp_t` offset against `hip_runtime_api.h`
//! (package libamdhip64-dev). The values come from the crate (its tables and
//! enums), the C names they must equal from the headers: a wrong value or
//! layout does not compile. Without the headers or a C compiler a test
//! prints one line and passes, unless `AMDGPU_HAL_REQUIRE_ALL=1`.

use std::fmt::Write as _;
use std::mem::{offset_of, size_of};
use std::path::Path;
use std::process::Command;

use amdgpu_sys::hip_device_prop_r0600::hipDeviceProp_tR0600;
use amdgpu_sys::hip_error::HIP_ERRORS;
use amdgpu_sys::hip_types::{
    HIP_DEVICE_PROP_R0000_SIZE, HipDeviceAttribute, HipP2pAttribute, dim3, hipDeviceProp_tR0000,
    hipUUID,
};
use amdgpu_sys::hsa_info::{
    AgentInfo, AgentMemoryPoolInfo, ExecutableSymbolInfo, IsaInfo, LoadedCodeObjectInfo,
    MemoryPoolInfo, RegionInfo, SystemInfo,
};
use amdgpu_sys::hsa_status::{HSA_STATUSES, hsa_status_t};
use amdgpu_sys::hsa_types::*;
use amdgpu_sys::hsa_values::*;

const HSA_HEADER_DIR: &str = "/usr/include/hsa";
const HIP_HEADER: &str = "/usr/include/hip/hip_runtime_api.h";

/// One line saying what is skipped and why, or a failure when CI requires
/// every optional dependency.
fn skip(what: &str, reason: &str) {
    let line = format!("skipped: {what} ({reason})");
    if std::env::var("AMDGPU_HAL_REQUIRE_ALL").as_deref() == Ok("1") {
        panic!("{line}, and AMDGPU_HAL_REQUIRE_ALL=1");
    }
    eprintln!("{line}");
}

/// `(C type, sizeof)`.
type Size = (&'static str, usize);
/// `(C struct, field, offsetof)`.
type Offset = (&'static str, &'static str, usize);

/// The enumerators ROCm 6 added after Debian's 5.2 headers: checked
/// against ROCm 6's headers (IREE's vendored copy) instead.
const ROCM6_ONLY: &[&str] = &[
    "HSA_AMD_AGENT_INFO_DRIVER_UID",
    "HSA_AMD_AGENT_INFO_NEAREST_CPU",
    "HSA_AMD_AGENT_INFO_UCODE_VERSION",
    "HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION",
    "HSA_AMD_AGENT_INFO_IOMMU_SUPPORT",
    "HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES",
    "HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED",
    "HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED",
    "HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED",
    "HSA_AMD_SYSTEM_INFO_XNACK_ENABLED",
    "HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR",
    "HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR",
    "HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE",
    "HSA_IOMMU_SUPPORT_NONE",
    "HSA_IOMMU_SUPPORT_V2",
    "HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU",
    "HSA_REGION_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED",
    "HSA_AMD_QUEUE_INFO_AGENT",
    "HSA_AMD_QUEUE_INFO_DOORBELL_ID",
    "HSA_ACCESS_PERMISSION_NONE",
    "HSA_EXT_POINTER_TYPE_RESERVED_ADDR",
    "HSA_EXT_POINTER_TYPE_HSA_VMEM",
    "MEMORY_TYPE_NONE",
    "MEMORY_TYPE_PINNED",
    "HSA_AMD_VMEM_ADDRESS_NO_REGISTER",
];

/// `(C enumerator, value)` of every HSA value this crate defines; without
/// `rocm6`, those of [`ROCM6_ONLY`] are left out.
fn hsa_values(rocm6: bool) -> Vec<(String, u64)> {
    let mut values: Vec<(String, u64)> = HSA_STATUSES
        .iter()
        .map(|s| (s.name.to_string(), u64::from(s.value)))
        .collect();
    let mut add = |name: &str, value: u32| values.push((name.to_string(), u64::from(value)));
    macro_rules! attributes {
        ($($family:ty),*) => {$(
            for &a in <$family>::ALL {
                add(a.name(), a.raw());
            }
        )*};
    }
    attributes!(
        AgentInfo,
        SystemInfo,
        IsaInfo,
        MemoryPoolInfo,
        RegionInfo,
        AgentMemoryPoolInfo,
        ExecutableSymbolInfo,
        LoadedCodeObjectInfo
    );
    for (name, value) in [
        ("HSA_DEVICE_TYPE_CPU", DeviceType::Cpu.raw()),
        ("HSA_DEVICE_TYPE_GPU", DeviceType::Gpu.raw()),
        ("HSA_DEVICE_TYPE_DSP", DeviceType::Dsp.raw()),
        ("HSA_PROFILE_BASE", Profile::Base.raw()),
        ("HSA_PROFILE_FULL", Profile::Full.raw()),
        (
            "HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT",
            RoundingMode::Default.raw(),
        ),
        (
            "HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO",
            RoundingMode::Zero.raw(),
        ),
        (
            "HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR",
            RoundingMode::Near.raw(),
        ),
        ("HSA_AMD_SEGMENT_GLOBAL", Segment::Global.raw()),
        ("HSA_AMD_SEGMENT_READONLY", Segment::Readonly.raw()),
        ("HSA_AMD_SEGMENT_PRIVATE", Segment::Private.raw()),
        ("HSA_AMD_SEGMENT_GROUP", Segment::Group.raw()),
        (
            "HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT",
            GLOBAL_FLAG_KERNARG_INIT,
        ),
        (
            "HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED",
            GLOBAL_FLAG_FINE_GRAINED,
        ),
        (
            "HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED",
            GLOBAL_FLAG_COARSE_GRAINED,
        ),
        (
            "HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED",
            PoolAccess::NeverAllowed.raw(),
        ),
        (
            "HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT",
            PoolAccess::AllowedByDefault.raw(),
        ),
        (
            "HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT",
            PoolAccess::DisallowedByDefault.raw(),
        ),
        (
            "HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT",
            LinkType::HyperTransport.raw(),
        ),
        ("HSA_AMD_LINK_INFO_TYPE_QPI", LinkType::Qpi.raw()),
        ("HSA_AMD_LINK_INFO_TYPE_PCIE", LinkType::Pcie.raw()),
        (
            "HSA_AMD_LINK_INFO_TYPE_INFINBAND",
            LinkType::Infiniband.raw(),
        ),
        ("HSA_AMD_LINK_INFO_TYPE_XGMI", LinkType::Xgmi.raw()),
        ("HSA_SYMBOL_KIND_VARIABLE", SymbolKind::Variable.raw()),
        ("HSA_SYMBOL_KIND_KERNEL", SymbolKind::Kernel.raw()),
        (
            "HSA_SYMBOL_KIND_INDIRECT_FUNCTION",
            SymbolKind::IndirectFunction.raw(),
        ),
        ("HSA_ENDIANNESS_LITTLE", ENDIANNESS_LITTLE),
        ("HSA_MACHINE_MODEL_LARGE", MACHINE_MODEL_LARGE),
        ("HSA_QUEUE_TYPE_MULTI", QUEUE_TYPE_MULTI),
        ("HSA_QUEUE_TYPE_SINGLE", QUEUE_TYPE_SINGLE),
        ("HSA_QUEUE_TYPE_COOPERATIVE", QUEUE_TYPE_COOPERATIVE),
        (
            "HSA_QUEUE_FEATURE_KERNEL_DISPATCH",
            QUEUE_FEATURE_KERNEL_DISPATCH,
        ),
        (
            "AMD_QUEUE_PROPERTIES_IS_PTR64",
            AMD_QUEUE_PROPERTIES_IS_PTR64,
        ),
        (
            "AMD_QUEUE_PROPERTIES_ENABLE_PROFILING",
            AMD_QUEUE_PROPERTIES_ENABLE_PROFILING,
        ),
        ("HSA_AMD_QUEUE_INFO_AGENT", AMD_QUEUE_INFO_AGENT),
        (
            "HSA_PACKET_TYPE_VENDOR_SPECIFIC",
            u32::from(PACKET_TYPE_VENDOR_SPECIFIC),
        ),
        ("HSA_PACKET_TYPE_INVALID", u32::from(PACKET_TYPE_INVALID)),
        (
            "HSA_PACKET_TYPE_KERNEL_DISPATCH",
            u32::from(PACKET_TYPE_KERNEL_DISPATCH),
        ),
        (
            "HSA_PACKET_TYPE_BARRIER_AND",
            u32::from(PACKET_TYPE_BARRIER_AND),
        ),
        (
            "HSA_PACKET_TYPE_AGENT_DISPATCH",
            u32::from(PACKET_TYPE_AGENT_DISPATCH),
        ),
        (
            "HSA_PACKET_TYPE_BARRIER_OR",
            u32::from(PACKET_TYPE_BARRIER_OR),
        ),
        ("HSA_PACKET_HEADER_TYPE", u32::from(PACKET_HEADER_TYPE)),
        (
            "HSA_PACKET_HEADER_WIDTH_TYPE",
            u32::from(PACKET_HEADER_WIDTH_TYPE),
        ),
        (
            "HSA_PACKET_HEADER_BARRIER",
            u32::from(PACKET_HEADER_BARRIER),
        ),
        (
            "HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE",
            u32::from(PACKET_HEADER_SCACQUIRE_FENCE_SCOPE),
        ),
        (
            "HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE",
            u32::from(PACKET_HEADER_SCRELEASE_FENCE_SCOPE),
        ),
        ("HSA_AMD_QUEUE_INFO_DOORBELL_ID", AMD_QUEUE_INFO_DOORBELL_ID),
        (
            "HSA_AGENT_FEATURE_KERNEL_DISPATCH",
            AGENT_FEATURE_KERNEL_DISPATCH,
        ),
        (
            "HSA_EXTENSION_AMD_LOADER",
            u32::from(HSA_EXTENSION_AMD_LOADER),
        ),
        ("HSA_IOMMU_SUPPORT_NONE", IOMMU_SUPPORT_NONE),
        ("HSA_IOMMU_SUPPORT_V2", IOMMU_SUPPORT_V2),
        (
            "HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU",
            MEMORY_PROPERTY_AGENT_IS_APU,
        ),
        ("HSA_REGION_SEGMENT_GLOBAL", REGION_SEGMENT_GLOBAL),
        ("HSA_REGION_SEGMENT_GROUP", REGION_SEGMENT_GROUP),
        ("HSA_REGION_GLOBAL_FLAG_KERNARG", REGION_GLOBAL_FLAG_KERNARG),
        (
            "HSA_REGION_GLOBAL_FLAG_FINE_GRAINED",
            REGION_GLOBAL_FLAG_FINE_GRAINED,
        ),
        (
            "HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED",
            REGION_GLOBAL_FLAG_COARSE_GRAINED,
        ),
        (
            "HSA_REGION_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED",
            REGION_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED,
        ),
        (
            "HSA_AMD_PACKET_TYPE_BARRIER_VALUE",
            u32::from(AMD_PACKET_TYPE_BARRIER_VALUE),
        ),
        ("HSA_WAIT_STATE_BLOCKED", WAIT_STATE_BLOCKED),
        ("HSA_WAIT_STATE_ACTIVE", WAIT_STATE_ACTIVE),
        ("HSA_ACCESS_PERMISSION_NONE", ACCESS_PERMISSION_NONE),
        ("HSA_ACCESS_PERMISSION_RO", ACCESS_PERMISSION_RO),
        ("HSA_ACCESS_PERMISSION_WO", ACCESS_PERMISSION_WO),
        ("HSA_ACCESS_PERMISSION_RW", ACCESS_PERMISSION_RW),
        ("HSA_EXT_POINTER_TYPE_UNKNOWN", POINTER_TYPE_UNKNOWN),
        ("HSA_EXT_POINTER_TYPE_HSA", POINTER_TYPE_HSA),
        ("HSA_EXT_POINTER_TYPE_LOCKED", POINTER_TYPE_LOCKED),
        ("HSA_EXT_POINTER_TYPE_GRAPHICS", POINTER_TYPE_GRAPHICS),
        ("HSA_EXT_POINTER_TYPE_IPC", POINTER_TYPE_IPC),
        (
            "HSA_EXT_POINTER_TYPE_RESERVED_ADDR",
            POINTER_TYPE_RESERVED_ADDR,
        ),
        ("HSA_EXT_POINTER_TYPE_HSA_VMEM", POINTER_TYPE_HSA_VMEM),
        ("MEMORY_TYPE_NONE", VMEM_MEMORY_TYPE_NONE),
        ("MEMORY_TYPE_PINNED", VMEM_MEMORY_TYPE_PINNED),
    ] {
        add(name, value);
    }
    for condition in SignalCondition::ALL {
        add(condition.name(), condition.raw());
    }
    for (name, value) in [
        ("HSA_AMD_SIGNAL_AMD_GPU_ONLY", AMD_SIGNAL_AMD_GPU_ONLY),
        ("HSA_AMD_SIGNAL_IPC", AMD_SIGNAL_IPC),
        ("HSA_AMD_VMEM_ADDRESS_NO_REGISTER", VMEM_ADDRESS_NO_REGISTER),
    ] {
        values.push((name.to_string(), value));
    }
    if !rocm6 {
        values.retain(|(name, _)| !ROCM6_ONLY.contains(&name.as_str()));
    }
    values
}

/// `(C type, sizeof)` of every HSA type this crate lays out.
fn hsa_sizes() -> Vec<Size> {
    vec![
        ("hsa_status_t", size_of::<hsa_status_t>()),
        ("hsa_agent_t", size_of::<hsa_agent_t>()),
        ("hsa_isa_t", size_of::<hsa_isa_t>()),
        ("hsa_amd_memory_pool_t", size_of::<hsa_amd_memory_pool_t>()),
        (
            "hsa_code_object_reader_t",
            size_of::<hsa_code_object_reader_t>(),
        ),
        ("hsa_executable_t", size_of::<hsa_executable_t>()),
        (
            "hsa_executable_symbol_t",
            size_of::<hsa_executable_symbol_t>(),
        ),
        (
            "hsa_loaded_code_object_t",
            size_of::<hsa_loaded_code_object_t>(),
        ),
        ("hsa_signal_t", size_of::<hsa_signal_t>()),
        ("amd_signal_t", size_of::<amd_signal_t>()),
        ("hsa_queue_t", size_of::<hsa_queue_t>()),
        ("amd_queue_t", size_of::<amd_queue_t>()),
        ("hsa_region_t", size_of::<hsa_region_t>()),
        (
            "hsa_amd_vendor_packet_header_t",
            size_of::<hsa_amd_vendor_packet_header_t>(),
        ),
        (
            "hsa_amd_barrier_value_packet_t",
            size_of::<hsa_amd_barrier_value_packet_t>(),
        ),
        ("hsa_cache_t", size_of::<hsa_cache_t>()),
        (
            "hsa_amd_pointer_info_t",
            size_of::<hsa_amd_pointer_info_t>(),
        ),
        ("hsa_dim3_t", size_of::<hsa_dim3_t>()),
        (
            "hsa_amd_memory_pool_link_info_t",
            size_of::<hsa_amd_memory_pool_link_info_t>(),
        ),
        ("hsa_ven_amd_loader_1_00_pfn_t", LOADER_TABLE_SIZES[0]),
        ("hsa_ven_amd_loader_1_01_pfn_t", LOADER_TABLE_SIZES[1]),
        ("hsa_ven_amd_loader_1_02_pfn_t", LOADER_TABLE_SIZES[2]),
        (
            "hsa_ven_amd_loader_1_03_pfn_t",
            size_of::<hsa_ven_amd_loader_1_03_pfn_t>(),
        ),
        // Enums travel as 4 bytes (the attribute types `rocminfo` stores them in).
        ("hsa_endianness_t", size_of::<u32>()),
        ("hsa_machine_model_t", size_of::<u32>()),
        ("hsa_agent_feature_t", size_of::<u32>()),
        ("hsa_queue_type32_t", size_of::<u32>()),
        ("hsa_device_type_t", size_of::<u32>()),
        ("hsa_profile_t", size_of::<u32>()),
        ("hsa_default_float_rounding_mode_t", size_of::<u32>()),
        ("hsa_amd_segment_t", size_of::<u32>()),
        ("hsa_amd_memory_pool_access_t", size_of::<u32>()),
        ("hsa_symbol_kind_t", size_of::<u32>()),
    ]
}

/// `(C struct, field, offsetof)` of every field of the HSA structs.
fn hsa_offsets() -> Vec<Offset> {
    type L = hsa_amd_memory_pool_link_info_t;
    type T = hsa_ven_amd_loader_1_03_pfn_t;
    let link = "hsa_amd_memory_pool_link_info_t";
    let table = "hsa_ven_amd_loader_1_03_pfn_t";
    type S = amd_signal_t;
    let signal = "amd_signal_t";
    type Q = hsa_queue_t;
    let hsa_queue = "hsa_queue_t";
    type A = amd_queue_t;
    let queue = "amd_queue_t";
    type P = hsa_amd_pointer_info_t;
    let pointer = "hsa_amd_pointer_info_t";
    type V = hsa_amd_vendor_packet_header_t;
    let vendor = "hsa_amd_vendor_packet_header_t";
    type B = hsa_amd_barrier_value_packet_t;
    let barrier = "hsa_amd_barrier_value_packet_t";
    vec![
        (hsa_queue, "type", offset_of!(Q, type_)),
        (hsa_queue, "features", offset_of!(Q, features)),
        (hsa_queue, "base_address", offset_of!(Q, base_address)),
        (hsa_queue, "doorbell_signal", offset_of!(Q, doorbell_signal)),
        (hsa_queue, "size", offset_of!(Q, size)),
        (hsa_queue, "reserved1", offset_of!(Q, reserved1)),
        (hsa_queue, "id", offset_of!(Q, id)),
        (queue, "hsa_queue", offset_of!(A, hsa_queue)),
        (queue, "write_dispatch_id", offset_of!(A, write_dispatch_id)),
        (
            queue,
            "group_segment_aperture_base_hi",
            offset_of!(A, group_segment_aperture_base_hi),
        ),
        (
            queue,
            "private_segment_aperture_base_hi",
            offset_of!(A, private_segment_aperture_base_hi),
        ),
        (queue, "max_cu_id", offset_of!(A, max_cu_id)),
        (queue, "max_wave_id", offset_of!(A, max_wave_id)),
        (
            queue,
            "max_legacy_doorbell_dispatch_id_plus_1",
            offset_of!(A, max_legacy_doorbell_dispatch_id_plus_1),
        ),
        (
            queue,
            "legacy_doorbell_lock",
            offset_of!(A, legacy_doorbell_lock),
        ),
        (queue, "reserved2", offset_of!(A, reserved2)),
        (queue, "read_dispatch_id", offset_of!(A, read_dispatch_id)),
        (
            queue,
            "read_dispatch_id_field_base_byte_offset",
            offset_of!(A, read_dispatch_id_field_base_byte_offset),
        ),
        (
            queue,
            "compute_tmpring_size",
            offset_of!(A, compute_tmpring_size),
        ),
        (
            queue,
            "scratch_resource_descriptor",
            offset_of!(A, scratch_resource_descriptor),
        ),
        (
            queue,
            "scratch_backing_memory_location",
            offset_of!(A, scratch_backing_memory_location),
        ),
        (
            queue,
            "scratch_wave64_lane_byte_size",
            offset_of!(A, scratch_wave64_lane_byte_size),
        ),
        (queue, "queue_properties", offset_of!(A, queue_properties)),
        (
            queue,
            "queue_inactive_signal",
            offset_of!(A, queue_inactive_signal),
        ),
        (signal, "kind", offset_of!(S, kind)),
        (signal, "value", offset_of!(S, value)),
        (signal, "hardware_doorbell_ptr", offset_of!(S, value)),
        (
            signal,
            "event_mailbox_ptr",
            offset_of!(S, event_mailbox_ptr),
        ),
        (signal, "event_id", offset_of!(S, event_id)),
        (signal, "reserved1", offset_of!(S, reserved1)),
        (signal, "start_ts", offset_of!(S, start_ts)),
        (signal, "end_ts", offset_of!(S, end_ts)),
        (signal, "queue_ptr", offset_of!(S, queue_ptr)),
        (signal, "reserved2", offset_of!(S, queue_ptr)),
        (signal, "reserved3", offset_of!(S, reserved3)),
        (pointer, "size", offset_of!(P, size)),
        (pointer, "type", offset_of!(P, type_)),
        (
            pointer,
            "agentBaseAddress",
            offset_of!(P, agent_base_address),
        ),
        (pointer, "hostBaseAddress", offset_of!(P, host_base_address)),
        (pointer, "sizeInBytes", offset_of!(P, size_in_bytes)),
        (pointer, "userData", offset_of!(P, user_data)),
        (pointer, "agentOwner", offset_of!(P, agent_owner)),
        (pointer, "global_flags", offset_of!(P, global_flags)),
        (vendor, "header", offset_of!(V, header)),
        (vendor, "AmdFormat", offset_of!(V, amd_format)),
        (vendor, "reserved", offset_of!(V, reserved)),
        (barrier, "header", offset_of!(B, header)),
        (barrier, "reserved0", offset_of!(B, reserved0)),
        (barrier, "signal", offset_of!(B, signal)),
        (barrier, "value", offset_of!(B, value)),
        (barrier, "mask", offset_of!(B, mask)),
        (barrier, "cond", offset_of!(B, cond)),
        (barrier, "reserved1", offset_of!(B, reserved1)),
        (barrier, "reserved2", offset_of!(B, reserved2)),
        (barrier, "reserved3", offset_of!(B, reserved3)),
        (
            barrier,
            "completion_signal",
            offset_of!(B, completion_signal),
        ),
        ("hsa_dim3_t", "x", offset_of!(hsa_dim3_t, x)),
        ("hsa_dim3_t", "y", offset_of!(hsa_dim3_t, y)),
        ("hsa_dim3_t", "z", offset_of!(hsa_dim3_t, z)),
        (link, "min_latency", offset_of!(L, min_latency)),
        (link, "max_latency", offset_of!(L, max_latency)),
        (link, "min_bandwidth", offset_of!(L, min_bandwidth)),
        (link, "max_bandwidth", offset_of!(L, max_bandwidth)),
        (
            link,
            "atomic_support_32bit",
            offset_of!(L, atomic_support_32bit),
        ),
        (
            link,
            "atomic_support_64bit",
            offset_of!(L, atomic_support_64bit),
        ),
        (link, "coherent_support", offset_of!(L, coherent_support)),
        (link, "link_type", offset_of!(L, link_type)),
        (link, "numa_distance", offset_of!(L, numa_distance)),
        (
            table,
            "hsa_ven_amd_loader_query_host_address",
            offset_of!(T, query_host_address),
        ),
        (
            table,
            "hsa_ven_amd_loader_query_segment_descriptors",
            offset_of!(T, query_segment_descriptors),
        ),
        (
            table,
            "hsa_ven_amd_loader_query_executable",
            offset_of!(T, query_executable),
        ),
        (
            table,
            "hsa_ven_amd_loader_executable_iterate_loaded_code_objects",
            offset_of!(T, executable_iterate_loaded_code_objects),
        ),
        (
            table,
            "hsa_ven_amd_loader_loaded_code_object_get_info",
            offset_of!(T, loaded_code_object_get_info),
        ),
        (
            table,
            "hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size",
            offset_of!(T, code_object_reader_create_from_file_with_offset_size),
        ),
        (
            table,
            "hsa_ven_amd_loader_iterate_executables",
            offset_of!(T, iterate_executables),
        ),
    ]
}

/// The fields of `amd_queue_t` only ROCm 6's header names (5.2's
/// `reserved1[4]` covers `caps` and `reserved1[3]`, its
/// `scratch_backing_memory_byte_size` is 6's `reserved3[2]`).
fn hsa_offsets_rocm6() -> Vec<Offset> {
    type A = amd_queue_t;
    let queue = "amd_queue_t";
    type D = hsa_amd_memory_access_desc_t;
    let desc = "hsa_amd_memory_access_desc_t";
    vec![
        (
            "hsa_amd_pointer_info_t",
            "registered",
            offset_of!(hsa_amd_pointer_info_t, registered),
        ),
        (desc, "permissions", offset_of!(D, permissions)),
        (desc, "agent_handle", offset_of!(D, agent_handle)),
        (queue, "caps", offset_of!(A, caps)),
        (queue, "reserved1", offset_of!(A, reserved1)),
        (queue, "reserved3", offset_of!(A, reserved3)),
        (queue, "reserved4", offset_of!(A, reserved4)),
        (queue, "reserved5", offset_of!(A, reserved5)),
    ]
}

/// The HIP values: every error, device attribute and P2P attribute.
fn hip_values() -> Vec<(String, i64)> {
    let mut values: Vec<(String, i64)> = HIP_ERRORS
        .iter()
        .map(|e| (e.name.to_string(), i64::from(e.value)))
        .collect();
    for &a in HipDeviceAttribute::ALL {
        values.push((a.name().to_string(), i64::from(a.raw())));
    }
    for (name, a) in [
        (
            "hipDevP2PAttrPerformanceRank",
            HipP2pAttribute::PerformanceRank,
        ),
        (
            "hipDevP2PAttrAccessSupported",
            HipP2pAttribute::AccessSupported,
        ),
        (
            "hipDevP2PAttrNativeAtomicSupported",
            HipP2pAttribute::NativeAtomicSupported,
        ),
        (
            "hipDevP2PAttrHipArrayAccessSupported",
            HipP2pAttribute::HipArrayAccessSupported,
        ),
    ] {
        values.push((name.to_string(), i64::from(a.raw())));
    }
    values
}

/// `hipDeviceProp_t`'s size and every field's offset.
fn hip_layout() -> (Vec<Size>, Vec<Offset>) {
    type P = hipDeviceProp_tR0000;
    let p = "hipDeviceProp_t";
    macro_rules! fields {
        ($($field:ident),*) => {
            vec![$((p, stringify!($field), offset_of!(P, $field))),*]
        };
    }
    let sizes = vec![
        (p, size_of::<P>()),
        ("hipDeviceProp_t", HIP_DEVICE_PROP_R0000_SIZE),
        ("hipUUID", size_of::<hipUUID>()),
        ("dim3", size_of::<dim3>()),
    ];
    let offsets = fields!(
        name,
        totalGlobalMem,
        sharedMemPerBlock,
        regsPerBlock,
        warpSize,
        maxThreadsPerBlock,
        maxThreadsDim,
        maxGridSize,
        clockRate,
        memoryClockRate,
        memoryBusWidth,
        totalConstMem,
        major,
        minor,
        multiProcessorCount,
        l2CacheSize,
        maxThreadsPerMultiProcessor,
        computeMode,
        clockInstructionRate,
        arch,
        concurrentKernels,
        pciDomainID,
        pciBusID,
        pciDeviceID,
        maxSharedMemoryPerMultiProcessor,
        isMultiGpuBoard,
        canMapHostMemory,
        gcnArch,
        gcnArchName,
        integrated,
        cooperativeLaunch,
        cooperativeMultiDeviceLaunch,
        maxTexture1DLinear,
        maxTexture1D,
        maxTexture2D,
        maxTexture3D,
        hdpMemFlushCntl,
        hdpRegFlushCntl,
        memPitch,
        textureAlignment,
        texturePitchAlignment,
        kernelExecTimeoutEnabled,
        ECCEnabled,
        tccDriver,
        cooperativeMultiDeviceUnmatchedFunc,
        cooperativeMultiDeviceUnmatchedGridDim,
        cooperativeMultiDeviceUnmatchedBlockDim,
        cooperativeMultiDeviceUnmatchedSharedMem,
        isLargeBar,
        asicRevision,
        managedMemory,
        directManagedMemAccessFromHost,
        concurrentManagedAccess,
        pageableMemoryAccess,
        pageableMemoryAccessUsesHostPageTables
    );
    (sizes, offsets)
}

/// The C source: the includes, then one `_Static_assert` per fact.
fn assertions(
    includes: &str,
    values: &[(String, i128)],
    sizes: &[(&str, usize)],
    offsets: &[(&str, &str, usize)],
) -> String {
    let mut c = format!("#include <stddef.h>\n{includes}");
    for (name, value) in values {
        let _ = writeln!(
            c,
            "_Static_assert((long long)({name}) == {value}LL, \"{name} is {value}\");"
        );
    }
    for (ty, size) in sizes {
        let _ = writeln!(
            c,
            "_Static_assert(sizeof({ty}) == {size}, \"sizeof({ty}) is {size}\");"
        );
    }
    for (ty, field, offset) in offsets {
        let _ = writeln!(
            c,
            "_Static_assert(offsetof({ty}, {field}) == {offset}, \"{ty}.{field} at {offset}\");"
        );
    }
    c
}

/// Compiles `source` (`-fsyntax-only`); `None` when no C compiler runs.
fn compile(name: &str, source: &str, flags: &[&str]) -> Option<std::process::Output> {
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("vendor-headers");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, source).expect("write the C source");
    Command::new(&compiler)
        .args(["-std=c11", "-fsyntax-only"])
        // The caller's flags first: an `-I` of theirs wins over /usr/include.
        .args(flags)
        .args(["-I", "/usr/include"])
        .arg(&path)
        .output()
        .ok()
}

#[test]
fn values_sizes_and_offsets_match_the_hsa_headers() {
    let what = "the HSA header check";
    if !Path::new(HSA_HEADER_DIR).join("hsa_ext_amd.h").exists() {
        skip(
            what,
            "no /usr/include/hsa; needs Debian package libhsa-runtime-dev",
        );
        return;
    }
    let mut values: Vec<(String, i128)> = hsa_values(false)
        .into_iter()
        .map(|(n, v)| (n, i128::from(v)))
        .collect();
    for (name, value) in [
        ("AMD_SIGNAL_KIND_INVALID", AMD_SIGNAL_KIND_INVALID),
        ("AMD_SIGNAL_KIND_USER", AMD_SIGNAL_KIND_USER),
        ("AMD_SIGNAL_KIND_DOORBELL", AMD_SIGNAL_KIND_DOORBELL),
        (
            "AMD_SIGNAL_KIND_LEGACY_DOORBELL",
            AMD_SIGNAL_KIND_LEGACY_DOORBELL,
        ),
    ] {
        values.push((name.to_string(), i128::from(value)));
    }
    let source = assertions(
        "#include <hsa/hsa.h>\n#include <hsa/hsa_ext_amd.h>\n#include <hsa/hsa_ven_amd_loader.h>\n\
         #include <hsa/amd_hsa_signal.h>\n#include <hsa/amd_hsa_queue.h>\n",
        &values,
        &hsa_sizes(),
        &hsa_offsets(),
    );
    let Some(output) = compile("hsa.c", &source, &[]) else {
        skip(what, "cannot run a C compiler; needs one (CC or cc)");
        return;
    };
    assert!(
        output.status.success(),
        "the HSA headers disagree:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // What rocminfo asks for is covered.
    for needed in [
        "HSA_AGENT_INFO_FEATURE",
        "HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE",
        "HSA_ISA_INFO_GRID_MAX_SIZE",
        "HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT",
    ] {
        assert!(values.iter().any(|(n, _)| n == needed), "{needed}");
    }
}

#[test]
fn values_and_layouts_match_the_hip_header() {
    let what = "the HIP header check";
    if !Path::new(HIP_HEADER).exists() {
        skip(
            what,
            "no /usr/include/hip/hip_runtime_api.h; needs Debian package libamdhip64-dev",
        );
        return;
    }
    let values: Vec<(String, i128)> = hip_values()
        .into_iter()
        .map(|(n, v)| (n, i128::from(v)))
        .collect();
    let (sizes, offsets) = hip_layout();
    let source = assertions(
        "#include <hip/hip_runtime_api.h>\n",
        &values,
        &sizes,
        &offsets,
    );
    let Some(output) = compile("hip.c", &source, &["-D__HIP_PLATFORM_AMD__"]) else {
        skip(what, "cannot run a C compiler; needs one (CC or cc)");
        return;
    };
    assert!(
        output.status.success(),
        "the HIP header disagrees:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_wrong_value_is_caught() {
    // The check itself can fail: a deliberately wrong enumerator value must
    // not compile (guards against a compiler that ignores _Static_assert).
    if !Path::new(HSA_HEADER_DIR).join("hsa.h").exists() {
        skip(
            "the HSA header self-check",
            "no /usr/include/hsa; needs Debian package libhsa-runtime-dev",
        );
        return;
    }
    let wrong = assertions(
        "#include <hsa/hsa.h>\n",
        &[("HSA_AGENT_INFO_FEATURE".to_string(), 3)],
        &[],
        &[],
    );
    let Some(output) = compile("wrong.c", &wrong, &[]) else {
        skip("the HSA header self-check", "no C compiler");
        return;
    };
    assert!(!output.status.success(), "a wrong value compiled");
}

/// ROCm 6's HSA headers as IREE vendors them (`third_party/hsa-runtime-headers`
/// of `IREE_SOURCE_TARBALL`, default `../shared/iree/iree-b48a5955-src.tar.gz`),
/// unpacked once under the test's temporary directory.
fn rocm6_header_dir() -> Result<std::path::PathBuf, String> {
    iree_vendored_headers("hsa-runtime-headers", "hsa/hsa_ext_amd.h")
}

/// ROCm 6's HIP headers as IREE vendors them (`third_party/hip-build-deps`
/// of the same archive).
fn rocm6_hip_header_dir() -> Result<std::path::PathBuf, String> {
    iree_vendored_headers("hip-build-deps", "hip/hip_runtime_api.h")
}

/// The `include` directory of IREE's `third_party/DIR`, holding `probe`,
/// unpacked from IREE's source archive under the test's temporary directory.
fn iree_vendored_headers(dir: &str, probe: &str) -> Result<std::path::PathBuf, String> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let tarball = std::env::var_os("IREE_SOURCE_TARBALL").map_or_else(
        || workspace.join("../shared/iree/iree-b48a5955-src.tar.gz"),
        std::path::PathBuf::from,
    );
    if !tarball.exists() {
        return Err(format!(
            "no {}; IREE_SOURCE_TARBALL names IREE's source archive",
            tarball.display()
        ));
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("rocm6-{dir}"));
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let status = Command::new("tar")
        .arg("xzf")
        .arg(&tarball)
        .arg("-C")
        .arg(&out)
        .args(["--wildcards", &format!("*/third_party/{dir}/include/*")])
        .status()
        .map_err(|e| format!("tar: {e}"))?;
    if !status.success() {
        return Err(format!("tar could not unpack {}", tarball.display()));
    }
    let top = std::fs::read_dir(&out)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .map(|entry| entry.path().join(format!("third_party/{dir}/include")))
        .find(|include| include.join(probe).exists());
    top.ok_or_else(|| format!("the archive holds no {dir}"))
}

/// `(struct, field, offset)` of each named field of `hipDeviceProp_tR0600`.
macro_rules! r0600_offsets {
    ($($field:ident),* $(,)?) => {
        vec![$(("hipDeviceProp_tR0600", stringify!($field), offset_of!(hipDeviceProp_tR0600, $field))),*]
    };
}

#[test]
fn rocm6_device_props_match_rocm6_hip_header() {
    // ROCm 6's hipDeviceProp_t, every field, against ROCm 6's own header.
    let what = "the ROCm 6 hipDeviceProp_t check";
    let include = match rocm6_hip_header_dir() {
        Ok(include) => include,
        Err(reason) => {
            skip(what, &reason);
            return;
        }
    };
    let offsets = r0600_offsets!(
        name,
        uuid,
        luid,
        luidDeviceNodeMask,
        totalGlobalMem,
        sharedMemPerBlock,
        regsPerBlock,
        warpSize,
        memPitch,
        maxThreadsPerBlock,
        maxThreadsDim,
        maxGridSize,
        clockRate,
        totalConstMem,
        major,
        minor,
        textureAlignment,
        texturePitchAlignment,
        deviceOverlap,
        multiProcessorCount,
        kernelExecTimeoutEnabled,
        integrated,
        canMapHostMemory,
        computeMode,
        maxTexture1D,
        maxTexture1DMipmap,
        maxTexture1DLinear,
        maxTexture2D,
        maxTexture2DMipmap,
        maxTexture2DLinear,
        maxTexture2DGather,
        maxTexture3D,
        maxTexture3DAlt,
        maxTextureCubemap,
        maxTexture1DLayered,
        maxTexture2DLayered,
        maxTextureCubemapLayered,
        maxSurface1D,
        maxSurface2D,
        maxSurface3D,
        maxSurface1DLayered,
        maxSurface2DLayered,
        maxSurfaceCubemap,
        maxSurfaceCubemapLayered,
        surfaceAlignment,
        concurrentKernels,
        ECCEnabled,
        pciBusID,
        pciDeviceID,
        pciDomainID,
        tccDriver,
        asyncEngineCount,
        unifiedAddressing,
        memoryClockRate,
        memoryBusWidth,
        l2CacheSize,
        persistingL2CacheMaxSize,
        maxThreadsPerMultiProcessor,
        streamPrioritiesSupported,
        globalL1CacheSupported,
        localL1CacheSupported,
        sharedMemPerMultiprocessor,
        regsPerMultiprocessor,
        managedMemory,
        isMultiGpuBoard,
        multiGpuBoardGroupID,
        hostNativeAtomicSupported,
        singleToDoublePrecisionPerfRatio,
        pageableMemoryAccess,
        concurrentManagedAccess,
        computePreemptionSupported,
        canUseHostPointerForRegisteredMem,
        cooperativeLaunch,
        cooperativeMultiDeviceLaunch,
        sharedMemPerBlockOptin,
        pageableMemoryAccessUsesHostPageTables,
        directManagedMemAccessFromHost,
        maxBlocksPerMultiProcessor,
        accessPolicyMaxWindowSize,
        reservedSharedMemPerBlock,
        hostRegisterSupported,
        sparseHipArraySupported,
        hostRegisterReadOnlySupported,
        timelineSemaphoreInteropSupported,
        memoryPoolsSupported,
        gpuDirectRDMASupported,
        gpuDirectRDMAFlushWritesOptions,
        gpuDirectRDMAWritesOrdering,
        memoryPoolSupportedHandleTypes,
        deferredMappingHipArraySupported,
        ipcEventSupported,
        clusterLaunch,
        unifiedFunctionPointers,
        reserved,
        hipReserved,
        gcnArchName,
        maxSharedMemoryPerMultiProcessor,
        clockInstructionRate,
        arch,
        hdpMemFlushCntl,
        hdpRegFlushCntl,
        cooperativeMultiDeviceUnmatchedFunc,
        cooperativeMultiDeviceUnmatchedGridDim,
        cooperativeMultiDeviceUnmatchedBlockDim,
        cooperativeMultiDeviceUnmatchedSharedMem,
        isLargeBar,
        asicRevision
    );
    let sizes = [("hipDeviceProp_tR0600", size_of::<hipDeviceProp_tR0600>())];
    let source = assertions(
        "#define __HIP_PLATFORM_AMD__\n#include <hip/hip_runtime_api.h>\n",
        &[],
        &sizes,
        &offsets,
    );
    let include = include.display().to_string();
    let Some(output) = compile("hip-rocm6.c", &source, &["-I", &include]) else {
        skip(what, "cannot run a C compiler; needs one (CC or cc)");
        return;
    };
    assert!(
        output.status.success(),
        "ROCm 6's hipDeviceProp_t disagrees:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn rocm6_values_match_rocm6_headers() {
    // The attributes ROCm 6's rocminfo reads beyond Debian's 5.2 headers
    // (and every older value again) against ROCm 6's own headers.
    let what = "the ROCm 6 HSA header check";
    let include = match rocm6_header_dir() {
        Ok(include) => include,
        Err(reason) => {
            skip(what, &reason);
            return;
        }
    };
    let values: Vec<(String, i128)> = hsa_values(true)
        .into_iter()
        .map(|(n, v)| (n, i128::from(v)))
        .collect();
    for needed in ROCM6_ONLY {
        assert!(values.iter().any(|(n, _)| n == needed), "{needed}");
    }
    let mut offsets = hsa_offsets();
    offsets.extend(hsa_offsets_rocm6());
    let mut sizes = hsa_sizes();
    sizes.extend([
        (
            "hsa_amd_memory_access_desc_t",
            size_of::<hsa_amd_memory_access_desc_t>(),
        ),
        (
            "hsa_amd_vmem_alloc_handle_t",
            size_of::<hsa_amd_vmem_alloc_handle_t>(),
        ),
        ("hsa_access_permission_t", size_of::<u32>()),
        ("hsa_amd_pointer_type_t", size_of::<u32>()),
        ("hsa_amd_memory_type_t", size_of::<u32>()),
    ]);
    let source = assertions(
        "#include <hsa/hsa.h>\n#include <hsa/hsa_ext_amd.h>\n#include <hsa/hsa_ven_amd_loader.h>\n\
         #include <hsa/amd_hsa_signal.h>\n#include <hsa/amd_hsa_queue.h>\n",
        &values,
        &sizes,
        &offsets,
    );
    let include = include.display().to_string();
    // Its directory first, so its headers win over Debian's.
    let Some(output) = compile("hsa-rocm6.c", &source, &["-I", &include]) else {
        skip(what, "cannot run a C compiler; needs one (CC or cc)");
        return;
    };
    assert!(
        output.status.success(),
        "ROCm 6's HSA headers disagree:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
