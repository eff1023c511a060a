//! The two views of a group's topology the CLI prints: a matrix people read
//! (like `nvidia-smi topo -m` / `rocm-smi --showtopo`) and the JSON document
//! whose keys docs/CLI.md fixes.

use std::fmt::Write as _;

use serde::Serialize;

use super::DeviceGroup;
use crate::device::TopologyInfo;
use crate::topology::{Edge, LinkClass, PeerBitmaps, Topology};

/// The matrix code of a link class (the diagonal prints `X`).
pub const fn link_code(class: LinkClass) -> &'static str {
    match class {
        LinkClass::SameDie => "DIE",
        LinkClass::NvlinkIf => "XGMI",
        LinkClass::PcieSameRoot => "PCIE",
        LinkClass::PcieCrossRoot => "SYS",
        LinkClass::HostStaged => "HOST",
        LinkClass::Fabric => "FAB",
        LinkClass::Other => "OTHER",
        LinkClass::Isolated => "ISO",
    }
}

const LEGEND: &str = "\
Legend (code = link_class in --json, IREE's link class names):
  X      = the device itself
  DIE    = same_die: another device on the same die
  XGMI   = nvlink_if: direct GPU link, AMD Infinity Fabric (xGMI) or NVLink
  PCIE   = pcie_same_root: PCIe under one root complex
  SYS    = pcie_cross_root: PCIe across root complexes (through the CPU interconnect)
  HOST   = host_staged: staged through host memory
  FAB    = fabric: network fabric (RDMA)
  OTHER  = other: another kind of link
  ISO    = isolated: no connection
";

fn info_of(group: &DeviceGroup, index: usize) -> Option<TopologyInfo> {
    group
        .device_at(index)
        .and_then(|device| device.topology_info())
        .or_else(|| TopologyInfo::for_device(group.topology(), index, group.frontier_tracker()))
}

fn write_matrix(
    out: &mut String,
    labels: &[String],
    width: usize,
    cell: impl Fn(usize, usize) -> String,
) {
    let _ = write!(out, "{:width$}", "");
    for label in labels {
        let _ = write!(out, "{label:<width$}");
    }
    out.push('\n');
    for (i, label) in labels.iter().enumerate() {
        let _ = write!(out, "{label:<width$}");
        for j in 0..labels.len() {
            let _ = write!(out, "{:<width$}", cell(i, j));
        }
        out.push('\n');
    }
}

/// The human-readable topology: the link class per pair with each device's
/// NUMA node, the legend, the copy costs, and each device's bitmaps and
/// base axis. Devices are labelled `<prefix><index>`.
pub fn render_text(group: &DeviceGroup, prefix: &str) -> String {
    let topology = group.topology();
    let n = topology.device_count();
    let labels: Vec<String> = (0..n).map(|i| format!("{prefix}{i}")).collect();
    let width = labels.iter().map(String::len).max().unwrap_or(0).max(5) + 2;
    let edge = |i: usize, j: usize| topology.edge(i, j).unwrap_or(Edge::EMPTY);
    let mut out = String::new();
    let _ = writeln!(out, "Device topology ({n} devices):\n");

    let mut header = labels.clone();
    header.push("NUMA".to_owned());
    let _ = write!(out, "{:width$}", "");
    for label in &header {
        let _ = write!(out, "{label:<width$}");
    }
    out.push('\n');
    for (i, label) in labels.iter().enumerate() {
        let _ = write!(out, "{label:<width$}");
        for j in 0..n {
            let code = if i == j {
                "X"
            } else {
                link_code(edge(i, j).link_class())
            };
            let _ = write!(out, "{code:<width$}");
        }
        let _ = writeln!(out, "{}", topology.numa_node(i).unwrap_or(0));
    }
    out.push('\n');
    out.push_str(LEGEND);

    out.push_str("\nCopy cost (0 = cheapest, 15 = most expensive), row = source:\n");
    write_matrix(&mut out, &labels, width, |i, j| {
        edge(i, j).copy_cost().to_string()
    });

    let _ = writeln!(out, "\nPeers of each device (bit j = {prefix}j):");
    let columns = [
        "can_wait_from",
        "can_signal_to",
        "can_import_from",
        "can_p2p_with",
        "base_axis",
    ];
    let _ = write!(out, "{:width$}", "");
    for column in columns {
        let _ = write!(out, "{column:<17}");
    }
    out.push('\n');
    for (i, label) in labels.iter().enumerate() {
        let Some(info) = info_of(group, i) else {
            continue;
        };
        let PeerBitmaps {
            can_wait_from,
            can_signal_to,
            can_import_from,
            can_p2p_with,
        } = info.peer_bitmaps();
        let _ = write!(out, "{label:<width$}");
        for bitmap in [can_wait_from, can_signal_to, can_import_from, can_p2p_with] {
            let _ = write!(out, "{:<17}", format!("0x{bitmap:08x}"));
        }
        let _ = writeln!(out, "{}", info.frontier.base_axis);
    }
    // Columns are padded to a fixed width; no line ends in padding.
    let mut trimmed = String::with_capacity(out.len());
    for line in out.lines() {
        trimmed.push_str(line.trim_end());
        trimmed.push('\n');
    }
    trimmed
}

/// One edge as JSON (`edges[i][j]` of the `topology` document).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct EdgeJson {
    /// Source device.
    pub src: usize,
    /// Destination device.
    pub dst: usize,
    /// The scheduling word, `0x` + 16 hex digits.
    pub lo: String,
    /// The interop word, `0x` + 16 hex digits.
    pub hi: String,
    /// Wait mode.
    pub wait_mode: &'static str,
    /// Signal mode.
    pub signal_mode: &'static str,
    /// Non-coherent buffer read mode.
    pub buffer_read_noncoherent: &'static str,
    /// Non-coherent buffer write mode.
    pub buffer_write_noncoherent: &'static str,
    /// Coherent buffer read mode.
    pub buffer_read_coherent: &'static str,
    /// Coherent buffer write mode.
    pub buffer_write_coherent: &'static str,
    /// Capability names.
    pub capabilities: Vec<&'static str>,
    /// Wait cost.
    pub wait_cost: u8,
    /// Signal cost.
    pub signal_cost: u8,
    /// Copy cost.
    pub copy_cost: u8,
    /// Latency class.
    pub latency_class: u8,
    /// Scaled NUMA distance.
    pub numa_distance: u8,
    /// Link class.
    pub link_class: &'static str,
    /// Semaphore import handle types.
    pub semaphore_import_types: Vec<&'static str>,
    /// Semaphore export handle types.
    pub semaphore_export_types: Vec<&'static str>,
    /// Buffer import handle types.
    pub buffer_import_types: Vec<&'static str>,
    /// Buffer export handle types.
    pub buffer_export_types: Vec<&'static str>,
}

impl EdgeJson {
    /// The JSON form of `edge` from `src` to `dst`.
    pub fn new(src: usize, dst: usize, edge: Edge) -> EdgeJson {
        EdgeJson {
            src,
            dst,
            lo: format!("0x{:016x}", edge.lo),
            hi: format!("0x{:016x}", edge.hi),
            wait_mode: edge.wait_mode().json_name(),
            signal_mode: edge.signal_mode().json_name(),
            buffer_read_noncoherent: edge.buffer_read_mode_noncoherent().json_name(),
            buffer_write_noncoherent: edge.buffer_write_mode_noncoherent().json_name(),
            buffer_read_coherent: edge.buffer_read_mode_coherent().json_name(),
            buffer_write_coherent: edge.buffer_write_mode_coherent().json_name(),
            capabilities: edge.capabilities().json_names(),
            wait_cost: edge.wait_cost(),
            signal_cost: edge.signal_cost(),
            copy_cost: edge.copy_cost(),
            latency_class: edge.latency_class(),
            numa_distance: edge.numa_distance(),
            link_class: edge.link_class().json_name(),
            semaphore_import_types: edge.semaphore_import_types().json_names(),
            semaphore_export_types: edge.semaphore_export_types().json_names(),
            buffer_import_types: edge.buffer_import_types().json_names(),
            buffer_export_types: edge.buffer_export_types().json_names(),
        }
    }
}

/// Who a group device is under the other names the CLI prints: its HSA
/// agent (`devices`' `[n]`, rocminfo's UUID) and its IREE HIP device (id and
/// path). The library does not know them; the CLI fills them in.
#[derive(Serialize, Debug, Clone, Default, PartialEq, Eq)]
pub struct DeviceIdentity {
    /// The index of its HSA agent in `hsa_iterate_agents` order, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_index: Option<usize>,
    /// The HSA agent UUID, `GPU-<16 hex>`.
    pub uuid: String,
    /// The product name.
    pub product: String,
    /// IREE's HIP device id (HIP device + 1), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device_id: Option<u64>,
    /// IREE's HIP device path, `GPU-` + 8-4-4-4-12 hex, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl DeviceIdentity {
    /// One text line naming `label` (e.g. `GPU0`) every way:
    /// `GPU0 = agent [2] GPU-8af705259683161c = hip://GPU-38616637-… (device id 1)`.
    pub fn line(&self, label: &str) -> String {
        let mut line = format!("{label} =");
        if let Some(index) = self.agent_index {
            line.push_str(&format!(" agent [{index}]"));
        }
        line.push_str(&format!(" {}", self.uuid));
        if let Some(path) = &self.path {
            line.push_str(&format!(" = hip://{path}"));
        }
        if let Some(id) = self.device_id {
            line.push_str(&format!(" (device id {id})"));
        }
        line
    }
}

/// One device as JSON (`devices[i]`).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct DeviceJson {
    /// Topology index.
    pub index: usize,
    /// Bitmap of peers this device can wait on.
    pub can_wait_from: u32,
    /// Bitmap of peers that can observe this device's signals.
    pub can_signal_to: u32,
    /// Bitmap of peers whose buffers this device can import.
    pub can_import_from: u32,
    /// Bitmap of peers with peer-to-peer access.
    pub can_p2p_with: u32,
    /// Base axis, `0x` + 16 hex digits.
    pub base_axis: String,
    /// The device's other names (keys of [`DeviceIdentity`]), when the
    /// caller set them.
    #[serde(flatten)]
    pub identity: Option<DeviceIdentity>,
}

/// The `topology` JSON document.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct TopologyJson {
    /// The machine, when the caller set it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
    /// The backend, when the caller set it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// Number of devices.
    pub device_count: usize,
    /// NUMA node per device.
    pub numa_nodes: Vec<u8>,
    /// `edges[i][j]`: the edge from i to j.
    pub edges: Vec<Vec<EdgeJson>>,
    /// Per-device bitmaps and base axis.
    pub devices: Vec<DeviceJson>,
}

/// The JSON document of `group` (keys as docs/CLI.md fixes them), without
/// the machine, backend and identities only the caller knows.
pub fn to_json(group: &DeviceGroup) -> TopologyJson {
    let topology: &Topology = group.topology();
    let edges = topology
        .rows()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, edge)| EdgeJson::new(i, j, *edge))
                .collect()
        })
        .collect();
    let devices = (0..topology.device_count())
        .filter_map(|i| {
            let info = info_of(group, i)?;
            Some(DeviceJson {
                index: i,
                can_wait_from: info.can_wait_from,
                can_signal_to: info.can_signal_to,
                can_import_from: info.can_import_from,
                can_p2p_with: info.can_p2p_with,
                base_axis: format!("0x{:016x}", info.frontier.base_axis.0),
                identity: None,
            })
        })
        .collect();
    TopologyJson {
        machine: None,
        backend: None,
        device_count: topology.device_count(),
        numa_nodes: topology.numa_nodes().to_vec(),
        edges,
        devices,
    }
}

/// The Graphviz style of a link class: line style and colour. Cheaper
/// classes draw bolder; [`LinkClass::Isolated`] pairs get no edge at all.
pub const fn dot_style(class: LinkClass) -> (&'static str, &'static str) {
    match class {
        LinkClass::SameDie => ("bold", "darkgreen"),
        LinkClass::NvlinkIf => ("solid", "firebrick"),
        LinkClass::PcieSameRoot => ("dashed", "royalblue"),
        LinkClass::PcieCrossRoot => ("dotted", "darkorange"),
        LinkClass::HostStaged => ("dotted", "gray40"),
        LinkClass::Fabric => ("dashed", "purple"),
        LinkClass::Other | LinkClass::Isolated => ("dotted", "gray70"),
    }
}

/// Node fill colours of `render_dot`, one per NUMA node (cycled).
pub const NUMA_FILLS: [&str; 8] = [
    "#dbe9f6", "#fde0c5", "#d9f0d3", "#e8dff5", "#fff5b1", "#f9d5e5", "#d0f0f0", "#e6e6e6",
];

/// Escapes `text` for a double-quoted Graphviz string.
fn dot_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            '\n' => vec!['\\', 'n'],
            c => vec![c],
        })
        .collect()
}

/// The group's topology as a Graphviz `graph`: one node per device labelled
/// `<prefix><index>` and its NUMA node (and its id, when the ids tell the
/// devices apart), filled with a colour per NUMA node; one
/// undirected edge per connected pair, styled by link class and labelled
/// with the class code and the copy cost (`a/b` when the two directions
/// differ), pen width growing as the cost falls (`9 - 2 × cost`, at least 1). `title` labels the graph.
/// Render with `dot -Tpng`.
pub fn render_dot(group: &DeviceGroup, prefix: &str, title: &str) -> String {
    let topology = group.topology();
    let n = topology.device_count();
    let edge = |i: usize, j: usize| topology.edge(i, j).unwrap_or(Edge::EMPTY);
    let mut out = String::new();
    out.push_str("graph topology {\n");
    let _ = writeln!(
        out,
        "  graph [label=\"{}\", labelloc=t, fontname=\"Helvetica\", layout=circo];",
        dot_escape(title)
    );
    out.push_str("  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n");
    out.push_str("  edge [fontname=\"Helvetica\", fontsize=10];\n");
    let per_device: Vec<u8> = (0..n).map(|i| topology.numa_node(i).unwrap_or(0)).collect();
    let ids: Vec<&str> = group.devices().iter().map(|d| d.id()).collect();
    let mut distinct = ids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let show_ids = distinct.len() == ids.len() && ids.len() > 1;
    // circo lays the devices out on a circle (clusters would be ignored),
    // so the NUMA node is the fill colour as well as a label line.
    for (i, node) in per_device.iter().enumerate() {
        let id = match ids.get(i) {
            Some(id) if show_ids => format!("\\n{}", dot_escape(id)),
            _ => String::new(),
        };
        let fill = NUMA_FILLS
            .get(usize::from(*node) % NUMA_FILLS.len())
            .copied()
            .unwrap_or("#f4f4f4");
        let _ = writeln!(
            out,
            "  d{i} [label=\"{prefix}{i}{id}\\nNUMA {node}\", fillcolor=\"{fill}\"];"
        );
    }
    for i in 0..n {
        for j in (i + 1)..n {
            let (forward, backward) = (edge(i, j), edge(j, i));
            let class = forward.link_class();
            if class == LinkClass::Isolated {
                continue;
            }
            let (style, color) = dot_style(class);
            let (a, b) = (forward.copy_cost(), backward.copy_cost());
            let cost = if a == b {
                a.to_string()
            } else {
                format!("{a}/{b}")
            };
            // Thicker = cheaper: cost 2 draws 5, 3 draws 3, 4 and up draw 1.
            let penwidth = 9u8.saturating_sub(a.min(b).saturating_mul(2)).max(1);
            let _ = writeln!(
                out,
                "  d{i} -- d{j} [label=\"{} {cost}\", style={style}, color={color}, fontcolor={color}, penwidth={penwidth}];",
                link_code(class)
            );
        }
    }
    out.push_str("}\n");
    out
}
