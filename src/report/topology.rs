//! The `topology` document: a device group of one AMDGPU device per GPU
//! agent of the machine, drawn as text (the link class of every pair with a
//! legend and each device's NUMA node, like `nvidia-smi topo -m` /
//! `rocm-smi --showtopo`, the copy costs and each device's peer bitmaps), as
//! JSON (every field of every edge, docs/CLI.md `topology`) or as a
//! Graphviz graph. The HIP driver's group is [`super::hip::hip_topology`].

use std::sync::Arc;

use super::identity::hsa_gpu_identities;
use super::selection::no_gpu;
use crate::amdgpu::device::create_gpu_agent_group;
use crate::backend::{Backend, CallResultExt};
use crate::device::FrontierTracker;
use crate::group::DeviceGroup;
use crate::group::report::{DeviceIdentity, TopologyJson, render_dot, render_text, to_json};
use crate::status::{Result, ResultExt, Status};

/// How a topology is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopologyStyle {
    /// The link matrix with its legend, copy costs and bitmaps.
    Text,
    /// The JSON document.
    Json,
    /// A Graphviz graph (`dot -Tpng`).
    Dot,
}

/// A drawn topology: text (`Text`, `Dot`) or the JSON document.
#[derive(Debug)]
pub enum TopologyDocument {
    /// The text or Graphviz drawing.
    Text(String),
    /// The JSON document, machine, backend and identities filled in.
    Json(Box<TopologyJson>),
}

/// Draws `group` of `machine` (backend `backend`) in `style`; device k's
/// other names are `identities[k]` where known.
pub fn render_group(
    group: &DeviceGroup,
    machine: &str,
    backend: &str,
    identities: &[Option<DeviceIdentity>],
    style: TopologyStyle,
) -> TopologyDocument {
    match style {
        TopologyStyle::Dot => {
            let title = format!("{machine} (backend {backend})");
            TopologyDocument::Text(render_dot(group, "GPU", &title))
        }
        TopologyStyle::Json => {
            let mut doc = to_json(group);
            doc.machine = Some(machine.to_owned());
            doc.backend = Some(backend.to_owned());
            for (device, identity) in doc.devices.iter_mut().zip(identities) {
                device.identity = identity.clone();
            }
            TopologyDocument::Json(Box::new(doc))
        }
        TopologyStyle::Text => {
            let mut text = format!("Machine: {machine} (backend {backend})\n");
            for (k, identity) in identities.iter().enumerate() {
                if let Some(identity) = identity {
                    text.push_str(&identity.line(&format!("GPU{k}")));
                    text.push('\n');
                }
            }
            text.push('\n');
            text.push_str(&render_text(group, "GPU"));
            TopologyDocument::Text(text)
        }
    }
}

/// The group of `backend`'s GPU agents (device k is the k-th GPU agent),
/// drawn in `style`; HSA is initialized for it and shut down after it.
pub fn agent_topology(backend: &Backend, style: TopologyStyle) -> Result<TopologyDocument> {
    let identities = hsa_gpu_identities(backend)?;
    if identities.is_empty() {
        return Err(no_gpu(backend.machine(), backend.name()));
    }
    let identities: Vec<_> = identities.into_iter().map(Some).collect();
    let hsa = backend.hsa_arc()?;
    hsa.init().call_status("hsa_init")?;
    let rendered = create_gpu_agent_group(&hsa, Arc::new(FrontierTracker::default()))
        .annotate_with(|| {
            format!(
                "building the device group of machine '{}'",
                backend.machine()
            )
        })
        .map(|group| {
            render_group(
                &group,
                backend.machine(),
                backend.name(),
                &identities,
                style,
            )
        });
    Status::join_results(rendered, hsa.shut_down().call_status("hsa_shut_down"))
}
