//! Properties: creation never panics on hostile bytes and never leaks, and
//! queue-affinity selection is consistent for any domain and mask.

use crate::exec_support;

use std::sync::Arc;

use amdgpu_hal::amdgpu::executable::{ExecutableParams, create};
use amdgpu_hal::amdgpu::profile::ProfileRegistry;
use amdgpu_hal::amdgpu::queue_affinity::{QUEUE_AFFINITY_ANY, QueueAffinityDomain};
use exec_support::{NodeConfig, node, topology};
use proptest::prelude::*;

const RAW: &[u8] =
    include_bytes!("../../../fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");
const WRAPPED: &[u8] = include_bytes!("../../../fixtures/iree/elementwise.gfx942.amd1");

fn load_leaves_nothing_behind(data: &[u8]) {
    let config = NodeConfig::uniform(2, "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
    let (mock, probe) = node(config.clone());
    let params = ExecutableParams {
        executable_format: "gfx942",
        executable_data: data,
        queue_affinity: QUEUE_AFFINITY_ANY,
        constant_count: 0,
    };
    let result = create(
        Arc::new(mock),
        &topology(&config),
        &params,
        &ProfileRegistry::new(),
    );
    if let Ok(exe) = &result {
        for ordinal in 0..exe.export_count() as u64 {
            exe.dispatch_descriptor(ordinal, 1).unwrap();
        }
    }
    drop(result);
    let live = probe.live();
    assert_eq!(
        (live.readers, live.executables, live.allocations),
        (0, 0, 0)
    );
}

fn mutate(base: &[u8], edits: &[(usize, u8)], cut: Option<usize>) -> Vec<u8> {
    let mut data = base.to_vec();
    for (at, byte) in edits {
        let i = at % data.len();
        data[i] = *byte;
    }
    if let Some(cut) = cut {
        data.truncate(cut % (data.len() + 1));
    }
    data
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn mutated_raw_hsaco_never_panics_or_leaks(
        edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8),
        cut in prop::option::of(any::<usize>()),
    ) {
        load_leaves_nothing_behind(&mutate(RAW, &edits, cut));
    }

    #[test]
    fn mutated_wrapped_never_panics_or_leaks(
        edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8),
        cut in prop::option::of(any::<usize>()),
    ) {
        load_leaves_nothing_behind(&mutate(WRAPPED, &edits, cut));
    }

    // No property over raw random bytes: they stop at the magic-number check
    // (`inputs/hostile.rs` has those rows); the two mutated-fixture
    // properties above reach the header, metadata and loader paths.

    #[test]
    fn selection_is_consistent(devices in 1usize..=16, queues in 1usize..=4, supported in any::<u64>(), requested in any::<u64>()) {
        let mut domain = QueueAffinityDomain::for_devices(devices, queues).unwrap();
        domain.supported_affinity &= supported | 1;
        if let Ok(set) = domain.select_physical_devices(requested) {
            prop_assert_eq!(set.physical_device_mask.count_ones() as usize, set.physical_device_count);
            prop_assert!(set.contains(set.first_physical_device_ordinal));
            for d in set.ordinals() {
                let owned = domain.for_physical_device(d).unwrap();
                prop_assert!(owned & set.queue_affinity != 0);
            }
            if let Ok((affinity, device)) = domain.normalize_for_physical_device(requested) {
                prop_assert!(set.contains(device));
                prop_assert!(domain.is_physical_device_local(affinity, device));
            }
        }
    }
}
