//! One executable shared by 16 threads doing every lookup at once, and the
//! ISA helpers' limits (ISA count, name length) on a scripted backend.

use crate::exec_support;

use std::sync::Arc;

use amdgpu_hal::StatusCode;
use amdgpu_hal::amdgpu::executable::{Executable, ExecutableParams, GlobalBuffer, create};
use amdgpu_hal::amdgpu::isa::{self, FormatSupport, MAX_AGENT_ISAS};
use amdgpu_hal::amdgpu::profile::ProfileRegistry;
use amdgpu_hal::amdgpu::queue_affinity::QUEUE_AFFINITY_ANY;
use amdgpu_hal::backend::{Agent, HsaStatus, Isa, IsaInfo};
use exec_support::{MockHsa, NodeConfig, Synthetic, answer, node, synthetic_hsaco, topology};

#[test]
fn executable_and_globals_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Executable>();
    assert_send_sync::<Arc<Executable>>();
    assert_send_sync::<GlobalBuffer>();
}

#[test]
fn sixteen_threads_look_up_concurrently() {
    const EXPORTS: usize = 256;
    let data = synthetic_hsaco(&Synthetic {
        kernels: EXPORTS,
        target: Some("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"),
        reqd_workgroup_size: Some([64, 1, 1]),
    });
    let config = NodeConfig::uniform(4, "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
    let (mock, _) = node(config.clone());
    let params = ExecutableParams {
        executable_format: "gfx942",
        executable_data: &data,
        queue_affinity: QUEUE_AFFINITY_ANY,
        constant_count: 0,
    };
    let exe = create(
        Arc::new(mock),
        &topology(&config),
        &params,
        &ProfileRegistry::new(),
    )
    .unwrap();
    let handles: Vec<_> = (0..16)
        .map(|t| {
            let exe = Arc::clone(&exe);
            std::thread::spawn(move || {
                let mut checked = 0usize;
                for round in 0..8 {
                    for i in 0..EXPORTS {
                        let i = (i * 7 + t + round) % EXPORTS;
                        let name = format!("k{i}");
                        let ordinal = exe.lookup_export_by_name(&name).unwrap();
                        assert_eq!(ordinal as usize, i);
                        let info = exe.export_info(u64::from(ordinal)).unwrap();
                        assert_eq!(info.name, name);
                        assert_eq!(exe.export_parameters(u64::from(ordinal)).unwrap().len(), 2);
                        let device = (t + i) % 4;
                        let args = exe
                            .kernel_args_for_device(u64::from(ordinal), device)
                            .unwrap();
                        let descriptor =
                            exe.dispatch_descriptor(u64::from(ordinal), device).unwrap();
                        assert_eq!(descriptor.kernel_args, args.kernel_args);
                        assert_eq!(descriptor.max_workgroup_count[0], u32::MAX / 64);
                        checked += 1;
                    }
                    let global = exe
                        .lookup_global_by_name("counter", 0b11 << (2 * (t % 4)))
                        .unwrap();
                    assert_eq!(global.physical_device_ordinal, t % 4);
                }
                checked
            })
        })
        .collect();
    let total: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert_eq!(total, 16 * 8 * EXPORTS);
}

fn one_agent(isas: usize, name_length: u32, name: &'static str) -> MockHsa {
    let mut m = MockHsa::new();
    m.expect_agent_iterate_isas()
        .returning(move |_| Ok((0..isas as u64).map(Isa).collect()));
    // The name as a runtime writes it: the length it reported (`out`), even
    // when the name is longer.
    m.expect_isa_get_info_alt()
        .returning(move |_, attribute, out| match attribute {
            IsaInfo::NameLength => answer(out, name_length),
            IsaInfo::Name => exec_support::answer_cut(out, name),
            other => panic!("not scripted: {other:?}"),
        });
    m
}

#[test]
fn isa_iteration_and_name_limits_are_iree_s() {
    const NAME: &str = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";
    let ok = one_agent(MAX_AGENT_ISAS, NAME.len() as u32 + 1, NAME);
    assert_eq!(isa::agent_isas(&ok, Agent(1)).unwrap().len(), 32);
    assert!(matches!(
        isa::format_supported(&ok, Agent(1), "gfx942").unwrap(),
        FormatSupport::Supported(t) if t.name == NAME
    ));

    let many = one_agent(MAX_AGENT_ISAS + 1, NAME.len() as u32 + 1, NAME);
    let err = isa::agent_isas(&many, Agent(1)).unwrap_err();
    assert_eq!(err.code(), StatusCode::ResourceExhausted);
    assert!(err.mentions("HSA_STATUS_ERROR_OUT_OF_RESOURCES"));

    for bad in [0, 66] {
        let m = one_agent(1, bad, NAME);
        let err = isa::isa_target(&m, Isa(0)).unwrap_err();
        assert_eq!(err.code(), StatusCode::ResourceExhausted);
        assert!(err.mentions(&format!("ISA name invalid (empty or too long: {bad})")));
    }
    // A 65-byte length (64 characters + NUL) is the longest accepted; the
    // name is never read past the length the runtime reported.
    let m = one_agent(1, 27, "amdgcn-amd-amdhsa--gfx1100:garbage");
    assert_eq!(
        isa::isa_target(&m, Isa(0)).unwrap().name,
        "amdgcn-amd-amdhsa--gfx1100"
    );

    // Formats that are not AMDGPU targets are unsupported without touching the backend.
    let untouched = MockHsa::new();
    assert_eq!(
        isa::format_supported(&untouched, Agent(1), "spirv").unwrap(),
        FormatSupport::Unsupported(None)
    );
    assert_eq!(
        isa::format_supported(&untouched, Agent(1), "gfx942:bogus+")
            .unwrap_err()
            .code(),
        StatusCode::InvalidArgument
    );

    let mut failing = MockHsa::new();
    failing
        .expect_agent_iterate_isas()
        .returning(|_| Err(HsaStatus::ErrorInvalidAgent));
    let err = isa::agent_isas(&failing, Agent(1)).unwrap_err();
    assert!(err.mentions("[hsa_agent_iterate_isas]"));
}
