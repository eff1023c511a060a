//! The real FFI path end to end without a GPU: the `dylib` backend loads
//! `libamdgpu_sim_ffi.so` (the simulator as a C library, `sim/ffi`) as both
//! `libhsa-runtime64` and `libamdhip64`, and the topology, HIP-driver and
//! executable-loading suites run through `dlopen`, real function pointers
//! and real C structs. Every scenario must give exactly the transcript the
//! same suites give over the in-process simulator backend, and leave the
//! same live objects (none) and the same injected failures.
//!
//! Each FFI run is a child process (this binary, `harness = false`, with
//! `AMDGPU_SIM_FFI_CHILD` set): the shim reads its machine and faults from
//! the environment once per process. `AMDGPU_SIM_FFI_WRAPPER` prefixes the
//! child command (`scripts/valgrind-shim.sh` sets it to valgrind).
// The dylib backend exists only with feature `real`.
#![cfg(feature = "real")]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use amdgpu_hal::amdgpu::agents::AgentTopology;
use amdgpu_hal::amdgpu::executable::{ExecutableParams, create};
use amdgpu_hal::amdgpu::isa;
use amdgpu_hal::amdgpu::profile::ProfileRegistry;
use amdgpu_hal::amdgpu::queue_affinity::QUEUE_AFFINITY_ANY;
use amdgpu_hal::backend::dylib::hip::HipLibrary;
use amdgpu_hal::backend::dylib::hsa::HsaLibrary;
use amdgpu_hal::backend::{
    Backend, CallResultExt, Hip, HipDeviceAttribute, HipP2pAttribute, Hsa, HsaExt,
};
use amdgpu_hal::device::{FrontierTracker, FrontierTrackerOptions};
use amdgpu_hal::hip::{HipDriver, HipOptions};
use amdgpu_sim::Sim;
use serde_json::{Value, json};

const CHILD_ENV: &str = "AMDGPU_SIM_FFI_CHILD";
const OUT_ENV: &str = "AMDGPU_SIM_FFI_OUT";
const WRAPPER_ENV: &str = "AMDGPU_SIM_FFI_WRAPPER";

/// (machine, faults): every preset fault-free, then faults on each suite.
const SCENARIOS: &[(&str, &str)] = &[
    ("mi300x-8", ""),
    ("mi250x-4", ""),
    ("w7900", ""),
    ("mixed-isa", ""),
    ("cpu-only", ""),
    ("fixtures/machines/mi250x-4.toml", ""),
    // Executable loading fails at each resource step; nothing may leak.
    ("mi300x-8", "hsa_executable_freeze=0x1008"),
    ("mi300x-8", "hsa_amd_memory_pool_allocate@2=0x1008"),
    ("mi300x-8", "hsa_memory_copy@1+=0x1003"),
    ("mi300x-8", "hsa_executable_load_agent_code_object@3=0x100F"),
    (
        "mi300x-8",
        "hsa_code_object_reader_create_from_memory=0x1010",
    ),
    (
        "mi300x-8",
        "hsa_ven_amd_loader_loaded_code_object_get_info@2=0x1000",
    ),
    ("mi250x-4", "hsa_executable_symbol_get_info@5=0x1019"),
    // Topology and enumeration. (A per-call count must land on a call both
    // paths make: the C path asks a link's hop count again before its hops,
    // to size its buffer, where the in-process adapter does not, so
    // `hsa_amd_agent_memory_pool_get_info@N` would count differently by design.)
    ("mi250x-4", "hsa_amd_memory_pool_get_info@3=0x1001"),
    ("mi250x-4", "hsa_amd_agent_memory_pool_get_info=0x1001"),
    ("mi300x-8", "hsa@4=0x1008"),
    ("mi300x-8", "hipDeviceGetAttribute@3=1"),
    ("mi250x-4", "hipDeviceGetP2PAttribute=101"),
    ("mi250x-4", "hipGetDeviceCount=100"),
    ("w7900", "hipInit=101"),
];

const FIXTURES: &[(&str, &str)] = &[
    (
        "fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco",
        "gfx942:sramecc+:xnack-",
    ),
    ("fixtures/hsaco/kernels.gfx90a.cov5.hsaco", "gfx90a"),
    ("fixtures/hsaco/vector_add.gfx1100.cov5.hsaco", "gfx1100"),
    ("fixtures/iree/multi_dispatch.gfx942.amd1", "gfx942"),
    ("fixtures/iree/dynamic.gfx90a.amd1", "gfx90a"),
];

fn err(status: amdgpu_hal::Status) -> Value {
    json!({ "error": status.to_string() })
}

fn or_err(result: amdgpu_hal::Result<Value>) -> Value {
    result.unwrap_or_else(err)
}

/// Every agent, ISA, pool and agent–pool link as the HAL reads them.
fn devices(hsa: &dyn Hsa) -> amdgpu_hal::Result<Value> {
    let agents = hsa.iterate_agents().call_status("hsa_iterate_agents")?;
    let mut out = Vec::new();
    for &agent in &agents {
        let info = |f: &dyn Fn() -> Result<String, amdgpu_hal::backend::HsaStatus>| {
            f().unwrap_or_else(|e| format!("error {e}"))
        };
        let mut isas = Vec::new();
        for isa_handle in hsa.agent_iterate_isas(agent).unwrap_or_default() {
            isas.push(json!({
                "target": format!("{:?}", isa::isa_target(hsa, isa_handle)),
                "limits": format!("{:?}", isa::device_limits(hsa, isa_handle)),
            }));
        }
        let mut pools = Vec::new();
        for pool in hsa.agent_iterate_memory_pools(agent).unwrap_or_default() {
            let links: Vec<Value> = agents
                .iter()
                .map(|&peer| {
                    json!({
                        "access": format!("{:?}", hsa.agent_memory_pool_access(peer, pool)),
                        "hops": format!("{:?}", hsa.agent_memory_pool_num_link_hops(peer, pool)),
                        "links": format!("{:?}", hsa.agent_memory_pool_link_info(peer, pool)),
                    })
                })
                .collect();
            pools.push(json!({
                "segment": format!("{:?}", hsa.memory_pool_segment(pool)),
                "flags": format!("{:?}", hsa.memory_pool_global_flags(pool)),
                "size": format!("{:?}", hsa.memory_pool_size(pool)),
                "alloc": format!("{:?} {:?} {:?} {:?}",
                    hsa.memory_pool_alloc_allowed(pool), hsa.memory_pool_alloc_granule(pool),
                    hsa.memory_pool_alloc_alignment(pool), hsa.memory_pool_alloc_max_size(pool)),
                "all": format!("{:?}", hsa.memory_pool_accessible_by_all(pool)),
                "peers": links,
            }));
        }
        out.push(json!({
            "type": format!("{:?}", hsa.agent_device_type(agent)),
            "name": info(&|| hsa.agent_name(agent)),
            "vendor": info(&|| hsa.agent_vendor_name(agent)),
            "product": info(&|| hsa.agent_product_name(agent)),
            "uuid": info(&|| hsa.agent_uuid(agent)),
            "numbers": format!("{:?}", [hsa.agent_node(agent), hsa.agent_queues_max(agent),
                hsa.agent_wavefront_size(agent), hsa.agent_compute_unit_count(agent),
                hsa.agent_chip_id(agent), hsa.agent_bdf_id(agent), hsa.agent_domain(agent),
                hsa.agent_driver_uid(agent)]),
            "nearest_cpu": format!("{:?}", hsa.agent_nearest_cpu(agent)),
            "profile": format!("{:?} {:?}", hsa.agent_profile(agent),
                hsa.agent_default_float_rounding_mode(agent)),
            "isas": isas,
            "pools": pools,
        }));
    }
    Ok(Value::Array(out))
}

/// Every HIP device as the `Hip` trait reads it: name, UUID, the whole
/// properties struct, every attribute, and peer access and P2P attributes
/// for every pair.
fn hip_devices(hip: &dyn Hip) -> Value {
    let count = hip.get_device_count().unwrap_or(0);
    let mut out = Vec::new();
    for ordinal in 0..count {
        let device = hip.device_get(ordinal);
        let attributes: Vec<String> = HipDeviceAttribute::ALL
            .iter()
            .map(|&a| format!("{a:?} {:?}", hip.device_get_attribute(a, ordinal)))
            .collect();
        let peers: Vec<String> = (0..count)
            .map(|peer| {
                let p2p: Vec<String> = [
                    HipP2pAttribute::PerformanceRank,
                    HipP2pAttribute::AccessSupported,
                    HipP2pAttribute::NativeAtomicSupported,
                    HipP2pAttribute::HipArrayAccessSupported,
                ]
                .iter()
                .map(|&a| format!("{:?}", hip.device_get_p2p_attribute(a, ordinal, peer)))
                .collect();
                format!("{:?} {p2p:?}", hip.device_can_access_peer(ordinal, peer))
            })
            .collect();
        out.push(json!({
            "device": format!("{device:?}"),
            "name": format!("{:?}", device.map(|d| hip.device_get_name(d, 256))),
            "uuid": format!("{:?}", device.map(|d| hip.device_get_uuid(d))),
            "props": format!("{:?}", hip.get_device_properties(ordinal)),
            "attributes": attributes,
            "peers": peers,
        }));
    }
    json!({
        "versions": format!("{:?} {:?}", hip.driver_get_version(), hip.runtime_get_version()),
        "count": format!("{:?}", hip.get_device_count()),
        "devices": out,
    })
}

/// HIP enumeration, each device's dump, and the all-devices group's matrix.
fn hip_driver(backend: &Backend) -> amdgpu_hal::Result<Value> {
    let driver = HipDriver::from_backend(backend, HipOptions::default())?;
    let count = driver.device_count()?;
    let infos = driver.query_available_devices()?;
    let dumps: Vec<Value> = infos
        .iter()
        .map(|i| or_err(driver.dump_device_info(i.device_id).map(Value::String)))
        .collect();
    let tracker = Arc::new(FrontierTracker::new(FrontierTrackerOptions::default()));
    let matrix = driver
        .group_all_devices(tracker)
        .map(|g| Value::String(g.topology().dump_matrix()));
    Ok(json!({
        "count": count,
        "devices": format!("{infos:#?}"),
        "dumps": dumps,
        "matrix": or_err(matrix),
    }))
}

/// Loads every fixture on the node's GPUs and reads back what loading made.
fn executables(backend: &Backend, topology: &AgentTopology) -> Value {
    let registry = ProfileRegistry::new();
    let mut out = Vec::new();
    for (path, format) in FIXTURES {
        let data =
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect("read fixture");
        let params = ExecutableParams {
            executable_format: format,
            executable_data: &data,
            queue_affinity: QUEUE_AFFINITY_ANY,
            constant_count: 0,
        };
        let loaded = create(backend.hsa_arc().unwrap(), topology, &params, &registry).map(|exe| {
            let mut exports = Vec::new();
            for ordinal in 0..exe.export_count() as u64 {
                let devices: Vec<Value> = exe
                    .loaded_devices()
                    .into_iter()
                    .map(|d| {
                        json!({
                            "args": format!("{:?}", exe.kernel_args_for_device(ordinal, d)),
                            "dispatch": format!("{:?}", exe.dispatch_descriptor(ordinal, d)),
                        })
                    })
                    .collect();
                exports.push(json!({
                    "symbol": format!("{:?}", exe.export_symbol(ordinal)),
                    "info": format!("{:?}", exe.export_info(ordinal)),
                    "host": format!("{:?}", exe.kernel_args_for_host(ordinal)),
                    "devices": devices,
                }));
            }
            // The HSA objects behind it, read through the trait: kernel
            // symbols on every loaded device and the loaded code objects.
            let hsa = backend.hsa().unwrap();
            let mut symbols = Vec::new();
            let mut code_objects = Vec::new();
            if let Some(handle) = exe.hsa_executable() {
                for device in exe.loaded_devices() {
                    let agent = topology.gpu_agents().get(device).copied();
                    for ordinal in 0..exe.export_count() as u64 {
                        let name = exe.export_symbol(ordinal).unwrap_or_default();
                        let symbol = hsa.executable_get_symbol_by_name(handle, name, agent);
                        symbols.push(format!(
                            "{:?}",
                            symbol.map(|s| (
                                hsa.symbol_kind(s),
                                hsa.symbol_name(s),
                                hsa.symbol_agent(s),
                                hsa.symbol_kernel_object(s),
                                hsa.symbol_kernarg_segment_size(s),
                                hsa.symbol_kernarg_segment_alignment(s),
                                hsa.symbol_group_segment_size(s),
                                hsa.symbol_private_segment_size(s),
                                hsa.symbol_variable_address(s),
                            ))
                        ));
                    }
                }
                for loaded in hsa
                    .executable_iterate_loaded_code_objects(handle)
                    .unwrap_or_default()
                {
                    code_objects.push(format!(
                        "{:?}",
                        (
                            hsa.loaded_code_object_agent(loaded),
                            hsa.loaded_code_object_load_base(loaded),
                            hsa.loaded_code_object_load_delta(loaded),
                            hsa.loaded_code_object_load_size(loaded),
                        )
                    ));
                }
            }
            json!({
                "executable": format!("{exe:?}"),
                "exports": exports,
                "symbols": symbols,
                "code_objects": code_objects,
            })
        });
        out.push(json!({ "fixture": path, "result": or_err(loaded) }));
    }
    Value::Array(out)
}

/// Every suite over `backend`, as one JSON document.
fn transcript(backend: &Backend) -> String {
    let hsa = backend.hsa().unwrap();
    let init = hsa.init().call_status("hsa_init");
    let mut doc = json!({ "init": format!("{init:?}") });
    if init.is_ok() {
        doc["devices"] = or_err(devices(hsa));
        let topology = AgentTopology::from_backend(hsa, 2);
        doc["topology"] = json!(format!("{topology:?}"));
        if let Ok(topology) = &topology {
            doc["commonality"] = json!(format!(
                "{:?}",
                isa::verify_device_isa_commonality(hsa, topology)
            ));
            doc["executables"] = executables(backend, topology);
        }
    }
    doc["hip"] = or_err(hip_driver(backend));
    doc["hip_devices"] = hip_devices(backend.hip());
    doc["shut_down"] = json!(format!("{:?}", hsa.shut_down()));
    serde_json::to_string_pretty(&doc).expect("JSON")
}

fn shim_path() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    // Cargo builds the dev-dependency's cdylib next to this test binary.
    let so = exe.parent().expect("deps dir").join("libamdgpu_sim_ffi.so");
    assert!(so.exists(), "{} not built", so.display());
    so
}

/// The child: both vendor libraries are the shim, through the real backend.
fn child() {
    let shim = format!("file:{}", shim_path().display());
    let hsa = HsaLibrary::load(std::slice::from_ref(&shim)).expect("load the shim as HSA");
    let hip = HipLibrary::load(&[shim]).expect("load the shim as HIP");
    assert!(hip.has_device_properties());
    let machine = std::env::var("AMDGPU_SIM_MACHINE").unwrap_or_default();
    let backend = Backend::new("hsa", machine, Arc::new(hsa), Arc::new(hip));
    let out = std::env::var(OUT_ENV).expect("output path");
    std::fs::write(out, transcript(&backend)).expect("write transcript");
}

/// One scenario both ways; returns a failure description.
fn check(index: usize, machine: &str, faults: &str) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let machine_arg = if machine.contains('/') {
        root.join(machine).display().to_string()
    } else {
        machine.to_string()
    };
    // In process.
    let loaded = amdgpu_hal::backend::load_machine(&machine_arg).map_err(|e| e.to_string())?;
    let sim = Arc::new(Sim::new(loaded));
    amdgpu_sim_ffi::spec::arm(&sim, faults)?;
    let expected = transcript(&Backend::from_sim(Arc::clone(&sim), machine));
    let expected_report = amdgpu_sim_ffi::node::report(&sim);

    // Through the shim, in a child process.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sim-ffi");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let out = dir.join(format!("{index}.json"));
    let report = dir.join(format!("{index}.report"));
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&report);
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let wrapper = std::env::var(WRAPPER_ENV).unwrap_or_default();
    let mut words: Vec<String> = wrapper.split_whitespace().map(String::from).collect();
    words.push(exe.display().to_string());
    let mut command = Command::new(&words[0]);
    command
        .args(&words[1..])
        .env(CHILD_ENV, "1")
        .env(OUT_ENV, &out)
        .env("AMDGPU_SIM_MACHINE", &machine_arg)
        .env("AMDGPU_SIM_FAULTS", faults)
        .env("AMDGPU_SIM_REPORT", &report);
    let output = command
        .output()
        .map_err(|e| format!("spawn {words:?}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "child failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let actual = std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let actual_report =
        std::fs::read_to_string(&report).map_err(|e| format!("{}: {e}", report.display()))?;
    if actual != expected {
        let diff: Vec<String> = expected
            .lines()
            .zip(actual.lines())
            .enumerate()
            .filter(|(_, (e, a))| e != a)
            .take(8)
            .map(|(n, (e, a))| format!("line {}:\n  in-process: {e}\n  ffi:        {a}", n + 1))
            .collect();
        return Err(format!("transcripts differ:\n{}", diff.join("\n")));
    }
    // The call tallies count what each client asked (the dylib backend asks
    // a counted attribute's count again before reading it), and what the
    // client read back is counted only by the C library: compared apart.
    let objects = |report: &str| -> String {
        report
            .lines()
            .filter(|l| !l.starts_with("hsa_calls ") && !l.starts_with("hip_calls "))
            .filter(|l| !l.starts_with("read_back_"))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let (expected_objects, actual_objects) = (objects(&expected_report), objects(&actual_report));
    if actual_objects != expected_objects {
        return Err(format!(
            "reports differ:\n-- in-process\n{expected_report}-- ffi\n{actual_report}"
        ));
    }
    // The launch and instruction tallies count work done, not objects.
    let leaked: Vec<&str> = actual_objects
        .lines()
        .filter(|l| !l.starts_with("injected") && !l.ends_with(" 0"))
        .filter(|l| !l.starts_with("instructions") && !l.starts_with("kernel "))
        .collect();
    if !leaked.is_empty() {
        return Err(format!("live objects after shut-down: {leaked:?}"));
    }
    if !faults.is_empty() && !actual_report.contains("injected") {
        return Err("the fault never fired (the scenario tests nothing)".into());
    }
    Ok(())
}

fn main() {
    if std::env::var_os(CHILD_ENV).is_some() {
        child();
        return;
    }
    // Filters: run the scenarios whose `machine [faults]` name contains any.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let mut failures = Vec::new();
    let mut ran = 0;
    for (index, (machine, faults)) in SCENARIOS.iter().enumerate() {
        let name = format!("{machine} [{faults}]");
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        ran += 1;
        match check(index, machine, faults) {
            Ok(()) => println!("test {name} ... ok"),
            Err(why) => {
                println!("test {name} ... FAILED\n{why}");
                failures.push(name);
            }
        }
    }
    println!("\n{ran} scenarios, {} failed", failures.len());
    if !failures.is_empty() {
        std::process::exit(1);
    }
}
