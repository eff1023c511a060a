//! The `repr(C)` HSA types (`hsa.h`, `hsa_ext_amd.h`,
//! `hsa_ven_amd_loader.h`): handles, `hsa_dim3_t`, the link-info struct and
//! the AMD loader's function table, with sizes and offsets asserted at
//! compile time (and against the headers by `tests/headers.rs`).

#![allow(non_camel_case_types)]

use core::ffi::c_void;
use core::mem::offset_of;

use crate::hsa_status::hsa_status_t;
use crate::hsa_values::LinkType;

macro_rules! handles {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name {
            /// The opaque 64-bit handle.
            pub handle: u64,
        }
        const _: () = assert!(size_of::<$name>() == 8 && align_of::<$name>() == 8);
    )*};
}

handles! {
    /// `hsa_agent_t`.
    hsa_agent_t;
    /// `hsa_isa_t`.
    hsa_isa_t;
    /// `hsa_amd_memory_pool_t`.
    hsa_amd_memory_pool_t;
    /// `hsa_code_object_reader_t`.
    hsa_code_object_reader_t;
    /// `hsa_executable_t`.
    hsa_executable_t;
    /// `hsa_executable_symbol_t`.
    hsa_executable_symbol_t;
    /// `hsa_loaded_code_object_t`.
    hsa_loaded_code_object_t;
    /// `hsa_signal_t`.
    hsa_signal_t;
    /// `hsa_region_t`.
    hsa_region_t;
    /// `hsa_cache_t`.
    hsa_cache_t;
    /// `hsa_amd_vmem_alloc_handle_t` (ROCm 6): a physical memory handle of
    /// the virtual-memory API.
    hsa_amd_vmem_alloc_handle_t;
}

/// `hsa_dim3_t`: grid extents.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hsa_dim3_t {
    /// x.
    pub x: u32,
    /// y.
    pub y: u32,
    /// z.
    pub z: u32,
}
const _: () = assert!(size_of::<hsa_dim3_t>() == 12 && align_of::<hsa_dim3_t>() == 4);

/// `hsa_amd_memory_pool_link_info_t` as ROCm ≥ 3.x lays it out (28 bytes:
/// `link_type` learnt XGMI and `numa_distance` was appended; older headers
/// had a 24-byte struct). The byte after `coherent_support` is padding.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hsa_amd_memory_pool_link_info_t {
    /// Minimum latency (ns).
    pub min_latency: u32,
    /// Maximum latency (ns).
    pub max_latency: u32,
    /// Minimum bandwidth (MB/s).
    pub min_bandwidth: u32,
    /// Maximum bandwidth (MB/s).
    pub max_bandwidth: u32,
    /// 32-bit atomics across the link.
    pub atomic_support_32bit: bool,
    /// 64-bit atomics across the link.
    pub atomic_support_64bit: bool,
    /// Cache-coherent link.
    pub coherent_support: bool,
    /// `hsa_amd_link_info_type_t`.
    pub link_type: u32,
    /// NUMA distance of the hop.
    pub numa_distance: u32,
}

impl hsa_amd_memory_pool_link_info_t {
    /// [`Self::link_type`] as its enum.
    pub const fn link_type(&self) -> LinkType {
        LinkType::from_raw(self.link_type)
    }
}

/// `sizeof(hsa_amd_memory_pool_link_info_t)`.
pub const LINK_INFO_SIZE: usize = 28;

const _: () = {
    type L = hsa_amd_memory_pool_link_info_t;
    assert!(size_of::<L>() == LINK_INFO_SIZE && align_of::<L>() == 4);
    assert!(offset_of!(L, min_latency) == 0);
    assert!(offset_of!(L, max_latency) == 4);
    assert!(offset_of!(L, min_bandwidth) == 8);
    assert!(offset_of!(L, max_bandwidth) == 12);
    assert!(offset_of!(L, atomic_support_32bit) == 16);
    assert!(offset_of!(L, atomic_support_64bit) == 17);
    assert!(offset_of!(L, coherent_support) == 18);
    assert!(offset_of!(L, link_type) == 20);
    assert!(offset_of!(L, numa_distance) == 24);
};

/// Stride a reader reserves per link hop when reading
/// `HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO`: the runtime writes `hops *
/// sizeof(its struct)`, so the buffer leaves room for a struct that grows
/// again; entries are read at the 28-byte stride every ROCm since 3.x uses.
pub const LINK_INFO_RESERVED_STRIDE: usize = 64;

/// `HSA_EXTENSION_AMD_LOADER`: the extension id of the AMD loader table
/// (`hsa_system_get_major_extension_table`; no `hsa_ven_amd_loader_*`
/// symbol is exported).
pub const HSA_EXTENSION_AMD_LOADER: u16 = 0x201;

/// The loader extension's newest minor version (1.03) these types describe.
pub const AMD_LOADER_MINOR: u16 = 3;

/// The iteration callbacks' shape: `hsa_status_t (*)(T, void*)`.
pub type IterateCallback<T> = extern "C" fn(T, *mut c_void) -> hsa_status_t;

/// `hsa_ven_amd_loader_executable_iterate_loaded_code_objects`'s callback.
pub type LoadedCodeObjectCallback =
    extern "C" fn(hsa_executable_t, hsa_loaded_code_object_t, *mut c_void) -> hsa_status_t;

/// `hsa_ven_amd_loader_1_03_pfn_t`: versions 1.00–1.03 append pointers, so
/// the 1.03 struct read with a shorter length leaves the newer ones `None`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct hsa_ven_amd_loader_1_03_pfn_t {
    /// `hsa_ven_amd_loader_query_host_address` (1.00).
    pub query_host_address:
        Option<unsafe extern "C" fn(*const c_void, *mut *const c_void) -> hsa_status_t>,
    /// `hsa_ven_amd_loader_query_segment_descriptors` (1.00).
    pub query_segment_descriptors:
        Option<unsafe extern "C" fn(*mut c_void, *mut usize) -> hsa_status_t>,
    /// `hsa_ven_amd_loader_query_executable` (1.00).
    pub query_executable:
        Option<unsafe extern "C" fn(*const c_void, *mut hsa_executable_t) -> hsa_status_t>,
    /// `hsa_ven_amd_loader_executable_iterate_loaded_code_objects` (1.01).
    pub executable_iterate_loaded_code_objects: Option<
        unsafe extern "C" fn(
            hsa_executable_t,
            Option<LoadedCodeObjectCallback>,
            *mut c_void,
        ) -> hsa_status_t,
    >,
    /// `hsa_ven_amd_loader_loaded_code_object_get_info` (1.01).
    pub loaded_code_object_get_info:
        Option<unsafe extern "C" fn(hsa_loaded_code_object_t, u32, *mut c_void) -> hsa_status_t>,
    /// `hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size` (1.02).
    pub code_object_reader_create_from_file_with_offset_size: Option<
        unsafe extern "C" fn(i32, usize, usize, *mut hsa_code_object_reader_t) -> hsa_status_t,
    >,
    /// `hsa_ven_amd_loader_iterate_executables` (1.03).
    pub iterate_executables: Option<
        unsafe extern "C" fn(
            Option<extern "C" fn(hsa_executable_t, *mut c_void) -> hsa_status_t>,
            *mut c_void,
        ) -> hsa_status_t,
    >,
}

/// Bytes of the loader table per minor version (1.00 .. 1.03), from the
/// headers' `sizeof`.
pub const LOADER_TABLE_SIZES: [usize; 4] = [24, 40, 48, 56];

const _: () = {
    type T = hsa_ven_amd_loader_1_03_pfn_t;
    assert!(size_of::<T>() == LOADER_TABLE_SIZES[3]);
    assert!(offset_of!(T, executable_iterate_loaded_code_objects) == LOADER_TABLE_SIZES[0]);
    assert!(
        offset_of!(T, code_object_reader_create_from_file_with_offset_size)
            == LOADER_TABLE_SIZES[1]
    );
    assert!(offset_of!(T, iterate_executables) == LOADER_TABLE_SIZES[2]);
};

/// `amd_signal_t` (ROCr's `amd_hsa_signal.h`): the memory an `hsa_signal_t`
/// handle points at. Clients read `value` directly (IREE's AMDGPU driver
/// loads it with an acquire atomic), so a runtime's signals must be this
/// struct, 64-byte aligned. The header's first union is `value` /
/// `hardware_doorbell_ptr` (a doorbell signal's kind is
/// [`AMD_SIGNAL_KIND_DOORBELL`](crate::hsa_values::AMD_SIGNAL_KIND_DOORBELL)),
/// the second `queue_ptr` / `reserved2`.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct amd_signal_t {
    /// `amd_signal_kind64_t kind`.
    pub kind: i64,
    /// `volatile int64_t value` (or `hardware_doorbell_ptr`).
    pub value: i64,
    /// `uint64_t event_mailbox_ptr`.
    pub event_mailbox_ptr: u64,
    /// `uint32_t event_id`.
    pub event_id: u32,
    /// `uint32_t reserved1`.
    pub reserved1: u32,
    /// `uint64_t start_ts`.
    pub start_ts: u64,
    /// `uint64_t end_ts`.
    pub end_ts: u64,
    /// `amd_queue_t* queue_ptr` (or `uint64_t reserved2`).
    pub queue_ptr: u64,
    /// `uint32_t reserved3[2]`.
    pub reserved3: [u32; 2],
}

/// `AMD_SIGNAL_ALIGN_BYTES`.
pub const AMD_SIGNAL_ALIGN_BYTES: usize = 64;

const _: () = {
    type S = amd_signal_t;
    assert!(size_of::<S>() == 64 && align_of::<S>() == AMD_SIGNAL_ALIGN_BYTES);
    assert!(offset_of!(S, kind) == 0);
    assert!(offset_of!(S, value) == 8);
    assert!(offset_of!(S, event_mailbox_ptr) == 16);
    assert!(offset_of!(S, event_id) == 24);
    assert!(offset_of!(S, reserved1) == 28);
    assert!(offset_of!(S, start_ts) == 32);
    assert!(offset_of!(S, end_ts) == 40);
    assert!(offset_of!(S, queue_ptr) == 48);
    assert!(offset_of!(S, reserved3) == 56);
};

/// `hsa_queue_t` (`hsa.h`): the user-visible part of a queue, the first
/// member of ROCr's [`amd_queue_t`]. `base_address` is a `void*` (hosts
/// are 64-bit: asserted below).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hsa_queue_t {
    /// `hsa_queue_type32_t type`.
    pub type_: u32,
    /// `uint32_t features` (`hsa_queue_feature_t` bits).
    pub features: u32,
    /// `void* base_address`: the ring of `size` 64-byte AQL packets.
    pub base_address: u64,
    /// `hsa_signal_t doorbell_signal`.
    pub doorbell_signal: hsa_signal_t,
    /// `uint32_t size`: packets, a power of two.
    pub size: u32,
    /// `uint32_t reserved1`.
    pub reserved1: u32,
    /// `uint64_t id`.
    pub id: u64,
}

const _: () = {
    type Q = hsa_queue_t;
    assert!(size_of::<usize>() == 8);
    assert!(size_of::<Q>() == 40 && align_of::<Q>() == 8);
    assert!(offset_of!(Q, type_) == 0);
    assert!(offset_of!(Q, features) == 4);
    assert!(offset_of!(Q, base_address) == 8);
    assert!(offset_of!(Q, doorbell_signal) == 16);
    assert!(offset_of!(Q, size) == 24);
    assert!(offset_of!(Q, reserved1) == 28);
    assert!(offset_of!(Q, id) == 32);
};

/// `amd_queue_t` (ROCr's `amd_hsa_queue.h`, as ROCm 6 and IREE's vendored
/// headers define it): what an `hsa_queue_t*` from `hsa_queue_create`
/// points into. Clients advance `write_dispatch_id` and read
/// `read_dispatch_id` with their own atomics (IREE's AMDGPU driver does).
/// ROCm 5.2's header names `caps`/`reserved1` `reserved1[4]` and
/// `reserved3` `scratch_backing_memory_byte_size`; every other offset is
/// the same.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct amd_queue_t {
    /// `hsa_queue_t hsa_queue`.
    pub hsa_queue: hsa_queue_t,
    /// `uint32_t caps` (`amd_queue_capabilities32_t`).
    pub caps: u32,
    /// `uint32_t reserved1[3]`.
    pub reserved1: [u32; 3],
    /// `volatile uint64_t write_dispatch_id`.
    pub write_dispatch_id: u64,
    /// `uint32_t group_segment_aperture_base_hi`.
    pub group_segment_aperture_base_hi: u32,
    /// `uint32_t private_segment_aperture_base_hi`.
    pub private_segment_aperture_base_hi: u32,
    /// `uint32_t max_cu_id`.
    pub max_cu_id: u32,
    /// `uint32_t max_wave_id`.
    pub max_wave_id: u32,
    /// `volatile uint64_t max_legacy_doorbell_dispatch_id_plus_1`.
    pub max_legacy_doorbell_dispatch_id_plus_1: u64,
    /// `volatile uint32_t legacy_doorbell_lock`.
    pub legacy_doorbell_lock: u32,
    /// `uint32_t reserved2[9]`.
    pub reserved2: [u32; 9],
    /// `volatile uint64_t read_dispatch_id`.
    pub read_dispatch_id: u64,
    /// `uint32_t read_dispatch_id_field_base_byte_offset`.
    pub read_dispatch_id_field_base_byte_offset: u32,
    /// `uint32_t compute_tmpring_size`.
    pub compute_tmpring_size: u32,
    /// `uint32_t scratch_resource_descriptor[4]`.
    pub scratch_resource_descriptor: [u32; 4],
    /// `uint64_t scratch_backing_memory_location`.
    pub scratch_backing_memory_location: u64,
    /// `uint32_t reserved3[2]`.
    pub reserved3: [u32; 2],
    /// `uint32_t scratch_wave64_lane_byte_size`.
    pub scratch_wave64_lane_byte_size: u32,
    /// `amd_queue_properties32_t queue_properties`.
    pub queue_properties: u32,
    /// `uint32_t reserved4[2]`.
    pub reserved4: [u32; 2],
    /// `hsa_signal_t queue_inactive_signal`.
    pub queue_inactive_signal: hsa_signal_t,
    /// `uint32_t reserved5[14]`.
    pub reserved5: [u32; 14],
}

/// `AMD_QUEUE_ALIGN_BYTES`.
pub const AMD_QUEUE_ALIGN_BYTES: usize = 64;

const _: () = {
    type A = amd_queue_t;
    assert!(size_of::<A>() == 256 && align_of::<A>() == AMD_QUEUE_ALIGN_BYTES);
    assert!(offset_of!(A, hsa_queue) == 0);
    assert!(offset_of!(A, caps) == 40);
    assert!(offset_of!(A, reserved1) == 44);
    assert!(offset_of!(A, write_dispatch_id) == 56);
    assert!(offset_of!(A, group_segment_aperture_base_hi) == 64);
    assert!(offset_of!(A, private_segment_aperture_base_hi) == 68);
    assert!(offset_of!(A, max_cu_id) == 72);
    assert!(offset_of!(A, max_wave_id) == 76);
    assert!(offset_of!(A, max_legacy_doorbell_dispatch_id_plus_1) == 80);
    assert!(offset_of!(A, legacy_doorbell_lock) == 88);
    assert!(offset_of!(A, reserved2) == 92);
    assert!(offset_of!(A, read_dispatch_id) == 128);
    assert!(offset_of!(A, read_dispatch_id_field_base_byte_offset) == 136);
    assert!(offset_of!(A, compute_tmpring_size) == 140);
    assert!(offset_of!(A, scratch_resource_descriptor) == 144);
    assert!(offset_of!(A, scratch_backing_memory_location) == 160);
    assert!(offset_of!(A, reserved3) == 168);
    assert!(offset_of!(A, scratch_wave64_lane_byte_size) == 176);
    assert!(offset_of!(A, queue_properties) == 180);
    assert!(offset_of!(A, reserved4) == 184);
    assert!(offset_of!(A, queue_inactive_signal) == 192);
    assert!(offset_of!(A, reserved5) == 200);
};

/// `hsa_amd_pointer_info_t` (`hsa_ext_amd.h`): what
/// `hsa_amd_pointer_info` answers about an address. The caller sets `size`
/// to the bytes it has room for; the runtime fills at most that much.
/// ROCm 6 adds `registered`, inside the padding of 5.2's layout (both are
/// 56 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hsa_amd_pointer_info_t {
    /// `uint32_t size`.
    pub size: u32,
    /// `hsa_amd_pointer_type_t type`
    /// ([`POINTER_TYPE_UNKNOWN`](crate::hsa_values::POINTER_TYPE_UNKNOWN), ...).
    pub type_: u32,
    /// `void* agentBaseAddress`.
    pub agent_base_address: u64,
    /// `void* hostBaseAddress`.
    pub host_base_address: u64,
    /// `size_t sizeInBytes`.
    pub size_in_bytes: u64,
    /// `void* userData`.
    pub user_data: u64,
    /// `hsa_agent_t agentOwner`.
    pub agent_owner: hsa_agent_t,
    /// `uint32_t global_flags` (`hsa_amd_memory_pool_global_flag_t` bits).
    pub global_flags: u32,
    /// `bool registered` (ROCm 6).
    pub registered: bool,
}

const _: () = {
    type P = hsa_amd_pointer_info_t;
    assert!(size_of::<P>() == 56 && align_of::<P>() == 8);
    assert!(offset_of!(P, size) == 0);
    assert!(offset_of!(P, type_) == 4);
    assert!(offset_of!(P, agent_base_address) == 8);
    assert!(offset_of!(P, host_base_address) == 16);
    assert!(offset_of!(P, size_in_bytes) == 24);
    assert!(offset_of!(P, user_data) == 32);
    assert!(offset_of!(P, agent_owner) == 40);
    assert!(offset_of!(P, global_flags) == 48);
    assert!(offset_of!(P, registered) == 52);
};

/// `hsa_amd_memory_access_desc_t` (ROCm 6's `hsa_ext_amd.h`): one agent's
/// permission for `hsa_amd_vmem_set_access`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hsa_amd_memory_access_desc_t {
    /// `hsa_access_permission_t permissions`
    /// ([`ACCESS_PERMISSION_RW`](crate::hsa_values::ACCESS_PERMISSION_RW), ...).
    pub permissions: u32,
    /// `hsa_agent_t agent_handle`.
    pub agent_handle: hsa_agent_t,
}

const _: () = {
    type D = hsa_amd_memory_access_desc_t;
    assert!(size_of::<D>() == 16 && align_of::<D>() == 8);
    assert!(offset_of!(D, permissions) == 0);
    assert!(offset_of!(D, agent_handle) == 8);
};

/// `hsa_amd_vendor_packet_header_t` (`hsa_ext_amd.h`): the first 4 bytes of
/// an AMD vendor-specific AQL packet — the AQL header (type
/// `HSA_PACKET_TYPE_VENDOR_SPECIFIC`), then the AMD format where other
/// packets have `setup`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hsa_amd_vendor_packet_header_t {
    /// `uint16_t header`.
    pub header: u16,
    /// `hsa_amd_packet_type8_t AmdFormat`.
    pub amd_format: u8,
    /// `uint8_t reserved` (must be 0).
    pub reserved: u8,
}

const _: () = {
    type H = hsa_amd_vendor_packet_header_t;
    assert!(size_of::<H>() == 4 && align_of::<H>() == 2);
    assert!(offset_of!(H, amd_format) == 2);
    assert!(offset_of!(H, reserved) == 3);
};

/// `hsa_amd_barrier_value_packet_t` (`hsa_ext_amd.h`): the packet processor
/// waits until `(signal's value & mask) cond value`, then completes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct hsa_amd_barrier_value_packet_t {
    /// `hsa_amd_vendor_packet_header_t header`.
    pub header: hsa_amd_vendor_packet_header_t,
    /// `uint32_t reserved0` (must be 0).
    pub reserved0: u32,
    /// `hsa_signal_t signal` (0: a satisfied dependency).
    pub signal: hsa_signal_t,
    /// `hsa_signal_value_t value`.
    pub value: i64,
    /// `hsa_signal_value_t mask`.
    pub mask: i64,
    /// `hsa_signal_condition32_t cond`.
    pub cond: u32,
    /// `uint32_t reserved1` (must be 0).
    pub reserved1: u32,
    /// `uint64_t reserved2` (must be 0).
    pub reserved2: u64,
    /// `uint64_t reserved3` (must be 0).
    pub reserved3: u64,
    /// `hsa_signal_t completion_signal`.
    pub completion_signal: hsa_signal_t,
}

const _: () = {
    type B = hsa_amd_barrier_value_packet_t;
    assert!(size_of::<B>() == 64 && align_of::<B>() == 8);
    assert!(offset_of!(B, reserved0) == 4);
    assert!(offset_of!(B, signal) == 8);
    assert!(offset_of!(B, value) == 16);
    assert!(offset_of!(B, mask) == 24);
    assert!(offset_of!(B, cond) == 32);
    assert!(offset_of!(B, reserved1) == 36);
    assert!(offset_of!(B, reserved2) == 40);
    assert!(offset_of!(B, reserved3) == 48);
    assert!(offset_of!(B, completion_signal) == 56);
};

/// ROCr's PM4 indirect-buffer AQL packet (`struct amd_aql_pm4_ib` in
/// `amd_aql_queue.cpp`'s `AqlQueue::ExecutePM4`, IREE's
/// `iree_hsa_amd_aql_pm4_ib_packet_t`): a vendor header with format
/// [`AMD_AQL_FORMAT_PM4_IB`](crate::hsa_values::AMD_AQL_FORMAT_PM4_IB), a
/// PM4 `INDIRECT_BUFFER` command the command processor runs, the dwords it
/// then skips, and a completion signal at the offset every AQL packet has it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct amd_aql_pm4_ib_packet_t {
    /// The vendor header (`uint16_t header; uint16_t ven_hdr` in ROCr).
    pub header: hsa_amd_vendor_packet_header_t,
    /// `uint32_t ib_jump_cmd[4]`: the PM4 `INDIRECT_BUFFER` packet.
    pub ib_jump_cmd: [u32; 4],
    /// `uint32_t dw_cnt_remain`.
    pub dw_cnt_remain: u32,
    /// `uint32_t reserved[8]`.
    pub reserved: [u32; 8],
    /// `hsa_signal_t completion_signal`.
    pub completion_signal: hsa_signal_t,
}

const _: () = {
    type P = amd_aql_pm4_ib_packet_t;
    assert!(size_of::<P>() == 64 && align_of::<P>() == 8);
    assert!(offset_of!(P, ib_jump_cmd) == 4);
    assert!(offset_of!(P, dw_cnt_remain) == 20);
    assert!(offset_of!(P, reserved) == 24);
    assert!(offset_of!(P, completion_signal) == 56);
};
