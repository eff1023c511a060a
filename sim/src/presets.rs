//! Machine descriptions embedded from `fixtures/machines/`.

use crate::validate::{Format, Machine, MachineError};

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
