//! What the packet processor reads from a packet slot and answers for a
//! failed dispatch: the fields of a 64-byte AQL packet, and the status a
//! kernel dispatch's failure stops its queue with.

use std::sync::atomic::Ordering;

use amdgpu_sim::aql::AqlError;

use crate::abi::*;
use crate::core::queues::Slot;
use crate::core::runtime::Runtime;
use crate::device_fault;

/// The `uint64_t` at byte `offset` (8-aligned, past the header and setup
/// words) of a packet.
pub(crate) fn u64_at(slot: &Slot, offset: usize) -> u64 {
    let i = (offset - 4) / 4;
    let word = |i: usize| slot.body.get(i).map_or(0, |w| w.load(Ordering::Relaxed));
    u64::from(word(i)) | (u64::from(word(i + 1)) << 32)
}

/// The `uint32_t` at byte `offset` (4-aligned, past the header).
pub(crate) fn u32_at(slot: &Slot, offset: usize) -> u32 {
    slot.body
        .get((offset - 4) / 4)
        .map_or(0, |w| w.load(Ordering::Relaxed))
}

/// The status a failed kernel dispatch stops its queue with; a kernel's
/// fault, or a kernel the interpreter cannot run, first aborts the process
/// unless `AMDGPU_SIM_ON_FAULT=report` (`crate::device_fault`).
pub(crate) fn dispatch_status(rt: &Runtime, error: &AqlError) -> hsa_status_t {
    match error {
        AqlError::Packet(_) => HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
        AqlError::Fault(_) => HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION,
        AqlError::KernelFault { kernel, .. } => {
            device_fault::kernel_faulted(rt, kernel, Some(&error.to_string()));
            HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
        }
        AqlError::Unsupported(_) => {
            device_fault::kernel_unrunnable(rt, Some(&error.to_string()));
            HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION
        }
    }
}
