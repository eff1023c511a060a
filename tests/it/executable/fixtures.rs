//! Every fixture (clang-built raw HSACO, IREE-built wrapped and raw) loads
//! on a node of its target and its reflection agrees with the code object's
//! metadata as `llvm-readelf-19 --notes` reads it, projected by IREE's rules
//! by hand (`support::notes_oracle`); incompatible targets, mixed-ISA nodes
//! and IREE's creation rules fail with IREE's codes and messages.

use crate::exec_support;
use crate::support;

use std::sync::Arc;

use amdgpu_hal::StatusCode;
use amdgpu_hal::amdgpu::executable::{
    Container, ExecutableParams, ExportFlags, create, is_wrapped,
};
use amdgpu_hal::amdgpu::isa::{self, FormatSupport, verify_device_isa_commonality};
use amdgpu_hal::amdgpu::kernarg::KernargLayout;
use amdgpu_hal::amdgpu::profile::{ProfileRegistry, hash_code_object};
use amdgpu_hal::amdgpu::queue_affinity::QUEUE_AFFINITY_ANY;
use amdgpu_hal::backend::Profile;
use amdgpu_hal::codeobj::elf::target_id_from_elf;
use amdgpu_hal::codeobj::metadata::ParameterType;
use amdgpu_hal::wrapped::{Amd1Executable, DataExtent};
use exec_support::{NodeConfig, Synthetic, node, synthetic_hsaco, topology};

fn isa_for(processor: &str) -> &'static str {
    match processor {
        "gfx942" => "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
        "gfx90a" => "amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack-",
        "gfx1030" => "amdgcn-amd-amdhsa--gfx1030",
        "gfx1100" => "amdgcn-amd-amdhsa--gfx1100",
        // Generic code objects run on an agent of their family.
        "gfx9-generic" => "amdgcn-amd-amdhsa--gfx900:xnack-",
        "gfx10-1-generic" => "amdgcn-amd-amdhsa--gfx1010:xnack-",
        "gfx10-3-generic" => "amdgcn-amd-amdhsa--gfx1030",
        "gfx11-generic" => "amdgcn-amd-amdhsa--gfx1100",
        "gfx12-generic" => "amdgcn-amd-amdhsa--gfx1200",
        other => panic!("no node for {other}"),
    }
}

fn params<'a>(data: &'a [u8], format: &'a str) -> ExecutableParams<'a> {
    ExecutableParams {
        executable_format: format,
        executable_data: data,
        queue_affinity: QUEUE_AFFINITY_ANY,
        constant_count: 0,
    }
}

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for dir in ["fixtures/hsaco", "fixtures/iree"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut entries: Vec<_> = std::fs::read_dir(&path)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for file in entries {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            let is_code = name.ends_with(".hsaco") || name.ends_with(".amd1");
            if is_code && !name.contains("spirv") {
                out.push((name, std::fs::read(&file).unwrap()));
            }
        }
    }
    out
}

#[test]
fn every_fixture_loads_and_its_reflection_agrees_with_metadata() {
    let Some(readelf) =
        support::requires::llvm_readelf("fixture reflection vs llvm-readelf-19 --notes")
    else {
        return;
    };
    let fixtures = fixtures();
    assert!(fixtures.len() >= 30, "{} fixtures", fixtures.len());
    for (name, data) in &fixtures {
        let (image, container) = if is_wrapped(data) {
            let wrapped = Amd1Executable::parse(data, DataExtent::Known).unwrap();
            (wrapped.single_module_image().unwrap(), Container::Wrapped)
        } else {
            (&data[..], Container::RawHsaco)
        };
        let oracle = support::notes_oracle::kernels_of_image(readelf, image, name);
        let target = target_id_from_elf(image).unwrap();
        let format = target.to_string();
        let config = NodeConfig::uniform(2, isa_for(&target.processor));
        let (mock, probe) = node(config.clone());
        let registry = ProfileRegistry::new();
        let result = create(
            Arc::new(mock),
            &topology(&config),
            &params(data, &format),
            &registry,
        );
        // A raw HSACO whose kernels do not all fit IREE's HAL projection
        // (e.g. a 1-byte `char` argument) cannot become a HAL executable: it
        // must fail naming every such kernel, not load.
        if container == Container::RawHsaco {
            let refused: Vec<_> = oracle
                .iter()
                .filter(|k| k.iree_projection().is_none())
                .collect();
            if !refused.is_empty() {
                let err = result.err().unwrap_or_else(|| panic!("{name} loaded"));
                assert_eq!(err.code(), StatusCode::InvalidArgument, "{name}: {err}");
                assert!(
                    err.mentions(&format!(
                        "{} of {} kernels are outside IREE's HAL projection",
                        refused.len(),
                        oracle.len()
                    )),
                    "{name}: {err}"
                );
                for kernel in refused {
                    let named = format!("AMDGPU kernel `{}`", kernel.reflection_name());
                    assert!(err.mentions(&named), "{name}: {err}");
                }
                continue;
            }
        }
        let exe = result.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(exe.container(), container, "{name}");
        assert_eq!(exe.loaded_devices(), [0, 1], "{name}");
        assert_eq!(exe.code_object_hash(), hash_code_object(image), "{name}");

        if container == Container::RawHsaco {
            assert_eq!(exe.export_count(), oracle.len(), "{name}");
        }
        for ordinal in 0..exe.export_count() as u64 {
            let info = exe.export_info(ordinal).unwrap();
            let symbol = exe.export_symbol(ordinal).unwrap();
            let kernel = oracle
                .iter()
                .find(|k| k.symbol == symbol)
                .unwrap_or_else(|| panic!("{name}: llvm-readelf has no kernel {symbol}"));
            let projected = kernel
                .iree_projection()
                .unwrap_or_else(|| panic!("{name}: {symbol} is outside IREE's projection"));
            let actual: Vec<_> = exe
                .export_parameters(ordinal)
                .unwrap()
                .iter()
                .map(|p| {
                    let kind = match p.kind {
                        ParameterType::Binding => "binding",
                        ParameterType::Constant => "constant",
                        ParameterType::BufferPtr => "buffer_ptr",
                    };
                    assert_eq!(p.flags, 0, "{name} {symbol}");
                    (kind, p.size, p.name.as_str(), p.offset)
                })
                .collect();
            let expected: Vec<_> = projected
                .parameters
                .iter()
                .map(|p| (p.kind, p.size, p.name.as_str(), p.offset))
                .collect();
            assert_eq!(actual, expected, "{name} {symbol}");
            assert_eq!(
                usize::from(info.parameter_count),
                projected.parameters.len(),
                "{name}"
            );
            // A wrapped executable's FlatBuffer may declare more than the
            // kernel's arguments need, never fewer.
            assert!(info.binding_count >= projected.binding_count, "{name}");
            assert!(info.constant_count >= projected.constant_count, "{name}");
            if container == Container::RawHsaco {
                assert_eq!(
                    (info.binding_count, info.constant_count),
                    (projected.binding_count, projected.constant_count),
                    "{name} {symbol}"
                );
                assert_eq!(info.name, kernel.reflection_name(), "{name}");
                match kernel.reqd_workgroup_size {
                    Some(reqd) => assert_eq!(
                        (info.workgroup_size, info.flags),
                        (reqd, ExportFlags::empty())
                    ),
                    None => assert_eq!(
                        (info.workgroup_size, info.flags),
                        ([1, 1, 1], ExportFlags::WORKGROUP_SIZE_DYNAMIC)
                    ),
                }
            }
            assert!(u64::from(exe.lookup_export_by_name(&info.name).unwrap()) <= ordinal);
            let host = exe.kernel_args_for_host(ordinal).unwrap();
            assert_eq!(host.kernel_object, 0);
            assert_eq!(host.kernarg_size, kernel.kernarg_segment_size, "{name}");
            assert_eq!(
                host.kernarg_alignment, kernel.kernarg_segment_align,
                "{name}"
            );
            assert_eq!(
                host.group_segment_size, kernel.group_segment_fixed_size,
                "{name}"
            );
            assert_eq!(
                host.private_segment_size, kernel.private_segment_fixed_size,
                "{name}"
            );
            assert_eq!(
                (host.binding_count, host.constant_count),
                (info.binding_count, info.constant_count)
            );
            for device in [0, 1] {
                let d = exe.kernel_args_for_device(ordinal, device).unwrap();
                assert_ne!(d.kernel_args.kernel_object, 0);
                let descriptor = exe.dispatch_descriptor(ordinal, device).unwrap();
                assert_eq!(descriptor.kernel_args, d.kernel_args);
                assert_eq!(descriptor.hal_kernarg_layout, KernargLayout::hal(host));
            }
        }
        let functions = registry.functions(exe.profile_id());
        assert_eq!(functions.len(), exe.export_count(), "{name}");
        let code = registry.code_object(exe.profile_id()).unwrap();
        assert_eq!(
            &*code.data, image,
            "{name}: the registry keeps the exact code-object bytes"
        );
        drop(exe);
        assert_eq!(
            probe.live().allocations + probe.live().executables + probe.live().readers,
            0
        );
    }
}

const GFX942: &[u8] =
    include_bytes!("../../../fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");
const GFX1100: &[u8] = include_bytes!("../../../fixtures/hsaco/vector_add.gfx1100.cov5.hsaco");

fn try_load(data: &[u8], format: &str, config: NodeConfig) -> amdgpu_hal::Status {
    let (mock, probe) = node(config.clone());
    let err = create(
        Arc::new(mock),
        &topology(&config),
        &params(data, format),
        &ProfileRegistry::new(),
    )
    .unwrap_err();
    let live = probe.live();
    assert_eq!(
        (live.readers, live.executables, live.allocations),
        (0, 0, 0),
        "{err}"
    );
    err
}

#[test]
fn gfx942_code_on_a_gfx1100_node_is_incompatible_naming_both_targets() {
    let err = try_load(
        GFX942,
        "gfx942:sramecc+:xnack-",
        NodeConfig::uniform(2, isa_for("gfx1100")),
    );
    assert_eq!(err.code(), StatusCode::Incompatible);
    assert!(err.mentions(
        "executable format `gfx942:sramecc+:xnack-` not supported by the devices in the topology"
    ));
    assert!(
        err.mentions("GPU agent[0] target `gfx1100` (mismatched processor, sramecc, xnack)"),
        "{err}"
    );
    // With a format that passes, the code object's own target is preflighted.
    let err = try_load(
        GFX942,
        "gfx1100",
        NodeConfig::uniform(2, isa_for("gfx1100")),
    );
    assert_eq!(err.code(), StatusCode::Incompatible);
    assert!(
        err.mentions(
            "AMDGPU code object target `gfx942:sramecc+:xnack-` is not compatible with GPU agent[0] \
             target `gfx1100` (mismatched processor, sramecc, xnack)"
        ),
        "{err}"
    );
}

/// The gfx942 fixture with its ELF xnack feature set to ON.
fn xnack_on() -> Vec<u8> {
    let mut data = GFX942.to_vec();
    let flags = u32::from_le_bytes(data[48..52].try_into().unwrap());
    data[48..52].copy_from_slice(&((flags & !0x300) | 0x300).to_le_bytes());
    data
}

#[test]
fn xnack_on_code_on_an_xnack_off_agent_is_incompatible() {
    let data = xnack_on();
    assert_eq!(
        target_id_from_elf(&data).unwrap().to_string(),
        "gfx942:sramecc+:xnack+"
    );
    let config = NodeConfig::uniform(2, isa_for("gfx942"));
    let err = try_load(&data, "gfx942:sramecc+:xnack+", config.clone());
    assert_eq!(err.code(), StatusCode::Incompatible);
    assert!(
        err.mentions("GPU agent[0] target `gfx942:sramecc+:xnack-` (mismatched xnack)"),
        "{err}"
    );
    let err = try_load(&data, "gfx942", config);
    assert_eq!(err.code(), StatusCode::Incompatible);
    assert!(
        err.mentions(
            "AMDGPU code object target `gfx942:sramecc+:xnack+` is not compatible with GPU agent[0] \
             target `gfx942:sramecc+:xnack-` (mismatched xnack)"
        ),
        "{err}"
    );
}

#[test]
fn mixed_isa_node_fails_commonality() {
    let mut config = NodeConfig::uniform(3, isa_for("gfx942"));
    config.gpu_isas[2] = isa_for("gfx1100").into();
    let (mock, _) = node(config.clone());
    let err = verify_device_isa_commonality(&mock, &topology(&config)).unwrap_err();
    assert_eq!(err.code(), StatusCode::FailedPrecondition);
    assert_eq!(
        err.message(),
        "GPU agent[0] ISA[0] target `gfx942:sramecc+:xnack-` does not match GPU agent[2] ISA[0] \
         target `gfx1100` (mismatched processor, sramecc, xnack)"
    );
    let (mock, _) = node(NodeConfig::uniform(4, isa_for("gfx942")));
    verify_device_isa_commonality(&mock, &topology(&NodeConfig::uniform(4, isa_for("gfx942"))))
        .unwrap();
    // A differing ISA count is its own message.
    let mut config = NodeConfig::uniform(2, isa_for("gfx942"));
    config.gpu_isas[1] = String::new();
    let (mock, _) = node(config.clone());
    let err = verify_device_isa_commonality(&mock, &topology(&config)).unwrap_err();
    assert!(
        err.mentions("gpu_agents[1] does not match gpu_agents[0]"),
        "{err}"
    );
}

#[test]
fn a_selected_agent_without_isas_fails_preflight() {
    let mut config = NodeConfig::uniform(2, isa_for("gfx942"));
    config.gpu_isas[1] = String::new();
    let err = try_load(GFX942, "gfx942", config);
    assert_eq!(err.code(), StatusCode::Incompatible);
    assert!(err.mentions("GPU agent[1] reports no AMDGPU ISA targets"));
}

#[test]
fn mismatched_profiles_are_incompatible() {
    let mut config = NodeConfig::uniform(2, isa_for("gfx942"));
    config.profiles[1] = Profile::Base;
    let err = try_load(GFX942, "gfx942", config);
    assert_eq!(err.code(), StatusCode::Incompatible);
    assert!(err.mentions("matching HSA executable profiles"), "{err}");
}

#[test]
fn creation_rules_and_their_codes() {
    let config = NodeConfig::uniform(2, isa_for("gfx942"));
    let (mock, _) = node(config.clone());
    let hsa: Arc<dyn amdgpu_hal::backend::Hsa> = Arc::new(mock);
    let topo = topology(&config);
    let registry = ProfileRegistry::new();
    let run = |p: ExecutableParams<'_>| create(Arc::clone(&hsa), &topo, &p, &registry).unwrap_err();

    let mut p = params(GFX942, "gfx942");
    p.constant_count = 1;
    let err = run(p);
    assert_eq!(err.code(), StatusCode::Unimplemented);
    assert!(err.mentions("executable constants not yet implemented"));

    let mut p = params(GFX942, "gfx942");
    p.queue_affinity = 0;
    assert_eq!(run(p).code(), StatusCode::InvalidArgument);
    let mut p = params(GFX942, "gfx942");
    p.queue_affinity = 1 << 40;
    assert!(run(p).mentions("no valid queue affinity bits"));

    assert_eq!(
        run(params(GFX942, "spirv")).code(),
        StatusCode::Incompatible
    );
    assert_eq!(
        run(params(GFX942, "gfx9x")).code(),
        StatusCode::InvalidArgument
    );

    let no_target = synthetic_hsaco(&Synthetic {
        kernels: 1,
        target: None,
        reqd_workgroup_size: None,
    });
    let err = run(params(&no_target, "gfx942"));
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.mentions("raw HSACO metadata is missing `amdhsa.target`"));

    let too_wide = synthetic_hsaco(&Synthetic {
        kernels: 1,
        target: Some("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"),
        reqd_workgroup_size: Some([2048, 1, 1]),
    });
    let err = run(params(&too_wide, "gfx942"));
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.mentions(
        "raw HSACO kernel `k0.kd` workgroup size dims 2048x1x1 exceed device maximum 1024x1024x1024"
    ));
    let too_many = synthetic_hsaco(&Synthetic {
        kernels: 1,
        target: Some("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"),
        reqd_workgroup_size: Some([1024, 2, 1]),
    });
    assert!(
        run(params(&too_many, "gfx942"))
            .mentions("workgroup size total 2048 exceeds device maximum 1024")
    );

    let empty_topology =
        amdgpu_hal::amdgpu::agents::AgentTopology::new(vec![], vec![], vec![], 2).unwrap();
    let err = create(
        Arc::clone(&hsa),
        &empty_topology,
        &params(GFX942, "gfx942"),
        &registry,
    )
    .unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.mentions("topology must have at least one GPU device"));

    // The gfx1100 fixture loads on its own node; the format check uses the
    // first selected agent's ISAs.
    let config = NodeConfig::uniform(1, isa_for("gfx1100"));
    let (mock, _) = node(config.clone());
    assert!(matches!(
        isa::format_supported(&mock, exec_support::gpu(0), "amdgcn-amd-amdhsa--gfx1100").unwrap(),
        FormatSupport::Supported(_)
    ));
    create(
        Arc::new(mock),
        &topology(&config),
        &params(GFX1100, "gfx1100"),
        &registry,
    )
    .unwrap();
}

#[test]
fn synthetic_dynamic_kernels_get_one_by_one_by_one() {
    let data = synthetic_hsaco(&Synthetic {
        kernels: 3,
        target: Some("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"),
        reqd_workgroup_size: None,
    });
    let config = NodeConfig::uniform(1, isa_for("gfx942"));
    let (mock, _) = node(config.clone());
    let exe = create(
        Arc::new(mock),
        &topology(&config),
        &params(&data, "gfx942"),
        &ProfileRegistry::new(),
    )
    .unwrap();
    assert_eq!(exe.export_count(), 3);
    let info = exe.export_info(2).unwrap();
    assert_eq!((info.name.as_str(), info.workgroup_size), ("k2", [1, 1, 1]));
    assert_eq!(info.flags, ExportFlags::WORKGROUP_SIZE_DYNAMIC);
    assert_eq!(
        (
            info.binding_count,
            info.constant_count,
            info.parameter_count
        ),
        (1, 1, 2)
    );
}
