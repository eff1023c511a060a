//! The `amdgpu-hal` command-line tool.
#![forbid(unsafe_code)]

fn main() {
    // The CLI lands with the ground-floor issue's `machines`/`devices` subcommands.
    let _ = amdgpu_hal::StatusCode::Unknown;
}
