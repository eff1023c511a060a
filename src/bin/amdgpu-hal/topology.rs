//! `amdgpu-hal topology`: the device group of the machine's GPU agents
//! (`report::topology`), or with `--backend hip`/`cuda` the HIP devices a
//! path selects (`report::hip`), as text, `--json` or `--dot`.

use std::io::Write;

use amdgpu_hal::report::hip::hip_topology;
use amdgpu_hal::report::topology::{TopologyDocument, TopologyStyle, agent_topology};
use amdgpu_hal::status::{Result, Status};
use clap::Args;

use super::{GlobalArgs, write_error, write_json};

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
    let selection = global.selection();
    let style = match (args.dot, global.json) {
        (true, _) => TopologyStyle::Dot,
        (false, true) => TopologyStyle::Json,
        (false, false) => TopologyStyle::Text,
    };
    let document = if selection.is_hip_driver() {
        hip_topology(&selection, args.device.as_deref().unwrap_or(""), style)?
    } else if args.device.is_some() {
        return Err(Status::invalid_argument(
            "--device selects HIP devices: use it with --backend hip or cuda",
        ));
    } else {
        agent_topology(&selection.open_backend()?, style)?
    };
    match document {
        TopologyDocument::Text(text) => out.write_all(text.as_bytes()).map_err(write_error),
        TopologyDocument::Json(doc) => write_json(out, &doc),
    }
}
