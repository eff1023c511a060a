//! The command line, run as a process: conventions, each subcommand, reviewed outputs, the README walkthrough.

mod capture_roundtrip;
mod conventions;
mod devices;
mod errors;
mod hip;
mod identity;
mod load;
mod newcomer;
mod readme_walkthrough;
mod reviewed;
pub(crate) mod run;
mod topology;
mod vmfb;
mod wrapped;
