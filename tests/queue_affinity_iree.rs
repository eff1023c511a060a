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
