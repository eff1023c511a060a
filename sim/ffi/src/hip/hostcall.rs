//! The hostcall buffer a HIP launch's kernel reaches through its
//! `hidden_hostcall_buffer` argument (`amdgpu_sim::kernel_exec::
//! HOSTCALL_BUFFER_ADDRESS`), and the host's side of the protocol: how
//! device-side `printf` reaches the host in ROCm 5 and in clang's HIP
//! default (ROCm-Device-Libs' `ockl/src/hostcall_impl.cl` and
//! `services.cl`, ROCclr's `devhostcall.cpp`).
//!
//! A wave takes a packet from the buffer's free stack, writes its
//! service and each active lane's eight arguments, pushes the packet on
//! the ready stack, adds 1 to the doorbell signal and spins until the
//! host clears the packet's ready flag, then reads its lanes' results.
//! ROCm answers from a listener thread woken by the doorbell. Here the
//! host answers *inside the doorbell's atomic add*: the buffer is memory
//! this wrapper serves itself (never the client's), and when a kernel's
//! atomic reaches the doorbell's value the ready stack is served before
//! the atomic returns. The wave's first look at its ready flag finds it
//! clear, so a kernel's instruction counts and output do not depend on
//! thread timing, and no thread is started.
//!
//! The one service served is `printf` (2): each lane's message (a stream
//! of 64-bit words over one or more hostcalls: a version word, the format
//! string, then the arguments) is formatted when it ends
//! (`super::device_printf`) and the text is kept until the kernel ends,
//! when [`Hostcalls::print`] writes it to the program's `stdout`.
//! Another service, a malformed message or a broken stack makes the
//! doorbell's atomic a fault (said on stderr): the kernel faults.

use std::collections::BTreeMap;

use amdgpu_isa::{Access, Memory, OutOfBounds};
use amdgpu_sim::kernel_exec::HOSTCALL_BUFFER_ADDRESS;

use super::device_printf;

/// Packets in the buffer: at least as many as waves that can hold one at
/// once (a wave holds one from its push to its answer, which is immediate
/// here; a work-group has at most 32 waves, on each kernel thread).
pub(crate) const PACKETS: u64 = 1 << INDEX_BITS;
/// Bits of a packet pointer that index the packet (the rest is the ABA tag).
const INDEX_BITS: u32 = 8;
/// Lanes in a packet's payload (a wave64's; a wave32 uses the first 32).
const LANES: u64 = 64;
/// Words a lane's slot holds.
const SLOT_WORDS: usize = 8;

// The buffer's layout: `buffer_t` at 0, the doorbell signal (an
// `amd_signal_t`) after it, then the headers and the payloads.
const HEADERS_FIELD: u64 = 0;
const PAYLOADS_FIELD: u64 = 8;
const DOORBELL_FIELD: u64 = 16;
const FREE_STACK: u64 = 24;
const READY_STACK: u64 = 32;
/// `index_mask` (ROCm's device libraries: a pointer's index bits).
const INDEX_MASK_FIELD: u64 = 40;
const DOORBELL: u64 = 64;
/// `amd_signal_t.value`: the doorbell's atomic add lands here.
const DOORBELL_VALUE: u64 = DOORBELL + 8;
const HEADERS: u64 = 128;
/// `header_t`: `next`, `activemask`, `service`, `control`.
const HEADER_BYTES: u64 = 24;
const PAYLOADS: u64 = 8192;
/// `payload_t`: 64 slots of eight words.
const PAYLOAD_BYTES: u64 = LANES * SLOT_WORDS as u64 * 8;
/// The buffer's bytes.
pub(crate) const BUFFER_BYTES: u64 = PAYLOADS + PACKETS * PAYLOAD_BYTES;

/// `SERVICE_PRINTF` (ROCm-Device-Libs' `services.cl`).
const SERVICE_PRINTF: u32 = 2;
/// Most words one message may grow to (a `printf` of a 500 KiB string).
pub(crate) const MAX_MESSAGE_WORDS: usize = 1 << 16;
/// Most messages open at once (begun, not yet ended): one per lane of
/// every wave that can be inside a `printf`.
pub(crate) const MAX_OPEN_MESSAGES: usize = 1 << 14;
/// Most formatted bytes kept before they are written out early.
pub(crate) const MAX_KEPT_OUTPUT: usize = 16 << 20;

/// The host memory a HIP launch's kernel runs with: `inner` (the client's
/// host memory), and the hostcall buffer, made at the kernel's first
/// touch of it.
pub(crate) struct Hostcalls<M> {
    inner: M,
    buffer: Option<Vec<u8>>,
    messages: BTreeMap<u64, Vec<u64>>,
    next_id: u64,
    output: Vec<u8>,
}

impl<M: Memory> Hostcalls<M> {
    /// `inner` with no hostcall buffer yet.
    pub(crate) fn new(inner: M) -> Self {
        Hostcalls {
            inner,
            buffer: None,
            messages: BTreeMap::new(),
            next_id: 1,
            output: Vec::new(),
        }
    }

    /// Writes what the kernel's `printf` calls printed to the program's
    /// `stdout` (C's stream, so that it keeps its place among the
    /// program's own output), and forgets it.
    pub(crate) fn print(&mut self) {
        device_printf::write_stdout(&self.output);
        self.output.clear();
    }

    /// The buffer's bytes for `len` bytes at `address`, when they lie in it.
    fn range(&self, address: u64, len: usize) -> Option<std::ops::Range<usize>> {
        let start = address.checked_sub(HOSTCALL_BUFFER_ADDRESS)?;
        let end = start.checked_add(len as u64)?;
        (end <= BUFFER_BYTES).then(|| start as usize..end as usize)
    }

    fn buffer(&mut self) -> &mut Vec<u8> {
        self.buffer.get_or_insert_with(initial_buffer)
    }

    fn word(&mut self, offset: u64) -> u64 {
        let at = offset as usize;
        self.buffer()
            .get(at..at + 8)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u64::from_le_bytes)
    }

    fn set_word(&mut self, offset: u64, value: u64) {
        let at = offset as usize;
        if let Some(slot) = self.buffer().get_mut(at..at + 8) {
            slot.copy_from_slice(&value.to_le_bytes());
        }
    }

    /// Serves every packet on the ready stack, as ROCclr's listener does
    /// when the doorbell rings: each active lane's slot handled, then the
    /// packet's ready flag cleared.
    fn serve(&mut self) -> Result<(), String> {
        let mut ptr = self.word(READY_STACK);
        self.set_word(READY_STACK, 0);
        let mut served = 0;
        while ptr != 0 {
            served += 1;
            if served > PACKETS {
                return Err("the ready stack does not end".into());
            }
            let header = HEADERS + (ptr % PACKETS) * HEADER_BYTES;
            let next = self.word(header);
            let active = self.word(header + 8);
            let service_control = self.word(header + 16);
            let service = service_control as u32;
            let payload = PAYLOADS + (ptr % PACKETS) * PAYLOAD_BYTES;
            for lane in (0..LANES).filter(|l| active >> l & 1 == 1) {
                let slot = payload + lane * SLOT_WORDS as u64 * 8;
                let mut words = [0u64; SLOT_WORDS];
                for (i, w) in words.iter_mut().enumerate() {
                    *w = self.word(slot + i as u64 * 8);
                }
                self.handle(service, &mut words)?;
                for (i, w) in words.iter().enumerate() {
                    self.set_word(slot + i as u64 * 8, *w);
                }
            }
            // The ready flag is bit 0 of `control`, the header's last word's
            // high half.
            self.set_word(header + 16, service_control & !(1 << 32));
            ptr = next;
        }
        Ok(())
    }

    /// One lane's hostcall: a piece of a message (`services.cl`: the
    /// first word a descriptor — bit 0 begins a message, bit 1 ends it,
    /// bits 5–7 count the words that follow, bits 8–63 the message's ID),
    /// answered in place.
    fn handle(&mut self, service: u32, slot: &mut [u64; SLOT_WORDS]) -> Result<(), String> {
        if service != SERVICE_PRINTF {
            return Err(format!(
                "hostcall service {service} is not served (only printf, {SERVICE_PRINTF})"
            ));
        }
        let desc = slot[0];
        if desc & 0b1_1100 != 0 {
            return Err(format!("message descriptor {desc:#x} sets reserved bits"));
        }
        let len = ((desc >> 5) & 7) as usize;
        let words = slot.get(1..1 + len).ok_or("more words than a slot holds")?;
        let id = if desc & 1 == 1 {
            if self.messages.len() >= MAX_OPEN_MESSAGES {
                return Err(format!("more than {MAX_OPEN_MESSAGES} messages open"));
            }
            let id = self.next_id;
            self.next_id += 1;
            self.messages.insert(id, Vec::new());
            id
        } else {
            desc >> 8
        };
        let message = self
            .messages
            .get_mut(&id)
            .ok_or_else(|| format!("message {id} was never begun"))?;
        if message.len() + len > MAX_MESSAGE_WORDS {
            return Err(format!("a message longer than {MAX_MESSAGE_WORDS} words"));
        }
        message.extend_from_slice(words);
        if desc & 2 == 0 {
            *slot = [0; SLOT_WORDS];
            slot[0] = id << 8;
            return Ok(());
        }
        let message = self.messages.remove(&id).unwrap_or_default();
        let text = device_printf::format(&message)?;
        *slot = [0; SLOT_WORDS];
        slot[0] = text.len() as u64;
        self.output.extend_from_slice(&text);
        if self.output.len() > MAX_KEPT_OUTPUT {
            self.print();
        }
        Ok(())
    }
}

/// A fresh buffer, as ROCclr's `amd_hostcall_initialize_buffer` makes
/// it: every packet on the free stack, each pointer tagged 1 so that none
/// is zero (the empty stack).
fn initial_buffer() -> Vec<u8> {
    let mut b = vec![0u8; BUFFER_BYTES as usize];
    let mut put = |offset: u64, value: u64| {
        let at = offset as usize;
        if let Some(slot) = b.get_mut(at..at + 8) {
            slot.copy_from_slice(&value.to_le_bytes());
        }
    };
    let tagged = |index: u64| PACKETS | index;
    put(HEADERS_FIELD, HOSTCALL_BUFFER_ADDRESS + HEADERS);
    put(PAYLOADS_FIELD, HOSTCALL_BUFFER_ADDRESS + PAYLOADS);
    put(DOORBELL_FIELD, HOSTCALL_BUFFER_ADDRESS + DOORBELL);
    put(FREE_STACK, tagged(0));
    put(READY_STACK, 0);
    put(INDEX_MASK_FIELD, PACKETS - 1);
    // `amd_signal_t.kind`: AMD_SIGNAL_KIND_USER; no event mailbox.
    put(DOORBELL, 1);
    for index in 0..PACKETS {
        let next = if index + 1 < PACKETS {
            tagged(index + 1)
        } else {
            0
        };
        put(HEADERS + index * HEADER_BYTES, next);
    }
    b
}

impl<M: Memory> Memory for Hostcalls<M> {
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        match self.range(address, out.len()) {
            Some(range) => {
                let bytes = self.buffer().get(range).ok_or(OutOfBounds)?;
                out.copy_from_slice(bytes);
                Ok(())
            }
            None => self.inner.read(address, out),
        }
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        match self.range(address, data.len()) {
            Some(range) => {
                let bytes = self.buffer().get_mut(range).ok_or(OutOfBounds)?;
                bytes.copy_from_slice(data);
                Ok(())
            }
            None => self.inner.write(address, data),
        }
    }

    fn read_modify_write(
        &mut self,
        address: u64,
        len: usize,
        modify: &mut dyn FnMut(u64) -> u64,
    ) -> Result<u64, Access> {
        let Some(range) = self.range(address, len) else {
            return self.inner.read_modify_write(address, len, modify);
        };
        let mut buf = [0u8; 8];
        let value = buf.get_mut(..len).ok_or(Access::Load)?;
        value.copy_from_slice(self.buffer().get(range.clone()).ok_or(Access::Load)?);
        let old = u64::from_le_bytes(buf);
        let new = modify(old).to_le_bytes();
        let stored = self.buffer().get_mut(range).ok_or(Access::Store)?;
        stored.copy_from_slice(new.get(..len).ok_or(Access::Store)?);
        if address == HOSTCALL_BUFFER_ADDRESS + DOORBELL_VALUE
            && let Err(reason) = self.serve()
        {
            eprintln!("amdgpu-sim: a kernel's hostcall cannot be served: {reason}");
            return Err(Access::Store);
        }
        Ok(old)
    }
}
