//! Queue affinity: mapping HAL queue bits onto physical GPU devices.
//!
//! A logical AMDGPU device exposes `Q` queues per physical GPU agent. Flat
//! queue ordinal `q` belongs to physical device `q / Q` (its queue `q % Q`), so
//! device `d` owns the affinity bits `[d*Q, d*Q + Q)`. IREE's
//! `queue_affinity.c` semantics, errors and messages are kept; the functions
//! are methods of [`QueueAffinityDomain`].
//!
//! ```
//! use amdgpu_hal::amdgpu::queue_affinity::{QueueAffinityDomain, QUEUE_AFFINITY_ANY};
//! let domain = QueueAffinityDomain::new(0xF, 2, 2);
//! let set = domain.select_physical_devices(0x8).unwrap();
//! assert_eq!((set.physical_device_mask, set.first_physical_device_ordinal), (0x2, 1));
//! assert_eq!(domain.for_physical_device(1).unwrap(), 0xC);
//! assert!(!domain.is_physical_device_local(QUEUE_AFFINITY_ANY, 1));
//! ```

use crate::status::{Result, Status};

/// A set of HAL queues, one bit per flat queue ordinal.
pub type QueueAffinity = u64;

/// Every queue (`IREE_HAL_QUEUE_AFFINITY_ANY`).
pub const QUEUE_AFFINITY_ANY: QueueAffinity = u64::MAX;

/// Number of queues an affinity mask can name (`IREE_HAL_MAX_QUEUES`).
pub const MAX_QUEUES: usize = 64;

/// Intersects `requested` with `supported`; [`QUEUE_AFFINITY_ANY`] means "all
/// supported". A zero result is `INVALID_ARGUMENT` (requested 0 is *not* ANY).
pub fn normalize(supported: QueueAffinity, requested: QueueAffinity) -> Result<QueueAffinity> {
    try_normalize(supported, requested)
        .ok_or_else(|| Status::invalid_argument("no valid queue affinity bits specified"))
}

fn try_normalize(supported: QueueAffinity, requested: QueueAffinity) -> Option<QueueAffinity> {
    let base = if requested == QUEUE_AFFINITY_ANY {
        supported
    } else {
        requested
    };
    let normalized = base & supported;
    (normalized != 0).then_some(normalized)
}

/// The queues of a logical device: which bits exist and how they map onto
/// physical devices (`iree_hal_amdgpu_queue_affinity_domain_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QueueAffinityDomain {
    /// Queue bits the logical device supports.
    pub supported_affinity: QueueAffinity,
    /// Number of physical GPU devices.
    pub physical_device_count: usize,
    /// Queues per physical device (`Q`).
    pub queue_count_per_physical_device: usize,
}

/// One queue resolved from an affinity (`..._queue_affinity_resolved_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResolvedQueue {
    /// The normalized affinity the queue was picked from (for
    /// [`QueueAffinityDomain::resolve_ordinal`], just the queue's own bit).
    pub queue_affinity: QueueAffinity,
    /// Flat queue ordinal.
    pub queue_ordinal: usize,
    /// Physical device owning the queue.
    pub physical_device_ordinal: usize,
    /// Queue ordinal within that physical device.
    pub physical_queue_ordinal: usize,
}

/// The physical devices an affinity selects (`..._physical_device_set_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PhysicalDeviceSet {
    /// The normalized affinity (may include bits no device owns, as in IREE).
    pub queue_affinity: QueueAffinity,
    /// Bit `d` set for each selected physical device `d`.
    pub physical_device_mask: u64,
    /// Lowest selected physical device ordinal.
    pub first_physical_device_ordinal: usize,
    /// Number of selected physical devices.
    pub physical_device_count: usize,
}

impl PhysicalDeviceSet {
    /// True if physical device `ordinal` is selected.
    pub fn contains(&self, ordinal: usize) -> bool {
        ordinal < MAX_QUEUES && self.physical_device_mask & (1u64 << ordinal) != 0
    }

    /// The selected physical device ordinals, ascending.
    pub fn ordinals(&self) -> impl Iterator<Item = usize> + '_ {
        (0..MAX_QUEUES).filter(|&d| self.contains(d))
    }
}

fn no_queues() -> Status {
    Status::invalid_argument("AMDGPU queue affinity domain has no queues per physical device")
}

impl QueueAffinityDomain {
    /// A domain with the given supported bits, device count and queues per device.
    pub const fn new(
        supported_affinity: QueueAffinity,
        physical_device_count: usize,
        queue_count_per_physical_device: usize,
    ) -> QueueAffinityDomain {
        QueueAffinityDomain {
            supported_affinity,
            physical_device_count,
            queue_count_per_physical_device,
        }
    }

    /// The domain of `device_count` devices with `queues_per_device` queues
    /// each where every owned bit is supported (how executables build it).
    pub fn for_devices(
        device_count: usize,
        queues_per_device: usize,
    ) -> Result<QueueAffinityDomain> {
        let mut domain = QueueAffinityDomain::new(0, device_count, queues_per_device);
        let mut supported = 0;
        for d in 0..device_count {
            supported |= domain.for_physical_device(d)?;
        }
        domain.supported_affinity = supported;
        Ok(domain)
    }

    /// The queue with flat ordinal `queue_ordinal`.
    pub fn resolve_ordinal(&self, queue_ordinal: usize) -> Result<ResolvedQueue> {
        let q = self.queue_count_per_physical_device;
        if q == 0 {
            return Err(no_queues());
        }
        if queue_ordinal >= MAX_QUEUES {
            return Err(crate::status!(
                OutOfRange,
                "queue ordinal {queue_ordinal} exceeds affinity bit capacity {MAX_QUEUES}"
            ));
        }
        let device = queue_ordinal / q;
        if device >= self.physical_device_count {
            return Err(crate::status!(
                OutOfRange,
                "queue ordinal {queue_ordinal} maps to invalid physical device ordinal {device}"
            ));
        }
        Ok(ResolvedQueue {
            queue_affinity: 1u64 << queue_ordinal,
            queue_ordinal,
            physical_device_ordinal: device,
            physical_queue_ordinal: queue_ordinal % q,
        })
    }

    /// Normalizes `requested` and resolves its lowest queue; the result's
    /// `queue_affinity` is the whole normalized mask.
    pub fn resolve(&self, requested: QueueAffinity) -> Result<ResolvedQueue> {
        let normalized = normalize(self.supported_affinity, requested)?;
        let mut resolved = self.resolve_ordinal(normalized.trailing_zeros() as usize)?;
        resolved.queue_affinity = normalized;
        Ok(resolved)
    }

    /// [`QueueAffinityDomain::resolve`] without an error: `None` when invalid.
    pub fn try_resolve(&self, requested: QueueAffinity) -> Option<ResolvedQueue> {
        self.resolve(requested).ok()
    }

    /// The `Q` bits owned by physical device `ordinal`.
    pub fn for_physical_device(&self, ordinal: usize) -> Result<QueueAffinity> {
        let q = self.queue_count_per_physical_device;
        if q == 0 {
            return Err(no_queues());
        }
        if ordinal >= self.physical_device_count {
            return Err(crate::status!(
                OutOfRange,
                "physical device ordinal {ordinal} exceeds physical device count {}",
                self.physical_device_count
            ));
        }
        match ordinal.checked_mul(q) {
            Some(first) if first < MAX_QUEUES && q <= MAX_QUEUES - first => {
                let bits = if q == MAX_QUEUES {
                    u64::MAX
                } else {
                    ((1u64 << q) - 1) << first
                };
                Ok(bits)
            }
            _ => Err(crate::status!(
                OutOfRange,
                "physical device queue range does not fit in queue affinity \
                 (physical_device_ordinal={ordinal}, queue_count_per_physical_device={q})"
            )),
        }
    }

    /// The physical devices owning at least one supported bit of `requested`.
    pub fn select_physical_devices(&self, requested: QueueAffinity) -> Result<PhysicalDeviceSet> {
        if self.physical_device_count > MAX_QUEUES {
            return Err(crate::status!(
                OutOfRange,
                "AMDGPU physical device count {} exceeds physical device mask capacity {MAX_QUEUES}",
                self.physical_device_count
            ));
        }
        let normalized = normalize(self.supported_affinity, requested)?;
        let mut set = PhysicalDeviceSet {
            queue_affinity: normalized,
            physical_device_mask: 0,
            first_physical_device_ordinal: 0,
            physical_device_count: 0,
        };
        for d in 0..self.physical_device_count {
            let owned = self.for_physical_device(d)? & self.supported_affinity;
            if normalized & owned == 0 {
                continue;
            }
            if set.physical_device_count == 0 {
                set.first_physical_device_ordinal = d;
            }
            set.physical_device_mask |= 1u64 << d;
            set.physical_device_count += 1;
        }
        if set.physical_device_count == 0 {
            return Err(crate::status!(
                InvalidArgument,
                "queue affinity 0x{requested:x} selects no physical devices"
            ));
        }
        Ok(set)
    }

    /// Narrows `requested` to the queues of one physical device: ANY gives all
    /// supported queues of the first device; an explicit mask must stay
    /// within one device (`UNIMPLEMENTED` otherwise).
    pub fn normalize_for_physical_device(
        &self,
        requested: QueueAffinity,
    ) -> Result<(QueueAffinity, usize)> {
        let resolved = self.resolve(requested)?;
        let device = resolved.physical_device_ordinal;
        let owned = self.for_physical_device(device)? & self.supported_affinity;
        if requested == QUEUE_AFFINITY_ANY {
            return Ok((owned, device));
        }
        if resolved.queue_affinity & !owned != 0 {
            return Err(crate::status!(
                Unimplemented,
                "AMDGPU queue affinity 0x{requested:x} spans multiple physical devices"
            ));
        }
        Ok((resolved.queue_affinity & owned, device))
    }

    /// True if every normalized bit of `requested` belongs to device `ordinal`;
    /// false on any invalid input.
    pub fn is_physical_device_local(&self, requested: QueueAffinity, ordinal: usize) -> bool {
        let Some(normalized) = try_normalize(self.supported_affinity, requested) else {
            return false;
        };
        match self.for_physical_device(ordinal) {
            Ok(owned) => normalized & !(owned & self.supported_affinity) == 0,
            Err(_) => false,
        }
    }
}
