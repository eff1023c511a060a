//! The node's mutable state, one sub-state per concept, each owning its
//! rules (the modules below): what `Sim` holds behind its one lock. Calls
//! lock it, hand each sub-state what else it needs (the topology, the
//! memory, the serial counter), and release it. The sub-states import
//! nothing above them: the public modules of the same names hold the
//! calls and re-export the types callers see.

use crate::handles::Serials;
use crate::kernel_exec::Kernels;
use crate::memory::{ByteStore, ImageUsage, Memory};
use calls::Calls;
use hip_devices::HipDevices;
use hip_memory::HipMemory;
use hip_module::Modules;
use hsa_memory::HsaMemory;
use loader::Loader;
use vmem::VirtualMemory;

pub(crate) mod calls;
pub(crate) mod code_windows;
pub(crate) mod hip_devices;
pub(crate) mod hip_memory;
pub(crate) mod hip_module;
pub(crate) mod hsa_memory;
pub(crate) mod loader;
pub(crate) mod vmem;

/// Objects the simulator has handed out and not yet taken back, and the
/// runtime state calls leave behind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveObjects {
    /// Memory-pool allocations.
    pub allocations: u64,
    /// Bytes they reserve.
    pub allocated_bytes: u64,
    /// Code-object readers.
    pub readers: u64,
    /// Executables.
    pub executables: u64,
    /// HIP primary-context retains not yet released.
    pub hip_contexts: u64,
    /// HIP memory pools (a destroyed pool lives until its allocations are freed).
    pub hip_pools: u64,
    /// Loaded HIP modules.
    pub hip_modules: u64,
    /// `hsa_init` references not yet dropped by `hsa_shut_down`.
    pub hsa_init_refs: u32,
    /// HIP peer-access grants (current device → peer) enabled so far:
    /// process-wide state with no object to release (IREE enables peers and
    /// never disables them).
    pub hip_peer_access: u64,
    /// The HIP current device (`hipSetDevice`; 0 before any call).
    pub hip_current_device: i32,
    /// Virtual-memory reservations (`hsa_amd_vmem_address_reserve`).
    pub vmem_reservations: u64,
    /// Virtual-memory physical handles (`hsa_amd_vmem_handle_create`).
    pub vmem_handles: u64,
    /// Virtual-memory mappings (`hsa_amd_vmem_map`).
    pub vmem_mappings: u64,
}

impl LiveObjects {
    /// True when no object is live (no allocation, reader, executable, HIP
    /// context retain, pool or module leaked). Runtime state (init
    /// references, HIP peer access and current device) is not an object:
    /// compare those fields where they matter.
    pub fn is_empty(&self) -> bool {
        self.allocations == 0
            && self.allocated_bytes == 0
            && self.readers == 0
            && self.executables == 0
            && self.hip_contexts == 0
            && self.hip_pools == 0
            && self.hip_modules == 0
            && self.vmem_reservations == 0
            && self.vmem_handles == 0
            && self.vmem_mappings == 0
    }
}

/// Everything calls change.
pub(crate) struct State {
    /// Call counts, faults, init references, the call log.
    pub(crate) calls: Calls,
    /// The serial counter every handle's serial comes from.
    pub(crate) serials: Serials,
    /// Allocations, images and mappings, and their bytes.
    pub(crate) memory: Memory,
    /// Readers, executables, loads, code windows.
    pub(crate) loader: Loader,
    /// HSA's access grants.
    pub(crate) hsa_memory: HsaMemory,
    /// Reservations and physical handles.
    pub(crate) vmem: VirtualMemory,
    /// HIP's current device and peer access.
    pub(crate) hip_devices: HipDevices,
    /// HIP's contexts, allocations and pools.
    pub(crate) hip_memory: HipMemory,
    /// HIP modules, functions and the launch log.
    pub(crate) modules: Modules,
    /// Kernel mode, counts and injected kernel faults.
    pub(crate) kernels: Kernels,
}

impl State {
    /// A fresh node of `agents` agents and `pools` pools whose memory's
    /// bytes `store` holds.
    pub(crate) fn new(agents: usize, pools: usize, store: Box<dyn ByteStore>) -> State {
        State {
            calls: Calls::default(),
            serials: Serials::default(),
            memory: Memory::with_store(pools, store),
            loader: Loader::new(agents),
            hsa_memory: HsaMemory::default(),
            vmem: VirtualMemory::default(),
            hip_devices: HipDevices::default(),
            hip_memory: HipMemory::default(),
            modules: Modules::default(),
            kernels: Kernels::default(),
        }
    }

    /// Objects live right now, on a node of `pools` pools.
    pub(crate) fn live_objects(&self, pools: usize) -> LiveObjects {
        let (allocations, allocated_bytes) = (0..pools).fold((0, 0), |(n, bytes), pool| {
            let usage = self.memory.usage(pool);
            (n + usage.allocations, bytes + usage.reserved_bytes)
        });
        LiveObjects {
            allocations,
            allocated_bytes,
            readers: self.loader.reader_count(),
            executables: self.loader.executable_count(),
            hip_contexts: self.hip_memory.context_retains(),
            hip_pools: self.hip_memory.live_pools(),
            hip_modules: self.modules.live(),
            hsa_init_refs: self.calls.init_refs(),
            hip_peer_access: self.hip_devices.peer_grants(),
            hip_current_device: self.hip_devices.current(),
            vmem_reservations: self.vmem.reservation_count(),
            vmem_handles: self.vmem.handle_count(),
            vmem_mappings: self.memory.mapping_count(),
        }
    }

    /// What the mapped code-object images hold, with the mappings no
    /// loaded code object or HIP module owns.
    pub(crate) fn image_usage(&self) -> ImageUsage {
        let owned: std::collections::BTreeSet<u64> = self
            .loader
            .image_bases()
            .chain(self.modules.image_bases())
            .collect();
        ImageUsage {
            unowned_mappings: self
                .memory
                .image_bases()
                .filter(|base| !owned.contains(base))
                .count() as u64,
            ..self.memory.image_usage()
        }
    }
}
