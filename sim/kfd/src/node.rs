//! What the stand-in's answers depend on, taken from the machine the
//! process's simulated node runs: the same `AMDGPU_SIM_MACHINE`, resolved by
//! the same function as the C library's
//! (`amdgpu_sim::presets::machine_from_env`), so the stand-in's GPUs are
//! the ones `hsa_iterate_agents` lists.

use amdgpu_sim::Machine;
use amdgpu_sim::machine::AgentKind;

/// A KFD interface version (`struct kfd_ioctl_get_version_args`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KfdVersion {
    /// `major_version` (`KFD_IOCTL_MAJOR_VERSION`).
    pub major: u32,
    /// `minor_version` (`KFD_IOCTL_MINOR_VERSION`).
    pub minor: u32,
}

/// The KFD of the ROCm 6.3 driver the ROCm 6 presets claim: 1.17, the
/// `KFD_IOCTL_MINOR_VERSION` of the `kfd_ioctl.h` ROCm 6.3's thunk carries
/// (ROCR-Runtime `libhsakmt/include/hsakmt/linux/kfd_ioctl.h`, "1.17 - Add
/// SDMA queue creation with target SDMA engine ID"). ROCr answers
/// `HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED` only from a KFD of 1.12 up and
/// `VIRTUAL_MEM_API_SUPPORTED` only from 1.15 up (`runtime.cpp`), as these
/// presets answer both.
pub const KFD_VERSION_ROCM_6_3: KfdVersion = KfdVersion {
    major: 1,
    minor: 17,
};

/// The KFD of Debian 12's kernel (Linux 6.1, `linux-libc-dev`'s
/// `kfd_ioctl.h`: 1.11), the one Debian's ROCr 5.2.3 runs on: for a machine
/// answering what that ROCr answers (no DMA-buf export, which ROCr derives
/// from a KFD below 1.12, and no virtual-memory API).
pub const KFD_VERSION_LINUX_6_1: KfdVersion = KfdVersion {
    major: 1,
    minor: 11,
};

/// The KFD's system clock counter frequency: its counter is in nanoseconds
/// (`kfd_ioctl_get_clock_counters`: "Since the counter is in nano-seconds
/// we use 1GHz frequency").
pub const SYSTEM_CLOCK_FREQUENCY_HZ: u64 = 1_000_000_000;

/// The KFD facts of one machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KfdNode {
    /// The GPU agents' `HSA_AMD_AGENT_INFO_DRIVER_UID`s: the KFD's
    /// `gpu_id`s, in agent order.
    gpu_ids: Vec<u32>,
    /// What `AMDKFD_IOC_GET_VERSION` answers.
    version: KfdVersion,
    /// Ticks per second of every GPU's clock counter.
    gpu_counter_frequency_hz: u64,
}

impl KfdNode {
    /// The facts of `machine`.
    ///
    /// The version follows the machine's HSA system answers: a machine
    /// whose runtime answers DMA-buf export or the virtual-memory API
    /// supported needs a KFD of 1.15 or later under ROCr, and gets
    /// [`KFD_VERSION_ROCM_6_3`]; any other, [`KFD_VERSION_LINUX_6_1`].
    ///
    /// The GPU counter runs at the node's timestamp frequency
    /// (`HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY`, the machine's resolved
    /// `[hsa]` answers): the simulator reports no other rate
    /// (`HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY` is not answered), so a
    /// client fitting GPU ticks against host time finds the rate the node
    /// reports; the packet processor's PM4 timestamps and profiled dispatch
    /// times are the same counter (`amdgpu_sim::clock`).
    pub fn of(machine: &Machine) -> KfdNode {
        let gpu_ids = machine
            .agents
            .iter()
            .filter(|agent| agent.kind == AgentKind::Gpu)
            .map(|agent| agent.driver_uid)
            .collect();
        let version = if machine.system.dmabuf || machine.system.virtual_memory {
            KFD_VERSION_ROCM_6_3
        } else {
            KFD_VERSION_LINUX_6_1
        };
        KfdNode {
            gpu_ids,
            version,
            gpu_counter_frequency_hz: machine.system.timestamp_frequency,
        }
    }

    /// What `AMDKFD_IOC_GET_VERSION` answers.
    pub fn version(&self) -> KfdVersion {
        self.version
    }

    /// Whether `gpu_id` names one of the machine's GPUs.
    pub fn is_gpu(&self, gpu_id: u32) -> bool {
        self.gpu_ids.contains(&gpu_id)
    }

    /// Ticks per second of every GPU's clock counter.
    pub fn gpu_counter_frequency_hz(&self) -> u64 {
        self.gpu_counter_frequency_hz
    }

    /// The GPU clock counter at `raw_ns` nanoseconds of the host's raw
    /// monotonic clock: a free-running counter at
    /// [`gpu_counter_frequency_hz`](Self::gpu_counter_frequency_hz),
    /// counting since boot on the same unslewed oscillator the KFD's CPU
    /// counter reads (so the two advance in a fixed ratio, as a GPU's
    /// crystal and the host's do over a clock-correlation window), and
    /// never 0 on a booted host.
    pub fn gpu_counter(&self, raw_ns: u64) -> u64 {
        // The one definition the packet processor's timestamps share.
        amdgpu_sim::clock::gpu_clock_at(raw_ns, self.gpu_counter_frequency_hz)
    }
}
