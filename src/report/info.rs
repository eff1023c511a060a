//! The `info` document: IREE's HIP `dump_device_info` for the devices a
//! device path selects (every physical device of a comma list, in order).

use serde::Serialize;

use super::hip::open_driver;
use super::selection::{HOST_MACHINE, Selection, no_gpu};
use crate::status::{Result, Status};

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
    /// The dump as IREE prints it (the text view; not in the JSON).
    #[serde(skip)]
    pub dump: String,
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

/// Dumps the devices of `path` on the HIP driver `selection` selects.
pub fn info(selection: &Selection, path: &str) -> Result<InfoJson> {
    let (driver, backend) = open_driver(selection)?;
    let infos = driver.query_available_devices()?;
    if infos.is_empty() {
        let machine = backend.as_ref().map_or(HOST_MACHINE, |b| b.machine());
        return Err(no_gpu(machine, &selection.backend).annotate(format!("device path '{path}'")));
    }
    let devices = driver
        .resolve_path(path)
        .map_err(|e| e.annotate(format!("device path '{}'", crate::escape::echo(path))))?;
    let mut report = InfoJson {
        path: path.to_owned(),
        devices: Vec::new(),
    };
    for device in devices {
        let info = infos.iter().find(|i| i.device == device).ok_or_else(|| {
            Status::internal(format!(
                "device {} vanished from the enumeration",
                device.raw()
            ))
        })?;
        let dump = driver.dump_device_info(info.device_id)?;
        report.devices.push(DeviceDumpJson {
            device_id: info.device_id.0,
            path: info.path.clone(),
            name: info.name.clone(),
            info: dump_pairs(&dump),
            dump,
        });
    }
    Ok(report)
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
