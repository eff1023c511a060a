//! Kernel dispatch packets from an HSA queue (`hsa_kernel_dispatch_packet_t`)
//! executed on the node: the packet's `kernel_object` must be the kernel
//! descriptor of a kernel loaded on the queue's agent (a kernel symbol's
//! `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT`), its kernarg segment (the
//! descriptor's `kernarg_size` bytes, as the loader read it) is read at `kernarg_address` from the
//! node's memory or the client's host memory, and the grid of work-items
//! runs as HSA defines it, a last partial work-group in a dimension the
//! work-group size does not divide included. The C library's packet
//! processor calls this for each dispatch packet, in queue order, and
//! [`Sim::pm4_dispatch`] for each PM4 `DISPATCH_DIRECT` (the kernel whose
//! code starts where the compute registers say, set up from them alone).

use amdgpu_isa::{
    Dispatch, Fault, FaultKind, Inputs, KernelDescriptor, Memory as KernelMemory, OutOfBounds,
};

use std::sync::Mutex;

use crate::kernel_exec::{DispatchStats, MAX_KERNARG_BYTES};
use crate::kernel_memory::{AgentReach, LockedNodeMemory, SharedNodeMemory};
use crate::node::Sim;
use crate::pm4::ComputeLaunch;
use kernels::{Find, agent_kernel};

mod kernels;

/// A kernel dispatch packet's fields (`hsa.h`'s `hsa_kernel_dispatch_packet_t`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AqlDispatch {
    /// `setup`: dimensions in bits 0-1.
    pub setup: u16,
    /// `workgroup_size_{x,y,z}`.
    pub workgroup_size: [u16; 3],
    /// `grid_size_{x,y,z}` (work-items).
    pub grid_size: [u32; 3],
    /// `private_segment_size` (bytes per work-item).
    pub private_segment_size: u32,
    /// `group_segment_size` (bytes per work-group).
    pub group_segment_size: u32,
    /// `kernel_object`.
    pub kernel_object: u64,
    /// `kernarg_address`.
    pub kernarg_address: u64,
    /// The packet's own address (what the kernel's dispatch pointer reads).
    pub packet_address: u64,
}

/// A dispatch's kernel that ran to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    /// The kernel's name (its symbol's, without `.kd`).
    pub kernel: String,
    /// What it executed.
    pub stats: DispatchStats,
}

/// Why a dispatch packet did not complete: the packet processor reports
/// it to the queue's error callback and stops, as ROCr's queue does when
/// the device reports an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AqlError {
    /// The packet is malformed (dimensions, zero sizes):
    /// `HSA_STATUS_ERROR_INVALID_PACKET_FORMAT`.
    Packet(String),
    /// The kernel object is no kernel loaded on the agent, or the kernel
    /// cannot be read: `HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION`.
    Fault(String),
    /// The kernel ran and faulted (an access outside memory, an injected
    /// fault): `HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION`, as a GPU's
    /// memory fault.
    KernelFault {
        /// The kernel's name.
        kernel: String,
        /// What the interpreter said of the fault.
        reason: String,
    },
    /// The interpreter does not run this kernel (its chip, its code):
    /// `HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION`.
    Unsupported(String),
}

impl AqlError {
    /// A kernel's dispatch that stopped: a fault, or (said the same way)
    /// something only execution shows the interpreter cannot run.
    fn stopped(kernel: &str, fault: &Fault) -> AqlError {
        match fault.kind {
            FaultKind::Device => AqlError::KernelFault {
                kernel: kernel.to_string(),
                reason: fault.to_string(),
            },
            FaultKind::Unsupported => {
                AqlError::Unsupported(format!("kernel `{kernel}` faulted: {fault}"))
            }
        }
    }
}

impl std::fmt::Display for AqlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AqlError::Packet(s) | AqlError::Fault(s) | AqlError::Unsupported(s) => f.write_str(s),
            AqlError::KernelFault { kernel, reason } => {
                write!(f, "kernel `{kernel}` faulted: {reason}")
            }
        }
    }
}

/// Work-items per dimension: at least one work-item and a work-group of
/// at least one in each of the `setup` dimensions (1-3), one in the rest.
fn grid_size(p: &AqlDispatch) -> Result<[u32; 3], AqlError> {
    let dims = usize::from(p.setup & 3);
    if dims == 0 {
        return Err(AqlError::Packet("setup names 0 dimensions".into()));
    }
    let mut grid = [1u32; 3];
    let axes = grid.iter_mut().zip(p.grid_size).zip(p.workgroup_size);
    for (i, ((items, size), wg)) in axes.enumerate() {
        if i >= dims {
            if size > 1 || wg > 1 {
                return Err(AqlError::Packet(format!(
                    "dimension {i} beyond setup's {dims}"
                )));
            }
            continue;
        }
        if size == 0 || wg == 0 {
            return Err(AqlError::Packet(format!(
                "dimension {i}: grid {size}, work-group {wg}"
            )));
        }
        // A size the work-group does not divide ends in a partial
        // work-group (HSA allows it; IREE's blit kernels rely on it).
        *items = size;
    }
    Ok(grid)
}

impl Sim {
    /// Executes one kernel dispatch packet of a queue on `agent` over the
    /// node's memory and `host` (the client's host memory). Counted with
    /// the launches (`kernel_counts`): executed, skipped
    /// (`AMDGPU_SIM_KERNELS=skip`) or faulted. What ran, `None` when
    /// skipped.
    pub fn aql_dispatch(
        &self,
        agent: u64,
        packet: &AqlDispatch,
        host: &mut (dyn KernelMemory + Send),
    ) -> Result<Option<Ran>, AqlError> {
        let grid = grid_size(packet)?;
        let agent_index = self
            .topology
            .agent_index(agent)
            .map_err(|_| AqlError::Fault(format!("{agent:#x} is no agent")))?;
        let object = packet.kernel_object;
        let mut state = self.lock();
        let Some(kernel) = agent_kernel(
            &self.topology,
            &mut state,
            agent_index,
            Find::Descriptor(object),
        )?
        else {
            return Ok(None);
        };
        let pools = self.topology.pools_reached_by(agent_index);
        let reach = AgentReach::new(&state, agent_index, pools);
        let view = state.memory.view();
        drop(state);
        let fault = |what: String| AqlError::Fault(what);
        let name = &kernel.name;
        let kernarg_size = kernel.kernarg_size;
        if kernarg_size > MAX_KERNARG_BYTES {
            return Err(AqlError::Unsupported(format!(
                "kernel `{name}` cannot execute: a {kernarg_size}-byte kernarg segment"
            )));
        }
        let host = Mutex::new(host);
        let mut kernargs = vec![0u8; kernarg_size as usize];
        if kernarg_size > 0 {
            let mut memory = SharedNodeMemory {
                view: &view,
                host: &host,
                agent: Some(&reach),
            };
            memory.read(packet.kernarg_address, &mut kernargs).map_err(|_| {
                fault(format!(
                    "kernel `{name}`: its {kernarg_size} kernarg bytes at {:#x} are in no memory",
                    packet.kernarg_address
                ))
            })?;
        }
        let descriptor = kernel.descriptor;
        let dispatch = Dispatch {
            program: &kernel.program,
            descriptor,
            grid_size: grid,
            block: packet.workgroup_size.map(u32::from),
            dynamic_lds: packet
                .group_segment_size
                .saturating_sub(descriptor.group_segment_fixed_size),
            inputs: Inputs::Packet {
                kernel_object: object,
                kernarg_address: packet.kernarg_address,
                kernargs: &kernargs,
                packet_address: packet.packet_address,
            },
            instruction_limit: amdgpu_isa::MAX_WAVE_INSTRUCTIONS,
        };
        let stats = self
            .run_kernel(name, &dispatch, Some(&reach), view, &host)
            .map_err(|f| AqlError::stopped(name, &f))?;
        Ok(Some(Ran {
            kernel: kernel.name.clone(),
            stats,
        }))
    }

    /// Executes a PM4 `DISPATCH_DIRECT` of a queue on `agent`: the kernel
    /// whose code starts at the launch's entry, set up from the compute
    /// registers alone (resources, user SGPRs, LDS, wave size) as the
    /// command processor sets it up, its arguments read from memory
    /// through the user SGPRs. Counted as [`Sim::aql_dispatch`] counts.
    pub fn pm4_dispatch(
        &self,
        agent: u64,
        launch: &ComputeLaunch,
        host: &mut (dyn KernelMemory + Send),
    ) -> Result<Option<Ran>, AqlError> {
        let agent_index = self
            .topology
            .agent_index(agent)
            .map_err(|_| AqlError::Fault(format!("{agent:#x} is no agent")))?;
        let mut state = self.lock();
        let Some(kernel) = agent_kernel(
            &self.topology,
            &mut state,
            agent_index,
            Find::Entry(launch.entry),
        )?
        else {
            return Ok(None);
        };
        let pools = self.topology.pools_reached_by(agent_index);
        let reach = AgentReach::new(&state, agent_index, pools);
        let view = state.memory.view();
        drop(state);
        let [rsrc1, rsrc2, rsrc3] = launch.resources;
        let descriptor = KernelDescriptor {
            group_segment_fixed_size: launch.lds_bytes,
            private_segment_fixed_size: 0,
            kernel_code_entry_byte_offset: kernel.descriptor.kernel_code_entry_byte_offset,
            compute_pgm_rsrc1: rsrc1,
            compute_pgm_rsrc2: rsrc2,
            compute_pgm_rsrc3: rsrc3,
            // The user SGPRs come from the registers; only the wave size
            // is read from here.
            kernel_code_properties: if launch.wave32 { WAVE32 } else { 0 },
        };
        let dispatch = Dispatch {
            program: &kernel.program,
            descriptor,
            grid_size: launch.grid_size,
            block: launch.block,
            dynamic_lds: 0,
            inputs: Inputs::UserData(&launch.user_data),
            instruction_limit: amdgpu_isa::MAX_WAVE_INSTRUCTIONS,
        };
        let stats = self
            .run_kernel(
                &kernel.name,
                &dispatch,
                Some(&reach),
                view,
                &Mutex::new(host),
            )
            .map_err(|f| AqlError::stopped(&kernel.name, &f))?;
        Ok(Some(Ran {
            kernel: kernel.name,
            stats,
        }))
    }
}

/// `KERNEL_CODE_PROPERTIES.ENABLE_WAVEFRONT_SIZE32`.
const WAVE32: u16 = 1 << 10;

impl Sim {
    /// Reads memory the packet processor addresses (an indirect buffer, a
    /// PM4 command's source or polled word): the node's memory, then
    /// `host`, the way a dispatch reads its kernargs.
    pub fn packet_read(
        &self,
        host: &mut dyn KernelMemory,
        address: u64,
        out: &mut [u8],
    ) -> Result<(), OutOfBounds> {
        self.packet_memory(host, |memory| memory.read(address, out))
    }

    /// Writes memory the packet processor addresses (a PM4 command's
    /// destination), as a kernel's stores reach it.
    pub fn packet_write(
        &self,
        host: &mut dyn KernelMemory,
        address: u64,
        data: &[u8],
    ) -> Result<(), OutOfBounds> {
        self.packet_memory(host, |memory| memory.write(address, data))
    }

    /// `access` over the node's memory and `host` as the command processor
    /// reaches them: not held to an agent's access (only kernels are).
    fn packet_memory<T>(
        &self,
        host: &mut dyn KernelMemory,
        access: impl FnOnce(&mut LockedNodeMemory<'_>) -> T,
    ) -> T {
        let mut state = self.lock();
        access(&mut LockedNodeMemory {
            device: &mut state.memory,
            host,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(setup: u16, wg: [u16; 3], grid: [u32; 3]) -> AqlDispatch {
        AqlDispatch {
            setup,
            workgroup_size: wg,
            grid_size: grid,
            ..AqlDispatch::default()
        }
    }

    #[test]
    fn grids_are_work_items_in_setup_dimensions() {
        assert_eq!(
            grid_size(&packet(1, [64, 1, 1], [256, 1, 1])),
            Ok([256, 1, 1])
        );
        assert_eq!(
            grid_size(&packet(2, [8, 8, 1], [16, 32, 1])),
            Ok([16, 32, 1])
        );
        // A partial last work-group (HSA allows it).
        assert_eq!(
            grid_size(&packet(1, [64, 1, 1], [100, 1, 1])),
            Ok([100, 1, 1])
        );
        assert!(matches!(
            grid_size(&packet(0, [1, 1, 1], [1, 1, 1])),
            Err(AqlError::Packet(_))
        ));
        assert!(matches!(
            grid_size(&packet(1, [64, 2, 1], [64, 2, 1])),
            Err(AqlError::Packet(_))
        ));
        assert!(matches!(
            grid_size(&packet(1, [0, 1, 1], [64, 1, 1])),
            Err(AqlError::Packet(_))
        ));
        assert!(matches!(
            grid_size(&packet(1, [64, 1, 1], [0, 1, 1])),
            Err(AqlError::Packet(_))
        ));
    }

    #[test]
    fn a_kernel_object_nothing_loaded_is_a_fault() {
        let sim = Sim::preset("mi300x-8").expect("preset").expect("valid");
        sim.hsa_init().expect("hsa_init");
        struct NoHost;
        impl KernelMemory for NoHost {
            fn read(&mut self, _: u64, _: &mut [u8]) -> Result<(), OutOfBounds> {
                Err(OutOfBounds)
            }
            fn write(&mut self, _: u64, _: &[u8]) -> Result<(), OutOfBounds> {
                Err(OutOfBounds)
            }
        }
        let p = AqlDispatch {
            kernel_object: crate::loader::code_base(2) + 0x1000,
            ..packet(1, [64, 1, 1], [64, 1, 1])
        };
        let result = sim.aql_dispatch(Sim::agent_handle(2), &p, &mut NoHost);
        assert!(matches!(result, Err(AqlError::Fault(_))), "{result:?}");
        assert_eq!(sim.kernel_counts().executed, 0);
    }
}
