//! `amdgpu-hal info [PATH]`: IREE's HIP `dump_device_info` for the devices
//! a device path selects (`report::info`), as IREE prints it or `--json`.

use std::io::Write;

use amdgpu_hal::report::info::info;
use amdgpu_hal::status::Result;
use clap::Args;

use super::{GlobalArgs, write_error, write_json};

/// Arguments of `info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The device path: empty (the default device), an index, `GPU-<uuid>`,
    /// or a comma list of them.
    #[arg(default_value = "", value_name = "PATH", allow_negative_numbers = true)]
    pub path: String,
}

/// Dumps the devices of `args.path`.
pub fn run(global: &GlobalArgs, args: &InfoArgs, out: &mut dyn Write) -> Result<()> {
    let report = info(&global.selection(), &args.path)?;
    if global.json {
        return write_json(out, &report);
    }
    let mut text = String::new();
    for device in &report.devices {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&format!(
            "# hip://{}\n# {} (device id {})",
            device.path, device.name, device.device_id
        ));
        text.push_str(&device.dump);
    }
    out.write_all(text.as_bytes()).map_err(write_error)
}
