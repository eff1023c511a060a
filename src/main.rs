//! The `amdgpu-hal` command-line tool.
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    amdgpu_hal::cli::main_with_args()
}
