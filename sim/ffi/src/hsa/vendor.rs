//! AMD vendor-specific AQL packets (`HSA_PACKET_TYPE_VENDOR_SPECIFIC`), as
//! the GPU's command processor runs them, told apart by the `AmdFormat`
//! byte of `hsa_amd_vendor_packet_header_t` (where other packets have
//! `setup`):
//!
//! - `HSA_AMD_PACKET_TYPE_BARRIER_VALUE` (`hsa_amd_barrier_value_packet_t`):
//!   waits until `(signal's value & mask) cond value` (an `hsa_signal_condition_t`,
//!   signed as `hsa_signal_value_t` is); the zero signal is satisfied. A
//!   signal of this library is read through its atomics, any other handle as
//!   the `amd_signal_t` in memory it names (IREE keeps some of its own).
//! - `AMD_AQL_FORMAT_PM4_IB` (ROCr's PM4-IB packet): the `INDIRECT_BUFFER`
//!   command names a buffer of PM4 packets, read through the memory a
//!   dispatch reads its kernargs from and run in order (`amdgpu_sim::pm4`):
//!   writes and copies to memory, waits on memory, the GPU clock
//!   (`crate::core::clock`), cache operations and partial flushes that have
//!   nothing left to do here, compute register writes into the queue's
//!   register file and `DISPATCH_DIRECT`s launched from it on the
//!   interpreter (`amdgpu_sim`'s `pm4_dispatch`). `dw_cnt_remain` must be
//!   ROCr's 10 and the reserved dwords 0.
//!
//! Reserved fields that are not 0, an unknown `AmdFormat`, a PM4 stream the
//! node refuses (malformed, or doing what it does not model: configuration
//! registers, indirect dispatches, a dispatch from registers nothing
//! wrote) stop the queue with `HSA_STATUS_ERROR_INVALID_PACKET_FORMAT`
//! (ROCr's answer to the KFD's `EC_QUEUE_PACKET_VENDOR_UNSUPPORTED`); memory
//! that is nowhere (the buffer, a source, a destination, a polled word)
//! with `HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION` (its answer to
//! `EC_DEVICE_MEMORY_VIOLATION`), as is a PM4 dispatch's kernel that
//! faults. The packets of a buffer before the one
//! refused have run, as on the command processor.

use std::mem::offset_of;
use std::sync::atomic::Ordering;

use amdgpu_isa::{Memory, OutOfBounds};
use amdgpu_sim::pm4::{self, Command, ComputeRegisters, Source, Width};
use amdgpu_sys::hsa_types::{amd_aql_pm4_ib_packet_t, hsa_amd_barrier_value_packet_t};
use amdgpu_sys::hsa_values::{
    AMD_AQL_FORMAT_PM4_IB, AMD_AQL_PM4_IB_DW_CNT_REMAIN, AMD_PACKET_TYPE_BARRIER_VALUE,
    SignalCondition,
};

use super::packet::{dispatch_status, u32_at, u64_at};
use crate::abi::*;
use crate::core::clock;
use crate::core::host_memory::KnownHostMemory;
use crate::core::queues::{Queue, Slot};
use crate::core::runtime::Runtime;
use crate::core::timeline::{Arg, Track, WorkSpan};

/// How a vendor packet ended.
pub(crate) enum Outcome {
    /// It completed: the processor decrements its completion signal.
    Complete,
    /// The queue was destroyed while the packet waited.
    Stopped,
    /// It failed: the queue stops with this status, said on stderr.
    Failed(hsa_status_t, String),
}

fn malformed(what: String) -> Outcome {
    Outcome::Failed(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, what)
}

fn fault(what: String) -> Outcome {
    Outcome::Failed(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, what)
}

/// Runs the vendor packet in `slot` to its end; `registers` are the
/// queue's compute registers, which PM4 sets and dispatches from.
pub(crate) fn run(
    rt: &Runtime,
    queue: &Queue,
    slot: &Slot,
    registers: &mut ComputeRegisters,
) -> Outcome {
    let setup = slot.setup.load(Ordering::Relaxed);
    let (format, reserved) = (setup as u8, (setup >> 8) as u8);
    if reserved != 0 {
        return malformed(format!(
            "AMD vendor packet: its header's reserved byte is {reserved:#x}"
        ));
    }
    match format {
        AMD_PACKET_TYPE_BARRIER_VALUE => barrier_value(rt, queue, slot),
        AMD_AQL_FORMAT_PM4_IB => pm4_ib(rt, queue, slot, registers),
        other => malformed(format!(
            "AMD vendor packet format {other} is not one the CP runs"
        )),
    }
}

/// The memory vendor packets address: a live signal's value through its
/// atomics, then the node's memory and the host memory HIP knows.
struct PacketMemory<'a>(&'a Runtime);

impl Memory for PacketMemory<'_> {
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        if let Some((signal, at)) = self.0.signals.value_at(address, out.len()) {
            let bytes = signal.load(Ordering::Acquire).to_le_bytes();
            out.copy_from_slice(bytes.get(at..at + out.len()).ok_or(OutOfBounds)?);
            return Ok(());
        }
        let rt = self.0;
        rt.sim
            .packet_read(&mut KnownHostMemory(&rt.host_memory), address, out)
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        if let Some((signal, at)) = self.0.signals.value_at(address, data.len()) {
            signal.update(|v| {
                let mut bytes = v.to_le_bytes();
                if let Some(part) = bytes.get_mut(at..at + data.len()) {
                    part.copy_from_slice(data);
                }
                i64::from_le_bytes(bytes)
            });
            return Ok(());
        }
        let rt = self.0;
        rt.sim
            .packet_write(&mut KnownHostMemory(&rt.host_memory), address, data)
    }
}

/// The value of the signal `handle` names: a live signal's, or the
/// `int64_t` at `value`'s offset of the `amd_signal_t` in memory at
/// `handle`.
fn signal_value(rt: &Runtime, handle: u64) -> Result<i64, Outcome> {
    if let Some(s) = rt.signals.get(handle) {
        return Ok(s.load(Ordering::Acquire));
    }
    let mut bytes = [0u8; 8];
    let at = handle.wrapping_add(offset_of!(amd_signal_t, value) as u64);
    PacketMemory(rt).read(at, &mut bytes).map_err(|_| {
        fault(format!(
            "signal {handle:#x} is no live signal and no amd_signal_t in memory"
        ))
    })?;
    Ok(i64::from_le_bytes(bytes))
}

/// Completes a packet on the completion signal `handle` as the command
/// processor does: first the dispatch's start and end times (`times`,
/// on a profiling queue) into `start_ts`/`end_ts`, then the value
/// decremented — a live signal's atomics, or the `amd_signal_t` in memory
/// at `handle` (IREE keeps its profiling signals in its own memory).
pub(crate) fn complete(
    rt: &Runtime,
    handle: u64,
    times: Option<(u64, u64)>,
) -> Result<(), Outcome> {
    if let Some(s) = rt.signals.get(handle) {
        if let Some((start, end)) = times {
            s.set_times(start, end);
        }
        s.subtract(1);
        return Ok(());
    }
    let unwritable = || fault(format!("completion signal {handle:#x} cannot be written"));
    if let Some((start, end)) = times {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&start.to_le_bytes());
        bytes[8..].copy_from_slice(&end.to_le_bytes());
        let at = handle.wrapping_add(offset_of!(amd_signal_t, start_ts) as u64);
        PacketMemory(rt)
            .write(at, &bytes)
            .map_err(|_| unwritable())?;
    }
    // A read and a write, not one atomic: nothing else decrements such a
    // record, and its owner reads it only after the packet has completed.
    let value = signal_value(rt, handle)?;
    let at = handle.wrapping_add(offset_of!(amd_signal_t, value) as u64);
    PacketMemory(rt)
        .write(at, &value.wrapping_sub(1).to_le_bytes())
        .map_err(|_| unwritable())
}

/// `hsa_amd_barrier_value_packet_t`: waits for its condition.
fn barrier_value(rt: &Runtime, queue: &Queue, slot: &Slot) -> Outcome {
    type B = hsa_amd_barrier_value_packet_t;
    let reserved = [
        u64::from(u32_at(slot, offset_of!(B, reserved0))),
        u64::from(u32_at(slot, offset_of!(B, reserved1))),
        u64_at(slot, offset_of!(B, reserved2)),
        u64_at(slot, offset_of!(B, reserved3)),
    ];
    if reserved.iter().any(|&r| r != 0) {
        return malformed("BARRIER_VALUE packet: a reserved field is not 0".into());
    }
    let cond = u32_at(slot, offset_of!(B, cond));
    let Some(condition) = SignalCondition::from_raw(cond) else {
        return malformed(format!(
            "BARRIER_VALUE packet: condition {cond} is none of hsa_signal_condition_t"
        ));
    };
    let handle = u64_at(slot, offset_of!(B, signal));
    if handle == 0 {
        return Outcome::Complete;
    }
    let value = u64_at(slot, offset_of!(B, value)) as i64;
    let mask = u64_at(slot, offset_of!(B, mask)) as i64;
    rt.signals
        .wait_until(None, || {
            if queue.stopped() {
                return Some(Outcome::Stopped);
            }
            match signal_value(rt, handle) {
                Ok(current) => condition
                    .holds(current & mask, value)
                    .then_some(Outcome::Complete),
                Err(failed) => Some(failed),
            }
        })
        .unwrap_or(Outcome::Stopped)
}

/// ROCr's PM4-IB packet: runs its indirect buffer.
fn pm4_ib(rt: &Runtime, queue: &Queue, slot: &Slot, registers: &mut ComputeRegisters) -> Outcome {
    type P = amd_aql_pm4_ib_packet_t;
    let Some(generation) = queue.pm4 else {
        return malformed("a PM4-IB packet on an agent whose command processor takes none".into());
    };
    let jump: [u32; 4] = std::array::from_fn(|i| u32_at(slot, offset_of!(P, ib_jump_cmd) + 4 * i));
    let remain = u32_at(slot, offset_of!(P, dw_cnt_remain));
    if remain != AMD_AQL_PM4_IB_DW_CNT_REMAIN {
        return malformed(format!(
            "PM4-IB packet: dw_cnt_remain {remain:#x}, not {AMD_AQL_PM4_IB_DW_CNT_REMAIN:#x}"
        ));
    }
    if (0..8).any(|i| u32_at(slot, offset_of!(P, reserved) + 4 * i) != 0) {
        return malformed("PM4-IB packet: a reserved dword is not 0".into());
    }
    let ib = match pm4::indirect_buffer(jump) {
        Ok(ib) => ib,
        Err(e) => return malformed(format!("PM4-IB packet: {e}")),
    };
    // At most MAX_IB_DWORDS (4 MiB), the field's own limit.
    let mut bytes = vec![0u8; ib.dwords as usize * 4];
    if PacketMemory(rt).read(ib.address, &mut bytes).is_err() {
        return fault(format!(
            "PM4-IB packet: its {} dwords at {:#x} are in no memory",
            ib.dwords, ib.address
        ));
    }
    let dwords: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap_or_default()))
        .collect();
    for commands in pm4::packets(&dwords, generation) {
        let commands = match commands {
            Ok(commands) => commands,
            Err(e) => return malformed(format!("PM4-IB at {:#x}: {e}", ib.address)),
        };
        for command in commands {
            if let Err(outcome) = execute(rt, queue, generation, registers, command) {
                return outcome;
            }
        }
    }
    Outcome::Complete
}

fn read_value(rt: &Runtime, address: u64, width: Width) -> Result<u64, OutOfBounds> {
    let mut bytes = [0u8; 8];
    let part = bytes.get_mut(..width.bytes()).ok_or(OutOfBounds)?;
    PacketMemory(rt).read(address, part)?;
    Ok(u64::from_le_bytes(bytes))
}

fn write_value(rt: &Runtime, address: u64, width: Width, value: u64) -> Result<(), OutOfBounds> {
    let bytes = value.to_le_bytes();
    PacketMemory(rt).write(address, bytes.get(..width.bytes()).ok_or(OutOfBounds)?)
}

/// Carries out one PM4 command; `Err` ends the packet.
fn execute(
    rt: &Runtime,
    queue: &Queue,
    generation: pm4::Generation,
    registers: &mut ComputeRegisters,
    command: Command,
) -> Result<(), Outcome> {
    let nowhere =
        |what: &str, address: u64| fault(format!("PM4 {what} at {address:#x}: in no memory"));
    match command {
        Command::Nothing(_) => {}
        Command::Write {
            address,
            data,
            one_address,
        } => {
            for (i, word) in data.iter().enumerate() {
                let at = if one_address {
                    address
                } else {
                    address.wrapping_add(4 * i as u64)
                };
                PacketMemory(rt)
                    .write(at, &word.to_le_bytes())
                    .map_err(|_| nowhere("WRITE_DATA", at))?;
            }
            rt.signals.wake();
        }
        Command::Copy {
            source,
            destination,
            width,
        } => {
            let value = match source {
                Source::Memory(address) => read_value(rt, address, width)
                    .map_err(|_| nowhere("COPY_DATA source", address))?,
                Source::Immediate(value) => value,
                Source::GpuClock => clock::gpu_clock(queue.gpu_clock_hz),
            };
            write_value(rt, destination, width, value)
                .map_err(|_| nowhere("write", destination))?;
            rt.signals.wake();
        }
        Command::Wait {
            address,
            width,
            function,
            reference,
            mask,
        } => {
            let done = rt.signals.wait_until(None, || {
                if queue.stopped() {
                    return Some(Err(Outcome::Stopped));
                }
                match read_value(rt, address, width) {
                    Ok(value) => function.holds(value & mask, reference).then_some(Ok(())),
                    Err(_) => Some(Err(nowhere("WAIT_REG_MEM poll", address))),
                }
            });
            done.unwrap_or(Err(Outcome::Stopped))?;
        }
        Command::Interrupt => rt.signals.wake(),
        Command::SetShRegisters { first, values } => registers.set(first, &values),
        Command::DispatchDirect {
            dimensions,
            initiator,
        } => {
            let launch = registers
                .launch(dimensions, initiator, generation)
                .map_err(|e| malformed(format!("PM4 DISPATCH_DIRECT: {e}")))?;
            let Some(launch) = launch else {
                return Ok(());
            };
            let _slice = WorkSpan::begin(
                rt.timeline,
                Track::Queue(queue.address()),
                "queue",
                || "PM4 dispatch".into(),
                || {
                    vec![
                        ("grid_size", Arg::Dims(launch.grid_size)),
                        ("workgroup_size", Arg::Dims(launch.block)),
                    ]
                },
            );
            let ran = rt
                .sim
                .pm4_dispatch(queue.agent, &launch, &mut KnownHostMemory(&rt.host_memory))
                .map_err(|error| Outcome::Failed(dispatch_status(rt, &error), error.to_string()))?;
            if let Some(timeline) = rt.timeline {
                timeline.name_dispatch(ran);
            }
            rt.signals.wake();
        }
    }
    Ok(())
}
