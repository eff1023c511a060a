//! `amdgpu-hal info [PATH]`: IREE's HIP `dump_device_info` for the devices
//! a device path selects (every physical device of a comma list, in order).

use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::hip::open_driver;
use super::{GlobalArgs, write_error, write_json};
use crate::status::{Result, Status};

/// Arguments of `info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The device path: empty (the default device), an index, `GPU-<uuid>`,
    /// or a comma list of them.
    #[arg(default_value = "", value_name = "PATH", allow_negative_numbers = true)]
    pub path: String,
}

/// The `info --json` document.
#[derive(Debug, Serialize)]
pub struct InfoJson {
    /// The path as given.
    pub path: String,
    /// One entry per physical device the path selects, in order.
    pub devices: Vec<DeviceDumpJson>,
}

/// One device's dump.
#[derive(Debug, Serialize)]
pub struct DeviceDumpJson {
    /// IREE's device id (ordinal + 1).
    pub device_id: u64,
    /// `GPU-` + 8-4-4-4-12 hex.
    pub path: String,
    /// `hipDeviceGetName`.
    pub name: String,
    /// The dump's `- key: value` lines, in order.
    pub info: Vec<InfoLine>,
}

/// One `- key: value` line of a dump.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct InfoLine {
    /// The key, e.g. `gpu-arch-name`.
    pub key: String,
    /// The value as printed, e.g. `gfx942:sramecc+:xnack-`.
    pub value: String,
}

/// The `- key: value` pairs of a dump, in order (blank lines skipped).
pub fn dump_pairs(dump: &str) -> Vec<InfoLine> {
    dump.lines()
        .filter_map(|line| line.strip_prefix("- "))
        .filter_map(|kv| kv.split_once(": "))
        .map(|(key, value)| InfoLine {
            key: key.to_owned(),
            value: value.to_owned(),
        })
        .collect()
}

/// Dumps the devices of `args.path`.
pub fn run(global: &GlobalArgs, args: &InfoArgs, out: &mut dyn Write) -> Result<()> {
    let (driver, backend) = open_driver(global)?;
    let infos = driver.query_available_devices()?;
    if infos.is_empty() {
        let machine = backend
            .as_ref()
            .map_or(super::hip::HOST_MACHINE, |b| b.machine());
        return Err(super::no_gpu(machine, &global.backend)
            .annotate(format!("device path '{}'", args.path)));
    }
    let devices = driver
        .resolve_path(&args.path)
        .map_err(|e| e.annotate(format!("device path '{}'", crate::escape::echo(&args.path))))?;
    let mut report = InfoJson {
        path: args.path.clone(),
        devices: Vec::new(),
    };
    let mut text = String::new();
    for device in devices {
        let info = infos.iter().find(|i| i.device == device).ok_or_else(|| {
            Status::internal(format!(
                "device {} vanished from the enumeration",
                device.raw()
            ))
        })?;
        let dump = driver.dump_device_info(info.device_id)?;
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&format!(
            "# hip://{}\n# {} (device id {})",
            info.path, info.name, info.device_id.0
        ));
        text.push_str(&dump);
        report.devices.push(DeviceDumpJson {
            device_id: info.device_id.0,
            path: info.path.clone(),
            name: info.name.clone(),
            info: dump_pairs(&dump),
        });
    }
    if global.json {
        return write_json(out, &report);
    }
    out.write_all(text.as_bytes()).map_err(write_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_of_a_dump() {
        let pairs = dump_pairs("\n- a: 1\n\n- b-c: x: y\nnot a pair\n");
        let line = |k: &str, v: &str| InfoLine {
            key: k.into(),
            value: v.into(),
        };
        assert_eq!(pairs, [line("a", "1"), line("b-c", "x: y")]);
    }
}
