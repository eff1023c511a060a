//! `amdgpu-hal devices`: the agents of a machine (`report::devices`), or
//! with `--backend hip`/`cuda` the HIP devices with IREE's device ids and
//! paths (`report::hip`).

use std::io::Write;

use amdgpu_hal::escape::Escaped;
use amdgpu_hal::report::devices::{DevicesJson, list_agents};
use amdgpu_hal::report::hip::{HipDevicesJson, list_devices};
use amdgpu_hal::report::{HIP_BACKEND_NAME, Selection};
use amdgpu_hal::status::Result;
use clap::Args;

use super::{GlobalArgs, write_error, write_json};

/// Arguments of `devices` (none besides the global ones).
#[derive(Debug, Args)]
pub struct DevicesArgs {}

/// Lists the agents (text or `--json`).
pub fn run(global: &GlobalArgs, _args: &DevicesArgs, out: &mut dyn Write) -> Result<()> {
    let selection: Selection = global.selection();
    if selection.backend == HIP_BACKEND_NAME {
        let report = list_devices(&selection)?;
        if global.json {
            return write_json(out, &report);
        }
        return write_hip_text(out, &report).map_err(write_error);
    }
    let report = list_agents(&selection.open_listing_backend(false)?)?;
    if global.json {
        return write_json(out, &report);
    }
    write_text(out, &report).map_err(write_error)
}

fn write_text(out: &mut dyn Write, report: &DevicesJson) -> std::io::Result<()> {
    let gpus = report.agents.iter().filter(|a| a.kind == "gpu").count();
    writeln!(
        out,
        "{} (backend {}): {} agent{}, {gpus} GPU",
        report.machine,
        report.backend,
        report.agents.len(),
        if report.agents.len() == 1 { "" } else { "s" }
    )?;
    for agent in &report.agents {
        writeln!(
            out,
            "[{}] {} {} \"{}\" {} node {} numa {}",
            agent.index,
            agent.kind,
            Escaped(&agent.name),
            Escaped(&agent.product),
            Escaped(&agent.uuid),
            agent.node,
            agent.numa_node
        )?;
        if let Some(k) = agent.gpu_index {
            let mut names = format!("GPU{k}");
            if let (Some(path), Some(id)) = (&agent.path, agent.device_id) {
                names.push_str(&format!(" = hip://{path} (device id {id})"));
            }
            writeln!(out, "    as   {names}")?;
        }
        for isa in &agent.isas {
            writeln!(out, "    isa  {}", Escaped(isa))?;
        }
        for pool in &agent.pools {
            let flags = if pool.flags.is_empty() {
                String::new()
            } else {
                format!(" {}", pool.flags.join(","))
            };
            let alloc = if pool.alloc_allowed {
                ""
            } else {
                " (not allocatable)"
            };
            writeln!(
                out,
                "    pool {}{flags} {}{alloc}",
                pool.segment,
                human_size(pool.size)
            )?;
        }
    }
    Ok(())
}

/// `devices --backend hip` as text.
fn write_hip_text(out: &mut dyn Write, report: &HipDevicesJson) -> std::io::Result<()> {
    let n = report.agents.len();
    writeln!(
        out,
        "{} (backend hip): {n} HIP device{}",
        report.machine,
        if n == 1 { "" } else { "s" }
    )?;
    for d in &report.agents {
        let numa = d
            .numa_node
            .map_or_else(|| "?".to_owned(), |n| n.to_string());
        // The HSA names of the same GPU (report::identity).
        let agent = d
            .agent_index
            .map_or_else(String::new, |i| format!(" = agent [{i}]"));
        writeln!(
            out,
            "[{}] id {} {} \"{}\" {} numa {}\n    as   GPU{} = {}{agent}",
            d.index,
            d.device_id,
            d.path,
            Escaped(&d.product),
            Escaped(d.isas.first().map_or("", String::as_str)),
            numa,
            d.index,
            d.uuid,
        )?;
    }
    Ok(())
}

fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = None;
    for name in UNITS {
        if value < 1024.0 {
            break;
        }
        value /= 1024.0;
        unit = Some(name);
    }
    match unit {
        None => format!("{bytes} B"),
        Some(unit) => format!("{value:.1} {unit}"),
    }
}
