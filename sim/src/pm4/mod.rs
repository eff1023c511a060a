//! PM4, the command processor's own packet stream, as an AMD vendor AQL
//! packet hands it over: the `INDIRECT_BUFFER` command inside ROCr's
//! PM4-IB packet ([`indirect_buffer`]) and the type-3 packets of the buffer
//! it names ([`decode`]), checked and turned into [`Command`]s that the C
//! library's packet processor carries out (memory, waits, the GPU clock).
//!
//! Sources of the encodings (values only; nothing here is translated from
//! them): Linux's `drivers/gpu/drm/amd/amdgpu/nvd.h` and `soc15d.h` (the
//! type-3 header, opcodes, `WRITE_DATA`, `WAIT_REG_MEM`,
//! `INDIRECT_BUFFER`, `EVENT_WRITE`, `RELEASE_MEM`, `WAIT_REG_MEM64`),
//! Mesa's `src/amd/common/sid.h` (`COPY_DATA`'s selects and bits), ROCr's
//! `core/inc/amd_gpu_pm4.h` (`INDIRECT_BUFFER` dwords, `ACQUIRE_MEM` and
//! `WAIT_REG_MEM` field masks), Linux's `gfx_v9_0.c`/`gfx_v10_0.c`
//! `emit_mem_sync` (the 7- and 8-dword `ACQUIRE_MEM` forms), and IREE's
//! `util/pm4_emitter.h`, which shows what IREE's AMDGPU driver writes.
//!
//! What is carried out is what IREE emits on gfx90a, gfx942 and gfx1100
//! (docs/SIMULATOR.md lists each packet with the IREE source that emits
//! it), its PM4 command buffers' compute register writes and
//! `DISPATCH_DIRECT` included ([`ComputeRegisters`]); anything else the
//! node does not model is refused by name ([`Pm4Error::NotModelled`]),
//! never skipped.

use std::fmt;

/// Type-3 opcodes (`PACKET3_*` of Linux's `nvd.h`).
pub mod opcode {
    /// `PACKET3_NOP`.
    pub const NOP: u8 = 0x10;
    /// `PACKET3_DISPATCH_DIRECT`.
    pub const DISPATCH_DIRECT: u8 = 0x15;
    /// `PACKET3_DISPATCH_INDIRECT`.
    pub const DISPATCH_INDIRECT: u8 = 0x16;
    /// `PACKET3_WRITE_DATA`.
    pub const WRITE_DATA: u8 = 0x37;
    /// `PACKET3_WAIT_REG_MEM`.
    pub const WAIT_REG_MEM: u8 = 0x3C;
    /// `PACKET3_INDIRECT_BUFFER`.
    pub const INDIRECT_BUFFER: u8 = 0x3F;
    /// `PACKET3_COPY_DATA`.
    pub const COPY_DATA: u8 = 0x40;
    /// `PACKET3_EVENT_WRITE`.
    pub const EVENT_WRITE: u8 = 0x46;
    /// `PACKET3_RELEASE_MEM`.
    pub const RELEASE_MEM: u8 = 0x49;
    /// `PACKET3_ACQUIRE_MEM`.
    pub const ACQUIRE_MEM: u8 = 0x58;
    /// `PACKET3_SET_SH_REG`.
    pub const SET_SH_REG: u8 = 0x76;
    /// `PACKET3_SET_UCONFIG_REG`.
    pub const SET_UCONFIG_REG: u8 = 0x79;
    /// `PACKET3_WAIT_REG_MEM64`.
    pub const WAIT_REG_MEM64: u8 = 0x93;
}

/// Most dwords one indirect buffer holds: `IB_SIZE` is the low 20 bits of
/// `INDIRECT_BUFFER`'s fourth dword (ROCr's
/// `PM4_INDIRECT_BUFFER_DW3_IB_SIZE`; IREE's
/// `IREE_HAL_AMDGPU_PM4_IB_MAX_DWORD_COUNT`).
pub const MAX_IB_DWORDS: u32 = 0xF_FFFF;

/// `INDIRECT_BUFFER_VALID` (bit 23 of the fourth dword).
const IB_VALID: u32 = 1 << 23;
/// The first register of the persistent (SH) space `SET_SH_REG` offsets
/// from (`PACKET3_SET_SH_REG_START`).
const SH_REG_START: u32 = 0x2C00;
/// The first user-configuration register (`PACKET3_SET_UCONFIG_REG_START`).
const UCONFIG_REG_START: u32 = 0xC000;
/// `EVENT_WRITE`'s `CS_PARTIAL_FLUSH` event (`V_028A90_CS_PARTIAL_FLUSH`)
/// and the event index of the `*S_PARTIAL_FLUSH` events.
const CS_PARTIAL_FLUSH: u32 = 7;
const PARTIAL_FLUSH_INDEX: u32 = 4;
/// `RELEASE_MEM`'s event index for end-of-pipe timestamp events.
const END_OF_PIPE_INDEX: u32 = 5;
/// The bits of a `WAIT_REG_MEM` poll-interval dword: the interval (15:0)
/// and `OPTIMIZE_ACE_OFFLOAD_MODE` (31) (ROCr's `PM4_WAIT_REG_MEM_DW6`).
const POLL_DWORD_BITS: u32 = 0x8000_FFFF;

/// The command processor generation, which decides `ACQUIRE_MEM`'s form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generation {
    /// gfx9 (gfx90a, gfx942): `ACQUIRE_MEM` is 7 dwords with
    /// `CP_COHER_CNTL` in the first.
    Gfx9,
    /// gfx10 to gfx12 (gfx1100): `ACQUIRE_MEM` is 8 dwords with `GCR_CNTL`
    /// in the last.
    Gfx10Plus,
}

impl Generation {
    /// The generation of a processor (`gfx90a`, `gfx1100`: the major
    /// version is what precedes the last two characters, as in LLVM's
    /// processor names); `None` for those without AQL PM4-IB packets (before
    /// gfx9: ROCr builds PM4 inside the AQL slot there) or past gfx12.
    pub fn of_processor(processor: &str) -> Option<Generation> {
        let digits = processor.strip_prefix("gfx")?;
        let major = digits.get(..digits.len().checked_sub(2)?)?;
        match major.parse::<u32>().ok()? {
            9 => Some(Generation::Gfx9),
            10..=12 => Some(Generation::Gfx10Plus),
            _ => None,
        }
    }
}

/// Why a PM4 stream is refused; either stops the queue with
/// `HSA_STATUS_ERROR_INVALID_PACKET_FORMAT` (ROCr's answer to the KFD's
/// `EC_QUEUE_PACKET_VENDOR_UNSUPPORTED`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pm4Error {
    /// The packet breaks the encoding (header, length, a reserved value).
    Malformed(String),
    /// A well-formed packet doing what the node does not model
    /// (configuration registers, indirect dispatches, interrupts of other
    /// kinds): refused rather than skipped.
    NotModelled(String),
}

impl fmt::Display for Pm4Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pm4Error::Malformed(s) => write!(f, "malformed PM4: {s}"),
            Pm4Error::NotModelled(s) => write!(f, "PM4 not modelled: {s}"),
        }
    }
}

fn malformed<T>(what: String) -> Result<T, Pm4Error> {
    Err(Pm4Error::Malformed(what))
}

fn not_modelled<T>(what: String) -> Result<T, Pm4Error> {
    Err(Pm4Error::NotModelled(what))
}

/// The buffer an `INDIRECT_BUFFER` command names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndirectBuffer {
    /// Its address (`IB_BASE_LO` 31:2, `IB_BASE_HI` 15:0).
    pub address: u64,
    /// Its length in dwords (`IB_SIZE`, 1 to [`MAX_IB_DWORDS`]).
    pub dwords: u32,
}

/// The `INDIRECT_BUFFER` command of a PM4-IB AQL packet (`ib_jump_cmd`):
/// a type-3 header with opcode `INDIRECT_BUFFER` and 4 dwords, the base
/// dword-aligned (no swap bits), the high base 16 bits, the size non-zero,
/// `VALID` set and nothing else.
pub fn indirect_buffer(command: [u32; 4]) -> Result<IndirectBuffer, Pm4Error> {
    let [header, lo, hi, size] = command;
    let h = Header::parse(header)?;
    if h.opcode != opcode::INDIRECT_BUFFER || h.dwords != 4 {
        return malformed(format!(
            "the packet's command is {} ({} dwords), not INDIRECT_BUFFER (4 dwords)",
            name(h.opcode),
            h.dwords
        ));
    }
    if lo & 3 != 0 || hi > 0xFFFF {
        return malformed(format!(
            "INDIRECT_BUFFER base {hi:#x}:{lo:#x} is not a dword address of 48 bits"
        ));
    }
    let dwords = size & MAX_IB_DWORDS;
    if size & IB_VALID == 0 || size & !(MAX_IB_DWORDS | IB_VALID) != 0 {
        return malformed(format!(
            "INDIRECT_BUFFER control {size:#010x}: VALID must be set and only IB_SIZE beside it"
        ));
    }
    if dwords == 0 {
        return malformed("INDIRECT_BUFFER of 0 dwords".into());
    }
    Ok(IndirectBuffer {
        address: u64::from(hi) << 32 | u64::from(lo),
        dwords,
    })
}

/// A type-3 header: `TYPE` (31:30) 3, `COUNT` (29:16) the packet's dwords
/// less 2, `IT_OPCODE` (15:8), `SHADER_TYPE` (1: compute or graphics, both
/// accepted), `PREDICATE` (0; predication is not modelled).
struct Header {
    opcode: u8,
    dwords: usize,
}

impl Header {
    fn parse(word: u32) -> Result<Header, Pm4Error> {
        match word >> 30 {
            3 => {}
            0 => {
                return not_modelled(format!(
                    "a type-0 packet ({word:#010x}) writes registers from {:#x}",
                    word & 0xFFFF
                ));
            }
            kind => {
                return malformed(format!(
                    "header {word:#010x} is a type-{kind} packet, not type 3"
                ));
            }
        }
        let opcode = ((word >> 8) & 0xFF) as u8;
        if word & 1 != 0 {
            return not_modelled(format!("a predicated {} packet", name(opcode)));
        }
        Ok(Header {
            opcode,
            dwords: ((word >> 16) & 0x3FFF) as usize + 2,
        })
    }
}

/// A packet's name for messages.
pub fn name(opcode: u8) -> String {
    let known = match opcode {
        opcode::NOP => "NOP",
        opcode::DISPATCH_DIRECT => "DISPATCH_DIRECT",
        opcode::DISPATCH_INDIRECT => "DISPATCH_INDIRECT",
        opcode::WRITE_DATA => "WRITE_DATA",
        opcode::WAIT_REG_MEM => "WAIT_REG_MEM",
        opcode::INDIRECT_BUFFER => "INDIRECT_BUFFER",
        opcode::COPY_DATA => "COPY_DATA",
        opcode::EVENT_WRITE => "EVENT_WRITE",
        opcode::RELEASE_MEM => "RELEASE_MEM",
        opcode::ACQUIRE_MEM => "ACQUIRE_MEM",
        opcode::SET_SH_REG => "SET_SH_REG",
        opcode::SET_UCONFIG_REG => "SET_UCONFIG_REG",
        opcode::WAIT_REG_MEM64 => "WAIT_REG_MEM64",
        _ => return format!("opcode {opcode:#04x}"),
    };
    format!("{known} ({opcode:#04x})")
}

/// The compute registers a dispatch reads, by name (Mesa's `sid.h`
/// `R_00B8xx_COMPUTE_*`, IREE's `pm4_emitter.h` `*_REGISTER`), for
/// messages.
fn register_name(register: u32) -> Option<String> {
    let xyz = |first: u32, name: &str| {
        let axis = ["X", "Y", "Z"].get((register - first) as usize).copied();
        format!("{name}_{}", axis.unwrap_or("?"))
    };
    Some(match register {
        0x2E00 => "COMPUTE_DISPATCH_INITIATOR".into(),
        0x2E04..=0x2E06 => xyz(0x2E04, "COMPUTE_START"),
        0x2E07..=0x2E09 => xyz(0x2E07, "COMPUTE_NUM_THREAD"),
        0x2E0C => "COMPUTE_PGM_LO".into(),
        0x2E0D => "COMPUTE_PGM_HI".into(),
        0x2E12 => "COMPUTE_PGM_RSRC1".into(),
        0x2E13 => "COMPUTE_PGM_RSRC2".into(),
        0x2E15 => "COMPUTE_RESOURCE_LIMITS".into(),
        0x2E18 => "COMPUTE_TMPRING_SIZE".into(),
        0x2E1B..=0x2E1D => xyz(0x2E1B, "COMPUTE_RESTART"),
        0x2E28 => "COMPUTE_PGM_RSRC3".into(),
        0x2E40..=0x2E4F => format!("COMPUTE_USER_DATA_{}", register - 0x2E40),
        _ => return None,
    })
}

fn register(register: u32) -> String {
    match register_name(register) {
        Some(name) => format!("register {register:#06x} ({name})"),
        None => format!("register {register:#06x}"),
    }
}

/// A memory access's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// 32 bits.
    Dword,
    /// 64 bits.
    Qword,
}

impl Width {
    /// Its bytes.
    pub fn bytes(self) -> usize {
        match self {
            Width::Dword => 4,
            Width::Qword => 8,
        }
    }

    /// A 64-bit value cut to the width.
    fn truncate(self, value: u64) -> u64 {
        match self {
            Width::Dword => value & 0xFFFF_FFFF,
            Width::Qword => value,
        }
    }
}

/// `WAIT_REG_MEM`'s `FUNCTION` (2:0 of its control dword): how the masked
/// memory value compares with the reference, unsigned (IREE masks the
/// sign bit away, so signedness never decides its waits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// 0: always.
    Always,
    /// 1: `<`.
    Less,
    /// 2: `<=`.
    LessEqual,
    /// 3: `==`.
    Equal,
    /// 4: `!=`.
    NotEqual,
    /// 5: `>=`.
    GreaterEqual,
    /// 6: `>`.
    Greater,
}

impl Compare {
    fn from_raw(raw: u32) -> Option<Compare> {
        Some(match raw {
            0 => Compare::Always,
            1 => Compare::Less,
            2 => Compare::LessEqual,
            3 => Compare::Equal,
            4 => Compare::NotEqual,
            5 => Compare::GreaterEqual,
            6 => Compare::Greater,
            _ => return None,
        })
    }

    /// Whether `value` compares to `reference` this way.
    pub fn holds(self, value: u64, reference: u64) -> bool {
        match self {
            Compare::Always => true,
            Compare::Less => value < reference,
            Compare::LessEqual => value <= reference,
            Compare::Equal => value == reference,
            Compare::NotEqual => value != reference,
            Compare::GreaterEqual => value >= reference,
            Compare::Greater => value > reference,
        }
    }
}

/// Where a copy's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Memory at this address.
    Memory(u64),
    /// A value in the packet.
    Immediate(u64),
    /// The GPU clock counter at the time the command runs.
    GpuClock,
}

/// What one PM4 packet does, for the packet processor to carry out in
/// order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Nothing: `NOP`, and the packets whose effect the simulated node
    /// already has — `ACQUIRE_MEM` (cache actions: memory is coherent) and
    /// `EVENT_WRITE CS_PARTIAL_FLUSH` (every earlier dispatch has finished
    /// when a later packet runs); each checked, named for traces.
    Nothing(&'static str),
    /// `WRITE_DATA` to memory: the dwords at consecutive addresses, or
    /// all at `address` (`WR_ONE_ADDR`).
    Write {
        /// The first address.
        address: u64,
        /// The dwords.
        data: Vec<u32>,
        /// Every dword to the same address.
        one_address: bool,
    },
    /// `COPY_DATA` to memory, or `RELEASE_MEM`'s data write.
    Copy {
        /// The value.
        source: Source,
        /// The memory written.
        destination: u64,
        /// 32 or 64 bits.
        width: Width,
    },
    /// `WAIT_REG_MEM` / `WAIT_REG_MEM64` on memory: wait until
    /// `(value & mask) function reference`.
    Wait {
        /// The polled memory.
        address: u64,
        /// 32 or 64 bits.
        width: Width,
        /// The comparison.
        function: Compare,
        /// The reference.
        reference: u64,
        /// The mask.
        mask: u64,
    },
    /// `RELEASE_MEM`'s interrupt (`INT_SEL` 1 to 3): wakes the host's
    /// waiters, which is all an interrupt does for them.
    Interrupt,
    /// `SET_SH_REG`: `values` into the queue's registers from `first` (a
    /// dword register address inside the SH space), kept in its
    /// [`ComputeRegisters`].
    SetShRegisters {
        /// The first register.
        first: u32,
        /// One value per register.
        values: Vec<u32>,
    },
    /// `DISPATCH_DIRECT`: a kernel launched from the queue's registers
    /// ([`ComputeRegisters::launch`]).
    DispatchDirect {
        /// Work-groups per dimension (work-items under
        /// `USE_THREAD_DIMENSIONS`).
        dimensions: [u32; 3],
        /// `COMPUTE_DISPATCH_INITIATOR`.
        initiator: u32,
    },
}

/// The dwords of one packet, by position (0 the header), reading 0 past
/// its end (lengths are checked before fields are read).
struct Packet<'a> {
    words: &'a [u32],
    opcode: u8,
}

impl Packet<'_> {
    fn dw(&self, i: usize) -> u32 {
        self.words.get(i).copied().unwrap_or(0)
    }

    fn qw(&self, i: usize) -> u64 {
        u64::from(self.dw(i)) | u64::from(self.dw(i + 1)) << 32
    }

    fn len(&self) -> usize {
        self.words.len()
    }

    fn exactly(&self, dwords: usize) -> Result<(), Pm4Error> {
        if self.len() == dwords {
            return Ok(());
        }
        malformed(format!(
            "{} of {} dwords (it has {dwords})",
            name(self.opcode),
            self.len()
        ))
    }

    /// A memory address from a low dword (its low bits below `width`
    /// ignored, as the field starts above them) and a high dword.
    fn address(&self, lo: usize, width: Width) -> u64 {
        let align = width.bytes() as u64 - 1;
        (u64::from(self.dw(lo)) | u64::from(self.dw(lo + 1)) << 32) & !align
    }
}

/// The packets of an indirect buffer, each checked against the encoding
/// and `generation`'s forms and turned into its commands, in order; after
/// a refused packet, nothing more (the command processor stops there, the
/// packets before it having run).
pub fn packets(dwords: &[u32], generation: Generation) -> Packets<'_> {
    Packets {
        dwords,
        at: 0,
        generation,
        stopped: false,
    }
}

/// The iterator of [`packets`].
pub struct Packets<'a> {
    dwords: &'a [u32],
    at: usize,
    generation: Generation,
    stopped: bool,
}

impl Iterator for Packets<'_> {
    type Item = Result<Vec<Command>, Pm4Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.stopped {
            return None;
        }
        let at = self.at;
        let word = *self.dwords.get(at)?;
        let decoded = Header::parse(word).and_then(|header| {
            let words = self.dwords.get(at..at + header.dwords).ok_or_else(|| {
                Pm4Error::Malformed(format!(
                    "{} of {} dwords runs past the buffer's {}",
                    name(header.opcode),
                    header.dwords,
                    self.dwords.len()
                ))
            })?;
            let packet = Packet {
                words,
                opcode: header.opcode,
            };
            let mut commands = Vec::with_capacity(2);
            command(&packet, self.generation, &mut commands)?;
            self.at += header.dwords;
            Ok(commands)
        });
        if decoded.is_err() {
            self.stopped = true;
        }
        Some(decoded.map_err(|e| at_dword(e, at)))
    }
}

/// Every command of an indirect buffer ([`packets`] collected), or the
/// first refusal.
pub fn decode(dwords: &[u32], generation: Generation) -> Result<Vec<Command>, Pm4Error> {
    let mut all = Vec::new();
    for commands in packets(dwords, generation) {
        all.extend(commands?);
    }
    Ok(all)
}

fn at_dword(error: Pm4Error, at: usize) -> Pm4Error {
    match error {
        Pm4Error::Malformed(s) => Pm4Error::Malformed(format!("{s} (dword {at})")),
        Pm4Error::NotModelled(s) => Pm4Error::NotModelled(format!("{s} (dword {at})")),
    }
}

mod commands;
mod compute;
#[cfg(test)]
mod encoding_tests;
#[cfg(test)]
mod tests;

use commands::command;
pub use compute::{ComputeLaunch, ComputeRegisters, LDS_GRANULE_BYTES, MAX_USER_DATA, SH_REG_END};
