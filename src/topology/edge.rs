//! The packed 128-bit topology edge: a scheduling word (`lo`) and an interop
//! word (`hi`), laid out bit for bit as IREE's `iree_hal_topology_edge_t`.
//!
//! Scheduling word `lo`:
//!
//! | bits    | field                          |
//! |---------|--------------------------------|
//! | 1:0     | wait mode                      |
//! | 3:2     | signal mode                    |
//! | 5:4     | buffer read mode, non-coherent |
//! | 7:6     | buffer write mode, non-coherent|
//! | 9:8     | buffer read mode, coherent     |
//! | 11:10   | buffer write mode, coherent    |
//! | 27:12   | topology capability flags      |
//! | 31:28   | wait cost (0..=15)             |
//! | 35:32   | signal cost (0..=15)           |
//! | 39:36   | copy cost (0..=15)             |
//! | 43:40   | latency class (0..=15)         |
//! | 47:44   | NUMA distance (0..=15)         |
//! | 50:48   | link class                     |
//! | 63:51   | reserved, must be zero         |
//!
//! Interop word `hi`: semaphore import types `[7:0]`, semaphore export types
//! `[15:8]`, buffer import types `[23:16]`, buffer export types `[31:24]`;
//! `[63:32]` reserved, must be zero.
//!
//! ## Direction
//!
//! The edge `src -> dst` describes how `dst` can use `src`'s resources:
//! `wait_mode` is how `dst` waits on `src`'s semaphores (semaphores exported
//! by `src`, imported by `dst`), and `signal_mode` is how `dst`'s semaphores
//! can be observed by `src` (exported by `dst`, imported by `src`). This is
//! the meaning IREE's derivation and bitmaps implement; its header comments
//! disagree with each other, so this is written down once here.
//!
//! Setters mask the value into its field; the four cost/class/distance
//! setters first clamp to 15 (a cost of 40 is "very expensive", not 8).
//! Setters never validate reserved bits (IREE's tests write `0xFFFF` into the
//! capability field and read it back); [`Edge::check_reserved`] does, and the
//! topology builder refuses an edge that fails it.

use bitflags::bitflags;

use crate::status::{Result, Status};

/// How one device can use another's semaphores or buffers (2 bits).
///
/// A lower value means cheaper sharing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum InteropMode {
    /// Used directly, no translation.
    Native = 0,
    /// Shared through an exported/imported handle.
    Import = 1,
    /// Only by copying through a staging buffer.
    Copy = 2,
    /// Not possible at all.
    None = 3,
}

impl InteropMode {
    /// Every mode, in encoding order.
    pub const ALL: [InteropMode; 4] = [Self::Native, Self::Import, Self::Copy, Self::None];

    /// Decodes the low two bits of `bits` (every 2-bit value is a mode).
    pub const fn from_bits(bits: u64) -> InteropMode {
        match bits & 0b11 {
            0 => Self::Native,
            1 => Self::Import,
            2 => Self::Copy,
            _ => Self::None,
        }
    }

    /// The 2-bit encoding.
    pub const fn bits(self) -> u64 {
        self as u64
    }

    /// The upper-case name used by the edge formatter (`NATIVE`, `IMPORT`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Native => "NATIVE",
            Self::Import => "IMPORT",
            Self::Copy => "COPY",
            Self::None => "NONE",
        }
    }

    /// The key used in JSON output (`native`, `import`, `copy`, `none`).
    pub const fn json_name(self) -> &'static str {
        match self {
            Self::Native => "native",
            Self::Import => "import",
            Self::Copy => "copy",
            Self::None => "none",
        }
    }

    /// The one-letter code of the matrix dump (`N`, `I`, `C`, `-`).
    pub const fn letter(self) -> char {
        match self {
            Self::Native => 'N',
            Self::Import => 'I',
            Self::Copy => 'C',
            Self::None => '-',
        }
    }
}

/// The physical class of the link between two devices (3 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum LinkClass {
    /// The same die (or the same device).
    SameDie = 0,
    /// A direct GPU-to-GPU link: NVLink or AMD Infinity Fabric (xGMI).
    NvlinkIf = 1,
    /// PCIe under one root complex.
    PcieSameRoot = 2,
    /// PCIe across root complexes (through the CPU interconnect).
    PcieCrossRoot = 3,
    /// Through host memory.
    HostStaged = 4,
    /// A network fabric (RDMA).
    Fabric = 5,
    /// Something else.
    Other = 6,
    /// No connection.
    Isolated = 7,
}

impl LinkClass {
    /// Every class, in encoding order.
    pub const ALL: [LinkClass; 8] = [
        Self::SameDie,
        Self::NvlinkIf,
        Self::PcieSameRoot,
        Self::PcieCrossRoot,
        Self::HostStaged,
        Self::Fabric,
        Self::Other,
        Self::Isolated,
    ];

    /// Decodes the low three bits of `bits` (every 3-bit value is a class).
    pub const fn from_bits(bits: u64) -> LinkClass {
        match bits & 0b111 {
            0 => Self::SameDie,
            1 => Self::NvlinkIf,
            2 => Self::PcieSameRoot,
            3 => Self::PcieCrossRoot,
            4 => Self::HostStaged,
            5 => Self::Fabric,
            6 => Self::Other,
            _ => Self::Isolated,
        }
    }

    /// The 3-bit encoding.
    pub const fn bits(self) -> u64 {
        self as u64
    }

    /// IREE's format name (`SAME_DIE`, `NVLINK/IF`, `PCIE`, `PCIE_CROSS`,
    /// `HOST`, `FABRIC`, `OTHER`, `ISOLATED`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::SameDie => "SAME_DIE",
            Self::NvlinkIf => "NVLINK/IF",
            Self::PcieSameRoot => "PCIE",
            Self::PcieCrossRoot => "PCIE_CROSS",
            Self::HostStaged => "HOST",
            Self::Fabric => "FABRIC",
            Self::Other => "OTHER",
            Self::Isolated => "ISOLATED",
        }
    }

    /// The key used in JSON output (`same_die`, `nvlink_if`, ...).
    pub const fn json_name(self) -> &'static str {
        match self {
            Self::SameDie => "same_die",
            Self::NvlinkIf => "nvlink_if",
            Self::PcieSameRoot => "pcie_same_root",
            Self::PcieCrossRoot => "pcie_cross_root",
            Self::HostStaged => "host_staged",
            Self::Fabric => "fabric",
            Self::Other => "other",
            Self::Isolated => "isolated",
        }
    }
}

bitflags! {
    /// Pairwise capability bits of an edge (16 bits, `lo[27:12]`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct TopologyCapabilities: u16 {
        /// Both devices live in the same driver/runtime domain.
        const SAME_RUNTIME_DOMAIN = 1 << 0;
        /// Memory is unified between the two devices.
        const UNIFIED_MEMORY = 1 << 1;
        /// Peer memory accesses are coherent.
        const PEER_COHERENT = 1 << 2;
        /// Host memory accesses are coherent.
        const HOST_COHERENT = 1 << 3;
        /// Peer-to-peer copies are possible.
        const P2P_COPY = 1 << 4;
        /// Concurrent access from both devices is safe.
        const CONCURRENT_SAFE = 1 << 5;
        /// Device-scope atomics work across the pair.
        const ATOMIC_DEVICE = 1 << 6;
        /// System-scope atomics work across the pair.
        const ATOMIC_SYSTEM = 1 << 7;
        /// Timeline semaphores are shared.
        const TIMELINE_SEMAPHORE = 1 << 8;
        /// Only binary semaphores can be shared.
        const BINARY_SEMAPHORE_ONLY = 1 << 9;
        /// Remote DMA is available.
        const REMOTE_DMA = 1 << 10;
        /// Both devices share one virtual address space.
        const SHARED_VIRTUAL_ADDRESS = 1 << 11;
        /// Peer access needs an explicit grant first.
        const PEER_ACCESS_REQUIRES_GRANT = 1 << 12;
    }
}

impl TopologyCapabilities {
    /// Snake-case names of the set known bits, in bit order (for JSON).
    pub fn json_names(self) -> Vec<&'static str> {
        const NAMES: [&str; 13] = [
            "same_runtime_domain",
            "unified_memory",
            "peer_coherent",
            "host_coherent",
            "p2p_copy",
            "concurrent_safe",
            "atomic_device",
            "atomic_system",
            "timeline_semaphore",
            "binary_semaphore_only",
            "remote_dma",
            "shared_virtual_address",
            "peer_access_requires_grant",
        ];
        names_of_bits(u64::from(self.bits()), &NAMES)
    }
}

bitflags! {
    /// External handle types for semaphores and buffers (8 bits).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub struct HandleTypes: u8 {
        /// The driver's own handle (same runtime only).
        const NATIVE = 1 << 0;
        /// A POSIX file descriptor.
        const OPAQUE_FD = 1 << 1;
        /// A Windows handle.
        const OPAQUE_WIN32 = 1 << 2;
        /// A Linux dma-buf.
        const DMA_BUF = 1 << 3;
        /// An RDMA memory region.
        const RDMA_MR = 1 << 4;
        /// Shared memory.
        const SHM = 1 << 5;
        /// A Metal IOSurface.
        const METAL_IOSURFACE = 1 << 6;
        /// An Android hardware buffer.
        const ANDROID_HARDWARE_BUFFER = 1 << 7;
    }
}

impl HandleTypes {
    /// Snake-case names of the set bits, in bit order (for JSON).
    pub fn json_names(self) -> Vec<&'static str> {
        const NAMES: [&str; 8] = [
            "native",
            "opaque_fd",
            "opaque_win32",
            "dma_buf",
            "rdma_mr",
            "shm",
            "metal_iosurface",
            "android_hardware_buffer",
        ];
        names_of_bits(u64::from(self.bits()), &NAMES)
    }
}

fn names_of_bits(bits: u64, names: &[&'static str]) -> Vec<&'static str> {
    names
        .iter()
        .enumerate()
        .filter(|(bit, _)| bits & (1u64 << bit) != 0)
        .map(|(_, name)| *name)
        .collect()
}

/// The largest value of the 4-bit cost, latency and distance fields.
pub const MAX_COST: u8 = 15;

/// Bits of the scheduling word that must be zero: `[63:51]` and the three
/// unassigned capability bits (`lo[27:25]`, capability bits 13..=15).
pub const LO_RESERVED_MASK: u64 = 0xFFF8_0000_0000_0000 | (0b111 << 25);

/// Bits of the interop word that must be zero: `[63:32]`.
pub const HI_RESERVED_MASK: u64 = 0xFFFF_FFFF_0000_0000;

const fn field(word: u64, shift: u32, width: u32) -> u64 {
    (word >> shift) & ((1 << width) - 1)
}

const fn with_field(word: u64, shift: u32, width: u32, value: u64) -> u64 {
    let mask = ((1u64 << width) - 1) << shift;
    (word & !mask) | ((value << shift) & mask)
}

const fn clamp_cost(value: u8) -> u64 {
    if value > MAX_COST {
        MAX_COST as u64
    } else {
        value as u64
    }
}

/// One directed edge of the topology: the two packed words.
///
/// `Edge::default()` is both words zero, which IREE calls the "empty edge";
/// note that it also decodes as an all-NATIVE, SAME_DIE edge with no
/// capabilities, so this crate reports "no edge" as `None` instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Edge {
    /// The scheduling word.
    pub lo: u64,
    /// The interop word.
    pub hi: u64,
}

macro_rules! mode_field {
    ($(#[$doc:meta])* $get:ident, $set:ident, $with:ident, $shift:expr) => {
        $(#[$doc])*
        pub const fn $get(&self) -> InteropMode {
            InteropMode::from_bits(field(self.lo, $shift, 2))
        }
        #[doc = concat!("Sets the value read by [`Edge::", stringify!($get), "`].")]
        pub fn $set(&mut self, mode: InteropMode) -> &mut Self {
            self.lo = with_field(self.lo, $shift, 2, mode.bits());
            self
        }
        #[doc = concat!("This edge with [`Edge::", stringify!($get), "`] replaced.")]
        #[must_use]
        pub const fn $with(mut self, mode: InteropMode) -> Self {
            self.lo = with_field(self.lo, $shift, 2, mode.bits());
            self
        }
    };
}

macro_rules! cost_field {
    ($(#[$doc:meta])* $get:ident, $set:ident, $with:ident, $shift:expr) => {
        $(#[$doc])*
        pub const fn $get(&self) -> u8 {
            field(self.lo, $shift, 4) as u8
        }
        #[doc = concat!("Sets the value read by [`Edge::", stringify!($get), "`], clamped to 15.")]
        pub fn $set(&mut self, value: u8) -> &mut Self {
            self.lo = with_field(self.lo, $shift, 4, clamp_cost(value));
            self
        }
        #[doc = concat!("This edge with [`Edge::", stringify!($get), "`] replaced (clamped to 15).")]
        #[must_use]
        pub const fn $with(mut self, value: u8) -> Self {
            self.lo = with_field(self.lo, $shift, 4, clamp_cost(value));
            self
        }
    };
}

macro_rules! handle_field {
    ($(#[$doc:meta])* $get:ident, $set:ident, $with:ident, $shift:expr) => {
        $(#[$doc])*
        pub const fn $get(&self) -> HandleTypes {
            HandleTypes::from_bits_retain(field(self.hi, $shift, 8) as u8)
        }
        #[doc = concat!("Sets the value read by [`Edge::", stringify!($get), "`].")]
        pub fn $set(&mut self, types: HandleTypes) -> &mut Self {
            self.hi = with_field(self.hi, $shift, 8, types.bits() as u64);
            self
        }
        #[doc = concat!("This edge with [`Edge::", stringify!($get), "`] replaced.")]
        #[must_use]
        pub const fn $with(mut self, types: HandleTypes) -> Self {
            self.hi = with_field(self.hi, $shift, 8, types.bits() as u64);
            self
        }
    };
}

impl Edge {
    /// Both words zero (IREE's "empty edge").
    pub const EMPTY: Edge = Edge { lo: 0, hi: 0 };

    /// The edge from a device to itself (IREE's `make_self`): every mode
    /// NATIVE, SAME_DIE, zero costs, every capability a device shares with
    /// itself, and NATIVE handles. `lo = 0x9FF000`, `hi = 0x01010101`.
    pub const SELF: Edge = Edge::EMPTY
        .with_capabilities(
            TopologyCapabilities::SAME_RUNTIME_DOMAIN
                .union(TopologyCapabilities::UNIFIED_MEMORY)
                .union(TopologyCapabilities::PEER_COHERENT)
                .union(TopologyCapabilities::HOST_COHERENT)
                .union(TopologyCapabilities::P2P_COPY)
                .union(TopologyCapabilities::CONCURRENT_SAFE)
                .union(TopologyCapabilities::ATOMIC_DEVICE)
                .union(TopologyCapabilities::ATOMIC_SYSTEM)
                .union(TopologyCapabilities::TIMELINE_SEMAPHORE)
                .union(TopologyCapabilities::SHARED_VIRTUAL_ADDRESS),
        )
        .with_semaphore_import_types(HandleTypes::NATIVE)
        .with_semaphore_export_types(HandleTypes::NATIVE)
        .with_buffer_import_types(HandleTypes::NATIVE)
        .with_buffer_export_types(HandleTypes::NATIVE);

    /// A conservative edge between devices of different drivers (IREE's
    /// `make_cross_driver`): semaphores IMPORT, buffers COPY, PCIe same root,
    /// no capabilities, wait/signal cost 5, copy cost 10, latency 8, NUMA 2,
    /// no handles. `lo = 0x000228A550000AA5`, `hi = 0`.
    pub const CROSS_DRIVER: Edge = Edge::EMPTY
        .with_wait_mode(InteropMode::Import)
        .with_signal_mode(InteropMode::Import)
        .with_buffer_read_mode_noncoherent(InteropMode::Copy)
        .with_buffer_write_mode_noncoherent(InteropMode::Copy)
        .with_buffer_read_mode_coherent(InteropMode::Copy)
        .with_buffer_write_mode_coherent(InteropMode::Copy)
        .with_link_class(LinkClass::PcieSameRoot)
        .with_wait_cost(5)
        .with_signal_cost(5)
        .with_copy_cost(10)
        .with_latency_class(8)
        .with_numa_distance(2);

    /// The edge with the two given words.
    pub const fn new(lo: u64, hi: u64) -> Edge {
        Edge { lo, hi }
    }

    /// True when both words are zero.
    pub const fn is_empty(&self) -> bool {
        self.lo == 0 && self.hi == 0
    }

    mode_field!(
        /// How `dst` waits on `src`'s semaphores.
        wait_mode, set_wait_mode, with_wait_mode, 0
    );
    mode_field!(
        /// How `src` observes `dst`'s semaphores (see the module docs).
        signal_mode, set_signal_mode, with_signal_mode, 2
    );
    mode_field!(
        /// How `dst` reads `src`'s non-coherent buffers.
        buffer_read_mode_noncoherent,
        set_buffer_read_mode_noncoherent,
        with_buffer_read_mode_noncoherent,
        4
    );
    mode_field!(
        /// How `dst` writes `src`'s non-coherent buffers.
        buffer_write_mode_noncoherent,
        set_buffer_write_mode_noncoherent,
        with_buffer_write_mode_noncoherent,
        6
    );
    mode_field!(
        /// How `dst` reads `src`'s coherent buffers.
        buffer_read_mode_coherent,
        set_buffer_read_mode_coherent,
        with_buffer_read_mode_coherent,
        8
    );
    mode_field!(
        /// How `dst` writes `src`'s coherent buffers.
        buffer_write_mode_coherent,
        set_buffer_write_mode_coherent,
        with_buffer_write_mode_coherent,
        10
    );
    cost_field!(
        /// Relative cost of a wait, 0..=15.
        wait_cost, set_wait_cost, with_wait_cost, 28
    );
    cost_field!(
        /// Relative cost of a signal, 0..=15.
        signal_cost, set_signal_cost, with_signal_cost, 32
    );
    cost_field!(
        /// Relative cost of a copy, 0..=15.
        copy_cost, set_copy_cost, with_copy_cost, 36
    );
    cost_field!(
        /// Latency class, 0..=15.
        latency_class, set_latency_class, with_latency_class, 40
    );
    cost_field!(
        /// Scaled NUMA distance, 0..=15.
        numa_distance, set_numa_distance, with_numa_distance, 44
    );
    handle_field!(
        /// Semaphore handle types `dst` can import from `src`.
        semaphore_import_types,
        set_semaphore_import_types,
        with_semaphore_import_types,
        0
    );
    handle_field!(
        /// Semaphore handle types `dst` exports that `src` can import.
        semaphore_export_types,
        set_semaphore_export_types,
        with_semaphore_export_types,
        8
    );
    handle_field!(
        /// Buffer handle types `dst` can import from `src`.
        buffer_import_types,
        set_buffer_import_types,
        with_buffer_import_types,
        16
    );
    handle_field!(
        /// Buffer handle types `dst` exports that `src` can import.
        buffer_export_types,
        set_buffer_export_types,
        with_buffer_export_types,
        24
    );

    /// The capability flags (all 16 bits, including unassigned ones).
    pub const fn capabilities(&self) -> TopologyCapabilities {
        TopologyCapabilities::from_bits_retain(field(self.lo, 12, 16) as u16)
    }

    /// Sets the capability flags (all 16 bits are stored).
    pub fn set_capabilities(&mut self, caps: TopologyCapabilities) -> &mut Self {
        self.lo = with_field(self.lo, 12, 16, caps.bits() as u64);
        self
    }

    /// This edge with the capability flags replaced.
    #[must_use]
    pub const fn with_capabilities(mut self, caps: TopologyCapabilities) -> Self {
        self.lo = with_field(self.lo, 12, 16, caps.bits() as u64);
        self
    }

    /// The link class.
    pub const fn link_class(&self) -> LinkClass {
        LinkClass::from_bits(field(self.lo, 48, 3))
    }

    /// Sets the link class.
    pub fn set_link_class(&mut self, class: LinkClass) -> &mut Self {
        self.lo = with_field(self.lo, 48, 3, class.bits());
        self
    }

    /// This edge with the link class replaced.
    #[must_use]
    pub const fn with_link_class(mut self, class: LinkClass) -> Self {
        self.lo = with_field(self.lo, 48, 3, class.bits());
        self
    }

    /// The reserved bits that are set, as `(lo bits, hi bits)`; both zero for
    /// a well-formed edge.
    pub const fn reserved_bits(&self) -> (u64, u64) {
        (self.lo & LO_RESERVED_MASK, self.hi & HI_RESERVED_MASK)
    }

    /// `INVALID_ARGUMENT` if any reserved bit of either word is set.
    pub fn check_reserved(&self) -> Result<()> {
        match self.reserved_bits() {
            (0, 0) => Ok(()),
            (lo, hi) => Err(Status::invalid_argument(format!(
                "topology edge has reserved bits set (lo 0x{lo:016X}, hi 0x{hi:016X})"
            ))),
        }
    }
}
