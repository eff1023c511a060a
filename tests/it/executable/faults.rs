//! Exhaustive fault injection of executable creation, for both creation
//! paths: every backend call a successful load makes is failed in turn,
//! transiently and persistently. Each run must fail with an error naming the
//! failing call and leave no live reader, executable or allocation behind.

use crate::exec_support;

use std::sync::Arc;

use amdgpu_hal::StatusCode;
use amdgpu_hal::amdgpu::executable::{ExecutableParams, create};
use amdgpu_hal::amdgpu::profile::ProfileRegistry;
use amdgpu_hal::amdgpu::queue_affinity::QUEUE_AFFINITY_ANY;
use exec_support::{Injection, Live, Mode, NodeConfig, node, topology};

const ISA: &str = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";
const RAW: &[u8] =
    include_bytes!("../../../fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");
const WRAPPED: &[u8] = include_bytes!("../../../fixtures/iree/multi_dispatch.gfx942.amd1");

const NONE_LIVE: Live = Live {
    readers: 0,
    executables: 0,
    allocations: 0,
};

fn params<'a>(data: &'a [u8], format: &'static str) -> ExecutableParams<'a> {
    ExecutableParams {
        executable_format: format,
        executable_data: data,
        queue_affinity: QUEUE_AFFINITY_ANY,
        constant_count: 0,
    }
}

/// Fails each call of a successful load in turn; returns the number of
/// injection points (calls × modes).
fn exhaust(data: &[u8], format: &'static str, gpus: usize) -> usize {
    let config = NodeConfig::uniform(gpus, ISA);
    let (mock, probe) = node(config.clone());
    let registry = ProfileRegistry::new();
    let exe = create(
        Arc::new(mock),
        &topology(&config),
        &params(data, format),
        &registry,
    )
    .expect("the uninjected load succeeds");
    let calls = probe.calls();
    drop(exe);
    assert_eq!(
        probe.live(),
        NONE_LIVE,
        "destroying a loaded executable releases everything"
    );

    let mut points = 0;
    for (index, op) in calls.iter().enumerate() {
        for mode in [Mode::Transient, Mode::Persistent] {
            let (mock, probe) = node(config.clone());
            probe.inject(Some(Injection { index, mode }));
            let result = create(
                Arc::new(mock),
                &topology(&config),
                &params(data, format),
                &registry,
            );
            let failed = probe.failed();
            let status = match result {
                Ok(_) => panic!("call {index} `{op}` ({mode:?}) failed but creation succeeded"),
                Err(status) => status,
            };
            assert_eq!(
                failed.first(),
                Some(&(index, *op)),
                "injection fired at the planned call"
            );
            assert!(
                status.mentions(&format!("[{op}]")),
                "call {index} `{op}` ({mode:?}): error does not name the call: {status}"
            );
            // The injected failure itself, not some later one: the mock fails
            // with HSA_STATUS_ERROR_OUT_OF_RESOURCES, which IREE's
            // `iree_hsa_status_code` (amdgpu/util/libhsa.c) maps
            // to RESOURCE_EXHAUSTED.
            assert_eq!(
                status.code(),
                StatusCode::ResourceExhausted,
                "call {index} `{op}` ({mode:?}): {status}"
            );
            assert!(
                status.mentions("HSA_STATUS_ERROR_OUT_OF_RESOURCES"),
                "call {index} `{op}` ({mode:?}): {status}"
            );
            // A release the runtime refuses cannot be retried safely: that one
            // object stays live; everything else must still be released.
            let expected = if *op == "hsa_code_object_reader_destroy" {
                Live {
                    readers: 1,
                    ..NONE_LIVE
                }
            } else {
                NONE_LIVE
            };
            assert_eq!(
                probe.live(),
                expected,
                "call {index} `{op}` ({mode:?}) leaked: {status}"
            );
            points += 1;
        }
    }
    points
}

#[test]
fn raw_hsaco_creation_survives_every_injected_failure() {
    let points = exhaust(RAW, "gfx942:sramecc+:xnack-", 2);
    println!("raw HSACO: {points} injection points");
    assert!(points > 100, "{points}");
}

#[test]
fn wrapped_creation_survives_every_injected_failure() {
    let points = exhaust(WRAPPED, "gfx942", 2);
    println!("wrapped AMD1: {points} injection points");
    assert!(points > 100, "{points}");
}

/// Backend calls per creation are exactly `fixed + per_export * exports`: no
/// lookup that grows with the export count (IREE's linear symbol scans would
/// make the work O(n²); ours is counted here deterministically).
#[test]
fn backend_calls_grow_linearly_with_exports() {
    use exec_support::{Synthetic, synthetic_hsaco};
    let count = |exports: usize| {
        let data = synthetic_hsaco(&Synthetic {
            kernels: exports,
            target: Some(ISA),
            reqd_workgroup_size: Some([64, 1, 1]),
        });
        let config = NodeConfig::uniform(2, ISA);
        let (mock, probe) = node(config.clone());
        let exe = create(
            Arc::new(mock),
            &topology(&config),
            &params(&data, "gfx942"),
            &ProfileRegistry::new(),
        )
        .unwrap();
        assert_eq!(exe.export_count(), exports);
        probe.calls().len()
    };
    let (c10, c100, c1000) = (count(10), count(100), count(1000));
    let per_export = (c100 - c10) / 90;
    let fixed = c10 - 10 * per_export;
    assert_eq!(c1000, fixed + 1000 * per_export, "{c10} {c100} {c1000}");
    println!("backend calls: {fixed} + {per_export} per export (2 GPUs)");
}
