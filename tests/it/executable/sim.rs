//! Executables on the simulated ROCm node: every fixture whose target a
//! preset has loads there with reflection agreeing with the metadata as
//! `llvm-readelf-19 --notes` reads it (IREE's projection applied by hand in
//! `support::notes_oracle`);
//! incompatible targets and the mixed-ISA node fail; and exhaustive fault
//! injection with the simulator's own faults and live-object counters.

use crate::support;

use std::sync::Arc;

use amdgpu_hal::StatusCode;
use amdgpu_hal::amdgpu::agents::{AgentTopology, DEFAULT_GPU_AGENT_QUEUE_COUNT};
use amdgpu_hal::amdgpu::executable::{Container, ExecutableParams, create, is_wrapped};
use amdgpu_hal::amdgpu::isa::verify_device_isa_commonality;
use amdgpu_hal::amdgpu::profile::ProfileRegistry;
use amdgpu_hal::amdgpu::queue_affinity::QUEUE_AFFINITY_ANY;
use amdgpu_hal::backend::Backend;
use amdgpu_hal::backend::sim::load_machine;
use amdgpu_hal::codeobj::elf::target_id_from_elf;
use amdgpu_hal::codeobj::metadata::ParameterType;
use amdgpu_hal::wrapped::{Amd1Executable, DataExtent};
use amdgpu_sim::{Fault, HsaCode, Sim};

struct Node {
    sim: Arc<Sim>,
    backend: Backend,
    topology: AgentTopology,
}

fn node(preset: &str) -> Node {
    let sim = Arc::new(Sim::new(load_machine(preset).unwrap()));
    let backend = Backend::from_sim(Arc::clone(&sim), preset);
    backend.hsa().unwrap().init().unwrap();
    let topology =
        AgentTopology::from_backend(backend.hsa().unwrap(), DEFAULT_GPU_AGENT_QUEUE_COUNT).unwrap();
    Node {
        sim,
        backend,
        topology,
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

fn preset_for(processor: &str) -> Option<&'static str> {
    match processor {
        "gfx942" | "gfx9-4-generic" => Some("mi300x-8"),
        "gfx90a" => Some("mi250x-4"),
        "gfx1100" | "gfx11-generic" => Some("w7900"),
        _ => None,
    }
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

#[test]
fn fixtures_load_on_their_preset_with_reflection_matching_metadata() {
    let Some(readelf) =
        support::requires::llvm_readelf("fixture reflection vs llvm-readelf-19 --notes")
    else {
        return;
    };
    let mut loaded = 0;
    for dir in ["fixtures/hsaco", "fixtures/iree"] {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut files: Vec<_> = std::fs::read_dir(root)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for file in files {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            if !(name.ends_with(".hsaco") || name.ends_with(".amd1")) || name.contains("spirv") {
                continue;
            }
            let data = std::fs::read(&file).unwrap();
            let image = if is_wrapped(&data) {
                Amd1Executable::parse(&data, DataExtent::Known)
                    .unwrap()
                    .single_module_image()
                    .unwrap()
            } else {
                &data[..]
            };
            let target = target_id_from_elf(image).unwrap();
            let Some(preset) = preset_for(&target.processor) else {
                continue;
            };
            let oracle = support::notes_oracle::kernels_of_image(readelf, image, &name);
            if oracle.iter().any(|k| k.iree_projection().is_none()) {
                continue; // outside IREE's HAL projection (tested with the scripted node)
            }
            let n = node(preset);
            let format = target.to_string();
            let registry = ProfileRegistry::new();
            let exe = create(
                n.backend.hsa_arc().unwrap(),
                &n.topology,
                &params(&data, &format),
                &registry,
            )
            .unwrap_or_else(|e| panic!("{name} on {preset}: {e}"));
            assert_eq!(
                exe.loaded_devices().len(),
                n.topology.gpu_agents().len(),
                "{name}"
            );
            for ordinal in 0..exe.export_count() as u64 {
                let symbol = exe.export_symbol(ordinal).unwrap();
                let kernel = oracle.iter().find(|k| k.symbol == symbol).unwrap();
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
                        (kind, p.size, p.name.as_str(), p.offset)
                    })
                    .collect();
                let projected = kernel.iree_projection().unwrap();
                let expected: Vec<_> = projected
                    .parameters
                    .iter()
                    .map(|p| (p.kind, p.size, p.name.as_str(), p.offset))
                    .collect();
                assert_eq!(actual, expected, "{name} {symbol}");
                let host = exe.kernel_args_for_host(ordinal).unwrap();
                assert_eq!(
                    host.kernarg_size, kernel.kernarg_segment_size,
                    "{name} {symbol}"
                );
                // ROCr (and so the simulator) reports 16 for code object v3+ kernels.
                assert_eq!(host.kernarg_alignment, 16, "{name} {symbol}");
                if exe.container() == Container::RawHsaco {
                    assert_eq!(
                        exe.export_info(ordinal).unwrap().name,
                        kernel.reflection_name()
                    );
                }
                for device in exe.loaded_devices() {
                    let d = exe.kernel_args_for_device(ordinal, device).unwrap();
                    assert_ne!(d.kernel_args.kernel_object, 0, "{name}");
                    // The uploaded table holds exactly the record we describe.
                    let mut record = [0u8; 40];
                    n.backend
                        .hsa()
                        .unwrap()
                        .memory_copy_from_device(&mut record, d.address)
                        .unwrap();
                    assert_eq!(record, d.kernel_args.to_device_record().unwrap(), "{name}");
                }
            }
            let load = registry
                .lookup_code_object_load(exe.profile_id(), 0)
                .unwrap();
            assert!(load.load.load_size > 0, "{name}");
            drop(exe);
            assert!(
                n.sim.live_objects().is_empty(),
                "{name}: {:?}",
                n.sim.live_objects()
            );
            loaded += 1;
        }
    }
    assert!(loaded >= 20, "{loaded} fixtures loaded");
}

#[test]
fn globals_come_from_the_code_object() {
    let data = read("fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");
    let n = node("mi300x-8");
    let exe = create(
        n.backend.hsa_arc().unwrap(),
        &n.topology,
        &params(&data, "gfx942"),
        &ProfileRegistry::new(),
    )
    .unwrap();
    let global = exe.lookup_global_by_name("counter", 0b1100).unwrap();
    assert_eq!((global.physical_device_ordinal, global.size), (1, 4));
    let mut value = [0u8; 4];
    n.backend
        .hsa()
        .unwrap()
        .memory_copy_from_device(&mut value, global.address)
        .unwrap();
    assert_eq!(i32::from_le_bytes(value), 42);
    let err = exe.lookup_global_by_name("missing", 0).unwrap_err();
    assert!(err.mentions("hsa_executable_get_symbol_by_name"), "{err}");
    drop(exe);
    assert!(
        !n.sim.live_objects().is_empty(),
        "the global keeps the executable alive"
    );
    drop(global);
    assert!(n.sim.live_objects().is_empty());
}

#[test]
fn gfx942_on_w7900_and_xnack_on_are_incompatible() {
    let data = read("fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");
    let n = node("w7900");
    let err = create(
        n.backend.hsa_arc().unwrap(),
        &n.topology,
        &params(&data, "gfx1100"),
        &ProfileRegistry::new(),
    )
    .unwrap_err();
    assert_eq!(err.code(), StatusCode::Incompatible);
    assert!(
        err.mentions("AMDGPU code object target `gfx942:sramecc+:xnack-`"),
        "{err}"
    );
    assert!(
        err.mentions("target `gfx1100` (mismatched processor"),
        "{err}"
    );
    assert!(n.sim.live_objects().is_empty());

    let mut xnack = data.clone();
    let flags = u32::from_le_bytes(xnack[48..52].try_into().unwrap());
    xnack[48..52].copy_from_slice(&(flags | 0x300).to_le_bytes());
    let n = node("mi300x-8");
    let err = create(
        n.backend.hsa_arc().unwrap(),
        &n.topology,
        &params(&xnack, "gfx942"),
        &ProfileRegistry::new(),
    )
    .unwrap_err();
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
fn mixed_isa_preset_fails_commonality() {
    let n = node("mixed-isa");
    let err = verify_device_isa_commonality(n.backend.hsa().unwrap(), &n.topology).unwrap_err();
    assert_eq!(err.code(), StatusCode::FailedPrecondition);
    assert!(err.mentions("does not match GPU agent["), "{err}");
    assert!(err.mentions("(mismatched processor)"), "{err}");
    verify_device_isa_commonality(
        node("mi300x-8").backend.hsa().unwrap(),
        &node("mi300x-8").topology,
    )
    .unwrap();
}

/// Every HSA call of a successful load, failed in turn (transient: that call
/// only; persistent: that call and every later call of the same function).
fn exhaust(data: &[u8], format: &str) -> usize {
    let n = node("mi300x-8");
    let before = n.sim.hsa_call_count();
    let exe = create(
        n.backend.hsa_arc().unwrap(),
        &n.topology,
        &params(data, format),
        &ProfileRegistry::new(),
    )
    .unwrap();
    let (log, _) = n.sim.call_log();
    let all: Vec<&'static str> = log.iter().map(|r| r.op).collect();
    let setup = before as usize;
    let calls = &all[setup..];
    drop(exe);
    assert!(n.sim.live_objects().is_empty());

    let mut points = 0;
    for (i, op) in calls.iter().enumerate() {
        // `OP@N` counts from arming, which follows the topology walk.
        let nth = calls[..=i].iter().filter(|o| *o == op).count() as u64;
        for persistent in [false, true] {
            let n = node("mi300x-8");
            let fault = Fault::nth_of(op, nth, HsaCode::ERROR);
            n.sim.inject_hsa(if persistent {
                fault.persistent()
            } else {
                fault
            });
            let err = match create(
                n.backend.hsa_arc().unwrap(),
                &n.topology,
                &params(data, format),
                &ProfileRegistry::new(),
            ) {
                Ok(_) => panic!("call {i} `{op}` #{nth} failed but creation succeeded"),
                Err(err) => err,
            };
            assert!(err.mentions(&format!("[{op}]")), "call {i} `{op}`: {err}");
            let live = n.sim.live_objects();
            n.sim.clear_faults();
            if *op == "hsa_code_object_reader_destroy" {
                // The runtime refused to release the reader: only it remains.
                assert_eq!(
                    (live.allocations, live.executables, live.readers),
                    (0, 0, 1),
                    "{err}"
                );
            } else {
                assert!(
                    live.is_empty(),
                    "call {i} `{op}` (persistent: {persistent}) leaked {live:?}: {err}"
                );
            }
            points += 1;
        }
    }
    points
}

#[test]
fn exhaustive_fault_injection_raw_hsaco_on_the_simulator() {
    let data = read("fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");
    let points = exhaust(&data, "gfx942:sramecc+:xnack-");
    println!("simulator, raw HSACO on mi300x-8: {points} injection points");
    assert!(points > 200);
}

#[test]
fn exhaustive_fault_injection_wrapped_on_the_simulator() {
    let data = read("fixtures/iree/multi_dispatch.gfx942.amd1");
    let points = exhaust(&data, "gfx942");
    println!("simulator, wrapped AMD1 on mi300x-8: {points} injection points");
    assert!(points > 200);
}
