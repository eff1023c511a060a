//! HAL code over scripted backends: the mocks stand for the vendor runtime
//! and every assertion is on what the HAL made of their answers (the agent
//! walk of `amdgpu::agents::AgentTopology`, the HIP driver over a `Backend`).
//! A call the HAL should not make has no expectation, so mockall fails it.

use std::sync::Arc;

use crate::mocks::{MockHip, MockHsa, answer};
use amdgpu_hal::StatusCode;
use amdgpu_hal::amdgpu::agents::AgentTopology;
use amdgpu_hal::backend::{Agent, AgentInfo, Backend, DeviceType, HipError, HsaStatus};
use amdgpu_hal::hip::driver::HipDriver;
use amdgpu_hal::hip::options::HipOptions;
use mockall::Sequence;

/// Scripts `hsa_iterate_agents` and, for each `(agent, type, node)`, the
/// device-type query and (CPU and GPU agents only) the node query, in order.
fn agent_walk(agents: &[(u64, DeviceType, u32)]) -> (MockHsa, Sequence) {
    let mut hsa = MockHsa::new();
    let mut seq = Sequence::new();
    let handles: Vec<Agent> = agents.iter().map(|(a, _, _)| Agent(*a)).collect();
    hsa.expect_iterate_agents()
        .times(1)
        .in_sequence(&mut seq)
        .return_once(move || Ok(handles));
    for &(agent, kind, node) in agents {
        hsa.expect_agent_get_info()
            .withf(move |a, attribute, _| (*a, *attribute) == (Agent(agent), AgentInfo::Device))
            .times(1)
            .in_sequence(&mut seq)
            .returning(move |_, _, out| answer(out, kind.raw()));
        if matches!(kind, DeviceType::Cpu | DeviceType::Gpu) {
            hsa.expect_agent_get_info()
                .withf(move |a, attribute, _| (*a, *attribute) == (Agent(agent), AgentInfo::Node))
                .times(1)
                .in_sequence(&mut seq)
                .returning(move |_, _, out| answer(out, node));
        }
    }
    (hsa, seq)
}

/// Two NUMA nodes, GPUs listed across them and a DSP the HAL must skip
/// without asking its node: GPUs keep enumeration order, each paired with
/// the CPU agent of its own node (GPU 2 on node 1 → CPU ordinal 1).
#[test]
fn agent_walk_pairs_each_gpu_with_the_cpu_of_its_node() {
    let (hsa, _seq) = agent_walk(&[
        (1, DeviceType::Cpu, 0),
        (2, DeviceType::Gpu, 1),
        (3, DeviceType::Cpu, 1),
        (4, DeviceType::Dsp, 0),
        (5, DeviceType::Gpu, 0),
    ]);
    let topology = AgentTopology::from_backend(&hsa, 2).unwrap();
    assert_eq!(topology.cpu_agents(), [Agent(1), Agent(3)]);
    assert_eq!(topology.gpu_agents(), [Agent(2), Agent(5)]);
    assert_eq!(
        (topology.cpu_for_gpu(0), topology.cpu_for_gpu(1)),
        (Some(1), Some(0))
    );
    assert_eq!(topology.gpu_agent_queue_count(), 2);
}

/// A failing node query stops the walk (no later agent is queried: the mock
/// has no expectation for one) with the vendor status mapped as IREE's
/// `iree_hsa_status_code` (amdgpu/util/libhsa.c) does: OUT_OF_RESOURCES is
/// RESOURCE_EXHAUSTED, and the call is named.
#[test]
fn a_failed_query_ends_the_walk_with_the_mapped_status() {
    let mut hsa = MockHsa::new();
    let mut seq = Sequence::new();
    hsa.expect_iterate_agents()
        .times(1)
        .in_sequence(&mut seq)
        .returning(|| Ok(vec![Agent(1), Agent(2), Agent(3)]));
    hsa.expect_agent_get_info()
        .withf(|a, attribute, _| (*a, *attribute) == (Agent(1), AgentInfo::Device))
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_, _, out| answer(out, DeviceType::Gpu.raw()));
    hsa.expect_agent_get_info()
        .withf(|_, attribute, _| *attribute == AgentInfo::Node)
        .times(1)
        .in_sequence(&mut seq)
        .return_const(Err(HsaStatus::ErrorOutOfResources));
    let status = AgentTopology::from_backend(&hsa, 1).unwrap_err();
    assert_eq!(status.code(), StatusCode::ResourceExhausted, "{status}");
    assert!(status.mentions("[hsa_agent_get_info]"), "{status}");
    assert!(
        status.mentions("HSA_STATUS_ERROR_OUT_OF_RESOURCES"),
        "{status}"
    );
}

/// A node with CPU agents only is refused as IREE's topology verification
/// (amdgpu/util/topology.c) refuses it: INVALID_ARGUMENT with the counts.
#[test]
fn a_walk_without_gpus_is_refused() {
    let (hsa, _seq) = agent_walk(&[(1, DeviceType::Cpu, 0)]);
    let status = AgentTopology::from_backend(&hsa, 1).unwrap_err();
    assert_eq!(status.code(), StatusCode::InvalidArgument, "{status}");
    assert!(
        status.mentions("cpu_agent_count=1, gpu_agent_count=0"),
        "{status}"
    );
}

/// The HIP driver over a backend bundle: `hipInit(0)` first (its failure is
/// creation's, FAILED_PRECONDITION for hipErrorInvalidDevice per IREE's
/// hip/status_util.c table, with the runtime's own name and string); then a
/// runtime that answers hipErrorNoDevice enumerates nothing and the default
/// device is IREE's "no compatible HIP devices were found"
/// (hip/hip_driver.c).
#[test]
fn hip_driver_over_a_scripted_backend() {
    let mut hip = MockHip::new();
    hip.expect_init()
        .withf(|flags| *flags == 0)
        .times(1)
        .return_const(Err(HipError::InvalidDevice));
    hip.expect_get_error_name()
        .return_const("hipErrorInvalidDevice".to_owned());
    hip.expect_get_error_string()
        .return_const("invalid device ordinal".to_owned());
    let backend = Backend::new("mock", "scripted", Arc::new(MockHsa::new()), Arc::new(hip));
    let status = HipDriver::from_backend(&backend, HipOptions::default()).unwrap_err();
    assert_eq!(status.code(), StatusCode::FailedPrecondition, "{status}");
    assert!(status.mentions("hipErrorInvalidDevice"), "{status}");
    assert!(status.mentions("hipInit"), "{status}");

    let mut hip = MockHip::new();
    hip.expect_init().times(1).return_const(Ok(()));
    hip.expect_get_device_count()
        .return_const(Err(HipError::NoDevice));
    let backend = Backend::new("mock", "scripted", Arc::new(MockHsa::new()), Arc::new(hip));
    assert!(backend.ccl().is_none());
    let driver = HipDriver::from_backend(&backend, HipOptions::default()).unwrap();
    assert_eq!(driver.device_count().unwrap(), 0);
    assert!(driver.query_available_devices().unwrap().is_empty());
    let status = driver.select_default_device().unwrap_err();
    assert_eq!(status.code(), StatusCode::Unavailable, "{status}");
    assert!(
        status.mentions("no compatible HIP devices were found"),
        "{status}"
    );
}
