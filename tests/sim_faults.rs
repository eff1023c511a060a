//! Determinism, fault injection and live-object accounting of the simulated
//! node, driven through the backend traits the HAL uses.

use std::sync::Arc;

use amdgpu_hal::backend::{
    Agent, Backend, CallResultExt, DeviceType, HipError, Hsa, HsaStatus, Profile, RoundingMode,
};
use amdgpu_hal::{Result, Status};
use amdgpu_sim::{Fault, HipCode, HsaCode, Sim};

const GFX942: &[u8] =
    include_bytes!("../fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");

fn node() -> (Arc<Sim>, Backend) {
    let sim = Arc::new(Sim::preset("mi300x-8").unwrap().unwrap());
    (Arc::clone(&sim), Backend::from_sim(sim, "mi300x-8"))
}

/// A loading sequence written the way HAL code must write it: every
/// resource it acquired is released on every failure path.
fn load_everywhere(hsa: &dyn Hsa) -> Result<(Vec<u64>, u64)> {
    hsa.init().call_status("hsa_init")?;
    let result = (|| {
        let gpus: Vec<Agent> = {
            let mut gpus = Vec::new();
            for agent in hsa.iterate_agents().call_status("hsa_iterate_agents")? {
                if hsa
                    .agent_device_type(agent)
                    .call_status("hsa_agent_get_info")?
                    == DeviceType::Gpu
                {
                    gpus.push(agent);
                }
            }
            gpus
        };
        let reader = hsa
            .code_object_reader_create_from_memory(GFX942)
            .call_status("reader_create")?;
        let exe = match hsa
            .executable_create_alt(Profile::Full, RoundingMode::Default)
            .call_status("create")
        {
            Ok(exe) => exe,
            Err(status) => {
                return Status::join_results(
                    Err(status),
                    hsa.code_object_reader_destroy(reader).call_status("d"),
                );
            }
        };
        let loaded = (|| {
            for &gpu in &gpus {
                hsa.executable_load_agent_code_object(exe, gpu, reader)
                    .call_status("load")?;
            }
            hsa.executable_freeze(exe).call_status("freeze")?;
            let mut objects = Vec::new();
            for &gpu in &gpus {
                let symbol = hsa
                    .executable_get_symbol_by_name(exe, "vector_add.kd", Some(gpu))
                    .call_status("sym")?;
                objects.push(hsa.symbol_kernel_object(symbol).call_status("info")?);
            }
            // Upload a table to GPU 0's first pool, as the executable loader does.
            let pool = hsa
                .agent_iterate_memory_pools(gpus[0])
                .call_status("pools")?[0];
            let table = hsa
                .memory_pool_allocate(pool, 8 * objects.len() as u64, 0)
                .call_status("alloc")?;
            let bytes: Vec<u8> = objects.iter().flat_map(|o| o.to_le_bytes()).collect();
            if let Err(status) = hsa.memory_copy_to_device(table, &bytes).call_status("copy") {
                return Status::join_results(
                    Err(status),
                    hsa.memory_pool_free(table).call_status("free"),
                );
            }
            hsa.memory_pool_free(table).call_status("free")?;
            Ok(objects)
        })();
        let loaded = Status::join_results(
            loaded,
            hsa.code_object_reader_destroy(reader)
                .call_status("destroy r"),
        );
        let objects = match loaded {
            Ok(objects) => objects,
            Err(status) => {
                return Status::join_results(
                    Err(status),
                    hsa.executable_destroy(exe).call_status("d"),
                );
            }
        };
        Ok((objects, exe.0))
    })();
    match result {
        Ok(value) => Ok(value),
        Err(status) => {
            Status::join_results(Err(status), hsa.shut_down().call_status("hsa_shut_down"))
        }
    }
}

#[test]
fn identical_runs_give_identical_call_logs_and_handles() {
    let (a, backend_a) = node();
    let (b, backend_b) = node();
    let run_a = load_everywhere(backend_a.hsa()).unwrap();
    let run_b = load_everywhere(backend_b.hsa()).unwrap();
    assert_eq!(run_a, run_b);
    let (log_a, dropped_a) = a.call_log();
    let (log_b, dropped_b) = b.call_log();
    assert_eq!((dropped_a, dropped_b), (0, 0));
    assert!(log_a.len() > 40, "{} calls", log_a.len());
    assert_eq!(log_a, log_b);
    // Kernel objects are load base + descriptor offset: the same every run,
    // distinct per agent, and nothing like a host pointer.
    let objects = run_a.0;
    assert_eq!(objects.len(), 8);
    assert!(objects.windows(2).all(|w| w[0] != w[1]));
    assert!(objects.iter().all(|o| o >> 62 == 1 && o & 0xfff == 0x840));
    assert_eq!(log_a[0].to_string(), "hsa_init() -> ok ()");
}

#[test]
fn failing_each_call_in_turn_leaks_nothing() {
    let (probe, backend) = node();
    let (_, exe) = load_everywhere(backend.hsa()).unwrap();
    let total = probe.hsa_call_count();
    backend
        .hsa()
        .executable_destroy(amdgpu_hal::backend::Executable(exe))
        .unwrap();
    assert!(probe.live_objects().is_empty());
    for n in 1..=total {
        for persistent in [false, true] {
            let (sim, backend) = node();
            let fault = Fault::nth_call(n, HsaCode::OUT_OF_RESOURCES);
            sim.inject_hsa(if persistent {
                fault.persistent()
            } else {
                fault
            });
            let status =
                load_everywhere(backend.hsa()).expect_err("an injected failure must surface");
            assert!(
                status.mentions("HSA_STATUS_ERROR_OUT_OF_RESOURCES"),
                "call {n}: {status}"
            );
            let (log, _) = sim.call_log();
            let injected = log.iter().find(|r| r.injected).expect("the fault fired");
            // A failed release leaves its object alive (as in ROCr); every
            // other failure must leave nothing behind. A persistent fault also
            // fails the cleanup calls after it, so only transient ones are exact.
            let release = matches!(
                injected.op,
                "hsa_amd_memory_pool_free"
                    | "hsa_code_object_reader_destroy"
                    | "hsa_executable_destroy"
            );
            let live = sim.live_objects();
            if !persistent && !release {
                assert!(
                    live.is_empty(),
                    "call {n} ({}) leaked {live:?}",
                    injected.op
                );
            }
            if release && !persistent {
                let objects = live.allocations + live.readers + live.executables;
                assert_eq!(objects, 1, "call {n} ({}): {live:?}", injected.op);
            }
        }
    }
}

#[test]
fn named_operation_faults_are_transient_or_persistent() {
    let (sim, backend) = node();
    let hsa = backend.hsa();
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
    let hsa = backend.hsa();
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
    let quiet = load_everywhere(backend.hsa()).unwrap();
    assert_eq!(sim.call_log(), (Vec::new(), 0));
    let calls = sim.hsa_call_count();
    assert!(calls > 40, "{calls} calls");
    // Same handles as with the log on: logging changes nothing else.
    let (logged, logged_backend) = node();
    assert_eq!(load_everywhere(logged_backend.hsa()).unwrap(), quiet);
    assert_eq!(logged.hsa_call_count(), calls);
    assert_eq!(logged.call_log().0.len() as u64, calls);
    // Faults still fire; switched back on, the log resumes.
    let (sim, backend) = node();
    sim.set_call_log(false);
    sim.inject_hsa(Fault::nth_call(3, HsaCode::OUT_OF_RESOURCES));
    let status = load_everywhere(backend.hsa()).expect_err("the fault fires");
    assert!(
        status.mentions("HSA_STATUS_ERROR_OUT_OF_RESOURCES"),
        "{status}"
    );
    assert!(sim.call_log().0.is_empty());
    sim.set_call_log(true);
    backend.hsa().init().unwrap();
    let (log, _) = sim.call_log();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].to_string(), "hsa_init() -> ok ()");
}
