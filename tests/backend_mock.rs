//! The backend traits' mocks script exact call sequences for HAL-side tests.

use std::sync::Arc;

use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::{
    Agent, Backend, CallResultExt, DeviceType, Hip, HipError, Hsa, HsaStatus, Isa, MockHip, MockHsa,
};
use mockall::Sequence;

#[test]
fn mock_hsa_scripts_an_agent_walk_in_order() {
    let mut hsa = MockHsa::new();
    let mut seq = Sequence::new();
    hsa.expect_iterate_agents()
        .times(1)
        .in_sequence(&mut seq)
        .returning(|| Ok(vec![Agent(1), Agent(2)]));
    hsa.expect_agent_device_type()
        .withf(|agent| *agent == Agent(1))
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_| Ok(DeviceType::Cpu));
    hsa.expect_agent_device_type()
        .withf(|agent| *agent == Agent(2))
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_| Ok(DeviceType::Gpu));
    hsa.expect_agent_iterate_isas()
        .times(1)
        .in_sequence(&mut seq)
        .returning(|_| Err(HsaStatus::ErrorOutOfResources));

    let hsa: Arc<dyn Hsa> = Arc::new(hsa);
    let agents = hsa.iterate_agents().unwrap();
    let kinds: Vec<_> = agents
        .iter()
        .map(|&a| hsa.agent_device_type(a).unwrap())
        .collect();
    assert_eq!(kinds, [DeviceType::Cpu, DeviceType::Gpu]);
    let status = hsa
        .agent_iterate_isas(agents[1])
        .call_status("hsa_agent_iterate_isas")
        .map(|isas: Vec<Isa>| isas.len())
        .unwrap_err();
    assert_eq!(status.code(), StatusCode::ResourceExhausted);
    assert!(status.mentions("[hsa_agent_iterate_isas] HSA_STATUS_ERROR_OUT_OF_RESOURCES"));
}

#[test]
fn mock_hip_goes_into_a_backend_bundle() {
    let mut hip = MockHip::new();
    hip.expect_get_device_count()
        .returning(|| Err(HipError::NoDevice));
    let backend = Backend::new("mock", "scripted", Arc::new(MockHsa::new()), Arc::new(hip));
    let status = backend
        .hip()
        .get_device_count()
        .call_status("hipGetDeviceCount")
        .unwrap_err();
    assert_eq!(status.code(), StatusCode::FailedPrecondition);
    assert!(status.mentions("hipErrorNoDevice"));
    assert!(backend.ccl().is_none());
    assert_eq!(backend.name(), "mock");
    let _: &dyn Hip = backend.hip();
}
