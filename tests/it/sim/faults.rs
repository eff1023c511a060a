//! Determinism, fault injection and live-object accounting of the simulated
//! node, driven through the HAL itself (`amdgpu-hal load`'s sequence) and the
//! backend traits.

use crate::sweep;

use std::path::PathBuf;
use std::sync::Arc;

use amdgpu_hal::Result;
use amdgpu_hal::backend::{Backend, CallResultExt, HipError, HsaStatus, Profile, RoundingMode};
use amdgpu_hal::report::load::{LoadArgs, LoadJson, load};
use amdgpu_sim::{Fault, HipCode, HsaCode, Sim};
use sweep::{Family, Node, Path};

const GFX942: &[u8] =
    include_bytes!("../../../fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");

fn node() -> (Arc<Sim>, Backend) {
    let sim = Arc::new(Sim::preset("mi300x-8").unwrap().unwrap());
    (Arc::clone(&sim), Backend::from_sim(sim, "mi300x-8"))
}

/// The HAL's own loading sequence, as `amdgpu-hal load` runs it: HSA init,
/// topology, executable creation on every GPU, kernel-args tables,
/// dispatch descriptors, teardown, shutdown.
fn load_everywhere(backend: &Backend) -> Result<LoadJson> {
    let args = LoadArgs {
        file: PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco"),
        affinity: u64::MAX,
        executable: None,
    };
    load(backend, &args).map(|loaded| {
        let mut documents = loaded.into_documents();
        documents.swap_remove(0)
    })
}

/// The kernel objects of every export on every device, in order.
fn kernel_objects(doc: &LoadJson) -> Vec<u64> {
    doc.exports
        .iter()
        .flat_map(|e| &e.kernel_objects)
        .map(|hex| hex.0)
        .collect()
}

#[test]
fn identical_runs_give_identical_call_logs_and_handles() {
    let (a, backend_a) = node();
    let (b, backend_b) = node();
    let run_a = load_everywhere(&backend_a).unwrap();
    let run_b = load_everywhere(&backend_b).unwrap();
    assert_eq!(
        serde_json::to_value(&run_a).unwrap(),
        serde_json::to_value(&run_b).unwrap()
    );
    let (log_a, dropped_a) = a.call_log();
    let (log_b, dropped_b) = b.call_log();
    assert_eq!((dropped_a, dropped_b), (0, 0));
    assert!(log_a.len() > 40, "{} calls", log_a.len());
    assert_eq!(log_a, log_b);
    // Kernel objects are load base + descriptor offset: the same every run,
    // distinct per agent, and inside the code windows below the pools'
    // (docs/SIMULATOR.md's address layout: [1 TiB, 2 TiB)). The fixture has
    // two kernels, loaded on all 8 GPUs.
    let objects = kernel_objects(&run_a);
    assert_eq!(objects.len(), 16);
    let distinct: std::collections::BTreeSet<u64> = objects.iter().copied().collect();
    assert_eq!(distinct.len(), 16);
    assert!(
        objects.iter().all(|&o| (1 << 40..2 << 40).contains(&o)),
        "{objects:x?}"
    );
    assert_eq!(log_a[0].to_string(), "hsa_init() -> ok ()");
    assert!(a.live_objects().is_empty());
}

/// Every HSA call of the HAL's loading sequence fails in turn, transient
/// and persistent, through the fault-sweep harness (`tests/it/sweep`).
#[test]
fn failing_each_call_in_turn_leaks_nothing() {
    let path = Path {
        name: "load on every GPU",
        families: &[Family::Hsa],
        tolerated: &[],
        run: |node: &Node| load_everywhere(&node.backend).map(drop),
    };
    let machine = amdgpu_sim::presets::load_preset("mi300x-8")
        .unwrap()
        .unwrap();
    let report = sweep::sweep(&path, Family::Hsa, &machine);
    assert!(report.baseline_ok);
    assert!(report.calls > 100, "{} calls", report.calls);
    assert_eq!(report.runs, 2 * report.calls);
    // The teardown's frees and destroy cannot report: each failing one
    // leaves exactly its object (asserted by the sweep) and the load succeeds.
    assert!(report.teardown_only > 0);
    assert_eq!(
        report.failed_cleanly + report.teardown_only,
        report.runs,
        "{report:?}"
    );
}

#[test]
fn named_operation_faults_are_transient_or_persistent() {
    let (sim, backend) = node();
    let hsa = backend.hsa().unwrap();
    hsa.init().unwrap();
    sim.inject_hsa(Fault::nth_of("hsa_iterate_agents", 2, HsaCode::ERROR));
    assert!(hsa.iterate_agents().is_ok());
    assert_eq!(hsa.iterate_agents(), Err(HsaStatus::Error));
    assert!(hsa.iterate_agents().is_ok());
    sim.inject_hsa(Fault::every(
        "hsa_agent_iterate_isas",
        HsaCode::INVALID_AGENT,
    ));
    let agent = hsa.iterate_agents().unwrap()[2];
    for _ in 0..3 {
        assert_eq!(
            hsa.agent_iterate_isas(agent),
            Err(HsaStatus::ErrorInvalidAgent)
        );
    }
    sim.clear_faults();
    assert_eq!(hsa.agent_iterate_isas(agent).unwrap().len(), 1);
    // HIP faults count HIP calls only.
    sim.inject_hip(Fault::nth_call(1, HipCode::NO_DEVICE));
    let status = backend
        .hip()
        .get_device_count()
        .call_status("hipGetDeviceCount")
        .unwrap_err();
    assert_eq!(
        status.to_string(),
        "FAILED_PRECONDITION; HIP driver error 'hipErrorNoDevice' (100): no ROCm-capable device is detected; hipGetDeviceCount"
    );
    assert_eq!(backend.hip().get_device_count(), Ok(8));
    sim.inject_hip(Fault::every("hipDeviceGet", HipCode(999)).persistent());
    assert_eq!(backend.hip().device_get(0), Err(HipError::Unknown));
}

#[test]
fn live_objects_count_readers_executables_and_allocations() {
    let (sim, backend) = node();
    let hsa = backend.hsa().unwrap();
    hsa.init().unwrap();
    let reader = hsa.code_object_reader_create_from_memory(GFX942).unwrap();
    let exe = hsa
        .executable_create_alt(Profile::Full, RoundingMode::Default)
        .unwrap();
    let pool = hsa
        .agent_iterate_memory_pools(hsa.iterate_agents().unwrap()[2])
        .unwrap()[0];
    let ptr = hsa.memory_pool_allocate(pool, 100, 0).unwrap();
    let live = sim.live_objects();
    assert_eq!(
        (
            live.readers,
            live.executables,
            live.allocations,
            live.allocated_bytes
        ),
        (1, 1, 1, 4096)
    );
    hsa.code_object_reader_destroy(reader).unwrap();
    hsa.executable_destroy(exe).unwrap();
    hsa.memory_pool_free(ptr).unwrap();
    assert!(sim.live_objects().is_empty());
}

#[test]
fn a_switched_off_call_log_keeps_nothing_but_calls_still_count_and_fail() {
    let (sim, backend) = node();
    sim.set_call_log(false);
    let quiet = kernel_objects(&load_everywhere(&backend).unwrap());
    assert_eq!(sim.call_log(), (Vec::new(), 0));
    let calls = sim.hsa_call_count();
    assert!(calls > 40, "{calls} calls");
    // Same handles as with the log on: logging changes nothing else.
    let (logged, logged_backend) = node();
    assert_eq!(
        kernel_objects(&load_everywhere(&logged_backend).unwrap()),
        quiet
    );
    assert_eq!(logged.hsa_call_count(), calls);
    assert_eq!(logged.call_log().0.len() as u64, calls);
    // Faults still fire; switched back on, the log resumes.
    let (sim, backend) = node();
    sim.set_call_log(false);
    sim.inject_hsa(Fault::nth_call(3, HsaCode::OUT_OF_RESOURCES));
    let status = load_everywhere(&backend).expect_err("the fault fires");
    assert!(
        status.mentions("HSA_STATUS_ERROR_OUT_OF_RESOURCES"),
        "{status}"
    );
    assert!(sim.call_log().0.is_empty());
    sim.set_call_log(true);
    backend.hsa().unwrap().init().unwrap();
    let (log, _) = sim.call_log();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].to_string(), "hsa_init() -> ok ()");
}
