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

/// [`PRESETS`] and [`PRESETS_JSON`] from one list of names: each preset's
/// TOML in `fixtures/machines/`, and the JSON `build.rs` makes of it.
macro_rules! presets {
    ($($name:literal),* $(,)?) => {
        /// `(name, TOML text)` of every preset, in display order.
        pub const PRESETS: &[(&str, &str)] = &[$((
            $name,
            include_str!(concat!("../../fixtures/machines/", $name, ".toml")),
        )),*];

        /// `(name, JSON text)` of every preset: its TOML as JSON, which a
        /// process parses in about a third of the instructions
        /// (`build.rs`).
        const PRESETS_JSON: &[(&str, &str)] = &[$((
            $name,
            include_str!(concat!(env!("OUT_DIR"), "/machines/", $name, ".json")),
        )),*];
    };
}

presets!(
    "mi300x-8",
    "mi250x-4",
    "w7900",
    "mixed-isa",
    "cpu-only",
    "mi325x-8",
    "mi300a-4",
    "rx7900xtx",
    "r9700-4",
    "mi355x-8",
);

/// The TOML of preset `name`.
pub fn preset_text(name: &str) -> Option<&'static str> {
    PRESETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// Loads preset `name` (`None` when there is no such preset).
pub fn load_preset(name: &str) -> Option<Result<Machine, MachineError>> {
    PRESETS_JSON
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, json)| Machine::parse(&format!("preset {name}"), json, Format::Json))
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

    /// The JSON a process loads is the TOML's machine: every preset's two
    /// forms give the same machine, field for field.
    #[test]
    fn every_presets_json_is_its_toml() {
        assert_eq!(PRESETS.len(), PRESETS_JSON.len());
        for ((name, toml), (json_name, _)) in PRESETS.iter().zip(PRESETS_JSON) {
            assert_eq!(name, json_name);
            let from_toml = Machine::parse(name, toml, Format::Toml).unwrap();
            let from_json = load_preset(name).unwrap().unwrap();
            assert_eq!(from_json, from_toml, "{name}");
        }
    }
}
