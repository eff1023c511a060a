//! Causal axes and the frontier tracker identity a device group hands to its
//! devices (IREE's `async/frontier.h` axis encoding).
//!
//! An axis is one `u64`:
//!
//! ```text
//! [63:56] session epoch | [55:48] machine index | [47:40] causal domain | [39:0] ordinal
//! queue ordinal: [39:32] device index | [31:24] queue index | [23:0] zero
//! ```
//!
//! Plain `u64` order sorts by session, then machine, domain, device, queue.

/// Bits of the ordinal field.
pub const AXIS_ORDINAL_BITS: u32 = 40;
/// Mask of the ordinal field.
pub const AXIS_ORDINAL_MASK: u64 = (1 << AXIS_ORDINAL_BITS) - 1;

/// The causal domain of an axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum CausalDomain {
    /// A device queue.
    Queue = 0,
    /// A collective operation.
    Collective = 1,
    /// An epilogue.
    Epilogue = 2,
    /// The host.
    Host = 3,
}

/// One causal axis (see the module docs for the layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Axis(pub u64);

impl Axis {
    /// An axis from its four fields; `ordinal` is masked to 40 bits.
    pub const fn new(session_epoch: u8, machine_index: u8, domain: u8, ordinal: u64) -> Axis {
        Axis(
            (session_epoch as u64) << 56
                | (machine_index as u64) << 48
                | (domain as u64) << 40
                | (ordinal & AXIS_ORDINAL_MASK),
        )
    }

    /// The axis of queue `queue_index` of device `device_index`.
    pub const fn queue(
        session_epoch: u8,
        machine_index: u8,
        device_index: u8,
        queue_index: u8,
    ) -> Axis {
        Axis::new(
            session_epoch,
            machine_index,
            CausalDomain::Queue as u8,
            (device_index as u64) << 32 | (queue_index as u64) << 24,
        )
    }

    /// The session epoch, `[63:56]`.
    pub const fn session(self) -> u8 {
        (self.0 >> 56) as u8
    }

    /// The machine index, `[55:48]`.
    pub const fn machine(self) -> u8 {
        (self.0 >> 48) as u8
    }

    /// The raw causal domain byte, `[47:40]`.
    pub const fn domain_bits(self) -> u8 {
        (self.0 >> 40) as u8
    }

    /// The causal domain, if the byte names one.
    pub const fn domain(self) -> Option<CausalDomain> {
        match self.domain_bits() {
            0 => Some(CausalDomain::Queue),
            1 => Some(CausalDomain::Collective),
            2 => Some(CausalDomain::Epilogue),
            3 => Some(CausalDomain::Host),
            _ => None,
        }
    }

    /// The 40-bit ordinal.
    pub const fn ordinal(self) -> u64 {
        self.0 & AXIS_ORDINAL_MASK
    }

    /// The device index of a queue axis, ordinal `[39:32]`.
    pub const fn device_index(self) -> u8 {
        (self.ordinal() >> 32) as u8
    }

    /// The queue index of a queue axis, ordinal `[31:24]`.
    pub const fn queue_index(self) -> u8 {
        (self.ordinal() >> 24) as u8
    }
}

impl std::fmt::Display for Axis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x{:016x}", self.0)
    }
}

/// Options of a [`FrontierTracker`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrontierTrackerOptions {
    /// The session epoch stamped into every axis (IREE's default: 1).
    pub session_epoch: u8,
    /// This machine's index (IREE's default: 0).
    pub machine_index: u8,
}

impl Default for FrontierTrackerOptions {
    fn default() -> Self {
        FrontierTrackerOptions {
            session_epoch: 1,
            machine_index: 0,
        }
    }
}

/// The identity shared by the devices of a group for causal tracking: the
/// session epoch and machine index every base axis is built from. Devices
/// hold it behind an `Arc`, whose address is the tracker's identity.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct FrontierTracker {
    options: FrontierTrackerOptions,
}

impl FrontierTracker {
    /// A tracker with the given options.
    pub fn new(options: FrontierTrackerOptions) -> FrontierTracker {
        FrontierTracker { options }
    }

    /// The session epoch.
    pub fn session_epoch(&self) -> u8 {
        self.options.session_epoch
    }

    /// The machine index.
    pub fn machine_index(&self) -> u8 {
        self.options.machine_index
    }

    /// The base axis of device `device_index` (its queue 0).
    pub fn base_axis(&self, device_index: u8) -> Axis {
        Axis::queue(self.session_epoch(), self.machine_index(), device_index, 0)
    }
}
