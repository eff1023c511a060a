//! `amdgpu-hal topology`: builds a device group of one AMDGPU device per GPU
//! agent of the machine and prints its topology: the link class of every
//! pair with a legend and each device's NUMA node (like `nvidia-smi topo -m`
//! / `rocm-smi --showtopo`), the copy costs and each device's peer bitmaps;
//! with `--json`, every field of every edge (CLI-JSON.md `topology`); with
//! `--dot`, a Graphviz graph of the group (`| dot -Tpng -o topology.png`).

use std::io::Write;
use std::sync::Arc;

use clap::Args;

use super::{GlobalArgs, write_error, write_json};
use crate::backend::CallResultExt;
use crate::device::FrontierTracker;
use crate::amdgpu::device::create_gpu_agent_group;
use crate::group::report::{render_dot, render_text, to_json};
use crate::status::{Result, ResultExt, Status};

/// Arguments of `topology`.
#[derive(Debug, Args)]
pub struct TopologyArgs {
    /// With `--backend hip`: the HIP device path whose physical devices form
    /// the group (an index, `GPU-<uuid>` or a comma list); every device when
    /// omitted.
    #[arg(long, value_name = "PATH", allow_negative_numbers = true)]
    pub device: Option<String>,
    /// Print the group as a Graphviz graph (render with `dot -Tpng`).
    #[arg(long, conflicts_with = "json")]
    pub dot: bool,
}

/// Runs `topology`.
pub fn run(global: &GlobalArgs, args: &TopologyArgs, out: &mut dyn Write) -> Result<()> {
    if super::hip::is_hip_driver(global) {
        return super::hip::run_topology_view(
            global,
            args.device.as_deref().unwrap_or(""),
            args.dot,
            out,
        );
    }
    if args.device.is_some() {
        return Err(Status::invalid_argument(
            "--device selects HIP devices: use it with --backend hip or cuda",
        ));
    }
    let backend = global.open_backend()?;
    // Device k of the group is the k-th GPU agent (cli::identity).
    let identities = super::identity::hsa_gpu_identities(&backend)?;
    if identities.is_empty() {
        return Err(super::no_gpu(backend.machine(), backend.name()));
    }
    let hsa = backend.hsa_arc();
    hsa.init().call_status("hsa_init")?;
    let rendered = create_gpu_agent_group(&hsa, Arc::new(FrontierTracker::default()))
        .annotate_with(|| {
            format!(
                "building the device group of machine '{}'",
                backend.machine()
            )
        })
        .and_then(|group| {
            if args.dot {
                let title = format!("{} (backend {})", backend.machine(), backend.name());
                Ok(render_dot(&group, "GPU", &title).into_bytes())
            } else if global.json {
                let mut doc = to_json(&group);
                doc.machine = Some(backend.machine().to_owned());
                doc.backend = Some(backend.name().to_owned());
                for (device, identity) in doc.devices.iter_mut().zip(&identities) {
                    device.identity = Some(identity.clone());
                }
                let mut text = Vec::new();
                write_json(&mut text, &doc)?;
                Ok(text)
            } else {
                let mut header = format!(
                    "Machine: {} (backend {})\n",
                    backend.machine(),
                    backend.name()
                );
                for (k, identity) in identities.iter().enumerate() {
                    header.push_str(&identity.line(&format!("GPU{k}")));
                    header.push('\n');
                }
                header.push('\n');
                Ok([header, render_text(&group, "GPU")].concat().into_bytes())
            }
        });
    let rendered = Status::join_results(rendered, hsa.shut_down().call_status("hsa_shut_down"))?;
    out.write_all(&rendered).map_err(write_error)
}
