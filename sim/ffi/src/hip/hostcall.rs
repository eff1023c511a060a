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
        (end <= BUFFER_BYTES).then_some(start as usize..end as usize)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Host memory with nothing in it.
    struct Nothing;

    impl Memory for Nothing {
        fn read(&mut self, _: u64, _: &mut [u8]) -> Result<(), OutOfBounds> {
            Err(OutOfBounds)
        }
        fn write(&mut self, _: u64, _: &[u8]) -> Result<(), OutOfBounds> {
            Err(OutOfBounds)
        }
    }

    const BASE: u64 = HOSTCALL_BUFFER_ADDRESS;

    fn load(h: &mut Hostcalls<Nothing>, address: u64) -> u64 {
        let mut b = [0u8; 8];
        h.read(address, &mut b).unwrap();
        u64::from_le_bytes(b)
    }

    fn store(h: &mut Hostcalls<Nothing>, address: u64, value: u64) {
        h.write(address, &value.to_le_bytes()).unwrap();
    }

    /// One hostcall as `hostcall_impl.cl` makes it, lanes 0 and 3 active:
    /// pop a packet, fill it, push it, ring the doorbell; answers the ready
    /// flag after the doorbell and each lane's first two result words.
    fn hostcall(
        h: &mut Hostcalls<Nothing>,
        service: u32,
        lanes: [[u64; 8]; 2],
    ) -> Result<(u64, [[u64; 2]; 2]), Access> {
        let headers = load(h, BASE);
        let payloads = load(h, BASE + 8);
        let doorbell = load(h, BASE + 16);
        let mask = load(h, BASE + 40);
        let ptr = load(h, BASE + 24);
        let header = headers + (ptr & mask) * 24;
        let v = load(h, header);
        store(h, BASE + 24, v);
        store(h, header + 8, 0b1001);
        store(h, header + 16, u64::from(service) | 1 << 32);
        let payload = payloads + (ptr & mask) * 4096;
        for (lane, words) in [0u64, 3].into_iter().zip(lanes) {
            for (i, w) in words.into_iter().enumerate() {
                store(h, payload + lane * 64 + i as u64 * 8, w);
            }
        }
        let v = load(h, BASE + 32);
        store(h, header, v);
        store(h, BASE + 32, ptr);
        h.read_modify_write(doorbell + 8, 8, &mut |v| v + 1)?;
        let ready = load(h, header + 16) >> 32 & 1;
        let results = [0u64, 3].map(|lane| [0, 1].map(|i| load(h, payload + lane * 64 + i * 8)));
        // Back on the free stack, its tag stepped.
        let v = load(h, BASE + 24);
        store(h, header, v);
        store(h, BASE + 24, ptr + mask + 1);
        Ok((ready, results))
    }

    fn words(s: &[u8]) -> [u64; 7] {
        let mut out = [0u64; 7];
        for (i, c) in s.chunks(8).enumerate() {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            out[i] = u64::from_le_bytes(w);
        }
        out
    }

    fn slot(desc: u64, args: [u64; 7]) -> [u64; 8] {
        let mut s = [desc; 8];
        s[1..].copy_from_slice(&args);
        s
    }

    #[test]
    fn a_printf_message_over_three_hostcalls_is_printed_per_lane() {
        let mut h = Hostcalls::new(Nothing);
        // Begin (one word: the version 0) on both lanes.
        let begin = 1 | 1 << 5;
        let (ready, ids) = hostcall(&mut h, 2, [slot(begin, [0; 7]); 2]).unwrap();
        assert_eq!(ready, 0);
        let (a, b) = (ids[0][0], ids[1][0]);
        assert_ne!(a, b);
        assert_eq!(a & 0xff, 0);
        // The format string (2 words), then each lane's argument, ending.
        let fmt = words(b"lane %d\n\0");
        let (_, _) = hostcall(&mut h, 2, [slot(a | 2 << 5, fmt), slot(b | 2 << 5, fmt)]).unwrap();
        let end = 2 | 1 << 5;
        let mut seven = [0u64; 7];
        seven[0] = 3;
        let (ready, results) =
            hostcall(&mut h, 2, [slot(a | end, [0; 7]), slot(b | end, seven)]).unwrap();
        assert_eq!(ready, 0);
        // Each lane's answer: the bytes its printf printed.
        assert_eq!(results, [[7, 0], [7, 0]]);
        assert_eq!(h.output, b"lane 0\nlane 3\n");
        assert!(h.messages.is_empty());
    }

    #[test]
    fn another_service_or_an_unknown_message_faults_the_doorbell() {
        let mut h = Hostcalls::new(Nothing);
        assert_eq!(hostcall(&mut h, 3, [[0; 8]; 2]).unwrap_err(), Access::Store);
        let mut h = Hostcalls::new(Nothing);
        let (desc, args) = (42 << 8 | 2, [0; 7]);
        assert_eq!(
            hostcall(&mut h, 2, [slot(desc, args); 2]).unwrap_err(),
            Access::Store
        );
    }

    #[test]
    fn a_message_past_its_limit_is_refused() {
        let mut h = Hostcalls::new(Nothing);
        let (_, ids) = hostcall(&mut h, 2, [slot(1 | 1 << 5, [0; 7]); 2]).unwrap();
        let more = [ids[0][0] | 7 << 5, ids[1][0] | 7 << 5];
        let calls = MAX_MESSAGE_WORDS / 7;
        for _ in 0..calls {
            hostcall(&mut h, 2, [slot(more[0], [1; 7]), slot(more[1], [1; 7])]).unwrap();
        }
        assert!(hostcall(&mut h, 2, [slot(more[0], [1; 7]), slot(more[1], [1; 7])]).is_err());
    }
}
