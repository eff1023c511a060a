//! Every creation path, swept on every preset with `sweep::sweep`: each HSA
//! (and, where the path makes them, HIP) call fails in turn, transient and
//! persistent, and the path must surface the injected status and leave
//! nothing behind. The numbers are docs/FUZZING.md's fault-sweep table
//! (`cargo test --test it sim::fault_sweep:: -- --nocapture` prints it).

use crate::sweep;

use std::path::PathBuf;
use std::sync::Arc;

use amdgpu_hal::amdgpu::agents::{AgentTopology, DEFAULT_GPU_AGENT_QUEUE_COUNT};
use amdgpu_hal::amdgpu::device::{AmdgpuDevice, create_gpu_agent_group, hsa_numa_distances};
use amdgpu_hal::backend::{CallResultExt, Hsa};
use amdgpu_hal::device::{FrontierTracker, HalDevice};
use amdgpu_hal::group::DeviceGroupBuilder;
use amdgpu_hal::hip::{DeviceId, HipDriver, HipOptions};
use amdgpu_hal::report::load::{LoadArgs, load};
use amdgpu_hal::{Result, Status};
use amdgpu_sim::Machine;
use sweep::{Family, Node, Path, SweepReport, presets};

const HSA: &[Family] = &[Family::Hsa];
const HIP: &[Family] = &[Family::Hip];
const BOTH: &[Family] = &[Family::Hsa, Family::Hip];

/// Runs `f` with HSA initialized, shutting it down whatever `f` returns.
fn initialized<T>(node: &Node, f: impl FnOnce(&Arc<dyn Hsa>) -> Result<T>) -> Result<()> {
    let hsa = node.backend.hsa_arc().unwrap();
    hsa.init().call_status("hsa_init")?;
    let result = f(&hsa).map(drop);
    Status::join_results(result, hsa.shut_down().call_status("hsa_shut_down"))
}

fn tracker() -> Arc<FrontierTracker> {
    Arc::new(FrontierTracker::default())
}

/// The raw HSACO matching GPU `gpu`'s ISA (the fixtures' processors; gfx908
/// has none, so the generic gfx9 one).
fn fixture_for(machine: &Machine, gpu: usize) -> PathBuf {
    let isa = machine
        .gpu_indices()
        .get(gpu)
        .and_then(|&a| machine.agents[a].isas.first())
        .map_or("", |isa| isa.name.as_str());
    let name = if isa.contains("gfx942") {
        "vector_add.gfx942_sramecc+_xnack-.cov5.hsaco"
    } else if isa.contains("gfx90a") {
        "vector_add.gfx90a.cov5.hsaco"
    } else if isa.contains("gfx1100") {
        "vector_add.gfx1100.cov5.hsaco"
    } else {
        "vector_add.gfx9-generic.cov6.hsaco"
    };
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hsaco")
        .join(name)
}

/// `load` of the first GPU's fixture with `affinity`, as the CLI runs it:
/// HSA init, topology, creation, the per-device tables, teardown, shutdown.
fn load_with(node: &Node, affinity: u64, gpu_for_fixture: usize) -> Result<()> {
    let machine = node.sim.machine();
    let args = LoadArgs {
        file: fixture_for(machine, gpu_for_fixture),
        affinity,
        executable: None,
    };
    load(&node.backend, &args).map(drop)
}

/// The queues of the last GPU (2 per GPU by default).
fn last_gpu_affinity(machine: &Machine) -> (u64, usize) {
    let gpus = machine.gpu_indices().len().max(1);
    let q = DEFAULT_GPU_AGENT_QUEUE_COUNT;
    let first = (gpus - 1) * q;
    (((1u64 << q) - 1) << first, gpus - 1)
}

/// A HIP driver over the node with the machine's SLIT, as the CLI makes it.
fn hip_driver(node: &Node) -> Result<HipDriver> {
    let hsa = node.backend.hsa().unwrap();
    hsa.init().call_status("hsa_init")?;
    let slit = Status::join_results(
        hsa_numa_distances(hsa),
        hsa.shut_down().call_status("hsa_shut_down"),
    )?;
    Ok(
        HipDriver::from_backend(&node.backend, HipOptions::default())?
            .with_numa_distances(Arc::new(slit)),
    )
}

/// IREE's `multi_dispatch` AMD1 for GPU 0's processor (gfx90a's where the
/// fixtures have none: creation then fails its format check, also swept).
fn amd1_for(machine: &Machine) -> PathBuf {
    let isa = machine
        .gpu_indices()
        .first()
        .and_then(|&a| machine.agents[a].isas.first())
        .map_or("", |isa| isa.name.as_str());
    let arch = ["gfx942", "gfx1100"]
        .into_iter()
        .find(|arch| isa.contains(arch))
        .unwrap_or("gfx90a");
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/iree")
        .join(format!("multi_dispatch.{arch}.amd1"))
}

fn paths() -> Vec<Path> {
    vec![
        Path {
            name: "HSA agent walk (AgentTopology::from_backend)",
            families: HSA,
            tolerated: &[],
            run: |node| {
                initialized(node, |hsa| {
                    AgentTopology::from_backend(hsa.as_ref(), DEFAULT_GPU_AGENT_QUEUE_COUNT)
                })
            },
        },
        Path {
            name: "HSA devices (AmdgpuDevice::enumerate, capabilities)",
            families: HSA,
            tolerated: &[],
            run: |node| {
                initialized(node, |hsa| {
                    for device in AmdgpuDevice::enumerate(hsa)? {
                        device.query_capabilities()?;
                    }
                    Ok(())
                })
            },
        },
        Path {
            name: "HSA device group (create_gpu_agent_group)",
            families: HSA,
            tolerated: &[],
            run: |node| initialized(node, |hsa| create_gpu_agent_group(hsa, tracker())),
        },
        Path {
            name: "HSA device group, devices checked unassigned on failure",
            families: HSA,
            tolerated: &[],
            run: |node| {
                initialized(node, |hsa| {
                    let numa = hsa_numa_distances(hsa.as_ref())?;
                    let devices = AmdgpuDevice::enumerate(hsa)?;
                    let mut builder =
                        DeviceGroupBuilder::new(tracker()).with_numa_distances(Arc::new(numa));
                    for device in &devices {
                        builder.add_device(Arc::clone(device) as Arc<dyn HalDevice>)?;
                    }
                    let group = builder.finalize();
                    if group.is_err() {
                        for (i, device) in devices.iter().enumerate() {
                            assert!(
                                device.topology_info().is_none(),
                                "device {i} half-assigned after a failed group"
                            );
                        }
                    }
                    group.map(drop)
                })
            },
        },
        Path {
            name: "devices (every agent, pool and ISA)",
            families: HSA,
            tolerated: &[],
            run: |node| amdgpu_hal::report::devices::list_agents(&node.backend).map(drop),
        },
        Path {
            name: "HIP driver (create, enumerate)",
            families: HIP,
            tolerated: &[],
            run: |node| hip_driver(node)?.query_available_devices().map(drop),
        },
        Path {
            name: "HIP device by UUID path (all GPUs, peers)",
            families: HIP,
            tolerated: &[],
            run: |node| {
                let driver = hip_driver(node)?;
                let paths: Vec<String> = driver
                    .query_available_devices()?
                    .into_iter()
                    .map(|info| info.path)
                    .collect();
                if paths.is_empty() {
                    return driver.create_device_by_path("", &[]).map(drop);
                }
                driver
                    .create_device_by_path(&paths.join(","), &[])
                    .map(drop)
            },
        },
        Path {
            name: "HIP device by id, and over every id",
            families: HIP,
            tolerated: &[],
            run: |node| {
                let driver = hip_driver(node)?;
                let count = driver.device_count()?;
                driver.create_device_by_id(DeviceId(u64::from(count)), &[])?;
                let ids: Vec<DeviceId> = (1..=u64::from(count)).map(DeviceId).collect();
                driver.create_multi_device_by_ids(&ids).map(drop)
            },
        },
        Path {
            name: "HIP device group (every device)",
            families: HIP,
            tolerated: &[],
            run: |node| hip_driver(node)?.group_all_devices(tracker()).map(drop),
        },
        Path {
            name: "executable create + teardown (raw HSACO, any queue)",
            families: HSA,
            tolerated: &[],
            run: |node| load_with(node, u64::MAX, 0),
        },
        Path {
            name: "executable create + teardown (AMD1, any queue)",
            families: HSA,
            tolerated: &[],
            run: |node| {
                let args = LoadArgs {
                    file: amd1_for(node.sim.machine()),
                    affinity: u64::MAX,
                    executable: None,
                };
                load(&node.backend, &args).map(drop)
            },
        },
        Path {
            name: "executable create + teardown (last GPU's queues)",
            families: HSA,
            tolerated: &[],
            run: |node| {
                let (affinity, gpu) = last_gpu_affinity(node.sim.machine());
                load_with(node, affinity, gpu)
            },
        },
        Path {
            name: "executable create + teardown (one queue of GPU 0)",
            families: HSA,
            tolerated: &[],
            run: |node| load_with(node, 0b1, 0),
        },
        Path {
            name: "capture",
            families: BOTH,
            // HIP may be unusable where HSA works: capture initializes it
            // best-effort and still describes the HSA agents.
            tolerated: &["hipInit"],
            run: |node| {
                amdgpu_hal::report::capture::capture(&node.backend, "swept", None).map(drop)
            },
        },
    ]
}

/// One row of the table: a path and family over every preset.
struct Row {
    path: &'static str,
    family: Family,
    presets: usize,
    report: SweepReport,
}

#[test]
fn every_creation_path_survives_every_injected_failure_on_every_preset() {
    let machines = presets();
    let mut rows = Vec::new();
    for path in paths() {
        for &family in path.families {
            let mut total = SweepReport::default();
            for machine in &machines {
                let report = sweep::sweep(&path, family, machine);
                total.calls += report.calls;
                total.runs += report.runs;
                total.failed_cleanly += report.failed_cleanly;
                total.teardown_only += report.teardown_only;
                total.tolerated += report.tolerated;
                total.leaks += report.leaks;
            }
            assert!(total.calls > 0, "{}: no {family:?} call swept", path.name);
            rows.push(Row {
                path: path.name,
                family,
                presets: machines.len(),
                report: total,
            });
        }
    }
    println!(
        "| creation path | family | presets | calls swept | runs (transient + persistent) | failed with the injected status | teardown release only | tolerated | leaks found |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for row in &rows {
        let r = &row.report;
        println!(
            "| {} | {:?} | {} | {} | {} | {} | {} | {} | {} |",
            row.path,
            row.family,
            row.presets,
            r.calls,
            r.runs,
            r.failed_cleanly,
            r.teardown_only,
            r.tolerated,
            r.leaks
        );
    }
}
