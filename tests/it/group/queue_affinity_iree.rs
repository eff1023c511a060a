//! IREE's `runtime/src/iree/hal/drivers/amdgpu/queue_affinity_test.cc`,
//! case by case with its values, plus the edges IREE's cases leave out
//! (ordinal 64, zero queues per device, the 64-bit overflow of a device's
//! range). An integration test so that `scripts/mutants.sh queue_affinity`
//! builds the library once per mutant, not twice.

use amdgpu_hal::StatusCode;
use amdgpu_hal::amdgpu::queue_affinity::{
    QUEUE_AFFINITY_ANY, QueueAffinityDomain, ResolvedQueue, normalize,
};

fn two_device_domain() -> QueueAffinityDomain {
    QueueAffinityDomain::new(0xF, 2, 2)
}

#[test]
fn normalize_any_expands_to_supported() {
    assert_eq!(normalize(0xF, QUEUE_AFFINITY_ANY).unwrap(), 0xF);
}

#[test]
fn normalize_intersects_explicit() {
    assert_eq!(normalize(0x3, 0x5).unwrap(), 0x1);
}

#[test]
fn normalize_rejects_empty_intersection() {
    let err = normalize(0x3, 0x4).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.mentions("no valid queue affinity bits"));
    assert_eq!(
        normalize(0x3, 0).unwrap_err().code(),
        StatusCode::InvalidArgument
    );
}

#[test]
fn resolve_selects_first_queue() {
    let r = two_device_domain().resolve(0xA).unwrap();
    assert_eq!(
        r,
        ResolvedQueue {
            queue_affinity: 0xA,
            queue_ordinal: 1,
            physical_device_ordinal: 0,
            physical_queue_ordinal: 1
        }
    );
}

#[test]
fn resolve_ordinal_maps_device_and_queue() {
    let r = two_device_domain().resolve_ordinal(3).unwrap();
    assert_eq!(
        r,
        ResolvedQueue {
            queue_affinity: 0x8,
            queue_ordinal: 3,
            physical_device_ordinal: 1,
            physical_queue_ordinal: 1
        }
    );
}

#[test]
fn resolve_ordinal_rejects_out_of_range() {
    let err = two_device_domain().resolve_ordinal(4).unwrap_err();
    assert_eq!(err.code(), StatusCode::OutOfRange);
    assert!(err.mentions("invalid physical device ordinal 2"));
    let err = two_device_domain().resolve_ordinal(64).unwrap_err();
    assert_eq!(err.code(), StatusCode::OutOfRange);
    let err = QueueAffinityDomain::new(0xF, 2, 0)
        .resolve_ordinal(0)
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
}

#[test]
fn try_resolve_false_for_invalid() {
    assert!(two_device_domain().try_resolve(0x10).is_none());
}

#[test]
fn physical_device_affinity_builds_queue_range() {
    assert_eq!(two_device_domain().for_physical_device(1).unwrap(), 0xC);
    assert_eq!(
        two_device_domain()
            .for_physical_device(2)
            .unwrap_err()
            .code(),
        StatusCode::OutOfRange
    );
    let full = QueueAffinityDomain::new(u64::MAX, 1, 64);
    assert_eq!(full.for_physical_device(0).unwrap(), u64::MAX);
    let overflow = QueueAffinityDomain::new(u64::MAX, 3, 32);
    assert_eq!(
        overflow.for_physical_device(2).unwrap_err().code(),
        StatusCode::OutOfRange
    );
}

#[test]
fn select_any_selects_all_devices() {
    let s = two_device_domain()
        .select_physical_devices(QUEUE_AFFINITY_ANY)
        .unwrap();
    assert_eq!(
        (
            s.queue_affinity,
            s.physical_device_mask,
            s.first_physical_device_ordinal,
            s.physical_device_count
        ),
        (0xF, 0x3, 0, 2)
    );
    assert_eq!(s.ordinals().collect::<Vec<_>>(), [0, 1]);
}

#[test]
fn select_explicit_device_mask() {
    let s = two_device_domain().select_physical_devices(0x8).unwrap();
    assert_eq!(
        (
            s.queue_affinity,
            s.physical_device_mask,
            s.first_physical_device_ordinal,
            s.physical_device_count
        ),
        (0x8, 0x2, 1, 1)
    );
}

#[test]
fn select_cross_device_mask() {
    let s = two_device_domain().select_physical_devices(0x5).unwrap();
    assert_eq!(
        (
            s.queue_affinity,
            s.physical_device_mask,
            s.first_physical_device_ordinal,
            s.physical_device_count
        ),
        (0x5, 0x3, 0, 2)
    );
}

#[test]
fn select_intersects_unsupported_bits() {
    let mut domain = two_device_domain();
    domain.supported_affinity = 0xD;
    let s = domain.select_physical_devices(0xA).unwrap();
    assert_eq!(
        (
            s.queue_affinity,
            s.physical_device_mask,
            s.first_physical_device_ordinal,
            s.physical_device_count
        ),
        (0x8, 0x2, 1, 1)
    );
}

#[test]
fn select_rejects_empty_intersection() {
    let err = two_device_domain()
        .select_physical_devices(0x10)
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
}

#[test]
fn select_rejects_unmapped_affinity() {
    let mut domain = two_device_domain();
    domain.supported_affinity = 0x10;
    let err = domain.select_physical_devices(0x10).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.mentions("selects no physical devices"));
}

#[test]
fn select_rejects_unrepresentable_mask() {
    let domain = QueueAffinityDomain::new(1, 65, 1);
    let err = domain.select_physical_devices(1).unwrap_err();
    assert_eq!(err.code(), StatusCode::OutOfRange);
}

#[test]
fn normalize_for_physical_device_cases() {
    let d = two_device_domain();
    assert_eq!(
        d.normalize_for_physical_device(QUEUE_AFFINITY_ANY).unwrap(),
        (0x3, 0)
    );
    assert_eq!(d.normalize_for_physical_device(0xC).unwrap(), (0xC, 1));
    let err = d.normalize_for_physical_device(0x5).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unimplemented);
    assert!(err.mentions("spans multiple physical devices"));
}

#[test]
fn device_local_affinity() {
    let d = two_device_domain();
    assert!(d.is_physical_device_local(0xC, 1));
    assert!(!d.is_physical_device_local(0x5, 1));
    assert!(!d.is_physical_device_local(QUEUE_AFFINITY_ANY, 1));
    assert!(!d.is_physical_device_local(0xC, 7));
}

#[test]
fn for_devices_supports_every_owned_bit() {
    let d = QueueAffinityDomain::for_devices(8, 2).unwrap();
    assert_eq!(d.supported_affinity, 0xFFFF);
    assert_eq!(
        QueueAffinityDomain::for_devices(64, 1)
            .unwrap()
            .supported_affinity,
        u64::MAX
    );
    assert_eq!(
        QueueAffinityDomain::for_devices(33, 2).unwrap_err().code(),
        StatusCode::OutOfRange
    );
}

// The cases below are not IREE's; their expected values follow from IREE's
// `queue_affinity.c` (cited per case) and the 64-bit affinity, by hand.

/// `try_resolve` is `resolve` without the error: IREE's
/// `ResolveSelectsFirstQueue` values, and `None` where `resolve` fails.
#[test]
fn try_resolve_is_resolve_without_the_error() {
    let d = two_device_domain();
    assert_eq!(
        d.try_resolve(0xA),
        Some(ResolvedQueue {
            queue_affinity: 0xA,
            queue_ordinal: 1,
            physical_device_ordinal: 0,
            physical_queue_ordinal: 1
        })
    );
    assert_eq!(d.try_resolve(0), None);
}

/// A device set holds at most 64 devices: ordinals 64 and beyond are never
/// in it (and asking must not shift past the mask).
#[test]
fn device_set_membership_stops_at_bit_63() {
    let all = QueueAffinityDomain::for_devices(64, 1).unwrap();
    let set = all.select_physical_devices(QUEUE_AFFINITY_ANY).unwrap();
    assert_eq!(
        (set.physical_device_mask, set.physical_device_count),
        (u64::MAX, 64)
    );
    assert!(set.contains(63));
    assert!(!set.contains(64));
    assert!(!set.contains(usize::MAX));
    assert_eq!(set.ordinals().count(), 64);
}

/// `select_physical_devices` refuses more than 64 devices before anything
/// else (IREE: OUT_OF_RANGE, "exceeds physical device mask capacity"), and
/// accepts exactly 64.
#[test]
fn select_refuses_more_than_64_devices_by_name() {
    let err = QueueAffinityDomain::new(1, 65, 1)
        .select_physical_devices(1)
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::OutOfRange);
    assert!(
        err.mentions("physical device count 65 exceeds physical device mask capacity 64"),
        "{err}"
    );
    let set = QueueAffinityDomain::new(1 << 63, 64, 1)
        .select_physical_devices(QUEUE_AFFINITY_ANY)
        .unwrap();
    assert_eq!(
        (set.physical_device_mask, set.first_physical_device_ordinal),
        (1 << 63, 63)
    );
}

/// A device's queue range must fit in the 64 bits (IREE's
/// `for_physical_device`: first ordinal below 64 and `Q` at most
/// `64 - first`): device 1 of 40 queues each would need bits 40..80.
#[test]
fn a_queue_range_past_bit_63_is_out_of_range() {
    for (devices, queues, ordinal) in [(2, 40, 1), (5, 32, 3), (3, 33, 1)] {
        let err = QueueAffinityDomain::new(u64::MAX, devices, queues)
            .for_physical_device(ordinal)
            .unwrap_err();
        assert_eq!(err.code(), StatusCode::OutOfRange, "{err}");
        assert!(err.mentions("does not fit in queue affinity"), "{err}");
    }
    // The last range that fits ends exactly at bit 63.
    let d = QueueAffinityDomain::new(u64::MAX, 2, 32);
    assert_eq!(d.for_physical_device(1).unwrap(), 0xFFFF_FFFF_0000_0000);
}

/// A flat ordinal of 64 or more is refused as past the affinity's bits even
/// when the device it would map to exists (IREE: "exceeds affinity bit
/// capacity").
#[test]
fn ordinal_64_is_past_the_affinity_bits() {
    let err = QueueAffinityDomain::new(u64::MAX, 65, 1)
        .resolve_ordinal(64)
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::OutOfRange);
    assert!(
        err.mentions("queue ordinal 64 exceeds affinity bit capacity 64"),
        "{err}"
    );
}

/// An explicit mask inside one device keeps exactly its own bits, not the
/// device's whole range (IREE: `selected = resolved & physical_device`).
#[test]
fn normalize_for_physical_device_keeps_a_partial_mask() {
    let d = two_device_domain();
    assert_eq!(d.normalize_for_physical_device(0x4).unwrap(), (0x4, 1));
    assert_eq!(d.normalize_for_physical_device(0x1).unwrap(), (0x1, 0));
}
