//! Machine descriptions embedded from `fixtures/machines/`, and the one rule
//! that turns a name into a machine (a preset, else a description file)
//! for every process that runs a node from its environment: the C library
//! and the `/dev/kfd` stand-in read [`MACHINE_ENV`] through
//! [`machine_from_env`], so both see the same machine.

use std::io::Read;

use crate::validate::{Format, MAX_DESCRIPTION_BYTES, Machine, MachineError};

/// Environment variable naming the machine of a process's simulated node:
/// a preset name or a TOML/JSON description file (JSON when it ends in
/// `.json`). There is no default: unset, a process has no node.
pub const MACHINE_ENV: &str = "AMDGPU_SIM_MACHINE";

/// The preset the simulator runs when none is named.
pub const DEFAULT_PRESET: &str = "mi300x-8";

/// `(name, TOML text)` of every preset, in display order.
pub const PRESETS: &[(&str, &str)] = &[
    (
        "mi300x-8",
        include_str!("../../fixtures/machines/mi300x-8.toml"),
    ),
    (
        "mi250x-4",
        include_str!("../../fixtures/machines/mi250x-4.toml"),
    ),
    ("w7900", include_str!("../../fixtures/machines/w7900.toml")),
    (
        "mixed-isa",
        include_str!("../../fixtures/machines/mixed-isa.toml"),
    ),
    (
        "cpu-only",
        include_str!("../../fixtures/machines/cpu-only.toml"),
    ),
    (
        "mi325x-8",
        include_str!("../../fixtures/machines/mi325x-8.toml"),
    ),
    (
        "mi300a-4",
        include_str!("../../fixtures/machines/mi300a-4.toml"),
    ),
    (
        "rx7900xtx",
        include_str!("../../fixtures/machines/rx7900xtx.toml"),
    ),
    (
        "r9700-4",
        include_str!("../../fixtures/machines/r9700-4.toml"),
    ),
    (
        "mi355x-8",
        include_str!("../../fixtures/machines/mi355x-8.toml"),
    ),
];

/// The TOML of preset `name`.
pub fn preset_text(name: &str) -> Option<&'static str> {
    PRESETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// Loads preset `name` (`None` when there is no such preset).
pub fn load_preset(name: &str) -> Option<Result<Machine, MachineError>> {
    preset_text(name).map(|text| Machine::parse(&format!("preset {name}"), text, Format::Toml))
}

/// Loads a preset by name, else a description file (at most
/// [`MAX_DESCRIPTION_BYTES`] read); the error is one line naming the
/// presets, with the closest one when the name looks misspelt.
pub fn load_machine(name_or_path: &str) -> Result<Machine, String> {
    if let Some(preset) = load_preset(name_or_path) {
        return preset.map_err(|e| e.to_string());
    }
    let file = std::fs::File::open(name_or_path).map_err(|e| {
        let presets: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
        let suggestion = crate::suggest::closest(name_or_path, presets.iter().copied())
            .map(|close| format!("; did you mean '{close}'?"))
            .unwrap_or_default();
        format!(
            "no machine preset or file named '{name_or_path}' ({e}){suggestion}; presets: {}",
            presets.join(", ")
        )
    })?;
    let mut text = String::new();
    file.take(MAX_DESCRIPTION_BYTES as u64 + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("machine description '{name_or_path}': {e}"))?;
    Machine::parse(name_or_path, &text, Format::from_file_name(name_or_path))
        .map_err(|e| e.to_string())
}

/// The machine [`MACHINE_ENV`] names ([`load_machine`]); an empty variable
/// counts as unset. The error is one line that starts with the variable.
pub fn machine_from_env() -> Result<Machine, String> {
    let name = std::env::var(MACHINE_ENV)
        .ok()
        .filter(|v| !v.is_empty())
        .ok_or_else(|| {
            format!("{MACHINE_ENV} is not set (a machine preset name or description file)")
        })?;
    load_machine(&name).map_err(|e| format!("{MACHINE_ENV}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_loads() {
        for (name, _) in PRESETS {
            let machine = load_preset(name).unwrap().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(&machine.name, name);
        }
        assert!(load_preset("nope").is_none());
    }
}
